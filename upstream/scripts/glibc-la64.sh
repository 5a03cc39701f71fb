#!/bin/sh
# glibc-la64.sh: glibc for loongarch64 with the statx NULL-path series of
# upstream/glibc-loongarch64/, cross-built in a Debian 13 chroot.
#   glibc-la64.sh src | build stock|patched | tests stock|patched | qemu | kernel
#   glibc-la64.sh src-from-git GIT_DIR     (GLA64_SOURCE=master: make the tarball)
# Environment: GL (cache dir, $(CACHE)/glibc-la64-debian or, for master,
# $(CACHE)/glibc-la64), CACHE, TOP (the tree), and
#   GLA64_SOURCE  debian (default): glibc GLA64_GLIBC from the upstream
#                 tarball glibc_<v>.orig.tar.xz of Debian's source package in
#                 sid, fetched through a private deb-src apt configuration
#                 (apt-private.sh; /etc/apt is not touched);
#                 master: the tarball of glibc master at COMMIT, made once
#                 from a git clone (src-from-git), that nothing can fetch.
set -eu
: "${GL:?}" "${CACHE:?}" "${TOP:?}"
S=$TOP/upstream/scripts
P=$TOP/upstream/glibc-loongarch64
BENCH_SRC=upstream/glibc/test/fstat-bench.c
SOURCE=${GLA64_SOURCE:-debian}
COMMIT=04e750e75b73957cf1c791535a3f4319534a52fc
case $SOURCE in
debian)
	# The upstream release as Debian's orig tarball has it (the release
	# tree without the GFDL manual/), with only the Debian patches that a
	# build of that tree needs (DEB_PATCHES, from the fetched revision's
	# .debian.tar.xz: local-remove-manual.diff gives manual/ a Makefile
	# that builds nothing and drops two test dependencies on manual/*.texi),
	# not Debian's other changes.  The sha256 pins the orig's bytes: any Debian revision of this upstream version
	# carries the same orig tarball, so a revision that leaves sid does not
	# matter, and a new upstream version (GLA64_GLIBC, GLA64_ORIG_SHA256)
	# changes every key below and rebuilds.
	GVER=${GLA64_GLIBC:-2.43}
	ORIG_SHA256=${GLA64_ORIG_SHA256:-b8f0d50a7d4255658efe1f608cacdc4be82bb3c009875626df5968cc64c58880}
	APT_SUITES=${GLA64_SUITES:-sid}
	TARBALL=$GL/src/glibc_$GVER.orig.tar.xz
	TOPDIR=glibc-$GVER
	DEB_PATCHES="all/local-remove-manual.diff"
	SRCID=	# src_id, once the source is there
	# The series is the proposal against master; a release it does not
	# apply to gets its own minimal variant in backport-<version>/.
	PD=$P; [ -d "$P/backport-$GVER" ] && PD=$P/backport-$GVER ;;
master)
	TARBALL=$GL/src/glibc-$COMMIT.tar.gz
	TOPDIR=glibc-$COMMIT
	SRCID=$COMMIT
	PD=$P ;;
*) echo "glibc-la64.sh: GLA64_SOURCE=$SOURCE: debian or master" >&2; exit 1 ;;
esac
JOBS=${JOBS:-2}
TESTS="io/tst-stat io/tst-fstatat io/tst-statx io/tst-fstat-statx-null io/tst-fstat-statx-null-static"
# Stamps hash the diffs only (not the mail text), so editing a commit
# message does not force a rebuild.
PSUM=$(cat "$PD"/00*.patch | sed -n '/^diff --git /,/^-- $/p' | sha256sum | cut -c1-16)

fail() { echo "glibc-la64.sh: $*" >&2; exit 1; }
log() { echo "glibc-la64: $*"; }

