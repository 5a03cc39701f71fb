#!/bin/sh
# tests/deb.sh DEB_DIR VERSION: the Debian packages `make deb-build` made in DEB_DIR, as a user
# gets them: lintian clean, the three installed into a scratch root with dpkg -x, sysshim-probe
# and sysshim-run run from there, programs built against the installed libsysshim-dev with
# pkg-config (shared and static) and compared with raw syscalls, the hardening the package
# build promises, the symbols file, and the manual pages (mandoc -Tlint, one page per
# function of sysshim.h). Prints "check-deb: N passed, N failed".
dir=$1 ver=$2
[ -d "$dir" ] && [ -n "$ver" ] || { echo "usage: tests/deb.sh DEB_DIR VERSION" >&2; exit 2; }
top=$(pwd)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
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

# --- sysshim-probe from the scratch root
if out=$("$probe" --json) && printf '%s' "$out" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["caps"]["fstat"] is True and j["strategy"]["fstat"] and j["forced"] == "auto", j
assert j["batch"]["mode"] == "auto" and j["batch"]["way_16"] in ("plain", "io_uring"), j
'; then ok "sysshim-probe --json: $(printf '%s' "$out" | cut -c1-100)..."; else bad "sysshim-probe --json: $out"; fi
out=$(SYSSHIM_STRATEGY=statx-empty "$probe" --json 2>&1)
printf '%s' "$out" | grep -q '"forced": "statx-empty"' && printf '%s' "$out" | grep -q '"fstat": "statx-empty"' &&
	ok "SYSSHIM_STRATEGY=statx-empty reaches the installed probe" || bad "forced strategy: $out"
out=$(SYSSHIM_BATCH=plain "$probe" --json 2>&1)
printf '%s' "$out" | grep -q '"mode": "plain",.*"way_16": "plain"' &&
	ok "SYSSHIM_BATCH=plain: the probe's batch decision is plain" || bad "SYSSHIM_BATCH=plain: $out"
"$probe" | grep -q '^  fstat(fd) ' && "$probe" | grep -q 'a flush of 16 uses' &&
	ok "sysshim-probe prints the calls and the batch decision" || bad "sysshim-probe text output"

# --- sysshim-run from the scratch root
grep -aq "/usr/lib/$ma" "$run" && ok "sysshim-run looks in /usr/lib/$ma" || bad "sysshim-run's libdir"
export SYSSHIM_LIB="$lib"
SYSSHIM_RUN=always "$run" cat /proc/self/maps >"$t/maps" 2>"$t/err"
grep -q "$lib" "$t/maps" && ok "SYSSHIM_RUN=always: the scratch root's library is mapped in cat" ||
	bad "library not preloaded: $(cat "$t/err")"
"$run" --never cat /proc/self/maps | grep -q libsysshim && bad "--never preloaded" || ok "--never: not preloaded"
"$run" -v --always true 2>"$t/err"; [ $? = 0 ] && [ -s "$t/err" ] && ok "-v says: $(head -1 "$t/err")" || bad "-v said nothing"
"$run" --always -- /nonexistent/cmd 2>/dev/null; rc=$?
[ $rc = 127 ] && ok "command not found: 127" || bad "command not found: $rc"
printf 'x\n' >"$t/noexec"; chmod 644 "$t/noexec"
"$run" --always -- "$t/noexec" 2>/dev/null; rc=$?
[ $rc = 126 ] && ok "command not executable: 126" || bad "command not executable: $rc"
v=$("$run" --version) && echo "$v" | grep -q "$ver" && ok "--version: $v" || bad "--version: $v"
# The preload works: cat's own fstat calls reach the fstat syscall (glibc 2.36 alone makes
# newfstatat(fd, "", AT_EMPTY_PATH)); the probe's calls on fd 2147483647 are not counted.
if command -v strace >/dev/null; then
	# sysshim-run runs strace with the preload in its environment; strace traces only cat.
	strace -e trace=fstat,newfstatat -o "$t/tr0" cat "$top/debian/control" >/dev/null 2>&1
	SYSSHIM_RUN=always "$run" strace -e trace=fstat,newfstatat -o "$t/tr1" cat "$top/debian/control" >/dev/null 2>&1
	n0=$(grep -v 2147483647 "$t/tr0" | grep -c 'fstat(') n1=$(grep -v 2147483647 "$t/tr1" | grep -c 'fstat(')
	e0=$(grep -c 'newfstatat([0-9]*, ""' "$t/tr0") e1=$(grep -v 2147483647 "$t/tr1" | grep -c 'newfstatat([0-9]*, ""')
	[ "$n1" -gt "$n0" ] && [ "$e1" -lt "$e0" ] &&
		ok "cat under sysshim-run: fstat syscalls $n0 -> $n1, newfstatat(fd, \"\") $e0 -> $e1" ||
		bad "preload through sysshim-run: fstat $n0 -> $n1, newfstatat(fd, \"\") $e0 -> $e1"
