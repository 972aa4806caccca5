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
#   tracebuf convert fdr-ctf    against   babeltrace2 -o ctf copying that
# CTF trace, and babeltrace2 printing it as text
#   tracebuf convert fdr-tracedat   against   trace-cmd report reading that
# trace.dat
# (time and peak memory, /usr/bin/time's maximum resident set).  The two
# conversions' peak memory is also measured on a second trace of about a
# quarter of the bytes: it must not grow with the trace (item 4 of issue 42:
# memory bounded by tasks and names), so both figures are printed.
# Every output goes to /dev/null, so the numbers are conversion cost, not
# disk speed (the tfile is about 12 times the size of the trace); the CTF
# directory and the trace.dat cannot be /dev/null, so they go to the
# temporary directory, emptied before each run (not timed).
# Each is run RUNS times (default 5); the median wall time is reported,
# with the speed-up of ours over `llvm-xray convert -f yaml` (in the
# per-CPU formats' rows, the reader's time over our conversion's).  Prints a
# table and writes build/bench/convert.json.  Needs `make userspace`.
#
# Usage: scripts/bench/bench-convert.sh [--runs N] [--iterations N]

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
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
for t in clang llvm-xray babeltrace2 trace-cmd; do
	command -v $t >/dev/null || { echo "$t not installed" >&2; exit 1; }
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

clang -O1 -fxray-instrument -fxray-modes=xray-fdr \
	-fxray-instruction-threshold=1 -pthread \
	-o "$work/prog" "$top/userspace/tests/data/xray_prog.c"
# gen_trace ITERATIONS NAME: the trace of the program at ITERATIONS, as
# $work/NAME.
gen_trace() {
	mkdir "$work/gen"
	(cd "$work/gen" && XRAY_OPTIONS="xray_mode=xray-fdr xray_logfile_base=$work/gen/trace-" \
		"$work/prog" "$1" 4 \
		"buffer_size=1048576:buffer_max=24:func_duration_threshold_us=0" \
		2>/dev/null)
	mv "$(ls "$work"/gen/trace-* | head -1)" "$work/$2"
	rm -rf "$work/gen"
}
gen_trace "$iters" trace.fdr
# an eighth of the iterations is about a quarter of the bytes: the
# 24 buffers of the runtime cap the big trace
gen_trace $((iters / 8)) small.fdr
trace=$work/trace.fdr
small=$work/small.fdr
size=$(stat -c %s "$trace")
echo "trace: $size bytes, $("$tbconv" fdr-text "$trace" | grep -c Function) function records"

