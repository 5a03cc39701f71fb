#!/bin/sh
# tests/run.sh: sysshim-run's decisions, options and exit codes (make check-host).
# Each decision path is forced for real: the kernel's own answer, a measurement under a
# seccomp filter that answers NULL paths as a kernel before 6.11 does, the per-boot cache
# (read, written, ignored from another boot), the SYSSHIM_RUN_TIMING hook for a cheap and
# a dear empty path, statx refused with EPERM (ls fails alone) and with ENOSYS.
# Whether the library is loaded is read from the command's own /proc/self/maps.
# The command is read where it would be preloaded: a dynamic C program is preloaded, a
# static one, set-user-ID and set-group-ID copies, Go programs (Debian's gdu, cgo, and
# shfmt, static), crafted ELF files of another class or machine, and programs of another
# C library (a real musl one, and crafted ones naming another loader) run untouched;
# scripts as before, but for a script whose interpreter the library would break. What
# reached the command's execve is read with strace -v; what sysshim-run does before it
# with valgrind --trace-syscalls (a tracer it would see: it steps aside for strace).
# Under a tracer that kills fstat (strace -e inject), sysshim-run and the command end as
# the command alone does. The ELF reader alone (tests/run/needed.c, under ASan
# and UBSan where the compiler has them): the DT_NEEDED walk on real and crafted files,
# malformed ones, and a few thousand files with bytes changed where it looks.
# Prints "sysshim-run: N passed, N failed".
B=${B:-build}
CC=${CC:-cc}
top=$(pwd)
run=$top/$B/bin/sysshim-run
probe=$top/$B/bin/sysshim-probe
sb=$top/$B/tests/run-sandbox
[ -x "$run" ] || {
	echo "tests/run.sh: $run not built (make B=$B all)" >&2; echo "sysshim-run: 0 passed, 1 failed"; exit 1; }
mkdir -p "$top/$B/tests"
# The helpers (tests/run/), built here when missing or older than their source.
helper() {
	out=$1 src=$2
	shift 2
	[ -x "$out" ] && [ ! "$src" -nt "$out" ] && return 0
	$CC -O2 -Wall "$@" -o "$out" "$src" || { echo "sysshim-run: 0 passed, 1 failed"; exit 1; }
}
helper "$sb" tests/run/sandbox.c
showenv=$top/$B/tests/run-showenv
helper "$showenv" tests/run/showenv.c
helper "$showenv-static" tests/run/showenv.c -static
mkelf=$top/$B/tests/run-mkelf
helper "$mkelf" tests/run/mkelf.c
# The reader is built each time (it is small): its sources are sysshim-run's.
needed=$top/$B/tests/run-needed
nsrc="-Iprograms/sysshim-run -Iarch/$(uname -m) -Iarch/generic -Isrc/internal tests/run/needed.c programs/sysshim-run/elfread.c"
if $CC -O1 -g -Wall -fsanitize=address,undefined -fno-sanitize-recover=all -o "$needed" $nsrc 2>/dev/null; then
	nsan="under ASan and UBSan"
