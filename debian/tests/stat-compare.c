/* debian/tests/stat-compare.c: built by debian/tests/build against the installed
 * libsysshim-dev.  Compares what sysshim_fstat, sysshim_stat, sysshim_lstat,
 * sysshim_fstatat and sysshim_statx return, field by field, with what the raw system
 * calls return for the same files (a regular file, a directory, /dev/null, a pipe, a
 * symbolic link), and the errors too; and the probe's capabilities (sysshim_info) with
 * what the kernel answers.  Every raw way the kernel offers is compared: fstat,
 * newfstatat(fd, "", AT_EMPTY_PATH) and statx where each exists.
 *
 * stat-compare DIR: DIR is a scratch directory (AUTOPKGTEST_TMP).  Prints one line per
 * check ("ok ..." or "FAIL ...") and the strategy in use; exits 1 if anything failed.
 * SYSSHIM_STRATEGY=NAME in the environment forces a strategy; the caller then expects
 * the line "strategy NAME". */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sysshim.h>
#include "../../tests/common/statx_oracle.h"

static int failed, passed;

static void fail(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(const char *what, const char *fmt, ...)
{
	va_list ap;
	printf("FAIL %s: ", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failed++;
}

/* The raw calls, or -1 and errno; ENOSYS where this architecture has no such call. */
static long raw_fstat(int fd, struct stat *st)
{
#ifdef SYS_fstat
	return syscall(SYS_fstat, fd, st);
#else
	(void)fd, (void)st;
	errno = ENOSYS;
	return -1;
#endif
}

static long raw_fstatat(int dirfd, const char *path, struct stat *st, int flag)
{
#ifdef SYS_newfstatat
	return syscall(SYS_newfstatat, dirfd, path, st, flag);
#else
	(void)dirfd, (void)path, (void)st, (void)flag;
	errno = ENOSYS;
	return -1;
#endif
}

static long raw_statx(int dirfd, const char *path, int flag, unsigned mask, struct statx *stx)
{
#ifdef SYS_statx
	return syscall(SYS_statx, dirfd, path, flag, mask, stx);
#else
	(void)dirfd, (void)path, (void)flag, (void)mask, (void)stx;
	errno = ENOSYS;
	return -1;
#endif
}

/* A struct stat from the raw statx, as the kernel's own stat would fill it: the tests'
 * own conversion (tests/common/statx_oracle.h, in the source tree), not the library's. */
static long raw_statx_as_stat(int dirfd, const char *path, int flag, struct stat *st)
{
	struct statx x;
	memset(&x, 0, sizeof x);
	if (raw_statx(dirfd, path, flag, STATX_BASIC_STATS, &x))
		return -1;
	oracle_stat_from_statx(st, &x);
	return 0;
}

#define FIELD(a, b, f) do { \
	if ((a)->f != (b)->f) { \
		fail(what, #f " %llu (sysshim) != %llu (%s)", (unsigned long long)(a)->f, \
		     (unsigned long long)(b)->f, raw); \
		return; \
	} \
} while (0)

static void same_stat(const char *what, const char *raw, const struct stat *s, const struct stat *k)
{
	FIELD(s, k, st_dev);
	FIELD(s, k, st_ino);
	FIELD(s, k, st_mode);
	FIELD(s, k, st_nlink);
	FIELD(s, k, st_uid);
	FIELD(s, k, st_gid);
	FIELD(s, k, st_rdev);
	FIELD(s, k, st_size);
	FIELD(s, k, st_blksize);
	FIELD(s, k, st_blocks);
	FIELD(s, k, st_atim.tv_sec);
	FIELD(s, k, st_atim.tv_nsec);
	FIELD(s, k, st_mtim.tv_sec);
	FIELD(s, k, st_mtim.tv_nsec);
	FIELD(s, k, st_ctim.tv_sec);
	FIELD(s, k, st_ctim.tv_nsec);
	passed++;
}

static void same_statx(const char *what, const char *raw, const struct statx *s, const struct statx *k)
{
	FIELD(s, k, stx_mask);
	FIELD(s, k, stx_blksize);
	FIELD(s, k, stx_attributes);
	FIELD(s, k, stx_nlink);
	FIELD(s, k, stx_uid);
	FIELD(s, k, stx_gid);
	FIELD(s, k, stx_mode);
	FIELD(s, k, stx_ino);
	FIELD(s, k, stx_size);
	FIELD(s, k, stx_blocks);
	FIELD(s, k, stx_attributes_mask);
	FIELD(s, k, stx_atime.tv_sec);
	FIELD(s, k, stx_atime.tv_nsec);
	FIELD(s, k, stx_btime.tv_sec);
	FIELD(s, k, stx_btime.tv_nsec);
	FIELD(s, k, stx_ctime.tv_sec);
	FIELD(s, k, stx_ctime.tv_nsec);
	FIELD(s, k, stx_mtime.tv_sec);
	FIELD(s, k, stx_mtime.tv_nsec);
	FIELD(s, k, stx_rdev_major);
	FIELD(s, k, stx_rdev_minor);
	FIELD(s, k, stx_dev_major);
	FIELD(s, k, stx_dev_minor);
	/* The rest (the fields newer kernels fill: mount ID, direct I/O alignment, ...). */
	if (memcmp(s, k, sizeof *s)) {
		fail(what, "the named fields agree, the rest of struct statx differs from %s", raw);
		return;
	}
	passed++;
}

/* One sysshim answer against every raw way the kernel has: the same result, or the
 * same error. */
struct raw_way {
	const char *name;
	long r;
	int err;
	struct stat st;
};

static void against(const char *what, int r, int err, const struct stat *st,
		    struct raw_way *w, int nw)
{
	int compared = 0;
	for (int i = 0; i < nw; i++) {
		char label[256];
		if (w[i].r && w[i].err == ENOSYS)
			continue;	/* no such call here */
		compared++;
		snprintf(label, sizeof label, "%s vs %s", what, w[i].name);
		if (r != (w[i].r ? -1 : 0) || (r && err != w[i].err)) {
			fail(label, "sysshim %d (%s), raw %ld (%s)", r, r ? strerror(err) : "ok",
			     w[i].r, w[i].r ? strerror(w[i].err) : "ok");
			continue;
		}
		if (r) {
			passed++;
			printf("ok   %s: both %s\n", label, strerror(err));
		} else {
			int before = failed;
			same_stat(label, w[i].name, st, &w[i].st);
			if (failed == before)
				printf("ok   %s: every field\n", label);
		}
	}
	if (!compared)
		fail(what, "no raw system call to compare with");
}

#define WAY(n, call) do { \
	memset(&w[nw].st, 0, sizeof w[nw].st); \
	errno = 0; \
	w[nw].name = n; \
	w[nw].r = (call); \
	w[nw].err = errno; \
	nw++; \
} while (0)

