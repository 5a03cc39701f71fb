#!/bin/sh
# The fuzzing part of `make check` (and `make fuzz`), docs/fuzz.md:
#   1. replay the committed corpus, tests/fuzz/corpus/TARGET/*: every input that ever
#      failed (one file per finding, each with a line in docs/fuzz.md);
#   2. each libFuzzer target for FUZZ_TIME seconds from a fresh random seed;
#   3. difffuzz --matrix against glibc, FUZZ_CASES cases per configuration and FUZZ_FIRST
#      processes each whose first call is a case of its own, a fresh seed, again with new
#      seeds until FUZZ_DIFF_TIME seconds have passed (0: one run).
# Every seed is printed with the command that replays it; a failure prints the
# reproducer's path and the command that replays it.
#
# Environment: B (build dir, default build), FUZZ_TIME (60), FUZZ_CASES (400),
# FUZZ_FIRST (100), FUZZ_DIFF_TIME (0), FUZZ_SEED (a seed for every step instead of fresh
# ones), FUZZ_ONLY (a subset of: replay kstat_fuzz logic_fuzz difffuzz; replay-difffuzz,
# the difffuzz corpus alone, which needs no libFuzzer target: tests/mutants/run.sh's).
B=${B:-build}
FUZZ_TIME=${FUZZ_TIME:-60}
FUZZ_CASES=${FUZZ_CASES:-400}
FUZZ_FIRST=${FUZZ_FIRST:-100}
FUZZ_DIFF_TIME=${FUZZ_DIFF_TIME:-0}
FUZZ_ONLY=${FUZZ_ONLY:-replay kstat_fuzz logic_fuzz difffuzz}
CORPUS=$(pwd)/tests/fuzz/corpus
FB=$(cd "$B/fuzz" && pwd) || exit 1
LIB=$(cd "$B/lib" && pwd)/libsysshim.so
pass=0 fail=0 seeds=

want() { case " $FUZZ_ONLY " in *" $1 "*) return 0 ;; esac; return 1; }
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); }
fresh_seed() {
	if [ -n "$FUZZ_SEED" ] && [ "$FUZZ_SEED" != 0 ]; then echo "$FUZZ_SEED"; return; fi
	# libFuzzer takes an unsigned int; 0 would mean "from the clock", unprinted
	s=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	[ "$s" = 0 ] && s=1
	echo "$s"
}
# how to replay one input of a target
replay_cmd() {
	case $1 in
	logic_fuzz) echo "LOGIC_FUZZ_TRACE=1 $FB/logic_fuzz $2" ;;
	*) echo "$FB/$1 $2" ;;
	esac
}

