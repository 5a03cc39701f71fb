/* sysshim-run-probe: decides for sysshim-run whether preloading libsysshim can pay here,
 * then runs the command (with LD_PRELOAD or without), so the decision costs one exec.
 *
 *   sysshim-run-probe [-v] --mode auto|always|never --lib FILE -- COMMAND [ARGS...]
 *   sysshim-run-probe --decide [--mode M]     prints the decision and why
 *   sysshim-run-probe --measure               times the two calls now (nothing cached)
 *
 * auto preloads when
 *   - a sandbox refuses a call that glibc 2.33-2.38 does not fall back from: statx answered
 *     EPERM (glibc's statx() falls back only on ENOSYS: ls and stat fail); checked on every
 *     run (sandboxes are per process tree). (A sandbox that refuses newfstatat breaks
 *     glibc's ld.so itself, which no preload can mend.) Or
 *   - the kernel lacks the empty-path fast path: newfstatat(fd, "", AT_EMPTY_PATH) costs at
 *     least SYSSHIM_RUN_RATIO (1.5) times fstat(fd). A kernel that accepts a NULL path
 *     (Linux 6.11+) has the fast path and is not timed. Otherwise the two calls are timed,
 *     interleaved (16 rounds of 16 calls each, the fastest round of each: about 1 ms under
 *     qemu TCG, 0.2 ms natively), because version numbers lie: distribution kernels
 *     backport the 6.6 fast path. The timing is cached per boot (keyed by
 *     /proc/sys/kernel/random/boot_id) in $SYSSHIM_RUN_CACHE, else
 *     $XDG_RUNTIME_DIR/sysshim-run.cache, else /tmp/sysshim-run-UID.cache.
 * Test hook: SYSSHIM_RUN_TIMING="FSTAT_NS EMPTY_NS" replaces the NULL check and the
 * measurement (nothing cached); SYSSHIM_RUN_RATIO moves the threshold.
 * Exit status: the command's; 127 when it is not found, 126 when it cannot be run (env(1)).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 16
#define CALLS 16

static long sys_fstat(int fd, void *st) { return syscall(SYS_fstat, fd, st); }
static long sys_empty(int fd, const char *path, void *st)
{
	return syscall(SYS_newfstatat, fd, path, st, AT_EMPTY_PATH);
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The fastest round's ns per call of each, interleaved so that drift hits both. */
static void measure(int fd, double *fs, double *em)
{
	char st[256];
	uint64_t best_f = UINT64_MAX, best_e = UINT64_MAX;
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < 2; k++) {
			int empty = (r + k) & 1;
			uint64_t t0 = now_ns();
			for (int i = 0; i < CALLS; i++)
				empty ? sys_empty(fd, "", st) : sys_fstat(fd, st);
			uint64_t d = now_ns() - t0;
			if (empty && d < best_e)
				best_e = d;
			if (!empty && d < best_f)
				best_f = d;
		}
	}
	*fs = (double)best_f / CALLS;
	*em = (double)best_e / CALLS;
}

static void cache_path(char *buf, size_t n)
{
	const char *e = getenv("SYSSHIM_RUN_CACHE"), *x = getenv("XDG_RUNTIME_DIR");
	if (e && *e)
		snprintf(buf, n, "%s", e);
	else if (x && *x == '/' && !access(x, W_OK))
		snprintf(buf, n, "%s/sysshim-run.cache", x);
	else
		snprintf(buf, n, "/tmp/sysshim-run-%u.cache", (unsigned)getuid());
}

static int read_boot_id(char *buf, size_t n)
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, n - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return *buf ? 0 : -1;
}

/* Cache line: "BOOT_ID FSTAT_NS EMPTY_NS". Only a file the user owns is believed. */
static int cache_read(const char *path, const char *boot, double *fs, double *em)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	char line[256], id[128];
	ssize_t r = -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == getuid())
		r = read(fd, line, sizeof line - 1);
	close(fd);
	if (r <= 0)
		return -1;
	line[r] = 0;
	if (sscanf(line, "%127s %lf %lf", id, fs, em) != 3 || strcmp(id, boot) || *fs <= 0 || *em <= 0)
		return -1;
	return 0;
}

static void cache_write(const char *path, const char *boot, double fs, double em)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	dprintf(fd, "%s %.1f %.1f\n", boot, fs, em);
	if (close(fd) || rename(tmp, path))
		unlink(tmp);
}

struct decision {
	int preload;
	char why[512];
};

