#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-kexec: from a running Linux into ringlab with kexec, under
# QEMU TCG -smp 4.  The Linux is Debian 12's own kernel (linux-image-amd64,
# downloaded from the mirror once and cached under build/cache/kexec/,
# never installed here) with a small initramfs: busybox-static, this
# machine's kexec-tools (kexec-tools 2.0.25, with the libraries it links),
# build/ringlab.elf and tests/boot/kexec-init as /init, which runs
#   kexec -l /ringlab.elf --type multiboot2-x86 --command-line="ARGS"
#   kexec -e
# adding acpi_rsdp= from /sys/firmware/efi/systab under UEFI.
#
#   tests/boot/check-kexec.sh            (BUILD=dir)
#
# Cases: SeaBIOS (i440FX, Linux in xAPIC mode), SeaBIOS on q35 with an
# interrupt-remapping IOMMU (Linux turns x2APIC on, and ringlab starts in
# it), OVMF (no RSDP in the BIOS area: acpi_rsdp=).  Each ringlab log must
# pass logcheck with all 4 CPUs online and name kexec as its loader.  A
# control: kexec's multiboot1 loader, which the docs call unsupported,
# fails as they say.
# Prints PASS/FAIL per check and "check-kexec: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
W=$BUILD/check-kexec
CACHE=$BUILD/cache/kexec
ELF=$BUILD/ringlab.elf
LOGCHECK=$BUILD/logcheck
OVMF=/usr/share/OVMF/OVMF_CODE.fd
QEMU=${QEMU:-qemu-system-x86_64}
SMP=4
ARGS=${KEXEC_ARGS:-quick}
pass=0 fail=0

