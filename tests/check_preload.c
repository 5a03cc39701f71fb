/* Real programs with and without the library: LD_PRELOAD, the legacy ABI names,
 * and static links with gcc+glibc and musl-gcc. Needs the host's programs. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>
#include "common/testutil.h"

static char tree[512], so[512], lib_a[512], inc[512];

static char *run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs a shell command; returns its stdout followed by "exit N". */
static char *run(const char *fmt, ...)
{
	static char bufs[4][1 << 16];
	static int k;
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	char *out = bufs[k++ % 4];
	FILE *p = popen(cmd, "r");
	ck_assert_msg(p, "popen %s", cmd);
	size_t n = fread(out, 1, sizeof bufs[0] - 64, p);
	out[n] = 0;
	int st = pclose(p);
	snprintf(out + n, 64, "exit %d", WIFEXITED(st) ? WEXITSTATUS(st) : 128);
	return out;
}

static void need(const char *prog, const char *pkg)
{
	char *r = run("command -v %s >/dev/null 2>&1", prog);
	ck_assert_msg(!strcmp(r, "exit 0"), "%s is missing: apt-get install %s", prog, pkg);
}

static void setup(void)
{
	const char *b = getenv("SYSSHIM_BUILD");
	char cwd[256];
	ck_assert(getcwd(cwd, sizeof cwd));
	if (!b)
		b = "build";
	snprintf(so, sizeof so, "%s%s%s/lib/libsysshim.so", *b == '/' ? "" : cwd,
		 *b == '/' ? "" : "/", b);
	snprintf(lib_a, sizeof lib_a, "%s%s%s/lib/libsysshim.a", *b == '/' ? "" : cwd,
		 *b == '/' ? "" : "/", b);
	snprintf(inc, sizeof inc, "%s/include", cwd);
	ck_assert_msg(!access(so, R_OK), "%s not built", so);
	snprintf(tree, sizeof tree, "%s/tree", scratch_dir());
	/* A tree with fixed times, so that outputs compare byte for byte. */
	char *r = run("set -e; mkdir -p %1$s/a/b %1$s/c && cd %1$s && printf 'x%%.0s' $(seq 1 5000) > a/big &&"
		      " echo hi > a/b/small && ln -s a/big link && ln -s nowhere dangling &&"
		      " mkfifo fifo && : > c/empty && touch -h -d '2020-01-02 03:04:05.123456789' "
		      "a/big a/b/small link dangling fifo c/empty a/b a c . 2>&1", tree);
	ck_assert_msg(!strcmp(r, "exit 0"), "tree: %s", r);
}

static const char *const cmds[] = {
	"ls -l --time-style=full-iso %s",
	"ls -laR --time-style=full-iso %s",
	"find %s -printf '%%p %%s %%m %%n %%y %%Y %%T@\\n' | sort",
	"find %s -type f -size -1k -links 1 -newer %s/a/big | sort",
	"du -s %s; du -a %s | sort -k2",
	"cat %s/a/b/small %s/a/big | md5sum",
	"stat -c '%%n %%i %%s %%a %%h %%Y %%y' %s/* %s/a/b/small",
	"python3 -c 'import os, sys; [print(p, (s.st_ino, s.st_size, s.st_mode, s.st_nlink, "
	"s.st_mtime_ns)) for p in sys.argv[1:] for s in [os.lstat(p), os.stat(p) if "
	"os.path.exists(p) else os.lstat(p), os.fstat(os.open(p, os.O_RDONLY|os.O_NONBLOCK)) "
	"if os.path.exists(p) else os.lstat(p)]]' %s/a/big %s/link %s/dangling %s/fifo",
};

