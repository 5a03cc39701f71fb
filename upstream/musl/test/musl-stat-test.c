/* musl-stat-test: compare musl's stat family with raw syscalls.
 *
 * Every libc call (fstat, fstatat with "" and AT_EMPTY_PATH, fstatat with a
 * name, stat, lstat, statx with "" and with a null path) is compared, field
 * by field and errno by errno, against the statx syscall made directly with
 * the matching arguments.  A further group runs musl's statx inside a
 * child process whose seccomp filter answers the statx syscall with ENOSYS,
 * the case where musl falls back to fstatat; the child's death by a signal
 * is a failure.  qemu-user refuses seccomp filters, so there that group is
 * reported as skipped (and not counted).
 *
 * Usage: musl-stat-test            run all checks, print "N passed, N failed"
 *        musl-stat-test probe      one fstat and one fstatat(fd, "",
 *                                  AT_EMPTY_PATH) on fd 3, for strace
 *        musl-stat-test bench [N]  ns per call of fstat() and of raw statx
 *
 * Build against musl only (no kernel headers needed).  */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int passed, failed, skipped;

static void result(int ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#include <stdarg.h>
static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;
	char msg[256] = "";
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
	}
	printf("%s - %s%s%s\n", ok ? "ok" : "FAIL", name, *msg ? ": " : "", msg);
	if (ok) passed++; else failed++;
}

/* The reference: the statx syscall itself.  Returns 0 or -errno. */
static int raw_statx(int dirfd, const char *path, int flags, unsigned mask,
		     struct statx *stx)
{
	memset(stx, 0, sizeof *stx);
	long r = syscall(SYS_statx, dirfd, path, flags, mask, stx);
	return r < 0 ? -errno : 0;
}

static int same_ts(const struct timespec *a, const struct statx_timestamp *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == (long)b->tv_nsec;
}

/* Compare a struct stat with the statx reference; describe the first
 * difference in buf. */
static int stat_matches(const struct stat *st, const struct statx *x,
			char *buf, size_t n)
{
#define CHK(cond, what, a, b) do { if (!(cond)) { \
	snprintf(buf, n, "%s: libc %llu, kernel %llu", what, \
		 (unsigned long long)(a), (unsigned long long)(b)); return 0; } } while (0)
	CHK(st->st_dev == makedev(x->stx_dev_major, x->stx_dev_minor), "st_dev",
	    st->st_dev, makedev(x->stx_dev_major, x->stx_dev_minor));
	CHK(st->st_ino == x->stx_ino, "st_ino", st->st_ino, x->stx_ino);
	CHK(st->st_mode == x->stx_mode, "st_mode", st->st_mode, x->stx_mode);
	CHK(st->st_nlink == x->stx_nlink, "st_nlink", st->st_nlink, x->stx_nlink);
	CHK(st->st_uid == x->stx_uid, "st_uid", st->st_uid, x->stx_uid);
	CHK(st->st_gid == x->stx_gid, "st_gid", st->st_gid, x->stx_gid);
	CHK(st->st_rdev == makedev(x->stx_rdev_major, x->stx_rdev_minor), "st_rdev",
	    st->st_rdev, makedev(x->stx_rdev_major, x->stx_rdev_minor));
	CHK(st->st_size == (off_t)x->stx_size, "st_size", st->st_size, x->stx_size);
	CHK(st->st_blksize == (blksize_t)x->stx_blksize, "st_blksize",
	    st->st_blksize, x->stx_blksize);
	CHK(st->st_blocks == (blkcnt_t)x->stx_blocks, "st_blocks",
	    st->st_blocks, x->stx_blocks);
	CHK(same_ts(&st->st_atim, &x->stx_atime), "st_atim",
	    st->st_atim.tv_sec, x->stx_atime.tv_sec);
	CHK(same_ts(&st->st_mtim, &x->stx_mtime), "st_mtim",
	    st->st_mtim.tv_sec, x->stx_mtime.tv_sec);
	CHK(same_ts(&st->st_ctim, &x->stx_ctime), "st_ctim",
	    st->st_ctim.tv_sec, x->stx_ctime.tv_sec);
	return 1;
#undef CHK
}

