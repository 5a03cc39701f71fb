#!/bin/bash
# testbed/run-kernel.sh check|bench KERNEL INITRD LOGDIR
#
# Boots KERNEL with INITRD under qemu-system-ARCH (testbed/boot.sh: TCG, no KVM, what a
# CI machine has) and reads the results that the guest's /init (tests/kernel/init.c)
# prints on the serial console, each line marked "@@SS@@ ". Fails when a program in the guest fails, the
# kernel panics, or no END line arrives within TB_TIMEOUT seconds (the guest is killed).
#
# check: also checks what sysshim-probe --json must find on Debian's 6.1 kernel
#        (statx present, a NULL statx path refused with EFAULT, fstat via the fstat
#        syscall) and prints "kernel-6.1: N passed, N failed" (Check's tests, plus one
#        per probe expectation). With TB_HOST_RESULTS=FILE (lines "suite rc checks
#        failures errors" from the same static suites on the host) it compares both.
# bench: prints the benchmark's output.
#
# Environment: TB_TIMEOUT (default 900 s for check, 600 for bench), TB_APPEND (more
# KEY=VALUE words for the guest), and for testbed/boot.sh, which boots it: TB_QEMU
# (qemu-system-ARCH), TB_MEM (512), TB_SMP (1), TB_CPU (the board's), TB_TIMES.
#   TB_ARCH      x86_64 (default), aarch64 or loongarch64 (the boards: testbed/boot.sh;
#                for loongarch64 TB_QEMU names Debian 13's qemu-system-loongarch64 wrapper)
#   TB_EXPECT    what the probe must find: stock (before 6.11: NULL refused; default),
#                patched (kernel-patches/linux-6.1), new (6.11+: NULL accepted),
#                la64-old (LoongArch before 6.11: no fstat/newfstatat, statx-empty),
#                la64-new (LoongArch 6.11+: fstat back, statx NULL accepted)
#   TB_KREL      the kernel release the probe must report, a regex (default 6\.1\.)
#   TB_NAME      the summary line's name (default kernel-6.1)
#   TB_LABEL     the matrix row's first column (default "Debian RELEASE")
set -u
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 kernel=$2 initrd=$3 logdir=$4
arch=${TB_ARCH:-x86_64}
case $mode in
check) limit=${TB_TIMEOUT:-900} ;;
bench) limit=${TB_TIMEOUT:-600} ;;
*) echo "usage: $0 check|bench KERNEL INITRD LOGDIR" >&2; exit 2 ;;
esac
mkdir -p "$logdir"
raw=$logdir/$mode-serial.log
out=$logdir/$mode.log
append="SSMODE=$mode SSTIMEOUT=$((limit - 30)) CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-120} CK_FORK=yes ${TB_APPEND:-}"
# testbed/boot.sh boots it (the board of TB_ARCH; TB_QEMU, TB_CPU, TB_MEM, TB_SMP reach it
# through the environment), prints the command and qemu's exit ("testbed: ...", here on
# standard output) and follows the console. SeaBIOS and the kernel write to the same
# serial line: keep only the marked lines. A guest whose kernel cannot reset the machine
# (the LoongArch tinyconfig kernel booted without firmware has neither ACPI nor EFI
# runtime services) hangs after /init's reboot: boot.sh stops qemu once the END line is
# there.
: > "$raw"
read -r -a words <<<"$append"
exec 3>&1
"$here/boot.sh" -p testbed -a "$arch" -t "$limit" -l "$raw" -f -e '@@SS@@ END ' \
	"$kernel" "$initrd" "${words[@]}" 2>&3 |
	sed -u -n 's/\r$//; s/.*@@SS@@ //p' | tee "$out" |
	sed -u -n -e 's/^OUT [^|]*| /  /p' -e 's/^\(BEGIN\|RESULT\|END\|WARN\) /guest: \1 /p'
qrc=${PIPESTATUS[0]}
exec 3>&-
# 1 or 2 with nothing on the console: nothing was booted (no qemu, no kernel, no such arch)
case $qrc in 1|2) [ -s "$raw" ] || exit $qrc ;; esac

