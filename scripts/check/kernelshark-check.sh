#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Open a trace.dat in KernelShark under a private Xvfb server, keep a
# screenshot, and check that the GUI loaded the file: KernelShark says
# "Loading FILE" and nothing else but the two plugins that may have no
# events to work on in our traces (sched_events needs sched_switch, which
# only a trace with recorded switches has; kvm_combo a host-guest pair),
# and the screenshot shows the plots (many colours, not a blank or a
# dialog).
#
# Usage: kernelshark-check.sh DAT PNG [PID]
# Exit: 0 ok, 1 failure, 4 kernelshark, trace-cmd, Xvfb, xwd or convert
# missing.

set -u
dat=$1 png=$2 pid=${3:-}
for t in kernelshark trace-cmd Xvfb xwd convert setpriv; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "kernelshark-check: not installed: $t (scripts/setup.sh installs it)"
		exit 4
	}
done
work=$(mktemp -d /tmp/tb-ks-XXXXXX)
chmod 755 "$work"
cp "$dat" "$work/t.dat"
chmod 644 "$work/t.dat"
mkdir "$work/home"
# As root, KernelShark opens a modal warning first: run it as nobody.
asuser=
if [ "$(id -u)" = 0 ]; then
	chown 65534:65534 "$work/home"
	asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
xvfb=
ks=
cleanup() {
	[ -n "$ks" ] && kill "$ks" 2>/dev/null
	[ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# A display no other server holds: Xvfb picks it and writes it to fd 3.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" \
	>"$work/xvfb.log" 2>&1 &
xvfb=$!
i=0
while [ ! -s "$work/display" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$work/display" ] || { echo "kernelshark-check: Xvfb did not start"; cat "$work/xvfb.log"; exit 1; }
export DISPLAY=":$(cat "$work/display")"

# A CPU plot for each CPU of the file, and the task's plot.
cpus=$(trace-cmd report "$work/t.dat" 2>/dev/null | sed -n '1s/^cpus=//p')
plots="--cpu 0-$((${cpus:-1} - 1))"
[ -n "$pid" ] && plots="$plots --pid $pid"
# Every XDG directory under that home: the caller's (an XDG_CACHE_HOME
# of root's, say) is not the user's, and mesa complains there.
HOME=$work/home XDG_RUNTIME_DIR=$work/home XDG_CACHE_HOME=$work/home/.cache \
	XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share \
	$asuser kernelshark -geometry 1280x800+0+0 -i "$work/t.dat" $plots \
	>"$work/ks.log" 2>&1 &
ks=$!
# Loaded when the window is drawn: wait for its screenshot to fill in.
i=0
colours=0
while [ $i -lt 60 ]; do
	sleep 0.5
	i=$((i + 1))
	kill -0 $ks 2>/dev/null || break
	xwd -root -silent >"$work/s.xwd" 2>/dev/null || continue
	colours=$(convert "$work/s.xwd" -format %k info: 2>/dev/null || echo 0)
	[ "$colours" -gt 40 ] && { sleep 2; break; }
done
xwd -root -silent >"$work/s.xwd" && convert "$work/s.xwd" "$png"
colours=$(convert "$png" -format %k info: 2>/dev/null || echo 0)
if ! kill -0 $ks 2>/dev/null; then
	echo "kernelshark-check: kernelshark exited:"; cat "$work/ks.log"; exit 1
fi
grep -q "^Loading  *\"$work/t.dat\"" "$work/ks.log" || {
	echo "kernelshark-check: no 'Loading' line:"; cat "$work/ks.log"; exit 1; }
other=$(grep -v -e '^Loading ' -e '^plugin "sched_events" failed to initialize' \
	-e '^plugin "kvm_combo" failed to initialize' -e '^QStandardPaths' \
	"$work/ks.log")
[ -z "$other" ] || { echo "kernelshark-check: kernelshark said: $other"; exit 1; }
[ "$colours" -gt 40 ] || {
	echo "kernelshark-check: the screenshot has $colours colours: no plots"; exit 1; }
echo "kernelshark: loaded, $colours colours in $png"