static int statx_matches(const struct statx *a, const struct statx *x,
			 char *buf, size_t n)
{
	/* Basic fields only; stx_mask and btime may legitimately differ in
	 * a libc fallback, and are checked where they must be equal. */
	struct stat st = {
		.st_dev = makedev(a->stx_dev_major, a->stx_dev_minor),
		.st_ino = a->stx_ino, .st_mode = a->stx_mode,
		.st_nlink = a->stx_nlink, .st_uid = a->stx_uid,
		.st_gid = a->stx_gid,
		.st_rdev = makedev(a->stx_rdev_major, a->stx_rdev_minor),
		.st_size = a->stx_size, .st_blksize = a->stx_blksize,
		.st_blocks = a->stx_blocks,
		.st_atim = { a->stx_atime.tv_sec, a->stx_atime.tv_nsec },
		.st_mtim = { a->stx_mtime.tv_sec, a->stx_mtime.tv_nsec },
		.st_ctim = { a->stx_ctime.tv_sec, a->stx_ctime.tv_nsec },
	};
	return stat_matches(&st, x, buf, n);
}

enum call { C_FSTAT, C_FSTATAT, C_STAT, C_LSTAT };

/* One libc stat call against the statx syscall with the same meaning. */
static void check_stat(const char *name, enum call c, int fd, const char *path,
		       int flags)
{
	struct stat st;
	struct statx x;
	char why[160] = "";
	int r, e = 0, kr;

	memset(&st, 0xa5, sizeof st);
	errno = 0;
	switch (c) {
	case C_FSTAT: r = fstat(fd, &st); break;
	case C_FSTATAT: r = fstatat(fd, path, &st, flags); break;
	case C_STAT: r = stat(path, &st); break;
	default: r = lstat(path, &st); break;
	}
	if (r) e = errno;

	switch (c) {
	case C_FSTAT: kr = raw_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &x); break;
	case C_FSTATAT: kr = raw_statx(fd, path, flags, STATX_BASIC_STATS, &x); break;
	case C_STAT: kr = raw_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &x); break;
	default: kr = raw_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &x); break;
	}

	if (kr) {
		int ok = r == -1 && e == -kr;
		result(ok, name, "kernel %s, libc %s", strerror(-kr),
		       r ? strerror(e) : "success");
	} else if (r) {
		result(0, name, "libc failed: %s, kernel succeeded", strerror(e));
	} else {
		int ok = stat_matches(&st, &x, why, sizeof why);
		result(ok, name, "%s", ok ? "" : why);
	}
}

/* musl's statx against the statx syscall with the same arguments. */
static void check_statx(const char *name, int fd, const char *path, int flags,
			unsigned mask)
{
	struct statx a, x;
	char why[160] = "";
	int r, e = 0, kr;

	memset(&a, 0xa5, sizeof a);
	errno = 0;
	r = statx(fd, path, flags, mask, &a);
	if (r) e = errno;
	kr = raw_statx(fd, path, flags, mask, &x);
	if (kr) {
		result(r == -1 && e == -kr, name, "kernel %s, libc %s",
		       strerror(-kr), r ? strerror(e) : "success");
	} else if (r) {
		result(0, name, "libc failed: %s, kernel succeeded", strerror(e));
	} else {
		int ok = statx_matches(&a, &x, why, sizeof why);
		if (ok && (a.stx_mask != x.stx_mask ||
			   a.stx_attributes != x.stx_attributes)) {
			snprintf(why, sizeof why, "stx_mask %#x/%#x", a.stx_mask,
				 x.stx_mask);
			ok = 0;
		}
		result(ok, name, "%s", ok ? "" : why);
	}
}

/* ---- seccomp: statx answered with ENOSYS ------------------------------ */

struct sf { uint16_t code; uint8_t jt, jf; uint32_t k; };
struct sfprog { unsigned short len; struct sf *filter; };
#define BPF_LD_W_ABS 0x20
#define BPF_JEQ_K 0x15
#define BPF_RET_K 0x06
#define SECCOMP_RET_ALLOW 0x7fff0000U
#define SECCOMP_RET_ERRNO 0x00050000U
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#if defined(__x86_64__)
#define MY_AUDIT_ARCH 0xc000003eU
#elif defined(__loongarch__) && __loongarch_grlen == 64
#define MY_AUDIT_ARCH 0xc0000102U
#elif defined(__aarch64__)
#define MY_AUDIT_ARCH 0xc00000b7U
#endif