src_from_git() {
	gd=$1
	mkdir -p "$GL/src"; t=$GL/src/tmp.$$; rm -rf "$t"; mkdir -p "$t"
	# Some mirrors lack a few large blobs (libm test data, one locale
	# source): leave out whatever is missing; the library and the io
	# tests do not need them.
	missing=$(git --git-dir="$gd" ls-tree -r "$COMMIT" | awk '{print $3}' |
		git --git-dir="$gd" cat-file --batch-check | awk '$2 == "missing" {print $1}')
	GIT_INDEX_FILE=$t/index git --git-dir="$gd" read-tree "$COMMIT"
	absent=
	for b in $missing; do
		p=$(git --git-dir="$gd" ls-tree -r "$COMMIT" | awk -v b="$b" '$3 == b {print $4}')
		absent="$absent $p"
		GIT_INDEX_FILE=$t/index git --git-dir="$gd" update-index --force-remove $p
	done
	GIT_INDEX_FILE=$t/index git --git-dir="$gd" checkout-index -a --prefix="$t/glibc-$COMMIT/"
	printf '%s\n' "commit $COMMIT" "absent:$absent" >"$t/glibc-$COMMIT/SYSSHIM-SOURCE"
	(cd "$t" && tar cf - "glibc-$COMMIT" | gzip -1 >"$TARBALL.tmp") && mv "$TARBALL.tmp" "$TARBALL"
	rm -rf "$t"
	log "made $TARBALL (absent:${absent:- none})"
}

# src (debian): glibc_$GVER.orig.tar.xz from the newest Debian source
# package glibc=$GVER-* in $APT_SUITES that the mirror still serves (a
# mirror may list revisions whose files are gone), checked against
# ORIG_SHA256; the lists are updated once more if no revision works.
src_debian() {
	ok="$ORIG_SHA256 $DEB_PATCHES"
	if [ -f "$TARBALL.ok" ] && [ "$(cat "$TARBALL.ok")" = "$ok" ]; then src_id; return 0; fi
	export UPSTREAM_BUILD=$GL
	name=$(echo "$APT_SUITES" | tr ' ' +)-src
	sd=$GL/src/deb; mkdir -p "$sd"; ss=$(date +%s)
	got=
	for try in 1 2; do
		[ $try = 2 ] && { log "src: no revision of glibc $GVER fetched, updating the lists"; rm -f "$GL/apt/$name/updated"; }
		vers=$("$S/apt-private.sh" "$name" deb-src $APT_SUITES -- apt-cache madison glibc |
			awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | grep "^$GVER-" | sort -ruV) || true
		for sv in $vers; do
			log "src: apt-get source --download-only glibc=$sv ($APT_SUITES, deb-src, private apt config)"
			if (cd "$sd" && "$S/apt-private.sh" "$name" deb-src $APT_SUITES -- \
					source --download-only "glibc=$sv" >"$sd/fetch-$sv.log" 2>&1) &&
			   [ -f "$sd/glibc_$GVER.orig.tar.xz" ]; then got=$sv; break 2; fi
			grep '^E:' "$sd/fetch-$sv.log" | sed 's/^/  /' | head -3
		done
	done
	[ -n "$got" ] || fail "no Debian source package glibc=$GVER-* could be fetched from $APT_SUITES (versions listed: ${vers:-none})"
	sum=$(sha256sum <"$sd/glibc_$GVER.orig.tar.xz" | cut -d' ' -f1)
	[ "$sum" = "$ORIG_SHA256" ] || fail "glibc_$GVER.orig.tar.xz of glibc=$got has sha256 $sum, not $ORIG_SHA256"
	rm -rf "$GL/src/debian.tmp"; mkdir -p "$GL/src/debian.tmp"
	for dp in $DEB_PATCHES; do
		tar xJf "$sd/glibc_$got.debian.tar.xz" -C "$GL/src/debian.tmp" "debian/patches/$dp" ||
			fail "debian/patches/$dp is not in glibc_$got.debian.tar.xz"
	done
	rm -rf "$GL/src/debian"; mv "$GL/src/debian.tmp/debian/patches" "$GL/src/debian"; rm -rf "$GL/src/debian.tmp"
	cp "$sd/glibc_$GVER.orig.tar.xz" "$TARBALL.tmp" && mv "$TARBALL.tmp" "$TARBALL"
	printf '%s\n' "glibc $GVER: glibc_$GVER.orig.tar.xz of Debian's source package glibc=$got ($APT_SUITES)" \
		"sha256 $ORIG_SHA256" "Debian patches applied: $DEB_PATCHES (from glibc_$got.debian.tar.xz)" \
		"fetched $(date -u +%FT%TZ) in $(( $(date +%s) - ss )) s" >"$GL/src/SOURCE"
	echo "$ok" >"$TARBALL.ok"
	src_id
	log "src: $(head -1 "$GL/src/SOURCE") in $(( $(date +%s) - ss )) s"
}

