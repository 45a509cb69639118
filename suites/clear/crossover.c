/* SPDX-License-Identifier: GPL-2.0-only */
/* clear: MOVNTI (and each NT method) against REP STOSB per shape and CPU
 * count, the separation test, and the nt_clear answer; case crossover
 * (suites/clear/clear.h). */
#include "suites/clear/clear.h"
#include "lib/printf.h"
#include "lib/string.h"

/* The separation test: at one size, one method beats the other only where
 * their spreads do not overlap -- the winner's 25th percentile above the
 * loser's 75th -- with at least SEP_MIN_N samples on each side.  Medians
 * alone are not evidence: at 1 GiB a full run had 3 samples a cell, and
 * the interquartile ranges of MOVNTI and REP STOSB overlapped while their
 * medians differed by a few percent. */
#define SEP_MIN_N	5

/* +1: a separated win of a over b; -1: a separated loss; 0: the spreads
 * overlap, too few samples on a side, or one side not measured */
static int separated(const struct cstat *a, const struct cstat *b)
{
	if (!a->med || !b->med || a->n < SEP_MIN_N || b->n < SEP_MIN_N)
		return 0;
	if (a->p25 > b->p75)
		return 1;
	return a->p75 < b->p25 ? -1 : 0;
}

/* What one crossover found, for the answer. */
struct xo {
	bool measured;
	int from;		/* size index of the separated crossover, -1: none */
	int median_from;	/* the same by medians alone (clear_crossover) */
	unsigned wins, losses, ties, few;	/* sizes: separated win, loss, overlap, n < SEP_MIN_N */
	unsigned nmin;		/* the fewest samples of a cell it rests on */
	bool reaches_2llc;	/* the run of wins reaches a size >= 2 x LLC */
	char text[200];
	char metric[64];	/* the metric's full name */
};

/* A size index's bytes per CPU (0: "largest", as much as fits, which is
 * taken to be at least 2 x LLC: clear_sizes() puts it last, above it) */
static bool at_least_2llc(unsigned si)
{
	return !size_bytes_seen[si] || (llc_seen && size_bytes_seen[si] >= 2 * llc_seen);
}

/* Method m against REP STOSB over the sizes of one shape and CPU count:
 * "from S on" only if it wins, separated, at every measured size >= S up
 * to the largest, and that largest is at least 2 x LLC (below that, a
 * region larger than the caches was never measured: the claim says so). */
static void method_crossover(unsigned shape, unsigned all, unsigned m, struct xo *x)
{
	uint64_t nt[CLEAR_MAX_SIZES], stosb[CLEAR_MAX_SIZES];
	unsigned nsz = nsizes_seen[shape];
	int last = -1;

	*x = (struct xo){ .from = -1, .nmin = ~0u };
	for (unsigned s = 0; s < nsz; s++) {
		const struct cstat *a = &cst[shape][all][m][s], *b = &cst[shape][all][METHOD_REP_STOSB][s];

		nt[s] = a->med;
		stosb[s] = b->med;
		if (!a->med || !b->med)
			continue;
		last = (int)s;
		x->nmin = a->n < x->nmin ? a->n : x->nmin;
		x->nmin = b->n < x->nmin ? b->n : x->nmin;
		int v = separated(a, b);

		if (a->n < SEP_MIN_N || b->n < SEP_MIN_N)
			x->few++;
		else if (v > 0)
			x->wins++;
		else if (v < 0)
			x->losses++;
		else
			x->ties++;
	}
	if (last < 0)
		return;
	x->measured = true;
	x->median_from = clear_crossover(nt, stosb, nsz);
	/* walk down from the largest measured size: the start of the
	 * unbroken run of separated wins that reaches it; brk, the size
	 * that ends it (why: v) */
	int brk = -1, v = 0;

	for (int s = last; s >= 0; s--) {
		const struct cstat *a = &cst[shape][all][m][s], *b = &cst[shape][all][METHOD_REP_STOSB][s];

		if (!a->med || !b->med)
			continue;
		v = separated(a, b);
		if (v <= 0) {
			brk = s;
			break;
		}
		x->from = s;
	}
	x->reaches_2llc = at_least_2llc((unsigned)last);
	if (x->from >= 0)
		rl_snprintf(x->text, sizeof(x->text), "from %s on", size_names[x->from]);
	else {
		const struct cstat *a = &cst[shape][all][m][brk], *b = &cst[shape][all][METHOD_REP_STOSB][brk];
		unsigned n = a->n < b->n ? a->n : b->n;

		if (n < SEP_MIN_N)
			rl_snprintf(x->text, sizeof(x->text), "not shown (%s: n=%u<%u)", size_names[brk], n,
				    SEP_MIN_N);
		else
			rl_snprintf(x->text, sizeof(x->text), "not shown (%s: %s)", size_names[brk],
				    v < 0 ? "slower, separated" : "spreads overlap");
	}
	/* a claim for every size from S on needs a measured size of at
	 * least 2 x LLC: below it, nothing larger than the caches was seen */
	if (x->from >= 0 && !x->reaches_2llc && x->from == last)
		rl_snprintf(x->text, sizeof(x->text), "at %s only (<2xLLC)", size_names[last]);
	else if (x->from >= 0 && !x->reaches_2llc)
		rl_snprintf(x->text, sizeof(x->text), "from %s to %s (<2xLLC)", size_names[x->from],
			    size_names[last]);
}


