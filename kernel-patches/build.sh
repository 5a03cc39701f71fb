#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-patches/build.sh: build, boot and measure a stock and a patched
# Linux 6.1 (Debian's linux-source-6.1) with the series in
# kernel-patches/linux-6.1/.  Everything it makes goes under
# $KP_BUILD (default: build/kernel-patches of the repository).
#
# Usage: kernel-patches/build.sh COMMAND...
#   deps        install the Debian packages that are missing (as root)
#   fetch       apt-get download linux-source-6.1 (cached in $KP_BUILD/dl)
#   unpack      unpack the pristine tree ($KP_BUILD/src/linux-source-6.1)
#   patch       apply the series to a copy ($KP_BUILD/patched/...);
#               fails on any reject or fuzz
#   checkpatch  scripts/checkpatch.pl --strict on every patch
#   config      make the x86_64 config: tinyconfig + config.fragment
#   stock       build $KP_BUILD/bzImage-stock   (incremental)
#   patched     build $KP_BUILD/bzImage-patched (incremental)
#   arm64       compile the patched fs/stat.o for arm64 (defconfig)
#   initramfs   build kernel-patches/test/kpatch-test.c as /init of
#               $KP_BUILD/kpt-initramfs.cpio.gz
#   build       deps fetch unpack patch config stock patched initramfs
#   boot K I [WORD...]  boot bzImage K with initramfs I under qemu (TCG),
#               WORDs appended to the kernel command line; killed after
#               $KP_TIMEOUT seconds (default 900); fails on a hang, a
#               missing summary line or any failed check
#   check       build, then boot both kernels; fails unless both pass
#   bench       build, then boot both kernels; print the table
#
# Other configurations (KP_KCONFIG=debian or arm64; the commands above are
# the tinyconfig x86_64 ones):
#   vconfig     make the config: debian: Debian's config-6.1.0-N-amd64 (from
#               linux-image-6.1.0-N-amd64-unsigned) without its modules +
#               debian.fragment; arm64: tinyconfig + arm64.fragment.  The
#               builds go to $KP_BUILD/<source version>-<config hash>/
#   vbuild      build each stage of $KP_STAGES (debian: stock p123 p1234,
#               arm64: stock p1234; pNNN = those patches of the series) in
#               obj-<stage>, each patched stage seeded from obj-stock
#   vbench      vbuild, then boot every stage (and, for debian, Debian's own
#               binary kernel) with the patch test: the table and each
#               patch's own effect; fails if a guest fails a check
#   vimage STAGE    print the path of a stage's kernel image
#
# Variables: KP_BUILD, KP_JOBS (2), KP_TIMEOUT (900), KP_SRC_VERSION
# (6.1.192-3: the Debian version the series is made against; set it empty
# for apt's candidate), KP_ITERS and KP_ROUNDS (benchmark size, passed to
# the guest), KP_QEMU_EXTRA (more qemu options), KP_KCONFIG (tiny, debian,
# arm64), KP_SRC_DIR (where dl/, src/ and the patched trees are: default
# $KP_BUILD), KP_STAGES, KP_NICE (nice level of the compiles), KP_DEBIAN_IMAGE
# (the linux-image package whose config KP_KCONFIG=debian takes).
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")" && pwd)
KP_ROOT=$(cd "$KP_DIR/.." && pwd)
KP_BUILD=${KP_BUILD:-$KP_ROOT/build/kernel-patches}
mkdir -p "$KP_BUILD"
KP_BUILD=$(cd "$KP_BUILD" && pwd)
KP_JOBS=${KP_JOBS:-2}
KP_TIMEOUT=${KP_TIMEOUT:-900}
KP_SRC_VERSION=${KP_SRC_VERSION-6.1.192-3}
KP_KCONFIG=${KP_KCONFIG:-tiny}
KP_SRC_DIR=${KP_SRC_DIR:-$KP_BUILD}
mkdir -p "$KP_SRC_DIR"
KP_SRC_DIR=$(cd "$KP_SRC_DIR" && pwd)
KP_NICE=${KP_NICE:-}
# linux-image-6.1.0-57-amd64-unsigned is the 6.1.192-3 build of the same source
KP_DEBIAN_IMAGE=${KP_DEBIAN_IMAGE:-linux-image-6.1.0-57-amd64-unsigned}
KP_SERIES_DIR=$KP_DIR/linux-6.1
KP_FRAGMENT=$KP_SERIES_DIR/config.fragment
KP_SRC_PKG=linux-source-6.1
KP_TREE=linux-source-6.1
PRISTINE=$KP_SRC_DIR/src/$KP_TREE
PATCHED=$KP_SRC_DIR/patched/$KP_TREE
LOGS=$KP_BUILD/logs

