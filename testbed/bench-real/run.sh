#!/bin/bash
# testbed/bench-real/run.sh MODE KERNEL INITRD LOGDIR [KEY=VALUE...]
#
# Boots KERNEL under qemu-system-x86_64 (testbed/boot.sh: TCG, -smp 1, TB_MEM MB, default
# 3072; TB_QEMU, BR_QEMU_OPTS more qemu options) with
# INITRD (the Debian 12 root file system and the bench-real overlay, one cpio each,
# concatenated: see mk/bench-real.mk) and MODE (bench or check) and the KEY=VALUEs on the
# kernel command line; keeps the guest's "@@BR@@" lines in LOGDIR/results.txt and the
# whole console in LOGDIR/serial.log. Fails when the guest prints no END line within
# BR_TIMEOUT seconds (default 1500 for bench, 300 for check, 900 for compat) or the
# kernel panics.
set -u
mode=$1 kernel=$2 initrd=$3 logdir=$4
shift 4
here=$(cd "$(dirname "$0")/.." && pwd)
case $mode in bench) limit=${BR_TIMEOUT:-1500} ;; check) limit=${BR_TIMEOUT:-300} ;;
compat) limit=${BR_TIMEOUT:-900} ;;
*) echo "usage: $0 bench|check|compat KERNEL INITRD LOGDIR [KEY=VALUE...]" >&2; exit 2 ;; esac
mkdir -p "$logdir"
BR_QEMU_OPTS=${BR_QEMU_OPTS-}
# testbed/boot.sh prints the command and qemu's exit ("bench-real: ...", here on standard
# output) and follows the console into serial.log; TB_CPU and TB_SMP are not for this guest.
exec 3>&1
TB_CPU= "$here/boot.sh" -p bench-real -a x86_64 -q "${TB_QEMU:-qemu-system-x86_64}" \
	-m "${TB_MEM:-3072}" -s 1 -o "$BR_QEMU_OPTS" -t "$limit" -l "$logdir/serial.log" -f \
	"$kernel" "$initrd" rdinit=/init "BRMODE=$mode" "$@" 2>&3 |
	sed -u -n 's/\r$//; s/^.*@@BR@@ //p' | tee "$logdir/results.txt" |
	sed -u -n -e 's/^\(INFO\|DECIDE\|WARN\|END\|EXIT\) /guest: \1 /p'
qrc=${PIPESTATUS[0]}
exec 3>&-
# 1 or 2 with nothing on the console: nothing was booted (no qemu, no kernel)
case $qrc in 1|2) [ -s "$logdir/serial.log" ] || exit 1 ;; esac
fail=0
if grep -aq 'Kernel panic' "$logdir/serial.log"; then
	echo "bench-real: FAIL: $(grep -a -m1 'Kernel panic' "$logdir/serial.log" | tr -d '\r')"; fail=1
fi
grep -q '^END' "$logdir/results.txt" || { echo "bench-real: FAIL: no END line from the guest (see $logdir/serial.log)"; fail=1; }
exit $fail