# The source's identity in every stamp: the orig tarball's version and
# sha256 and the hash of the Debian patches applied to it.
src_id() {
	SRCID="glibc-$GVER sha256:$(echo "$ORIG_SHA256" | cut -c1-16) debian:$(cd "$GL/src/debian" && cat $DEB_PATCHES | sha256sum | cut -c1-12)"
}

src() {
	mkdir -p "$GL/src"
	[ "$SOURCE" = debian ] && { src_debian; return 0; }
	[ -f "$TARBALL" ] && return 0
	cat >&2 <<EOM
glibc-la64.sh: the glibc source $TARBALL is missing.
  It is glibc master at $COMMIT (2026-01-20), from any clone of
  git://sourceware.org/git/glibc.git or a mirror (github.com/bminor/glibc):
    git clone --bare https://sourceware.org/git/glibc.git /tmp/glibc.git
    GLA64_SOURCE=master GL=$GL CACHE=$CACHE TOP=$TOP $0 src-from-git /tmp/glibc.git
  (this machine reaches no git host; the tarball was made once from a mirror
  and lives only in the cache).  The default, GLA64_SOURCE=debian, needs only
  Debian's apt: glibc 2.43's upstream tarball from sid's glibc source package.
EOM
	exit 1
}

chroot_dir() {
	R=$(flock "$CACHE/.lock-glibc-la64-chroot" "$S/glibc-la64-chroot.sh" "$CACHE") || fail "no chroot"
}

# tree stock|patched: $GL/tree-<v>, the source (patched: git am'd series).
tree() {
	v=$1 d=$GL/tree-$1
	want=$SRCID; [ "$v" = patched ] && want="$SRCID $PSUM"
	if [ -f "$d/.sysshim-tree" ] && [ "$(cat "$d/.sysshim-tree")" = "$want" ]; then return 0; fi
	rm -rf "$d" "$d.tmp"; mkdir -p "$d.tmp"
	tar xf "$TARBALL" -C "$d.tmp"
	mv "$d.tmp/$TOPDIR" "$d.tmp/glibc"
	if [ "$SOURCE" = debian ]; then
		# In both trees, with the mtime of the top Makefile (which they do
		# not change), so the stock and patched trees stay alike.
		(cd "$d.tmp/glibc" && for dp in $DEB_PATCHES; do
			patch -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch -s <"$GL/src/debian/$dp" ||
				fail "Debian's $dp does not apply"
			touch -r Makefile $(sed -n 's|^+++ b/\([^	 ]*\).*|\1|p' "$GL/src/debian/$dp")
		done)
	fi
	if [ "$v" = patched ]; then
		# Same mtimes as the stock tree (an incremental build from a copy of
		# the stock build recompiles only what the series touches).
		(cd "$d.tmp/glibc" && for f in "$PD"/00*.patch; do
			patch -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch -s <"$f" ||
				fail "$(basename "$f") does not apply"
		done)
		! find "$d.tmp" -name '*.rej' | grep -q . || fail "rejected hunks"
		# kernel-features.h is included by nearly every file of glibc, and
		# the series only adds a macro to it that fstatat64.c (patched, so
		# newer) reads: keeping its stock mtime lets the incremental build
		# recompile what the macro can change instead of all of libc.
		touch -r "$d.tmp/glibc/Makefile" "$d.tmp/glibc/sysdeps/unix/sysv/linux/kernel-features.h"
	fi
	echo "$want" >"$d.tmp/.sysshim-tree"
	mv "$d.tmp" "$d"
}

