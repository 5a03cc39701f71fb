#!/bin/sh
# tests/deb.sh DEB_DIR VERSION: the Debian packages `make deb-build` made in DEB_DIR, as a user
# gets them: lintian clean, the three installed into a scratch root with dpkg -x, the
# hardening the package build promises, the symbols file, the manual pages (mandoc -Tlint,
# one page per function of sysshim.h), and Debian's own tests of the installed packages,
# debian/tests (DEP-8: sysshim-probe, sysshim-run, programs built with pkg-config against
# libsysshim-dev and compared with raw syscalls), run on the scratch root as autopkgtest
# would run them on installed packages (see dep8_run below).  Nothing is installed into
# the system but the tests' Depends.  Prints "check-deb: N passed, N failed, N skipped".
#
# tests/deb.sh --tarball CACHE: prints the path of a root file system tarball for
# autopkgtest (the host's Debian release, debootstrap --variant=minbase from the mirror
# the system's apt uses, with the tests' usual Depends already in), making it first if
# there is none: CACHE/autopkgtest-<release>-<hash>.tar.  The caller holds the lock.
# tests/deb.sh --autopkgtest DEB_DIR VERSION TARBALL: autopkgtest itself on the three
# packages, the testbed a throwaway chroot unpacked from TARBALL under DEB_DIR/autopkgtest
# (autopkgtest-virt-chroot, in a private mount namespace with /proc, /sys, /dev/pts and
# a /tmp of its own): the packages and the tests' Depends are installed there, never
# into the system, and the chroot is removed afterwards.
# The package names, the mirror and the release come from the tree and the system.

# Installed in the tarball so that each run does not download them: the Depends of
# debian/tests/control that are not the source's own packages (autopkgtest installs any
# that are missing in the testbed itself: this list only saves time).
TARBALL_PKGS="build-essential pkg-config python3 strace"

if [ "${1:-}" = --tarball ]; then
	set -eu
	cache=${2:?usage: tests/deb.sh --tarball CACHE}
	rel=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$rel" ] || { echo "tests/deb.sh: no VERSION_CODENAME in /etc/os-release" >&2; exit 1; }
	h=$(printf '%s\n' "$rel minbase $TARBALL_PKGS" | sha256sum | cut -c1-12)
	tb=$cache/autopkgtest-$rel-$h.tar
	[ -f "$tb" ] && { echo "$tb"; exit 0; }
	mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ { print $2; exit }')
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^(http|https|ftp|file):/) { print $i; exit } }' \
		/etc/apt/sources.list 2>/dev/null)
	case $mirror in ""|*-security*) echo "tests/deb.sh: no Debian mirror in the system's apt sources ($mirror)" >&2; exit 1 ;; esac
	d=$cache/autopkgtest-$rel-$h.tmp
	rm -rf "$d" && mkdir -p "$d"
	echo "tests/deb.sh: debootstrap $rel from $mirror with $TARBALL_PKGS (log $tb.log)" >&2
	s=$(date +%s)
	debootstrap --variant=minbase --include="$(echo $TARBALL_PKGS | tr ' ' ,)" "$rel" "$d" "$mirror" \
		>"$tb.log" 2>&1 || { tail -20 "$tb.log" >&2; echo "tests/deb.sh: debootstrap failed" >&2; exit 1; }
	rm -f "$d"/var/cache/apt/archives/*.deb
	tar -C "$d" -cf "$tb.part" . && mv "$tb.part" "$tb" && rm -rf "$d"
	echo "tests/deb.sh: $tb made in $(( $(date +%s) - s )) s (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
	echo "$tb"
	exit 0
fi

if [ "${1:-}" = --autopkgtest ]; then
	dir=${2:-} ver=${3:-} tb=${4:-}
	[ -d "$dir" ] && [ -n "$ver" ] && [ -f "$tb" ] ||
		{ echo "usage: tests/deb.sh --autopkgtest DEB_DIR VERSION TARBALL" >&2; exit 2; }
	[ "$(id -u)" = 0 ] || { echo "tests/deb.sh: the chroot testbed needs root" >&2; exit 1; }
	arch=$(dpkg-architecture -qDEB_HOST_ARCH)
	dir=$(cd "$dir" && pwd)
	work=$dir/autopkgtest
	src=$dir/sysshim-$ver
	debs=
	for p in $(sed -n 's/^Package: *//p' debian/control); do debs="$debs $dir/${p}_${ver}_$arch.deb"; done
	rm -rf "$work" && mkdir -p "$work/root" || exit 1
	s=$(date +%s)
	tar -C "$work/root" -xf "$tb" || exit 1
	echo "autopkgtest$debs $src -- chroot $work/root (log $work/log)"
	# The mounts live in the namespace and go with it; the root is removed after that.
	# shellcheck disable=SC2086
	unshare --mount --propagation private sh -c '
		set -e
		r=$1; shift
		mount -t proc proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --bind /dev/pts "$r/dev/pts"
		mount -t tmpfs tmpfs "$r/tmp"
		cp /etc/resolv.conf "$r/etc/resolv.conf"
		exec autopkgtest "$@" -- chroot "$r"' sh "$work/root" $debs "$src/" -o "$work/out" \
		>"$work/log" 2>&1 </dev/null
	rc=$?
	if grep -q " $work/root" /proc/mounts; then
		echo "FAIL $work/root is still mounted: not removed"; exit 1
	fi
	rm -rf "$work/root"
	grep -E '^(ok|FAIL|skip) |^[a-z]*: [0-9]* passed' "$work/out"/*-stdout 2>/dev/null | grep -Ev ':ok ' | sed 's|^.*/||'
	cat "$work/out/summary" 2>/dev/null || tail -20 "$work/log"
	np=$(grep -c ' PASS' "$work/out/summary" 2>/dev/null) nf=$(grep -Ec ' (FAIL|ERROR)' "$work/out/summary" 2>/dev/null)
	ns=$(grep -c ' SKIP' "$work/out/summary" 2>/dev/null)
	echo "autopkgtest exit $rc in $(( $(date +%s) - s )) s (load $(cut -d' ' -f1-3 /proc/loadavg)); log $work/log, results $work/out"
	echo "check-deb-autopkgtest: ${np:-0} passed, ${nf:-0} failed, ${ns:-0} skipped"
	# 0 all passed, 2 some skipped; anything else is a failure or a testbed error.
	[ $rc = 0 ] || [ $rc = 2 ]
	exit