static void check_fd(const char *name, int fd)
{
	struct raw_way w[3];
	int nw = 0;
	struct stat st;
	char what[128];

	WAY("SYS_fstat", raw_fstat(fd, &w[nw].st));
	WAY("SYS_newfstatat(fd, \"\", AT_EMPTY_PATH)", raw_fstatat(fd, "", &w[nw].st, AT_EMPTY_PATH));
	WAY("SYS_statx(fd, \"\", AT_EMPTY_PATH)", raw_statx_as_stat(fd, "", AT_EMPTY_PATH, &w[nw].st));
	memset(&st, 0x5a, sizeof st);
	errno = 0;
	int r = sysshim_fstat(fd, &st);
	snprintf(what, sizeof what, "sysshim_fstat(%s)", name);
	against(what, r, errno, &st, w, nw);

	nw = 0;
	WAY("SYS_newfstatat(fd, \"\", AT_EMPTY_PATH)", raw_fstatat(fd, "", &w[nw].st, AT_EMPTY_PATH));
	WAY("SYS_statx(fd, \"\", AT_EMPTY_PATH)", raw_statx_as_stat(fd, "", AT_EMPTY_PATH, &w[nw].st));
	memset(&st, 0x5a, sizeof st);
	errno = 0;
	r = sysshim_fstatat(fd, "", &st, AT_EMPTY_PATH);
	snprintf(what, sizeof what, "sysshim_fstatat(%s, \"\", AT_EMPTY_PATH)", name);
	against(what, r, errno, &st, w, nw);

	/* statx on the fd: the whole struct statx against the raw statx. */
	struct statx a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	errno = 0;
	long kr = raw_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME, &b);
	int kerr = errno;
	errno = 0;
	r = sysshim_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME, &a);
	snprintf(what, sizeof what, "sysshim_statx(%s, \"\", AT_EMPTY_PATH) vs SYS_statx", name);
	if (kr && kerr == ENOSYS)
		printf("skip %s: the kernel has no statx\n", what);
	else if (r != kr || (r && errno != kerr))
		fail(what, "sysshim %d, raw %ld", r, kr);
	else if (!r) {
		int before = failed;
		same_statx(what, "SYS_statx", &a, &b);
		if (failed == before)
			printf("ok   %s: every field and the rest of the struct\n", what);
	}
}

