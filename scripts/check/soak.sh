#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh: `make soak`.  SOAK_SECS seconds of mixed tracing on both devices
# in the VM (scripts/check/soak-guest.sh), then a report of the module's memory
# and the tools' RSS, and a failure if either grew.  See --help.

set -u

prog=soak.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

secs=${SOAK_SECS:-600}
warm=${SOAK_WARMUP:-60}
# What "flat" allows (kB): the end sample against the start sample, both
# taken with everything stopped, caches dropped and vmstat refreshed.
tol_slab=${SOAK_TOL_SLAB:-1024}
tol_vmalloc=${SOAK_TOL_VMALLOC:-1024}
tol_percpu=${SOAK_TOL_PERCPU:-256}
tol_rss=${SOAK_TOL_RSS:-128}
out="$top/build/soak"

usage() {
	cat <<EOF
Usage: $prog [-h]

Boot the VM (build/vmroot, 'make stage') and run scripts/check/soak-guest.sh: a
warm-up round of SOAK_WARMUP s (default $warm), then a round of SOAK_SECS
s (default $secs), of the same load: FDR flight capture with snapshot reads
and tbconv conversions, the XScale device with the kernel feed, chained
capture, injected events, snapshots and tbdecode/tbconv conversions, and
tb-workload.  Everything is stopped after each round and the kernel's
memory sampled in that quiet state.

Flat means, end sample against start sample (after the warm-up):
  * the module's vmalloc areas (/proc/vmallocinfo, [tracebuf]): not larger;
  * SUnreclaim (unreclaimable slab) and VmallocUsed from /proc/meminfo: at
    most SOAK_TOL_SLAB / SOAK_TOL_VMALLOC kB more (default $tol_slab / $tol_vmalloc);
  * Percpu: at most SOAK_TOL_PERCPU kB more (default $tol_percpu);
  * VmRSS of the long-running tools (tracebuf-record, tracebufctl chain),
    sampled every 10 s in the soak round: the last sample at most
    SOAK_TOL_RSS kB (default $tol_rss) above the first;
and every tool run exited 0.  The report is build/soak/report.txt.
EOF
}

case "${1:-}" in
-h|--help) usage; exit 0 ;;
"") ;;
*) echo "$prog: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac
case "$secs$warm" in
*[!0-9]*) echo "$prog: SOAK_SECS and SOAK_WARMUP take whole seconds" >&2; exit 2 ;;
esac

rm -rf "$out"
mkdir -p "$out"
guest="$top/build/soak-guest.sh"
{
	echo "SOAK_SECS=$secs"
	echo "SOAK_WARMUP=$warm"
	cat "$top/scripts/check/soak-guest.sh"
} >"$guest"

# Twice the load (the rounds overrun by a conversion or two) plus boot.
scripts/vm/vm-run -q -t $(( 2 * (secs + warm) + 300 )) -w "$top/build/vm-soak" -o "$out" -s "$guest"
rc=$?
if [ $rc != 0 ] || [ ! -s "$out/soak/mem.txt" ]; then
	echo "$prog: the guest run failed (vm-run exit $rc); see build/vm-soak/" >&2
	tail -n 20 "$top/build/vm-soak/output.log" >&2
	exit 1
fi

d="$out/soak"
fail=0
{
	echo "soak: ${secs}s after a ${warm}s warm-up, $(date -u +%Y-%m-%d), kernel $(scripts/build/kver.sh)"
	echo
	echo "Kernel memory, kB (quiet state: boot, after warm-up = start, end;"
	echo "'running' rows are taken under load, for the trend only):"
	printf '  %-16s %8s %10s %11s %7s %17s\n' sample Slab SUnreclaim VmallocUsed Percpu tracebuf-vmalloc
	awk '{ printf "  %-16s %8d %10d %11d %7d %17d\n", $2, $3, $4, $5, $6, $7 }' "$d/mem.txt"
} >"$out/report.txt"

read -r _ _ _ s_unr s_vm s_pcpu s_tb <<<"$(grep ' start ' "$d/mem.txt")"
read -r _ _ _ e_unr e_vm e_pcpu e_tb <<<"$(grep ' end ' "$d/mem.txt")"
check() {	# NAME START END TOLERANCE
	local verdict=flat
	if [ "$3" -gt $(( $2 + $4 )) ]; then
		verdict="GROWN"
		fail=1
	fi
	printf '  %-38s start %6d  end %6d  (%+d, allowed +%d)  %s\n' \
		"$1" "$2" "$3" $(( $3 - $2 )) "$4" "$verdict" >>"$out/report.txt"
}
echo >>"$out/report.txt"
echo "Flat checks (kB):" >>"$out/report.txt"
check "tracebuf vmalloc" "$s_tb" "$e_tb" 0
check "SUnreclaim" "$s_unr" "$e_unr" "$tol_slab"
check "VmallocUsed" "$s_vm" "$e_vm" "$tol_vmalloc"
check "Percpu" "$s_pcpu" "$e_pcpu" "$tol_percpu"
for tool in tracebuf-record tracebufctl-chain; do
	samples=$(awk -v t="$tool" '$2 == "soak" && $3 == t { print $4 }' "$d/rss.txt")
	n=$(echo "$samples" | grep -c .)
	if [ "$n" -lt 2 ]; then
		echo "  VmRSS $tool: only $n sample(s)  FAILED" >>"$out/report.txt"
		fail=1
		continue
	fi
	check "VmRSS $tool ($n samples)" "$(echo "$samples" | head -n 1)" \
		"$(echo "$samples" | tail -n 1)" "$tol_rss"
	echo "    samples: $(echo $samples)" >>"$out/report.txt"
done

{
	echo
	echo "Short-lived tool runs (peak RSS kB, soak round):"
	awk '$2 == "soak" && $4 > 0 {
		n[$3]++; if (!($3 in lo) || $4 < lo[$3]) lo[$3] = $4; if ($4 > hi[$3]) hi[$3] = $4
		if (n[$3] == 1) first[$3] = $4; last[$3] = $4
	} END { for (t in n) printf "  %-22s %5d runs  peak RSS %6d..%-6d first %6d last %6d\n", t, n[t], lo[t], hi[t], first[t], last[t] }' \
		"$d/runs.txt" | sort
	bad=$(awk '$5 != 0' "$d/runs.txt")
	echo
	if [ -n "$bad" ]; then
		echo "Failed runs (T ROUND TOOL RSS EXIT):"
		echo "$bad" | sed 's/^/  /'
	else
		echo "All $(wc -l <"$d/runs.txt") tool runs exited 0."
	fi
} >>"$out/report.txt"
[ -n "$(awk '$5 != 0' "$d/runs.txt")" ] && fail=1

cat "$out/report.txt"
if [ $fail != 0 ]; then
	echo "$prog: FAILED (see $out/report.txt)"
	exit 1
fi
echo "$prog: flat"