fi

dir=${1:-} ver=${2:-}
[ -d "$dir" ] && [ -n "$ver" ] || { echo "usage: tests/deb.sh DEB_DIR VERSION" >&2; exit 2; }
top=$(pwd)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skip() { skipped=$((skipped + 1)); echo "skip $*"; }
check() { what=$1; shift; if "$@" >"$t/out" 2>&1; then ok "$what"; else bad "$what: $(tail -5 "$t/out")"; fi; }

# --- the packages and lintian
for p in libsysshim0 libsysshim-dev sysshim; do
	f=$dir/${p}_${ver}_$arch.deb
	[ -f "$f" ] && ok "built $(basename "$f")" || bad "no $f"
done
changes=$dir/sysshim_${ver}_$arch.changes
if lintian --fail-on error,warning --display-info "$changes" >"$t/lintian" 2>&1; then
	ok "lintian: no errors, no warnings ($(grep -c '^[IPX]:' "$t/lintian") info tags)"
else
	bad "lintian:"; cat "$t/lintian"
fi
grep -q '^[EW]:' "$t/lintian" && bad "lintian printed E:/W: tags" || ok "lintian printed no E:/W: tag"
# Every override has a comment (the reason) right above it.
for o in "$top"/debian/*.lintian-overrides; do
	[ -f "$o" ] || continue
	awk '/^#/ { c = 1; next } /^[ \t]*$/ { c = 0; next } { if (!c) { print FILENAME ": " $0; e = 1 } c = 0 }
		END { exit e }' "$o" && ok "every override in $(basename "$o") has a reason" ||
		bad "override without a reason in $o"
done
# Multi-Arch and the dependencies.
f() { dpkg-deb -f "$dir/${1}_${ver}_$arch.deb" "$2"; }
[ "$(f libsysshim0 Multi-Arch)" = same ] && [ "$(f libsysshim-dev Multi-Arch)" = same ] &&
	ok "libsysshim0 and libsysshim-dev are Multi-Arch: same" || bad "Multi-Arch fields"
f sysshim Depends | grep -q "libsysshim0 (= $ver)" && f libsysshim-dev Depends | grep -q "libsysshim0 (= $ver)" &&
	ok "sysshim and libsysshim-dev depend on libsysshim0 (= $ver)" || bad "Depends: $(f sysshim Depends)"
# Nothing of kernel-patches/ (GPL-2.0) or upstream/ in a binary package.
for p in libsysshim0 libsysshim-dev sysshim; do dpkg-deb -c "$dir/${p}_${ver}_$arch.deb"; done >"$t/contents"
grep -Eq 'kernel-patches|\.patch|\.diff|upstream' "$t/contents" && bad "a package ships kernel-patches/upstream files" ||
	ok "no kernel-patches/ or upstream/ file in the binary packages"
zcat -f "$top/debian/copyright" | grep -q '^Files: kernel-patches/\*' &&
	grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$top/debian/copyright" &&
	ok "debian/copyright: DEP-5, kernel-patches/ under its own license" || bad "debian/copyright"

# --- install into a scratch root
root=$t/root
for p in libsysshim0 libsysshim-dev sysshim; do dpkg -x "$dir/${p}_${ver}_$arch.deb" "$root" || bad "dpkg -x $p"; done
lib=$root/usr/lib/$ma/libsysshim.so.0
for x in usr/lib/$ma/libsysshim.so.0 usr/lib/$ma/libsysshim.so usr/lib/$ma/libsysshim.a \
	usr/lib/$ma/pkgconfig/sysshim.pc usr/include/sysshim.h usr/bin/sysshim-run usr/bin/sysshim-probe \
	usr/share/man/man1/sysshim-run.1.gz usr/share/man/man1/sysshim-probe.1.gz usr/share/man/man7/sysshim.7.gz \
	usr/share/man/man3/sysshim_fstat.3.gz usr/share/doc/libsysshim0/copyright; do
	[ -e "$root/$x" ] || bad "not in the packages: /$x"
done && ok "the packages hold the library, header, .pc, tools, manual pages and copyright"
[ "$(readlink "$root/usr/lib/$ma/libsysshim.so")" = libsysshim.so.0 ] && ok "libsysshim.so -> libsysshim.so.0" ||
	bad "libsysshim.so link: $(readlink "$root/usr/lib/$ma/libsysshim.so")"

# --- the library and the hardening (readelf, not lintian's word for it)
readelf -d "$lib" >"$t/dyn"
grep -q 'SONAME.*\[libsysshim.so.0\]' "$t/dyn" && ok "SONAME libsysshim.so.0" || bad "SONAME: $(grep SONAME "$t/dyn")"
# It calls no libc function: what it takes from libc is errno's address and the environment.
und=$(nm -D --undefined-only "$lib" | awk '$1 != "w" { sub(/@.*/, "", $2); print $2 }' | sort | tr '\n' ' ')
[ "$und" = "__environ __errno_location environ " ] || [ "$und" = "__errno_location environ " ] &&
	ok "libsysshim.so.0 takes only $und from libc (no __stack_chk_fail, no *_chk)" ||
	bad "undefined symbols in libsysshim.so.0: $und"
