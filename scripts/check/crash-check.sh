#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# crash-check.sh [DIR]: recovery after a crash, for real (TAP).  Boots the
# guest four times with scripts/vm/vm-run --panic, crashing it with
# echo c > /proc/sysrq-trigger: recording in flight mode after markers,
# with kernel-function calls missed (reported at the panic);
# with the recorder stopped; with it never started; without the module.
# On the host, `tracebuf crash` reads each memory dump: the first must give
# a trace that llvm-xray fdr-dump -verify, convert and account -k accept,
# holding the markers in order and the panic message as the last event of
# its CPU (scripts/check/crash-events.py), its softirqs and IRQs named by the
# names the panic saved, and the same files from the same
# memory dumped in qemu's kdump-compressed format (zlib, flattened); the
# others a clear message and exit status 1.
# Then a guest whose oops, provoked by the test-only module
# selftests/kmod/tb_provoke.ko, panics (oops=panic) while `tracebuf record
# --trigger oops` records: its recovered trace holds the marker before,
# the trigger's reason, and the panic message last on its CPU.  (The
# guests that survive a provoked WARN and oops are provoke-check.sh's.)
# Work files go to DIR (default build/crash-check); the dumps (the guest's
# memory, 256 MiB each) are deleted once read.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath -m "${1:-$top/build/crash-check}")
tb=$top/build/userspace/tracebuf
n=0
fails=0

ok() {		# ok COND-STATUS NAME [DIAG]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fails=$((fails + 1))
		[ -n "${3:-}" ] && echo "$3" | sed 's/^/# /'
	fi
}

# crash_vm NAME VMRUN-OPTIONS... -- GUEST-COMMAND: boot, crash, dump.
crash_vm() {
	local name=$1
	shift
	"$top/scripts/vm/vm-run" -q -m 256 -t 600 -w "$dir/vm-$name" \
		-P "$dir/$name.core" "$@" >"$dir/$name.vm.log" 2>&1
	local rc=$?
	cp "$dir/vm-$name/console.log" "$dir/$name.console.log" 2>/dev/null
	ok $rc "$name: the guest panicked as expected and its memory was dumped" \
		"$(tail -n 20 "$dir/$name.vm.log")"
}

rm -rf "$dir"
mkdir -p "$dir"
echo "TAP version 13"
echo "1..23"

# 1. Recording in flight mode: markers, then the crash.
markers='for i in 1 2 3 4 5; do echo "crash-check marker $i" >/dev/tracebuf_fdr; done'
# pipe_read with 70 readers asleep in it: its return probe follows 64
# calls at once (maxactive), so 6 are missed, to be reported at the panic.
crash_vm flight -Z "$dir/flight.kdump" -- sh -c "tracebuf record --start --mode flight -s 256K -e syscall,irq,softirq,marker -f pipe_read -q &&
	$markers && ls -R /lib >/dev/null &&
	i=0; while [ \$i -lt 70 ]; do sleep 1000 | cat & i=\$((i + 1)); done
	j=0; while [ \$(grep -c pipe_read /proc/[0-9]*/wchan 2>/dev/null | grep -c ':1') -lt 70 ] &&
		[ \$j -lt 600 ]; do j=\$((j + 1)); sleep 0.1; done
	echo 'crash-check last marker' >/dev/tracebuf_fdr &&
	echo c >/proc/sysrq-trigger"
out=$dir/flight.fdr
"$tb" crash "$dir/flight.core" -o "$out" >"$dir/flight.crash.log" 2>&1
ok $? "flight: tracebuf crash recovers the trace" "$(cat "$dir/flight.crash.log")"
rm -f "$dir/flight.core"
"$tb" crash "$dir/flight.kdump" -o "$dir/kdump.fdr" >"$dir/kdump.crash.log" 2>&1 &&
	cmp "$out" "$dir/kdump.fdr" && cmp "$out.names" "$dir/kdump.fdr.names"
ok $? "flight: the kdump-compressed dump gives the same trace" "$(cat "$dir/kdump.crash.log")"
rm -f "$dir/flight.kdump"
for f in "$out.names" "$out.map" "$out.tfile"; do
	[ -s "$f" ]
	ok $? "flight: $(basename "$f") written"
done
# The names the panic saved in the names area: no id left numeric (the
# softirqs are always there; device IRQs only if one came in the window).
! grep -q ' fdr_0x' "$out.names" && grep -q ' softirq_' "$out.names"
ok $? "flight: softirqs and IRQs are named (the crash descriptor's names)" \
	"$(grep -E 'fdr_0x|names' "$out.names" "$dir/flight.crash.log" | head -n 8)"
