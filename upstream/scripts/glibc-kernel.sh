#!/bin/sh
# upstream/scripts/glibc-kernel.sh TB G VMLINUZ: boots Debian's 6.1 kernel (the test bed of
# `make check-kernel`, cached in TB) with the two static fstat-bench binaries of G (glibc
# 2.36 with the backport, and Debian's own libc.a). Checks which syscall each fstat()
# makes on that kernel (fstat for the backport, newfstatat for Debian's: the benchmark's
# "which" line, read from a seccomp filter) and reports what each costs against the raw
# fstat syscall there; timings are reported, never checked.
# Prints the table and "glibc-6.1: N passed, N failed".
set -eu
tb=$1 g=$2 vmlinuz=$3
out=$g/results/kernel-6.1
mkdir -p "$out"
cp "$g/fstat-bench-static" "$out/fstat-bench-backport"
cp "$g/fstat-bench-static-debian" "$out/fstat-bench-debian"
testbed/mkinitramfs.sh "$out/bench.cpio.gz" "$tb/x86_64/init" "$tb/x86_64/sysshim-probe" \
	"b:$out/fstat-bench-backport" "b:$out/fstat-bench-debian" >/dev/null
TB_TIMEOUT=${TB_TIMEOUT:-600} testbed/run-kernel.sh bench "$vmlinuz" \
	"$out/bench.cpio.gz" "$out" > "$out/run.log" 2>&1 || { cat "$out/run.log"; exit 1; }
# "OUT fstat-bench-backport| bench: fstat()  N ns/call (R x raw fstat)", one per round.
ratio() {
	sed -n "s/^OUT $1| bench: fstat() .*(\([0-9.]*\) x raw fstat)/\1/p" "$out/bench.log" |
		sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
b=$(ratio fstat-bench-backport) d=$(ratio fstat-bench-debian)
echo "glibc fstat() on Debian's 6.1 kernel (qemu-system TCG), median ratio to the raw fstat syscall:"
echo "  glibc 2.36 + backport (fstat syscall):             ${b:-none}"
echo "  Debian's glibc 2.36 (newfstatat(fd, \"\")):          ${d:-none}"
sed -n 's/^OUT \(fstat-bench-[a-z]*\)| bench: /  \1: /p' "$out/bench.log" | head -12
pass=0 fail=0
# "OUT fstat-bench-backport| bench: which: fstat() -> fstat"
which() { sed -n "s/^OUT $1| bench: which: fstat() -> //p" "$out/bench.log" | head -1; }
check() { # what, binary, the syscall wanted
	w=$(which "$2")
	if [ "$w" = "$3" ]; then pass=$((pass + 1)); echo "  ok   $1: fstat() -> $w"
	else fail=$((fail + 1)); echo "  FAIL $1: fstat() -> ${w:-no answer} (wanted $3)"; fi
}
check "the backport's fstat() is the fstat syscall on 6.1" fstat-bench-backport fstat
check "Debian's fstat() is newfstatat(fd, \"\") on 6.1" fstat-bench-debian newfstatat
echo "glibc-6.1: $pass passed, $fail failed"
[ "$fail" = 0 ]
