/* SPDX-License-Identifier: GPL-2.0-only */
/* See memsize.h. */
#include "lib/memsize.h"
#include "lib/printf.h"
#include "lib/string.h"

void size_label(uint64_t bytes, char *buf, size_t size)
{
	if (bytes && bytes % SZ_GIB == 0)
		rl_snprintf(buf, size, "%lluGiB", (unsigned long long)(bytes / SZ_GIB));
	else if (bytes && bytes % SZ_MIB == 0)
		rl_snprintf(buf, size, "%lluMiB", (unsigned long long)(bytes / SZ_MIB));
	else if (bytes && bytes % SZ_KIB == 0)
		rl_snprintf(buf, size, "%lluKiB", (unsigned long long)(bytes / SZ_KIB));
	else
		rl_snprintf(buf, size, "%lluB", (unsigned long long)bytes);
}

static unsigned add_size(struct clear_size *out, unsigned n, unsigned max, uint64_t bytes,
			 bool llc_double)
{
	unsigned i = 0;

	while (i < n && out[i].bytes < bytes)
		i++;
	if (i < n && out[i].bytes == bytes) {
		out[i].llc_double |= llc_double;
		return n;
	}
	if (n == max)
		return n;
	memmove(&out[i + 1], &out[i], (n - i) * sizeof(out[0]));
	out[i].bytes = bytes;
	out[i].llc_double = llc_double;
	size_label(bytes, out[i].label, sizeof(out[i].label));
	return n + 1;
}

unsigned clear_sizes(uint64_t llc_bytes, bool quick, bool with_largest,
		     struct clear_size *out, unsigned max)
{
	static const uint64_t quick_sizes[] = { 4 * SZ_KIB, 2 * SZ_MIB };
	static const uint64_t full_sizes[] = { 4 * SZ_KIB, 2 * SZ_MIB, 16 * SZ_MIB,
					       128 * SZ_MIB, SZ_GIB };
	const uint64_t *s = quick ? quick_sizes : full_sizes;
	unsigned ns = quick ? 2 : 5, n = 0;

	if (!max)
		return 0;
	for (unsigned i = 0; i < ns; i++)
		n = add_size(out, n, with_largest && !quick ? max - 1 : max, s[i], false);
	if (!quick && llc_bytes) {
		uint64_t twice = (2 * llc_bytes + 4 * SZ_KIB - 1) & ~(4 * SZ_KIB - 1);

		n = add_size(out, n, with_largest ? max - 1 : max, twice, true);
	}
	if (!quick && with_largest && n < max) {
		out[n].bytes = 0;
		out[n].llc_double = false;
		str_copy(out[n].label, "largest", sizeof(out[n].label));
		n++;
	}
	return n;
}

uint64_t clear_fit(uint64_t want, unsigned ncpus, uint64_t guard, uint64_t align,
		   uint64_t avail, uint64_t *slot)
{
	if (!ncpus || !align || (align & (align - 1)))
		return 0;
	if (want == 0) {
		/* as large as fits: per-CPU share, minus guards, in 2 MiB steps */
		uint64_t share = (avail / ncpus) & ~(align - 1);

		if (share < 2 * guard + 2 * SZ_MIB)
			return 0;
		want = (share - 2 * guard) & ~(2 * SZ_MIB - 1);
		if (!want)
			return 0;
	}
	if (want > UINT64_MAX / 4)
		return 0;
	uint64_t s = (want + 2 * guard + align - 1) & ~(align - 1);

	if (s > avail / ncpus)
		return 0;
	if (slot)
		*slot = s;
	return want;
}

int clear_crossover(const uint64_t *nt, const uint64_t *base, unsigned n)
{
	int from = -1;

	/* walk down from the largest size: the crossover is the start of the
	 * unbroken run of wins that reaches the largest measured size */
	for (unsigned i = n; i-- > 0;) {
		if (!nt[i] || !base[i])
			continue;	/* not measured: neither breaks nor extends */
		if (nt[i] <= base[i])
			break;
		from = (int)i;
	}
	return from;
}

int clear_first_win(const uint64_t *nt, const uint64_t *base, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (nt[i] && base[i] && nt[i] > base[i])
			return (int)i;
	return -1;
}

uint64_t mbps(uint64_t bytes, uint64_t cycles, uint64_t hz)
{
	if (!cycles)
		return 0;
	unsigned __int128 den = (unsigned __int128)cycles * 1000000u;

	/* to the nearest whole MB/s: truncation read a software KVM's
	 * 0.9 MB/s 4 KiB samples as 0, which drops them from the crossover */
	return (uint64_t)(((unsigned __int128)bytes * hz + den / 2) / den);
}
