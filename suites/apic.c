/* SPDX-License-Identifier: GPL-2.0-only */
/* apic: the local APIC in the mode ringlab chose, and IPI delivery:
 * self-IPIs, fixed IPIs to every CPU and the all-but-self shorthand, each
 * delivered exactly once over many rounds; ESR clean; spurious vector. */
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/cpu.h"
#include "arch/x86/msr.h"
#include "arch/x86/traps.h"
#include "arch/x86/trapnr.h"
#include "arch/x86/vectors.h"
#include "kernel/platform.h"
#include "lib/string.h"

SUITE(apic, 60, "local APIC mode, IPI delivery exactly once, ESR, spurious vector");

/* Delivered-interrupt counters, one cache line per CPU so that counting
 * does not add cross-CPU traffic of its own. */
struct counter {
	volatile uint64_t n;
	uint64_t pad[7];
};
static struct counter *hits;

static void count_irq(struct regs *r)
{
	(void)r;
	hits[plat_this_cpu()].n++;
}

static bool setup_counters(struct test_ctx *t, unsigned *vec)
{
	hits = t_alloc(t, plat_ncpus() * sizeof(*hits));
	*vec = irq_alloc_vector(count_irq);
	return *vec || t_fail(t, "no free vector");
}

/* Wait until cpu's counter reaches want (bounded). */
static bool wait_count(unsigned cpu, uint64_t want, uint64_t timeout_us)
{
	return plat_spin_until(hits[cpu].n >= want, timeout_us);
}

struct mode_check {
	uint64_t base;
	uint32_t svr, lvr, id;
};
static struct mode_check *modes;

static void read_mode(void *p)
{
	(void)p;
	struct mode_check *m = &modes[plat_this_cpu()];

	m->base = rdmsr(MSR_IA32_APICBASE);
	m->svr = apic_read(APIC_SPIV);
	m->lvr = apic_read(APIC_LVR);
	m->id = apic_id();
}

TEST(apic, mode)
{
	static unsigned list[PLAT_MAX_CPUS];
	unsigned n = 0;

	modes = t_alloc(t, plat_ncpus() * sizeof(*modes));
	n = plat_online_cpus(list, sizeof(list) / sizeof(list[0]));
	int rc = plat_call_many(list, n, read_mode, 0, 2000, NULL);

	if (rc) {
		t_fail(t, "reading APIC state on every CPU: %s", plat_strerror(rc));
		return;
	}
	bool want_x2 = plat_apic_mode() == APIC_MODE_X2APIC;

	t_diag(t, "mode %s (boot mode %s%s); CPUID x2APIC %s", apic_mode_name(plat_apic_mode()),
	       apic_mode_name(apic_boot_mode), apic_mode_forced ? ", forced or fallback" : "",
	       plat_cpu_has(X86_FEATURE_X2APIC) ? "yes" : "no");
	if (!apic_mode_forced && plat_cpu_has(X86_FEATURE_X2APIC))
		t_check(t, want_x2, "CPUID has x2APIC and nothing forced xAPIC, yet the mode is xAPIC");
	/* arch/x86/apic_timer.c checks every TSC-deadline arm by reading the
	 * MSR back; one that did not take was re-armed in count mode. */
	if (timer_deadline_fallbacks)
		t_diag(t, "%u TSC-deadline arm(s) did not take (IA32_TSC_DEADLINE read back 0 before the deadline); the watchdog used one-shot count mode for them",
		       timer_deadline_fallbacks);
	for (unsigned k = 0; k < n; k++) {
		unsigned i = list[k];
		const struct mode_check *m = &modes[i];
		bool en = m->base & MSR_IA32_APICBASE_ENABLE, x2 = m->base & MSR_IA32_APICBASE_EXTD;
		uint32_t ver = APIC_LVR_VERSION(m->lvr), maxlvt = APIC_LVR_MAXLVT(m->lvr);

		t_check(t, en, "cpu %u: APIC globally disabled (IA32_APIC_BASE=0x%llx)", i,
			(unsigned long long)m->base);
		t_check(t, x2 == want_x2, "cpu %u: EXTD=%d but the kernel runs %s", i, x2,
			apic_mode_name(plat_apic_mode()));
		t_check(t, (m->base & MSR_IA32_APICBASE_BSP) == (i == 0 ? MSR_IA32_APICBASE_BSP : 0),
			"cpu %u: BSP flag %s", i, (m->base & MSR_IA32_APICBASE_BSP) ? "set" : "clear");
		/* Integrated APICs report version 0x1X (SDM vol. 3 §11.4.8). */
		t_check(t, ver >= 0x10 && ver <= 0x1f, "cpu %u: APIC version 0x%x is not an integrated APIC",
			i, ver);
		t_check(t, maxlvt >= 3, "cpu %u: only %u LVT entries", i, maxlvt + 1);
		t_check(t, (m->svr & APIC_SPIV_APIC_ENABLED) && (m->svr & 0xff) == VEC_SPURIOUS,
			"cpu %u: SVR 0x%x (want enabled, vector 0x%x)", i, m->svr, VEC_SPURIOUS);
		t_check(t, m->id == plat_cpu_apic_id(i), "cpu %u: ID register %u, expected %u", i,
			m->id, plat_cpu_apic_id(i));
	}
	if (n)
		t_diag(t, "version 0x%x, %u LVT entries", APIC_LVR_VERSION(modes[0].lvr),
		       APIC_LVR_MAXLVT(modes[0].lvr) + 1);
}

