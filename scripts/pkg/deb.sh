#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the Debian packages (tracebuf-dkms, tracebuf-tools, tracebuf-dev)
# from the files of this tree with dpkg-buildpackage, then run lintian
# over them.  Everything happens under OUT: the tree is copied to
# OUT/tracebuf-VERSION (git's tracked and new files; build outputs never),
# the .debs, .buildinfo and .changes land in OUT, lintian's report in
# OUT/lintian.txt.  Fails on a lintian error or on a warning that
# Documentation/packaging.rst does not explain.
#
# Usage: scripts/pkg/deb.sh OUT

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: deb.sh OUT}
cd "$top"

ver=$(dpkg-parsechangelog -S Version)
tbver=$(sed -n 's/^#define TB_VERSION "\(.*\)"$/\1/p' userspace/lib/cli/cli.h)
dkmsver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
if [ "$ver" != "$tbver" ] || [ "$ver" != "$dkmsver" ]; then
	echo "deb: versions differ: debian/changelog $ver, cli/cli.h $tbver, dkms.conf $dkmsver" >&2
	exit 1
fi

src="$out/tracebuf-$ver"
rm -rf "$out"
mkdir -p "$src"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		xargs -0 -I{} sh -c '[ -e "$1" ] && cp --parents -a "$1" "$2/"' sh {} "$src"
else
	tar -C "$top" --exclude=./build -cf - . | tar -C "$src" -xf -
fi

t0=$(date +%s)
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -40 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed, log in $out/build.log" >&2
	exit 1
}
echo "deb: built in $(($(date +%s) - t0)) s:" $(cd "$out" && ls *.deb)

# lintian over everything we built, as Debian's archive would.
lintian --info --display-info --pedantic "$out"/*.changes >"$out/lintian.txt" 2>&1 || true
if grep -q '^E: ' "$out/lintian.txt"; then
	grep '^E: ' "$out/lintian.txt" >&2
	echo "deb: lintian errors (all in $out/lintian.txt)" >&2
	exit 1
fi
# A warning must be explained, by its tag, in Documentation/packaging.rst.
bad=0
for tag in $(sed -n 's/^W: [^:]*: \([a-z0-9-]*\).*/\1/p' "$out/lintian.txt" | sort -u); do
	if ! grep -q "^\`\`$tag\`\`" Documentation/packaging.rst; then
		grep "^W: [^:]*: $tag" "$out/lintian.txt" >&2
		bad=1
	fi
done
if [ $bad = 1 ]; then
	echo "deb: lintian warnings not explained in Documentation/packaging.rst" >&2
	exit 1
fi
echo "deb: lintian: $(grep -c '^E: ' "$out/lintian.txt") errors, $(grep -c '^W: ' "$out/lintian.txt") warnings (explained), $(grep -c '^[IP]: ' "$out/lintian.txt") info/pedantic notes; $out/lintian.txt"
