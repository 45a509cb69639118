#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The one place that knows what ringlab needs from Debian 12, used by
# `make` (build/run/test check their tools through it) and by .ci/run.
#
#   tools/install-deps.sh [--check] [PROFILE...]
#
# PROFILE (default: test):
#   build   compile the kernel and pack the ISO (gcc, nasm, grub, xorriso, mtools)
#   run     build + boot it in QEMU (QEMU 10 from bookworm-backports, OVMF)
#   test    run + host unit tests and QEMU case runner (cmocka, python3),
#           and Bochs, the second emulator (tools/run-bochs.sh)
#   extra   tools other checks use when present (clang/llvm with libFuzzer,
#           python3-serial, python3-junit.xml, python3-matplotlib, python3-pexpect)
#   man     help2man, which `make man` and `make dist` write the host tools'
#           man pages with (also part of test)
#   lava    lava-dispatcher (optional, slow; failure is only a warning)
#   qemu72  Debian 12's QEMU 7.2 unpacked to /opt/qemu72 for the xAPIC
#           case (optional; failure is only a warning)
#   ci      everything above (what .ci/run installs)
#   deb     make deb and make check-deb: Debian's packaging tools (debhelper,
#           lintian, help2man, python3-yaml for the man pages), debootstrap,
#           sgdisk, mkfs.vfat; named only, never part of ci
#   kexec   make check-kexec: kexec-tools (set not to handle this machine's
#           reboots) and busybox-static for the initramfs; never part of ci
#
# --check: install nothing; list what is missing with the command that
#          installs it, exit 1 if anything is.
# Exits 0 when everything asked for is present afterwards.  Set
# RINGLAB_NO_INSTALL=1 to make the Makefile's automatic use behave like --check.
set -uo pipefail

check_only=0
profiles=()
for a in "$@"; do
	case $a in
	--check) check_only=1 ;;
	-h|--help) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	build|run|test|man|extra|lava|qemu72|ci|deb|kexec) profiles+=("$a") ;;
	*) echo "install-deps: unknown argument '$a' (see --help)" >&2; exit 2 ;;
	esac