fi
unset SYSSHIM_LIB
# Without SYSSHIM_LIB the scratch root's script looks where the package puts the library.
if [ ! -e "/usr/lib/$ma/libsysshim.so.0" ]; then
	"$run" --always true 2>"$t/err"; rc=$?
	[ $rc = 127 ] && grep -q "/usr/lib/$ma" "$t/err" && ok "no library installed: 127, looked in /usr/lib/$ma" ||
		bad "library lookup: $rc $(cat "$t/err")"
fi

# --- programs built against the installed libsysshim-dev with pkg-config
cat >"$t/p.c" <<'EOC'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sysshim.h>
int main(int argc, char **argv)
{
	struct stat a, b, c;
	struct sysshim_info in;
	int fd = dup2(open(argv[0], O_RDONLY), 100);
	if (fd != 100 || syscall(SYS_fstat, fd, &a) || sysshim_fstat(fd, &b) || fstat(fd, &c))
		return perror("stat"), 1;
	if (a.st_ino != b.st_ino || a.st_dev != b.st_dev || a.st_size != b.st_size ||
	    a.st_mode != b.st_mode || memcmp(&b, &c, sizeof b))
		return fprintf(stderr, "sysshim_fstat differs from the fstat syscall\n"), 1;
	if (sysshim_stat("/nonexistent/x", &b) != -1)
		return 1;
	sysshim_info(&in);
	printf("%s\n", sysshim_strategy_name(in.fstat_strategy));
	return 0;
}
EOC
pc() { PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/lib/$ma/pkgconfig" pkg-config "$@"; }
mv=$(pc --modversion sysshim) && [ "$mv" = "$ver" ] && ok "pkg-config --modversion sysshim: $mv" ||
	bad "pkg-config --modversion: '$mv', the package is $ver"
flags=$(pc --cflags --libs sysshim)
if cc -o "$t/p-shared" "$t/p.c" $flags 2>"$t/err" &&
	out=$(LD_LIBRARY_PATH="$root/usr/lib/$ma" "$t/p-shared") &&
	LD_LIBRARY_PATH="$root/usr/lib/$ma" ldd "$t/p-shared" | grep -q "$lib"; then
	ok "shared link ($flags) runs against the scratch root's library: fstat via $out"
else
	bad "shared link: $(cat "$t/err") $out"
fi
flags=$(pc --cflags --libs --static sysshim)
if cc -static -o "$t/p-static" "$t/p.c" $flags 2>"$t/err" && out=$("$t/p-static") &&
	file -b "$t/p-static" | grep -q 'statically linked'; then
	ok "static link ($flags) runs: fstat via $out"
	if command -v strace >/dev/null; then
		strace -e trace=fstat,newfstatat -o "$t/tr" "$t/p-static" >/dev/null 2>&1
		# fd 100: the raw syscall, sysshim_fstat() and the program's fstat() (stdio's own
		# fstat inside libc, on fd 1, is libc's internal call and is not counted).
		n=$(grep -c '^fstat(100,' "$t/tr") e=$(grep -c '^newfstatat(100, ""' "$t/tr")
		[ "$n" = 3 ] && [ "$e" = 0 ] && ok "static: the program's fstat() is sysshim's (fd 100: 3 fstat, 0 newfstatat)" ||
			bad "static: fd 100: $n fstat, $e newfstatat(fd, \"\") (want 3 and 0)"
	fi
else
	bad "static link: $(cat "$t/err") $out"
fi

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

echo "check-deb: $pass passed, $fail failed"
[ "$fail" = 0 ]
