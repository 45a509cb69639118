/* 8254 PIT channel 2 as a TSC calibration reference (gated through port
 * 0x61, no interrupt).  Some recent platforms gate the PIT's clock off;
 * the measurement then times out and says so. */
#ifndef RINGLAB_ARCH_X86_PIT_H
#define RINGLAB_ARCH_X86_PIT_H

#include <stdbool.h>
#include <stdint.h>

#define PIT_HZ 1193182u

/* Count `ticks` PIT cycles (<= 65535) on channel 2 and return the TSC
 * cycles they took in *tsc_cycles, with *err_cycles bounding the error (half
 * the brackets around the start and the end).  Gives up after
 * max_tsc_cycles.  Port 0x61 is restored. */
bool pit_measure_tsc(uint16_t ticks, uint64_t max_tsc_cycles, uint64_t *tsc_cycles,
		     uint64_t *err_cycles);

#endif