# Debian packages needed, and the command each one provides.
KP_DEBS="build-essential make flex bison bc perl python3 libelf-dev libssl-dev
	cpio gzip xz-utils coreutils apt dpkg qemu-system-x86 gcc-aarch64-linux-gnu"
KP_TOOLS="gcc:build-essential make:make flex:flex bison:bison bc:bc perl:perl
	python3:python3 cpio:cpio gzip:gzip xz:xz-utils timeout:coreutils
	apt-get:apt dpkg-deb:dpkg qemu-system-x86_64:qemu-system-x86
	aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu"

say() { printf 'kernel-patches: %s\n' "$*"; }
die() { printf 'kernel-patches: ERROR: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- deps
cmd_deps() {
	local missing="" p t
	for p in $KP_DEBS ${KP_EXTRA_DEBS:-}; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'ok installed' || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		say "installing Debian packages:$missing"
		[ "$(id -u)" = 0 ] ||
			die "not root: run 'apt-get install -y$missing' as root"
		export DEBIAN_FRONTEND=noninteractive
		{ apt-get install -y -q $missing ||
		  { apt-get update -q && apt-get install -y -q $missing; }; } \
			>"$KP_BUILD/apt-install.log" 2>&1 || {
			tail -20 "$KP_BUILD/apt-install.log" >&2
			die "apt-get install -y$missing failed (log: $KP_BUILD/apt-install.log)"
		}
	fi
	for t in $KP_TOOLS ${KP_EXTRA_TOOLS:-}; do
		command -v "${t%%:*}" >/dev/null ||
			die "${t%%:*} not found: install the Debian package ${t#*:}"
	done
	# libelf-dev: objtool needs gelf.h; libssl-dev: scripts/sign-file
	[ -e /usr/include/gelf.h ] ||
		die "/usr/include/gelf.h missing: install the Debian package libelf-dev"
	[ -e /usr/include/openssl/ssl.h ] ||
		die "/usr/include/openssl/ssl.h missing: install the Debian package libssl-dev"
	[ -e /usr/lib/x86_64-linux-gnu/libc.a ] ||
		die "static libc missing: install the Debian package libc6-dev"
}

# --------------------------------------------------------------- fetch
deb_file() { ls -1 "$KP_SRC_DIR"/dl/${KP_SRC_PKG}_*_all.deb 2>/dev/null | sort -V | tail -1; }

cmd_fetch() {
	local want deb v
	mkdir -p "$KP_SRC_DIR/dl"
	if [ -n "$KP_SRC_VERSION" ]; then
		want="$KP_SRC_DIR/dl/${KP_SRC_PKG}_${KP_SRC_VERSION}_all.deb"
		if [ -s "$want" ]; then
			say "cached: $want"
			return
		fi
	elif [ -n "$(deb_file)" ]; then
		say "cached: $(deb_file)"
		return
	fi
	v=$KP_SRC_PKG${KP_SRC_VERSION:+=$KP_SRC_VERSION}
	say "apt-get download $v"
	if ! (cd "$KP_SRC_DIR/dl" && { apt-get download "$v" ||
	      { apt-get update -q >/dev/null && apt-get download "$v"; }; }); then
		[ -n "$KP_SRC_VERSION" ] || die "apt-get download $v failed"
		# Debian replaces security versions; apt's candidate may still
		# take the series without fuzz (the patch step checks that).
		say "WARNING: $v is not downloadable; trying apt's candidate" \
		    "(the series was made against $KP_SRC_VERSION; for that exact" \
		    "base take it from Debian's snapshot archive)"
		(cd "$KP_SRC_DIR/dl" && apt-get download "$KP_SRC_PKG") ||
			die "apt-get download $KP_SRC_PKG failed"
	fi
	deb=$(deb_file)
	[ -n "$deb" ] || die "no $KP_SRC_PKG .deb in $KP_SRC_DIR/dl"
	say "downloaded: $deb"
}

# -------------------------------------------------------------- unpack
cmd_unpack() {
	local deb stamp
	deb=$(deb_file)
	[ -n "$KP_SRC_VERSION" ] && [ -s "$KP_SRC_DIR/dl/${KP_SRC_PKG}_${KP_SRC_VERSION}_all.deb" ] &&
		deb="$KP_SRC_DIR/dl/${KP_SRC_PKG}_${KP_SRC_VERSION}_all.deb"
	[ -n "$deb" ] || die "no $KP_SRC_PKG .deb: run the fetch step"
	stamp="$KP_SRC_DIR/src/.unpacked"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(basename "$deb")" ] &&
	   [ -f "$PRISTINE/Makefile" ]; then
		say "unpacked: $PRISTINE ($(basename "$deb"))"
		return
	fi
	say "unpacking $(basename "$deb") into $KP_SRC_DIR/src"
	rm -rf "$KP_SRC_DIR/src" "$KP_SRC_DIR/patched" "$KP_SRC_DIR"/patched-*
	mkdir -p "$KP_SRC_DIR/src"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO ./usr/src/$KP_SRC_PKG.tar.xz | tar -xJ -C "$KP_SRC_DIR/src"
	[ -f "$PRISTINE/Makefile" ] || die "$deb has no $KP_TREE tree"
	basename "$deb" >"$stamp"
}

# --------------------------------------------------------------- patch
series_patches() {
	local p
	[ -f "$KP_SERIES_DIR/series" ] || die "no $KP_SERIES_DIR/series"
	grep -v '^[[:space:]]*\(#\|$\)' "$KP_SERIES_DIR/series" | while read -r p; do
		echo "$KP_SERIES_DIR/$p"
	done
}

series_files() {	# files touched by the given patches
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$@" | sort -u
}

cmd_patch() {
	local patches
	mapfile -t patches < <(series_patches)
	patch_tree "$KP_SRC_DIR/patched" "${patches[@]}"
}

# patch_tree TOP PATCH...: TOP/linux-source-6.1 is the pristine tree with
# the given patches applied (stamp TOP/.applied).
patch_tree() {
	local top=$1 stamp=$1/.applied want f p out
	shift
	local patches=("$@") PATCHED=$top/$KP_TREE
	[ -f "$PRISTINE/Makefile" ] || die "no pristine tree: run the unpack step"
	[ "${#patches[@]}" -gt 0 ] || die "empty series in $KP_SERIES_DIR/series"
	for p in "${patches[@]}"; do
		[ -f "$p" ] || die "series names a missing patch: $p"
	done
	want=$(cat "$KP_SERIES_DIR/series" "${patches[@]}" "$KP_SRC_DIR/src/.unpacked" |
		sha256sum | cut -d' ' -f1)
	if [ -f "$stamp" ] && [ "$(head -1 "$stamp")" = "$want" ] && [ -d "$PATCHED" ]; then
		say "series already applied to $PATCHED"
		return
	fi
	if [ ! -d "$PATCHED" ]; then
		say "copying the pristine tree (hard links) to $PATCHED"
		mkdir -p "$top"
		cp -al "$PRISTINE" "$PATCHED"
	fi
	# Put back every file an earlier series touched or this one touches:
	# a fresh copy (never a hard link) with a new mtime, so that make
	# rebuilds exactly those.
	{ [ -f "$stamp" ] && tail -n +2 "$stamp"; series_files "${patches[@]}"; } |
	sort -u | while read -r f; do
		rm -f "$PATCHED/$f"
		if [ -e "$PRISTINE/$f" ]; then
			cp "$PRISTINE/$f" "$PATCHED/$f"
		fi
	done
	rm -f "$stamp"
	for p in "${patches[@]}"; do
		if ! out=$(cd "$PATCHED" && patch -p1 --fuzz=0 --forward \
				--no-backup-if-mismatch <"$p" 2>&1); then
			printf '%s\n' "$out" >&2
			die "$(basename "$p") does not apply to $(cat "$KP_SRC_DIR/src/.unpacked")"
		fi
		printf '%s\n' "$out" | sed 's/^/  /'
		if grep -qi 'fuzz\|reject\|FAILED\|Reversed' <<<"$out"; then
			die "$(basename "$p") applies only with fuzz or rejects"
		fi
		for f in $(series_files "$p"); do
			[ ! -e "$PATCHED/$f.rej" ] && [ ! -e "$PATCHED/$f.orig" ] ||
				die "$(basename "$p") left $f.rej or $f.orig"
		done
	done
	{ echo "$want"; series_files "${patches[@]}"; } >"$stamp"
	say "applied ${#patches[@]} patches to $PATCHED"
}

cmd_checkpatch() {
	local p bad=0 out
	[ -x "$PRISTINE/scripts/checkpatch.pl" ] || die "no pristine tree: run the unpack step"
	while read -r p; do
		out=$(cd "$PRISTINE" && perl scripts/checkpatch.pl --strict "$p" 2>&1) || bad=1
		grep '^total:' <<<"$out" | sed "s|^|  $(basename "$p"): |"
		grep -q 'has no obvious style problems' <<<"$out" || bad=1
	done < <(series_patches)
	[ "$bad" = 0 ] || die "checkpatch.pl --strict is not clean"
	say "checkpatch.pl --strict: clean"
}

# -------------------------------------------------------------- config
cmd_config() {
	local cfg=$KP_BUILD/config-x86_64 s v missing=""
	[ -f "$PRISTINE/Makefile" ] || die "no pristine tree: run the unpack step"
	if [ -f "$cfg/.config" ] && [ "$cfg/.config" -nt "$KP_FRAGMENT" ] &&
	   [ "$cfg/.config" -nt "$KP_SRC_DIR/src/.unpacked" ]; then
		say "config up to date: $cfg/.config"
		return
	fi
	say "making the config: tinyconfig + $(basename "$KP_FRAGMENT")"
	rm -rf "$cfg"
	mkdir -p "$cfg" "$LOGS"
	{
		make -C "$PRISTINE" O="$cfg" tinyconfig &&
		"$PRISTINE/scripts/kconfig/merge_config.sh" -m -O "$cfg" \
			"$cfg/.config" "$KP_FRAGMENT" &&
		make -C "$PRISTINE" O="$cfg" olddefconfig
	} >"$LOGS/config.log" 2>&1 || { tail -20 "$LOGS/config.log" >&2; die "config failed"; }
	while IFS='=' read -r s v; do
		case "$s" in CONFIG_*) ;; *) continue ;; esac
		grep -qx "$s=$v" "$cfg/.config" || missing="$missing $s=$v"
	done <"$KP_FRAGMENT"
	if [ -n "$missing" ]; then
		rm -f "$cfg/.config"
		die "config.fragment values not in the final config:$missing"
	fi
}

