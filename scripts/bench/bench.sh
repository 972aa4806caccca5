#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot the VM once and measure every tracing configuration side
# by side (scripts/bench/bench-guest.sh), then the converters on the host
# (scripts/bench/bench-convert.sh, when present), and count the readers'
# instructions in a second boot (scripts/bench/insn-reader).  Prints a table and
# writes build/bench/results.json.  Timings are never asserted anywhere: this is
# the only place they are taken.
#
# Environment: REPS, GETPPID_N, PINGPONG_N, SERIAL_KIB, WORKLOADS, CONFIGS (see
# bench-guest.sh),
# BENCH_TIMEOUT (seconds for the VM, default 1800), BENCH_DISK_MB (the
# guest's ext4 disk for the collectors' output, default 1024),
# BENCH_READER_INSN (0: skip scripts/bench/insn-reader afterwards).

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out="$top/build/bench"
rm -rf "$out/vm"
mkdir -p "$out/vm"

{
	echo "#!/bin/sh"
	for v in REPS GETPPID_N PINGPONG_N SERIAL_KIB WORKLOADS CONFIGS; do
		eval "val=\${$v:-}"
		[ -n "$val" ] && echo "export $v='$val'"
	done
	cat scripts/bench/bench-guest.sh
} >"$out/guest.sh"

# The guest tree with the peers, LTTng and perf (built lazily: not in CI).
root=$(scripts/bench/bench-root.sh)
# A disk for the collectors' output: tmpfs has no O_DIRECT.
scripts/vm/vm-run -t "${BENCH_TIMEOUT:-1800}" -D "${BENCH_DISK_MB:-1024}" \
	-r "$root" -o "$out/vm" -s "$out/guest.sh"

convert_json=""
if [ -x scripts/bench/bench-convert.sh ]; then
	scripts/bench/bench-convert.sh
	convert_json="$out/convert.json"
fi

python3 scripts/bench/bench-report.py "$out/vm/bench.jsonl" "$out/results.json" $convert_json

# The readers in instructions (a second boot, with the counting plugin):
# TCG's clock charges a reader's wake-ups more than its work.
if [ "${BENCH_READER_INSN:-1}" != 0 ]; then
	echo
	scripts/bench/insn-reader -r "${REPS:-5}" -n "${GETPPID_N:-200000}"
fi
