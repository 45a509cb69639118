/* SPDX-License-Identifier: GPL-2.0-only */
/* 8254 PIT channel 2 as a TSC calibration reference (gated through port
 * 0x61, no interrupt).  Some recent platforms gate the PIT's clock off;
 * the measurement then times out and says so.  Channel 0 (output = ISA
 * IRQ 0) drives the uniprocessor NMI watchdog (kernel/nmi_watch.c). */
#ifndef RINGLAB_ARCH_X86_PIT_H
#define RINGLAB_ARCH_X86_PIT_H

#include <stdbool.h>
#include <stdint.h>

#define PIT_HZ 1193182u

/* Count `ticks` PIT cycles (<= 65535) on channel 2 and return the TSC
 * cycles they took in *tsc_cycles, with *err_cycles bounding the error (half
 * the brackets around the start and the end).  Gives up after
 * max_tsc_cycles.  *high_at_once: OUT2 was already high at the first poll
 * (no PIT counting behind the ports, e.g. QEMU pit=off; or this CPU was
 * held up past the whole count, so the caller retries before it concludes
 * that).  Port 0x61 is restored. */
bool pit_measure_tsc(uint16_t ticks, uint64_t max_tsc_cycles, uint64_t *tsc_cycles,
		     uint64_t *err_cycles, bool *high_at_once);

/* Channel 0 as a rate generator (mode 2): IRQ 0 every divisor/PIT_HZ s. */
void pit_ch0_periodic(uint16_t divisor);
/* Channel 0 back to a BIOS tick: the periodic mode (2 or 3) its saved
 * read-back status shows, else 3, with count 65536 (18.2 Hz).  Returns the
 * mode programmed. */
unsigned pit_ch0_restore(uint8_t status);
/* Channel 0's read-back status byte: bit 7 OUT, bits 5:4 access, 3:1 mode. */
uint8_t pit_ch0_status(void);

#endif
