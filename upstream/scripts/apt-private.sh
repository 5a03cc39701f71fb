#!/bin/sh
# apt-private.sh NAME TYPE SUITES... -- APT-GET-ARGS...
# Runs apt-get against a private source list built from the system's
# /etc/apt/sources.list.d/debian.sources, without touching the system's apt
# configuration, lists or cache.  State lives in $UPSTREAM_BUILD/apt/NAME.
#   NAME    a label (sid-src, trixie, bookworm-src)
#   TYPE    deb or deb-src
#   SUITES  suites; a suite ending in -security uses the security mirror's stanza
set -eu
: "${UPSTREAM_BUILD:?set UPSTREAM_BUILD}"
name=$1 type=$2; shift 2
suites= ; sec=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in *-security) sec="$sec $1";; *) suites="$suites $1";; esac
	shift
done
[ "${1:-}" = -- ] && shift
d=$UPSTREAM_BUILD/apt/$name
mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
src=/etc/apt/sources.list.d/debian.sources
[ -r "$src" ] || { echo "apt-private: $src missing" >&2; exit 1; }
# Stanza 1 of debian.sources is the main archive, stanza 2 the security mirror.
awk -v type="$type" -v suites="${suites# }" -v sec="${sec# }" '
	BEGIN { RS=""; ORS="\n\n" }
	{
		s = (NR == 1) ? suites : sec
		if (s == "") next
		sub(/Types: deb[^\n]*/, "Types: " type)
		sub(/Suites: [^\n]*/, "Suites: " s)
		print
	}' "$src" > "$d/private.sources"

opts="-o Dir::Etc::SourceList=$d/private.sources -o Dir::Etc::SourceParts=/dev/null \
 -o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache \
 -o Dir::State::status=/var/lib/dpkg/status -o APT::Get::List-Cleanup=0"
if [ ! -e "$d/updated" ]; then
	apt-get $opts update >&2
	touch "$d/updated"
fi
[ $# -eq 0 ] || exec apt-get $opts "$@"
