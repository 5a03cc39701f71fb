#!/bin/sh
# testbed/apt-closure.sh DIR ARCH SUITE PKG...
#
# Like apt-private.sh, but with everything PKG... depends on: apt-get's own resolver
# (`apt-get install --download-only --no-install-recommends` against the empty private
# status of apt-private.sh's DIR, so the whole closure, libc6 included) downloads the
# packages, and each is unpacked with dpkg-deb -x into DIR/sysroot. Nothing on the host
# changes. DIR/sysroot/.closure names the packages; a second run with the same PKG list
# downloads nothing.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 DIR ARCH SUITE PKG..." >&2; exit 2; }
dir=$1 arch=$2 suite=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
want="$arch $suite $*"
[ "$(cat "$dir/sysroot/.closure" 2>/dev/null | head -1)" = "$want" ] && exit 0
# apt-private.sh writes DIR/apt.conf and the private lists (and fetches PKG itself).
"$here/apt-private.sh" "$dir" "$arch" "$suite" "$1"
export APT_CONFIG="$dir/apt.conf"
pkgs=
for p; do pkgs="$pkgs $p:$arch"; done
echo "testbed: apt-get install --download-only$pkgs and dependencies ($suite, private)"
rm -f "$dir"/cache/archives/*.deb
apt-get -q -y -d --no-install-recommends install $pkgs >"$dir/closure.log" 2>&1 ||
	{ tail -20 "$dir/closure.log" >&2; exit 1; }
rm -rf "$dir/sysroot.tmp" && mkdir -p "$dir/sysroot.tmp"
for deb in "$dir"/cache/archives/*.deb; do
	dpkg-deb -x "$deb" "$dir/sysroot.tmp"
done
{ echo "$want"; ls "$dir"/cache/archives/ | grep '\.deb$'; } > "$dir/sysroot.tmp/.closure"
rm -rf "$dir/sysroot" && mv "$dir/sysroot.tmp" "$dir/sysroot"
rm -f "$dir"/cache/archives/*.deb
echo "testbed:   $dir/sysroot: $(($(wc -l < "$dir/sysroot/.closure") - 1)) packages"
