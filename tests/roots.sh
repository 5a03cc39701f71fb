#!/bin/sh
# tests/roots.sh: where the library cannot load, it is not handed on (man/sysshim.7,
# "Where the library is not loaded"). Each case runs `sh -c CMD` without sysshim (the
# oracle), with the library preloaded (LD_PRELOAD=libsysshim.so.0 sh -c CMD) and
# through `sysshim-run --always sh -c CMD`, and compares standard output, standard
# error and the exit status byte for byte: a dynamic musl program (musl-gcc), reached
# through every call of the exec family and posix_spawn; a root without the library
# (chroot, unshare --root); a relative LD_PRELOAD path after a cd; a program of another
# ELF class (i386; its execve's environment too, under strace); an AddressSanitizer
# program; valgrind memcheck on real programs with the library in them and no
# suppression file; pointers the kernel refuses (its EFAULT, not a crash). Then what
# must not change: a glibc program in the same root, or in a root with the same library
# at the same path, still gets it, by its path or by the loader's $LIB. An exec's look reads no
# /proc/self/status. The library carries no IRELATIVE relocation (musl's loader has none).
# Environment: B (the build), CC, ROOTS_NEED_I386 (set: the i386 program must run, as in
# the guests; unset, a kernel without IA32 emulation skips that one case and says so),
# COMPAT_ONLY=group,group (as tests/compat.sh reads it,
# and tests/mutants/run.sh sets it: musl, roots, class, sanitizers, kept, look, search,
# refused, valgrind),
# HELP (a directory of the helper programs, built where missing; make check-compat
# builds them on the host with ROOTS_BUILD_ONLY=1, which only builds, and runs this
# script in its guests with HELP pointing at them).
# Prints "roots: N passed, N failed".
B=${B:-build}
CC=${CC:-cc}
top=$(pwd)
here=$(cd "$(dirname "$0")" && pwd)
RUN=$top/$B/bin/sysshim-run
LIB=$top/$B/lib/libsysshim.so.0
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL $1"; shift; for l; do printf '       %s\n' "$l"; done; }
finish() { echo "roots: $pass passed, $fail failed"; exit $((fail != 0)); }
have() { command -v "$1" >/dev/null 2>&1; }
want() { case ",${COMPAT_ONLY:-all}," in *",$1,"* | *,all,*) return 0 ;; esac; return 1; }
[ -n "${ROOTS_BUILD_ONLY:-}" ] || for f in "$RUN" "$LIB"; do
	[ -e "$f" ] || { bad "$f is not built (make all)"; finish; }
