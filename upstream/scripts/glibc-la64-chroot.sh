#!/bin/sh
# glibc-la64-chroot.sh CACHE: prints the path of a Debian 13 (trixie) chroot
# with the loong64 cross tool chain, creating it first if needed.
#
# The chroot is $CACHE/chroot-trixie-<hash of the package list>; it is made
# with debootstrap from the mirror the system's apt already uses (the first
# URIs: line of /etc/apt/sources.list.d/*.sources or the first deb line of
# /etc/apt/sources.list), so no mirror address lives in the tree.  A changed
# package list makes a new chroot.  The caller holds the lock
# (mk/upstream.mk: $(call CACHE_LOCK,glibc-la64-chroot)).
set -eu
CACHE=${1:?usage: glibc-la64-chroot.sh CACHE}
PKGS="gcc-14-loongarch64-linux-gnu binutils-loongarch64-linux-gnu
libc6-dev-loong64-cross linux-libc-dev-loong64-cross
gcc make gawk bison python3 gettext texinfo file"
PKGS=$(echo $PKGS)
H=$(printf '%s\n' "trixie minbase $PKGS" | sha256sum | cut -c1-12)
R=$CACHE/chroot-trixie-$H
if [ -f "$R/.sysshim-done" ]; then echo "$R"; exit 0; fi

fail() { echo "glibc-la64-chroot: $*" >&2; exit 1; }
command -v debootstrap >/dev/null || {
	echo "glibc-la64-chroot: apt-get install -y debootstrap" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-upgrade debootstrap >&2 || fail "cannot install debootstrap"; }
MIRROR=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ { print $2; exit }')
[ -n "$MIRROR" ] || MIRROR=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^(http|https|ftp|file):/) { print $i; exit } }' /etc/apt/sources.list 2>/dev/null)
[ -n "$MIRROR" ] || fail "no apt mirror found in /etc/apt/sources.list(.d)"
case $MIRROR in *-security*) fail "first mirror $MIRROR is a security mirror";; esac
rm -rf "$R.tmp"
echo "glibc-la64-chroot: debootstrap trixie from $MIRROR into $R (log $R.log)" >&2
echo "glibc-la64-chroot: packages: $PKGS" >&2
s=$(date +%s)
debootstrap --variant=minbase --include="$(echo $PKGS | tr ' ' ,)" \
	trixie "$R.tmp" "$MIRROR" >"$R.log" 2>&1 || { tail -20 "$R.log" >&2; fail "debootstrap failed"; }
for t in loongarch64-linux-gnu-gcc-14 loongarch64-linux-gnu-as gawk bison python3 make; do
	chroot "$R.tmp" sh -c "command -v $t" >/dev/null || fail "$t missing in the chroot"
done
[ -f "$R.tmp/usr/loongarch64-linux-gnu/include/linux/stat.h" ] || fail "loong64 kernel headers missing"
rm -rf "$R.tmp/var/cache/apt/archives/"*.deb
echo "$PKGS" >"$R.tmp/.sysshim-pkgs"
echo "debootstrap $(( $(date +%s) - s )) s" >"$R.tmp/.sysshim-time"
touch "$R.tmp/.sysshim-done"
mv "$R.tmp" "$R"
echo "glibc-la64-chroot: done in $(( $(date +%s) - s )) s" >&2
echo "$R"
