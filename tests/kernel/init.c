/* /init of the sysshim test-bed initramfs (make check-kernel, make bench-kernel).
 *
 * Mounts proc, sysfs, devtmpfs, tmpfs on /tmp, /run and /dev/shm, prints what the probe
 * finds (/bin/sysshim-probe, plain and --json), runs every program in /tests (SSMODE=check)
 * or /bench (SSMODE=bench) in name order, and powers off. Every line it prints starts
 * with MARK, so that the host can pick them out of the serial console (SeaBIOS and the
 * kernel print there too):
 *
 *   @@SS@@ BEGIN mode=check kernel=6.1.0-57-amd64
 *   @@SS@@ PROBE {...sysshim-probe --json...}
 *   @@SS@@ OUT check_stat| <a line the program printed>
 *   @@SS@@ RESULT check_stat rc=0 secs=12
 *   @@SS@@ END ran=3 ok=3 bad=0
 *
 * Words KEY=VALUE on the kernel command line reach this program's environment and so
 * every program it starts (SSMODE, SSTIMEOUT, CK_DEFAULT_TIMEOUT, SYSSHIM_STRATEGY...).
 * Static, glibc. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MARK "@@SS@@ "

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n = snprintf(buf, sizeof buf, MARK);
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof buf - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	for (int off = 0; off < n;) {
		ssize_t w = write(1, buf + off, n - off);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			break;
		}
		off += w;
	}
}

static void power_off(void)
{
	sync();
	/* qemu runs with -no-reboot, so a reboot ends it; a power-off would halt a kernel
	 * without ACPI (the tinyconfig kernels of kernel-patches/) and hang qemu. */
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

static void mnt(const char *src, const char *dst, const char *type, const char *opts)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, 0, opts) && errno != EBUSY)
		say("WARN mount %s on %s: %s", type, dst, strerror(errno));
}

static void setup(void)
{
	mnt("proc", "/proc", "proc", NULL);
	mnt("sysfs", "/sys", "sysfs", NULL);
	mnt("devtmpfs", "/dev", "devtmpfs", NULL);

	/* The kernel opened /dev/console for us only if the initramfs has it. */
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		for (int i = 0; i < 3; i++)
			if (fd != i)
				dup2(fd, i);
		if (fd > 2)
			close(fd);
	}
	mnt("tmpfs", "/tmp", "tmpfs", "mode=1777");
	mnt("tmpfs", "/run", "tmpfs", "mode=755");
	mnt("tmpfs", "/dev/shm", "tmpfs", "mode=1777");
	mnt("devpts", "/dev/pts", "devpts", NULL);
	symlink("/proc/self/fd", "/dev/fd");
	symlink("/proc/self/fd/0", "/dev/stdin");
	symlink("/proc/self/fd/1", "/dev/stdout");
	symlink("/proc/self/fd/2", "/dev/stderr");
	if (access("/dev/null", F_OK))
		mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3));

	setenv("PATH", "/bin", 0);
	setenv("HOME", "/root", 0);
	setenv("TMPDIR", "/tmp", 0);
	setenv("SYSSHIM_BUILD", "/", 0);	/* suites find $SYSSHIM_BUILD/bin/sysshim-probe */
	setenv("CK_DEFAULT_TIMEOUT", "120", 0);
	setenv("CK_FORK", "yes", 0);
	setenv("SYSSHIM_TESTBED", "qemu-system", 1);
	/* The eventfd stress harness (check_evstress) runs 120 s by default: here, in every
	 * boot of make check, a short run (SYSSHIM_STRESS_SECONDS=N on the kernel's command
	 * line asks for another length). */
	setenv("SYSSHIM_STRESS_SECONDS", "20", 0);
	/* An emulated CPU (TCG, one vCPU) on a host that runs other guests beside: the
	 * suites' time limits are 4 times the host's (their work a quarter of it). */
	setenv("SYSSHIM_TEST_SCALE", "4", 0);
	/* Programs run in an empty directory of their own: /tmp's times change under them. */
	mkdir("/root", 0700);
	chdir("/root");
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs argv with stdout and stderr on a pipe, each line printed as "OUT tag| line".
 * Returns the wait status, or -1 when it was killed after `limit` seconds. */
static int run(const char *tag, char *const argv[], int limit)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC)) {
		say("RESULT %s rc=127 error=pipe", tag);
		return 127 << 8;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		setpgid(0, 0);
		execv(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	char line[2048];
	size_t len = 0;
	double start = now();
	int killed = 0;
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		int left = (int)((start + limit - now()) * 1000);
		if (left <= 0 && !killed) {
			say("OUT %s| [init] no end after %d s: killing it", tag, limit);
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			killed = 1;
		}
		int r = poll(&pf, 1, killed ? 5000 : left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			continue;
		char c[512];
		ssize_t n = read(p[0], c, sizeof c);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (c[i] == '\n' || len == sizeof line - 1) {
				line[len] = 0;
				say("OUT %s| %s", tag, line);
				len = 0;
				if (c[i] == '\n')
					continue;
			}
			if (c[i] != '\r')
				line[len++] = c[i];
		}
	}
	if (len) {
		line[len] = 0;
		say("OUT %s| %s", tag, line);
	}
	close(p[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/* Reap whatever the program left behind in its group. */
	kill(-pid, SIGKILL);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	int secs = (int)(now() - start + 0.5);
	if (killed)
		say("RESULT %s rc=timeout secs=%d", tag, secs);
	else if (WIFSIGNALED(st))
		say("RESULT %s rc=signal%d secs=%d", tag, WTERMSIG(st), secs);
	else
		say("RESULT %s rc=%d secs=%d", tag, WEXITSTATUS(st), secs);
	return killed ? -1 : st;
}

/* The probe's JSON line as one PROBE line (the host checks it). */
static void probe_json(void)
{
	int p[2];
	if (access("/bin/sysshim-probe", X_OK) || pipe(p)) {
		say("PROBE none");
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		execl("/bin/sysshim-probe", "sysshim-probe", "--json", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	char buf[2048];
	size_t len = 0;
	ssize_t n;
	while (len < sizeof buf - 1 && (n = read(p[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += n;
	close(p[0]);
	waitpid(pid, NULL, 0);
	buf[len] = 0;
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	say("PROBE %s", buf);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	setup();
	struct utsname u;
	uname(&u);
	const char *mode = getenv("SSMODE");
	if (!mode || !*mode)
		mode = "check";
	const char *d = strcmp(mode, "bench") ? "/tests" : "/bench";
	const char *lim = getenv("SSTIMEOUT");
	int limit = lim && atoi(lim) > 0 ? atoi(lim) : 900;

	say("BEGIN mode=%s kernel=%s arch=%s", mode, u.release, u.machine);
	probe_json();
	if (!access("/bin/sysshim-probe", X_OK)) {
		char *pa[] = { "/bin/sysshim-probe", NULL };
		run("sysshim-probe", pa, 60);
	}

	char *names[256];
	int n = 0;
	DIR *dir = opendir(d);
	struct dirent *e;
	while (dir && (e = readdir(dir)) && n < 256)
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	if (dir)
		closedir(dir);
	qsort(names, n, sizeof *names, cmp);

	int ok = 0, bad = 0;
	for (int i = 0; i < n; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", d, names[i]);
		char *argv[] = { path, NULL };
		int st = run(names[i], argv, limit);
		if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			ok++;
		else
			bad++;
	}
	say("END ran=%d ok=%d bad=%d", n, ok, bad);
	power_off();
	return 0;
}
