#!/bin/sh
# musl.sh: fetch, patch, build and test musl 1.2.6 for check-upstream.
#   musl.sh fetch | tree VARIANT | build ARCH VARIANT | test
# VARIANT is orig or patched, ARCH x86_64 or loongarch64.
# Everything lands under $UP (build/upstream); the patches and the test
# come from $TOP/upstream/musl.
set -eu
: "${UP:?}" "${TOP:?}"
S=$TOP/upstream/scripts
export UPSTREAM_BUILD=$UP
MUSL_TGZ=$UP/src/musl/musl_1.2.6.orig.tar.gz
MUSL_SHA256=d585fd3b613c66151fc3249e8ed44f77020cb5e6c1e635a616d3f9f82460512a
M=$UP/musl
QEMU72=/usr/bin/qemu-loongarch64
QEMU10=$UP/debs/qemu-user/usr/bin/qemu-loongarch64
LIBGCC_LA=$UP/debs/libgcc-la/usr/lib/gcc-cross/loongarch64-linux-gnu/14/libgcc.a
LA_CC="clang-19 --target=loongarch64-linux-gnu -mno-lsx"
# Stamps of patched trees and builds record the series' hash, so a changed
# series rebuilds.
SERIES=$(cat "$TOP"/upstream/musl/0*.patch | sha256sum | cut -d' ' -f1)
stampval() { [ "$1" = patched ] && echo "$SERIES" || echo orig; }

fail() { echo "musl.sh: $*" >&2; exit 1; }

fetch() {
	mkdir -p "$UP/src/musl" "$UP/debs"
	if ! echo "$MUSL_SHA256  $MUSL_TGZ" | sha256sum -c --status 2>/dev/null; then
		# sid's musl 1.2.6-2; the orig tarball is all we need (it is
		# upstream's release).  The mirror may lack the .dsc and the
		# Debian tarball (404 seen here), so judge by the orig
		# tarball's checksum from sid's Sources index.
		(cd "$UP/src/musl" && "$S/apt-private.sh" sid-src deb-src sid -- \
			source --download-only musl) || echo "musl.sh: apt-get source reported errors; checking the orig tarball" >&2
		echo "$MUSL_SHA256  $MUSL_TGZ" | sha256sum -c || fail "no musl 1.2.6 orig tarball"
	fi
	cd "$UP/debs"
	if ! ls qemu-user_*10.0*_amd64.deb >/dev/null 2>&1 || \
	   ! ls libgcc-14-dev-loong64-cross_*_all.deb >/dev/null 2>&1; then
		"$S/apt-private.sh" trixie deb trixie -- download qemu-user libgcc-14-dev-loong64-cross
	fi
	[ -x "$QEMU10" ] || { rm -rf qemu-user; dpkg -x qemu-user_*10.0*_amd64.deb qemu-user; }
	[ -f "$LIBGCC_LA" ] || { rm -rf libgcc-la; dpkg -x libgcc-14-dev-loong64-cross_*_all.deb libgcc-la; }
	[ -x "$QEMU10" ] || fail "qemu-loongarch64 10.0 missing after unpacking"
	[ -f "$LIBGCC_LA" ] || fail "libgcc.a for loongarch64 missing after unpacking"
	"$QEMU10" -version | head -1
	"$QEMU72" -version | head -1
}

tree() {
	local v=$1 d=$M/src-$1
	[ -f "$d/.stamp" ] && [ "$(cat "$d/.stamp")" = "$(stampval $v)" ] && return 0
	rm -rf "$d" "$M/tmp-src"; mkdir -p "$M/tmp-src"
	tar xzf "$MUSL_TGZ" -C "$M/tmp-src"
	mv "$M/tmp-src/musl-1.2.6" "$d"; rmdir "$M/tmp-src"
	if [ "$v" = patched ]; then
		for p in "$TOP"/upstream/musl/0*.patch; do
			echo "applying $(basename "$p")"
			# --fuzz=0 and --batch: any rejected or fuzzy hunk fails.
			(cd "$d" && patch -p1 --fuzz=0 --forward --batch \
				--no-backup-if-mismatch < "$p") || fail "patch $p failed"
		done
		! find "$d" -name '*.rej' | grep -q . || fail "rejected hunks"
	fi
	stampval $v >"$d/.stamp"
}

build() {
	local a=$1 v=$2 d=$M/$1-$2 t0 t1
	[ -f "$d/.stamp" ] && [ "$(cat "$d/.stamp")" = "$(stampval $v)" ] && {
		echo "musl $a $v: cached"; return 0; }
	tree "$v"
	rm -rf "$d"; mkdir -p "$d/obj"
	t0=$(date +%s)
	cd "$d/obj"
	case $a in
	x86_64) "$M/src-$v/configure" --prefix="$d/inst" --disable-shared CC=gcc >configure.log 2>&1 ;;
	loongarch64) "$M/src-$v/configure" --prefix="$d/inst" --target=loongarch64-linux-gnu \
		--disable-shared CC="$LA_CC" AR=llvm-ar-16 RANLIB=llvm-ranlib-16 >configure.log 2>&1 ;;
	*) fail "unknown arch $a" ;;
	esac || { cat configure.log; fail "configure $a $v failed"; }
	make -j2 >make.log 2>&1 || { tail -30 make.log; fail "make $a $v failed"; }
	make install >install.log 2>&1 || { tail -30 install.log; fail "make install $a $v failed"; }
	t1=$(date +%s)
	echo "musl $a $v: configure+make+install $((t1-t0)) s ($(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$M/times.txt"
	stampval $v >"$d/.stamp"
}

