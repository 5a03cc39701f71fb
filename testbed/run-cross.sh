#!/bin/bash
# testbed/run-cross.sh LOGDIR
#
# Runs the cross builds under two qemu-user emulators that answer like two kernels:
#   qemu 7.2  (Debian 12's qemu-user, /usr/bin): a NULL statx path gets EFAULT from
#             qemu itself; for loongarch64 fstat/newfstatat are ENOSYS ("old kernel")
#   qemu 10.0 (Debian 13's qemu-user, unpacked under build/testbed/trixie): NULL passes
#             through to the host kernel (6.11+ here: accepted) ("new kernel")
# and checks that the probe picks what each offers:
#   aarch64:     sysshim-probe (static) plain and --json; the Check suites (static);
#   loongarch64: la64_test (freestanding) once per SYSSHIM_STRATEGY.
# Prints a matrix and "check-cross: N passed, N failed"; fails when anything failed.
#
# Environment (set by mk/testbed.mk): TB_EMUS ("7.2=DIR 10.0=DIR"), TB_A64_PROBE,
# TB_A64_SUITES (paths), TB_LA64_TEST, CK_DEFAULT_TIMEOUT (120), TB_SUITE_TIMEOUT (600 s),
# SYSSHIM_STRESS_SECONDS (20: check_evstress's run under each emulator), SYSSHIM_TEST_SCALE (4).
set -u
logdir=$1
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
strategies="auto fstat newfstatat-null newfstatat-empty statx-null statx-empty"
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-120} CK_FORK=${CK_FORK:-yes}
# The stress harness's short run, as in the kernel guests (its 120 s is the host's).
export SYSSHIM_STRESS_SECONDS=${SYSSHIM_STRESS_SECONDS:-20}
# An emulated CPU: time limits 4 times the host's, as in the kernel guests.
export SYSSHIM_TEST_SCALE=${SYSSHIM_TEST_SCALE:-4}
unset SYSSHIM_STRATEGY
tlim=${TB_SUITE_TIMEOUT:-600}
# qemu-user cannot apply a guest's seccomp filter (its prctl(PR_SET_SECCOMP) and seccomp()
# answer EINVAL, by design: the filter would hit qemu's own syscalls). Check 0.15 has no
# way to exclude a test case by name, so the suites run verbose and the results of the
# test cases named here are shown but not counted (CK_EXCLUDE_TAGS=$excl also skips
# them if the suite tags them so). check-kernel runs them on a real kernel.
excl=${TB_QEMU_USER_EXCLUDE-seccomp}
# The suites run in an empty directory of their own: /tmp's times change under them.
work=$logdir/work

