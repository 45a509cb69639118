/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot sequence: from the 64-bit entry to the test runner and the exit.
 * Order matters: the IDT first (so any fault is reported), then the boot
 * information and command line, then the console the user asked for, then
 * everything that might print. */
#include "kernel/kernel.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/cpu.h"
#include "arch/x86/desc.h"
#include "arch/x86/mptable.h"
#include "arch/x86/paging.h"
#include "arch/x86/smbios.h"
#include "arch/x86/smpboot.h"
#include "arch/x86/tsc.h"
#include "arch/x86/vga.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/ucode.h"
#include "kernel/arch_hooks.h"
#include "kernel/boot_phase.h"
#include "kernel/console.h"
#include "kernel/console_spcr.h"
#include "kernel/cpu_probe.h"
#include "kernel/exit.h"
#include "kernel/fbcon_boot.h"
#include "kernel/fwcheck.h"
#include "kernel/lost.h"
#include "kernel/nmi_watch.h"
#include "kernel/mm.h"
#include "kernel/platform.h"
#include "arch/x86/percpu.h"
#include "kernel/report.h"
#include "kernel/runner.h"
#include "kernel/test.h"
#include "kernel/smp.h"
#include "lib/string.h"

#define RL_STR_(x) #x
#define RL_STR(x) RL_STR_(x)

struct boot_info boot_info;
struct options boot_options;
struct acpi_info acpi;
static struct smbios_info smbios;
struct cpuinfo boot_cpu;
bool boot_in_qemu;

extern char boot_stack_top[];
extern char __kernel_start[], __kernel_end[];
static struct percpu bsp;
static uint8_t bsp_ist[3][IST_STACK_SIZE] __attribute__((aligned(16)));

void print_errors(const char *errs, size_t stride, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		rep_diag("error: %s", errs + i * stride);
}

static void bsp_early(void)
{
	bsp.index = 0;
	bsp.activity = "boot";
	bsp.stack_top = (uintptr_t)boot_stack_top;
	for (int i = 0; i < 3; i++)
		bsp.ist_top[i] = (uintptr_t)bsp_ist[i] + IST_STACK_SIZE;
	percpu_install(&bsp);
	cpus[0] = &bsp;
	ncpus = 1;
	idt_build();
	desc_load_cpu(&bsp);
}

/* `# id.smbios`, `# id.bios`, `# id.system`, `# id.board`: every value
 * quoted, " and \\ escaped (docs/log-format.md, identity keys). */
static void print_smbios(void)
{
	char a[2 * SMBIOS_STR_MAX + 4], b[2 * SMBIOS_STR_MAX + 4], c[2 * SMBIOS_STR_MAX + 4];

	if (!smbios.found) {
		rep_id("smbios", "none (%s)", smbios.why);
		return;
	}
	rep_id("smbios", "version=%u.%u source=%s structures=%u", smbios.major, smbios.minor,
	       smbios.source, smbios.nstructs);
	if (smbios.have_bios) {
		smbios_quote(a, sizeof(a), smbios.bios_vendor);
		smbios_quote(b, sizeof(b), smbios.bios_version);
		smbios_quote(c, sizeof(c), smbios.bios_date);
		rep_id("bios", "vendor=%s version=%s date=%s", a, b, c);
	} else {
		rep_id("bios", "none (no type 0 structure)");
	}
	if (smbios.have_system) {
		smbios_quote(a, sizeof(a), smbios.sys_vendor);
		smbios_quote(b, sizeof(b), smbios.sys_product);
		smbios_quote(c, sizeof(c), smbios.sys_serial);
		rep_id("system", "vendor=%s product=%s serial=%s", a, b, c);
	} else {
		rep_id("system", "none (no type 1 structure)");
	}
	if (smbios.have_board) {
		smbios_quote(a, sizeof(a), smbios.board_vendor);
		smbios_quote(b, sizeof(b), smbios.board_product);
		rep_id("board", "vendor=%s product=%s", a, b);
	} else {
		rep_id("board", "none (no type 2 structure)");
	}
}