fail=0
problems=
problem() { problems="$problems
  FAIL: $*"; fail=1; }
if grep -aq 'Kernel panic' "$raw"; then
	problem "the kernel panicked: $(grep -a -m1 'Kernel panic' "$raw" | sed 's/.*Kernel panic/Kernel panic/' | tr -d '\r')"
fi
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	problem "no result within ${limit} s: the guest was killed (see $raw)"
fi
grep -q '^END ' "$out" || problem "the guest printed no END line (see $raw)"
grep -q '^BEGIN ' "$out" || problem "the guest's /init never started (see $raw)"

if [ "$mode" = bench ]; then
	grep '^RESULT ' "$out" | grep -v ' rc=0 ' | while read -r _ name rc _; do
		echo "  FAIL: $name $rc"; done
	grep '^RESULT ' "$out" | grep -qv ' rc=0 ' && problem "a benchmark failed"
	# The target on Debian's 6.1: sysshim's fstat at least TB_BENCH_MIN_RATIO (2.0) times
	# faster than glibc 2.36's (newfstatat(fd, "", AT_EMPTY_PATH)).
	row=$(sed -n 's/^OUT bench_stat| fstat(fd) \{1,\}/fstat(fd) /p' "$out" | head -1)
	if [ -n "$row" ]; then
		min=${TB_BENCH_MIN_RATIO:-2.0}
		# The benchmark's own glibc/ss column (7th field) when it has one, else the
		# ratio of the two medians.
		verdict=$(echo "$row" | awk -v min="$min" '$4 > 0 { r = ($7 != "" ? $7 : $3 / $4);
			if (min + 0 == 0) printf "ok: glibc fstat() %d ns, sysshim_fstat %d ns: glibc/sysshim %.2f (no target: TB_BENCH_MIN_RATIO=0)", $3, $4, r
			else printf "%s: glibc fstat() %d ns, sysshim_fstat %d ns: %.2f times faster (target %s)",
				(r >= min ? "ok" : "FAIL"), $3, $4, r, min }')
		echo "bench-kernel: $verdict"
		sed -n "s/^OUT bench_stat| //p" "$out" > "$logdir/bench_stat.txt"
		case $verdict in ok*) ;; *) problem "sysshim fstat below the target: $verdict" ;; esac
	fi
	[ -n "$problems" ] && echo "testbed: bench-kernel:$problems"
	[ "$fail" = 0 ] && echo "bench-kernel: 1 passed, 0 failed" || echo "bench-kernel: 0 passed, 1 failed"
	exit $fail
fi

# check: the probe's answer on the kernel booted.
json=$(sed -n 's/^PROBE //p' "$out" | head -1)
echo "probe (sysshim-probe --json in the guest): ${json:-none}"
ppass=0 pfail=0
expect() { # description, pattern
	if printf '%s' "$json" | grep -q "$2"; then
		ppass=$((ppass + 1)); echo "  ok   $1"
	else
		pfail=$((pfail + 1)); problem "probe: $1 (wanted $2)"; echo "  FAIL $1"
	fi
}
krx=${TB_KREL:-6\.1\.}
expect "kernel is $(printf %s "$krx" | tr -d '\\')" "\"kernel\": \"$krx"
expect "statx present" '"statx": true'
# TB_EXPECT=patched: a 6.1 kernel with kernel-patches/linux-6.1 applied, which accepts a
# NULL path with AT_EMPTY_PATH as 6.11 does.
case ${TB_EXPECT:-stock} in
patched)
	expect "statx(fd, NULL, AT_EMPTY_PATH) accepted (the patch series)" '"statx_null": true'
	expect "newfstatat(fd, NULL, AT_EMPTY_PATH) accepted (the patch series)" '"newfstatat_null": true'
	expect "fstatat(fd, \"\", AT_EMPTY_PATH) left to the kernel's fast path" '"fstatat_empty_path": "newfstatat"'
	expect "fstat strategy is the fstat syscall" '"fstat": "fstat"' ;;
new)
	expect "statx(fd, NULL, AT_EMPTY_PATH) accepted (6.11+)" '"statx_null": true'
	expect "newfstatat(fd, NULL, AT_EMPTY_PATH) accepted (6.11+)" '"newfstatat_null": true'
	expect "fstatat(fd, \"\", AT_EMPTY_PATH) left to the kernel's fast path" '"fstatat_empty_path": "newfstatat"'
	expect "fstat strategy is the fstat syscall" '"fstat": "fstat"' ;;
la64-new)
	expect "fstat present (LoongArch 6.11+)" '"fstat": true'
	expect "statx(fd, NULL, AT_EMPTY_PATH) accepted (6.11+)" '"statx_null": true'
	expect "newfstatat(fd, NULL, AT_EMPTY_PATH) accepted (6.11+)" '"newfstatat_null": true'
	expect "fstat strategy is the fstat syscall (first in the order when present)" '"fstat": "fstat"' ;;
la64-old)
	expect "no fstat (LoongArch before 6.11)" '"fstat": false'
	expect "no newfstatat (LoongArch before 6.11)" '"newfstatat": false'
	expect "statx(fd, NULL, AT_EMPTY_PATH) refused (EFAULT before 6.11)" '"statx_null": false'
	expect "fstat strategy is statx(fd, \"\", AT_EMPTY_PATH)" '"fstat": "statx-empty"' ;;
