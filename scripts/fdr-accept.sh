#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of the FDR acceptance check: run the real llvm-xray over the
# trace that selftests/fdr_accept.sh recorded in the VM.  TAP on stdout.
#
# Usage: scripts/fdr-accept.sh DIR    (DIR = the guest's /out/accept)

set -u
dir=${1:?usage: $0 DIR}
xray=${LLVM_XRAY:-llvm-xray}
trace=$dir/trace.fdr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

tap() {	# OK(0/1) NAME [DIAG]
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2${3:+ # $3}"
		fails=$((fails + 1))
	fi
}

run() {	# NAME CMD...: ok if CMD exits 0; its stderr as diagnostics
	local name=$1
	shift
	local rc=0
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ $rc = 0 ]; then
		tap 1 "$name"
	else
		sed 's/^/# /' "$tmp/err" | head -5
		tap 0 "$name" "exit $rc"
	fi
}

echo "TAP version 13"
echo "1..12"
[ "$(cat "$dir/record.rc" 2>/dev/null)" = 0 ] && [ -s "$trace" ]
tap $((! $?)) "tracebuf-record produced a trace"
run "llvm-xray fdr-dump -verify" "$xray" fdr-dump -verify "$trace"
run "llvm-xray convert -f yaml" "$xray" convert -f yaml "$trace" -o "$tmp/t.yaml"
run "llvm-xray convert -f trace_event" "$xray" convert -f trace_event "$trace" -o "$tmp/t.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["traceEvents"] else 1)' \
	"$tmp/t.json" 2>/dev/null
tap $((! $?)) "trace_event output is JSON with events"
run "llvm-xray stack" "$xray" stack "$trace"
run "llvm-xray account -k" "$xray" account -k "$trace"

# getppid enters == calls the workload made.
getppid_id=$(( (1 << 24) + $(printf '#include <sys/syscall.h>\nSYS_getppid\n' | cc -E -P - | tail -1) ))
want=$(sed -n 's/^getppid \([0-9]*\)$/\1/p' "$dir/record.log")
got=$(grep -c "func-id: $getppid_id,.*kind: function-enter" "$tmp/t.yaml" 2>/dev/null)
[ -n "$want" ] && [ "$got" = "$want" ]
tap $((! $?)) "getppid enters in the trace ($got) == calls made (${want:-?})"

# Syscalls on both CPUs, IRQs, and tasks spread over several blocks.
cpus=$(grep -o 'cpu: [0-9]*' "$tmp/t.yaml" | sort -u | wc -l)
irqs=$(awk '/kind: function-enter/ { id = $6 + 0; if (int(id / 16777216) == 2) n++ }
	END { print n + 0 }' "$tmp/t.yaml")
[ "$cpus" -ge 2 ] && [ "$irqs" -gt 0 ]
tap $((! $?)) "records from $cpus CPUs, $irqs IRQ entries"

# Names: the lib's ELF map writer is not merged yet, so tracebuf-record
# writes a text names file; llvm-xray account -m needs the ELF map.
if grep -q "^$(printf '%x' "$getppid_id") syscall getppid$" "$trace.names" 2>/dev/null; then
	tap 1 "names file names getppid # SKIP account -m needs the ELF map (lib not merged)"
else
	tap 0 "names file names getppid"
fi
# cat /dev/tracebuf_fdr (flight mode, every class, while running).
run "cat of the device: fdr-dump -verify" "$xray" fdr-dump -verify "$dir/cat.fdr"
run "cat of the device: convert -f yaml" "$xray" convert -f yaml "$dir/cat.fdr" -o "$tmp/cat.yaml"
exit $((fails > 0))
