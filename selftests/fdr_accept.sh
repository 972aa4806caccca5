#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the FDR acceptance check: record a workload with syscalls,
# IRQs and context switches on two CPUs into /out/accept/.  The host half,
# scripts/check/fdr-accept.sh, runs llvm-xray over the files.

out=/out/accept
mkdir -p "$out"
tracebuf-record -J -o "$out/trace.fdr" -e syscall,irq,softirq,sched -- \
	/selftests/fdr_workload 2000 >"$out/record.log" 2>&1
echo $? >"$out/record.rc"
cat "$out/record.log"

# The mapped reader's O_DIRECT spool, on the block-backed file system
# scripts/check.sh gives this guest (vm-run --disk: tmpfs has no O_DIRECT).
if grep -q " /disk " /proc/mounts; then
	tracebuf-record -N -o /disk/direct.fdr -e syscall \
		--stats-json "$out/direct.json" -- \
		/selftests/fdr_workload 2000 >"$out/direct.log" 2>&1
	echo $? >"$out/direct.rc"
	cp /disk/direct.fdr /disk/direct.fdr.names "$out/"
fi

# The device read directly: a flight-recorder snapshot taken by cat while
# capture runs must already be a valid FDR file.
# Every class the kernel has: 6.1's page-fault tracepoints are x86's.
all=all
[ -e /sys/kernel/tracing/events/exceptions/page_fault_user ] ||
	all=syscall,irq,softirq,workqueue,sched,marker
tracebuf-record --start --mode flight -e "$all"
/selftests/fdr_workload 200 >/dev/null
cat /dev/tracebuf_fdr >"$out/cat.fdr"
tracebuf-record --stop

# The same controls as subcommands: tracebuf fdr config, start, snapshot,
# stats, names and stop; scripts/check/fdr-accept.sh checks what they wrote.
tracebuf fdr config --mode flight -e syscall,irq,sched -s 256K -w 0 &&
	tracebuf fdr start && /selftests/fdr_workload 100 >/dev/null &&
	tracebuf fdr snapshot "$out/fdr-snapshot.fdr" &&
	tracebuf fdr stats --json >"$out/fdr-stats.json" &&
	tracebuf fdr names >"$out/fdr-names.txt" && tracebuf fdr stop
echo $? >"$out/fdr-cmd.rc"
