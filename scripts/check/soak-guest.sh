#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# soak-guest.sh: the guest half of `make soak`; scripts/check/soak.sh puts the
# SOAK_* settings in front of it and runs it with vm-run.  Busybox sh.
#
# Two rounds of the same mixed load: a warm-up of SOAK_WARMUP seconds,
# then the soak of SOAK_SECS seconds.  Between and after them everything
# is stopped and the memory is sampled in that quiet state ("start" and
# "end" in mem.txt), so the two samples are comparable.  The load:
#
# * /dev/tracebuf_fdr: tracebuf-record in flight mode for the whole round
#   (all classes), snapshot reads with cat every few seconds, each
#   converted with tbconv to text, trace_event JSON and a GDB tfile;
# * /dev/tracebuf: the kernel feed (all sources, all CPUs) into chained
#   fill-once capture read by tracebufctl chain for the whole round,
#   injected events, snapshots decoded with tbdecode and converted with
#   tbconv (XScale -> FDR -> XScale must give the same bytes back, and to
#   a tfile and its text);
# * tb-workload: syscalls, context switches, page faults, UART IRQs.
#
# Files in /out/soak: mem.txt (T LABEL Slab SUnreclaim VmallocUsed Percpu
# tracebuf-vmalloc, kB), rss.txt (T ROUND TOOL VmRSS-kB) for the two
# long-running tools, runs.txt (T ROUND TOOL maxRSS-kB EXIT) for every
# short-lived one, and the logs.

secs=${SOAK_SECS:-600}
warm=${SOAK_WARMUP:-60}
out=/out/soak
tmp=/tmp/soak
mkdir -p "$out" "$tmp"
: >"$out/mem.txt"
: >"$out/rss.txt"
: >"$out/runs.txt"
round=warmup

now() {
	read -r up _ </proc/uptime
	echo "${up%.*}"
}

# mem_sample LABEL: system-wide kernel memory plus the module's own
# vmalloc areas (/proc/vmallocinfo names the caller's module).
mem_sample() {
	sync
	echo 1 >/proc/sys/vm/stat_refresh
	echo 3 >/proc/sys/vm/drop_caches
	awk -v t="$(now)" -v label="$1" '
		FILENAME == "/proc/meminfo" { m[$1] = $2 }
		FILENAME == "/proc/vmallocinfo" && /\[tracebuf\]/ { v += $2 }
		END {
			printf "%s %s %d %d %d %d %d\n", t, label, m["Slab:"],
			       m["SUnreclaim:"], m["VmallocUsed:"], m["Percpu:"], v / 1024
		}' /proc/meminfo /proc/vmallocinfo >>"$out/mem.txt"
}

# run TOOL ARGS...: run once; log its peak RSS and exit status under
# TOOL-SUBCOMMAND for the tools that have subcommands.
run() {
	name=$1
	case "$1" in
	tracebufctl|tbconv) name="$1-$2" ;;
	esac
	time -v -o "$tmp/time.txt" "$@" >"$tmp/run.out" 2>&1
	rc=$?
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
	echo "$(now) $round $name ${rss:-0} $rc" >>"$out/runs.txt"
	if [ $rc != 0 ]; then
		echo "soak: '$*' exited $rc:"
		tail -n 5 "$tmp/run.out"
	fi
	return $rc
}

rss_sample() {
	for p in "$rec_pid:tracebuf-record" "$chain_pid:tracebufctl-chain"; do
		rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/${p%%:*}/status" 2>/dev/null)
		[ -n "$rss" ] && echo "$(now) $round ${p#*:} $rss" >>"$out/rss.txt"
	done
}

workload() {
	while [ ! -e "$tmp/stop" ]; do
		tb-workload getppid 5000 >/dev/null
		tb-workload pingpong 200 >/dev/null
		tb-workload faults 200 >/dev/null
		tb-workload serial 8 >/dev/null
	done
}