# 1. the corpus: each input alone, so a failure names its file
if want replay; then
	for t in kstat_fuzz logic_fuzz; do
		[ -d "$CORPUS/$t" ] || continue
		n=0 nf=0
		for f in "$CORPUS/$t"/*; do
			[ -f "$f" ] || continue
			n=$((n + 1))
			if "$FB/$t" "$f" >"$FB/replay.log" 2>&1; then
				ok
			else
				bad; nf=$((nf + 1))
				grep -E '^(logic_fuzz|kstat_fuzz):|ERROR|SUMMARY' "$FB/replay.log" | head -5
				echo "FAILED: corpus input $f"
				echo "  reproducer: $f"
				echo "  replay: $(replay_cmd "$t" "$f")"
			fi
		done
		echo "-- corpus $CORPUS/$t: $n inputs replayed, $nf failed"
	done
fi
if want replay || want replay-difffuzz; then
	if [ -d "$CORPUS/difffuzz" ]; then
		n=0 nf=0
		for f in "$CORPUS/difffuzz"/*; do
			[ -f "$f" ] || continue
			n=$((n + 1))
			# one line: [SYSSHIM_STRATEGY=s] difffuzz arguments (--seed --case --seccomp ...)
			set -- $(grep -v '^#' "$f" | head -1)
			env=
			case $1 in SYSSHIM_*=*) env=$1; shift ;; esac
			if env $env "$FB/difffuzz" --lib "$LIB" "$@" >"$FB/replay.log" 2>&1; then
				ok
			else
				bad; nf=$((nf + 1))
				tail -20 "$FB/replay.log"
				echo "FAILED: corpus input $f"
				echo "  reproducer: $f"
				echo "  replay: env $env $FB/difffuzz --lib $LIB $* -v"
			fi
		done
		echo "-- corpus $CORPUS/difffuzz: $n inputs replayed, $nf failed"
	fi
fi

# 2. each libFuzzer target from a fresh seed, in a scratch dir of its own; what it finds
# new goes to $FB/run-TARGET/corpus (fresh each run, so a seed replays the run), the
# committed corpus seeds it
for t in kstat_fuzz logic_fuzz; do
	want "$t" || continue
	d=$FB/run-$t
	rm -rf "$d/corpus"; mkdir -p "$d/corpus"
	rm -f "$d"/crash-* "$d"/leak-* "$d"/timeout-* "$d"/oom-*
	seed=$(fresh_seed)
	seeds="$seeds $t=$seed"
	set -- "$d/corpus"
	[ -d "$CORPUS/$t" ] && set -- "$@" "$CORPUS/$t"
	echo "-- $t: seed $seed, $FUZZ_TIME s (replay: $FB/$t -seed=$seed -max_total_time=$FUZZ_TIME $*, with $d/corpus empty; or make fuzz B=$B SEED=$seed FUZZ_TIME=$FUZZ_TIME FUZZ_ONLY=$t)"
	if (cd "$d" && "$FB/$t" -seed="$seed" -max_total_time="$FUZZ_TIME" \
		-print_final_stats=1 -artifact_prefix="$d/" "$@" >log 2>&1); then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log")
		echo "$t: seed $seed: $runs runs in $FUZZ_TIME s, nothing found"
		ok
	else
		bad
		grep -E '^(logic_fuzz|kstat_fuzz):|ERROR|SUMMARY|^#[0-9]+' "$d/log" | tail -6
		for f in "$d"/crash-* "$d"/leak-* "$d"/timeout-* "$d"/oom-*; do
			[ -f "$f" ] || continue
			echo "FAILED: $t, seed $seed (log: $d/log)"
			echo "  reproducer: $f"
			echo "  replay: $(replay_cmd "$t" "$f")"
			echo "  keep it: cp $f $CORPUS/$t/<finding> and add a line to docs/fuzz.md"
		done
	fi
done

# 3. the differential driver against glibc
if want difffuzz; then
	start=$(date +%s) runs=0
	while :; do
		seed=$(fresh_seed)
		[ "$runs" = 0 ] && seeds="$seeds difffuzz=$seed"
		echo "-- difffuzz: seed $seed, $FUZZ_CASES cases per configuration, $FUZZ_FIRST first calls each (replay one case: make fuzz-replay SEED=$seed CASE=I STRATEGY=.. SECCOMP=..)"
		if "$FB/difffuzz" --matrix --lib "$LIB" --seed "$seed" --cases "$FUZZ_CASES" \
			--first "$FUZZ_FIRST" >"$FB/difffuzz.log" 2>&1; then
			tail -1 "$FB/difffuzz.log"
			ok
		else
			bad
			grep -E 'MISMATCH|replay:|passed' "$FB/difffuzz.log" | head -20
			echo "FAILED: difffuzz seed $seed (log: $FB/difffuzz.log)"
			echo "  keep it: the replay line above into $CORPUS/difffuzz/<finding> and a line in docs/fuzz.md"
			break
		fi
		runs=$((runs + 1))
		[ $(($(date +%s) - start)) -ge "$FUZZ_DIFF_TIME" ] && break
		[ -n "$FUZZ_SEED" ] && [ "$FUZZ_SEED" != 0 ] && break
	done
	if [ "$runs" -gt 1 ]; then
		echo "difffuzz: $runs runs in $(($(date +%s) - start)) s, each seed printed above"
		seeds="$seeds (+$((runs - 1)) more difffuzz seeds)"
	fi
fi

echo "check-fuzz: $pass passed, $fail failed (seeds:$seeds)"
[ "$fail" = 0 ]
