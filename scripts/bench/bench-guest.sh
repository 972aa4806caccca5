#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM (scripts/bench/bench.sh boots it): every tracing
# configuration against every workload, REPS times, interleaved so that
# drift inside the boot hits all configurations alike.  One JSON object per
# run goes to /out/bench.jsonl; scripts/bench/bench-report.py adds them up.
#
# Environment: REPS (default 5), GETPPID_N, PINGPONG_N, SERIAL_KIB,
# WORKLOADS (the workload sets, default "syscall irqsched kfunc"), CONFIGS
# (the configurations, default all of those below).

REPS=${REPS:-5}
GETPPID_N=${GETPPID_N:-200000}
PINGPONG_N=${PINGPONG_N:-4000}
SERIAL_KIB=${SERIAL_KIB:-256}
WORKLOADS=${WORKLOADS:-syscall irqsched kfunc}
T=/sys/kernel/tracing
OUT=/out/bench.jsonl
WORK_CPU=0
READER_CPU=1
# Where the collectors write: the ext4 disk scripts/bench/bench.sh gives the
# guest (vm-run --disk), where O_DIRECT works, else tmpfs.
OUTDIR=/tmp
grep -q " /disk " /proc/mounts && OUTDIR=/disk
# The kfunc workload set: getppid() with the kernel function it calls once
# (its __x64_sys_* wrapper is not traceable in Debian's 6.1) traced by each
# tracer's own mechanism (record -f, bpf -f, function_graph) and nothing
# else; Documentation/performance.rst.  Comma separated, each called once
# per getppid().
KFUNCS=__task_pid_nr_ns

: >"$OUT"

# Tracepoints each workload is measured with: the same set for every tracer.
ftrace_events() {
	case $1 in
	syscall) echo raw_syscalls/sys_enter raw_syscalls/sys_exit ;;
	irqsched) echo raw_syscalls/sys_enter raw_syscalls/sys_exit \
		irq/irq_handler_entry irq/irq_handler_exit \
		irq/softirq_entry irq/softirq_exit sched/sched_switch \
		sched/sched_wakeup sched/sched_wakeup_new ;;
	esac
}

tb_classes() {
	case $1 in
	syscall) echo syscall ;;
	kfunc) echo sched ;;	# never reached by getppid(): the functions only
	irqsched) echo syscall,irq,softirq,sched ;;
	esac
}

# The workload as one shell command line; its JSON line goes to $WJSON so
# that whatever a tracer prints cannot mix with it.
WJSON=/tmp/workload.json
workload_cmd() {
	case $1 in
	syscall|kfunc) echo "tb-workload -C $WORK_CPU getppid $GETPPID_N >$WJSON" ;;
	irqsched) echo "tb-workload serial $SERIAL_KIB >/dev/null & tb-workload -C $WORK_CPU pingpong $PINGPONG_N >$WJSON; wait" ;;
	esac
}

run_workload() {
	rm -f $WJSON
	sh -c "$(workload_cmd "$1")" && cat $WJSON
}

# CPU time in ns a process has used so far (schedstat: ns precision).
cpu_ns() {
	cut -d' ' -f1 "/proc/$1/schedstat" 2>/dev/null || echo 0
}

emit() {	# config workload rep json-of-workload extra-json
	x=$5
	# kfunc: each getppid() calls each function of $KFUNCS once.
	[ "$2" = kfunc ] && x="$x, \"calls_per_op\": $(echo "$KFUNCS" | tr , '\n' | wc -l)"
	printf '{"config": "%s", "workload_set": "%s", "rep": %s, "run": %s%s}\n' \
		"$1" "$2" "$3" "$4" "$x" >>"$OUT"
}

cfg_none() {	# workload rep
	w=$(run_workload "$1") || return 1
	emit none "$1" "$2" "$w" ""
}

