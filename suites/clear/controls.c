/* SPDX-License-Identifier: GPL-2.0-only */
/* clear: the negative controls of the zero and guard checks; case
 * controls (suites/clear/clear.h). */
#include "suites/clear/clear.h"

/* The checks above must be able to fail: clear one line short, and one
 * byte long, and see the zero check and the guard check catch each. */
TEST(clear, controls, .order = 40)
{
	const unsigned cpus[1] = { 0 };
	struct cpu_slot cs[1];
	static const struct method short_m = { "short", NULL, 0, NEED_NONE, false, NULL };
	/* one page and its guards: t_alloc zeroes, and the fills and clears
	 * run at ~1 MB/s where an emulator interprets ring 0 */
	const uint64_t slot = PAGE + 2 * GUARD;
	uint8_t *base = t_alloc(t, slot);
	struct cell c = { .m = &short_m, .n = 1, .cpus = cpus, .base = base, .slot = slot,
			  .bytes = PAGE, .reps = 1, .cs = cs };

	cs[0] = (struct cpu_slot){ .cell = &c, .idx = 0 };
	uint8_t *r = region_of(&c, 0);

	for (unsigned over = 0; over < 2; over++) {	/* short by one line, one byte over */
		c.phase = PH_PREP;
		cell_work(&c);
		mem_clear_rep_stosb(r, over ? c.bytes + 1 : c.bytes - 64);
		tsc_barrier_init(&c.rb_bar, 1, 0);
		c.phase = PH_CHECK;
		cell_work(&c);
		if (over)
			break;
		t_check(t, cs[0].orv != 0, "a clear one line short was not detected by the zero check");
		t_check(t, !cs[0].guard_bad, "a short clear damaged a guard (offset %lld)",
			(long long)cs[0].guard_off);
	}
	t_check(t, cs[0].orv == 0, "the overrunning clear left the region non-zero");
	t_check(t, cs[0].guard_bad && cs[0].guard_off == (int64_t)c.bytes,
		"a one-byte overrun was not detected by the guard check (damaged %d at %lld)",
		cs[0].guard_bad, (long long)cs[0].guard_off);
	t_diag(t, "negative controls: short clear -> zero check fired; 1-byte overrun -> guard check fired at +%lld",
	       (long long)cs[0].guard_off);
	controls_fired = !t_failed(t);
}
