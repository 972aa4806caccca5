#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command: host unit tests (plain and ASan/UBSan builds), then the
# kselftests inside a VM running Debian's kernel with tracebuf loaded, and
# with --debug the same kselftests again in the debug kernel of
# scripts/build/debug-kernel.sh (KASAN, UBSAN, lockdep, kmemleak).  Ends with
# exactly one line "N passed, N failed, N skipped" for all of it; exits
# non-zero if anything failed.  Expects `make all ksrc` (or `make stage`,
# and `make stage-debug` for the debug kernel) to have run.
#
# With the VM run goes a second guest: the same selftests in Debian's arm64
# kernel under qemu-system-aarch64 (make stage-arm64), and the same host
# checks of what it recorded, and a third: the XScale hardware backend
# over the CP14 model in the PXA270 guest (make stage-pxa), and a fourth:
# the host tests built for 32-bit ARM, in that guest too; --pxa-only runs
# these two alone.
#
# With --debug-build (make check check-debug, CI) the work runs in two
# lanes, one per core, each guest a single-threaded TCG process that
# keeps one core busy: the "guests" lane runs the x86 guest with the
# crash and provoke guests, then the debug kernel's; the "builds" lane
# beside it, at the same priority, makes what the guests need (make
# stage-arm64, stage-pxa, the host tests, then the debug module and its
# guest tree, whose kernel .ci/run starts building first) and then runs
# the arm64 and PXA270 guests and LTTng's beside ours
# (scripts/check/lttng-compare.sh), which would otherwise wait behind the
# other lane's (two guests at a time: the lanes hold the machine-wide
# guest lock for both).  A guest whose build is not done waits for it,
# and the wait is a step of its own in the timing table at the end,
# which names the critical path (Documentation/testing.rst, "CI on a
# fresh machine").
#
# Usage: scripts/check.sh [--host-only | --vm-only | --debug-only | --arm64-only | --pxa-only] [--debug] [--debug-build]

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

# The cross-built guests (the Makefile's KERNELS rows whose GUEST is
# "cross"), one row each: NAME, its qemu, the variable of its time limit
# and the limit's default (seconds), and its defaults of TB_SCALE and
# TB_SLOW.  Each boots the tree of make stage-NAME with
# `vm-run --arch NAME`, runs every selftest, then the host's checks of the
# traces it wrote (vm_suite); --NAME-only runs it alone.
#
# arm64: Debian's arm64 kernel of the same release under TCG.  A system
# call costs about 5.6 times what it costs in the x86 guest (getppid:
# 2.2 us against 0.4 us, Documentation/testing.rst): half the iterations,
# and time bounds stretched from x86's 3 to 10.  The interrupt source
# there is ttyS3 (vm-run --arch).
cross_guests="
arm64	qemu-system-aarch64	TB_ARM64_VM_TIMEOUT	2400	0.5	10
"
cross_names=$(awk 'NF { print $1 }' <<<"$cross_guests")
# cross_field NAME N: field N of NAME's row
cross_field() {
	awk -v n="$1" -v f="$2" '$1 == n { print $f }' <<<"$cross_guests"
}
# Why a host check of a cross guest's traces is skipped there:
# bpf_kfunc_skip_NAME (tracebuf bpf -f refuses; bpf_collector_test checks
# that it says why).
bpf_kfunc_skip_arm64="arm64 6.1 cannot attach BPF trampolines to kernel functions"

