/* PIT channel 2 TSC measurement; see pit.h.  Programming as in the 8254
 * data sheet and Linux's pit_calibrate_tsc(): channel 2, mode 0 (interrupt
 * on terminal count), lobyte/hibyte; OUT2 is readable as port 0x61 bit 5. */
#include "arch/x86/pit.h"
#include "arch/x86/cpu.h"
#include "arch/x86/tsc_read.h"

#define PIT_CH2		0x42
#define PIT_MODE	0x43
#define PORT_B		0x61
#define PORT_B_GATE2	0x01
#define PORT_B_SPEAKER	0x02
#define PORT_B_OUT2	0x20
#define PIT_SEL_CH2_LOHI_MODE0 0xb0

bool pit_measure_tsc(uint16_t ticks, uint64_t max_tsc_cycles, uint64_t *tsc_cycles,
		     uint64_t *err_cycles)
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
	while ((now = rdtsc_ordered()) - s1 < max_tsc_cycles) {
		if (inb(PORT_B) & PORT_B_OUT2) {
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