/* One crossover's metric and conclusions; its metric's name joins from[]. */
static void crossover_for(struct test_ctx *t, unsigned shape, unsigned all, struct xo *x,
			  char *from, size_t fromsz)
{
	const char *cpus = all ? "all CPUs" : "1 CPU";
	unsigned nsz = nsizes_seen[shape];
	char what[64], others[400] = "";
	bool any = false;

	method_crossover(shape, all, METHOD_MOVNTI, x);
	if (!x->measured)
		return;
	size_t fl = strlen(from);
	/* the read-back cost beside it: at the crossover, else the largest */
	unsigned at = x->from >= 0 ? (unsigned)x->from : nsz - 1;
	const struct cstat *mv = &cst[shape][all][METHOD_MOVNTI][at];
	const struct cstat *sb = &cst[shape][all][METHOD_REP_STOSB][at];

	rl_snprintf(what, sizeof(what), "movnti.%s.%s", shape_short[shape], all ? "allcpu" : "1cpu");
	rl_snprintf(x->metric, sizeof(x->metric), "clear.crossover.%s", what);
	rl_snprintf(from + fl, fromsz - fl, "%s%s", fl ? "," : "", x->metric);
	t_metric_value(t, what, x->from >= 0 ? (int64_t)x->from : -1, "count",
		       "what=size-index from=%s rule=p25-above-p75-at-every-measured-size-from-here test=iqr-separated min_n=%u n=%u median_from=%s reaches_2xllc=%s sizes_won=%u sizes_lost=%u sizes_overlap=%u sizes_few=%u shape=%s cpus=%u at=%s movnti=%llu movnti_p25=%llu movnti_p75=%llu rep_stosb=%llu rep_stosb_p25=%llu rep_stosb_p75=%llu readback_movnti=%llu readback_rep_stosb=%llu unit_bw=MB/s",
		       x->from >= 0 ? size_names[x->from] : "never", SEP_MIN_N, x->nmin,
		       x->median_from >= 0 ? size_names[x->median_from] : "never",
		       x->reaches_2llc ? "yes" : "no", x->wins, x->losses, x->ties, x->few, shape_name[shape], all ? ncpu_seen : 1,
		       size_names[at], (unsigned long long)mv->med, (unsigned long long)mv->p25,
		       (unsigned long long)mv->p75, (unsigned long long)sb->med,
		       (unsigned long long)sb->p25, (unsigned long long)sb->p75,
		       (unsigned long long)mv->rb, (unsigned long long)sb->rb);
	t_conclude(t, "crossover %s %s: MOVNTI beats REP STOSB %s (test: p25-p75 not overlapping, n>=%u; at %s: MOVNTI %llu [%llu-%llu] vs REP STOSB %llu [%llu-%llu] MB/s, n=%u; read-back after %llu vs %llu MB/s)",
		   shape_name[shape], cpus, x->text, SEP_MIN_N, size_names[at],
		   (unsigned long long)mv->med, (unsigned long long)mv->p25, (unsigned long long)mv->p75,
		   (unsigned long long)sb->med, (unsigned long long)sb->p25, (unsigned long long)sb->p75,
		   x->nmin, (unsigned long long)mv->rb, (unsigned long long)sb->rb);
	for (unsigned m = 0; m < NMETHODS; m++) {
		struct xo o;
		size_t len = strlen(others);

		if (!methods[m].nt || m == METHOD_MOVNTI)
			continue;
		method_crossover(shape, all, m, &o);
		any |= o.measured;
		rl_snprintf(others + len, sizeof(others) - len, "%s%s %s", len ? ", " : "", methods[m].name,
			    o.measured ? o.text : "not measured");
	}
	/* quick: not a line of "not measured" (the answer says so) */
	if (any || !t_budgeted(t))
		t_conclude(t, "crossover %s %s, other NT methods vs REP STOSB: %s", shape_name[shape], cpus,
			   others);
}

/* The largest size with a cold and a hot clear of both methods, whole
 * range, 1 CPU; -1: none */
static int cold_size(void)
{
	for (int s = (int)nsizes_seen[SH_WHOLE] - 1; s >= 0; s--)
		if (cst[SH_WHOLE][0][METHOD_MOVNTI][s].cold && cst[SH_WHOLE][0][METHOD_REP_STOSB][s].cold)
			return s;
	return -1;
}

