#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The converters checked with the ecosystems' own readers on the traces a
# guest recorded (issue 42): each FDR trace given (or each *.fdr in a
# directory given) converted by `tracebuf convert fdr-ctf` and read by
# babeltrace2 and lttng-analyses (scripts/check/ctf-check.py --analyses), and by
# `tracebuf convert fdr-tracedat` and read by trace-cmd
# (scripts/check/tracedat-check.py), each against `tracebuf report --json`.
# TAP on stdout, two results a trace; a reader that is not installed
# skips its result.
#
# Usage: scripts/check/convert-check.sh FILE|DIR...
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tb=$top/build/userspace/tracebuf
traces=()
for a in "$@"; do
	if [ -d "$a" ]; then
		for f in "$a"/*.fdr; do
			[ -s "$f" ] && traces+=("$f")
		done
	elif [ -s "$a" ]; then
		traces+=("$a")
	fi
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"
if [ ${#traces[@]} = 0 ]; then
	printf '1..1\nnot ok 1 no FDR trace in %s\n' "$*"
	exit 1
fi
echo "1..$((2 * ${#traces[@]}))"
n=0
fail=0
# result NAME STATUS OUTPUT: one TAP line; exit 4 is a reader missing.
result() {
	n=$((n + 1))
	case $2 in
	0) echo "ok $n $1" ;;
	4) echo "ok $n $1 # SKIP $(echo "$3" | tail -n 1)" ;;
	*) echo "not ok $n $1"; fail=1 ;;
	esac
	echo "$3" | sed 's/^/# /'
}
for f in "${traces[@]}"; do
	name=${f#"$top"/}
	rm -rf "$tmp/ctf" "$tmp/t.dat"
	if out=$("$tb" convert fdr-ctf -q "$f" "$tmp/ctf" 2>&1); then
		out=$(python3 "$top/scripts/check/ctf-check.py" "$tb" "$f" "$tmp/ctf" --analyses 2>&1)
		result "fdr-ctf $name" $? "$out"
	else
		result "fdr-ctf $name" 1 "$out"
	fi
	if out=$("$tb" convert fdr-tracedat -q "$f" "$tmp/t.dat" 2>&1); then
		out=$(python3 "$top/scripts/check/tracedat-check.py" "$tb" "$f" "$tmp/t.dat" 2>&1)
		result "fdr-tracedat $name" $? "$out"
	else
		result "fdr-tracedat $name" 1 "$out"
	fi
done
exit $fail
