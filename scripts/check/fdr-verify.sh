#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# llvm-xray over FDR captures the guest left behind (the fuzzer's
# aftermath capture in /out/fuzz): every *.fdr in DIR must pass
# `fdr-dump -verify` and convert to YAML.  TAP on stdout.
#
# Usage: scripts/check/fdr-verify.sh DIR

set -u
dir=${1:?usage: $0 DIR}
xray=${LLVM_XRAY:-llvm-xray}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"
shopt -s nullglob
files=("$dir"/*.fdr)
if [ ${#files[@]} = 0 ]; then
	echo "1..1"
	echo "not ok 1 FDR captures in $dir # none found"
	exit 1
fi
echo "1..$((2 * ${#files[@]}))"
n=0
fails=0
for f in "${files[@]}"; do
	name=$(basename "$f")
	for step in "fdr-dump -verify" "convert -f yaml"; do
		n=$((n + 1))
		case $step in
		fdr-dump*) cmd=("$xray" fdr-dump -verify "$f") ;;
		*) cmd=("$xray" convert -f yaml "$f" -o "$tmp/out.yaml") ;;
		esac
		if "${cmd[@]}" >"$tmp/out" 2>"$tmp/err"; then
			echo "ok $n $name: llvm-xray $step"
		else
			sed 's/^/# /' "$tmp/err" | head -5
			echo "not ok $n $name: llvm-xray $step"
			fails=$((fails + 1))
		fi
	done
done
exit $((fails > 0))
