#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The timeline in a real viewer: speedscope (npm, installed by
# scripts/setup.sh outside the tree) in Debian's chromium, headless, driven
# by puppeteer-core; scripts/check/viewer-check.js checks what the viewer parsed
# against what was recorded and prints TAP.  Screenshots go to SHOTS.
#
# Usage: scripts/check/viewer-check.sh json TRACE.fdr SHOTS
#	converts TRACE.fdr with tracebuf convert fdr-json (names and tasks
#	from the trace's own META block, else TRACE.fdr.names and .tasks)
#	and checks the JSON
#        scripts/check/viewer-check.sh folded FILE SHOTS
#	checks a folded-stacks file ("task;outer;inner VALUE" lines)
#
# Without the viewer installed (scripts/setup.sh) it reports one skipped
# test and exits 0.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
viewer=${TB_VIEWER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tracebuf/viewer}
chromium=${TB_CHROMIUM:-/usr/bin/chromium}
tool=${TB_TOOL:-$top/build/userspace/tracebuf}

skip() {
	printf 'TAP version 13\n1..1\nok 1 viewer # SKIP %s\n' "$1"
	exit 0
}

[ $# = 3 ] || { echo "usage: $0 json TRACE.fdr SHOTS | folded FILE SHOTS" >&2; exit 2; }
mode=$1 input=$2 shots=$3
command -v node >/dev/null || skip "no node (scripts/setup.sh)"
[ -x "$chromium" ] || skip "no $chromium (scripts/setup.sh)"
[ -d "$viewer/node_modules/speedscope" ] && [ -d "$viewer/node_modules/puppeteer-core" ] ||
	skip "no speedscope in $viewer (scripts/setup.sh)"
mkdir -p "$shots"

case $mode in
json)
	json="$shots/$(basename "$input").json"
	# The trace's names: its own, else the companions next to it.
	if ! "$tool" convert fdr-json "$input" "$json"; then
		printf 'TAP version 13\n1..1\nnot ok 1 tracebuf convert fdr-json %s\n' "$input"
		exit 1
	fi
	set -- json "$input" "$json" "$shots"
	;;
folded)
	set -- folded "$input" "$shots"
	;;
*)
	echo "usage: $0 json TRACE.fdr SHOTS | folded FILE SHOTS" >&2
	exit 2
	;;
esac

TB_VIEWER_MODULES="$viewer/node_modules" TB_CHROMIUM="$chromium" \
	exec node "$top/scripts/check/viewer-check.js" "$@"
