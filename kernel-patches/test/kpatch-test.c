// SPDX-License-Identifier: GPL-2.0
/*
 * kpatch-test: /init of a tiny initramfs that proves the sysshim Linux 6.1
 * stat patches (kernel-patches/linux-6.1/) on a running kernel.
 *
 * Correctness: with raw syscalls (syscall(2), no libc wrappers) on a tmpfs
 * file, a tmpfs directory, the root directory, /dev/null, a pipe, an O_PATH
 * descriptor and an O_PATH|O_NOFOLLOW descriptor of a symlink, check that
 * newfstatat(fd, "", AT_EMPTY_PATH) and statx(fd, "" or NULL, AT_EMPTY_PATH)
 * report what fstat(fd) reports, and that every error case keeps its errno.
 * Which answers are expected depends on the kernel: pass KPT_EXPECT=patched or
 * KPT_EXPECT=stock on the kernel command line (it reaches our environment).
 *
 * Benchmark: ns per call (CLOCK_MONOTONIC), KPT_ITERS calls per round
 * (default 200000), KPT_ROUNDS interleaved rounds (default 11), median, for
 * fstat, newfstatat(fd, "", AT_EMPTY_PATH), statx(fd, "", AT_EMPTY_PATH),
 * statx(fd, NULL, AT_EMPTY_PATH) and getppid, with the ratio to fstat taken
 * within each round.  On the patched kernel it prints whether each call
 * meets the 1.15 target ("KPT: TARGET ... met|MISSED") and fails above 1.35;
 * on the stock kernel it fails if the "" calls are not at least 1.5 times
 * fstat.  KPT_BENCH=0 skips it; KPT_PERF=report prints the TARGET lines but
 * asserts no ratio (for the stages of the series before its last patch, whose
 * statx is not expected to meet the target).
 *
 * Every line we print starts with "KPT: " (the firmware writes escape codes to
 * the same serial line); the last one is "KPT: N passed, N failed".  Then the
 * machine reboots with RB_AUTOBOOT, which makes `qemu -no-reboot` exit
 * (tinyconfig has no ACPI, so RB_POWER_OFF would only halt).
 *
 * Build: gcc -static -O2 -Wall -o init kpatch-test.c
 * It also runs as an ordinary program (KPT_EXPECT defaults to "auto": the
 * NULL-path answers may then be either the stock or the patched ones).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/stat.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#ifndef AT_STATX_SYNC_TYPE
#define AT_STATX_SYNC_TYPE	0x6000
#define AT_STATX_SYNC_AS_STAT	0x0000
#define AT_STATX_FORCE_SYNC	0x2000
#define AT_STATX_DONT_SYNC	0x4000
#endif
#ifndef STATX_MNT_ID
#define STATX_MNT_ID		0x00001000U
#endif
#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT	0x00002000
#endif

enum expect { EXP_AUTO, EXP_STOCK, EXP_PATCHED };

static enum expect expect = EXP_AUTO;
static int perf_report;	/* KPT_PERF=report: no ratio is asserted */
static char dir[64] = "/tmp", file[96], link_[96];
static int npass, nfail;

static void out(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("KPT: %s\n", buf);
	fflush(stdout);
}

static void result(int ok, const char *name, const char *fmt, ...)
{
	char buf[384] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
	}
	if (ok)
		npass++;
	else
		nfail++;
	out("%s %s%s%s", ok ? "PASS" : "FAIL", name, buf[0] ? ": " : "", buf);
}

/* raw system calls; return 0 or -errno */
static long r_fstat(int fd, struct stat *st)
{
	return syscall(SYS_fstat, fd, st) ? -errno : 0;
}

static long r_fstatat(int dfd, const char *path, struct stat *st, int flags)
{
	return syscall(SYS_newfstatat, dfd, path, st, flags) ? -errno : 0;
}

