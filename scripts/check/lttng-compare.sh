#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lttng-compare.sh [DIR]: tracebuf against LTTng itself (TAP).  In the
# guest of the peer tracers (scripts/bench/bench-root.sh: LTTng 2.13, its
# modules built for the guest's kernel), one workload is recorded at the
# same time by LTTng's own kernel session (every system call, and the
# scheduler's events and the state dump that lttng-analyses needs to
# know which task made a call) and by tracebuf record -e syscall,sched;
# on the host, our trace goes through
# tracebuf convert fdr-ctf, and lttng-syscallstats-mi must give, for each
# task of the workload, the same calls and the same return values per
# system call on LTTng's trace as on ours (scripts/check/ctf-check.py --lttng).
# The workload: tb-workload getppid, then enoent (open() of a missing
# file, ENOENT every time), each a process of its own, forked by the
# shell record runs (the "; true" keeps the shell from exec'ing the last
# one in its own process, which began before the capture), so that both
# lie wholly in both traces.  Work files go to
# DIR (default build/lttng-compare).  Exit 0 with every result ok.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath -m "${1:-$top/build/lttng-compare}")
n=0
fails=0
. "$top/scripts/check/tap-lib.sh"

echo "TAP version 13"
if ! root=$("$top/scripts/bench/bench-root.sh" 2>"$dir.root.log"); then
	echo "1..0 # SKIP the peers' guest tree: $(tail -n 1 "$dir.root.log")"
	exit 0
fi
echo "1..4"
rm -rf "$dir"
mkdir -p "$dir"

# Small sub-buffers keep the trace that comes back through the guest's
# serial port small; the workload is small enough for them (a discarded
# event fails the run, below).  Of the state dump, the tasks alone:
# lttng-analyses 0.6.1 stops at LTTng 2.13's file descriptors ("Cannot
# run analysis: 'pid'": they name a file table, no longer a pid).
cat >"$dir/guest.sh" <<'G'
export HOME=/root
mkdir -p /dev/shm && mount -t tmpfs none /dev/shm
lttng-sessiond -d -q || { echo "lttng-sessiond failed"; exit 1; }
lttng create cmp -o /tmp/lttng >/dev/null &&
	lttng enable-channel -k --subbuf-size 256K --num-subbuf 4 ch >/dev/null &&
	lttng enable-event -k -c ch --syscall -a >/dev/null &&
	lttng enable-event -k -c ch sched_switch,sched_wakeup,sched_wakeup_new,sched_process_fork,sched_process_exec,sched_process_exit >/dev/null &&
	lttng enable-event -k -c ch lttng_statedump_start,lttng_statedump_end,lttng_statedump_process_state >/dev/null &&
	lttng start >/dev/null || { echo "lttng session failed"; exit 1; }
tracebuf record -q -e syscall,sched -o /out/tb.fdr -- \
	sh -c 'tb-workload getppid 300 >/dev/null; tb-workload enoent 100 >/dev/null; true'
echo "record exit $?"
lttng stop >/dev/null
lttng list cmp | awk '/Discarded events:/ { n += $3 } END { print "lttng discarded " n + 0 }'
lttng destroy cmp >/dev/null
mkdir -p /out/lttng && cp -r /tmp/lttng/. /out/lttng/
G
"$top/scripts/vm/vm-run" -q -t 900 -r "$root" -w "$dir/vm" -o "$dir/out" -s "$dir/guest.sh" \
	>"$dir/vm.log" 2>&1
rc=$?
tap_diag $rc "lttng-compare: the guest ran LTTng's session and tracebuf record at once" \
	"exit $rc: $(tail -n 12 "$dir/vm.log")"
out=$(cat "$dir/out/output.log" "$dir/vm/output.log" 2>/dev/null)
grep -q "record exit 0" <<<"$out" && grep -q "lttng discarded 0" <<<"$out"
tap_diag $? "lttng-compare: tracebuf record exited 0 and LTTng discarded no event" \
	"$(grep -E 'record exit|discarded|failed' <<<"$out")"
"$top/build/userspace/tracebuf" convert -q fdr-ctf "$dir/out/tb.fdr" "$dir/tb.ctf" \
	>"$dir/convert.log" 2>&1
tap_diag $? "lttng-compare: tracebuf convert fdr-ctf of our trace" "$(tail -n 5 "$dir/convert.log")"
python3 "$top/scripts/check/ctf-check.py" "$top/build/userspace/tracebuf" "$dir/out/tb.fdr" \
	"$dir/tb.ctf" --lttng "$dir/out/lttng" >"$dir/check.log" 2>&1
rc=$?
tap_diag $rc "lttng-compare: lttng-syscallstats gives the same calls and return values per syscall for every task born in the capture, on LTTng's trace and ours" \
	"$(tail -n 8 "$dir/check.log")"
[ $rc != 0 ] || sed 's/^/# /' "$dir/check.log"

[ $fails = 0 ]
