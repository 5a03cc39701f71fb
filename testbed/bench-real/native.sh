#!/bin/sh
# testbed/bench-real/native.sh BUILD BRDIR FLOOR: the cost of a preload per process start on
# this host: /bin/true under glibc alone, with FLOOR preloaded (the empty preload of the
# library's exports, bench/empty_preload.c), with libsysshim
# preloaded and through sysshim-run (auto, --always, --never), BR_NATIVE_ROUNDS (20) interleaved
# rounds of BR_NATIVE_RUNS (50) runs each (brtime: fork to wait), and the raw fstat and
# newfstatat(fd, "") costs here (sysshim-run --measure). The figure is each run's CPU
# time (user + system, from wait4; BR_METRIC=wall for the wall time): a shared machine's
# waits for a processor stay out of it. Writes BRDIR/native/results.txt
# in the guest's format and prints report.py's summary of it. BR_NATIVE_BEFORE=DIR, the
# build directory of another tree (an earlier commit's), adds its library preloaded and its
# sysshim-run to the rounds, so a change's cost is measured beside the rest.
set -eu
b=$1 br=$2 floor=$3
rounds=${BR_NATIVE_ROUNDS:-20} n=${BR_NATIVE_RUNS:-50}
top=$(pwd)
lib=$top/$b/lib/libsysshim.so.0 run=$top/$b/bin/sysshim-run
case $floor in /*) ;; *) floor=$top/$floor ;; esac
before=${BR_NATIVE_BEFORE:+$(cd "$BR_NATIVE_BEFORE" && pwd)}
mkdir -p "$br/native"
out=$br/native/results.txt
t=$(command -v true)
{
	echo "INFO kernel $(uname -r) host $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "DECIDE $($run -v true 2>&1)"
	for i in 1 2 3 4 5; do echo "MEASURE $($run --measure)"; done
	setups="glibc empty preload auto always never${before:+ before-preload before-auto}"
	r=1
	while [ $r -le $rounds ]; do
		# Each round starts one setup later: every setup takes every place in turn.
		set -- $setups
		k=$((r % $#))
		while [ $k -gt 0 ]; do s=$1; shift; set -- "$@" "$s"; k=$((k - 1)); done
		for s; do
			case $s in
			glibc) LD_PRELOAD= "$br/brtime" -n $n -- "$t" ;;
			empty) LD_PRELOAD=$floor "$br/brtime" -n $n -- "$t" ;;
			preload) LD_PRELOAD=$lib "$br/brtime" -n $n -- "$t" ;;
			auto) LD_PRELOAD= "$br/brtime" -n $n -- "$run" "$t" ;;
			always) LD_PRELOAD= "$br/brtime" -n $n -- "$run" --always "$t" ;;
			never) LD_PRELOAD= "$br/brtime" -n $n -- "$run" --never "$t" ;;
			before-preload) LD_PRELOAD=$before/lib/libsysshim.so.0 "$br/brtime" -n $n -- "$t" ;;
			before-auto) LD_PRELOAD= "$br/brtime" -n $n -- "$before/bin/sysshim-run" "$t" ;;
			esac | while read -r ns rc cpu; do
				if [ "${BR_METRIC:-cpu}" = cpu ]; then echo "T $r true $s $cpu $rc -"; else echo "T $r true $s $ns $rc -"; fi
			done
		done
		r=$((r + 1))
	done
	echo END
} > "$out"
python3 testbed/bench-real/report.py bench "host=$out"
