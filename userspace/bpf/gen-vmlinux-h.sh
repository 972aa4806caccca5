#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Write vmlinux.h for the kernel the BPF programs will run on (the VM's,
# not the build host's): take extract-vmlinux from Debian's
# linux-source-6.1 tarball, unpack /boot/vmlinuz-KVER with it, and dump
# its BTF as C.  Nothing here is ever committed.
#
# Usage: gen-vmlinux-h.sh KVER OUT.h

set -eu

kver=$1
out=$2
tarball=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
dir=$(dirname "$out")
tmp="$dir/vmlinux-$kver.tmp"

mkdir -p "$dir"
if [ ! -x "$dir/extract-vmlinux" ]; then
	[ -r "$tarball" ] || { echo "gen-vmlinux-h: $tarball missing; run scripts/setup.sh" >&2; exit 1; }
	tar -xJOf "$tarball" linux-source-6.1/scripts/extract-vmlinux >"$dir/extract-vmlinux.tmp"
	chmod +x "$dir/extract-vmlinux.tmp"
	mv "$dir/extract-vmlinux.tmp" "$dir/extract-vmlinux"
fi
[ -r "/boot/vmlinuz-$kver" ] || { echo "gen-vmlinux-h: /boot/vmlinuz-$kver not readable" >&2; exit 1; }
"$dir/extract-vmlinux" "/boot/vmlinuz-$kver" >"$tmp"
bpftool btf dump file "$tmp" format c >"$out.tmp"
rm -f "$tmp"
mv "$out.tmp" "$out"
