/* SPDX-License-Identifier: GPL-2.0-only */
/* Wiring between the hardware floor and the log floor, done once at boot:
 * arch/ reports and panics through arch/x86/log.h, which lands here in the
 * report and panic code; panic stops the other CPUs through the hook given
 * here, which lands in the APIC driver; the boot CPU's NMI handler calls the
 * uniprocessor NMI watchdog's tick (kernel/nmi_watch.c).  Neither floor includes the other. */
#include "kernel/arch_hooks.h"
#include "arch/x86/apic.h"
#include "arch/x86/log.h"
#include "arch/x86/percpu.h"
#include "arch/x86/traps.h"
#include "kernel/nmi_watch.h"
#include "kernel/panic.h"
#include "kernel/report.h"

static void log_error(const char *where, const char *text)
{
	rep_error(where, "%s", text);
}

static void log_warn(const char *where, const char *text)
{
	rep_warn(where, "%s", text);
}

static void log_diag(const char *text)
{
	rep_diag("%s", text);
}

static void __attribute__((noreturn)) log_panic(const char *text)
{
	panic("%s", text);
}

static const struct arch_log_ops log_ops = {
	.error = log_error,
	.warn = log_warn,
	.diag = log_diag,
	.panic = log_panic,
	.panic_raw = panic_raw,
	.panic_in_progress = panic_in_progress,
};

/* The others halt in their NMI handler once a panic is in progress. */
static void stop_other_cpus(void)
{
	/* Also hand back the I/O APIC entry and PIT channel 0 of the
	 * uniprocessor NMI watchdog, if armed. */
	nmi_watch_panic_stop();
	if (apic_mode != APIC_MODE_NONE && ncpus > 1)
		apic_send(0, APIC_DM_NMI | APIC_DEST_ALLBUT);
}

void arch_hooks_register(void)
{
	arch_log_register(&log_ops);
	panic_register_stop_others(stop_other_cpus);
	nmi_register_tick(nmi_watch_tick);
}
