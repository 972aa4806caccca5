#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every tracebuf selftest in the guest.  Each test's TAP output goes to
# the console and to /out/results/NAME.tap, its exit code to NAME.rc, for
# scripts/check.sh to add up on the host.  Optional arguments name the
# tests to run (default: all, module_test first since it reloads tracebuf).

dir=$(dirname "$0")
results=/out/results
mkdir -p "$results"

if [ $# -gt 0 ]; then
	tests="$*"
else
	tests="module_test $(cd "$dir" && ls *_test | grep -v '^module_test$')"
fi

for t in $tests; do
	echo "# ---- $t"
	# For vm-run's watchdog: the step to name if time runs out.
	echo "$t" >/run/vm-step
	t0=$(date +%s)
	"$dir/$t" >"$results/$t.tap" 2>&1
	echo $? >"$results/$t.rc"
	cat "$results/$t.tap"
	echo "# ---- $t: $(($(date +%s) - t0)) s"
	# Every test must leave the module loaded for the next one (with
	# what every load in this guest needs: tb_selftest.h).
	# shellcheck disable=SC2086
	[ -e /dev/tracebuf ] || insmod /lib/tracebuf/tracebuf.ko $TB_MODULE_PARAMS
done

# Full run: also record the FDR acceptance trace and the kernel function
# trace for the host's llvm-xray checks (scripts/check/fdr-accept.sh,
# scripts/check/fdr-kfunc-accept.sh, run by scripts/check.sh).
if [ $# -eq 0 ] && [ -x "$dir/fdr_accept.sh" ]; then
	echo "# ---- fdr_accept"
	echo fdr_accept >/run/vm-step
	"$dir/fdr_accept.sh"
fi
if [ $# -eq 0 ] && [ -x "$dir/fdr_kfunc_accept.sh" ]; then
	echo "# ---- fdr_kfunc_accept"
	echo fdr_kfunc_accept >/run/vm-step
	"$dir/fdr_kfunc_accept.sh"
fi
if [ $# -eq 0 ] && [ -x "$dir/fdr_trigger_daemon.sh" ]; then
	echo "# ---- fdr_trigger_daemon"
	echo fdr_trigger_daemon >/run/vm-step
	"$dir/fdr_trigger_daemon.sh"
fi
exit 0