else
	nsan="without sanitizers (the compiler has none)"
	$CC -O2 -Wall -o "$needed" $nsrc || { echo "sysshim-run: 0 passed, 1 failed"; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SYSSHIM_RUN_CACHE=$tmp/cache
unset SYSSHIM_RUN SYSSHIM_RUN_TIMING SYSSHIM_RUN_RATIO
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL $1"; shift; for l; do printf '       %s\n' "$l"; done; }
# check NAME EXPECTED_RC EXPECTED_LOADED(yes/no/-) STDERR_PATTERN CMD...: runs CMD (which
# prints its maps), compares the exit code, whether libsysshim is mapped, and stderr.
check() {
	name=$1 want_rc=$2 want_lib=$3 pat=$4
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	mapped=no
	grep -q 'libsysshim\.so' "$tmp/out" && mapped=yes
	why=
	[ "$rc" = "$want_rc" ] || why="exit $rc, want $want_rc"
	[ "$want_lib" = - ] || [ "$mapped" = "$want_lib" ] || why="$why; library loaded: $mapped, want $want_lib"
	if [ -n "$pat" ]; then grep -q -e "$pat" "$tmp/err" || why="$why; stderr lacks '$pat'"
	else [ -s "$tmp/err" ] && why="$why; stderr not empty"; fi
	if [ -z "$why" ]; then ok "$name"; else bad "$name: $why" "$(head -3 "$tmp/err")"; fi
}
maps="cat /proc/self/maps"

echo "-- options and exit codes"
check "--help: usage on stdout, exit 0" 0 - "" $run --help
grep -q '^usage: sysshim-run' "$tmp/out" && ok "--help prints the usage" || bad "--help prints the usage" "$(head -2 "$tmp/out")"
check "--version" 0 no "" $run --version
grep -qx 'sysshim-run (sysshim) [0-9.]*' "$tmp/out" && ok "--version prints the version" || bad "--version" "$(cat "$tmp/out")"
check "no command: usage on stderr, exit 125" 125 no "usage: sysshim-run" $run
check "unknown option: exit 125" 125 no "unknown option '--bogus'" $run --bogus true
check "SYSSHIM_RUN=sometimes: exit 125" 125 no "SYSSHIM_RUN=sometimes" env SYSSHIM_RUN=sometimes $run true
check "command not found: exit 127" 127 no "no-such-cmd-h11" $run no-such-cmd-h11
printf 'x\n' > "$tmp/noexec"; chmod 644 "$tmp/noexec"
check "command not executable: exit 126" 126 no "Permission denied" $run "$tmp/noexec"
check "the command's exit code is passed on" 3 no "" $run sh -c 'exit 3'
mkdir -p "$tmp/bin"; printf '#!/bin/sh\necho dash-named "$@"\n' > "$tmp/bin/-x"; chmod +x "$tmp/bin/-x"
check "-- ends the options (runs a command named -x)" 0 no "" env PATH="$tmp/bin:$PATH" $run --never -- -x -v
grep -qx 'dash-named -v' "$tmp/out" && ok "-- passes later options to the command" || bad "-- passes options on" "$(cat "$tmp/out")"
check "options after the command are the command's" 0 no "" $run --never echo --always
grep -qx -- '--always' "$tmp/out" && ok "echo --always printed --always" || bad "echo --always" "$(cat "$tmp/out")"
check "missing library, to be preloaded: exit 127" 127 no "cannot find libsysshim" env SYSSHIM_LIB=/nonexistent/libsysshim.so.0 sh -c 'cp "$1" "$2/alone" && "$2/alone" --always true' - "$run" "$tmp"
check "a wrong SYSSHIM_LIB is an error, not a reason to load ../lib's" 127 no "SYSSHIM_LIB=/nonexistent/x.so, which is no file" env SYSSHIM_LIB=/nonexistent/x.so $run --always true
check "missing library, not needed (steps aside): the command runs" 0 no "" env SYSSHIM_LIB=/nonexistent/libsysshim.so.0 SYSSHIM_RUN_TIMING="100 110" "$tmp/alone" $maps

printf 'echo no-hashbang "$@"\n' > "$tmp/bin/nohash"; chmod +x "$tmp/bin/nohash"
check "a script without #! runs under /bin/sh (as execvp does)" 0 no "" $run --never "$tmp/bin/nohash" a b
grep -qx 'no-hashbang a b' "$tmp/out" && ok "it got its arguments" || bad "script without #!" "$(cat "$tmp/out")"
mkdir -p "$tmp/p1" "$tmp/p2"; printf '#!/bin/sh\necho p1\n' > "$tmp/p1/h11cmd"; chmod 644 "$tmp/p1/h11cmd"
printf '#!/bin/sh\necho p2\n' > "$tmp/p2/h11cmd"; chmod 755 "$tmp/p2/h11cmd"
check "PATH: a non-executable match is passed over" 0 no "" env PATH="$tmp/p1:$tmp/p2" $run --never h11cmd
grep -qx p2 "$tmp/out" && ok "PATH: the executable one ran" || bad "PATH search" "$(cat "$tmp/out")"
check "PATH: only a non-executable match: exit 126" 126 no "Permission denied" env PATH="$tmp/p1" $run --never h11cmd
check "--measure prints both costs" 0 no "" $run --measure
grep -Eq '^fstat [0-9.]+ ns, newfstatat-empty [0-9.]+ ns, ratio [0-9.]+$' "$tmp/out" && ok "--measure's line" || bad "--measure" "$(cat "$tmp/out")"
# One exec and nothing loaded: a static PIE without an interpreter or relocations, and
# under strace the command is the only other execve.
if readelf -lW "$run" | grep -q INTERP || readelf -rW "$run" | grep -q 'R_' || ! readelf -hW "$run" | grep -q 'DYN'; then
	bad "sysshim-run is a static PIE with no relocations" "$(readelf -lW "$run" | grep -E 'INTERP|DYN')"
else
	ok "sysshim-run is a static PIE with no interpreter and no relocations"
fi
if command -v strace >/dev/null; then
	t=/usr/bin/true; [ -x $t ] || t=/bin/true
	n=$(strace -f -qq -e trace=execve,openat -o "$tmp/st" $run --never "$t" && grep -c 'execve(.*= 0$' "$tmp/st")
	# What sysshim-run opens before the command's execve: no library.
	lib=$(sed -n "1,/execve(\"$(echo "$t" | sed 's|/|\\/|g')\"/p" "$tmp/st" | grep -c '\.so')
	[ "$n" = 2 ] && [ "$lib" = 0 ] &&
		ok "one exec for sysshim-run, one for the command, no library opened before it" ||
		bad "execs under strace: $n (want 2), library opens $lib" "$(grep execve "$tmp/st" | head -3)"
fi
(cd "$tmp" && cp "$top/$B/lib/libsysshim.so.0" ./rel.so && SYSSHIM_LIB=rel.so "$run" --always -v sh -c 'cd / && echo "$LD_PRELOAD"') >"$tmp/out" 2>"$tmp/err"
grep -qx "$tmp/rel.so" "$tmp/out" && ok "a relative SYSSHIM_LIB is made absolute" || bad "relative SYSSHIM_LIB" "$(cat "$tmp/out" "$tmp/err")"
check "LD_PRELOAD appears once in the command's environment" 0 - "" env LD_PRELOAD="$top/$B/lib/libsysshim.so" $run --always sh -c 'env | grep -c ^LD_PRELOAD='
grep -qx 1 "$tmp/out" && ok "one LD_PRELOAD entry" || bad "LD_PRELOAD entries" "$(cat "$tmp/out")"

echo "-- forced"
check "--always preloads (-v says why)" 0 yes "preloading /.*/libsysshim.so.0: asked to" $run -v --always $maps
check "--never does not" 0 no "not preloading: asked not to" $run -v --never $maps
check "SYSSHIM_RUN=always preloads" 0 yes "" env SYSSHIM_RUN=always $run $maps
check "SYSSHIM_RUN=never does not" 0 no "" env SYSSHIM_RUN=never SYSSHIM_RUN_TIMING="100 900" $run $maps
check "--never needs no library" 0 no "" env SYSSHIM_LIB=/nonexistent sh -c 'cp "$1" "$2/alone2" && "$2/alone2" --never cat /proc/self/maps' - "$run" "$tmp"
check "--never beats SYSSHIM_RUN=always" 0 no "" env SYSSHIM_RUN=always $run --never $maps
check "without -v nothing on stderr" 0 yes "" $run --always $maps
check "an existing LD_PRELOAD is kept" 0 yes "" env LD_PRELOAD="$top/$B/lib/libsysshim.so.0" $run --always sh -c 'echo "$LD_PRELOAD"'
n=$(tr ':' '\n' < "$tmp/out" | grep -c libsysshim)
[ "$n" = 2 ] && ok "LD_PRELOAD holds both entries" || bad "LD_PRELOAD holds both entries" "$(cat "$tmp/out")"

echo "-- auto: the kernel's answer"
if "$probe" --json | grep -q '"newfstatat_null": true'; then
	check "NULL path accepted here ($(uname -r)): steps aside" 0 no "accepts newfstatat(fd, NULL" $run -v $maps
else
	check "NULL path refused here ($(uname -r)): measured" 0 - "costs [0-9.]* times fstat" $run -v $maps
fi
check "cheap empty path (hook 100 vs 110 ns): steps aside" 0 no "1.10 times fstat.*nothing to save" env SYSSHIM_RUN_TIMING="100 110" $run -v $maps
check "dear empty path (hook 100 vs 250 ns): preloads" 0 yes "2.50 times fstat.*lacks the empty-path fast path" env SYSSHIM_RUN_TIMING="100 250" $run -v $maps
check "SYSSHIM_RUN_RATIO=3 moves the threshold" 0 no "threshold 3.00" env SYSSHIM_RUN_RATIO=3 SYSSHIM_RUN_TIMING="100 250" $run -v $maps

echo "-- auto: measured (NULL paths answered EFAULT, as before 6.11) and cached per boot"
# The filter that makes NULL paths answer as before 6.11 is one sysshim-run cannot read:
# SYSSHIM_SECCOMP=child has throwaway children make its calls first (they live), and
# then it goes on as without a filter.
export SYSSHIM_SECCOMP=child
boot=$(cat /proc/sys/kernel/random/boot_id)
rm -f "$SYSSHIM_RUN_CACHE"
check "first run measures" 0 - "measured now, cached in $SYSSHIM_RUN_CACHE" $sb null-efault $run -v $maps
if read -r id f e < "$SYSSHIM_RUN_CACHE" && [ "$id" = "$boot" ]; then
	ok "the cache holds this boot's id and two timings ($f, $e ns)"
	r=$(awk -v f="$f" -v e="$e" 'BEGIN { printf "%.2f", e / f }')
	# The measured ratio decides (threshold 1.5).
	exp=no; awk -v r="$r" 'BEGIN { exit !(r >= 1.5) }' && exp=yes
	check "the measured ratio ($r) decides: preload $exp" 0 $exp "$r times" $sb null-efault $run -v $maps
else
	bad "the cache holds this boot's id" "$(cat "$SYSSHIM_RUN_CACHE" 2>&1)"
fi
check "second run reads the cache" 0 - "measured this boot, cached in" $sb null-efault $run -v $maps
echo "$boot 100.0 400.0" > "$SYSSHIM_RUN_CACHE"
check "a cached dear answer is believed: preloads" 0 yes "4.00 times.*measured this boot" $sb null-efault $run -v $maps
echo "00000000-0000-0000-0000-000000000000 100.0 400.0" > "$SYSSHIM_RUN_CACHE"
check "another boot's cache is ignored" 0 - "measured now" $sb null-efault $run -v $maps
grep -q "^$boot " "$SYSSHIM_RUN_CACHE" && ok "and replaced by this boot's" || bad "cache replaced" "$(cat "$SYSSHIM_RUN_CACHE")"

rm -f "$SYSSHIM_RUN_CACHE"
check "a clock that does not move: not timed, left to glibc" 0 no "not preloading: the clock here does not move" $sb null-efault $sb clock-eperm $run -v $maps
[ ! -e "$SYSSHIM_RUN_CACHE" ] && ok "and nothing cached" || bad "a clock that does not move: cached" "$(cat "$SYSSHIM_RUN_CACHE")"

echo "-- auto: sandboxes, the kernel asked in throwaway children (SYSSHIM_SECCOMP=child)"
check "newfstatat refused (EPERM): nothing to gain, said so" 127 - "fstat or newfstatat refused here: nothing to gain" $sb newfstatat-eperm $run -v /nonexistent/cmd
"$sb" statx-eperm ls -l "$top/tools" >/dev/null 2>"$tmp/ls-err"; lrc=$?
[ "$lrc" != 0 ] && grep -q 'Operation not permitted' "$tmp/ls-err" && ok "statx EPERM: ls -l fails under glibc alone (exit $lrc)" ||
	bad "statx EPERM: ls -l fails under glibc alone" "exit $lrc"
check "statx EPERM: sysshim-run preloads and says why" 0 yes "statx is refused here with EPERM" $sb statx-eperm $run -v $maps
ls -l "$top/tools" > "$tmp/ls-plain" 2>&1
check "statx EPERM: ls -l works under sysshim-run" 0 - "statx is refused" $sb statx-eperm $run -v ls -l "$top/tools"
cmp -s "$tmp/out" "$tmp/ls-plain" && ok "statx EPERM: the same listing as outside the sandbox" || bad "same ls -l output" "$(diff "$tmp/out" "$tmp/ls-plain" | head -3)"
check "statx ENOSYS (glibc falls back): not a reason to preload" 0 - "" env SYSSHIM_RUN_TIMING="100 110" $sb statx-enosys $run $maps
grep -q libsysshim "$tmp/out" && bad "statx ENOSYS: no preload" || ok "statx ENOSYS: no preload"
unset SYSSHIM_SECCOMP

echo "-- auto: sandboxes, careful (a filter that cannot be read: nothing asked)"
check "a filter: preloads, says it asked nothing" 0 yes "a seccomp filter is in force here" $sb statx-enosys $run -v $maps
check "statx EPERM: preloads" 0 yes "a seccomp filter is in force here" $sb statx-eperm $run -v $maps
check "statx EPERM: ls -l works (the library answers through fstatat)" 0 - "a seccomp filter" $sb statx-eperm $run -v ls -l "$top/tools"
cmp -s "$tmp/out" "$tmp/ls-plain" && ok "  the same listing as outside the sandbox" || bad "same ls -l output" "$(diff "$tmp/out" "$tmp/ls-plain" | head -3)"
# newfstatat refused breaks glibc's dynamic loader itself: the command ends as it ends alone.
"$sb" newfstatat-eperm cat /proc/self/maps >/dev/null 2>&1; nrc=$?
check "newfstatat refused: the library's stat refused too: the command runs untouched (exit $nrc alone)" $nrc no \
	"the library is not to be found" $sb newfstatat-eperm $run -v $maps
check "SYSSHIM_SECCOMP=bogus: careful all the same" 0 yes "a seccomp filter is in force here" env SYSSHIM_SECCOMP=bogus $sb statx-enosys $run -v $maps

echo "-- the command, read where it would be preloaded"
lib=$top/$B/lib/libsysshim.so.0
# decides NAME RC PRE(yes/no) STDERR_PATTERN FILE CMD...: runs CMD under strace (execve
# only, with the environments); checks the exit code, whether the last execve of FILE
# carried an LD_PRELOAD naming libsysshim, and stderr.
decides() {
	name=$1 want_rc=$2 want_pre=$3 pat=$4 f=$5
	shift 5
	strace -f -qq -v -s 65536 -e trace=execve -o "$tmp/ex" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ex=$(grep -F "execve(\"$f\"," "$tmp/ex" | tail -1)
	pre=no
	printf '%s\n' "$ex" | grep -q '"LD_PRELOAD=[^"]*libsysshim' && pre=yes
	why=
	[ -n "$ex" ] || why="no execve of $f"
	[ "$rc" = "$want_rc" ] || why="$why; exit $rc, want $want_rc"
	[ "$pre" = "$want_pre" ] || why="$why; LD_PRELOAD given: $pre, want $want_pre"
	grep -q -e "$pat" "$tmp/err" || why="$why; stderr lacks '$pat'"
	if [ -z "$why" ]; then ok "$name"; else bad "$name: $why" "$(head -3 "$tmp/err")"; fi
}
# saw NAME LINE: the command's own output (showenv's) holds LINE.
saw() {
	grep -qxF -- "$2" "$tmp/out" && ok "$1" || bad "$1" "$(head -4 "$tmp/out")"
}
# before FILE CMD...: the names of the syscalls sysshim-run makes from its start to the
# execve of FILE, on one line. CMD runs sysshim-run as $vrun: under valgrind, which is no
# tracer (TracerPid stays 0) and follows no execve (--trace-syscalls: the calls of
# sysshim-run alone, its throwaway children's left out). A tracer is seen: strace's
# answer (before_traced) is that of the tracer's case.
vrun="$(command -v valgrind) -q --tool=none --trace-syscalls=yes --log-file=$tmp/vg $run"
before() {
	f=$1
	shift
	rm -f "$tmp/vg"
	"$@" >/dev/null 2>&1
	awk -v f="($f)" '
		$1 !~ /^SYSCALL\[/ || $2 == "..." { next }
		{ split($1, p, /[[,]/); if (pid == "") pid = p[2]; if (p[2] != pid) next }
		$2 == "sys_execve" && index($0, f) { exit }
		{ n = $2; sub(/^sys_/, "", n); if (n == "newfstat") n = "fstat"; printf "%s ", n }' "$tmp/vg"
}
before_traced() {
	f=$1
	shift
	strace -qq -o "$tmp/sc" "$@" >/dev/null 2>&1
	awk -v r="execve(\"$run\"," -v f="execve(\"$f\"," '
		on && index($0, f) == 1 { exit }
		on { sub(/\(.*/, ""); printf "%s ", $0 }
		index($0, r) == 1 { on = 1 }' "$tmp/sc"
}
# costs NAME WANT FILE CMD...: before's answer is WANT; costs_traced: before_traced's.
costs() {
	name=$1 want=$2
	shift 2
	got=$(before "$@")
	[ "$got" = "$want" ] && ok "$name: $want" || bad "$name" "got:  $got" "want: $want"
}
costs_traced() {
	name=$1 want=$2
	shift 2
	got=$(before_traced "$@")
	[ "$got" = "$want" ] && ok "$name: $want" || bad "$name" "got:  $got" "want: $want"
}
dear="100 250"
export SYSSHIM_LIB=$lib

decides "a dynamic C program: preloaded (--always), -v says what it is" 0 yes \
	"preloading $lib: asked to.*; $showenv is a dynamic program (its loader: /" "$showenv" $run -v --always "$showenv"
saw "  and the library is mapped into it" "mapped: yes"
# (Auto is tried without strace: a tracer makes it step aside, see "-- a tracer" below.)
check "a dynamic C program: preloaded (auto, a dear empty path)" 0 yes \
	"preloading .*2.50 times fstat.*; $showenv is a dynamic program" env SYSSHIM_RUN_TIMING="$dear" $run -v "$showenv"
saw "  and the library is mapped into it" "mapped: yes"
decides "a static program: untouched, said so" 0 no \
	"not preloading: $showenv-static is a static program (no PT_INTERP)" "$showenv-static" $run -v --always "$showenv-static"
saw "  and it has no LD_PRELOAD" "LD_PRELOAD=(unset)"
check "a static program: untouched under auto too" 0 no "a static program" \
	env SYSSHIM_RUN_TIMING="$dear" $run -v "$showenv-static"
saw "  and it has no LD_PRELOAD" "LD_PRELOAD=(unset)"
cp "$showenv" "$tmp/suid"; chmod 4755 "$tmp/suid"
cp "$showenv" "$tmp/sgid"; chmod 2755 "$tmp/sgid"
cp "$showenv" "$tmp/sgid-nox"; chmod 2745 "$tmp/sgid-nox"
decides "a set-user-ID copy: untouched, said so" 0 no "not preloading: $tmp/suid is set-user-ID" "$tmp/suid" $run -v --always "$tmp/suid"
saw "  and it has no LD_PRELOAD" "LD_PRELOAD=(unset)"
decides "a set-group-ID copy: untouched, said so" 0 no "not preloading: $tmp/sgid is set-group-ID" "$tmp/sgid" $run -v --always "$tmp/sgid"
decides "set-group-ID without group execute (no setgid program): preloaded" 0 yes \
	"$tmp/sgid-nox is a dynamic program" "$tmp/sgid-nox" $run -v --always "$tmp/sgid-nox"
# Another class: a 32-bit program's header (this kernel may not even run 32-bit programs:
# the exec fails, 126, and the file is not handed to /bin/sh as a script).
"$mkelf" "$tmp/elf32" elf32 && "$mkelf" "$tmp/elf-ia64" machine 50 && chmod 755 "$tmp/elf32" "$tmp/elf-ia64"
decides "a 32-bit ELF: untouched, said so" 126 no \
	"not preloading: $tmp/elf32 is an ELF of another class or machine (32-bit, little-endian, machine 3;.*wrong ELF class" \
	"$tmp/elf32" $run -v --always "$tmp/elf32"
grep -q "$tmp/elf32: Exec format error" "$tmp/err" && ! grep -q '^[0-9]* *execve("/bin/sh"' "$tmp/ex" &&
	ok "  its exec fails: Exec format error, 126, not run by /bin/sh" || bad "32-bit ELF: exec error" "$(cat "$tmp/err")"
decides "a 64-bit ELF of another machine (IA-64): untouched, said so" 126 no \
	"is an ELF of another class or machine (64-bit, little-endian, machine 50;" "$tmp/elf-ia64" $run -v --always "$tmp/elf-ia64"
decides "an ELF file the kernel refuses is not handed to /bin/sh under --never either" 126 no \
	"Exec format error" "$tmp/elf32" $run --never "$tmp/elf32"
grep -q '^[0-9]* *execve("/bin/sh"' "$tmp/ex" && bad "  --never: /bin/sh ran the ELF file" || ok "  no /bin/sh"
# Go: gdu is dynamically linked (cgo), shfmt static; both carry the Go build-ID note.
for g in gdu shfmt; do
	gp=$(command -v $g) || { bad "Go program $g not installed (make deps-check installs it)"; continue; }
	kind=static; readelf -lW "$gp" | grep -q INTERP && kind="dynamic: cgo"
	decides "a Go program ($g, $kind): untouched, said so" 0 no \
		"not preloading: $gp is a Go program (a \"Go\" build-ID note; $kind)" "$gp" $run -v --always "$gp" --version
done
# Program headers and notes beyond the first page: read with pread.
"$mkelf" "$tmp/far-go" far-go && "$mkelf" "$tmp/far-gnu" far-gnu && chmod 755 "$tmp/far-go" "$tmp/far-gnu"
decides "a Go note beyond the first page (pread): untouched" 127 no "$tmp/far-go is a Go program" "$tmp/far-go" $run -v --always "$tmp/far-go"
decides "a GNU note there instead: a dynamic program, preloaded" 127 yes "$tmp/far-gnu is a dynamic program" "$tmp/far-gnu" $run -v --always "$tmp/far-gnu"
# Scripts as before: preloaded, whatever the interpreter; -v names it and says what it is.
printf '#!%s\n' "$showenv" > "$tmp/dyn.sh"
printf '#! %s -x\n' "$showenv-static" > "$tmp/static.sh"
chmod 755 "$tmp/dyn.sh" "$tmp/static.sh"
decides "a script for a dynamic program: preloaded, -v says so" 0 yes \
	"$tmp/dyn.sh is a script for $showenv, a dynamic program" "$tmp/dyn.sh" $run -v --always "$tmp/dyn.sh"
saw "  and the library is mapped into its interpreter" "mapped: yes"
decides "a script for a static program: preloaded as before, -v says the interpreter is static" 0 yes \
	"$tmp/static.sh is a script for $showenv-static, a static program (no PT_INTERP).*preloaded as before" \
	"$tmp/static.sh" $run -v --always "$tmp/static.sh"
saw "  and LD_PRELOAD reached the interpreter" "LD_PRELOAD=$lib"
printf '#!/bin/sh\necho "LD_PRELOAD=$LD_PRELOAD"\n' > "$tmp/bin/hashed"; chmod 755 "$tmp/bin/hashed"
check "a script found in PATH (auto, dear): preloaded" 0 yes "$tmp/bin/hashed is a script for /bin/sh, a dynamic program" \
	env PATH="$tmp/p0:$tmp/bin" SYSSHIM_RUN_TIMING="$dear" $run -v hashed
saw "  and the script's shell has it" "LD_PRELOAD=$lib"
decides "a file without #!: preloaded as before (/bin/sh runs it)" 0 yes "nohash is neither an ELF file nor a #! script" \
	/bin/sh $run -v --always "$tmp/bin/nohash" x
# The cost: what sysshim-run does before the command's execve. Where it preloads, the
# command's open, fstat, read (one page) and close, then the library's one look-up
# (SYSSHIM_LIB); where the command makes it step aside, no look-up; where it steps aside
# before (--never, a cheap empty path), the command is not touched.
# Every run but --never first reads /proc/self/status (openat, read, close): whether a
# seccomp filter or a tracer is there. The command is looked at (newfstatat) before it
# is opened; its dynamic section is read (a pread: beyond the first page) for the names
# it needs. Without a filter, nothing but the NULL path is asked of the kernel (nothing
# else could refuse statx or fstat), and not even that where SYSSHIM_RUN_TIMING answers.
if ! command -v valgrind >/dev/null; then
	bad "valgrind is not installed (make deps-check installs it): the costs are not read"
fi
st="openat read close"
costs "cost, --always, a dynamic program" "$st newfstatat openat fstat read pread64 close newfstatat " \
	"$showenv" $vrun --always "$showenv"
costs "cost, auto (preloads: SYSSHIM_RUN_TIMING), a dynamic program: nothing asked" \
	"$st newfstatat openat fstat read pread64 close newfstatat " \
	"$showenv" env SYSSHIM_RUN_TIMING="$dear" $vrun "$showenv"
costs "cost, --always, a static program (no look-up)" "$st newfstatat openat fstat read close " \
	"$showenv-static" $vrun --always "$showenv-static"
costs "cost, --always, set-user-ID (not even opened)" "$st newfstatat " "$tmp/suid" $vrun --always "$tmp/suid"
costs "cost, --always, a script: its interpreter read too (one level)" \
	"$st newfstatat openat fstat read newfstatat openat fstat read close close newfstatat " \
	"$tmp/static.sh" $vrun --always "$tmp/static.sh"
costs "cost, a PATH search: a missing candidate costs one newfstatat, no execve" \
	"$st newfstatat newfstatat openat fstat read pread64 close newfstatat " \
	"$showenv" env PATH="$tmp/p0:$(dirname "$showenv")" $vrun --always "$(basename "$showenv")"
costs "cost, --never: the command is not read" "" "$showenv" $vrun --never "$showenv"
costs "cost, a cheap empty path (steps aside): the command is not read" "$st " \
	"$showenv" env SYSSHIM_RUN_TIMING="100 110" $vrun "$showenv"
if "$probe" --json | grep -q '"newfstatat_null": true'; then
	costs "cost, auto, the NULL path accepted here (steps aside): one newfstatat, no fstat" "$st newfstatat " \
		"$showenv" $vrun "$showenv"
fi
# Under a filter it cannot read: nothing asked of the kernel, the open file's mode by
# newfstatat (the loader's call), not fstat.
costs "cost, under a filter: no statx, no fstat, no NULL path asked" \
	"$st newfstatat openat newfstatat read pread64 close newfstatat " \
	"$showenv" $sb statx-enosys $vrun "$showenv"
# No timing for this boot (NULL paths answered EFAULT, children clear the filter): the
# cache is read, then the command; the calls are timed only for a command that could
# be preloaded, after it was read, and cached then.
export SYSSHIM_SECCOMP=child
rm -f "$SYSSHIM_RUN_CACHE"
got=$(before "$showenv-static" $sb null-efault $vrun "$showenv-static")
case $got in
*clock_gettime*) bad "cost, not timed yet, a static program: timed all the same" "got: $got" ;;
*) [ ! -e "$SYSSHIM_RUN_CACHE" ] && ok "cost, not timed yet, a static program: no timing, nothing cached" ||
	bad "cost, not timed yet, a static program: cached" "$(cat "$SYSSHIM_RUN_CACHE")" ;;
esac
got=$(before "$showenv" $sb null-efault $vrun "$showenv")
case $got in
*"read pread64 close openat clock_gettime"*)
	[ -s "$SYSSHIM_RUN_CACHE" ] && ok "cost, not timed yet, a dynamic program: timed once it was read, and cached" ||
		bad "cost, not timed yet, a dynamic program: not cached" ;;
*) bad "cost, not timed yet, a dynamic program: not timed after its read" "got: $got" ;;
esac
rm -f "$SYSSHIM_RUN_CACHE"
unset SYSSHIM_SECCOMP

