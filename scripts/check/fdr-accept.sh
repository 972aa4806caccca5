#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of the FDR acceptance check: run the real llvm-xray over the
# trace that selftests/fdr_accept.sh recorded in the VM.  TAP on stdout.
#
# Usage: scripts/check/fdr-accept.sh DIR    (DIR = the guest's /out/accept)

set -u
dir=${1:?usage: $0 DIR}
xray=${LLVM_XRAY:-llvm-xray}
top=$(cd "$(dirname "$0")/../.." && pwd)
trace=$dir/trace.fdr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
# shellcheck source=scripts/check/tap-lib.sh
. "$(dirname "$0")/tap-lib.sh"

echo "TAP version 13"
# One more with the O_DIRECT trace, which a guest without /disk (the debug
# kernel's) does not record; the Debian guest without one fails to boot.
echo "1..$((17 + $([ -f "$dir/direct.rc" ] && echo 1 || echo 0)))"
[ "$(cat "$dir/record.rc" 2>/dev/null)" = 0 ] && [ -s "$trace" ]
tap $((! $?)) "tracebuf-record produced a trace"
run "llvm-xray fdr-dump -verify" "$xray" fdr-dump -verify "$trace"
"$xray" fdr-dump "$trace" >"$tmp/dump.txt" 2>/dev/null
run "llvm-xray convert -f yaml" "$xray" convert -f yaml "$trace" -o "$tmp/t.yaml"
run "llvm-xray convert -f trace_event" "$xray" convert -f trace_event "$trace" -o "$tmp/t.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["traceEvents"] else 1)' \
	"$tmp/t.json" 2>/dev/null
tap $((! $?)) "trace_event output is JSON with events"
run "llvm-xray stack" "$xray" stack "$trace"
run "llvm-xray account (no -k, as documented)" "$xray" account "$trace"

# Function ids in trace.fdr are dense; trace.fdr.names says which is which.
names=$trace.names
id_of() { awk -v n="$1" '$1 !~ /^#/ && $2 == n { print $1 }' "$names" 2>/dev/null; }

# The O_DIRECT spool: a trace recorded on the guest's ext4 /disk (none in
# the debug kernel's suite).
if [ -f "$dir/direct.rc" ]; then
	d=$dir/direct.fdr
	id=$(names=$d.names id_of sys_getppid)
	want=$(sed -n 's/^getppid \([0-9]*\)$/\1/p' "$dir/direct.log")
	got=$("$xray" convert -f yaml "$d" 2>/dev/null |
		grep -c "func-id: ${id:-none},.*kind: function-enter")
	[ "$(cat "$dir/direct.rc")" = 0 ] &&
		grep -q '"spool_direct": 1' "$dir/direct.json" &&
		"$xray" fdr-dump -verify "$d" >/dev/null 2>&1 &&
		[ -n "$want" ] && [ "$got" = "$want" ]
	tap $((! $?)) "record spooled with O_DIRECT on ext4: valid, getppid enters ($got) == calls (${want:-?})"
fi

# getppid enters == calls the workload made.
getppid_id=$(id_of sys_getppid)
want=$(sed -n 's/^getppid \([0-9]*\)$/\1/p' "$dir/record.log")
got=$(grep -c "func-id: ${getppid_id:-none},.*kind: function-enter" "$tmp/t.yaml" 2>/dev/null)
[ -n "$want" ] && [ "$got" = "$want" ]
tap $((! $?)) "getppid enters in the trace ($got) == calls made (${want:-?})"

# Syscalls on both CPUs, IRQs, and tasks spread over several blocks.
cpus=$(grep -o 'cpu: [0-9]*' "$tmp/t.yaml" | sort -u | wc -l)
irq_ids=$(awk '$1 !~ /^#/ && $2 ~ /^irq_/ { printf "%s%s", sep, $1; sep = "|" }' "$names" 2>/dev/null)
irqs=$(grep -cE "func-id: (${irq_ids:-none}),.*kind: function-enter" "$tmp/t.yaml")
[ "$cpus" -ge 2 ] && [ "$irqs" -gt 0 ]
tap $((! $?)) "records from $cpus CPUs, $irqs IRQ entries"

