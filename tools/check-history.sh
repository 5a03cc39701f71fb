#!/bin/sh
# tools/check-history.sh [TREE [REV]]: the tree says what a thing is, not where it came from
# (CONTRIBUTING.md), and new commits keep the house's subject line. Run by
# tools/check-targets.sh on the tree it checks; alone, TREE is this checkout (default .) and
# REV the commit whose history is read (default HEAD).
#
#   issues     no issue numbers in README.md, docs/, mk/ and tests/ (a reader cannot see the
#              tracker);
#   commits    no word of TREE's tracked text (the fuzz corpus aside) that names a commit of
#              this repository: every word of 7 to 40 hex digits is asked of git itself
#              (git cat-file, any branch's commit counts), so another project's commit id
#              (glibc's, Linux's) passes and a short id of ours does not;
#   subjects   the subject of every commit from the one that added CONTRIBUTING.md on, its
#              descendants in REV's history (merges included), is one line of at most 72
#              characters. Older commits are not held to it.
#
# Outside a git checkout (a release tarball) there is no history to ask: the last two are
# skipped, and said so. Prints one "ok:" or "FAILED:" line a check and exits 1 on a failure.
set -u
TREE=${1:-.}
REV=${2:-HEAD}
MAX_SUBJECT=72
fail=0

hits=$(cd "$TREE" && grep -rniE '\bissues? [0-9]+\b' README.md docs mk tests 2>/dev/null |
	grep -v '^tests/fuzz/corpus/' | head -10)
if [ -z "$hits" ]; then
	echo "ok: no issue numbers in README.md, docs/, mk/, tests/"
else
	fail=1
	echo "FAILED: issue numbers in README.md, docs/, mk/ or tests/:"
	echo "$hits" | sed 's/^/  /'
fi

if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "ok: not a git checkout: no commit history to hold the tree's hex words and the subjects to (skipped)"
	exit $fail
fi

# The text to read: in a checkout the files git tracks or would (not .git, not a build);
# in a copy such as check-targets' (git archive: nothing else is in it) every file. The
# fuzz corpus is binary inputs.
words=$(mktemp) || exit 1
files=$(mktemp) || exit 1
trap 'rm -f "$words" "$files"' EXIT
top=$(cd "$TREE" && git rev-parse --show-toplevel 2>/dev/null)
if [ -n "$top" ] && [ "$top" = "$(cd "$TREE" && pwd -P)" ]; then
	(cd "$TREE" && git ls-files -z -co --exclude-standard) | tr '\0' '\n' |
		grep -v '^tests/fuzz/corpus/' >"$files"
else
	(cd "$TREE" && find . -path ./.git -prune -o -path ./tests/fuzz/corpus -prune -o \
		-type f -print | sed 's|^\./||') >"$files"
fi
# Every hex word once, then one git cat-file for all of them.
(cd "$TREE" && tr '\n' '\0' <"$files" | xargs -0 grep -IohwiE '[0-9a-f]{7,40}' 2>/dev/null) |
	tr 'A-F' 'a-f' | sort -u >"$words"
found=$(sed 's/$/^{commit}/' "$words" |
	git cat-file --batch-check='%(objectname) %(objecttype)' 2>/dev/null |
	paste -d ' ' "$words" - | awk '$3 == "commit" { print $1 }')
if [ -z "$found" ]; then
	echo "ok: no commit of this repository named in the tree ($(wc -l <"$words") hex words asked of git)"
else
	fail=1
	echo "FAILED: words that name a commit of this repository (say what the tree or the fix was instead):"
	for w in $found; do
		(cd "$TREE" && tr '\n' '\0' <"$files" | xargs -0 grep -nIwi "$w" | head -3) | sed 's/^/  /'
		git log -1 --format='    is the commit %h %s' "$w" 2>/dev/null | cut -c1-110
	done
fi

# The commit that wrote the habit down; none in REV's history: nothing to hold to it yet.
since=$(git log --diff-filter=A --format=%H "$REV" -- CONTRIBUTING.md 2>/dev/null | tail -1)
if [ -z "$since" ]; then
	echo "ok: no commit adds CONTRIBUTING.md in $REV's history: no subject to check"
else
	long=$( { git log -1 --format='%s' "$since"; git log --ancestry-path --format='%s' "$since..$REV"; } |
		awk -v max=$MAX_SUBJECT 'length($0) > max { print length($0) ": " $0 }')
	n=$(git rev-list --count --ancestry-path "$since..$REV")
	if [ -z "$long" ]; then
		echo "ok: the subject of every commit from the one that added CONTRIBUTING.md on" \
			"($((n + 1))) is at most $MAX_SUBJECT characters"
	else
		fail=1
		echo "FAILED: commit subjects longer than $MAX_SUBJECT characters (the why goes in the body):"
		echo "$long" | cut -c1-120 | sed 's/^/  /'
	fi
fi
exit $fail
