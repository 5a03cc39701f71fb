/* libFuzzer target: sysshim's flag, mask and strategy logic (src/stat, src/internal/probe.c,
 * src/path) against a model kernel, with no real syscall.  mk/fuzz.mk builds src/ with
 * tests/fuzz/mock/syscall_stubs.h, which sends every syscall to __ss_mock_syscall() here.
 *
 * The input picks a kernel (6.1, 6.6, 6.11, 6.18 path semantics; qemu-user 7.2's EFAULT
 * for a NULL statx path), which syscalls a seccomp filter denies (ENOSYS or EPERM, from
 * the start or only after the probe), SYSSHIM_STRATEGY, SYSSHIM_ALIGN_PATHS, and a few
 * calls.  Property: every call answers what glibc 2.36 would on the same kernel with
 * nothing denied (fstat = newfstatat(fd, "", AT_EMPTY_PATH) after an fd < 0 check,
 * stat/lstat/fstatat = newfstatat, statx = statx), byte for byte in the output, except
 *  - statx with statx denied: the emulation contract (EINVAL for both sync bits or
 *    reserved mask bits, else newfstatat's answer converted, stx_mask = BASIC_STATS:
 *    the tests' own conversion, tests/common/statx_oracle.h, not the library's);
 *  - no syscall left that can answer: ENOSYS or EPERM is accepted.
 *  - the divergences found here and reported in docs/fuzz.md (finding 3).
 * The model follows Linux 6.18 as measured on the host (docs/fuzz.md): an empty or NULL
 * path with AT_EMPTY_PATH stats the fd before any flag check; otherwise invalid flags give
 * EINVAL before the path is read.  Older kernels differ only in their NULL-path rules. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat/fstat.h"
#include "stat/fstatat.h"
#include "stat/statx.h"
#include "sysshim.h"
#include "../common/statx_oracle.h"

int *__errno_location(void);
long write(int fd, const void *buf, unsigned long n);	/* glibc's, not a model syscall */
/* glibc's too (its <sys/mman.h> would define again what the library's kabi.h has) */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
int mprotect(void *addr, size_t len, int prot);
#define MAP_FAILED ((void *)-1)
/* The probe's references to prctl.c and syscall.c, which this harness leaves out (the
 * C library's prctl() and syscall() stay the fuzzer's own). */
const char __ss_door_prctl, __ss_door_syscall;

/* ---------------------------------------------------------------- input */

static const uint8_t *in_p;
static size_t in_n;
static unsigned u8(void)
{
	if (!in_n)
		return 0;
	in_n--;
	return *in_p++;
}
static uint32_t u32(void)
{
	return u8() | u8() << 8 | u8() << 16 | (uint32_t)u8() << 24;
}
static uint64_t u64(void)
{
	return u32() | (uint64_t)u32() << 32;
}

/* ---------------------------------------------------------------- the model kernel */

enum { K61, K66, K611, K618 };
enum { D_FSTAT, D_NEWFSTATAT, D_STATX, ND };

static struct {
	int kver, qemu72;
	int deny[ND];		/* 0, ENOSYS or EPERM */
	int late;		/* denials start after the probe */
	int active;		/* denials in force */
} K;

struct inode {
	uint64_t ino;
	uint32_t mode, nlink, uid, gid, dmaj, dmin, rmaj, rmin, blksize;
	int64_t size, blocks, sec[4];
	uint32_t nsec[4];	/* atime mtime ctime btime */
};
static struct inode I_reg, I_dir, I_lnk;
enum { FD_REG = 3, FD_DIR = 4, FD_LNK = 5 };

static unsigned char *bad_page;	/* PROT_NONE: the model answers EFAULT for it */

static int bad_user(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	return a < 4096 || a >> 47 ||
	       (a >= (uintptr_t)bad_page && a < (uintptr_t)bad_page + 4096);
}

static long fd_inode(long fd, struct inode **ip)
{
	switch ((int)fd) {
	case FD_REG: *ip = &I_reg; return 0;
	case FD_DIR: case AT_FDCWD: *ip = &I_dir; return 0;
	case FD_LNK: *ip = &I_lnk; return 0;
	}
	return -EBADF;
}

