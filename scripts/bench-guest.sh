#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM (scripts/bench.sh boots it): every tracing
# configuration against every workload, REPS times, interleaved so that
# drift inside the boot hits all configurations alike.  One JSON object per
# run goes to /out/bench.jsonl; scripts/bench-report.py adds them up.
#
# Environment: REPS (default 5), GETPPID_N, PINGPONG_N, SERIAL_KIB,
# WORKLOADS (the workload sets, default "syscall irqsched kfunc").

REPS=${REPS:-5}
GETPPID_N=${GETPPID_N:-200000}
PINGPONG_N=${PINGPONG_N:-4000}
SERIAL_KIB=${SERIAL_KIB:-256}
WORKLOADS=${WORKLOADS:-syscall irqsched kfunc}
T=/sys/kernel/tracing
OUT=/out/bench.jsonl
WORK_CPU=0
READER_CPU=1
# Where the collectors write: the ext4 disk scripts/bench.sh gives the
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
		irq/softirq_entry irq/softirq_exit sched/sched_switch ;;
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

echo "bench: $(nproc) CPUs, kernel $(uname -r), $REPS repetitions, output on $OUTDIR"
# Warm up caches and page tables once, unmeasured.
run_workload syscall >/dev/null
for rep in $(seq 1 "$REPS"); do
	for wl in $WORKLOADS; do
		for cfg in none ftrace tb_floor tb_fdr tb_fdr_cache tb_fdr_read bpf xscale; do
			"cfg_$cfg" "$wl" "$rep" || echo "bench: $cfg/$wl rep $rep failed" >&2
		done
	done
	echo "bench: repetition $rep of $REPS done"
done
