/* SPDX-License-Identifier: GPL-2.0-only */
/* Starting the application processors (INIT-SIPI-SIPI, SDM vol. 3
 * §9.4.4) through the real-mode trampoline in boot/trampoline.asm.  Each AP
 * identifies itself from CPUID and claims its slot atomically; APs start in
 * parallel unless smpboot=serial.  See smpboot.c for the aliasing rules. */
#ifndef RINGLAB_ARCH_X86_SMPBOOT_H
#define RINGLAB_ARCH_X86_SMPBOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct acpi_info;
struct mem_region;

/* What smpboot_start_aps() needs from the command line and the kernel
 * (filled by kmain).  The call keeps its own copy, so the struct need not
 * outlive it. */
struct smpboot_params {
	const struct mem_region *mmap;	/* the firmware memory map: the AP */
	unsigned nmmap;			/* trampoline goes in a low RAM page */
	/* npages zeroed pages (slot table, per-CPU areas, stacks), or NULL */
	void *(*page_alloc)(size_t npages);
	/* Where an AP goes once it is online: wait for work, run it. */
	void (*ap_idle)(void) __attribute__((noreturn));
	unsigned cpus;			/* cpus=: at most this many CPUs, 0 = all */
	unsigned ap_timeout_ms;		/* ap_timeout=: 0 = the default */
	bool nosmp;			/* nosmp: start no AP */
	bool serial;			/* smpboot=serial */
	bool sim_ap_nostart;		/* simulate=ap-nostart */
	bool sim_ap_alias;		/* simulate=ap-alias */
	bool sim_ap_late;		/* simulate=ap-late */
};

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
void smpboot_start_aps(const struct smpboot_params *prm, const struct acpi_info *ai,
		       struct smpboot_result *res);
const struct smpboot_result *smpboot_get_result(void);
/* Report strays that arrived since bring-up; returns the error total. */
unsigned smpboot_check_strays(void);

#endif