# --------------------------------------------------------------- build
# make_kernel NAME LOG CMD...: runs the kernel build CMD into LOG; fails with the log's
# tail, or when fs/stat.c (the file the series changes) compiles with a warning.
make_kernel() {
	local name=$1 log=$2
	shift 2
	if ! "$@" >"$log" 2>&1; then
		tail -30 "$log" >&2
		die "$name kernel build failed (log: $log)"
	fi
	if grep -n 'fs/stat\.c.*\(warning\|error\)' "$log"; then
		die "fs/stat.c does not compile cleanly ($log)"
	fi
}

build_kernel() {	# NAME SRCTREE
	local name=$1 src=$2 obj=$KP_BUILD/obj-$1 t0 t1 log=$LOGS/build-$1.log
	[ -f "$src/Makefile" ] || die "no source tree $src"
	cmd_config
	mkdir -p "$obj" "$LOGS"
	if ! cmp -s "$KP_BUILD/config-x86_64/.config" "$obj/.config"; then
		cp "$KP_BUILD/config-x86_64/.config" "$obj/.config"
	fi
	say "building $name kernel in $obj (log: $log)"
	t0=$(date +%s)
	make_kernel "$name" "$log" make -C "$src" O="$obj" LOCALVERSION="-kp$name" \
		-j"$KP_JOBS" bzImage
	t1=$(date +%s)
	cp "$obj/arch/x86/boot/bzImage" "$KP_BUILD/bzImage-$name"
	say "$name kernel: $KP_BUILD/bzImage-$name ($(cat "$obj/include/config/kernel.release"), $((t1 - t0)) s)"
}

