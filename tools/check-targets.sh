#!/bin/sh
# tools/check-targets.sh SCRATCH: every `make X` the documentation names works on its own
# from a clean tree. The targets are read at run time from README.md, CONTRIBUTING.md,
# docs/*.md, kernel-patches/README.md and upstream/*/README.md (backquoted `make ...` and
# code lines starting with make); for each, `make -n X` in a fresh copy of the tree with a fresh
# build directory must resolve its whole prerequisite chain; the short ones (CT_RUN) are
# really run, each in a fresh copy of its own. Last, tools/check-history.sh on that tree.
#
# Environment: CT_REV (the tree: a git revision, default HEAD, or "worktree" for the
# tracked files as they are now; outside a git checkout, the files as they are), CT_RUN
# (targets really run; "install" gets a DESTDIR), CT_FOREIGN (names documented as another
# tree's make: the kernel's, glibc's).
set -u
SCRATCH=${1:?usage: tools/check-targets.sh SCRATCH-DIR}
CT_REV=${CT_REV:-HEAD}
CT_RUN=${CT_RUN:-:default lib install clean}
CT_FOREIGN=${CT_FOREIGN:-tinyconfig olddefconfig bzImage support/others}
DOCS="README.md CONTRIBUTING.md docs/*.md kernel-patches/README.md upstream/*/README.md"

rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
SCRATCH=$(cd "$SCRATCH" && pwd)
PRISTINE=$SCRATCH/tree
mkdir -p "$PRISTINE"
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	# not a git checkout (a release tarball): the files as they are, no build output
	CT_REV="the unpacked tree"
	tar --exclude='./build*' --exclude=./config.mak -cf - . | tar -x -C "$PRISTINE" || exit 1
elif [ "$CT_REV" = worktree ]; then
	git ls-files -z | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf - | tar -x -C "$PRISTINE" || exit 1
else
	git archive "$CT_REV" | tar -x -C "$PRISTINE" || exit 1
fi
echo "check-targets: the tree of $CT_REV in $PRISTINE"

