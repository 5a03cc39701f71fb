#!/bin/sh
# tools/insn-count.sh FSTAT [CALLS LIB LINKED]: user-space instructions per call (callgrind;
# the difference of two run lengths, so that start-up and the first call's probe drop out).
#
# FSTAT (bench/insn_fstat): fstat through sysshim_fstat, glibc's fstat, glibc's syscall()
# and the library's syscall(); fails if sysshim_fstat needs more than glibc's fstat, or
# (x86_64 with Debian 12's gcc 12 only) the library's syscall() more than
# INSN_SYSCALL_OVER (8) over glibc's.
#
# CALLS (bench/insn_calls), LIB (libsysshim.so.0), LINKED (bench/insn_calls linked with
# libsysshim.a): every stat-family export called through the PLT as a program calls it,
# three ways in this run: CALLS alone (glibc's own export), CALLS with LIB preloaded, and
# LINKED; fails where the library, preloaded or linked, takes more instructions per call
# than glibc's own export. "insn_calls where" is asked first which file answers each name,
# so that every column is the export it is said to be. Then, not gated, what an execve
# pays before its syscall, glibc's and preloaded (the library's look at the program,
# src/exec/; a copy of the program the kernel refuses, so that no exec happens).
set -e
bin=$1 calls=${2:-} lib=${3:-} linked=${4:-}
out=${TMPDIR:-/tmp}/sysshim-insn.$$
trap 'rm -f "$out".*' EXIT
# ir TAG ENV PROGRAM ARGS: the run's total (callgrind's summary line); ENV: VAR=VALUE words
# (or nothing) that env(1) puts in the program's environment.
ir() {
	tag=$1 e=$2; shift 2
	env $e valgrind --tool=callgrind --callgrind-out-file="$out.$tag" "$@" >/dev/null 2>"$out.err" ||
		{ echo "FAIL: $e $* exits $? under callgrind:" >&2; cat "$out.err" >&2; exit 1; }
	sed -n 's/^summary: *//p' "$out.$tag"
}
# per TAG ENV N1 N2 PROGRAM CALL: instructions per call, from runs of N1 and N2 calls,
# rounded to the nearest (two runs' totals differ by a few instructions beside the calls:
# truncated, a count flips between N and N - 1).
per() {
	tag=$1 e=$2 n1=$3 n2=$4; shift 4
	a=$(ir "$tag.1" "$e" "$@" "$n1")
	b=$(ir "$tag.2" "$e" "$@" "$n2")
	echo $(( (b - a + (n2 - n1) / 2) / (n2 - n1) ))
}
printf '%-10s %14s\n' "fstat via" "instr/call"
for m in raw glibc sysshim syscall; do
	n=$(per "$m" "" 10000 20000 "$bin" "$m")
	eval "ir_$m=$n"
	printf '%-10s %14s\n' "$m" "$n"
done
if [ "$ir_sysshim" -gt "$ir_glibc" ]; then
	echo "FAIL: sysshim fstat takes $ir_sysshim user-space instructions, glibc $ir_glibc" >&2
	exit 1
fi
echo "ok: sysshim fstat $ir_sysshim <= glibc fstat $ir_glibc instructions per call"
check=no
[ "$(uname -m)" = x86_64 ] && ${CC:-cc} --version 2>/dev/null | grep -q '^cc (Debian 12\.' && check=yes
over=${INSN_SYSCALL_OVER:-8}
if [ $check = yes ]; then
	if [ $((ir_syscall - ir_raw)) -gt "$over" ]; then
		echo "FAIL: the library's syscall() takes $ir_syscall instructions, glibc's $ir_raw: more than $over over" >&2
		exit 1
	fi
	echo "ok: the library's syscall() takes $((ir_syscall - ir_raw)) instructions more than glibc's (allowance $over)"
else
	echo "the library's syscall() takes $((ir_syscall - ir_raw)) instructions more than glibc's (not checked: not x86_64 with gcc 12)"
fi
[ -n "$calls" ] || exit 0

# Which file answers each name, each way: glibc's libc, the preloaded library, the program.
where() { # WAY FILE-PATTERN ENV PROGRAM
	way=$1 want=$2 e=$3 prog=$4
	env $e "$prog" where > "$out.where" || { echo "FAIL: $e $prog where: exit $?" >&2; exit 1; }
	bad=$(awk -v w="$want" '{ f = $2; n = split(f, a, "/"); if (a[n] !~ w) print $1 " from " f }' "$out.where")
	if [ -n "$bad" ]; then
		echo "FAIL: $way: not the export measured:" $bad >&2
		exit 1
	fi
}
where glibc '^libc[.]so' "" "$calls"
where preloaded "^$(basename "$lib")\$" "LD_PRELOAD=$lib" "$calls"
where linked "^$(basename "$linked")\$" "" "$linked"

printf '%-14s %8s %10s %8s  %s\n' export glibc preloaded linked verdict
bad=0
for c in fstat stat lstat fstatat fstatat-empty statx fstat64 stat64 lstat64 fstatat64; do
	g=$(per "g.$c" "" 2000 4000 "$calls" "$c")
	p=$(per "p.$c" "LD_PRELOAD=$lib" 2000 4000 "$calls" "$c")
	l=$(per "l.$c" "" 2000 4000 "$linked" "$c")
	v=
	[ "$p" -gt "$g" ] && v="preloaded +$((p - g))"
	[ "$l" -gt "$g" ] && v="${v:+$v, }linked +$((l - g))"
	printf '%-14s %8s %10s %8s  %s\n' "$c" "$g" "$p" "$l" "${v:+FAIL: }${v:-ok}"
	[ -z "$v" ] || bad=$((bad + 1))
done
if [ $bad -gt 0 ]; then
	echo "FAIL: $bad of the exports take more user-space instructions per call than glibc's own (bench-insn)" >&2
	exit 1
fi
echo "ok: every export, preloaded and linked, at or below glibc's own count per call"
g=$(per g.execve "" 100 200 "$calls" execve)
p=$(per p.execve "LD_PRELOAD=$lib" 100 200 "$calls" execve)
echo "execve, before its syscall (not gated): glibc $g, preloaded $p instructions per call"