do_host=1
do_vm=1
declare -A do_cross
for g in $cross_names; do do_cross[$g]=1; done
no_cross() { local g; for g in $cross_names; do do_cross[$g]=0; done; }
do_pxa=1
do_debug=0
debug_build=0
for arg in "$@"; do
	case "$arg" in
	--host-only) do_vm=0; no_cross; do_pxa=0 ;;
	--vm-only) do_host=0 ;;
	--debug-only) do_host=0; do_vm=0; no_cross; do_pxa=0; do_debug=1 ;;
	--pxa-only) do_host=0; do_vm=0; no_cross; do_pxa=1 ;;
	--debug) do_debug=1 ;;
	--debug-build) do_debug=1; debug_build=1 ;;
	*)
		g=${arg#--}
		g=${g%-only}
		if [ "--$g-only" = "$arg" ] && [ -n "$g" ] && [ -n "${do_cross[$g]:-}" ]; then
			do_host=0; do_vm=0; no_cross; do_cross[$g]=1; do_pxa=0
		else
			echo "usage: $0 [--host-only | --vm-only | --debug-only |$(printf ' --%s-only |' $cross_names) --pxa-only] [--debug] [--debug-build]" >&2
			exit 2
		fi ;;
	esac
done

# section TEXT: a header line with the time since check.sh started (since
# TB_T0, seconds since the epoch, when set: .ci/run's start), so that a
# CI log shows where its minutes went.
t_start=${TB_T0:-$(date +%s)}
section() {
	local t=$(($(date +%s) - t_start))
	printf '# ---- %s%s [%d:%02d]\n' "${lane_tag:-}" "$*" $((t / 60)) $((t % 60))
}

results="$top/build/results"
rm -rf "$results"
mkdir -p "$results"

# Where the minutes went: one line a step, "LANE START END NAME [DEPS]",
# times in seconds since t_start, DEPS the steps (by NAME, comma
# separated) it could not start before, besides the one before it in its
# lane.  .ci/run writes its own steps into the same file (TB_TIMING).
timing=${TB_TIMING:-$results/timing}
now() { echo $(($(date +%s) - t_start)); }
t_rec() {	# LANE START NAME [DEPS]: a step from START until now
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(now)" "$3" "${4:-}" >>"$timing"
}
# step LANE NAME CMD...: run CMD as one step of LANE.
step() {
	local lane=$1 name=$2 t=$(now) ret
	shift 2
	"$@"
	ret=$?
	t_rec "$lane" "$t" "$name" "${t_deps:-}"
	return $ret
}
# .ci/run's make started its builds at TB_MAKE_T (seconds since t_start):
# those before this script are a step of its own.
[ -n "${TB_MAKE_T:-}" ] && t_rec ci "$TB_MAKE_T" "builds for make check (stage, ksrc)"

# The timeouts of every suite that runs at this machine's own speed (the
# host tests, and the x86 guest, whose TCG is about as fast for what the
# tests time): three times the tests' own (tb_harness.h) leaves a machine
# three times slower than the ones they were measured on room to pass,
# and costs nothing otherwise.  The other guests have factors of their
# own below.
slow=${TB_SLOW:-3}

# run_tap SUITE NAME CMD...: run a TAP-printing command, keep its output
# and exit code for the summary, and show its result lines.
run_tap() {
	local suite=$1 name=$2
	shift 2
	mkdir -p "$results/$suite"
	"$@" >"$results/$suite/$name.tap" 2>&1
	echo $? >"$results/$suite/$name.rc"
	tap_lines "$results/$suite/$name.tap"
}

# tap_lines FILE: the TAP file's result lines, and for each failure the
# diagnostics just before it (its last 20 "#" lines), so that a CI log
# whose files are gone still says why a test failed.
tap_lines() {
	awk '
		/^[ \t]*#/ { diag[n++ % 20] = $0; next }
		/^(not )?ok / {
			if ($1 == "not")
				for (i = (n > 20 ? n - 20 : 0); i < n; i++)
					print diag[i % 20]
			print
			n = 0
		}
	' "$1"
}

# run_host_tests DIR SUITE: run every test binary in DIR that has a
# source (a removed or renamed test's old binary may still be there).
run_host_tests() {
	local dir=$1 suite=$2 t name
	for t in "$dir"/*; do
		[ -x "$t" ] && [ -f "$t" ] || continue
		name=$(basename "$t")
		[ -f "$top/userspace/tests/$name.c" ] || continue
		section "$suite/$name"
		# Tests find their data relative to userspace/tests.  The
		# harness stops a test at its timeout times TB_SLOW; the
		# binary's limit, for a harness that hangs, is stretched alike.
		TB_SLOW=$slow run_tap "$suite" "$name" sh -c \
			'cd "$1" && exec timeout "$2" "$3"' sh "$top/userspace/tests" \
			"$(awk -v s="$slow" 'BEGIN { print int(600 * s) }')" "$t"
	done
}

# A check that is not a TAP binary (the VM itself) as a one-test suite.
pseudo_result() {	# SUITE NAME OK(0/1) [WHY]
	mkdir -p "$results/$1"
	if [ "$3" = 1 ]; then
		printf 'TAP version 13\n1..1\nok 1 %s\n' "$2" >"$results/$1/$2.tap"
		echo 0 >"$results/$1/$2.rc"
	else
		printf 'TAP version 13\n1..1\nnot ok 1 %s # %s\n' "$2" "${4:-}" >"$results/$1/$2.tap"
		echo 1 >"$results/$1/$2.rc"
	fi
}

# The host tests (plain, then ASan and UBSan), the man pages, the file
# circles and the viewer.
host_suites() {
	run_host_tests "$top/build/userspace/tests" host
	# The packages build the man pages with rst2man --strict (make deb).
	section "man pages (rst2man --strict)"
	if make -s man >"$results/man-build.log" 2>&1; then
		pseudo_result host man_pages_build 1
	else
		cat "$results/man-build.log"
		pseudo_result host man_pages_build 0 "make man failed"
	fi
	tap_lines "$results/host/man_pages_build.tap"
	# No two userspace files include or call each other in a circle
	# (Documentation/library.rst): the graphs from the sources and nm.
	section "circles between userspace files (scripts/check/file-circles.py)"
	run_tap host file_circles "$top/scripts/check/file-circles.py" \
		"$top/userspace" "$top/build/userspace"
	# The same for the module's files (Documentation/design.rst, "The
	# flight recorder's layers"): its objects are built in the tree.
	section "circles between the module's files (scripts/check/file-circles.py)"
	run_tap host module_circles "$top/scripts/check/file-circles.py" \
		"$top" "$top" driver
	# The trace_event JSON and the folded stacks of real traces
	# (userspace/tests/data/viewer) opened in speedscope in chromium, the
	# viewer's parsed profiles checked against llvm-xray's dump; one
	# skipped result without the viewer (scripts/setup.sh).  Screenshots
	# in build/viewer.
	section "viewer: speedscope in chromium (scripts/check/viewer-check.sh)"
	rm -rf "$top/build/viewer"
	run_tap viewer json scripts/check/viewer-check.sh json \
		"$top/userspace/tests/data/viewer/demo.fdr" "$top/build/viewer"
	# A trace with switches and wake-ups (record -e sched,syscall...,
	# 2026-11-29): CPU tracks from the recorded switches, the idle tasks
	# as swapper/N, its names from its own META block.
	run_tap viewer json_sched scripts/check/viewer-check.sh json \
		"$top/userspace/tests/data/viewer/sched.fdr" "$top/build/viewer"
	run_tap viewer folded sh -c 'mkdir -p "$2" &&
		"$1/build/userspace/tracebuf" report --folded "$1/userspace/tests/data/viewer/demo.fdr" >"$2/demo.folded" &&
		exec "$1/scripts/check/viewer-check.sh" folded "$2/demo.folded" "$2"' \
		sh "$top" "$top/build/viewer"
	# checkpatch --strict, the kernel's rules: driver/ and uapi/, and
	# the userspace sources, which keep them too (make checkpatch).
	section "checkpatch --strict (scripts/check/checkpatch.sh)"
	run_tap host checkpatch scripts/check/checkpatch.sh --tap
	echo "# building host tests with ASan and UBSan"
	if make -s -C userspace O="$top/build/userspace-asan" SANITIZE=1 \
		KSFT="$top/build/ksrc/tools/testing/selftests" tests >"$results/asan-build.log" 2>&1; then
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			run_host_tests "$top/build/userspace-asan/tests" host-asan
	else
		cat "$results/asan-build.log"
		pseudo_result host-asan build 0 "sanitizer build failed"
	fi
}

# guest_check SUITE NAME DIR CMD...: run_tap of a host check of the files
# the guest wrote into DIR.  When the guest ran out of time ($rc 124) or
# did not come back (126: it died, or never started) before it wrote them,
# one skipped result says so, instead of a failure for each check: the
# suite has failed already (guest_finished).
guest_check() {
	local suite=$1 name=$2 dir=$3 why
	shift 3
	case $rc in
	124) why="the guest timed out before it wrote" ;;
	126) why="the guest did not come back (vm-run exit 126) with" ;;
	*) why="" ;;
	esac
	if [ -n "$why" ] && [ ! -e "$dir" ]; then
		mkdir -p "$results/$suite"
		printf 'TAP version 13\n1..1\nok 1 %s # SKIP %s %s\n' \
			"$name" "$why" "${dir#"$results"/}" >"$results/$suite/$name.tap"
		echo 0 >"$results/$suite/$name.rc"
		tap_lines "$results/$suite/$name.tap"
		return
	fi
	run_tap "$suite" "$name" "$@"
}

# vm_suite SUITE: after a vm-run into $results/SUITE-out with exit code
# $rc, collect the guest's results and run the host-side checks of what the
# guest recorded.
vm_suite() {
	local suite=$1
	mkdir -p "$results/$suite"
	if [ -d "$results/$suite-out/results" ]; then
		cp "$results/$suite-out/results"/* "$results/$suite/" 2>/dev/null
	fi
	case $rc in
	0) pseudo_result "$suite" kernel_log_clean 1 ;;
	124) pseudo_result "$suite" guest_finished 0 "timeout" ;;
	125) pseudo_result "$suite" kernel_log_clean 0 "WARNING/BUG/taint in guest kernel log" ;;
	*) pseudo_result "$suite" guest_finished 0 "vm-run exit $rc" ;;
	esac
	# The FDR trace the guest recorded, checked with the host's llvm-xray.
	section "host: llvm-xray over the FDR trace of $suite"
	guest_check "$suite-fdr-accept" llvm_xray "$results/$suite-out/accept" \
		scripts/check/fdr-accept.sh "$results/$suite-out/accept"
	# Kernel functions (record -f) named by llvm-xray -m: judged on
	# Debian's kernels (x86 and the cross guests), whose function names
	# the script expects (the tinyconfig debug kernel may inline some of
	# them).
	local skip_var="bpf_kfunc_skip_${suite//-/_}"
	if [ "$suite" != debug ]; then
		section "host: llvm-xray -m over the kernel function trace of $suite"
		guest_check "$suite-kfunc-accept" llvm_xray "$results/$suite-out/kfunc" \
			scripts/check/fdr-kfunc-accept.sh "$results/$suite-out/kfunc"
		section "host: llvm-xray -m over the BPF collector's kernel function trace of $suite"
		if [ -n "${!skip_var:-}" ]; then
			mkdir -p "$results/$suite-bpf-kfunc-accept"
			printf 'TAP version 13\n1..1\nok 1 llvm_xray # SKIP %s\n' \
				"${!skip_var}" \
				>"$results/$suite-bpf-kfunc-accept/llvm_xray.tap"
			echo 0 >"$results/$suite-bpf-kfunc-accept/llvm_xray.rc"
			tap_lines "$results/$suite-bpf-kfunc-accept/llvm_xray.tap"
		else
			guest_check "$suite-bpf-kfunc-accept" llvm_xray "$results/$suite-out/bpf-kfunc" \
				scripts/check/fdr-kfunc-accept.sh "$results/$suite-out/bpf-kfunc"
		fi
	else
		# The debug kernel: both collectors ran and their traces hold
		# whole vfs_read calls (the names the rest expects may be
		# inlined there).
		section "host: the kernel function traces of $suite, core checks"
		guest_check "$suite-kfunc-accept" llvm_xray "$results/$suite-out/kfunc" \
			scripts/check/fdr-kfunc-accept.sh --core "$results/$suite-out/kfunc"
		guest_check "$suite-bpf-kfunc-accept" llvm_xray "$results/$suite-out/bpf-kfunc" \
			scripts/check/fdr-kfunc-accept.sh --core "$results/$suite-out/bpf-kfunc"
	fi
	section "host: llvm-xray over the trigger daemon's files of $suite"
	guest_check "$suite-trigger-accept" llvm_xray "$results/$suite-out/trigger" \
		scripts/check/fdr-trigger-accept.sh "$results/$suite-out/trigger"
	# tracebuf report against a computation of its own, on every trace
	# the guest wrote (record, a raw device capture, -f, bpf, triggers).
	section "host: tracebuf report cross-checked on the traces of $suite"
	guest_check "$suite-report" report_check "$results/$suite-out/accept" \
		scripts/check/report-check.sh "$results/$suite-out/accept" \
		"$results/$suite-out/kfunc" "$results/$suite-out/bpf-kfunc" \
		"$results/$suite-out/bpf" "$results/$suite-out/trigger"
	# The same traces in the LTTng and ftrace readers (issue 42): the
	# record trace, the kernel functions, the BPF collector's, every
	# trigger file, converted to CTF and trace.dat, and read by
	# babeltrace2, lttng-analyses and trace-cmd against the report.
	section "host: the CTF and trace.dat of the traces of $suite, in babeltrace2, lttng-analyses and trace-cmd"
	guest_check "$suite-convert" convert_check "$results/$suite-out/accept" \
		scripts/check/convert-check.sh "$results/$suite-out/accept/trace.fdr" \
		"$results/$suite-out/kfunc/trace.fdr" "$results/$suite-out/bpf/all.fdr" \
		"$results/$suite-out/trigger"
	# The recorder capture taken after the fuzzer (selftests/fuzz_test).
	section "host: llvm-xray over the capture after the fuzzer in $suite"
	guest_check "$suite-fuzz-xray" llvm_xray "$results/$suite-out/fuzz" \
		scripts/check/fdr-verify.sh "$results/$suite-out/fuzz"
	# What the BPF collector wrote in the guest, read by llvm-xray here.
	section "host: llvm-xray on the BPF collector's files of $suite"
	guest_check "$suite-host-xray" bpf_xray "$results/$suite-out/bpf" \
		scripts/check/check-bpf-xray.sh "$results/$suite-out/bpf"
}

# Debian's kernel in the x86 guest, then the crash and provoke guests.
x86_suites() {
	section "VM: selftests in $(scripts/build/kver.sh) under qemu"
	# The guests' time limits are a backstop for a guest that hangs (each
	# test has its own limit, times TB_SLOW): about three times what a
	# guest takes here, so that a machine twice as slow, or this one
	# shared, does not end a guest that is working (the x86 guest took
	# about 590 s in CI at 483eb67, and ran past 900 s beside four builds,
	# 2026-11-29; since the scheduler tests it takes about 810 s, and a
	# fresh CI beside three other engineers' builds ran past 1800 s, the
	# limit then, 2026-11-29 at a10989e).
	# The selftests' knobs reach the guest's environment through the
	# kernel command line (init passes unknown NAME=value on).
	knobs="TB_SLOW=$slow"
	for k in TB_SCALE TB_FUZZ_SEED; do
		[ -n "${!k:-}" ] && knobs="$knobs $k=${!k}"
	done
	# --disk: an ext4 /disk, where record's spool takes O_DIRECT
	# (selftests/fdr_accept.sh; the guest's other files are on tmpfs).
	scripts/vm/vm-run -t "${TB_VM_TIMEOUT:-2700}" -A "$knobs" -D 128 \
		-o "$results/vm-out" -- /selftests/run.sh
	rc=$?
	vm_suite vm
	# Recovery after a crash: four guests that panic on purpose, their
	# memory dumps read by tracebuf crash (about a minute; Debian's
	# kernel only: the debug kernel's job is the module's own checkers).
	section "VM: recovery after a crash (scripts/check/crash-check.sh)"
	run_tap vm-crash crash_check scripts/check/crash-check.sh "$results/vm-crash-work"
	# WARN and OOPS triggers fired for real, in a guest of its own
	# whose kernel-log gate expects exactly the provoked reports.
	section "VM: a provoked WARN and oops (scripts/check/provoke-check.sh)"
	run_tap vm-provoke provoke_check scripts/check/provoke-check.sh "$results/vm-provoke-work"
}

# cross_suites NAME: the cross guest NAME (its row of cross_guests).
cross_suites() {
	local g=$1 tvar knobs
	section "VM: selftests in $(scripts/build/$g-kernel.sh --kver) under $(cross_field "$g" 2)"
	tvar=$(cross_field "$g" 3)
	knobs="TB_SCALE=${TB_SCALE:-$(cross_field "$g" 5)} TB_SLOW=${TB_SLOW:-$(cross_field "$g" 6)}"
	[ -n "${TB_FUZZ_SEED:-}" ] && knobs="$knobs TB_FUZZ_SEED=$TB_FUZZ_SEED"
	scripts/vm/vm-run --arch "$g" -t "${!tvar:-$(cross_field "$g" 4)}" -A "$knobs" -D 128 \
		-w "$top/build/vm-$g" -o "$results/$g-out" -- /selftests/run.sh
	rc=$?
	vm_suite "$g"
}

# pxa_suite SUITE: the results of a PXA guest run into $results/SUITE-out
# with exit code $rc, and the run itself as one more result.
pxa_suite() {
	mkdir -p "$results/$1"
	cp "$results/$1-out/results"/* "$results/$1/" 2>/dev/null
	case $rc in
	0) pseudo_result "$1" kernel_log_clean 1 ;;
	125) pseudo_result "$1" kernel_log_clean 0 "WARNING/BUG/taint in guest kernel log" ;;
	*) pseudo_result "$1" guest_finished 0 "vm-run exit $rc" ;;
	esac
}

# LTTng 2.13's own kernel session and tracebuf record on one workload in
# the guest of the peer tracers, compared by lttng-analyses (issue 42).
lttng_suite() {
	section "VM: LTTng's own kernel session beside tracebuf record (scripts/check/lttng-compare.sh)"
	run_tap lttng-compare lttng_compare scripts/check/lttng-compare.sh \
		"$results/lttng-compare-work"
}

pxa_suites() {
	# The PXA270 guest (XScale, qemu-system-arm): the hardware backend
	# over the CP14 model, which loads first (selftests/pxa/run-hw.sh;
	# Documentation/architectures.rst).
	section "VM: the XScale hardware backend over the CP14 model (PXA270, qemu-system-arm)"
	scripts/vm/vm-run --arch pxa -n -t "${TB_PXA_VM_TIMEOUT:-600}" -A "TB_SLOW=${TB_SLOW:-10}" \
		-w "$top/build/vm-pxa" -o "$results/pxa-out" -- /selftests/run-hw.sh
	rc=$?
	pxa_suite pxa
	# The host tests built for 32-bit ARM (make stage-pxa-host), in a
	# guest of their own: they need no module, and the board's 64 MiB
	# must hold them (selftests/pxa/run-host.sh).
	section "VM: the host tests for 32-bit ARM in the PXA270 guest"
	scripts/vm/vm-run --arch pxa -r "$top/build/vmroot-pxa-host" -n \
		-t "${TB_PXA_VM_TIMEOUT:-600}" -A "TB_SLOW=${TB_SLOW:-10}" \
		-w "$top/build/vm-pxa-host" -o "$results/pxa-host-out" -- /selftests/run-host.sh
	rc=$?
	pxa_suite pxa-host
}

debug_suites() {
	# run-debug.sh loads the module itself (-n), so that kmemleak's
	# check covers the load, and unloads it before the final scan.
	if kdir=$(scripts/build/debug-kernel.sh --print-dir) && [ -d "$top/build/vmroot-debug" ]; then
		section "VM: selftests in the debug kernel ($kdir)"
		# KASAN and lockdep make every system call about ten times
		# slower: fewer iterations, longer time bounds (tb_stress.h).
		dknobs="TB_SCALE=${TB_SCALE:-0.2} TB_SLOW=${TB_SLOW:-10}"
		[ -n "${TB_FUZZ_SEED:-}" ] && dknobs="$dknobs TB_FUZZ_SEED=$TB_FUZZ_SEED"
		scripts/vm/vm-run -K "$kdir/arch/x86/boot/bzImage" -r "$top/build/vmroot-debug" \
			-w "$top/build/vm-debug" -m 2048 -n -t "${TB_DEBUG_VM_TIMEOUT:-3000}" \
			-A "$dknobs" -o "$results/debug-out" -- /selftests/run-debug.sh
		rc=$?
	else
		echo "# the debug kernel or its guest tree is not built: run 'make check-debug'"
		rc=126
	fi
	vm_suite debug
	# The triggers' WARN kprobe handler and die notifier under KASAN and
	# lockdep, in a guest of its own (the oops turns lockdep off).
	if [ -n "${kdir:-}" ] && [ $rc != 126 ]; then
		section "VM: a provoked WARN and oops in the debug kernel"
		run_tap debug-provoke provoke_check scripts/check/provoke-check.sh \
			"$results/debug-provoke-work" -K "$kdir/arch/x86/boot/bzImage" \
			-r "$top/build/vmroot-debug" -m 2048
	fi
}

# The timing table: every step of $timing by its start, then the critical
# path: from the step that ended last, back through what each step waited
# for last (the step before it in its lane, or a step it depended on; a
# lane's first step depends on .ci/run's step that ended before it began).
timing_report() {
	[ -s "$timing" ] || return 0
	section "where the time went (m:ss since the start)"
	sort -t "$(printf '\t')" -k2,2n -s "$timing" | awk -F '\t' '
	function mmss(t) { return sprintf("%d:%02d", int(t / 60), t % 60) }
	NR == 1 { printf "#   %-7s %-46s %6s %6s %6s\n", "lane", "step", "start", "end", "took" }
	{
		n++; lane[n] = $1; st[n] = $2; en[n] = $3; name[n] = $4; deps[n] = $5
		id[$4] = n
		# the step before, in its lane: the latest that ended by this start
		p = 0
		for (i = 1; i < n; i++)
			if (lane[i] == $1 && en[i] <= $2 + 1 && (!p || en[i] > en[p]))
				p = i
		prev[n] = p
		printf "#   %-7s %-46s %6s %6s %6s\n", $1, $4, mmss($2), mmss($3), mmss($3 - $2)
	}
	END {
		last = 0
		for (i = 1; i <= n; i++)
			if (!last || en[i] > en[last])
				last = i
		k = 0
		for (i = last; i; i = best) {
			path[++k] = i
			best = prev[i]
			if (!best && lane[i] != "ci")
				for (j = 1; j <= n; j++)
					if (lane[j] == "ci" && en[j] <= st[i] + 1 && (!best || en[j] > en[best]))
						best = j
			m = split(deps[i], d, ",")
			for (j = 1; j <= m; j++)
				if ((d[j] in id) && en[id[d[j]]] <= en[i] && (!best || en[id[d[j]]] >= en[best]))
					best = id[d[j]]
			pred[i] = best
		}
		# Each step adds the time from the end of the one before it
		# on the path to its own end: the parts add up to the whole.
		printf "# the critical path, %s in all (lane, step, its part of it):\n", mmss(en[last])
		for (j = k; j >= 1; j--) {
			i = path[j]
			printf "#   %-7s %-46s %6s\n", lane[i], name[i], mmss(en[i] - (pred[i] ? en[pred[i]] : 0))
		}
	}'
}

# ---------------------------------------------------------- the lanes

lanes="$results/lanes"
mkdir -p "$lanes"

# build NAME LOG TARGET...: make TARGET... at full priority, its output in
# $results/LOG; $lanes/NAME.rc says it is done, and how.
build() {
	local name=$1 log=$2
	shift 2
	section "make $* ($results/$log)"
	make -s "$@" >"$results/$log" 2>&1
	echo $? >"$lanes/$name.rc.tmp"
	mv "$lanes/$name.rc.tmp" "$lanes/$name.rc"
}

# await NAME: the guests' lane waits for build NAME of the other lane
# (the wait is a step of the timing table); returns its exit status.
await() {
	local t=$(now)
	if [ ! -f "$lanes/$1.rc" ]; then
		section "waiting for the build lane's $1"
		while [ ! -f "$lanes/$1.rc" ]; do
			# A lane that ended without a word: its build failed
			# (looked at again after: it may have ended just now).
			kill -0 "$build_pid" 2>/dev/null || [ -f "$lanes/$1.rc" ] ||
				echo 1 >"$lanes/$1.rc"
			sleep 1
		done
		t_rec guests "$t" "waiting for $1" "$1"
	fi
	return "$(cat "$lanes/$1.rc")"
}

# build_failed SUITE LOG WHAT: a build a guest needed failed: its log's
# end, and one failed result in the guest's place.
build_failed() {
	tail -n 40 "$results/$2"
	pseudo_result "$1" build 0 "$3 failed ($results/$2)"
	tap_lines "$results/$1/build.tap"
}

# The debug module and its guest tree; the kernel first, unless cached
# (.ci/run starts building it before anything else, and debug-kernel.sh
# waits for a build of the same key under way).
debug_stage() {
	rm -rf "$top/build/vmroot-debug"
	section "make debug-module debug-test-module stage-debug ($results/debug-build.log)"
	if make -s debug-module debug-test-module >"$results/debug-build.log" 2>&1 &&
	   make -s stage-debug >>"$results/debug-build.log" 2>&1; then
		echo 0 >"$lanes/debug.rc.tmp"
	else
		echo 1 >"$lanes/debug.rc.tmp"
		rm -rf "$top/build/vmroot-debug"
	fi
	mv "$lanes/debug.rc.tmp" "$lanes/stage-debug.rc"
}

# The lane beside the x86 and debug guests: the builds (the debug
# module's, which the other lane needs after the x86 guest, about 15
# minutes after the lanes start at this machine's speed, before the host
# tests), then the guests whose builds are its own: arm64 (about 9.5
# minutes) and PXA270 (3), and LTTng's beside ours (half a minute, and
# lttng-modules' build on a fresh machine, 80 s).
# The two lanes then take about 29 and 24 minutes, where one lane of
# every guest took 41 (2026-11-29, b0e4786).
build_lane() {
	lane_tag="builds: "
	local g pxa_rc=0
	local -A cross_rc
	for g in $cross_names; do
		[ "${do_cross[$g]}" = 1 ] || continue
		step builds "stage-$g" build "stage-$g" "$g-build.log" "stage-$g"
		cross_rc[$g]=$(cat "$lanes/stage-$g.rc")
	done
	if [ $do_pxa = 1 ]; then
		step builds stage-pxa build stage-pxa pxa-build.log stage-pxa
		pxa_rc=$(cat "$lanes/stage-pxa.rc")
	fi
	# Before the host tests, which nobody waits for: on a fresh machine
	# this waits for .ci/run's build of the debug kernel, whose -j
	# keeps the cores busy meanwhile.
	if [ $do_debug = 1 ]; then
		t_deps="debug kernel" step builds stage-debug debug_stage
	fi
	if [ $do_host = 1 ]; then
		step builds "host tests" host_suites
	fi
	for g in $cross_names; do
		[ "${do_cross[$g]}" = 1 ] || continue
		if [ "${cross_rc[$g]}" = 0 ]; then
			step builds "$g guest" cross_suites "$g"
		else
			build_failed "$g" "$g-build.log" "make stage-$g"
		fi
	done
	if [ $do_pxa = 1 ]; then
		if [ "$pxa_rc" = 0 ]; then
			step builds "PXA270 guests" pxa_suites
		else
			build_failed pxa pxa-build.log "make stage-pxa"
		fi
	fi
	if [ $do_vm = 1 ]; then
		step builds "LTTng beside tracebuf" lttng_suite
	fi
}

if [ $debug_build = 1 ]; then
	# Two guests at a time, ours: the lanes take the machine-wide lock
	# that every vm-run queues on (scripts/vm/vm-run) once for both, so
	# that no other checkout's guest makes a third on two cores.
	if [ "${TB_VM_NOLOCK:-0}" != 1 ] && command -v flock >/dev/null; then
		vm_lock_dir=${XDG_CACHE_HOME:-$HOME/.cache}/tracebuf
		mkdir -p "$vm_lock_dir"
		exec 8>"$vm_lock_dir/vm.lock"
		if ! flock -n 8; then
			section "waiting for another checkout's guest to finish ($vm_lock_dir/vm.lock)"
			flock 8
		fi
		export TB_VM_NOLOCK=1
	fi
	build_lane &
	build_pid=$!
	lane_tag="guests: "
	if [ $do_vm = 1 ]; then
		step guests "x86, crash and provoke guests" x86_suites
	fi
	if [ $do_debug = 1 ]; then
		if ! await stage-debug; then
			tail -n 40 "$results/debug-build.log"
			echo "# the debug kernel or module did not build (above): its run counts as failed"
		fi
		step guests "debug guest" debug_suites
	fi
	lane_tag=
	section "waiting for the build lane to finish"
	wait "$build_pid"
else
	[ $do_host = 1 ] && step host "host tests" host_suites
	[ $do_vm = 1 ] && step guests "x86, crash and provoke guests" x86_suites
	for g in $cross_names; do
		[ "${do_cross[$g]}" = 1 ] && step guests "$g guest" cross_suites "$g"
	done
	[ $do_pxa = 1 ] && step guests "PXA270 guests" pxa_suites
	[ $do_vm = 1 ] && step guests "LTTng beside tracebuf" lttng_suite
	[ $do_debug = 1 ] && step guests "debug guest" debug_suites
fi

timing_report

# Add up: ok / not ok lines per binary; a binary that exited non-zero
# without a failing line, or reported fewer results than its plan, counts
# the difference as failures.
summary=$(
for tap in "$results"/*/*.tap; do
	[ -f "$tap" ] || continue
	rc=$(cat "${tap%.tap}.rc" 2>/dev/null || echo 1)
	awk -v rc="$rc" -v name="${tap#"$results"/}" '
		/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0 }
		/^ok / { if ($0 ~ /# SKIP/) skip++; else pass++ }
		/^not ok / { if ($0 ~ /# SKIP/) skip++; else fail++ }
		END {
			n = pass + fail + skip
			if (plan > n) { fail += plan - n; print "# " name ": " plan - n " result(s) missing" > "/dev/stderr" }
			if (rc != 0 && fail == 0) { fail = 1; print "# " name ": exited " rc " without a failing result" > "/dev/stderr" }
			printf "%d %d %d\n", pass, fail, skip
		}' "$tap"
done | awk '{ p += $1; f += $2; s += $3 } END { printf "%d %d %d\n", p, f, s }'
)
read -r passed failed skipped <<<"$summary"

if [ "$failed" != 0 ]; then
	echo "# failed:"
	grep -H '^not ok' "$results"/*/*.tap 2>/dev/null | sed "s|$results/||; s/^/#   /"
fi
echo "$passed passed, $failed failed, $skipped skipped" | tee "$results/summary"
[ "$failed" = 0 ]
