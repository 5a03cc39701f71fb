#!/bin/bash
# testbed/boot.sh [OPTION...] KERNEL INITRD [WORD...]
#
# The one way the test beds start a guest: boots KERNEL with INITRD under qemu-system-ARCH
# (TCG: no KVM, as on a CI machine) with the serial console on the log, the WORDs on the
# kernel command line (KEY=VALUE words reach the guest's /init as its environment), and
# stops qemu when it runs too long. Every caller goes through here: testbed/run-kernel.sh
# (the suites, the probe, the benchmarks), kernel-patches/build.sh's boot (the patch
# test), testbed/bench-real/run.sh, and through run-kernel.sh upstream/scripts' kernel
# steps.
#
# The board of each arch (qemu, machine, CPU, console; ARCH also by its Debian name):
#   x86_64  (amd64)   qemu-system-x86_64, pc, qemu64; console ttyS0, no_timer_check (under
#                     TCG on a loaded host the IO-APIC timer check can count too few
#                     emulated ticks and panic: "IO-APIC + timer doesn't work")
#   aarch64 (arm64)   qemu-system-aarch64 -M virt -cpu cortex-a57; console ttyAMA0
#   loongarch64 (loong64)  Debian 13's qemu-system-loongarch64 10.0 (testbed/fetch-la64-qemu.sh:
#                     $TB_LA64_QEMU, else $SYSSHIM_CACHE/testbed/la64-qemu/...) -M virt
#                     -cpu la464 -audio none; console ttyS0 earlycon;
#                     initcall_blacklist=i8042_init (the board has no i8042: a kernel with
#                     it built in, as Debian's, probes the legacy ports without firmware,
#                     oopses and panics before /init; a kernel without it ignores the word)
# and for all: -m 512 -smp 1 -nographic -no-reboot -nic none, "quiet panic=-1" (a panic
# reboots at once, and -no-reboot turns that into qemu's exit).
#
# Options:
#   -a ARCH     the guest's arch (default $TB_ARCH, else x86_64)
#   -m MB       memory (default $TB_MEM, else 512)
#   -s N        CPUs (default $TB_SMP, else 1)
#   -c CPU      qemu's -cpu (default $TB_CPU, else the board's)
#   -q QEMU     the qemu program (default $TB_QEMU, else the board's)
#   -o OPTS     more qemu options (split on blanks; may repeat): -icount shift=0, ...
#   -t SECONDS  the limit (default 900): then qemu is killed (exit 124, or 137 if it
#               would not die within 10 s more)
#   -l FILE     the serial console's log (default: a temporary file, removed)
#   -f          follow: the console on standard output as it arrives, too
#   -e STRING   the guest's last line: once STRING is in the log, qemu has 5 s to exit
#               and is then stopped (a guest whose kernel cannot reset the machine
#               hangs after its reboot); the exit status is then 0
#   -n          print the qemu command and exit
#   -p NAME     the name boot.sh's own lines begin with (default boot)
#   -Q          quiet: no command line and no exit line (errors are still printed)
# The exit status is qemu's (0: the guest rebooted, or it was stopped after the -e
# STRING), 124 or 137 after the limit; 1 or 2 when nothing could be booted (no qemu, no
# kernel: the message says which). boot.sh's own lines ("boot: ...") go to standard
# error: the command, then "boot: qemu exited with RC after W s"; the wall and CPU time
# (qemu's user and system time) and the load are measured too: TB_TIMES=FILE appends
# them as one line: "DATE boot ARCH KERNEL wall=W cpu=C load=L rc=RC".
set -u
usage() { sed -n '3,/^set -u/{/^set -u/!s/^# \{0,1\}//p}' "$0" >&2; exit 2; }
arch=${TB_ARCH:-x86_64} mem=${TB_MEM:-512} smp=${TB_SMP:-1} cpu=${TB_CPU:-} qemu=${TB_QEMU:-}
opts=() limit=900 log= follow= end= dry= name=boot quiet=
while getopts a:m:s:c:q:o:t:l:fe:np:Qh o; do
	case $o in
	a) arch=$OPTARG ;; m) mem=$OPTARG ;; s) smp=$OPTARG ;; c) cpu=$OPTARG ;; q) qemu=$OPTARG ;;
	o) read -r -a more <<<"$OPTARG"; opts+=("${more[@]}") ;;
	t) limit=$OPTARG ;; l) log=$OPTARG ;; f) follow=1 ;; e) end=$OPTARG ;; n) dry=1 ;;
	p) name=$OPTARG ;; Q) quiet=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
