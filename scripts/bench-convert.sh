#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Converter speed: generate a compiler-rt XRay FDR trace of about 25 MB
# (userspace/tests/data/xray_prog.c, 4 threads) and time
#   llvm-xray convert -f yaml   (the reference)
#   llvm-xray fdr-dump
#   tbconv fdr-text
#   tbconv fdr-tfile
#   llvm-xray account -k        against   tracebuf report (-k: compiler-rt
# starts threads inside calls, which account refuses without it)
#   llvm-xray convert -f yaml   against   tracebuf script (every event a
# line, in time order)
# (time and peak memory, /usr/bin/time's maximum resident set).
# Every output goes to /dev/null, so the numbers are conversion cost, not
# disk speed (the tfile is about 12 times the size of the trace).
# Each is run RUNS times (default 5); the median wall time is reported,
# with the speed-up of ours over `llvm-xray convert -f yaml`.  Prints a
# table and writes build/bench/convert.json.  Needs `make userspace`.
#
# Usage: scripts/bench-convert.sh [--runs N] [--iterations N]

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-5}
iters=130000
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--iterations) iters=$2; shift 2 ;;
	*) echo "usage: $0 [--runs N] [--iterations N]" >&2; exit 2 ;;
	esac
done

tbconv=$top/build/userspace/tbconv
tracebuf=$top/build/userspace/tracebuf
out=$top/build/bench
[ -x "$tbconv" ] || { echo "build first: make userspace" >&2; exit 1; }
for t in clang llvm-xray; do
	command -v $t >/dev/null || { echo "$t not installed" >&2; exit 1; }
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

clang -O1 -fxray-instrument -fxray-modes=xray-fdr \
	-fxray-instruction-threshold=1 -pthread \
	-o "$work/prog" "$top/userspace/tests/data/xray_prog.c"
(cd "$work" && XRAY_OPTIONS="xray_mode=xray-fdr xray_logfile_base=$work/trace-" \
	./prog "$iters" 4 \
	"buffer_size=1048576:buffer_max=24:func_duration_threshold_us=0" \
	2>/dev/null)
trace=$(ls "$work"/trace-* | head -1)
size=$(stat -c %s "$trace")
echo "trace: $size bytes, $("$tbconv" fdr-text "$trace" | grep -c Function) function records"

# median_time CMD...: median wall seconds of $runs runs, output discarded.
median_time() {
	local i times=() s e
	for ((i = 0; i < runs; i++)); do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
		e=$(date +%s.%N)
		times+=("$(echo "$e - $s" | bc -l)")
	done
	printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 }
		END { printf "%.4f\n", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

yaml=$(median_time llvm-xray convert -f yaml -o /dev/null "$trace")
dump=$(median_time llvm-xray fdr-dump "$trace")
text=$(median_time "$tbconv" fdr-text "$trace" /dev/null)
tfile=$(median_time "$tbconv" fdr-tfile "$trace" /dev/null)
account=$(median_time llvm-xray account -k "$trace")
report=$(median_time "$tracebuf" report "$trace")
script=$(median_time "$tracebuf" script -o /dev/null "$trace")
# peak_kb CMD...: the maximum resident set of one run, in KiB.
peak_kb() {
	/usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 ||
		{ echo "failed: $*" >&2; exit 1; }
	cat "$work/rss"
}
account_kb=$(peak_kb llvm-xray account -k "$trace")
report_kb=$(peak_kb "$tracebuf" report "$trace")
yaml_kb=$(peak_kb llvm-xray convert -f yaml -o /dev/null "$trace")
script_kb=$(peak_kb "$tracebuf" script -o /dev/null "$trace")
"$tbconv" fdr-tfile "$trace" "$work/out.tf"
tfsize=$(stat -c %s "$work/out.tf")

ratio() { echo "scale=1; $1 / $2" | bc -l; }
printf '%-32s %10s %10s\n' "command" "median s" "speed-up"
printf '%-32s %10s %10s\n' "llvm-xray convert -f yaml" "$yaml" "1.0"
printf '%-32s %10s %10s\n' "llvm-xray fdr-dump" "$dump" "$(ratio "$yaml" "$dump")"
printf '%-32s %10s %10s\n' "tbconv fdr-text" "$text" "$(ratio "$yaml" "$text")"
printf '%-32s %10s %10s\n' "tbconv fdr-tfile" "$tfile" "$(ratio "$yaml" "$tfile")"
printf '\n%-32s %10s %10s %12s\n' "summary" "median s" "speed-up" "peak KiB"
printf '%-32s %10s %10s %12s\n' "llvm-xray account -k" "$account" "1.0" "$account_kb"
printf '%-32s %10s %10s %12s\n' "tracebuf report" "$report" \
	"$(ratio "$account" "$report")" "$report_kb"
printf '\n%-32s %10s %10s %12s\n' "listing" "median s" "speed-up" "peak KiB"
printf '%-32s %10s %10s %12s\n' "llvm-xray convert -f yaml" "$yaml" "1.0" "$yaml_kb"
printf '%-32s %10s %10s %12s\n' "tracebuf script" "$script" \
	"$(ratio "$yaml" "$script")" "$script_kb"

cat >"$out/convert.json" <<JSON
{
  "trace_bytes": $size,
  "runs": $runs,
  "median_seconds": {
    "llvm_xray_convert_yaml": $yaml,
    "llvm_xray_fdr_dump": $dump,
    "tbconv_fdr_text": $text,
    "tbconv_fdr_tfile": $tfile,
    "llvm_xray_account": $account,
    "tracebuf_report": $report,
    "tracebuf_script": $script
  },
  "peak_kib": {
    "llvm_xray_account": $account_kb,
    "tracebuf_report": $report_kb,
    "llvm_xray_convert_yaml": $yaml_kb,
    "tracebuf_script": $script_kb
  },
  "tfile_bytes": $tfsize,
  "speedup_vs_yaml": {
    "tbconv_fdr_text": $(ratio "$yaml" "$text"),
    "tbconv_fdr_tfile": $(ratio "$yaml" "$tfile")
  },
  "report_speedup_vs_account": $(ratio "$account" "$report"),
  "script_speedup_vs_yaml": $(ratio "$yaml" "$script")
}
JSON
echo "wrote $out/convert.json"