/* Which firmware, when the loader gives no EFI tags (a multiboot1 loader,
 * kexec): a BIOS keeps the RSDP below 1 MiB (ACPI 6.5 §5.2.5.1), where
 * the scan finds it.  No RSDP or MP table at all with a memory map that
 * looks like UEFI's (mbi_map_looks_uefi()) is such a loader under UEFI,
 * which passes no EFI system table; an RSDP the user named above 1 MiB
 * (acpi_rsdp=, from a UEFI Linux) is no sign of a BIOS either. */
static bool firmware_unknown(void)
{
	if (mbi_is_uefi(&boot_info))
		return false;
	if (acpi.have_rsdp)
		return acpi.rsdp_phys >= 0x100000;
	return !acpi.have_madt && mbi_map_looks_uefi(&boot_info);
}

/* The CPUs cannot be found: say what would find them. */
static void warn_no_firmware_tables(void)
{
	if (boot_info.proto == 1)
		rep_warn("boot", "no RSDP and no MP table, and the memory map looks like UEFI's: multiboot1 passes no EFI system table, so the ACPI tables and the other CPUs cannot be found; under UEFI load ringlab with multiboot2 (GRUB: multiboot2 /boot/ringlab.elf), or give acpi_rsdp=ADDR (docs/booting.md)");
	else
		rep_warn("boot", "no RSDP and no MP table, and the memory map looks like UEFI's: the loader passed no EFI system table and no ACPI tag, so the ACPI tables and the other CPUs cannot be found; give acpi_rsdp=ADDR (from a running Linux: the ACPI20= line of /sys/firmware/efi/systab; docs/booting.md)");
}

static void print_identity(const struct smpboot_result *sr)
{
	char buf[256];
	uint64_t rev;
	const struct tsc_calibration *cal = tsc_get_calibration();

	rep_id("version", "%s", ringlab_version);
	rep_id("boot", "%s", mbi_boot_path(&boot_info, buf, sizeof(buf)));
	if (mbi_is_uefi(&boot_info))
		rep_id("firmware", "UEFI systab=0x%llx%s", (unsigned long long)boot_info.efi_systab,
		       boot_info.efi_bs_not_terminated ? " boot-services-active" : "");
	else if (firmware_unknown())
		rep_id("firmware", "unknown");
	else
		rep_id("firmware", "BIOS");
	rep_id("loader", "%s", boot_info.has_loader ? boot_info.loader : "unknown");
	print_smbios();
	rep_sanitize(buf, sizeof(buf), boot_info.cmdline);
	rep_id("cmdline", "%s", buf);
	console_describe(buf, sizeof(buf));
	rep_id("console", "%s", buf);
	rep_id("cpu.vendor", "%s", boot_cpu.vendor_str);
	rep_id("cpu.signature", "family=0x%x model=0x%x stepping=0x%x (cpuid 0x%08x)",
	       boot_cpu.family, boot_cpu.model, boot_cpu.stepping, boot_cpu.signature);
	if (ucode_revision(&boot_cpu, &rev))
		rep_id("cpu.microcode", "0x%llx", (unsigned long long)rev);
	else
		rep_id("cpu.microcode", "unknown");
	rep_id("cpu.brand", "%s", boot_cpu.brand[0] ? boot_cpu.brand : "unknown");
	rep_id("hypervisor", "%s", boot_cpu.hypervisor ? boot_cpu.hv_signature : "none");
	rep_id("env", "%s", plat_env());
	rep_id("tsc", "hz=%llu source=%s", (unsigned long long)cal->hz, cal->source);
	rep_id("ram", "bytes=%llu regions=%u highest=0x%llx", (unsigned long long)mm_ram_bytes(),
	       boot_info.nmmap, (unsigned long long)mm_highest_ram());
	rep_id("cpus", "online=%u madt_listed=%u madt_enabled=%u started=%u failed=%u skipped=%u",
	       smp_online_count(), sr->listed, sr->enabled, sr->started, sr->failed, sr->skipped);
	rep_id("apic", "%s", apic_mode_name(apic_mode));
}