echo "-- a tracer: nothing the C library would not do"
# A tracer may kill any syscall (strace -e inject): sysshim-run makes only the loader's
# calls, auto steps aside without asking the kernel, and under a tracer that kills
# every fstat, sysshim-run with the command ends as the command alone does, byte for byte.
costs_traced "cost, traced, auto: the status, nothing asked, the command not read" "$st " \
	"$showenv" $run "$showenv"
costs_traced "cost, traced, --always: the loader's calls only, no fstat" \
	"$st newfstatat openat newfstatat read pread64 close newfstatat " "$showenv" $run --always "$showenv"
check "traced, auto: steps aside, -v says by whom" 0 no "not preloading: traced by pid [0-9]" \
	strace -f -qq -o /dev/null $run -v "$showenv"
echo "a file to cat" > "$tmp/catme"
# killed NAME CMD...: CMD (sysshim-run cat FILE) under strace that kills fstat gives
# what cat FILE gives under it alone.
inject="strace -f -qq -o /dev/null -e inject=fstat:signal=SIGKILL"
$inject cat "$tmp/catme" >"$tmp/plain.out" 2>"$tmp/plain.err"; prc=$?
[ "$prc" = 0 ] && grep -qx "a file to cat" "$tmp/plain.out" || bad "cat under strace's fstat kill fails alone (exit $prc)" "$(cat "$tmp/plain.err")"
killed() {
	name=$1
	shift
	$inject "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$prc" ] && cmp -s "$tmp/out" "$tmp/plain.out" && cmp -s "$tmp/err" "$tmp/plain.err" &&
		ok "$name: exit $rc, the same output, stderr as cat alone" ||
		bad "$name: exit $rc (alone $prc)" "$(head -3 "$tmp/out")" "$(head -3 "$tmp/err")"
}
killed "strace kills fstat, sysshim-run cat FILE" $run cat "$tmp/catme"
killed "strace kills fstat, sysshim-run --always cat FILE" $run --always cat "$tmp/catme"
killed "strace kills fstat, SYSSHIM_RUN_TIMING dear (would preload): the tracer wins" \
	env SYSSHIM_RUN_TIMING="$dear" $run cat "$tmp/catme"

