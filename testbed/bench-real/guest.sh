#!/bin/sh
# testbed/bench-real/guest.sh: runs in the bench-real guest (Debian 12 userspace on
# the booted kernel), started by /init. Builds the tmpfs work tree, then times each
# workload under each set-up in interleaved rounds and prints every result on the
# console as "@@BR@@ ..." lines, which testbed/bench-real/report.py reads:
#   T ROUND WORKLOAD SETUP NS RC SHA       one timed run (SHA: its output's hash)
#   COUNT WORKLOAD SETUP FSTAT EMPTY NULL PATH XEMPTY XNULL XPATH   syscalls of one run
#                                         under strace -f: fstat; newfstatat(fd, ""), (fd,
#                                         NULL), (a path); statx(fd, ""), (fd, NULL), (a path)
#   SITE WORKLOAD N WHERE                 remaining newfstatat(fd, "") under the preload
#   DECIDE ...  MEASURE ...  INFO ...     sysshim-run's decision, the call timing
# Set-ups: glibc (alone), empty (the floor: the empty preload of the library's exports,
# bench/empty_preload.c, each straight to glibc's syscall, at a path as long as the
# library's; bench mode), preload (LD_PRELOAD=libsysshim.so.0, no wrapper), auto
# (sysshim-run), always (sysshim-run --always), backport (glibc 2.36 with upstream/glibc's
# fstat patch, its libc.so.6 and ld.so bound over the system's for the run); for the
# per-process cost, on `true` only, in bench mode: always (sysshim-run --always) and never
# (sysshim-run --never: one exec, nothing decided).
# Kernel command line: BRMODE=bench|check|compat BRROUNDS=N BRTRUE=N (runs of `true` per round)
# BRSETUPS=s1,s2 (only these set-ups) BRW=w1,w2 (only these workloads)
# BRRT=1: the other runtimes' workloads too (RT below; their root is BR_RUNTIMES=1's)
# BRSTRACE=1: the strace round after the timed rounds (counts and call sites; slow under
# TCG, docs/results.md, "What the limits in the code are set against"; the same
# userspace's counts on every kernel); BRSTRACE=2: the counts of the other runtimes'
# workloads only (RT below), under glibc alone and the preload.
set -u
O=/opt/bench
SS=/opt/sysshim
RUN=$SS/bin/sysshim-run
LIB=$SS/lib/libsysshim.so.0
FLOOR=/opt/shfloor/lib/libshfloor.so.0
BP=/opt/glibc-backport
SYSLIB=/usr/lib/x86_64-linux-gnu
mode=check rounds=1 ntrue=20 strace_round=0 setups_only= workloads_only= runtimes=0
for w in $(cat /proc/cmdline); do
	case $w in
	BRMODE=*) mode=${w#BRMODE=} ;;
	BRROUNDS=*) rounds=${w#BRROUNDS=} ;;
	BRTRUE=*) ntrue=${w#BRTRUE=} ;;
	BRSTRACE=*) strace_round=${w#BRSTRACE=} ;;
	BRSETUPS=*) setups_only=$(echo ${w#BRSETUPS=} | tr , ' ') ;;
	BRW=*) workloads_only=$(echo ${w#BRW=} | tr , ' ') ;;
	BRRT=*) runtimes=${w#BRRT=} ;;
	esac
done
say() { echo "@@BR@@ $*"; }
export LC_ALL=C HOME=/root TZ=UTC GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.org \
	GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.org \
	GIT_AUTHOR_DATE='2020-01-02T03:04:05Z' GIT_COMMITTER_DATE='2020-01-02T03:04:05Z'
say INFO kernel "$(uname -r)" mode $mode rounds $rounds
# BRMODE=compat: on this kernel, where sysshim-run's auto mode preloads, the project's own
# tests, their every line on the console (CO), and nothing else: tests/compat.sh (sysshim
# beside other interposers, sanitizers and seccomp filters); tests/roots.sh (a dynamic
# musl program, chroot and unshare --root, an i386 program, AddressSanitizer; valgrind is
# left out: the root has none, and it runs on the host only); tests/tsync.sh (200 runs of
# the race with the library); the wrappers' table (tests/check_wrappers.c);
# a tracer that kills fstat. Each prints its "NAME: N passed, N failed" line.
if [ $mode = compat ]; then
	co() { while IFS= read -r l; do say CO "$l"; done; }
	cd /tmp && RUN=$RUN LIB=$LIB PROBE=$SS/bin/sysshim-probe HELP=$O/compat-bin \
		sh $O/compat.sh 2>&1 | co
	# roots.sh finds the library and sysshim-run under $top/$B (B=.: /opt/sysshim).
	(cd $SS && B=. HELP=$O/roots-bin ROOTS_NEED_I386=1 COMPAT_ONLY=musl,roots,class,sanitizers,kept,look sh $O/roots.sh) 2>&1 | co
	(cd /tmp && LIB=$LIB TSYNC_BIN=$O/roots-bin/race TSYNC_ROUNDS=200 sh $O/tsync.sh) 2>&1 | co
	# The Check suite's summary ("100%: Checks: N, Failures: F, Errors: E") as the others' line.
	(cd /tmp && $O/check_wrappers; echo "exit $?") >/tmp/wrappers.out 2>&1
	co </tmp/wrappers.out
	awk '/Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
		c = $0; sub(/.*Checks: /, "", c); c += 0; f = $0; sub(/.*Failures: /, "", f); f += 0
		e = $0; sub(/.*Errors: /, "", e); e += 0; ok += c - f - e; bad += f + e; seen = 1 }
		/^exit [1-9]/ { bad++ }
		END { if (!seen) bad++; printf "wrappers: %d passed, %d failed\n", ok, bad }' /tmp/wrappers.out | co
	# A tracer that kills fstat (strace's inject): cat of 40 files, preloaded and through
	# sysshim-run --always, gives what cat gives under it alone (the library sees the
	# tracer and keeps off the fstat syscall; 40 files: past the probe at 32 fd stats).
	{
		pass=0 fail=0
		mkdir -p /tmp/tr && files=
		for i in $(seq 40); do echo "file $i" >/tmp/tr/f$i; files="$files /tmp/tr/f$i"; done
		inject="strace -f -qq -o /dev/null -e inject=fstat:signal=SIGKILL"
		$inject cat $files >/tmp/tr/plain.out 2>/tmp/tr/plain.err; echo "exit $?" >>/tmp/tr/plain.out
		grep -qx 'file 40' /tmp/tr/plain.out && grep -qx 'exit 0' /tmp/tr/plain.out || {
			fail=$((fail + 1)); echo "  FAIL cat alone under strace's fstat kill: $(tail -1 /tmp/tr/plain.out)"; }
		for w in preload run; do
			case $w in
			preload) $inject env LD_PRELOAD=$LIB cat $files ;;
			run) $inject $RUN --always cat $files ;;
			esac >/tmp/tr/$w.out 2>/tmp/tr/$w.err
			echo "exit $?" >>/tmp/tr/$w.out
			if cmp -s /tmp/tr/plain.out /tmp/tr/$w.out && cmp -s /tmp/tr/plain.err /tmp/tr/$w.err; then
				pass=$((pass + 1)); echo "  ok   strace kills fstat, cat of 40 files: $w"
			else
				fail=$((fail + 1)); echo "  FAIL strace kills fstat, cat of 40 files: $w: $(tail -1 /tmp/tr/$w.out) $(head -c 200 /tmp/tr/$w.err)"
			fi
		done
		echo "tracer: $pass passed, $fail failed"
	} 2>&1 | co
	say END
	exit 0