START_TEST(same_output)
{
	char c[1024];
	need("python3", "python3");
	setup();
	snprintf(c, sizeof c, cmds[_i], tree, tree, tree, tree);
	char *plain = run("%s 2>&1", c);
	char *pre = run("LD_PRELOAD=%s %s 2>&1", so, c);
	ck_assert_msg(!strcmp(plain, pre), "%s differs with the library:\n--- without\n%s\n--- with\n%s",
		      c, plain, pre);
	ck_assert_msg(strstr(plain, "exit 0"), "%s failed: %s", c, plain);
	for (int s = 0; s < 6; s++) {
		static const char *const st[] = { "fstat", "newfstatat-null", "newfstatat-empty",
						  "statx-null", "statx-empty", "auto" };
		char *forced = run("SYSSHIM_STRATEGY=%s LD_PRELOAD=%s %s 2>&1", st[s], so, c);
		ck_assert_msg(!strcmp(plain, forced), "%s differs with SYSSHIM_STRATEGY=%s:\n%s",
			      c, st[s], forced);
	}
}
END_TEST

START_TEST(git_status)
{
	need("git", "git");
	setup();
	const char *env = "GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
			  "GIT_COMMITTER_EMAIL=t@t GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent";
	char *r = run("cd %s && %s git init -q repo && cd repo && cp -r ../a . && %s git add a &&"
		      " %s git commit -qm x && echo change >> a/big && echo new > untracked 2>&1",
		      tree, env, env, env);
	ck_assert_msg(!strcmp(r, "exit 0"), "git setup: %s", r);
	char *plain = run("cd %s/repo && %s git status --porcelain=v2 -uall 2>&1", tree, env);
	char *pre = run("cd %s/repo && %s LD_PRELOAD=%s git status --porcelain=v2 -uall 2>&1",
			tree, env, so);
	ck_assert_msg(!strcmp(plain, pre), "git status differs:\n%s\n---\n%s", plain, pre);
	ck_assert_msg(strstr(plain, "a/big"), "git status missed the change: %s", plain);
}
END_TEST

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* strace lines (pid prefix or not) of syscall NAME on a real fd, not the probe's. */
static int calls(const char *log, const char *name, const char *fd)
{
	int n = 0;
	size_t l = strlen(name);
	for (const char *p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		const char *q = p;
		while (*q >= '0' && *q <= '9')
			q++;
		while (*q == ' ')
			q++;
		if (!strncmp(q, name, l) && q[l] == '(' && !strncmp(q + l + 1, "2147483647", 10))
			continue;
		if (!strncmp(q, name, l) && q[l] == '(' && (!fd || !strncmp(q + l + 1, fd, strlen(fd))))
			n++;
	}
	return n;
}

/* SS_PROBE_AFTER (src/internal/probe.h): fd stats before the probe. */
#define PROBE_AFTER 32

/* The small file of the tree, named 40 times (for cat: 41 fd stats with its output's). */
static const char *forty_files(void)
{
	static char files[8192];
	char *f = files;
	for (int i = 0; i < 40; i++)
		f += sprintf(f, " %s/a/b/small", tree);
	return files;
}

/* The library's fd stats under strace: a tracer that only watches is allowed with
 * SYSSHIM_TRACER=allow. With cat's own fstat of each of N files: the first PROBE_AFTER
 * fd stats go to glibc (newfstatat(fd, "")), the probe runs, the rest are fstat. */
