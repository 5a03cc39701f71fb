#!/bin/sh
# The private apt sources (testbed/apt-private.sh --sources) against fake system
# sources: the mirror URIs, components and Signed-By come from the system's, in both
# formats, only the suite and the architecture change; a -security suite takes the
# security source; disabled entries, comments and other vendors' repositories are left
# out; no source for the system's suite is an error. And no script writes a mirror
# address of its own. Prints "apt-sources: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
ap=$top/testbed/apt-private.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

check() {	# check NAME EXPECTED-FILE ACTUAL-FILE
	if cmp -s "$2" "$3"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAILED: apt-sources: $1"
		diff -u "$2" "$3" | sed 's/^/  /'
	fi
}

# 1. deb822, as Debian 12 installs it, with a snapshot comment, a proxy-style mirror
# URI, a disabled and a foreign source
e=$tmp/etc1
mkdir -p "$e/sources.list.d"
cat > "$e/sources.list.d/debian.sources" <<'EOF'
Types: deb deb-src
# http://snapshot.example.org/archive/debian/20250520T000000Z
URIs: http://apt-cache.corp.example:3142/debian http://mirror2.corp.example/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://security-mirror.corp.example/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
cat > "$e/sources.list.d/off.sources" <<'EOF'
Enabled: no
Types: deb
URIs: http://disabled.example/debian
Suites: bookworm
Components: main
EOF
cat > "$e/sources.list.d/vendor.sources" <<'EOF'
Types: deb
URIs: https://vendor.example/apt
Suites: nodistro
Components: main
Architectures: amd64
EOF
APT_PRIVATE_ETC=$e APT_PRIVATE_CODENAME=bookworm sh "$ap" --sources deb arm64 trixie \
	trixie-security > "$tmp/out1" 2>&1
cat > "$tmp/want1" <<'EOF'
Types: deb
URIs: http://apt-cache.corp.example:3142/debian http://mirror2.corp.example/debian
Suites: trixie
Components: main contrib
Architectures: arm64
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://security-mirror.corp.example/debian-security
Suites: trixie-security
Components: main
Architectures: arm64
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
check "deb822 sources, trixie arm64" "$tmp/want1" "$tmp/out1"

APT_PRIVATE_ETC=$e APT_PRIVATE_CODENAME=bookworm sh "$ap" --sources deb-src amd64 sid \
	> "$tmp/out1s" 2>&1
cat > "$tmp/want1s" <<'EOF'
Types: deb-src
URIs: http://apt-cache.corp.example:3142/debian http://mirror2.corp.example/debian
Suites: sid
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
check "deb822 sources, sid deb-src" "$tmp/want1s" "$tmp/out1s"

# 2. one-line sources.list and a .list part, with options and comments; "system" keeps
# the system's suites
e=$tmp/etc2
mkdir -p "$e/sources.list.d"
cat > "$e/sources.list" <<'EOF'
# the local mirror
deb [arch=amd64 signed-by=/etc/apt/keyrings/corp.gpg] http://mirror.corp.example/debian/ bookworm main non-free-firmware
#deb http://commented.example/debian bookworm main
deb-src http://mirror.corp.example/debian/ bookworm main
EOF
cat > "$e/sources.list.d/security.list" <<'EOF'
deb http://sec.corp.example/debian-security bookworm-security main # security
deb https://vendor.example/apt stable main
EOF
APT_PRIVATE_ETC=$e APT_PRIVATE_CODENAME=bookworm sh "$ap" --sources deb loong64 system \
	> "$tmp/out2" 2>&1
cat > "$tmp/want2" <<'EOF'
Types: deb
URIs: http://mirror.corp.example/debian/
Suites: bookworm
Components: main non-free-firmware
Architectures: loong64
Signed-By: /etc/apt/keyrings/corp.gpg

Types: deb
URIs: http://sec.corp.example/debian-security
Suites: bookworm-security
Components: main
Architectures: loong64
EOF
check "one-line sources, system suites loong64" "$tmp/want2" "$tmp/out2"

# 3. no source for the system's suite, and no security source: errors, nothing printed
e=$tmp/etc3
mkdir -p "$e/sources.list.d"
echo "deb https://vendor.example/apt stable main" > "$e/sources.list"
if APT_PRIVATE_ETC=$e APT_PRIVATE_CODENAME=bookworm sh "$ap" --sources deb amd64 trixie \
	> "$tmp/out3" 2>"$tmp/err3" || ! grep -q 'no source for bookworm' "$tmp/err3" ||
	[ -s "$tmp/out3" ]; then
	fail=$((fail + 1)); echo "FAILED: apt-sources: no Debian source must be an error"
else
	pass=$((pass + 1))
fi
echo "deb http://mirror.corp.example/debian bookworm main" > "$e/sources.list"
if APT_PRIVATE_ETC=$e APT_PRIVATE_CODENAME=bookworm sh "$ap" --sources deb amd64 \
	trixie-security > "$tmp/out4" 2>"$tmp/err4" || ! grep -q 'no security source' "$tmp/err4"; then
	fail=$((fail + 1)); echo "FAILED: apt-sources: no security source must be an error"
else
	pass=$((pass + 1))
fi

# 4. this system's own sources give a source for its own suite
if sh "$ap" --sources deb "$(dpkg --print-architecture)" system > "$tmp/out5" 2>&1 &&
	grep -q '^URIs: ' "$tmp/out5"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAILED: apt-sources: this system's sources:"; cat "$tmp/out5"
fi

# 5. no script writes a mirror address of its own
deb_org="deb.debian""."org
if (cd "$top" && grep -rln "$deb_org" tools upstream kernel-patches mk tests Makefile \
	2>/dev/null) > "$tmp/hits"; then
	fail=$((fail + 1)); echo "FAILED: apt-sources: a mirror address in:"; sed 's/^/  /' "$tmp/hits"
else
	pass=$((pass + 1))
fi

echo "apt-sources: $pass passed, $fail failed"
[ "$fail" = 0 ]
