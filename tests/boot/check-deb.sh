#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-deb: the Debian package as a lab engineer uses it, on a
# Debian 12 disk image booted under QEMU (TCG).
#
#   tests/boot/check-deb.sh            (BUILD=dir; needs root, loop devices,
#                                       the Debian mirror on first use)
#
#  1. A Debian 12 root from the mirror (debootstrap minbase with GRUB's
#     BIOS and UEFI binaries and python3), cached as
#     build/cache/debian12-grub-root.tar (about a minute the first time).
#  2. A 1 GiB GPT disk: BIOS boot partition, ESP, ext4 root; GRUB on it
#     for BIOS and UEFI (the removable path), a serial GRUB console, and a
#     default entry that says so and powers off.
#  3. dpkg -i build/deb/ringlab.deb: postinst's update-grub adds the
#     entries; their text is checked.
#  4. Boots under SeaBIOS and OVMF, -smp 4: the main quick entry (chosen
#     for one boot with grub-reboot), ringlab-boot-once with arguments
#     (and the boot after it takes the default again), multiboot under
#     BIOS (RINGLAB_BIOS_LOADER) with multiboot2 still under UEFI; each
#     ringlab log passes logcheck with every CPU online.
#  5. Secure Boot (a planted SecureBoot EFI variable): no entries and a
#     message; ringlab-boot-once's refusals (no grub.cfg, another boot
#     loader, no entries, bad arguments), --dry-run and --undo.
#  6. An upgrade (the same package, a higher version), remove and purge:
#     /boot, grub.cfg and grubenv stay consistent at each step.
# Prints PASS/FAIL per check and "check-deb: N passed, N failed"; exit 1
# on any failure.  Logs: build/check-deb/.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
W=$BUILD/check-deb
CACHE=$BUILD/cache/debian12-grub-root.tar
DEB=$BUILD/deb/ringlab.deb
LOGCHECK=$BUILD/logcheck
OVMF=/usr/share/OVMF/OVMF_CODE.fd
QEMU=${QEMU:-qemu-system-x86_64}
SMP=4
pass=0 fail=0
mnt=$W/mnt

