#!/bin/sh
# tools/check-parts.sh LOGDIR WARM PART... [-- MORE...]: `make check`'s and `make check-all`'s runner.
#
# Each part is `make PART`, its output kept in LOGDIR/PART.log and printed whole when it
# ends. Beside the parts, `make WARM` fills the cache outside the clone (kernels, chroots,
# libcs: the long builds) in the order the parts need its entries; a part that needs an
# entry still being built waits on that entry's lock (the Makefile's CACHE_LOCK), then
# finds it built. So the builds overlap the host's tests instead of following them. WARM
# "none" runs no such job.
#
# Two lanes (CHECK_LANES=2, the default; 1: one after the other): the first runs the parts
# from the front of the list; once the warm job has done make check's entries (at once on
# a warm cache; CHECK_WARM_READY, which mk/cache.mk touches before check-all's builds), the
# second takes parts from the back, so a warm run uses both cores for the parts.
#
# The parts after "--" (check-all's) run after those, one after the other, bounded by
# CHECK_BUDGET (minutes from the start, if set; or CHECK_DEADLINE, the end as seconds since
# the epoch, which .ci/run sets from its own start): one starts only inside the budget and is
# stopped at its end; a part stopped or not started so is "not reached", which fails
# nothing (a cold cache whose builds did not fit); its own failure fails the run as any
# part's does. When the parts are done, a warm job still building (for parts not reached)
# is stopped.
#
# At the end, a table of every part's minutes and result, the warm job's, and the whole
# run's, then each failed part's lines that name the failure; exit 1 if a part failed. A
# failed warm job is reported but fails nothing by itself: the part that needs the entry
# builds it again, and fails if that fails.
set -u
usage='usage: check-parts.sh LOGDIR WARM PART... [-- MORE...]'
logdir=${1:?$usage}
warm=${2:?$usage}
shift 2
budget=${CHECK_BUDGET:-}
deadline=${CHECK_DEADLINE:-}
lanes=${CHECK_LANES:-2}
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
now() { date +%s; }
mins() { awk -v s="$1" 'BEGIN { printf "%.1f", s / 60 }'; }

start=$(now)
if [ -z "$deadline" ] && [ -n "$budget" ]; then
	deadline=$((start + budget * 60))
fi
[ -z "$deadline" ] || budget=$(((deadline - start + 59) / 60))
wpid=
rm -f "$logdir/warm.status" "$logdir/warm.ready" "$logdir/results" "$logdir/queue" "$logdir/order"
if [ "$warm" != none ]; then
	echo "== make $warm (the cache, beside the parts: $logdir/warm.log)"
	# setsid: the warm job is a process group of its own, stopped whole if need be.
	CHECK_WARM_READY=$logdir/warm.ready \
	setsid sh -c 'ws=$(date +%s); make --no-print-directory "$1" >"$2/warm.log" 2>&1; rc=$?
		echo "$rc $(($(date +%s) - ws))" >"$2/warm.status"' sh "$warm" "$logdir" &
	wpid=$!
fi

# The queue: make check's parts, one a line; MORE: check-all's.
more=
for p; do
	if [ "$p" = -- ]; then more=yes; continue; fi
	if [ -n "$more" ]; then more="$more $p"; else echo "$p" >>"$logdir/queue"; fi
	echo "$p" >>"$logdir/order"
