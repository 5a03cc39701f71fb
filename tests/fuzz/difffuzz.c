/* difffuzz: differential fuzzing of sysshim's libc-named exports against glibc.
 *
 * Every function of tests/fuzz/signatures.def is called twice per case, back to back on
 * the same state, through libffi: glibc's from libc.so.6, sysshim's from libsysshim.so
 * (dlopen RTLD_LOCAL, so it does not interpose).  Return value, errno and every defined
 * byte of the output buffer are compared.  Arguments come from a seed: case I of seed S
 * is generated from (S, I) alone, so any case replays with --seed S --case I.
 *
 * One process runs one configuration (SYSSHIM_STRATEGY, seccomp mode, path alignment);
 * --matrix forks one child per configuration before sysshim is loaded (the probe runs
 * once per process) and adds up the counts.  docs/fuzz.md has the details. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ffi.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/statx_oracle.h"

/* ---------------------------------------------------------------- the table */

enum { R_INT };
enum {
	A_NONE, A_VER, A_FD, A_DIRFD, A_PATH, A_ATFLAG, A_SXFLAG, A_SXMASK, A_STATBUF,
	A_STATXBUF,
};
static const char *const kind_name[] = {
	"-", "ver", "fd", "dirfd", "path", "flag", "flag", "mask", "st", "stx",
};

#define MAXARGS 6
struct sig {
	const char *name, *oracle;
	int ret, nargs, args[MAXARGS];
	ffi_cif cif;
	ffi_type *types[MAXARGS];
	void *mine, *glibc;
	int outkind;	/* A_STATBUF or A_STATXBUF */
};

#define SIG(n, o, r, ...)                                                                \
	{ .name = #n, .oracle = #o, .ret = r,                                            \
	  .nargs = sizeof((int[]){ __VA_ARGS__ }) / sizeof(int), .args = { __VA_ARGS__ } },
static struct sig sigs[] = {
#include "signatures.def"
};
#undef SIG
#define NSIGS (int)(sizeof sigs / sizeof sigs[0])

/* ---------------------------------------------------------------- struct statx, all of it */

/* The kernel's layout (include/uapi/linux/stat.h, 6.18), so fields newer than the
 * installed headers are compared too. */
struct kstx_ts { int64_t tv_sec; uint32_t tv_nsec; int32_t reserved; };
struct kstx {
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, spare0;
	uint64_t ino, size, blocks, attributes_mask;
	struct kstx_ts atime, btime, ctime, mtime;
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t mnt_id;
	uint32_t dio_mem_align, dio_offset_align;
	uint64_t subvol;
	uint32_t aw_unit_min, aw_unit_max, aw_segments_max, dio_read_offset_align;
	uint32_t aw_unit_max_opt, spare2;
	uint64_t spare3[8];
};
_Static_assert(sizeof(struct kstx) == 256, "struct statx is 256 bytes");

#define X_TYPE		0x1u
#define X_MODE		0x2u
#define X_NLINK		0x4u
#define X_UID		0x8u
#define X_GID		0x10u
#define X_ATIME		0x20u
#define X_MTIME		0x40u
#define X_CTIME		0x80u
#define X_INO		0x100u
#define X_SIZE		0x200u
#define X_BLOCKS	0x400u
#define X_BASIC		0x7ffu
#define X_BTIME		0x800u
#define X_MNT_ID	0x1000u
#define X_DIOALIGN	0x2000u
#define X_MNT_ID_UNIQUE	0x4000u
#define X_SUBVOL	0x8000u
#define X_WRITE_ATOMIC	0x10000u
#define X_DIO_READ_ALIGN 0x20000u
#define X_RESERVED	0x80000000u

/* ---------------------------------------------------------------- configuration */

static const char *const strategies[] = {
	"auto", "fstat", "newfstatat-null", "newfstatat-empty", "statx-null", "statx-empty",
};
#define NSTRAT 6

enum { SC_NONE, SC_STATX_ENOSYS, SC_STATX_EPERM, SC_STATX_ENOSYS_LATE, SC_STATX_EPERM_LATE,
       SC_FSTAT_ENOSYS, SC_FSTAT_EPERM, SC_PATH_ENOSYS, SC_PATH_EPERM, SC_STATX_ENOSYS_UNREAD,
       SC_STATX_EPERM_UNREAD, NSC };
/* Early modes install the filter through the library's prctl(), which reads it, as a
 * program's own filter reaches it; the -unread ones through the C library's, so that the
 * library finds a filter it cannot read at its first call (sysshim(7), Sandboxes) and
 * makes only the C library's syscalls: the oracle is the same (glibc's statx() emulates
 * from ENOSYS, the library from EPERM too, with the dynamic loader's newfstatat as its
 * evidence). */
static const char *const sc_names[] = {
	"none", "statx-enosys", "statx-eperm", "statx-enosys-late", "statx-eperm-late",
	"fstat-enosys", "fstat-eperm", "newfstatat+statx-enosys", "newfstatat+statx-eperm",
	"statx-enosys-unread", "statx-eperm-unread",
};

static struct {
	uint64_t seed;
	long cases;
	long one_case;		/* -1: all */
	const char *lib;
	const char *strategy;	/* NULL: leave the environment alone */
	int sc;
	int align;
	int verbose;
	int quiet;
	int strict;
	int stats;
	int maxfail;
	const char *only;	/* restrict to one function */
} cfg = { .seed = 1, .cases = 1000, .one_case = -1, .lib = "build/lib/libsysshim.so",
	  .maxfail = 20 };

static const char *self_path;

/* ---------------------------------------------------------------- random numbers */

static uint64_t rs;
static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static unsigned below(unsigned n) { return n ? (unsigned)(rnd() % n) : 0; }
static int chance(unsigned pct) { return below(100) < pct; }

/* ---------------------------------------------------------------- the world */

static char scratch[PATH_MAX];
static long pagesz;

struct fdent { const char *what; int fd; };
static struct fdent fds[64];
static int nfds;
static int closed_fd, dir_fd, dirsub_fd, reg_fd;

static const char *paths[256];
static int npaths;

/* Memory: one arena per side for output buffers (so the two calls never share one),
 * one shared arena for path strings.  Layout of an output arena:
 * page 0-1 read-write, page 2 PROT_NONE, page 3 read-only. */
static unsigned char *out_arena[2], *path_arena;

