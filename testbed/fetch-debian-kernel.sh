#!/bin/sh
# testbed/fetch-debian-kernel.sh DIR ARCH SUITE [IMAGE[=VERSION]]
#
# Gets the kernel Debian's SUITE ships for ARCH (amd64, arm64, loong64) through the private
# apt of testbed/apt-private.sh (nothing in the system's apt state changes): the
# metapackage linux-image-ARCH names the image package (linux-image-6.12.N+deb13-ARCH on
# trixie, linux-image-6.1.0-N-ARCH on bookworm, SUITE "system"). Up to Debian 13 that
# package holds boot/vmlinuz-KREL; from Debian's 7.x kernels on (sid: linux-image-7.2.N+
# deb14-loong64) it is itself a metapackage and the image is in linux-binary-KREL
# (usr/lib/modules/KREL/vmlinuz; the modules are in linux-modules-KREL, not fetched). Of
# the package that holds the image, its -unsigned twin is taken when the archive has one
# (the same vmlinuz, without the Secure Boot signature), else the package itself. Leaves
# DIR/vmlinuz (a symlink to the versioned file; for arm64 and loong64 the bootable Image,
# decompressed: see below) and DIR/kernel.txt (package, version, .deb).
# A second run finds DIR/kernel.txt and downloads nothing: the cache entry is keyed by
# the image package's name and version, written in kernel.txt.
# SUITE may be several suites in one argument, "bullseye bullseye-security": apt then takes
# the newest linux-image-ARCH among them (bullseye: 5.10.223-1, the last point release;
# with bullseye-security: the LTS kernel of the day).
#
# arm64: a vmlinuz may be a plain Image (Debian 12's 6.1 and Debian 13's 6.12 are: "ARM\x64"
# at offset 56), a gzip'd Image, or an EFI zboot PE ("MZ" with "zimg" at offset 4: a
# decompressor around a gzip'd or zstd'd Image, which qemu 7.2's -kernel does not unpack);
# every form is turned into the plain Image (DIR/Image) and vmlinuz points at it.
# loong64: sid's vmlinuz is an EFI zboot PE with a zstd payload; qemu 10.0's -kernel
# (direct boot, no firmware) takes the LoongArch Image inside it (a PE too: "MZ", the
# kernel entry at 8, LINUX_PE_MAGIC 0x818223cd at 56), so that is unpacked to DIR/Image
# the same way (a zstd payload needs the zstd program).
# IMAGE[=VERSION] names the image package itself instead (kernel-patches: the build of the
# very source version its series is made against, linux-image-6.1.0-57-amd64-unsigned=
# 6.1.192-3): no metapackage, no -unsigned twin; the entry is kept while kernel.txt names
# that package (and version). Every fetch also leaves the image's build configuration,
# DIR/config (a symlink to config-KREL), where the package has one (boot/config-KREL).
set -eu
[ $# = 3 ] || [ $# = 4 ] || { echo "usage: $0 DIR ARCH SUITE [IMAGE[=VERSION]]" >&2; exit 2; }
dir=$1 arch=$2 suite=$3 want=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -e "$dir/kernel.txt" ] && [ -e "$dir/vmlinuz" ]; then
	[ -z "$want" ] && exit 0
	read -r hp hv _ <"$dir/kernel.txt"
	[ "$hp" = "${want%%=*}" ] && { [ "$want" = "${want%%=*}" ] || [ "$hv" = "${want#*=}" ]; } && exit 0