done
touch "$logdir/queue" "$logdir/order"
more=${more#yes}

# pop front|back: the next part of the queue, under its lock ("" when it is empty).
pop() {
	flock "$logdir/queue" sh -c '
		q=$1/queue; p=$(if [ "$2" = front ]; then head -1 "$q"; else tail -1 "$q"; fi)
		[ -n "$p" ] || exit 0
		if [ "$2" = front ]; then sed -i 1d "$q"; else sed -i \$d "$q"; fi
		echo "$p"' sh "$logdir" "$1"
}

# run PART [SECONDS]: one part, its log printed whole (under a lock: the lanes' logs do
# not interleave), its line added to the results: "PART SECONDS RESULT".
run() {
	p=$1 left=${2:-}
	flock "$logdir/results" echo "== make $p${left:+ (within the $((left / 60)) min left of CHECK_BUDGET)}: started"
	s=$(now)
	if [ -n "$left" ]; then
		timeout -k 20 "$left" make --no-print-directory "$p" >"$logdir/$p.log" 2>&1
	else
		make --no-print-directory "$p" >"$logdir/$p.log" 2>&1
	fi
	rc=$?
	t=$(($(now) - s))
	if [ "$rc" = 0 ]; then r=passed
	elif [ -n "$left" ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; }; then
		r="not reached (stopped at CHECK_BUDGET=$budget min)"
	else r=FAILED; fi
	flock "$logdir/results" sh -c 'cat "$1"; echo "== make $2: $3 in $4 min"' sh \
		"$logdir/$p.log" "$p" "$r" "$(mins $t)"
	flock "$logdir/results" sh -c 'echo "$1 $2 $3" >>"$4"' sh "$p" "$t" "$r" "$logdir/results"
}

lane() {	# front|back
	while p=$(pop "$1") && [ -n "$p" ]; do
		run "$p"
	done
}

touch "$logdir/results"
l2=
if [ "$lanes" -ge 2 ]; then
	(
		# The second lane starts when the warm job has built what make check's parts need
		# (check-all's builds may go on beside both lanes), and not at all when the first
		# lane has taken every part by then.
		if [ -n "$wpid" ]; then
			while [ ! -f "$logdir/warm.status" ] && [ ! -f "$logdir/warm.ready" ] &&
				[ -s "$logdir/queue" ]; do sleep 5; done
		fi
		lane back
	) &
	l2=$!
fi
lane front
[ -z "$l2" ] || wait "$l2"

for p in $more; do
	left=
	if [ -n "$deadline" ]; then
		left=$((deadline - $(now)))
		if [ "$left" -le 60 ]; then
			echo "== make $p: not reached (CHECK_BUDGET=$budget min spent)"
			echo "$p - not reached (budget)" >>"$logdir/results"
			continue
		fi
	fi
	run "$p" "$left"
done

wrow=
if [ -n "$wpid" ]; then
	if [ ! -f "$logdir/warm.status" ] && [ -n "$deadline" ]; then
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
	wrow=$(printf '%-28s %6s min  %s' "($warm, beside)" "$(mins "$wt")" "$wr")
fi

echo "== make check: minutes per part"
failed= unreached=
while read -r p; do
	line=$(awk -v p="$p" '$1 == p { print; exit }' "$logdir/results")
	t=$(echo "$line" | cut -d' ' -f2)
	r=$(echo "$line" | cut -d' ' -f3-)
	[ -n "$line" ] || { t=-; r="not run"; }
	case $r in
	passed) ;;
	"not reached"*) unreached="$unreached $p" ;;
	*) failed="$failed $p" ;;
	esac
	[ "$t" = - ] || t=$(mins "$t")
	printf '%-28s %6s min  %s\n' "$p" "$t" "$r"
done <"$logdir/order"
[ -z "$wrow" ] || echo "$wrow"
printf '%-28s %6s min  (%s lane%s)\n' "(all, wall clock)" "$(mins $(($(now) - start)))" "$lanes" \
	"$([ "$lanes" = 1 ] || echo s)"
[ -z "$unreached" ] || echo "== not reached within CHECK_BUDGET=$budget min:$unreached (their builds continue in the cache on the next run)"
if [ -n "$failed" ]; then
	# Why, at the end where a reader of only the last lines sees it: each failed part's
	# lines that name a failure (its whole log is printed above and kept in LOGDIR).
	for p in $failed; do
		echo "== why make $p failed ($logdir/$p.log):"
		grep -a -E 'FAIL|:[EF]:|[Ff]ailed|hung|watchdog|[Ee]rror|panic|timed out|killed' \
			"$logdir/$p.log" | grep -a -v -E 'Failures: 0, Errors: 0|, 0 failed|^make' |
			cut -c1-400 | tail -25 | sed 's/^/  /'
	done
	echo "== make check: FAILED:$failed"
	exit 1
fi
echo "== make check: all parts passed that ran"