# The patched tree differs from the pristine one only in the files the
# series touches, so a first patched build can start from the stock build's
# objects: copy them and point their recorded commands (.cmd files) and
# dependencies at the patched tree.  The pristine files are hard links with
# old mtimes, so make recompiles only the patched files and relinks.
# KP_SEED=0 turns this off (a second clean build: its time is in
# kernel-patches/README.md, "Measurements").
seed_from_stock() {
	seed_obj "$KP_BUILD/obj-stock" "$KP_BUILD/obj-patched" "$PRISTINE" "$PATCHED"
}

seed_obj() {	# FROM-OBJ TO-OBJ FROM-SRC TO-SRC
	local from=$1 to=$2 fsrc=$3 tsrc=$4
	[ "${KP_SEED:-1}" = 1 ] && [ -f "$from/vmlinux" ] && [ ! -e "$to" ] || return 0
	say "seeding $to from the stock objects"
	rm -rf "$to.tmp"
	cp -a "$from" "$to.tmp"
	find "$to.tmp" -type f \( -name '*.cmd' -o -name '.*.d' -o -name '*.d' \
		-o -name Makefile \) -print0 |
		xargs -0 -r sed -i "s|$fsrc|$tsrc|g; s|$from|$to|g"
	ln -sfn "$tsrc" "$to.tmp/source"
	rm -f "$to.tmp/arch/x86/boot/bzImage" "$to.tmp/arch/arm64/boot/Image" "$to.tmp/vmlinux"
	# The copied objects are newer than the patched sources when the series was applied
	# before the stock build: make the files the series touches newer than them.
	series_patches | xargs sed -n 's|^+++ b/||p' | sort -u | while read -r f; do
		touch "$tsrc/$f"
	done
	mv "$to.tmp" "$to"
}