fi
apt=$dir/apt
if [ -n "$want" ]; then
	img=${want%%=*} pkg=$want
	krel=${img#linux-image-}; krel=${krel%-unsigned}
	"$here/apt-private.sh" "$apt" "$arch" "$suite" "$pkg"
else
	"$here/apt-private.sh" "$apt" "$arch" "$suite" "linux-image-$arch"
	meta=$apt/debs/$(cat "$apt/root/.done-linux-image-$arch")
	img=$(dpkg-deb -f "$meta" Depends | tr ',' '\n' | sed -n "s/^ *\(linux-image-[0-9][^ ]*-$arch\)\( .*\)\{0,1\}$/\1/p" | head -1)
	[ -n "$img" ] || { echo "testbed: $(basename "$meta") names no linux-image-*-$arch" >&2; exit 1; }
	krel=${img#linux-image-}
	# Debian 7.x: linux-image-KREL depends on linux-binary-KREL, which holds the image
	# (what the private lists say of it: no download).
	bin=$img
	if APT_CONFIG=$apt/apt.conf apt-cache show --no-all-versions "$img:$arch" 2>/dev/null |
		sed -n 's/^Depends: //p' | head -1 | tr ',' '\n' | grep -q "^ *linux-binary-$krel\( \|\$\)"; then
		bin=linux-binary-$krel
		echo "testbed:   $img is a metapackage: the image is in $bin"
	fi
	pkg=$bin-unsigned
	if ! "$here/apt-private.sh" "$apt" "$arch" "$suite" "$pkg" 2>"$dir/unsigned.log"; then
		echo "testbed: no $pkg in $suite ($(tail -1 "$dir/unsigned.log")): $bin instead"
		pkg=$bin
		"$here/apt-private.sh" "$apt" "$arch" "$suite" "$pkg"
	fi
fi
deb=$(cat "$apt/root/.done-$pkg")
src=
for f in "$apt/root/boot/vmlinuz-$krel" "$apt/root/usr/lib/modules/$krel/vmlinuz"; do
	[ -r "$f" ] && { src=$f; break; }
done
[ -n "$src" ] || { echo "testbed: $deb has no boot/vmlinuz-$krel nor usr/lib/modules/$krel/vmlinuz" >&2; exit 1; }
cp "$src" "$dir/vmlinuz-$krel"
rm -f "$dir/config"
for f in "$apt/root/boot/config-$krel" "$apt/root/usr/lib/modules/$krel/config"; do
	[ -r "$f" ] && { cp "$f" "$dir/config-$krel"; ln -s "config-$krel" "$dir/config"; break; }
done
# The kernel Image's own mark: arm64 "ARM\x64" at 56; LoongArch "MZ" at 0 and
# LINUX_PE_MAGIC (0x818223cd, little-endian) at 56.
is_image() {
	case $arch in
	arm64) [ "$(od -An -c -j56 -N3 "$1" | tr -d ' ')" = ARM ] ;;
	loong64) [ "$(od -An -c -N2 "$1" | tr -d ' ')" = MZ ] &&
		[ "$(od -An -tx1 -j56 -N4 "$1" | tr -d ' ')" = cd238281 ] ;;
	esac
}
if [ "$arch" = arm64 ] || [ "$arch" = loong64 ]; then
	# A gzip'd Image, or an EFI zboot image: "MZ", then "zimg" at 4, the payload's
	# offset and size (le32) at 8 and 12, its compression ("gzip", "zstd") at 24.
	magic=$(od -An -c -j4 -N4 "$src" | tr -d ' ')
	if [ "$magic" = zimg ]; then
		off=$(od -An -tu4 -j8 -N4 "$src" | tr -d ' ')
		size=$(od -An -tu4 -j12 -N4 "$src" | tr -d ' ')
		comp=$(od -An -c -j24 -N4 "$src" | tr -d ' ')
		case $comp in
		gzip) unz="gzip -dc" ;;
		zstd) command -v zstd >/dev/null ||
				{ echo "testbed: zstd missing: apt-get install zstd" >&2; exit 1; }
			unz="zstd -q -dc" ;;
		*) echo "testbed: zboot payload is $comp, not gzip or zstd" >&2; exit 1 ;;
		esac
		tail -c +$((off + 1)) "$src" | head -c "$size" | $unz > "$dir/Image.tmp"
		echo "testbed:   EFI zboot image: payload ($size bytes at $off, $comp) unpacked"
	elif is_image "$src"; then
		# The same file: a second name, not a second copy (an uncompressed Image is
		# tens of MB).
		ln -f "$dir/vmlinuz-$krel" "$dir/Image.tmp" 2>/dev/null || cp "$src" "$dir/Image.tmp"
		echo "testbed:   a plain (uncompressed) $arch Image"
	else
		gzip -dc < "$src" > "$dir/Image.tmp"
	fi
	is_image "$dir/Image.tmp" || { echo "testbed: $dir/Image.tmp is no $arch Image" >&2; exit 1; }
	mv "$dir/Image.tmp" "$dir/Image"
	ln -sf Image "$dir/vmlinuz"
else
	ln -sf "vmlinuz-$krel" "$dir/vmlinuz"
fi
ver=$(dpkg-deb -f "$apt/debs/$deb" Version)
pkg=${pkg%%=*}
rm -rf "$apt/root/boot" "$apt/root/lib" "$apt/root/usr/lib/modules" "$apt/root/usr/lib/linux-image-$krel" \
	"$apt/debs/$deb"
printf '%s %s %s\n' "$pkg" "$ver" "$deb" > "$dir/kernel.txt"
echo "testbed:   $dir/vmlinuz ($pkg $ver)"