static long r_statx(int dfd, const char *path, int flags, unsigned int mask,
		    struct statx *stx)
{
	return syscall(SYS_statx, dfd, path, flags, mask, stx) ? -errno : 0;
}

static const char *errname(long r)
{
	static char buf[32];

	switch (-r) {
	case 0: return "success";
	case EFAULT: return "EFAULT";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ENOTDIR: return "ENOTDIR";
	case ENOSYS: return "ENOSYS";
	case EPERM: return "EPERM";
	}
	snprintf(buf, sizeof(buf), "errno %ld", -r);
	return buf;
}

/* does a struct stat match another one? describe the first difference */
static int stat_eq(const struct stat *a, const struct stat *b, char *why,
		   size_t n)
{
#define F(f) do { if (a->f != b->f) { snprintf(why, n, #f " %lld != %lld", \
	(long long)a->f, (long long)b->f); return 0; } } while (0)
	F(st_dev); F(st_ino); F(st_mode); F(st_nlink); F(st_uid); F(st_gid);
	F(st_rdev); F(st_size); F(st_blksize); F(st_blocks);
	F(st_atim.tv_sec); F(st_atim.tv_nsec); F(st_mtim.tv_sec);
	F(st_mtim.tv_nsec); F(st_ctim.tv_sec); F(st_ctim.tv_nsec);
#undef F
	return 1;
}

/* does a struct statx carry the same basic fields as a struct stat? */
static int statx_eq(const struct stat *a, const struct statx *x, char *why,
		    size_t n)
{
#define G(sf, xv) do { if ((long long)a->sf != (long long)(xv)) { \
	snprintf(why, n, #sf " %lld != %lld", (long long)a->sf, \
	(long long)(xv)); return 0; } } while (0)
	if ((x->stx_mask & STATX_BASIC_STATS) != STATX_BASIC_STATS) {
		snprintf(why, n, "stx_mask %#x lacks basic stats", x->stx_mask);
		return 0;
	}
	G(st_dev, makedev(x->stx_dev_major, x->stx_dev_minor));
	G(st_ino, x->stx_ino); G(st_mode, x->stx_mode);
	G(st_nlink, x->stx_nlink); G(st_uid, x->stx_uid);
	G(st_gid, x->stx_gid);
	G(st_rdev, makedev(x->stx_rdev_major, x->stx_rdev_minor));
	G(st_size, x->stx_size); G(st_blksize, x->stx_blksize);
	G(st_blocks, x->stx_blocks);
	G(st_atim.tv_sec, x->stx_atime.tv_sec);
	G(st_atim.tv_nsec, x->stx_atime.tv_nsec);
	G(st_mtim.tv_sec, x->stx_mtime.tv_sec);
	G(st_mtim.tv_nsec, x->stx_mtime.tv_nsec);
	G(st_ctim.tv_sec, x->stx_ctime.tv_sec);
	G(st_ctim.tv_nsec, x->stx_ctime.tv_nsec);
#undef G
	return 1;
}

/* expect a call to give errno @want (0: success) */
static void want_err(const char *name, long got, int want)
{
	result(got == -want, name, got == -want ? NULL : "got %s, want %s",
	       errname(got), errname(-want));
}

/*
 * A case whose answer changed after 6.1 (6.11+ accepts more NULL paths and
 * skips flag checks on its fast path): asserted on the 6.1 guests, only
 * reported when the program runs elsewhere (KPT_EXPECT unset).
 */
static void want_err_61(const char *name, long got, int want)
{
	if (expect == EXP_AUTO && got != -want) {
		out("SKIP %s: got %s, 6.1 gives %s", name, errname(got),
		    errname(-want));
		return;
	}
	want_err(name, got, want);
}

/*
 * A NULL path with AT_EMPTY_PATH: EFAULT on the stock kernel, @patched_errno
 * on the patched one; under "auto" either answer is accepted.
 */