cmd_stock() { build_kernel stock "$PRISTINE"; }
cmd_patched() { cmd_patch; seed_from_stock; build_kernel patched "$PATCHED"; }

cmd_arm64() {
	local obj=$KP_BUILD/obj-arm64 log=$LOGS/build-arm64.log
	local mk=(make -C "$PATCHED" O="$obj" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	cmd_patch
	mkdir -p "$obj" "$LOGS"
	say "compiling the patched fs/stat.o for arm64 (log: $log)"
	{
		[ -f "$obj/.config" ] || "${mk[@]}" defconfig
		"${mk[@]}" -j"$KP_JOBS" fs/stat.o
	} >"$log" 2>&1 || { tail -30 "$log" >&2; die "arm64 fs/stat.o failed (log: $log)"; }
	if grep -n 'fs/stat\.c.*\(warning\|error\)' "$log"; then
		die "fs/stat.c does not compile cleanly for arm64 ($log)"
	fi
	[ -f "$obj/fs/stat.o" ] || die "no $obj/fs/stat.o"
	say "arm64: $obj/fs/stat.o OK"
}

# ----------------------------------------------------------- initramfs
cmd_initramfs() {	# [CC OUT]: the test built with CC (gcc) into OUT
	local cc=${1:-gcc} out=${2:-$KP_BUILD/kpt-initramfs.cpio.gz}
	local d=$KP_BUILD/initramfs-${cc%%-*}
	local src=$KP_DIR/test/kpatch-test.c
	[ -f "$PRISTINE/usr/gen_init_cpio.c" ] || die "no pristine tree: run the unpack step"
	[ "$cc" = gcc ] && d=$KP_BUILD/initramfs
	mkdir -p "$d"
	if [ ! -x "$d/gen_init_cpio" ] || [ "$PRISTINE/usr/gen_init_cpio.c" -nt "$d/gen_init_cpio" ]; then
		gcc -O2 -o "$d/gen_init_cpio" "$PRISTINE/usr/gen_init_cpio.c"
	fi
	if [ -f "$out" ] && [ "$out" -nt "$src" ] && [ "$out" -nt "$0" ]; then
		say "initramfs up to date: $out"
		return
	fi
	"$cc" -static -O2 -Wall -Wextra -Werror -o "$d/init" "$src" ||
		die "kpatch-test.c does not build with $cc (needs libc6-dev, for aarch64 libc6-dev-arm64-cross)"
	cat >"$d/list" <<-EOF
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	nod /dev/null 0666 0 0 c 1 3
	dir /proc 0755 0 0
	dir /sys 0755 0 0
	dir /tmp 1777 0 0
	file /init $d/init 0755 0 0
	EOF
	# gen_init_cpio writes a newc archive owned by 0:0, like
	# `cpio -o -H newc -R 0:0`, with device nodes and without root.
	"$d/gen_init_cpio" "$d/list" | gzip -9n >"$out.tmp"
	mv "$out.tmp" "$out"
	say "initramfs: $out"
}

cmd_build() {
	cmd_deps
	cmd_fetch
	cmd_unpack
	cmd_patch
	cmd_stock
	cmd_patched
	cmd_initramfs
}

# ---------------------------------------------------------------- boot
# boot KERNEL INITRD [WORD...]: testbed/boot.sh boots it (x86_64, or with
# KP_ARCH=arm64 aarch64 -cpu max,pauth-impdef=on: TCG emulates the QARMA5
# pointer authentication slowly, the cheap algorithm is the same for both
# kernels); the output (KPT: lines, \r stripped) on stdout, the whole serial
# log in $KP_BOOTLOG (default $LOGS/boot.log).
cmd_boot() {
	local k=$1 i=$2 log=${KP_BOOTLOG:-$LOGS/boot.log} rc=0 sum p f
	shift 2
	[ -f "$k" ] || die "no kernel $k"
	[ -f "$i" ] || die "no initramfs $i"
	# -m 512 -s 1 and the board's qemu and CPU: not the test beds' TB_* settings
	local boot=(env TB_QEMU= TB_CPU= "$KP_ROOT/testbed/boot.sh" -Q -p kernel-patches
		-m 512 -s 1 -t "$KP_TIMEOUT" -l "$log")
	if [ "${KP_ARCH:-x86_64}" = arm64 ]; then
		boot+=(-a aarch64 -c max,pauth-impdef=on)
	else
		boot+=(-a x86_64)
	fi
	[ -n "${KP_QEMU_EXTRA:-}" ] && boot+=(-o "$KP_QEMU_EXTRA")
	mkdir -p "$(dirname "$log")"
	: >"$log"
	local words=("$@")
	[ -n "${KP_ITERS:-}" ] && words+=("KPT_ITERS=$KP_ITERS")
	[ -n "${KP_ROUNDS:-}" ] && words+=("KPT_ROUNDS=$KP_ROUNDS")
	say "booting $(basename "$k") with $(basename "$i") ${words[*]} (timeout ${KP_TIMEOUT}s)"
	local t0=$SECONDS
	"${boot[@]}" "$k" "$i" "${words[@]}" || rc=$?
	# 1 or 2 and an empty log: nothing booted (boot.sh said why: no qemu, ...)
	case $rc in 1|2) [ -s "$log" ] || die "testbed/boot.sh could not boot $k (status $rc)" ;; esac
	# (the first line may follow the firmware's escape codes)
	tr -d '\r' <"$log" | sed -n 's/^.*\(KPT: \)/\1/p' || true
	[ "$rc" = 124 ] || [ "$rc" = 137 ] &&
		die "guest hung: killed after ${KP_TIMEOUT}s (log: $log)"
	[ "$rc" = 0 ] || die "qemu exited with status $rc (log: $log)"
	sum=$(tr -d '\r' <"$log" | grep -a '^KPT: [0-9]* passed, [0-9]* failed$' | tail -1)
	[ -n "$sum" ] || die "no 'KPT: N passed, N failed' line: /init crashed? (log: $log)"
	p=$(echo "$sum" | awk '{print $2}')
	f=$(echo "$sum" | awk '{print $4}')
	[ "$f" = 0 ] && [ "$p" -gt 0 ] || die "$(basename "$k"): $p passed, $f failed (log: $log)"
	say "$(basename "$k"): $p passed, $f failed ($((SECONDS - t0)) s)"
}