static int deny_statx_enosys(void)
{
#ifdef MY_AUDIT_ARCH
	struct sf f[] = {
		{ BPF_LD_W_ABS, 0, 0, 4 },			/* arch */
		{ BPF_JEQ_K, 1, 0, MY_AUDIT_ARCH },
		{ BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS },
		{ BPF_LD_W_ABS, 0, 0, 0 },			/* nr */
		{ BPF_JEQ_K, 0, 1, SYS_statx },
		{ BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS },
		{ BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW },
	};
	struct sfprog p = { sizeof f / sizeof f[0], f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -1;
	return prctl(PR_SET_SECCOMP, 2 /* SECCOMP_MODE_FILTER */, &p, 0, 0);
#else
	errno = ENOSYS;
	return -1;
#endif
}

/* Child exit codes of the seccomp group. */
enum { SC_OK = 0, SC_WRONG = 1, SC_NOFILTER = 77 };

static int seccomp_child(int which, int fd)
{
	struct statx a;
	struct stat st;
	char why[160];
	int r;

	if (fstat(fd, &st)) return SC_WRONG;	/* before the filter */
	if (deny_statx_enosys()) return SC_NOFILTER;
	/* The filter must be in force: the raw syscall now gives ENOSYS. */
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &a) != -1
	    || errno != ENOSYS)
		return SC_NOFILTER;

	switch (which) {
	case 0: /* null path with AT_EMPTY_PATH: valid since Linux 6.11 */
		r = statx(fd, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, &a);
		break;
	case 1: /* "" with AT_EMPTY_PATH: the fallback's normal case */
		r = statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &a);
		break;
	case 2: /* null path without AT_EMPTY_PATH: the kernel gives EFAULT */
		r = statx(fd, NULL, 0, STATX_BASIC_STATS, &a);
		if (r == -1 && errno == EFAULT) return SC_OK;
		dprintf(2, "    statx(fd, NULL, 0): %d %s\n", r, strerror(errno));
		return SC_WRONG;
	default: /* statx-only sync flag: the statx syscall would succeed */
		r = statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
			  STATX_BASIC_STATS, &a);
		break;
	}
	if (r) {
		dprintf(2, "    statx: %s\n", strerror(errno));
		return SC_WRONG;
	}
	/* Compare against fstat taken before the filter (same file, no IO
	 * in between). */
	struct statx ref = {
		.stx_dev_major = major(st.st_dev), .stx_dev_minor = minor(st.st_dev),
		.stx_rdev_major = major(st.st_rdev), .stx_rdev_minor = minor(st.st_rdev),
		.stx_ino = st.st_ino, .stx_mode = st.st_mode, .stx_nlink = st.st_nlink,
		.stx_uid = st.st_uid, .stx_gid = st.st_gid, .stx_size = st.st_size,
		.stx_blksize = st.st_blksize, .stx_blocks = st.st_blocks,
		.stx_atime = { st.st_atim.tv_sec, st.st_atim.tv_nsec },
		.stx_mtime = { st.st_mtim.tv_sec, st.st_mtim.tv_nsec },
		.stx_ctime = { st.st_ctim.tv_sec, st.st_ctim.tv_nsec },
	};
	if (!statx_matches(&a, &ref, why, sizeof why)) {
		dprintf(2, "    %s\n", why);
		return SC_WRONG;
	}
	return SC_OK;
}

