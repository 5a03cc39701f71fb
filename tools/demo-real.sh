#!/bin/sh
# tools/demo-real.sh BUILD: one real program (cat over every copyright file in
# /usr/share/doc: one fstat per file, plus one for its output) with and without
# libsysshim preloaded: same output, which stat syscalls reach the kernel, and time.
set -e
b=$1
lib=$(cd "$b/lib" && pwd)/libsysshim.so
cmd="cat $(ls /usr/share/doc/*/copyright | head -400 | tr '\n' ' ')"
plain=$(mktemp) pre=$(mktemp)
trap 'rm -f "$plain" "$pre"' EXIT
$cmd > "$plain"
LD_PRELOAD=$lib $cmd > "$pre"
if cmp -s "$plain" "$pre"; then
	echo "output: identical ($(wc -c < "$plain") bytes: cat of $(echo $cmd | wc -w | awk '{print $1 - 1}') copyright files)"
else
	echo "output: DIFFERS with the library" >&2
	exit 1
fi
# SYSSHIM_TRACER=allow: strace only watches here (without it, the library takes strace for a
# tracer that may kill and makes no call of its own). The first 32 fd stats go to glibc.
count() {
	SYSSHIM_TRACER=allow strace -f -c -e trace=fstat,newfstatat,statx -o /dev/stderr "$@" 2>&1 >/dev/null |
		awk '$NF ~ /^(fstat|newfstatat|statx)$/ { printf "%s=%s ", $NF, $4 }'
}
echo "syscalls without sysshim: $(count $cmd)"
echo "syscalls with sysshim:    $(count env LD_PRELOAD=$lib $cmd)"
t() {
	s=$(date +%s%N)
	"$@" > /dev/null
	echo $(( ($(date +%s%N) - s) / 1000000 ))
}
a= p=
for i in 1 2 3 4 5; do
	a="$a $(t $cmd)"
	p="$p $(t env LD_PRELOAD=$lib $cmd)"
done
med() { echo "$@" | tr ' ' '\n' | sed '/^$/d' | sort -n | sed -n 3p; }
echo "time (median of 5, ms): without $(med $a), with $(med $p)"
echo "(on kernels from 6.6 on, glibc's newfstatat(fd, \"\") is already as fast as fstat, and the"
echo " two times differ by noise only; the gain is on kernels before 6.6: see 'make bench-kernel')"
