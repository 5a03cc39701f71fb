#!/bin/sh
# testbed/bench-real/mkrootfs.sh DIR PKG...
#
# A root file system of real Debian 12 programs for make bench-real: mmdebstrap
# --variant=minbase bookworm with PKG... from the system's own apt mirror (the first
# bookworm source in /etc/apt/sources.list{,.d}; nothing hard-coded), packed once as an
# uncompressed cpio (DIR/root.cpio, the kernel's initramfs format). The guest needs no
# block driver: Debian's kernel unpacks the cpio into its tmpfs root.
# Docs, man pages and locales are left out (an empty /usr/share/man/man1 stays: see
# below). A second run finds DIR/root.cpio and does
# nothing; the caller keys DIR by the package list and this script (mk/bench-real.mk).
set -eu
dir=${1:?usage: mkrootfs.sh DIR PKG...}
shift
[ -s "$dir/root.cpio" ] && exit 0
for t in mmdebstrap cpio; do
	command -v $t >/dev/null || { echo "bench-real: $t missing: apt-get install mmdebstrap cpio" >&2; exit 1; }
done
# The mirror: deb822 stanzas (URIs/Suites) and one-line "deb [opts] URI SUITE ..." entries.
uri=$(for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
	[ -r "$f" ] || continue
	case $f in
	*.sources) awk 'BEGIN { RS = ""; FS = "\n" }
		{ u = ""; s = ""; t = 0
		  for (i = 1; i <= NF; i++) {
			if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u); sub(/[ \t].*/, "", u) }
			if ($i ~ /^Suites:/) { s = " " $i " "; sub(/^ Suites:/, "", s) }
			if ($i ~ /^Types:.*(^|[ \t])deb([ \t]|$)/) t = 1 }
		  if (t && u != "" && s ~ /[ \t]bookworm[ \t]/) print u }' "$f" ;;
	*) sed -n 's/^deb[ \t]\{1,\}\(\[[^]]*\][ \t]\{1,\}\)\{0,1\}\([^ \t]*\)[ \t]\{1,\}bookworm[ \t].*/\2/p' "$f" ;;
	esac
done | head -1)
[ -n "$uri" ] || { echo "bench-real: no bookworm source in /etc/apt/sources.list{,.d}" >&2; exit 1; }
include=$(echo "$@" | tr ' ' ',')
mkdir -p "$dir"
rm -rf "$dir/root.tmp" "$dir/root.cpio.tmp"
echo "bench-real: mmdebstrap --variant=minbase bookworm from $uri with $include (log $dir/mmdebstrap.log)"
# openjdk's postinst makes its man page's alternative link in /usr/share/man/man1, which
# the path-exclude leaves out: the directory is made before the packages are.
mmdebstrap --mode=root --variant=minbase --include="$include" \
	--setup-hook='mkdir -p "$1/usr/share/man/man1"' \
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
	bookworm "$dir/root.tmp" "deb $uri bookworm main" >"$dir/mmdebstrap.log" 2>&1 ||
	{ tail -20 "$dir/mmdebstrap.log" >&2; exit 1; }
rm -rf "$dir/root.tmp/var/cache/apt/archives/"*.deb "$dir/root.tmp/var/lib/apt/lists/"*_Packages \
	"$dir/root.tmp/var/cache/apt/"*.bin
(cd "$dir/root.tmp" && dpkg-query --admindir=var/lib/dpkg -W -f='${Package} ${Version}\n') > "$dir/packages.txt"
(cd "$dir/root.tmp" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$dir/root.cpio.tmp"
mv "$dir/root.cpio.tmp" "$dir/root.cpio"
rm -rf "$dir/root.tmp"
echo "bench-real:   $dir/root.cpio ($(du -m "$dir/root.cpio" | cut -f1) MB, $(wc -l < "$dir/packages.txt") packages)"