static void want_null(const char *name, long got, int patched_errno)
{
	int want = expect == EXP_STOCK ? EFAULT : patched_errno;

	if (expect == EXP_AUTO && got == -EFAULT)
		want = EFAULT;
	want_err(name, got, want);
}

struct obj {
	const char *name;
	int fd;
};

static void check_fd(const struct obj *o)
{
	static const int xflags[] = {
		AT_EMPTY_PATH,
		AT_EMPTY_PATH | AT_STATX_SYNC_AS_STAT,	/* Rust std */
		AT_EMPTY_PATH | AT_NO_AUTOMOUNT,	/* glibc, Go, musl */
		AT_EMPTY_PATH | AT_STATX_FORCE_SYNC,
		AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
	};
	struct stat ref, st;
	struct statx stx, slow;
	char name[160], why[200];
	unsigned int i;
	long r;

	r = r_fstat(o->fd, &ref);
	snprintf(name, sizeof(name), "%s fstat", o->name);
	want_err(name, r, 0);
	if (r)
		return;

	snprintf(name, sizeof(name), "%s newfstatat(\"\", AT_EMPTY_PATH)",
		 o->name);
	memset(&st, 0xa5, sizeof(st));
	r = r_fstatat(o->fd, "", &st, AT_EMPTY_PATH);
	if (r)
		want_err(name, r, 0);
	else
		result(stat_eq(&ref, &st, why, sizeof(why)), name, "%s", why);

	snprintf(name, sizeof(name), "%s newfstatat(NULL, AT_EMPTY_PATH)",
		 o->name);
	memset(&st, 0xa5, sizeof(st));
	r = r_fstatat(o->fd, NULL, &st, AT_EMPTY_PATH);
	if (r)
		want_null(name, r, 0);
	else
		result(expect != EXP_STOCK && stat_eq(&ref, &st, why, sizeof(why)),
		       name, expect == EXP_STOCK ? "succeeded on stock" : "%s",
		       why);

	for (i = 0; i < sizeof(xflags) / sizeof(xflags[0]); i++) {
		for (int null = 0; null < 2; null++) {
			snprintf(name, sizeof(name), "%s statx(%s, %#x)",
				 o->name, null ? "NULL" : "\"\"", xflags[i]);
			memset(&stx, 0xa5, sizeof(stx));
			r = r_statx(o->fd, null ? NULL : "", xflags[i],
				    STATX_BASIC_STATS | STATX_BTIME |
				    STATX_MNT_ID, &stx);
			if (r && null) {
				want_null(name, r, 0);
				continue;
			}
			if (r) {
				want_err(name, r, 0);
				continue;
			}
			if (null && expect == EXP_STOCK) {
				result(0, name, "succeeded on stock");
				continue;
			}
			result(statx_eq(&ref, &stx, why, sizeof(why)), name,
			       "%s", why);
		}
	}

	/*
	 * The extra statx fields (mount id, STATX_ATTR_MOUNT_ROOT) must be
	 * what the path walk gives for the same file: compare with
	 * AT_EMPTY_PATH|AT_SYMLINK_NOFOLLOW, which no patch sends to the
	 * short cut.
	 */
	snprintf(name, sizeof(name), "%s statx mnt_id/attributes", o->name);
	memset(&stx, 0, sizeof(stx));
	memset(&slow, 0, sizeof(slow));
	r = r_statx(o->fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS |
		    STATX_MNT_ID, &stx);
	if (!r)
		r = r_statx(o->fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
			    STATX_BASIC_STATS | STATX_MNT_ID, &slow);
	if (r)
		want_err(name, r, 0);
	else
		result((stx.stx_mask & STATX_MNT_ID) &&
		       stx.stx_mnt_id == slow.stx_mnt_id &&
		       stx.stx_mask == slow.stx_mask &&
		       stx.stx_attributes == slow.stx_attributes &&
		       stx.stx_attributes_mask == slow.stx_attributes_mask,
		       name, "fast mask %#x mnt %llu attr %#llx/%#llx, "
		       "walk mask %#x mnt %llu attr %#llx/%#llx",
		       stx.stx_mask, (unsigned long long)stx.stx_mnt_id,
		       (unsigned long long)stx.stx_attributes,
		       (unsigned long long)stx.stx_attributes_mask,
		       slow.stx_mask, (unsigned long long)slow.stx_mnt_id,
		       (unsigned long long)slow.stx_attributes,
		       (unsigned long long)slow.stx_attributes_mask);

	/* these never take a fast path and must keep their errno */
	snprintf(name, sizeof(name), "%s statx(NULL, 0) EFAULT", o->name);
	want_err(name, r_statx(o->fd, NULL, 0, STATX_BASIC_STATS, &stx),
		 EFAULT);
	snprintf(name, sizeof(name), "%s statx(NULL, AT_SYMLINK_NOFOLLOW) "
		 "EFAULT", o->name);
	want_err(name, r_statx(o->fd, NULL, AT_SYMLINK_NOFOLLOW,
			       STATX_BASIC_STATS, &stx), EFAULT);
	snprintf(name, sizeof(name), "%s statx(NULL, AT_EMPTY_PATH|"
		 "AT_SYMLINK_NOFOLLOW) EFAULT", o->name);
	want_err_61(name, r_statx(o->fd, NULL, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
			       STATX_BASIC_STATS, &stx), EFAULT);
	snprintf(name, sizeof(name), "%s newfstatat(NULL, AT_EMPTY_PATH|"
		 "AT_SYMLINK_NOFOLLOW) EFAULT", o->name);
	want_err_61(name, r_fstatat(o->fd, NULL, &st, AT_EMPTY_PATH |
				 AT_SYMLINK_NOFOLLOW), EFAULT);
	snprintf(name, sizeof(name), "%s newfstatat(NULL, 0) EFAULT", o->name);
	want_err(name, r_fstatat(o->fd, NULL, &st, 0), EFAULT);
	snprintf(name, sizeof(name), "%s statx(\"\", 0) ENOENT", o->name);
	want_err(name, r_statx(o->fd, "", 0, STATX_BASIC_STATS, &stx), ENOENT);
	snprintf(name, sizeof(name), "%s newfstatat(\"\", 0) ENOENT", o->name);
	want_err(name, r_fstatat(o->fd, "", &st, 0), ENOENT);
	snprintf(name, sizeof(name), "%s statx((char *)-1, AT_EMPTY_PATH) "
		 "EFAULT", o->name);
	want_err(name, r_statx(o->fd, (const char *)-1L, AT_EMPTY_PATH,
			       STATX_BASIC_STATS, &stx), EFAULT);
	snprintf(name, sizeof(name), "%s newfstatat((char *)-1, AT_EMPTY_PATH)"
		 " EFAULT", o->name);
	want_err(name, r_fstatat(o->fd, (const char *)-1L, &st, AT_EMPTY_PATH),
		 EFAULT);
	snprintf(name, sizeof(name), "%s statx(\"\", EMPTY|SYNC_TYPE) EINVAL",
		 o->name);
	want_err(name, r_statx(o->fd, "", AT_EMPTY_PATH | AT_STATX_SYNC_TYPE,
			       STATX_BASIC_STATS, &stx), EINVAL);
	snprintf(name, sizeof(name), "%s statx(\"\", EMPTY|0x80000000) EINVAL",
		 o->name);
	want_err_61(name, r_statx(o->fd, "", AT_EMPTY_PATH | 0x80000000,
			       STATX_BASIC_STATS, &stx), EINVAL);
	snprintf(name, sizeof(name), "%s statx(\"\", EMPTY, RESERVED mask) "
		 "EINVAL", o->name);
	want_err(name, r_statx(o->fd, "", AT_EMPTY_PATH, STATX__RESERVED, &stx),
		 EINVAL);
	/* the mask is checked before the path is used, also on stock 6.1 */
	snprintf(name, sizeof(name), "%s statx(NULL, EMPTY, RESERVED mask) "
		 "EINVAL", o->name);
	want_err(name, r_statx(o->fd, NULL, AT_EMPTY_PATH, STATX__RESERVED,
			       &stx), EINVAL);
	snprintf(name, sizeof(name), "%s newfstatat(\"\", EMPTY|0x80000000) "
		 "EINVAL", o->name);
	want_err_61(name, r_fstatat(o->fd, "", &st, AT_EMPTY_PATH | 0x80000000),
		 EINVAL);
}