done
[ ${#profiles[@]} = 0 ] && profiles=(test)
[ "${RINGLAB_NO_INSTALL:-0}" = 1 ] && check_only=1

# package  probe (a command name, an absolute path, or py:module)
# The boot-path checks (tests/boot/) are slow: their tools come only when
# asked for by name, never through ci.
DEB_PKGS='
debhelper dh
lintian lintian
help2man help2man
python3-yaml py:yaml
debootstrap debootstrap
gdisk sgdisk
dosfstools mkfs.vfat
'
KEXEC_PKGS='
kexec-tools /sbin/kexec
busybox-static /bin/busybox
cpio cpio
'
BUILD_PKGS='
make make
gcc gcc
binutils ld
nasm nasm
grub-common grub-mkrescue
grub-pc-bin /usr/lib/grub/i386-pc/modinfo.sh
grub-efi-amd64-bin /usr/lib/grub/x86_64-efi/modinfo.sh
xorriso xorriso
mtools mformat
'
RUN_PKGS='
ovmf /usr/share/OVMF/OVMF_CODE.fd
'
# QEMU comes from bookworm-backports (installed apart, below).
TEST_PKGS='
libcmocka-dev /usr/include/cmocka.h
python3 python3
bochs bochs-bin
bochs-term bochs-bin
bochsbios /usr/share/bochs/BIOS-bochs-latest
vgabios /usr/share/vgabios/vgabios.bin
'
# The man pages of the host tools (tools/gen-man): `make man`, `make dist`,
# and the checks of `make test` that read them.
MAN_PKGS='
help2man help2man
'
# Bochs: the second emulator of `make test` (tools/run-bochs.sh, part
# "bochs" of tests/run-all.sh).  `bochs` needs some GUI plugin package;
# asking for bochs-term with it satisfies that with a small one instead of
# bochs-wx and wxWidgets.  run-bochs.sh itself uses the rfb display that
# `bochs` carries, and no terminal.
EXTRA_PKGS='
clang clang
llvm llvm-symbolizer
libclang-rt-14-dev /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
python3-serial py:serial
python3-junit.xml py:junit_xml
python3-matplotlib py:matplotlib
python3-pexpect py:pexpect
'
CI_PKGS='
git git
ca-certificates /etc/ssl/certs/ca-certificates.crt
'

want() { for p in "${profiles[@]}"; do [ "$p" = "$1" ] || [ "$p" = ci ] && return 0; done; return 1; }
want_any() { for x in "$@"; do want "$x" && return 0; done; return 1; }

present() { # probe
	case $1 in
	/*) [ -e "$1" ] ;;
	py:*) /usr/bin/python3 -c "import ${1#py:}" >/dev/null 2>&1 ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

missing=()
collect() { # list
	while read -r pkg probe; do
		[ -n "$pkg" ] || continue
		present "$probe" || missing+=("$pkg")
	done <<<"$1"
}
asked() { for p in "${profiles[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
boot_paths() { asked deb || asked kexec; }
if want_any build run test || boot_paths; then collect "$BUILD_PKGS"; fi
if want_any run test || boot_paths; then collect "$RUN_PKGS"; fi
want test && collect "$TEST_PKGS"
want_any man test && collect "$MAN_PKGS"
want ci && collect "$CI_PKGS"
if asked deb; then collect "$DEB_PKGS"; fi
if asked kexec; then collect "$KEXEC_PKGS"; fi
need_qemu=0
if { want_any run test || boot_paths; } && ! command -v qemu-system-x86_64 >/dev/null 2>&1; then need_qemu=1; fi
# run-qemu.sh boots -kernel with qboot (qemu-system-data)
if { want_any run test || boot_paths; } && [ $need_qemu = 0 ] && [ ! -e /usr/share/qemu/qboot.rom ]; then need_qemu=1; fi
extra_missing=()
if want extra; then
	m0=${#missing[@]}
	collect "$EXTRA_PKGS"
	extra_missing=("${missing[@]:$m0}")
	missing=("${missing[@]:0:$m0}")
fi

say() { echo "install-deps: $*" >&2; }
cmd_hint="tools/install-deps.sh ${profiles[*]}"

if [ ${#missing[@]} = 0 ] && [ $need_qemu = 0 ] && [ ${#extra_missing[@]} = 0 ] &&
   ! want_any lava qemu72; then
	exit 0
fi
if [ $check_only = 1 ]; then
	all=("${missing[@]}" "${extra_missing[@]}")
	[ $need_qemu = 1 ] && all+=("qemu-system-x86 (bookworm-backports)")
	if [ ${#all[@]} = 0 ]; then exit 0; fi
	say "missing: ${all[*]}; run: $cmd_hint"
	exit 1
fi

# ---------------------------------------------------------------- install ---
SUDO=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		[ $need_qemu = 1 ] && missing+=(qemu-system-x86)
		say "missing: ${missing[*]} ${extra_missing[*]}; not root and no sudo."
		say "as root run: $cmd_hint"
		exit 1
	fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
	say "no apt-get: this script knows Debian 12 only; install by hand: ${missing[*]} ${extra_missing[*]} qemu-system-x86 (10.x)"
	exit 1
fi
# bookworm-backports and Debian 12's package names are right only on Debian
# 12: anywhere else say what is missing and change nothing.
codename=$( . /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")
if [ "$codename" != bookworm ]; then
	pretty=$( . /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-an unknown system}")
	all=("${missing[@]}" "${extra_missing[@]}")
	[ $need_qemu = 1 ] && all+=("qemu-system-x86 (10.x, with x2APIC under TCG)")
	say "this script installs on Debian 12 (bookworm) only; this is $pretty."
	if [ ${#missing[@]} = 0 ] && [ $need_qemu = 0 ]; then
		# only optional parts (extra, lava, qemu72) could be missing
		say "nothing was changed; optional, install by hand if wanted: ${all[*]:-lava-dispatcher, QEMU 7.2}"
		exit 0
	fi
	say "nothing was changed; install by hand: ${all[*]}"
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
fail() { say "ERROR: $*"; say "nothing else was changed; fix the above and run: $cmd_hint"; exit 1; }

# QEMU 10 from bookworm-backports emulates x2APIC under TCG; Debian 12's
# QEMU 7.2 does not (docs/platform-notes.md "QEMU").  Add the suite with the
# same mirror as the main one.
if { [ $need_qemu = 1 ] || want_any qemu72; } &&
   ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	uri=$(grep -rhs '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1 | awk '{print $2}')
	[ -n "$uri" ] || uri=http://deb.debian.org/debian
	say "[1/4] adding bookworm-backports ($uri)"
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$uri" |
		$SUDO tee /etc/apt/sources.list.d/bookworm-backports.sources >/dev/null ||
		fail "could not write /etc/apt/sources.list.d/bookworm-backports.sources"
fi

say "[2/4] apt-get update"
$SUDO apt-get update -q 2>&1 | sed -u 's/^/  /'
[ "${PIPESTATUS[0]}" = 0 ] || fail "apt-get update failed (network or sources?)"

apt_install() { # what-for args...
	local why=$1; shift
	say "  installing ($why): $*"
	$SUDO apt-get install -y -q --no-install-recommends "$@" 2>&1 |
		grep -E '^(Setting up|E:|Err)' | sed -u 's/^/    /'
	return "${PIPESTATUS[0]}"
}

say "[3/4] packages"
# kexec-tools asks whether it should handle this machine's reboots: no.
if printf '%s\n' "${missing[@]}" | grep -qx kexec-tools; then
	echo 'kexec-tools kexec-tools/load_kexec boolean false' | $SUDO debconf-set-selections
fi
if [ ${#missing[@]} != 0 ]; then
	apt_install required "${missing[@]}" || fail "apt-get install ${missing[*]} failed"
fi
if [ $need_qemu = 1 ]; then
	if ! apt_install "QEMU 10" -t bookworm-backports qemu-system-x86 qemu-system-data; then
		say "WARNING: QEMU from bookworm-backports unavailable; falling back to Debian 12's QEMU 7.2 (no x2APIC under TCG)"
		apt_install "QEMU 7.2" qemu-system-x86 qemu-system-data || fail "could not install qemu-system-x86"
	fi
fi
if [ ${#extra_missing[@]} != 0 ]; then
	# one by one: a missing optional package must not block the others
	for p in "${extra_missing[@]}"; do
		apt_install optional "$p" || say "WARNING: optional package $p did not install"
	done
fi

say "[4/4] optional steps"
if want lava; then
	if /usr/bin/python3 -c 'import lava_dispatcher' >/dev/null 2>&1; then
		:
	elif ! apt_install "lava (slow)" lava-dispatcher; then
		say "WARNING: lava-dispatcher did not install; the LAVA job check will be skipped"
	fi
	# lava-run needs a rendered device dictionary, and the device-type
	# templates (qemu.jinja2) ship only in lava-server, which would bring a
	# database server: unpack just its device-types folder.
	dt=/usr/share/lava-server/device-types
	if [ ! -f "$dt/qemu.jinja2" ]; then
		tmp=$(mktemp -d)
		if (cd "$tmp" && apt-get download -qq lava-server) >/dev/null 2>&1 &&
		   dpkg -x "$tmp"/lava-server_*.deb "$tmp/x" && [ -f "$tmp/x$dt/qemu.jinja2" ]; then
			$SUDO mkdir -p "$dt"
			$SUDO cp -r "$tmp/x$dt/." "$dt/"
			say "unpacked lava-server's device types to $dt"
		else
			say "WARNING: could not unpack lava-server's device types; lava-run check will be skipped"
		fi
		rm -rf "$tmp"
	fi
fi
if want qemu72; then
	# Debian 12's own QEMU 7.2, unpacked beside the installed one, for the
	# QEMU case of the xAPIC path on a QEMU whose TCG has no x2APIC
	# (tests/qemu/run.py case qemu72-xapic).
	q72=/opt/qemu72
	if [ ! -x "$q72/qemu-system-x86_64" ]; then
		ver=$(apt-cache madison qemu-system-x86 2>/dev/null | awk '$3 ~ /^1:7\.2/ {print $3; exit}')
		tmp=$(mktemp -d)
		if [ -n "$ver" ] && (cd "$tmp" && apt-get download -qq "qemu-system-x86=$ver" "qemu-system-common=$ver") >/dev/null 2>&1; then
			$SUDO mkdir -p "$q72/root"
			for d in "$tmp"/*.deb; do $SUDO dpkg -x "$d" "$q72/root"; done
			printf '#!/bin/sh\nQEMU_MODULE_DIR=%s/root/usr/lib/x86_64-linux-gnu/qemu exec %s/root/usr/bin/qemu-system-x86_64 -L /usr/share/qemu -L /usr/share/seabios "$@"\n' "$q72" "$q72" |
				$SUDO tee "$q72/qemu-system-x86_64" >/dev/null
			$SUDO chmod +x "$q72/qemu-system-x86_64"
			say "  QEMU 7.2 unpacked to $q72"
		else
			say "WARNING: QEMU 7.2 not available; its test case will be skipped"
		fi
		rm -rf "$tmp"
	fi
fi

# Verify: everything required is there now.
missing=()
if want_any build run test || boot_paths; then collect "$BUILD_PKGS"; fi
if want_any run test || boot_paths; then collect "$RUN_PKGS"; fi
want test && collect "$TEST_PKGS"
want_any man test && collect "$MAN_PKGS"
if asked deb; then collect "$DEB_PKGS"; fi
if asked kexec; then collect "$KEXEC_PKGS"; fi
if { want_any run test || boot_paths; } && ! command -v qemu-system-x86_64 >/dev/null 2>&1; then missing+=(qemu-system-x86); fi
[ ${#missing[@]} = 0 ] || fail "still missing after install: ${missing[*]}"
if want_any run test; then
	say "done; $(qemu-system-x86_64 --version | head -n1)"
else
	say "done"
fi
exit 0