static long lookup(long dfd, const char *p, int follow, struct inode **ip)
{
	struct inode *base;
	if (*p == '/') {
		base = &I_dir;
		p++;
	} else {
		long r = fd_inode(dfd, &base);
		if (r)
			return r;
		if (base != &I_dir)
			return -ENOTDIR;
	}
	if (!strcmp(p, "a")) *ip = &I_reg;
	else if (!strcmp(p, "d") || !strcmp(p, "d/") || !strcmp(p, "")) *ip = &I_dir;
	else if (!strcmp(p, "l")) *ip = follow ? &I_reg : &I_lnk;
	else if (!strcmp(p, "a/") || !strcmp(p, "l/")) return -ENOTDIR;
	else return -ENOENT;
	return 0;
}

static void fill_statx(struct statx *x, const struct inode *i)
{
	memset(x, 0, sizeof *x);
	x->stx_mask = STATX_BASIC_STATS | 0x800 | 0x1000;	/* + BTIME, MNT_ID */
	x->stx_blksize = i->blksize;
	x->stx_attributes = 0x20;
	x->stx_attributes_mask = 0x3074;
	x->stx_nlink = i->nlink;
	x->stx_uid = i->uid;
	x->stx_gid = i->gid;
	x->stx_mode = i->mode;
	x->stx_ino = i->ino;
	x->stx_size = i->size;
	x->stx_blocks = i->blocks;
	struct statx_timestamp *ts[4] = { &x->stx_atime, &x->stx_mtime, &x->stx_ctime,
					  &x->stx_btime };
	for (int k = 0; k < 4; k++)
		ts[k]->tv_sec = i->sec[k], ts[k]->tv_nsec = i->nsec[k];
	x->stx_rdev_major = i->rmaj;
	x->stx_rdev_minor = i->rmin;
	x->stx_dev_major = i->dmaj;
	x->stx_dev_minor = i->dmin;
	x->__spare2[0] = 77;	/* stx_mnt_id */
}

/* The model's struct stat: its statx answer converted, as the kernel fills both from one
 * struct kstat (fs/stat.c); the inputs' dev numbers fit the kernel's 12 + 20 bits, which
 * the stat encoding holds as it is. */
static void fill_stat(struct stat *st, const struct inode *i)
{
	struct statx x;
	fill_statx(&x, i);
	oracle_stat_from_statx(st, &x);
}

#define VALID_AT (AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE)

/* Does an empty or NULL path with AT_EMPTY_PATH stat dfd at once (before flag checks)? */
static int empty_fast(int statx, long dfd, const char *p, int flag)
{
	if (!(flag & AT_EMPTY_PATH))
		return 0;
	if (!p) {
		if (K.kver < K611 || (statx && K.qemu72))
			return 0;
		/* 6.11 - 6.12 (fs/stat.c): newfstatat's flags exactly AT_EMPTY_PATH, statx's
		 * give or take AT_NO_AUTOMOUNT and the sync bits, and an fd >= 0 */
		int lf = statx ? flag & ~(AT_NO_AUTOMOUNT | AT_STATX_SYNC_TYPE) : flag;
		if (K.kver == K611 && (lf != AT_EMPTY_PATH || dfd < 0))
			return 0;
		return 1;
	}
	if (bad_user(p) || *p)
		return 0;
	return K.kver >= K611;
}

static long k_newfstatat(long dfd, const char *p, struct stat *st, int flag)
{
	struct inode *ip;
	long r;

	if (empty_fast(0, dfd, p, flag)) {
		r = fd_inode(dfd, &ip);
	} else {
		if (flag & ~VALID_AT)
			return -EINVAL;
		if (!p || bad_user(p))
			return -EFAULT;
		if (!*p && !(flag & AT_EMPTY_PATH))
			return -ENOENT;
		r = !*p ? fd_inode(dfd, &ip) : lookup(dfd, p, !(flag & AT_SYMLINK_NOFOLLOW), &ip);
	}
	if (r)
		return r;
	if (bad_user(st))
		return -EFAULT;
	fill_stat(st, ip);
	return 0;
}

