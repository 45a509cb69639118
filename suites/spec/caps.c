/* SPDX-License-Identifier: GPL-2.0-only */
/* spec: what the CPU has -- the CPUID bits behind each case, the skip
 * reasons that name them, whether RTM transactions commit, and the two
 * IA32_SPEC_CTRL values a toggle alternates between. */
#include "suites/spec/spec.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/msr.h"
#include "arch/x86/spec_seq.h"
#include "lib/printf.h"
#include "lib/string.h"

/* The CPUID bits behind one capability, named as the skip reasons name
 * them; their source text comes from the feature table. */
struct bit_name {
	struct x86_cpu_feature f;
	const char *name;	/* NULL: the source alone */
};

/* "CPUID.7.0:EDX[26] (IBRS), [27] (STIBP) and CPUID.80000008H:EBX[14]
 * (IBRS)": x86_feature_source() for each, a register's prefix written
 * once for consecutive bits of it. */
static void bit_sources(char *buf, size_t size, const struct bit_name *b, size_t n)
{
	char prev[40] = "", src[40];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++) {
		x86_feature_source(b[i].f, src, sizeof(src));
		char *bit = strchr(src, '[');
		size_t plen = bit ? (size_t)(bit - src) : strlen(src);
		bool same = i && bit && strlen(prev) == plen && !strncmp(prev, src, plen);

		len += (size_t)rl_snprintf(buf + len, size - len, "%s%s%s%s%s", !i ? "" : same ? ", " : " and ",
					   same ? bit : src, b[i].name ? " (" : "",
					   b[i].name ? b[i].name : "", b[i].name ? ")" : "");
		rl_snprintf(prev, sizeof(prev), "%.*s", (int)plen, src);
	}
}

/* "CPU lacks <what>: <sources> <tail>", built once. */
static const char *lacks_text(char *buf, size_t size, const char *what, const struct bit_name *b,
			      size_t n, const char *tail)
{
	if (!buf[0]) {
		char src[240];

		bit_sources(src, sizeof(src), b, n);
		rl_snprintf(buf, size, "CPU lacks %s: %s %s", what, src, tail);
	}
	return buf;
}

#define NBITS(a) (sizeof(a) / sizeof((a)[0]))

bool spec_has_spec_ctrl(void)
{
	return plat_cpu_has(X86_FEATURE_SPEC_CTRL) || plat_cpu_has(X86_FEATURE_INTEL_STIBP) ||
	       plat_cpu_has(X86_FEATURE_SPEC_CTRL_SSBD) || plat_cpu_has(X86_FEATURE_AMD_IBRS) ||
	       plat_cpu_has(X86_FEATURE_AMD_STIBP) || plat_cpu_has(X86_FEATURE_AMD_SSBD);
}

static const char *no_spec_ctrl_text(void)
{
	static const struct bit_name b[] = {
		{ X86_FEATURE_SPEC_CTRL, "IBRS" }, { X86_FEATURE_INTEL_STIBP, "STIBP" },
		{ X86_FEATURE_SPEC_CTRL_SSBD, "SSBD" }, { X86_FEATURE_AMD_IBRS, "IBRS" },
		{ X86_FEATURE_AMD_STIBP, "STIBP" }, { X86_FEATURE_AMD_SSBD, "SSBD" },
	};
	static char buf[300];

	return lacks_text(buf, sizeof(buf), "IA32_SPEC_CTRL", b, NBITS(b), "all clear");
}

bool spec_has_ibpb(void)
{
	return plat_cpu_has(X86_FEATURE_SPEC_CTRL) || plat_cpu_has(X86_FEATURE_AMD_IBPB);
}

static const char *no_ibpb_text(void)
{
	static const struct bit_name b[] = {
		{ X86_FEATURE_SPEC_CTRL, NULL }, { X86_FEATURE_AMD_IBPB, NULL },
	};
	static char buf[200];

	return lacks_text(buf, sizeof(buf), "IBPB (IA32_PRED_CMD)", b, NBITS(b), "clear");
}

bool spec_has_verw_clear(void)
{
	return plat_cpu_has(X86_FEATURE_MD_CLEAR) || plat_cpu_has(X86_FEATURE_VERW_CLEAR);
}

