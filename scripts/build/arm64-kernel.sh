#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# arm64-kernel.sh: fetch (once) what the arm64 guest needs, outside the
# checkout: Debian's own arm64 kernel of the same ABI as the amd64 one we
# boot (linux-image-ABI-arm64 and its headers, unpacked, never installed),
# busybox-static for arm64, and vmlinux.h for the BPF collector, dumped
# from the BTF inside the kernel image.  See --help.

set -u

prog=arm64-kernel.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/build/cache-lib.sh"
base=${TB_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracebuf/arm64}
print_only=0

usage() {
	cat <<EOF
Usage: $prog [--print-dir] [--kver]

Unless the cache has them, download with apt-get (the arm64 architecture
must be enabled: scripts/setup.sh does it) and unpack into
$base/ABI:

  root/boot/vmlinuz-ABI-arm64     the kernel qemu-system-aarch64 boots
  root/lib/modules/ABI-arm64      its modules (virtio_blk, ext4 for --disk)
  kdir/                           its headers, ready for an out-of-tree
                                  module build (ARCH=arm64, the host's
                                  linux-kbuild-6.1 tools: same version)
  busybox                         busybox-static, arm64
  vmlinux.h                       the kernel's BTF as C, for the BPF
                                  programs (CO-RE)

then print the directory.  ABI is that of scripts/build/kver.sh's kernel
(6.1.0-N-amd64 gives 6.1.0-N-arm64), so that the host's linux-kbuild-6.1
matches the headers.

Options:
  --print-dir   print the directory and exit (1 if it is not complete)
  --kver        print the arm64 kernel release and exit
EOF
}

for arg in "$@"; do
	case "$arg" in
	--print-dir) print_only=1 ;;
	--kver) print_only=2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done

host_kver=$("$top/scripts/build/kver.sh") || exit 1
abi=${host_kver%-amd64}
[ "$abi" != "$host_kver" ] || die "the host kernel $host_kver is not Debian's amd64 flavour"
kver=$abi-arm64
if [ $print_only = 2 ]; then
	echo "$kver"
	exit 0
fi
dir=$base/$abi
if [ -f "$dir/.complete" ]; then
	echo "$dir"
	exit 0
fi
[ $print_only = 1 ] && exit 1

start=$(date +%s)
dpkg --print-foreign-architectures | grep -qx arm64 ||
	die "the arm64 architecture is not enabled: run scripts/setup.sh as root"
rm -rf "$dir"
echo "$prog: fetching Debian's $kver kernel, headers and busybox into $dir" >&2
apt_unpack "$dir/debs" "$dir/root" "linux-image-$kver:arm64" \
	"linux-headers-$kver:arm64" "linux-headers-$abi-common" busybox-static:arm64
img=$dir/root/boot/vmlinuz-$kver
[ -r "$img" ] || die "$img missing from the package"

# The headers: their Makefile includes the common part by its installed
# path, and scripts/ and tools/ are links to linux-kbuild-6.1, which is
# the host's (amd64 programs) at the same version.
kbuild=/usr/lib/linux-kbuild-$(echo "$abi" | cut -d. -f1,2)
[ -d "$kbuild/scripts" ] || die "$kbuild missing (linux-kbuild of the amd64 headers)"
common=$dir/root/usr/src/linux-headers-$abi-common
ln -sfn "$dir/root/usr/src/linux-headers-$kver" "$dir/kdir"
echo "include $common/Makefile" >"$dir/kdir/Makefile"
for d in "$dir/kdir" "$common"; do
	ln -sfn "$kbuild/scripts" "$d/scripts"
	ln -sfn "$kbuild/tools" "$d/tools"
done
cp "$dir/root/bin/busybox" "$dir/busybox" || die "busybox-static:arm64 has no /bin/busybox"

# vmlinux.h: Debian ships no arm64 vmlinux (and a System.map stub), but
# the Image holds the kernel's BTF: the first blob with the BTF magic,
# version 1 and a 24-byte header, whose header gives its length.
zcat "$img" >"$dir/Image" 2>/dev/null || cp "$img" "$dir/Image"
python3 - "$dir/Image" "$dir/vmlinux.btf" <<'PY' || die "no BTF found in $img"
import struct, sys
data = open(sys.argv[1], "rb").read()
at = data.find(b"\x9f\xeb\x01\x00\x18\x00\x00\x00")
if at < 0:
    sys.exit(1)
hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from("<5I", data, at + 4)
open(sys.argv[2], "wb").write(data[at:at + hdr_len + str_off + str_len])
PY
bpftool btf dump file "$dir/vmlinux.btf" format c >"$dir/vmlinux.h.tmp" ||
	die "bpftool cannot read the BTF cut from the Image"
mv "$dir/vmlinux.h.tmp" "$dir/vmlinux.h"
rm -f "$dir/Image"
touch "$dir/.complete"
echo "$prog: done in $(( $(date +%s) - start )) s" >&2
echo "$dir"
