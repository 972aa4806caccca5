#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pxa-kernel.sh: build (once) the 32-bit ARM XScale guest's kernel:
# allnoconfig of Debian's linux-source-6.1 plus scripts/build/pxa-kernel.config
# (qemu's Mainstone board, initramfs, the PXA serial console, modules,
# tracepoints, perf, kprobes, debugfs: what the guest needs, so that it
# builds in minutes) and selftests/pxa/export-undef-hook.patch (test
# kernel only: the CP14 trace-buffer model, selftests/pxa/cp14_model.ko,
# hooks undefined instructions), cross-built with gcc-arm-linux-gnueabi;
# and fetch what the guest and the 32-bit tools
# need from Debian's armel packages (busybox-static, zlib, libelf,
# libbpf), unpacked, never installed.  The tree is kept outside the
# checkout, keyed by a hash of the fragment and the source and compiler
# versions.  See --help.

set -u

prog=pxa-kernel.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
# The fragment is part of the cache key: its comments still name the
# scripts by their paths before scripts/ was split into folders, so that
# the split did not cost every cached kernel a rebuild.
fragment="$top/scripts/build/pxa-kernel.config"
patch_file="$top/selftests/pxa/export-undef-hook.patch"
. "$top/scripts/build/cache-lib.sh"
cache=${TB_PXA_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracebuf/pxa-kernel}
cross=arm-linux-gnueabi-
jobs=${TB_JOBS:-$(nproc)}
print_only=0

usage() {
	cat <<EOF
Usage: $prog [--print-dir]

Build the PXA270 (XScale) guest kernel unless the cache has it, then print
its directory: zImage, linux/ (the built tree, for out-of-tree modules:
ARCH=arm CROSS_COMPILE=$cross), busybox (armel, static) and sysroot/ (the
armel zlib, libelf and libbpf the 32-bit tools link statically).  It lives
in \$TB_PXA_KERNEL_CACHE/KEY (default $cache/KEY).  The build time is kept
in KEY/build-time.

Options:
  --print-dir   print the directory and exit (1 if it is not built yet)
EOF
}

for arg in "$@"; do
	case "$arg" in
	--print-dir) print_only=1 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done

[ -r "$fragment" ] || die "$fragment missing"
[ -r "$patch_file" ] || die "$patch_file missing"
[ -r "$tarball" ] || die "$tarball not found; run scripts/setup.sh"
command -v "${cross}gcc" >/dev/null || die "${cross}gcc missing; run scripts/setup.sh"
key=$( {
	cat "$fragment" "$patch_file"
	echo "linux-source-6.1 $(linux_source_version)"
	"${cross}gcc" --version | head -n 1
} | cache_key)
dir="$cache/$key"
kdir="$dir/linux"

if [ $print_only = 1 ]; then
	[ -f "$dir/.built" ] || exit 1
	echo "$dir"
	exit 0
fi
if [ -f "$dir/.built" ]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$dir" || die "cannot create $dir"
cache_lock "$dir/.lock"
start=$(date +%s)
log="$dir/build.log"
kmake() {
	make -C "$kdir" ARCH=arm CROSS_COMPILE="$cross" "$@"
}

extract_linux_source "$kdir" "$patch_file"

# allnoconfig with the fragment's lines as its fixed answers; each of
# them must survive olddefconfig.
echo "$prog: configuring (allnoconfig + $(basename "$fragment"))" >&2
{
	kmake -s KCONFIG_ALLCONFIG="$fragment" allnoconfig &&
	kmake -s olddefconfig
} >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "configuration failed; see $log"; }
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qx "$line" "$kdir/.config" || die "$line did not survive olddefconfig" ;;
	esac
done <"$fragment"
grep -qx 'CONFIG_CPU_XSCALE=y' "$kdir/.config" || die "the configuration lacks CONFIG_CPU_XSCALE"

echo "$prog: building zImage and vmlinux's Module.symvers (-j$jobs; a few minutes)" >&2
kmake -j"$jobs" zImage modules >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "the build failed; see $log"; }
cp "$kdir/arch/arm/boot/zImage" "$dir/zImage"

# armel packages: the guest's busybox, the 32-bit tools' libraries.
dpkg --print-foreign-architectures | grep -qx armel ||
	die "the armel architecture is not enabled: run scripts/setup.sh as root"
rm -rf "$dir/sysroot"
apt_unpack "$dir/debs" "$dir/sysroot" busybox-static:armel zlib1g-dev:armel \
	libelf-dev:armel libbpf-dev:armel
cp "$dir/sysroot/bin/busybox" "$dir/busybox"

echo "$(( $(date +%s) - start )) s" >"$dir/build-time"
touch "$dir/.built"
echo "$prog: built in $(cat "$dir/build-time")" >&2
echo "$dir"
