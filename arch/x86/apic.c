/* SPDX-License-Identifier: GPL-2.0-only */
/* Local APIC driver; see apic.h. */
#include "arch/x86/apic.h"
#include "arch/x86/acpi.h"
#include "arch/x86/cpu.h"
#include "arch/x86/fault.h"
#include "arch/x86/irq_eoi.h"
#include "arch/x86/msr.h"
#include "arch/x86/paging.h"
#include "arch/x86/pic.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/vectors.h"
#include "arch/x86/cpufeature.h"
#include "arch/x86/log.h"


enum apic_mode apic_mode;
enum apic_mode apic_boot_mode;
bool apic_mode_forced;	/* apic= given, or the x2APIC enable fell back */
bool apic_fw_x2apic;	/* the firmware handed over with x2APIC enabled */
static volatile uint8_t *xapic_base;
static uint64_t xapic_phys;
volatile uint64_t apic_error_irqs;
volatile uint32_t apic_last_esr;

const char *apic_mode_name(enum apic_mode m)
{
	return m == APIC_MODE_X2APIC ? "x2apic" : m == APIC_MODE_XAPIC ? "xapic" : "none";
}

uint32_t apic_read(unsigned reg)
{
	if (apic_mode == APIC_MODE_X2APIC)
		return (uint32_t)rdmsr(MSR_X2APIC_BASE + (reg >> 4));
	return *(volatile uint32_t *)(xapic_base + reg);
}

void apic_write(unsigned reg, uint32_t v)
{
	if (apic_mode == APIC_MODE_X2APIC)
		wrmsr(MSR_X2APIC_BASE + (reg >> 4), v);
	else
		*(volatile uint32_t *)(xapic_base + reg) = v;
}