fi
say INFO python "$(python3 -V 2>&1)" git "$(git --version)" gcc "$(gcc -dumpfullversion)" glibc "$(/usr/lib/x86_64-linux-gnu/libc.so.6 | head -1)"
[ "$runtimes" = 1 ] && say INFO runtimes "$(rg --version | head -1)," "$(fdfind --version)," "gdu $(gdu --version 2>&1 | sed -n "s/^Version:[[:space:]]*//p")," \
	"node $(node --version) (libuv $(node -p process.versions.uv))," "$(java -version 2>&1 | head -1)"

# ---- the work tree: 2000 files in 20 directories on a tmpfs, fixed contents and times
mkdir -p /work && mount -t tmpfs -o size=512m work /work
python3 - <<'EOP'
import os
for d in range(20):
    p = '/work/tree/d%02d' % d
    os.makedirs(p)
    for f in range(100):
        n = (d * 100 + f) * 37 % 3900 + 100
        with open('%s/f%03d.txt' % (p, f), 'w') as fh:
            fh.write(('line %d of file %d.%d\n' % (n, d, f)) * (n // 24 + 1))
for root, dirs, files in os.walk('/work/tree', topdown=False):
    for x in files + dirs:
        os.utime(os.path.join(root, x), (1577934245, 1577934245))
os.utime('/work/tree', (1577934245, 1577934245))
EOP
(cd /work && find tree -type f | sort > list)
cp -a /work/tree /work/repo
(cd /work/repo && git init -q && git add -A && git commit -q -m tree &&
	for i in 01 02 03 04 05; do echo changed >> d$i/f010.txt; done && echo new > d03/new.txt &&
	git status --porcelain >/dev/null)
cp -r $O/w/proj /work/proj
say INFO tree "$(find /work/tree -type f | wc -l) files, $(du -sk /work/tree | cut -f1) kB"

# ---- workloads: name and command (run from /work); prep_NAME runs untimed before each run
# RT (BRRT=1 only): the other runtimes: Rust (ripgrep reading every file; ripgrep --mmap,
# whose memory maps take each file's size from File::metadata, the call fs::read makes;
# fd-find filtering by size: a path stat per file), Go (gdu, non-interactive: a path stat
# per file), Node.js (fs.statSync, fs.fstatSync, fs.readFileSync per file) and Java
# (Files.readAttributes, Files.readAllBytes per file).
RT=
[ "$runtimes" = 1 ] && RT="rg rg-mmap fd gdu node java"
W="py-start py-files py-fstat sqlite git-status tar cp-a find du ls-lR cat sha256sum make $RT"
# BRW=w1,w2,...: only these workloads (and `true`).
[ -n "$workloads_only" ] && W=$workloads_only
cmd() {
	case $1 in
	py-start) echo "python3 $O/w/pystart.py" ;;
	py-files) echo "python3 $O/w/pyfiles.py /work/tree" ;;
	py-fstat) echo "python3 $O/w/pyfstat.py /work/list 20000" ;;
	sqlite) echo "python3 $O/w/sqlite.py /work/db 200" ;;
	git-status) echo "git -C /work/repo status --porcelain" ;;
	tar) echo "tar cf - -C /work tree" ;;
	cp-a) echo "cp -a /work/tree /work/cpdst" ;;
	find) echo "find /work/tree -type f -size -2k" ;;
	du) echo "du -a /work/tree" ;;
	ls-lR) echo "ls -lR /work/tree" ;;
	cat) echo "xargs -a /work/list cat" ;;
	sha256sum) echo "xargs -a /work/list sha256sum" ;;
	make) echo "make -C /work/proj" ;;
	rg) echo "rg -c line /work/tree" ;;
	rg-mmap) echo "rg --mmap -c line /work/tree" ;;
	fd) echo "fdfind -t f --size -2k . /work/tree" ;;
	gdu) echo "gdu -n -p -c -a --no-prefix /work/tree" ;;
	node) echo "node $O/w/nodefs.js /work/list" ;;
	java) echo "java -cp $O/w/java JFiles /work/list" ;;
	true) echo "true" ;;
	esac
}
prep() {
	case $1 in
	cp-a) rm -rf /work/cpdst ;;
	sqlite) rm -f /work/db /work/db-journal ;;
	make) make -s -C /work/proj clean >/dev/null ;;
	esac
}
# What a run leaves beside its output (cp -a: the copy's listing). ripgrep and fd print
# in the order their threads finish (fd sorts only what arrives within 100 ms): their
# output is sorted before it is hashed.
post() {
	case $1 in
	cp-a) (cd /work/cpdst && find . -printf '%p %s %m %T@ %l\n' | sort) ;;
	rg|rg-mmap|fd) sort -o /tmp/out /tmp/out ;;
	esac
}
bp_on() { $O/bpmount on $BP/libc.so.6 $SYSLIB/libc.so.6 $BP/ld-linux-x86-64.so.2 $SYSLIB/ld-linux-x86-64.so.2; }
bp_off() { $O/bpmount off $SYSLIB/libc.so.6 $SYSLIB/ld-linux-x86-64.so.2; }
# wrap SETUP: the words put before a command.
wrap() {
	case $1 in
	auto) echo "$RUN" ;;
	always) echo "$RUN --always" ;;
	never) echo "$RUN --never" ;;
	*) echo "" ;;
	esac
}
envfor() {
	case $1 in
	preload) echo "LD_PRELOAD=$LIB" ;;
	empty) echo "LD_PRELOAD=$FLOOR" ;;
	*) echo "LD_PRELOAD=" ;;
	esac
}
# one ROUND WORKLOAD SETUP [N]: timed runs, one T line each.
one() {
	r=$1 w=$2 s=$3 n=${4:-1}
	prep $w
	[ $s = backport ] && bp_on
	env $(envfor $s) $O/brtime -o /tmp/out -n $n -- $(wrap $s) $(cmd $w) > /tmp/times
	[ $s = backport ] && bp_off
	post $w >> /tmp/out.post
	cat /tmp/out.post >> /tmp/out && rm -f /tmp/out.post
	sha=$(sha256sum < /tmp/out | cut -c1-12)
	while read -r ns rc cpu; do say T $r $w $s $ns $rc $sha; done < /tmp/times
	[ "$(cut -d' ' -f2 /tmp/times | sort -u)" = 0 ] || say WARN "$w under $s: exit $(cut -d' ' -f2 /tmp/times | sort -u | tr '\n' ' ') $(head -c 300 /tmp/out.err)"
}

