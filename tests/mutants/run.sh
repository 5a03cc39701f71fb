#!/bin/sh
# tests/mutants/run.sh BUILD [PATCH...]: the harnesses proven by the broken variants
# they catch. Each tests/mutants/*.patch (a change to src/ or programs/) is applied to a
# copy of the tree under BUILD/mutants/NAME; the library and the suites named on its
# "Caught-by:" line are built there, and every case named must fail. A case is a Check
# suite's SUITE:CASE (the eventfd harnesses), sh:SCRIPT[:GROUP], a shell test run
# whole (tests/run.sh) or for one COMPAT_ONLY group (tests/compat.sh), or fuzz:STEP,
# tests/fuzz/check-fuzz.sh for FUZZ_ONLY=STEP with difffuzz built (replay-difffuzz).
# One line per mutant and case, then "mutants: N caught, M missed" (exit 1 if any
# was missed). MUTANT_SECONDS (20) is each run's SYSSHIM_STRESS_SECONDS.
set -eu
b=${1:?usage: run.sh BUILD [PATCH...]}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "$top"/tests/mutants/*.patch
mkdir -p "$b"
b=$(cd "$b" && pwd)
secs=${MUTANT_SECONDS:-20}
caught=0 missed=0
for p; do
	name=$(basename "$p" .patch)
	d=$b/mutants/$name
	rm -rf "$d" && mkdir -p "$d"
	(cd "$top" && tar cf - Makefile configure sysshim.pc.in mk src arch include tests tools programs man bench) | tar xf - -C "$d"
	cases=$(sed -n 's/^Caught-by: //p' "$p")
	if ! patch -s -p1 -d "$d" < "$p" >"$d/patch.log" 2>&1; then
		echo "mutant $name: the patch does not apply ($d/patch.log)"
		missed=$((missed + 1))
		continue
	fi
	bins=$(for c in $cases; do case $c in sh:*) echo all ;; fuzz:*) echo all build/fuzz/difffuzz ;;
		*) echo all "build/tests/${c%%:*}" ;; esac; done | tr " " "\n" | sort -u)
	if ! (cd "$d" && ./configure >/dev/null && make -s -j2 B=build $bins) >"$d/build.log" 2>&1; then
		echo "mutant $name: does not build ($d/build.log)"
		missed=$((missed + 1))
		continue
	fi
	for c in $cases; do
		suite=${c%%:*} case=${c#*:} log=$d/$(echo "$c" | tr ':/' '--').log
		t0=$(date +%s)
		case $c in
		sh:*) script=${case%%:*} group=${case#"$script"}
			run() { (cd "$d" && B=build COMPAT_ONLY=${group#:} timeout -k 10 600 sh "$script"); } ;;
		fuzz:*) run() { (cd "$d" && B=build FUZZ_ONLY=$case timeout -k 10 600 sh tests/fuzz/check-fuzz.sh); } ;;
		*) run() { (cd "$d" && CK_RUN_CASE=$case SYSSHIM_STRESS_SECONDS=$secs SYSSHIM_BUILD=build \
			timeout -k 10 $((secs * 3 + 300)) "build/tests/$suite"); } ;;
		esac
		if run >"$log" 2>&1; then
			echo "mutant $name: NOT caught by $suite:$case ($log)"
			missed=$((missed + 1))
		else
			why=$(grep -m1 -o -e 'F:[^:]*:[^:]*:[0-9]*: .*' -e 'FAIL .*' "$log" | cut -c1-150)
			echo "mutant $name: caught by $suite:$case in $(($(date +%s) - t0)) s: ${why:-see $log}"
			caught=$((caught + 1))
		fi
	done
done
echo "mutants: $caught caught, $missed missed"
[ "$missed" = 0 ]
