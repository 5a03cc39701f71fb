#!/bin/sh
# tools/proc-cost.sh [BUILD [FLOOR]]: what a process pays for the library, counted where the
# count is exact: user-space instructions (callgrind's total, --trace-children=no) and the
# syscalls (strace -f, by name) of /bin/true, stat FILE, find DIR, python3 -c pass and
# cat FILE, each run these ways:
#   nothing   no preload
#   floor     FLOOR preloaded (bench/empty_preload.c: the library's exports, each straight
#             to the syscall glibc makes, no initializer): what any such preload costs
#   preload   BUILD/lib/libsysshim.so.0 preloaded
#   --always, auto, --never   through BUILD/bin/sysshim-run: the command's own count after
#             the exec, and apart, the wrapper's own up to its execve ("wrapper")
# Every run has the same environment, of the same length (env -i and a fixed list; nothing
# holds a variable as long as LD_PRELOAD instead; the floor's path is as long as the
# library's): ld.so's work grows with it (some 4 instructions a byte).
#
# The gate (PROC_COST_GATE=1, the default; make check-proc-cost): a command that makes no
# fd stat through the exports (read from the floor's profile: its fd stats all go through
# floor_fd_stat or floor_fd_statx) must pay, preloaded and under --always, no more than
# the floor + PROC_COST_SLACK (3000) instructions, and make no syscall the floor run does
# not make (the multisets of names: no name more often than under the floor). Every run
# must print what the command prints alone and end as it ends. The wrapper's own count is
# printed, not gated.
# BUILD: $B, else build; FLOOR: BUILD/bench/floor/libshfloor.so.0, built here (make floor)
# when not named (tests/mutants/run.sh runs it so).
set -eu
b=${1:-${B:-build}} floor=${2:-}
if [ -z "$floor" ]; then
	make -s --no-print-directory B="$b" all floor
	floor=$b/bench/floor/libshfloor.so.0
fi
slack=${PROC_COST_SLACK:-3000} gate=${PROC_COST_GATE:-1}
vg=$(command -v valgrind) && st=$(command -v strace) || { echo "proc-cost: needs valgrind and strace" >&2; exit 2; }
w=$(mktemp -d "${TMPDIR:-/tmp}/sysshim-proc.XXXXXX")
trap 'rm -rf "$w"' EXIT
# The layout sysshim-run finds the library in (its ../lib), and the floor beside it under
# a name of the same length: the same LD_PRELOAD length every way.
mkdir -p "$w/bin" "$w/lib" "$w/flr" "$w/noexec" "$w/tree/a" "$w/tree/b/c"
cp "$b/bin/sysshim-run" "$w/bin/" && cp "$b/lib/libsysshim.so.0" "$w/lib/" && cp "$floor" "$w/flr/"
lib=$w/bin/../lib/libsysshim.so.0 flo=$w/bin/../flr/$(basename "$floor")
[ ${#lib} = ${#flo} ] || { echo "proc-cost: $lib and $flo: not of one length" >&2; exit 2; }
for d in a b b/c; do for f in 1 2 3 4 5; do echo "file $d/$f" > "$w/tree/$d/f$f"; done; done
pad=PAD_PRELOAD=$(echo "$lib" | cut -c2-)
[ ${#pad} = $((${#lib} + 11)) ] || { echo "proc-cost: the pad is not LD_PRELOAD's length" >&2; exit 2; }
base="PATH=/usr/bin:/bin LC_ALL=C HOME=$w PYTHONHASHSEED=0"

# The commands: name and words.
cmds="true stat find python3 cat"
words() {
	case $1 in
	true) echo /bin/true ;;
	# stat prints the access time: cat reads another file.
	stat) echo /usr/bin/stat $w/tree/a/f1 ;;
	find) echo /usr/bin/find $w/tree ;;
	python3) echo /usr/bin/python3 -c pass ;;
	cat) echo /bin/cat $w/tree/a/f2 ;;
	esac
}
ways="nothing floor preload always auto never"
# envof WAY: the variables the command gets, beyond $base.
envof() {
	case $1 in
	nothing) echo "$pad" ;;
	floor) echo "LD_PRELOAD=$flo" ;;
	preload) echo "LD_PRELOAD=$lib" ;;
	*) echo "" ;;
	esac
}
# pre WAY: the words before the command.
pre() {
	case $1 in
	always) echo "$w/bin/sysshim-run --always" ;;
	auto) echo "$w/bin/sysshim-run --auto" ;;
	never) echo "$w/bin/sysshim-run --never" ;;
	*) echo "" ;;
	esac
}

