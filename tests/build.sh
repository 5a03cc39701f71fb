#!/bin/sh
# configure and make install as a user meets them, in a copy of the tree: errors for a bad
# architecture or compiler, the three architectures' builds, install with DESTDIR and
# PREFIX, and a program built against the installed library with pkg-config.
# Prints "N passed, N failed".
top=$(pwd)
# The copies are built as a user builds them: the caller's B= and make flags stay out.
unset B MAKEFLAGS MFLAGS MAKELEVEL CONFIG
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
fresh() {
	rm -rf "$t/src" && mkdir -p "$t/src" &&
	(cd "$top" && tar cf - configure Makefile sysshim.pc.in mk arch include src programs tools tests bench man) |
	(cd "$t/src" && tar xf -) && cd "$t/src"
}

fresh
cd "$t/src" || exit 1
out=$(./configure --target=sparc64 2>&1) && bad "configure --target=sparc64 succeeded" ||
	{ echo "$out" | grep -q "unknown architecture 'sparc64'" && ok "unknown arch: $out" ||
	bad "unknown arch message: $out"; }
out=$(./configure CC=/nonexistent/cc 2>&1) && bad "configure CC=/nonexistent/cc succeeded" ||
	{ echo "$out" | grep -q "cannot build" && ok "bad compiler: $(echo "$out" | tail -1)" ||
	bad "bad compiler message: $out"; }
out=$(./configure --bogus 2>&1) && bad "configure --bogus succeeded" ||
	{ echo "$out" | grep -q "unknown option" && ok "unknown option" || bad "$out"; }
./configure --disable-shared --disable-static >/dev/null 2>&1 &&
	bad "nothing to build accepted" || ok "--disable-shared --disable-static refused"

for target in aarch64 loongarch64; do
	fresh
	if ./configure --target=$target >"$t/log" 2>&1 && make -j2 >>"$t/log" 2>&1; then
		f=$(file -b build/lib/libsysshim.a build/obj/src/stat/fstat.o 2>/dev/null | tail -1)
		case "$target:$f" in
		aarch64:*aarch64*|loongarch64:*LoongArch*) ok "$target build: $f" ;;
		*) bad "$target build made: $f" ;;
		esac
	else
		bad "$target build"; tail -5 "$t/log"
	fi
done
fresh
./configure --disable-shared >/dev/null 2>&1 && make -j2 >/dev/null 2>&1 &&
	[ -f build/lib/libsysshim.a ] && [ ! -e build/lib/libsysshim.so ] &&
	ok "--disable-shared: only libsysshim.a" || bad "--disable-shared"

fresh
if ./configure >/dev/null 2>&1 && make -j2 >/dev/null 2>&1 &&
	make install DESTDIR="$t/root" PREFIX=/usr >/dev/null 2>&1; then
	for f in usr/lib/libsysshim.a usr/lib/libsysshim.so.0 usr/lib/libsysshim.so \
		usr/include/sysshim.h usr/bin/sysshim-probe usr/bin/sysshim-run \
		usr/lib/pkgconfig/sysshim.pc usr/share/man/man1/sysshim-run.1 usr/share/man/man7/sysshim.7 \
		usr/share/man/man3/sysshim_fstat.3; do
		[ -e "$t/root/$f" ] && ok "installed /$f" || bad "not installed: /$f"
	done
	[ "$(readlink "$t/root/usr/share/man/man3/sysshim_stat.3")" = sysshim_fstat.3 ] &&
		ok "man3/sysshim_stat.3 -> sysshim_fstat.3" || bad "man3 alias sysshim_stat.3"
	./configure --prefix=/usr --mandir=/opt/man >/dev/null 2>&1 &&
		make install DESTDIR="$t/root2" >/dev/null 2>&1 && [ -f "$t/root2/opt/man/man1/sysshim-probe.1" ] &&
		ok "configure --mandir=/opt/man: pages in /opt/man" || bad "configure --mandir"
	# Built for /usr/local/lib, installed for /usr/lib: rebuilt with the libdir it is installed for.
	# (A copy away from ../lib, so that the compiled-in libdir is what it finds or names.)
	mkdir -p "$t/alone" && cp "$t/root/usr/bin/sysshim-run" "$t/alone/" &&
		SYSSHIM_LIB= "$t/alone/sysshim-run" -v --always true 2>&1 |
		grep -Eq 'looked in .*, /usr/lib\)|preloading /usr/lib/libsysshim\.so\.0' &&
		ok "sysshim-run looks in /usr/lib" || bad "sysshim-run's libdir: $(SYSSHIM_LIB= "$t/alone/sysshim-run" -v --always true 2>&1)"
	cat > "$t/p.c" <<'EOC'
#include <stdio.h>
#include <sys/stat.h>
#include <sysshim.h>
int main(void)
{
	struct stat st;
	struct sysshim_info in;
	sysshim_info(&in);
	return sysshim_stat("/", &st) || !printf("%s\n", sysshim_strategy_name(in.fstat_strategy));
}
EOC
	flags=$(PKG_CONFIG_SYSROOT_DIR="$t/root" PKG_CONFIG_LIBDIR="$t/root/usr/lib/pkgconfig" \
		pkg-config --cflags --libs sysshim)
	if cc -o "$t/p" "$t/p.c" $flags >"$t/log" 2>&1 &&
		out=$(LD_LIBRARY_PATH="$t/root/usr/lib" "$t/p"); then
		ok "program built with pkg-config ($flags) runs: $out"
	else
		bad "pkg-config build: $(cat "$t/log")"
	fi
	out=$("$t/root/usr/bin/sysshim-probe" --json) && echo "$out" | grep -q '"strategy"' &&
		ok "installed sysshim-probe --json" || bad "sysshim-probe --json: $out"
else
	bad "make install DESTDIR PREFIX=/usr"
fi
echo "build: $pass passed, $fail failed"
[ "$fail" = 0 ]
