#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the kernel function check: the same file read (dd of a
# tmpfs file) recorded with -f by each collector, tracebuf record (the
# module) into /out/kfunc/ and tracebuf bpf (fentry/fexit) into
# /out/bpf-kfunc/.  The host half, scripts/check/fdr-kfunc-accept.sh, runs
# llvm-xray account -m and stack -m over each.

# The selector reads available_filter_functions and the kprobe blacklist.
[ -e /sys/kernel/tracing/available_filter_functions ] ||
	mount -t tracefs none /sys/kernel/tracing 2>/dev/null
[ -e /sys/kernel/debug/kprobes ] ||
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
# security_file_permission is an inline without LSMs (the debug kernel):
# named only where it is a function, since a name -f cannot trace fails
# the run (a pattern would skip it).
funcs=ksys_read,vfs_read,rw_verify_area
grep -qx security_file_permission /sys/kernel/tracing/available_filter_functions &&
	funcs=$funcs,security_file_permission
funcs="$funcs,*file_read_iter,touch_atime"
dd if=/dev/zero of=/tmp/kfunc-data bs=64k count=16 2>/dev/null
for collector in record bpf; do
	out=/out/kfunc
	[ $collector = bpf ] && out=/out/bpf-kfunc
	mkdir -p "$out"
	tracebuf $collector -v -J -e syscall,irq,softirq -o "$out/trace.fdr" \
		-f "$funcs" \
		-- dd if=/tmp/kfunc-data of=/dev/null bs=16k >"$out/record.log" 2>&1
	echo $? >"$out/record.rc"
	grep -v '^libbpf: ' "$out/record.log"
done
rm -f /tmp/kfunc-data
