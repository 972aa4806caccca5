#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: boot Debian's kernel in qemu with tracebuf loaded, capture
# traces from both devices, and bring the converted files back to
# build/demo/ on the host.  Grows with the features.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
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
tracebuf ctl chain --count 5 --depth 16 /out/tracebuf-chain.rec
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
	/selftests/fdr_workload 1000
GUEST
# ---- end of FDR section

scripts/vm-run -o "$out" -s "$top/build/demo-guest.sh"

# ---- FDR section (host): the real readers, then our own summary.
if [ -s "$out/fdr/trace.fdr" ]; then
	tb="$top/build/userspace/tracebuf"
	echo "== fdr: files: $(cd "$out/fdr" && echo *)"
	echo "== fdr: trace.fdr.json is trace_event JSON for Perfetto / chrome://tracing / speedscope;"
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
