#!/bin/sh
# testbed/fetch-debian-kernel.sh DIR ARCH SUITE
#
# Gets the kernel Debian's SUITE ships for ARCH (amd64, arm64) through the private apt of
# testbed/apt-private.sh (nothing in the system's apt state changes): the metapackage
# linux-image-ARCH names the image package (linux-image-6.12.N+deb13-ARCH on trixie,
# linux-image-6.1.0-N-ARCH on bookworm, SUITE "system"); its -unsigned twin is taken when
# the archive has one (the same vmlinuz, without the Secure Boot signature), else the
# signed package. Leaves DIR/vmlinuz (a symlink to the versioned file; for arm64 the
# bootable Image, decompressed: see below) and DIR/kernel.txt (package, version, .deb).
# A second run finds DIR/kernel.txt and downloads nothing: the cache entry is keyed by
# the image package's name and version, written in kernel.txt.
# SUITE may be several suites in one argument, "bullseye bullseye-security": apt then takes
# the newest linux-image-ARCH among them (bullseye: 5.10.223-1, the last point release;
# with bullseye-security: the LTS kernel of the day).
#
# arm64: a vmlinuz may be a plain Image (Debian 12's 6.1 and Debian 13's 6.12 are: "ARM\x64"
# at offset 56), a gzip'd Image, or an EFI zboot PE ("MZ" with "zimg" at offset 4: a
# decompressor around a gzip'd Image, which qemu 7.2's -kernel does not unpack); every
# form is turned into the plain Image (DIR/Image) and vmlinuz points at it.
set -eu
[ $# = 3 ] || { echo "usage: $0 DIR ARCH SUITE" >&2; exit 2; }
dir=$1 arch=$2 suite=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -e "$dir/kernel.txt" ] && [ -e "$dir/vmlinuz" ]; then
	exit 0
fi
apt=$dir/apt
"$here/apt-private.sh" "$apt" "$arch" "$suite" "linux-image-$arch"
meta=$apt/debs/$(cat "$apt/root/.done-linux-image-$arch")
img=$(dpkg-deb -f "$meta" Depends | tr ',' '\n' | sed -n "s/^ *\(linux-image-[0-9][^ ]*-$arch\)\( .*\)\{0,1\}$/\1/p" | head -1)
[ -n "$img" ] || { echo "testbed: $(basename "$meta") names no linux-image-*-$arch" >&2; exit 1; }
pkg=$img-unsigned
if ! "$here/apt-private.sh" "$apt" "$arch" "$suite" "$pkg" 2>"$dir/unsigned.log"; then
	echo "testbed: no $pkg in $suite ($(tail -1 "$dir/unsigned.log")): the signed $img instead"
	pkg=$img
	"$here/apt-private.sh" "$apt" "$arch" "$suite" "$pkg"
fi
deb=$(cat "$apt/root/.done-$pkg")
krel=${img#linux-image-}
src=$apt/root/boot/vmlinuz-$krel
[ -r "$src" ] || { echo "testbed: $deb has no boot/vmlinuz-$krel" >&2; exit 1; }
cp "$src" "$dir/vmlinuz-$krel"
if [ "$arch" = arm64 ]; then
	# A gzip'd Image, or an EFI zboot image: "MZ", then "zimg" at 4, the payload's
	# offset and size (le32) at 8 and 12, its compression ("gzip") at 24.
	magic=$(od -An -c -j4 -N4 "$src" | tr -d ' ')
	if [ "$magic" = zimg ]; then
		off=$(od -An -tu4 -j8 -N4 "$src" | tr -d ' ')
		size=$(od -An -tu4 -j12 -N4 "$src" | tr -d ' ')
		comp=$(od -An -c -j24 -N4 "$src" | tr -d ' ')
		[ "$comp" = gzip ] || { echo "testbed: zboot payload is $comp, not gzip" >&2; exit 1; }
		tail -c +$((off + 1)) "$src" | head -c "$size" | gzip -dc > "$dir/Image.tmp"
		echo "testbed:   EFI zboot image: payload ($size bytes at $off, gzip) unpacked"
	elif [ "$(od -An -c -j56 -N3 "$src" | tr -d ' ')" = ARM ]; then
		# The same file: a second name, not a second copy (27 - 37 MB).
		ln -f "$dir/vmlinuz-$krel" "$dir/Image.tmp" 2>/dev/null || cp "$src" "$dir/Image.tmp"
		echo "testbed:   a plain (uncompressed) arm64 Image"
	else
		gzip -dc < "$src" > "$dir/Image.tmp"
	fi
	# An arm64 Image has "ARM\x64" at offset 56.
	[ "$(od -An -c -j56 -N3 "$dir/Image.tmp" | tr -d ' ')" = ARM ] ||
		{ echo "testbed: $dir/Image.tmp is no arm64 Image" >&2; exit 1; }
	mv "$dir/Image.tmp" "$dir/Image"
	ln -sf Image "$dir/vmlinuz"
else
	ln -sf "vmlinuz-$krel" "$dir/vmlinuz"
fi
ver=$(dpkg-deb -f "$apt/debs/$deb" Version)
rm -rf "$apt/root/boot" "$apt/root/lib" "$apt/root/usr/lib/modules" "$apt/root/usr/lib/linux-image-$krel" \
	"$apt/debs/$deb"
printf '%s %s %s\n' "$pkg" "$ver" "$deb" > "$dir/kernel.txt"
echo "testbed:   $dir/vmlinuz ($pkg $ver)"