readelf -lW "$lib" | grep -q GNU_RELRO && grep -Eq 'BIND_NOW|FLAGS.*NOW' "$t/dyn" &&
	ok "libsysshim.so.0: RELRO and BIND_NOW" || bad "libsysshim.so.0 lacks relro/now"
probe=$root/usr/bin/sysshim-probe
readelf -hW "$probe" | grep -q 'DYN' && readelf -lW "$probe" | grep -q GNU_RELRO &&
	readelf -dW "$probe" | grep -Eq 'BIND_NOW|FLAGS.*NOW' && nm -D "$probe" | grep -q '__printf_chk' &&
	ok "sysshim-probe: PIE, RELRO, BIND_NOW, fortified (__printf_chk)" || bad "sysshim-probe hardening"
# sysshim-run links no libc (so no stack protector and nothing to fortify): a static PIE
# with RELRO and BIND_NOW, a stack that is not executable, no interpreter, no relocations.
run=$root/usr/bin/sysshim-run
readelf -hW "$run" | grep -q 'DYN' && readelf -dW "$run" | grep -q 'FLAGS_1.*NOW.*PIE' &&
	readelf -lW "$run" | grep -q GNU_RELRO && ! readelf -lW "$run" | grep -q INTERP &&
	readelf -lW "$run" | grep GNU_STACK | grep -qv 'RWE' && ! readelf -rW "$run" | grep -q 'R_' &&
	ok "sysshim-run: static PIE, RELRO, BIND_NOW, NX stack, no interpreter, no relocations" ||
	bad "sysshim-run hardening: $(readelf -lW "$run" | grep -E 'INTERP|RELRO|STACK' | tr -s ' ')"