/* quick: a way's rounds stop at its share of the sample budget (each way
 * an equal share of what is left, t_share_cycles()) once SELF_IPI_MIN_QUICK
 * ran: under a hypervisor that
 * emulates the APIC a self-IPI and its wait take most of a millisecond,
 * so the quick default's 1000 rounds a way would cost seconds there.  The
 * minimum still sends, delivers and counts several in a row, which is what
 * "exactly once" needs. */
#define SELF_IPI_MIN_QUICK	8

TEST(apic, self_ipi)
{
	unsigned vec;
	uint64_t want = t_iters(t, 10000, 1000);
	int ways = plat_apic_mode() == APIC_MODE_X2APIC ? 2 : 1;
	struct t_share sh;

	if (!setup_counters(t, &vec))
		return;
	t_share_begin(&sh, (unsigned)ways);
	/* ICR with the self shorthand, and in x2APIC mode also the SELF_IPI
	 * register (SDM vol. 3 §11.12.11). */
	for (int way = 0; way < ways; way++) {
		const char *what = way ? "SELF_IPI MSR" : "ICR self shorthand";
		uint64_t now = lfence_rdtsc();
		uint64_t share_end = t_budgeted(t) ? now + t_share_cycles(t, &sh, now) : 0;
		uint64_t rounds = 0, lost = 0;

		t_share_skip(&sh);
		hits[0].n = 0;
		for (uint64_t r = 1; r <= want; r++) {
			if (share_end && r > SELF_IPI_MIN_QUICK && lfence_rdtsc() >= share_end)
				break;
			if (way == 0)
				apic_send(0, APIC_DEST_SELF | APIC_DM_FIXED | vec);
			else
				wrmsr(MSR_X2APIC_SELF_IPI, vec);
			if (!wait_count(0, r, T_LOST_US)) {
				lost++;
				hits[0].n = r;
			}
			rounds = r;
		}
		plat_delay_us(1000);
		uint64_t got = hits[0].n;

		t_budget_note(t, what, rounds, want);
		t_check(t, lost == 0, "%s: %llu of %llu self-IPIs never arrived", what,
			(unsigned long long)lost, (unsigned long long)rounds);
		t_check(t, got == rounds, "%s: %llu deliveries for %llu self-IPIs", what,
			(unsigned long long)got, (unsigned long long)rounds);
	}
	irq_free_vector(vec);
}

/* Fixed IPIs from the BSP to every other CPU: round r ends when every
 * target has counted r. */
TEST(apic, fixed_all)
{
	unsigned vec, list[1];
	uint64_t want = t_iters(t, 1000, 20), rounds = 0;

	if (!plat_other_cpus(list, 1)) {
		t_skip(t, "needs a second CPU");
		return;
	}
	if (!setup_counters(t, &vec))
		return;
	unsigned n = plat_ncpus();
	uint64_t lost = 0, sent = 0;

	for (uint64_t r = 1; r <= want && !t_expired(t); r++) {
		for (unsigned i = 1; i < n; i++)
			if (plat_online(i)) {
				apic_send(plat_cpu_apic_id(i), APIC_DM_FIXED | vec);
				sent++;
			}
		for (unsigned i = 1; i < n; i++)
			if (plat_online(i) && !wait_count(i, r, T_LOST_US)) {
				lost++;
				t_diag(t, "round %llu: cpu %u has %llu", (unsigned long long)r, i,
				       (unsigned long long)hits[i].n);
				hits[i].n = r;
			}
		rounds = r;
	}
	plat_delay_us(2000);	/* late duplicates would show up now */
	unsigned wrong = 0;

	for (unsigned i = 1; i < n; i++)
		if (plat_online(i) && hits[i].n != rounds && wrong++ < 4)
			t_diag(t, "cpu %u counted %llu of %llu", i, (unsigned long long)hits[i].n,
			       (unsigned long long)rounds);
	t_check(t, lost == 0, "%llu IPIs lost (of %llu)", (unsigned long long)lost,
		(unsigned long long)sent);
	t_check(t, wrong == 0, "%u CPUs counted a different number of IPIs than sent", wrong);
	t_check(t, hits[0].n == 0, "the sender received %llu of its own fixed IPIs",
		(unsigned long long)hits[0].n);
	t_metric_value(t, "delivered", (int64_t)sent, "count", "rounds=%llu targets=%u",
		       (unsigned long long)rounds, n - 1);
	irq_free_vector(vec);
}

