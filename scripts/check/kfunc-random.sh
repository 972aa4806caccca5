#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kfunc-random.sh: record COUNT kernel functions picked at random (seeded,
# so a failure can be replayed) with `tracebuf record -f`, under both
# clocks, in Debian's kernel or the debug kernel, and check that the guest
# survives with a clean log and that llvm-xray verifies every trace.  Too
# slow for CI (minutes per round under TCG); `make kfunc-random`.  TAP.

set -u

prog=kfunc-random.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
seed=1
count=512
rounds=2
debug=0
out="$top/build/kfunc-random"

usage() {
	cat <<EOF
Usage: $prog [--debug] [--seed N] [--count N] [--rounds N] [--out DIR]

Boot one guest (Debian's kernel, or with --debug the KASAN + lockdep
kernel of scripts/build/debug-kernel.sh) and, for each of ROUNDS seeds from
SEED on and each clock (fdr_clock=auto, the TSC, then local), pick COUNT
distinct functions of vmlinux at random from available_filter_functions
(names that occur once, not in the kprobe blacklist, not ftrace's
__ftrace_invalid_address_* placeholders, not in the idle loop's
.cpuidle.text) and record a small
workload with them: tracebuf record -f LIST -e syscall,irq,softirq,sched.
Every recording must succeed (the module and the selector keep one rule,
so a function the selector offers is one the module takes), the guest's
kernel log must stay free of warnings, and llvm-xray fdr-dump -verify
must accept every trace.  The lists and traces stay in DIR (default
build/kfunc-random); replay one with the same --seed and --count.

The idle loop is left out because Linux 6.1 itself cannot take a return
probe there: rethook_try_get() reads an RCU pointer before it checks
rcu_is_watching(), so on a lockdep kernel each such call logs "suspicious
RCU usage" (kernel/trace/rethook.c:88), and the call is missed anyway.
The kernel's own kprobe events accept these functions as the module does
(Documentation/fdr.rst, "Kernel functions").

Defaults: --seed $seed --count $count --rounds $rounds.
Exit status: 0 all passed, 1 a check failed, 2 usage.
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--debug) debug=1 ;;
	--seed) seed=${2:?}; shift ;;
	--count) count=${2:?}; shift ;;
	--rounds) rounds=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "$prog: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
for v in "$seed" "$count" "$rounds"; do
	case $v in
	'' | *[!0-9]*) echo "$prog: '$v' is not a number" >&2; exit 2 ;;
	esac
done
if [ "$count" -lt 1 ] || [ "$count" -gt 512 ]; then
	echo "$prog: --count must be 1..512 (TRACEBUF_FDR_KFUNC_MAX)" >&2
	exit 2
fi

vmargs=(-r "$top/build/vmroot" -m 1024)
if [ $debug = 1 ]; then
	kdir=$("$top/scripts/build/debug-kernel.sh" --print-dir) || {
		echo "$prog: the debug kernel is not built: make stage-debug" >&2
		exit 1
	}
	vmargs=(-K "$kdir/arch/x86/boot/bzImage" -r "$top/build/vmroot-debug" -m 2048)
fi