done
unset LD_PRELOAD
tmp=$(mktemp -d /tmp/sysshim-roots.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
H=${HELP:-$tmp/bin}
mkdir -p "$H"

# ---- the programs (a missing tool fails its cases: none is skipped); with HELP, those
# already there are taken as they are (built on the host for a guest without compilers'
# other C libraries)
built() { [ -x "$1" ] && [ -z "${ROOTS_BUILD_ONLY:-}" ]; }
built "$H/execby" || $CC -O1 -o "$H/execby" "$here/preload/execby.c" || bad "tests/preload/execby.c does not build"
built "$H/refused" || $CC -O1 -o "$H/refused" "$here/preload/refused.c" || bad "tests/preload/refused.c does not build"
if built "$H/showfile"; then
	:
elif have musl-gcc; then
	musl-gcc -O1 -o "$H/showfile" "$here/preload/showfile.c" 2>"$tmp/cc.err" ||
		bad "musl-gcc does not build tests/preload/showfile.c" "$(head -3 "$tmp/cc.err")"
	readelf -lW "$H/showfile" 2>/dev/null | grep -q 'interpreter: .*ld-musl' ||
		bad "the musl program has no musl interpreter" "$(readelf -lW "$H/showfile" | grep -i interp)"
else
	bad "musl-gcc is not installed (make deps-check installs musl-tools)"
fi
i386=no
if built "$H/i386"; then
	i386=yes
elif $CC -m32 -nostdlib -fpie -pie -Wl,-dynamic-linker,/lib/ld-linux.so.2 -o "$H/i386" \
	"$here/preload/i386.c" /lib32/libc.so.6 2>"$tmp/cc.err"; then
	i386=yes
else
	bad "no i386 program built here (make deps-check installs libc6-i386)" "$(head -3 "$tmp/cc.err")"
fi
built "$H/showfile-asan" ||
	$CC -O1 -g -fsanitize=address -o "$H/showfile-asan" "$here/preload/showfile.c" 2>"$tmp/cc.err" ||
	bad "no AddressSanitizer program (gcc -fsanitize=address)" "$(head -3 "$tmp/cc.err")"
[ -n "${ROOTS_BUILD_ONLY:-}" ] && exit $((fail != 0))

n=$(readelf -rW "$LIB" | grep -c IRELATIV)
[ "$n" = 0 ] && ok "no IRELATIVE relocation in $B/lib/libsysshim.so.0" ||
	bad "$n IRELATIVE relocations in the library: musl's loader refuses it" "$(readelf -rW "$LIB" | grep IRELATIV)"

# A root without the library: cat, env and their libraries (ldd), a file of its own.
R=$tmp/root
mkdir -p "$R/etc" "$R/bin"
echo inside >"$R/etc/hostname"
for p in /bin/cat /usr/bin/env; do
	cp "$p" "$R/bin/"
	for l in $(ldd "$p" | sed -n 's|.*[[:space:]]\(/[^ ]*\) (0x.*|\1|p'); do
		mkdir -p "$R$(dirname "$l")" && cp -L "$l" "$R$l"
	done
done

# ---- the oracle
# same NAME CMD: sh -c CMD alone, with the library preloaded, through sysshim-run.
same() {
	c=$1 cmd=$2
	(cd "$tmp" && sh -c "$cmd") >"$tmp/none.out" 2>"$tmp/none.err"
	echo "exit $?" >>"$tmp/none.out"
	for w in preload run; do
		case $w in
		preload) (cd "$tmp" && LD_PRELOAD=$LIB sh -c "$cmd") ;;
		run) (cd "$tmp" && "$RUN" --always sh -c "$cmd") ;;
		esac >"$tmp/$w.out" 2>"$tmp/$w.err"
		echo "exit $?" >>"$tmp/$w.out"
		if cmp -s "$tmp/none.out" "$tmp/$w.out" && cmp -s "$tmp/none.err" "$tmp/$w.err"; then
			ok "$c: $w"
		else
			bad "$c: $w is not what the command without sysshim does" \
				"$(diff "$tmp/none.out" "$tmp/$w.out" | head -6)" \
				"$(diff "$tmp/none.err" "$tmp/$w.err" | head -4)"
		fi
	done
}

if want musl; then
echo "-- another C library: a dynamic musl program"
f=$tmp/file
echo hello >"$f"
same "musl, run by the shell" "$H/showfile $f /"
for w in execve execv execvp execvpe execl execle execlp fexecve execveat posix_spawn posix_spawnp; do
	same "musl, by $w" "PATH=$H:\$PATH $H/execby $w $H/showfile $f"
done
printf '#!%s\n' "$H/showfile" >"$H/musl-script" && chmod +x "$H/musl-script"
same "a script whose interpreter is the musl program" "$H/musl-script"

fi
if want roots; then
echo "-- another root: no library at its path"
same "chroot" "chroot $R /bin/cat /etc/hostname"
have unshare && same "unshare --root" "unshare --root=$R /bin/cat /etc/hostname" ||
	bad "unshare is not installed (util-linux)"
# A relative path in LD_PRELOAD names nothing once the shell has changed directory.
(cd "$top" && sh -c "cd / && cat $f") >"$tmp/none.out" 2>&1
(cd "$top" && LD_PRELOAD=$B/lib/libsysshim.so.0 sh -c "cd / && cat $f") >"$tmp/rel.out" 2>&1
cmp -s "$tmp/none.out" "$tmp/rel.out" && ok "a relative LD_PRELOAD path after cd: no loader message" ||
	bad "a relative LD_PRELOAD path after cd" "$(diff "$tmp/none.out" "$tmp/rel.out" | head -4)"