static long k_statx(long dfd, const char *p, int flag, unsigned mask, struct statx *x)
{
	struct inode *ip;
	long r;

	if ((flag & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	if (empty_fast(1, dfd, p, flag)) {
		r = fd_inode(dfd, &ip);
	} else {
		if (flag & ~VALID_AT)
			return -EINVAL;
		if (!p || bad_user(p))
			return -EFAULT;
		if (!*p && !(flag & AT_EMPTY_PATH))
			return -ENOENT;
		r = !*p ? fd_inode(dfd, &ip) : lookup(dfd, p, !(flag & AT_SYMLINK_NOFOLLOW), &ip);
	}
	if (r)
		return r;
	if (bad_user(x))
		return -EFAULT;
	fill_statx(x, ip);
	return 0;
}

static long k_fstat(long fd, struct stat *st)
{
	struct inode *ip;
	long r = fd_inode(fd, &ip);
	if (r || fd == AT_FDCWD)
		return r ? r : -EBADF;
	if (bad_user(st))
		return -EFAULT;
	fill_stat(st, ip);
	return 0;
}

/* glibc's syscall(2), -errno style */
long syscall(long n, ...);
static long real_syscall(long n, long a, long b, long c, long d, long e, long f)
{
	long r = syscall(n, a, b, c, d, e, f);
	return r == -1 ? -*__errno_location() : r;
}

/* The library's one look at /proc/self/status (src/internal/sandbox.c): no filter. */
#define STATUS_FD 901
static long mock_status(char *b, size_t n)
{
	static const char text[] = "Name:\tlogic_fuzz\nSeccomp:\t0\nSeccomp_filters:\t0\n";
	static size_t at;
	size_t k = sizeof text - 1 - at < n ? sizeof text - 1 - at : n;
	memcpy(b, text + at, k);
	at = k ? at + k : 0;	/* the next open reads it from the start */
	return (long)k;
}

long __ss_mock_syscall(long n, long a, long b, long c, long d, long e, long f)
{
	int which = n == SYS_fstat ? D_FSTAT : n == SYS_newfstatat ? D_NEWFSTATAT
		  : n == SYS_statx ? D_STATX : -1;
	if (which >= 0 && K.active && K.deny[which])
		return -K.deny[which];
	switch (n) {
	case SYS_fstat: return k_fstat(a, (struct stat *)b);
	case SYS_newfstatat: return k_newfstatat(a, (const char *)b, (struct stat *)c, (int)d);
	case SYS_statx:
		return k_statx(a, (const char *)b, (int)c, (unsigned)d, (struct statx *)e);
	case SYS_write: return c;	/* sysshim's warnings: swallowed */
	/* the path guard's clock and its measuring page (src/path/guard.c,
	 * src/eventfd/clock.c): real, they decide no answer; no auxv, so no vDSO */
	case SYS_openat:	/* no seccomp filter here (denials are modelled above) */
		return !strcmp((const char *)b, "/proc/self/status") ? STATUS_FD : -ENOENT;
	case SYS_read:
		return a == STATUS_FD ? mock_status((char *)b, (size_t)c) : -EBADF;
	case SYS_close: return a == STATUS_FD ? 0 : -EBADF;
	case SYS_clock_gettime: return real_syscall(n, a, b, 0, 0, 0, 0);
	case SYS_mmap: case SYS_mprotect: case SYS_munmap:
		return real_syscall(n, a, b, c, d, e, f);
	}
	abort();	/* a syscall the model does not know: add it */
}

/* ---------------------------------------------------------------- the oracle */

struct out {
	long r;
	union { struct stat st; struct statx x; unsigned char b[256]; } u;
};

static void oracle(int fn, long fd, const char *p, int flag, unsigned mask, void *buf,
		   struct out *o)
{
	memset(o, 0, sizeof *o);
	void *dst = bad_user(buf) ? buf : &o->u;
	switch (fn) {
	case 0:	/* fstat, glibc 2.36 */
		o->r = fd < 0 ? -EBADF : k_newfstatat(fd, "", dst, AT_EMPTY_PATH);
		break;
	case 1:
		o->r = k_newfstatat(fd, p, dst, flag);
		break;
	case 2:
		if (K.deny[D_STATX]) {	/* the emulation's contract */
			struct stat st;
			if ((flag & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE ||
			    (mask & STATX__RESERVED)) {
				o->r = -EINVAL;
				break;
			}
			o->r = k_newfstatat(fd, p, &st, flag & ~AT_STATX_SYNC_TYPE);
			if (!o->r && bad_user(buf))
				o->r = -EFAULT;
			if (!o->r)
				oracle_statx_from_stat(&o->u.x, &st);
		} else {
			o->r = k_statx(fd, p, flag, mask, dst);
		}
		break;
	}
}

/* ---------------------------------------------------------------- the driver */

static const char *const strategies[] = {
	"auto", "fstat", "newfstatat-null", "newfstatat-empty", "statx-null", "statx-empty",
	"bogus", NULL,
};

static char *str_page;	/* read-write page followed by bad_page */

/* A path string, placed at the end of a page for the alignment guard's sake, or one
 * of the bad pointers. */
static const char *gen_path(void)
{
	static const char *const names[] = {
		"", "a", "d", "l", "x", "a/", "d/", "l/", "/a", "/l", "/x", "d/",
	};
	unsigned c = u8();
	switch (c % 16) {
	case 12: return NULL;
	case 13: return (const char *)-1L;
	case 14: return (const char *)bad_page;	/* page-aligned: never read by the guard */
	}
	const char *s = names[c % 12];
	size_t n = strlen(s) + 1, back = n + (u8() & 15);
	char *d = str_page + 4096 - back;
	memcpy(d, s, n);
	return d;
}

static void *gen_buf(void *valid)
{
	switch (u8() % 8) {
	case 0: return NULL;
	case 1: return (void *)-1L;
	}
	return valid;
}

static long gen_fd(void)
{
	static const long fds[] = { FD_REG, FD_DIR, FD_LNK, 0, 7, -1, AT_FDCWD, 0x7fffffff };
	return fds[u8() % 8];
}

static int gen_flag(void)
{
	unsigned c = u8();
	int f = 0;
	if (c & 1) f |= AT_SYMLINK_NOFOLLOW;
	if (c & 2) f |= AT_NO_AUTOMOUNT;
	if (c & 4) f |= AT_EMPTY_PATH;
	if (c & 8) f |= AT_STATX_FORCE_SYNC;
	if (c & 16) f |= AT_STATX_DONT_SYNC;
	if ((c & 0xe0) == 0xe0) f |= (int)(1u << (u8() % 32));
	return f;
}

static unsigned long n_divergent;	/* accepted, known divergences */
static int trace;	/* LOGIC_FUZZ_TRACE=1: print every call (for a crash-* input) */

static void crash(const char *what)
{
	static const char pre[] = "logic_fuzz: ";
	fflush(stdout);
	(void)!write(2, pre, sizeof pre - 1);
	(void)!write(2, what, strlen(what));
	(void)!write(2, "\n", 1);
	abort();
}

static void inode_from_input(struct inode *i, uint32_t type)
{
	i->ino = u64();
	i->mode = type | (u32() & 07777);
	i->nlink = u32();
	i->uid = u32();
	i->gid = u32();
	i->dmaj = u32() & 0xfff;	/* the kernel's dev_t: 12-bit major, 20-bit minor */
	i->dmin = u32() & 0xfffff;
	i->rmaj = u32() & 0xfff;
	i->rmin = u32() & 0xfffff;
	i->blksize = u32();
	i->size = (int64_t)u64();
	i->blocks = (int64_t)u64();
	for (int k = 0; k < 4; k++) {
		i->sec[k] = (int64_t)u64();
		i->nsec[k] = u32() % 1000000000u;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	str_page = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (str_page == MAP_FAILED || mprotect(str_page + 4096, 4096, PROT_NONE))
		abort();
	bad_page = (unsigned char *)str_page + 4096;
	/* the path guard copies every path at risk, as it did before it measured whether
	 * copying pays (SYSSHIM_ALIGN_COPY=auto times things: not reproducible) */
	setenv("SYSSHIM_ALIGN_COPY", "always", 1);
	trace = getenv("LOGIC_FUZZ_TRACE") != NULL;
	if (trace)
		setvbuf(stdout, NULL, _IONBF, 0);
	return 0;
}

static int same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_mode == b->st_mode &&
	       a->st_nlink == b->st_nlink && a->st_uid == b->st_uid && a->st_gid == b->st_gid &&
	       a->st_rdev == b->st_rdev && a->st_size == b->st_size &&
	       a->st_blksize == b->st_blksize && a->st_blocks == b->st_blocks &&
	       a->st_atime_sec == b->st_atime_sec && a->st_atime_nsec == b->st_atime_nsec &&
	       a->st_mtime_sec == b->st_mtime_sec && a->st_mtime_nsec == b->st_mtime_nsec &&
	       a->st_ctime_sec == b->st_ctime_sec && a->st_ctime_nsec == b->st_ctime_nsec;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	in_p = data;
	in_n = size;

	unsigned c = u8();
	memset(&K, 0, sizeof K);
	K.kver = c & 3;
	K.qemu72 = (c >> 2) & 1;
	K.late = (c >> 3) & 1;
	for (int k = 0; k < ND; k++) {
		unsigned d = (c >> (4 + k)) & 1 ? (u8() & 1 ? EPERM : ENOSYS) : 0;
		K.deny[k] = d;
	}
	K.active = !K.late;
	const char *strat = strategies[u8() % 8];
	if (strat)
		setenv("SYSSHIM_STRATEGY", strat, 1);
	else
		unsetenv("SYSSHIM_STRATEGY");
	if (u8() & 1)
		setenv("SYSSHIM_ALIGN_PATHS", "1", 1);
	else
		unsetenv("SYSSHIM_ALIGN_PATHS");
	inode_from_input(&I_reg, 0100000);
	inode_from_input(&I_dir, 0040000);
	inode_from_input(&I_lnk, 0120000);

	/* a fresh process, as far as sysshim can tell */
	__atomic_store_n(&__ss_state_word, SS_ST_UNPROBED, __ATOMIC_RELAXED);
	__atomic_store_n(&__ss_null_rule, 0, __ATOMIC_RELAXED);
	if (trace)
		printf("kernel %s%s, deny fstat %d newfstatat %d statx %d%s, SYSSHIM_STRATEGY=%s%s\n",
		       (const char *[]){ "6.1", "6.6", "6.11", "6.18" }[K.kver],
		       K.qemu72 ? " (qemu-user 7.2)" : "", K.deny[0], K.deny[1], K.deny[2],
		       K.late ? " after the probe" : "", strat ? strat : "(unset)",
		       getenv("SYSSHIM_ALIGN_PATHS") ? " SYSSHIM_ALIGN_PATHS=1" : "");

	int first = 1;
	for (int call = 0; call < 6 && in_n; call++) {
		int fn = u8() % 3;	/* 0 fstat, 1 fstatat (stat, lstat), 2 statx */
		long fd = gen_fd();
		const char *p = gen_path();
		int flag = gen_flag();
		unsigned mask = u8() & 1 ? STATX_BASIC_STATS : u32();
		struct out want, got;
		void *buf = gen_buf(&got.u);

		/* the documented limitation: without the NULL-path fast path (before 6.11, or
		 * a filter that took it away: finding 4 in docs/fuzz.md) fstatat reads the
		 * path's first byte for AT_EMPTY_PATH on an fd, and so does statx emulated
		 * through it, whose sync bits are dropped first: no unreadable path there */
		if (first && K.late)
			K.active = 1;	/* the filter arrives after the probe */
		first = 0;
		/* the NULL-path capabilities sysshim has, less those the filter in force
		 * takes away (it notices a late filter within this very call) */
		unsigned caps = SS_ST_CAPS(__ss_state());
		if (K.active && K.deny[D_NEWFSTATAT])
			caps &= ~SS_CAP_NEWFSTATAT_NULL;
		if (K.active && K.deny[D_STATX])
			caps &= ~SS_CAP_STATX_NULL;
		int f2 = fn == 2 ? flag & ~AT_STATX_SYNC_TYPE : flag;	/* statx emulation */
		if (p == (const char *)bad_page && fd >= 0 &&
		    (f2 & ~(AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW)) == AT_EMPTY_PATH &&
		    !(caps & (SS_CAP_NEWFSTATAT_NULL | SS_CAP_STATX_NULL)))
			p = "";

		oracle(fn, fd, p, flag, mask, buf, &want);
		if (trace)
			printf("  call %d: fn %d fd %ld path %p flag %#x\n", call, fn, fd, (void *)p, flag);
		memset(&got, 0xa5, sizeof got);
		int *ep = __errno_location();
		*ep = 4242;
		int r;
		switch (fn) {
		case 0: r = sysshim_fstat((int)fd, buf); break;
		case 1: r = sysshim_fstatat((int)fd, p, buf, flag); break;
		default: r = sysshim_statx((int)fd, p, flag, mask, buf); break;
		}
		got.r = r ? -*ep : 0;
		if (trace) {
			uint64_t w = __ss_state();
			printf("  %s(fd %ld, path %s%s%s, flag %#x, mask %#x, buf %s): want %ld got %ld "
			       "[state: fd strategy %u caps %#x path %s]\n",
			       (const char *[]){ "fstat", "fstatat", "statx" }[fn], fd,
			       !p ? "NULL" : p == (const char *)-1L ? "(char *)-1"
			       : p == (const char *)bad_page ? "PROT_NONE" : "\"",
			       p && !bad_user(p) ? p : "", p && !bad_user(p) ? "\"" : "", flag, mask,
			       buf == &got.u ? "valid" : buf ? "(void *)-1" : "NULL", want.r, got.r,
			       SS_ST_FD(w), SS_ST_CAPS(w),
			       w & SS_ST_PATH_NONE ? "none" : w & SS_ST_PATH_STATX ? "statx" : "newfstatat");
		}
		if (r != 0 && r != -1)
			crash("return value neither 0 nor -1");

		/* nothing left that can answer: ENOSYS or EPERM is all one can ask for */
		int path_left = !K.deny[D_NEWFSTATAT] || !K.deny[D_STATX];
		int fd_left = path_left || !K.deny[D_FSTAT];
		int none_left = fn == 0 ? !fd_left : !path_left;
		if (none_left && (got.r == -ENOSYS || got.r == -EPERM))
			continue;
		/* fstatat(fd, "", AT_EMPTY_PATH) can still go to fstat with every path
		 * syscall denied */
		if (want.r != got.r) {
			if (!path_left && fn == 1 && (got.r == -ENOSYS || got.r == -EPERM))
				continue;
			/* Found here, reported (docs/fuzz.md, finding 3): with newfstatat
			 * denied, fstatat goes through statx. On 6.11 - 6.12 statx takes a
			 * NULL path with flags newfstatat refuses it with; sysshim asks once
			 * which rule the kernel has and refuses it there too (no divergence
			 * left). Under qemu-user 7.2 statx refuses NULL: EFAULT (or EINVAL
			 * for bad flags) where glibc's newfstatat on a 6.11+ host answers.
			 * While newfstatat answers, a NULL path goes to it (finding 7). */
			if (fn == 1 && !p && (flag & AT_EMPTY_PATH) &&
			    K.active && K.deny[D_NEWFSTATAT] && K.qemu72) {
				n_divergent++;
				continue;
			}
			crash("return value or errno differs from the model's glibc");
		}
		if (want.r == 0 && buf == &got.u) {
			if (fn == 2) {
				if (memcmp(&want.u.x, &got.u.x, sizeof got.u.x))
					crash("struct statx differs");
			} else if (!same_stat(&want.u.st, &got.u.st)) {
				crash("struct stat differs");
			}
		}
	}
	return 0;
}
