/* Starting the application processors (INIT-SIPI-SIPI, SDM vol. 3
 * §9.4.4) through the real-mode trampoline in boot/trampoline.asm.  Each AP
 * identifies itself from CPUID and claims its slot atomically; APs start in
 * parallel unless smpboot=serial.  See smpboot.c for the aliasing rules. */
#ifndef RINGLAB_ARCH_X86_SMPBOOT_H
#define RINGLAB_ARCH_X86_SMPBOOT_H

#include <stdbool.h>
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
	unsigned strays;	/* CPUs that answered a start not meant for them,
				 * or claimed a taken slot: parked, errors */
	unsigned strays_overflow;	/* more strays than the table lists */
	unsigned late;		/* arrived after being given up: parked */
	unsigned fw_xapic_high;	/* IDs > 254 while firmware left xAPIC mode */
	bool serial;		/* smpboot=serial */
	uint64_t total_cycles;	/* whole bring-up */
};

/* Start every usable AP; each that fails is reported and left out. */
void smpboot_start_aps(const struct boot_info *bi, const struct acpi_info *ai,
		       const struct options *o, struct smpboot_result *res);
const struct smpboot_result *smpboot_get_result(void);
/* Report strays that arrived since bring-up; returns the error total. */
unsigned smpboot_check_strays(void);

#endif