# The make command lines the docs name, one a line.
commands() {
	(cd "$PRISTINE" && for f in $DOCS; do [ -f "$f" ] && cat "$f"; done) |
	awk '{
		line = $0
		while (match(line, /`make( [^`]*)?`/)) {
			print substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
		}
		if ($0 ~ /^[ \t]*(\$ )?make( |$)/) {
			sub(/^[ \t]*(\$ )?/, "")
			print
		}
	}'
}

# The targets of one command line (":default" for none: plain `make`): options and assignments dropped,
# placeholders (<x>, a|b, ..., X) and other trees' makes (-C, -f, O=, subdirs=, t=) skipped.
targets_of() {
	echo "$1" | sed 's/#.*//' | awk -v foreign=" $CT_FOREIGN " '{
		n = 0; skip = 0
		for (i = 2; i <= NF; i++) {
			w = $i
			if (w == "-C" || w == "-f" || w ~ /^-[Cf]./) { skip = 1; break }
			if (w ~ /^-/) { if (w == "-o" || w == "-W" || w == "-I") i++; continue }
			if (w ~ /^(O|subdirs|t)=/) { skip = 1; break }
			if (w ~ /=/) continue
			if (w !~ /^[A-Za-z0-9_.\/+-]+$/ || w ~ /\.\.\./) continue
			if (w ~ /^[A-Z][A-Z0-9_]*$/) continue	# a placeholder: `make X`, `make TARGET`
			if (index(foreign, " " w " ")) { skip = 1; break }
			t[++n] = w
		}
		if (skip) next
		if (!n) print ":default"
		for (k = 1; k <= n; k++) print t[k]
	}'
}

TARGETS=$(commands | while IFS= read -r c; do targets_of "$c"; done | awk '!seen[$0]++')
echo "check-targets: documented targets:" $TARGETS

pass=0 fail=0 failed=
# a fresh tree: hard links for the dry runs (they write only new files), a copy otherwise
fresh() {
	rm -rf "$2"
	if [ "$1" = link ]; then cp -al "$PRISTINE" "$2"; else cp -a "$PRISTINE" "$2"; fi
}
run() {	# run NAME DIR make-arguments...
	name=$1 dir=$2
	shift 2
	if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEFILES make -C "$dir" --no-print-directory \
		B=build-fresh "$@" >"$dir.log" 2>&1 && ! grep -q 'No rule to make target' "$dir.log"; then
		pass=$((pass + 1))
		return 0
	fi
	fail=$((fail + 1))
	failed="$failed $name"
	echo "FAILED: make $* in a fresh tree ($dir.log):"
	grep -E 'No rule|\*\*\*|rror' "$dir.log" | head -5 | sed 's/^/  /'
	return 1
}

for t in $TARGETS; do
	d=$SCRATCH/n-$(echo "$t" | tr '/:' '__')
	fresh link "$d"
	goal=$t
	[ "$t" = :default ] && goal=
	run "-n:$t" "$d" -n $goal && echo "ok: make -n ${goal:-(the default goal)}"
	rm -rf "$d"
done

for t in $CT_RUN; do
	d=$SCRATCH/r-$(echo "$t" | tr '/:' '__')
	fresh copy "$d"
	case $t in
	install)
		run "$t" "$d" -j2 install DESTDIR="$d/dest" &&
			echo "ok: make install DESTDIR=... ($(cd "$d/dest" && find . -type f | wc -l) files)" ;;
	:default)
		run "make" "$d" -j2 && echo "ok: make" ;;
	*)
		run "$t" "$d" -j2 "$t" && echo "ok: make $t" ;;
	esac
	rm -rf "$d"
done

# Dependencies that are true: after a build, touching a private header rebuilds what
# includes it and nothing else (the compilers' dependency files, -MMD -MP).
d=$SCRATCH/deps
fresh copy "$d"
dmake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEFILES make -C "$d" --no-print-directory \
	B=build-fresh "$@"; }
rebuilt() {	# HEADER TARGET: the sources recompiled after HEADER is touched, one a line
	sleep 1
	touch "$d/$1"
	dmake -n "$2" | grep -o ' -c -o [^ ]*' | sed 's/ -c -o build-fresh\/[a-z]*\///; s/\.o$//' | sort
	dmake -j2 "$2" >>"$d.log" 2>&1
}
if dmake -j2 lib build-fresh/tests/check_stat >"$d.log" 2>&1; then
	ok=1
	got=$(rebuilt src/eventfd/eventfd_impl.h lib | tr '\n' ' ')
	want=$(cd "$d" && ls src/eventfd/*.c | sed 's/\.c$//' | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || { ok=0; echo "FAILED: touching src/eventfd/eventfd_impl.h rebuilds: $got (want: $want)"; }
	got=$(rebuilt src/path/guard.h lib | tr '\n' ' ')
	want=$(cd "$d" && grep -lE '^#include "(path/)?guard\.h"' src/*/*.c | sed 's/\.c$//' | sort | tr '\n' ' ')
	[ -n "$want" ] && [ "$got" = "$want" ] || { ok=0
		echo "FAILED: touching src/path/guard.h rebuilds: $got (want the files that include it: $want)"; }
	got=$(rebuilt tests/common/testutil.h build-fresh/tests/check_stat | tr '\n' ' ')
	case $got in *check_stat*common/testutil*) ;; *) ok=0
		echo "FAILED: touching tests/common/testutil.h rebuilds: $got (want check_stat and testutil)" ;; esac
	if [ $ok = 1 ]; then
		pass=$((pass + 1)); echo "ok: a touched private header rebuilds its users, and only them"
	else
		fail=$((fail + 1)); failed="$failed deps"
	fi
else
	fail=$((fail + 1)); failed="$failed deps"; echo "FAILED: the build for the dependency check ($d.log)"
fi
rm -rf "$d"

# The tree says what a thing is, not where it came from: no issue numbers, no commit of this
# repository named, and the subjects of new commits one short line (tools/check-history.sh).
hrev=$CT_REV
case $hrev in worktree|"the unpacked tree") hrev=HEAD ;; esac
if sh tools/check-history.sh "$PRISTINE" "$hrev" >"$SCRATCH/history.log" 2>&1; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); failed="$failed history"
fi
cat "$SCRATCH/history.log"

echo "check-targets: $pass passed, $fail failed${failed:+ (failed:$failed)}"
[ "$fail" = 0 ]
