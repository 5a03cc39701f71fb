#!/bin/sh
# tools/insn-count.sh BIN: user-space instructions per fstat call (callgrind), after the
# probe, for sysshim, glibc and the bare syscall; fails if sysshim needs more than glibc.
set -e
bin=$1
out=${TMPDIR:-/tmp}/sysshim-insn.$$
trap 'rm -f "$out".*' EXIT
ir() {
	valgrind --tool=callgrind --callgrind-out-file="$out.$1.$2" "$bin" "$1" "$2" >/dev/null 2>&1
	sed -n 's/^summary: *//p' "$out.$1.$2"
}
printf '%-10s %14s\n' "fstat via" "instr/call"
for m in raw glibc sysshim; do
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
