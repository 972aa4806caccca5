#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package that building, testing and demonstrating
# tracebuf needs, and the trace viewer the host checks open our JSON in
# (scripts/check/viewer-check.sh): speedscope and puppeteer-core from npm, at
# pinned versions, in $TB_VIEWER_DIR (default ~/.cache/tracebuf/viewer,
# outside the tree), driving Debian's chromium.  Idempotent: when
# everything is present it only runs dpkg queries and reads two
# package.json files, in well under a second.
#
# Usage: scripts/setup.sh [--check]
#   --check   report what is missing and exit 1 if anything is, install nothing

set -eu

PACKAGES="
	build-essential bc bison flex libelf-dev dwarves
	linux-headers-amd64 linux-image-amd64 linux-source-6.1
	qemu-system-x86 busybox-static cpio xz-utils
	llvm clang lld gdb gdbserver gdb-multiarch
	libbpf-dev bpftool pkg-config
	python3 perl time
	gcc-arm-linux-gnueabi libc6-dev-armel-cross
	qemu-system-arm gcc-aarch64-linux-gnu
	libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64
	debhelper dh-dkms dkms lintian python3-docutils fakeroot debootstrap
	bash-completion
	chromium
	lttng-tools linux-perf gnuplot-nox
	babeltrace2 python3-bt2 babeltrace python3-babeltrace python3-lttnganalyses
	trace-cmd kernelshark xvfb x11-apps imagemagick
"
# babeltrace2, babeltrace (lttng-analyses runs its CLI) and
# python3-lttnganalyses read our CTF in the host tests (scripts/check/ctf-check.py).
# trace-cmd reads our trace.dat in the host tests (scripts/check/tracedat-check.py);
# kernelshark opens it under xvfb's X server, xwd (x11-apps) and
# imagemagick's convert keep a screenshot of it (tracedat_test).
# lttng-tools and linux-perf run in make bench's guest (scripts/bench/bench-root.sh),
# gnuplot draws make bench-curves' plots.  lttng-modules is not installed
# here: lttng-modules-dkms would build at install time for every installed
# kernel; scripts/build/lttng-modules.sh builds its source for the VM's kernel
# only, when make bench first needs it.
# node and npm: Debian's, unless a node with its npm is installed already
# (NodeSource's nodejs ships npm and conflicts with Debian's npm package).
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"

# The viewer, pinned: the browser check reads speedscope's own parsed
# profiles, whose shape is that of this version.
SPEEDSCOPE_VERSION=1.25.0
PUPPETEER_CORE_VERSION=24.43.1
viewer=${TB_VIEWER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tracebuf/viewer}

# The installed version of npm package $1 in the viewer, or nothing.
viewer_version() {
	sed -n 's/^  "version": "\(.*\)",$/\1/p' \
		"$viewer/node_modules/$1/package.json" 2>/dev/null
}

viewer_missing() {
	[ "$(viewer_version speedscope)" != "$SPEEDSCOPE_VERSION" ] ||
		[ "$(viewer_version puppeteer-core)" != "$PUPPETEER_CORE_VERSION" ]
}

install_viewer() {
	viewer_missing || return 0
	echo "setup: installing speedscope $SPEEDSCOPE_VERSION and puppeteer-core $PUPPETEER_CORE_VERSION in $viewer" >&2
	mkdir -p "$viewer"
	printf '{"name": "tracebuf-viewer", "private": true, "dependencies": {"speedscope": "%s", "puppeteer-core": "%s"}}\n' \
		"$SPEEDSCOPE_VERSION" "$PUPPETEER_CORE_VERSION" >"$viewer/package.json"
	# No install scripts: puppeteer-core downloads nothing, the browser
	# is Debian's.
	(cd "$viewer" && npm install --no-audit --no-fund --ignore-scripts >&2)
}

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

# The arm64 guest's kernel, headers and busybox, fetched (apt-get download,
# unpacked outside the tree) by scripts/build/arm64-kernel.sh.
arm64_missing() {
	! "$(dirname "$0")/build/arm64-kernel.sh" --print-dir >/dev/null 2>&1
}
install_arm64() {
	arm64_missing || return 0
	"$(dirname "$0")/build/arm64-kernel.sh" >/dev/null
}

if [ -z "$missing" ] && ! viewer_missing && ! arm64_missing; then
	exit 0
fi

if [ "${1:-}" = "--check" ]; then
	[ -z "$missing" ] || echo "setup: missing packages:$missing" >&2
	viewer_missing && echo "setup: missing the viewer in $viewer" >&2
	arm64_missing && echo "setup: missing the arm64 guest kernel (scripts/build/arm64-kernel.sh)" >&2
	exit 1
fi

if [ -z "$missing" ]; then
	install_viewer
	install_arm64
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "setup: missing packages:$missing" >&2
	echo "setup: run 'sudo scripts/setup.sh' (or make setup as root) to install them" >&2
	exit 1
fi

echo "setup: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# The arm64 libraries the cross-built tools link (multiarch); armel's
# are only downloaded (scripts/build/pxa-kernel.sh).
for a in arm64 armel; do
	dpkg --print-foreign-architectures | grep -qx $a || dpkg --add-architecture $a
done
# The package lists may be missing or stale on a fresh machine.
apt-get update -q >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >&2
install_viewer
install_arm64
echo "setup: done" >&2