static void check_seccomp(int fd)
{
	static const char *names[] = {
		"statx(fd, NULL, AT_EMPTY_PATH) with statx denied (ENOSYS fallback)",
		"statx(fd, \"\", AT_EMPTY_PATH) with statx denied (ENOSYS fallback)",
		"statx(fd, NULL, 0) with statx denied gives EFAULT",
		"statx(fd, \"\", AT_EMPTY_PATH|AT_STATX_DONT_SYNC) with statx denied",
	};
	for (int i = 0; i < 4; i++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0) { result(0, names[i], "fork: %s", strerror(errno)); continue; }
		if (!pid) _exit(seccomp_child(i, fd));
		int ws;
		if (waitpid(pid, &ws, 0) != pid) {
			result(0, names[i], "waitpid: %s", strerror(errno));
			continue;
		}
		if (WIFSIGNALED(ws)) {
			result(0, names[i], "child killed by signal %d (%s)",
			       WTERMSIG(ws), strsignal(WTERMSIG(ws)));
		} else if (WEXITSTATUS(ws) == SC_NOFILTER) {
			printf("skip - %s: no seccomp filter here (qemu-user refuses "
			       "them)\n", names[i]);
			skipped++;
		} else {
			result(WEXITSTATUS(ws) == SC_OK, names[i], "%s",
			       WEXITSTATUS(ws) == SC_OK ? "" : "wrong result");
		}
	}
}

/* ---- modes -------------------------------------------------------------- */