boot_both() {
	local kind ok=0
	for kind in stock patched; do
		if (KP_BOOTLOG=$LOGS/boot-$kind.log cmd_boot "$KP_BUILD/bzImage-$kind" \
			"$KP_BUILD/kpt-initramfs.cpio.gz" "KPT_EXPECT=$kind" "$@" \
			>"$LOGS/kpt-$kind.out"); then
			:
		else
			ok=1
		fi
		grep -v '^KPT: PASS ' "$LOGS/kpt-$kind.out" || true
	done
	return $ok
}

table() {
	local s=$LOGS/kpt-stock.out p=$LOGS/kpt-patched.out
	printf '\n%-40s %14s %14s\n' "ns per call, median (ratio to fstat)" \
		"stock 6.1" "patched 6.1"
	awk -v S="$s" -v P="$p" '
	function load(file, arr, rat, desc,   l, f) {
		while ((getline l < file) > 0) {
			if (l !~ /^KPT: BENCH /) continue
			split(l, f, " ")
			arr[f[3]] = f[4]; rat[f[3]] = f[5]
			sub(/^KPT: BENCH +[^ ]+ +[^ ]+ +[^ ]+ +/, "", l)
			desc[f[3]] = l
		}
	}
	function cell(n, r) {
		if (n == "") return "(no run)"
		if (n == "-") return r
		return sprintf("%s (%s)", n, r)
	}
	BEGIN {
		load(S, sn, sr, d); load(P, pn, pr, d)
		split("fstat newfstatat_empty statx_empty statx_null getppid", k, " ")
		for (i = 1; i <= 5; i++)
			printf "%-40s %14s %14s\n", d[k[i]], cell(sn[k[i]], sr[k[i]]),
				cell(pn[k[i]], pr[k[i]])
	}'
	echo
}

