#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-root.sh: the guest tree of the peer tracers, build/bench/root:
# build/vmroot (make stage) plus what LTTng and perf need in the guest,
# lttng-modules built for the VM's kernel (scripts/build/lttng-modules.sh,
# cached outside the tree), lttng-sessiond, its consumer daemon, lttng and
# perf from the host's Debian packages (lttng-tools, linux-perf: the same
# 6.1 as the guest's kernel).  scripts/vm/vm-run packs the shared libraries
# of every executable in the tree (ldd), so only the programs are copied.
# Used by make bench, scripts/bench/insn-profile and scripts/bench/bench-curves.sh.
# Prints the tree's path.  Kept apart from build/vmroot, which make stage
# rebuilds, and the selftests' guests never carry the peers.

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
root=$top/build/bench/root

[ -f "$top/build/vmroot/lib/tracebuf/tracebuf.ko" ] ||
	{ echo "bench-root: run 'make stage' first" >&2; exit 126; }
for f in /usr/bin/lttng /usr/bin/lttng-sessiond /usr/bin/perf; do
	[ -x "$f" ] || { echo "bench-root: $f missing; run scripts/setup.sh" >&2; exit 126; }
done
lttng_mods=$("$top/scripts/build/lttng-modules.sh")

rm -rf "$root"
mkdir -p "$root"
cp -a "$top/build/vmroot/." "$root/"
cp -a "$lttng_mods/." "$root/"
mkdir -p "$root/usr/bin" "$root/usr/lib/x86_64-linux-gnu/lttng/libexec" \
	"$root/var/run/lttng"
cp /usr/bin/lttng /usr/bin/lttng-sessiond /usr/bin/perf "$root/usr/bin/"
cp "$top/scripts/bench/kf-list.sh" "$root/usr/bin/tb-kf-list"
# lttng-sessiond starts it by this path (compiled in).
cp /usr/lib/x86_64-linux-gnu/lttng/libexec/lttng-consumerd \
	"$root/usr/lib/x86_64-linux-gnu/lttng/libexec/"
# The schema lttng-sessiond checks session files against at start.
mkdir -p "$root/usr/share/xml/lttng"
cp /usr/share/xml/lttng/session.xsd "$root/usr/share/xml/lttng/"
echo "$root"