cfg_ftrace() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	for e in $(ftrace_events "$1"); do
		echo 1 >"$T/events/$e/enable"
	done
	if [ "$1" = kfunc ]; then
		# One by one: a refused name must not leave the filter empty
		# (function_graph on every function).
		echo >$T/set_ftrace_filter
		for f in $(echo "$KFUNCS" | tr , ' '); do
			echo "$f" >>$T/set_ftrace_filter || return 1
		done
		echo function_graph >$T/current_tracer
	fi
	echo 1 >$T/tracing_on
	pids=""
	for c in 0 1; do
		taskset -c $READER_CPU cat $T/per_cpu/cpu$c/trace_pipe_raw >/dev/null &
		pids="$pids $!"
	done
	w=$(run_workload "$1")
	sleep 0.2
	reader_ns=0
	for p in $pids; do
		reader_ns=$((reader_ns + $(cpu_ns "$p")))
	done
	echo 0 >$T/tracing_on
	kill $pids 2>/dev/null
	wait $pids 2>/dev/null
	entries=0
	lost=0
	for c in 0 1; do
		s=$T/per_cpu/cpu$c/stats
		entries=$((entries + $(awk '/^entries:/ {print $2}' "$s") + $(awk '/^read events:/ {print $3}' "$s")))
		lost=$((lost + $(awk '/^overrun:/ {print $2}' "$s") + $(awk '/^dropped events:/ {print $3}' "$s")))
	done
	echo 0 >$T/events/enable
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	emit ftrace "$1" "$2" "$w" ", \"events\": $entries, \"lost\": $lost, \"reader_ns\": $reader_ns"
}

# A collector that runs the workload as its command (tracebuf-record,
# tracebuf-bpf): the workload's JSON and the collector's --stats-json.
run_collector() {	# tool workload extra-args...
	tool=$1
	wl=$2
	shift 2
	rm -f $WJSON /tmp/collector.json
	[ "$wl" = kfunc ] && set -- -f "$KFUNCS" "$@"
	taskset -c $READER_CPU "$tool" -q -e "$(tb_classes "$wl")" "$@" \
		--stats-json /tmp/collector.json -- sh -c "$(workload_cmd "$wl")" \
		>/dev/null || return 1
	cat $WJSON
}

# A collector's configuration: its raw trace (-r: no post-processing in the
# measured reader time, no tfile), the workload's and the collector's JSON.
measure_collector() {	# config tool workload rep [tool-args...]
	command -v "$2" >/dev/null || return 0
	cfg=$1 tool=$2 wl=$3 rep=$4
	shift 4
	w=$(run_collector "$tool" "$wl" -r -N -o $OUTDIR/bench.fdr "$@") || return 1
	set -- "$cfg" "$tool" "$wl" "$rep"
	emit "$1" "$3" "$4" "$w" ", \"tracer\": $(cat /tmp/collector.json)"
	rm -f $OUTDIR/bench.fdr*
}

# tracebuf's FDR ring in streaming mode, drained by tracebuf-record from
# its read-only mapping of the rings (the default: O_DIRECT to its spool
# where $OUTDIR has it), through the page cache, or with read().
cfg_tb_fdr() {
	measure_collector tb_fdr tracebuf-record "$1" "$2"
}

cfg_tb_fdr_cache() {
	measure_collector tb_fdr_cache tracebuf-record "$1" "$2" --no-direct
}

cfg_tb_fdr_read() {
	measure_collector tb_fdr_read tracebuf-record "$1" "$2" --no-mmap
}

