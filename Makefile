# SPDX-License-Identifier: GPL-2.0-only
# ringlab build.  `make help` lists the targets.  On a fresh Debian 12
# machine `make run` and `make test` first install what they lack through
# tools/install-deps.sh (the script .ci/run uses); RINGLAB_NO_INSTALL=1 makes
# them only name what is missing and the command that installs it.

BUILD   ?= build
CC      ?= gcc
HOSTCC  ?= gcc
NASM    ?= nasm
LD      := $(CC)

VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)

# ---------------------------------------------------------------- kernel ---
KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -fno-builtin \
	-nostdinc -isystem $(shell $(CC) -print-file-name=include) \
	-fno-pic -fno-pie -mcmodel=small -mno-red-zone \
	-mgeneral-regs-only -mno-sse -mno-sse2 -mno-mmx -mno-80387 \
	-fno-stack-protector -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-fno-omit-frame-pointer -fno-strict-aliasing -fno-common -fno-tree-loop-distribute-patterns \
	-ffile-prefix-map=$(CURDIR)=. -I. -MMD -MP
KLDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=none -Wl,-z,max-page-size=0x1000 \
	-Wl,-z,noexecstack -Wl,--no-warn-rwx-segments -T kernel.ld
NASMFLAGS := -f elf64 -w+all -w-unknown-warning -Werror -I$(BUILD)/k/gen/