# names FILE [from|upto]: the syscall names of strace's lines, one a line; "upto": the
# wrapper's (before the command's execve), "from": the command's (from its execve on).
names() {
	awk -v part="${2:-all}" '
		{ sub(/^[0-9]+ +/, "") }
		/^(\+\+\+|---)/ || /^<\.\.\. / { next }
		{ n = $0; sub(/\(.*/, "", n) }
		n == "execve" && ex < 2 && (/ = 0$/ || part == "upto") { ex++ }
		part == "upto" && ex >= 2 { exit }
		part == "from" && ex < 2 { next }
		n ~ /^[a-z_0-9]+$/ { print n }' "$1"
}
# extra A B: the names A makes more often than B, as "name+N" words.
extra() {
	sort "$1" | uniq -c | awk '{ print $2, $1 }' > "$1.c"
	sort "$2" | uniq -c | awk '{ print $2, $1 }' > "$2.c"
	awk 'NR == FNR { f[$1] = $2; next } $2 > f[$1] + 0 { printf "%s%s+%d", s, $1, $2 - f[$1]; s = " " }' \
		"$2.c" "$1.c"
}
ir() { sed -n 's/^summary: *//p' "$1"; }

fail=0
printf '%-8s %-6s %-8s %10s %9s %5s  %-30s %s\n' command fdstat way instr over-flr sysc \
	"syscalls beyond the floor's" wrapper
for c in $cmds; do
	set -- $(words $c)
	prog=$1 ne=$w/noexec/$(basename "$1")
	# The wrapper's own count: sysshim-run with the command copied without execute
	# permission, which valgrind refuses to exec as the kernel would, and sysshim-run then
	# exits 126 (its message counted in): the same steps up to the execve, which strace
	# confirms (else the count is marked "?").
	cp "$(readlink -f "$prog")" "$ne" && chmod 644 "$ne"
	for way in $ways; do
		o=$w/$c.$way
		e=$(envof $way) p=$(pre $way)
		# shellcheck disable=SC2086
		env -i $base $e "$st" -f -qq -o "$o.st" $p "$@" > "$o.out" 2>&1 && rc=0 || rc=$?
		echo "exit $rc" >> "$o.out"
		case $way in
		always|auto|never)
			env -i $base "$vg" --tool=callgrind --trace-children=yes --callgrind-out-file="$o.cg.%p" \
				$p "$@" > "$o.vout" 2>/dev/null && rc=0 || rc=$?
			env -i $base "$vg" --tool=callgrind --trace-children=no --callgrind-out-file="$o.wcg" \
				$p "$ne" >/dev/null 2>&1 || true
			env -i $base "$st" -f -qq -o "$o.wst" $p "$ne" >/dev/null 2>&1 || true
			names "$o.st" from > "$o.n"
			names "$o.st" upto > "$o.wn"
			names "$o.wst" upto > "$o.wn2"
			cmp -s "$o.wn" "$o.wn2" && q= || q='?'
			set -- $(ls "$o".cg.* 2>/dev/null)
			[ $# = 1 ] || { echo "proc-cost: $c under $way: $# callgrind files, not one" >&2; fail=1; }
			n=$(ir "$1")
			eval "w_$way=\"\$(ir \"\$o.wcg\")$q instr, \$(wc -l < \"\$o.wn\") sysc\""
			set -- $(words $c) ;;
		*)
			env -i $base $e "$vg" --tool=callgrind --compress-strings=no --callgrind-out-file="$o.cg" \
				"$@" > "$o.vout" 2>/dev/null && rc=0 || rc=$?
			names "$o.st" > "$o.n"
			n=$(ir "$o.cg") ;;
		esac
		echo "exit $rc" >> "$o.vout"
		eval "n_$way=$n"
		# The same output and exit status as the command alone, under strace and callgrind.
		for x in out vout; do
			cmp -s "$w/$c.nothing.$x" "$o.$x" || { echo "FAIL: $c under $way: not what it prints alone:"; \
				diff "$w/$c.nothing.$x" "$o.$x" | head -5; fail=1; }
		done
	done
	grep -qE '^c?fn=floor_fd_stat' "$w/$c.floor.cg" && fd=yes || fd=no
	for way in $ways; do
		o=$w/$c.$way
		eval "n=\$n_$way wcol=\${w_$way:-}"
		over=- x=
		if [ $way != nothing ]; then
			over=$((n - n_floor))
			x=$(extra "$o.n" "$w/$c.floor.n")
		fi
		verdict=
		if [ $gate = 1 ] && [ $fd = no ] && { [ $way = preload ] || [ $way = always ]; }; then
			[ "$over" -le "$slack" ] || verdict="$over instructions over the floor (allowed $slack)"
			[ -z "$x" ] || verdict="${verdict}${verdict:+; }syscalls the floor does not make"
		fi
		printf '%-8s %-6s %-8s %10s %9s %5s  %-30s %s\n' $c $fd $way $n $over $(wc -l < "$o.n") "${x:--}" "$wcol"
		[ -z "$verdict" ] || { echo "  FAIL: $c $way: $verdict"; fail=1; }
	done
	unset w_always w_auto w_never
done
echo "(fdstat: the command makes an fd stat through the exports; instr: user-space instructions,"
echo " of the command after the exec under sysshim-run; over-flr: instr minus the floor's; sysc:"
echo " syscalls; wrapper: sysshim-run's own, up to its execve)"
if [ $gate = 1 ]; then
	if [ $fail = 0 ]; then
		echo "ok: every command that makes no fd stat pays at most the floor + $slack instructions and no syscall of the library's own"
	else
		echo "FAIL: a process pays the library where it gains nothing (check-proc-cost)"
	fi
	exit $fail
fi