static void check_path(const char *path)
{
	struct raw_way w[2];
	int nw = 0;
	struct stat st;
	char what[512];

	WAY("SYS_newfstatat(AT_FDCWD, path, 0)", raw_fstatat(AT_FDCWD, path, &w[nw].st, 0));
	WAY("SYS_statx(AT_FDCWD, path, 0)", raw_statx_as_stat(AT_FDCWD, path, 0, &w[nw].st));
	memset(&st, 0x5a, sizeof st);
	errno = 0;
	int r = sysshim_stat(path, &st);
	snprintf(what, sizeof what, "sysshim_stat(\"%s\")", path);
	against(what, r, errno, &st, w, nw);

	nw = 0;
	WAY("SYS_newfstatat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW)",
	    raw_fstatat(AT_FDCWD, path, &w[nw].st, AT_SYMLINK_NOFOLLOW));
	WAY("SYS_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW)",
	    raw_statx_as_stat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &w[nw].st));
	memset(&st, 0x5a, sizeof st);
	errno = 0;
	r = sysshim_lstat(path, &st);
	snprintf(what, sizeof what, "sysshim_lstat(\"%s\")", path);
	against(what, r, errno, &st, w, nw);

	struct statx a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	errno = 0;
	long kr = raw_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &b);
	int kerr = errno;
	errno = 0;
	r = sysshim_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &a);
	snprintf(what, sizeof what, "sysshim_statx(AT_FDCWD, \"%s\", AT_SYMLINK_NOFOLLOW) vs SYS_statx", path);
	if (kr && kerr == ENOSYS)
		printf("skip %s: the kernel has no statx\n", what);
	else if (r != kr || (r && errno != kerr))
		fail(what, "sysshim %d (%s), raw %ld (%s)", r, r ? strerror(errno) : "ok",
		     kr, kr ? strerror(kerr) : "ok");
	else if (r) {
		passed++;
		printf("ok   %s: both %s\n", what, strerror(kerr));
	} else {
		int before = failed;
		same_statx(what, "SYS_statx", &a, &b);
		if (failed == before)
			printf("ok   %s: every field and the rest of the struct\n", what);
	}
}

/* sysshim_info's capabilities against the kernel's answers on an fd nobody has open
 * (EBADF: the call exists and took the arguments). */
static void check_caps(void)
{
	struct sysshim_info in;
	struct stat st;
	struct statx stx;
	const int fd = 0x7fffffff;
	unsigned k = 0;

	if (raw_fstat(fd, &st) && errno == EBADF)
		k |= SYSSHIM_CAP_FSTAT;
	if (raw_fstatat(fd, "", &st, AT_EMPTY_PATH) && errno == EBADF)
		k |= SYSSHIM_CAP_NEWFSTATAT;
	if (raw_fstatat(fd, NULL, &st, AT_EMPTY_PATH) && errno == EBADF)
		k |= SYSSHIM_CAP_NEWFSTATAT_NULL;
	if (raw_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx) && errno == EBADF)
		k |= SYSSHIM_CAP_STATX;
	if (raw_statx(fd, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, &stx) && errno == EBADF)
		k |= SYSSHIM_CAP_STATX_NULL;
	sysshim_info(&in);
	if (in.caps != k)
		fail("sysshim_info caps", "0x%x, the kernel answers 0x%x", in.caps, k);
	else {
		passed++;
		printf("ok   sysshim_info: capabilities 0x%x, as the kernel answers\n", k);
	}
	printf("strategy %s\n", sysshim_strategy_name(in.fstat_strategy));
}