rm -rf "$out"
mkdir -p "$out"
guest=$out/guest.sh
cat >"$guest" <<EOF
#!/bin/sh
mount -t tracefs none /sys/kernel/tracing 2>/dev/null
mount -t debugfs none /sys/kernel/debug 2>/dev/null
avail=/sys/kernel/tracing/available_filter_functions
black=/sys/kernel/debug/kprobes/blacklist
mkdir -p /out
r=0
while [ \$r -lt $rounds ]; do
	s=\$(($seed + r))
	for clock in auto local; do
		name=seed\$s-\$clock
		echo "\$clock" >/sys/module/tracebuf/parameters/fdr_clock
		# vmlinux only (no [module]), names that occur once, not
		# blacklisted, not ftrace's placeholders of dropped weak functions.
		# Nor the idle loop's (.cpuidle.text, between two kallsyms
		# marks of equal-width hex, so compared as strings), where RCU
		# is not watching: see below.
		awk 'FILENAME == ARGV[1] {
				if (\$3 == "__cpuidle_text_start") lo = \$1
				else if (\$3 == "__cpuidle_text_end") hi = \$1
				else addr[\$3] = \$1
				next
			}
			FILENAME == ARGV[2] { bad[\$2] = 1; next }
			/\\[/ || /^__ftrace_invalid_address_/ { next }
			{ seen[\$1]++ }
			END {
				for (f in seen) {
					if (seen[f] != 1 || (f in bad))
						continue
					if (lo != "" && addr[f] >= lo && addr[f] < hi) {
						idle++
						continue
					}
					print f
				}
				print idle + 0 " idle-loop functions left out" >"/out/idle.txt"
			}' /proc/kallsyms "\$black" "\$avail" | sort |
		awk -v seed=\$s -v n=$count '
			{ c[++m] = \$0 }
			END {
				# Sorted first, so that a seed always picks the same list.
				srand(seed)
				for (i = 1; i <= n && i <= m; i++) {
					j = i + int(rand() * (m - i + 1))
					t = c[i]; c[i] = c[j]; c[j] = t
					print c[i]
				}
			}' >/out/\$name.list
		echo "# \$name: \$(wc -l </out/\$name.list) functions"
		echo "\$name" >/run/vm-step
		tracebuf record -q -e syscall,irq,softirq,sched \\
			-f "\$(awk 'NR > 1 { printf "," } { printf "%s", \$0 }' /out/\$name.list)" -o /out/\$name.fdr -- \\
			sh -c 'ls -R /lib >/dev/null; i=0
				while [ \$i -lt 100 ]; do cat /proc/self/stat >/dev/null; i=\$((i + 1)); done
				dd if=/dev/zero of=/dev/null bs=4k count=2000 2>/dev/null; sleep 1' \\
			>/out/\$name.log 2>&1
		echo \$? >/out/\$name.rc
	done
	r=\$((r + 1))
done
echo auto >/sys/module/tracebuf/parameters/fdr_clock
EOF

echo "TAP version 13"
echo "1..$((1 + 4 * rounds))"
"$top/scripts/vm/vm-run" -q "${vmargs[@]}" -t $((600 + 900 * rounds)) \
	-w "$out/vm" -o "$out/guest-out" -s "$guest" >"$out/vm.log" 2>&1
rc=$?
n=1
fails=0
if [ $rc = 0 ]; then
	echo "ok 1 the guest survived every round, its kernel log clean"
else
	echo "not ok 1 the guest survived every round, its kernel log clean # vm-run exit $rc"
	tail -n 20 "$out/vm.log" | sed 's/^/# /'
	fails=1
fi
r=0
while [ $r -lt "$rounds" ]; do
	for clock in auto local; do
		name=seed$((seed + r))-$clock
		f=$out/guest-out/$name
		n=$((n + 1))
		if [ "$(cat "$f.rc" 2>/dev/null)" = 0 ] && [ -s "$f.fdr" ]; then
			echo "ok $n $name: tracebuf record -f with $(wc -l <"$f.list") functions"
		else
			echo "not ok $n $name: tracebuf record -f with $(wc -l <"$f.list" 2>/dev/null) functions"
			sed 's/^/# /' "$f.log" 2>/dev/null | head -n 10
			fails=$((fails + 1))
		fi
		n=$((n + 1))
		if llvm-xray fdr-dump -verify "$f.fdr" >/dev/null 2>"$out/$name.verify"; then
			echo "ok $n $name: llvm-xray fdr-dump -verify"
		else
			echo "not ok $n $name: llvm-xray fdr-dump -verify"
			head -n 5 "$out/$name.verify" | sed 's/^/# /'
			fails=$((fails + 1))
		fi
	done
	r=$((r + 1))
done
[ $fails = 0 ]
