#!/bin/sh
# tests/compat.sh: sysshim beside other tools. A program must end as it ends without the library,
# whatever else is loaded into it and whatever sandbox it runs in: each case runs the
# same command without sysshim (the oracle) and with sysshim added each way a user adds
# it, and compares standard output, standard error and the exit status byte for byte.
#   ways     run (sysshim-run --always), auto (sysshim-run), first and last (LD_PRELOAD
#            before and after what it holds, ':'), space (before it, ' '), ldso (ld.so
#            --preload), and a program with libsysshim.a linked in (tests/compat/way.sh)
#   with     the Debian packages that interpose the stat family: fakeroot's two
#            libraries, pseudo, fakechroot, faketime, umockdev, checkinstall's
#            installwatch, each with sysshim inside its wrapper and around it; the
#            sanitizers (AddressSanitizer with gcc and clang, ThreadSanitizer,
#            LeakSanitizer, UBSan); seccomp filters that kill or trap, installed before
#            exec and by the program itself once it has started (libseccomp)
# (sysshim-run's own part, where it puts the library and what it opens, is tests/run.sh's.)
# Faked owners are read as an unprivileged user (setpriv to nobody where this runs as
# root: root's own chown is real). The same script runs on the host (make check-host)
# and in the Debian 12 guests on Linux 6.1 and 5.10 (make check-compat), where
# sysshim-run's auto mode preloads. Prints a TABLE line per combination (case | row |
# way | what it printed) and "compat: N passed, N failed".
#
# Environment: B (the build), RUN, LIB, PROBE (sysshim-run, libsysshim.so.0,
# sysshim-probe), HELP (the helper programs, built from tests/compat/*.c where missing),
# COMPAT_ONLY=group,group (interposers, sanitizers, seccomp).
B=${B:-build}
CC=${CC:-cc}
top=$(pwd)
here=$(cd "$(dirname "$0")" && pwd)
RUN=${RUN:-$top/$B/bin/sysshim-run}
LIB=${LIB:-$top/$B/lib/libsysshim.so.0}
PROBE=${PROBE:-$top/$B/bin/sysshim-probe}
HELP=${HELP:-$top/$B/tests/compat}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL $1"; shift; for l; do printf '       %s\n' "$l"; done; }
fails() { bad "$@"; return 1; } # bad, as a condition that is false
finish() { echo "compat: $pass passed, $fail failed"; exit $((fail != 0)); }
for f in "$RUN" "$LIB"; do
	[ -e "$f" ] || { bad "$f is not built (make all)"; finish; }
done
tmp=$(mktemp -d /tmp/sysshim-compat.XXXXXX)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
want() { case ",${COMPAT_ONLY:-all}," in *",$1,"* | *,all,*) return 0 ;; esac; return 1; }
have() { command -v "$1" >/dev/null 2>&1; }
# need CASE TOOL: TOOL is installed, or CASE fails (a case is never skipped for a missing tool).
need() { have "$2" || fails "$1: $2 is not installed (make deps-check installs it)"; }

# ---- the helpers: built on the host (the guests get them built)
helper() { # OUT SRC [CFLAGS...]: built when missing or older than its source
	out=$1 src=$2
	shift 2
	[ -x "$out" ] && { [ ! -e "$src" ] || [ ! "$src" -nt "$out" ]; } && return 0
	[ -e "$src" ] || return 1
	$CC -O1 -g -Wall -o "$out" "$src" "$@" 2>"$tmp/cc.err" || { cat "$tmp/cc.err" >&2; return 1; }
}
mkdir -p "$HELP" 2>/dev/null
C=$here/compat
helper "$HELP/filter" "$C/filter.c" -lseccomp && helper "$HELP/late" "$C/late.c" -lseccomp &&
	helper "$HELP/showstat" "$C/showstat.c" && helper "$HELP/dupenv" "$C/dupenv.c" &&
	helper "$HELP/callsys" "$C/callsys.c" &&
	helper "$HELP/legacy" "$here/preload/legacy.c" ||
	{ bad "the helper programs (tests/compat/*.c) do not build"; finish; }
