/* ns per call for the stat family: the raw syscall, glibc and sysshim, interleaved
 * rounds, medians. SYSSHIM_BENCH_ITERS and SYSSHIM_BENCH_ROUNDS scale it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "sysshim.h"

#include "../tests/libc_ref.h"

static int fd, dfd;
static const char *path = "/tmp/sysshim-bench-file";
static void *volatile nullp;

#define CASE(name, expr) static void name(long n) { struct stat st; struct statx sx; \
	(void)st; (void)sx; for (long i = 0; i < n; i++) { expr; } }

CASE(raw_fstat, syscall(SYS_fstat, fd, &st))
CASE(raw_newfstatat_empty, syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH))
CASE(raw_newfstatat_null, syscall(SYS_newfstatat, fd, nullp, &st, AT_EMPTY_PATH))
CASE(raw_statx_empty, syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx))
CASE(raw_statx_null, syscall(SYS_statx, fd, nullp, AT_EMPTY_PATH, STATX_BASIC_STATS, &sx))
CASE(glibc_fstat, libc_fstat(fd, &st))
CASE(ss_fstat, sysshim_fstat(fd, &st))
CASE(glibc_fstatat_empty, libc_fstatat(fd, "", &st, AT_EMPTY_PATH))
CASE(ss_fstatat_empty, sysshim_fstatat(fd, "", &st, AT_EMPTY_PATH))
CASE(raw_stat, syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0))
CASE(glibc_stat, libc_fstatat(AT_FDCWD, path, &st, 0))
CASE(ss_stat, sysshim_stat(path, &st))
CASE(raw_lstat, syscall(SYS_newfstatat, AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW))
CASE(glibc_lstat, libc_fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW))
CASE(ss_lstat, sysshim_lstat(path, &st))
CASE(raw_fstatat, syscall(SYS_newfstatat, dfd, "sysshim-bench-file", &st, 0))
CASE(glibc_fstatat, libc_fstatat(dfd, "sysshim-bench-file", &st, 0))
CASE(ss_fstatat, sysshim_fstatat(dfd, "sysshim-bench-file", &st, 0))
CASE(raw_statx, syscall(SYS_statx, AT_FDCWD, path, 0, STATX_BASIC_STATS, &sx))
CASE(ss_statx, sysshim_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &sx))

struct row {
	const char *call;
	void (*raw)(long), (*glibc)(long), (*ss)(long);
	const char *raw_is;
};

static const struct row rows[] = {
	{ "fstat(fd)", raw_fstat, glibc_fstat, ss_fstat, "fstat" },
	{ "fstatat(fd, \"\", AT_EMPTY_PATH)", raw_fstat, glibc_fstatat_empty, ss_fstatat_empty,
	  "fstat" },
	{ "stat(path)", raw_stat, glibc_stat, ss_stat, "newfstatat" },
	{ "lstat(path)", raw_lstat, glibc_lstat, ss_lstat, "newfstatat" },
	{ "fstatat(dirfd, name, 0)", raw_fstatat, glibc_fstatat, ss_fstatat, "newfstatat" },
	{ "statx(AT_FDCWD, path)", raw_statx, raw_statx, ss_statx, "statx" },
};
#define NROWS (int)(sizeof rows / sizeof *rows)

static const struct { const char *call; void (*fn)(long); int null; } kernel_rows[] = {
	{ "fstat(fd)", raw_fstat, 0 },
	{ "newfstatat(fd, \"\", AT_EMPTY_PATH)", raw_newfstatat_empty, 0 },
	{ "newfstatat(fd, NULL, AT_EMPTY_PATH)", raw_newfstatat_null, 1 },
	{ "statx(fd, \"\", AT_EMPTY_PATH)", raw_statx_empty, 0 },
	{ "statx(fd, NULL, AT_EMPTY_PATH)", raw_statx_null, 1 },
};
#define NK (int)(sizeof kernel_rows / sizeof *kernel_rows)

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static double timed(void (*fn)(long), long n)
{
	double t = now();
	fn(n);
	return (now() - t) / n;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	return v && *v ? atol(v) : def;
}

int main(void)
{
	long iters = env_long("SYSSHIM_BENCH_ITERS", 200000);
	int rounds = env_long("SYSSHIM_BENCH_ROUNDS", 11);
	double t[NROWS][3][64], r[NROWS][2][64], k[NK][64], kr[NK][64];
	struct sysshim_info in;
	struct statx sx;

	if (rounds > 64)
		rounds = 64;
	fd = open(path, O_CREAT | O_RDWR, 0644);
	dfd = open("/tmp", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || dfd < 0) {
		perror("bench: open");
		return 1;
	}
	sysshim_info(&in);
	int null_ok = syscall(SYS_statx, fd, nullp, AT_EMPTY_PATH, STATX_BASIC_STATS, &sx) == 0;
	for (int i = 0; i < NROWS; i++)
		rows[i].ss(1000), rows[i].glibc(1000), rows[i].raw(1000);
	for (int j = 0; j < rounds; j++) {
		for (int i = 0; i < NROWS; i++) {
			t[i][0][j] = timed(rows[i].raw, iters);
			t[i][1][j] = timed(rows[i].glibc, iters);
			t[i][2][j] = timed(rows[i].ss, iters);
			r[i][0][j] = t[i][1][j] / t[i][0][j];
			r[i][1][j] = t[i][2][j] / t[i][0][j];
		}
		for (int i = 0; i < NK; i++) {
			k[i][j] = kernel_rows[i].null && !null_ok ? 0 : timed(kernel_rows[i].fn, iters);
			kr[i][j] = k[i][j] / k[0][j];
		}
	}
	printf("sysshim stat benchmark: %d interleaved rounds x %ld calls, medians; fstat strategy %s\n",
	       rounds, iters, sysshim_strategy_name(in.fstat_strategy));
	printf("%-34s %10s %10s %10s %9s %9s %9s\n", "call (ns per call)", "raw", "glibc",
	       "sysshim", "glibc/raw", "ss/raw", "glibc/ss");
	for (int i = 0; i < NROWS; i++) {
		double raw = median(t[i][0], rounds), gl = median(t[i][1], rounds),
		       ss = median(t[i][2], rounds);
		double rg = median(r[i][0], rounds), rs = median(r[i][1], rounds);
		double gs[64];
		for (int j = 0; j < rounds; j++)
			gs[j] = t[i][1][j] / t[i][2][j];
		printf("%-34s %10.0f %10.0f %10.0f %9.2f %9.2f %9.2f\n", rows[i].call, raw, gl, ss,
		       rg, rs, median(gs, rounds));
	}
	printf("(raw = the %s syscall for fstat rows, newfstatat for path rows, statx for statx;\n"
	       " glibc = glibc's own implementation, statically resolved; for statx glibc is the raw "
	       "syscall)\n", "fstat");
	printf("\n%-40s %10s %9s\n", "kernel path (ns per call)", "ns", "vs fstat");
	for (int i = 0; i < NK; i++) {
		if (kernel_rows[i].null && !null_ok) {
			printf("%-40s %10s %9s\n", kernel_rows[i].call, "EFAULT", "-");
			continue;
		}
		printf("%-40s %10.0f %9.2f\n", kernel_rows[i].call, median(k[i], rounds),
		       median(kr[i], rounds));
	}
	unlink(path);
	return 0;
}