# The committed symbols file says exactly what the library exports (the package's own
# control file is generated from it and would list new symbols by itself).
dpkg-deb --ctrl-tarfile "$dir/libsysshim0_${ver}_$arch.deb" | tar xOf - ./symbols >"$t/symbols" 2>/dev/null
[ -s "$t/symbols" ] && ok "libsysshim0 ships a symbols control file" || bad "no symbols control file"
sed -n 's/^ \([^@]*\)@Base .*/\1/p' "$top/debian/libsysshim0.symbols" | sort >"$t/sym-file"
nm -D --defined-only "$lib" | awk '{ print $3 }' | sort >"$t/sym-lib"
if [ -s "$t/sym-file" ] && cmp -s "$t/sym-file" "$t/sym-lib"; then
	ok "the symbols file lists the $(wc -l <"$t/sym-lib") exported symbols"
else
	bad "debian/libsysshim0.symbols differs from the exports (run make deb-symbols): $(diff "$t/sym-file" "$t/sym-lib" | grep '^[<>]' | tr '\n' ' ')"
fi

# --- sysshim-run's own library lookup: the libdir compiled in is the package's (the DEP-8
# tests below point SYSSHIM_LIB into the scratch root, so they cannot see this).
grep -aq "/usr/lib/$ma" "$run" && ok "sysshim-run looks in /usr/lib/$ma" || bad "sysshim-run's libdir"
if [ ! -e "/usr/lib/$ma/libsysshim.so.0" ]; then
	env -u SYSSHIM_LIB "$run" --always true 2>"$t/err"; rc=$?
	[ $rc = 127 ] && grep -q "/usr/lib/$ma" "$t/err" && ok "no library installed: 127, looked in /usr/lib/$ma" ||
		bad "library lookup: $rc $(cat "$t/err")"
fi

# --- debian/tests (DEP-8): the tests Debian's CI runs on the installed packages, run
# here on the scratch root.  As autopkgtest does: from the source tree, each in a
# fresh AUTOPKGTEST_TMP, after installing the Depends that are not the packages
# themselves (tools/need); a test fails on a non-zero exit or, without allow-stderr,
# on any output on stderr.  What autopkgtest does by installing the packages, the
# environment does here: PATH (the tools), LD_LIBRARY_PATH (the loader finds the
# library), PKG_CONFIG_SYSROOT_DIR and PKG_CONFIG_LIBDIR (pkg-config reads only the
# root's sysshim.pc and prefixes its -I/-L with the root; C_INCLUDE_PATH/LIBRARY_PATH
# are not set, so a .pc that lost its flags fails), SYSSHIM_LIB (sysshim-run's
# compiled-in /usr/lib/<triplet> is outside the root) and SYSSHIM_DEB_ROOT (the tests
# expect every file under it).  Each test's output: $dir/dep8-NAME.log.
dep8_run() {	# dep8_run ROOT LOGDIR: run every test of debian/tests/control
	droot=$1 logs=$2
	ours=$(sed -n 's/^Package: *//p' "$top/debian/control" | tr '\n' ' ')
	# One line per test: NAME<TAB>DEPENDS<TAB>RESTRICTIONS (continuation lines joined).
	awk -v FS='\n' -v RS='' '{
		gsub(/\n[ \t]+/, " "); n = split($0, l, "\n"); tests = deps = restr = ""; cmd = 0
		for (i = 1; i <= n; i++) {
			if (l[i] ~ /^#/) continue
			f = tolower(l[i]); sub(/:.*/, "", f); v = l[i]; sub(/^[^:]*:[ \t]*/, "", v)
			if (f == "tests") tests = v; else if (f == "depends") deps = v
			else if (f == "restrictions") restr = v; else if (f == "test-command") cmd = 1
		}
		if (cmd) { print "test-command\t\t"; next }
		if (tests == "") next
		gsub(/,/, " ", tests); gsub(/,/, " ", restr); m = split(tests, t, " ")
		for (i = 1; i <= m; i++) printf "%s\t%s\t%s\n", t[i], deps, restr
	}' "$top/debian/tests/control" >"$t/dep8"
	[ -s "$t/dep8" ] || { bad "debian/tests/control: no test"; return; }
	while IFS='	' read -r name deps restr; do
		[ "$name" = test-command ] && { bad "debian/tests/control: Test-Command is not run here (tests/deb.sh): use Tests:"; continue; }
		[ -x "$top/debian/tests/$name" ] || { bad "debian/tests/$name: no executable file"; continue; }
		# Restrictions this runner honours; any other means the test needs autopkgtest.
		other=
		for r in $restr; do
			case $r in allow-stderr|superficial|skip-not-installable|needs-root) ;; *) other="$other $r" ;; esac
		done
		[ -n "$other" ] && { skip "debian/tests/$name: Restrictions:$other need autopkgtest (make check-deb-autopkgtest)"; continue; }
		# Depends: @ and the source's own packages are in the scratch root; of the others'
		# alternatives the first is installed unless one already is.
		need=
		for clause in $(printf '%s\n' "$deps" | sed 's/([^)]*)//g; s/\[[^]]*\]//g; s/<[^>]*>//g; s/ //g; s/,/ /g'); do
			have=
			for alt in $(printf '%s\n' "$clause" | tr '|' ' '); do
				alt=${alt%%:*}
				case " @ $ours " in *" $alt "*) have=1; break ;; esac
				dpkg-query -W -f='${Status}' "$alt" 2>/dev/null | grep -q 'ok installed' && { have=1; break; }
			done
			[ -n "$have" ] || need="$need ${clause%%|*}"
		done
		if [ -n "$need" ] && ! "$top/tools/need" $need >"$t/need" 2>&1 </dev/null; then
			bad "debian/tests/$name: cannot install its Depends:$need: $(tail -3 "$t/need")"; continue
		fi
		tmp=$(mktemp -d "$t/dep8-$name.XXXXXX")
		(cd "$top" && env PATH="$droot/usr/bin:$PATH" LD_LIBRARY_PATH="$droot/usr/lib/$ma" \
			PKG_CONFIG_SYSROOT_DIR="$droot" \
			PKG_CONFIG_LIBDIR="$droot/usr/lib/$ma/pkgconfig:$droot/usr/share/pkgconfig" \
			SYSSHIM_LIB="$droot/usr/lib/$ma/libsysshim.so.0" SYSSHIM_DEB_ROOT="$droot" \
			AUTOPKGTEST_TMP="$tmp" AUTOPKGTEST_ARTIFACTS="$tmp/artifacts" \
			"debian/tests/$name" >"$logs/dep8-$name.log" 2>"$t/dep8-err" </dev/null)
		rc=$?
		sum=$(tail -1 "$logs/dep8-$name.log")
		# The test's own checks count as this run's.
		np=$(printf '%s\n' "$sum" | sed -n 's/^[^:]*: \([0-9]*\) passed, .*/\1/p')
		nf=$(printf '%s\n' "$sum" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
		pass=$((pass + ${np:-0})) fail=$((fail + ${nf:-0}))
		grep -E '^(FAIL|skip) ' "$logs/dep8-$name.log" | sed "s|^|     debian/tests/$name: |"
		if [ -s "$t/dep8-err" ] && ! case " $restr " in *" allow-stderr "*) true ;; *) false ;; esac; then
			bad "debian/tests/$name wrote to stderr (no allow-stderr): $(head -5 "$t/dep8-err")"
		elif [ $rc != 0 ] && [ "${nf:-0}" = 0 ]; then
			bad "debian/tests/$name: exit $rc: $(tail -3 "$logs/dep8-$name.log")"
		elif [ $rc != 0 ]; then
			echo "FAIL debian/tests/$name: $sum (log $logs/dep8-$name.log)"
		else
			echo "ok   debian/tests/$name (Depends: $deps${restr:+; Restrictions: $restr}): $sum"
		fi
	done <"$t/dep8"
}
dep8_run "$root" "$dir"

