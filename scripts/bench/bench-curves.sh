#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-curves: boot the VM once with the peers' tree
# (scripts/bench/bench-root.sh) and run scripts/bench/bench-curves-guest.sh (cost and
# loss against event rate, kernel-function cost against the number of
# functions selected, memory against buffer size), then add the runs up
# and plot them (scripts/bench/bench-curves.py, gnuplot) into
# Documentation/perf-data/: the data (.dat, and curves.jsonl, every run)
# and the SVGs that Documentation/performance.rst shows.  Never part of a
# test.  CURVES="memory" (say) measures that curve alone and replaces its
# runs in curves.jsonl, keeping the other curves'.
#
# Environment: CURVES, REPS, RATES, RATE_SECS, KF_COUNTS, KF_OPS, SIZES
# (see bench-curves-guest.sh), BENCH_TIMEOUT (default 1200: the VM lock is
# everyone's; REPS=3 of every curve took 17 minutes), BENCH_DISK_MB
# (default 1024), CURVES_OUT (default Documentation/perf-data).

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out="$top/build/bench-curves"
dest=${CURVES_OUT:-$top/Documentation/perf-data}
rm -rf "$out"
mkdir -p "$out/vm" "$dest"

# A copy of the peers' tree with the rate workload: scripts/bench/insn-profile and
# make bench rebuild build/bench/root.
cp -a "$(scripts/bench/bench-root.sh)" "$out/root"
gcc -O2 -Wall -static -o "$out/root/usr/bin/bench-rate" scripts/bench/bench-rate.c

{
	echo "#!/bin/sh"
	for v in CURVES REPS RATES RATE_SECS KF_COUNTS KF_OPS SIZES; do
		eval "val=\${$v:-}"
		[ -n "$val" ] && echo "export $v='$val'"
	done
	cat scripts/bench/bench-curves-guest.sh
} >"$out/guest.sh"

scripts/vm/vm-run -t "${BENCH_TIMEOUT:-1200}" -D "${BENCH_DISK_MB:-1024}" \
	-r "$out/root" -w "$out/work" -o "$out/vm" -s "$out/guest.sh"

# With CURVES, the runs of the other curves already in curves.jsonl stay:
# the curves can be measured one VM run at a time.
if [ -n "${CURVES:-}" ] && [ -f "$dest/curves.jsonl" ]; then
	python3 - "$dest/curves.jsonl" "$CURVES" >"$out/kept.jsonl" <<'P'
import json, sys
new = sys.argv[2].split()
for line in open(sys.argv[1]):
    if line.strip() and json.loads(line)["curve"] not in new:
        sys.stdout.write(line)
P
	cat "$out/kept.jsonl" "$out/vm/curves.jsonl" >"$dest/curves.jsonl"
else
	cp "$out/vm/curves.jsonl" "$dest/curves.jsonl"
fi
python3 scripts/bench/bench-curves.py "$dest/curves.jsonl" "$dest"