TEST(apic, allbut_self)
{
	unsigned vec, list[1];
	uint64_t want = t_iters(t, 1000, 20), rounds = 0, lost = 0;

	if (!plat_other_cpus(list, 1)) {
		t_skip(t, "needs a second CPU");
		return;
	}
	if (!setup_counters(t, &vec))
		return;
	unsigned n = plat_ncpus();

	for (uint64_t r = 1; r <= want && !t_expired(t); r++) {
		apic_send(0, APIC_DEST_ALLBUT | APIC_DM_FIXED | vec);
		for (unsigned i = 1; i < n; i++)
			if (plat_online(i) && !wait_count(i, r, T_LOST_US)) {
				lost++;
				hits[i].n = r;
			}
		rounds = r;
	}
	plat_delay_us(2000);
	unsigned wrong = 0;

	for (unsigned i = 1; i < n; i++)
		if (plat_online(i) && hits[i].n != rounds)
			wrong++;
	t_check(t, lost == 0, "%llu all-but-self deliveries lost", (unsigned long long)lost);
	t_check(t, wrong == 0, "%u CPUs counted a different number than %llu", wrong,
		(unsigned long long)rounds);
	t_check(t, hits[0].n == 0, "the sender received %llu of its all-but-self IPIs",
		(unsigned long long)hits[0].n);
	irq_free_vector(vec);
}

static uint32_t *esr_vals;

/* A fixed IPI may not carry vectors 0-15 (SDM vol. 3 §11.5.3): the
 * control sends the NMI's. */
#define ILLEGAL_FIXED_VECTOR	X86_TRAP_NMI

/* Where the illegal-vector control may run: on bare metal, and under
 * Bochs, whose APIC flags the vector without delivering it (arch/x86/
 * cpuenv.h names the environments).  QEMU's TCG delivers it through IDT
 * gate 2 instead and leaves its ISR bit set, which would poison every
 * later test on this CPU; a hypervisor's APIC model may do the same. */
static bool illegal_vector_safe(void)
{
	return !plat_under_emulator() || !strcmp(plat_env(), "emulator:bochs");
}

static void read_esr(void *p)
{
	(void)p;
	esr_vals[plat_this_cpu()] = apic_read_esr();
}

TEST(apic, esr)
{
	static unsigned list[PLAT_MAX_CPUS];
	unsigned n = 0;

	esr_vals = t_alloc(t, plat_ncpus() * sizeof(uint32_t));
	n = plat_online_cpus(list, sizeof(list) / sizeof(list[0]));
	if (plat_call_many(list, n, read_esr, 0, 2000, NULL) != PLAT_OK) {
		t_fail(t, "could not read every CPU's ESR");
		return;
	}
	for (unsigned k = 0; k < n; k++)
		t_check(t, esr_vals[list[k]] == 0, "cpu %u: ESR 0x%x after the IPI tests", list[k],
			esr_vals[list[k]]);
	t_check(t, apic_error_irqs == 0, "%llu APIC error interrupts so far (last ESR 0x%x)",
		(unsigned long long)apic_error_irqs, apic_last_esr);
	/* Negative control: a fixed IPI with an illegal vector must set
	 * "send illegal vector"; only where that is safe (illegal_vector_safe). */
	uint64_t before = apic_error_irqs;

	if (!illegal_vector_safe()) {
		t_diag(t, "negative control (illegal vector -> ESR bit 5) skipped under a hypervisor or emulator (env=%s)",
		       plat_env());
		return;
	}
	(void)apic_read_esr();
	apic_send(0, APIC_DEST_SELF | APIC_DM_FIXED | ILLEGAL_FIXED_VECTOR);
	plat_delay_us(1000);
	uint32_t esr = apic_read_esr();
	bool seen = (esr & APIC_ESR_SEND_ILLEGAL_VECTOR) || apic_error_irqs != before ||
		    (apic_last_esr & APIC_ESR_SEND_ILLEGAL_VECTOR);

	if (seen)
		t_diag(t, "negative control: illegal vector %u flagged (ESR 0x%x, error interrupts %llu -> %llu)",
		       ILLEGAL_FIXED_VECTOR, esr | apic_last_esr, (unsigned long long)before,
		       (unsigned long long)apic_error_irqs);
	else
		/* Say what was seen, and where: Bochs 2.7 sets only bit 6
		 * (receive illegal vector) for this self-IPI and raises no
		 * error interrupt (docs/platform-notes.md "Bochs"); the
		 * verdict stays a failure, the check is blind there. */
		t_fail(t, "an IPI with illegal vector %u did not set ESR bit 5 (ESR 0x%x, last in the error interrupt 0x%x, %llu error interrupts; env=%s): ESR checking is blind here",
		       ILLEGAL_FIXED_VECTOR, esr, apic_last_esr, (unsigned long long)(apic_error_irqs - before),
		       plat_env());
	apic_error_irqs = before;
}

