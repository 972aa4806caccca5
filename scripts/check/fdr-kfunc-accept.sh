#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of the kernel function check: llvm-xray over a trace that
# selftests/fdr_kfunc_accept.sh recorded in the VM with -f (a file read:
# ksys_read, vfs_read and what vfs_read calls), by tracebuf record (the
# guest's /out/kfunc) or tracebuf bpf (/out/bpf-kfunc).  TAP.
#
# --core: only the checks that hold in any kernel (the collector ran, the
# trace verifies, every vfs_read entry has its exit), for the debug
# kernel, whose tinyconfig inlines functions the rest name.
#
# Usage: scripts/check/fdr-kfunc-accept.sh [--core] DIR    (DIR = one of those)

set -u
core=0
if [ "${1:-}" = --core ]; then
	core=1
	shift
fi
dir=${1:?usage: $0 [--core] DIR}
xray=${LLVM_XRAY:-llvm-xray}
trace=$dir/trace.fdr
collector=record
case $(basename "$dir") in bpf*) collector=bpf ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
# shellcheck source=scripts/check/tap-lib.sh
. "$(dirname "$0")/tap-lib.sh"

echo "TAP version 13"
if [ $core = 1 ]; then echo "1..3"; else echo "1..9"; fi
[ "$(cat "$dir/record.rc" 2>/dev/null)" = 0 ] && [ -s "$trace" ]
tap $((! $?)) "tracebuf $collector -f produced a trace"
"$xray" fdr-dump -verify "$trace" >/dev/null 2>"$tmp/err"
tap $((! $?)) "llvm-xray fdr-dump -verify" "$(head -1 "$tmp/err")"

# Every vfs_read entry has its exit, and the workload's reads are there
# (dd: 64 reads of 16 KiB and the one that finds EOF).
"$xray" convert -f yaml "$trace" -o "$tmp/t.yaml" 2>"$tmp/err"
id=$(awk '$1 !~ /^#/ && $2 == "vfs_read" { print $1 }' "$trace.names")
ent=$(grep -c "func-id: ${id:-none},.*kind: function-enter" "$tmp/t.yaml")
ext=$(grep -c "func-id: ${id:-none},.*kind: function-exit" "$tmp/t.yaml")
[ -n "$id" ] && [ "$ent" = "$ext" ] && [ "$ent" -ge 65 ]
tap $((! $?)) "vfs_read: $ent entries, $ext exits (>= 65 reads)"
[ $core = 1 ] && exit $((fails > 0))

# account -m names the kernel functions, over every record in time order
# (tap-lib.sh: in the loader's order it refuses most of them).
xray_account_sorted "$trace" "$trace.map" "$tmp/acct.txt"
rc=$?
unnamed=$(grep -c '#[0-9]*$' "$tmp/acct.txt")
refused=$(grep -c '^Error processing record' "$tmp/acct.txt.err")
[ $rc = 0 ] && grep -q ' vfs_read$' "$tmp/acct.txt" &&
	grep -q ' rw_verify_area$' "$tmp/acct.txt" &&
	[ "$unnamed" = 0 ] && [ "$refused" = 0 ]
tap $((! $?)) "llvm-xray account -m names vfs_read, rw_verify_area ($unnamed unnamed, $refused records refused)"

# stack -m: the calls nest as the kernel's code nests them.
"$xray" stack -m "$trace.map" "$trace" -all-stacks -stack-format=flame \
	>"$tmp/flame.txt" 2>"$tmp/err"
grep -q ';sys_read;ksys_read;vfs_read;rw_verify_area;security_file_permission; ' "$tmp/flame.txt"
tap $((! $?)) "llvm-xray stack -m: sys_read > ksys_read > vfs_read > rw_verify_area > security_file_permission"
grep -qE ';ksys_read;vfs_read;[a-z_]*file_read_iter; ' "$tmp/flame.txt"
tap $((! $?)) "llvm-xray stack -m: vfs_read > *file_read_iter"
"$xray" stack -m "$trace.map" "$trace" >/dev/null 2>"$tmp/err"
tap $((! $?)) "llvm-xray stack -m (top stacks)" "$(head -1 "$tmp/err")"

"$xray" graph -m "$trace.map" "$trace" -o "$tmp/g.dot" 2>"$tmp/err" &&
	grep -q 'label="vfs_read"' "$tmp/g.dot"
tap $((! $?)) "llvm-xray graph -m labels vfs_read"

# The JSON names them itself; gdb names the tfile's tracepoints from the
# ELF map loaded as the executable (Documentation/conversions.rst).
grep -q '"vfs_read"' "$trace.json" 2>/dev/null &&
	timeout 120 gdb -batch -nx "$trace.map" -ex "target tfile $trace.tfile" \
		-ex 'info tracepoints' 2>/dev/null | grep -q '<vfs_read>'
tap $((! $?)) "trace_event JSON and gdb's tfile tracepoints name vfs_read"

[ $fails = 0 ]