uint32_t apic_id(void)
{
	if (apic_mode == APIC_MODE_X2APIC)
		return (uint32_t)rdmsr(MSR_X2APIC_BASE + (APIC_ID >> 4));
	return apic_read(APIC_ID) >> 24;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

uint64_t apic_mmio_phys(void)
{
	return apic_mode == APIC_MODE_XAPIC ? xapic_phys : 0;
}

bool apic_wait_icr_idle(uint64_t timeout_us)
{
	if (apic_mode != APIC_MODE_XAPIC)
		return true;	/* x2APIC has no delivery-status bit (SDM §11.12.9) */
	uint64_t end = rdtsc_ordered() + tsc_us_to_cycles(timeout_us);

	while (apic_read(APIC_ICR) & APIC_ICR_BUSY) {
		if (rdtsc_ordered() > end)
			return false;
		cpu_relax();
	}
	return true;
}

void apic_icr_write_raw(uint32_t dest, uint32_t icr_low)
{
	if (apic_mode == APIC_MODE_X2APIC) {
		wrmsr(MSR_X2APIC_ICR, ((uint64_t)dest << 32) | icr_low);
	} else {
		*(volatile uint32_t *)(xapic_base + APIC_ICR2) = dest << 24;
		*(volatile uint32_t *)(xapic_base + APIC_ICR) = icr_low;
	}
}

bool apic_send(uint32_t dest, uint32_t icr_low)
{
	if (apic_mode == APIC_MODE_X2APIC) {
		apic_icr_write_raw(dest, icr_low);
		return true;
	}
	if (apic_mode != APIC_MODE_XAPIC)
		return false;
	if (!(icr_low & APIC_DEST_ALLBUT) && dest > 0xff)
		return false;	/* not addressable in xAPIC physical mode */
	if (!apic_wait_icr_idle(1000))
		return false;
	/* ICR2 and ICR must not be separated by another sender on this CPU
	 * (an interrupt handler sending its own IPI). */
	uint64_t flags = irq_save();

	apic_icr_write_raw(dest, icr_low);
	irq_restore(flags);
	return true;
}

uint32_t apic_read_esr(void)
{
	/* The ESR latches on a write (SDM vol. 3 §11.5.3). */
	apic_write(APIC_ESR, 0);
	return apic_read(APIC_ESR);
}

static void apic_error_irq(struct regs *r)
{
	(void)r;
	apic_last_esr = apic_read_esr();
	__atomic_add_fetch(&apic_error_irqs, 1, __ATOMIC_RELAXED);
}

static bool isr_any(void)
{
	for (unsigned i = 0; i < 8; i++)
		if (apic_read(APIC_ISR + i * 0x10))
			return true;
	return false;
}

void apic_cpu_init(bool bsp)
{
	uint64_t base = rdmsr(MSR_IA32_APICBASE);

	/* from here the local APIC delivers interrupts, and ends them */
	if (bsp)
		irq_eoi_register(apic_eoi);
	if (!(base & MSR_IA32_APICBASE_ENABLE)) {
		base |= MSR_IA32_APICBASE_ENABLE;
		wrmsr(MSR_IA32_APICBASE, base);
	}
	/* APs come out of INIT in xAPIC mode unless already switched;
	 * enable (EN before EXTD) to match the BSP. */
	if (apic_mode == APIC_MODE_X2APIC && !(base & MSR_IA32_APICBASE_EXTD))
		wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_EXTD);

	apic_write(APIC_SPIV, VEC_SPURIOUS | APIC_SPIV_APIC_ENABLED);
	apic_write(APIC_TASKPRI, 0);
	uint32_t maxlvt = APIC_LVR_MAXLVT(apic_read(APIC_LVR));

	apic_write(APIC_LVTT, APIC_LVT_MASKED | VEC_TIMER);
	/* LINT0 carries the 8259's ExtINT, masked with the PIC.  LINT1 is
	 * the board's NMI line: kept as NMI on the BSP only, as Linux does. */
	apic_write(APIC_LVT0, APIC_LVT_MASKED | APIC_LVT_DM_EXTINT);
	apic_write(APIC_LVT1, APIC_LVT_DM_NMI | (bsp ? 0 : APIC_LVT_MASKED));
	if (maxlvt >= 3)
		apic_write(APIC_LVTERR, VEC_APIC_ERROR);
	if (maxlvt >= 4)
		apic_write(APIC_LVTPC, APIC_LVT_MASKED);
	if (maxlvt >= 5)
		apic_write(APIC_LVTTHMR, APIC_LVT_MASKED);
	if (maxlvt >= 6)
		apic_write(APIC_LVTCMCI, APIC_LVT_MASKED);
	(void)apic_read_esr();
	(void)apic_read_esr();
	/* Acknowledge anything the firmware left in service. */
	for (unsigned i = 0; i < 64 && isr_any(); i++)
		apic_eoi();
}