[ -e "$top/$B/lib/libsysshim.a" ] &&
	helper "$HELP/showstat-linked" "$C/showstat.c" "$top/$B/lib/libsysshim.a"
for s in address thread leak undefined; do
	helper "$HELP/showstat-$s" "$C/showstat.c" -fsanitize=$s
done
if have clang-19; then
	rt=$(dirname "$(clang-19 -print-file-name=libclang_rt.asan-x86_64.so)")
	CC=clang-19 helper "$HELP/showstat-clang-address" "$C/showstat.c" -fsanitize=address \
		-shared-libsan -Wl,-rpath,"$rt"
fi

[ -n "${COMPAT_BUILD_ONLY:-}" ] && exit 0

# ---- the ways (tests/compat/way.sh)
CO_LDSO=$(sed -n 's|^.* \(/[^ ]*/ld-linux[^ ]*\.so\.[0-9]\)$|\1|p' /proc/self/maps | head -1)
export CO_RUN=$RUN CO_LIB=$LIB CO_LDSO
WAY=$C/way.sh
WAYS="run auto first last space ldso"

# as_user CMD...: as nobody where this runs as root.
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

# run_way NAME CMD...: CMD with the word WAY replaced by way.sh NAME, WAYNAME by NAME.
run_way() {
	w=$1
	shift
	set -- "$@" END
	while [ "$1" != END ]; do
		a=$1
		shift
		case $a in
		WAY) set -- "$@" "$WAY" "$w" ;;
		WAYNAME) set -- "$@" "$w" ;;
		*) set -- "$@" "$a" ;;
		esac
	done
	shift
	"$@"
}

# same CASE ROW WAYS -- CMD...: CMD run with each way of WAYS and with none; each must
# print and end as none does. works CASE ROW WAYS -- CMD...: the same, for a scenario
# that ends with 0 without sysshim, or it compares nothing (an interposer's; a filter's
# case may die alone, and must then die with sysshim as it does). rescued ORACLE CASE
# ROW WAYS -- CMD...: the same as same against the function ORACLE instead, for a
# sandbox that stops a call of the program's own, where sysshim answers from a call the
# filter lets through (sysshim(7), SANDBOXES).
same() {
	oracle= lives=
	compare "$@"
}
works() {
	oracle= lives=1
	compare "$@"
}
rescued() {
	oracle=$1 lives=
	shift
	compare "$@"
}
compare() {
	c=$1 row=$2 ways=$3
	shift 4
	if [ -n "$oracle" ]; then $oracle; else run_way none "$@"; fi >"$tmp/none.out" 2>"$tmp/none.err"
	echo "exit $?" >>"$tmp/none.out"
	if [ -n "$lives" ] && [ "$(tail -n 1 "$tmp/none.out")" != "exit 0" ]; then
		bad "$c: $row: the command fails without sysshim too, so it shows nothing" \
			"$(tail -n 3 "$tmp/none.out")" "$(head -n 3 "$tmp/none.err")"
		return
	fi
	for w in $ways; do
		run_way $w "$@" >"$tmp/$w.out" 2>"$tmp/$w.err"
		echo "exit $?" >>"$tmp/$w.out"
		what=$(tr '\n' ' ' <"$tmp/$w.out" | cut -c1-70)
		if cmp -s "$tmp/none.out" "$tmp/$w.out" && cmp -s "$tmp/none.err" "$tmp/$w.err"; then
			ok "$c: $row: $w"
			echo "TABLE $c | $row | $w | ${oracle:+as unfiltered: }same | $what"
		else
			bad "$c: $row: $w is not what the command without sysshim does" \
				"$(diff "$tmp/none.out" "$tmp/$w.out" | head -6)" \
				"$(diff "$tmp/none.err" "$tmp/$w.err" | head -4)"
			echo "TABLE $c | $row | $w | DIFFERS | $what"
		fi
	done
}

decided=$("$RUN" -v --auto true 2>&1)
echo "-- $(uname -r): $(echo "$decided" | cut -c1-150)"
# Where sysshim-run's auto mode steps aside, it adds nothing: no rescue to expect from it.
AUTO=auto
case $decided in "sysshim-run: preloading"*) ;; *) AUTO= ;; esac
wd=$tmp/w
mkdir -p "$wd" && chmod 777 "$wd"

