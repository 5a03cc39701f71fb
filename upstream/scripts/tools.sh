#!/bin/sh
# tools.sh: install the Debian packages check-upstream needs, then verify
# every tool; a missing tool is an error, never a skip.
set -eu
PKGS="quilt clang-19 lld-19 llvm-16 qemu-user gawk bison python3 gcc make
patch strace xz-utils tar gzip dpkg binutils libc6-dev git"
echo "check-upstream: apt-get install -y --no-upgrade" $PKGS
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-upgrade $PKGS >/tmp/check-upstream-apt.$$ 2>&1; then
	cat /tmp/check-upstream-apt.$$ >&2; rm -f /tmp/check-upstream-apt.$$
	echo "check-upstream: apt-get install failed" >&2; exit 1
fi
grep -E '^(Setting up|The following NEW)' /tmp/check-upstream-apt.$$ || echo "check-upstream: all packages already installed"
rm -f /tmp/check-upstream-apt.$$
missing=
for t in quilt clang-19 ld.lld-19 llvm-ar-16 llvm-ranlib-16 qemu-loongarch64 gawk bison \
	python3 gcc make patch strace xz tar dpkg dpkg-deb apt-get sha256sum awk git; do
	command -v $t >/dev/null 2>&1 || missing="$missing $t"
done
[ -x /usr/lib/llvm-19/bin/ld.lld ] || missing="$missing /usr/lib/llvm-19/bin/ld.lld"
if [ -n "$missing" ]; then
	echo "check-upstream: MISSING TOOLS:$missing" >&2
	exit 1
fi
echo "check-upstream: tools ok"
