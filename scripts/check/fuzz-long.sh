#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz-long.sh: run every libFuzzer target of userspace/fuzz (ASan + UBSan)
# for FUZZ_RUNS executions or FUZZ_SECS seconds each, whichever comes
# first, seeded with the committed corpus, then merge the inputs that add
# coverage back into userspace/tests/data/corpus/<dir>/.  See --help.

set -u

prog=fuzz-long.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

runs=${FUZZ_RUNS:-10000000}
secs=${FUZZ_SECS:-600}
max_len=${FUZZ_MAX_LEN:-8192}
nice_level=${FUZZ_NICE:-10}
out="$top/build/fuzz-long"
corpus_top="$top/userspace/tests/data/corpus"
merge=1

usage() {
	cat <<EOF
Usage: $prog [--no-merge] [TARGET...]

Build the libFuzzer targets of userspace/fuzz (clang, -fsanitize=fuzzer,
address,undefined) into build/userspace-fuzz, and run each TARGET (default:
all) for FUZZ_RUNS executions (default $runs) or FUZZ_SECS seconds (default
$secs), whichever comes first, at nice $nice_level.  Each run starts from a
copy of the committed corpus; inputs that add coverage are then merged into
userspace/tests/data/corpus/DIR (libFuzzer -merge=1, new edges only) as
fuzz-SHA1 files.
Crash, leak, timeout and out-of-memory inputs land in build/fuzz-long/TARGET/.

Options:
  --no-merge   leave the committed corpus alone
  -h, --help   this text

Environment: FUZZ_RUNS, FUZZ_SECS, FUZZ_MAX_LEN (largest input, default
$max_len bytes), FUZZ_NICE.  Exit status 1 if any target found a crash.
EOF
}

die() {
	echo "$prog: $*" >&2
	exit 1
}

targets=""
while [ $# -gt 0 ]; do
	case "$1" in
	--no-merge)	merge=0; shift ;;
	-h|--help)	usage; exit 0 ;;
	-*)		echo "$prog: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	*)		targets="$targets $1"; shift ;;
	esac
done

case "$runs$secs$max_len" in
*[!0-9]*) die "FUZZ_RUNS, FUZZ_SECS and FUZZ_MAX_LEN take whole numbers" ;;
esac

# Target -> corpus directory (the one corpus_test.c sweeps with the same
# parser).
corpus_dir() {
	case "$1" in
	fdr_reader_fuzz)	echo fdr ;;
	fdr_post_fuzz)		echo fdr ;;
	fdr_script_fuzz)	echo fdr ;;
	fdr_meta_fuzz)		echo fdr ;;
	tfile_reader_fuzz)	echo tfile ;;
	xscale_fuzz)		echo xscale ;;
	name_map_fuzz)		echo names ;;
	crash_image_fuzz)	echo crash ;;
	*)			return 1 ;;
	esac
}

# The largest input of a target: a memory image needs three pages at least
# (crash_image_test's smallest_image).
target_max_len() {
	case "$1" in
	crash_image_fuzz)	[ "$max_len" -ge 16384 ] && echo "$max_len" || echo 16384 ;;
	*)			echo "$max_len" ;;
	esac
}

[ -n "$targets" ] || targets=$(cd userspace/fuzz && ls ./*_fuzz.c | sed 's|^\./||; s/\.c$//')
for t in $targets; do
	corpus_dir "$t" >/dev/null || die "no corpus directory known for '$t' (add it to corpus_dir())"
done

echo "$prog: building the fuzz targets" >&2
make -s -C userspace O="$top/build/userspace-fuzz" fuzz >&2 || die "fuzz build failed"

mkdir -p "$out"
report="$out/report.txt"
: >"$report"
crashes=0
for t in $targets; do
	dir=$(corpus_dir "$t")
	bin="$top/build/userspace-fuzz/fuzz/$t"
	work="$out/$t"
	rm -rf "$work"
	mkdir -p "$work/corpus"
	cp "$corpus_top/$dir"/* "$work/corpus/"
	before=$(ls "$corpus_top/$dir" | wc -l)
	bytes_before=$(cat "$corpus_top/$dir"/* | wc -c)

	echo "$prog: $t: up to $runs runs or ${secs}s (log: $work/fuzz.log)" >&2
	start=$(date +%s)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		nice -n "$nice_level" "$bin" -runs="$runs" -max_total_time="$secs" \
		-max_len="$(target_max_len "$t")" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/" "$work/corpus" >"$work/fuzz.log" 2>&1
	rc=$?
	elapsed=$(( $(date +%s) - start ))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -n 1)
	cov=$(grep -oE 'cov: [0-9]+' "$work/fuzz.log" | tail -n 1 | cut -d' ' -f2)
	found=$(ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' || true)
	status=ok
	if [ $rc != 0 ] || [ -n "$found" ]; then
		status="FAILED (exit $rc): $(echo $found)"
		crashes=$((crashes + 1))
		grep -E 'ERROR|runtime error|SUMMARY' "$work/fuzz.log" | head -n 5 >&2
	fi

	added=0
	if [ $merge = 1 ]; then
		# Only inputs that reach edges the committed corpus does not
		# are copied in (-use_counters=0: hit counts do not count as
		# new, or every run would add dozens of files); libFuzzer
		# names them by their SHA-1.
		ls "$corpus_top/$dir" >"$work/old-names"
		"$bin" -merge=1 -use_counters=0 -max_len="$(target_max_len "$t")" "$corpus_top/$dir" "$work/corpus" \
			>"$work/merge.log" 2>&1 || die "$t: merge failed; see $work/merge.log"
		for f in "$corpus_top/$dir"/*; do
			name=$(basename "$f")
			grep -qxF "$name" "$work/old-names" && continue
			mv "$f" "$corpus_top/$dir/fuzz-$name"
			added=$((added + 1))
		done
	fi
	after=$(ls "$corpus_top/$dir" | wc -l)
	bytes_after=$(cat "$corpus_top/$dir"/* | wc -c)
	printf '%-18s %10s execs in %4ss  cov %-5s  corpus %s: %d -> %d files (+%d), %d -> %d bytes  %s\n' \
		"$t" "${execs:-?}" "$elapsed" "${cov:-?}" "$dir" "$before" "$after" "$added" \
		"$bytes_before" "$bytes_after" "$status" | tee -a "$report"
done

echo "$prog: report in $report" >&2
if [ $crashes != 0 ]; then
	echo "$prog: $crashes target(s) found a crash; inputs in $out/TARGET/" >&2
	exit 1
fi
