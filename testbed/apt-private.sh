#!/bin/sh
# testbed/apt-private.sh DIR ARCH SUITE PKG[=VERSION]...
# testbed/apt-private.sh --sources TYPE ARCH SUITE...
#
# Downloads Debian packages for another architecture or release with `apt-get download`
# under a private APT_CONFIG (own lists, cache, status and sources under DIR), and
# unpacks each with `dpkg-deb -x` into DIR/root. The system's apt state is not touched:
# no dpkg --add-architecture, no change to /etc/apt or /var/lib/apt.
#
# The private sources come from the system's own (/etc/apt/sources.list, sources.list.d/
# *.list and *.sources, one-line and deb822 formats): the same mirror URIs, components and
# Signed-By, only the suite and the architecture changed, so a local mirror or proxy the
# system's apt uses is used here too (the proxy settings come with the system's
# apt.conf.d, which the private config leaves in place). A -security suite takes the
# system's security source. SUITE "system" keeps the system's own Debian suites. SUITE
# may name several, space-separated, in one argument ("bullseye bullseye-security").
# No mirror address is written here.
#
# --sources prints those private sources (deb822) for TYPE (deb or deb-src), ARCH and the
# SUITEs, for other scripts to use (upstream/scripts/apt-private.sh). APT_PRIVATE_ETC
# (default /etc/apt) and APT_PRIVATE_CODENAME (default: VERSION_CODENAME of
# /etc/os-release) say where the system's sources are and which suite is the system's.
# A second run with the same packages downloads nothing (DIR/root/.done-PKG stamps).
set -eu
etc=${APT_PRIVATE_ETC:-/etc/apt}

# The system's sources as records, one a line: enabled|types|uris|suites|components|signed-by
# (a Signed-By of several lines, an inline key, has its newlines as \001).
system_sources() {
	for f in "$etc/sources.list" "$etc"/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '{
			sub(/#.*/, ""); if (NF < 3 || ($1 != "deb" && $1 != "deb-src")) next
			type = $1; i = 2; opts = ""; sb = ""
			if ($2 ~ /^\[/) {
				while (i <= NF) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } i++ }
				gsub(/[\[\]]/, "", opts)
				n = split(opts, o, " ")
				for (k = 1; k <= n; k++) if (o[k] ~ /^signed-by=/) { sub(/^signed-by=/, "", o[k]); sb = o[k] }
			}
			uri = $i; suite = $(i + 1); comps = ""
			for (k = i + 2; k <= NF; k++) comps = comps (comps == "" ? "" : " ") $k
			print "yes|" type "|" uri "|" suite "|" comps "|" sb
		}' "$f"
	done
	for f in "$etc"/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '
		function flush() {
			if (f["types"] != "" && f["uris"] != "" && f["suites"] != "")
				print (tolower(f["enabled"]) == "no" ? "no" : "yes") "|" f["types"] "|" \
				      f["uris"] "|" f["suites"] "|" f["components"] "|" f["signed-by"]
			split("", f); key = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[ \t]/ {	# a continuation line
			if (key == "signed-by") { v = $0; sub(/^[ \t]/, "", v); f[key] = f[key] "\001 " v }
			else if (key != "") { v = $0; sub(/^[ \t]+/, "", v); f[key] = f[key] " " v }
			next
		}
		{
			key = tolower($0); sub(/:.*/, "", key)
			v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t]+$/, "", v)
			f[key] = v
		}
		END { flush() }' "$f"
	done
}