START_TEST(strace_shows_fstat)
{
	need("strace", "strace");
	setup();
	const char *log = scratch_dir();
	/* 40 files: cat fstat()s its output once and each input once. */
	const char *files = forty_files();
	char *plain = run("strace -f -e trace=fstat,newfstatat -o %s/tr cat %s >/dev/null 2>&1; "
			  "cat %s/tr", log, files, log);
	char *pre = run("SYSSHIM_TRACER=allow strace -f -e trace=fstat,newfstatat,openat -o %s/tr "
			"env LD_PRELOAD=%s cat %s >/dev/null 2>&1; cat %s/tr", log, so, files, log);
	/* The small file holds "hi\n": its fd stats show st_size=3 (the loader's show none). */
	ck_assert_msg(calls(plain, "fstat", NULL) == 0 && count(plain, "newfstatat(1, \"\"") == 1 &&
			      count(plain, "st_size=3,") == 40,
		      "glibc's cat should use newfstatat(fd, \"\") 41 times: %d fstat, %d of fd 1, "
		      "%d of the files", calls(plain, "fstat", NULL),
		      count(plain, "newfstatat(1, \"\""), count(plain, "st_size=3,"));
	ck_assert_msg(calls(pre, "fstat", NULL) == 41 - PROBE_AFTER &&
			      count(pre, "newfstatat(1, \"\"") == 1 &&
			      count(pre, "st_size=3,") == 40,
		      "cat's fd stats after the first %d should reach the kernel as fstat: %d fstat, "
		      "%d of fd 1, %d of the files", PROBE_AFTER, calls(pre, "fstat", NULL),
		      count(pre, "newfstatat(1, \"\""), count(pre, "st_size=3,"));
	ck_assert_msg(count(pre, "/proc/self/status") == 1,
		      "the probe should read the status once, after %d fd stats: %d reads",
		      PROBE_AFTER, count(pre, "/proc/self/status"));
	/* SYSSHIM_STRATEGY (even "auto") asks for the probe at the first fd stat. */
	pre = run("SYSSHIM_TRACER=allow SYSSHIM_STRATEGY=auto strace -f -e trace=fstat,newfstatat "
		  "-o %s/tr env LD_PRELOAD=%s cat %s/a/b/small >/dev/null 2>&1; cat %s/tr",
		  log, so, tree, log);
	ck_assert_msg(calls(pre, "fstat", "1,") == 1 && count(pre, "newfstatat(1, \"\"") == 0,
		      "SYSSHIM_STRATEGY=auto: cat's fstat(1) should be fstat:\n%.3000s", pre);
}
END_TEST

/* A few fd stats: no syscall of the library's own, whatever watches. Under a tracer
 * (TracerPid) by default: none but the read of /proc/self/status that finds the tracer,
 * as under a filter the library cannot read, and strace's fault injection into fstat
 * kills nothing it would not kill without sysshim. */
START_TEST(nothing_of_its_own)
{
	need("strace", "strace");
	setup();
	const char *log = scratch_dir();
	const char *files = forty_files();
	char *plain = run("SYSSHIM_TRACER=allow strace -f -o %s/tr cat %s/a/b/small >/dev/null 2>&1; "
			  "grep -c . %s/tr", log, tree, log);
	char *pre = run("SYSSHIM_TRACER=allow strace -f -o %s/tr env LD_PRELOAD=%s cat %s/a/b/small "
			">/dev/null 2>&1; grep -c -F -e 'fstat(' -e status -e '(2147483647,' %s/tr",
			log, so, tree, log);
	ck_assert_msg(!strcmp(pre, "0\nexit 1"), "cat of one file made calls of the library's own: %s",
		      pre);
	(void)plain;
	pre = run("strace -f -o %s/tr env LD_PRELOAD=%s cat %s >/dev/null 2>&1; grep -c -F -e "
		  "'fstat(' -e '(2147483647,' %s/tr", log, so, files, log);
	ck_assert_msg(!strcmp(pre, "0\nexit 1"), "traced, cat of 40 files made calls of the "
		      "library's own: %s", pre);
	plain = run("strace -f -o /dev/null -e inject=fstat:signal=SIGKILL cat %s/a/b/small 2>&1",
		    tree);
	pre = run("strace -f -o /dev/null -e inject=fstat:signal=SIGKILL env LD_PRELOAD=%s cat %s "
		  "2>&1", so, files);
	ck_assert_msg(strstr(plain, "hi\nexit 0") && strstr(pre, "exit 0") && !strstr(pre, "Killed"),
		      "fault injection into fstat killed the preloaded cat:\n%s\n---\n%s", plain, pre);
}
END_TEST

