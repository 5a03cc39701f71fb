# debian/tests/lib.sh: sourced by the tests in debian/tests/control (not a test itself).
#
# The tests run on installed packages: the system's, where autopkgtest installed them,
# or a scratch root that tests/deb.sh unpacked with dpkg -x.  SYSSHIM_DEB_ROOT names that
# root (empty or unset: the system); tests/deb.sh also points PATH, LD_LIBRARY_PATH,
# PKG_CONFIG_SYSROOT_DIR, PKG_CONFIG_LIBDIR and SYSSHIM_LIB into it, so the tests run the
# same commands either way and check that they reach $ROOT's files.
#
# Each check prints "ok   ...", "FAIL ..." or "skip ..." on standard output; nothing goes
# to standard error (autopkgtest fails a test that writes there: no allow-stderr), and
# finish prints "NAME: N passed, N failed, N skipped" and exits 1 if anything failed.

ROOT=${SYSSHIM_DEB_ROOT:-}
T=${AUTOPKGTEST_TMP:-}
if [ -z "$T" ]; then
	T=$(mktemp -d) || exit 1
	trap 'rm -rf "$T"' EXIT
fi
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skip() { skipped=$((skipped + 1)); echo "skip $*"; }
finish() {
	echo "$1: $pass passed, $fail failed, $skipped skipped"
	[ "$fail" = 0 ]
	exit
}

# The directory of libsysshim.so.0 (/usr/lib/<triplet>): this machine's triplet where
# more than one architecture is installed (Multi-Arch: same).
LIBDIR=
for d in "$ROOT"/usr/lib/"$(uname -m)"-linux-*/libsysshim.so.0 "$ROOT"/usr/lib/*/libsysshim.so.0; do
	[ -e "$d" ] && { LIBDIR=${d%/*}; break; }
done
LIB=$LIBDIR/libsysshim.so.0
