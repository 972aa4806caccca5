#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile check of the XScale hardware backend (driver/tracebuf/xscale.c) and
# the rest of the module for ARM: extract Debian's linux-source-6.1 into
# build/xscale/linux once, configure it with pxa_defconfig (XScale PXA2xx,
# CONFIG_CPU_XSCALE) plus modules, run modules_prepare, then build
# tracebuf.ko's objects from a copy of the sources with W=1, then link
# tracebuf.ko.  Needs
# gcc-arm-linux-gnueabi (scripts/setup.sh installs it).  Nothing is
# linked against a real ARM vmlinux, so this proves the code compiles,
# not that it runs.
#
# Usage: scripts/build/xscale-compile-check.sh

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/build/xscale"
ksrc="$out/linux"
mod="$out/mod"
tarball=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cross=${CROSS_COMPILE:-arm-linux-gnueabi-}
jobs=$(nproc)
start=$(date +%s)

command -v "${cross}gcc" >/dev/null ||
	{ echo "xscale-compile-check: ${cross}gcc missing; run scripts/setup.sh" >&2; exit 1; }
[ -r "$tarball" ] ||
	{ echo "xscale-compile-check: $tarball missing; run scripts/setup.sh" >&2; exit 1; }

kmake() {
	make -s -C "$ksrc" ARCH=arm CROSS_COMPILE="$cross" -j"$jobs" "$@"
}

if [ ! -f "$ksrc/.prepared" ] || [ "$tarball" -nt "$ksrc/.prepared" ]; then
	echo "xscale-compile-check: extracting and preparing an ARM pxa kernel tree"
	rm -rf "$ksrc"
	mkdir -p "$ksrc"
	tar -xJf "$tarball" -C "$ksrc" --strip-components=1
	kmake pxa_defconfig
	"$ksrc/scripts/config" --file "$ksrc/.config" -e MODULES -e MODULE_UNLOAD \
		-e PERF_EVENTS -e TRACEPOINTS -e FTRACE -e FTRACE_SYSCALLS
	kmake olddefconfig
	grep -q '^CONFIG_CPU_XSCALE=y' "$ksrc/.config" ||
		{ echo "xscale-compile-check: pxa_defconfig lacks CONFIG_CPU_XSCALE" >&2; exit 1; }
	kmake modules_prepare
	touch "$ksrc/.prepared"
fi

rm -rf "$mod"
mkdir -p "$mod"
cp -r "$top/Kbuild" "$top/driver" "$top/uapi" "$mod/"
find "$mod" \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' -o -name '*.mod*' \) -delete
objs=$(cd "$mod" && find driver -name '*.c' | sed 's/\.c$/.o/')
# Each object alone: no vmlinux or Module.symvers is needed for that.
# shellcheck disable=SC2086
make -C "$ksrc" ARCH=arm CROSS_COMPILE="$cross" M="$mod" W=1 $objs 2>&1 |
	tee "$out/build.log"
status=${PIPESTATUS[0]}
if grep -qE 'warning:|error:' "$out/build.log"; then
	status=1
fi
[ -f "$mod/driver/tracebuf/xscale.o" ] || status=1
# Link tracebuf.ko too.  Without an ARM Module.symvers every kernel symbol
# is "unresolved" for modpost: warn, do not fail, on those only.
if [ $status = 0 ]; then
	make -s -C "$ksrc" ARCH=arm CROSS_COMPILE="$cross" M="$mod" W=1 \
		KBUILD_MODPOST_WARN=1 modules >"$out/link.log" 2>&1 || status=1
	grep -E 'warning:|error:' "$out/link.log" && status=1
	"${cross}nm" "$mod/tracebuf.ko" 2>/dev/null | grep -q ' tb_xscale_init$' ||
		{ echo "xscale-compile-check: tracebuf.ko lacks the XScale backend" >&2; status=1; }
fi
echo "xscale-compile-check: $([ $status = 0 ] && echo OK || echo FAILED)" \
	"($(( $(date +%s) - start ))s)"
exit $status
