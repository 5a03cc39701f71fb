#!/bin/sh
# tools/check-doc-names.sh [FILE...]: every name of code and every path the documentation
# writes still exists in the tree. FILE (named from the top of the tree) defaults to README.md,
# CONTRIBUTING.md, docs/*.md and man/*.[1-8], and then `make help`'s text and targets too.
# `make check-doc-names` runs it, and so does `make check-host`; it takes about a second.
#
# What is a name to check, in a Markdown file's backquotes (`...`, fenced blocks aside) and in
# a man page's bold and italic words (.B, .I, .BR and the like, \fB...\fR):
#
#   target  `make X Y`: X and Y are targets of this Makefile (make's own database), but
#           options, assignments and placeholders (X, check-PART, <x>);
#   path    a word with a '/' (or, alone in its quotes, a file name with a known ending:
#           .c .h .sh .mk .md ...) is a file or directory of the tree: from the top, beside
#           the document, or the end of a tree path (`sysshim-run/main.c`); <placeholders>,
#           components in capitals and * match any one name (`src/stat/<call>.c`); what the
#           build makes of P.c or P.in counts (bench/bench_stat), and so does a header of the
#           system or the compiler (`stddef.h`); `build/...` and absolute paths are not judged;
#   call    `name()`, `name(args)`: name is in the tree's code (below), or a name the system's
#           headers define (glibc's, the kernel's: /usr/include, its linux/, asm-generic/ and
#           multiarch folders; `foo` counts when the headers have `__NR_foo`, a system call);
#           a man page's name(N) is a page, looked for in man/ and man/links if it is ours;
#   ident   an identifier alone in its quotes with a '_' in it (`stx_mask`, `TB_EXPECT`,
#           `check_eventfd:edges` as suite:test): the same as a call;
#   ours    anywhere in a span, and anywhere in the text (prose, code blocks): a name of the
#           project's own shape, __ss_*, sysshim_*, SS_*, SYSSHIM_*, is in the tree's code
#           (a trailing * is a prefix); a path that starts with one of the tree's top
#           folders (src/, tests/, ...) is a path as above.
#
# The tree's code: src/ include/ programs/ tests/ tools/ mk/ arch/ bench/ testbed/ debian/
# upstream/ kernel-patches/, the Makefile and configure, every word but those of *.md and
# README files (a document does not vouch for itself) and of tests/mutants/ (broken code).
# What names another project's code or a place outside the tree is listed in
# tools/doc-names.allow, one name or path pattern a line.
#
# Prints each stale name as FILE:LINE and what it was taken for, then the count of names
# checked; exits 1 when one is stale. A renamed function: `sh tools/check-doc-names.sh` lists
# every place a document still names it.
set -u
cd "$(dirname "$0")/.." || exit 1
ALLOW=tools/doc-names.allow
if [ $# -gt 0 ]; then
	DOCS="$*"
else	# (those of them there are: a copy of part of the tree, as check-mutants makes, has no docs/)
	DOCS=$(ls README.md CONTRIBUTING.md docs/*.md man/*.[1-8] 2>/dev/null | tr '\n' ' ')
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

# The tree's files and folders (the top of a git checkout: what git tracks or would; otherwise,
# a release's tree or a copy inside another checkout's build, every file but the build's).
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
	git ls-files -co --exclude-standard >"$tmp/files"
else
	find . -path ./.git -prune -o -path './build*' -prune -o -type f -print |
		sed 's|^\./||' >"$tmp/files"
fi

# Every word of the tree's code.
CODE="src include programs tests tools mk arch bench testbed debian upstream kernel-patches Makefile configure"
(for d in $CODE; do [ -e "$d" ] && echo "$d"; done) | xargs grep -rIohwE '[A-Za-z_][A-Za-z0-9_]*' \
	--exclude='*.md' --exclude='README*' --exclude-dir=corpus --exclude-dir=mutants 2>/dev/null | sort -u >"$tmp/code"

# Every word of the system's headers: the C library's and the kernel's.
ma=$( (${CC:-cc} -print-multiarch || gcc -print-multiarch) 2>/dev/null)
{
	ls /usr/include/*.h 2>/dev/null
	for d in /usr/include/linux /usr/include/asm-generic /usr/include/sys ${ma:+/usr/include/$ma}; do
		[ -d "$d" ] && find "$d" -name '*.h'
	done
} | xargs grep -ohE '\b[A-Za-z_][A-Za-z0-9_]*\b' 2>/dev/null | sort -u >"$tmp/sys"
[ -s "$tmp/sys" ] || echo "check-doc-names: no system headers found: install libc6-dev and linux-libc-dev"

# The headers of the system and the compiler, by path (a bare `stddef.h` is one of them).
CHECK_DOC_CINC=$( (${CC:-cc} -print-file-name=include) 2>/dev/null)
export CHECK_DOC_CINC
ls -d /usr/include/*.h "$CHECK_DOC_CINC"/*.h >"$tmp/syshdr" 2>/dev/null

# The Makefile's targets, from make's own database (no recipe runs: -q; no config.mak read).
make --no-print-directory -rpq CONFIG=/dev/null B=/nonexistent FORCE 2>/dev/null |
	awk '/^# Not a target/ { skip = 1; next }
		/^[^#\t ][^=]*:([^=]|$)/ && !skip { sub(/:.*/, ""); n = split($0, t, " "); for (i = 1; i <= n; i++) print t[i] }
		{ skip = 0 }' | sort -u >"$tmp/targets"

