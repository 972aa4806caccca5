#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of the trigger daemon check: what selftests/fdr_trigger_daemon.sh
# left in the guest's /out/trigger, judged by the real llvm-xray and gdb.
# TAP on stdout.
#
# Usage: scripts/check/fdr-trigger-accept.sh DIR    (DIR = the guest's /out/trigger)

set -u
dir=${1:?usage: $0 DIR}
xray=${LLVM_XRAY:-llvm-xray}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
# shellcheck source=scripts/check/tap-lib.sh
. "$(dirname "$0")/tap-lib.sh"

echo "TAP version 13"
echo "1..21"
[ "$(cat "$dir/record.rc" 2>/dev/null)" = 0 ]
tap $((! $?)) "the daemon exited 0 on SIGINT"
[ "$(cat "$dir/fired.rc" 2>/dev/null)" = 0 ]
tap $((! $?)) "five triggers, each written before the next"
# --keep 3 of 5: the newest three sets, nothing else.
have=$(cd "$dir" 2>/dev/null && ls t-*.fdr 2>/dev/null | tr '\n' ' ')
[ "$have" = "t-000003.fdr t-000004.fdr t-000005.fdr " ]
tap $((! $?)) "--keep 3 kept the newest three" "have: $have"
for i in 3 4 5; do
	f=$dir/t-00000$i.fdr
	run "t-00000$i: llvm-xray fdr-dump -verify" "$xray" fdr-dump -verify "$f"
	run "t-00000$i: llvm-xray account -m map (no -k)" "$xray" account -m "$f.map" "$f"
	run "t-00000$i: llvm-xray convert" "$xray" convert -f yaml "$f" -o "$tmp/y"
	# The reason event, with this trigger's marker just before it.
	grep -aq "tracebuf trigger: marker \"TRIG\"" "$f" && grep -aq "TRIG $i" "$f"
	tap $((! $?)) "t-00000$i: holds its marker and the reason"
	run "t-00000$i: gdb reads the tfile" \
		gdb -nx -batch -ex "target tfile $f.tfile" -ex "tstatus"
	[ -s "$f.names" ]
	tap $((! $?)) "t-00000$i: names file"
done
[ $fails = 0 ]