START_TEST(legacy_names)
{
	need("gcc", "gcc");
	setup();
	char *r = run("gcc -O2 -o %s/legacy tests/preload/legacy.c 2>&1", scratch_dir());
	ck_assert_msg(!strcmp(r, "exit 0"), "build: %s", r);
	char *plain = run("%s/legacy %s/a/big", scratch_dir(), tree);
	char *pre = run("LD_PRELOAD=%s %s/legacy %s/a/big", so, scratch_dir(), tree);
	ck_assert_msg(!strcmp(plain, pre), "legacy names differ:\n%s\n---\n%s", plain, pre);
	ck_assert_msg(strstr(pre, "__fxstat(bad version): -1"), "bad _STAT_VER accepted: %s", pre);
	/* Proof that the preloaded names answered: a forced statx strategy shows in strace. */
	char *tr = run("SYSSHIM_TRACER=allow SYSSHIM_STRATEGY=statx-empty strace -f -e trace=statx,fstat -o /dev/stdout "
		       "env LD_PRELOAD=%s %s/legacy %s/a/big 2>&1", so, scratch_dir(), tree);
	ck_assert_msg(count(tr, ", \"\", AT_STATX_SYNC_AS_STAT|AT_EMPTY_PATH, STATX_BASIC_STATS, {") >= 1,
		      "__fxstat did not go through sysshim:\n%s", tr);
}
END_TEST

START_TEST(static_gcc)
{
	need("gcc", "gcc");
	need("strace", "strace");
	setup();
	char *r = run("gcc -static -O2 -I%s -o %s/static-gcc tests/preload/static_prog.c %s 2>&1",
		      inc, scratch_dir(), lib_a);
	ck_assert_msg(!strcmp(r, "exit 0"), "static link with glibc: %s", r);
	r = run("%s/static-gcc %s", scratch_dir(), tree);
	ck_assert_msg(strstr(r, "static: ok") && strstr(r, "exit 0"), "%s", r);
	r = run("strace -e trace=fstat,newfstatat -o %s/tr %s/static-gcc >/dev/null 2>&1; cat %s/tr",
		scratch_dir(), scratch_dir(), scratch_dir());
	ck_assert_msg(calls(r, "fstat", NULL) >= 1,
		      "static glibc program's fstat did not use fstat:\n%s", r);
}
END_TEST

START_TEST(static_musl)
{
	need("musl-gcc", "musl-tools");
	need("strace", "strace");
	setup();
	char *r = run("musl-gcc -static -O2 -I%s -o %s/static-musl tests/preload/static_prog.c "
		      "-Wl,--whole-archive %s -Wl,--no-whole-archive 2>&1", inc, scratch_dir(), lib_a);
	ck_assert_msg(!strcmp(r, "exit 0"), "static link with musl: %s", r);
	r = run("%s/static-musl %s", scratch_dir(), tree);
	ck_assert_msg(strstr(r, "static: ok") && strstr(r, "exit 0"), "%s", r);
	/* musl's own nftw calls lstat: musl would issue lstat(2) on x86_64, sysshim
	 * newfstatat(AT_FDCWD, ..., AT_SYMLINK_NOFOLLOW). */
	r = run("strace -e trace=lstat,stat,newfstatat -o %s/tr %s/static-musl %s >/dev/null 2>&1;"
		" cat %s/tr", scratch_dir(), scratch_dir(), tree, scratch_dir());
	ck_assert_msg(count(r, "lstat(") == 0 && count(r, "AT_SYMLINK_NOFOLLOW") >= 5,
		      "musl's nftw was not caught by sysshim:\n%s", r);
}
END_TEST

/* libsysshim.so exports the libc names and sysshim_*, nothing else, under its soname:
 * the stat family, prctl and syscall (the two ways a seccomp filter comes through
 * the C library, read on their way), and the exec family and posix_spawn (which leave
 * the library out where the program cannot load it, src/exec/). */