static void print_boot_details(void)
{
	const struct paging_stats *ps = paging_get_stats();
	const struct tsc_calibration *cal = tsc_get_calibration();

	for (unsigned i = 0; i < boot_info.nmmap; i++) {
		const struct mem_region *r = &boot_info.mmap[i];

		rep_diag("mmap: 0x%016llx-0x%016llx type %u", (unsigned long long)r->base,
			 (unsigned long long)(r->base + r->len), r->type);
	}
	rep_diag("paging: %llu MiB identity-mapped; %llu x 1G, %llu x 2M, %llu x 4K pages, %llu tables; %u physical address bits",
		 (unsigned long long)(ps->mapped_bytes >> 20), (unsigned long long)ps->pages_1g,
		 (unsigned long long)ps->pages_2m, (unsigned long long)ps->pages_4k,
		 (unsigned long long)ps->tables, ps->phys_bits);
	if (acpi.have_rsdp)
		rep_diag("acpi: rsdp rev %u from %s, oem '%s', %s, %u tables%s%s%s", acpi.revision,
			 acpi.rsdp_source, acpi.oem_id, acpi.root_is_xsdt ? "xsdt" : "rsdt",
			 acpi.ntables, acpi.have_madt ? ", madt" : "",
			 acpi.have_fadt ? ", fadt" : "", acpi.have_hpet ? ", hpet" : "");
	/* arch/x86/tsc.c measure_joint(): one window per run, shared */
	rep_diag("tsc: calibration %s: %u runs of %llu us per measured reference, every measured reference timed in the same windows, median kept%s",
		 cal->quick ? "quick" : "full", cal->runs, (unsigned long long)cal->window_us,
		 cal->quick ? " (full run: " RL_STR(TSC_CAL_WINDOW_US) " us windows)" : "");
	for (unsigned i = 0; i < TSC_NREFS; i++) {
		const struct tsc_ref *r = &cal->ref[i];

		if (r->ok && r->measured)
			rep_diag("tsc: %-10s %llu Hz (%+lld ppm vs chosen), uncertainty %llu ppm; %s",
				 r->name, (unsigned long long)r->hz, (long long)tsc_dev_ppm(r->hz),
				 (unsigned long long)r->err_ppm, r->note);
		else if (r->ok)
			rep_diag("tsc: %-10s %llu Hz (%+lld ppm vs chosen); %s", r->name,
				 (unsigned long long)r->hz, (long long)tsc_dev_ppm(r->hz), r->note);
		else
			rep_diag("tsc: %-10s unavailable: %s", r->name, r->note);
	}
}