link_test() {
	local a=$1 v=$2 out=$M/musl-stat-test-$1-$2 i=$M/$1-$2/inst
	local src
	src=$TOP/upstream/musl/test/musl-stat-test.c
	case $a in
	x86_64) gcc -std=c11 -O2 -Wall -static -no-pie -nostdinc -isystem "$i/include" -nostdlib \
		"$i/lib/crt1.o" "$i/lib/crti.o" "$src" "$i/lib/libc.a" \
		"$(gcc -print-libgcc-file-name)" "$i/lib/crtn.o" -o "$out" ;;
	loongarch64) $LA_CC -std=c11 -O2 -Wall -static -nostdinc -isystem "$i/include" -nostdlib \
		-fuse-ld=lld "$i/lib/crt1.o" "$i/lib/crti.o" "$src" "$i/lib/libc.a" \
		"$LIBGCC_LA" "$i/lib/crtn.o" -o "$out" ;;
	esac || fail "linking the test for $a $v failed"
}

# run LABEL CMD...: run the test, keep its output, print the summary line.
run() {
	local label=$1 log sum skip rc; shift
	log=$M/results/$label.log
	set +e
	"$@" >"$log" 2>&1
	rc=$?
	set -e
	sum=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" || echo "no summary (exit $rc)")
	skip=$(grep -E '^[0-9]+ skipped$' "$log" || true)
	printf '%-34s %s%s\n' "$label" "$sum" "${skip:+, $skip}" | tee -a "$M/results/summary.txt"
	grep -E '^FAIL' "$log" | sed 's/^/    /' | tee -a "$M/results/summary.txt" || true
	return $rc
}

# Which statx calls the probe (one fstat, one fstatat(fd, "", AT_EMPTY_PATH))
# makes, per qemu's -strace.
probe() {
	local label=$1 qemu=$2 bin=$3 calls
	"$qemu" -strace "$bin" probe >"$M/results/strace-$label.log" 2>&1 || true
	calls=$(grep -E '^[0-9]+ statx\(' "$M/results/strace-$label.log" | sed -E 's/^[0-9]+ //; s/,0x[0-9a-f]+\)/,buf)/')
	# The listing goes to the summary and stderr; stdout carries only the
	# calls, for the caller to count.
	echo "strace $label:" | tee -a "$M/results/summary.txt" >&2
	echo "$calls" | sed 's/^/    /' | tee -a "$M/results/summary.txt" >&2
	echo "$calls"
}

test_all() {
	rm -rf "$M/results"; mkdir -p "$M/results"
	for a in x86_64 loongarch64; do for v in orig patched; do link_test $a $v; done; done
	ok=1
	# Before (unpatched) runs are expected to fail some checks; only the
	# patched runs decide the result.
	run "x86_64 native, unpatched" "$M/musl-stat-test-x86_64-orig" || true
	run "x86_64 native, patched" "$M/musl-stat-test-x86_64-patched" || ok=0
	run "loongarch64 qemu 7.2, unpatched" "$QEMU72" "$M/musl-stat-test-loongarch64-orig" || true
	run "loongarch64 qemu 7.2, patched" "$QEMU72" "$M/musl-stat-test-loongarch64-patched" || ok=0
	run "loongarch64 qemu 10.0, unpatched" "$QEMU10" "$M/musl-stat-test-loongarch64-orig" || true
	run "loongarch64 qemu 10.0, patched" "$QEMU10" "$M/musl-stat-test-loongarch64-patched" || ok=0

	probe qemu72-orig "$QEMU72" "$M/musl-stat-test-loongarch64-orig" 2>&1 >/dev/null
	c=$(probe qemu72-patched "$QEMU72" "$M/musl-stat-test-loongarch64-patched")
	# qemu 7.2 refuses the null path: each call must be NULL (EFAULT),
	# then "" (success).
	n_null=$(echo "$c" | grep -c 'statx([0-9]*,NULL,.* = -1 errno=14' || true)
	n_empty=$(echo "$c" | grep -c 'statx([0-9]*,"",.* = 0' || true)
	if [ "$n_null" = 2 ] && [ "$n_empty" = 2 ]; then
		echo "ok - qemu 7.2: fstat and fstatat fall back from NULL (EFAULT) to \"\"" | tee -a "$M/results/summary.txt"
	else
		echo "FAIL - qemu 7.2: expected 2 NULL/EFAULT + 2 \"\" statx calls" | tee -a "$M/results/summary.txt"; ok=0
	fi
	probe qemu10-orig "$QEMU10" "$M/musl-stat-test-loongarch64-orig" 2>&1 >/dev/null
	c=$(probe qemu10-patched "$QEMU10" "$M/musl-stat-test-loongarch64-patched")
	n_null=$(echo "$c" | grep -c 'statx([0-9]*,NULL,.* = 0' || true)
	n_all=$(echo "$c" | grep -c 'statx(' || true)
	if [ "$n_null" = 2 ] && [ "$n_all" = 2 ]; then
		echo "ok - qemu 10.0: fstat and fstatat take the NULL fast path, one statx each" | tee -a "$M/results/summary.txt"
	else
		echo "FAIL - qemu 10.0: expected exactly 2 statx(FD,NULL,...) = 0 calls" | tee -a "$M/results/summary.txt"; ok=0
	fi
	[ $ok = 1 ] || fail "musl tests failed (see $M/results)"
	echo "musl: all patched checks passed"
}

cmd=$1; shift
case $cmd in
fetch) fetch ;;
tree) tree "$@" ;;
build) build "$@" ;;
test) test_all ;;
*) fail "unknown command $cmd" ;;
esac