TEST(clear, crossover, .order = 50)
{
	struct xo x[NSHAPES][2];
	char from[400] = "";

	if (!shape_done[SH_WHOLE] && !shape_done[SH_PERPAGE] && !shape_done[SH_BATCH]) {
		t_skip(t, "needs clear.bandwidth, clear.page_bandwidth or clear.batch_bandwidth earlier in the run");
		return;
	}
	memset(x, 0, sizeof(x));
	for (unsigned shape = 0; shape < NSHAPES; shape++)
		for (unsigned all = 0; shape_done[shape] && all < 2; all++)
			crossover_for(t, shape, all, &x[shape][all], from, sizeof(from));
	if (!from[0])
		return;
	/* the answer: whole range and the kernel series' batch shape; the
	 * per-page-SFENCE shape (biased towards REP STOSB) last.  Each
	 * crossover is a measurement (a comparison of two measured spreads):
	 * its words are n=N, the fewest samples of a cell it rests on, and
	 * its sentence names the test. */
	static const unsigned order[] = { SH_WHOLE, SH_BATCH, SH_PERPAGE };
	static const char *const how[] = { "whole", "batch", "per-page" };

	for (unsigned i = 0; i < 3; i++) {
		/* per page, 1 CPU only: the shape biased towards REP STOSB
		 * (docs/suites.md), a note beside the other two */
		const struct xo *o1 = &x[order[i]][0], *oa = &x[order[i]][order[i] == SH_PERPAGE ? 0 : 1];
		bool two = oa != o1 && oa->measured;
		struct claim c = { .n = o1->nmin, .measured = true };
		char fr[140];

		if (!o1->measured)
			continue;
		rl_snprintf(fr, sizeof(fr), "%s%s%s", o1->metric, two ? "," : "", two ? oa->metric : "");
		if (two && oa->nmin < c.n)
			c.n = oa->nmin;
		t_answer_claim(t, ANSWER_NT_CLEAR, fr, &c, "%s%s: %s (1cpu)%s%s%s [IQR-apart n>=%u]",
			       i ? "" : "MOVNTI faster than REP STOSB, ", how[i], o1->text, two ? ", " : "",
			       two ? oa->text : "", two ? " (all)" : "", SEP_MIN_N);
	}
	unsigned last = nsizes_seen[SH_WHOLE] ? nsizes_seen[SH_WHOLE] - 1 : 0;
	int cs = cold_size();

	/* the cold clear where there is one (quick: the largest size), else
	 * the largest size's hot clear and read-back */
	if (shape_done[SH_WHOLE] && nsizes_seen[SH_WHOLE]) {
		unsigned at = cs >= 0 ? (unsigned)cs : last;
		const struct cstat *m = &cst[SH_WHOLE][0][METHOD_MOVNTI][at];
		const struct cstat *s = &cst[SH_WHOLE][0][METHOD_REP_STOSB][at];
		/* hot: the samples; cold: one clear per method (n=1) */
		struct claim c = { .n = cs >= 0 ? 1 : m->n < s->n ? m->n : s->n, .measured = true };

		t_answer_claim(t, ANSWER_NT_CLEAR, NULL, &c, "%s MB/s cold/hot/readback: MOVNTI %llu/%llu/%llu, REP STOSB %llu/%llu/%llu",
			       size_names[at], (unsigned long long)m->cold,
			       (unsigned long long)m->med, (unsigned long long)m->rb,
			       (unsigned long long)s->cold, (unsigned long long)s->med,
			       (unsigned long long)s->rb);
	}
	if (shape_done[SH_BATCH] && nsizes_seen[SH_BATCH]) {
		unsigned b = nsizes_seen[SH_BATCH] - 1;
		const struct cstat *e = &extent_cst[b], *p = &cst[SH_BATCH][0][METHOD_REP_STOSB][b];
		struct claim c = { .n = e->n < p->n ? e->n : p->n, .measured = true };

		if (e->med && p->med)
			t_answer_claim(t, ANSWER_NT_CLEAR, NULL, &c, "clear_pages() %uKiB extents vs per page, REP STOSB %s: %llu vs %llu MB/s",
				       EXTENT_BYTES >> 10, size_names[b], (unsigned long long)e->med,
				       (unsigned long long)p->med);
	}
	/* every cell's zero and guard check, whose planted faults (clear.
	 * controls) each check catches every time: a short or overrunning
	 * clear in n checks is expected n times (expected_x10 = 10 n) */
	struct claim v = { .control = "clear.controls",
			   .state = controls_fired < 0 ? T_CONTROL_NONE : controls_fired ?
				    T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED,
			   .n = checks_done, .seen = checks_bad, .expected_x10 = 10 * checks_done,
			   .floor = "1 line short, 1 byte over" };

	if (controls_fired < 0)
		v.control = NULL;
	t_answer_claim(t, ANSWER_NT_CLEAR, NULL, &v, "Bad clears");
}
