#!/bin/sh
# glibc.sh: Debian's glibc 2.36-9+deb12u14 with the fstat backport.
#   glibc.sh fetch | tree | build | test | bench
set -eu
: "${UP:?}" "${TOP:?}"
S=$TOP/upstream/scripts
export UPSTREAM_BUILD=$UP
VER=2.36-9+deb12u14
SRC=$UP/src/glibc
T=$SRC/glibc-2.36
B=$UP/glibc/build
G=$UP/glibc
PATCH=$TOP/upstream/glibc/io-fstat-no-fstatat.diff
# Stamps hash the hunks only, so editing the patch's description does not
# force a 15-minute rebuild.
PSUM=$(sed -n '/^--- /,$p' "$PATCH" | sha256sum | cut -d' ' -f1)

fail() { echo "glibc.sh: $*" >&2; exit 1; }

fetch() {
	mkdir -p "$SRC"
	cd "$SRC"
	if [ ! -f glibc_$VER.dsc ] || [ ! -f glibc_$VER.debian.tar.xz ] || [ ! -f glibc_2.36.orig.tar.xz ]; then
		"$S/apt-private.sh" bookworm-src deb-src bookworm bookworm-updates bookworm-security -- \
			source --download-only "glibc=$VER"
	fi
	for f in glibc_$VER.dsc glibc_$VER.debian.tar.xz glibc_2.36.orig.tar.xz; do
		[ -f "$f" ] || fail "$f not fetched"
	done
}

tree() {
	if [ -f "$T/.sysshim-patched" ] && [ "$(cat "$T/.sysshim-patched")" = "$PSUM" ]; then
		echo "glibc tree: cached"; return 0
	fi
	rm -rf "$T"
	cd "$SRC"
	tar xJf glibc_2.36.orig.tar.xz
	cd "$T"
	tar xJf ../glibc_$VER.debian.tar.xz
	QUILT_PATCHES=debian/patches quilt push -a -q >"$SRC/quilt.log" 2>&1 || {
		tail -20 "$SRC/quilt.log"; fail "quilt push -a failed"; }
	echo "glibc tree: Debian's series applied ($(grep -c '^Applying' "$SRC/quilt.log") patches)"
	patch -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch <"$PATCH" || fail "backport did not apply"
	! find . -name '*.rej' | grep -q . || fail "rejected hunks"
	echo "$PSUM" >"$T/.sysshim-patched"
}

# What is used of the build: libc.so.6 and elf/ld.so (make test, and
# bench-real boots them as the guest's libc), libc.a and csu/crt1.o, crti.o,
# crtn.o (bench), and support/libsupport_nonshared.a (the io tests link it).
# glibc's 'make lib' builds libc (libc.a, libc.so, ld.so, csu's start files)
# and nothing else; 'make' is 'lib' then 'others', which adds every other
# library (libm, libmvec, libresolv, libnss_*, ...: bench-real takes those
# from the guest's Debian 12), the gconv modules and the programs.
# 'support/others' builds libsupport for 'make test'.
TARGETS="lib support/others"
# No -g (glibc's default CFLAGS are -g -O2): the same code, less to compile
# (docs/results.md, "What the limits in the code are set against").
CONFIG="--prefix=/usr --disable-werror CFLAGS=-O2"
KEY="$PSUM $CONFIG / $TARGETS"

build() {
	tree
	if [ -f "$B/status" ] && [ "$(cat "$B/status")" = 0 ] && \
	   [ -f "$B/build.key" ] && [ "$(cat "$B/build.key")" = "$KEY" ]; then
		echo "glibc build: cached"; cat "$B/times"; return 0
	fi
	rm -rf "$B"; mkdir -p "$B"; cd "$B"
	echo "$KEY" >build.key
	s=$(date +%s)
	echo "glibc build: configure (log $B/configure.log)"
	"$T/configure" $CONFIG >configure.log 2>&1 || {
		tail -20 configure.log; echo 1 >status; fail "configure failed"; }
	c=$(date +%s)
	echo "configure $((c-s)) s" >times
	echo "glibc build: make -j2 $TARGETS: libc alone, about half the work of a full make (log $B/make.log)"
	set +e
	rc=0; for t in $TARGETS; do make -j2 $t >>make.log 2>&1 || { rc=$?; break; }; done
	set -e
	e=$(date +%s)
	echo "make $TARGETS $((e-c)) s rc=$rc" >>times
	echo $rc >status
	cat times
	[ $rc = 0 ] || { tail -30 make.log; fail "make failed"; }
}

