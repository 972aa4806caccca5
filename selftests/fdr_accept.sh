#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the FDR acceptance check: record a workload with syscalls,
# IRQs and context switches on two CPUs into /out/accept/.  The host half,
# scripts/fdr-accept.sh, runs llvm-xray over the files.

out=/out/accept
mkdir -p "$out"
tracebuf-record -J -o "$out/trace.fdr" -e syscall,irq,softirq,sched -- \
	/selftests/fdr_workload 2000 >"$out/record.log" 2>&1
echo $? >"$out/record.rc"
cat "$out/record.log"

# The device read directly: a flight-recorder snapshot taken by cat while
# capture runs must already be a valid FDR file.
tracebuf-record --start -m flight -e all
/selftests/fdr_workload 200 >/dev/null
cat /dev/tracebuf_fdr >"$out/cat.fdr"
tracebuf-record --stop