static void check_global(void)
{
	struct statx stx;
	struct stat st;
	int fd;

	/* Rust's std probes statx(0, NULL, 0, ...) and needs EFAULT */
	want_err("statx(0, NULL, 0) EFAULT",
		 r_statx(0, NULL, 0, STATX_ALL, NULL), EFAULT);
	want_err("statx(0, NULL, 0, buf) EFAULT",
		 r_statx(0, NULL, 0, STATX_BASIC_STATS, &stx), EFAULT);
	want_err_61("statx(-1, NULL, AT_EMPTY_PATH) EFAULT",
		 r_statx(-1, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, &stx),
		 EFAULT);
	want_err_61("statx(AT_FDCWD, NULL, AT_EMPTY_PATH) EFAULT",
		 r_statx(AT_FDCWD, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS,
			 &stx), EFAULT);
	want_err_61("newfstatat(-1, NULL, AT_EMPTY_PATH) EFAULT",
		 r_fstatat(-1, NULL, &st, AT_EMPTY_PATH), EFAULT);
	want_err_61("newfstatat(AT_FDCWD, NULL, AT_EMPTY_PATH) EFAULT",
		 r_fstatat(AT_FDCWD, NULL, &st, AT_EMPTY_PATH), EFAULT);
	want_err("statx(-1, \"\", AT_EMPTY_PATH) EBADF",
		 r_statx(-1, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx),
		 EBADF);
	want_err("newfstatat(-1, \"\", AT_EMPTY_PATH) EBADF",
		 r_fstatat(-1, "", &st, AT_EMPTY_PATH), EBADF);
	want_err("statx(AT_FDCWD, \"\", AT_EMPTY_PATH) cwd",
		 r_statx(AT_FDCWD, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx),
		 0);
	want_err("newfstatat(AT_FDCWD, \"\", AT_EMPTY_PATH) cwd",
		 r_fstatat(AT_FDCWD, "", &st, AT_EMPTY_PATH), 0);

	/* a closed descriptor */
	fd = open("/", O_RDONLY | O_DIRECTORY);
	close(fd);
	want_err("closed fd: fstat EBADF", r_fstat(fd, &st), EBADF);
	want_err("closed fd: newfstatat(\"\", AT_EMPTY_PATH) EBADF",
		 r_fstatat(fd, "", &st, AT_EMPTY_PATH), EBADF);
	want_err("closed fd: statx(\"\", AT_EMPTY_PATH) EBADF",
		 r_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx),
		 EBADF);
	want_null("closed fd: statx(NULL, AT_EMPTY_PATH)",
		  r_statx(fd, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, &stx),
		  EBADF);
	want_null("closed fd: newfstatat(NULL, AT_EMPTY_PATH)",
		  r_fstatat(fd, NULL, &st, AT_EMPTY_PATH), EBADF);
	want_err("closed fd: statx(NULL, 0) EFAULT",
		 r_statx(fd, NULL, 0, STATX_BASIC_STATS, &stx), EFAULT);
	/* a bad result buffer */
	fd = open("/", O_RDONLY | O_DIRECTORY);
	want_err("statx(fd, \"\", AT_EMPTY_PATH, NULL buf) EFAULT",
		 r_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, NULL),
		 EFAULT);
	want_err("newfstatat(fd, \"\", AT_EMPTY_PATH, NULL buf) EFAULT",
		 r_fstatat(fd, "", NULL, AT_EMPTY_PATH), EFAULT);
	close(fd);
}