# The private deb822 sources for TYPE ARCH SUITE...: the URIs of the system's source for
# its own suite (SUITE-security: of its security suite), everything else as it is there.
private_sources() {
	type=$1 parch=$2
	shift 2
	code=${APT_PRIVATE_CODENAME:-$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")}
	[ -n "$code" ] || { echo "apt-private: no VERSION_CODENAME in /etc/os-release" >&2; return 1; }
	recs=$(system_sources)
	out=$(echo "$recs" | awk -F'|' -v type="$type" -v arch="$parch" -v code="$code" -v want="$*" '
	function has(list, x,   n, a, k) { n = split(list, a, " "); for (k = 1; k <= n; k++) if (a[k] == x) return 1; return 0 }
	function stanza(r, suites,   sb) {
		printf "Types: %s\nURIs: %s\nSuites: %s\nComponents: %s\n", type, U[r], suites, C[r]
		if (type == "deb") printf "Architectures: %s\n", arch
		if (S[r] != "") { sb = S[r]; gsub(/\001/, "\n", sb); printf "Signed-By: %s\n", sb }
		printf "\n"
	}
	$1 == "yes" && (has($2, "deb") || has($2, "deb-src")) {
		n++; U[n] = $3; SU[n] = $4; C[n] = ($5 == "" ? "main" : $5); S[n] = $6
		if (!main && has($4, code)) main = n
		if (!sec && (has($4, code "-security") || has($4, code "/updates"))) sec = n
	}
	END {
		if (!main) { print "apt-private: no source for " code " in the system'"'"'s apt sources" > "/dev/stderr"; exit 1 }
		nw = split(want, w, " ")
		for (k = 1; k <= nw; k++) {
			if (w[k] == "system") {
				ms = ms " " SU[main]
				if (sec && sec != main) ss = ss " " SU[sec]
			} else if (w[k] ~ /-security$/) {
				if (!sec) { print "apt-private: no security source (" code "-security) in the system'"'"'s apt sources for " w[k] > "/dev/stderr"; exit 1 }
				ss = ss " " w[k]
			} else {
				ms = ms " " w[k]
			}
		}
		if (ms != "") stanza(main, substr(ms, 2))
		if (ss != "") stanza(sec, substr(ss, 2))
	}') || return 1
	printf '%s\n' "$out"
}

if [ "${1:-}" = --sources ]; then
	[ $# -ge 4 ] || { echo "usage: $0 --sources TYPE ARCH SUITE..." >&2; exit 2; }
	shift
	private_sources "$@"
	exit
fi

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
srclist=$dir/etc/sources.list srcparts=$dir/etc/sources.list.d
: > "$srclist"
rm -f "$srcparts"/*.sources
private_sources deb "$arch" "$suite" > "$srcparts/private.sources"
echo "testbed: private apt source for $arch/$suite, from the system's:"
sed -n 's/^\(URIs\|Suites\): /  &/p' "$srcparts/private.sources"
proxy=$(apt-config dump 2>/dev/null | grep -i 'proxy' || true)
[ -z "$proxy" ] || echo "testbed: the system's apt proxy settings apply: $proxy"
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

# Lists older than a day are refreshed (private lists only), and so are lists fetched
# for other sources (another SUITE or ARCH in the same DIR: "bullseye" after
# "bullseye-security" found no package of bullseye's own, a day long).
if [ -z "$(find "$dir/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ] ||
	! cmp -s "$srcparts/private.sources" "$dir/lists/.private.sources"; then
	echo "testbed: apt-get update (private lists for $arch/$suite in $dir)"
	rm -f "$dir/lists/.private.sources"
	apt-get -q update >"$dir/update.log" 2>&1 || { tail -20 "$dir/update.log" >&2; exit 1; }
	cp "$srcparts/private.sources" "$dir/lists/.private.sources"
fi
for p in $todo; do
	# PKG or PKG=VERSION (apt's PKG:ARCH=VERSION)
	n=${p%%=*} v=
	[ "$n" = "$p" ] || v==${p#*=}
	rm -f "$dir/debs/${n}_"*.deb
	echo "testbed: apt-get download $n:$arch$v ($suite)"
	(cd "$dir/debs" && apt-get -q download "$n:$arch$v") >"$dir/download.log" 2>&1 ||
		{ cat "$dir/download.log" >&2; exit 1; }
	deb=$(ls "$dir/debs/${n}_"*.deb | head -1)
	dpkg-deb -x "$deb" "$dir/root"
	echo "testbed:   $(basename "$deb")"
	basename "$deb" > "$dir/root/.done-$p"
done