START_TEST(exports)
{
	need("nm", "binutils");
	setup();
	char *r = run("nm -D --defined-only %s | awk '{print $3}' | grep -v -E "
		      "'^(sysshim_.*|(__f?x|__lx)stat(at)?(64)?|f?stat(at)?(64)?|lstat(64)?|statx|prctl|syscall|"
		      "execve|execv|execvp|execvpe|execl|execle|execlp|fexecve|execveat|posix_spawnp?)$'",
		      so);
	ck_assert_msg(!strcmp(r, "exit 1"), "unexpected exports: %s", r);
	r = run("nm -D --defined-only %s | awk '{print $3}' | grep -c -x -E "
		"'fstat|fstat64|stat|stat64|lstat|lstat64|fstatat|fstatat64|statx|__fxstat|__fxstat64|"
		"__xstat|__xstat64|__lxstat|__lxstat64|__fxstatat|__fxstatat64|sysshim_fstat|"
		"sysshim_stat|sysshim_lstat|sysshim_fstatat|sysshim_statx|sysshim_info|prctl|syscall|"
		"execve|execv|execvp|execvpe|execl|execle|execlp|fexecve|execveat|posix_spawn|posix_spawnp'", so);
	ck_assert_msg(!strcmp(r, "36\nexit 0"), "missing exports: %s", r);
	r = run("readelf -d %s | grep -c 'SONAME.*libsysshim.so.0'", so);
	ck_assert_msg(!strcmp(r, "1\nexit 0"), "soname: %s", r);
}
END_TEST

START_TEST(sysshim_run_wrapper)
{
	need("strace", "strace");
	setup();
	char run_bin[600];
	snprintf(run_bin, sizeof run_bin, "%.*s/bin/sysshim-run", (int)(strlen(so) - 18), so);
	const char *log = scratch_dir();
	/* --always: cat's own fstat reaches the fstat syscall (the decisions: tests/run.sh). */
	char *r = run("SYSSHIM_TRACER=allow SYSSHIM_STRATEGY=auto strace -f -e trace=fstat -o %s/tr "
		      "%s --always cat %s/a/b/small 2>&1; cat %s/tr", log,
		      run_bin, tree, log);
	ck_assert_msg(strstr(r, "hi\n") && calls(r, "fstat", "1,") == 1,
		      "sysshim-run --always cat did not preload the library:\n%s", r);
	r = run("SYSSHIM_TRACER=allow SYSSHIM_STRATEGY=auto strace -f -e trace=fstat -o %s/tr %s --never cat %s/a/b/small 2>&1; cat %s/tr", log,
		run_bin, tree, log);
	ck_assert_msg(strstr(r, "hi\n") && calls(r, "fstat", "1,") == 0,
		      "sysshim-run --never cat preloaded the library:\n%s", r);
	/* Where the library is to be loaded and cannot be found: 127 and a clear message. */
	r = run("cp %s %s/sysshim-run-alone && SYSSHIM_LIB= %s/sysshim-run-alone --always true 2>&1",
		run_bin, log, log);
	ck_assert_msg(strstr(r, "cannot find libsysshim.so.0") && strstr(r, "exit 127"),
		      "no clear error without the library: %s", r);
	r = run("%s 2>&1", run_bin);
	ck_assert_msg(strstr(r, "usage: sysshim-run") && strstr(r, "exit 125"), "%s", r);
	r = run("SYSSHIM_LIB=%s %s/sysshim-run-alone -v --always cat %s/a/b/small 2>&1", so, log, tree);
	ck_assert_msg(strstr(r, "preloading ") && strstr(r, so) && strstr(r, "hi\nexit 0"),
		      "SYSSHIM_LIB not honoured: %s", r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("preload");
	TCase *t = tcase_create("programs");
	tcase_add_loop_test(t, same_output, 0, sizeof cmds / sizeof *cmds);
	tcase_add_test(t, git_status);
	tcase_add_test(t, strace_shows_fstat);
	tcase_add_test(t, nothing_of_its_own);
	tcase_add_test(t, legacy_names);
	tcase_add_test(t, static_gcc);
	tcase_add_test(t, static_musl);
	tcase_add_test(t, sysshim_run_wrapper);
	tcase_add_test(t, exports);
	tcase_set_timeout(t, 300);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