say() { echo "check-kexec: $*"; }
die() { say "ERROR: $*"; exit 1; }
result() {
	if [ "$1" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
	printf '%s %s%s\n' "$1" "$2" "${3:+: $3}"
}

for f in "$ELF" "$LOGCHECK"; do [ -e "$f" ] || die "no $f (make)"; done
for t in kexec busybox cpio "$QEMU"; do
	command -v "$t" >/dev/null 2>&1 || die "$t missing (tools/install-deps.sh kexec)"
done
[ -f "$OVMF" ] || die "no $OVMF (Debian: ovmf)"
mkdir -p "$W" "$CACHE"

# ------------------------------------------------------- Debian's kernel ---
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n1)
vmlinuz=$(ls "$CACHE"/vmlinuz-* 2>/dev/null | head -n1)
if [ -z "$vmlinuz" ] || { [ -n "$kpkg" ] && [ ! -f "$CACHE/vmlinuz-${kpkg#linux-image-}" ]; }; then
	[ -n "$kpkg" ] || die "apt-cache knows no linux-image-amd64 (apt-get update?)"
	say "downloading $kpkg (Debian's kernel; once, cached in $CACHE)"
	rm -f "$CACHE"/*.deb "$CACHE"/vmlinuz-*
	(cd "$CACHE" && apt-get download -q "$kpkg") >"$W/download.log" 2>&1 ||
		die "apt-get download $kpkg failed: $W/download.log"
	dpkg-deb --fsys-tarfile "$CACHE"/"$kpkg"_*.deb | tar -x -O --wildcards './boot/vmlinuz-*' \
		>"$CACHE/vmlinuz-${kpkg#linux-image-}" || die "no vmlinuz in $kpkg"
	rm -f "$CACHE"/*.deb
	vmlinuz=$CACHE/vmlinuz-${kpkg#linux-image-}
fi
say "Linux: $(basename "$vmlinuz"); kexec-tools $(kexec --version 2>&1 | head -n1)"

# ------------------------------------------------------------ initramfs ---
ird=$W/initramfs
rm -rf "$ird" && mkdir -p "$ird"/{bin,sbin,proc,sys,dev,lib64}
cp "$(command -v busybox)" "$ird/bin/busybox"
for a in $("$ird/bin/busybox" --list); do
	[ -e "$ird/bin/$a" ] || ln -s busybox "$ird/bin/$a"
done
cp "$(command -v kexec)" "$ird/sbin/kexec"
# kexec's shared libraries, and the dynamic loader, from this machine
for lib in $(ldd "$(command -v kexec)" | awk '$3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
	mkdir -p "$ird$(dirname "$lib")"
	cp -L "$lib" "$ird$lib"
done
cp tests/boot/kexec-init "$ird/init"
chmod +x "$ird/init"
cp "$ELF" "$ird/ringlab.elf"
(cd "$ird" && find . | cpio -o -H newc --quiet) >"$W/initramfs.cpio" || die "cpio"

# ---------------------------------------------------------------- boots ---
# boot NAME FIRMWARE KERNEL-ARGS QEMU-OPTIONS...: Linux, then kexec into
# ringlab; the serial log (Linux's lines, then ringlab's) is $W/NAME.log,
# without carriage returns in $W/NAME.log.txt, QEMU's exit status in $rc
boot() {
	local name=$1 fw=$2 kargs=$3; shift 3
	local log=$W/$name.log t0
	local q=("$QEMU" -nodefaults -display none -no-reboot -m 1G -smp "$SMP" -accel tcg -cpu max
		 -device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$log"
		 -kernel "$vmlinuz" -initrd "$W/initramfs.cpio"
		 -append "console=ttyS0 panic=-1 loglevel=4 ringlab.args=${ARGS// /,} $kargs" "$@")
	[ "$fw" = ovmf ] && q+=(-bios "$OVMF")
	rm -f "$log"
	t0=$(date +%s)
	timeout "${BOOT_TIMEOUT:-300}" "${q[@]}" </dev/null >"$W/$name.qemu" 2>&1
	rc=$?
	say "$name: QEMU exit $rc after $(( $(date +%s) - t0 )) s"
	tr -d '\r' <"$log" >"$log.txt"
}
# run NAME FIRMWARE QEMU-OPTIONS...: a pass with every CPU, loaded by kexec
run() {
	local name=$1 fw=$2; shift 2
	boot "$name" "$fw" "" "$@"
	local log=$W/$name.log why=
	"$LOGCHECK" --expect-status pass --qemu-exit "$rc" --require-answers "$log" >"$W/$name.logcheck" 2>&1 ||
		why="logcheck: $(tail -n 2 "$W/$name.logcheck" | tr '\n' ' ')"
	grep -aq "^# id.cpus: online=$SMP " "$log.txt" || why="$why; not $SMP CPUs online"
	grep -aqE '^    ok [0-9]+ online$' "$log.txt" || why="$why; smp.online did not pass"
	grep -aqE '^# id.loader: kexec ' "$log.txt" || why="$why; id.loader is not kexec"
	grep -aqE '^# id.boot: multiboot2 \(kexec ' "$log.txt" || why="$why; id.boot is not multiboot2 (kexec ...)"
	if [ -n "$why" ]; then
		result FAIL "$name" "${why#; } (log $log)"
		return 1
	fi
	result PASS "$name" "$(grep -a '^check-kexec: Linux:' "$log.txt" | head -n1 | sed 's/^check-kexec: //')"
}

run kexec-seabios seabios
if run kexec-seabios-x2apic seabios -M q35,kernel-irqchip=split -device intel-iommu,intremap=on,eim=on; then
	if grep -aq 'x2apic enabled' "$W/kexec-seabios-x2apic.log.txt" &&
	   grep -aq '^# apic: firmware handed over in x2APIC mode' "$W/kexec-seabios-x2apic.log.txt"; then
		result PASS "  Linux left x2APIC on and ringlab took it over"
	else
		result FAIL "  Linux left x2APIC on and ringlab took it over" "no 'x2apic enabled' or no handover line"
	fi
fi
if run kexec-ovmf ovmf -M q35; then
	if grep -aq '^# acpi: rsdp rev 2 from acpi_rsdp=' "$W/kexec-ovmf.log.txt" &&
	   grep -aq '^# id.firmware: unknown$' "$W/kexec-ovmf.log.txt"; then
		result PASS "  the RSDP from acpi_rsdp= (/sys/firmware/efi/systab); firmware unknown"
	else
		result FAIL "  the RSDP from acpi_rsdp= (/sys/firmware/efi/systab); firmware unknown" "see $W/kexec-ovmf.log.txt"
	fi
fi
# Control, the loader matrix's unsupported row (docs/booting.md): kexec's
# multiboot1 loader (--type multiboot-x86) puts the memory map at physical
# address 0, which ringlab cannot read (a null pointer to it), and marks
# every range that is not RAM as type 0xbad: the run must fail and say so.
boot kexec-mb1-control seabios ringlab.kexec_type=multiboot-x86
if "$LOGCHECK" --expect-status fail --qemu-exit "$rc" "$W/kexec-mb1-control.log" >/dev/null 2>&1 &&
   grep -aq '^# id.boot: multiboot1 (kexec ' "$W/kexec-mb1-control.log.txt" &&
   grep -aq '^# error: mbi: multiboot1 memory map (0x0, [0-9]* bytes) is not readable' "$W/kexec-mb1-control.log.txt"; then
	result PASS "kexec-mb1-control: --type multiboot-x86 fails, naming the memory map at 0"
else
	result FAIL "kexec-mb1-control: --type multiboot-x86 fails, naming the memory map at 0" "see $W/kexec-mb1-control.log.txt"
fi
say "$pass passed, $fail failed (logs in $W)"
[ $fail = 0 ]
