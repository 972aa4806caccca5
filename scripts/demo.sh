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

scripts/vm-run -o "$out" -s "$top/build/demo-guest.sh"
echo "demo: results in $out"
