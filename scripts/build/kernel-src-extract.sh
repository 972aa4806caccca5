#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Extract the few files we use from Debian's linux-source-6.1 tarball into
# build/ksrc: the kselftest harness headers and checkpatch.pl with its data
# files.  Nothing from the tarball is ever committed.  A stamp file makes a
# second run free.
#
# Usage: scripts/build/kernel-src-extract.sh [OUTDIR]

set -eu

out=${1:-build/ksrc}
tarball=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
stamp="$out/.extracted"

if [ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ]; then
	exit 0
fi

if [ ! -r "$tarball" ]; then
	echo "kernel-src-extract: $tarball not found; run scripts/setup.sh" >&2
	exit 1
fi

mkdir -p "$out"
tar -xJf "$tarball" -C "$out" --strip-components=1 \
	linux-source-6.1/tools/testing/selftests/kselftest.h \
	linux-source-6.1/tools/testing/selftests/kselftest_harness.h \
	linux-source-6.1/scripts/checkpatch.pl \
	linux-source-6.1/scripts/spelling.txt \
	linux-source-6.1/scripts/const_structs.checkpatch \
	linux-source-6.1/Documentation/userspace-api/ioctl/ioctl-number.rst
touch "$stamp"