# in_chroot V CMD: run CMD in the chroot with the tree of V at /gl/src and
# its build dir at /gl/build (a private mount namespace: nothing to clean).
in_chroot() {
	v=$1; shift
	mkdir -p "$R/gl/src" "$R/gl/build" "$R/gl/test" "$R/gl/all" "$R/gl/top"
	unshare -m --propagation private sh -c '
		mount --bind "$1" "$4/gl/src" && mount --bind "$2" "$4/gl/build" &&
		mount --bind "$3" "$4/gl/test" && mount -t proc proc "$4/proc" &&
		mount --bind "$5" "$4/gl/all" && mount --bind "$6" "$4/gl/top" &&
		r=$4; shift 6 && exec chroot "$r" env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 sh -c "$@"' \
		sh "$GL/tree-$v/glibc" "$GL/build-$v" "$TOP/upstream/glibc-loongarch64/test" "$R" "$GL" "$TOP" "$@"
}

# -march=loongarch64: the LA64 base ISA without LSX.  gcc-14's default,
# la64v1.0, emits LSX instructions that Debian 12's qemu-user 7.2 (la464
# without LSX) cannot run; glibc's LSX/LASX string functions are still
# built and chosen at run time from the hwcaps.
LACC="loongarch64-linux-gnu-gcc-14 -march=loongarch64 -mtune=la464"
CONFIGURE="/gl/src/configure --host=loongarch64-linux-gnu --build=x86_64-linux-gnu
 --prefix=/usr CC='$LACC' CXX=no BUILD_CC=gcc
 --disable-werror --disable-profile --disable-nscd --disable-build-nscd
 --with-headers=/usr/loongarch64-linux-gnu/include CFLAGS=-O2"

# What the tests below use of a build is the library side only: libc.a, libc.so.6,
# elf/ld.so and csu/crt1.o, crti.o, crtn.o ('make lib', which builds libc and
# nothing else) and support/libsupport*.a (the io tests link it: 'make
# support/others').  glibc's default 'make' is 'lib' then 'others', which adds
# libm, libresolv, libnss_*, the gconv modules and the programs: nothing here
# uses them (the dynamic tests load only ld.so and libc.so.6).
TARGETS="lib support/others"

build() {
	v=$1; src; chroot_dir; tree "$v"
	B=$GL/build-$v
	key="$SRCID $(basename "$R") $(echo $CONFIGURE | sha256sum | cut -c1-12) $TARGETS"
	[ "$v" = patched ] && key="$key $PSUM"
	if [ -f "$B/.sysshim-ok" ] && [ "$(cat "$B/.sysshim-ok")" = "$key" ]; then
		log "build $v: cached ($(cat "$B/.sysshim-times" | tr '\n' ' '))"; return 0
	fi
	s=$(date +%s)
	how=clean
	if [ "$v" = patched ] && [ -f "$GL/build-stock/.sysshim-ok" ]; then
		# Incremental: the stock objects, then make recompiles what the
		# series changed (the patched tree is mounted at the same path).
		rm -rf "$B"; cp -a "$GL/build-stock" "$B"; rm -f "$B/.sysshim-ok" "$B/.sysshim-tests"; how=incremental
		# The files the series changes, newer than every stock object
		# (kernel-features.h excepted, see tree()).
		for f in $(sed -n 's|^+++ b/||p' "$PD"/00*.patch | sort -u); do
			case $f in */kernel-features.h) ;; *) touch "$GL/tree-patched/glibc/$f" ;; esac
		done
	else
		rm -rf "$B"; mkdir -p "$B"
		log "build $v: configure (log $B/configure.log)"
		in_chroot "$v" "cd /gl/build && $(echo $CONFIGURE)" >"$B/configure.log" 2>&1 ||
			{ tail -20 "$B/configure.log"; fail "configure failed"; }
	fi
	c=$(date +%s)
	log "build $v: $how make -j$JOBS $TARGETS under nice (log $B/make.log)"
	in_chroot "$v" "cd /gl/build && for t in $TARGETS; do nice -n 15 make -j$JOBS \$t || exit 1; done" >"$B/make.log" 2>&1 ||
		{ tail -30 "$B/make.log"; fail "make failed ($v)"; }
	e=$(date +%s)
	printf '%s\n' "configure $((c-s)) s" "make ($how) $((e-c)) s" >"$B/.sysshim-times"
	echo "$key" >"$B/.sysshim-ok"
	log "build $v: done ($(tr '\n' ' ' <"$B/.sysshim-times"))"
}