static void decide(struct decision *d, const char *mode)
{
	char st[256], sx[256];
	/* 6.1 under qemu TCG: 2.5 times; natively on 6.18: 1.2 times (28 ns, 1400 calls to
	 * repay a preload's 40 us): the threshold sits between. */
	d->preload = 0;
	if (!strcmp(mode, "always")) {
		d->preload = 1;
		snprintf(d->why, sizeof d->why, "asked to (--always or SYSSHIM_RUN=always)");
		return;
	}
	if (!strcmp(mode, "never")) {
		snprintf(d->why, sizeof d->why, "asked not to (--never or SYSSHIM_RUN=never)");
		return;
	}
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(d->why, sizeof d->why, "cannot open / to measure (%s): left to glibc", strerror(errno));
		return;
	}
	/* Sandboxes: what glibc 2.36 does not fall back from. */
	long f = sys_fstat(fd, st), e = sys_empty(fd, "", st);
	long x = syscall(SYS_statx, AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW, 0x7ffu, sx);
	int xe = errno;
	if (x < 0 && xe == EPERM) {
		d->preload = 1;
		snprintf(d->why, sizeof d->why, "statx is refused here with EPERM (a sandbox): glibc's "
			 "statx() does not fall back from EPERM (ls, stat fail), sysshim's does");
		close(fd);
		return;
	}
	if (f < 0 || e < 0) {
		snprintf(d->why, sizeof d->why, "fstat or newfstatat refused here: nothing to gain");
		close(fd);
		return;
	}
	double fs = 0, em = 0, ratio_min = 1.5;
	const char *src = "measured now", *hook = getenv("SYSSHIM_RUN_TIMING"), *r = getenv("SYSSHIM_RUN_RATIO");
	char cpath[4096], boot[128], srcbuf[4200];
	if (r && atof(r) > 0)
		ratio_min = atof(r);
	int hooked = hook && sscanf(hook, "%lf %lf", &fs, &em) == 2 && fs > 0 && em > 0;
	/* 6.11+: NULL accepted, the fast path is there; no timing needed. */
	if (!hooked && syscall(SYS_newfstatat, fd, (char *)0, st, AT_EMPTY_PATH) == 0) {
		snprintf(d->why, sizeof d->why, "the kernel accepts newfstatat(fd, NULL, AT_EMPTY_PATH) "
			 "(Linux 6.11+): glibc's empty-path fstat is on the fast path, nothing to save");
		close(fd);
		return;
	}
	if (hooked) {
		src = "from SYSSHIM_RUN_TIMING";
	} else {
		cache_path(cpath, sizeof cpath);
		int have_boot = !read_boot_id(boot, sizeof boot);
		if (have_boot && !cache_read(cpath, boot, &fs, &em)) {
			snprintf(srcbuf, sizeof srcbuf, "measured this boot, cached in %s", cpath);
			src = srcbuf;
		} else {
			measure(fd, &fs, &em);
			if (have_boot) {
				cache_write(cpath, boot, fs, em);
				snprintf(srcbuf, sizeof srcbuf, "measured now, cached in %s", cpath);
				src = srcbuf;
			}
		}
	}
	close(fd);
	double ratio = em / fs;
	d->preload = ratio >= ratio_min;
	snprintf(d->why, sizeof d->why, "newfstatat(fd, \"\", AT_EMPTY_PATH) costs %.2f times fstat(fd) "
		 "here (%.0f vs %.0f ns, %.300s): %s (threshold %.2f)", ratio, em, fs, src,
		 d->preload ? "the kernel lacks the empty-path fast path, glibc's fstat() pays it"
			    : "the kernel has the empty-path fast path, nothing to save",
		 ratio_min);
}

static int usage(void)
{
	fprintf(stderr, "usage: sysshim-run-probe [-v] --mode auto|always|never --lib FILE -- COMMAND [ARGS...]\n"
			"       sysshim-run-probe --decide [--mode M] | --measure\n");
	return 125;
}

int main(int argc, char **argv)
{
	const char *mode = "auto", *lib = 0;
	int verbose = 0, only = 0, i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "--decide")) {
			only = 1;
		} else if (!strcmp(argv[i], "--measure")) {
			/* The timing alone, always measured, never cached: for benchmarks. */
			double fs, em;
			int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				return 1;
			measure(fd, &fs, &em);
			printf("fstat %.1f ns, newfstatat-empty %.1f ns, ratio %.2f\n", fs, em, em / fs);
			return 0;
		} else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
			mode = argv[++i];
		} else if (!strcmp(argv[i], "--lib") && i + 1 < argc) {
			lib = argv[++i];
		} else {
			return usage();
		}
	}
	if (strcmp(mode, "auto") && strcmp(mode, "always") && strcmp(mode, "never")) {
		fprintf(stderr, "sysshim-run: unknown mode '%s' (auto, always, never)\n", mode);
		return 125;
	}
	struct decision d;
	decide(&d, mode);
	if (only) {
		printf("%s %s\n", d.preload ? "preload" : "no-preload", d.why);
		return 0;
	}
	if (i >= argc || !lib)
		return usage();
	if (verbose)
		fprintf(stderr, "sysshim-run: %s%s: %s\n", d.preload ? "preloading " : "not preloading",
			d.preload ? lib : "", d.why);
	if (d.preload) {
		const char *old = getenv("LD_PRELOAD");
		size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
		char *v = malloc(n);
		if (!v)
			return 125;
		snprintf(v, n, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
		setenv("LD_PRELOAD", v, 1);
	}
	execvp(argv[i], argv + i);
	int err = errno;
	fprintf(stderr, "sysshim-run: %s: %s\n", argv[i], strerror(err));
	return err == ENOENT ? 127 : 126;
}