bool apic_cpu_switch_mode(enum apic_mode m)
{
	uint64_t flags = irq_save();
	uint64_t base = rdmsr(MSR_IA32_APICBASE) &
			~(MSR_IA32_APICBASE_ENABLE | MSR_IA32_APICBASE_EXTD);
	struct fault_result r;

	/* x2APIC -> xAPIC is only legal through the disabled state
	 * (SDM vol. 3 §11.12.5, fig. 11-27). */
	r = wrmsr_safe(MSR_IA32_APICBASE, base);
	if (fault_none(r))
		r = wrmsr_safe(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
	if (fault_none(r) && m == APIC_MODE_X2APIC)
		r = wrmsr_safe(MSR_IA32_APICBASE,
			       base | MSR_IA32_APICBASE_ENABLE | MSR_IA32_APICBASE_EXTD);
	irq_restore(flags);
	return fault_none(r);
}

bool apic_bsp_init(const struct apic_params *p, const struct acpi_info *ai)
{
	char src[32];

	if (!x86_cpu_has(X86_FEATURE_APIC)) {
		x86_feature_source(X86_FEATURE_APIC, src, sizeof(src));
		arch_error("apic", "%s reports no local APIC: no timer, no SMP", src);
		apic_mode = APIC_MODE_NONE;
		return false;
	}
	uint64_t base = rdmsr(MSR_IA32_APICBASE);
	bool has_x2 = x86_cpu_has(X86_FEATURE_X2APIC);
	bool fw_x2 = (base & MSR_IA32_APICBASE_ENABLE) && (base & MSR_IA32_APICBASE_EXTD);

	xapic_phys = base & MSR_IA32_APICBASE_BASE;
	if (!xapic_phys)
		xapic_phys = APIC_DEFAULT_PHYS_BASE;
	if (ai && ai->have_madt && ai->lapic_addr && ai->lapic_addr != xapic_phys)
		arch_warn("apic", "MADT says LAPIC at 0x%llx, IA32_APIC_BASE says 0x%llx; using the MSR",
			 (unsigned long long)ai->lapic_addr, (unsigned long long)xapic_phys);
	if (!paging_map_mmio(xapic_phys, 4096)) {
		arch_error("apic", "cannot map the xAPIC window at 0x%llx", (unsigned long long)xapic_phys);
		xapic_phys = 0;
	}
	xapic_base = (volatile uint8_t *)(uintptr_t)xapic_phys;

	apic_fw_x2apic = fw_x2;
	if (fw_x2) {
		apic_mode = APIC_MODE_X2APIC;
		if (p->pref == APIC_PREF_XAPIC)
			arch_warn("apic", "firmware handed over in x2APIC mode; apic=xapic ignored (x2APIC->xAPIC needs a full APIC reset)");
		else
			arch_diag("apic: firmware handed over in x2APIC mode");
	} else if (has_x2 && p->pref != APIC_PREF_XAPIC) {
		wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
		if (!p->sim_x2apic_nostick)
			(void)wrmsr_safe(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE |
								    MSR_IA32_APICBASE_EXTD);
		uint64_t now = rdmsr(MSR_IA32_APICBASE), id = 0;
		struct fault_result fr = rdmsr_safe(MSR_X2APIC_BASE + (APIC_ID >> 4), &id);
		bool stuck = now & MSR_IA32_APICBASE_EXTD;

		if (stuck && fault_none(fr)) {
			apic_mode = APIC_MODE_X2APIC;
		} else {
			arch_warn("apic", "x2APIC enable did not take effect (IA32_APIC_BASE.EXTD=%d, x2APIC ID MSR %s)%s; falling back to xAPIC",
				 stuck ? 1 : 0, fault_none(fr) ? "readable" : "faults",
				 p->sim_x2apic_nostick ? " [simulate=x2apic-nostick]" : "");
			if (stuck)	/* leave x2APIC the legal way */
				apic_cpu_switch_mode(APIC_MODE_XAPIC);
			apic_mode = APIC_MODE_XAPIC;
		}
	} else {
		if (p->pref == APIC_PREF_X2APIC && !has_x2) {
			x86_feature_source(X86_FEATURE_X2APIC, src, sizeof(src));
			arch_error("apic", "apic=x2apic, but %s reports no x2APIC; using xAPIC", src);
		}
		wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
		apic_mode = APIC_MODE_XAPIC;
	}
	apic_boot_mode = apic_mode;
	if (p->pref != APIC_PREF_AUTO || p->sim_x2apic_nostick ||
	    (has_x2 && !fw_x2 && apic_mode == APIC_MODE_XAPIC))
		apic_mode_forced = true;
	if (apic_mode == APIC_MODE_XAPIC && !xapic_base) {
		apic_mode = APIC_MODE_NONE;
		return false;
	}
	if (!ai || !ai->have_madt || (ai->madt_flags & ACPI_MADT_PCAT_COMPAT))
		pic_remap_and_mask(VEC_PIC_BASE);
	irq_set_handler(VEC_APIC_ERROR, apic_error_irq);
	apic_cpu_init(true);
	return true;
}
