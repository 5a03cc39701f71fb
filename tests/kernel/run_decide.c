/* run_decide: sysshim-run's decision on the booted kernel, in every test bed's initramfs
 * (make check-kernel, check-kernel-6.12, check-kernel-arm64, check-kernel-patches).
 *
 * The kernel's own answer to newfstatat(fd, NULL, AT_EMPTY_PATH) on an fd nobody has
 * open says which way sysshim-run (/bin/sysshim-run, or $SYSSHIM_RUN_BIN) must go:
 * EBADF (6.11+, or the kernel series) - it steps aside without timing; EFAULT (before)
 * - it times the two calls once a command it could preload was read (a crafted dynamic
 * ELF file naming glibc's loader where none is; a static command: nothing timed),
 * caches the answer for the boot and preloads exactly when the ratio it prints is at
 * least 1.50. Then --always, --never, a seccomp filter that
 * answers statx with EPERM (it must preload: careful, and with SYSSHIM_SECCOMP=child
 * for the filter's own answer), the command's exit status passed on, and
 * env(1)'s 127. What was preloaded is read back from the command's own environment: the
 * command is this program again (--child), static, so the library file is only a name
 * (this program's own file stands in for it). Since sysshim-run reads the command where
 * it would preload and steps aside for a static program, a decision to preload shows as
 * "not preloading: SELF is a static program ... (else preloading: REASON)" and no
 * LD_PRELOAD; the missing library is asked for with the crafted dynamic ELF file (its
 * exec fails: 127). Prints "run-decide: N passed, N failed".
 * Static, glibc, with tests/common/testutil.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"

#define CHILD_RC 7

static int pass, fail;
static char self[4096];
static const char *run_bin;

static void check(int cond, const char *what, const char *err)
{
	if (cond) {
		pass++;
		printf("ok   %s\n", what);
	} else {
		fail++;
		printf("FAIL %s\n", what);
		if (err && *err)
			printf("     stderr: %.300s\n", err);
	}
	fflush(stdout);
}

/* statx answered EPERM, as a container runtime's old seccomp profile does (the suites'
 * deny_syscalls, tests/common/testutil.c). */
static int deny_statx(void)
{
	int nr = SYS_statx;
	return deny_syscalls(&nr, 1, EPERM);
}

static void slurp(int fd, char *buf, size_t n)
{
	size_t k = 0;
	ssize_t r;
	while (k < n - 1 && ((r = read(fd, buf + k, n - 1 - k)) > 0 || (r < 0 && errno == EINTR)))
		if (r > 0)
			k += (size_t)r;
	buf[k] = 0;
}

/* Runs sysshim-run with ARGS (NULL-terminated, after argv[0]) and the environment ENV;
 * FILTER: under the statx filter. Its stdout and stderr into OUT and ERR; returns the
 * exit status (or -1). */
static int run(const char *const *args, char *const *env, int filter, char *out, char *err, size_t n)
{
	int po[2], pe[2];
	if (pipe(po) || pipe(pe))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[16];
		int i = 0;
		argv[i++] = (char *)run_bin;
		for (; args[i - 1] && i < 15; i++)
			argv[i] = (char *)args[i - 1];
		argv[i] = 0;
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		if (filter && deny_statx())
			_exit(99);
		execve(run_bin, argv, env);
		_exit(98);
	}
	close(po[1]);
	close(pe[1]);
	slurp(po[0], out, n);
	slurp(pe[0], err, n);
	close(po[0]);
	close(pe[0]);
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* /tmp/run_decide.dyn: a 64-bit ELF of this machine whose interpreter is glibc's loader
 * for it in a directory that does not exist: a command sysshim-run would preload, whose
 * exec fails (127). 0, or -1. */