echo "-- another C library: run untouched, as without sysshim-run"
# A real dynamic musl program (Debian's musl-tools): its loader is not glibc's, and the
# library serves glibc's programs only, so it is run untouched, and gives what it gives alone.
printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' '#include <sys/stat.h>' \
	'int main(int argc, char **argv) { struct stat st; const char *p = getenv("LD_PRELOAD");' \
	'printf("fstat %d LD_PRELOAD=%s\n", fstat(1, &st), p ? p : "(unset)");' \
	'for (int i = 1; i < argc; i++) puts(argv[i]); fputs("to stderr\n", stderr); return 3; }' > "$tmp/musl.c"
if ! command -v musl-gcc >/dev/null; then
	bad "musl-gcc is not installed (musl-tools; make deps-check installs it)"
elif ! musl-gcc -o "$tmp/musl" "$tmp/musl.c" || ! readelf -lW "$tmp/musl" | grep -q 'interpreter: .*ld-musl'; then
	bad "musl-gcc built no dynamic musl program" "$(readelf -lW "$tmp/musl" 2>&1 | grep -i interp)"
else
	mi=$(readelf -lW "$tmp/musl" | sed -n 's/.*interpreter: \(.*\)]/\1/p')
	printf '#!%s x\n' "$tmp/musl" > "$tmp/musl.sh" && chmod 755 "$tmp/musl.sh"
	# alike NAME OPTION CMD...: sysshim-run OPTION CMD gives what CMD alone gives, byte
	# for byte.
	alike() {
		name=$1 opt=$2
		shift 2
		"$@" >"$tmp/a.out" 2>"$tmp/a.err"; arc=$?
		$run $opt "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
		[ "$rc" = "$arc" ] && cmp -s "$tmp/out" "$tmp/a.out" && cmp -s "$tmp/err" "$tmp/a.err" &&
			ok "$name: exit $rc, the same output and stderr as alone" ||
			bad "$name: exit $rc (alone $arc)" "$(head -2 "$tmp/out")" "$(head -2 "$tmp/err")"
	}
	alike "a musl program, --always" --always "$tmp/musl" a b
	SYSSHIM_RUN_TIMING="$dear" alike "a musl program, auto (a dear empty path)" --auto "$tmp/musl" a b
	alike "a #! script for a musl program, --always" --always "$tmp/musl.sh" a
	decides "a musl program: untouched, -v says its loader is not glibc's" 3 no \
		"not preloading: $tmp/musl is a dynamic program whose loader $mi is not glibc's" "$tmp/musl" $run -v --always "$tmp/musl"
	decides "a #! script for a musl program: untouched, -v says why" 3 no \
		"not preloading: $tmp/musl.sh is a script for $tmp/musl, a dynamic program whose loader $mi is not glibc's" \
		"$tmp/musl.sh" $run -v --always "$tmp/musl.sh"
