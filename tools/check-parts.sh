#!/bin/sh
# tools/check-parts.sh LOGDIR WARM PART...: `make check`'s runner.
#
# The parts run one after the other, each `make PART`, its output kept in LOGDIR/PART.log
# and printed whole when it ends. Beside them, on the machine's other core, `make WARM`
# fills the cache outside the clone (kernels, chroots, libcs: the long builds) in the
# order the parts need its entries; a part that needs an entry still being built waits
# on that entry's lock (the Makefile's CACHE_LOCK), then finds it built. So the builds
# overlap the host's tests instead of following them. WARM "none" runs no such job.
#
# At the end, a table of every part's minutes and result, the warm job's, and the whole
# run's; exit 1 if a part failed. A failed warm job is reported but fails nothing by
# itself: the part that needs the entry builds it again, and fails if that fails.
set -u
logdir=${1:?usage: check-parts.sh LOGDIR WARM PART...}
warm=${2:?usage: check-parts.sh LOGDIR WARM PART...}
shift 2
mkdir -p "$logdir"
mk() { make --no-print-directory "$@"; }
now() { date +%s; }
mins() { awk -v s="$1" 'BEGIN { printf "%.1f", s / 60 }'; }

start=$(now)
wpid=
if [ "$warm" != none ]; then
	echo "== make $warm (the cache, beside the parts: $logdir/warm.log)"
	(ws=$(now); mk "$warm" >"$logdir/warm.log" 2>&1; rc=$?
	 echo "$rc $(($(now) - ws))" >"$logdir/warm.status") &
	wpid=$!
fi

failed= table=
for p; do
	echo "== make $p"
	s=$(now)
	mk "$p" >"$logdir/$p.log" 2>&1
	rc=$?
	t=$(($(now) - s))
	cat "$logdir/$p.log"
	if [ "$rc" = 0 ]; then r=passed; else r=FAILED; failed="$failed $p"; fi
	echo "== make $p: $r in $(mins $t) min"
	table="$table$(printf '%-26s %6s min  %s' "$p" "$(mins $t)" "$r")
"
done

if [ -n "$wpid" ]; then
	wait "$wpid"
	read -r wrc wt <"$logdir/warm.status"
	if [ "$wrc" = 0 ]; then wr=passed; else wr="FAILED (see $logdir/warm.log)"; tail -20 "$logdir/warm.log"; fi
	table="$table$(printf '%-26s %6s min  %s' "($warm, beside)" "$(mins "$wt")" "$wr")
"
fi
echo "== make check: minutes per part"
printf '%s' "$table"
printf '%-26s %6s min\n' "(all, wall clock)" "$(mins $(($(now) - start)))"
if [ -n "$failed" ]; then
	echo "== make check: FAILED:$failed"
	exit 1
fi
echo "== make check: all parts passed:$(printf ' %s' "$@")"
