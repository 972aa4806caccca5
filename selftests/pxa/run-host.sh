#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the PXA270 guest (vm-run --arch pxa -r build/vmroot-pxa-host -n): the
# userspace host tests, built for armel, run where 32-bit ARM code runs
# for real.  The tree under /tb is laid out as the checkout (make
# stage-pxa-host), so that the paths the tests take relative to
# userspace/tests, their working directory as in scripts/check.sh, hold:
# data/, ../../build/userspace/tracebuf and its other names, the
# documents they check.  Every test runs: what needs a program the guest
# lacks (bash, python3, llvm-xray, gdb) skips itself and says why.
# TB_SLOW (from the kernel command line) stretches their timeouts
# (tb_harness.h).  Each test is staged compressed (the guest's files live
# in its 64 MiB) and unpacked in place just before it runs, since the
# tests find the tools next to their own directory.  Results go to
# /out/results as run.sh leaves them.
#
# Usage: run-host.sh [TEST...]   (default: every test staged)

top=/tb
results=/out/results
mkdir -p "$results"

if [ $# -gt 0 ]; then
	tests="$*"
else
	tests=$(cd "$top/build/userspace/tests" && ls | sed 's/\.xz$//')
fi
bin=$top/build/userspace/tests

cd "$top/userspace/tests" || exit 1
all0=$(date +%s)
for t in $tests; do
	echo "# ---- $t"
	# For vm-run's watchdog: the step to name if time runs out.
	echo "$t" >/run/vm-step
	t0=$(date +%s)
	if unxz -c "$bin/$t.xz" >"$bin/$t" && chmod +x "$bin/$t"; then
		"$bin/$t" >"$results/$t.tap" 2>&1
		echo $? >"$results/$t.rc"
	else
		echo "# cannot unpack $bin/$t.xz" >"$results/$t.tap"
		echo 1 >"$results/$t.rc"
	fi
	rm -f "$bin/$t"
	cat "$results/$t.tap"
	echo "# ---- $t: $(($(date +%s) - t0)) s"
done
echo "# ---- host tests: $(($(date +%s) - all0)) s"
exit 0
