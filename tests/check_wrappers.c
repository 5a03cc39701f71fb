/* The library's prctl() and syscall() against the C library's, for the calls by which a
 * seccomp filter comes (src/internal/filter.c): every argument the kernel refuses (bad
 * pointers, a struct sock_fprog or a program partly mapped, lengths, flags, ops,
 * modes, programs the kernel does not take, no_new_privs) and those it takes.
 *  - table: each case through prctl(PR_SET_SECCOMP), syscall(SYS_seccomp) and
 *    syscall(SYS_prctl, PR_SET_SECCOMP);
 *  - fuzz: random ops, flags, lengths, pointers into mapped, unmapped, PROT_NONE and
 *    page-straddling memory, programs valid and not; SYSSHIM_STRESS_SEED replays a run,
 *    SYSSHIM_WRAP_ROUNDS sets its length (2000; 300 in the test beds' guests, where qemu
 *    emulates every instruction and each round forks two children).
 * Each case runs twice, each time in a forked child (a crash is a failure): once with the
 * library's function (linked in), once with the C library's (dlsym(RTLD_NEXT)). The two
 * children must end alike field by field: the return value, errno, the seccomp mode
 * (PR_GET_SECCOMP), the number of filters (Seccomp_filters), then fstat() on an open file
 * (the library's, having chosen the fstat syscall before, against the C library's,
 * which makes newfstatat) where the filter kills the fstat syscall, the program's own
 * fstat syscall (which the filter judges, TSYNC or not), and how the child ended; and
 * where the kernel refused at once (EFAULT, EINVAL), what the library knows of filters
 * (sysshim_company()) must not have changed. */
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sysshim.h"
#include "common/testutil.h"

#define F SECCOMP_SET_MODE_FILTER
#define S SECCOMP_SET_MODE_STRICT
#define TSYNC SECCOMP_FILTER_FLAG_TSYNC
#define LISTENER SECCOMP_FILTER_FLAG_NEW_LISTENER
#define ESRCH_ 0x10UL
#define KILLABLE 0x20UL

#define LD(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))

static long (*c_syscall)(long, ...);
static int (*c_prctl)(int, ...);
static int (*c_fstat)(int, struct stat *);

/* ---- the memory the arguments point into */

/* The page size (16 KB on loongarch64's kernels, 4 KB here), read before the pages are mapped. */
static long pg_size = 4096;
#define PG pg_size
#define RW_PAGES 10
static char *rw;		/* RW_PAGES read-write pages, then an unmapped one */
static char *none;		/* a PROT_NONE page */
static char *gone;		/* a page that was mapped, and is no more */
static int test_fd;

enum ptr {
	P_NULL, P_MINUS1, P_LOW, P_UNMAPPED, P_PROTNONE, P_KERNEL, P_GOOD, P_STRADDLE, P_RO,
	P_COUNT
};
static const char *const ptr_name[] = { "NULL", "-1", "(void *)1", "unmapped", "PROT_NONE",
					"kernel", "good", "straddling", "read-only" };

enum prog {
	G_KILL_FSTAT, G_MOD, G_JUMP_OUT, G_NO_RET, G_MEM, G_ABS_ODD, G_SHIFT32, G_DIV0, G_HALF,
	G_LONG, G_ERRNO_FSTAT, G_COUNT
};
static const char *const prog_name[] = { "kill fstat", "MOD", "jump out", "no return",
					 "memory unwritten", "odd offset", "shift by 32", "division by 0",
					 "half-word load", "4096 long, kill fstat", "ENOSYS fstat" };

static struct sock_filter kill_fstat[] = {
	LD(offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_SELF, 1, 0), RET(SECCOMP_RET_ALLOW),
	LD(offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fstat, 0, 1), RET(SECCOMP_RET_KILL_PROCESS),
	RET(SECCOMP_RET_ALLOW),
};
#define KILL_LEN ((int)(sizeof kill_fstat / sizeof *kill_fstat))