tpass=0 tfail=0 problems='' matrix=''
problem() { problems="$problems
  FAIL: $*"; }
pass() { tpass=$((tpass + 1)); echo "  ok   $*"; }
fail() { tfail=$((tfail + 1)); echo "  FAIL $*"; problem "$*"; }
row() { matrix="$matrix
$(printf '| %s | %s | %s | %s | %s |' "$@")"; }

json_has() { printf '%s' "$1" | grep -q "$2"; }
caps_of() { # the caps of a sysshim-probe --json line, as a,b,c
	printf '%s' "$1" | sed -n 's/.*"caps": {\([^}]*\)}.*/\1/p' | tr ',' '\n' |
		sed -n 's/ *"\([a-z_]*\)": true/\1/p' | paste -sd, -
}

for emu in ${TB_EMUS:?}; do
	ver=${emu%%=*} bindir=${emu#*=}
	[ -d "$bindir" ] && bindir=$(cd "$bindir" && pwd)
	# Suites may look at this to tell an emulator's limits from a bug (qemu-user
	# cannot apply a guest's seccomp filter, for one).
	export SYSSHIM_TESTBED=qemu-user-$ver
	case $ver in 7.2) kind="old kernel" ;; *) kind="new kernel" ;; esac
	# qemu-user 7.2 deadlocks a fork child of a threaded program when another thread is
	# inside its path() lock (a syscall that names a file) at the fork: the stress
	# harness's writer threads do not fork there (check_evstress.c, g_thread_fork).
	case $ver in 7.2) export SYSSHIM_STRESS_THREAD_FORK=0 ;; *) unset SYSSHIM_STRESS_THREAD_FORK ;; esac
	echo
	echo "==== qemu-user $ver ($bindir, \"$kind\")"

	# ---- aarch64
	qa=$bindir/qemu-aarch64
	if [ ! -x "$qa" ]; then
		fail "$qa missing (qemu $ver): apt-get install qemu-user, or make testbed-fetch"
	else
		"$qa" --version | head -1
		echo "-- aarch64: sysshim-probe"
		"$qa" "$TB_A64_PROBE" 2>&1 | sed 's/^/  /'
		json=$("$qa" "$TB_A64_PROBE" --json 2>&1)
		echo "  --json: $json"
		json_has "$json" '"statx": true' && pass "aarch64 qemu $ver: statx present" ||
			fail "aarch64 qemu $ver: statx present"
		if [ "$ver" = 7.2 ]; then
			json_has "$json" '"statx_null": false' &&
				pass "aarch64 qemu $ver: NULL statx path refused (EFAULT from qemu)" ||
				fail "aarch64 qemu $ver: NULL statx path refused (EFAULT from qemu)"
		else
			json_has "$json" '"statx_null": true' &&
				pass "aarch64 qemu $ver: NULL statx path accepted (SYSSHIM_CAP_STATX_NULL)" ||
				fail "aarch64 qemu $ver: NULL statx path accepted (SYSSHIM_CAP_STATX_NULL)"
		fi
		json_has "$json" '"fstat": "fstat"' &&
			pass "aarch64 qemu $ver: fstat strategy is the fstat syscall (preferred when present)" ||
			fail "aarch64 qemu $ver: fstat strategy is the fstat syscall (preferred when present)"
		strat=$(printf '%s' "$json" | sed -n 's/.*"strategy": {"fstat": "\([^"]*\)".*/\1/p')
		path=$(printf '%s' "$json" | sed -n 's/.*"stat": "\([^"]*\)".*/\1/p')

		# The Check suites.
		spass=0 sfail=0 slist=
		for t in $TB_A64_SUITES; do
			name=$(basename "$t")
			log=$logdir/aarch64-qemu$ver-$name.log
			res=${log%.log}.results
			echo "-- aarch64 qemu $ver: $name (CK_DEFAULT_TIMEOUT=$CK_DEFAULT_TIMEOUT CK_FORK=$CK_FORK CK_LOG_FILE_NAME=$res)"
			rm -rf "$work" "$res" && mkdir -p "$work"
			(cd "$work" && CK_LOG_FILE_NAME=$res CK_EXCLUDE_TAGS=$excl \
				timeout -k 5 "$tlim" "$qa" "$t") >"$log" 2>&1
			rc=$?
			grep -E '^[0-9]+%: Checks:' "$log" | sed 's/^/  /'
			[ -r "$res" ] || : > "$res"
			# Every test's line (file:line:P|F|E:tcase:test:iter: msg), counted by test
			# case; the cases in $excl are shown but not counted.
			lines=$(grep -aE '^[^:]+:[0-9]+:[PFE]:' "$res")
			printf '%s\n' "$lines" | awk -F: -v ex=",$excl," 'NF > 3 && $3 != "P" {
				print "  " (index(ex, "," $4 ",") ? "(excluded) " : "") $0 }' | head -40
			set -- $(printf '%s\n' "$lines" | awk -F: -v ex=",$excl," '
				NF > 3 { x = index(ex, "," $4 ",") > 0
				  if ($3 == "P") { if (x) xp++; else p++ } else { if (x) xf++; else f++ } }
				END { printf "%d %d %d %d\n", p, f, xp, xf }')
			p=$1 f=$2 xp=$3 xf=$4
			if [ $((p + f + xp + xf)) = 0 ]; then
				tfail=$((tfail + 1)) sfail=$((sfail + 1))
				slist="$slist $name rc=$rc"
				problem "aarch64 qemu $ver: $name ran no test, exit status $rc (see $log)"
			else
				tpass=$((tpass + p)) tfail=$((tfail + f))
				spass=$((spass + p)) sfail=$((sfail + f))
				slist="$slist $name $p/$((p + f))"
				if [ $((xp + xf)) != 0 ]; then
					echo "  not counted: test case(s) $excl, $xp passed, $xf failed (qemu-user cannot apply a seccomp filter: EINVAL)"
					slist="$slist (+$excl: $xp/$((xp + xf)) not counted)"
				fi
				[ "$f" = 0 ] || problem "aarch64 qemu $ver: $name: $f failed (see $log)"
				[ "$f" = 0 ] && [ "$rc" != 0 ] && [ "$xf" = 0 ] &&
					problem "aarch64 qemu $ver: $name exit status $rc (see $log)"
			fi
			grep -qE '^[0-9]+%: Checks:' "$log" ||
				problem "aarch64 qemu $ver: $name printed no Check summary: it died (see $log)"
			[ "$rc" = 124 ] && problem "aarch64 qemu $ver: $name killed after $tlim s"
		done
		row "qemu-user $ver ($kind)" aarch64 "$(caps_of "$json")" "$strat ($path)" \
			"Check: $spass passed, $sfail failed;$slist"
	fi

	# ---- loongarch64
	ql=$bindir/qemu-loongarch64
	if [ ! -x "$ql" ]; then
		fail "$ql missing (qemu $ver): apt-get install qemu-user, or make testbed-fetch"
		continue
	fi
	echo "-- loongarch64: la64_test --probe"
	pl=$("$ql" "$TB_LA64_TEST" --probe 2>&1)
	echo "  $pl"
	if [ "$ver" = 7.2 ]; then
		exp="--expect=statx-empty --expect-caps=statx,!statx_null,!fstat"
	else
		exp="--expect-caps=statx,statx_null"
	fi
	lpass=0 lfail=0
	for s in $strategies; do
		log=$logdir/la64-qemu$ver-$s.log
		if [ "$s" = auto ]; then
			rm -rf "$work" && mkdir -p "$work"
			(cd "$work" && timeout -k 5 "$tlim" "$ql" "$TB_LA64_TEST" $exp) >"$log" 2>&1
		else
			rm -rf "$work" && mkdir -p "$work"
			(cd "$work" && SYSSHIM_STRATEGY=$s timeout -k 5 "$tlim" "$ql" "$TB_LA64_TEST") >"$log" 2>&1
		fi
		rc=$?
		grep -v '^probe:' "$log" | sed 's/^/  /'
		line=$(sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$log" | tail -1)
		if [ -n "$line" ]; then
			set -- $line
			tpass=$((tpass + $1)) tfail=$((tfail + $2)) lpass=$((lpass + $1)) lfail=$((lfail + $2))
		else
			tfail=$((tfail + 1)) lfail=$((lfail + 1))
		fi
		[ "$rc" = 0 ] || problem "loongarch64 qemu $ver SYSSHIM_STRATEGY=$s: exit status $rc (see $log)"
	done
	lcaps=$(printf '%s' "$pl" | sed -n 's/.* caps=\([^ ]*\).*/\1/p')
	lstrat=$(printf '%s' "$pl" | sed -n 's/.* fstat=\([^ ]*\).*/\1/p')
	lpath=$(printf '%s' "$pl" | sed -n 's/.* path=\([^ ]*\).*/\1/p')
	row "qemu-user $ver ($kind)" loongarch64 "$lcaps" "$lstrat ($lpath)" \
		"la64_test x 6 strategies: $lpass passed, $lfail failed"
done

echo
echo "matrix (emulator x arch -> what the probe found and chose -> tests):"
echo '| emulator | arch | caps found | fstat strategy (paths) | tests |'
echo '|---|---|---|---|---|'
printf '%s\n' "$matrix" | sed 1d
{ echo "| emulator | arch | caps found | fstat strategy (paths) | tests |"; echo "|---|---|---|---|---|"; printf "%s\n" "$matrix" | sed 1d; } > "$logdir/matrix.txt"
[ -n "$problems" ] && echo "testbed: check-cross:$problems"
echo "check-cross: $tpass passed, $tfail failed"
[ -z "$problems" ] && [ "$tfail" = 0 ]