static void die(const char *what)
{
	fprintf(stderr, "difffuzz: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void add_fd(const char *what, int fd)
{
	if (fd < 0)
		return;	/* not available here (no /sys, ...): skip quietly */
	/* Fixed numbers from 100 up, so a replay prints the same fds. */
	int want = 100 + nfds;
	if (dup2(fd, want) < 0)
		die("dup2");
	if (fd != want)
		close(fd);
	fds[nfds].what = what;
	fds[nfds].fd = want;
	nfds++;
}

static void add_path(const char *p)
{
	if (npaths < (int)(sizeof paths / sizeof paths[0]))
		paths[npaths++] = strdup(p);
}

static void mk(const char *name, int kind, const char *target)
{
	int r = 0;
	if (kind == 'f') {
		int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0)
			die(name);
		if (write(fd, "sysshim difffuzz\n", 17) != 17)
			die("write");
		close(fd);
	} else if (kind == 'd') {
		r = mkdir(name, 0755);
	} else if (kind == 'l') {
		r = symlink(target, name);
	} else if (kind == 'p') {
		r = mkfifo(name, 0600);
	}
	if (r)
		die(name);
}

/* Set every atime in the scratch tree a day into the future: with relatime (tmpfs's
 * default) an atime newer than mtime, ctime and "now - 24h" is never updated, so
 * following a symlink between the two calls of a case cannot change what they see. */
static void freeze_atimes(const char *dir)
{
	struct timespec ts[2];
	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec += 86400 * 10;
	ts[1].tv_nsec = UTIME_OMIT;
	static const char *const names[] = {
		"reg", "dir", "dir/sub", "dir/sub/f", "lreg", "ldir", "dangling", "loop1", "loop2",
		"selfloop", "fifo", "sock", "lsub", "labs", "lproc",
	};
	int dfd = open(dir, O_PATH | O_DIRECTORY);
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
		utimensat(dfd, names[i], ts, AT_SYMLINK_NOFOLLOW);
	for (int i = 0; i <= 41; i++) {
		char n[32];
		snprintf(n, sizeof n, "chain%d", i);
		utimensat(dfd, n, ts, AT_SYMLINK_NOFOLLOW);
	}
	char longname[NAME_MAX + 1];
	memset(longname, 'n', NAME_MAX);
	longname[NAME_MAX] = 0;
	utimensat(dfd, longname, ts, AT_SYMLINK_NOFOLLOW);
	utimensat(dfd, ".", ts, 0);
	close(dfd);
}

static void setup(void)
{
	const char *base = getenv("DIFFFUZZ_DIR");
	struct stat st;

	pagesz = sysconf(_SC_PAGESIZE);
	if (!base)
		base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
	snprintf(scratch, sizeof scratch, "%s/difffuzz.%d", base, (int)getpid());
	if (mkdir(scratch, 0755) || chdir(scratch))
		die(scratch);

	mk("reg", 'f', 0);
	mk("dir", 'd', 0);
	mk("dir/sub", 'd', 0);
	mk("dir/sub/f", 'f', 0);
	mk("lreg", 'l', "reg");
	mk("ldir", 'l', "dir");
	mk("lsub", 'l', "dir/sub");
	mk("dangling", 'l', "nonexistent");
	mk("loop1", 'l', "loop2");
	mk("loop2", 'l', "loop1");
	mk("selfloop", 'l', "selfloop");
	mk("fifo", 'p', 0);
	char abs[PATH_MAX + 8];
	snprintf(abs, sizeof abs, "%s/reg", scratch);
	mk("labs", 'l', abs);
	mk("lproc", 'l', "/proc/self");
	/* A chain of 41 links: chain0 -> chain1 -> ... -> chain40 -> reg.  Following from
	 * chain1 takes 40 links (the kernel's MAXSYMLINKS), from chain0 41 (ELOOP). */
	for (int i = 0; i <= 40; i++) {
		char n[32], t[32];
		snprintf(n, sizeof n, "chain%d", i);
		if (i == 40)
			snprintf(t, sizeof t, "reg");
		else
			snprintf(t, sizeof t, "chain%d", i + 1);
		mk(n, 'l', t);
	}
	char longname[NAME_MAX + 2];
	memset(longname, 'n', NAME_MAX);
	longname[NAME_MAX] = 0;
	mk(longname, 'f', 0);

	/* A bound UNIX socket, for the socket file and an fd. */
	int so = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof sa.sun_path, "sock");
	if (so < 0 || bind(so, (struct sockaddr *)&sa, sizeof sa))
		die("bind");

	/* fds of every kind */
	add_fd("regular", reg_fd = open("reg", O_RDONLY));
	add_fd("regular O_PATH", open("reg", O_PATH));
	add_fd("directory", open(".", O_RDONLY | O_DIRECTORY));
	add_fd("subdirectory", open("dir/sub", O_RDONLY | O_DIRECTORY));
	add_fd("directory O_PATH", open("dir", O_PATH | O_DIRECTORY));
	add_fd("symlink O_PATH|O_NOFOLLOW", open("lreg", O_PATH | O_NOFOLLOW));
	add_fd("dangling symlink O_PATH|O_NOFOLLOW", open("dangling", O_PATH | O_NOFOLLOW));
	add_fd("FIFO", open("fifo", O_RDWR | O_NONBLOCK));
	add_fd("UNIX socket (bound)", so);
	add_fd("UNIX socket (datagram)", socket(AF_UNIX, SOCK_DGRAM, 0));
	int pp[2];
	if (pipe(pp) == 0) {
		add_fd("pipe read end", pp[0]);
		add_fd("pipe write end", pp[1]);
	}
	add_fd("eventfd", eventfd(0, EFD_NONBLOCK));
	int mfd = memfd_create("difffuzz", 0);
	if (mfd >= 0 && ftruncate(mfd, 12345) != 0)
		die("ftruncate");
	add_fd("memfd", mfd);
	add_fd("/dev/null", open("/dev/null", O_RDONLY));
	add_fd("/proc/version", open("/proc/version", O_RDONLY));
	add_fd("/proc/self/status", open("/proc/self/status", O_RDONLY));
	add_fd("/proc/self O_PATH", open("/proc/self", O_PATH));
	add_fd("/sys/kernel/mm", open("/sys/kernel/mm", O_RDONLY | O_DIRECTORY));
	add_fd("/sys/kernel/uevent_helper", open("/sys/kernel/uevent_helper", O_PATH));
	add_fd("/ (root)", open("/", O_RDONLY | O_DIRECTORY));
	dir_fd = 100 + 2;
	dirsub_fd = 100 + 3;
	reg_fd = 100;
	closed_fd = 100 + nfds + 7;
	if (dup2(0, closed_fd) < 0 || close(closed_fd))
		die("closed fd");

	/* paths */
	static const char *const fixed[] = {
		"reg", "dir", "dir/sub", "dir/sub/", "dir/sub/f", "dir/sub/f/", "lreg", "lreg/",
		"ldir", "ldir/", "ldir/sub/f", "lsub/f", "lsub/..", "ldir/../reg", "dir/../reg",
		"dangling", "dangling/", "loop1", "loop2", "loop1/x", "selfloop", "reg/x", "reg/",
		"reg/.", "nonexistent", "dir/nonexistent", "nonexistent/x", "", ".", "..", "./",
		"/", "//", "/.", "/..", "///proc//self", "fifo", "sock", "chain0", "chain1",
		"chain40", "labs", "lproc", "lproc/status", "/proc/self", "/proc/self/",
		"/proc/self/fd/100", "/proc/self/fd/100/", "/proc/self/fd/102/reg",
		"/proc/self/fd/999999", "/proc/version", "/proc/self/status", "/proc/self/exe",
		"/sys/kernel/mm", "/sys/kernel", "/dev/null", "/dev/shm", "f", "sub", "sub/f",
		"../sub", "..//..", "\x01", "\xff\xfe", "reg\n", " reg",
	};
	for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		add_path(fixed[i]);
	char buf[PATH_MAX + 64];
	snprintf(buf, sizeof buf, "%s/reg", scratch);
	add_path(buf);
	snprintf(buf, sizeof buf, "%s/ldir/sub/", scratch);
	add_path(buf);
	snprintf(buf, sizeof buf, "%s/nonexistent", scratch);
	add_path(buf);
	/* names around NAME_MAX: 255 exists, 254 does not, 256 is too long */
	for (int n = NAME_MAX - 1; n <= NAME_MAX + 1; n++) {
		memset(buf, 'n', n);
		buf[n] = 0;
		add_path(buf);
		snprintf(buf + n, 8, "/");
		add_path(buf);
	}
	/* paths around PATH_MAX: "./" repeated, then "reg"; the kernel takes strings of at
	 * most PATH_MAX bytes including the NUL */
	for (int len = PATH_MAX - 3; len <= PATH_MAX + 1; len++) {
		int k = 0;
		while (k < len - 3) {
			buf[k] = k % 2 ? '/' : '.';
			k++;
		}
		if (k % 2)	/* keep it "./" pairs */
			buf[k - 1] = '/';
		memcpy(buf + k, "reg", 4);
		buf[len] = 0;
		if ((int)strlen(buf) == len)
			add_path(buf);
	}
	/* 41 and 40 nested ".." from the scratch dir (resolve to "/") */
	buf[0] = 0;
	for (int i = 0; i < 200; i++)
		strcat(buf, "../");
	add_path(buf);
	/* a long chain of directories that do not exist */
	buf[0] = 0;
	for (int i = 0; i < 100; i++)
		strcat(buf, "d/");
	add_path(buf);

	freeze_atimes(".");

	for (int s = 0; s < 2; s++) {
		out_arena[s] = mmap(0, 4 * pagesz, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (out_arena[s] == MAP_FAILED)
			die("mmap");
		if (mprotect(out_arena[s] + 2 * pagesz, pagesz, PROT_NONE) ||
		    mprotect(out_arena[s] + 3 * pagesz, pagesz, PROT_READ))
			die("mprotect");
	}
	path_arena = mmap(0, 4 * pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	if (path_arena == MAP_FAILED || mprotect(path_arena + 2 * pagesz, pagesz, PROT_NONE))
		die("mmap");
}

/* Remove what setup() made, by name: no stat, so it works under every filter. */
static void cleanup(void)
{
	static const char *const files[] = {
		"dir/sub/f", "reg", "lreg", "ldir", "lsub", "dangling", "loop1", "loop2",
		"selfloop", "fifo", "sock", "labs", "lproc",
	};
	static const char *const dirs[] = { "dir/sub", "dir" };
	char n[NAME_MAX + 1];

	if (!scratch[0] || chdir("/"))
		return;
	int d = open(scratch, O_RDONLY | O_DIRECTORY);
	if (d < 0)
		return;
	for (unsigned i = 0; i < sizeof files / sizeof files[0]; i++)
		unlinkat(d, files[i], 0);
	for (int i = 0; i <= 40; i++) {
		snprintf(n, sizeof n, "chain%d", i);
		unlinkat(d, n, 0);
	}
	memset(n, 'n', NAME_MAX);
	n[NAME_MAX] = 0;
	unlinkat(d, n, 0);
	for (unsigned i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		unlinkat(d, dirs[i], AT_REMOVEDIR);
	close(d);
	rmdir(scratch);
}

/* ---------------------------------------------------------------- argument generation */

/* Where an output buffer goes. */
enum {
	OB_VALID, OB_MISALIGNED, OB_END, OB_NULL, OB_MINUS1, OB_LOW, OB_PROT_NONE, OB_STRADDLE,
	OB_READONLY, OB_NONCANON, OB_KERNEL, NOB,
};
static const char *const ob_names[] = {
	"valid", "misaligned", "valid-at-page-end", "NULL", "(void *)-1", "(void *)0x10",
	"PROT_NONE page", "straddling into PROT_NONE", "read-only page", "non-canonical",
	"kernel address",
};
/* Writable by user space?  (A library that converts into the buffer faults on the
 * others unless it checks the pointer like sysshim's ss_bad_ptr() does.) */
static int ob_unwritable_unchecked(int ob)
{
	return ob == OB_PROT_NONE || ob == OB_STRADDLE || ob == OB_READONLY || ob == OB_NONCANON;
}

/* Where a path string goes. */
enum {
	PS_NORMAL, PS_MISALIGNED, PS_AT_PAGE_END, PS_INTO_PROT_NONE, PS_NULL, PS_MINUS1,
	PS_PROT_NONE, PS_KERNEL, PS_NONCANON, NPS,
};
static const char *const ps_names[] = {
	"", "misaligned ", "ends at page end ", "runs into PROT_NONE ", "NULL", "(char *)-1",
	"PROT_NONE page", "kernel address", "non-canonical address",
};

struct arg {
	int kind;
	long v;		/* ints */
	int pidx;	/* path: index into paths[], or -1 for random bytes */
	char rpath[24];	/* random path */
	int place;	/* PS_* or OB_* */
	int off;	/* misalignment / straddle amount */
};

struct gcase {
	int sig;
	struct arg a[MAXARGS];
};

static long gen_fd(int dirfd)
{
	switch (below(dirfd ? 14 : 12)) {
	case 0: case 1: case 2: case 3: case 4: case 5:
		return fds[below(nfds)].fd;
	case 6:
		return closed_fd;
	case 7: {
		static const long neg[] = { -1, -2, -99, -101, INT_MIN, -4096 };
		return chance(80) ? neg[below(6)] : -(long)(1 + below(INT_MAX));
	}
	case 8: {
		static const long huge[] = { INT_MAX, 1 << 20, 65535, 65536, 1024, 4095 };
		return huge[below(6)];
	}
	case 9:
		return AT_FDCWD;
	case 10:
		return 3 + below(100 + nfds + 10);
	case 11:
		return chance(50) ? dir_fd : reg_fd;
	default:
		return AT_FDCWD;
	}
}

static long gen_flag(int statx)
{
	static const long valid[] = { AT_SYMLINK_NOFOLLOW, AT_NO_AUTOMOUNT, AT_EMPTY_PATH };
	static const long sync[] = { 0, AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC,
				     AT_STATX_SYNC_TYPE };
	long f = 0;
	switch (below(10)) {
	case 0:
		return 0;
	case 1:
		return valid[below(3)];
	case 2: case 3: case 4: case 8: case 9:
		for (int i = 0; i < 3; i++)
			if (chance(50))
				f |= valid[i];
		if (statx || chance(20))
			f |= sync[below(4)];
		return f;
	case 5:	/* one bit, any */
		return (int)(1UL << below(32));
	case 6:	/* valid plus one invalid bit */
		f = valid[below(3)] | (1L << below(32));
		return (int)f;
	default:
		return (int)(uint32_t)rnd();
	}
}

static long gen_mask(void)
{
	static const long known[] = {
		0, X_BASIC, 0xfff, X_BASIC | X_BTIME, X_RESERVED, 0xffffffffL, X_MNT_ID,
		X_DIOALIGN, X_BASIC | X_MNT_ID | X_MNT_ID_UNIQUE | X_SUBVOL, 0x7fffffff,
		X_TYPE, X_MODE, X_TYPE | X_MODE,
	};
	switch (below(4)) {
	case 0:
	case 1:
		return known[below(sizeof known / sizeof known[0])];
	case 2:
		return 1L << below(32);
	default:	/* random, mostly without the reserved bit */
		return (uint32_t)rnd() & (chance(80) ? ~X_RESERVED : ~0u);
	}
}

static long gen_ver(void)
{
	static const long v[] = { 0, 1, 0, 1, 0, 1, 2, 3, -1, 3 /* _STAT_VER_SVR4 */, 64 };
	if (chance(70))
		return below(2);	/* _STAT_VER_KERNEL, _STAT_VER_LINUX */
	return chance(80) ? v[below(sizeof v / sizeof v[0])] : (int)(uint32_t)rnd();
}

static void gen_path(struct arg *a)
{
	unsigned r = below(100);
	a->pidx = below(npaths);
	a->place = PS_NORMAL;
	a->off = 0;
	if (r < 8) {
		a->pidx = -1;
		unsigned n = 1 + below(sizeof a->rpath - 1);
		for (unsigned i = 0; i < n; i++)
			a->rpath[i] = "abcnrgd./\x01\xff"[below(11)];
		a->rpath[n] = 0;
	} else if (r < 14) {
		a->place = PS_MISALIGNED;
		a->off = 1 + below(7);
	} else if (r < 20) {
		a->place = PS_AT_PAGE_END;
		a->off = below(8);
	} else if (r < 26) {
		a->place = PS_INTO_PROT_NONE;
		a->off = below(8);
	} else if (r < 33) {
		a->place = PS_NULL;
	} else if (r < 37) {
		a->place = PS_MINUS1;
	} else if (r < 40) {
		a->place = PS_PROT_NONE;
	} else if (r < 42) {
		a->place = PS_KERNEL;
	} else if (r < 43) {
		a->place = PS_NONCANON;
	}
	/* the unreadable placements: aligned or not (the alignment guard reads only
	 * misaligned strings) */
	if ((a->place == PS_PROT_NONE || a->place == PS_KERNEL || a->place == PS_NONCANON) &&
	    chance(50))
		a->off = 1 + below(7);
}

static void gen_out(struct arg *a, size_t size)
{
	unsigned r = below(100);
	a->off = 0;
	if (r < 55)
		a->place = OB_VALID;
	else if (r < 62)
		a->place = OB_MISALIGNED, a->off = 1 + below(7);
	else if (r < 67)
		a->place = OB_END;
	else if (r < 75)
		a->place = OB_NULL;
	else if (r < 78)
		a->place = OB_MINUS1;
	else if (r < 80)
		a->place = OB_LOW;
	else if (r < 85)
		a->place = OB_PROT_NONE;
	else if (r < 90) {
		static const int k[] = { 1, 8, 16, 64, 100 };
		a->place = OB_STRADDLE;
		a->off = k[below(5)];
		if ((size_t)a->off >= size)
			a->off = size - 1;
	} else if (r < 94)
		a->place = OB_READONLY;
	else if (r < 97)
		a->place = OB_NONCANON;
	else
		a->place = OB_KERNEL;
}

static size_t outsize(int kind)
{
	return kind == A_STATXBUF ? sizeof(struct kstx) : sizeof(struct stat);
}

static void gen_case(uint64_t seed, long idx, struct gcase *c)
{
	rs = seed ^ (0x5851f42d4c957f2dULL * (uint64_t)(idx + 1));
	rnd();
	do
		c->sig = below(NSIGS);
	while (!sigs[c->sig].mine || (cfg.only && strcmp(sigs[c->sig].name, cfg.only)));
	struct sig *s = &sigs[c->sig];
	for (int i = 0; i < s->nargs; i++) {
		struct arg *a = &c->a[i];
		memset(a, 0, sizeof *a);
		a->kind = s->args[i];
		switch (a->kind) {
		case A_VER: a->v = gen_ver(); break;
		case A_FD: a->v = gen_fd(0); break;
		case A_DIRFD: a->v = gen_fd(1); break;
		case A_PATH: gen_path(a); break;
		case A_ATFLAG: a->v = gen_flag(0); break;
		case A_SXFLAG: a->v = gen_flag(1); break;
		case A_SXMASK: a->v = gen_mask(); break;
		case A_STATBUF: case A_STATXBUF: gen_out(a, outsize(a->kind)); break;
		}
	}
	/* Make the interesting combinations common: AT_EMPTY_PATH with "" or NULL and an
	 * fd (the fast paths), and fd-relative paths with a directory fd. */
	int pi = -1, fi = -1, fl = -1;
	for (int i = 0; i < s->nargs; i++) {
		if (c->a[i].kind == A_PATH) pi = i;
		if (c->a[i].kind == A_DIRFD) fi = i;
		if (c->a[i].kind == A_ATFLAG || c->a[i].kind == A_SXFLAG) fl = i;
	}
	if (pi >= 0 && fl >= 0 && chance(30)) {
		c->a[fl].v |= AT_EMPTY_PATH;
		if (chance(60)) {
			c->a[pi].place = chance(50) ? PS_NULL : PS_NORMAL;
			c->a[pi].pidx = 0;
			while (paths[c->a[pi].pidx][0])
				c->a[pi].pidx++;
		}
		if (fi >= 0 && chance(70))
			c->a[fi].v = fds[below(nfds)].fd;
	}
}

/* Put the path string where the case says; the same pointer goes to both calls. */
static const char *place_path(struct arg *a)
{
	const char *p = a->pidx < 0 ? a->rpath : paths[a->pidx];
	size_t n = strlen(p) + 1;
	unsigned char *pe = path_arena + 2 * pagesz;	/* start of the PROT_NONE page */

	switch (a->place) {
	case PS_NULL: return NULL;
	case PS_MINUS1: return (const char *)-1L;
	case PS_PROT_NONE: return (const char *)pe + a->off;
	case PS_KERNEL: return (const char *)(0xffffffff81000000UL + a->off);
	case PS_NONCANON: return (const char *)(0x0000800000001000UL + a->off);
	case PS_MISALIGNED:
		memcpy(path_arena + a->off, p, n);
		return (const char *)path_arena + a->off;
	case PS_AT_PAGE_END:	/* the NUL is the last byte (minus off) before PROT_NONE */
		if (n + a->off > 2 * (size_t)pagesz)
			break;
		memcpy(pe - n - a->off, p, n);
		return (const char *)(pe - n - a->off);
	case PS_INTO_PROT_NONE:	/* no NUL before the PROT_NONE page */
		if (n > 2 * (size_t)pagesz)
			break;
		memcpy(pe - (n - 1) + 0, p, n - 1);
		if (a->off && n - 1 >= (size_t)a->off) {
			/* shorten the visible part: the string's last off bytes are cut */
			return (const char *)(pe - (n - 1) + a->off);
		}
		return (const char *)(pe - (n - 1));
	}
	memcpy(path_arena + pagesz / 2, p, n);
	return (const char *)path_arena + pagesz / 2;
}

#define FILL 0xa5	/* what an output buffer holds before a call */

static void *place_out(struct arg *a, int side)
{
	unsigned char *ar = out_arena[side];
	size_t size = outsize(a->kind);
	memset(ar, FILL, 2 * pagesz);
	switch (a->place) {
	case OB_VALID: return ar + 64;
	case OB_MISALIGNED: return ar + 64 + a->off;
	case OB_END: return ar + 2 * pagesz - size;
	case OB_NULL: return NULL;
	case OB_MINUS1: return (void *)-1L;
	case OB_LOW: return (void *)0x10;
	case OB_PROT_NONE: return ar + 2 * pagesz;
	case OB_STRADDLE: return ar + 2 * pagesz - a->off;
	case OB_READONLY: return ar + 3 * pagesz;
	case OB_NONCANON: return (void *)0x0000800000001000UL;
	case OB_KERNEL: return (void *)0xffffffff81000000UL;
	}
	return NULL;
}

static int ob_readable(int ob)
{
	return ob == OB_VALID || ob == OB_MISALIGNED || ob == OB_END;
}

static void describe_arg(const struct arg *a, char *b, size_t n)
{
	switch (a->kind) {
	case A_VER: snprintf(b, n, "%ld", a->v); break;
	case A_FD: case A_DIRFD: {
		const char *what = "";
		for (int i = 0; i < nfds; i++)
			if (fds[i].fd == a->v)
				what = fds[i].what;
		if (a->v == AT_FDCWD)
			what = "AT_FDCWD";
		else if (a->v == closed_fd)
			what = "closed";
		snprintf(b, n, "%ld%s%s%s", a->v, *what ? " (" : "", what, *what ? ")" : "");
		break;
	}
	case A_ATFLAG: case A_SXFLAG: case A_SXMASK:
		snprintf(b, n, "%#lx", (unsigned long)(uint32_t)a->v);
		break;
	case A_PATH: {
		const char *p = a->pidx < 0 ? a->rpath : paths[a->pidx];
		if (a->place == PS_NULL || a->place == PS_MINUS1 || a->place == PS_PROT_NONE ||
		    a->place == PS_KERNEL || a->place == PS_NONCANON) {
			snprintf(b, n, "%s%s%.*d", ps_names[a->place], a->off ? " + " : "",
				 a->off ? 1 : 0, a->off);
			break;
		}
		char q[96];
		size_t len = strlen(p), k = 0;
		if (a->place == PS_INTO_PROT_NONE && a->off && (size_t)a->off <= len) {
			/* what the pointer sees: the last bytes, and no NUL */
			p += a->off;
			len -= a->off;
		}
		for (size_t i = 0; i < len && k < 60; i++) {
			unsigned char ch = p[i];
			if (ch >= 0x20 && ch < 0x7f && ch != '"')
				q[k++] = ch;
			else
				k += snprintf(q + k, sizeof q - k, "\\x%02x", ch);
		}
		q[k] = 0;
		if (a->place == PS_INTO_PROT_NONE)
			snprintf(b, n, "%s\"%s%s\" (%zu bytes, no NUL before the PROT_NONE page)",
				 ps_names[a->place], q, len > 60 ? "..." : "", len);
		else
			snprintf(b, n, "%s\"%s%s\" (%zu bytes%s%.*d)", ps_names[a->place], q,
				 len > 60 ? "..." : "", len, a->off ? ", off " : "",
				 a->off ? 1 : 0, a->off);
		break;
	}
	case A_STATBUF: case A_STATXBUF:
		snprintf(b, n, "%s buffer%s%.*d", ob_names[a->place],
			 a->off ? " off " : "", a->off ? 1 : 0, a->off);
		break;
	}
}

/* ---------------------------------------------------------------- calling */

struct res {
	int crashed;	/* signal number, 0 if returned */
	int ret, err;
	int have_buf;	/* buf holds a result (success) */
	int have_raw;	/* buf holds the buffer's bytes after the call, whatever it returned */
	unsigned char buf[256];
	int emulated;	/* oracle built from fstatat (statx with statx denied) */
	int swapped;	/* glibc's own answer depended on a denied syscall: oracle swapped */
	int accept_denial;	/* every way is denied: -1 with ENOSYS or EPERM is right too */
	int path_read;	/* sysshim reads this unreadable path (no NULL-path capability) */
};

static sigjmp_buf jb;
static volatile sig_atomic_t armed;
static void on_fault(int sig)
{
	if (armed) {
		armed = 0;
		siglongjmp(jb, sig);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

#define ERRNO_SENTINEL 4242

static void do_call(struct sig *s, void *fn, void **av, struct res *r, void *out, int ob)
{
	ffi_arg rv = 0;
	int sig;

	memset(r, 0, sizeof *r);
	errno = ERRNO_SENTINEL;
	if ((sig = sigsetjmp(jb, 1)) == 0) {
		armed = 1;
		ffi_call(&s->cif, FFI_FN(fn), &rv, av);
		armed = 0;
		r->ret = (int)rv;
		r->err = errno;
	} else {
		r->crashed = sig;
		return;
	}
	if (ob_readable(ob)) {
		r->have_buf = r->ret == 0;
		r->have_raw = 1;
		memcpy(r->buf, out, outsize(s->outkind));
	}
}

/* libc.so.6's fstatat and fstat, called directly for the oracle swaps. */
static int (*g_fstatat)(int, const char *, struct stat *, int);
static int (*g_fstat)(int, struct stat *);

static int sc_denies_statx(void)
{
	return (cfg.sc >= SC_STATX_ENOSYS && cfg.sc <= SC_STATX_EPERM_LATE) ||
	       cfg.sc == SC_STATX_ENOSYS_UNREAD || cfg.sc == SC_STATX_EPERM_UNREAD;
}
static int sc_denies_fstat(void)
{
	return cfg.sc == SC_FSTAT_ENOSYS || cfg.sc == SC_FSTAT_EPERM;
}
static int sc_denies_path(void)
{
	return cfg.sc == SC_PATH_ENOSYS || cfg.sc == SC_PATH_EPERM;
}
static int denied_errno(void)
{
	return cfg.sc == SC_STATX_EPERM || cfg.sc == SC_STATX_EPERM_LATE ||
	       cfg.sc == SC_FSTAT_EPERM || cfg.sc == SC_PATH_EPERM ||
	       cfg.sc == SC_STATX_EPERM_UNREAD ? EPERM : ENOSYS;
}
static int (*g_fxstat)(int, int, struct stat *);

/* The statx emulation's answer for a struct stat: the tests' own conversion
 * (tests/common/statx_oracle.h) into the C library's struct statx, whose layout is the
 * kernel's as far as it goes. */
_Static_assert(sizeof(struct statx) == sizeof(struct kstx), "struct statx is the kernel's");

static void st_to_kstx(struct kstx *x, const struct stat *st)
{
	struct statx sx;
	oracle_statx_from_stat(&sx, st);
	memcpy(x, &sx, sizeof *x);
}

/* The statx emulation's contract (statx denied): EINVAL for both sync bits or reserved
 * mask bits, else what fstatat(fd, path, flag without the sync bits) answers, EFAULT for
 * a bad buffer, and on success stx_mask == STATX_BASIC_STATS with the basic fields,
 * blksize, dev and rdev of that struct stat. */
static void oracle_statx_emulated(struct gcase *c, void **av, struct res *r, void *out, int ob)
{
	int fd = *(int *)av[0];
	const char *path = *(const char **)av[1];
	int flag = *(int *)av[2];
	unsigned mask = *(unsigned *)av[3];
	struct stat st;
	struct res tmp;

	(void)c;
	memset(r, 0, sizeof *r);
	r->emulated = 1;
	if ((flag & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & X_RESERVED)) {
		r->ret = -1, r->err = EINVAL;
		return;
	}
	errno = ERRNO_SENTINEL;
	int sig;
	if ((sig = sigsetjmp(jb, 1)) == 0) {
		armed = 1;
		tmp.ret = g_fstatat(fd, path, &st, flag & ~AT_STATX_SYNC_TYPE);
		armed = 0;
		tmp.err = errno;
	} else {
		r->crashed = sig;
		return;
	}
	if (tmp.ret) {
		r->ret = tmp.ret, r->err = tmp.err;
		return;
	}
	if (!ob_readable(ob)) {
		r->ret = -1, r->err = EFAULT;
		(void)out;
		return;
	}
	r->ret = 0;
	r->err = ERRNO_SENTINEL;
	r->have_buf = 1;
	st_to_kstx((struct kstx *)r->buf, &st);
}

/* Is this path pointer one that user space cannot read but ss_bad_ptr() lets through? */
static int path_unreadable(const struct arg *a)
{
	if (a->place == PS_PROT_NONE || a->place == PS_NONCANON)
		return 1;
	if (a->place == PS_INTO_PROT_NONE) {
		const char *p = a->pidx < 0 ? a->rpath : paths[a->pidx];
		return (size_t)a->off >= strlen(p);	/* no byte left before the page */
	}
	return 0;
}

/* newfstatat and statx denied (glibc's whole stat family but the legacy names, which are
 * the fstat, stat and lstat syscalls).  sysshim still answers fstat (the fstat syscall)
 * and fstatat(fd, "", AT_EMPTY_PATH) through it (statx too, emulated); anything else
 * it can only refuse. */
static void oracle_path_denied(struct gcase *c, void **av, void *out, int ob, struct res *r)
{
	struct sig *s = &sigs[c->sig];
	int fdi = -1, pi = -1, fli = -1;
	for (int i = 0; i < s->nargs; i++) {
		if (s->args[i] == A_FD || s->args[i] == A_DIRFD) fdi = i;
		if (s->args[i] == A_PATH) pi = i;
		if (s->args[i] == A_ATFLAG || s->args[i] == A_SXFLAG) fli = i;
	}
	if (s->outkind == A_STATXBUF) {
		/* glibc's statx is denied, or with ENOSYS its own statx_generic(), which
		 * refuses AT_STATX_FORCE_SYNC and AT_STATX_DONT_SYNC (EINVAL) where the
		 * kernel and sysshim take them: the oracle is the emulation contract */
		memset(r, 0, sizeof *r);
		r->ret = -1;
		r->err = denied_errno();
		r->emulated = 1;
	} else {
		do_call(s, s->glibc, av, r, out, ob);
		if (r->crashed || r->ret != -1 || r->err != denied_errno())
			return;	/* glibc answered without the denied syscalls */
	}
	int fd = fdi >= 0 ? *(int *)av[fdi] : AT_FDCWD;
	int flag = fli >= 0 ? *(int *)av[fli] : 0;
	if (s->outkind == A_STATXBUF) {
		unsigned mask = *(unsigned *)av[3];
		if ((flag & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & X_RESERVED)) {
			memset(r, 0, sizeof *r);
			r->ret = -1, r->err = EINVAL, r->emulated = 1;
			return;
		}
		flag &= ~AT_STATX_SYNC_TYPE;
	}
	int empty_form = 0;
	if (pi < 0) {
		empty_form = 1;	/* fstat */
	} else if (fd >= 0 && (flag & ~(AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW)) == AT_EMPTY_PATH) {
		const struct arg *pa = &c->a[pi];
		const char *p = *(const char **)av[pi];
		if (path_unreadable(pa)) {
			r->path_read = 1;	/* sysshim reads it: finding 4 */
			r->accept_denial = 1;
			return;
		}
		empty_form = p && (uintptr_t)p >= 4096 && !((uintptr_t)p >> 56) && !*p;
	}
	if (!empty_form) {
		r->accept_denial = 1;
		return;
	}
	/* the answer of the fstat syscall: glibc's __fxstat */
	struct res a;
	memset(&a, 0, sizeof a);
	struct stat st;
	int sig;
	errno = ERRNO_SENTINEL;
	if ((sig = sigsetjmp(jb, 1)) == 0) {
		armed = 1;
		a.ret = g_fxstat(1, fd, s->outkind == A_STATXBUF ? &st : out);
		armed = 0;
		a.err = errno;
	} else {
		a.crashed = sig;
	}
	a.swapped = 1;
	if (s->outkind == A_STATBUF) {
		if (!a.crashed && ob_readable(ob)) {
			a.have_raw = 1;
			a.have_buf = a.ret == 0;
			memcpy(a.buf, out, sizeof(struct stat));
		}
	} else if (!a.crashed && a.ret == 0) {
		a.emulated = 1;
		if (!ob_readable(ob)) {
			a.ret = -1, a.err = EFAULT;
		} else {
			a.have_buf = 1;
			a.err = ERRNO_SENTINEL;
			st_to_kstx((struct kstx *)a.buf, &st);
		}
	}
	*r = a;
}

/* One call of glibc's side: the oracle. */
static void call_oracle(struct gcase *c, void **av, void *out, int ob, struct res *r)
{
	struct sig *s = &sigs[c->sig];
	if (sc_denies_path()) {
		oracle_path_denied(c, av, out, ob, r);
		return;
	}
	/* Under a filter the library cannot read, statx() is the C library's: glibc's own
	 * emulation answers ENOSYS, the library's (the contract) only EPERM. */
	if (s->outkind == A_STATXBUF && sc_denies_statx() && cfg.sc != SC_STATX_ENOSYS_UNREAD) {
		oracle_statx_emulated(c, av, r, out, ob);
		return;
	}
	do_call(s, s->glibc, av, r, out, ob);
	/* glibc's __fxstat is the fstat syscall: with fstat denied, the oracle is its
	 * fstat() (newfstatat in glibc 2.36) for the same fd. */
	if (sc_denies_fstat() && !r->crashed && r->ret == -1 && r->err == denied_errno()) {
		int fi = -1;
		for (int i = 0; i < s->nargs; i++)
			if (s->args[i] == A_FD)
				fi = i;
		if (fi >= 0) {
			struct res r2;
			void *av2[2] = { av[fi], av[fi + 1] };
			memset(&r2, 0, sizeof r2);
			errno = ERRNO_SENTINEL;
			int sig;
			if ((sig = sigsetjmp(jb, 1)) == 0) {
				armed = 1;
				r2.ret = g_fstat(*(int *)av2[0], *(struct stat **)av2[1]);
				armed = 0;
				r2.err = errno;
				if (r2.ret == 0 && ob_readable(ob)) {
					r2.have_buf = 1;
					memcpy(r2.buf, out, sizeof(struct stat));
				}
			} else {
				r2.crashed = sig;
			}
			r2.swapped = 1;
			*r = r2;
		}
	}
}

/* ---------------------------------------------------------------- comparing */

static int cmp_stat(const struct stat *a, const struct stat *b, char *why, size_t n)
{
#define F(f)                                                                             \
	if (a->f != b->f) {                                                              \
		snprintf(why, n, #f ": glibc %#llx sysshim %#llx", (unsigned long long)a->f, \
			 (unsigned long long)b->f);                                      \
		return 1;                                                                \
	}
	F(st_dev) F(st_ino) F(st_nlink) F(st_mode) F(st_uid) F(st_gid) F(st_rdev) F(st_size)
	F(st_blksize) F(st_blocks) F(st_atim.tv_sec) F(st_atim.tv_nsec) F(st_mtim.tv_sec)
	F(st_mtim.tv_nsec) F(st_ctim.tv_sec) F(st_ctim.tv_nsec)
	return 0;
}

static int cmp_kstx(const struct kstx *a, const struct kstx *b, int emulated, char *why,
		    size_t n)
{
	if (a->mask != b->mask) {
		snprintf(why, n, "stx_mask: %s %#x sysshim %#x", emulated ? "expected" : "glibc",
			 a->mask, b->mask);
		return 1;
	}
	uint32_t m = a->mask;
#define G(bit, f)                                                                        \
	if ((bit) && (a->f) != (b->f)) {                                                     \
		snprintf(why, n, "stx_" #f " (mask %#x): %s %#llx sysshim %#llx", m,       \
			 emulated ? "expected" : "glibc", (unsigned long long)(a->f),     \
			 (unsigned long long)(b->f));                                      \
		return 1;                                                                \
	}
	/* Filled whatever the mask says (cp_statx): blksize, attributes, dev, rdev. */
	G(1, blksize) G(1, attributes) G(1, attributes_mask) G(1, rdev_major) G(1, rdev_minor)
	G(1, dev_major) G(1, dev_minor)
	G(m & X_TYPE, mode & 0170000) G(m & X_MODE, mode & 07777) G(m & X_NLINK, nlink)
	G(m & X_UID, uid) G(m & X_GID, gid)
	G(m & X_ATIME, atime.tv_sec) G(m & X_ATIME, atime.tv_nsec)
	G(m & X_MTIME, mtime.tv_sec) G(m & X_MTIME, mtime.tv_nsec)
	G(m & X_CTIME, ctime.tv_sec) G(m & X_CTIME, ctime.tv_nsec)
	G(m & X_BTIME, btime.tv_sec) G(m & X_BTIME, btime.tv_nsec)
	G(m & X_INO, ino) G(m & X_SIZE, size) G(m & X_BLOCKS, blocks)
	G(m & X_MNT_ID, mnt_id) G(m & X_MNT_ID_UNIQUE, mnt_id)
	G(m & X_DIOALIGN, dio_mem_align) G(m & X_DIOALIGN, dio_offset_align)
	G(m & X_SUBVOL, subvol)
	G(m & X_WRITE_ATOMIC, aw_unit_min) G(m & X_WRITE_ATOMIC, aw_unit_max)
	G(m & X_WRITE_ATOMIC, aw_segments_max) G(m & X_WRITE_ATOMIC, aw_unit_max_opt)
	G(m & X_DIO_READ_ALIGN, dio_read_offset_align)
	if (emulated) {
		/* the emulation says it filled nothing else: all of it must be zero */
		G(1, attributes) G(1, btime.tv_sec) G(1, btime.tv_nsec) G(1, mnt_id)
		G(1, atime.reserved) G(1, mtime.reserved) G(1, ctime.reserved) G(1, spare0)
	}
	return 0;
}

/* 0: same; 1: mismatch (why filled in). */
static int compare(struct sig *s, const struct res *o, const struct res *m, char *why, size_t n)
{
	if (o->accept_denial && !m->crashed && m->ret == -1 &&
	    (m->err == ENOSYS || m->err == EPERM))
		return 0;
	if (o->crashed || m->crashed) {
		if (o->crashed && m->crashed)
			return 0;
		snprintf(why, n, "outcome: %s %s, sysshim %s", o->emulated ? "expected" : "glibc",
			 o->crashed ? "crashed" : "returned", m->crashed ? "crashed" : "returned");
		return 1;
	}
	if (o->ret != m->ret) {
		snprintf(why, n, "return value");
		return 1;
	}
	if (o->ret == -1 && o->err != m->err) {
		snprintf(why, n, "errno");
		return 1;
	}
	/* A failed call leaves the buffer alone (the kernel writes only on success, but
	 * for a partly unwritable buffer, which is never readable here). */
	if (o->ret == -1 && o->have_raw && m->have_raw && !o->emulated && !o->swapped &&
	    memcmp(o->buf, m->buf, outsize(s->outkind))) {
		snprintf(why, n, "output buffer written by a failed call");
		return 1;
	}
	if (o->ret == 0 && o->have_buf) {
		if (s->outkind == A_STATBUF)
			return cmp_stat((const struct stat *)o->buf, (const struct stat *)m->buf,
					why, n);
		return cmp_kstx((const struct kstx *)o->buf, (const struct kstx *)m->buf,
				o->emulated, why, n);
	}
	return 0;
}

static const char *errname(int e)
{
	static char b[32];
	switch (e) {
	case 0: return "0";
	case ERRNO_SENTINEL: return "(untouched)";
#define E(x) case x: return #x;
	E(EPERM) E(ENOENT) E(EBADF) E(EFAULT) E(ENOTDIR) E(EINVAL) E(ENAMETOOLONG)
	E(ENOSYS) E(ELOOP) E(EACCES) E(ENXIO) E(EOVERFLOW) E(ENOMEM)
	}
	snprintf(b, sizeof b, "%d", e);
	return b;
}

static void describe_res(const char *who, const struct res *r, struct sig *s, FILE *f)
{
	if (r->crashed) {
		fprintf(f, "    %-8s crashed (signal %d)\n", who, r->crashed);
		return;
	}
	fprintf(f, "    %-8s returned %d, errno %s%s%s", who, r->ret, errname(r->err),
		r->emulated ? " [oracle: statx emulation contract from glibc fstatat]" : "",
		r->swapped ? " [oracle: glibc fstat, glibc's own call was denied]" : "");
	if (r->have_buf && s->outkind == A_STATBUF) {
		const struct stat *st = (const void *)r->buf;
		fprintf(f, "; dev %#lx ino %lu mode %o nlink %lu size %ld blksize %ld blocks %ld "
			"atime %ld.%09ld mtime %ld.%09ld ctime %ld.%09ld",
			(long)st->st_dev, (long)st->st_ino, st->st_mode, (long)st->st_nlink,
			(long)st->st_size, (long)st->st_blksize, (long)st->st_blocks,
			st->st_atim.tv_sec, st->st_atim.tv_nsec, st->st_mtim.tv_sec,
			st->st_mtim.tv_nsec, st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
	} else if (r->have_buf) {
		const struct kstx *x = (const void *)r->buf;
		fprintf(f, "; mask %#x dev %u:%u ino %llu mode %o nlink %u size %llu blksize %u "
			"attributes %#llx",
			x->mask, x->dev_major, x->dev_minor, (unsigned long long)x->ino, x->mode,
			x->nlink, (unsigned long long)x->size, x->blksize,
			(unsigned long long)x->attributes);
	}
	fprintf(f, "\n");
}

/* ---------------------------------------------------------------- one case */

static long n_pass, n_fail, n_known, n_unstable, n_align, n_errno_note, n_pathread, n_legacy;

/* --stats: what the oracle answered, per function: 0, crashed, or errno */
static long st_calls[64], st_ok[64], st_crash[64], st_err[64][134];

static void count_outcome(int sig, const struct res *o)
{
	st_calls[sig]++;
	if (o->crashed)
		st_crash[sig]++;
	else if (o->ret == 0)
		st_ok[sig]++;
	else if (o->err > 0 && o->err < 134)
		st_err[sig][o->err]++;
}

static void print_stats(void)
{
	printf("outcomes of the oracle per function (cases: ok, crashed, errno counts):\n");
	for (int i = 0; i < NSIGS; i++) {
		if (!st_calls[i])
			continue;
		printf("  %-14s %6ld: ok %ld", sigs[i].name, st_calls[i], st_ok[i]);
		if (st_crash[i])
			printf(", crashed %ld", st_crash[i]);
		for (int e = 1; e < 134; e++)
			if (st_err[i][e])
				printf(", %s %ld", errname(e), st_err[i][e]);
		printf("\n");
	}
}

/* The documented limitation: where sysshim converts into the caller's buffer itself
 * (statx-* strategies, statx emulated from stat), an unwritable non-NULL buffer
 * faults in user space where the kernel would answer EFAULT. */
static int known_limitation(struct gcase *c, const struct res *o, const struct res *m)
{
	struct sig *s = &sigs[c->sig];
	int ob = -1;
	for (int i = 0; i < s->nargs; i++)
		if (c->a[i].kind == A_STATBUF || c->a[i].kind == A_STATXBUF)
			ob = c->a[i].place;
	if (!m->crashed || o->crashed || o->ret != -1 || o->err != EFAULT ||
	    !ob_unwritable_unchecked(ob))
		return 0;
	if (s->outkind == A_STATXBUF)
		return sc_denies_statx() || sc_denies_path();
	return cfg.strategy && !strncmp(cfg.strategy, "statx-", 6) && !sc_denies_statx() &&
	       !sc_denies_path();
}

/* SYSSHIM_ALIGN_PATHS=1 (the opt-in path alignment guard, src/path/guard.c) reads a
 * misaligned path in user space to find its end; a string that runs into an unreadable
 * page then faults there, where the kernel answers EFAULT (or EINVAL for bad flags,
 * which it checks first).  Counted apart unless --strict. */
static int align_read_fault(struct gcase *c, const struct res *o, const struct res *m)
{
	struct sig *s = &sigs[c->sig];
	if (!cfg.align || cfg.strict || !m->crashed || o->crashed)
		return 0;
	for (int i = 0; i < s->nargs; i++) {
		const struct arg *a = &c->a[i];
		if (a->kind == A_PATH && (a->place == PS_INTO_PROT_NONE ||
		    ((a->place == PS_PROT_NONE || a->place == PS_NONCANON) && a->off)))
			return 1;
	}
	return 0;
}

static void print_case(long idx, struct gcase *c, FILE *f)
{
	struct sig *s = &sigs[c->sig];
	fprintf(f, "  %s(", s->name);
	for (int i = 0; i < s->nargs; i++) {
		char b[256];
		describe_arg(&c->a[i], b, sizeof b);
		fprintf(f, "%s%s=%s", i ? ", " : "", kind_name[c->a[i].kind], b);
	}
	fprintf(f, ")\n");
	(void)idx;
}

/* The strategy as the run had it: auto is SYSSHIM_STRATEGY unset (set, even to auto,
 * the library probes at its first fd call). */
static void replay_hint(long idx, FILE *f)
{
	fprintf(f, "  replay: %s%s %s --lib %s --seed %" PRIu64
		" --seccomp %s%s --case %ld -v\n",
		cfg.strategy ? "SYSSHIM_STRATEGY=" : "env -u SYSSHIM_STRATEGY",
		cfg.strategy ? cfg.strategy : "", self_path, cfg.lib, cfg.seed,
		sc_names[cfg.sc], cfg.align ? cfg.strict ? " --align --strict" : " --align" : "",
		idx);
}

static void run_case(long idx)
{
	struct gcase c;
	union { int i; unsigned u; const void *p; } vals[2][MAXARGS];
	void *av[2][MAXARGS];
	void *out[2] = { 0, 0 };
	int ob = OB_VALID;
	struct res o, m, o2;
	char why[256];

	gen_case(cfg.seed, idx, &c);
	struct sig *s = &sigs[c.sig];
	for (int side = 0; side < 2; side++) {
		for (int i = 0; i < s->nargs; i++) {
			struct arg *a = &c.a[i];
			switch (a->kind) {
			case A_SXMASK: vals[side][i].u = (unsigned)a->v; break;
			case A_PATH: vals[side][i].p = side ? vals[0][i].p : place_path(a); break;
			case A_STATBUF: case A_STATXBUF:
				vals[side][i].p = out[side] = place_out(a, side);
				ob = a->place;
				break;
			default: vals[side][i].i = (int)a->v;
			}
			av[side][i] = &vals[side][i];
		}
	}

	/* glibc, then sysshim, back to back */
	call_oracle(&c, av[0], out[0], ob, &o);
	do_call(s, s->mine, av[1], &m, out[1], ob);
	count_outcome(c.sig, &o);
	int bad = compare(s, &o, &m, why, sizeof why);

	/* A mismatch counts only if the oracle is stable: call glibc again around a second
	 * sysshim call; if glibc disagrees with itself (a /proc inode recreated, a file
	 * changed by someone else), try again, at most three times. */
	for (int t = 0; bad && t < 3; t++) {
		call_oracle(&c, av[0], out[0], ob, &o);
		do_call(s, s->mine, av[1], &m, out[1], ob);
		call_oracle(&c, av[0], out[0], ob, &o2);
		char w2[256];
		if (compare(s, &o, &o2, w2, sizeof w2)) {
			if (t == 2) {
				n_unstable++;
				if (cfg.verbose) {
					printf("unstable oracle, case %ld: %s\n", idx, w2);
					print_case(idx, &c, stdout);
				}
				return;
			}
			continue;
		}
		bad = compare(s, &o, &m, why, sizeof why);
		break;
	}

	if (bad && known_limitation(&c, &o, &m)) {
		n_known++;
		if (cfg.verbose) {
			printf("case %ld: known limitation (unwritable buffer converted in user space)\n",
			       idx);
			print_case(idx, &c, stdout);
		}
		return;
	}
	/* Finding 4: with no NULL-path capability left (here: a filter denying newfstatat
	 * and statx) fstatat(fd, p, AT_EMPTY_PATH) reads *p, as documented for kernels
	 * before 6.11; an unreadable p faults. */
	if (bad && o.path_read && m.crashed) {
		n_pathread++;
		if (cfg.verbose) {
			printf("case %ld: path read without a NULL-path capability (finding 4)\n", idx);
			print_case(idx, &c, stdout);
		}
		return;
	}
	/* Finding 5: glibc's __xstat and __lxstat are the stat and lstat syscalls, which
	 * sysshim never uses: with newfstatat and statx denied glibc answers, sysshim
	 * refuses. */
	if (bad && sc_denies_path() && !o.crashed && !m.crashed && m.ret == -1 &&
	    (m.err == ENOSYS || m.err == EPERM) &&
	    (!strncmp(s->name, "__xstat", 7) || !strncmp(s->name, "__lxstat", 8))) {
		n_legacy++;
		if (cfg.verbose) {
			printf("case %ld: glibc's stat/lstat syscall answers, sysshim has none "
			       "(finding 5)\n", idx);
			print_case(idx, &c, stdout);
		}
		return;
	}
	if (bad && align_read_fault(&c, &o, &m)) {
		n_align++;
		if (cfg.verbose) {
			printf("case %ld: SYSSHIM_ALIGN_PATHS guard read fault: %s\n", idx, why);
			print_case(idx, &c, stdout);
		}
		return;
	}
	if (!bad && o.ret == 0 && !o.crashed && !m.crashed && !o.emulated && o.err != m.err) {
		/* allowed by POSIX, but glibc leaves errno alone on success */
		n_errno_note++;
		if (cfg.verbose) {
			printf("case %ld: note: errno %s -> %s on success\n", idx, errname(o.err),
			       errname(m.err));
			print_case(idx, &c, stdout);
		}
	}
	if (!bad) {
		n_pass++;
		if (cfg.verbose && cfg.one_case >= 0) {
			printf("case %ld: same\n", idx);
			print_case(idx, &c, stdout);
			describe_res(o.emulated ? "expected" : "glibc", &o, s, stdout);
			describe_res("sysshim", &m, s, stdout);
		}
		return;
	}
	n_fail++;
	if (n_fail <= cfg.maxfail) {
		printf("MISMATCH %s, case %ld, seed %" PRIu64 ", strategy %s, seccomp %s%s: %s\n",
		       s->name, idx, cfg.seed, cfg.strategy ? cfg.strategy : "auto",
		       sc_names[cfg.sc], cfg.align ? ", SYSSHIM_ALIGN_PATHS=1" : "", why);
		print_case(idx, &c, stdout);
		describe_res(o.emulated ? "expected" : "glibc", &o, s, stdout);
		describe_res("sysshim", &m, s, stdout);
		replay_hint(idx, stdout);
		fflush(stdout);
	}
}

/* ---------------------------------------------------------------- seccomp */

#if defined __x86_64__
#define DF_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined __aarch64__
#define DF_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined __loongarch__ && __loongarch_grlen == 64
#define DF_AUDIT_ARCH AUDIT_ARCH_LOONGARCH64
#else
#error "difffuzz: add this architecture's AUDIT_ARCH_*"
#endif

/* The prctl() the filter goes in by: the library's (early modes), or the C library's
 * (late and -unread modes: the library does not see it). */
static int (*g_prctl)(int, unsigned long, unsigned long, unsigned long, unsigned long);
static int (*my_prctl)(int, unsigned long, unsigned long, unsigned long, unsigned long);

/* A filter answering err for syscalls nr and nr2 (the same one twice for one). */
static void deny(int nr, int nr2, int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, DF_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof f / sizeof f[0], .filter = f };
	int unread = cfg.sc >= SC_STATX_ENOSYS_UNREAD || cfg.sc == SC_STATX_ENOSYS_LATE ||
		     cfg.sc == SC_STATX_EPERM_LATE;
	int (*in)(int, unsigned long, unsigned long, unsigned long, unsigned long) =
		!unread && my_prctl ? my_prctl : g_prctl;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    in(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, (unsigned long)&prog, 0, 0))
		die("seccomp");
}

static void install_seccomp(void)
{
	switch (cfg.sc) {
	case SC_STATX_ENOSYS: case SC_STATX_ENOSYS_LATE: case SC_STATX_ENOSYS_UNREAD:
		deny(SYS_statx, SYS_statx, ENOSYS);
		break;
	case SC_STATX_EPERM: case SC_STATX_EPERM_LATE: case SC_STATX_EPERM_UNREAD:
		deny(SYS_statx, SYS_statx, EPERM);
		break;
	case SC_FSTAT_ENOSYS: deny(SYS_fstat, SYS_fstat, ENOSYS); break;
	case SC_FSTAT_EPERM: deny(SYS_fstat, SYS_fstat, EPERM); break;
	case SC_PATH_ENOSYS: deny(SYS_newfstatat, SYS_statx, ENOSYS); break;
	case SC_PATH_EPERM: deny(SYS_newfstatat, SYS_statx, EPERM); break;
	}
}

/* ---------------------------------------------------------------- one configuration */

static void load(void)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	if (!libc)
		libc = dlopen("libc.so.6", RTLD_NOW);
	void *mine = dlopen(cfg.lib, RTLD_NOW | RTLD_LOCAL);
	if (!libc || !mine) {
		fprintf(stderr, "difffuzz: dlopen: %s\n", dlerror());
		exit(2);
	}
	g_fstatat = (int (*)(int, const char *, struct stat *, int))dlsym(libc, "fstatat");
	g_fstat = (int (*)(int, struct stat *))dlsym(libc, "fstat");
	g_fxstat = (int (*)(int, int, struct stat *))dlsym(libc, "__fxstat");
	g_prctl = (int (*)(int, unsigned long, unsigned long, unsigned long, unsigned long))
		dlsym(libc, "prctl");
	my_prctl = (int (*)(int, unsigned long, unsigned long, unsigned long, unsigned long))
		dlsym(mine, "prctl");
	Dl_info pi;
	if (my_prctl && dladdr((void *)my_prctl, &pi) && pi.dli_fname && strstr(pi.dli_fname, "libc.so"))
		my_prctl = NULL;	/* no prctl of its own: the C library's */
	int usable = 0;
	for (int i = 0; i < NSIGS; i++) {
		struct sig *s = &sigs[i];
		for (int k = 0; k < s->nargs; k++) {
			int a = s->args[k];
			s->types[k] = a == A_PATH || a == A_STATBUF || a == A_STATXBUF ? &ffi_type_pointer
				    : a == A_SXMASK ? &ffi_type_uint : &ffi_type_sint;
			if (a == A_STATBUF || a == A_STATXBUF)
				s->outkind = a;
		}
		if (ffi_prep_cif(&s->cif, FFI_DEFAULT_ABI, s->nargs, &ffi_type_sint, s->types) !=
		    FFI_OK) {
			fprintf(stderr, "difffuzz: ffi_prep_cif failed for %s\n", s->name);
			exit(2);
		}
		s->glibc = dlsym(libc, s->oracle);
		s->mine = dlsym(mine, s->name);
		if (!s->glibc) {
			fprintf(stderr, "difffuzz: glibc has no %s\n", s->oracle);
			exit(2);
		}
		/* dlsym on sysshim's handle must find sysshim's own definition, not libc's */
		Dl_info di;
		if (s->mine && dladdr(s->mine, &di) && di.dli_fname && strstr(di.dli_fname, "libc.so"))
			s->mine = NULL;
		if (!s->mine && !cfg.only && !cfg.quiet)
			fprintf(stderr, "difffuzz: NOTE: %s has no %s export: not tested\n", cfg.lib,
				s->name);
		usable += !!s->mine;
	}
	if (!usable) {
		fprintf(stderr, "difffuzz: nothing to test\n");
		exit(2);
	}
}

static int run_config(void)
{
	struct sigaction sa = { .sa_handler = on_fault, .sa_flags = SA_ONSTACK | SA_NODEFER };
	static char altstack[65536];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
	sigaltstack(&ss, 0);
	sigaction(SIGSEGV, &sa, 0);
	sigaction(SIGBUS, &sa, 0);

	if (cfg.strategy)
		setenv("SYSSHIM_STRATEGY", cfg.strategy, 1);
	if (cfg.align)
		setenv("SYSSHIM_ALIGN_PATHS", "1", 1);
	else
		unsetenv("SYSSHIM_ALIGN_PATHS");
	setup();
	int early = cfg.sc == SC_STATX_ENOSYS || cfg.sc == SC_STATX_EPERM ||
		    cfg.sc == SC_FSTAT_ENOSYS || cfg.sc == SC_FSTAT_EPERM || sc_denies_path() ||
		    cfg.sc >= SC_STATX_ENOSYS_UNREAD;
	load();	/* ld.so stats the file: load first; sysshim probes at its first call */
	if (early)
		install_seccomp();	/* before sysshim's first call, so the probe sees it */
	if (early) {
		/* Probe now (a forced strategy: an fd call probes at once), with stderr muted:
		 * a forced strategy whose syscall the filter denies makes sysshim say "not
		 * available ... using the probed strategy", which is expected here (-v shows
		 * it). The same with -v, so that a replay makes the same calls. */
		struct stat st;
		int e = dup(2), dn = open("/dev/null", O_WRONLY);
		if (!cfg.verbose)
			dup2(dn, 2);
		for (int i = 0; i < NSIGS; i++)
			if (!strcmp(sigs[i].name, "fstat") && sigs[i].mine)
				((int (*)(int, struct stat *))sigs[i].mine)(reg_fd, &st);
		dup2(e, 2);
		close(e);
		close(dn);
	}
	if (!early && cfg.sc != SC_NONE) {
		/* late: let sysshim probe an unfiltered kernel first: its API probes at its
		 * first call (the fd calls only after SS_PROBE_AFTER of them) */
		struct stat st;
		for (int i = 0; i < NSIGS; i++)
			if (!strcmp(sigs[i].name, "sysshim_fstat") && sigs[i].mine)
				((int (*)(int, struct stat *))sigs[i].mine)(reg_fd, &st);
		install_seccomp();
	}
	if (cfg.one_case >= 0) {
		run_case(cfg.one_case);
	} else {
		for (long i = 0; i < cfg.cases; i++)
			run_case(i);
	}
	cleanup();
	return n_fail ? 1 : 0;
}

/* ---------------------------------------------------------------- counting */

struct counts {
	long pass, fail, known, unstable, align, errno_note, pathread, legacy;
};

static struct counts my_counts(void)
{
	struct counts c = { n_pass, n_fail, n_known, n_unstable, n_align, n_errno_note,
			    n_pathread, n_legacy };
	return c;
}

static void print_summary(const struct counts *t)
{
	long skipped = t->known + t->unstable + t->align + t->pathread + t->legacy;
	if (t->errno_note)
		printf("  note: %ld cases where sysshim changed errno on success (glibc did not)\n",
		       t->errno_note);
	if (skipped) {
		printf("  skipped (not compared, see docs/fuzz.md):\n");
		if (t->known)
			printf("    %ld known limitation: unwritable output buffer converted in user "
			       "space (statx-* strategies, statx emulation)\n", t->known);
		if (t->align)
			printf("    %ld SYSSHIM_ALIGN_PATHS=1 reads a path that runs into an unreadable "
			       "page (finding 2; --strict counts them as failures)\n", t->align);
		if (t->pathread)
			printf("    %ld fstatat(fd, unreadable, AT_EMPTY_PATH) read with no NULL-path "
			       "capability left (finding 4)\n", t->pathread);
		if (t->legacy)
			printf("    %ld __xstat/__lxstat: glibc's stat/lstat syscalls answer, sysshim "
			       "has no such fallback (finding 5)\n", t->legacy);
		if (t->unstable)
			printf("    %ld unstable oracle (glibc disagreed with itself)\n", t->unstable);
	}
	printf("%ld passed, %ld failed, %ld skipped\n", t->pass, t->fail, skipped);
}

/* ---------------------------------------------------------------- the matrix */

/* One configuration in a process of its own: every case, or case ONE alone (>= 0).
 * Returns 1 where the process died before it reported, with *C its counts otherwise. */
static int config_child(int st, int sc, int al, long one, int quiet, struct counts *c)
{
	int p[2];
	if (pipe(p))
		die("pipe");
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(p[0]);
		cfg.strategy = st ? strategies[st] : NULL;
		if (!cfg.strategy)
			unsetenv("SYSSHIM_STRATEGY");
		cfg.sc = sc;
		cfg.align = al;
		cfg.quiet = quiet;
		cfg.one_case = one;
		int r = run_config();
		struct counts mine = my_counts();
		if (write(p[1], &mine, sizeof mine) != sizeof mine)
			_exit(3);
		fflush(stdout);
		_exit(r);
	}
	close(p[1]);
	memset(c, 0, sizeof *c);
	ssize_t got = read(p[0], c, sizeof *c);
	close(p[0]);
	int status;
	waitpid(pid, &status, 0);
	if (got == sizeof *c)
		return 0;
	printf("config strategy=%s seccomp=%s%s%s: child died (status %#x)\n", strategies[st],
	       sc_names[sc], al ? " align" : "", one >= 0 ? ", first call" : "", status);
	return 1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: difffuzz [--lib PATH] [--seed S] [--cases N] [--case I] [-v]\n"
		"                [--strategy NAME] [--seccomp MODE] [--align] [--strict]\n"
		"                [--only FUNC] [--maxfail N] [--stats]\n"
		"       difffuzz --matrix [--lib PATH] [--seed S] [--cases N-per-config]\n"
		"                [--first N-first-calls-per-config]\n"
		"  strategies: auto fstat newfstatat-null newfstatat-empty statx-null statx-empty\n"
		"  seccomp modes: none statx-enosys statx-eperm statx-enosys-late\n"
		"                 statx-eperm-late fstat-enosys fstat-eperm\n"
		"                 newfstatat+statx-enosys newfstatat+statx-eperm\n"
		"                 statx-enosys-unread statx-eperm-unread\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int matrix = 0;
	long first = 0;
	self_path = argv[0];
	const char *e = getenv("SYSSHIM_STRATEGY");
	if (e && *e)
		cfg.strategy = e;
	if ((e = getenv("SYSSHIM_ALIGN_PATHS")) && !strcmp(e, "1"))
		cfg.align = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(n) (!strcmp(a, n) && v && (i++, 1))
		if (OPT("--lib"))
			cfg.lib = v;
		else if (OPT("--seed"))
			cfg.seed = strtoull(v, 0, 0);
		else if (OPT("--cases"))
			cfg.cases = strtol(v, 0, 0);
		else if (OPT("--first"))
			first = strtol(v, 0, 0);
		else if (OPT("--case"))
			cfg.one_case = strtol(v, 0, 0);
		else if (OPT("--strategy"))
			cfg.strategy = v;
		else if (OPT("--maxfail"))
			cfg.maxfail = atoi(v);
		else if (OPT("--only"))
			cfg.only = v;
		else if (OPT("--seccomp")) {
			int k;
			for (k = 0; k < NSC && strcmp(v, sc_names[k]); k++)
				;
			if (k == NSC)
				usage();
			cfg.sc = k;
		} else if (!strcmp(a, "--stats"))
			cfg.stats = 1;
		else if (!strcmp(a, "--strict"))
			cfg.strict = 1;
		else if (!strcmp(a, "--align"))
			cfg.align = 1;
		else if (!strcmp(a, "--matrix"))
			matrix = 1;
		else if (!strcmp(a, "-v"))
			cfg.verbose = 1;
		else
			usage();
	}
	if (cfg.seed == 0) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		cfg.seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid();
	}
	if (cfg.strategy && !strcmp(cfg.strategy, "auto"))
		cfg.strategy = NULL;
	if (access(cfg.lib, R_OK)) {
		fprintf(stderr, "difffuzz: %s: %s\n", cfg.lib, strerror(errno));
		return 2;
	}
	/* dlopen wants a path with a slash for a file, not a bare name */
	if (!strchr(cfg.lib, '/')) {
		static char b[PATH_MAX];
		snprintf(b, sizeof b, "./%s", cfg.lib);
		cfg.lib = b;
	}
	if (cfg.lib[0] != '/') {
		static char b[PATH_MAX];
		if (realpath(cfg.lib, b))
			cfg.lib = b;
	}

	printf("difffuzz: seed %" PRIu64 " (replay with --seed %" PRIu64 "), %s\n", cfg.seed,
	       cfg.seed, cfg.lib);
	fflush(stdout);

	if (!matrix) {
		int r = run_config();
		if (cfg.stats)
			print_stats();
		struct counts t = my_counts();
		print_summary(&t);
		return r;
	}

	/* Every strategy x every seccomp mode, plus every strategy with path alignment on
	 * (without a filter and with statx denied); one fresh process each, same cases.
	 * Then, per configuration, --first more processes, each with one case of its own
	 * (after those, and other ones in each configuration) as the first call the library
	 * sees: the call that probes, or that finds the filter, answers as later ones do. */
	struct counts t = { 0 };
	int configs = 0, crashed = 0;
	for (int al = 0; al < 2; al++)
		for (int st = 0; st < NSTRAT; st++)
			for (int sc = 0; sc < NSC; sc++) {
				if (al && sc != SC_NONE && sc != SC_STATX_EPERM)
					continue;
				if (sc >= SC_STATX_ENOSYS_UNREAD && st)
					continue;	/* no strategy under a filter it cannot read */
				for (long k = -1; k < first; k++) {
					struct counts c;
					long one = k < 0 ? cfg.one_case : cfg.cases + configs * first + k;
					int died = config_child(st, sc, al, one, configs > 0 || k >= 0, &c);
					crashed += died;
					if (died) {
						t.fail++;
						continue;
					}
					if ((k < 0 && cfg.verbose) || c.fail)
						printf("config strategy=%s seccomp=%s%s%s: %ld passed, "
						       "%ld failed, %ld skipped\n",
						       strategies[st], sc_names[sc], al ? " align" : "",
						       k < 0 ? "" : ", first call", c.pass, c.fail,
						       c.known + c.unstable + c.align + c.pathread + c.legacy);
					t.pass += c.pass, t.fail += c.fail, t.known += c.known;
					t.unstable += c.unstable, t.align += c.align;
					t.errno_note += c.errno_note;
					t.pathread += c.pathread, t.legacy += c.legacy;
				}
				configs++;
			}
	printf("difffuzz: %d configurations (%d strategies x %d seccomp modes, + path alignment, "
	       "+ %d modes under a filter the library cannot read), "
	       "%ld cases each, + %ld first calls each, seed %" PRIu64 "\n",
	       configs, NSTRAT, SC_STATX_ENOSYS_UNREAD, NSC - SC_STATX_ENOSYS_UNREAD, cfg.cases,
	       first, cfg.seed);
	print_summary(&t);
	return t.fail || crashed ? 1 : 0;
}