test_io() {
	[ "$(cat "$B/status" 2>/dev/null)" = 0 ] || fail "glibc not built"
	mkdir -p "$G/results"; : >"$G/results/io-tests.txt"
	ok=1
	# 'make test t=DIR/TEST' at the top of the build tree builds the test
	# and runs it through the build's own dynamic loader and libc
	# (testrun.sh-style: --library-path into the build tree).
	for t in io/tst-stat io/tst-stat-lfs io/tst-fstatat; do
		s=$(date +%s)
		set +e; make -C "$B" test t=$t >"$G/results/$(basename $t).log" 2>&1; rc=$?; set -e
		res=$(grep -E '^(PASS|FAIL|UNSUPPORTED|XPASS|XFAIL|ERROR): ' "$B/$t.test-result" 2>/dev/null || echo "NO RESULT (make rc $rc)")
		echo "$res ($(( $(date +%s) - s )) s)" | tee -a "$G/results/io-tests.txt"
		case $res in PASS:*) ;; *) ok=0 ;; esac
	done
	# Show that the test binary really ran against the fresh build.
	grep -m1 -o 'ld-linux-x86-64.so.2 --library-path [^ ]*' "$G/results/tst-stat.log" \
		| sed 's/^/  ran via: /' | tee -a "$G/results/io-tests.txt" || true
	[ $ok = 1 ] || fail "glibc io tests failed"
}

bench() {
	[ "$(cat "$B/status" 2>/dev/null)" = 0 ] || fail "glibc not built"
	mkdir -p "$G/results"; : >"$G/results/strace.txt"; : >"$G/results/bench.txt"
	src=$TOP/upstream/glibc/test/fstat-bench.c
	crt() { gcc -print-file-name="$1"; }
	# Static link against the fresh libc.a (system headers: same 2.36 API).
	gcc -O2 -Wall -c "$src" -o "$G/fstat-bench.o"
	gcc -static -no-pie -nostdlib -o "$G/fstat-bench-static" \
		"$B/csu/crt1.o" "$B/csu/crti.o" "$(crt crtbeginT.o)" "$G/fstat-bench.o" \
		-Wl,--start-group "$B/libc.a" -lgcc -lgcc_eh -Wl,--end-group \
		"$(crt crtend.o)" "$B/csu/crtn.o"
	# The same program against Debian 12's own libc.a, for before/after.
	gcc -O2 -Wall -static -o "$G/fstat-bench-static-debian" "$src"
	file "$G/fstat-bench-static" | grep -q 'statically linked' || fail "not static"
	ok=1
	for v in "" -debian; do
		strace -f -o "$G/results/strace$v.log" "$G/fstat-bench-static$v" probe >/dev/null
		call=$(sed -n '/bench: probe fstat()/,/bench: probe done/p' "$G/results/strace$v.log" \
			| grep -v 'write(1' | sed -E 's/^[0-9]+ +//; s/\{st_mode=[^}]*\}/{...}/')
		echo "fstat-bench-static$v: fstat() -> $call" | tee -a "$G/results/strace.txt"
	done
	grep -Eq '^fstat-bench-static: fstat\(\) -> fstat\([0-9]+, ' "$G/results/strace.txt" || { ok=0; echo "FAIL: patched fstat() is not the fstat syscall"; }
	grep -Eq '^fstat-bench-static-debian: fstat\(\) -> newfstatat\([0-9]+, ""' "$G/results/strace.txt" || { ok=0; echo "FAIL: Debian's fstat() is not newfstatat"; }
	for v in "" -debian; do
		echo "fstat-bench-static$v (host kernel $(uname -r)):" | tee -a "$G/results/bench.txt"
		"$G/fstat-bench-static$v" 200000 5 | tee -a "$G/results/bench.txt"
	done
	[ $ok = 1 ] || fail "strace check failed"
}

cmd=$1; shift
case $cmd in
fetch) fetch ;; tree) tree ;; build) build ;; test) test_io ;; bench) bench ;;
*) fail "unknown command $cmd" ;;
esac