fi
if want class; then
echo "-- another ELF class"
if [ $i386 = yes ]; then
	same "an i386 program" "$H/i386"
	# What the shell's exec hands the program, seen by strace whether or not the kernel
	# then runs it: no entry of the library in its LD_PRELOAD.
	if have strace; then
		strace -f -qq -v -s 4096 -e trace=execve -o "$tmp/i386.tr" \
			env LD_PRELOAD=$LIB SYSSHIM_TRACER=allow sh -c "$H/i386" >/dev/null 2>&1
		ex=$(grep -F "execve(\"$H/i386\"" "$tmp/i386.tr")
		if [ -z "$ex" ]; then
			bad "an i386 program: no execve of it in the trace" "$(tail -3 "$tmp/i386.tr")"
		elif printf '%s\n' "$ex" | grep -q 'LD_PRELOAD=[^"]*libsysshim'; then
			bad "an i386 program: its execve hands on the library" "$(printf '%s\n' "$ex" | grep -o 'LD_PRELOAD=[^"]*')"
		else
			ok "an i386 program: its execve hands on no LD_PRELOAD of the library"
		fi
	else
		bad "strace is not installed"
	fi
	# The oracle must be the program run (exit 7), not the kernel refusing its class. A
	# kernel without IA32 emulation (ENOEXEC: "Exec format error") cannot hold the case:
	# said and left to Debian's 6.1 in make check-compat, which sets ROOTS_NEED_I386.
	if grep -qx 'exit 7' "$tmp/none.out"; then
		ok "the i386 program runs here (exit 7)"
	elif [ -z "${ROOTS_NEED_I386:-}" ] && [ -e /lib/ld-linux.so.2 ] &&
		grep -q 'Exec format error' "$tmp/none.err"; then
		echo "  skip the i386 program: this kernel refuses its class (no IA32 emulation); make check-compat runs it in Debian's 6.1"
	else
		bad "the i386 program does not run here: no IA32 emulation, or no /lib/ld-linux.so.2" "$(cat "$tmp/none.out" "$tmp/none.err" | head -3)"
	fi
fi

fi
if want sanitizers; then
echo "-- a sanitizer's runtime must come first"
same "AddressSanitizer program, run by the shell" "$H/showfile-asan $f"
same "AddressSanitizer program, by posix_spawn" "$H/execby posix_spawn $H/showfile-asan $f"

fi
if want kept; then
echo "-- what does not change: a glibc program in the same root keeps the library"
got=$(LD_PRELOAD=$LIB sh -c 'grep -c libsysshim /proc/self/maps')
[ "${got:-0}" -gt 0 ] && ok "same root: grep has the library mapped" || bad "same root: the library is not in grep" "$got"
got=$(LD_PRELOAD="$LIB /lib/x86_64-linux-gnu/libm.so.6" sh -c "cd / && $H/execby execvp env" | grep ^LD_PRELOAD=)
[ "$got" = "LD_PRELOAD=$LIB /lib/x86_64-linux-gnu/libm.so.6" ] && ok "same root: LD_PRELOAD handed on as it was" ||
	bad "same root: LD_PRELOAD changed" "$got"
m=/lib/x86_64-linux-gnu/libm.so.6 c=/lib/x86_64-linux-gnu/libc.so.6
cp "$m" "$R$m"
got=$(LD_PRELOAD="$m:$LIB $c" sh -c "chroot $R /bin/env" | grep ^LD_PRELOAD=)
[ "$got" = "LD_PRELOAD=$m $c" ] && ok "a root without it: its entry left out, the others kept" ||
	bad "a root without it: LD_PRELOAD is not the others'" "$got"
mkdir -p "$R$(dirname "$LIB")" && cp "$LIB" "$R$LIB"
got=$(LD_PRELOAD=$LIB sh -c "chroot $R /bin/env" | grep ^LD_PRELOAD=)
[ "$got" = "LD_PRELOAD=$LIB" ] && ok "a root with the same library at its path: kept" ||
	bad "a root with the same library at its path: not kept" "$got"
