#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lttng-modules.sh: build (once) Debian's lttng-modules for the VM's kernel
# (scripts/build/kver.sh) and print the directory that holds the built .ko files
# and a modules.dep for them (lib/modules/KVER/extra/...), ready to copy
# into a guest tree.  The source is Debian's lttng-modules-dkms package,
# fetched with apt-get download and unpacked, never installed: installing
# it would make DKMS build it at install time for every installed kernel,
# which setup.sh (and so CI) would pay for although only make bench and
# scripts/bench/insn-profile use it.  The build lives outside the checkout,
# like scripts/build/debug-kernel.sh's, keyed by the package version, the
# kernel release and the compiler.
#
# Usage: scripts/build/lttng-modules.sh [--print-dir]
# Environment: TB_LTTNG_CACHE (default ~/.cache/tracebuf/lttng-modules),
# TB_JOBS (make -j, default nproc), KVER.

set -u
prog=lttng-modules.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${TB_LTTNG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracebuf/lttng-modules}
jobs=${TB_JOBS:-$(nproc)}
pkg=lttng-modules-dkms
. "$top/scripts/build/cache-lib.sh"

kver=$("$top/scripts/build/kver.sh") || exit 1
kbuild=/lib/modules/$kver/build
[ -d "$kbuild" ] || die "$kbuild missing; run scripts/setup.sh"
ver=$(apt-cache policy $pkg 2>/dev/null | sed -n 's/^  Candidate: //p')
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "apt knows no $pkg (apt-get update?)"
key=$(printf '%s\n' "$pkg $ver" "$kver" "$(gcc --version | head -n 1)" | cache_key)
dir=$cache/$key
root=$dir/root

if [ "${1:-}" = --print-dir ]; then
	[ -f "$dir/.built" ] || { echo "$prog: not built yet: $dir" >&2; exit 1; }
	echo "$root"
	exit 0
fi
if [ -f "$dir/.built" ]; then
	echo "$root"
	exit 0
fi

mkdir -p "$dir" || die "cannot create $dir"
cache_lock "$dir/.lock"
[ -f "$dir/.built" ] && { echo "$root"; exit 0; }

start=$(date +%s)
rm -rf "$dir/deb" "$dir/src" "$root"
mkdir -p "$dir/deb"
# apt's _apt user cannot write to a root-owned cache: no sandbox warning.
(cd "$dir/deb" && apt-get -o APT::Sandbox::User=root download -q "$pkg=$ver" >&2) || die "apt-get download $pkg failed"
dpkg-deb -x "$dir"/deb/*.deb "$dir/deb/x" || die "cannot unpack $pkg"
mv "$dir"/deb/x/usr/src/lttng-modules-* "$dir/src" || die "no source in $pkg"
# 2.13.9's timer probe no longer builds against Debian's 6.1 (its
# hrtimer_start tracepoint gained a mode argument in a stable update:
# "conflicting types for 'trace_hrtimer_start'"), and DKMS would fail the
# same way.  The timer events are not among those measured: left out.
sed -i '/lttng-probe-timer\.o/d' "$dir/src/src/probes/Kbuild"
echo "$prog: building lttng-modules $ver against $kbuild (log: $dir/build.log)" >&2
# What its dkms.conf runs (CONFIG_LTTNG=m: the Kbuild tree of the package
# is not part of the kernel's Kconfig).
make -C "$dir/src" KERNELDIR="$kbuild" -j"$jobs" modules >"$dir/build.log" 2>&1 ||
	die "build failed, see $dir/build.log"
# Every module under extra/, where depmod and the guest's libkmod (which
# lttng-sessiond loads them with) look them up by name.
dest=$root/lib/modules/$kver/extra/lttng
mkdir -p "$dest"
(cd "$dir/src" && find . -name '*.ko' -print0) | while IFS= read -r -d '' f; do
	mkdir -p "$dest/$(dirname "$f")"
	cp "$dir/src/$f" "$dest/$f"
done
# Our modules' dependencies on each other.  libkmod, which the session
# daemon loads them with, refuses to start ("Failed to load kmod library
# resources") without the index of the kernel's built-in modules too.
for f in modules.builtin modules.builtin.modinfo; do
	cp "/lib/modules/$kver/$f" "$root/lib/modules/$kver/" || die "no /lib/modules/$kver/$f"
done
depmod -b "$root" "$kver" || die "depmod failed"
echo "$(( $(date +%s) - start )) s" >"$dir/build-time"
echo "$prog: built in $(cat "$dir/build-time"): $(find "$dest" -name '*.ko' | wc -l) modules" >&2
touch "$dir/.built"
echo "$root"
