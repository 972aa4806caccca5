#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict over the kernel-style code (driver/, uapi/), using
# the copy extracted from Debian's linux-source tarball.  Fails on errors;
# warnings and checks are printed for the author to judge.
#
# With --tap (scripts/check.sh, make check) one TAP result a part of the
# tree (driver, userspace, uapi), each failed by an error; its report is
# the result's diagnostics when it fails, its totals when it passes.

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cp="$top/build/ksrc/scripts/checkpatch.pl"
tap=0
case "${1:-}" in
--tap) tap=1 ;;
"") ;;
*) echo "usage: $0 [--tap]" >&2; exit 2 ;;
esac
[ -x "$cp" ] || "$top/scripts/build/kernel-src-extract.sh" "$top/build/ksrc" >&2
cd "$top"
mkdir -p build
run() {	# run EXTRA_IGNORES FILES...
	ign=$1
	shift
	perl "$cp" --no-tree --strict --show-types \
		--ignore "FILE_PATH_CHANGES,SPDX_LICENSE_TAG$ign" -f "$@"
}
n=0
fails=0
: >build/checkpatch.log
# part NAME EXTRA_IGNORES FILES...: checkpatch over FILES, its report
# appended to build/checkpatch.log, and with --tap one result.
part() {
	name=$1
	shift
	run "$@" >build/checkpatch-$name.log 2>&1 || :
	cat build/checkpatch-$name.log >>build/checkpatch.log
	n=$((n + 1))
	if [ $tap = 0 ]; then
		cat build/checkpatch-$name.log
	elif grep -qE 'total: [1-9][0-9]* errors' build/checkpatch-$name.log; then
		sed 's/^/# /' build/checkpatch-$name.log
		echo "not ok $n checkpatch_$name"
		fails=$((fails + 1))
	else
		awk -v n="$(grep -c '^total: ' build/checkpatch-$name.log)" '
			/^total: / { e += $2; w += $4; c += $6 }
			END { printf "# %d files: %d errors, %d warnings, %d checks\n", n, e, w, c }
		' build/checkpatch-$name.log
		echo "ok $n checkpatch_$name"
	fi
}
[ $tap = 0 ] || printf 'TAP version 13\n1..3\n'
part driver "" $(find driver -name '*.[ch]' | sort)
# Userspace follows the kernel style too.
part userspace "" userspace/lib/*/*.c userspace/lib/*/*.h userspace/lib/*.h userspace/tools/*.c
# BIT() does not exist for userspace: uapi headers spell out shifts.
part uapi ",BIT_MACRO" uapi/linux/*.h
! grep -qE 'total: [1-9][0-9]* errors' build/checkpatch.log
