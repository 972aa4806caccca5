#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# crash-check.sh [DIR]: recovery after a crash, for real (TAP).  Boots the
# guest four times with scripts/vm-run --panic, crashing it with
# echo c > /proc/sysrq-trigger: recording in flight mode after markers;
# with the recorder stopped; with it never started; without the module.
# On the host, `tracebuf crash` reads each memory dump: the first must give
# a trace that llvm-xray fdr-dump -verify, convert and account -k accept,
# holding the markers in order and the panic message as the last event of
# its CPU, and the same files from the same memory dumped in qemu's
# kdump-compressed format (zlib, flattened); the others a clear message
# and exit status 1.
# Work files go to DIR (default build/crash-check); the dumps (the guest's
# memory, 256 MiB each) are deleted once read.

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/crash-check}
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
	"$top/scripts/vm-run" -q -m 256 -t 600 -w "$dir/vm-$name" \
		-P "$dir/$name.core" "$@" >"$dir/$name.vm.log" 2>&1
	local rc=$?
	cp "$dir/vm-$name/console.log" "$dir/$name.console.log" 2>/dev/null
	ok $rc "$name: the guest panicked as expected and its memory was dumped" \
		"$(tail -n 20 "$dir/$name.vm.log")"
}

rm -rf "$dir"
mkdir -p "$dir"
echo "TAP version 13"
echo "1..17"

# 1. Recording in flight mode: markers, then the crash.
markers='for i in 1 2 3 4 5; do echo "crash-check marker $i" >/dev/tracebuf_fdr; done'
crash_vm flight -Z "$dir/flight.kdump" -- sh -c "tracebuf record --start -m flight -s 256K -e syscall,irq,softirq,marker &&
	$markers && ls -R /lib >/dev/null &&
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
llvm-xray fdr-dump -verify "$out" >"$dir/flight.dump.txt" 2>&1
ok $? "flight: llvm-xray fdr-dump -verify accepts it" "$(tail -n 5 "$dir/flight.dump.txt")"
llvm-xray convert -f yaml -m "$out.map" -y "$out" -o "$dir/flight.yaml" 2>"$dir/flight.convert.log"
ok $? "flight: llvm-xray convert accepts it" "$(cat "$dir/flight.convert.log")"
llvm-xray account -k -m "$out.map" "$out" >"$dir/flight.account.txt" 2>"$dir/flight.account.log"
ok $? "flight: llvm-xray account -k accepts it" "$(tail -n 5 "$dir/flight.account.log")"

# The custom events in time order per CPU (yaml records of one thread are
# in time order; sort all by tsc).
python3 - "$dir/flight.yaml" >"$dir/flight.check.txt" 2>&1 <<'EOF'
import re
import sys

recs = []
for line in open(sys.argv[1]):
    m = re.search(r'cpu: (\d+),.*kind: ([a-z-]+), tsc: (\d+), data: (.*) }$', line)
    if m:
        recs.append((int(m.group(3)), int(m.group(1)), m.group(2), m.group(4)))
recs.sort()
markers = [r[3].strip('"').replace('\\n', '') for r in recs
           if r[2] == 'custom-event' and 'crash-check' in r[3]]
want = ['crash-check marker %d' % i for i in range(1, 6)] + ['crash-check last marker']
print('markers: %s' % markers)
print('MARKERS_OK' if markers == want else 'MARKERS_BAD')
panic = [r for r in recs if r[2] == 'custom-event' and 'tracebuf: panic: sysrq triggered crash' in r[3]]
if len(panic) != 1:
    print('PANIC_BAD: %d panic events' % len(panic))
    sys.exit(0)
cpu = panic[0][1]
last = [r for r in recs if r[1] == cpu][-1]
print('panic on cpu %d at %d; last record of that cpu: %s' % (cpu, panic[0][0], last))
print('PANIC_OK' if last == panic[0] else 'PANIC_BAD')
EOF
grep -q MARKERS_OK "$dir/flight.check.txt"
ok $? "flight: the markers are there, in order" "$(cat "$dir/flight.check.txt")"
grep -q PANIC_OK "$dir/flight.check.txt"
ok $? "flight: the panic message is the last event on its CPU" "$(cat "$dir/flight.check.txt")"

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
crash_vm stopped -- sh -c "tracebuf record --start -m flight -e syscall,marker &&
	$markers && tracebuf record --stop >/dev/null && echo c >/proc/sysrq-trigger"
expect_refused stopped "the recorder was stopped before the crash"

# 3. The module loaded, never started.
crash_vm idle -- sh -c "echo c >/proc/sysrq-trigger"
expect_refused idle "the recorder was never started"

# 4. A kernel that never ran the module.
crash_vm nomodule -n -- sh -c "echo c >/proc/sysrq-trigger"
expect_refused nomodule "no tracebuf crash descriptor in the image"

[ $fails = 0 ]