*)
	expect "statx(fd, NULL, AT_EMPTY_PATH) refused (EFAULT before 6.11)" '"statx_null": false'
	expect "newfstatat(fd, NULL, AT_EMPTY_PATH) refused" '"newfstatat_null": false'
	expect "fstatat(fd, \"\", AT_EMPTY_PATH) sent to the fstat syscall" '"fstatat_empty_path": "fstat"'
	expect "fstat strategy is the fstat syscall" '"fstat": "fstat"' ;;
esac
expect "not forced" '"forced": "auto"'

# Per suite: Check's summary line and the exit code, guest against host.
printf '\n%-22s %-34s %s\n' suite "guest ($arch, qemu TCG)" "host ($(uname -r))"
tpass=0 tfail=0
for name in $(sed -n 's/^RESULT \([^ ]*\) .*/\1/p' "$out"); do
	[ "$name" = sysshim-probe ] && continue
	rc=$(sed -n "s/^RESULT $name rc=\([^ ]*\).*/\1/p" "$out" | head -1)
	sum=$(sed -n "s/^OUT $name| [0-9]*%: Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p" "$out" |
		awk '{c+=$1; f+=$2; e+=$3} END {if (NR) print c, f, e}')
	if [ -n "$sum" ]; then
		set -- $sum
		tpass=$((tpass + $1 - $2 - $3)); tfail=$((tfail + $2 + $3))
		g="$(($1 - $2 - $3))/$1 passed, rc=$rc"
	elif pf=$(sed -n "s/^OUT $name| .*: \([0-9]*\) passed, \([0-9]*\) failed\$/\1 \2/p" "$out" | tail -1) &&
		[ -n "$pf" ]; then
		# A program with a summary line of its own (la64_test, la64_preload.sh).
		set -- $pf
		tpass=$((tpass + $1)); tfail=$((tfail + $2))
		[ "$rc" = 0 ] || [ "$2" != 0 ] || tfail=$((tfail + 1))
		g="$1/$(($1 + $2)) passed, rc=$rc"
	else
		if [ "$rc" = 0 ]; then tpass=$((tpass + 1)); else tfail=$((tfail + 1)); fi
		g="rc=$rc"
	fi
	[ "$rc" = 0 ] || problem "$name: rc=$rc in the guest"
	h=-
	if [ -n "${TB_HOST_RESULTS:-}" ] && [ -r "$TB_HOST_RESULTS" ]; then
		h=$(awk -v n="$name" '$1 == n { if ($3 != "") printf "%d/%d passed, rc=%s", $3-$4-$5, $3, $2; else printf "rc=%s", $2 }' "$TB_HOST_RESULTS")
		hrc=$(awk -v n="$name" '$1 == n { print $2 }' "$TB_HOST_RESULTS")
		[ "$hrc" = 0 ] && [ "$rc" != 0 ] && problem "$name passes on the host but not in the guest"
	fi
	printf '%-22s %-34s %s\n' "$name" "$g" "${h:--}"
done
# Failing test names, as Check prints them.
grep -a '^OUT [^|]*| .*:[EF]:' "$out" | sed 's/^OUT \([^|]*\)| /  \1: /' | head -40
# The matrix row (docs/testbed.md).
caps=$(printf '%s' "$json" | sed -n 's/.*"caps": {\([^}]*\)}.*/\1/p' | tr ',' '\n' |
	sed -n 's/ *"\([a-z_]*\)": true/\1/p' | paste -sd, -)
strat=$(printf '%s' "$json" | sed -n 's/.*"strategy": {"fstat": "\([^"]*\)".*/\1/p')
path=$(printf '%s' "$json" | sed -n 's/.*"stat": "\([^"]*\)".*/\1/p')
krel=$(printf '%s' "$json" | sed -n 's/^{"kernel": "\([^"]*\)".*/\1/p')
printf '| %s (qemu-system-%s, TCG) | %s | %s | %s (%s) | Check: %d passed, %d failed; probe checks: %d passed, %d failed |\n' \
	"${TB_LABEL:-Debian ${krel:-?}}" "$arch" "$arch" "${caps:-?}" "${strat:-?}" "${path:-?}" "$tpass" "$tfail" "$ppass" "$pfail" |
	tee "$logdir/matrix.txt"
[ -n "$problems" ] && echo "testbed: check-kernel:$problems"
echo "${TB_NAME:-kernel-6.1}: $((tpass + ppass)) passed, $((tfail + pfail)) failed"
exit $fail
