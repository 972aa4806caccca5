#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package that building, testing and demonstrating
# tracebuf needs.  Idempotent: when everything is present it only runs
# dpkg queries and returns in well under a second.
#
# Usage: scripts/setup.sh [--check]
#   --check   report what is missing and exit 1 if anything is, install nothing

set -eu

PACKAGES="
	build-essential bc bison flex libelf-dev dwarves
	linux-headers-amd64 linux-image-amd64 linux-source-6.1
	qemu-system-x86 busybox-static cpio xz-utils
	llvm clang lld gdb gdbserver gdb-multiarch
	libbpf-dev bpftool pkg-config
	python3 perl time
	gcc-arm-linux-gnueabi
	debhelper dh-dkms dkms lintian python3-docutils fakeroot debootstrap
"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	exit 0
fi

if [ "${1:-}" = "--check" ]; then
	echo "setup: missing packages:$missing" >&2
	exit 1
fi

if [ "$(id -u)" != 0 ]; then
	echo "setup: missing packages:$missing" >&2
	echo "setup: run 'sudo scripts/setup.sh' (or make setup as root) to install them" >&2
	exit 1
fi

echo "setup: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# The package lists may be missing or stale on a fresh machine.
apt-get update -q >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >&2
echo "setup: done" >&2