static const char *no_verw_text(void)
{
	static const struct bit_name b[] = {
		{ X86_FEATURE_MD_CLEAR, "MD_CLEAR" }, { X86_FEATURE_VERW_CLEAR, "VERW_CLEAR" },
	};
	static char buf[200];

	return lacks_text(buf, sizeof(buf), "VERW buffer clearing", b, NBITS(b), "clear");
}

static const char *no_l1d_text(void)
{
	static const struct bit_name b[] = { { X86_FEATURE_FLUSH_L1D, "L1D_FLUSH" } };
	static char buf[160];

	return lacks_text(buf, sizeof(buf), "IA32_FLUSH_CMD", b, NBITS(b), "clear");
}


/* The skip reasons: the boot probe's finding where it took the feature
 * away (cpu.probes), else which CPUID bits are clear. */
const char *spec_no_spec_ctrl(void)
{
	return t_absent_why(X86_FEATURE_SPEC_CTRL, "IA32_SPEC_CTRL",
			    t_absent_why(X86_FEATURE_AMD_IBRS, "IA32_SPEC_CTRL", no_spec_ctrl_text()));
}

const char *spec_no_ibpb(void)
{
	return t_absent_why(X86_FEATURE_AMD_IBPB, "IBPB",
			    t_absent_why(X86_FEATURE_SPEC_CTRL, "IBPB", no_ibpb_text()));
}

const char *spec_no_verw(void)
{
	return t_absent_why(X86_FEATURE_MD_CLEAR, "VERW buffer clearing",
			    t_absent_why(X86_FEATURE_VERW_CLEAR, "VERW buffer clearing", no_verw_text()));
}

const char *spec_no_l1d(void)
{
	return t_absent_why(X86_FEATURE_FLUSH_L1D, "IA32_FLUSH_CMD", no_l1d_text());
}

/* RTM enumerated and an empty transaction commits (within 64 tries:
 * interrupts and other events abort some). */
bool spec_rtm_usable(char *why, size_t n)
{
	if (!plat_cpu_has(X86_FEATURE_RTM)) {
		x86_feature_absent_why(X86_FEATURE_RTM, "RTM", why, n);
		return false;
	}
	uint32_t st = 0;

	for (int i = 0; i < 64; i++) {
		uint64_t flags = plat_irq_save();

		st = rtm_commit_probe();
		plat_irq_restore(flags);
		if (st == RTM_COMMITTED)
			return true;
	}
	char src[40];

	x86_feature_source(X86_FEATURE_RTM, src, sizeof(src));
	rl_snprintf(why, n, "RTM is enumerated (%s) but no transaction commits (last abort status 0x%x: TSX disabled, e.g. IA32_TSX_CTRL.RTM_DISABLE)",
		    src, st);
	return false;
}

/* The two SPEC_CTRL values a toggle alternates between: IBRS and
 * IBRS|BHI_DIS_S where BHI_CTRL is enumerated (the seed's host/guest
 * mismatch), else the saved value without and with the first bit the
 * CPU has. */
void spec_ctrl_pair(uint64_t base, uint64_t *a, uint64_t *b, const char **what)
{
	bool bhi_ctrl = plat_cpu_has(X86_FEATURE_BHI_CTRL);
	bool ibrs = plat_cpu_has(X86_FEATURE_SPEC_CTRL);
	uint64_t bit;

	if (bhi_ctrl && ibrs) {
		*a = base | SPEC_CTRL_IBRS;
		*b = *a | SPEC_CTRL_BHI_DIS_S;
		*what = "IBRS<->IBRS|BHI_DIS_S";
		return;
	}
	if (bhi_ctrl) {
		*a = base & ~SPEC_CTRL_BHI_DIS_S;
		*b = base | SPEC_CTRL_BHI_DIS_S;
		*what = "BHI_DIS_S";
		return;
	}
	if (ibrs || plat_cpu_has(X86_FEATURE_AMD_IBRS)) {
		bit = SPEC_CTRL_IBRS;
		*what = "IBRS";
	} else if (plat_cpu_has(X86_FEATURE_INTEL_STIBP) || plat_cpu_has(X86_FEATURE_AMD_STIBP)) {
		bit = SPEC_CTRL_STIBP;
		*what = "STIBP";
	} else {
		bit = SPEC_CTRL_SSBD;
		*what = "SSBD";
	}
	*a = base & ~bit;
	*b = base | bit;
}