/* Program G written at F (room for 4097 instructions); its length. */
static int write_prog(struct sock_filter *f, enum prog g)
{
	static const struct sock_filter one[][2] = {
		[G_MOD] = { BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, 3), RET(SECCOMP_RET_ALLOW) },
		[G_JUMP_OUT] = { BPF_JUMP(BPF_JMP | BPF_JA, 5, 0, 0), RET(SECCOMP_RET_ALLOW) },
		[G_NO_RET] = { LD(0), LD(0) },
		[G_MEM] = { BPF_STMT(BPF_LD | BPF_MEM, 0), RET(SECCOMP_RET_ALLOW) },
		[G_ABS_ODD] = { LD(2), RET(SECCOMP_RET_ALLOW) },
		[G_SHIFT32] = { BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 32), RET(SECCOMP_RET_ALLOW) },
		[G_DIV0] = { BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0), RET(SECCOMP_RET_ALLOW) },
		[G_HALF] = { BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0), RET(SECCOMP_RET_ALLOW) },
	};
	switch (g) {
	case G_KILL_FSTAT:
	case G_ERRNO_FSTAT:
		memcpy(f, kill_fstat, sizeof kill_fstat);
		if (g == G_ERRNO_FSTAT)
			f[5] = (struct sock_filter)RET(SECCOMP_RET_ERRNO | ENOSYS);
		return KILL_LEN;
	case G_LONG:
		for (int i = 0; i < 4097 - KILL_LEN; i++)
			f[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_IMM, i);
		memcpy(f + 4097 - KILL_LEN, kill_fstat, sizeof kill_fstat);
		return 4097;	/* the first 4096 are valid */
	default:
		memcpy(f, one[g], sizeof one[g]);
		return 2;
	}
}

static void *ptr_of(enum ptr p, char *good, long straddle_room)
{
	switch (p) {
	case P_NULL: return NULL;
	case P_MINUS1: return (void *)-1L;
	case P_LOW: return (void *)1L;
	case P_UNMAPPED: return gone;
	case P_PROTNONE: return none;
	case P_KERNEL: return (void *)0xffff880000000000UL;
	case P_GOOD: case P_RO: return good;
	case P_STRADDLE: return rw + RW_PAGES * PG - straddle_room;
	default: return NULL;
	}
}

/* ---- one call */

enum way { W_PRCTL, W_SECCOMP, W_SYS_PRCTL, W_COUNT };
static const char *const way_name[] = { "prctl()", "syscall(SYS_seccomp)", "syscall(SYS_prctl)" };

struct call {
	enum way way;
	unsigned long op;	/* seccomp's op; prctl's mode (PR_SET_SECCOMP's) */
	unsigned long flags;	/* seccomp's flags; prctl's a4 */
	enum ptr fprog;		/* where uargs (prctl's a3) points */
	int len;		/* the struct sock_fprog's len; -1: the program's */
	enum ptr filter;	/* where its filter points */
	enum prog prog;
	int no_admin;		/* CAP_SYS_ADMIN dropped, no no_new_privs: EACCES */
	int threads;		/* a second thread (TSYNC has one to reach) */
};

struct result {
	int phase;
	long ret;
	int err, mode, filters;
	long fstat_ret;
	int fstat_err;
	unsigned long fstat_ino;
	long raw_ret;
	int raw_err;
	int changed;	/* the library's: what it knows of filters changed by a refused call */
};

static int seccomp_filters(void)
{
	char b[4096];
	int fd = open("/proc/self/status", O_RDONLY), n = 0;
	ssize_t got = fd < 0 ? -1 : read(fd, b, sizeof b - 1);
	if (fd >= 0)
		close(fd);
	if (got <= 0)
		return -1;
	b[got] = 0;
	const char *p = strstr(b, "Seccomp_filters:");
	return p && sscanf(p + 16, "%d", &n) == 1 ? n : -2;
}

static void drop_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	if (c_syscall(SYS_capget, &h, d))
		_exit(93);
	d[CAP_SYS_ADMIN / 32].effective &= ~(1U << (CAP_SYS_ADMIN % 32));
	if (c_syscall(SYS_capset, &h, d))
		_exit(94);
}

/* The second thread: it outlives the first only where strict mode killed that one
 * alone; then it ends the process. */
