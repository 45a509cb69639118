/* See litmus.h. */
#include "lib/litmus.h"
#include "lib/printf.h"
#include "lib/string.h"

void litmus_tally_init(struct litmus_tally *t, unsigned nregs)
{
	memset(t, 0, sizeof(*t));
	t->nregs = nregs > LITMUS_MAX_REGS ? LITMUS_MAX_REGS : nregs;
}

int litmus_record(struct litmus_tally *t, const uint64_t *regs)
{
	unsigned o = 0;

	t->iters++;
	for (unsigned i = 0; i < t->nregs; i++) {
		if (regs[i] > 1) {
			t->invalid++;
			return -1;
		}
		o |= (unsigned)regs[i] << i;
	}
	t->count[o]++;
	return (int)o;
}

uint64_t litmus_count(const struct litmus_tally *t, unsigned outcome)
{
	return outcome < LITMUS_MAX_OUTCOMES ? t->count[outcome] : 0;
}

void litmus_outcome_name(unsigned outcome, unsigned nregs, char *buf, size_t size)
{
	size_t k = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < nregs && k < size; i++)
		k += (size_t)rl_snprintf(buf + k, size - k, "%sr%u=%u", i ? "," : "", i,
					 (outcome >> i) & 1);
}

void litmus_format(const struct litmus_tally *t, char *buf, size_t size)
{
	size_t k = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned o = 0; o < (1u << t->nregs) && k < size; o++) {
		char bits[LITMUS_MAX_REGS + 1];

		for (unsigned i = 0; i < t->nregs; i++)
			bits[i] = (char)('0' + ((o >> i) & 1));
		bits[t->nregs] = '\0';
		k += (size_t)rl_snprintf(buf + k, size - k, "%s%s:%llu", o ? "," : "", bits,
					 (unsigned long long)t->count[o]);
	}
}
