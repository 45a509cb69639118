/* SPDX-License-Identifier: GPL-2.0-only */
/* Microcode revision; see ucode.h. */
#include "arch/x86/ucode.h"
#include "arch/x86/cpu.h"
#include "arch/x86/fault.h"
#include "arch/x86/msr.h"

bool ucode_revision(const struct cpuinfo *ci, uint64_t *rev)
{
	uint64_t v;

	if (!ci->msr)
		return false;
	if (ci->vendor == VENDOR_INTEL) {
		/* SDM vol. 3 §10.11.7.1: write 0, execute CPUID(1), then the
		 * revision is in bits 63:32.  Writing 0 is the documented way
		 * to read it and changes nothing else. */
		if (!fault_none(wrmsr_safe(MSR_IA32_UCODE_REV, 0)))
			return false;
		(void)cpuid(1);
		if (!fault_none(rdmsr_safe(MSR_IA32_UCODE_REV, &v)))
			return false;
		*rev = v >> 32;
		return true;
	}
	if (ci->vendor == VENDOR_AMD || ci->vendor == VENDOR_HYGON) {
		if (!fault_none(rdmsr_safe(MSR_IA32_UCODE_REV, &v)))
			return false;
		*rev = (uint32_t)v;
		return true;
	}
	return false;
}