void kmain(uint32_t magic, uint32_t info);
void kmain(uint32_t magic, uint32_t info)
{
	char report[200];
	struct smpboot_result sr;
	struct run_totals tot = { 0 };

	arch_hooks_register();
	boot_phase_start();
	bsp_early();
	console_early_init();
	tsc_early_guess();
	mbi_parse(magic, info, &boot_info);
	cmdline_parse(boot_info.cmdline, sizeof(boot_info.cmdline), &boot_options);
	if (boot_info.cmdline_truncated)
		cmdline_note_truncated(&boot_options, sizeof(boot_info.cmdline) - 1);
	/* The VGA text mirror only where 80-column text mode is what the
	 * screen shows: a BIOS boot whose loader left no graphics
	 * framebuffer, and text memory that answers (a machine without a VGA
	 * adapter reads back all-ones there) */
	bool vga = boot_info.proto && !mbi_is_uefi(&boot_info) && !boot_options.novga &&
		   (!boot_info.has_fb ||
		    (boot_info.fb.type == MB2_FB_TYPE_EGA_TEXT && boot_info.fb.width == 80)) &&
		   vga_present();

	console_configure(boot_options.consoles, boot_options.nconsoles, vga, report, sizeof(report));

	rep_start();
	rep_diag("ringlab %s starting", ringlab_version);
	if (report[0])
		rep_error("console", "%s", report);
	PRINT_ERRORS(boot_info.errors, boot_info.nerrors);
	PRINT_ERRORS(boot_options.errors, boot_options.nerrors);
	if (boot_options.nerrors_dropped)
		rep_error("cmdline", "%u more errors not shown", boot_options.nerrors_dropped);

	for (unsigned i = 0; i < boot_options.nsim_cpuid; i++) {
		const struct cpu_feature *f = &cpu_features[boot_options.sim_cpuid[i].feature];

		x86_feature_override(f->bit, boot_options.sim_cpuid[i].on, X86_OVR_SIMULATED, f->name,
				     NULL, -1);
		rep_warn("cpu", "simulate=cpuid:%c%s: the feature table %s %s whatever CPUID says",
			 boot_options.sim_cpuid[i].on ? '+' : '-', f->name,
			 boot_options.sim_cpuid[i].on ? "claims" : "denies", f->name);
	}
	boot_phase_end("console");
	cpuinfo_read(&boot_cpu);
	mm_init(&boot_info);
	const struct mem_region *claim = mm_kernel_claim(&boot_info);

	if (claim)
		rep_error("mm", "the kernel image 0x%llx-0x%llx overlaps the type-%u memory-map entry 0x%llx-0x%llx: the loader put it on memory the firmware does not give as RAM; that entry stays out of the allocator",
			  (unsigned long long)(uintptr_t)__kernel_start,
			  (unsigned long long)(uintptr_t)__kernel_end, claim->type,
			  (unsigned long long)claim->base,
			  (unsigned long long)(claim->base + claim->len));
	static struct paging_params paging_boot_params;

	paging_boot_params = (struct paging_params){ boot_info.mmap, boot_info.nmmap, page_alloc_below };
	paging_init(&paging_boot_params);
	boot_phase_end("memory");
	acpi_init_at(&acpi, boot_options.acpi_rsdp, boot_info.has_rsdp ? boot_info.rsdp : 0,
		     boot_info.rsdp_len,
		     boot_info.rsdp_tag == 15 ? "multiboot2-tag15" : "multiboot2-tag14");
	PRINT_ERRORS(acpi.errors, acpi.nerrors);
	if (!acpi.have_madt) {
		/* No ACPI CPU list: the Intel MP table, as memtest86+ does. */
		static struct mp_info mp;

		if (mptable_fill(&acpi, &mp))
			rep_diag("smp: no usable MADT; %u enabled CPU(s) of %u from the MP table (spec 1.%u) found in %s at 0x%llx",
				 mp.ncpus_enabled, mp.ncpus, mp.spec_rev, mp.fps_where,
				 (unsigned long long)mp.fps_phys);
		PRINT_ERRORS(mp.errors, mp.nerrors);
	}
	if (!acpi.have_rsdp && firmware_unknown())
		warn_no_firmware_tables();
	/* SMBIOS identity (types 0-2): the loader's tag, the EFI
	 * configuration table, then the BIOS area scan (arch/x86/smbios.h).
	 * A broken table is one error line; the run goes on. */
	smbios_init(&smbios, boot_info.has_smbios ? boot_info.smbios : NULL, boot_info.smbios_len,
		    mbi_is_uefi(&boot_info) ? boot_info.efi_systab : 0, boot_info.efi64);
	if (smbios.error[0])
		rep_diag("error: %s", smbios.error);
	fw_addresses_check(&boot_info, &acpi);
	console_apply_spcr(&acpi.spcr, boot_options.nconsoles > 0);
	fbcon_boot_start(&boot_info, boot_options.nofb);

	boot_phase_end("firmware");
	boot_in_qemu = (boot_info.has_loader && !strncmp(boot_info.loader, "qemu", 4)) ||
		       /* QEMU's firmware says "BOCHS " too, but so does Bochs,
			* which has no hypervisor bit and no debug-exit port */
		       (!strncmp(acpi.oem_id, "BOCHS", 5) && boot_cpu.hypervisor) ||
		       !strncmp(boot_cpu.hv_signature, "TCGTCGTCGTCG", 12) ||
		       !strncmp(boot_cpu.hv_signature, "KVMKVMKVM", 9);
	exit_configure(boot_options.exit_mode, boot_in_qemu);

	tsc_calibrate(&acpi, boot_options.quick);
	boot_phase_end("tsc_calibration");
	/* After the IDT (faults are caught), paging (CR4 is ours), ACPI (the
	 * environment is known) and the TSC rate; before the APIC timer is
	 * armed (the TSC_DEADLINE probe writes 0) and before anything uses
	 * a feature. */
	cpu_probes_run();
	boot_phase_end("cpu_probes");
	struct apic_params ap = {
		.pref = boot_options.apic == APIC_XAPIC ? APIC_PREF_XAPIC :
			boot_options.apic == APIC_X2APIC ? APIC_PREF_X2APIC : APIC_PREF_AUTO,
		.sim_x2apic_nostick = boot_options.simulate & SIM_X2APIC_NOSTICK,
	};

	if (apic_bsp_init(&ap, &acpi)) {
		/* quick: 5 ms instead of 25 (the bracket widths are a few
		 * hundred ns either way; tscdeadline's tolerances use the
		 * stated error, which grows accordingly) */
		if (!apic_timer_init(boot_options.quick ? 5 : 25))
			rep_error("apic", "LAPIC timer does not count; no watchdog");
		smp_init_calls();
	}
	boot_phase_end("apic");
	sti();
	struct smpboot_params sp = {
		.mmap = boot_info.mmap,
		.nmmap = boot_info.nmmap,
		.page_alloc = page_alloc,
		.ap_idle = smp_ap_idle_loop,
		.cpus = boot_options.cpus,
		.ap_timeout_ms = boot_options.ap_timeout_ms,
		.nosmp = boot_options.nosmp,
		.serial = boot_options.smpboot == SMPBOOT_SERIAL,
		.sim_ap_nostart = boot_options.simulate & SIM_AP_NOSTART,
		.sim_ap_alias = boot_options.simulate & SIM_AP_ALIAS,
		.sim_ap_late = boot_options.simulate & SIM_AP_LATE,
	};

	smpboot_start_aps(&sp, &acpi, &sr);
	boot_phase_end("ap_start");

	uint64_t seed = boot_options.seed_set ? boot_options.seed : rdtsc();

	/* The stall window opens here and the APs spin through the header. */
	lost_begin(boot_options.quick);
	print_identity(&sr);
	rep_id("seed", "%llu", (unsigned long long)seed);
	print_boot_details();
	boot_phase_end("identity");
	lost_end();
	boot_phase_end("lost");
	nmi_watch_start();
	boot_phase_end("watchdog");
	boot_phase_print();
	bsp.activity = "runner";
	runner_select(&boot_options, &tot);
	runner_run(&boot_options, seed, &tot);
	/* The uniprocessor NMI watchdog's I/O APIC entry and PIT channel 0
	 * back as the firmware left them (README "What ringlab changes"). */
	nmi_watch_stop();

	/* Firmware errors are part of the verdict: with no CPU
	 * list at all the other CPUs were never tested, so even a run that
	 * did not include smp.online is not a clean pass. */
	bool no_enumeration = !acpi.have_madt;

	if (no_enumeration && !tot.failed)
		rep_error("smp", "no CPU enumeration (no usable MADT or MP table): only the boot CPU was tested; the run cannot pass");
	answers_print();
	rep_summary(tot.passed, tot.failed, tot.skipped);
	int code = EXIT_PASS;
	const char *status = "pass";

	if (tot.failed > tot.config_failed) {
		code = EXIT_FAIL;
		status = "fail";
	} else if (tot.config_failed || no_enumeration) {
		code = EXIT_CONFIG;
		status = "config-error";
	}
	rep_diag("exit action: %s", exit_action());
	rep_exit(status, code);
	rep_integrity();
	/* Leave the timer harmless: LVT masked, IA32_TSC_DEADLINE 0. */
	if (apic_mode != APIC_MODE_NONE)
		watchdog_disarm();
	machine_exit(code);
}
