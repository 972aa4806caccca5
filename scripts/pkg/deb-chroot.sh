#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian 12 chroot to install the packages into for real, without
# touching this machine's kernel modules: debootstrap (minbase) from
# Debian's archive, then dkms, the headers of the VM's kernel (KVER) and
# of one more kernel, the packages of a third kernel (not installed),
# man-db, bash-completion and what tracebuf-tools depends on.  Built once
# and kept as a tarball in ~/.cache/tracebuf; every call unpacks a fresh
# copy into DIR, so each check starts from the same clean system.
#
# Usage: scripts/pkg/deb-chroot.sh DIR KVER

set -eu
dir=${1:?usage: deb-chroot.sh DIR KVER}
kver=${2:?usage: deb-chroot.sh DIR KVER}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracebuf
# Named after what it holds: a new layout must not reuse an old tarball.
tarball="$cache/deb-chroot-2-$kver.tar"
mirror=http://deb.debian.org/debian

if [ ! -s "$tarball" ]; then
	mkdir -p "$cache"
	tmp="$cache/deb-chroot-build"
	umount "$tmp/proc" 2>/dev/null || true
	rm -rf --one-file-system "$tmp"
	echo "deb-chroot: debootstrap bookworm into $tmp (once)" >&2
	debootstrap --variant=minbase bookworm "$tmp" "$mirror" >"$cache/deb-chroot.log" 2>&1 || {
		tail -20 "$cache/deb-chroot.log" >&2
		exit 1
	}
	# The same suites as the host: the headers of a point release or a
	# security update are not in bookworm itself.
	cat >"$tmp/etc/apt/sources.list" <<EOS
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOS
	mount -t proc proc "$tmp/proc"
	trap 'umount "$tmp/proc" 2>/dev/null || true' EXIT
	chroot "$tmp" sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends dkms \
		linux-headers-$kver gcc make libc6-dev kmod man-db bash-completion \
		libbpf1 adduser \
		&& apt-get clean" >>"$cache/deb-chroot.log" 2>&1 || {
		tail -20 "$cache/deb-chroot.log" >&2
		exit 1
	}
	# Two more kernels of the archive: one installed (headers) before
	# the packages, so that the package must build for both, and the
	# packages of one more, only downloaded (root/kdebs), to install
	# after them as a kernel upgrade does.  Their names: root/tb-kernels.
	set -- $(chroot "$tmp" apt-cache search --names-only \
		'^linux-headers-[0-9.]+-[0-9]+-amd64$' | cut -d' ' -f1 |
		sed 's/^linux-headers-//' | grep -vx "$kver" | sort -V | tail -2)
	[ $# = 2 ] || { echo "deb-chroot: no two other kernels in the archive" >&2; exit 1; }
	printf 'other=%s\nnext=%s\n' "$1" "$2" >"$tmp/root/tb-kernels"
	chroot "$tmp" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends linux-headers-$1 && apt-get clean &&
		apt-get install -y -q --no-install-recommends --download-only \
		linux-headers-$2 && mkdir -p /root/kdebs &&
		mv /var/cache/apt/archives/*.deb /root/kdebs/ && apt-get clean" \
		>>"$cache/deb-chroot.log" 2>&1 || {
		tail -20 "$cache/deb-chroot.log" >&2
		exit 1
	}
	umount "$tmp/proc"
	trap - EXIT
	tar -C "$tmp" -cf "$tarball.tmp" .
	mv "$tarball.tmp" "$tarball"
	rm -rf --one-file-system "$tmp"
fi
if grep -q " $(realpath -m "$dir")/" /proc/mounts; then
	echo "deb-chroot: something is still mounted in $dir" >&2
	exit 1
fi
rm -rf --one-file-system "$dir"
mkdir -p "$dir"
tar -C "$dir" -xf "$tarball"