fi
# Crafted: a loader of any other name, and glibc's name in another directory.
"$mkelf" "$tmp/other-ld" loader /nonexistent/ld.so && "$mkelf" "$tmp/musl-ld" loader /nonexistent/ld-musl-x86_64.so.1 &&
	"$mkelf" "$tmp/glibc-ld" loader "/opt/glibc/lib/$(basename "$(readelf -lW "$showenv" | sed -n 's/.*interpreter: \(.*\)]/\1/p')")" &&
	chmod 755 "$tmp/other-ld" "$tmp/musl-ld" "$tmp/glibc-ld"
decides "a loader of another name (/nonexistent/ld.so): untouched" 127 no \
	"$tmp/other-ld is a dynamic program whose loader /nonexistent/ld.so is not glibc's" "$tmp/other-ld" $run -v --always "$tmp/other-ld"
decides "musl's loader's name: untouched" 127 no \
	"$tmp/musl-ld is a dynamic program whose loader /nonexistent/ld-musl-x86_64.so.1 is not glibc's" "$tmp/musl-ld" $run -v --always "$tmp/musl-ld"
decides "glibc's loader in another directory: preloaded" 127 yes \
	"$tmp/glibc-ld is a dynamic program (its loader: /opt/glibc/lib/ld-" "$tmp/glibc-ld" $run -v --always "$tmp/glibc-ld"