cp /bin/true "$R$LIB"
got=$(LD_PRELOAD=$LIB sh -c "chroot $R /bin/env" | grep ^LD_PRELOAD=)
[ -z "$got" ] && ok "a root with another file at its path: left out" ||
	bad "a root with another file at its path: kept" "$got"
rm -f "$R$LIB"
# An entry with the loader's $LIB (multiarch: each class finds its own build), here a
# copy of the library by another name: known as the library by the name the loader
# expanded it to, kept where it loads, left out of a root without it.
mkdir -p "$tmp/multi/lib/x86_64-linux-gnu" && cp "$LIB" "$tmp/multi/lib/x86_64-linux-gnu/shim.so"
for e in "$tmp/multi/\$LIB/shim.so" "$tmp/multi/\${LIB}/shim.so"; do
	got=$(LD_PRELOAD=$e sh -c "cd / && $H/execby execvp env" | grep ^LD_PRELOAD=)
	[ "$got" = "LD_PRELOAD=$e" ] && ok "an entry with \$LIB ($e): handed on as it was" ||
		bad "an entry with \$LIB ($e): changed" "$got"
	got=$(LD_PRELOAD=$e sh -c "chroot $R /bin/env" 2>&1 | grep -e ^LD_PRELOAD= -e ERROR)
	[ -z "$got" ] && ok "an entry with \$LIB ($e), a root without it: left out" ||
		bad "an entry with \$LIB ($e), a root without it: kept" "$got"
done

fi
if want look; then
echo "-- what the look costs: no read of /proc/self/status for an exec"
# env, preloaded, starts /bin/true through the library's execvp: the look reads the
# program (its open is in the trace), and asks nothing of the sandbox, which no fd stat
# has looked at yet. SYSSHIM_TRACER=allow: strace is no sandbox here.
if have strace; then
	strace -f -qq -e trace=openat,newfstatat -o "$tmp/look.tr" \
		env LD_PRELOAD=$LIB SYSSHIM_TRACER=allow env /bin/true >"$tmp/look.out" 2>&1
	rc=$?
	tr_at=$(grep -c 'openat(AT_FDCWD, "/\(usr/\)\?bin/true", O_RDONLY|O_NOCTTY|O_NONBLOCK|O_CLOEXEC)' "$tmp/look.tr")
	if [ $rc = 0 ] && [ "$tr_at" -ge 1 ] && ! grep -q /proc/self/status "$tmp/look.tr"; then
		ok "an exec's look: the program read, the sandbox not"
	else
		bad "an exec's look (exit $rc; opens of the program: $tr_at)" \
			"$(grep -e /proc/self/status -e bin/true "$tmp/look.tr" | head -4)" "$(head -3 "$tmp/look.out")"
	fi
else
	bad "strace is not installed"
fi

fi
if want search; then
echo "-- a PATH search (execvp, execvpe, execlp): the program glibc's search runs, and once"
# The library's search stats each candidate and runs the first glibc's execve-by-execve
# search would reach with one execve; whatever that execve cannot do is glibc's search's
# again. Candidates glibc passes over (missing, a directory, no execute bit) and the ones
# it stops at (a symbolic link loop), a file the kernel refuses (a script without #!:
# ENOEXEC, which glibc runs with /bin/sh), each before the program.
S=$tmp/search
mkdir -p "$S/none" "$S/dir/prog" "$S/noexec" "$S/loop" "$S/sh" "$S/bin"
printf '#!/bin/sh\necho "ran $0 $*"\n' >"$S/bin/prog" && chmod +x "$S/bin/prog"
printf 'echo "sh ran $0 $*"\n' >"$S/sh/prog" && chmod +x "$S/sh/prog"
cp "$S/bin/prog" "$S/noexec/prog" && chmod -x "$S/noexec/prog"
ln -s prog "$S/loop/prog"
for way in execvp execvpe execlp; do
	for d in none dir noexec loop sh; do
		same "$way, PATH's first candidate $d" "PATH=$S/$d:$S/bin $H/execby $way prog a"
	done
	same "$way, an empty element of PATH (the working directory)" "cd $S/sh && PATH=:$S/bin $H/execby $way prog a"
	same "$way, PATH unset (/bin:/usr/bin)" "unset PATH; $H/execby $way echo a"
