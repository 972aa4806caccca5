#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the kernel function check: one tracebuf record -f of a
# file read (dd of a tmpfs file) into /out/kfunc/.  The host half,
# scripts/fdr-kfunc-accept.sh, runs llvm-xray account -m and stack -m
# over it.

out=/out/kfunc
mkdir -p "$out"
# The selector reads available_filter_functions and the kprobe blacklist.
[ -e /sys/kernel/tracing/available_filter_functions ] ||
	mount -t tracefs none /sys/kernel/tracing 2>/dev/null
[ -e /sys/kernel/debug/kprobes ] ||
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
dd if=/dev/zero of=/tmp/kfunc-data bs=64k count=16 2>/dev/null
tracebuf record -v -J -e syscall,irq,softirq -o "$out/trace.fdr" \
	-f 'ksys_read,vfs_read,rw_verify_area,security_file_permission,*file_read_iter,touch_atime' \
	-- dd if=/tmp/kfunc-data of=/dev/null bs=16k >"$out/record.log" 2>&1
echo $? >"$out/record.rc"
cat "$out/record.log"
rm -f /tmp/kfunc-data
