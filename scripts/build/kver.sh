#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the kernel release to build against and boot: the newest one for
# which both the headers (/lib/modules/R/build) and /boot/vmlinuz-R are
# installed.  $KVER overrides.  Exits 1 with a message if there is none.

if [ -n "${KVER:-}" ]; then
	echo "$KVER"
	exit 0
fi

# The glob sorts lexically: pick the highest in version order.
best=$(for build in /lib/modules/*/build; do
	rel=${build#/lib/modules/}; rel=${rel%/build}
	[ -d "$build" ] && [ -r "/boot/vmlinuz-$rel" ] && echo "$rel"
done | sort -V | tail -n 1)

if [ -z "$best" ]; then
	echo "kver: no kernel has both headers and /boot/vmlinuz installed;" \
	     "run scripts/setup.sh or set KVER=" >&2
	exit 1
fi
echo "$best"