llvm-xray fdr-dump -verify "$out" >"$dir/flight.dump.txt" 2>&1
ok $? "flight: llvm-xray fdr-dump -verify accepts it" "$(tail -n 5 "$dir/flight.dump.txt")"
llvm-xray convert -f yaml -m "$out.map" -y "$out" -o "$dir/flight.yaml" 2>"$dir/flight.convert.log"
ok $? "flight: llvm-xray convert accepts it" "$(cat "$dir/flight.convert.log")"
llvm-xray account -k -m "$out.map" "$out" >"$dir/flight.account.txt" 2>"$dir/flight.account.log"
ok $? "flight: llvm-xray account -k accepts it" "$(tail -n 5 "$dir/flight.account.log")"

# The markers in order, the panic message last on its CPU.
python3 "$top/scripts/check/crash-events.py" "$dir/flight.yaml" \
	'tracebuf: panic: sysrq triggered crash' \
	'crash-check marker 1' 'crash-check marker 2' 'crash-check marker 3' \
	'crash-check marker 4' 'crash-check marker 5' 'crash-check last marker' \
	>"$dir/flight.check.txt" 2>&1
grep -q EVENTS_OK "$dir/flight.check.txt"
ok $? "flight: the markers are there, in order" "$(cat "$dir/flight.check.txt")"
grep -q PANIC_OK "$dir/flight.check.txt"
ok $? "flight: the panic message is the last event on its CPU" "$(cat "$dir/flight.check.txt")"
# The calls missed before the panic, reported in the recovered stream.
lost=$(grep -o 'tracebuf: lost [0-9]* events' "$dir/flight.yaml" |
	awk '{ n += $3 } END { print n + 0 }')
[ "$lost" -ge 6 ]
ok $? "flight: the 6 pipe_read calls missed before the panic are reported ($lost lost)" \
	"$(grep -c pipe_read "$out.names" 2>/dev/null) pipe_read names; $(tail -n 3 "$dir/flight.console.log")"

# expect_refused NAME PATTERN: tracebuf crash says why and exits 1.
expect_refused() {
	"$top/build/userspace/tracebuf" crash "$dir/$1.core" -o "$dir/$1.fdr" \
		>"$dir/$1.crash.log" 2>&1
	local rc=$?
	rm -f "$dir/$1.core"
	[ $rc = 1 ] && grep -q "$2" "$dir/$1.crash.log" && [ ! -e "$dir/$1.fdr" ]
	ok $? "$1: tracebuf crash explains ('$2') and exits 1" \
		"exit $rc: $(cat "$dir/$1.crash.log")"
}

# 2. A capture that was stopped before the crash.
crash_vm stopped -- sh -c "tracebuf record --start --mode flight -e syscall,marker &&
	$markers && tracebuf record --stop >/dev/null && echo c >/proc/sysrq-trigger"
expect_refused stopped "the recorder was stopped before the crash"

# 3. The module loaded, never started.
crash_vm idle -- sh -c "echo c >/proc/sysrq-trigger"
expect_refused idle "the recorder was never started"

# 4. A kernel that never ran the module.
crash_vm nomodule -n -- sh -c "echo c >/proc/sysrq-trigger"
expect_refused nomodule "no tracebuf crash descriptor in the image"

# 5. An oops that panics (oops=panic) while the trigger daemon waits for
# one, freezing at once (--post-events 0): the marker before it, the
# trigger's reason and the panic message after it are recovered.
crash_vm oopspanic -E 'Fatal exception' -R 'BUG: kernel NULL pointer dereference' \
	-- sh -c "insmod /lib/tracebuf-test/tb_provoke.ko || exit 1
	tracebuf record --trigger oops --post-events 0 -e syscall,marker \
		-o /tmp/t.fdr >/tmp/rec.log 2>&1 &
	i=0
	while ! grep -q 'waiting for a trigger' /tmp/rec.log; do
		i=\$((i + 1)); [ \$i -gt 600 ] && exit 1; sleep 0.1
	done
	echo 'crash-check oops marker' >/dev/tracebuf_fdr &&
	echo oops >/dev/tb_provoke"
out=$dir/oopspanic.fdr
"$tb" crash "$dir/oopspanic.core" -o "$out" >"$dir/oopspanic.crash.log" 2>&1
ok $? "oopspanic: tracebuf crash recovers the trace" "$(cat "$dir/oopspanic.crash.log")"
rm -f "$dir/oopspanic.core"
llvm-xray convert -f yaml -m "$out.map" -y "$out" -o "$dir/oopspanic.yaml" \
	2>"$dir/oopspanic.convert.log"
ok $? "oopspanic: llvm-xray convert accepts it" "$(cat "$dir/oopspanic.convert.log")"
python3 "$top/scripts/check/crash-events.py" "$dir/oopspanic.yaml" \
	'tracebuf: panic: Fatal exception' \
	'crash-check oops marker' 'tracebuf trigger: oops: ' \
	>"$dir/oopspanic.check.txt" 2>&1
grep -q EVENTS_OK "$dir/oopspanic.check.txt" && grep -q PANIC_OK "$dir/oopspanic.check.txt"
ok $? "oopspanic: the marker, the trigger's reason, then the panic message, last on its CPU" \
	"$(cat "$dir/oopspanic.check.txt")"

[ $fails = 0 ]
