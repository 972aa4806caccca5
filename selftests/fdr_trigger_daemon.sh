#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the trigger daemon check: `tracebuf record --trigger` in
# the background, five triggers fired by markers while a workload runs,
# --keep 3, then SIGINT.  The host half, scripts/check/fdr-trigger-accept.sh,
# checks that exactly the newest three file sets are left and that
# llvm-xray accepts them.

out=/out/trigger
mkdir -p "$out"
log=$out/record.log
tracebuf record --trigger marker:TRIG --trigger 'syscall>3600s:getppid' \
	--keep 3 --post-events 300 -e syscall,sched,marker \
	-o "$out/t.fdr" >"$log" 2>&1 &
daemon=$!

# Wait (at most 60 s) until the daemon's log has line $1.
wait_log() {
	i=0
	while ! grep -q "$1" "$log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 600 ] && return 1
		kill -0 $daemon 2>/dev/null || return 1
		sleep 0.1
	done
}

ok=0
wait_log "waiting for a trigger" || ok=1
for n in 1 2 3 4 5; do
	/selftests/fdr_workload 50 >/dev/null
	printf 'TRIG %s' "$n" >/dev/tracebuf_fdr
	/selftests/fdr_workload 50 >/dev/null
	wait_log "^trigger $n:" || { ok=1; break; }
done
kill -INT $daemon
wait $daemon
echo $? >"$out/record.rc"
echo $ok >"$out/fired.rc"
cat "$log"