/* ---- benchmark ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

enum { B_FSTAT, B_FSTATAT, B_STATX_EMPTY, B_STATX_NULL, B_GETPPID, NB };
static const char *const bname[NB] = {
	"fstat", "newfstatat_empty", "statx_empty", "statx_null", "getppid",
};
static const char *const bdesc[NB] = {
	"fstat(fd)", "newfstatat(fd, \"\", AT_EMPTY_PATH)",
	"statx(fd, \"\", AT_EMPTY_PATH)", "statx(fd, NULL, AT_EMPTY_PATH)",
	"getppid()",
};

static long bench_one(int which, int fd)
{
	struct stat st;
	struct statx stx;

	switch (which) {
	case B_FSTAT:
		return syscall(SYS_fstat, fd, &st);
	case B_FSTATAT:
		return syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH);
	case B_STATX_EMPTY:
		return syscall(SYS_statx, fd, "", AT_EMPTY_PATH,
			       STATX_BASIC_STATS, &stx);
	case B_STATX_NULL:
		return syscall(SYS_statx, fd, NULL, AT_EMPTY_PATH,
			       STATX_BASIC_STATS, &stx);
	default:
		return syscall(SYS_getppid);
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void bench(int fd)
{
	long iters = getenv("KPT_ITERS") ? atol(getenv("KPT_ITERS")) : 200000;
	int rounds = getenv("KPT_ROUNDS") ? atoi(getenv("KPT_ROUNDS")) : 11;
	double ns[NB][64], ratio[NB][64];
	int works[NB], i, r;
	long k;

	if (rounds < 1 || rounds > 64)
		rounds = 11;
	if (iters < 1)
		iters = 200000;
	for (i = 0; i < NB; i++) {
		works[i] = bench_one(i, fd) >= 0;
		if (!works[i])
			out("bench %s: %s, not timed", bname[i],
			    errname(-errno));
	}
	out("bench: %ld calls per round, %d rounds, median", iters, rounds);
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < NB; i++) {
			/* rotate the order so no call always runs first */
			int w = (i + r) % NB;
			uint64_t t0;

			if (!works[w])
				continue;
			t0 = now_ns();
			for (k = 0; k < iters; k++)
				bench_one(w, fd);
			ns[w][r] = (double)(now_ns() - t0) / iters;
		}
		for (i = 0; i < NB; i++)
			if (works[i])
				ratio[i][r] = ns[i][r] / ns[B_FSTAT][r];
	}
	for (i = 0; i < NB; i++) {
		if (!works[i]) {
			out("BENCH %-16s %8s %6s  %s", bname[i], "-", "EFAULT",
			    bdesc[i]);
			continue;
		}
		double m = median(ns[i], rounds), q = median(ratio[i], rounds);

		out("BENCH %-16s %8.0f %6.2f  %s", bname[i], m, q, bdesc[i]);
		if (expect == EXP_AUTO || i == B_FSTAT || i == B_GETPPID)
			continue;
		if (perf_report) {
			if (expect == EXP_PATCHED)
				out("TARGET %s within 15%% of fstat: %s (%.2f)",
				    bname[i], q <= 1.15 ? "met" : "MISSED", q);
			continue;
		}
		if (expect == EXP_PATCHED) {
			char n[96];

			/*
			 * The target is 1.15; under TCG the median moves
			 * from run to run (kernel-patches/README.md,
			 * "Measurements"), so the check asserts only the
			 * large effect, 1.35 (stock is far above it), and
			 * reports the target separately.
			 */
			out("TARGET %s within 15%% of fstat: %s (%.2f)", bname[i],
			    q <= 1.15 ? "met" : "MISSED", q);
			snprintf(n, sizeof(n), "perf %s at most 1.35 x fstat",
				 bname[i]);
			result(q <= 1.35, n, "ratio %.2f", q);
		} else if (i != B_STATX_NULL) {
			char n[96];

			/* stock: only assert a large effect, as a sanity check */
			snprintf(n, sizeof(n), "perf stock %s slower than fstat",
				 bname[i]);
			result(q >= 1.5, n, "ratio %.2f", q);
		}
	}
}