# The io tests and the new test, built (not run) in the build tree, and the
# static programs of test/ linked against the build's libc.a.
tests() {
	v=$1; build "$v"
	B=$GL/build-$v
	key="$(cat "$B/.sysshim-ok") $(cat "$P"/test/*.c "$TOP/$BENCH_SRC" | sha256sum | cut -c1-12)"
	if [ -f "$B/.sysshim-tests" ] && [ "$(cat "$B/.sysshim-tests")" = "$key" ]; then
		log "tests $v: cached"; return 0
	fi
	s=$(date +%s)
	# The test programs are built once, in the patched tree; they are
	# dynamically linked and run against either build's libc.so.
	: >"$B/tests.log"
	if [ "$v" = patched ]; then
		objs=$(for x in $TESTS; do printf ' /gl/build/%s' $x; done)
		in_chroot "$v" "cd /gl/src/io && nice -n 15 make -j$JOBS objdir=/gl/build run-built-tests=no $objs" \
			>"$B/tests.log" 2>&1 || { tail -30 "$B/tests.log"; fail "building the tests failed ($v)"; }
	fi
	# The benchmark is upstream/glibc's, one source for both beds (built for
	# loongarch64 it times the statx forms).
	in_chroot "$v" "cd /gl/build && $LACC -O2 -Wall -static -nostdlib -nostartfiles \
		  -o /gl/build/fstat-bench-static \
		  csu/crt1.o csu/crti.o \$(loongarch64-linux-gnu-gcc-14 -print-file-name=crtbeginT.o) \
		  /gl/top/$BENCH_SRC /gl/test/popcount.c -Wl,--start-group libc.a -lgcc -lgcc_eh -Wl,--end-group \
		  \$(loongarch64-linux-gnu-gcc-14 -print-file-name=crtend.o) csu/crtn.o" \
		>>"$B/tests.log" 2>&1 || { tail -30 "$B/tests.log"; fail "linking the benchmark failed ($v)"; }
	if [ "$v" = patched ]; then
		# Static copies of the test programs for the booted kernels (whose
		# initramfs has no shared libraries): the objects of the patched
		# build, linked once with each build's libc.a.
		mkdir -p "$GL/static"
		in_chroot "$v" "set -e; $LACC -O2 -Wall -c -o /gl/all/static/popcount.o /gl/test/popcount.c
		  for lv in stock patched; do L=/gl/all/build-\$lv; mkdir -p /gl/all/static/\$lv
		  for t in tst-stat tst-fstatat tst-statx tst-fstat-statx-null; do
		    $LACC -static -nostdlib -nostartfiles -o /gl/all/static/\$lv/\$t \
		      \$L/csu/crt1.o \$L/csu/crti.o \$(loongarch64-linux-gnu-gcc-14 -print-file-name=crtbeginT.o) \
		      /gl/build/io/\$t.o /gl/all/static/popcount.o /gl/build/support/libsupport_nonshared.a \
		      -Wl,--start-group \$L/libc.a -lgcc -lgcc_eh -Wl,--end-group \
		      \$(loongarch64-linux-gnu-gcc-14 -print-file-name=crtend.o) \$L/csu/crtn.o
		  done; done" >>"$B/tests.log" 2>&1 || { tail -30 "$B/tests.log"; fail "linking the static tests failed"; }
	fi
	log "tests $v: built in $(( $(date +%s) - s )) s"
	echo "$key" >"$B/.sysshim-tests"
}