done
# What it costs: one stat of each candidate, no second stat of the program, one execve
# (glibc's search: one for each candidate); an exec that cannot run (no such file) looks
# for nothing more (the library's own file is not opened).
if st=$(command -v strace); then
	PATH=$S/none:$S/dir:$S/bin LD_PRELOAD=$LIB SYSSHIM_TRACER=allow $st -f -qq \
		-e trace=execve,newfstatat,openat -o "$tmp/search.tr" $H/execby execvp prog a >"$tmp/search.out" 2>&1
	rc=$? nx=$(grep -c 'execve(' "$tmp/search.tr") ns=$(grep -c "newfstatat(AT_FDCWD, \"$S/bin/prog\"" "$tmp/search.tr")
	[ $rc = 0 ] && [ "$nx" = 2 ] && [ "$ns" = 1 ] && grep -qx "ran $S/bin/prog a" "$tmp/search.out" &&
		ok "execvp through three candidates: one execve of the program, one stat of it" ||
		bad "execvp through three candidates (exit $rc; execve: $nx, execby's own and the program's wanted; stats of the program: $ns)" \
			"$(grep -e execve -e "$S" "$tmp/search.tr" | cut -c1-120 | head -8)" "$(head -2 "$tmp/search.out")"
	LD_PRELOAD=$LIB SYSSHIM_TRACER=allow strace -f -qq -e trace=openat -o "$tmp/absent.tr" \
		$H/execby execve "$S/none/prog" >"$tmp/absent.out" 2>&1
	rc=$?
	if [ $rc = 127 ] && grep -q 'No such file' "$tmp/absent.out" && ! grep -q "openat(AT_FDCWD, \"$LIB\", .*O_NONBLOCK" "$tmp/absent.tr"; then
		ok "an exec of a missing file: the library's own file not looked for"
	else
		bad "an exec of a missing file (exit $rc)" "$(grep "$LIB" "$tmp/absent.tr" | head -3)" "$(head -2 "$tmp/absent.out")"
	fi
else
	bad "strace is not installed"
fi

fi
if want refused; then
echo "-- pointers the kernel refuses: its EFAULT, not a crash"
# Each call the first of a process of its own: the exec family's path, environment and
# entries, posix_spawn's, and the stat family's paths, as NULL, a small number, a
# pointer no memory can be at, a page mapped PROT_NONE (not the environment there: the
# library reads it before the kernel, sysshim(7) Limits). Then each after the probe,
# and so under a tracer the library has seen, where it reads the program with the
# loader's calls alone.
same "pointers the kernel refuses" "$H/refused"
same "pointers the kernel refuses, after the probe" "$H/refused probed"
if have strace; then
	same "pointers the kernel refuses, traced" "strace -f -qq -o /dev/null $H/refused probed"
else
	bad "strace is not installed"
fi

fi
if want valgrind; then
echo "-- valgrind memcheck, the library in the program, no suppression file"
if have valgrind; then
	mkdir -p "$tmp/dir" && touch "$tmp/dir/a"
	for cmd in "stat -c '%n %s %F' $f" "cat $f" "ls $tmp/dir"; do
		same "valgrind $cmd" "valgrind -q --error-exitcode=99 $cmd"
	done
	# The probe too: at the first fd stat (SYSSHIM_STRATEGY=auto), and after 32 of them.
	same "valgrind cat, the probe at the first fd stat" \
		"SYSSHIM_STRATEGY=auto valgrind -q --error-exitcode=99 cat $f"
	many=$(for i in $(seq 40); do printf ' %s' "$f"; done)
	same "valgrind cat of 40 files, the probe after 32 fd stats" \
		"valgrind -q --error-exitcode=99 cat $many"
else
	bad "valgrind is not installed"
fi
fi
finish
