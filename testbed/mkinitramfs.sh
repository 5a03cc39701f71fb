#!/bin/sh
# testbed/mkinitramfs.sh OUT.cpio.gz INIT [PROBE] [t:SUITE]... [b:BENCH]... [r:DIR]...
#
# Packs a tiny initramfs: INIT as /init, PROBE as /bin/sysshim-probe, each t:FILE under
# /tests and each b:FILE under /bench (the guest /init runs them in name order). Every
# program must be static (or a script): there is no libc in the image, unless an r:DIR
# (a directory tree, copied over / as it is: e.g. a guest libc and programs) brings one.
set -eu
out=$1 init=$2
shift 2
for t in cpio gzip readelf; do
	command -v $t >/dev/null || { echo "testbed: $t missing: apt-get install cpio gzip binutils" >&2; exit 1; }
done
stage=$out.stage	# not *.d: the Makefiles include every build/testbed/*/*.d as a dependency file
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/tests" "$stage/bench" "$stage/dev" "$stage/proc" "$stage/sys" \
	"$stage/tmp" "$stage/run" "$stage/etc" "$stage/root"

# TB_DYNAMIC_OK=1: an r:DIR brings the guest's libc and loader.
static() {
	[ -f "$1" ] || { echo "testbed: $1 not built" >&2; exit 1; }
	[ "${TB_DYNAMIC_OK:-}" = 1 ] && return 0
	if readelf -l "$1" 2>/dev/null | grep -q 'INTERP'; then
		echo "testbed: $1 is dynamically linked; the initramfs needs static programs" >&2
		exit 1
	fi
}
static "$init"
cp "$init" "$stage/init"
for a; do
	case "$a" in
	t:*) f=${a#t:}; static "$f"; cp "$f" "$stage/tests/" ;;
	b:*) f=${a#b:}; static "$f"; cp "$f" "$stage/bench/" ;;
	r:*) f=${a#r:}; [ -d "$f" ] || { echo "testbed: $f is no directory" >&2; exit 1; }
		cp -a "$f/." "$stage/" ;;
	*) static "$a"; cp "$a" "$stage/bin/sysshim-probe" ;;
	esac
done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$stage/etc/group"
# Without /dev/console in the image the kernel starts /init with no fds 0-2; /init
# reopens it after mounting devtmpfs, but the node lets early messages through too.
[ "$(id -u)" = 0 ] && mknod "$stage/dev/console" c 5 1 2>/dev/null || true
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$stage"