# ---- other interposers: a scenario inside each wrapper (sysshim added inside it), and
# the wrapper with sysshim around it
if want interposers; then
	echo "-- other interposers, as $(as_user id -un)"
	OWN=$C/owners.sh
	for fr in sysv tcp; do
		need fakeroot-$fr fakeroot-$fr || continue
		works fakeroot-$fr inside "$WAYS" -- as_user fakeroot-$fr sh "$OWN" WAYNAME "$wd" "$HELP"
		works fakeroot-$fr around "run first last" -- as_user WAY fakeroot-$fr sh "$OWN" none "$wd" "$HELP"
	done
	if need pseudo pseudo; then
		mkdir -p "$wd/pseudo" && chmod 777 "$wd/pseudo"
		export PSEUDO_PREFIX=/usr PSEUDO_LOCALSTATEDIR=$wd/pseudo
		works pseudo inside "$WAYS" -- as_user pseudo sh "$OWN" WAYNAME "$wd" "$HELP"
		works pseudo around "run first last" -- as_user WAY pseudo sh "$OWN" none "$wd" "$HELP"
		unset PSEUDO_PREFIX PSEUDO_LOCALSTATEDIR
	fi
	if need fakechroot fakechroot; then
		mkdir -p "$wd/root/etc" && echo inside >"$wd/root/etc/hostname" &&
			ln -sf hostname "$wd/root/etc/hn"
		# The ways and the helpers are reached from inside the fake root by their paths.
		export FAKECHROOT_EXCLUDE_PATH=/usr:/lib:/lib64:/bin:/sbin:/proc:/dev:/sys:/tmp:/opt:$here:$HELP:$(dirname "$RUN"):$(dirname "$LIB")
		works fakechroot inside "$WAYS" -- as_user fakechroot chroot "$wd/root" WAY \
			"$HELP/showstat" /etc/hostname /etc/hn
		works fakechroot around "run first last" -- as_user WAY fakechroot chroot "$wd/root" \
			"$HELP/showstat" /etc/hostname /etc/hn
		unset FAKECHROOT_EXCLUDE_PATH
	fi
	if need faketime faketime; then
		# A frozen clock (-f), and a file of a known time: both ends print the same.
		T='2001-02-03 04:05:06'
		touch -d @1000000000 "$wd/g"
		works faketime inside "$WAYS" -- faketime -f "$T" sh -c \
			'cd "$1" && "$2" "$3" stat -c "%n %Y %s" g && "$2" "$3" date -r g +%s &&
			"$2" "$3" date +%s' - "$wd" "$WAY" WAYNAME
		works faketime around "run first last" -- WAY faketime -f "$T" sh -c \
			'cd "$1" && stat -c "%n %Y %s" g && date -r g +%s && date +%s' - "$wd"
	fi
	printf 'P: /devices/company\nN: company\nE: SUBSYSTEM=company\nA: idVendor=0815\n' \
		>"$tmp/dev.umockdev"
	# umockdev's testbed needs pseudo-terminals (/dev/pts) to make its device nodes.
	if need umockdev umockdev-run && { umockdev-run -d "$tmp/dev.umockdev" -- true >/dev/null 2>"$tmp/um.err" ||
		fails "umockdev: its testbed does not start here (no /dev/pts?)" "$(head -n 3 "$tmp/um.err")"; }; then
		works umockdev inside "$WAYS" -- umockdev-run -d "$tmp/dev.umockdev" -- WAY \
			"$HELP/showstat" /sys/devices/company/idVendor /sys/devices/company
		works umockdev around "run first last" -- WAY umockdev-run -d "$tmp/dev.umockdev" -- \
			"$HELP/showstat" /sys/devices/company/idVendor /sys/devices/company
	fi
	# syscall() and prctl() go on to their next definition: uid_wrapper's syscall()
	# fakes the uid; the C library's answers as it does.
	works syscall-prctl plain "$WAYS" -- WAY "$HELP/callsys"
	uw=$(ls /usr/lib/*/libuid_wrapper.so 2>/dev/null | head -1)
	if [ -n "$uw" ] || fails "uid_wrapper: libuid_wrapper.so is not installed (make deps-check installs it)"; then
		works uid_wrapper inside "$WAYS" -- as_user env UID_WRAPPER=1 UID_WRAPPER_ROOT=1 LD_PRELOAD="$uw" \
			WAY "$HELP/callsys"
	fi
	# What the library says it does there (sysshim-probe, linked with libsysshim.a).
	if { [ -x "$PROBE" ] || fails "sysshim-probe: $PROBE is not built (make all)"; } && need sysshim-probe fakeroot; then
		fakeroot "$PROBE" --json >"$tmp/pj" 2>&1
		grep -q '"forwarded": {"fstat": "[^"]*libfakeroot[^"]*", "fstat64"' "$tmp/pj" &&
			grep -q '"statx": "[^"]*libfakeroot' "$tmp/pj" &&
			ok "sysshim-probe under fakeroot: every call forwarded to libfakeroot" ||
			bad "sysshim-probe under fakeroot" "$(grep -o '"interposers[^]]*' "$tmp/pj")"
		"$PROBE" --json | grep -q '"forwarded": {}' && ok "sysshim-probe alone: no call forwarded" ||
			bad "sysshim-probe alone forwards calls" "$("$PROBE" --json | grep -o '"interposers[^]]*')"
	fi
	if need installwatch installwatch; then
		mkdir -p "$wd/iw"
		works installwatch inside "$WAYS" -- installwatch -r "$wd/iw" -o "$wd/iw.log" WAY \
			"$HELP/legacy" /etc/hostname
	fi
fi

# ---- sanitizers: their programs run with sysshim as they run alone; AddressSanitizer
# still finds a stat that writes past its buffer
if want sanitizers; then
	echo "-- sanitizers"
	# The sanitizers whose program runs here without sysshim: gcc's must; clang's is
	# skipped, and says so, where clang-19 and its runtime are not installed (the guests).
	san=
	for s in address clang-address thread leak undefined; do
		p=$HELP/showstat-$s
		if [ -x "$p" ] && "$p" / >/dev/null 2>"$tmp/san.err"; then
			san="$san $s"
		elif [ $s = clang-address ]; then
			echo "  skip sanitizer-$s: $(if [ -x "$p" ]; then head -n 1 "$tmp/san.err"; else echo "no clang-19 here"; fi)"
		else
			bad "sanitizer-$s: its program does not run without sysshim" "$(head -n 3 "$tmp/san.err" 2>/dev/null)"
		fi
	done
	# AddressSanitizer's runtime aborts where a library comes before it in the loader's
	# list: the library is left out of LD_PRELOAD by a process it is in (shell) and by
	# sysshim-run; LD_PRELOAD set by hand in front of it is the one case left, where
	# ASan's own switch verify_asan_link_order=0 lets it run (man/sysshim.7).
	for s in $san; do
		case $s in *address) w="run auto shell" ;; *) w="$WAYS shell" ;; esac
		same sanitizer-$s program "$w" -- WAY "$HELP/showstat-$s" / /etc/hostname "$wd"
	done
	for s in $san; do
		case $s in *address) ;; *) continue ;; esac
		same sanitizer-$s overflow "run auto shell" -- sh -c \
			'"$@" -o 2>&1 | sed -n "s/^.*\(ERROR: AddressSanitizer: [a-z-]*\).*$/\1/p; s/^\(WRITE of size [0-9]*\).*/\1/p"' \
			- WAY "$HELP/showstat-$s"
		ASAN_OPTIONS=verify_asan_link_order=0 same sanitizer-$s by-hand "first last space ldso" -- \
			WAY "$HELP/showstat-$s" / /etc/hostname "$wd"
	done
fi

# ---- seccomp: filters that kill, installed before exec and by the program itself
if want seccomp; then
	echo "-- seccomp filters"
	echo hello >"$wd/in"
	mkdir -p "$wd/tree/a" && echo x >"$wd/tree/a/b"
	filtered() { # ACTION SYSCALL ROW CMD...
		fa=$1 fs=$2 row=$3
		shift 3
		same "filter-$fa-$fs" "$row" "run auto first last" -- "$HELP/filter" $fa $fs WAY "$@"
	}
	for act in kill trap; do
		for sc in fstat statx; do
			filtered $act $sc cat cat "$wd/in"
			filtered $act $sc python3 python3 -c "print(open('$wd/in').read())"
			filtered $act $sc find find "$wd/tree"
			filtered $act $sc tar tar cf - -C "$wd" tree
			filtered $act $sc cp-a sh -c 'rm -rf "$1/c" && cp -a "$1/tree" "$1/c" && ls -lR "$1/c"' - "$wd"
			filtered $act $sc sha256sum sha256sum "$wd/in"
			filtered $act $sc du du -a "$wd/tree"
			filtered $act $sc ls ls -l "$wd/in"
			filtered $act $sc stat stat -c %s "$wd/in"
		done
	done
	# glibc makes no fstat syscall: a filter on it changes nothing there. One on statx or
	# newfstatat stops the program's own calls; sysshim answers them through another.
	unfiltered_late() { "$HELP/late" none none "$wd/in"; }
	for act in kill trap eperm; do
		same "late-$act-fstat" late "run auto first last" -- WAY "$HELP/late" $act fstat "$wd/in"
		for sc in statx newfstatat; do
			rescued unfiltered_late "late-$act-$sc" late "run $AUTO first last" -- \
				WAY "$HELP/late" $act $sc "$wd/in"
		done
	done
	# What the library knows there: a filter from before exec cannot be read (every call
	# to the C library); SYSSHIM_SECCOMP=child has throwaway children try the calls.
	if [ -x "$PROBE" ] || fails "sysshim-probe: $PROBE is not built (make all)"; then
		"$HELP/filter" eperm statx "$PROBE" --json >"$tmp/pj" 2>&1
		grep -q '"sandbox": "unread", "stopped": \["fstat", "newfstatat", "statx", "io_uring", "membarrier"\]' "$tmp/pj" &&
			grep -q '"stat": "[^"]*libc.so' "$tmp/pj" &&
			ok "sysshim-probe under a filter from before exec: unread, every call to the C library" ||
			bad "sysshim-probe under a filter from before exec" "$(grep -o '"interposers.*' "$tmp/pj" | cut -c1-300)"
		"$HELP/filter" eperm statx env SYSSHIM_SECCOMP=child "$PROBE" --json >"$tmp/pj" 2>&1
		grep -q '"sandbox": "read", "stopped": \[\], "filters_read": 0, "tried_in_child": true' "$tmp/pj" &&
			grep -q '"fstat": "fstat"' "$tmp/pj" && grep -q '"statx": "emulated' "$tmp/pj" &&
			ok "  with SYSSHIM_SECCOMP=child: tried, the fstat fast path, statx emulated (EPERM)" ||
			bad "  with SYSSHIM_SECCOMP=child" "$(cut -c1-400 "$tmp/pj")"
		"$HELP/filter" kill fstat env SYSSHIM_SECCOMP=child "$PROBE" --json >"$tmp/pj" 2>&1
		grep -q '"stopped": \["fstat"\]' "$tmp/pj" && ! grep -q '"fstat": "fstat"' "$tmp/pj" &&
			ok "  a filter that kills fstat, tried in a child: fstat not made" ||
			bad "  a filter that kills fstat, tried in a child" "$(cut -c1-400 "$tmp/pj")"
	fi
	# statx refused with EPERM from the start (an old container profile): ls and stat
	# fail alone, and work with sysshim, which answers through the C library's fstatat.
	unfiltered_ls() { ls -l "$wd/in"; stat -c '%n %s %F' "$wd/in"; }
	rescued unfiltered_ls filter-eperm-statx ls,stat "run auto first last" -- \
		"$HELP/filter" eperm statx sh -c '"$@" ls -l "$0"; "$@" stat -c "%n %s %F" "$0"' "$wd/in" WAY
fi

finish
