#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM (scripts/bench/bench-curves.sh boots it with the peers'
# tree of scripts/bench/bench-root.sh): the measurements behind the cost curves
# of Documentation/performance.rst, one JSON object a run to
# /out/curves.jsonl; scripts/bench/bench-curves.py adds them up and plots them.
# The workload is pinned to CPU 0, every reader to CPU 1, as in
# bench-guest.sh.  Curves, in this order:
#
#   rate    per-event cost, loss and reader CPU against the event rate
#           (bench-rate: getppid() at RATES events per second, 0 = flat
#           out), for none, tracebuf record (mmap and read()), tracebuf
#           bpf and LTTng (discard mode), syscall class
#   kfunc   cost per traced kernel function call with N of KF_COUNTS
#           functions selected: the one a getppid() calls and N-1 ACPICA
#           functions that nothing calls while it runs (tb-kf-list,
#           scripts/bench/kf-list.sh), for
#           tracebuf record -f (kretprobes) and tracebuf bpf -f
#           (fentry/fexit on BPF trampolines)
#   memory  memory taken while recording, against buffer size (SIZES,
#           KiB), for tracebuf record (-s, per CPU), tracebuf bpf (-s,
#           one ring) and LTTng (4 sub-buffers per CPU)
#
# Environment: CURVES (default "rate kfunc memory"), REPS (default 3),
# RATES, RATE_SECS, KF_COUNTS, KF_OPS, SIZES.

CURVES=${CURVES:-rate kfunc memory}
REPS=${REPS:-3}
RATES=${RATES:-20000 50000 100000 200000 400000 0}
RATE_SECS=${RATE_SECS:-1}
KF_COUNTS=${KF_COUNTS:-1 16 128 512}
KF_OPS=${KF_OPS:-100000}
SIZES=${SIZES:-256 1024 4096 16384}
OUT=/out/curves.jsonl
R=1	# the readers' CPU
OUTDIR=/tmp
grep -q " /disk " /proc/mounts && OUTDIR=/disk
J=/tmp/collector.json
W=/tmp/workload.json
export HOME=/root
: >"$OUT"

cpu_ns() {
	cut -d' ' -f1 "/proc/$1/schedstat" 2>/dev/null || echo 0
}

emit() {	# curve config x rep workload-json tracer-json
	printf '{"curve": "%s", "config": "%s", "x": %s, "rep": %s, "run": %s, "tracer": %s}\n' \
		"$1" "$2" "$3" "$4" "$5" "${6:-{\}}" >>"$OUT"
}

lttng_daemon() {
	pidof lttng-sessiond >/dev/null && return 0
	mkdir -p /dev/shm
	grep -q " /dev/shm " /proc/mounts || mount -t tmpfs none /dev/shm
	taskset -c $R lttng-sessiond -d -q
}

# Both daemons gone, and with them every buffer of their sessions (the
# session daemon stops its consumer daemon when it exits).
lttng_daemon_stop() {
	pid=$(pidof lttng-sessiond) || return 0
	kill $pid
	for _ in $(seq 100); do
		busy=
		for p in /proc/[0-9]*; do
			case $(cat "$p/comm" 2>/dev/null) in
			lttng-*) busy=1 ;;
			esac
		done
		[ -z "$busy" ] && return 0
		sleep 0.1
	done
	echo "curves: LTTng's daemons still there 10 s after SIGTERM" >&2
}