# The ELF instrumentation map names the functions in account, over every
# record in time order (tap-lib.sh: in the loader's order account refuses
# the records older than the first thread's first, so what it listed
# varied from run to run).
xray_account_sorted "$trace" "$trace.map" "$tmp/acct.txt"
rc=$?
named=$(grep -c ' sys_[a-z0-9_]*$' "$tmp/acct.txt")
unnamed=$(grep -c '#[0-9]*$' "$tmp/acct.txt")
refused=$(grep -c '^Error processing record' "$tmp/acct.txt.err")
[ $rc = 0 ] && [ "$named" -gt 0 ] && [ "$unnamed" = 0 ] && [ "$refused" = 0 ]
tap $((! $?)) "llvm-xray account -m prints syscall names ($named named, $unnamed unnamed, $refused records refused)"

# Every task that exited wrote its command name after its exit event
# (TRACEBUF_FDR_COMM_PREFIX), which names it in the report when the
# tasks file does not (report-check.py checks the names).
exits=$("$top/build/userspace/tracebuf" report --json "$trace" 2>/dev/null |
	python3 -c 'import json,sys; print(sum(n["points"] for n in json.load(sys.stdin)["names"] if n["name"] == "task_exit"))' 2>/dev/null)
comms=$(grep -c "data = 'tracebuf: comm " "$tmp/dump.txt" 2>/dev/null)
[ "${exits:-0}" -gt 0 ] && [ "$comms" = "$exits" ]
tap $((! $?)) "each task exit ($exits) wrote a command name ($comms)"

# The GDB trace file has one frame per record.
frames=$(gdb -nx -batch -ex "target tfile $trace.tfile" -ex tstatus 2>&1 |
	sed -n 's/^Collected \([0-9]*\) trace frames\.$/\1/p')
[ "${frames:-0}" -gt 0 ]
tap $((! $?)) "gdb loads the tfile (${frames:-no} frames)"

# trace.fdr.json (-J): trace_event JSON accounting for every function
# record, as many as llvm-xray's own conversion has B/E events.  Ours
# (conversions.rst, fdr-json) adds the ends and starts of cut slices and
# the CPU tracks, and makes a point event (two records) one instant.
count_be() { python3 -c 'import json,sys; print(sum(1 for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] in "BE"))' "$1" 2>/dev/null; }
count_records() { python3 -c '
import json, sys
n = 0
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    cut = e.get("args", {}).get("cut")
    if e["ph"] == "M" or e["pid"] == 0x20000000:
        continue
    if e["ph"] == "B" and cut != "capture start":
        n += 1
    elif e["ph"] == "E" and cut in (None, "capture start"):
        n += 1
    elif e["ph"] == "i" and cut in ("entry not in the trace", "nested too deep"):
        n += 1
    elif e["ph"] == "i" and e.get("cat") in ("fault", "sched") and cut is None:
        n += 2
print(n)' "$1" 2>/dev/null; }
ours=$(count_records "$trace.json")
theirs=$(count_be "$tmp/t.json")
[ -n "$ours" ] && [ "$ours" -gt 0 ] && [ "$ours" = "$theirs" ]
tap $((! $?)) "tracebuf-record -J: JSON events ($ours) == llvm-xray trace_event's (${theirs:-?})"

# cat /dev/tracebuf_fdr (flight mode, every class, while running).
run "cat of the device: fdr-dump -verify" "$xray" fdr-dump -verify "$dir/cat.fdr"
run "cat of the device: convert -f yaml" "$xray" convert -f yaml "$dir/cat.fdr" -o "$tmp/cat.yaml"

# tracebuf fdr config/start/snapshot/stats/names/stop: a valid snapshot,
# per-CPU counters that add up to the totals, and the names (softirqs are
# always listed; IRQs only once seen).
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["cpus"]
sys.exit(0 if d["written"] > 0 and len(c) >= 2 and sum(x["written"] for x in c) == d["written"] else 1)' \
	"$dir/fdr-stats.json" 2>/dev/null && [ "$(cat "$dir/fdr-cmd.rc" 2>/dev/null)" = 0 ] &&
	grep -q '^3000001 softirq TIMER$' "$dir/fdr-names.txt"
tap $((! $?)) "tracebuf fdr: config, start, snapshot, stats --json, names, stop"
run "tracebuf fdr snapshot: fdr-dump -verify" "$xray" fdr-dump -verify "$dir/fdr-snapshot.fdr"
exit $((fails > 0))