echo "-- beside other tools: where the library goes, what is opened"
fr=$(ls /usr/lib/*/libfakeroot/libfakeroot-sysv.so 2>/dev/null | head -1)
fr=${fr:-/nonexistent/libother.so}
so=$SYSSHIM_LIB	# (check() keeps its own $so)
check "LD_PRELOAD held another library: the library goes after it, -v says so" 0 yes \
	"preloading $so after LD_PRELOAD's $fr (which stays in front)" env LD_PRELOAD="$fr" $run -v --always "$showenv"
grep -qx "LD_PRELOAD=$fr:$so" "$tmp/out" && ok "  LD_PRELOAD=OTHER:LIB" || bad "LD_PRELOAD order" "$(head -1 "$tmp/out")"
check "a space-separated LD_PRELOAD: after it too" 0 yes "" env LD_PRELOAD="$fr " $run --always "$showenv"
grep -qx "LD_PRELOAD=$fr $so" "$tmp/out" && ok "  LD_PRELOAD=\"OTHER LIB\"" || bad "space-separated" "$(head -1 "$tmp/out")"
check "LD_PRELOAD naming the library already: left as it is" 0 yes "" env LD_PRELOAD="$fr:$so" $run --always "$showenv"
grep -qx "LD_PRELOAD=$fr:$so" "$tmp/out" && ok "  not named twice" || bad "named twice" "$(head -1 "$tmp/out")"
# Two LD_PRELOAD entries: the dynamic loader takes the last; so does sysshim-run, and
# leaves the first as it was.
dupenv=$top/$B/tests/run-dupenv
helper "$dupenv" tests/compat/dupenv.c
"$dupenv" LD_PRELOAD=/nonexistent/first.so LD_PRELOAD="$fr" -- "$run" --always /usr/bin/env >"$tmp/out" 2>"$tmp/err"
[ "$(grep ^LD_PRELOAD= "$tmp/out" | tr '\n' ' ')" = "LD_PRELOAD=/nonexistent/first.so LD_PRELOAD=$fr:$so " ] &&
	! grep -q first.so "$tmp/err" && ok "LD_PRELOAD twice: the last (the loader's) gets the library, the first is left" ||
	bad "LD_PRELOAD twice" "$(grep ^LD_PRELOAD= "$tmp/out")" "$(head -2 "$tmp/err")"
# A FIFO as the command, with a writer waiting for a reader: not opened (the writer
# still waits), and execve's answer, as env(1) gives it.
mkfifo "$tmp/fifo" && chmod 755 "$tmp/fifo"
(echo data > "$tmp/fifo") & wpid=$!
env "$tmp/fifo" >/dev/null 2>&1; erc=$?
check "a FIFO as the command: exit $erc, as env(1)" $erc no "Permission denied" $run -v --always "$tmp/fifo"
grep -q "not a regular file: left to execve unopened" "$tmp/err" && ok "  -v: left to execve unopened" || bad "FIFO -v" "$(cat "$tmp/err")"
sleep 0.2
kill -0 $wpid 2>/dev/null && ok "  the writer is still waiting for a reader" || bad "the FIFO was opened: its writer went on"
[ "$(timeout 5 cat "$tmp/fifo")" = data ] && ok "  and what it writes reaches the first real reader" ||
	bad "the FIFO's data was lost"
kill $wpid 2>/dev/null
wait $wpid 2>/dev/null
env /dev/null >/dev/null 2>&1; erc=$?
check "a device as the command: exit $erc, as env(1), not opened" $erc no "not a regular file" $run -v --always /dev/null

echo "-- the ELF reader alone: the DT_NEEDED walk, malformed files ($nsan)"
# reads NAME WANT FILE PREFIX [LINE...]: run-needed's answer for FILE is "match: WANT" (a
# NEEDED name starting with PREFIX: yes, no, unreadable), and its output holds each LINE.
reads() {
	name=$1 want=$2 f=$3 p=$4
	shift 4
	"$needed" "$f" "$p" >"$tmp/nd" 2>&1
	rc=$?
	why=
	[ "$rc" = 0 ] || why="exit $rc"
	grep -qx "match: $want" "$tmp/nd" || why="$why; $(grep '^match' "$tmp/nd"), want $want"
	for l; do grep -qxF -- "$l" "$tmp/nd" || why="$why; no '$l'"; done
	if [ -z "$why" ]; then ok "$name"; else bad "$name: $why" "$(head -3 "$tmp/nd")"; fi
}
reads "a dynamic C program: its NEEDED libc.so.6 is found" yes "$showenv" libc.so. "needed libc.so.6"
reads "  and no libasan.so.*" no "$showenv" libasan.so. "needed libc.so.6"
reads "a static program: no dynamic section, no names" no "$showenv-static" libc.so.
for h in good strtab-outside past-strsz unterminated huge many; do
	"$mkelf" "$tmp/needed-$h" needed $h && chmod 755 "$tmp/needed-$h"
done
reads "dynamic section beyond the first page, names in the second page: libasan.so.8 found" yes \
	"$tmp/needed-good" libasan.so. "needed libfoo.so.1" "needed libasan.so.8"
reads "  DT_STRTAB in no PT_LOAD: cannot tell" unreadable "$tmp/needed-strtab-outside" libasan.so.
reads "  a name past DT_STRSZ: cannot tell" unreadable "$tmp/needed-past-strsz" libasan.so.
reads "  a name without its 0 within 256 bytes: cannot tell" unreadable "$tmp/needed-unterminated" libasan.so.
reads "  PT_DYNAMIC at an offset no file has: cannot tell" unreadable "$tmp/needed-huge" libasan.so.
reads "  a page of NEEDED entries and no DT_NULL: none of them" no "$tmp/needed-many" libasan.so.
n=$(grep -c '^needed ' "$tmp/nd")
[ "$n" = 254 ] && ok "  a page of entries read, no more (254 names)" || bad "a page of NEEDED entries: $n names, want 254"
for f in "$tmp/needed-good" "$showenv" "$tmp/far-go"; do
	out=$("$needed" --fuzz "$f" 3000 2>&1) && ok "changed bytes, $(basename "$f"): $out" ||
		bad "changed bytes, $(basename "$f"): exit $?" "$(printf '%s\n' "$out" | tail -3)"
done
for h in huge many; do
	decides "sysshim-run on needed-$h: a dynamic program, preloaded" 127 yes \
		"$tmp/needed-$h is a dynamic program (its loader: /nonexistent/ld-linux-" "$tmp/needed-$h" $run -v --always "$tmp/needed-$h"
done
decides "sysshim-run on needed-good (it needs libasan.so.8): untouched, -v says why" 127 no \
	"$tmp/needed-good is a program linked against AddressSanitizer's runtime (libasan.so.8), which must come first" \
	"$tmp/needed-good" $run -v --always "$tmp/needed-good"
unset SYSSHIM_LIB

echo "sysshim-run: $pass passed, $fail failed"
[ "$fail" = 0 ]