static void setup(void)
{
	if (getpid() != 1)
		return;
	mkdir("/proc", 0755);
	mkdir("/tmp", 01777);
	mkdir("/dev", 0755);
	if (mount("proc", "/proc", "proc", 0, NULL))
		out("mount /proc: %s", strerror(errno));
	if (mount("tmpfs", "/tmp", "tmpfs", 0, "size=16m"))
		out("mount /tmp: %s", strerror(errno));
	if (access("/dev/null", F_OK) &&
	    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL))
		out("mount /dev: %s", strerror(errno));
}

int main(void)
{
	const char *e = getenv("KPT_EXPECT");
	const char *b = getenv("KPT_BENCH");
	struct obj objs[8];
	struct utsname u;
	int n = 0, fd, pfd[2];

	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	perf_report = getenv("KPT_PERF") && !strcmp(getenv("KPT_PERF"), "report");
	if (e && !strcmp(e, "patched"))
		expect = EXP_PATCHED;
	else if (e && !strcmp(e, "stock"))
		expect = EXP_STOCK;
	uname(&u);
	out("start: kernel %s %s %s, KPT_EXPECT=%s", u.release, u.version,
	    u.machine, e ? e : "(unset: auto)");
	if (e && expect == EXP_AUTO)
		result(0, "KPT_EXPECT", "must be patched or stock, not '%s'", e);

	/* as /init: the tmpfs on /tmp; elsewhere a private directory */
	if (getpid() != 1) {
		strcpy(dir, "/tmp/kpt.XXXXXX");
		if (!mkdtemp(dir))
			strcpy(dir, "/tmp");
	}
	snprintf(file, sizeof(file), "%s/kpt-file", dir);
	snprintf(link_, sizeof(link_), "%s/kpt-link", dir);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0640);
	if (fd < 0 || write(fd, "sysshim kernel patch test\n", 26) != 26)
		result(0, "create the test file", "%s: %s", file, strerror(errno));
	objs[n++] = (struct obj){ "tmpfs-file", fd };
	objs[n++] = (struct obj){ "tmpfs-dir", open(dir, O_RDONLY |
						     O_DIRECTORY) };
	objs[n++] = (struct obj){ "root-dir", open("/", O_RDONLY |
						    O_DIRECTORY) };
	objs[n++] = (struct obj){ "dev-null", open("/dev/null", O_RDWR) };
	if (pipe(pfd) == 0)
		objs[n++] = (struct obj){ "pipe", pfd[0] };
	objs[n++] = (struct obj){ "opath-file", open(file, O_PATH) };
	if (symlink("kpt-file", link_))
		out("symlink: %s", strerror(errno));
	objs[n++] = (struct obj){ "opath-symlink", open(link_, O_PATH |
							 O_NOFOLLOW) };

	for (int i = 0; i < n; i++) {
		if (objs[i].fd < 0) {
			result(0, objs[i].name, "open: %s", strerror(errno));
			continue;
		}
		check_fd(&objs[i]);
	}
	check_global();

	if (!b || strcmp(b, "0"))
		bench(fd);

	out("%d passed, %d failed", npass, nfail);
	if (getpid() != 1 && strcmp(dir, "/tmp")) {
		unlink(link_);
		unlink(file);
		rmdir(dir);
	}
	if (getpid() == 1) {
		sync();
		reboot(RB_AUTOBOOT);
		for (;;)
			pause();
	}
	return nfail ? 1 : 0;
}
