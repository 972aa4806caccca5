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
GUEST

# ---- FDR section: record a short workload with /dev/tracebuf_fdr.
cat >>"$top/build/demo-guest.sh" <<'GUEST'
echo "== fdr: tracebuf-record of a syscall/IRQ/context-switch workload"
mkdir -p /out/fdr
tracebuf-record -o /out/fdr/trace.fdr -e syscall,irq,softirq,sched,fault -- \
	/selftests/fdr_workload 1000
GUEST
# ---- end of FDR section

scripts/vm-run -o "$out" -s "$top/build/demo-guest.sh"

# ---- FDR section (host): account of the syscalls with the real llvm-xray.
if [ -s "$out/fdr/trace.fdr" ]; then
	llvm-xray convert -f trace_event "$out/fdr/trace.fdr" -o "$out/fdr/trace.json" &&
		echo "== fdr: $out/fdr/trace.json (trace_event, for Perfetto / chrome://tracing)"
	echo "== fdr: llvm-xray account (ids: see $out/fdr/trace.fdr.names)"
	llvm-xray account -k -s sum -r dsc -top 15 "$out/fdr/trace.fdr" 2>/dev/null |
		awk -v names="$out/fdr/trace.fdr.names" '
			BEGIN { while ((getline l < names) > 0) { split(l, f, " "); n[f[1]] = f[2] " " f[3] } }
			$1 ~ /^[0-9]+$/ { h = sprintf("%x", $1); print $0 "  " (h in n ? n[h] : "") ; next }
			{ print }'
fi
# ---- end of FDR section (host)
echo "demo: results in $out"
