#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# provoke-check.sh DIR [VM-RUN-OPTION...]: the WARN and OOPS triggers fired
# for real (TAP).  Boots a guest (scripts/vm/vm-run, with the options given:
# the debug kernel's -K/-r/-m, say) that loads the test-only module
# selftests/kmod/tb_provoke.ko, sets panic_on_oops to 0 (vm-run boots with
# oops=panic) and runs selftests/fdr_provoke: a WARN(), a WARN_ON_ONCE()
# and an oops in process context each fire their trigger.  The guest must
# survive, and its kernel log must hold exactly those three reports and
# nothing else (vm-run -R).  Work files go to DIR.  The oops that panics
# is scripts/check/crash-check.sh's.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath -m "${1:-$top/build/provoke-check}")
[ $# -gt 0 ] && shift
n=0
fails=0
. "$top/scripts/check/tap-lib.sh"

rm -rf "$dir"
mkdir -p "$dir"
echo "TAP version 13"
echo "1..3"

warn_re='WARNING: CPU: [0-9]+ PID: [0-9]+ at .*tb_provoke'
"$top/scripts/vm/vm-run" -q -t 900 -w "$dir/vm" -o "$dir/out" "$@" \
	-R "$warn_re" -R "$warn_re" -R 'BUG: kernel NULL pointer dereference' \
	-- sh -c 'insmod /lib/tracebuf-test/tb_provoke.ko &&
		echo 0 >/proc/sys/kernel/panic_on_oops &&
		/selftests/fdr_provoke >/out/provoke.tap 2>&1' \
	>"$dir/vm.log" 2>&1
rc=$?
tap=$dir/out/provoke.tap
grep -q '^# PASSED: 3 / 3 tests passed' "$tap" 2>/dev/null && ! grep -q '^not ok' "$tap"
tap_diag $? "provoke: WARN, WARN_ON_ONCE and an oops fire their triggers (fdr_provoke)" \
	"$(cat "$tap" 2>/dev/null; tail -n 5 "$dir/vm.log")"
[ $rc = 0 ]
tap_diag $? "provoke: the guest survived; its kernel log holds the provoked reports and nothing else" \
	"exit $rc: $( (sed -n '/KERNEL LOG CHECK FAILED/,$p' "$dir/vm.log" | grep . ||
		tail -n 12 "$dir/vm.log") | head -n 40)"
grep -q 'reason: tracebuf trigger: WARN at .*tb_provoke' "$tap" 2>/dev/null &&
	grep -q 'reason: tracebuf trigger: oops: Oops' "$tap"
tap_diag $? "provoke: the reasons name the WARN's place and the oops" \
	"$(grep 'reason' "$tap" 2>/dev/null)"

[ $fails = 0 ]
