/* la64_test: sysshim on loongarch64, freestanding (no libc: Debian 12 has none for it).
 *
 * Built with clang-19 --target=loongarch64-linux-gnu -mno-lsx -ffreestanding -nostdlib
 * against libsysshim.a and linked with ld.lld-19; run under qemu-loongarch64 (make
 * check-cross). It checks the syscall stubs, the probe and the stat family against raw
 * syscalls (the library's own stubs, with arch/loongarch64's registers) for several
 * kinds of file, for the strategy forced with SYSSHIM_STRATEGY (the runner starts it
 * once per strategy), and ends with "N passed, N failed" (exit status 1 when anything
 * failed).
 *
 * Options: --probe prints only the probe line; --expect=STRATEGY also requires that the
 * probe chose STRATEGY; --expect-caps=a,b (e.g. statx_null) requires those caps (the
 * environment's LA64_EXPECT and LA64_EXPECT_CAPS when the options are not given). */
#include "kabi.h"
#include "probe.h"
#include "fd_order.h"
#include "sysshim.h"
#include "../common/statx_oracle.h"

/* The C runtime: _start (arch/loongarch64/crt_arch.h), environ, errno, and what the
 * compiler may call: memset and memcpy as sysshim-run has them (rt_nolibc.h), memmove
 * and memcmp of its own. Strings, the environment and the output come from the
 * runtime that the library and sysshim-run share (src/internal/rt.h, in
 * libsysshim.a). */
#include "crt_arch.h"
#include "rt.h"
#include "rt_nolibc.h"

char **environ;
static int errno_value;

int *__errno_location(void)
{
	return &errno_value;
}

void *memmove(void *d, const void *s, unsigned long n)
{
	volatile unsigned char *p = d;
	const volatile unsigned char *q = s;
	if (p < q)
		while (n--)
			*p++ = *q++;
	else
		while (n--)
			p[n] = q[n];
	return d;
}

