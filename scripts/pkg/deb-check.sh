#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prove the packages of `make deb` (in OUT) work, without touching this
# machine's kernel modules: what each package holds, checked against the
# tree; then a real installation with dpkg in a throwaway Debian 12
# chroot (scripts/pkg/deb-chroot.sh) holding the headers of the VM's kernel
# KVER and of one other kernel: dkms builds and installs the module for
# both although KVER plays the running kernel, the tracing group exists,
# `man -w` finds every page, the completion loads through
# bash-completion, installing a third kernel builds the module for it,
# and purging leaves no file behind.  The module dkms built is copied to
# OUT/dkms/tracebuf.ko for the VM (the Makefile boots it).
#
# Prints TAP, one line per check; exits non-zero if any failed.
#
# Usage: scripts/pkg/deb-check.sh OUT KVER

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(cd "${1:?usage: deb-check.sh OUT KVER}" && pwd)
kver=${2:?usage: deb-check.sh OUT KVER}
cd "$top" || exit 1
ver=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
root="$out/chroot"
n=0
failed=0
t0=$(date +%s)

ok() {	# ok STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
	fi
}

# /tmp/fake first: its uname says the chroot runs KVER (below).
in_root() {
	chroot "$root" /usr/bin/env -i \
		PATH=/tmp/fake:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 "$@"
}

cleanup() {
	umount "$root/proc" 2>/dev/null
}
trap cleanup EXIT

echo "TAP version 13"

# ---- contents, against the tree
want=$(cd "$top" && { echo Kbuild; echo dkms.conf; git ls-files driver uapi 2>/dev/null ||
	find driver uapi -type f; } | sort)
got=$(dpkg-deb -c "$out/tracebuf-dkms_${ver}_all.deb" |
	sed -n "s|.* \./usr/src/tracebuf-$ver/\(.*[^/]\)$|\1|p" | sort)
[ "$want" = "$got" ]
ok $? "tracebuf-dkms holds exactly Kbuild, dkms.conf, driver/ and uapi/ in /usr/src/tracebuf-$ver"
if [ "$want" != "$got" ]; then diff <(echo "$want") <(echo "$got") | sed 's/^/# /'; fi