# --- manual pages
check "mandoc -Tlint man/*: clean" mandoc -Tlint -Wall $(ls "$top"/man/*.[1-8])
n=0; : >"$t/out"
for m in "$root"/usr/share/man/man*/*; do
	[ -e "$m" ] || { echo "dangling: $m" >>"$t/out"; continue; }
	zcat "$m" | mandoc -Tlint -Wwarning >>"$t/out" 2>&1 || echo "in $m" >>"$t/out"; n=$((n + 1))
done
[ ! -s "$t/out" ] && ok "mandoc -Tlint of the $n installed pages and aliases: clean" || bad "installed pages: $(head "$t/out")"
if command -v groff >/dev/null; then
	check "groff -ww -z -man: no warnings" sh -c "for f in $(ls "$top"/man/*.[1-8] | tr '\n' ' '); do
		groff -ww -z -man \"\$f\" 2>&1; done | { ! grep .; }"
fi
missing=
for fn in $(sed -n 's/.*\<\(sysshim_[a-z_]*\)(.*/\1/p' "$top/include/sysshim.h" | sort -u); do
	[ -e "$root/usr/share/man/man3/$fn.3.gz" ] || missing="$missing $fn"
	zcat "$root/usr/share/man/man3/$fn.3.gz" 2>/dev/null | grep -q "$fn" || missing="$missing $fn(not-named)"
done
[ -z "$missing" ] && ok "every function of sysshim.h has a manual page that names it" ||
	bad "functions without a manual page:$missing"

echo "check-deb: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