# tracebuf top on the same capture as tb_fdr: its mapped reader, every
# second the report over what it drained, one JSON line (to /dev/null).
# Its CPU time while the workload runs (the summaries of the intervals
# that ended meanwhile included) and the recorder's losses, from the
# device's counters after top stopped its capture.
cfg_tb_top() {	# workload rep
	command -v tracebuf >/dev/null && [ "$1" != kfunc ] || return 0
	rm -f /tmp/top.jsonl
	taskset -c $READER_CPU tracebuf top --json -e "$(tb_classes "$1")" \
		>/tmp/top.jsonl 2>/tmp/top.err &
	pid=$!
	# Its first interval printed: the capture runs.
	i=0
	while [ ! -s /tmp/top.jsonl ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	r0=$(cpu_ns $pid)
	w=$(run_workload "$1")
	rc=$?
	r1=$(cpu_ns $pid)
	kill -INT $pid
	wait $pid || rc=1
	st=$(tracebuf fdr stats | awk '$1 == "total" { print $2, $3, $4 }')
	[ $rc = 0 ] && [ -n "$st" ] || { cat /tmp/top.err >&2; return 1; }
	set -- "$1" "$2" $st
	emit tb_top "$1" "$2" "$w" ", \"tracer\": {\"events\": $3, \"lost\": $(($4 + $5)), \"reader_ns\": $((r1 - r0)), \"intervals\": $(wc -l </tmp/top.jsonl)}"
}

# Probes registered, consumer writes nothing: the floor of any probe tracer.
cfg_tb_floor() {
	p=/sys/module/tracebuf/parameters/fdr_probe_nop
	[ -w $p ] && [ "$1" != kfunc ] || return 0
	echo 1 >$p
	w=$(run_collector tracebuf-record "$1" -r -N -o /tmp/bench.fdr)
	rc=$?
	echo 0 >$p
	[ $rc = 0 ] || return 1
	emit tb_floor "$1" "$2" "$w" ""
	rm -f /tmp/bench.fdr*
}

# The libbpf collector, on the same tracepoints.
cfg_bpf() {
	measure_collector bpf tracebuf-bpf "$1" "$2"
}

# The emulated XScale trace buffer fed by kernel events (syscalls only).
cfg_xscale() {
	[ "$1" = syscall ] || return 0
	command -v tracebufctl >/dev/null || return 0
	tracebufctl sources syscall,ret-user >/dev/null || return 1
	tracebufctl enable >/dev/null || return 1
	w=$(run_workload "$1")
	tracebufctl disable >/dev/null
	tracebufctl sources none >/dev/null
	emit xscale "$1" "$2" "$w" ""
}

# The peers of scripts/bench/bench-root.sh, when the guest has them: LTTng
# (lttng-modules, its session and consumer daemons pinned to the reader's
# CPU, as the other readers are) and perf.  LTTng's events for the syscall
# class are its syscall events (all system calls, entry and exit: what
# raw_syscalls:sys_enter/sys_exit give the others); the other classes its
# tracepoint events of the same names.
lttng_events() {	# workload: "kind name" lines
	case $1 in
	syscall) echo "syscall all" ;;
	irqsched) echo "syscall all"; for e in irq_handler_entry irq_handler_exit \
		softirq_entry softirq_exit sched_switch sched_wakeup \
		sched_wakeup_new; do echo "tracepoint $e"; done ;;
	esac
}

lttng_daemon() {
	command -v lttng-sessiond >/dev/null || return 1
	pidof lttng-sessiond >/dev/null && return 0
	export HOME=/root
	# Its shared memory for user-space tracing, which it sets up anyway.
	mkdir -p /dev/shm && mount -t tmpfs none /dev/shm
	taskset -c $READER_CPU lttng-sessiond -d -q || return 1
}

# CPU time of LTTng's daemons (the consumer does the reading).
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

# Bytes in the files under a directory (busybox du has no byte count).
dir_bytes() {
	find "$1" -type f -exec cat {} + 2>/dev/null | wc -c
}

# LTTng, a kernel session: MODE discard (the default, streamed by the
# consumer daemon to $OUTDIR) or snapshot (lttng create --snapshot: the
# rings overwrite, nothing is read while recording; one snapshot written
# after the run, outside the measured time, for its size).  Default
# channel geometry in both.
measure_lttng() {	# config mode workload rep
	cfg=$1 mode=$2 wl=$3 rep=$4
	[ "$wl" = kfunc ] && return 0
	lttng_daemon || return 0
	rm -rf $OUTDIR/lttng
	if [ "$mode" = snapshot ]; then
		lttng create tbb --snapshot -o $OUTDIR/lttng >/dev/null || return 1
	else
		lttng create tbb -o $OUTDIR/lttng >/dev/null || return 1
	fi
	lttng_events "$wl" | while read -r kind name; do
		if [ "$kind" = syscall ]; then
			lttng enable-event -k --syscall -a >/dev/null
		else
			lttng enable-event -k "$name" >/dev/null
		fi || echo "bench: lttng enable-event $kind $name failed" >&2
	done
	lttng start >/dev/null || { lttng destroy tbb >/dev/null; return 1; }
	r0=$(lttng_cpu_ns)
	w=$(run_workload "$wl")
	rc=$?
	r1=$(lttng_cpu_ns)
	lttng stop >/dev/null
	[ "$mode" = snapshot ] && lttng snapshot record >/dev/null
	lost=$(lttng list tbb 2>/dev/null | awk '/Discarded events:/ { n += $3 } END { print n + 0 }')
	bytes=$(dir_bytes $OUTDIR/lttng)
	lttng destroy tbb >/dev/null
	rm -rf $OUTDIR/lttng
	[ $rc = 0 ] || return 1
	# No trace reader in the guest: the events are the workload's own (2
	# per getppid()), syscall workload only; the bytes are the trace's
	# (for snapshot, of one snapshot of the rings).
	x=""
	ops=$(echo "$w" | sed -n 's/.*"ops": *\([0-9]*\).*/\1/p')
	[ "$wl" = syscall ] && [ "$mode" != snapshot ] && [ -n "$ops" ] &&
		x=", \"events\": $((2 * ops)), \"bytes\": $bytes"
	[ "$mode" = snapshot ] && x=", \"snapshot_bytes\": $bytes"
	emit "$cfg" "$wl" "$rep" "$w" ", \"tracer\": {\"lost\": $lost, \"reader_ns\": $((r1 - r0))$x}"
}

