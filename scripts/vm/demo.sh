#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: boot Debian's kernel in qemu with tracebuf loaded, capture
# traces from both devices, and bring the converted files back to
# build/demo/ on the host.  Grows with the features.
#
# The guest's whole output (its narrative, and the serial port the FDR
# workload writes to for its IRQs) goes to build/demo/guest.log; the
# screen shows the results, ending with what llvm-xray and tracebuf
# report make of the trace.

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out="$top/build/demo"
rm -rf "$out"
mkdir -p "$out"

cat >"$top/build/demo-guest.sh" <<'GUEST'
set -e
echo "== module and devices"
grep tracebuf /proc/modules
ls -l /dev/tracebuf*

echo "== /dev/tracebuf: kernel events into the emulated XScale trace buffer"
tracebuf ctl disable
tracebuf ctl mode wrap
tracebuf ctl clear
tracebuf ctl sources syscall,irq,fault,ret-user,switch --cpu all
tracebuf ctl enable
# Workload: syscalls, page faults, context switches, serial IRQs.
i=0
while [ $i -lt 200 ]; do
	cat /proc/self/stat >/dev/null
	i=$((i + 1))
done
ls -R /sys/kernel >/dev/null 2>&1 || true
echo "workload done"
tracebuf ctl disable
tracebuf ctl status
tracebuf ctl chkpt
# The record (header + buffer) first, then the raw buffer (reading clears).
tracebuf ctl snapshot /out/tracebuf-kernel.rec
tracebuf ctl read /out/tracebuf-kernel.raw
echo "raw buffer, oldest byte first:"
hexdump -C /out/tracebuf-kernel.raw

echo "== /dev/tracebuf: injected events (text form)"
printf '%s\n' '# exception, branches, roll-overs' 'exc swi 3' 'br 0x8000 2' \
	'ind 0x12345678 17' 'exc irq 0' 'br 0x8010 40' >/out/tracebuf-events.txt
cat /out/tracebuf-events.txt
tracebuf ctl sources none	# else our own syscalls land in the buffer too
tracebuf ctl clear
tracebuf ctl enable
tracebuf ctl inject /out/tracebuf-events.txt
tracebuf ctl disable
tracebuf ctl snapshot --clear /out/tracebuf-injected.rec
hexdump -C /out/tracebuf-injected.rec | tail -n 3

echo "== /dev/tracebuf: chained fill-once capture of 5 buffers"
tracebuf ctl sources syscall,ret-user --cpu all
( i=0; while [ $i -lt 300 ]; do cat /proc/self/stat >/dev/null; i=$((i + 1)); done ) &
tracebuf ctl chain --count 5 --depth 16 /out/tracebuf-chain.rec 2>/out/tracebuf-chain.log
cat /out/tracebuf-chain.log
wait
tracebuf ctl sources none
tracebuf ctl mode wrap
ls -l /out/tracebuf-*

if command -v tracebuf >/dev/null 2>&1; then
	echo "== /dev/tracebuf: decoded with tracebuf decode"
	for f in kernel injected chain; do
		tracebuf decode /out/tracebuf-$f.rec >/out/tracebuf-$f.txt ||
			echo "tracebuf decode $f: exit $?"
	done
	tracebuf decode -s 256 /out/tracebuf-kernel.raw >/out/tracebuf-kernel-raw.txt ||
		echo "tracebuf decode raw: exit $?"
	cat /out/tracebuf-injected.txt
	echo "(kernel trace, first lines)"
	head -n 15 /out/tracebuf-kernel.txt
fi
GUEST

# ---- FDR section: record a short workload with /dev/tracebuf_fdr.
cat >>"$top/build/demo-guest.sh" <<'GUEST'
echo "== fdr: tracebuf record of a syscall/IRQ/context-switch workload"
mkdir -p /out/fdr
tracebuf record -J -o /out/fdr/trace.fdr -e syscall,irq,softirq,sched,fault -- \
	/selftests/fdr_workload 1000 2>/out/fdr/record.log
cat /out/fdr/record.log
GUEST
# ---- end of FDR section

log="$top/build/demo-guest.log"
echo "demo: capturing in the VM (its whole output: build/demo/guest.log)"
rc=0
scripts/vm/vm-run -o "$out" -s "$top/build/demo-guest.sh" >"$log" 2>&1 || rc=$?
mv "$log" "$out/guest.log"
if [ $rc != 0 ]; then
	tail -n 30 "$out/guest.log"
	echo "demo: the VM failed (exit $rc); build/demo/guest.log has all of it" >&2
	exit $rc
fi

# ---- XScale section (host): what the guest decoded.
if [ -s "$out/tracebuf-injected.txt" ]; then
	echo "== /dev/tracebuf: XScale trace buffer captures (build/demo/tracebuf-*)"
	echo "   kernel events: $(head -n 1 "$out/tracebuf-kernel.txt" | sed 's/^# //')"
	echo "                  $(tail -n 1 "$out/tracebuf-kernel.txt" | sed 's/^# //')"
	echo "   chained capture: $(sed 's/^tracebuf ctl: //' "$out/tracebuf-chain.log")"
	echo "   injected events (tracebuf-events.txt), as tracebuf decode reads them back:"
	sed 's/^/   /' "$out/tracebuf-injected.txt"
fi
# ---- end of XScale section (host)

# ---- FDR section (host): the real readers, then our own summary.
if [ -s "$out/fdr/trace.fdr" ]; then
	tb="$top/build/userspace/tracebuf"
	echo "== /dev/tracebuf_fdr: tracebuf record of a syscall/IRQ/context-switch workload"
	sed 's/^/   /' "$out/fdr/record.log"
	echo "== fdr: files: $(cd "$out/fdr" && echo *)"
	echo "== fdr: trace.fdr.json is trace_event JSON for Perfetto / speedscope;"
	echo "   gdb -batch -ex 'target tfile $out/fdr/trace.fdr.tfile' -ex tstatus"
	gdb -batch -nx -ex "target tfile $out/fdr/trace.fdr.tfile" -ex tstatus 2>&1 |
		grep -E 'Collected|frames' | sed 's/^/   /'
	echo "== fdr: llvm-xray account -m trace.fdr.map trace.fdr (the 5 busiest)"
	llvm-xray account -m "$out/fdr/trace.fdr.map" -s sum -r dsc -top 5 \
		"$out/fdr/trace.fdr" 2>&1 || echo "llvm-xray account: exit $?"
	echo "== fdr: tracebuf report trace.fdr (names and tasks from its companions)"
	"$tb" report --hist 1 --top 5 "$out/fdr/trace.fdr" ||
		echo "tracebuf report: exit $?"
fi
# ---- end of FDR section (host)
echo "demo: results in $out"
