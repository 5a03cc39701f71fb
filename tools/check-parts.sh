#!/bin/sh
# tools/check-parts.sh LOGDIR WARM PART... [-- MORE...]: `make check`'s and `make check-all`'s runner.
#
# The parts run one after the other, each `make PART`, its output kept in LOGDIR/PART.log
# and printed whole when it ends. Beside them, on the machine's other core, `make WARM`
# fills the cache outside the clone (kernels, chroots, libcs: the long builds) in the
# order the parts need its entries; a part that needs an entry still being built waits
# on that entry's lock (the Makefile's CACHE_LOCK), then finds it built. So the builds
# overlap the host's tests instead of following them. WARM "none" runs no such job.
#
# The parts after "--" (check-all's) are bounded by CHECK_BUDGET (minutes from the start,
# if set): one starts only inside the budget and is stopped at its end; a part stopped
# or not started so is "not reached", which fails nothing (a cold cache whose builds did
# not fit); its own failure fails the run as any part's does. When the parts are done,
# a warm job still building (for parts not reached) is stopped.
#
# At the end, a table of every part's minutes and result, the warm job's, and the whole
# run's; exit 1 if a part failed. A failed warm job is reported but fails nothing by
# itself: the part that needs the entry builds it again, and fails if that fails.
set -u
usage='usage: check-parts.sh LOGDIR WARM PART... [-- MORE...]'
logdir=${1:?$usage}
warm=${2:?$usage}
shift 2
budget=${CHECK_BUDGET:-}
mkdir -p "$logdir"
now() { date +%s; }
mins() { awk -v s="$1" 'BEGIN { printf "%.1f", s / 60 }'; }

start=$(now)
wpid=
if [ "$warm" != none ]; then
	echo "== make $warm (the cache, beside the parts: $logdir/warm.log)"
	rm -f "$logdir/warm.status"
	# setsid: the warm job is a process group of its own, stopped whole if need be.
	setsid sh -c 'ws=$(date +%s); make --no-print-directory "$1" >"$2/warm.log" 2>&1; rc=$?
		echo "$rc $(($(date +%s) - ws))" >"$2/warm.status"' sh "$warm" "$logdir" &
	wpid=$!
fi

failed= table= unreached= more=no
row() { table="$table$(printf '%-28s %6s min  %s' "$1" "$2" "$3")
"; }
for p; do
	if [ "$p" = -- ]; then more=yes; continue; fi
	left=
	if [ "$more" = yes ] && [ -n "$budget" ]; then
		left=$((budget * 60 - ($(now) - start)))
		if [ "$left" -le 60 ]; then
			echo "== make $p: not reached (CHECK_BUDGET=$budget min spent)"
			row "$p" - "not reached (budget)"
			unreached="$unreached $p"
			continue
		fi
	fi
	echo "== make $p${left:+ (within the $((left / 60)) min left of CHECK_BUDGET)}"
	s=$(now)
	if [ -n "$left" ]; then
		timeout -k 20 "$left" make --no-print-directory "$p" >"$logdir/$p.log" 2>&1
	else
		make --no-print-directory "$p" >"$logdir/$p.log" 2>&1
	fi
	rc=$?
	t=$(($(now) - s))
	cat "$logdir/$p.log"
	if [ "$rc" = 0 ]; then r=passed
	elif [ -n "$left" ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; }; then
		r="not reached (stopped at CHECK_BUDGET=$budget min)"; unreached="$unreached $p"
	else r=FAILED; failed="$failed $p"; fi
	echo "== make $p: $r in $(mins $t) min"
	row "$p" "$(mins $t)" "$r"
done

if [ -n "$wpid" ]; then
	if [ ! -f "$logdir/warm.status" ] && [ -n "$budget" ]; then
		echo "== make $warm: stopped (no part left to need it)"
		kill -TERM "-$wpid" 2>/dev/null
		sleep 5
		kill -KILL "-$wpid" 2>/dev/null
		echo "143 $(($(now) - start))" >"$logdir/warm.status"
	fi
	wait "$wpid"
	read -r wrc wt <"$logdir/warm.status"
	if [ "$wrc" = 0 ]; then wr=passed
	elif [ "$wrc" = 143 ]; then wr="stopped (no part left to need it)"
	else wr="FAILED (see $logdir/warm.log)"; tail -20 "$logdir/warm.log"; fi
	row "($warm, beside)" "$(mins "$wt")" "$wr"
fi
echo "== make check: minutes per part"
printf '%s' "$table"
printf '%-28s %6s min\n' "(all, wall clock)" "$(mins $(($(now) - start)))"
[ -z "$unreached" ] || echo "== not reached within CHECK_BUDGET=$budget min:$unreached (their builds continue in the cache on the next run)"
if [ -n "$failed" ]; then
	echo "== make check: FAILED:$failed"
	exit 1
fi
echo "== make check: all parts passed that ran"