# qemu: the io tests and the new test of both builds under Debian 12's
# qemu-user 7.2 (answers a NULL statx path with EFAULT itself: an "old
# kernel") and Debian 13's 10.0 (passes NULL to the host kernel), with
# qemu -strace evidence of the system call each fstat makes, and the
# benchmark (TCG, user mode: the syscall count matters, not the ns).
QEMU72=/usr/bin/qemu-loongarch64
QEMU10=${QEMU10:-$CACHE/testbed/trixie/root/usr/bin/qemu-loongarch64}
run_test() {	# QEMU VARIANT KIND:TEST -> PASS/FAIL/UNSUPPORTED
	q=$1 v=$2 t=${3#*:} b=$GL/build-$2
	lp=$b:$b/math:$b/elf:$b/dlfcn:$b/nss:$b/rt:$b/resolv:$b/support:$b/nptl
	case $3 in
	# built by glibc's make (in the patched tree), run through the
	# build's own ld.so and libc.so.6
	dyn:*) cmd="$b/elf/ld.so --library-path $lp $GL/build-patched/$t" ;;
	# static, as glibc's make links it (patched libc.a)
	glibc:*) cmd="$GL/build-patched/$t" ;;
	# static, linked here with this variant's libc.a
	static:*) cmd="$GL/static/$v/$t" ;;
	esac
	out=$RES/qemu$qv-$v-${3%%:*}-$(basename "$t")
	set +e
	(cd "$TMPD" && TMPDIR=$TMPD timeout 300 "$q" -strace $cmd >"$out.out" 2>"$out.strace")
	rc=$?
	set -e
	case $rc in 0) r=PASS;; 77) r=UNSUPPORTED;; *) r="FAIL (exit $rc)";; esac
	echo "$r"
}
qemu_run() {
	tests stock; tests patched
	RES=$GL/results; rm -rf "$RES"; mkdir -p "$RES"
	TMPD=$GL/tmp; rm -rf "$TMPD"; mkdir -p "$TMPD"
	: >"$RES/summary.txt"
	pass=0 failn=0
	for q in "$QEMU72" "$QEMU10"; do
		[ -x "$q" ] || fail "$q missing"
		qv=$("$q" --version | sed -n '1s/.*version \([0-9.]*\).*/\1/p')
		for v in stock patched; do
			# qemu 7.2 cannot run the shared libraries: Debian 13's libgcc
			# (linked into libc.so) uses LSX for __popcountdi2; the static
			# programs carry test/popcount.c instead.  The series' test also
			# runs against the stock library: it passes where it cannot tell.
			list="static:tst-stat static:tst-fstatat static:tst-statx static:tst-fstat-statx-null"
			case $qv in 7.*) ;; *)
				list="dyn:io/tst-stat dyn:io/tst-fstatat dyn:io/tst-fstat-statx-null $list"
				[ $v = patched ] && list="$list glibc:io/tst-statx glibc:io/tst-fstat-statx-null-static" ;;
			esac
			for t in $list; do
				r=$(run_test "$q" "$v" "$t")
				echo "qemu $qv $v libc: $t: $r" | tee -a "$RES/summary.txt"
				case $r in PASS|UNSUPPORTED) pass=$((pass+1));; *) failn=$((failn+1))
					tail -5 "$RES/qemu$qv-$v-${t%%:*}-$(basename "${t#*:}").out" | sed 's/^/    /';; esac
			done
			# Which system call does fstat() make?  Two fstat() calls of fd 3
			# between marker writes of the static benchmark.
			set +e
			# (qemu's trace and the program's writes in one file, in order)
			"$q" -strace "$GL/build-$v/fstat-bench-static" probe >"$RES/probe-$qv-$v.log" 2>&1
			set -e
			calls=$(sed -n '/bench: probe fstat()/,/bench: probe done/p' "$RES/probe-$qv-$v.log" |
				grep -E '^[0-9]+ (statx|fstat|newfstatat)\(' | sed -E 's/^[0-9]+ //; s/,0x[0-9a-f]+\) = /,buf) = /' | paste -sd';' -)
			echo "qemu $qv $v libc: fstat() -> $calls" | tee -a "$RES/strace.txt"
		done
	done
	# The evidence must show what the series claims.
	chk() { if grep -qF "$1" "$RES/strace.txt"; then pass=$((pass+1)); else failn=$((failn+1)); echo "FAIL: no '$1' in strace.txt"; fi; }
	chk 'qemu 7.2.'
	grep -q '^qemu 10[.0-9]* patched libc: fstat() -> statx(3,NULL,' "$RES/strace.txt" && pass=$((pass+1)) ||
		{ failn=$((failn+1)); echo "FAIL: patched fstat under qemu 10 is not statx(3,NULL)"; }
	grep -q '^qemu 10[.0-9]* stock libc: fstat() -> statx(3,"",' "$RES/strace.txt" && pass=$((pass+1)) ||
		{ failn=$((failn+1)); echo "FAIL: stock fstat under qemu 10 is not statx(3,\"\")"; }
	# qemu 7.2: the first fstat() probes NULL (EFAULT), then "", the second is "" only.
	grep -q '^qemu 7[.0-9]* patched libc: fstat() -> statx(3,NULL,.*= -1 errno=14 (Bad address);statx(3,"",.* = 0;statx(3,"",[^;]* = 0$' "$RES/strace.txt" && pass=$((pass+1)) ||
		{ failn=$((failn+1)); echo "FAIL: patched fstat under qemu 7.2 is not NULL (EFAULT), \"\", \"\""; }
	for v in stock patched; do
		echo "qemu $QEMU10 $v libc, fstat-bench-static 20000 5:" >>"$RES/bench.txt"
		"$QEMU10" "$GL/build-$v/fstat-bench-static" 20000 5 | tee -a "$RES/bench.txt" | sed "s/^/  $v: /"
	done
	echo "check-upstream-glibc-la64: $pass passed, $failn failed"
	[ $failn = 0 ]
}

