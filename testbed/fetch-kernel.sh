#!/bin/sh
# testbed/fetch-kernel.sh DIR [ABI]
#
# Gets Debian's own 6.1 kernel (linux-image-6.1.0-ABI-amd64-unsigned) with `apt-get
# download`, unpacks it with `dpkg -x` and leaves DIR/vmlinuz (a symlink to the
# versioned file) and DIR/kernel.txt (package and version). Without ABI (or with
# KABI=) the newest 6.1.0-N-amd64-unsigned that apt-cache knows is taken. A second
# run finds DIR/vmlinuz-* and downloads nothing.
set -eu
dir=${1:?usage: fetch-kernel.sh DIR [ABI]}
abi=${2:-${KABI:-}}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

if [ -z "$abi" ]; then
	if [ -e "$dir/kernel.txt" ] && [ -e "$dir/vmlinuz" ]; then
		exit 0
	fi
	abi=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' |
		sed -n 's/^linux-image-6\.1\.0-\([0-9]*\)-amd64-unsigned .*/\1/p' | sort -n | tail -1)
	if [ -z "$abi" ] && [ "$(id -u)" = 0 ]; then
		echo "testbed: apt-cache knows no linux-image-6.1.0-*-amd64-unsigned: apt-get update"
		apt-get -q update >"$dir/update.log" 2>&1 || tail -5 "$dir/update.log" >&2
		abi=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' |
			sed -n 's/^linux-image-6\.1\.0-\([0-9]*\)-amd64-unsigned .*/\1/p' | sort -n | tail -1)
	fi
	if [ -z "$abi" ]; then
		echo "testbed: apt-cache knows no linux-image-6.1.0-*-amd64-unsigned: run 'apt-get update' (as root)" >&2
		exit 1
	fi
fi
pkg=linux-image-6.1.0-$abi-amd64-unsigned
if [ -e "$dir/vmlinuz-6.1.0-$abi-amd64" ]; then
	ln -sf "vmlinuz-6.1.0-$abi-amd64" "$dir/vmlinuz"
	exit 0
fi
ver=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
[ -n "$ver" ] && [ "$ver" != "(none)" ] || {
	echo "testbed: no candidate for $pkg (apt-get update, or pick another ABI with KABI=)" >&2; exit 1; }
echo "testbed: apt-get download $pkg ($ver)"
rm -rf "$dir/dl" && mkdir -p "$dir/dl"
(cd "$dir/dl" && apt-get -q download "$pkg") >"$dir/download.log" 2>&1 ||
	{ cat "$dir/download.log" >&2; exit 1; }
deb=$(ls "$dir/dl/"*.deb | head -1)
rm -rf "$dir/x" && mkdir -p "$dir/x"
dpkg -x "$deb" "$dir/x"
cp "$dir/x/boot/vmlinuz-6.1.0-$abi-amd64" "$dir/"
rm -rf "$dir/x"
ln -sf "vmlinuz-6.1.0-$abi-amd64" "$dir/vmlinuz"
printf '%s %s %s\n' "$pkg" "$ver" "$(basename "$deb")" > "$dir/kernel.txt"
echo "testbed:   $dir/vmlinuz-6.1.0-$abi-amd64 from $(basename "$deb")"