kernel=$1 initrd=$2
shift 2

# The boards.
case $arch in
x86_64|amd64)
	arch=x86_64 bin=qemu-system-x86_64 pkg="apt-get install qemu-system-x86"
	mach=() dcpu= console="console=ttyS0 no_timer_check" ;;
aarch64|arm64)
	arch=aarch64 bin=qemu-system-aarch64 pkg="apt-get install qemu-system-arm"
	mach=(-M virt) dcpu=cortex-a57 console="console=ttyAMA0" ;;
loongarch64|loong64)
	arch=loongarch64 pkg="make tb-fetch-la64-qemu (testbed/fetch-la64-qemu.sh)"
	bin=${TB_LA64_QEMU:-${SYSSHIM_CACHE:-/var/cache/sysshim}/testbed/la64-qemu/qemu-system-loongarch64}
	mach=(-M virt -audio none) dcpu=la464
	console="console=ttyS0 earlycon initcall_blacklist=i8042_init" ;;
*) echo "$name: arch $arch: x86_64, aarch64 or loongarch64" >&2; exit 2 ;;
esac
qemu=${qemu:-$bin} cpu=${cpu:-$dcpu}
[ -n "$cpu" ] && mach+=(-cpu "$cpu")
append="$console quiet panic=-1${*:+ $*}"
cmd=("$qemu" "${mach[@]}" -m "$mem" -smp "$smp" -nographic -no-reboot -nic none "${opts[@]}"
	-kernel "$kernel" -initrd "$initrd" -append "$append")
[ -z "$quiet" ] || [ -n "$dry" ] &&
	echo "$name: ${cmd[*]:0:${#cmd[@]}-1} '$append' (TCG, limit $limit s)" >&2
[ -n "$dry" ] && exit 0
command -v "$qemu" >/dev/null || { echo "$name: $qemu missing: $pkg" >&2; exit 1; }
command -v timeout >/dev/null || { echo "$name: timeout missing: apt-get install coreutils" >&2; exit 1; }
for f in "$kernel" "$initrd"; do
	[ -r "$f" ] || { echo "$name: $f missing" >&2; exit 1; }
done
tfile=$(mktemp) tmp=
trap 'rm -f "$tfile" $tmp' EXIT
if [ -z "$log" ]; then
	tmp=$(mktemp) log=$tmp
fi
mkdir -p "$(dirname "$log")"
: >"$log"

start=$(date +%s.%N)
# CPU seconds of the children waited for (timeout, and qemu through it): bash's times,
# run by this shell itself (a subshell's would count its own children only).
child_cpu() { tr '\n' ' ' <"$tfile" | sed 's/[ms]/ /g' | awk '{ printf "%.2f", $5 * 60 + $6 + $7 * 60 + $8 }'; }
times >"$tfile"
c0=$(child_cpu)
timeout -k 10 "$limit" "${cmd[@]}" </dev/null >"$log" 2>&1 &
qpid=$!
# timeout runs qemu in a process group of its own: when this script is stopped, so is qemu
trap 'kill -TERM $qpid 2>/dev/null; exit 143' TERM HUP
trap 'kill -TERM $qpid 2>/dev/null; exit 130' INT
fpid=
if [ -n "$follow" ]; then
	tail -n +1 -f --pid=$qpid "$log" &
	fpid=$!
fi
stopped=
if [ -n "$end" ]; then
	while kill -0 $qpid 2>/dev/null; do
		if grep -aqF -- "$end" "$log"; then
			for _ in 1 2 3 4 5; do kill -0 $qpid 2>/dev/null || break; sleep 1; done
			kill -0 $qpid 2>/dev/null && { kill -TERM $qpid 2>/dev/null; stopped=1; }
			break
		fi
		sleep 1
	done
fi
wait $qpid
rc=$?
[ -n "$fpid" ] && wait $fpid 2>/dev/null
if [ -n "$stopped" ]; then
	[ -z "$quiet" ] && echo "$name: the guest did not reset after its last line: qemu stopped" >&2
	rc=0
fi
wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
times >"$tfile"
c1=$(child_cpu)
cpu=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.0f", b - a }')
load=$(cut -d' ' -f1 /proc/loadavg)
[ -z "$quiet" ] && echo "$name: qemu exited with $rc after $wall s" >&2
[ -n "${TB_TIMES:-}" ] && echo "$(date -u +%FT%TZ) boot $arch $kernel wall=$wall cpu=$cpu load=$load rc=$rc" >>"$TB_TIMES"
exit $rc
