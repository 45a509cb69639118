# ringlab build.  `make` -> build/ringlab.elf and build/ringlab.iso
#                 `make run`, `make run-iso`, `make run-uefi` -> boot in QEMU
#                 `make test` -> every check (host unit tests, QEMU boots, hosted run)
#                 `make hosted` -> build/ringlab-hosted (Linux user-space runner)

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
NASMFLAGS := -f elf64 -w+all -w-unknown-warning -Werror

KERNEL_C := $(sort $(wildcard kernel/*.c arch/x86/*.c lib/*.c tests/*.c))
KERNEL_ASM := $(sort $(wildcard boot/*.asm arch/x86/*.asm))
KERNEL_OBJ := $(patsubst %.c,$(BUILD)/k/%.o,$(KERNEL_C)) \
	      $(patsubst %.asm,$(BUILD)/k/%.asm.o,$(KERNEL_ASM)) \
	      $(BUILD)/k/version.o

.PHONY: all clean run run-iso run-uefi test hosted host-tests qemu-tests hosted-test FORCE
all: $(BUILD)/ringlab.elf $(BUILD)/ringlab.iso

$(BUILD)/k/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -c $< -o $@

# .asm.o so that catch.asm and catch.c do not collide
$(BUILD)/k/%.asm.o: %.asm
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP $< -o $@

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
$(BUILD)/ringlab.iso: $(BUILD)/ringlab.elf iso/grub.cfg
	rm -rf $(BUILD)/isodir
	mkdir -p $(BUILD)/isodir/boot/grub
	cp $(BUILD)/ringlab.elf $(BUILD)/isodir/boot/ringlab.elf
	cp iso/grub.cfg $(BUILD)/isodir/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isodir -- -volid RINGLAB 2>$(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

# ------------------------------------------------------------- host side ---
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. -DRINGLAB_HOST \
	-fsanitize=address,undefined -fno-sanitize-recover=all -MMD -MP
HOST_LIBS := -lcmocka

# Unit tests: tests/host/test_<name>.c, linked with HOST_DEPS_<name>.
HOST_TESTS := $(patsubst tests/host/test_%.c,%,$(sort $(wildcard tests/host/test_*.c)))
HOST_DEPS_lib      := lib/string.c lib/printf.c lib/crc32.c lib/stats.c lib/parse.c
HOST_DEPS_cmdline  := kernel/cmdline.c lib/string.c lib/printf.c lib/parse.c
HOST_DEPS_mbi      := kernel/mbi.c lib/string.c lib/printf.c tests/host/fake_phys.c
HOST_DEPS_acpi     := arch/x86/acpi.c arch/x86/acpi_spcr.c lib/string.c lib/printf.c tests/host/fake_phys.c
HOST_DEPS_logcheck := tools/logcheck_lib.c lib/string.c lib/printf.c lib/crc32.c lib/parse.c
HOST_DEPS_cpuinfo  := arch/x86/cpuinfo.c lib/string.c lib/printf.c
HOST_DEPS_topology := arch/x86/topology.c lib/string.c
HOST_DEPS_memmap   := kernel/memmap.c
HOST_DEPS_acpi_spcr := arch/x86/acpi_spcr.c lib/string.c lib/printf.c

$(BUILD)/host/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOST_CFLAGS) -c $< -o $@

define host_test_rule
$(BUILD)/host/test_$(1): $(BUILD)/host/obj/tests/host/test_$(1).o $(patsubst %.c,$(BUILD)/host/obj/%.o,$(HOST_DEPS_$(1)))
	$$(HOSTCC) $$(HOST_CFLAGS) -o $$@ $$^ $$(HOST_LIBS)
endef
$(foreach t,$(HOST_TESTS),$(eval $(call host_test_rule,$(t))))

# The log checker used by the QEMU tests and by CI/lab automation.
$(BUILD)/logcheck: tools/logcheck.c tools/logcheck_lib.c tools/logcheck_json.c lib/string.c lib/printf.c lib/crc32.c lib/parse.c
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -Werror -I. -DRINGLAB_HOST -o $@ $^

host-tests: $(addprefix $(BUILD)/host/test_,$(HOST_TESTS))

# ------------------------------------------------------- hosted runner ---
# The suites declared with SUITE_HOSTED, the runner, report and command
# line from the same sources as the kernel, on a Linux platform layer.
HOSTED_SUITES := $(shell grep -lw '^SUITE_HOSTED' tests/*.c)
HOSTED_SRC := $(HOSTED_SUITES) $(sort $(wildcard tools/hosted/*.c)) \
	kernel/runner.c kernel/report.c kernel/cmdline.c kernel/barrier.c kernel/cross_call.c \
	arch/x86/cpuinfo.c lib/string.c lib/printf.c lib/crc32.c lib/stats.c lib/parse.c
HOSTED_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. -DRINGLAB_USER -pthread -MMD -MP

$(BUILD)/hosted/%.o: %.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOSTED_CFLAGS) -c $< -o $@

$(BUILD)/hosted/version.o: $(BUILD)/version.txt
	@mkdir -p $(dir $@)
	printf 'const char ringlab_version[] = "%s";\n' "$$(cat $<)" | \
		$(HOSTCC) $(HOSTED_CFLAGS) -x c -c - -o $@

$(BUILD)/ringlab-hosted: $(patsubst %.c,$(BUILD)/hosted/%.o,$(HOSTED_SRC)) $(BUILD)/hosted/version.o
	$(HOSTCC) $(HOSTED_CFLAGS) -o $@ $^

hosted: $(BUILD)/ringlab-hosted

# ------------------------------------------------------------- running ---
# QEMU: KVM when /dev/kvm is usable, else TCG; override with ACCEL=tcg.
ACCEL ?= auto
SMP ?= 4
RUN_ARGS ?= quick

run: $(BUILD)/ringlab.elf $(BUILD)/logcheck
	tools/run-qemu.sh --media kernel --accel $(ACCEL) --smp $(SMP) --append "$(RUN_ARGS)"

run-iso: $(BUILD)/ringlab.iso $(BUILD)/logcheck
	tools/run-qemu.sh --media iso-bios --accel $(ACCEL) --smp $(SMP)

run-uefi: $(BUILD)/ringlab.iso $(BUILD)/logcheck
	tools/run-qemu.sh --media iso-uefi --accel $(ACCEL) --smp $(SMP)

# ---------------------------------------------------------------- tests ---
test: all host-tests hosted $(BUILD)/logcheck
	BUILD=$(BUILD) tests/run-all.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
