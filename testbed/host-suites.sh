#!/bin/sh
# testbed/host-suites.sh OUT SUITE...
# Runs the static suites on the host with the guest's settings and writes one line per
# suite, "name rc checks failures errors", for run-kernel.sh's host column.
out=$1
shift
: > "$out"
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-120} CK_FORK=yes
# The stress harness as long as in the guests (tests/kernel/init.c).
export SYSSHIM_STRESS_SECONDS=${SYSSHIM_STRESS_SECONDS:-20}
for t; do
	name=$(basename "$t")
	case $t in /*) ;; *) t=$PWD/$t ;; esac
	log=${out%.txt}-$name.log
	work=${out%.txt}-work
	rm -rf "$work" && mkdir -p "$work"
	(cd "$work" && timeout -k 5 600 "$t") >"$log" 2>&1
	rc=$?
	sum=$(sed -n 's/^[0-9]*%: Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$log" |
		awk '{c+=$1; f+=$2; e+=$3} END {if (NR) print c, f, e}')
	echo "$name $rc $sum" >> "$out"
done