static int probe(void)
{
	struct stat st;
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	if (fd < 0) return 1;
	write(1, "probe: fstat\n", 13);
	int r = fstat(fd, &st);
	write(1, "probe: fstatat\n", 15);
	r |= fstatat(fd, "", &st, AT_EMPTY_PATH);
	write(1, "probe: done\n", 12);
	return r ? 1 : 0;
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int bench(long n)
{
	struct stat st;
	struct statx x;
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	if (fd < 0) return 1;
	for (int round = 0; round < 3; round++) {
		long long t0 = now_ns();
		for (long i = 0; i < n; i++) fstat(fd, &st);
		long long t1 = now_ns();
		for (long i = 0; i < n; i++)
			syscall(SYS_statx, fd, "", AT_EMPTY_PATH | AT_NO_AUTOMOUNT,
				STATX_BASIC_STATS, &x);
		long long t2 = now_ns();
		for (long i = 0; i < n; i++)
			syscall(SYS_statx, fd, NULL, AT_EMPTY_PATH | AT_NO_AUTOMOUNT,
				STATX_BASIC_STATS, &x);
		long long t3 = now_ns();
		printf("round %d: fstat() %lld ns, statx(fd,\"\") %lld ns, "
		       "statx(fd,NULL) %lld ns per call\n", round,
		       (t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / n);
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "probe")) return probe();
	if (argc > 1 && !strcmp(argv[1], "bench"))
		return bench(argc > 2 ? atol(argv[2]) : 100000);

	char dir[] = "/tmp/musl-stat-test.XXXXXX";
	if (!mkdtemp(dir)) { perror("mkdtemp"); return 2; }
	char file[64], link[64], dangling[64], missing[64];
	snprintf(file, sizeof file, "%s/file", dir);
	snprintf(link, sizeof link, "%s/link", dir);
	snprintf(dangling, sizeof dangling, "%s/dangling", dir);
	snprintf(missing, sizeof missing, "%s/missing", dir);

	int ffd = open(file, O_RDWR | O_CREAT | O_EXCL, 0640);
	if (ffd < 0) { perror("open"); return 2; }
	static char data[12345];
	memset(data, 'x', sizeof data);
	if (write(ffd, data, sizeof data) != sizeof data) { perror("write"); return 2; }
	if (symlink("file", link) || symlink("nowhere", dangling)) {
		perror("symlink");
		return 2;
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	int nfd = open("/dev/null", O_RDONLY);
	int pfd = open(file, O_PATH);
	int lfd = open(link, O_PATH | O_NOFOLLOW);
	int pipefd[2];
	if (dfd < 0 || nfd < 0 || pfd < 0 || lfd < 0 || pipe(pipefd)) {
		perror("open");
		return 2;
	}
	int closed = open("/dev/null", O_RDONLY);
	close(closed);

	struct { const char *what; int fd; } fds[] = {
		{ "regular file", ffd }, { "directory", dfd },
		{ "/dev/null", nfd }, { "O_PATH file", pfd },
		{ "O_PATH symlink", lfd }, { "pipe", pipefd[0] },
	};
	char name[160];
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) {
		int fd = fds[i].fd;
		snprintf(name, sizeof name, "fstat(%s)", fds[i].what);
		check_stat(name, C_FSTAT, fd, NULL, 0);
		snprintf(name, sizeof name, "fstatat(%s, \"\", AT_EMPTY_PATH)", fds[i].what);
		check_stat(name, C_FSTATAT, fd, "", AT_EMPTY_PATH);
		snprintf(name, sizeof name, "statx(%s, \"\", AT_EMPTY_PATH)", fds[i].what);
		check_statx(name, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS);
		snprintf(name, sizeof name, "statx(%s, NULL, AT_EMPTY_PATH)", fds[i].what);
		check_statx(name, fd, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS);
	}
	check_stat("fstatat(dirfd, \"file\", 0)", C_FSTATAT, dfd, "file", 0);
	check_stat("fstatat(dirfd, \"link\", 0)", C_FSTATAT, dfd, "link", 0);
	check_stat("fstatat(dirfd, \"link\", AT_SYMLINK_NOFOLLOW)", C_FSTATAT, dfd,
		   "link", AT_SYMLINK_NOFOLLOW);
	check_stat("fstatat(AT_FDCWD, \"\", AT_EMPTY_PATH)", C_FSTATAT, AT_FDCWD, "",
		   AT_EMPTY_PATH);
	check_stat("fstatat(dirfd, \"\", AT_EMPTY_PATH|AT_SYMLINK_NOFOLLOW)",
		   C_FSTATAT, dfd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	check_stat("stat(file)", C_STAT, -1, file, 0);
	check_stat("stat(link)", C_STAT, -1, link, 0);
	check_stat("stat(dir)", C_STAT, -1, dir, 0);
	check_stat("stat(/dev/null)", C_STAT, -1, "/dev/null", 0);
	check_stat("lstat(link)", C_LSTAT, -1, link, 0);
	check_stat("lstat(file)", C_LSTAT, -1, file, 0);
	check_statx("statx(AT_FDCWD, file, 0, BASIC|BTIME)", AT_FDCWD, file, 0,
		    STATX_BASIC_STATS | STATX_BTIME);
	check_statx("statx(dirfd, \"link\", AT_SYMLINK_NOFOLLOW)", dfd, "link",
		    AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS);

	/* Errors must match the kernel's. */
	check_stat("fstat(-1): EBADF", C_FSTAT, -1, NULL, 0);
	check_stat("fstat(closed fd): EBADF", C_FSTAT, closed, NULL, 0);
	check_stat("fstatat(closed fd, \"\", AT_EMPTY_PATH): EBADF", C_FSTATAT,
		   closed, "", AT_EMPTY_PATH);
	check_stat("fstatat(fd, \"\", 0): ENOENT", C_FSTATAT, ffd, "", 0);
	check_stat("fstatat(file fd, \"x\", 0): ENOTDIR", C_FSTATAT, ffd, "x", 0);
	check_stat("stat(\"\"): ENOENT", C_STAT, -1, "", 0);
	check_stat("stat(missing): ENOENT", C_STAT, -1, missing, 0);
	check_stat("stat(dangling): ENOENT", C_STAT, -1, dangling, 0);
	check_stat("lstat(dangling)", C_LSTAT, -1, dangling, 0);
#if !defined(SYS_newfstatat) && !defined(SYS_fstatat64)
	/* Where musl's fstatat is statx only (loongarch64, riscv32), a null
	 * path with AT_EMPTY_PATH goes to the kernel unread: same answer as
	 * the statx syscall (EFAULT before 6.11 and under qemu 7.2).  Other
	 * archs read the path in fstatat_kstat, before and after the
	 * series, so this is not checked there. */
	check_stat("fstatat(fd, NULL, AT_EMPTY_PATH), statx-only arch", C_FSTATAT,
		   ffd, NULL, AT_EMPTY_PATH);
#endif
	check_statx("statx(closed fd, NULL, AT_EMPTY_PATH)", closed, NULL,
		    AT_EMPTY_PATH, STATX_BASIC_STATS);
	check_statx("statx(fd, NULL, 0): EFAULT", ffd, NULL, 0, STATX_BASIC_STATS);

	check_seccomp(ffd);

	unlink(file); unlink(link); unlink(dangling); rmdir(dir);
	if (skipped) printf("%d skipped\n", skipped);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
