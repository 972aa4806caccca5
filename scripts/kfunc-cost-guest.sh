#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: wall time of dd's 1-byte read + write loop with nothing
# traced, with tracebuf recording vfs_read and rw_verify_area (record -f),
# and with ftrace's function_graph on the same two functions.  Indicative
# only (TCG, /proc/uptime resolution): Documentation/performance.rst.
#
# Usage (host): scripts/vm-run -s scripts/kfunc-cost-guest.sh
mount -t tracefs none /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
N=200000
run() {	# label
	s=$(cut -d" " -f1 /proc/uptime | tr -d .)
	dd if=/dev/zero of=/dev/null bs=1 count=$N 2>/dev/null
	e=$(cut -d" " -f1 /proc/uptime | tr -d .)
	echo "$1: $(( (e - s) * 10000000 / N )) ns per iteration"
}
run none; run none
# tracebuf: vfs_read and rw_verify_area (2 traced calls per read, plus the write side's rw_verify_area)
tracebuf record --start -m flight -e sched -s 16M -f vfs_read,rw_verify_area >/dev/null
run tracebuf-kfunc; run tracebuf-kfunc
tracebuf record --stop
tracebuf record --start -m flight -e sched -s 16M >/dev/null
run tracebuf-nokfunc
tracebuf record --stop
# ftrace function_graph on the same two functions
echo vfs_read >$T/set_ftrace_filter; echo rw_verify_area >>$T/set_ftrace_filter
echo 65536 > $T/buffer_size_kb 2>/dev/null
echo function_graph >$T/current_tracer; echo 1 >$T/tracing_on
run ftrace-function_graph; run ftrace-function_graph
echo 0 >$T/tracing_on; echo nop >$T/current_tracer; echo >$T/set_ftrace_filter
