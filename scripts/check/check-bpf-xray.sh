#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of selftests/bpf_collector_test: run llvm-xray on the FDR files
# the collector wrote in the VM (brought back through /out/bpf) and count
# the workload's getppid() entries in `convert -f yaml` output.  Writes TAP
# to stdout; exits non-zero if anything failed.
#
# Usage: scripts/check/check-bpf-xray.sh DIR     (DIR = the guest's /out/bpf)

set -u
dir=${1:?usage: $0 DIR}
xray=${LLVM_XRAY:-llvm-xray}
tbconv=$(cd "$(dirname "$0")/../.." && pwd)/build/userspace/tbconv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0
ok() {	# ok COND-STATUS NAME [WHY]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2${3:+ # $3}"
		failed=1
	fi
}

files="getppid all duration lossy sched"
echo "TAP version 13"
echo "1..$(( $(echo $files | wc -w) * 6 + 3 ))"
for f in $files; do
	fdr="$dir/$f.fdr"
	if [ ! -s "$fdr" ]; then
		for t in fdr-dump-verify convert-yaml convert-trace_event account stack tbconv-fdr-text; do
			ok 1 "$f.$t" "$fdr missing (did the VM run the selftest?)"
		done
		continue
	fi
	"$xray" fdr-dump -verify "$fdr" >"$tmp/$f.dump" 2>&1
	# Dumps print typed events' payloads raw: no NUL into the message.
	ok $? "$f.fdr-dump-verify" "$(tail -n 1 "$tmp/$f.dump" | tr -d '\000')"
	"$xray" convert -f yaml -o "$tmp/$f.yaml" "$fdr" >"$tmp/$f.err" 2>&1
	ok $? "$f.convert-yaml" "$(tail -n 1 "$tmp/$f.err")"
	"$xray" convert -f trace_event -o "$tmp/$f.json" "$fdr" >"$tmp/$f.err" 2>&1
	ok $? "$f.convert-trace_event" "$(tail -n 1 "$tmp/$f.err")"
	# -k: llvm-xray 14 expands the trace thread by thread and requires
	# every record to be later than the first one it sees.
	"$xray" account -k -o "$tmp/$f.account" "$fdr" >"$tmp/$f.err" 2>&1
	ok $? "$f.account" "$(tail -n 1 "$tmp/$f.err")"
	"$xray" stack "$fdr" >"$tmp/$f.stack" 2>&1
	ok $? "$f.stack" "$(tail -n 1 "$tmp/$f.stack")"
	# The project's own reader must agree.
	"$tbconv" fdr-text "$fdr" >"$tmp/$f.text" 2>&1
	ok $? "$f.tbconv-fdr-text" "$(tail -n 1 "$tmp/$f.text" | tr -d '\000')"
done

# The names file is an "ID NAME" map for libtracebuf's tools.
"$tbconv" -m "$dir/all.fdr.names" fdr-tfile "$dir/all.fdr" "$tmp/all.tf" >"$tmp/names.err" 2>&1
ok $? "all.names-map" "$(tail -n 1 "$tmp/names.err")"

# getppid is syscall 110 on x86-64: kernel id 1 << 24 | 110, written as
# the dense id the names file gives it.
want=$(cat "$dir/getppid.n" 2>/dev/null)
pid=$(cat "$dir/getppid.pid" 2>/dev/null)
fn=$(awk '$1 !~ /^#/ && $2 == "sys_getppid" { print $1 }' "$dir/getppid.fdr.names" 2>/dev/null)
if [ -n "$want" ] && [ -n "$pid" ] && [ -n "$fn" ] && [ -s "$tmp/getppid.yaml" ]; then
	got=$(grep -c "func-id: $fn,.* thread: $pid,.* kind: function-enter," "$tmp/getppid.yaml")
	[ "$got" = "$want" ]
	ok $? "getppid.exact-count" "$got getppid entries in thread $pid, expected $want"
else
	ok 1 "getppid.exact-count" "workload files, names or yaml missing"
fi
# --stats-json is one valid JSON object (scripts/bench/bench.sh embeds it).
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["lost"] == 0 and d["events"] > 0' \
	"$dir/getppid.json" >"$tmp/json.err" 2>&1
ok $? "getppid.stats-json" "$(tail -n 1 "$tmp/json.err")"
exit $failed