tools=$(dpkg-deb -c "$out/tracebuf-tools_${ver}_$arch.deb" | awk '{print $6}')
miss=""
for f in ./usr/bin/tracebuf ./usr/share/bash-completion/completions/tracebuf \
	 $(sed -n 's/^ALIASES := //p' userspace/Makefile | tr ' ' '\n' |
	   sed 's|^|./usr/share/bash-completion/completions/|') \
	 $(ls Documentation/*.rst | sed 's|Documentation/\(.*\)\.rst|./usr/share/doc/tracebuf-tools/\1.html|') \
	 ./lib/udev/rules.d/60-tracebuf.rules \
	 $(ls Documentation/man/*.rst | sed 's|Documentation/man/\(.*\)\.\([0-9]\)\.rst|./usr/share/man/man\2/\1.\2.gz|') \
	 $(ls scripts/ship/*.service 2>/dev/null | sed 's|scripts/ship/|./lib/systemd/system/|'); do
	echo "$tools" | grep -qx -- "$f" || miss="$miss $f"
done
[ -z "$miss" ]
ok $? "tracebuf-tools holds the tool, every man page, the documentation as HTML, the completion (also of the old names), the udev rule and units${miss:+ (missing:$miss)}"
dpkg-deb -c "$out/tracebuf-dev_${ver}_all.deb" | grep ' \./usr/include/linux/tracebuf\.h$' >/dev/null
ok $? "tracebuf-dev holds <linux/tracebuf.h>"
# It includes the FDR wire format's header, which must come with it.
dpkg-deb -c "$out/tracebuf-dev_${ver}_all.deb" | grep ' \./usr/include/linux/tracebuf_fdr\.h$' >/dev/null
ok $? "tracebuf-dev holds <linux/tracebuf_fdr.h>, which <linux/tracebuf.h> includes"

# ---- a real installation in a throwaway chroot
if ! scripts/pkg/deb-chroot.sh "$root" "$kver"; then
	ok 1 "chroot with dkms and linux-headers-$kver"
	echo "1..$n"
	exit 1
fi
# /proc only (debootstrap made /dev's nodes); nothing of the host's is
# mounted inside, so removing the chroot can only remove the chroot.
mount -t proc proc "$root/proc"
# What udev makes on a real system; bash's <(...) needs it.
ln -sfn /proc/self/fd "$root/dev/fd"
find "$root" -xdev \( -path "$root/var/lib/dpkg" -o -path "$root/var/cache" -o \
	-path "$root/var/log" -o -path "$root/tmp" \) -prune -o -print | sort >"$out/files-before"
# dkms builds for the running kernel and the newest one unless told to
# build for all; in the chroot the host's kernel runs, which is not
# installed there, and then dkms builds for all anyway.  So uname says
# KVER, as on a machine that runs it: only the package's own setting
# makes dkms build for the other kernel too.
mkdir -p "$root/tmp/fake"
printf '#!/bin/sh\n[ "$1" = -r ] && echo %s && exit 0\nexec /bin/uname "$@"\n' \
	"$kver" >"$root/tmp/fake/uname"
chmod +x "$root/tmp/fake/uname"
# shellcheck disable=SC1091
. "$root/root/tb-kernels"	# other=, next=
mkdir -p "$root/tmp/debs"
cp "$out"/tracebuf-dkms_*.deb "$out"/tracebuf-tools_*.deb "$out"/tracebuf-dev_*.deb "$root/tmp/debs/"

t1=$(date +%s)
in_root dpkg -i /tmp/debs/tracebuf-dkms_${ver}_all.deb /tmp/debs/tracebuf-tools_${ver}_$arch.deb \
	/tmp/debs/tracebuf-dev_${ver}_all.deb >"$out/install.log" 2>&1
ok $? "dpkg -i of the three packages in a Debian 12 chroot ($(($(date +%s) - t1)) s, dkms build included)"
sed 's/^/# /' "$out/install.log" | grep -iE 'building|done|error|skipped' | head -10

for k in "$kver" "$other"; do
	status=$(in_root dkms status tracebuf/"$ver" -k "$k" 2>&1)
	echo "$status" | grep -q "installed"
	ok $? "dkms built and installed tracebuf/$ver for $k: $status"
done
ko=$(find "$root/lib/modules/$kver/updates" -name 'tracebuf.ko*' 2>/dev/null | head -1)
[ -n "$ko" ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$kver" ]
ok $? "the installed module's vermagic is $kver (${ko#$root})"
modinfo -p "$ko" 2>/dev/null | grep -q '^tracing_gid:'
ok $? "the installed module has the tracing_gid parameter"
mkdir -p "$out/dkms"
cp "$ko" "$out/dkms/tracebuf.ko"
grep -q "^tracebuf " "$root/lib/modules/$kver/modules.dep" 2>/dev/null ||
	grep -q "tracebuf.ko" "$root/lib/modules/$kver/modules.dep"
ok $? "depmod in the chroot knows the module"

in_root getent group tracing >/dev/null
ok $? "the group tracing exists"
[ -f "$root/lib/udev/rules.d/60-tracebuf.rules" ] &&
	grep -q 'GROUP="tracing"' "$root/lib/udev/rules.d/60-tracebuf.rules"
ok $? "the udev rule gives the nodes to the group"

miss=""
for p in $(ls Documentation/man/*.rst | sed 's|.*/\(.*\)\.[0-9]\.rst|\1|') \
	 tracebufctl tbconv tbdecode tb-workload; do
	in_root man -w "$p" >/dev/null 2>&1 || miss="$miss $p"
done
in_root man -w 4 tracebuf >/dev/null 2>&1 || miss="$miss tracebuf(4)"
[ -z "$miss" ]
ok $? "man -w finds every page and the old names${miss:+ (not:$miss)}"
in_root sh -c 'MANWIDTH=80 man tracebuf-record 2>&1' | grep -q -- '--stats-json'
ok $? "man tracebuf-record renders"
miss=""
for f in $(cat Documentation/man/*.rst | grep -o '[a-z-]*\.html' | sort -u); do
	[ -s "$root/usr/share/doc/tracebuf-tools/$f" ] || miss="$miss $f"
done
[ -z "$miss" ]
ok $? "the HTML the man pages cite is in /usr/share/doc/tracebuf-tools${miss:+ (not:$miss)}"

# _completion_loader returns 124 ("retry") when it loaded something.
# The second line completes the traced command through bash-completion's
# _command_offset: tracebuf again; the third an old name, whose
# completion loads by its own name.  Words sorted, as bash shows them.
comp=$(in_root bash -c '. /usr/share/bash-completion/bash_completion &&
	{ _completion_loader tracebuf; complete -p tracebuf; } &&
	for w in "tracebuf record --sta" "tracebuf record -- tracebuf rec" "tbconv fdr-j"; do
		read -ra COMP_WORDS <<<"$w"
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$w COMP_POINT=${#w}
		_completion_loader "${COMP_WORDS[0]}"
		_tracebuf 2>/dev/null && printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" "
	done' 2>&1)
[ "$comp" = "$(printf 'complete -F _tracebuf tracebuf\n--start --stats-json\nrecord\nfdr-json')" ]
ok $? "bash-completion loads the completion on demand and completes (${comp//$'\n'/; })"

# A kernel upgrade: installing a new kernel's headers runs dkms's hook
# (/etc/kernel/header_postinst.d/dkms), which must build the module for
# it (AUTOINSTALL).
t1=$(date +%s)
in_root sh -c 'dpkg -i /root/kdebs/*.deb' >"$out/upgrade.log" 2>&1
status=$(in_root dkms status tracebuf/"$ver" -k "$next" 2>&1)
echo "$status" | grep -q installed
ok $? "installing kernel $next's headers builds it for $next ($(($(date +%s) - t1)) s): $status"

t1=$(date +%s)
in_root dpkg --purge tracebuf-tools tracebuf-dkms tracebuf-dev >"$out/purge.log" 2>&1
ok $? "dpkg --purge of the three packages ($(($(date +%s) - t1)) s)"
find "$root" -xdev \( -path "$root/var/lib/dpkg" -o -path "$root/var/cache" -o \
	-path "$root/var/log" -o -path "$root/tmp" \) -prune -o -print | sort >"$out/files-after"
# Not the packages' files: the new kernel's (dpkg -L, /usr-merged paths),
# the backup adduser keeps of /etc/gshadow and its lock (the group
# stays), and depmod's indexes and directories, which the headers-only
# chroot had none of (a system with its kernel images has them anyway);
# no index may name the module.
kpkgs=$(for d in "$root"/root/kdebs/*.deb; do dpkg-deb -f "$d" Package; done)
# shellcheck disable=SC2086
in_root dpkg -L $kpkgs | sed -E "s#^/(lib|bin|sbin)/#/usr/\1/#; s#^#$root#" |
	sort -u >"$out/files-kernel"
left=$(comm -13 "$out/files-before" "$out/files-after" |
	comm -23 - "$out/files-kernel" |
	grep -vE "^$root/(etc/gshadow-|run/adduser|usr/lib/modules/[^/]+/modules\.[a-z.]+|usr/lib/modules/$next(/updates(/dkms)?)?)\$")
[ -z "$left" ] && ! cat "$root"/lib/modules/*/modules.dep 2>/dev/null | grep -q tracebuf
ok $? "purging leaves no file behind that was not there before"
echo "$left" | sed '/^$/d; s/^/# left: /' | head -20
in_root getent group tracing >/dev/null
ok $? "the group tracing stays after purge (Debian practice: Documentation/packaging.rst)"
[ -z "$(find "$root/lib/modules/" -name 'tracebuf.ko*')" ]
ok $? "no tracebuf module left in the chroot's /lib/modules, of any kernel"

cleanup
trap - EXIT
rm -rf --one-file-system "$root"
echo "# deb-check: $(($(date +%s) - t0)) s"
echo "1..$n"
[ "$failed" = 0 ]
