#!/bin/sh
# tools/insn-count.sh BIN [CALLS LIB CEILINGS]: user-space instructions per fstat call
# (callgrind), after the probe, for sysshim, glibc, glibc's syscall() and the library's
# syscall() (which reads a seccomp filter on its way); fails if sysshim needs more than
# glibc. With CALLS (bench/insn_calls) and LIB (libsysshim.so.0): per
# call of each of the library's C-library-named exports, preloaded, against CEILINGS
# (bench/insn-ceiling.txt, checked on x86_64 with gcc 12 only), and the library's
# syscall() against its allowance over glibc's there.
set -e
bin=$1 calls=${2:-} lib=${3:-} ceil=${4:-}
out=${TMPDIR:-/tmp}/sysshim-insn.$$
trap 'rm -f "$out".*' EXIT
ir() {
	valgrind --tool=callgrind --callgrind-out-file="$out.$1.$2" "$bin" "$1" "$2" >/dev/null 2>&1
	sed -n 's/^summary: *//p' "$out.$1.$2"
}
printf '%-10s %14s\n' "fstat via" "instr/call"
for m in raw glibc sysshim syscall; do
	a=$(ir $m 10000)
	b=$(ir $m 20000)
	per=$(( (b - a) / 10000 ))
	eval "ir_$m=$per"
	printf '%-10s %14s\n' "$m" "$per"
done
if [ "$ir_sysshim" -gt "$ir_glibc" ]; then
	echo "FAIL: sysshim fstat takes $ir_sysshim user-space instructions, glibc $ir_glibc" >&2
	exit 1
fi
echo "ok: sysshim fstat $ir_sysshim <= glibc fstat $ir_glibc instructions per call"
[ -n "$calls" ] || exit 0
check=no
[ "$(uname -m)" = x86_64 ] && ${CC:-cc} --version 2>/dev/null | grep -q '^cc (Debian 12\.' && check=yes
over=$(awk '$1 == "syscall-over-glibc" { print $2 }' "$ceil")
if [ $check = yes ] && [ $((ir_syscall - ir_raw)) -gt "$over" ]; then
	echo "FAIL: the library's syscall() takes $ir_syscall instructions, glibc's $ir_raw: more than $over over" >&2
	exit 1
fi
[ $check = yes ] && echo "ok: the library's syscall() takes $((ir_syscall - ir_raw)) instructions more than glibc's (ceiling $over)"
pre() {
	LD_PRELOAD=$lib valgrind --tool=callgrind --callgrind-out-file="$out.p.$1.$2" "$calls" "$1" "$2" \
		>/dev/null 2>&1
	sed -n 's/^summary: *//p' "$out.p.$1.$2"
}
printf '%-14s %10s %8s\n' "export" "instr/call" "ceiling"
bad=0
for c in fstat stat lstat fstatat fstatat-empty statx; do
	a=$(pre $c 2000)
	b=$(pre $c 4000)
	per=$(( (b - a) / 2000 ))
	max=$(awk -v c=$c '$1 == c { print $2 }' "$ceil")
	printf '%-14s %10s %8s\n' "$c" "$per" "${max:--}"
	if [ $check = yes ] && [ -n "$max" ] && [ "$per" -gt "$max" ]; then
		echo "FAIL: $c takes $per user-space instructions, more than its ceiling $max" >&2
		bad=1
	fi
done
[ $bad = 0 ] || exit 1
[ $check = yes ] && echo "ok: no export above its ceiling (bench/insn-ceiling.txt)" ||
	echo "not checked against bench/insn-ceiling.txt: not x86_64 with gcc 12"