lttng_cpu_ns() {
	n=0
	# By name (busybox pidof does not find the consumer daemon, started
	# by its full path).
	for p in /proc/[0-9]*; do
		case $(cat "$p/comm" 2>/dev/null) in
		# Every thread's: the consumer reads in its threads, and
		# /proc/PID/schedstat is the first thread's alone.
		lttng-*) for t in "$p"/task/*/schedstat; do
				n=$((n + $(cut -d' ' -f1 "$t" 2>/dev/null || echo 0)))
			done ;;
		esac
	done
	echo $n
}

dir_bytes() {
	find "$1" -type f -exec cat {} + 2>/dev/null | wc -c
}

# A tracebuf collector running CMD: the workload's JSON to $W, its
# statistics to $J.
collect() {	# tool args... -- cmd
	rm -f $W $J "$OUTDIR"/c.fdr*
	taskset -c $R "$@" >$W
	rc=$?
	rm -f "$OUTDIR"/c.fdr*
	return $rc
}

# LTTng around CMD: a kernel session (discard mode, streamed to $OUTDIR),
# syscall events, CHANNEL_OPTS for its channel.  Prints the tracer JSON.
lttng_run() {	# channel-opts cmd...
	opts=$1
	shift
	lttng_daemon || return 1
	rm -rf "$OUTDIR/lttng"
	lttng create c -o "$OUTDIR/lttng" >/dev/null || return 1
	# shellcheck disable=SC2086
	lttng enable-channel -k $opts ch >/dev/null &&
		lttng enable-event -k -c ch --syscall -a >/dev/null &&
		lttng start >/dev/null || { lttng destroy c >/dev/null; return 1; }
	r0=$(lttng_cpu_ns)
	"$@" >$W
	rc=$?
	r1=$(lttng_cpu_ns)
	lttng stop >/dev/null
	lost=$(lttng list c 2>/dev/null | awk '/Discarded events:/ { n += $3 } END { print n + 0 }')
	bytes=$(dir_bytes "$OUTDIR/lttng")
	lttng destroy c >/dev/null
	rm -rf "$OUTDIR/lttng"
	printf '{"lost": %s, "bytes": %s, "reader_ns": %s}' "$lost" "$bytes" $((r1 - r0))
	return $rc
}

curve_rate() {	# rep
	for rate in $RATES; do
		run="bench-rate 0 $rate $RATE_SECS"
		$run >$W && emit rate none "$rate" "$1" "$(cat $W)"
		for cfg in tb_fdr tb_fdr_read bpf; do
			case $cfg in
			tb_fdr) set -- "$1" tracebuf-record ;;
			tb_fdr_read) set -- "$1" tracebuf-record --no-mmap ;;
			bpf) set -- "$1" tracebuf-bpf ;;
			esac
			rep=$1
			shift
			collect "$@" -q -e syscall -r -N -o "$OUTDIR/c.fdr" --stats-json $J -- $run &&
				emit rate $cfg "$rate" "$rep" "$(cat $W)" "$(cat $J)" ||
				echo "curves: rate $cfg $rate failed" >&2
			set -- "$rep"
		done
		t=$(lttng_run "" $run) && emit rate lttng "$rate" "$1" "$(cat $W)" "$t" ||
			echo "curves: rate lttng $rate failed" >&2
	done
}

curve_kfunc() {	# rep
	run="tb-workload -C 0 getppid $KF_OPS"
	$run >$W && emit kfunc none 0 "$1" "$(cat $W)"
	for n in $KF_COUNTS; do
		f=$(tb-kf-list "$n")
		got=$(echo "$f" | tr , '\n' | wc -l)
		[ "$got" = "$n" ] || echo "curves: only $got functions for $n" >&2
		for cfg in kfunc fentry; do
			tool=tracebuf-record
			[ $cfg = fentry ] && tool=tracebuf-bpf
			collect $tool -q -e sched -f "$f" -r -N -o "$OUTDIR/c.fdr" --stats-json $J -- $run &&
				emit kfunc $cfg "$got" "$1" "$(cat $W)" "$(cat $J)" ||
				echo "curves: kfunc $cfg $n failed" >&2
		done
	done
}

# The module without rings (it keeps them after a capture).
tb_reload() {
	rmmod tracebuf && insmod /lib/tracebuf/tracebuf.ko ||
		{ echo "curves: tracebuf.ko did not reload" >&2; exit 1; }
}

# Memory free to allocate, in KiB: MemAvailable, plus the pages on the
# per-CPU free lists (/proc/zoneinfo's pagesets), which MemAvailable
# leaves out.  Up to a few MiB of freed pages wait there per CPU, and an
# allocation on that CPU takes them first, so without them a tracer's
# buffers read smaller than they are and its freed memory seems to stay.
cat >/tmp/memnow <<'M'
#!/bin/sh
a=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
p=$(awk '$1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo)
echo $((a + p))
M
chmod +x /tmp/memnow

mem_avail_kib() {
	/tmp/memnow
}

# mem_avail_kib, caches dropped, once it is back to at least $1 KiB less
# 1 MiB, or after 20 s: memory a tracer frees can come back after it has
# exited (LTTng's, as its daemons stop; a BPF map's by a work item).
mem_back_kib() {	# target
	for _ in $(seq 40); do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		cur=$(mem_avail_kib)
		[ "$cur" -ge $(($1 - 1024)) ] && break
		sleep 0.5
	done
	echo "$cur"
}

# Memory taken while recording an idle second: mem_avail_kib before, less
# during (the buffers, the reader's memory, everything the tracer holds).
# "Before" must hold none of it, and nothing of an earlier run may come
# back during: the module keeps its rings after a capture (a flight
# recorder's, for the next capture and crash dumps) until a capture of
# another size or its unload, so it is loaded afresh; LTTng's buffers of
# a destroyed session came back as late as a later session's run (26 MiB
# during one 256 KiB run), so its daemons start before "before" and stop
# after each run; and every run waits until the memory is back
# (left_kib: what was still missing after the wait).
curve_memory() {	# rep
	printf '#!/bin/sh\nsleep 1\n/tmp/memnow\n' >/tmp/memprobe
	chmod +x /tmp/memprobe
	tb_reload
	mem=$(mem_back_kib 0)
	for kib in $SIZES; do
		for cfg in tb_fdr bpf lttng; do
			# The daemons' own memory is not the session's.
			[ $cfg = lttng ] && lttng_daemon && sleep 1 && mem=$(mem_back_kib 0)
			before=$(mem_back_kib "$mem")
			case $cfg in
			tb_fdr) collect tracebuf-record -q -e syscall -s ${kib}K -r -N -o "$OUTDIR/c.fdr" -- /tmp/memprobe ;;
			bpf) collect tracebuf-bpf -q -e syscall -s ${kib}K -r -N -o "$OUTDIR/c.fdr" -- /tmp/memprobe ;;
			lttng) lttng_run "--subbuf-size=$((kib / 4))K --num-subbuf=4" /tmp/memprobe >/dev/null ;;
			esac
			rc=$?
			[ $cfg = lttng ] && lttng_daemon_stop
			[ $cfg = tb_fdr ] && tb_reload
			mem=$(mem_back_kib "$before")
			[ $rc = 0 ] || { echo "curves: memory $cfg $kib failed" >&2; continue; }
			during=$(tail -n 1 $W)
			emit memory $cfg "$kib" "$1" "{\"taken_kib\": $((before - during)), \"left_kib\": $((before - mem)), \"cpus_possible\": \"$(cat /sys/devices/system/cpu/possible)\"}"
		done
	done
}

echo "curves: $(nproc) CPUs, kernel $(uname -r), $REPS repetitions, output on $OUTDIR"
bench-rate 0 0 0.2 >/dev/null	# warm up, unmeasured
for rep in $(seq 1 "$REPS"); do
	for c in $CURVES; do
		echo "$c rep $rep" >/run/vm-step
		"curve_$c" "$rep"
	done
	echo "curves: repetition $rep of $REPS done"
done