cmd_check() {
	local rc=0
	cmd_build
	boot_both || rc=1
	table
	[ "$rc" = 0 ] || die "check-kernel-patches FAILED (logs: $LOGS/boot-*.log)"
	say "check-kernel-patches: both kernels pass"
}

cmd_bench() {
	local rc=0
	cmd_build
	boot_both || rc=1
	table
	[ "$rc" = 0 ] || die "a guest failed (logs: $LOGS/boot-*.log)"
}

# The other configurations (KP_KCONFIG=debian, arm64): the v* commands.
. "$KP_DIR/variants.sh"

[ $# -gt 0 ] || { sed -n '3,/^set -euo/{/^set -euo/!p}' "$0"; exit 2; }
mkdir -p "$LOGS"
while [ $# -gt 0 ]; do
	c=$1
	shift
	case "$c" in
	deps|fetch|unpack|patch|checkpatch|config|stock|patched|arm64|initramfs|build|check|bench)
		"cmd_$c" ;;
	vconfig|vbuild|vbench)
		v_setup
		"$c" ;;
	vimage)
		[ $# -ge 1 ] || die "usage: vimage STAGE"
		v_setup
		v_config >/dev/null
		echo "$V_WORK/$V_IMGNAME-$1"
		exit ;;
	boot)
		[ $# -ge 2 ] || die "usage: boot KERNEL INITRD [WORD...]"
		cmd_boot "$@"
		exit ;;
	*) die "unknown command $c" ;;
	esac
done