say() { echo "check-deb: $*"; }
die() { say "ERROR: $*"; cleanup; exit 1; }
result() { # PASS|FAIL name [detail]
	if [ "$1" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
	printf '%s %s%s\n' "$1" "$2" "${3:+: $3}"
}
check() { # name command...: PASS when the command succeeds
	local name=$1; shift
	if "$@" >"$W/last.out" 2>&1; then
		result PASS "$name"
	else
		result FAIL "$name" "$(tail -n 3 "$W/last.out" | tr '\n' ' ')"
	fi
}

[ "$(id -u)" = 0 ] || { say "SKIP: needs root (loop devices, mount, chroot)"; exit 0; }
[ -f "$DEB" ] || die "no $DEB (make deb)"
[ -x "$LOGCHECK" ] || die "no $LOGCHECK (make)"
for t in debootstrap sgdisk losetup mkfs.vfat mkfs.ext4 mcopy "$QEMU"; do
	command -v "$t" >/dev/null 2>&1 || die "$t missing (tools/install-deps.sh deb)"
done
[ -f "$OVMF" ] || die "no $OVMF (Debian: ovmf)"
losetup -f >/dev/null 2>&1 || { say "SKIP: no free loop device"; exit 0; }

# ------------------------------------------------------------ the root ---
mirror() {
	local uri
	uri=$(grep -rhs '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1 | awk '{print $2}')
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
	echo "${uri:-http://deb.debian.org/debian}"
}
mkdir -p "$W" "$(dirname "$CACHE")"
if [ ! -f "$CACHE" ]; then
	say "debootstrap bookworm from $(mirror) (once; cached in $CACHE)"
	t0=$(date +%s)
	rm -rf "$W/root.tmp"
	debootstrap --variant=minbase \
		--include=python3,grub-pc-bin,grub-efi-amd64-bin,grub2-common,grub-common \
		bookworm "$W/root.tmp" "$(mirror)" >"$W/debootstrap.log" 2>&1 ||
		die "debootstrap failed: $W/debootstrap.log"
	tar -C "$W/root.tmp" -cf "$CACHE.part" . && mv "$CACHE.part" "$CACHE"
	rm -rf "$W/root.tmp"
	say "root cached in $(( $(date +%s) - t0 )) s"
fi

# ----------------------------------------------------------- the disk ---
# The root partition is reached through a loop device at its offset, not
# through a partitioned loop device, which needs partition support in the
# host kernel (not every kernel this runs on has it), and the ESP through
# mtools (the kernel need not have vfat either).  For the same reason
# GRUB is put on the disk as grub-install would put it rather than by
# grub-install, which probes the partitions of the disk it writes:
# grub-mkimage with an early configuration that finds the root file system
# by UUID, the modules in /boot/grub/<platform>/, and for BIOS the two
# writes of grub-bios-setup (boot.img into the MBR, pointing at core.img;
# core.img into the BIOS boot partition, with its sector list).
img=$W/disk.img
CORE_LBA=2048 ESP_LBA=4096 ESP_SECTORS=131072 ROOT_LBA=135168 ROOT_SECTORS=
ESP="$img@@$((ESP_LBA * 512))"	# mtools' name for the ESP
# The root is mounted through a second name for its loop device: GRUB's
# grub-mkconfig_lib takes a root on /dev/loopN for a file system in a
# loop-mounted file (a live system's) and looks for that file instead.
loop_root= root_dev=/dev/ringlab-check-deb-$$
attach() {
	loop_root=$(losetup -f --show -o $((ROOT_LBA * 512)) --sizelimit $((ROOT_SECTORS * 512)) "$img") ||
		die "losetup (root) failed"
	rm -f "$root_dev"
	mknod "$root_dev" b $((0x$(stat -c %t "$loop_root"))) $((0x$(stat -c %T "$loop_root"))) ||
		die "mknod $root_dev"
}
detach() {
	rm -f "$root_dev"
	if [ -n "$loop_root" ]; then losetup -d "$loop_root"; fi
	loop_root=
}
mount_root() { # mount the disk and the chroot's /dev /proc /sys
	attach
	mkdir -p "$mnt"
	mount "$root_dev" "$mnt" || die "mount $root_dev ($loop_root)"
	bind_mounts
}
bind_mounts() {
	if [ -d "$mnt/proc" ]; then
		for d in dev dev/pts proc sys; do mount --bind "/$d" "$mnt/$d"; done
	fi
}
umount_root() { # flush and detach: QEMU writes the image next
	for d in sys/firmware sys proc dev/pts dev ""; do
		if mountpoint -q "$mnt/$d"; then umount "$mnt/$d"; fi
	done
	detach
	sync
}
cleanup() { if [ -d "$mnt" ]; then umount_root 2>/dev/null; fi; true; }
trap cleanup EXIT
in_root() { chroot "$mnt" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

grub_setup() { # the GRUB images and modules, as grub-install makes them
	local uuid early=$W/early.cfg lib=$mnt/usr/lib/grub
	uuid=$(blkid -s UUID -o value "$root_dev") || return 1
	printf 'search.fs_uuid %s root\nset prefix=($root)/boot/grub\n' "$uuid" >"$early"
	mkdir -p "$mnt/boot/grub/i386-pc" "$mnt/boot/grub/x86_64-efi"
	cp "$lib"/i386-pc/*.mod "$lib"/i386-pc/*.lst "$mnt/boot/grub/i386-pc/" &&
	cp "$lib"/x86_64-efi/*.mod "$lib"/x86_64-efi/*.lst "$mnt/boot/grub/x86_64-efi/" &&
	in_root grub-editenv /boot/grub/grubenv create &&
	grub-mkimage -d "$lib/x86_64-efi" -O x86_64-efi -c "$early" -p /boot/grub \
		-o "$W/BOOTX64.EFI" part_gpt ext2 search_fs_uuid &&
	mmd -i "$ESP" ::/EFI ::/EFI/BOOT && mcopy -i "$ESP" "$W/BOOTX64.EFI" ::/EFI/BOOT/ &&
	grub-mkimage -d "$lib/i386-pc" -O i386-pc -c "$early" -p /boot/grub \
		-o "$W/core.img" biosdisk part_gpt ext2 search_fs_uuid || return 1
	python3 - "$img" "$W/core.img" "$lib/i386-pc/boot.img" "$CORE_LBA" <<'PY'
import struct, sys
img, core, boot, lba = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
c = bytearray(open(core, "rb").read())
b = bytearray(open(boot, "rb").read())
n = (len(c) + 511) // 512
c += bytes(n * 512 - len(c))
if n > 2048:
    sys.exit("core.img is larger than the 1 MiB BIOS boot partition")
# diskboot.img (core.img's first sector) ends with its sector list, read
# backwards: the rest of core.img, from the next sector on, to segment
# 0x820; an empty entry before it ends the list
struct.pack_into("<QHH", c, 0x200 - 12, lba + 1, n - 1, 0x820)
struct.pack_into("<QHH", c, 0x200 - 24, 0, 0, 0)
# boot.img: core.img's first sector (GRUB_BOOT_MACHINE_KERNEL_SECTOR),
# the boot drive the BIOS passes (BOOT_DRIVE 0xff, and the DRIVE_CHECK
# jump turned into two NOPs, as grub-bios-setup does for a hard disk)
struct.pack_into("<Q", b, 0x5c, lba)
b[0x64] = 0xff
b[0x66:0x68] = b"\x90\x90"
with open(img, "r+b") as f:
    f.seek(lba * 512)
    f.write(c)
    f.seek(0)
    mbr = bytearray(f.read(512))
    mbr[:440] = b[:440]          # the partition table and signature stay
    f.seek(0)
    f.write(mbr)
PY
}

say "disk image $img"
rm -f "$img"
truncate -s 1G "$img"
sgdisk -n1:$CORE_LBA:+1M -t1:EF02 -n2:$ESP_LBA:+$((ESP_SECTORS / 2048))M -t2:EF00 \
	-n3:$ROOT_LBA:0 -t3:8300 "$img" >"$W/sgdisk.log" 2>&1 || die "sgdisk: $W/sgdisk.log"
sgdisk -i 3 "$img" | grep -q "^First sector: $ROOT_LBA " || die "sgdisk put partition 3 elsewhere"
ROOT_SECTORS=$(sgdisk -i 3 "$img" | sed -n 's/^Partition size: \([0-9]*\) sectors.*/\1/p')
[ -n "$ROOT_SECTORS" ] || die "no size for partition 3"
mkfs.vfat -F 16 -n ESP --offset $ESP_LBA "$img" $((ESP_SECTORS / 2)) >/dev/null 2>&1 || die "mkfs.vfat"
attach
mkfs.ext4 -q -L ringlab-test "$root_dev" || die "mkfs.ext4"
detach
mount_root
tar -C "$mnt" -xf "$CACHE" || die "unpacking $CACHE"
bind_mounts
# what a Debian install's GRUB configuration has, plus a serial console
# and a default entry the checks can tell from ringlab: it says so and
# powers the machine off
cat >"$mnt/etc/default/grub" <<'EOF'
GRUB_DEFAULT=check-deb-default
GRUB_TIMEOUT=0
GRUB_DISTRIBUTOR=Debian
GRUB_CMDLINE_LINUX_DEFAULT="quiet"
GRUB_TERMINAL="console serial"
GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"
EOF
cat >>"$mnt/etc/grub.d/40_custom" <<'EOF'
menuentry 'check-deb: the default entry' --id check-deb-default {
	echo 'check-deb: the default entry booted'
	halt
}
EOF
printf 'LABEL=ringlab-test / ext4 defaults 0 1\n' >"$mnt/etc/fstab"
check "GRUB for BIOS and UEFI on the disk (grub-mkimage, boot.img, core.img)" grub_setup
check "update-grub before the package" in_root update-grub
cp "$DEB" "$mnt/tmp/ringlab.deb"

# --------------------------------------------------------------- install ---
in_root dpkg -i /tmp/ringlab.deb >"$W/install.log" 2>&1
check "dpkg -i ringlab (postinst ran update-grub)" grep -q 'Found ringlab image: /boot/ringlab.elf' "$W/install.log"
cfg=$mnt/boot/grub/grub.cfg
cp "$cfg" "$W/grub.cfg.installed"
entries_ok() { # grub.cfg has the ringlab entries as 20_ringlab writes them
	local c=$1
	grep -q "menuentry 'ringlab: full run (console ttyS0)' --class ringlab \$menuentry_id_option 'ringlab-full'" "$c" &&
	grep -q "\$menuentry_id_option 'ringlab-quick'" "$c" &&
	grep -q "submenu 'ringlab: other serial consoles, one-shot run'" "$c" &&
	for id in full-com1 quick-com1 full-com2 quick-com2 full-com12 quick-com12 once; do
		grep -q "'ringlab-$id'" "$c" || return 1
	done &&
	grep -q 'multiboot2 /boot/ringlab.elf console=ttyS0,115200 quick$' "$c" &&
	grep -q 'multiboot2 /boot/ringlab.elf console=ttyS1,115200$' "$c" &&
	grep -q 'multiboot2 /boot/ringlab.elf console=ttyS0,115200 console=ttyS1,115200 quick$' "$c" &&
	grep -q 'if \[ "$grub_platform" = efi \]; then' "$c" &&
	grep -q 'if \[ "$lockdown" != y \]; then' "$c" &&
	grep -q 'search --no-floppy --fs-uuid --set=root' "$c"
}
check "grub.cfg: ringlab entries (main two, the ISO's consoles, one-shot)" entries_ok "$cfg"
check "installed files" test -f "$mnt/boot/ringlab.elf" -a -x "$mnt/usr/sbin/ringlab-boot-once" \
	-a -f "$mnt/usr/lib/ringlab/ringlab.iso" \
	-a -x "$mnt/etc/grub.d/20_ringlab" -a -f "$mnt/etc/default/ringlab"
check "man pages" test -f "$mnt/usr/share/man/man8/ringlab-boot-once.8.gz" \
	-a -f "$mnt/usr/share/man/man1/ringlab-report.1.gz" -a -f "$mnt/usr/share/man/man1/ringlab-logcheck.1.gz" \
	-a -f "$mnt/usr/share/man/man1/ringlab-capture.1.gz"
for t in ringlab-report ringlab-capture ringlab-logcheck ringlab-boot-once; do
	check "$t --help on PATH" sh -c "chroot '$mnt' $t --help 2>&1 | grep -qi 'usage'"
done

# ------------------------------------------------------------- boots ---
# boot NAME FIRMWARE: boot the disk (GRUB picks next_entry or its
# default); the serial log is $W/NAME.log, QEMU's exit status in $rc.
boot() {
	local name=$1 fw=$2 log=$W/$1.log
	local q=("$QEMU" -nodefaults -display none -no-reboot -m 1G -smp "$SMP" -accel tcg -cpu max
		 -device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$log"
		 -drive "file=$img,format=raw")
	[ "$fw" = ovmf ] && q+=(-M q35 -bios "$OVMF")
	rm -f "$log"
	umount_root
	local t0; t0=$(date +%s)
	timeout "${BOOT_TIMEOUT:-240}" "${q[@]}" </dev/null >"$W/$name.qemu" 2>&1
	rc=$?
	say "boot $name ($fw): QEMU exit $rc after $(( $(date +%s) - t0 )) s"
	mount_root
}
# ringlab_passed NAME BOOT-PATH: the log passes with all $SMP CPUs (the
# line checks on a copy without the serial line's carriage returns)
ringlab_passed() {
	local log=$W/$1.log
	tr -d '\r' <"$log" >"$log.txt"
	"$LOGCHECK" --expect-status pass --qemu-exit "$rc" --require-answers "$log" &&
	log=$log.txt &&
	grep -aq "^# id.cpus: online=$SMP " "$log" &&
	grep -aqE "^    ok [0-9]+ online$" "$log" &&
	grep -aqE "^# id.boot: $2$" "$log"
}
env_value() { in_root grub-editenv /boot/grub/grubenv list | sed -n "s/^$1=//p"; }

# the main quick entry, once, under each firmware
for fw in seabios ovmf; do
	in_root grub-reboot ringlab-quick
	boot "quick-$fw" "$fw"
	want="GRUB BIOS"; [ $fw = ovmf ] && want="GRUB UEFI"
	check "boot ringlab-quick under $fw: pass, $SMP CPUs, $want" ringlab_passed "quick-$fw" "$want"
	check "after the $fw boot: next_entry cleared by GRUB" test -z "$(env_value next_entry)"
done
check "ringlab-logcheck and ringlab-report on PATH judge the log" \
	sh -c "cp '$W/quick-seabios.log' '$mnt/tmp/q.log' && chroot '$mnt' ringlab-logcheck /tmp/q.log && chroot '$mnt' ringlab-report check /tmp/q.log"

# ringlab-boot-once: the one-shot entry with arguments, once
in_root ringlab-boot-once tests=boot,smp,apic quick >"$W/boot-once.out" 2>&1
check "ringlab-boot-once: done, says what changed and how to undo" \
	grep -q "changed /boot/grub/grubenv: next_entry unset -> 'ringlab-more>ringlab-once', ringlab_once_args unset -> 'tests=boot,smp,apic quick'" "$W/boot-once.out"
check "ringlab-boot-once: prints the undo command" grep -q "to undo before rebooting: ringlab-boot-once --undo" "$W/boot-once.out"
check "ringlab-boot-once: /etc/default/grub untouched" grep -qx 'GRUB_DEFAULT=check-deb-default' "$mnt/etc/default/grub"
for fw in seabios ovmf; do
	[ $fw = ovmf ] && in_root ringlab-boot-once tests=boot,smp,apic quick >/dev/null
	boot "once-$fw" "$fw"
	want="GRUB BIOS"; [ $fw = ovmf ] && want="GRUB UEFI"
	check "boot ringlab-boot-once's entry under $fw: pass, $SMP CPUs" ringlab_passed "once-$fw" "$want"
	check "  its command line carries the arguments" \
		grep -aqx '# id.cmdline: console=ttyS0,115200 tests=boot,smp,apic quick' "$W/once-$fw.log.txt"
	check "  GRUB cleared next_entry and ringlab_once_args" \
		test -z "$(env_value next_entry)$(env_value ringlab_once_args)"
done
boot "after-once" seabios
check "the boot after: GRUB's default entry again" \
	sh -c "[ $rc = 0 ] && grep -aq 'check-deb: the default entry booted' '$W/after-once.log' && ! grep -aq 'KTAP version' '$W/after-once.log'"

# multiboot (mb1) under BIOS, multiboot2 still under UEFI
sed -i 's/^RINGLAB_BIOS_LOADER=.*/RINGLAB_BIOS_LOADER=multiboot/' "$mnt/etc/default/ringlab"
in_root update-grub >/dev/null 2>&1
check "RINGLAB_BIOS_LOADER=multiboot: the BIOS branch says multiboot" \
	grep -q '^			multiboot /boot/ringlab.elf console=ttyS0,115200 quick$' "$mnt/boot/grub/grub.cfg"
for fw in seabios ovmf; do
	in_root grub-reboot ringlab-quick
	boot "mb1-$fw" "$fw"
	want="multiboot1 \(GRUB 2\.06[^)]*\)"; [ $fw = ovmf ] && want="GRUB UEFI"
	check "RINGLAB_BIOS_LOADER=multiboot under $fw: pass, $SMP CPUs, $want" ringlab_passed "mb1-$fw" "$want"
done
sed -i 's/^RINGLAB_BIOS_LOADER=.*/RINGLAB_BIOS_LOADER=multiboot2/' "$mnt/etc/default/ringlab"

# ------------------------------------------------ refusals and Secure Boot ---
efivars=$mnt/sys/firmware/efi/efivars
plant_efivars() { # a tmpfs in place of the chroot's /sys/firmware
	mount -t tmpfs tmpfs "$mnt/sys/firmware" && mkdir -p "$efivars"
}
efivar() { # name-guid value-bytes (octal escapes)
	printf "\\007\\000\\000\\000$2" >"$efivars/$1"
}
plant_efivars
efivar SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c '\001'
efivar SetupMode-8be4df61-93ca-11d2-aa0d-00e098032b8c '\000'
in_root update-grub >"$W/sb.out" 2>&1
check "Secure Boot on: update-grub says why there are no entries" grep -q "Secure Boot is on: GRUB's lockdown refuses multiboot and multiboot2" "$W/sb.out"
check "Secure Boot on: no ringlab entries in grub.cfg" sh -c "! grep -q \"'ringlab-\" '$mnt/boot/grub/grub.cfg'"
efivar MokSBStateRT-605dab50-e046-4300-abb6-3dd810dd8b23 '\001'
in_root update-grub >"$W/sb-mok.out" 2>&1
check "Secure Boot with shim validation off (MokSBState): entries" entries_ok "$mnt/boot/grub/grub.cfg"
rm -f "$efivars"/*
# systemd-boot says it is the loader: ringlab-boot-once refuses
printf '\007\000\000\000s\000y\000s\000t\000e\000m\000d\000-\000b\000o\000o\000t\000 \0002\0005\0002\000\000\000' \
	>"$efivars/LoaderInfo-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
in_root ringlab-boot-once quick >"$W/refuse-sdboot.out" 2>&1; r=$?
check "ringlab-boot-once refuses under systemd-boot (exit 1)" \
	sh -c "[ $r = 1 ] && grep -q \"the boot loader is 'systemd-boot 252'\" '$W/refuse-sdboot.out'"
umount "$mnt/sys/firmware"
check "  and changed nothing" test -z "$(env_value next_entry)"

mv "$mnt/boot/grub/grub.cfg" "$mnt/boot/grub/grub.cfg.away"
in_root ringlab-boot-once >"$W/refuse-nogrub.out" 2>&1; r=$?
mv "$mnt/boot/grub/grub.cfg.away" "$mnt/boot/grub/grub.cfg"
check "ringlab-boot-once refuses without grub.cfg (GRUB is not the boot loader)" \
	sh -c "[ $r = 1 ] && grep -q 'GRUB is not the boot loader here' '$W/refuse-nogrub.out'"
sed -i 's/^RINGLAB_DISABLE=.*/RINGLAB_DISABLE=true/' "$mnt/etc/default/ringlab"
in_root update-grub >/dev/null 2>&1
in_root ringlab-boot-once >"$W/refuse-noentry.out" 2>&1; r=$?
check "ringlab-boot-once refuses without ringlab entries (RINGLAB_DISABLE)" \
	sh -c "[ $r = 1 ] && grep -q 'has no ringlab entries: run update-grub' '$W/refuse-noentry.out'"
sed -i 's/^RINGLAB_DISABLE=.*/RINGLAB_DISABLE=false/' "$mnt/etc/default/ringlab"
in_root update-grub >/dev/null 2>&1
in_root ringlab-boot-once 'quick;reboot' >"$W/refuse-args.out" 2>&1; r=$?
check "ringlab-boot-once refuses an argument GRUB would mangle (exit 2)" \
	sh -c "[ $r = 2 ] && grep -q 'is not a ringlab option' '$W/refuse-args.out'"
before=$(in_root grub-editenv /boot/grub/grubenv list)
in_root ringlab-boot-once --dry-run quick >"$W/dry.out" 2>&1
check "ringlab-boot-once --dry-run: says, changes nothing" \
	sh -c "grep -q \"would set in /boot/grub/grubenv: next_entry='ringlab-more>ringlab-once'\" '$W/dry.out' && [ \"\$(chroot '$mnt' grub-editenv /boot/grub/grubenv list)\" = '$before' ]"
in_root ringlab-boot-once quick >/dev/null 2>&1
in_root ringlab-boot-once --undo >"$W/undo.out" 2>&1
check "ringlab-boot-once --undo: both variables unset" \
	sh -c "grep -q 'the next boot takes GRUB' '$W/undo.out' && [ -z \"\$(chroot '$mnt' grub-editenv /boot/grub/grubenv list | grep -E '^(next_entry|ringlab_once_args)=.')\" ]"

# ------------------------------------------------ upgrade, remove, purge ---
# The upgrade: this package again at a higher version (dpkg-deb repack),
# with a changed conffile kept.
rm -rf "$W/up" && mkdir -p "$W/up"
dpkg-deb -R "$DEB" "$W/up/x"
sed -i 's/^Version: \(.*\)$/Version: \1+checkdeb1/' "$W/up/x/DEBIAN/control"
dpkg-deb -b "$W/up/x" "$mnt/tmp/ringlab-up.deb" >/dev/null
sed -i 's/^RINGLAB_BAUD=.*/RINGLAB_BAUD=57600/' "$mnt/etc/default/ringlab"
in_root dpkg -i --force-confold /tmp/ringlab-up.deb >"$W/upgrade.log" 2>&1
check "upgrade: update-grub ran, entries there, the changed baud kept" \
	sh -c "grep -q 'Found ringlab image' '$W/upgrade.log' && grep -q 'console=ttyS0,57600 quick' '$mnt/boot/grub/grub.cfg' && [ -f '$mnt/boot/ringlab.elf' ]"
in_root ringlab-boot-once quick >/dev/null 2>&1
in_root dpkg -r ringlab >"$W/remove.log" 2>&1
check "remove: /boot/ringlab.elf gone, no entries, the conffiles stay" \
	sh -c "[ ! -e '$mnt/boot/ringlab.elf' ] && ! grep -q \"'ringlab-\" '$mnt/boot/grub/grub.cfg' && [ -f '$mnt/etc/grub.d/20_ringlab' ]"
check "remove: the pending one-time boot cancelled" test -z "$(env_value next_entry)$(env_value ringlab_once_args)"
in_root dpkg -P ringlab >"$W/purge.log" 2>&1
check "purge: conffiles gone, grub.cfg without ringlab" \
	sh -c "[ ! -e '$mnt/etc/grub.d/20_ringlab' ] && [ ! -e '$mnt/etc/default/ringlab' ] && ! grep -q \"'ringlab-\" '$mnt/boot/grub/grub.cfg'"
check "purge: grub.cfg still valid (grub-script-check)" in_root grub-script-check /boot/grub/grub.cfg

umount_root
say "$pass passed, $fail failed (logs in $W)"
[ $fail = 0 ]
