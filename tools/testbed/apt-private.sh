#!/bin/sh
# tools/testbed/apt-private.sh DIR ARCH SUITE PKG...
#
# Downloads Debian packages for another architecture or release with `apt-get download`
# under a private APT_CONFIG (own lists, cache, status and sources under DIR), and
# unpacks each with `dpkg-deb -x` into DIR/root. The system's apt state is not touched:
# no dpkg --add-architecture, no change to /etc/apt or /var/lib/apt.
#
# SUITE "system" uses the system's own sources (/etc/apt/sources.list{,.d}); any other
# value (e.g. trixie) writes a private deb822 source for deb.debian.org with that suite.
# A second run with the same packages downloads nothing (DIR/root/.done-PKG stamps).
set -eu
[ $# -ge 4 ] || { echo "usage: $0 DIR ARCH SUITE PKG..." >&2; exit 2; }
dir=$1 arch=$2 suite=$3
shift 3
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

todo=
for p; do [ -e "$dir/root/.done-$p" ] || todo="$todo $p"; done
[ -z "$todo" ] && exit 0

for t in apt-get dpkg-deb; do
	command -v $t >/dev/null || { echo "testbed: $t missing: apt-get install apt dpkg" >&2; exit 1; }
done

mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/etc/sources.list.d" \
	"$dir/etc/preferences.d" "$dir/debs" "$dir/root"
: > "$dir/status"
if [ "$suite" = system ]; then
	srclist=/etc/apt/sources.list srcparts=/etc/apt/sources.list.d
else
	srclist=$dir/etc/sources.list srcparts=$dir/etc/sources.list.d
	: > "$srclist"
	cat > "$srcparts/$suite.sources" <<EOS
Types: deb
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Architectures: $arch
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
fi
cat > "$dir/apt.conf" <<EOC
Dir::State "$dir";
Dir::State::Lists "$dir/lists";
Dir::State::status "$dir/status";
Dir::State::extended_states "$dir/extended_states";
Dir::Cache "$dir/cache";
Dir::Cache::archives "$dir/cache/archives";
Dir::Etc::SourceList "$srclist";
Dir::Etc::SourceParts "$srcparts";
Dir::Etc::Preferences "$dir/etc/preferences";
Dir::Etc::PreferencesParts "$dir/etc/preferences.d";
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
APT::Sandbox::User "root";
Acquire::Languages "none";
Debug::NoLocking "true";
EOC
export APT_CONFIG="$dir/apt.conf"

# Lists older than a day are refreshed (private lists only).
if [ -z "$(find "$dir/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
	echo "testbed: apt-get update (private lists for $arch/$suite in $dir)"
	apt-get -q update >"$dir/update.log" 2>&1 || { tail -20 "$dir/update.log" >&2; exit 1; }
fi
for p in $todo; do
	rm -f "$dir/debs/${p}_"*.deb
	echo "testbed: apt-get download $p:$arch ($suite)"
	(cd "$dir/debs" && apt-get -q download "$p:$arch") >"$dir/download.log" 2>&1 ||
		{ cat "$dir/download.log" >&2; exit 1; }
	deb=$(ls "$dir/debs/${p}_"*.deb | head -1)
	dpkg-deb -x "$deb" "$dir/root"
	echo "testbed:   $(basename "$deb")"
	basename "$deb" > "$dir/root/.done-$p"
done
