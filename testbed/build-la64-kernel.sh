#!/bin/sh
# testbed/build-la64-kernel.sh OUT FLAVOR SRCTAR WORK FRAGMENT [PATCH...]
#
# Builds a LoongArch kernel for qemu's virt board with the host's clang-19 and ld.lld-19
# (make ARCH=loongarch LLVM=-19; Linux supports that for LoongArch since 6.5):
# tinyconfig, then FRAGMENT (testbed/kconfig/loongarch64-virt.config), then
# olddefconfig. SRCTAR is Debian's linux-source-6.12.tar.xz; it is unpacked once to
# WORK/src; with PATCHes the build happens in a hard-linked copy, WORK/src-FLAVOR, with
# them applied (the test bed's one flavor, "old": testbed/kpatch/la64-old, the pre-6.11
# statx/newfstatat path handling and no fstat/newfstatat on LoongArch). The build stands
# alone: its objects are in its own tree's obj/ (the new LoongArch row boots Debian's
# own kernel, nothing else is built here to start from).
#
# OUT/vmlinux (ELF, what qemu -kernel loads), OUT/config, OUT/kernel.txt and OUT/key:
# the key is a hash of the source tarball's name and size, the fragment, the patches and
# this script; a second run with the same key builds nothing, a changed input rebuilds.
# Environment: TB_JOBS (2), TB_NICE (10).
set -eu
[ $# -ge 5 ] || { echo "usage: $0 OUT FLAVOR SRCTAR WORK FRAGMENT [PATCH...]" >&2; exit 2; }
out=$1 flavor=$2 tar=$3 work=$4 frag=$5
shift 5
for t in clang-19 ld.lld-19 llvm-ar-19 llvm-objcopy-19 flex bison bc xz make; do
	command -v $t >/dev/null || {
		echo "testbed: $t missing: apt-get install clang-19 lld-19 llvm-19 flex bison bc xz-utils make" >&2; exit 1; }
done
[ -r "$tar" ] || { echo "testbed: $tar missing" >&2; exit 1; }
mkdir -p "$out" "$work"
out=$(cd "$out" && pwd) work=$(cd "$work" && pwd)
key=$({ echo "$(basename "$tar") $(wc -c < "$tar")"; cat "$frag" "$0"; for p; do cat "$p"; done; } |
	sha256sum | cut -c1-16)
if [ -e "$out/vmlinux" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
jobs=${TB_JOBS:-2} nice="nice -n ${TB_NICE:-10}"

src=$work/src
if [ ! -e "$src/.unpacked" ]; then
	echo "testbed: unpacking $(basename "$tar") into $src"
	rm -rf "$src" "$work/src.tmp" && mkdir -p "$work/src.tmp"
	$nice tar -xJf "$tar" -C "$work/src.tmp"
	mv "$work/src.tmp"/linux-source-* "$src"
	rm -rf "$work/src.tmp"
	touch "$src/.unpacked"
fi
if [ $# -gt 0 ]; then
	tree=$work/src-$flavor
	if [ "$(cat "$tree/.patched" 2>/dev/null)" != "$key" ]; then
		rm -rf "$tree" && mkdir -p "$tree"
		for e in "$src"/* "$src"/.[!.]*; do
			[ "$e" = "$src/obj" ] || cp -al "$e" "$tree/"
		done
		for p; do
			# The files a patch changes get copies of their own first (hard links).
			for f in $(sed -n 's,^+++ b/\([^	 ]*\).*,\1,p' "$p"); do
				cp "$tree/$f" "$tree/$f.tmp" && mv "$tree/$f.tmp" "$tree/$f"
			done
			echo "testbed: applying $(basename "$p")"
			patch -s -p1 -d "$tree" < "$p"
		done
		echo "$key" > "$tree/.patched"
	fi
else
	tree=$src
fi
obj=$tree/obj
mkdir -p "$obj"
mk="make -s -C $tree O=obj ARCH=loongarch LLVM=-19 LLVM_IAS=1"
echo "testbed: building the $flavor LoongArch kernel ($(basename "$tar"), $(basename "$frag")$(for p; do printf ', %s' "$(basename "$p")"; done)) in $obj, -j$jobs, ${nice}"
start=$(date +%s)
$mk tinyconfig >"$obj/config.log" 2>&1
KCONFIG_CONFIG=$obj/.config "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" \
	>>"$obj/config.log" 2>&1
$mk olddefconfig >>"$obj/config.log" 2>&1
# What the fragment asks for and the config lacks (a dependency not met) is an error.
missing=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$frag" | while read -r c; do
	grep -q "^$c=y$" "$obj/.config" || echo "$c"; done)
[ -z "$missing" ] || { echo "testbed: the config lacks$(echo $missing | sed 's/^/ /')" >&2; exit 1; }
if ! $nice $mk -j"$jobs" vmlinux >"$obj/build.log" 2>&1; then
	grep -E 'error|Error' "$obj/build.log" | head -20 >&2
	echo "testbed: kernel build failed (see $obj/build.log)" >&2
	exit 1
fi
cp "$obj/vmlinux" "$out/vmlinux.tmp" && mv "$out/vmlinux.tmp" "$out/vmlinux"
cp "$obj/.config" "$out/config"
rel=$(cat "$obj/include/config/kernel.release")
printf '%s %s flavor=%s %s%s\n' "$rel" "$(basename "$tar")" "$flavor" "$(basename "$frag")" \
	"$(for p; do printf ' %s' "$(basename "$p")"; done)" > "$out/kernel.txt"
echo "$key" > "$out/key"
echo "testbed:   $out/vmlinux ($rel, $flavor) in $(($(date +%s) - start)) s"
