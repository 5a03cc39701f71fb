#!/bin/sh
# tests/tsync.sh: the TSYNC race (tests/tsync/race.c). A program whose 8
# threads are in an fstat() loop installs, through the C library's syscall() with
# SECCOMP_FILTER_FLAG_TSYNC, a filter that kills the fstat syscall. Without sysshim no
# run dies (glibc 2.33 - 2.38's fstat() makes newfstatat; later glibc's makes fstat, and
# then the program itself is killed: nothing to compare, the case is skipped); with the
# library preloaded none may die either: the fast path's fstat syscall is answered ENOSYS
# at its site by the program the kernel gets (src/internal/own_site.h, filter.c), and
# the call goes on another way. Before that, 3 to 13 runs in 200 died of SIGSYS.
# The filter is made by hand and by libseccomp (SCMP_FLTATR_CTL_TSYNC, seccomp_load()).
# TSYNC_ROUNDS (500) runs each with the library, a fifth of that without.
# TSYNC_BIN: the race program, built there where missing (make check-compat builds it on
# the host with TSYNC_BUILD_ONLY=1, which only builds, and runs this script in its guests).
# Prints "tsync: N passed, N failed".
B=${B:-build}
CC=${CC:-cc}
top=$(pwd)
LIB=${LIB:-$top/$B/lib/libsysshim.so.0}
rounds=${TSYNC_ROUNDS:-500}
bin=${TSYNC_BIN:-$top/$B/tsync/race}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL $1"; shift; for l; do printf '       %s\n' "$l"; done; }
finish() { echo "tsync: $pass passed, $fail failed"; exit $((fail != 0)); }
[ -n "${TSYNC_BUILD_ONLY:-}" ] || [ -e "$LIB" ] || { bad "$LIB is not built (make all)"; finish; }
mkdir -p "$(dirname "$bin")"
{ [ -x "$bin" ] && [ -n "${TSYNC_BIN:-}" ] && [ -z "${TSYNC_BUILD_ONLY:-}" ]; } ||
	$CC -O2 -pthread -DWITH_LIBSECCOMP -o "$bin" "$top/tests/tsync/race.c" -lseccomp ||
	{ bad "tests/tsync/race.c does not build (libseccomp-dev)"; finish; }
[ -n "${TSYNC_BUILD_ONLY:-}" ] && exit 0
# The filter by hand, and libseccomp's; each: the oracle (the program alone), then with
# the library preloaded.
for how in hand libseccomp; do
	alone=$("$bin" $((rounds / 5)) $how)
	case $alone in
	*", 0 killed"*) ok "$how, without sysshim: $alone" ;;
	*killed*) echo "  skip the C library's own fstat() makes the fstat syscall here: $alone"; continue ;;
	*) bad "$how, without sysshim: $alone"; continue ;;
	esac
	with=$(LD_PRELOAD=$LIB "$bin" "$rounds" $how)
	case $with in
	*", 0 killed"*) ok "$how, with the library preloaded: $with" ;;
	*) bad "$how, with the library preloaded: $with" "(the oracle: $alone)" ;;
	esac
done
finish
