#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of `make check-debug`, in the debug kernel (KASAN, UBSAN,
# lockdep, kmemleak): load tracebuf, run every selftest with run.sh, unload
# the module, then have kmemleak scan.  The scan's verdict is one more TAP
# result, /out/results/kmemleak.tap, and the report is kept in
# /out/kmemleak.txt.  vm-run starts it with --no-load, so that the module's
# load is inside the leak check too.

dir=$(dirname "$0")
results=/out/results
kml=/sys/kernel/debug/kmemleak
mkdir -p "$results"

if [ ! -w "$kml" ]; then
	echo "run-debug: $kml missing: not the debug kernel?" >&2
	exit 1
fi
# What the kernel allocated while booting is not ours to judge: one scan
# now, and 'clear' makes kmemleak ignore whatever it reported.
echo scan >"$kml"
echo clear >"$kml"

insmod /lib/tracebuf/tracebuf.ko || exit 1
"$dir/run.sh"

# Objects younger than 5 s are never reported; a second scan drops the
# ones a first scan caught in flight.  A first round while the module is
# still loaded, so that its functions have names in the backtraces.
scan() {
	sleep 6
	echo scan >"$kml"
	echo scan >"$kml"
}
echo kmemleak_scan >/run/vm-step
scan
# Unloaded, the module must have given back everything it allocated.
[ -e /dev/tracebuf ] && rmmod tracebuf
scan
cat "$kml" >/out/kmemleak.txt
leaks=$(grep -c '^unreferenced object' /out/kmemleak.txt)
{
	echo "TAP version 13"
	echo "1..1"
	if [ "$leaks" = 0 ]; then
		echo "ok 1 kmemleak_clean"
	else
		sed 's/^/# /' /out/kmemleak.txt
		echo "not ok 1 kmemleak_clean # $leaks unreferenced object(s)"
	fi
} >"$results/kmemleak.tap"
echo 0 >"$results/kmemleak.rc"
cat "$results/kmemleak.tap"
exit 0