/* The spurious vector must be counted and must not be EOIed: an EOI would
 * retire whatever else is in service (SDM vol. 3 §11.9).  So the check
 * runs inside a self-IPI's handler, where that vector is in service, and
 * hands the spurious vector to the dispatcher with a synthesized frame
 * (no INT instruction: some hypervisors cannot emulate one).  The vector's
 * ISR bit must survive.  Negative control: an EOI at the same point clears
 * it, so the ISR check can see an EOI. */
static volatile uint32_t sp_isr_before, sp_isr_after;
static volatile uint64_t sp_counted;
static volatile int sp_do_eoi, sp_ran;

static void spurious_probe_irq(struct regs *r)
{
	unsigned v = (unsigned)r->vector;
	unsigned reg = APIC_ISR + (v / 32) * 0x10;
	uint32_t bit = 1u << (v % 32);
	struct regs fake = *r;
	uint64_t before = plat_spurious_count(plat_this_cpu());

	sp_isr_before = apic_read(reg) & bit;
	if (sp_do_eoi) {
		apic_eoi();
	} else {
		fake.vector = VEC_SPURIOUS;
		isr_dispatch(&fake);
	}
	sp_counted = plat_spurious_count(plat_this_cpu()) - before;
	sp_isr_after = apic_read(reg) & bit;
	sp_ran = 1;
}

static bool spurious_round(unsigned vec, int do_eoi)
{
	sp_ran = 0;
	sp_do_eoi = do_eoi;
	apic_send(0, APIC_DEST_SELF | APIC_DM_FIXED | vec);
	return plat_spin_until(sp_ran, T_LOST_US);
}

TEST(apic, spurious)
{
	unsigned vec = irq_alloc_vector(spurious_probe_irq);

	if (!vec) {
		t_fail(t, "no free vector");
		return;
	}
	if (!spurious_round(vec, 0)) {
		t_fail(t, "the probe self-IPI (vector 0x%x) never arrived", vec);
		return;
	}
	if (!sp_isr_before) {
		/* Without a readable ISR nothing here can be judged.  Hardware
		 * must show it; a hypervisor or emulator may not model it. */
		if (plat_under_emulator()) {
			t_check(t, sp_counted == 1, "the spurious path counted %llu interrupts for one",
				(unsigned long long)sp_counted);
			if (!t_failed(t))
				t_skip(t, "this hypervisor's or emulator's APIC (env=%s) does not show the in-service vector in the ISR, so the no-EOI rule cannot be checked",
				       plat_env());
		} else {
			t_fail(t, "vector 0x%x was not in service inside its own handler", vec);
		}
		irq_free_vector(vec);
		return;
	}
	t_check(t, sp_counted == 1, "the spurious path counted %llu interrupts for one",
		(unsigned long long)sp_counted);
	t_check(t, sp_isr_after, "the spurious path issued an EOI: vector 0x%x left service", vec);
	if (!spurious_round(vec, 1)) {
		t_fail(t, "the control self-IPI never arrived");
		return;
	}
	t_check(t, sp_isr_before && !sp_isr_after,
		"control: an EOI did not clear the in-service bit, so the check above is blind");
	uint32_t isr = 0;

	for (unsigned i = 0; i < 8; i++)
		isr |= apic_read(APIC_ISR + i * 0x10);
	t_check(t, isr == 0, "an interrupt is still in service afterwards (ISR word 0x%x)", isr);
	irq_free_vector(vec);
}
