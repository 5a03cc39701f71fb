#!/bin/sh
# apt-private.sh NAME TYPE SUITES... -- APT-GET-ARGS...
# Runs apt-get against a private source list built from the system's own apt sources
# (testbed/apt-private.sh --sources: the same mirrors, components and Signed-By,
# only the suites changed; one-line and deb822 formats), without touching the system's
# apt configuration, lists or cache; the system's apt.conf.d (proxy settings) applies.
# State lives in $UPSTREAM_BUILD/apt/NAME.
#   NAME    a label (sid-src, trixie, bookworm-src)
#   TYPE    deb or deb-src
#   SUITES  suites; a suite ending in -security uses the system's security source
#   APT-GET-ARGS  apt-get's arguments, or apt-cache and its arguments
set -eu
: "${UPSTREAM_BUILD:?set UPSTREAM_BUILD}"
name=$1 type=$2; shift 2
suites=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	suites="$suites $1"
	shift
done
[ "${1:-}" = -- ] && shift
d=$UPSTREAM_BUILD/apt/$name
mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
top=$(cd "$(dirname "$0")/../.." && pwd)
"$top/testbed/apt-private.sh" --sources "$type" "$(dpkg --print-architecture)" $suites \
	> "$d/private.sources.new"
mv "$d/private.sources.new" "$d/private.sources"
opts="-o Dir::Etc::SourceList=$d/private.sources -o Dir::Etc::SourceParts=/dev/null \
 -o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache \
 -o Dir::State::status=/var/lib/dpkg/status -o APT::Get::List-Cleanup=0"
if [ ! -e "$d/updated" ]; then
	apt-get $opts update >&2
	touch "$d/updated"
fi
# "-- apt-cache ARGS" queries the private lists (madison, showsrc).
case ${1:-} in apt-cache) shift; exec apt-cache $opts "$@" ;; esac
[ $# -eq 0 ] || exec apt-get $opts "$@"