# The allow-list: names and path patterns of other projects and of things outside the tree.
sed 's/#.*//; s/[ \t]*$//; /^$/d' "$ALLOW" >"$tmp/allow" 2>/dev/null || : >"$tmp/allow"

# The spans: FILE<TAB>LINE<TAB>KIND<TAB>TEXT, KIND "q" for a quoted span (backquotes, a man
# page's bold or italic), "t" for a whole line of text (only names of the project's own shape
# and tree paths are taken from it).
for f in $DOCS; do
	[ -f "$f" ] || { echo "check-doc-names: $f: no such file"; exit 1; }
	case $f in
	*.md)
		awk -v F="$f" '
		/^[ \t]*```/ { fence = !fence; print F "\t" NR "\tt\t" $0; next }
		fence { print F "\t" NR "\tt\t" $0; next }
		{
			print F "\t" NR "\tt\t" $0
			line = $0
			while (match(line, /`[^`]+`/)) {
				print F "\t" NR "\tq\t" substr(line, RSTART + 1, RLENGTH - 2)
				line = substr(line, RSTART + RLENGTH)
			}
		}' "$f" ;;
	*)
		awk -v F="$f" '
		function unesc(s) {
			gsub(/\\-/, "-", s); gsub(/\\\(dq/, "\"", s); gsub(/\\e/, "\\", s)
			gsub(/\\&/, "", s); gsub(/\\\(aq/, "\x27", s); gsub(/\\ /, " ", s)
			return s
		}
		# the arguments of a macro line, quotes honoured
		function args(s,   n, q, c, i, cur) {
			n = 0; q = 0; cur = ""
			for (i = 1; i <= length(s); i++) {
				c = substr(s, i, 1)
				if (c == "\"") { q = !q; continue }
				if (c == " " && !q) { if (cur != "") a[++n] = cur; cur = ""; continue }
				cur = cur c
			}
			if (cur != "") a[++n] = cur
			return n
		}
		/^\.\\"/ || /^\.TH / { next }
		{ print F "\t" NR "\tt\t" unesc($0) }
		/^\.(B|I) / { print F "\t" NR "\tq\t" unesc(substr($0, 4)); next }
		/^\.(BR|IR|BI|IB|RB|RI) / {
			m = substr($0, 2, 2); delete a; n = args(substr($0, 5))
			first = (m ~ /^[BI]/) ? 1 : 2
			for (i = first; i <= n; i += 2) {
				w = unesc(a[i])
				# name (N): a page
				if (i < n && a[i + 1] ~ /^\([1-8]\)/) w = w substr(a[i + 1], 1, 3)
				print F "\t" NR "\tq\t" w
			}
			next
		}
		{
			line = $0
			while (match(line, /\\f[BI][^\\]*\\f[RP]/)) {
				print F "\t" NR "\tq\t" unesc(substr(line, RSTART + 3, RLENGTH - 6))
				line = substr(line, RSTART + RLENGTH)
			}
		}' "$f" ;;
	esac
done >"$tmp/spans"
# and `make help` (mk/docs.mk): its text as a document's, each "make X" a target
if [ -z "${1:-}" ] && [ -f mk/docs.mk ]; then
	make --no-print-directory -s CONFIG=/dev/null help 2>/dev/null |
		awk '{ print "make help\t" NR "\tt\t" $0 }
			/^  make [a-z]/ { print "make help\t" NR "\tq\tmake " $2 }' >>"$tmp/spans"
fi

awk -F '\t' -v tmp="$tmp" '
function load(file, arr,   l) { while ((getline l < file) > 0) arr[l] = 1; close(file) }
BEGIN {
	load(tmp "/code", code); load(tmp "/sys", sys); load(tmp "/targets", target)
	while ((getline l < (tmp "/files")) > 0) {
		files[l] = 1; nf++; flist[nf] = l
		d = l
		while (sub(/\/[^\/]*$/, "", d)) if (!(d in dirs)) { dirs[d] = 1; nf++; flist[nf] = d }
	}
	while ((getline l < "man/links") > 0) if (l !~ /^#/) { split(l, lk, " "); alias[lk[2]] = 1 }
	while ((getline l < (tmp "/allow")) > 0) { na++; allow[na] = glob2re(l) }
	for (t in target) if (index(t, "%")) { np++; pat[np] = glob2re(t, "%") }
	cinc = ENVIRON["CHECK_DOC_CINC"]
	while ((getline l < (tmp "/syshdr")) > 0) syshdr[l] = 1
	TOP = "^(src|include|programs|tests|tools|mk|arch|bench|testbed|debian|upstream|kernel-patches|docs|man)/"
	EXT = "\\.(c|h|S|sh|mk|md|map|def|in|py|supp|patch|pc|[137])$"
}
# a shell glob (*, ?, <placeholder>; or "%" for a make pattern) as an anchored regex
function glob2re(g, star,   r, i, c) {
	if (star == "") star = "*"
	r = ""
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == star) r = r ".*"
		else if (c == "?") r = r "."
		else if (c == "<") { j = index(substr(g, i), ">"); if (j) { r = r "[^/]+"; i += j - 1 } else r = r "<" }
		else if (c ~ /[.+^$(){}|\[\]\\]/) r = r "\\" c
		else r = r c
	}
	return "^" r "$"
}
function allowed(w,   i) { for (i = 1; i <= na; i++) if (w ~ allow[i]) return 1; return 0 }
function is_target(w,   i) {
	if (w in target) return 1
	for (i = 1; i <= np; i++) if (w ~ pat[i]) return 1
	return 0
}
# a path of the tree: from the top, beside the document, or the end of a tree path
function is_path(p, doc,   re, i, d, glob, n, c, k) {
	sub(/^\.\//, "", p); sub(/\/+$/, "", p)
	if (p == "" || p == ".") return 1
	# what the build makes of a source beside it: bench/bench_stat, sysshim.pc
	if (((p ".c") in files) || ((p ".in") in files)) return 1
	# a header of the system or the compiler: stddef.h
	if (p ~ /^[A-Za-z0-9_]+\.h$/ && (("/usr/include/" p) in syshdr || (cinc "/" p) in syshdr)) return 1
	# a component in capitals is a placeholder: tests/fuzz/corpus/TARGET/NAME
	n = split(p, c, "/"); p = ""
	for (k = 1; k <= n; k++) p = p (k > 1 ? "/" : "") (c[k] ~ /^[A-Z][A-Z0-9_]*$/ ? "<" c[k] ">" : c[k])
	glob = (p ~ /[*?<]/)
	if (!glob) {
		if ((p in files) || (p in dirs)) return 1
		d = doc; if (sub(/\/[^\/]*$/, "", d) && ((d "/" p) in files || (d "/" p) in dirs)) return 1
		for (i = 1; i <= nf; i++) if (length(flist[i]) > length(p) && \
			substr(flist[i], length(flist[i]) - length(p)) == "/" p) return 1
		return 0
	}
	re = glob2re(p); sub(/^\^/, "", re)
	for (i = 1; i <= nf; i++) if (flist[i] ~ ("^" re) || flist[i] ~ ("/" re)) return 1
	return 0
}
function is_name(w,   pre, k) {
	if (w ~ /\*$/) {	# a prefix: sysshim_*, SS_FN_*
		pre = substr(w, 1, length(w) - 1)
		for (k in code) if (index(k, pre) == 1) return 1
		return 0
	}
	return (w in code)
}
function is_sysname(w) { return (w in sys) || (("__NR_" w) in sys) }
function stale(kind, w) {
	key = $1 SUBSEP $2 SUBSEP w
	if (key in seen) return
	seen[key] = 1
	bad++
	printf "stale: %s:%s: %s `%s`\n", $1, $2, kind, w
}
function check(kind, w,   ok) {
	key = $1 SUBSEP $2 SUBSEP kind SUBSEP w
	if (key in done) return
	done[key] = 1
	checked++; names[w] = 1
	if (allowed(w)) return
	# a path in one of the top folders of the tree that this copy of it lacks (check-mutants
	# copies no docs/) is not judged
	if (kind == "path" && w ~ TOP) { top = w; sub(/\/.*/, "", top); if (!(top in dirs)) { checked--; return } }
	if (kind == "target") ok = is_target(w)
	else if (kind == "path") ok = is_path(w, $1)
	else if (kind == "ours") ok = is_name(w)
	else ok = is_name(w) || is_sysname(w)
	if (!ok) stale(kind, w)
}
# a word of text as a path, or "" when it is none: trailing punctuation, a :LINE or #anchor off
function pathword(w) {
	if (w ~ /"/) return ""	# a string of a program ("dir/f"), not a file of the tree
	gsub(/^[("\x27]+|[)"\x27,;.:]+$/, "", w)
	sub(/:[0-9]+$/, "", w); sub(/#.*$/, "", w)
	if (w ~ /^[\/~$-]/ || w ~ /[=|\\"\x27&\[\]{}]|:\/\/|\.\.|\/\// || w !~ /[A-Za-z]/) return ""
	if (w ~ /^(build|\$\(B\))\//) return ""	# what a build writes
	return w
}
# the names of the project'"'"'s own shape and the tree paths of a piece of text
function ours(s,   w, rest, n, i, ws) {
	rest = s
	# (a name inside a file name, sysshim_0.1.0_amd64.deb, is none)
	while (match(rest, /(^|[^A-Za-z0-9_\/.-])(__ss_|sysshim_|SS_|SYSSHIM_)[A-Za-z0-9_]*\*?/)) {
		w = substr(rest, RSTART, RLENGTH); sub(/^[^A-Za-z0-9_]/, "", w)
		rest = substr(rest, RSTART + RLENGTH)
		if (w ~ /^(sysshim_|SS_|SYSSHIM_)\*?$/) continue	# the prefix itself
		if (rest ~ /^[.-][0-9A-Za-z]/) continue
		# sysshim_fstat(3): a page of man/ or one of its aliases, or a call
		if (rest ~ /^\([1-8]\)/ && (("man/" w "." substr(rest, 2, 1)) in files || \
			(w "." substr(rest, 2, 1)) in alias)) continue
		check("ours", w)
	}
	n = split(s, ws, /[ \t]+/)
	for (i = 1; i <= n; i++) {
		w = pathword(ws[i])
		if (w != "" && w ~ TOP && w !~ /\.\.\// ) check("path", w)
	}
}
$3 == "t" { ours($4); next }
{
	s = $4; gsub(/^[ \t]+|[ \t]+$/, "", s)
	# make X Y
	if (s ~ /^(time )?make( |$)/) {
		n = split(s, ws, / +/)
		for (i = (ws[1] == "time") ? 3 : 2; i <= n; i++) {
			w = ws[i]
			if (w == "-C" || w == "-f") break
			# options, assignments, placeholders (X, check-PART, <x>, a|b, ...)
			if (w ~ /^-|=|\.\.\.|[<>|]/ || w ~ /[A-Z][A-Z]/ || w ~ /^[A-Z]$/) continue
			check("target", w)
		}
		next
	}
	# a page of this project: sysshim_fstat(3), sysshim-run(1)
	# (in a man page, name(N) is always a page; the pages of other projects are not looked for)
	if (s ~ /^[A-Za-z0-9_.-]+\([1-8]\)$/ && $1 ~ /^man\//) {
		if (s !~ /^sysshim/) next
		p = s; sub(/\(/, ".", p); sub(/\)$/, "", p)
		if (!(("man/" p) in files) && !(p in alias)) check("page", s)
		next
	}
	ours(s)
	# name(...): a call, not a method of another language (os.fstat(), fs.statSync())
	rest = s
	while (match(rest, /(^|[^A-Za-z0-9_.:>])[A-Za-z_][A-Za-z0-9_]*\(/)) {
		w = substr(rest, RSTART, RLENGTH - 1); sub(/^[^A-Za-z_]/, "", w)
		rest = substr(rest, RSTART + RLENGTH)
		if (w !~ /^(__ss_|sysshim_|SS_|SYSSHIM_)/) check("call", w)
	}
	# an identifier alone: stx_mask, TB_EXPECT, suite:test
	if (s ~ /^[A-Za-z_][A-Za-z0-9_]*(:[A-Za-z_][A-Za-z0-9_]*)?(\(\))?$/) {
		sub(/\(\)$/, "", s)
		n = split(s, ws, ":")
		for (i = 1; i <= n; i++)
			if (ws[i] ~ /_/ && ws[i] !~ /^(__ss_|sysshim_|SS_|SYSSHIM_)/) check("ident", ws[i])
		next
	}
	# paths: a word with a "/", or alone, a file name with a known ending
	n = split(s, ws, / +/)
	for (i = 1; i <= n; i++) {
		w = pathword(ws[i])
		if (w == "" || w ~ /\.so(\.|$)/) continue
		if (w ~ /\// || (n == 1 && w ~ EXT)) if (w !~ TOP) check("path", w)
	}
}
END {
	nn = 0; for (w in names) nn++
	printf "check-doc-names: %d names checked (%d distinct) in the docs, %d stale\n", checked, nn, bad
	exit bad > 0
}' "$tmp/spans"