int main(int argc, char **argv)
{
	char reg[4096], dir[4096], link[4096], missing[4096], notdir[4096];
	int p[2];

	if (argc != 2) {
		fprintf(stderr, "usage: stat-compare DIR\n");
		return 2;
	}
	snprintf(dir, sizeof dir, "%s/stat-dir", argv[1]);
	snprintf(reg, sizeof reg, "%s/stat-dir/regular", argv[1]);
	snprintf(link, sizeof link, "%s/stat-dir/link", argv[1]);
	snprintf(missing, sizeof missing, "%s/stat-dir/missing", argv[1]);
	snprintf(notdir, sizeof notdir, "%s/stat-dir/regular/x", argv[1]);
	unlink(link);
	unlink(reg);
	rmdir(dir);
	int fd = -1;
	if (mkdir(dir, 0755) || (fd = open(reg, O_CREAT | O_WRONLY | O_TRUNC, 0640)) < 0 ||
	    write(fd, "sysshim\n", 8) != 8 || close(fd) || symlink("regular", link)) {
		perror(dir);
		return 1;
	}
	check_caps();

	int rfd = open(reg, O_RDONLY), dfd = open(dir, O_RDONLY | O_DIRECTORY),
	    nfd = open("/dev/null", O_RDWR);
	if (rfd < 0 || dfd < 0 || nfd < 0 || pipe(p)) {
		perror("open");
		return 1;
	}
	check_fd("a regular file", rfd);
	check_fd("a directory", dfd);
	check_fd("/dev/null", nfd);
	check_fd("a pipe", p[0]);
	check_fd("an fd nobody has open", 0x7fffffff);
	check_fd("-1", -1);
	close(p[1]);
	check_fd("a closed fd", p[1]);

	check_path(reg);
	check_path(dir);
	check_path("/dev/null");
	check_path(link);
	check_path(missing);
	check_path(notdir);
	check_path("");

	/* fstatat relative to a directory fd, following and not following the link. */
	struct raw_way w[2];
	int nw = 0;
	struct stat st;
	WAY("SYS_newfstatat(dirfd, \"link\", AT_SYMLINK_NOFOLLOW)",
	    raw_fstatat(dfd, "link", &w[nw].st, AT_SYMLINK_NOFOLLOW));
	WAY("SYS_statx(dirfd, \"link\", AT_SYMLINK_NOFOLLOW)",
	    raw_statx_as_stat(dfd, "link", AT_SYMLINK_NOFOLLOW, &w[nw].st));
	errno = 0;
	int r = sysshim_fstatat(dfd, "link", &st, AT_SYMLINK_NOFOLLOW);
	against("sysshim_fstatat(dirfd, \"link\", AT_SYMLINK_NOFOLLOW)", r, errno, &st, w, nw);
	nw = 0;
	WAY("SYS_newfstatat(dirfd, \"link\", 0)", raw_fstatat(dfd, "link", &w[nw].st, 0));
	WAY("SYS_statx(dirfd, \"link\", 0)", raw_statx_as_stat(dfd, "link", 0, &w[nw].st));
	errno = 0;
	r = sysshim_fstatat(dfd, "link", &st, 0);
	against("sysshim_fstatat(dirfd, \"link\", 0)", r, errno, &st, w, nw);

	/* The program's own fstat() (libsysshim's in every build of debian/tests/build:
	 * linked before the C library) answers the same. */
	struct stat a, b;
	if (fstat(rfd, &a) || sysshim_fstat(rfd, &b))
		fail("fstat()", "%s", strerror(errno));
	else {
		int before = failed;
		same_stat("fstat() vs sysshim_fstat()", "fstat()", &b, &a);
		if (failed == before)
			printf("ok   the program's fstat() and sysshim_fstat() agree\n");
	}

	unlink(link);
	unlink(reg);
	rmdir(dir);
	printf("stat-compare: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
