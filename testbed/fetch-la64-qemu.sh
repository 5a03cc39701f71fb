#!/bin/sh
# testbed/fetch-la64-qemu.sh DIR
#
# Debian 13's qemu-system-loongarch64 (qemu-system-misc 10.0) for a Debian 12 host. Its
# binary needs glibc 2.38 and libraries Debian 12 lacks (libcapstone5, libfuse3-4,
# libaio1t64, ...), so the package and everything it depends on (trixie's libc6 too) are
# downloaded with apt-get's own resolver under the private apt of apt-private.sh
# (`apt-get install --download-only` against an empty private status: the whole closure),
# unpacked into DIR/sysroot, and run with that sysroot's own loader:
#   DIR/qemu-system-loongarch64 ARGS...  (a wrapper: ld-linux-x86-64.so.2 --library-path)
# Nothing is installed on the host. DIR/qemu.txt names the version; a second run with it
# present downloads nothing.
set -eu
dir=${1:?usage: fetch-la64-qemu.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -x "$dir/qemu-system-loongarch64" ] && [ -e "$dir/qemu.txt" ] &&
	grep -q QEMU_MODULE_DIR "$dir/qemu-system-loongarch64"; then
	exit 0
fi
if [ -e "$dir/qemu.txt" ] && [ -x "$dir/sysroot/usr/bin/qemu-system-loongarch64" ]; then
	wrap_only=1
else
	wrap_only=
fi
[ -n "$wrap_only" ] || {
"$here/apt-private.sh" "$dir" amd64 trixie qemu-system-misc
export APT_CONFIG="$dir/apt.conf"
echo "testbed: apt-get install --download-only qemu-system-misc and its dependencies (trixie, private)"
apt-get -q -y -d --no-install-recommends install qemu-system-misc >"$dir/closure.log" 2>&1 ||
	{ tail -20 "$dir/closure.log" >&2; exit 1; }
rm -rf "$dir/sysroot.tmp" && mkdir -p "$dir/sysroot.tmp"
n=0
for deb in "$dir"/cache/archives/*.deb; do
	dpkg-deb -x "$deb" "$dir/sysroot.tmp"
	n=$((n + 1))
done
rm -rf "$dir/sysroot" && mv "$dir/sysroot.tmp" "$dir/sysroot"
echo "$n" > "$dir/sysroot/.packages"
}
n=$(cat "$dir/sysroot/.packages" 2>/dev/null || echo '?')
r=$dir/sysroot
cat > "$dir/qemu-system-loongarch64.tmp" <<EOF
#!/bin/sh
# Debian 13's qemu-system-loongarch64 with Debian 13's own loader and libraries; its
# modules (none are unpacked) never from the host's qemu 7.2 (a different build: abort).
export QEMU_MODULE_DIR="$r/usr/lib/x86_64-linux-gnu/qemu"
exec "$r/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \\
	--library-path "$r/usr/lib/x86_64-linux-gnu:$r/lib/x86_64-linux-gnu" \\
	"$r/usr/bin/qemu-system-loongarch64" -L "$r/usr/share/qemu" "\$@"
EOF
chmod +x "$dir/qemu-system-loongarch64.tmp"
mv "$dir/qemu-system-loongarch64.tmp" "$dir/qemu-system-loongarch64"
ver=$("$dir/qemu-system-loongarch64" --version | head -1)
[ -n "$ver" ] || { echo "testbed: $dir/qemu-system-loongarch64 does not run" >&2; exit 1; }
rm -f "$dir"/cache/archives/*.deb
echo "$ver ($n packages from trixie)" > "$dir/qemu.txt"
echo "testbed:   $dir/qemu-system-loongarch64: $ver ($n packages unpacked)"
