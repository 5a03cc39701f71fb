#!/bin/bash
# testbed/bench-real/run.sh MODE KERNEL INITRD LOGDIR [KEY=VALUE...]
#
# Boots KERNEL under qemu-system-x86_64 (TCG, -smp 1, TB_MEM MB, default 3072) with
# INITRD (the Debian 12 root file system and the bench-real overlay, one cpio each,
# concatenated: see mk/bench-real.mk) and MODE (bench or check) and the KEY=VALUEs on the
# kernel command line; keeps the guest's "@@BR@@" lines in LOGDIR/results.txt and the
# whole console in LOGDIR/serial.log. Fails when the guest prints no END line within
# BR_TIMEOUT seconds (default 1500 for bench, 300 for check) or the kernel panics.
set -u
mode=$1 kernel=$2 initrd=$3 logdir=$4
shift 4
qemu=${TB_QEMU:-qemu-system-x86_64}
command -v "$qemu" >/dev/null || { echo "bench-real: $qemu missing: apt-get install qemu-system-x86" >&2; exit 1; }
[ -r "$kernel" ] && [ -r "$initrd" ] || { echo "bench-real: $kernel or $initrd missing" >&2; exit 1; }
case $mode in bench) limit=${BR_TIMEOUT:-1500} ;; check) limit=${BR_TIMEOUT:-300} ;;
*) echo "usage: $0 bench|check KERNEL INITRD LOGDIR [KEY=VALUE...]" >&2; exit 2 ;; esac
mkdir -p "$logdir"
append="console=ttyS0 quiet panic=-1 rdinit=/init BRMODE=$mode $*"
BR_QEMU_OPTS=${BR_QEMU_OPTS-}
echo "bench-real: $qemu -m ${TB_MEM:-3072} -smp 1 -nographic -no-reboot -nic none $BR_QEMU_OPTS -kernel $kernel -initrd $initrd -append '$append' (TCG, limit $limit s)"
start=$(date +%s)
timeout -k 10 "$limit" "$qemu" -m "${TB_MEM:-3072}" -smp 1 -nographic -no-reboot -nic none $BR_QEMU_OPTS \
	-kernel "$kernel" -initrd "$initrd" -append "$append" </dev/null 2>&1 |
	tee "$logdir/serial.log" | sed -u -n 's/\r$//; s/^.*@@BR@@ //p' | tee "$logdir/results.txt" |
	sed -u -n -e 's/^\(INFO\|DECIDE\|WARN\|END\|EXIT\) /guest: \1 /p'
qrc=${PIPESTATUS[0]}
echo "bench-real: qemu exited with $qrc after $(($(date +%s) - start)) s"
fail=0
if grep -aq 'Kernel panic' "$logdir/serial.log"; then
	echo "bench-real: FAIL: $(grep -a -m1 'Kernel panic' "$logdir/serial.log" | tr -d '\r')"; fail=1
fi
grep -q '^END' "$logdir/results.txt" || { echo "bench-real: FAIL: no END line from the guest (see $logdir/serial.log)"; fail=1; }
exit $fail