# median_time CMD...: median wall seconds of $runs runs, output discarded.
median_time() {
	local i times=() s e
	for ((i = 0; i < runs; i++)); do
		# $before (if set): a command run untimed before each run
		[ -z "${before:-}" ] || eval "$before"
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
# The per-CPU formats: ours written, then the readers on what we wrote.
ctfdir=$work/out.ctf
btdir=$work/bt.ctf
datf=$work/out.dat
ctf=$(before="rm -rf $ctfdir" median_time "$tracebuf" convert fdr-ctf "$trace" "$ctfdir")
tracedat=$(before="rm -f $datf" median_time "$tracebuf" convert fdr-tracedat "$trace" "$datf")
bt_ctf=$(before="rm -rf $btdir" median_time babeltrace2 "$ctfdir" -o ctf -w "$btdir")
bt_text=$(median_time babeltrace2 "$ctfdir")
tc_report=$(median_time trace-cmd report "$datf")
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
rm -rf "$ctfdir" "$btdir"
ctf_kb=$(peak_kb "$tracebuf" convert fdr-ctf "$trace" "$ctfdir")
ctfsize=$(du -sb "$ctfdir" | cut -f1)
bt_ctf_kb=$(peak_kb babeltrace2 "$ctfdir" -o ctf -w "$btdir")
bt_text_kb=$(peak_kb babeltrace2 "$ctfdir")
rm -f "$datf"
tracedat_kb=$(peak_kb "$tracebuf" convert fdr-tracedat "$trace" "$datf")
datsize=$(stat -c %s "$datf")
tc_report_kb=$(peak_kb trace-cmd report "$datf")
rm -rf "$ctfdir" "$btdir" "$datf"
small_size=$(stat -c %s "$small")
small_ctf_kb=$(peak_kb "$tracebuf" convert fdr-ctf "$small" "$ctfdir")
small_tracedat_kb=$(peak_kb "$tracebuf" convert fdr-tracedat "$small" "$datf")
rm -rf "$ctfdir" "$datf"
"$tbconv" fdr-tfile "$trace" "$work/out.tf"
tfsize=$(stat -c %s "$work/out.tf")

# ratio A B: A / B to one decimal, truncated, with its leading 0 (JSON)
ratio() { echo "scale=1; $1 / $2" | bc -l | sed 's/^\./0./'; }
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
printf '\n%-32s %10s %10s %12s\n' "per-CPU formats" "median s" "speed-up" "peak KiB"
printf '%-32s %10s %10s %12s\n' "babeltrace2 -o ctf (our CTF)" "$bt_ctf" "1.0" "$bt_ctf_kb"
printf '%-32s %10s %10s %12s\n' "babeltrace2 text (our CTF)" "$bt_text" \
	"$(ratio "$bt_ctf" "$bt_text")" "$bt_text_kb"
printf '%-32s %10s %10s %12s\n' "tracebuf convert fdr-ctf" "$ctf" \
	"$(ratio "$bt_ctf" "$ctf")" "$ctf_kb"
printf '%-32s %10s %10s %12s\n' "trace-cmd report (our .dat)" "$tc_report" "1.0" "$tc_report_kb"
printf '%-32s %10s %10s %12s\n' "tracebuf convert fdr-tracedat" "$tracedat" \
	"$(ratio "$tc_report" "$tracedat")" "$tracedat_kb"
printf '(CTF %s bytes, trace.dat %s bytes)\n' "$ctfsize" "$datsize"
printf '\n%-32s %14s %14s\n' "peak KiB by trace size" "$small_size B" "$size B"
printf '%-32s %14s %14s\n' "tracebuf convert fdr-ctf" "$small_ctf_kb" "$ctf_kb"
printf '%-32s %14s %14s\n' "tracebuf convert fdr-tracedat" "$small_tracedat_kb" "$tracedat_kb"

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
    "tracebuf_script": $script,
    "tracebuf_convert_fdr_ctf": $ctf,
    "babeltrace2_ctf_copy": $bt_ctf,
    "babeltrace2_text": $bt_text,
    "tracebuf_convert_fdr_tracedat": $tracedat,
    "trace_cmd_report": $tc_report
  },
  "peak_kib": {
    "llvm_xray_account": $account_kb,
    "tracebuf_report": $report_kb,
    "llvm_xray_convert_yaml": $yaml_kb,
    "tracebuf_script": $script_kb,
    "tracebuf_convert_fdr_ctf": $ctf_kb,
    "babeltrace2_ctf_copy": $bt_ctf_kb,
    "babeltrace2_text": $bt_text_kb,
    "tracebuf_convert_fdr_tracedat": $tracedat_kb,
    "trace_cmd_report": $tc_report_kb
  },
  "small_trace_bytes": $small_size,
  "small_peak_kib": {
    "tracebuf_convert_fdr_ctf": $small_ctf_kb,
    "tracebuf_convert_fdr_tracedat": $small_tracedat_kb
  },
  "ctf_bytes": $ctfsize,
  "tracedat_bytes": $datsize,
  "tfile_bytes": $tfsize,
  "speedup_vs_yaml": {
    "tbconv_fdr_text": $(ratio "$yaml" "$text"),
    "tbconv_fdr_tfile": $(ratio "$yaml" "$tfile")
  },
  "report_speedup_vs_account": $(ratio "$account" "$report"),
  "script_speedup_vs_yaml": $(ratio "$yaml" "$script"),
  "ctf_speedup_vs_babeltrace2_copy": $(ratio "$bt_ctf" "$ctf"),
  "tracedat_speedup_vs_trace_cmd_report": $(ratio "$tc_report" "$tracedat")
}
JSON
echo "wrote $out/convert.json"
