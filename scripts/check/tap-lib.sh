# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers of the host-side checks (scripts/check/fdr-accept.sh and the
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

tap_diag() {	# EXIT-STATUS NAME DIAG: tap(), DIAG as "# " lines before a failure
	[ "$1" = 0 ] || echo "$3" | sed 's/^/# /'
	tap $(($1 == 0)) "$2"
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

# llvm-xray account over TRACE's records in time order, names from MAP,
# the table to OUT and its complaints to OUT.err; the caller sets $xray.
# account takes the records in the order its FDR loader gives them, which
# is not time order on a trace of several threads, and refuses every
# record older than the first one it took (xray-account.cpp), so what it
# counts depends on which thread came first: a check of the kernel
# function trace failed once that way, account refusing 1407 of 1411
# records.  convert
# -sort puts the records in time order, as account expects; its YAML
# header keeps the FDR version, and llvm-xray 14 reads YAML of version 1
# only, so the header says 1.
xray_account_sorted() {	# TRACE MAP OUT
	"$xray" convert -sort -f yaml "$1" -o "$tmp/sorted.yaml" 2>"$3.err" &&
		sed -i '0,/^  version: *[0-9]*$/s//  version:         1/' "$tmp/sorted.yaml" &&
		"$xray" account -k -m "$2" "$tmp/sorted.yaml" >"$3" 2>>"$3.err"
}