static void *idle(void *main_thread)
{
	pthread_join(*(pthread_t *)main_thread, 0);
	c_syscall(SYS_exit_group, 77);
	return 0;
}

static void child(const struct call *c, int lib, volatile struct result *res)
{
	struct stat st;
	struct sock_filter *prog = (struct sock_filter *)(rw + PG);
	static unsigned action = SECCOMP_RET_KILL_PROCESS;

	/* The library has probed and chosen its way (the fstat syscall here). */
	(lib ? fstat : c_fstat)(test_fd, &st);
	if (c->no_admin)
		drop_admin();
	else if (c_prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(95);
	if (c->threads) {
		static pthread_t self, t;
		self = pthread_self();
		if (pthread_create(&t, 0, idle, &self))
			_exit(96);
	}
	/* The program, and the struct sock_fprog pointing to it. */
	int n = write_prog(prog, c->prog);
	struct sock_filter *fp = c->filter == P_GOOD || c->filter == P_RO ? prog :
				 c->filter == P_STRADDLE ? (struct sock_filter *)(rw + RW_PAGES * PG - 24) :
				 ptr_of(c->filter, 0, 0);
	if (c->filter == P_STRADDLE)
		memcpy(fp, prog, 24);
	char *where = rw + 64;
	if (c->fprog == P_STRADDLE) {
		where = rw + RW_PAGES * PG - 8;
		*(unsigned short *)where = (unsigned short)(c->len < 0 ? n : c->len);
	} else {
		struct sock_fprog f = { (unsigned short)(c->len < 0 ? n : c->len), fp };
		memcpy(where, &f, sizeof f);
		if (c->op == SECCOMP_GET_ACTION_AVAIL)
			memcpy(where, &action, sizeof action);
	}
	if (c->fprog == P_RO || c->filter == P_RO)
		mprotect(rw, RW_PAGES * PG, PROT_READ);
	void *uargs = ptr_of(c->fprog, where, 8);
	/* The holes are still holes (no mapping of the child's took their place). */
	if (!msync(gone, PG, MS_ASYNC) || !msync(rw + RW_PAGES * PG, PG, MS_ASYNC))
		_exit(97);

	struct sysshim_company before, after;
	if (lib)
		sysshim_company(&before);
	errno = 0;
	long r;
	switch (c->way) {
	case W_PRCTL:
		r = (lib ? prctl : c_prctl)(PR_SET_SECCOMP, c->op, (unsigned long)uargs, c->flags, 0);
		break;
	case W_SECCOMP:
		r = (lib ? syscall : c_syscall)(SYS_seccomp, c->op, c->flags, uargs);
		break;
	default:
		r = (lib ? syscall : c_syscall)(SYS_prctl, PR_SET_SECCOMP, c->op, uargs, c->flags, 0);
		break;
	}
	res->ret = r;
	res->err = r == -1 ? errno : 0;
	/* What the kernel refuses at once (EFAULT, EINVAL) leaves the library as it was; but
	 * for a flag the library knows and an older kernel does not (WAIT_KILLABLE_RECV, 5.19:
	 * the guests' 5.10 refuses it), which the library takes as the newer kernels do. */
	if (lib && r == -1 && (res->err == EFAULT || res->err == EINVAL) &&
	    !(c->way == W_SECCOMP && (c->flags & KILLABLE))) {
		sysshim_company(&after);
		res->changed = after.sandbox != before.sandbox || after.stopped != before.stopped ||
			       after.filters_read != before.filters_read;
	}
	res->phase = 1;
	res->mode = c_prctl(PR_GET_SECCOMP, 0, 0, 0, 0);	/* strict mode: killed here */
	res->phase = 2;
	res->filters = seccomp_filters();
	res->phase = 3;
	errno = 0;
	res->fstat_ret = (lib ? fstat : c_fstat)(test_fd, &st);
	res->fstat_err = res->fstat_ret ? errno : 0;
	res->fstat_ino = res->fstat_ret ? 0 : st.st_ino;
	res->phase = 4;
	/* The program's own fstat syscall: the filter judges it, whatever the library put
	 * in front of it (a prefix for TSYNC answers the library's own sites alone). */
	errno = 0;
	res->raw_ret = c_syscall(SYS_fstat, test_fd, &st);
	res->raw_err = res->raw_ret ? errno : 0;
	res->phase = 5;
	c_syscall(SYS_exit_group, 0);
}

static void describe(const struct call *c, char *b, size_t n)
{
	snprintf(b, n, "%s op/mode %#lx flags/a4 %#lx uargs %s len %d filter %s program \"%s\"%s%s",
		 way_name[c->way], c->op, c->flags, ptr_name[c->fprog], c->len, ptr_name[c->filter],
		 prog_name[c->prog], c->no_admin ? ", no CAP_SYS_ADMIN" : "",
		 c->threads ? ", 2 threads" : "");
}

static volatile struct result *shared;

static int run(const struct call *c, int lib, volatile struct result *res)
{
	memset((void *)res, 0, sizeof *res);
	res->mode = res->filters = -9;
	pid_t pid = fork();
	if (!pid) {
		signal(SIGALRM, SIG_DFL);	/* not Check's handler: a hang ends this child alone */
		alarm(20);
		child(c, lib, res);
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(!(WIFEXITED(status) && WEXITSTATUS(status) >= 93 && WEXITSTATUS(status) <= 97),
		      "the child could not set up its case (exit %d)", WEXITSTATUS(status));
	return status;
}

/* The case through both; 0 where they end alike, else a message in WHY. */
static int compare(const struct call *c, char *why, size_t n)
{
	volatile struct result *mine = shared, *theirs = shared + 1;
	int sm = run(c, 1, mine), st = run(c, 0, theirs);
	char what[300];

	describe(c, what, sizeof what);
	if (sm != st || mine->phase != theirs->phase || mine->ret != theirs->ret ||
	    mine->err != theirs->err || mine->mode != theirs->mode ||
	    mine->filters != theirs->filters || mine->fstat_ret != theirs->fstat_ret ||
	    mine->fstat_err != theirs->fstat_err || mine->fstat_ino != theirs->fstat_ino ||
	    mine->raw_ret != theirs->raw_ret || mine->raw_err != theirs->raw_err || mine->changed) {
		snprintf(why, n,
			 "%s: sysshim: status %#x phase %d ret %ld errno %d mode %d filters %d fstat %ld/%d%s; "
			 "glibc: status %#x phase %d ret %ld errno %d mode %d filters %d fstat %ld/%d",
			 what, sm, mine->phase, mine->ret, mine->err, mine->mode, mine->filters,
			 mine->fstat_ret, mine->fstat_err,
			 mine->changed ? " (a refused call changed what the library knows)" : "", st, theirs->phase, theirs->ret, theirs->err,
			 theirs->mode, theirs->filters, theirs->fstat_ret, theirs->fstat_err);
		return 1;
	}
	return 0;
}

/* ---- the table */


/* Cases for seccomp(2) itself; those with op FILTER or STRICT and flags 0 also go
 * through prctl() and syscall(SYS_prctl) (mode FILTER or STRICT, the flags as a4). */
static const struct call table[] = {
	/* where the struct sock_fprog is */
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_NULL, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_MINUS1, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_LOW, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_UNMAPPED, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_PROTNONE, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_KERNEL, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_STRADDLE, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_RO, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	/* where its program is */
	{ 0, F, 0, P_GOOD, -1, P_NULL, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_MINUS1, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_LOW, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_UNMAPPED, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_PROTNONE, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_STRADDLE, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_GOOD, 3, P_STRADDLE, G_KILL_FSTAT, 0, 0 },	/* all of it mapped */
	{ 0, F, 0, P_GOOD, -1, P_RO, G_ERRNO_FSTAT, 0, 0 },
	/* lengths */
	{ 0, F, 0, P_GOOD, 0, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_GOOD, 0, P_NULL, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0, P_GOOD, 4096, P_GOOD, G_LONG, 0, 0 },
	{ 0, F, 0, P_GOOD, 4097, P_GOOD, G_LONG, 0, 0 },
	{ 0, F, 0, P_GOOD, 65535, P_GOOD, G_LONG, 0, 0 },
	{ 0, F, 0, P_GOOD, 4097, P_UNMAPPED, G_LONG, 0, 0 },
	{ 0, F, 0, P_GOOD, 6, P_GOOD, G_KILL_FSTAT, 0, 0 },	/* the return cut off */
	{ 0, F, 0, P_GOOD, 4000, P_GOOD, G_KILL_FSTAT, 0, 0 },	/* zeros after it */
	/* programs the kernel refuses, and one that refuses fstat with ENOSYS */
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_MOD, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_JUMP_OUT, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_NO_RET, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_MEM, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_ABS_ODD, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_SHIFT32, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_DIV0, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_HALF, 0, 0 },
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_ERRNO_FSTAT, 0, 0 },
	/* no_new_privs nor CAP_SYS_ADMIN: EACCES before the program is read */
	{ 0, F, 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 1, 0 },
	{ 0, F, 0, P_GOOD, -1, P_UNMAPPED, G_KILL_FSTAT, 1, 0 },
	{ 0, F, 0, P_UNMAPPED, -1, P_GOOD, G_KILL_FSTAT, 1, 0 },
	{ 0, F, 0, P_GOOD, 0, P_GOOD, G_KILL_FSTAT, 1, 0 },
	/* flags */
	{ 0, F, TSYNC, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 1 },
	{ 0, F, TSYNC, P_UNMAPPED, -1, P_GOOD, G_KILL_FSTAT, 0, 1 },
	{ 0, F, SECCOMP_FILTER_FLAG_LOG, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, SECCOMP_FILTER_FLAG_SPEC_ALLOW, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, LISTENER, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, LISTENER, P_PROTNONE, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, TSYNC | LISTENER, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 1 },
	{ 0, F, TSYNC | LISTENER, P_UNMAPPED, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, TSYNC | LISTENER | ESRCH_, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 1 },
	{ 0, F, ESRCH_, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, KILLABLE, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, KILLABLE | LISTENER, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0x40, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 0x80000000UL, P_NULL, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, F, 1UL << 32, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },	/* the kernel sees 0 */
	{ 0, F, (1UL << 32) | TSYNC | LISTENER, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	/* ops */
	{ 0, (1UL << 32) | F, 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },	/* the kernel sees FILTER */
	{ 0, S, 0, P_NULL, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, S, 1, P_NULL, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, S, 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, S, 0, P_UNMAPPED, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, (1UL << 32) | S, 0, P_NULL, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, SECCOMP_GET_ACTION_AVAIL, 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, SECCOMP_GET_ACTION_AVAIL, 0, P_UNMAPPED, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, SECCOMP_GET_ACTION_AVAIL, 1, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, SECCOMP_GET_NOTIF_SIZES, 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, SECCOMP_GET_NOTIF_SIZES, 0, P_NULL, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, SECCOMP_GET_NOTIF_SIZES, 0, P_RO, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, 4, 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
	{ 0, ~0UL, 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 },
};

/* prctl's modes for the table's seccomp op: strict, filter; others that are EINVAL. */
static unsigned long mode_of(unsigned long op)
{
	return op == F ? SECCOMP_MODE_FILTER : op == S ? SECCOMP_MODE_STRICT : 0;
}

static void setup_memory(void)
{
	/* Each hole lies between pages of the test's (PROT_NONE after it), so that no mapping
	 * larger than a page (a thread's stack) can take its place. */
	pg_size = sysconf(_SC_PAGESIZE);
	rw = mmap(0, (RW_PAGES + 2) * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(rw, MAP_FAILED);
	ck_assert_int_eq(mprotect(rw + (RW_PAGES + 1) * PG, PG, PROT_NONE), 0);
	none = mmap(0, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(none, MAP_FAILED);
	shared = mmap(0, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne((void *)shared, MAP_FAILED);
	test_fd = open("/proc/self/exe", O_RDONLY);
	ck_assert_int_ge(test_fd, 0);
	c_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	c_prctl = (int (*)(int, ...))dlsym(RTLD_NEXT, "prctl");
	c_fstat = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
	ck_assert(c_syscall && c_prctl && c_fstat);
	ck_assert_ptr_ne((void *)c_syscall, (void *)syscall);
	ck_assert_ptr_ne((void *)c_prctl, (void *)prctl);
	/* Last, so that no mapping of the test's takes its place. */
	gone = mmap(0, 3 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(gone, MAP_FAILED);
	gone += PG;
	ck_assert_int_eq(munmap(gone, PG), 0);
	ck_assert_int_eq(munmap(rw + RW_PAGES * PG, PG), 0);
}

START_TEST(wrapper_table)
{
	char why[1024];
	int cases = 0, failed = 0;

	setup_memory();
	for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
		for (int w = 0; w < W_COUNT; w++) {
			struct call c = table[i];
			c.way = (enum way)w;
			if (w != W_SECCOMP) {
				/* prctl: the mode, and the flags as a4 (looked at by no one) */
				if ((c.op != F && c.op != S) || c.flags > 1)
					continue;
				c.op = mode_of(c.op);
			}
			cases++;
			if (compare(&c, why, sizeof why)) {
				fprintf(stderr, "wrappers: %s\n", why);
				failed++;
			}
		}
	}
	/* prctl's modes it refuses, and strict mode with a pointer it ignores */
	static const unsigned long modes[] = { 0, 3, ~0UL, (1UL << 32) | SECCOMP_MODE_FILTER };
	for (int w = 0; w < W_COUNT; w++) {
		if (w == W_SECCOMP)
			continue;
		for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
			struct call c = { (enum way)w, modes[m], 0, P_GOOD, -1, P_GOOD, G_KILL_FSTAT, 0, 0 };
			cases++;
			if (compare(&c, why, sizeof why)) {
				fprintf(stderr, "wrappers: %s\n", why);
				failed++;
			}
		}
		struct call c = { (enum way)w, SECCOMP_MODE_STRICT, 0, P_UNMAPPED, -1, P_GOOD, G_KILL_FSTAT, 0, 0 };
		cases++;
		if (compare(&c, why, sizeof why)) {
			fprintf(stderr, "wrappers: %s\n", why);
			failed++;
		}
	}
	fprintf(stderr, "wrappers table: %d cases, %d differ from glibc\n", cases, failed);
	ck_assert_msg(!failed, "%d of %d cases differ from glibc (listed above)", failed, cases);
}
END_TEST

/* ---- the fuzzer */

static uint64_t rng;

static uint64_t rnd(void)
{
	return test_random(&rng);
}

static unsigned long pick(const unsigned long *v, size_t n)
{
	return v[rnd() % n];
}

START_TEST(wrapper_fuzz)
{
	const char *seed_env = getenv("SYSSHIM_STRESS_SEED"), *rounds_env = getenv("SYSSHIM_WRAP_ROUNDS");
	uint64_t seed = seed_env ? strtoull(seed_env, 0, 0) : (uint64_t)getpid() * 2654435761u ^ (uint64_t)time(0);
	const char *bed = getenv("SYSSHIM_TESTBED");
	int rounds = rounds_env ? atoi(rounds_env) : bed && !strcmp(bed, "qemu-system") ? 300 : 2000;
	int failed = 0;
	char why[1024];
	static const unsigned long ops[] = { F, F, F, F, S, SECCOMP_GET_ACTION_AVAIL,
					     SECCOMP_GET_NOTIF_SIZES, 4, (1UL << 32) | F, ~0UL };
	static const unsigned long flags[] = { 0, 0, 0, TSYNC, SECCOMP_FILTER_FLAG_LOG,
					       SECCOMP_FILTER_FLAG_SPEC_ALLOW, LISTENER, TSYNC | LISTENER,
					       TSYNC | LISTENER | ESRCH_, KILLABLE, KILLABLE | LISTENER,
					       0x40, 1UL << 32, 1 };
	static const unsigned long lens[] = { 0, 1, 2, 3, 6, 7, 8, 4095, 4096, 4097, 65535 };

	setup_memory();
	fprintf(stderr, "wrappers fuzz: seed %#llx, %d rounds (SYSSHIM_STRESS_SEED=%#llx replays)\n",
		(unsigned long long)seed, rounds, (unsigned long long)seed);
	rng = seed;
	for (int n = 0; n < rounds; n++) {
		struct call c;
		c.way = (enum way)(rnd() % W_COUNT);
		c.op = pick(ops, sizeof ops / sizeof *ops);
		c.flags = rnd() % 4 ? pick(flags, sizeof flags / sizeof *flags) : rnd() & 0x3f;
		c.fprog = (enum ptr)(rnd() % 3 ? P_GOOD : rnd() % P_COUNT);
		c.filter = (enum ptr)(rnd() % 3 ? P_GOOD : rnd() % P_COUNT);
		c.prog = (enum prog)(rnd() % G_COUNT);
		c.len = rnd() % 2 ? -1 : (int)(rnd() % 3 ? pick(lens, sizeof lens / sizeof *lens)
							 : rnd() % 65536);
		c.no_admin = rnd() % 8 == 0;
		c.threads = rnd() % 4 == 0;
		if (c.way != W_SECCOMP)
			c.op = rnd() % 8 ? mode_of(c.op) : rnd() % 5;
		if (getenv("SYSSHIM_WRAP_VERBOSE")) {
			describe(&c, why, sizeof why);
			fprintf(stderr, "round %d: %s\n", n, why);
		}
		if (compare(&c, why, sizeof why)) {
			fprintf(stderr, "wrappers fuzz round %d (seed %#llx): %s\n", n,
				(unsigned long long)seed, why);
			if (++failed >= 10)
				break;
		}
	}
	ck_assert_msg(!failed, "%d rounds differ from glibc (seed %#llx, listed above)", failed,
		      (unsigned long long)seed);
}
END_TEST

/* qemu-user cannot apply a guest's filter. */
static int filters_apply(void)
{
	pid_t pid = fork();
	if (!pid) {
		struct sock_filter f[] = { LD(offsetof(struct seccomp_data, nr)),
					   BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
					   RET(SECCOMP_RET_ERRNO | EPERM), RET(SECCOMP_RET_ALLOW) };
		struct sock_fprog p = { 4, f };
		void *(*c_dlsym)(void *, const char *) = dlsym;
		long (*sc)(long, ...) = (long (*)(long, ...))c_dlsym(RTLD_NEXT, "syscall");
		if (!sc)
			_exit(1);	/* a static link: no C library's syscall() to compare with */
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || sc(SYS_seccomp, F, 0, &p))
			_exit(1);
		_exit(sc(SYS_getppid) == -1 && errno == EPERM ? 0 : 1);
	}
	int status;
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

/* The skip is only for qemu-user and for a static link. */
START_TEST(nothing_to_compare_here)
{
	void *(*c_dlsym)(void *, const char *) = dlsym;
	const char *tb = getenv("SYSSHIM_TESTBED");
	ck_assert_msg((tb && !strncmp(tb, "qemu-user", 9)) || !c_dlsym(RTLD_NEXT, "syscall"),
		      "seccomp filters do not apply in a dynamic program outside qemu-user");
}
END_TEST

int main(void)
{
	if (RUNNING_ON_VALGRIND) {
		fprintf(stderr, "wrappers: under valgrind (no seccomp(2)): skipped\n");
		return 0;
	}
	Suite *s = suite_create("wrappers");
	TCase *t;
	if (!filters_apply()) {
		/* Only where that is known: qemu-user, or a static link (the test beds' guests),
		 * where glibc's own syscall() cannot be found to compare with. */
		fprintf(stderr, "wrappers: seccomp filters do not apply here, or no glibc syscall() "
				"to compare with (static): the table runs where the library is dynamic\n");
		t = tcase_create("where");
		tcase_add_test(t, nothing_to_compare_here);
		suite_add_tcase(s, t);
	} else {
		t = tcase_create("table");
		tcase_set_timeout(t, 300);
		tcase_add_test(t, wrapper_table);
		suite_add_tcase(s, t);
		t = tcase_create("fuzz");
		tcase_set_timeout(t, 600);
		tcase_add_test(t, wrapper_fuzz);
		suite_add_tcase(s, t);
	}
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