cfg_lttng() {
	measure_lttng lttng discard "$1" "$2"
}

cfg_lttng_snap() {
	measure_lttng lttng_snap snapshot "$1" "$2"
}

# perf record of the same tracepoints, every CPU, into its mmap rings
# (default size), written by perf itself on the reader's CPU to $OUTDIR.
cfg_perf() {	# workload rep
	command -v perf >/dev/null && [ "$1" != kfunc ] || return 0
	ev=$(ftrace_events "$1" | tr " /" ",:")
	rm -f $OUTDIR/perf.data /tmp/perf.err /tmp/perf.ctl /tmp/perf.ack
	# Started disabled (-D -1) and enabled through its control FIFO once it
	# has set up: under TCG it takes seconds to synthesize the existing
	# tasks' records, and its output file exists long before that.
	mkfifo /tmp/perf.ctl /tmp/perf.ack
	taskset -c $READER_CPU perf record -a -e "$ev" -D -1 \
		--control fifo:/tmp/perf.ctl,/tmp/perf.ack -o $OUTDIR/perf.data 2>/tmp/perf.err &
	pid=$!
	echo enable >/tmp/perf.ctl
	read -r ack </tmp/perf.ack
	r0=$(cpu_ns $pid)
	w=$(run_workload "$1")
	rc=$?
	r1=$(cpu_ns $pid)
	kill -INT $pid
	wait $pid
	bytes=$(wc -c <$OUTDIR/perf.data)
	# The records perf wrote (its own count), and the samples the kernel
	# could not put into a full ring (PERF_RECORD_LOST{,_SAMPLES}).
	samples=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' /tmp/perf.err)
	lost=$(perf report -i $OUTDIR/perf.data -D 2>/dev/null |
		awk '/PERF_RECORD_LOST/ { for (i = 1; i < NF; i++) if ($i == "lost:" || $i == "lost") n += $(i + 1) } END { print n + 0 }')
	rm -f $OUTDIR/perf.data /tmp/perf.ctl /tmp/perf.ack
	[ $rc = 0 ] && [ -n "$samples" ] || { cat /tmp/perf.err >&2; return 1; }
	emit perf "$1" "$2" "$w" ", \"tracer\": {\"events\": $samples, \"bytes\": $bytes, \"lost\": $lost, \"reader_ns\": $((r1 - r0))}"
}

echo "bench: $(nproc) CPUs, kernel $(uname -r), $REPS repetitions, output on $OUTDIR"
# Warm up caches and page tables once, unmeasured.
run_workload syscall >/dev/null
for rep in $(seq 1 "$REPS"); do
	for wl in $WORKLOADS; do
		for cfg in ${CONFIGS:-none ftrace tb_floor tb_fdr tb_fdr_cache tb_fdr_read tb_top bpf xscale lttng lttng_snap perf}; do
			"cfg_$cfg" "$wl" "$rep" || echo "bench: $cfg/$wl rep $rep failed" >&2
		done
	done
	echo "bench: repetition $rep of $REPS done"
done