# ---- what sysshim-run decides here, and the call timing behind it
cd /work
say DECIDE "$($RUN -v true 2>&1)"
for i in 1 2 3 4 5; do say MEASURE "$($RUN --measure)"; done
[ -r $BP/libc.so.6 ] && HAVE_BP=1 || HAVE_BP=0
if [ $HAVE_BP = 1 ]; then
	bp_on && say INFO backport "$($SYSLIB/libc.so.6 | head -1)"; bp_off
else
	say INFO backport missing
fi
# check: with and without the library (auto preloads on 6.1, --always everywhere).
# bench: --always is LD_PRELOAD plus sysshim-run's own start, which `true` measures
# (with --never, its floor: one exec, no decision): those run on `true` only.
SETUPS="glibc auto always" TW=$W
[ $mode = bench ] && SETUPS="glibc empty preload auto" TW="true $W"
[ $HAVE_BP = 1 ] && [ $mode = bench ] && SETUPS="$SETUPS backport"
[ -n "$setups_only" ] && SETUPS=$setups_only

# ---- interleaved rounds: the set-ups' order turns each round
nset=$(echo $SETUPS | wc -w)
# Warm-up (bench): one pass of each workload under glibc, round 0, left out of the tables.
[ $mode = bench ] && for w in $W; do one 0 $w glibc; done
r=1
while [ $r -le $rounds ]; do
	k=0
	for w in $TW; do
		k=$((k + 1))
		rot=$(( (r + k) % nset ))
		order=$(echo $SETUPS $SETUPS | cut -d' ' -f$((rot + 1))-$((rot + nset)))
		[ $w = true ] && [ $mode = bench ] && [ -z "$setups_only" ] && order="$order always never"
		for s in $order; do
			if [ $w = true ]; then one $r true $s $ntrue; else one $r $w $s; fi
		done
	done
	say INFO round $r done
	r=$((r + 1))