# kernel: boot both LoongArch kernels of the test bed (KOLD: 6.12 with the
# 6.11 statx NULL-path change reverted, KNEW: Debian sid's loong64 kernel) under
# qemu-system-loongarch64 (LA64_QEMU) with one initramfs: the io tests and
# the new test linked with each libc.a, and fstat-bench of both builds
# (a ptrace trace of fstat() first, then the timing).  One run per boot.
kernel() {
	: "${KOLD:?}" "${KNEW:?}" "${LA64_QEMU:?}"
	tests stock; tests patched; chroot_dir
	K=$GL/kernel; mkdir -p "$K"
	cp "$TOP/tests/kernel/init.c" "$K/init.c"
	# /init is linked with the patched libc.a too: Debian's loong64 libc.a
	# uses LSX, which the test bed's kernels (tinyconfig, no
	# CONFIG_CPU_HAS_LSX) do not enable for user space (SIGILL).
	in_chroot patched "cd /gl/build && $LACC -O2 -Wall -c -o /gl/all/kernel/init.o /gl/all/kernel/init.c &&
		$LACC -static -nostdlib -nostartfiles -o /gl/all/kernel/init csu/crt1.o csu/crti.o \
		\$($LACC -print-file-name=crtbeginT.o) /gl/all/kernel/init.o /gl/all/static/popcount.o \
		-Wl,--start-group libc.a -lgcc -lgcc_eh -Wl,--end-group \$($LACC -print-file-name=crtend.o) csu/crtn.o" ||
		fail "building the loongarch64 /init failed"
	img=$K/img; rm -rf "$img"; mkdir -p "$img"
	for v in stock patched; do
		for t in tst-stat tst-fstatat tst-statx; do cp "$GL/static/$v/$t" "$img/a-$t-$v"; done
		cp "$GL/static/$v/tst-fstat-statx-null" "$img/b-tst-fstat-statx-null-$v"
		cp "$GL/build-$v/fstat-bench-static" "$img/c-fstat-bench-$v"
	done
	in_chroot patched "loongarch64-linux-gnu-strip /gl/all/kernel/img/* /gl/all/kernel/init" || fail "strip failed"
	"$TOP/testbed/mkinitramfs.sh" "$K/bench.cpio.gz" "$K/init" $(for f in "$img"/*; do printf ' b:%s' "$f"; done)
	mkdir -p "$GL/results"; : >"$GL/results/kernel-strace.txt"
	LIMIT=${TB_TIMEOUT:-170} CALLS=${FSTAT_BENCH_CALLS:-300000} ROUNDS=${FSTAT_BENCH_ROUNDS:-11}
	pass=0 failn=0
	ok() { pass=$((pass+1)); echo "  ok   $*"; }
	bad() { failn=$((failn+1)); echo "  FAIL $*"; }
	for k in ${KERNELS:-old new}; do
		eval vm=\$K$(echo $k | tr a-z A-Z)
		out=$GL/results/kernel-$k; rm -rf "$out"; mkdir -p "$out"
		echo "glibc-la64: booting the $k kernel ($vm)"
		# run-kernel.sh (through testbed/boot.sh) stops qemu once END has
		# arrived, when the guest's reboot hangs (RCU stalls on the old
		# kernel); its exit status counts the expected failure of the stock
		# library's NULL test on the new kernel, so the checks below decide.
		s0=$(date +%s)
		TB_ARCH=loongarch64 TB_QEMU=$LA64_QEMU TB_TIMEOUT=$LIMIT \
		TB_APPEND="TIMEOUTFACTOR=20 FSTAT_BENCH_CALLS=$CALLS FSTAT_BENCH_ROUNDS=$ROUNDS" \
			"$TOP/testbed/run-kernel.sh" bench "$vm" "$K/bench.cpio.gz" "$out" >"$out/run.log" 2>&1 || true
		echo "  boot and run: $(( $(date +%s) - s0 )) s"
		L=$out/bench.log
		[ -s "$L" ] && grep -q '^END ' "$L" || { bad "$k kernel: no END line (see $out/run.log)"; tail -20 "$out/run.log"; continue; }
		krel=$(sed -n 's/^BEGIN .*kernel=\([^ ]*\).*/\1/p' "$L")
		echo "  kernel $krel ($k)"
		for f in "$img"/*; do
			n=$(basename "$f")
			rc=$(sed -n "s/^RESULT $n rc=\([^ ]*\).*/\1/p" "$L")
			want=0
			# The new test against the stock library must fail on a kernel that
			# accepts NULL: with statx refused for every path but NULL, stock
			# fstat ("") fails where the patched one succeeds.
			[ "$n" = b-tst-fstat-statx-null-stock ] && [ $k = new ] && want=1
			if [ "$rc" = "$want" ]; then ok "$k: $n rc=$rc"; else bad "$k: $n rc=${rc:-none} (want $want)"
				grep "^OUT $n|" "$L" | tail -8 | sed 's/^/      /'; fi
		done
		grep -h '^OUT b-tst-fstat-statx-null-[a-z]*| info:' "$L" | sort -u | sed 's/^OUT /    /' | head -20
		for v in stock patched; do
			tr=$(sed -n "s/^OUT c-fstat-bench-$v| trace: \(statx\|fstat\|newfstatat\)/\1/p" "$L" | sed 's/, buf)/)/' | paste -sd';' -)
			echo "$krel $v libc: fstat() -> $tr" | tee -a "$GL/results/kernel-strace.txt" | sed 's/^/    /'
			case $v-$k in
			stock-*) pat='^statx(3, "...", 0x1800, 0x7ff) = 0;statx(3, "...", 0x1800, 0x7ff) = 0$' ;;
			patched-new) pat='^statx(3, NULL, 0x1800, 0x7ff) = 0;statx(3, NULL, 0x1800, 0x7ff) = 0$' ;;
			patched-old) pat='^statx(3, NULL, 0x1800, 0x7ff) = -1 Bad address;statx(3, "...", 0x1800, 0x7ff) = 0;statx(3, "...", 0x1800, 0x7ff) = 0$' ;;
			esac
			if printf '%s\n' "$tr" | grep -q "$pat"; then ok "$k: $v fstat() system calls"; else bad "$k: $v fstat() system calls: $tr"; fi
			sed -n "s/^OUT c-fstat-bench-$v| bench: /$v: /p" "$L" | grep -v ': probe ' >"$out/bench-$v.txt"
		done
		{ echo "kernel $krel ($k): ns per call, median of $ROUNDS interleaved rounds of $CALLS"
		  cat "$out/bench-stock.txt" "$out/bench-patched.txt"; } | tee "$out/bench.txt" | sed 's/^/    /'
	done
	echo "glibc-la64-kernel: $pass passed, $failn failed"
	[ $failn = 0 ]
}

cmd=${1:-}; [ $# -gt 0 ] && shift
case $cmd in
src) src ;;
src-from-git) [ "$SOURCE" = master ] || fail "src-from-git is for GLA64_SOURCE=master"; mkdir -p "$GL/src"; src_from_git "$1" ;;
build) build "$1" ;;
tree) src; tree "$1" ;;
tests) tests "$1" ;;
qemu) qemu_run ;;
kernel) kernel ;;
*) fail "usage: glibc-la64.sh src|src-from-git GIT_DIR|build V|tests V|qemu" ;;
esac
