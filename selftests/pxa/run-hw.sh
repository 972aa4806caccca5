#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the PXA270 guest (vm-run --arch pxa -n): the XScale hardware backend
# over the CP14 model.  cp14_model.ko first (qemu has no CP14 trace
# buffer: without it the backend's first DCSR read is an undefined
# instruction), then tracebuf.ko without tb_emulate, then the tests that
# apply to the hardware backend: xscale_hw_test, and module_test, which
# reloads the module (its load and unload over the model).  Results go to
# /out/results as run.sh leaves them.

dir=$(dirname "$0")
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
insmod /lib/tracebuf/cp14_model.ko || exit 1
insmod /lib/tracebuf/tracebuf.ko || exit 1
dmesg | grep -E 'cp14_model|tracebuf: .*trace buffer'
"$dir/run.sh" xscale_hw_test module_test
echo "# ---- the model's counters"
cat /sys/kernel/debug/tb_cp14/stats