static int write_dyn(void)
{
#if defined(__x86_64__)
	static const char interp[] = "/nonexistent/ld-linux-x86-64.so.2";
	const unsigned machine = 62;
#elif defined(__aarch64__)
	static const char interp[] = "/nonexistent/ld-linux-aarch64.so.1";
	const unsigned machine = 183;
#elif defined(__loongarch__)
	static const char interp[] = "/nonexistent/ld-linux-loongarch-lp64d.so.1";
	const unsigned machine = 258;
#endif
	static const unsigned char head[120] = {
		0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* ET_DYN, e_machine below */
		64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* e_phoff 64 */
		0, 0, 0, 0, 64, 0, 56, 0, 1, 0, 64, 0, 0, 0, 0, 0,	/* one phdr of 56 bytes */
		3, 0, 0, 0, 4, 0, 0, 0, 120, 0, 0, 0, 0, 0, 0, 0,	/* PT_INTERP at 120 */
		120, 0, 0, 0, 0, 0, 0, 0, 120, 0, 0, 0, 0, 0, 0, 0,	/* (sizes below) */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 0, 0, 0, 0, 0, 0, 0,
	};
	unsigned char img[sizeof head + sizeof interp];
	memcpy(img, head, sizeof head);
	memcpy(img + sizeof head, interp, sizeof interp);
	img[18] = machine & 0xff, img[19] = machine >> 8;
	img[96] = img[104] = sizeof interp;	/* p_filesz, p_memsz */
	int fd = open("/tmp/run_decide.dyn", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	int wrote = fd >= 0 && write(fd, img, sizeof img) == (ssize_t)sizeof img;
	if (fd >= 0)
		close(fd);
	return wrote ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--child")) {
		const char *p = getenv("LD_PRELOAD");
		printf("LD_PRELOAD=%s\n", p ? p : "(unset)");
		return CHILD_RC;
	}
	run_bin = getenv("SYSSHIM_RUN_BIN");
	if (!run_bin || !*run_bin)
		run_bin = "/bin/sysshim-run";
	ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
	if (k <= 0 || access(run_bin, X_OK)) {
		printf("run_decide: cannot find myself or %s\nrun-decide: 0 passed, 1 failed\n", run_bin);
		return 1;
	}
	self[k] = 0;
	setvbuf(stdout, 0, _IOLBF, 0);
	char out[4096], err[4096], want[4200], lib[4200];
	snprintf(lib, sizeof lib, "SYSSHIM_LIB=%s", self);
	char *env[] = { lib, "SYSSHIM_RUN_CACHE=/tmp/run_decide.cache", "PATH=/bin", 0 };
	char *env_nolib[] = { "SYSSHIM_LIB=/nonexistent/libsysshim.so.0", "PATH=/bin", 0 };
	snprintf(want, sizeof want, "%s is a static program (no PT_INTERP)", self);
	unlink("/tmp/run_decide.cache");
	check(!write_dyn(), "a crafted dynamic command written (/tmp/run_decide.dyn)", strerror(errno));
	const char *a_auto_dyn[] = { "-v", "/tmp/run_decide.dyn", 0 };

	struct stat st;
	long r = syscall(SYS_newfstatat, 0x7fffffff, (char *)0, &st, AT_EMPTY_PATH);
	int e = r < 0 ? errno : 0;
	printf("the kernel answers newfstatat(fd, NULL, AT_EMPTY_PATH) with %s\n", e ? strerror(e) : "0");

	const char *a_auto[] = { "-v", self, "--child", 0 };
	int rc = run(a_auto, env, 0, out, err, sizeof out);
	check(rc == CHILD_RC, "auto: the command ran, its exit status passed on", err);
	if (e == EBADF) {
		check(strstr(err, "not preloading: the kernel accepts newfstatat(fd, NULL") != 0,
		      "NULL path accepted here: steps aside, untimed", err);
		check(strstr(out, "LD_PRELOAD=(unset)") != 0, "  and the command has no LD_PRELOAD", out);
	} else if (e == EFAULT) {
		/* The static command: nothing timed for it; then the dynamic one is. */
		check(strstr(err, "not timed yet") && strstr(err, want) &&
		      access("/tmp/run_decide.cache", F_OK) != 0,
		      "NULL path read here; a static command: not timed, nothing cached", err);
		rc = run(a_auto_dyn, env, 0, out, err, sizeof out);
		if (strstr(err, "the clock here does not move")) {
			/* A clock that ticks by jiffies (the tinyconfig kernels early after boot). */
			check(rc == 127 && strncmp(err, "sysshim-run: not preloading", 27) == 0,
			      "a dynamic command, but the clock cannot time the calls: left to glibc", err);
			check(access("/tmp/run_decide.cache", F_OK) != 0, "  and nothing cached", 0);
		} else {
			const char *c = strstr(err, "costs ");
			double ratio = c ? atof(c + 6) : 0;
			check(c && strstr(err, "measured now"), "a dynamic command: the two calls timed", err);
			int pre = ratio >= 1.495;
			check(rc == 127 && (pre ? strncmp(err, "sysshim-run: preloading ", 24) == 0
						: strncmp(err, "sysshim-run: not preloading: newfstatat", 39) == 0),
			      pre ? "the ratio printed is 1.50 or more: preloads (its exec fails: 127)"
				  : "the ratio printed is under 1.50: steps aside", err);
			printf("decided: %.*s\n", (int)strcspn(err, "\n"), err);
			rc = run(a_auto, env, 0, out, err, sizeof out);
			check(rc == CHILD_RC && strstr(err, "measured this boot, cached in /tmp/run_decide.cache") &&
			      (pre ? strstr(err, want) && strstr(err, "(else preloading: newfstatat")
				   : strstr(err, "not preloading: newfstatat") != 0) &&
			      strstr(out, "LD_PRELOAD=(unset)"),
			      "the second start reads the boot's cache (the static command runs untouched)", err);
		}
	} else {
		check(0, "the kernel's answer is EBADF or EFAULT", strerror(e));
	}
	const char *a_always[] = { "-v", "--always", self, "--child", 0 };
	rc = run(a_always, env, 0, out, err, sizeof out);
	check(rc == CHILD_RC && strstr(err, want) && strstr(err, "(else preloading: asked to") &&
	      strstr(out, "LD_PRELOAD=(unset)"), "--always would preload; a static command runs untouched", err);
	const char *a_never[] = { "--never", self, "--child", 0 };
	rc = run(a_never, env, 0, out, err, sizeof out);
	check(rc == CHILD_RC && strstr(out, "LD_PRELOAD=(unset)"), "--never does not", err);
	/* A filter from before exec cannot be read: careful, nothing asked, preloaded; with
	 * SYSSHIM_SECCOMP=child, throwaway children ask, and find statx refused. */
	rc = run(a_auto, env, 1, out, err, sizeof out);
	if (rc == 99) {
		printf("skip statx EPERM: no seccomp filters in this kernel\n");
	} else {
		check(rc == CHILD_RC && strstr(err, "(else preloading: a seccomp filter is in force here") &&
		      strstr(err, want) && strstr(out, "LD_PRELOAD=(unset)"),
		      "statx answered EPERM (a sandbox): careful, would preload; a static command runs untouched",
		      err);
		char *env_child[] = { lib, "SYSSHIM_RUN_CACHE=/tmp/run_decide.cache", "PATH=/bin",
				      "SYSSHIM_SECCOMP=child", 0 };
		rc = run(a_auto, env_child, 1, out, err, sizeof out);
		check(rc == CHILD_RC && strstr(err, "(else preloading: statx is refused here with EPERM") &&
		      strstr(err, want), "  SYSSHIM_SECCOMP=child: children find statx refused", err);
	}
	const char *a_none[] = { "no-such-command-rd", 0 };
	rc = run(a_none, env, 0, out, err, sizeof out);
	check(rc == 127, "command not found: 127", err);
	const char *a_nolib[] = { "--always", "/tmp/run_decide.dyn", 0 };
	rc = run(a_nolib, env_nolib, 0, out, err, sizeof out);
	check(rc == 127 && strstr(err, "cannot find libsysshim"), "a dynamic command, no library to preload: 127", err);
	const char *a_static_nolib[] = { "--always", self, "--child", 0 };
	rc = run(a_static_nolib, env_nolib, 0, out, err, sizeof out);
	check(rc == CHILD_RC, "a static command, no library: not looked for, the command runs", err);
	printf("run-decide: %d passed, %d failed\n", pass, fail);
	return fail != 0;
}
