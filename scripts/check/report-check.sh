#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tracebuf report checked against scripts/check/report-check.py's own
# computation on every FDR trace in the given directories (what the guest
# recorded: record, a raw device capture, kernel functions, the BPF
# collector, trigger files).  TAP on stdout.
#
# Usage: scripts/check/report-check.sh DIR...
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
traces=()
for d in "$@"; do
	for f in "$d"/*.fdr; do
		[ -s "$f" ] && traces+=("$f")
	done
done
if [ ${#traces[@]} = 0 ]; then
	printf 'TAP version 13\n1..1\nnot ok 1 no FDR trace in %s\n' "$*"
	exit 1
fi
exec python3 "$top/scripts/check/report-check.py" \
	--tracebuf "$top/build/userspace/tracebuf" "${traces[@]}"
