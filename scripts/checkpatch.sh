#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict over the kernel-style code (driver/, uapi/), using
# the copy extracted from Debian's linux-source tarball.  Fails on errors;
# warnings and checks are printed for the author to judge.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cp="$top/build/ksrc/scripts/checkpatch.pl"
[ -x "$cp" ] || "$top/scripts/kernel-src-extract.sh" "$top/build/ksrc"
cd "$top"
mkdir -p build
run() {	# run EXTRA_IGNORES FILES...
	ign=$1
	shift
	perl "$cp" --no-tree --strict --show-types \
		--ignore "FILE_PATH_CHANGES,SPDX_LICENSE_TAG$ign" -f "$@"
}
{
	run "" $(find driver -name '*.[ch]' | sort)
	# Userspace follows the kernel style too.
	run "" userspace/lib/*/*.c userspace/lib/*/*.h userspace/lib/*.h userspace/tools/*.c
	# BIT() does not exist for userspace: uapi headers spell out shifts.
	run ",BIT_MACRO" uapi/linux/*.h
} | tee build/checkpatch.log
! grep -qE 'total: [1-9][0-9]* errors' build/checkpatch.log