done

# ---- syscall counts (one strace -f round; not timed) and where the preload's remaining
# empty-path calls come from (strace -k: the first frame outside glibc's stat wrappers)
count() { # workload setup
	w=$1 s=$2
	prep $w
	[ $s = backport ] && bp_on
	strace -f -qq -o /tmp/st -e trace=fstat,newfstatat,statx -E SYSSHIM_TRACER=allow -E $(envfor $s) $(cmd $w) >/dev/null 2>&1
	[ $s = backport ] && bp_off
	# The probe's own calls (on fd 2147483647, answered EBADF) are not counted. SYSSHIM_TRACER=allow:
	# strace only watches (without it the library takes strace for a tracer that may kill).
	say COUNT $w $s $(awk '/\(2147483647,/ { next } / fstat\(/ { f++ }
		/ newfstatat\([^,]*, "", / { e++; next } / newfstatat\([^,]*, NULL, / { n++; next } / newfstatat\(/ { p++ }
		/ statx\([^,]*, "", / { xe++; next } / statx\([^,]*, NULL, / { xn++; next } / statx\(/ { xp++ }
		END { printf "%d %d %d %d %d %d %d", f, e, n, p, xe, xn, xp }' /tmp/st)
}
SITES="py-start py-files py-fstat sqlite git-status tar"
if [ $mode = bench ] && [ $strace_round = 1 ]; then
	for w in $W; do
		# preload: what --always runs, without the wrapper; the backport turns every
		# newfstatat(fd, "") into fstat (seen on every workload it was counted on).
		# The other runtimes under the backport too (the README's table of what reaches them).
		bs=; case " $RT " in *" $w "*) [ $HAVE_BP = 1 ] && bs=backport ;; esac
		for s in glibc preload $bs; do count $w $s; done
		# strace -k unwinds every traced call: only where few newfstatat calls take paths.
		case " $SITES " in *" $w "*) ;; *) continue ;; esac
		prep $w
		strace -f -qq -k -o /tmp/sk -e trace=newfstatat -E SYSSHIM_TRACER=allow -E LD_PRELOAD=$LIB $(cmd $w) >/dev/null 2>&1
		awk -v w=$w '
			/^[0-9]+ +newfstatat\([^,]*, "", / { want = 1; next }
			/^[0-9]+ / { want = 0; next }
			want && /^ > / {
				line = $0; sub(/^ > /, "", line)
				obj = line; sub(/\(.*/, "", obj); n = split(obj, a, "/"); obj = a[n]
				fn = line; sub(/^[^(]*\(/, "", fn); sub(/\+.*/, "", fn); sub(/\).*/, "", fn)
				if (fn ~ /^(fstatat|fstatat64|__fstatat64|fstat|fstat64|__fstat64)$/) next
				if (obj ~ /^ld-linux/) site = "ld.so:loading-libraries"
				else if (obj ~ /^libsysshim/) site = "sysshim:probe(EBADF,once)"
				else if (fn == "_IO_file_doallocate") site = "libc:stdio-buffer-setup(_IO_file_doallocate)"
				else if (fn ~ /^(opendir|fdopendir|__opendir|__fdopendir|__alloc_dir)$/) site = "libc:" fn
				else if (fn == "setlocale") site = "libc:locale-loading(setlocale)"
				else if (obj ~ /^libc/) { off = line; sub(/.*\[/, "", off); sub(/\].*/, "", off); site = "libc:near-" fn "@" off }
				else site = obj ":" fn
				c[site]++; want = 0
			}
			END { for (s in c) print c[s], s }' /tmp/sk | sort -rn | head -4 | while read -r n site; do
			say SITE $w $n "$site"; done
	done
elif [ $mode = bench ] && [ $strace_round = 2 ] && [ -n "$RT" ]; then
	for w in $RT; do for s in glibc preload; do count $w $s; done; done
fi
say END
