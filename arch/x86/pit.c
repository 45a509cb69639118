/* SPDX-License-Identifier: GPL-2.0-only */
/* PIT channel 2 TSC measurement and channel 0 periodic output; see pit.h.
 * Channel 2 programming as in the 8254 data sheet and Linux's
 * pit_calibrate_tsc(): mode 0 (interrupt on terminal count),
 * lobyte/hibyte; OUT2 is readable as port 0x61 bit 5. */
#include "arch/x86/pit.h"
#include "arch/x86/cpu.h"
#include "arch/x86/tsc_read.h"

#define PIT_CH0		0x40
#define PIT_CH2		0x42
#define PIT_MODE	0x43
#define PORT_B		0x61
#define PORT_B_GATE2	0x01
#define PORT_B_SPEAKER	0x02
#define PORT_B_OUT2	0x20
#define PIT_SEL_CH2_LOHI_MODE0 0xb0
/* Control word (8254 data sheet): SC1:0 channel, RW1:0 = 11 lobyte then
 * hibyte, M2:0 mode, BCD 0. */
#define PIT_SEL_CH0_LOHI_MODE2 0x34	/* rate generator */
#define PIT_SEL_CH0_LOHI_MODE3 0x36	/* square wave */
/* Read-back: 11, COUNT# = 1 (no count latch), STATUS# = 0, channel 0. */
#define PIT_READBACK_CH0_STATUS 0xe2

void pit_ch0_periodic(uint16_t divisor)
{
	/* Mode 2: OUT0 is high and drops for one input clock every
	 * `divisor` clocks, so its rising edges (IRQ 0) are periodic.  The
	 * new count takes effect at once after the control word. */
	outb(PIT_MODE, PIT_SEL_CH0_LOHI_MODE2);
	outb(PIT_CH0, (uint8_t)divisor);
	outb(PIT_CH0, (uint8_t)(divisor >> 8));
}

unsigned pit_ch0_restore(uint8_t status)
{
	/* The 8254 cannot report the reload value the firmware set
	 * (read-back gives the mode and the running count only), so the
	 * count put back is 0 (= 65536, 18.2 Hz), what every PC BIOS
	 * programs at POST for its INT 08h tick.  The mode is the one found
	 * when it was periodic (SeaBIOS uses 2, others 3; read-back codes 6
	 * and 7 are 2 and 3, 8254 data sheet), else mode 3.  Channel 0
	 * cannot be stopped: its gate is tied high on PCs. */
	unsigned mode = (status >> 1) & 7;

	if (mode >= 6)
		mode -= 4;
	if (mode != 2 && mode != 3)
		mode = 3;
	outb(PIT_MODE, mode == 2 ? PIT_SEL_CH0_LOHI_MODE2 : PIT_SEL_CH0_LOHI_MODE3);
	outb(PIT_CH0, 0);
	outb(PIT_CH0, 0);
	return mode;
}

uint8_t pit_ch0_status(void)
{
	outb(PIT_MODE, PIT_READBACK_CH0_STATUS);
	return inb(PIT_CH0);
}

bool pit_measure_tsc(uint16_t ticks, uint64_t max_tsc_cycles, uint64_t *tsc_cycles,
		     uint64_t *err_cycles, bool *high_at_once)
{
	uint8_t saved = inb(PORT_B);
	bool ok = false;

	/* Gate high, speaker off: counting starts when the count is loaded,
	 * i.e. at the write of its high byte, which the TSC brackets. */
	outb(PORT_B, (saved & ~PORT_B_SPEAKER) | PORT_B_GATE2);
	outb(PIT_MODE, PIT_SEL_CH2_LOHI_MODE0);
	outb(PIT_CH2, (uint8_t)ticks);
	uint64_t s0 = rdtsc_ordered();

	outb(PIT_CH2, (uint8_t)(ticks >> 8));
	uint64_t s1 = rdtsc_ordered(), prev = s1, now = s1;

	/* In mode 0 OUT2 goes low on the count write and high at zero; the
	 * end lies between the last poll that saw it low and the first that
	 * saw it high. */
	*high_at_once = false;
	while ((now = rdtsc_ordered()) - s1 < max_tsc_cycles) {
		if (inb(PORT_B) & PORT_B_OUT2) {
			*high_at_once = prev == s1;
			ok = true;
			break;
		}
		prev = now;
	}
	uint64_t e = rdtsc_ordered();

	outb(PORT_B, saved);
	*tsc_cycles = (prev + (e - prev) / 2) - (s0 + (s1 - s0) / 2);
	*err_cycles = (s1 - s0) / 2 + (e - prev) / 2;
	return ok;
}
