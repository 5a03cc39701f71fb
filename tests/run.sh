#!/bin/sh
# tests/run.sh: sysshim-run's decisions, options and exit codes (make check-host).
# Each decision path is forced for real: the kernel's own answer, a measurement under a
# seccomp filter that answers NULL paths as a kernel before 6.11 does, the per-boot cache
# (read, written, ignored from another boot), the SYSSHIM_RUN_TIMING hook for a cheap and
# a dear empty path, statx refused with EPERM (ls fails alone) and with ENOSYS.
# Whether the library is loaded is read from the command's own /proc/self/maps.
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
if [ ! -x "$sb" ] || [ tests/run/sandbox.c -nt "$sb" ]; then
	$CC -O2 -Wall -o "$sb" tests/run/sandbox.c || { echo "sysshim-run: 0 passed, 1 failed"; exit 1; }
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
	lib=no
	grep -q 'libsysshim\.so' "$tmp/out" && lib=yes
	why=
	[ "$rc" = "$want_rc" ] || why="exit $rc, want $want_rc"
	[ "$want_lib" = - ] || [ "$lib" = "$want_lib" ] || why="$why; library loaded: $lib, want $want_lib"
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

echo "-- auto: sandboxes"
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

echo "sysshim-run: $pass passed, $fail failed"
[ "$fail" = 0 ]