events=/tmp/soak-events.txt
printf '%s\n' '# soak events' 'exc swi 3' 'br 0x8000 2' 'ind 0x12345678 17' \
	'exc irq 0' 'br 0x8010 40' 'exc dabort 5' >"$events"

# soak_round SECS: one round of the load, then everything stopped.
soak_round() {
	end=$(( $(now) + $1 ))
	rm -f "$tmp/stop"
	tracebufctl sources syscall,irq,fault,ret-user,switch --cpu all
	tracebufctl chain --depth 64 /dev/null 2>>"$out/chain.log" &
	chain_pid=$!
	# Injection needs capture on: wait until the chain has armed and
	# enabled it (bounded; a failed inject is reported below anyway).
	n=0
	while [ $n -lt 100 ] &&
	      ! tracebufctl status | grep -q '^enabled: *yes'; do
		sleep 0.1
		n=$((n + 1))
	done
	tracebuf-record --mode flight -e all -s 1M -J -o "$tmp/flight.fdr" \
		>>"$out/record.log" 2>&1 &
	rec_pid=$!
	workload &
	work_pid=$!
	last_rss=0
	i=0
	while [ "$(now)" -lt "$end" ]; do
		# The XScale device: events in, a snapshot out and converted.
		run tracebufctl inject "$events"
		run tracebufctl snapshot "$tmp/x.rec"
		run tbdecode "$tmp/x.rec"
		run tbconv xscale-fdr "$tmp/x.rec" "$tmp/x.fdr"
		run tbconv fdr-xscale "$tmp/x.fdr" "$tmp/x.back"
		if ! cmp -s "$tmp/x.rec" "$tmp/x.back"; then
			echo "soak: xscale-fdr | fdr-xscale changed the snapshot"
			echo "$(now) $round roundtrip 0 1" >>"$out/runs.txt"
		fi
		run tbconv xscale-tfile "$tmp/x.rec" "$tmp/x.tf"
		run tbconv tfile-text "$tmp/x.tf" "$tmp/x.txt"
		run tracebufctl status
		# The FDR device: a snapshot of the running flight capture.
		cat /dev/tracebuf_fdr >"$tmp/snap.fdr"
		run tbconv fdr-text "$tmp/snap.fdr" "$tmp/snap.txt"
		run tbconv fdr-json "$tmp/snap.fdr" "$tmp/snap.json"
		run tbconv fdr-tfile "$tmp/snap.fdr" "$tmp/snap.tf"
		if [ $(( $(now) - last_rss )) -ge 10 ]; then
			rss_sample
			last_rss=$(now)
		fi
		i=$((i + 1))
		[ $((i % 10)) = 0 ] && mem_sample "$round-running"
		sleep 1
	done
	rss_sample
	touch "$tmp/stop"
	wait "$work_pid"
	kill -TERM "$chain_pid" "$rec_pid"
	wait "$chain_pid"
	echo "$(now) $round tracebufctl-chain 0 $?" >>"$out/runs.txt"
	wait "$rec_pid"
	echo "$(now) $round tracebuf-record 0 $?" >>"$out/runs.txt"
	tracebufctl sources none
	# What tracebuf-record wrote at the end, converted once more.
	run tbconv fdr-text "$tmp/flight.fdr" "$tmp/flight.txt"
	run tbconv map-elf "$tmp/flight.fdr.names" "$tmp/flight.map"
	ls -l "$tmp" >>"$out/files.log"
	rm -f "$tmp"/*.fdr* "$tmp"/*.json "$tmp"/*.txt "$tmp"/*.tf* "$tmp"/x.*
	# Only the quiet state is compared: no capture, no reader, no load.
	tracebufctl disable
	tracebufctl clear
}

echo "soak: warm-up ${warm}s, then ${secs}s"
mem_sample boot
soak_round "$warm"
mem_sample start
round=soak
soak_round "$secs"
mem_sample end
echo "soak: done; $(wc -l <"$out/runs.txt") tool runs"
cat /proc/meminfo >"$out/meminfo.end"
grep tracebuf /proc/vmallocinfo >"$out/vmallocinfo.end"
exit 0
