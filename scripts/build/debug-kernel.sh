#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh: build (once) the debug kernel of `make check-debug`:
# tinyconfig of Debian's linux-source-6.1 plus scripts/build/debug-kernel.config
# (KASAN, UBSAN, lockdep, kmemleak, lockup detectors, BTF, ...).  The tree
# is kept outside the checkout, keyed by a hash of the fragment and the
# source, compiler and pahole versions.  See --help.

set -u

prog=debug-kernel.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
# The fragment is part of the cache key: its comments still name the
# scripts by their paths before scripts/ was split into folders, so that
# the split did not cost every cached kernel a rebuild.
fragment="$top/scripts/build/debug-kernel.config"
. "$top/scripts/build/cache-lib.sh"
cache=${TB_DEBUG_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracebuf/debug-kernel}
jobs=${TB_JOBS:-$(nproc)}
rebuild=0
print_only=0
prune=0

usage() {
	cat <<EOF
Usage: $prog [--rebuild] [--print-dir] [--prune]

Build the debug kernel for 'make check-debug' unless the cache already has
it, then print the directory of the built tree (bzImage in
arch/x86/boot/bzImage, Module.symvers for out-of-tree modules) on stdout.

The tree is tinyconfig plus scripts/build/debug-kernel.config; the build fails if
any line of the fragment is not in the final .config as written.  It lives
in \$TB_DEBUG_KERNEL_CACHE/KEY (default $cache/KEY),
KEY being a hash of the fragment and the versions of linux-source-6.1, gcc
and pahole.  An interrupted build resumes where it stopped.

Options:
  --rebuild     delete the cached tree for the current key and build again
                (also TB_DEBUG_KERNEL_REBUILD=1)
  --print-dir   print the directory for the current key and exit (exit 1
                if it is not built yet)
  --prune       delete the trees of every other key (about 2.5 GB each)
  -h, --help    this text

Environment: TB_DEBUG_KERNEL_CACHE, TB_JOBS (make -j, default nproc),
KSRC_TARBALL.  The build time is printed and kept in KEY/build-time.
EOF
}

while [ $# -gt 0 ]; do
	case "$1" in
	--rebuild)	rebuild=1; shift ;;
	--print-dir)	print_only=1; shift ;;
	--prune)	prune=1; shift ;;
	-h|--help)	usage; exit 0 ;;
	*)		echo "$prog: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
[ "${TB_DEBUG_KERNEL_REBUILD:-0}" = 1 ] && rebuild=1

[ -r "$fragment" ] || die "$fragment missing"
[ -r "$tarball" ] || die "$tarball not found; run scripts/setup.sh"
command -v pahole >/dev/null || die "pahole missing (package dwarves); run scripts/setup.sh"
command -v gcc >/dev/null || die "gcc missing; run scripts/setup.sh"

key=$( {
	cat "$fragment"
	echo "linux-source-6.1 $(linux_source_version)"
	gcc --version | head -n 1
	pahole --version
} | cache_key)
dir="$cache/$key"
kdir="$dir/linux"

if [ $print_only = 1 ]; then
	[ -f "$dir/.built" ] || { echo "$prog: not built yet: $dir" >&2; exit 1; }
	echo "$kdir"
	exit 0
fi

mkdir -p "$cache" || die "cannot create $cache"
# One build per key on this machine: other checkouts share the cache.
cache_lock "$cache/.lock-$key"

if [ $prune = 1 ]; then
	for d in "$cache"/*/; do
		d=${d%/}
		[ -d "$d" ] && [ "$(basename "$d")" != "$key" ] || continue
		echo "$prog: --prune: removing $d" >&2
		rm -rf "$d"
		rm -f "$cache/.lock-$(basename "$d")"
	done
fi
if [ $rebuild = 1 ]; then
	echo "$prog: --rebuild: removing $dir" >&2
	rm -rf "$dir"
fi
if [ -f "$dir/.built" ]; then
	echo "$prog: cached: $kdir ($(cat "$dir/build-time" 2>/dev/null || echo '?'))" >&2
	echo "$kdir"
	exit 0
fi

mkdir -p "$dir"
start=$(date +%s)
extract_linux_source "$kdir"
cp "$fragment" "$dir/debug-kernel.config"

log="$dir/build.log"
echo "$prog: configuring (tinyconfig + $(basename "$fragment"))" >&2
{
	make -C "$kdir" tinyconfig &&
	"$kdir/scripts/kconfig/merge_config.sh" -m -O "$kdir" "$kdir/.config" "$fragment" &&
	make -C "$kdir" olddefconfig
} >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "configuration failed; see $log"; }

# Every line of the fragment must have survived olddefconfig: a missing
# dependency silently drops an option, and a debug kernel without, say,
# KASAN would pass everything.
bad=""
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF -- "$line" "$kdir/.config" ||
			bad="$bad
  want $line, have: $(grep -E "^(# )?${line%%=*}[= ]" "$kdir/.config" || echo 'absent')"
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		grep -q "^$opt=" "$kdir/.config" &&
			bad="$bad
  want $line, have: $(grep "^$opt=" "$kdir/.config")"
		;;
	esac
done <"$fragment"
if [ -n "$bad" ]; then
	echo "$prog: CONFIG CHECK FAILED: these options did not end up as asked:$bad" >&2
	die "fix scripts/build/debug-kernel.config (a dependency is probably missing)"
fi
echo "$prog: all $(grep -cE '^(CONFIG_|# CONFIG_.* is not set)' "$fragment") options of the fragment are set as asked" >&2

echo "$prog: building with -j$jobs (log: $log)" >&2
bstart=$(date +%s)
if ! make -C "$kdir" -j"$jobs" all >>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | tail -n 20 >&2
	die "kernel build failed; see $log"
fi
[ -f "$kdir/Module.symvers" ] || die "no Module.symvers after the build; see $log"
[ -f "$kdir/arch/x86/boot/bzImage" ] || die "no bzImage after the build; see $log"
end=$(date +%s)

printf 'build %ds (make %ds), %s, -j%s on %s CPUs\n' $((end - start)) $((end - bstart)) \
	"$(date -u +%Y-%m-%dT%H:%MZ)" "$jobs" "$(nproc)" >"$dir/build-time"
touch "$dir/.built"
echo "$prog: built $kdir in $((end - start))s" >&2
others=$(cd "$cache" && ls -d ./*/ 2>/dev/null | grep -vc "^./$key/$")
[ "$others" != 0 ] && echo "$prog: $others older tree(s) in $cache: --prune removes them" >&2
echo "$kdir"
