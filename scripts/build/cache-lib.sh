# SPDX-License-Identifier: GPL-2.0
#
# What the builders of scripts/build (debug-kernel.sh, pxa-kernel.sh,
# arm64-kernel.sh, lttng-modules.sh) share, sourced, not run: each keeps
# what it builds in a cache outside the checkout, shared by every
# checkout on the machine, in a directory named by a key.  The caller
# sets prog (its name, for messages).

# die MESSAGE: the message on stderr, exit 1.
die() {
	echo "$prog: $*" >&2
	exit 1
}

# ... | cache_key: the key of a cache directory, a hash of what the build
# depends on (stdin).
cache_key() {
	sha256sum | cut -c1-16
}

# cache_lock FILE: one build per key on this machine: holds FILE's lock
# (descriptor 8) until the caller exits, saying so when it has to wait.
cache_lock() {
	exec 8>"$1"
	if ! flock -n 8; then
		echo "$prog: waiting for another build to finish ($1)" >&2
		flock 8
	fi
}

# The sources the kernels are built from: Debian's linux-source-6.1, and
# its version for the keys (the tarball's size and time without dpkg).
tarball=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
linux_source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
		stat -c '%s %Y' "$tarball"
}

# extract_linux_source KDIR [PATCH]: the tarball in KDIR, PATCH applied,
# unless an earlier run did it (KDIR/.extracted).
extract_linux_source() {
	[ -f "$1/.extracted" ] && return 0
	echo "$prog: extracting $tarball into $1" >&2
	rm -rf "$1"
	mkdir -p "$1"
	tar -xJf "$tarball" -C "$1" --strip-components=1 ||
		die "could not extract $tarball"
	if [ -n "${2:-}" ]; then
		patch -d "$1" -p1 -s <"$2" || die "$2 does not apply"
	fi
	touch "$1/.extracted"
}

# apt_unpack DEBS DEST PACKAGE...: Debian's packages downloaded with
# apt-get into DEBS and unpacked into DEST, never installed; the .debs
# are removed after.
apt_unpack() {
	local debs=$1 dest=$2 f
	shift 2
	mkdir -p "$debs" || die "cannot create $debs"
	# apt-get download writes into the current directory as _apt when
	# it can.
	chmod 0777 "$debs"
	(cd "$debs" && apt-get download -q "$@" >&2) || die "apt-get download failed"
	for f in "$debs"/*.deb; do
		dpkg-deb -x "$f" "$dest" || die "cannot unpack $f"
	done
	rm -f "$debs"/*.deb
}