# A suite too big for one file is a directory suites/<suite>/ whose suite.c
# declares it (suites/tlb/); every .c file there is part of it.
SUITE_DIRS := $(patsubst %/suite.c,%,$(wildcard suites/*/suite.c))
KERNEL_C := $(sort $(wildcard kernel/*.c arch/x86/*.c lib/*.c suites/*.c $(addsuffix /*.c,$(SUITE_DIRS))))
KERNEL_ASM := $(sort $(wildcard boot/*.asm arch/x86/*.asm))
KERNEL_OBJ := $(patsubst %.c,$(BUILD)/k/%.o,$(KERNEL_C)) \
	      $(patsubst %.asm,$(BUILD)/k/%.asm.o,$(KERNEL_ASM)) \
	      $(BUILD)/k/version.o

.PHONY: all clean run run-iso run-uefi test hosted host-tests check-host check-build \
	check-tools check-hosted check-qemu check-bochs check-docs list-qemu help deps FORCE bench dist man
# build/logcheck too: every host tool judges logs with it (tools/run-qemu.sh,
# tools/run-bochs.sh, tools/ringlab-capture, tools/ringlab-report, LAVA).
all: $(BUILD)/ringlab.elf $(BUILD)/ringlab.iso $(BUILD)/mbforge.elf $(BUILD)/logcheck

help:
	@echo 'ringlab targets (variables: ACCEL=auto|kvm|tcg SMP=N RUN_ARGS="..." RUN_TIMEOUT=S CASE=name):'
	@echo '  make               build/ringlab.elf, the hybrid ISO build/ringlab.iso and build/logcheck'
	@echo '  make run           boot the ELF in QEMU (-kernel), log live, exit with its status'
	@echo '  make run-iso       boot the ISO under SeaBIOS (GRUB default entry)'
	@echo '  make run-uefi      boot the ISO under OVMF'
	@echo '  make test          every check below; ends "N passed, N failed, N skipped"'
	@echo '  make check-host    only the host unit tests (cmocka)'
	@echo '  make check-build   only the build properties (reproducible ELF, encodings, seam)'
	@echo '  make check-tools   only the report, capture and LAVA tool checks'
	@echo '  make check-hosted  only the hosted run (build/ringlab-hosted quick)'
	@echo '  make check-qemu CASE=smp288-x2apic   one QEMU case (CASE=a,b for several)'
	@echo '  make list-qemu     names of the QEMU cases'
	@echo '  make check-docs    only the docs: generated suite reference, links (tools/gen-suites-doc)'
	@echo '  make check-bochs   only the Bochs boots (tools/run-bochs.sh; Ice Lake and Ryzen models)'
	@echo '  make hosted        build build/ringlab-hosted (Linux user-space runner)'
	@echo '  make bench         benchmark table: TCG/KVM boot, quick, per suite, ISO (N=runs; not a test)'
	@echo '  make host-tests    build the host unit tests in build/host/'
	@echo '  make deps          install every tool `make test` needs (tools/install-deps.sh)'
	@echo '  make dist          dist/ringlab-<version>/: ISO, ELF, host tools, man pages, docs, SHA256SUMS, and a tarball'
	@echo '  make man           build/man/*.1: the host tools'"'"' man pages (help2man, from their --help)'
	@echo '  make deb           build/deb/ringlab_<version>_amd64.deb (dpkg-buildpackage, lintian; docs/booting.md)'
	@echo '  make check-deb     the package in a Debian 12 disk image: update-grub, its entries booted (root; slow)'
	@echo '  make check-kexec   Debian'"'"'s kernel kexecs into ringlab under SeaBIOS and OVMF (slow)'
	@echo '  make clean         remove build/'
	@echo 'host tools (after make; each has --help and --version; exit statuses: docs/usage.md):'
	@echo '  tools/run-qemu.sh, tools/run-bochs.sh   boot in QEMU / Bochs, judge the log'
	@echo '  build/logcheck LOG                      check a serial log (--json, --require-answers)'
	@echo '  tools/ringlab-report check|tap|junit|json|csv|html|text|times|compare|answers LOG...'
	@echo '  tools/ringlab-capture                   capture a serial console to build/logs/'

# A release a lab can keep and re-flash (tools/make-dist.sh says what is in
# it, the man pages included); DIST=dir puts it elsewhere.
DIST ?= dist
dist: all hosted man
	tools/make-dist.sh $(BUILD) $(VERSION) $(DIST)

# The host tools' man pages, $(BUILD)/man/*.1, generated from their --help
# and --version by help2man (tools/gen-man; `tools/gen-man --list` names
# them).  The Debian package and `make dist` install these.
man: $(BUILD)/logcheck $(BUILD)/version.txt
	@tools/install-deps.sh man
	tools/gen-man $(BUILD) $(BUILD)/man

# ---------------------------------------------------------------- set-up ---
# Every compile waits for `deps`, which checks (and installs, see the top)
# the tools of the widest goal asked for.
DEPS_PROFILE := build
ifneq ($(filter run run-iso run-uefi,$(MAKECMDGOALS)),)
DEPS_PROFILE := run
endif
ifneq ($(filter test deps check-% host-tests hosted,$(MAKECMDGOALS)),)
DEPS_PROFILE := test
endif
deps:
	@tools/install-deps.sh $(DEPS_PROFILE)

$(BUILD)/k/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -c $< -o $@

# .asm.o so that catch.asm and catch.c do not collide
$(BUILD)/k/%.asm.o: %.asm $(BUILD)/k/gen/processor-flags.inc | deps
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP $< -o $@

# CR/EFER bits for the assembly, from the C header (one definition):
# each `#define NAME VALUE` line becomes `%define NAME VALUE`.
$(BUILD)/k/gen/processor-flags.inc: arch/x86/processor-flags.h
	@mkdir -p $(dir $@)
	{ echo '; generated from $< by the Makefile; do not edit'; \
	  echo '%define X86_BIT(n) (1 << (n))'; \
	  sed -nE 's@^#define[[:space:]]+([A-Z0-9_]+)[[:space:]]+([^/[:space:]][^/]*[^/[:space:]])([[:space:]]*/\*.*)?$$@%define \1 \2@p' $<; } > $@

# The version string changes only when `git describe` does, so rebuilding
# the same tree gives the same ELF.
$(BUILD)/version.txt: FORCE
	@mkdir -p $(BUILD)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
$(BUILD)/k/version.o: $(BUILD)/version.txt
	@mkdir -p $(dir $@)
	printf 'const char ringlab_version[] = "%s";\n' "$$(cat $<)" | \
		$(CC) $(KCFLAGS) -x c -c - -o $@

$(BUILD)/ringlab.elf: $(KERNEL_OBJ) kernel.ld
	$(LD) $(KLDFLAGS) -o $@ $(KERNEL_OBJ) -lgcc

# ------------------------------------------------------------------- ISO ---
$(BUILD)/ringlab.iso: $(BUILD)/ringlab.elf iso/grub.cfg | deps
	rm -rf $(BUILD)/isodir
	mkdir -p $(BUILD)/isodir/boot/grub
	cp $(BUILD)/ringlab.elf $(BUILD)/isodir/boot/ringlab.elf
	cp iso/grub.cfg $(BUILD)/isodir/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isodir -- -volid RINGLAB 2>$(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

# --------------------------------------------------------------- mbforge ---
# Test tooling for the QEMU fault matrix (tests/qemu/mbforge/mbforge.c): a
# 32-bit multiboot1 kernel that loads ringlab.elf (its -initrd module) and
# enters it with a forged multiboot2 information structure.  Not linked
# into the kernel; its own flags.
MBFORGE_CFLAGS := -m32 -std=gnu11 -O2 -Wall -Wextra -Werror -ffreestanding -fno-builtin \
	-nostdinc -isystem $(shell $(CC) -print-file-name=include) -fno-pic -fno-pie \
	-mgeneral-regs-only -fno-stack-protector -fno-asynchronous-unwind-tables \
	-fno-tree-loop-distribute-patterns -ffile-prefix-map=$(CURDIR)=. -MMD -MP
MBFORGE_LDFLAGS := -m32 -nostdlib -static -no-pie -Wl,--build-id=none \
	-Wl,-z,noexecstack -Wl,--no-warn-rwx-segments -T tests/qemu/mbforge/mbforge.ld

$(BUILD)/mbforge/mbforge.o: tests/qemu/mbforge/mbforge.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(MBFORGE_CFLAGS) -I. -c $< -o $@
$(BUILD)/mbforge/entry.o: tests/qemu/mbforge/entry.asm | deps
	@mkdir -p $(dir $@)
	$(NASM) -f elf32 -w+all -Werror $< -o $@
# lib/string.c again, 32-bit: the shim shares the kernel's helpers
$(BUILD)/mbforge/string.o: lib/string.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(MBFORGE_CFLAGS) -I. -c $< -o $@
MBFORGE_OBJ := $(addprefix $(BUILD)/mbforge/,entry.o mbforge.o string.o)
$(BUILD)/mbforge.elf: $(MBFORGE_OBJ) tests/qemu/mbforge/mbforge.ld
	$(LD) $(MBFORGE_LDFLAGS) -o $@ $(MBFORGE_OBJ)

# ------------------------------------------------------------- host side ---
# The log parser: tools/liblogcheck/*.c (one parser; logcheck, the unit
# tests and the fuzzer link the same files).
LOGCHECK_LIB := $(sort $(wildcard tools/liblogcheck/*.c))
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. -DRINGLAB_HOST \
	-fsanitize=address,undefined -fno-sanitize-recover=all -MMD -MP
HOST_LIBS := -lcmocka

# Unit tests: tests/host/test_<name>.c (with the cmocka main), plus the parts
# in tests/host/test_<name>/*.c when one file would be too long, linked
# with HOST_DEPS_<name>.
HOST_TESTS := $(patsubst tests/host/test_%.c,%,$(sort $(wildcard tests/host/test_*.c)))
HOST_DEPS_lib      := lib/string.c lib/printf.c lib/crc32.c lib/stats.c lib/parse.c
HOST_DEPS_cmdline  := kernel/cmdline.c arch/x86/cpuinfo.c lib/string.c lib/printf.c lib/parse.c
HOST_DEPS_mbi      := kernel/mbi.c lib/string.c lib/printf.c tests/host/fake_phys.c
HOST_DEPS_acpi     := arch/x86/acpi.c arch/x86/acpi_spcr.c lib/string.c lib/printf.c tests/host/fake_phys.c
HOST_DEPS_logcheck := $(LOGCHECK_LIB) lib/string.c lib/printf.c lib/crc32.c lib/parse.c
HOST_DEPS_cpuinfo  := arch/x86/cpuinfo.c arch/x86/cpuenv.c lib/string.c lib/printf.c
HOST_DEPS_topology := arch/x86/topology.c lib/string.c
HOST_DEPS_memmap   := kernel/memmap.c
HOST_DEPS_physrange := lib/physrange.c
HOST_DEPS_mptable  := arch/x86/mptable.c arch/x86/acpi.c arch/x86/acpi_spcr.c lib/string.c lib/printf.c tests/host/fake_phys.c
HOST_DEPS_tlbflush :=
HOST_DEPS_ioapic   :=
HOST_DEPS_memsize  := lib/memsize.c arch/x86/meminfo.c arch/x86/cpuinfo.c lib/string.c lib/printf.c
HOST_DEPS_litmus   := lib/litmus.c lib/claims.c lib/string.c lib/printf.c
HOST_DEPS_claims   := lib/claims.c lib/string.c lib/printf.c
HOST_DEPS_pmu      := arch/x86/pmu.c lib/string.c lib/printf.c
HOST_DEPS_acpi_spcr := arch/x86/acpi_spcr.c lib/string.c lib/printf.c
HOST_DEPS_fbcon    := kernel/fbcon.c lib/font5x7.c lib/string.c lib/printf.c
HOST_DEPS_smbios   := arch/x86/smbios.c lib/string.c lib/printf.c tests/host/fake_phys.c

$(BUILD)/host/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOST_CFLAGS) -c $< -o $@

define host_test_rule
$(BUILD)/host/test_$(1): $(BUILD)/host/obj/tests/host/test_$(1).o \
		$(patsubst %.c,$(BUILD)/host/obj/%.o,$(sort $(wildcard tests/host/test_$(1)/*.c)) $(HOST_DEPS_$(1)))
	$$(HOSTCC) $$(HOST_CFLAGS) -o $$@ $$^ $$(HOST_LIBS)
endef
$(foreach t,$(HOST_TESTS),$(eval $(call host_test_rule,$(t))))

# The log checker used by the QEMU tests and by CI/lab automation.
$(BUILD)/logcheck: tools/logcheck.c $(LOGCHECK_LIB) tools/logcheck_json.c lib/string.c lib/printf.c lib/crc32.c lib/parse.c | deps
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -Werror -I. -DRINGLAB_HOST -o $@ $^

host-tests: $(addprefix $(BUILD)/host/test_,$(HOST_TESTS))

# ------------------------------------------------------------- fuzzing ---
# `make fuzz`: libFuzzer harnesses (tests/fuzz/) for the multiboot, ACPI +
# MP table, command-line, log-checker, address-range and SMBIOS parsers,
# with ASan and UBSan.  tests/fuzz/run.sh runs them (seeded by tests/fuzz/seeds.py).
FUZZCC ?= clang
FUZZ_CFLAGS := -std=gnu11 -O1 -g -I. -DRINGLAB_HOST -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all
FUZZERS := mbi acpi cmdline logcheck physrange smbios
FUZZ_DEPS_mbi       := kernel/mbi.c lib/string.c lib/printf.c tests/fuzz/fuzz_phys.c
FUZZ_DEPS_acpi      := arch/x86/acpi.c arch/x86/acpi_spcr.c arch/x86/mptable.c lib/string.c lib/printf.c tests/fuzz/fuzz_phys.c
FUZZ_DEPS_cmdline   := kernel/cmdline.c arch/x86/cpuinfo.c lib/string.c lib/printf.c lib/parse.c
FUZZ_DEPS_logcheck  := $(LOGCHECK_LIB) lib/string.c lib/printf.c lib/crc32.c lib/parse.c
FUZZ_DEPS_physrange := lib/physrange.c
FUZZ_DEPS_smbios    := arch/x86/smbios.c lib/string.c lib/printf.c tests/fuzz/fuzz_phys.c

define fuzz_rule
$(BUILD)/fuzz/fuzz_$(1): tests/fuzz/fuzz_$(1).c $(FUZZ_DEPS_$(1))
	@mkdir -p $$(dir $$@)
	$$(FUZZCC) $$(FUZZ_CFLAGS) -o $$@ $$^
endef
$(foreach f,$(FUZZERS),$(eval $(call fuzz_rule,$(f))))

.PHONY: fuzz
fuzz: $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZERS))

# ------------------------------------------------------- hosted runner ---
# The suites declared with SUITE_HOSTED, the runner, report and command
# line from the same sources as the kernel, on a Linux platform layer.
HOSTED_SUITES := $(shell grep -lw '^SUITE_HOSTED' suites/*.c) \
	$(foreach d,$(SUITE_DIRS),$(if $(shell grep -lw '^SUITE_HOSTED' $(d)/suite.c),$(sort $(wildcard $(d)/*.c))))
HOSTED_SRC := $(HOSTED_SUITES) $(sort $(wildcard tools/hosted/*.c)) \
	kernel/runner.c kernel/run_policy.c kernel/answers.c kernel/report.c kernel/cmdline.c kernel/barrier.c kernel/cross_call.c kernel/counters.c \
	kernel/cpu_set.c kernel/measure.c arch/x86/cpuinfo.c arch/x86/cpuenv.c lib/string.c lib/printf.c lib/crc32.c lib/stats.c lib/parse.c \
	arch/x86/meminfo.c lib/memsize.c lib/litmus.c lib/claims.c
# memory suites: the clearing primitives, shared with the kernel
HOSTED_ASM := arch/x86/clear.asm
HOSTED_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. -DRINGLAB_USER -pthread -MMD -MP

$(BUILD)/hosted/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOSTED_CFLAGS) -c $< -o $@

$(BUILD)/hosted/version.o: $(BUILD)/version.txt
	@mkdir -p $(dir $@)
	printf 'const char ringlab_version[] = "%s";\n' "$$(cat $<)" | \
		$(HOSTCC) $(HOSTED_CFLAGS) -x c -c - -o $@

$(BUILD)/hosted/%.asm.o: %.asm
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP $< -o $@

$(BUILD)/ringlab-hosted: $(patsubst %.c,$(BUILD)/hosted/%.o,$(HOSTED_SRC)) \
		$(patsubst %.asm,$(BUILD)/hosted/%.asm.o,$(HOSTED_ASM)) $(BUILD)/hosted/version.o
	$(HOSTCC) $(HOSTED_CFLAGS) -o $@ $^

hosted: $(BUILD)/ringlab-hosted

# ------------------------------------------------------------- running ---
# QEMU: KVM when /dev/kvm is usable, else TCG; override with ACCEL=tcg.
ACCEL ?= auto
SMP ?= 4
RUN_ARGS ?= quick
# QEMU's hard limit in seconds (then exit 124)
RUN_TIMEOUT ?= 600

# make run* exit with the run's status (docs/usage.md, "Exit status": 0
# pass, 1 fail, 2 config-error, 3 panic, 4 skip, 124, 125, 126), not make's
# own 2 for any failed recipe.  make cannot hand a recipe's status on, so
# the boot's recipe records tools/run-qemu.sh's status and the run target's
# recipe ends make with it through $(ringlab-exit N), a function loaded
# into make (tools/make-exit.c; GNU make's `load`).  Where it cannot be
# built or loaded, the recipe exits with the status and make says so and
# exits 2.  (Not under make -n: nothing ran.)
RUN_STATUS := $(BUILD)/logs/.run-status
ifneq ($(filter run run-iso run-uefi,$(MAKECMDGOALS)),)
-load $(BUILD)/make-exit.so(ringlab_exit_gmk_setup)
endif
$(BUILD)/make-exit.so: tools/make-exit.c
	@mkdir -p $(dir $@)
	@$(HOSTCC) -shared -fPIC -O2 -Wall -Wextra -Werror -o $@ $< || \
		echo 'make: cannot build $@: make run will exit 2 for any run that does not pass' >&2
run_exit = $(if $(findstring n,$(firstword -$(MAKEFLAGS))),,$(ringlab-exit $(file <$(RUN_STATUS))))
RUN_BOOTS := run-boot-kernel run-boot-iso-bios run-boot-iso-uefi
.PHONY: $(RUN_BOOTS)
$(RUN_BOOTS): run-boot-%:
	@mkdir -p $(BUILD)/logs && rm -f $(RUN_STATUS)
	tools/run-qemu.sh --media $* --accel $(ACCEL) --smp $(SMP) --timeout $(RUN_TIMEOUT) $(RUN_APPEND); \
		echo $$? >$(RUN_STATUS)
run-boot-kernel: RUN_APPEND = --append "$(RUN_ARGS)"
run-boot-kernel: $(BUILD)/ringlab.elf $(BUILD)/logcheck
run-boot-iso-bios run-boot-iso-uefi: $(BUILD)/ringlab.iso $(BUILD)/logcheck

run: run-boot-kernel
	@$(run_exit)exit $$(cat $(RUN_STATUS) 2>/dev/null || echo 126)
run-iso: run-boot-iso-bios
	@$(run_exit)exit $$(cat $(RUN_STATUS) 2>/dev/null || echo 126)
run-uefi: run-boot-iso-uefi
	@$(run_exit)exit $$(cat $(RUN_STATUS) 2>/dev/null || echo 126)

# ---------------------------------------------------------------- tests ---
# tests/run-all.sh runs the parts in order; each check-* target runs one.
test: all host-tests hosted $(BUILD)/logcheck
	BUILD=$(BUILD) tests/run-all.sh

check-host: host-tests
	BUILD=$(BUILD) tests/run-all.sh host

check-build: all
	BUILD=$(BUILD) tests/run-all.sh build

check-tools: all $(BUILD)/logcheck
	BUILD=$(BUILD) tests/run-all.sh tools

# A benchmark, not a test: `make test` never runs it (tools/bench-boot.sh).
bench: all $(BUILD)/logcheck
	BUILD=$(BUILD) tools/bench-boot.sh --table $(if $(N),-n $(N))

check-hosted: hosted $(BUILD)/logcheck
	BUILD=$(BUILD) tests/run-all.sh hosted

CASE ?=
check-qemu: all $(BUILD)/logcheck
	@[ -n "$(CASE)" ] || { echo 'check-qemu: name the case: make check-qemu CASE=<name>  (make list-qemu lists them)' >&2; exit 2; }
	BUILD=$(BUILD) QEMU_ONLY='$(CASE)' QEMU_JOBS=1 tests/run-all.sh qemu

list-qemu:
	@python3 tests/qemu/run.py --list

# Bochs, the second emulator (tools/run-bochs.sh, tools/bochs/case.sh).
check-bochs: all $(BUILD)/logcheck
	BUILD=$(BUILD) tests/run-all.sh bochs

check-docs: all hosted
	BUILD=$(BUILD) tests/run-all.sh docs

# ---------------------------------------------------------- boot paths ---
# Where lab machines already run Linux (docs/booting.md): a Debian package
# (debian/, GRUB entries through tools/grub/20_ringlab, ringlab-boot-once)
# and kexec (kexec-tools' multiboot2 loader takes build/ringlab.elf).
.PHONY: deb check-deb check-kexec

# build/deb/ringlab_<version>_amd64.deb, built by dpkg-buildpackage from a
# copy of this tree (tests/boot/make-deb.sh), then lintian.
deb: | deps
	@tools/install-deps.sh deb
	BUILD=$(BUILD) tests/boot/make-deb.sh

# Slow (a Debian 12 root from the mirror, cached under build/; GRUB boots
# under TCG): install the package, update-grub, boot its entries under
# SeaBIOS and OVMF, ringlab-boot-once, remove and purge.  Needs root.
check-deb: deb $(BUILD)/logcheck
	BUILD=$(BUILD) tests/boot/check-deb.sh

# Debian's own kernel under TCG kexecs into ringlab (SeaBIOS and OVMF);
# its download is cached under build/cache/kexec/.
check-kexec: all $(BUILD)/logcheck
	@tools/install-deps.sh kexec
	BUILD=$(BUILD) tests/boot/check-kexec.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)