int memcmp(const void *a, const void *b, unsigned long n)
{
	const unsigned char *p = a, *q = b;
	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

/* Output: built a line at a time, written at each newline. */
static struct ss_out out;

static void outs(const char *s)
{
	__ss_put(&out, s);
	if (out.n && out.b[out.n - 1] == '\n')
		__ss_flush(&out, 1);
}

static void outd(long v)
{
	__ss_put_num(&out, v);
}

/* Results. */
static int passed, failed, verbose;

static void result(int ok, const char *what, const char *obj, const char *detail, long a, long b)
{
	if (ok) {
		passed++;
		if (!verbose)
			return;
		outs("  ok   ");
	} else {
		failed++;
		outs("  FAIL ");
	}
	outs(what);
	if (obj) {
		outs(" [");
		outs(obj);
		outs("]");
	}
	if (!ok && detail) {
		outs(": ");
		outs(detail);
		outs(" got ");
		outd(a);
		outs(" want ");
		outd(b);
	}
	outs("\n");
}

/* Raw syscalls (the library's own arch stubs, no sysshim logic). */
/* (kabi.h has the rest) */
#define O_RDWR		2
#define O_TRUNC		01000
#define O_PATH		010000000
#define S_IFIFO		0010000
#define ELOOP_		ELOOP
#define PROBE_FD	0x7fffffff

static long r_openat(int dfd, const char *p, int fl, int mode)
{
	return __syscall(SYS_openat, dfd, p, fl, mode);
}

static long r_fstat(int fd, struct stat *st)
{
	return __syscall(SYS_fstat, fd, st);
}

static long r_newfstatat(int fd, const char *p, struct stat *st, int fl)
{
	return __syscall(SYS_newfstatat, fd, p, st, fl);
}

static long r_statx(int fd, const char *p, int fl, unsigned mask, struct statx *x)
{
	return __syscall(SYS_statx, fd, p, fl, mask, x);
}

/* What the running kernel (emulator) answers, found here independently of the probe. */
static unsigned raw_caps(void)
{
	struct stat st;
	struct statx x;
	unsigned c = 0;
	if (r_fstat(PROBE_FD, &st) == -EBADF)
		c |= SYSSHIM_CAP_FSTAT;
	if (r_newfstatat(PROBE_FD, "", &st, AT_EMPTY_PATH) == -EBADF)
		c |= SYSSHIM_CAP_NEWFSTATAT;
	if (r_newfstatat(PROBE_FD, 0, &st, AT_EMPTY_PATH) == -EBADF)
		c |= SYSSHIM_CAP_NEWFSTATAT_NULL;
	if (r_statx(PROBE_FD, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &x) == -EBADF)
		c |= SYSSHIM_CAP_STATX;
	if (r_statx(PROBE_FD, 0, AT_EMPTY_PATH, STATX_BASIC_STATS, &x) == -EBADF)
		c |= SYSSHIM_CAP_STATX_NULL;
	return c;
}

static unsigned caps;

/* The reference answer for fstatat(fd, path, flag): newfstatat when the kernel has it,
 * else statx (qemu 7.2's loongarch64 has no newfstatat). */
static long ref_fstatat(int fd, const char *p, struct stat *st, int fl)
{
	if (caps & SYSSHIM_CAP_NEWFSTATAT)
		return r_newfstatat(fd, p, st, fl);
	struct statx x;
	long r = r_statx(fd, p, fl, STATX_BASIC_STATS, &x);
	if (!r && ss_bad_ptr(st))
		return -EFAULT;	/* where the kernel's copy-out would have failed */
	if (!r)
		oracle_stat_from_statx(st, &x);	/* the tests' own, not the library's */
	return r;
}

static long ref_fstat(int fd, struct stat *st)
{
	if (caps & SYSSHIM_CAP_FSTAT)
		return r_fstat(fd, st);
	if (fd < 0)
		return -EBADF;
	return ref_fstatat(fd, "", st, AT_EMPTY_PATH);
}

/* sysshim's answer as the raw convention: -errno or 0. */
static long ss(int r)
{
	return r == -1 ? -(long)errno_value : r;
}

static const char *field_diff(const struct stat *a, const struct stat *b, long *x, long *y)
{
#define F(f) if (a->f != b->f) { *x = (long)a->f; *y = (long)b->f; return #f; }
	F(st_dev) F(st_ino) F(st_mode) F(st_nlink) F(st_uid) F(st_gid) F(st_rdev) F(st_size)
	F(st_blksize) F(st_blocks) F(st_atime_sec) F(st_atime_nsec) F(st_mtime_sec)
	F(st_mtime_nsec) F(st_ctime_sec) F(st_ctime_nsec)
#undef F
	return 0;
}

static void same_stat(const char *what, const char *obj, long rs, const struct stat *s,
		      long rr, const struct stat *r)
{
	if (rs != rr) {
		result(0, what, obj, "return", rs, rr);
		return;
	}
	if (rs) {
		result(1, what, obj, 0, 0, 0);
		return;
	}
	long x = 0, y = 0;
	const char *f = field_diff(s, r, &x, &y);
	result(!f, what, obj, f, x, y);
}

static void same_statx(const char *what, const char *obj, long rs, const struct statx *s,
		       long rr, const struct statx *r)
{
	if (rs != rr) {
		result(0, what, obj, "return", rs, rr);
		return;
	}
	if (rs) {
		result(1, what, obj, 0, 0, 0);
		return;
	}
	long x = 0, y = 0;
	const char *f = 0;
#define F(e) if (!f && (long)(s->e) != (long)(r->e)) { f = #e; x = (long)s->e; y = (long)r->e; }
	F(stx_mask) F(stx_blksize) F(stx_attributes) F(stx_nlink) F(stx_uid) F(stx_gid)
	F(stx_mode) F(stx_ino) F(stx_size) F(stx_blocks) F(stx_mtime.tv_sec)
	F(stx_mtime.tv_nsec) F(stx_ctime.tv_sec) F(stx_ctime.tv_nsec) F(stx_rdev_major)
	F(stx_rdev_minor) F(stx_dev_major) F(stx_dev_minor)
#undef F
	result(!f, what, obj, f, x, y);
}

static const char *const snames[] = {
	"auto", "fstat", "newfstatat-null", "newfstatat-empty", "statx-null", "statx-empty", "none",
};

static const struct {
	unsigned bit;
	const char *name;
} capnames[] = {
	{ SYSSHIM_CAP_FSTAT, "fstat" },
	{ SYSSHIM_CAP_NEWFSTATAT, "newfstatat" },
	{ SYSSHIM_CAP_NEWFSTATAT_NULL, "newfstatat_null" },
	{ SYSSHIM_CAP_STATX, "statx" },
	{ SYSSHIM_CAP_STATX_NULL, "statx_null" },
};

static void out_caps(unsigned c)
{
	int first = 1;
	for (unsigned i = 0; i < sizeof capnames / sizeof *capnames; i++)
		if (c & capnames[i].bit) {
			if (!first)
				outs(",");
			outs(capnames[i].name);
			first = 0;
		}
	if (first)
		outs("none");
}

static void probe_line(const struct sysshim_info *in)
{
	struct {
		char sysname[65], nodename[65], release[65], version[65], machine[65], domain[65];
	} u;
	memset(&u, 0, sizeof u);
	__syscall(SYS_uname, &u);
	outs("probe: kernel=");
	outs(u.release);
	outs(" arch=");
	outs(u.machine);
	outs(" caps=");
	out_caps(in->caps);
	outs(" fstat=");
	outs(sysshim_strategy_name(in->fstat_strategy));
	outs(" path=");
	outs(in->path_via_statx ? "statx" : "newfstatat");
	outs(" statx=");
	outs(in->caps & SYSSHIM_CAP_STATX ? "statx" : "emulated");
	outs(" forced=");
	outs(sysshim_strategy_name(in->forced));
	outs("\n");
}

static int forced_env(void)
{
	const char *v = __ss_env_get(environ, "SYSSHIM_STRATEGY");
	if (!v)
		return SYSSHIM_S_AUTO;
	for (int s = 0; s < SYSSHIM_S_NONE; s++)
		if (__ss_streq(v, snames[s]))
			return s;
	return SYSSHIM_S_AUTO;
}

static unsigned cap_of(int s)
{
	switch (s) {
	case SYSSHIM_S_FSTAT: return SYSSHIM_CAP_FSTAT;
	case SYSSHIM_S_NEWFSTATAT_NULL: return SYSSHIM_CAP_NEWFSTATAT_NULL;
	case SYSSHIM_S_NEWFSTATAT_EMPTY: return SYSSHIM_CAP_NEWFSTATAT;
	case SYSSHIM_S_STATX_NULL: return SYSSHIM_CAP_STATX_NULL;
	case SYSSHIM_S_STATX_EMPTY: return SYSSHIM_CAP_STATX;
	}
	return 0;
}

static void test_probe(const struct sysshim_info *in, int forced, const char *expect,
		       const char *expect_caps)
{
	static const unsigned char order[] = { ARCH_FD_ORDER };
	int want = SYSSHIM_S_NONE;

	result(in->caps == caps, "probe: caps equal what raw syscalls answer", 0, "caps",
	       in->caps, caps);
	if (forced != SYSSHIM_S_AUTO && (caps & cap_of(forced)))
		want = forced;
	else
		for (unsigned i = 0; i < sizeof order; i++)
			if (caps & cap_of(order[i])) {
				want = order[i];
				break;
			}
	result(in->fstat_strategy == want, "probe: fstat strategy", snames[want], "strategy",
	       in->fstat_strategy, want);
	result(in->forced == forced, "probe: forced strategy recorded", snames[forced], "forced",
	       in->forced, forced);
	if (!(caps & SYSSHIM_CAP_NEWFSTATAT))
		result(in->path_via_statx, "probe: paths via statx without newfstatat", 0,
		       "path_via_statx", in->path_via_statx, 1);
	else if (forced < SYSSHIM_S_STATX_NULL)
		result(!in->path_via_statx, "probe: paths via newfstatat when present", 0,
		       "path_via_statx", in->path_via_statx, 0);
	if (expect) {
		int e = -1;
		for (int s = 0; s <= SYSSHIM_S_NONE; s++)
			if (__ss_streq(expect, snames[s]))
				e = s;
		result(in->fstat_strategy == e, "probe: the emulator's expected strategy", expect,
		       "strategy", in->fstat_strategy, e);
	}
	while (expect_caps && *expect_caps) {
		char name[32];
		unsigned n = 0;
		while (*expect_caps && *expect_caps != ',' && n < sizeof name - 1)
			name[n++] = *expect_caps++;
		name[n] = 0;
		if (*expect_caps == ',')
			expect_caps++;
		int neg = name[0] == '!';
		unsigned bit = 0;
		for (unsigned i = 0; i < sizeof capnames / sizeof *capnames; i++)
			if (__ss_streq(name + neg, capnames[i].name))
				bit = capnames[i].bit;
		int has = !!(in->caps & bit);
		result(bit && has != neg, "probe: the emulator's expected cap", name, "has", has, !neg);
	}
}

/* The scratch directory and the objects in it. */
static char dir[128];
static char pbuf[256];

static const char *P(const char *name)
{
	char *e = __ss_stpcpy(pbuf, dir);
	e = __ss_stpcpy(e, "/");
	__ss_stpcpy(e, name);
	return pbuf;
}

static void make_dir(void)
{
	SS_OUT(d);
	__ss_put(&d, "/tmp/sysshim-la64.");
	__ss_put_fix(&d, (uint64_t)__syscall(SYS_getpid), 0);
	__ss_stpcpy(dir, __ss_cstr(&d));
	long r = __syscall(SYS_mkdirat, AT_FDCWD, dir, 0755);
	result(r == 0, "setup: mkdir", dir, "return", r, 0);
	long fd = r_openat(AT_FDCWD, P("file"), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
	result(fd >= 0, "setup: create file", 0, "return", fd, 0);
	if (fd >= 0) {
		__syscall(SYS_write, fd, "sysshim on loongarch64\n", 23);
		__syscall(SYS_close, fd);
	}
	__syscall(SYS_mkdirat, AT_FDCWD, P("dir"), 0755);
	__syscall(SYS_symlinkat, "file", AT_FDCWD, P("link"));
	__syscall(SYS_symlinkat, "nowhere", AT_FDCWD, P("dangling"));
	__syscall(SYS_symlinkat, "loop2", AT_FDCWD, P("loop1"));
	__syscall(SYS_symlinkat, "loop1", AT_FDCWD, P("loop2"));
	r = __syscall(SYS_mknodat, AT_FDCWD, P("fifo"), S_IFIFO | 0644, 0);
	result(r == 0, "setup: mkfifo", 0, "return", r, 0);
}

static void cleanup(void)
{
	static const char *const f[] = { "file", "link", "dangling", "loop1", "loop2", "fifo" };
	for (unsigned i = 0; i < sizeof f / sizeof *f; i++)
		__syscall(SYS_unlinkat, AT_FDCWD, P(f[i]), 0);
	__syscall(SYS_unlinkat, AT_FDCWD, P("dir"), 0x200);
	__syscall(SYS_unlinkat, AT_FDCWD, dir, 0x200);
}

/* Open fds of several kinds: sysshim_fstat and fstatat(fd, "", AT_EMPTY_PATH) against
 * the raw answer. */
static void test_fds(void)
{
	struct {
		const char *name;
		long fd;
	} o[12];
	int n = 0, pp[2] = { -1, -1 };

	o[n].name = "regular file";
	o[n++].fd = r_openat(AT_FDCWD, P("file"), O_RDONLY | O_CLOEXEC, 0);
	o[n].name = "directory";
	o[n++].fd = r_openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	o[n].name = "O_PATH symlink";
	o[n++].fd = r_openat(AT_FDCWD, P("link"), O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	o[n].name = "fifo (O_RDWR)";
	o[n++].fd = r_openat(AT_FDCWD, P("fifo"), O_RDWR | O_CLOEXEC, 0);
	o[n].name = "/dev/null";
	o[n++].fd = r_openat(AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC, 0);
	o[n].name = "/proc file";
	o[n++].fd = r_openat(AT_FDCWD, "/proc/self/status", O_RDONLY | O_CLOEXEC, 0);
	o[n].name = "/ (root)";
	o[n++].fd = r_openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (__syscall(SYS_pipe2, pp, O_CLOEXEC) == 0) {
		o[n].name = "pipe";
		o[n++].fd = pp[0];
	}
	o[n].name = "memfd";
	o[n++].fd = __syscall(SYS_memfd_create, "sysshim", 1);
	o[n].name = "stdout";
	o[n++].fd = 1;

	for (int i = 0; i < n; i++) {
		struct stat a, b;
		if (o[i].fd < 0) {
			result(0, "setup: open", o[i].name, "return", o[i].fd, 0);
			continue;
		}
		memset(&a, 0x5a, sizeof a);
		memset(&b, 0, sizeof b);
		long rs = ss(sysshim_fstat(o[i].fd, &a));
		long rr = ref_fstat(o[i].fd, &b);
		same_stat("sysshim_fstat", o[i].name, rs, &a, rr, &b);
		memset(&a, 0x5a, sizeof a);
		rs = ss(sysshim_fstatat(o[i].fd, "", &a, AT_EMPTY_PATH));
		same_stat("sysshim_fstatat(fd, \"\", AT_EMPTY_PATH)", o[i].name, rs, &a, rr, &b);

		struct statx x, y;
		memset(&x, 0x5a, sizeof x);
		rs = ss(sysshim_statx(o[i].fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &x));
		rr = r_statx(o[i].fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &y);
		same_statx("sysshim_statx(fd, \"\", AT_EMPTY_PATH)", o[i].name, rs, &x, rr, &y);
	}
	for (int i = 0; i < n; i++)
		if (o[i].fd > 2)
			__syscall(SYS_close, o[i].fd);
	if (pp[1] >= 0)
		__syscall(SYS_close, pp[1]);
}

/* Paths of several kinds: stat, lstat, fstatat (absolute and relative to a dir fd) and
 * statx, against the raw answer. */
static void test_paths(void)
{
	static const char *const rel[] = { "file", "dir", "link", "dangling", "fifo", "loop1",
					   "missing", "file/x", "" };
	static const char *const abs[] = { "/dev/null", "/proc/self/status", "/", "/proc/self/exe",
					   "/tmp" };
	char path[256];
	long dfd = r_openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	result(dfd >= 0, "setup: open dir", 0, "return", dfd, 0);

	for (unsigned i = 0; i < sizeof rel / sizeof *rel + sizeof abs / sizeof *abs; i++) {
		const char *name;
		if (i < sizeof rel / sizeof *rel) {
			name = rel[i];
			__ss_stpcpy(path, P(name));
		} else {
			name = abs[i - sizeof rel / sizeof *rel];
			__ss_stpcpy(path, name);
		}
		const char *tag = *name ? name : "\"\" (the dir, by path/)";
		struct stat a, b;
		long rs, rr;

		memset(&a, 0x5a, sizeof a);
		rs = ss(sysshim_stat(path, &a));
		rr = ref_fstatat(AT_FDCWD, path, &b, 0);
		same_stat("sysshim_stat", tag, rs, &a, rr, &b);

		memset(&a, 0x5a, sizeof a);
		rs = ss(sysshim_lstat(path, &a));
		rr = ref_fstatat(AT_FDCWD, path, &b, AT_SYMLINK_NOFOLLOW);
		same_stat("sysshim_lstat", tag, rs, &a, rr, &b);

		memset(&a, 0x5a, sizeof a);
		rs = ss(sysshim_fstatat(AT_FDCWD, path, &a, AT_SYMLINK_NOFOLLOW));
		same_stat("sysshim_fstatat(AT_FDCWD, path, NOFOLLOW)", tag, rs, &a, rr, &b);

		if (i < sizeof rel / sizeof *rel && *name) {
			memset(&a, 0x5a, sizeof a);
			rs = ss(sysshim_fstatat(dfd, name, &a, 0));
			rr = ref_fstatat(dfd, name, &b, 0);
			same_stat("sysshim_fstatat(dirfd, name, 0)", tag, rs, &a, rr, &b);
		}

		struct statx x, y;
		for (int fl = 0; fl <= AT_SYMLINK_NOFOLLOW; fl += AT_SYMLINK_NOFOLLOW) {
			memset(&x, 0x5a, sizeof x);
			rs = ss(sysshim_statx(AT_FDCWD, path, fl, STATX_BASIC_STATS, &x));
			rr = r_statx(AT_FDCWD, path, fl, STATX_BASIC_STATS, &y);
			same_statx(fl ? "sysshim_statx(NOFOLLOW)" : "sysshim_statx(0)", tag, rs, &x,
				   rr, &y);
		}
	}
	if (dfd >= 0)
		__syscall(SYS_close, dfd);
}

/* The error table: same return value and errno as the kernel gives. */
static void test_errors(void)
{
	struct stat a, b;
	struct statx x, y;
	long fd = r_openat(AT_FDCWD, P("file"), O_RDONLY | O_CLOEXEC, 0);
	char file[256];
	__ss_stpcpy(file, P("file"));

#define ERR(what, call, ref) do { \
		errno_value = 0; \
		int rv_ = (call); \
		long rs_ = ss(rv_), rr_ = (ref); \
		result(rs_ == rr_ && (rs_ == 0 || rv_ == -1), what, 0, "return/-errno", rs_, rr_); \
	} while (0)

	ERR("fstat(-1) EBADF", sysshim_fstat(-1, &a), ref_fstat(-1, &b));
	ERR("fstat(closed fd) EBADF", sysshim_fstat(PROBE_FD - 1, &a), ref_fstat(PROBE_FD - 1, &b));
	ERR("fstat(fd, NULL) EFAULT", sysshim_fstat(fd, 0), ref_fstat(fd, 0));
	ERR("stat(\"\") ENOENT", sysshim_stat("", &a), ref_fstatat(AT_FDCWD, "", &b, 0));
	ERR("stat(NULL) EFAULT", sysshim_stat(0, &a), ref_fstatat(AT_FDCWD, 0, &b, 0));
	ERR("stat((char *)-1) EFAULT", sysshim_stat((const char *)-1L, &a),
	    ref_fstatat(AT_FDCWD, (const char *)-1L, &b, 0));
	ERR("stat(missing) ENOENT", sysshim_stat("/nonexistent/x", &a),
	    ref_fstatat(AT_FDCWD, "/nonexistent/x", &b, 0));
	ERR("stat(file/x) ENOTDIR", sysshim_stat(P("file/x"), &a),
	    ref_fstatat(AT_FDCWD, P("file/x"), &b, 0));
	ERR("stat(loop) ELOOP", sysshim_stat(P("loop1"), &a),
	    ref_fstatat(AT_FDCWD, P("loop1"), &b, 0));
	ERR("stat(path, NULL) EFAULT", sysshim_stat(file, 0), ref_fstatat(AT_FDCWD, file, 0, 0));
	ERR("lstat(NULL) EFAULT", sysshim_lstat(0, &a),
	    ref_fstatat(AT_FDCWD, 0, &b, AT_SYMLINK_NOFOLLOW));
	ERR("fstatat(bad flag) EINVAL", sysshim_fstatat(AT_FDCWD, file, &a, 0x1),
	    ref_fstatat(AT_FDCWD, file, &b, 0x1));
	ERR("fstatat(-1, rel) EBADF", sysshim_fstatat(-1, "file", &a, 0),
	    ref_fstatat(-1, "file", &b, 0));
	ERR("fstatat(file fd, rel) ENOTDIR", sysshim_fstatat(fd, "x", &a, 0),
	    ref_fstatat(fd, "x", &b, 0));
	ERR("fstatat(-1, \"\", AT_EMPTY_PATH) EBADF", sysshim_fstatat(-1, "", &a, AT_EMPTY_PATH),
	    ref_fstatat(-1, "", &b, AT_EMPTY_PATH));
	ERR("fstatat(fd, \"\", 0) ENOENT", sysshim_fstatat(fd, "", &a, 0),
	    ref_fstatat(fd, "", &b, 0));
	ERR("statx(reserved mask) EINVAL", sysshim_statx(AT_FDCWD, file, 0, STATX__RESERVED, &x),
	    r_statx(AT_FDCWD, file, 0, STATX__RESERVED, &y));
	ERR("statx(sync type 0x6000) EINVAL",
	    sysshim_statx(AT_FDCWD, file, AT_STATX_SYNC_TYPE, STATX_BASIC_STATS, &x),
	    r_statx(AT_FDCWD, file, AT_STATX_SYNC_TYPE, STATX_BASIC_STATS, &y));
	ERR("statx(NULL, 0) EFAULT", sysshim_statx(AT_FDCWD, 0, 0, STATX_BASIC_STATS, &x),
	    r_statx(AT_FDCWD, 0, 0, STATX_BASIC_STATS, &y));
	ERR("statx(missing) ENOENT", sysshim_statx(AT_FDCWD, "/nonexistent", 0, STATX_BASIC_STATS, &x),
	    r_statx(AT_FDCWD, "/nonexistent", 0, STATX_BASIC_STATS, &y));
	ERR("statx(-1, \"\", AT_EMPTY_PATH) EBADF",
	    sysshim_statx(-1, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &x),
	    r_statx(-1, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &y));

	/* errno is left alone on success. */
	errno_value = 1234;
	int r = sysshim_fstat(fd, &a);
	result(r == 0 && errno_value == 1234, "success leaves errno alone", 0, "errno", errno_value,
	       1234);
	if (fd >= 0)
		__syscall(SYS_close, fd);
#undef ERR
}

/* The stubs themselves: argument passing for 0-6 arguments. */
static void test_stubs(void)
{
	long pid = __syscall(SYS_getpid);
	result(pid > 0, "stub: __syscall0 getpid", 0, "return", pid, 1);
	long r = __syscall(SYS_close, -1);
	result(r == -EBADF, "stub: __syscall1 close(-1) -EBADF", 0, "return", r, -EBADF);
	char buf[8];
	r = __syscall(SYS_getcwd, buf, 1);
	result(r == -34, "stub: __syscall2 getcwd(buf, 1) -ERANGE", 0, "return", r, -34);
	r = __syscall(SYS_write, 1, "", 0);
	result(r == 0, "stub: __syscall3 write(1, \"\", 0)", 0, "return", r, 0);
	struct statx x;
	r = __syscall(SYS_statx, AT_FDCWD, "/", 0, STATX_BASIC_STATS, &x);
	result(r == 0 && (x.stx_mode & S_IFMT) == 0040000, "stub: __syscall5 statx(\"/\")", 0,
	       "return", r, 0);
	/* mmap: 6 arguments, the last (offset) must arrive. */
	long m = __syscall(SYS_mmap, 0, 4096, 3, 0x22, -1, 0);
	result(m > 0 && (unsigned long)m < -4096UL, "stub: __syscall6 mmap", 0, "return", m, 1);
	if (m > 0 && (unsigned long)m < -4096UL) {
		*(volatile char *)m = 1;
		__syscall(SYS_munmap, m, 4096);
	}
}

int main(int argc, char **argv)
{
	const char *expect = 0, *expect_caps = 0;
	int probe_only = 0;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if (__ss_streq(argv[i], "--probe"))
			probe_only = 1;
		else if (__ss_streq(argv[i], "-v"))
			verbose = 1;
		else if ((v = __ss_after(argv[i], "--expect=")))
			expect = v;
		else if ((v = __ss_after(argv[i], "--expect-caps=")))
			expect_caps = v;
		else {
			outs("usage: la64_test [--probe] [-v] [--expect=STRATEGY] [--expect-caps=a,!b]\n");
			return 2;
		}
	}
	/* In a test bed's initramfs /init passes no arguments: the kernel command line's
	 * LA64_EXPECT and LA64_EXPECT_CAPS stand for them. */
	if (!expect)
		expect = __ss_env_get(environ, "LA64_EXPECT");
	if (!expect_caps)
		expect_caps = __ss_env_get(environ, "LA64_EXPECT_CAPS");
	caps = raw_caps();
	struct sysshim_info in;
	sysshim_info(&in);
	probe_line(&in);
	if (probe_only)
		return 0;

	int forced = forced_env();
	test_stubs();
	test_probe(&in, forced, expect, expect_caps);
	make_dir();
	test_fds();
	test_paths();
	test_errors();
	cleanup();

	outs("la64 SYSSHIM_STRATEGY=");
	outs(snames[forced]);
	outs(" (fstat via ");
	outs(sysshim_strategy_name(in.fstat_strategy));
	outs("): ");
	outd(passed);
	outs(" passed, ");
	outd(failed);
	outs(" failed\n");
	return failed ? 1 : 0;
}

__attribute__((noreturn, used)) void __ss_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	environ = argv + argc + 1;
	int r = main(argc, argv);
	__ss_flush(&out, 1);
	for (;;)
		__syscall(SYS_exit_group, r);
}
