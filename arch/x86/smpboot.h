/* Starting the application processors (INIT-SIPI-SIPI, SDM vol. 3
 * §9.4.4; docs/platform-notes.md "AP start-up delays") through the real-mode trampoline in
 * boot/trampoline.asm. */
#ifndef RINGLAB_ARCH_X86_SMPBOOT_H
#define RINGLAB_ARCH_X86_SMPBOOT_H

#include <stdint.h>

struct acpi_info;
struct options;
struct boot_info;

struct smpboot_result {
	unsigned listed;	/* MADT processor entries */
	unsigned enabled;	/* with the Enabled flag */
	unsigned attempted;	/* APs we tried to start */
	unsigned started;	/* reached ap_main */
	unsigned failed;
	unsigned skipped;	/* not started: cpus=, nosmp, not addressable */
	uint64_t total_cycles;	/* whole bring-up */
};

/* Start every usable AP; each that fails is reported and left out. */
void smpboot_start_aps(const struct boot_info *bi, const struct acpi_info *ai,
		       const struct options *o, struct smpboot_result *res);
const struct smpboot_result *smpboot_get_result(void);

#endif
