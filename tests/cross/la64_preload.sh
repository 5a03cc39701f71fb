#!/usr/bin/busybox sh
# tests/cross/la64_preload.sh: the hosted loongarch64 libsysshim.so preloaded into real
# loong64 programs (Debian's coreutils, dynamically linked against Debian's loong64
# glibc, which does every stat through statx) in the test bed's LoongArch guest.
#
# For each command: its output and exit status with LD_PRELOAD=$SO must equal those
# without, and glibc's loader must bind a stat call the program makes (one of those it
# imports: fstat, fstatat, statx, stat, lstat @GLIBC_2.36) to the library
# (LD_DEBUG=bindings; binding is lazy, so only the calls made show), so the library is
# what answered.
# Prints "la64-preload: N passed, N failed"; exit status 1 when anything failed.
# Run by tests/kernel/init.c from /tests (busybox-static is the shell).
SO=${SSPRELOAD:-/lib/sysshim/libsysshim.so.0}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

[ -r "$SO" ] || { echo "FAIL $SO missing"; echo "la64-preload: 0 passed, 1 failed"; exit 1; }
w=/tmp/la64-preload
rm -rf $w && mkdir -p $w/d/sub && cd $w || exit 1
echo hello > d/f
printf 'x%.0s' $(seq 1 5000) > d/big
ln -s f d/l
ln -s missing d/dangling
ln d/f d/hard
mkfifo d/p
chmod 640 d/f

# command, then the stat-family names it imports (llvm-nm -D), one of which must be bound
while IFS='|' read -r cmd syms; do
	[ -n "$cmd" ] || continue
	a=$(eval "$cmd" 2>&1; echo "rc=$?")
	b=$(eval "LD_PRELOAD=$SO $cmd" 2>&1; echo "rc=$?")
	if [ "$a" = "$b" ]; then
		ok "same output with and without the library: $cmd"
	else
		bad "output differs with the library: $cmd"
		echo "  without: $(printf '%s' "$a" | head -5 | tr '\n' '~')"
		echo "  with:    $(printf '%s' "$b" | head -5 | tr '\n' '~')"
	fi
	bound=$(eval "LD_DEBUG=bindings LD_PRELOAD=$SO $cmd" 2>&1 >/dev/null |
		sed -n "s,.* to $SO \[[0-9]*\]: normal symbol \`\([a-z0-9_]*\)'.*,\1,p" | sort -u | tr '\n' ' ')
	hit=
	for s in $syms; do
		case " $bound " in *" $s "*) hit="$hit $s" ;; esac
	done
	if [ -n "$hit" ]; then
		ok "$cmd: bound to the library:$hit"
	else
		bad "$cmd: none of $syms bound to the library (bound: ${bound:-none})"
	fi
done <<'EOF'
/usr/bin/stat -c '%n %s %F %a %h %i %u %g' d/f d/l d/p d d/sub d/big d/hard /dev/null /proc/self /|statx stat
/usr/bin/stat -L -c '%n %s %F %i' d/l d/f|statx stat
/usr/bin/stat -c '%n' d/dangling d/missing|statx stat
/usr/bin/ls -la --time-style=+ d|statx stat
/usr/bin/ls -laL --time-style=+ d/l d/f|statx stat
/usr/bin/du -a -b d|fstat fstatat stat
/usr/bin/wc -c d/f d/big|fstat stat
/usr/bin/cat d/f d/big|fstat
/usr/bin/cp -a d/f d/copy|fstat fstatat lstat stat
/usr/bin/test -d d/sub|stat
/usr/bin/head -c 3 d/big|fstat
EOF
echo "la64-preload: $pass passed, $fail failed"
[ "$fail" = 0 ]
