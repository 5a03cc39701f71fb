#!/bin/bash
# testbed/bench-real/host-counts.sh BUILD DIR
#
# The stat-family calls of each runtime's workload on this host, by kind, under strace -f:
# alone, under LD_PRELOAD of BUILD/lib/libsysshim.so.0 and under BUILD/bin/sysshim-run -v
# (its decision kept in DIR/err.*), with the output's hash (ripgrep's and fd's sorted). The
# tree is bench-real's: 2000 files in 20 directories, made in DIR/tree. Runs what is
# installed of ripgrep, fd-find, gdu, node, java (JFiles compiled with javac), python3,
# cat, sha256sum, ls; prints one line per run:
#   WORKLOAD SETUP rc=RC FSTAT NFS_EMPTY NFS_NULL NFS_PATH STATX_EMPTY STATX_NULL STATX_PATH sha=HASH
# (fstat; newfstatat(fd, ""), (fd, NULL), (a path); statx(fd, ""), (fd, NULL), (a path)).
# Then sysshim-run -v --always's word on each command (what kind of program it is), and how
# many of each workload's calls go through glibc's statx() (a preloaded spy that counts them:
# those a preload can reach).
set -u
b=$(cd "${1:?usage: host-counts.sh BUILD DIR}" && pwd) d=${2:?usage: host-counts.sh BUILD DIR}
src=$(cd "$(dirname "$0")" && pwd)
LIB=$b/lib/libsysshim.so.0 RUN=$b/bin/sysshim-run
command -v strace >/dev/null || { echo "host-counts: strace missing" >&2; exit 1; }
mkdir -p "$d" && d=$(cd "$d" && pwd)
[ -d "$d/tree" ] || python3 - "$d/tree" <<'EOP'
import os, sys
for d in range(20):
    p = '%s/d%02d' % (sys.argv[1], d)
    os.makedirs(p)
    for f in range(100):
        n = (d * 100 + f) * 37 % 3900 + 100
        with open('%s/f%03d.txt' % (p, f), 'w') as fh:
            fh.write(('line %d of file %d.%d\n' % (n, d, f)) * (n // 24 + 1))
EOP
find "$d/tree" -type f | LC_ALL=C sort > "$d/list"
cat > "$d/py.py" <<'EOP'
import os, sys, hashlib
h = hashlib.sha256(); n = 0
for p in open(sys.argv[1]).read().split():
    n += os.stat(p).st_size
    with open(p, 'rb') as f:
        n += os.fstat(f.fileno()).st_size
        h.update(f.read())
print(n, h.hexdigest())
EOP
T=$d/tree L=$d/list W=
command -v rg >/dev/null && W="$W rg rg-mmap"
command -v fdfind >/dev/null && W="$W fd"
command -v gdu >/dev/null && W="$W gdu"
command -v node >/dev/null && W="$W node"
command -v javac >/dev/null && javac --release 17 -d "$d/java" "$src/w/java/JFiles.java" && W="$W java"
W="$W py cat sha256sum ls-lR"
cmd() {
	case $1 in
	rg) echo "rg -c line $T" ;;
	rg-mmap) echo "rg --mmap -c line $T" ;;
	fd) echo "fdfind -t f --size -2k . $T" ;;
	gdu) echo "gdu -n -p -c -a --no-prefix $T" ;;
	node) echo "node $src/w/nodefs.js $L" ;;
	java) echo "java -cp $d/java JFiles $L" ;;
	py) echo "/usr/bin/python3 $d/py.py $L" ;;
	cat) echo "xargs -a $L cat" ;;
	sha256sum) echo "xargs -a $L sha256sum" ;;
	ls-lR) echo "ls -lR $T" ;;
	esac
}
export LC_ALL=C
for s in alone preload run; do
	for w in $W; do
		case $s in
		alone) pre= ;;
		preload) pre="-E LD_PRELOAD=$LIB" ;;
		run) pre="$RUN -v" ;;
		esac
		strace -f -qq -o "$d/st.$w.$s" -e trace=fstat,newfstatat,statx -E SYSSHIM_TRACER=allow $pre $(cmd $w) >"$d/out.$w.$s" 2>"$d/err.$w.$s"
		rc=$?
		case $w in rg*|fd) sort -o "$d/out.$w.$s" "$d/out.$w.$s" ;; esac
		# The probe's own calls (on fd 2147483647, answered EBADF) are not counted.
		echo "$w $s rc=$rc $(awk '/\(2147483647,/ { next } / fstat\(/ { f++ }
			/ newfstatat\([^,]*, "", / { e++; next } / newfstatat\([^,]*, NULL, / { n++; next } / newfstatat\(/ { p++ }
			/ statx\([^,]*, "", / { xe++; next } / statx\([^,]*, NULL, / { xn++; next } / statx\(/ { xp++ }
			END { printf "%d %d %d %d %d %d %d", f, e, n, p, xe, xn, xp }' "$d/st.$w.$s") sha=$(sha256sum < "$d/out.$w.$s" | cut -c1-12)"
	done
done
for w in $W; do
	echo "$w: $(grep '^sysshim-run:' "$d/err.$w.run")"
	echo "$w --always: $($RUN -v --always $(cmd $w) 2>&1 >/dev/null | grep '^sysshim-run:')"
done
cat > "$d/spy.c" <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
static long n;
static int out = 2; /* a copy of stderr: coreutils close theirs before the atexit handlers run */
static void done(void) { dprintf(out, "spy: %ld\n", n); }
__attribute__((constructor)) static void init(void) { out = dup(2); atexit(done); }
int statx(int fd, const char *p, int f, unsigned m, struct statx *s)
{
	static int (*real)(int, const char *, int, unsigned, struct statx *);
	if (!real)
		real = (int (*)(int, const char *, int, unsigned, struct statx *))dlsym(RTLD_NEXT, "statx");
	n++;
	return real(fd, p, f, m, s);
}
EOC
${CC:-cc} -O2 -shared -fPIC -o "$d/spy.so" "$d/spy.c" -ldl || exit 1
for w in $W; do
	echo "$w: calls to glibc's statx(): $(LD_PRELOAD=$d/spy.so $(cmd $w) 2>&1 >/dev/null | sed -n 's/^spy: //p' | awk '{ n += $1 } END { print n + 0 }')"
done
