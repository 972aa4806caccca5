# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers of the host-side checks (scripts/fdr-accept.sh and the
# like), sourced, not run.  The caller sets n=0 and fails=0 and a scratch
# directory $tmp before the first test.

tap() {	# OK(0/1) NAME [DIAG]
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2${3:+ # $3}"
		fails=$((fails + 1))
	fi
}

run() {	# NAME CMD...: ok if CMD exits 0; its stderr as diagnostics
	local name=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ $rc = 0 ]; then
		tap 1 "$name"
	else
		sed 's/^/# /' "$tmp/err" | head -5
		tap 0 "$name" "exit $rc"
	fi
}
