/* The eventfd stress and fault harness (docs/eventfd.md, "The stress and fault harness").
 *
 * Four Check tests, each a run of rounds, every round a forked child (so that a seccomp
 * filter installed mid-round dies with it) under a watchdog that turns a hang into a
 * failure naming the seed:
 *
 *   batch_model      one batch driven by random adds, flushes, forgets, destroys, reads,
 *                    counters filled to the maximum, fds closed and reused, fork, blocking
 *                    writes interrupted by signals or released by a reader in a signal
 *                    handler, seccomp filters refusing write, io_uring_enter or
 *                    io_uring_setup arriving mid-round: a model predicts every result,
 *                    errno, entry, counter and write count exactly
 *   batch_chaos      writer threads with batches of their own on shared eventfds
 *                    (blocking, non-blocking, semaphore), readers that pause and resume,
 *                    signals, fork, filters arriving mid-run: every flush is checked for
 *                    consistency, a non-blocking flush must not wait, and at the end the
 *                    sum read equals the sum applied, per eventfd
 *   notifier_model   notify and drain against a model, with write and membarrier
 *                    refused mid-round, notifies from signal handlers and fork children
 *   notifier_chaos   producers in threads, signal handlers and (FENCE, shared memory)
 *                    other processes, one consumer in a thread or another process; a
 *                    wakeup lost is caught when it happens, and the counts add up
 *
 * SYSSHIM_STRESS_SECONDS (default 120) is the whole run's length, shared by the four;
 * SYSSHIM_STRESS_SEED repeats a run (its rounds' seeds derive from it); every failure
 * prints the round's seed and its last operations. SYSSHIM_TEST_SCALE=N (valgrind,
 * emulators): rounds do less and every time limit is N times longer.
 * SYSSHIM_STRESS_THREAD_FORK=0: batch_chaos's writers do not fork (qemu-user 7.2). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/epoll.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include "sysshim.h"
#include "common/testutil.h"
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define EFD_MAX 0xfffffffffffffffeULL
#define NB_FLAG 04000		/* EFD_NONBLOCK = O_NONBLOCK */
#define SEM_FLAG 1		/* EFD_SEMAPHORE */

/* Time limits, in seconds, each times SYSSHIM_TEST_SCALE: a flush of non-blocking
 * eventfds takes less than NB_LIMIT (a reader pauses PAUSE_LONG, so a flush that waited
 * for one would take longer); a wakeup arrives within WAKEUP_LIMIT of a quiet moment. */
#define NB_LIMIT 1.0
#define PAUSE_LONG 2.0
#define WAKEUP_LIMIT 2.0

typedef unsigned __int128 u128;

/* ---------------------------------------------------------------- the run */

static double g_scale = 1;	/* SYSSHIM_TEST_SCALE */
static double g_seconds = 120;	/* SYSSHIM_STRESS_SECONDS */
static uint64_t g_seed;		/* SYSSHIM_STRESS_SEED, or fresh */
static int g_uring;		/* the library's io_uring answer, asked before any round */
static int g_membarrier;	/* the kernel registers private expedited membarrier */
static int g_seccomp;		/* filters can be installed here (not under valgrind, qemu-user) */
static int g_pipe_copy;		/* no process_vm_readv: the library copies a filter through a pipe */
static int g_verbose;		/* SYSSHIM_STRESS_VERBOSE=1: every operation on stderr */
static int g_thread_fork = 1;	/* SYSSHIM_STRESS_THREAD_FORK=0: writers in threads do not fork */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void setup(void)
{
	const char *s = getenv("SYSSHIM_TEST_SCALE"), *t = getenv("SYSSHIM_STRESS_SECONDS");
	const char *d = getenv("SYSSHIM_STRESS_SEED"), *f = getenv("SYSSHIM_STRESS_THREAD_FORK");

	g_scale = s && atof(s) >= 1 ? atof(s) : 1;
	g_seconds = t && atof(t) > 0 ? atof(t) : 120;
	g_seed = d && *d ? strtoull(d, 0, 0) : ((uint64_t)time(0) << 20) ^ (uint64_t)getpid() << 4 ^
		 (uint64_t)(now() * 1e9);
	g_uring = sysshim_eventfd_uring();
	g_membarrier = syscall(SYS_membarrier, 0, 0, 0) > 0;
	g_seccomp = !RUNNING_ON_VALGRIND;
	char from = 1, to = 0;
	struct iovec l = { &to, 1 }, r = { &from, 1 };
	g_pipe_copy = syscall(SYS_process_vm_readv, getpid(), &l, 1, &r, 1, 0) < 0 && errno == ENOSYS;
	g_verbose = getenv("SYSSHIM_STRESS_VERBOSE") != 0;
	/* qemu-user 7.2 does not hold the lock of its path() across fork: a child forked
	 * while another thread is in a syscall that names a path (sysshim_batch_add's
	 * readlinkat of /proc/self/fd/N) waits for that lock for good, in the emulator.
	 * testbed/run-cross.sh sets 0 there; forks in threads are tested everywhere else. */
	g_thread_fork = !(f && !strcmp(f, "0"));
}

/* splitmix64: one stream per round and per thread, all from the run's seed. */
struct rng {
	uint64_t s;
};

static uint64_t rnext(struct rng *r)
{
	return test_random(&r->s);
}

static unsigned rbelow(struct rng *r, unsigned n)
{
	return n ? (unsigned)(rnext(r) % n) : 0;
}

static int rpct(struct rng *r, unsigned pct)
{
	return rbelow(r, 100) < pct;
}

/* What a run did, summed over its rounds (shared memory: rounds are children). */
struct stats {
	unsigned long rounds, ops, adds, flushes, forgets, destroys, reads, fills, reuses;
	unsigned long notifies, drains, wakeups, spurious, items;
	unsigned long predictions, filters, filter_kind[4], filters_unread, signals, eintr, released, forks;
	unsigned long full, producers_proc, handler_notifies, uring_flushes, quiet;
	unsigned long nb_flush_us, quiet_us;	/* the longest of each, against its limit */
	char fail[2048];
};
static struct stats *st;

#define ADD(f, n) __atomic_add_fetch(&st->f, (n), __ATOMIC_RELAXED)

/* The longest of a timed thing (seconds), kept as microseconds. */
static void longest(unsigned long *slot, double secs)
{
	unsigned long us = (unsigned long)(secs * 1e6), old = __atomic_load_n(slot, __ATOMIC_RELAXED);
	while (us > old && !__atomic_compare_exchange_n(slot, &old, us, 1, __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
		;
}

/* The round's last operations, printed with a failure. */
static char oplog[32][160];
static unsigned opn;
static uint64_t round_seed;
static const char *round_what;

static void logop(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logop(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(oplog[opn % 32], sizeof oplog[0], fmt, ap);
	va_end(ap);
	if (g_verbose)
	{
		int e = errno;
		dprintf(2, "[%d] %s\n", (int)getpid(), oplog[opn % 32]);
		errno = e;
	}
	opn++;
}

/* A failure in a round: the message goes to the parent through the shared stats
 * (and to stderr with the last operations), then the round ends. */
static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	char msg[1024], line[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char tag = 0;
	if (__atomic_compare_exchange_n(&st->fail[0], &tag, 'x', 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		int k = snprintf(st->fail, sizeof st->fail, "%s: %s (round seed 0x%llx; "
				 "SYSSHIM_STRESS_SEED=0x%llx reruns the run); last operations:",
				 round_what, msg, (unsigned long long)round_seed,
				 (unsigned long long)g_seed);
		for (unsigned i = opn > 6 ? opn - 6 : 0; i < opn && k < (int)sizeof st->fail; i++)
			k += snprintf(st->fail + k, sizeof st->fail - k, " [%s]", oplog[i % 32]);
	}
	/* Raw writes, no stdio: this may be a fork child of a threaded process. */
	int n = snprintf(line, sizeof line, "evstress: FAIL %s: %s\nevstress: round seed 0x%llx, "
			 "last operations:\n", round_what, msg, (unsigned long long)round_seed);
	if (write(2, line, n) == n)
		for (unsigned i = opn > 32 ? opn - 32 : 0; i < opn; i++) {
			n = snprintf(line, sizeof line, "  %s\n", oplog[i % 32]);
			if (write(2, line, n) != n)
				break;
		}
	_exit(1);
}

#define CHECK(c, ...) do { if (!(c)) die(__VA_ARGS__); } while (0)

static void on_watchdog(int sig)
{
	static const char m[] = "evstress: the round's watchdog fired: a hang\n";
	if (write(2, m, sizeof m - 1) < 0)
		_exit(98);
	for (unsigned i = opn > 32 ? opn - 32 : 0; i < opn; i++) {
		if (write(2, "  ", 2) < 0 || write(2, oplog[i % 32], strlen(oplog[i % 32])) < 0 ||
		    write(2, "\n", 1) < 0)
			break;
	}
	_exit(98);
}

/* Runs rounds of fn for share of the run's time, each in a child process with a
 * watchdog of its own (SIGALRM in the child) and one in the parent (SIGKILL). */
typedef void (*round_fn)(struct rng *r, double secs);

/* Waits for child PID to end, SECS at most: 0 and its *STATUS, or -1 if it has not.
 * The wait is on its pidfd (Linux 5.3 on); where there is none (valgrind 3.19 and
 * emulators without pidfd_open, asked once), waitpid is asked every 2 ms. */
static int wait_child(pid_t pid, double secs, int *status)
{
	static int no_pidfd;
	double end = now() + secs;
	int pfd = no_pidfd || RUNNING_ON_VALGRIND ? -1 : (int)syscall(SYS_pidfd_open, pid, 0);

	if (pfd < 0 && errno == ENOSYS)
		no_pidfd = 1;

	while (waitpid(pid, status, WNOHANG) == 0) {
		double left = end - now();
		if (left <= 0) {
			if (pfd >= 0)
				close(pfd);
			return -1;
		}
		if (pfd >= 0) {
			struct pollfd pf = { .fd = pfd, .events = POLLIN };
			poll(&pf, 1, (int)(left * 1000) + 1);
		} else {
			usleep(2000);
		}
	}
	if (pfd >= 0)
		close(pfd);
	return 0;
}

/* One round in a child of its own, under its own watchdog (LIMIT s) and this one's
 * (10 s more): it must end with status 0 and no failure written. */
static void run_round(const char *what, round_fn fn, struct rng *r, double round_secs,
		      double limit, unsigned n)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGALRM, on_watchdog);
		alarm((unsigned)limit);
		fn(r, round_secs * g_scale);
		_exit(0);
	}
	int status = 0;
	if (wait_child(pid, limit + 10, &status) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		ck_abort_msg("%s: round %u (seed 0x%llx; SYSSHIM_STRESS_SEED=0x%llx "
			     "reruns the run) hung past %.0f s and its own watchdog: "
			     "killed", what, n, (unsigned long long)round_seed,
			     (unsigned long long)g_seed, limit + 10);
	}
	if (st->fail[0])
		ck_abort_msg("%s", st->fail);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "%s: round %u (seed 0x%llx; SYSSHIM_STRESS_SEED=0x%llx reruns the run) "
		      "ended with status 0x%x (98: its watchdog fired, see stderr)", what, n,
		      (unsigned long long)round_seed, (unsigned long long)g_seed, status);
}

/* The counts of what this run did (those that are not 0). */
static void print_counts(const char *what)
{
	const struct { const char *name; unsigned long n; } c[] = {
		{ "ops", st->ops }, { "adds", st->adds }, { "flushes", st->flushes },
		{ "flushes through io_uring", st->uring_flushes }, { "forgets", st->forgets },
		{ "destroys", st->destroys }, { "reads", st->reads }, { "fills", st->fills },
		{ "counters filled to the maximum", st->full }, { "fds reused", st->reuses },
		{ "notifies", st->notifies }, { "of them from signal handlers", st->handler_notifies },
		{ "drains", st->drains }, { "wakeups", st->wakeups }, { "of them spurious", st->spurious },
		{ "items", st->items }, { "quiet checks for lost wakeups", st->quiet },
		{ "outcomes predicted and matched", st->predictions }, { "seccomp filters", st->filters },
		{ "refusing write", st->filter_kind[0] }, { "refusing io_uring_enter", st->filter_kind[1] },
		{ "refusing io_uring_setup", st->filter_kind[2] },
		{ "refusing membarrier", st->filter_kind[3] },
		{ "filters the library cannot read (no process_vm_readv, write refused)", st->filters_unread },
		{ "signals", st->signals },
		{ "writes interrupted (EINTR)", st->eintr },
		{ "blocked writes released by a reader in a handler", st->released },
		{ "forks", st->forks }, { "producer processes", st->producers_proc },
	};
	printf("evstress %s: %lu rounds", what, st->rounds);
	for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++)
		if (c[i].n)
			printf(", %s %lu", c[i].name, c[i].n);
	if (st->nb_flush_us)
		printf(", the longest non-blocking flush %.3f s (limit %.1f)", st->nb_flush_us / 1e6,
		       NB_LIMIT * g_scale);
	if (st->quiet_us)
		printf(", the longest wait for a wakeup %.3f s (limit %.1f)", st->quiet_us / 1e6,
		       WAKEUP_LIMIT * g_scale);
	printf("; seed 0x%llx\n", (unsigned long long)g_seed);
	fflush(stdout);
}

static void run_rounds(const char *what, round_fn fn, double share, double round_secs,
		       unsigned salt)
{
	/* A round of the model does its work in milliseconds: 10 s is a hang. A round in
	 * chaos runs round_secs, then its writers finish what is left (bounded at 20 s). */
	double end = now() + g_seconds * share;
	double limit = (round_secs < 1 ? 10 : 30 + 10 * round_secs) * g_scale;
	unsigned n = 0;

	st = mmap(0, sizeof *st, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(st, MAP_FAILED);
	memset(st, 0, sizeof *st);
	round_what = what;
	do {
		struct rng r = { g_seed ^ (uint64_t)salt << 56 ^ (uint64_t)n * 0x2545f4914f6cdd1dULL };
		round_seed = rnext(&r);
		r.s = round_seed;
		run_round(what, fn, &r, round_secs, limit, n);
		n++;
		st->rounds++;
	} while (now() < end);
	print_counts(what);
	munmap(st, sizeof *st);
}

/* ---------------------------------------------------------------- faults */

enum { F_WRITE = 1, F_ENTER = 2, F_SETUP = 4, F_MEMBARRIER = 8 };

/* A seccomp filter refusing the syscalls in mask with err, for this thread or (all)
 * every thread of the process. 0 installed, -1 not available here. */
static int refuse(unsigned mask, int err, int all)
{
	static const struct { unsigned bit; long nr; } map[] = {
		{ F_WRITE, SYS_write }, { F_ENTER, SYS_io_uring_enter },
		{ F_SETUP, SYS_io_uring_setup }, { F_MEMBARRIER, SYS_membarrier },
	};
	struct sock_filter f[16];
	int k = 0;

	if (!g_seccomp)
		return -1;
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (unsigned i = 0; i < 4; i++) {
		if (!(mask & map[i].bit))
			continue;
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, map[i].nr, 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err);
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = k, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, all ? SECCOMP_FILTER_FLAG_TSYNC : 0, &prog))
		return -1;
	ADD(filters, 1);
	for (unsigned i = 0; i < 4; i++)
		if (mask & map[i].bit)
			ADD(filter_kind[i], 1);
	return 0;
}

static const char *fault_names(unsigned mask)
{
	static char s[64];
	snprintf(s, sizeof s, "%s%s%s%s", mask & F_WRITE ? " write" : "",
		 mask & F_ENTER ? " io_uring_enter" : "", mask & F_SETUP ? " io_uring_setup" : "",
		 mask & F_MEMBARRIER ? " membarrier" : "");
	return s;
}

static volatile sig_atomic_t ticks;

static void on_tick(int sig)
{
	ticks++;
}

static void handle(int sig, void (*fn)(int), int restart)
{
	struct sigaction sa = { .sa_handler = fn, .sa_flags = restart ? SA_RESTART : 0 };
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, 0);
}

static long raw_read(int fd, uint64_t *v)
{
	*v = 0;
	long r = syscall(SYS_read, fd, v, 8);
	return r < 0 ? -errno : r;
}

static long raw_write(int fd, uint64_t v)
{
	long r = syscall(SYS_write, fd, &v, 8);
	return r < 0 ? -errno : r;
}

/* ---------------------------------------------------------------- the batch, modelled
 *
 * One batch, up to XFD eventfds of every kind, a random program of operations; before
 * each the model says what must come out: the return value and errno, every entry's
 * value and error, the write(2)s and io_uring writes issued, every counter. The batch's
 * way is forced (SYSSHIM_BATCH_PLAIN, _URING) or measured (0): a measured batch can go
 * either way, so its rounds refuse no write(2) (the one fault after which the two ways
 * differ) and its write counts are not predicted. */

#define XFD 8
#define XCAP 6

struct xfd {
	int fd, nb, sem;
	int pipe, rfd;		/* the number names a pipe now (its read end: rfd) */
	uint64_t cnt;		/* the kernel's counter; for a pipe, bytes in it */
};

struct xent {
	int fd, nb, err;
	uint64_t value;
};

struct xm {
	struct rng *r;
	struct xfd f[XFD];
	int nf;
	struct xent e[XCAP];
	int n, cap;
	unsigned flags;		/* the batch's way */
	int ring;		/* the batch has its ring (forced io_uring) */
	int uring;		/* the process may take io_uring */
	unsigned deny;		/* F_* refused by now */
	int deny_err, child;
	u128 applied, taken;	/* put into the eventfds, and read out, in all */
	struct sysshim_batch b;
	struct sysshim_batch_ent ent[XCAP];
	int closed_fd, pipe_fd;	/* a closed number; a pipe never added */
};

static struct xfd *xf(struct xm *m, int fd)
{
	for (int i = 0; i < m->nf; i++)
		if (m->f[i].fd == fd)
			return &m->f[i];
	return 0;
}

static int xfind(struct xm *m, int fd)
{
	for (int i = 0; i < m->n; i++)
		if (m->e[i].fd == fd)
			return i;
	return -1;
}

static void x_same(struct xm *m, const char *after)
{
	CHECK(m->b.n == (unsigned)m->n, "after %s: %u entries, the model has %d", after, m->b.n, m->n);
	for (int i = 0; i < m->n; i++)
		CHECK(m->b.ent[i].fd == m->e[i].fd && m->b.ent[i].value == m->e[i].value,
		      "after %s: entry %d is fd %d value %llu, the model has fd %d value %llu", after, i,
		      m->b.ent[i].fd, (unsigned long long)m->b.ent[i].value, m->e[i].fd,
		      (unsigned long long)m->e[i].value);
	ADD(predictions, 1 + m->n);
}

static void x_add(struct xm *m)
{
	struct rng *r = m->r;
	unsigned w = rbelow(r, 100);
	int fd = w < 86 ? m->f[rbelow(r, m->nf)].fd : w < 91 ? m->closed_fd : w < 96 ? m->pipe_fd : -1;
	struct xfd *f = xf(m, fd);
	uint64_t n;

	switch (rbelow(r, 10)) {
	case 0: case 1: case 2: case 3: n = 1 + rbelow(r, 3); break;
	case 4: case 5: n = 1 + rbelow(r, 1000); break;
	case 6: n = EFD_MAX - rbelow(r, 3); break;
	case 7: n = rpct(r, 50) ? ~0ULL : 0; break;
	default: n = rnext(r) >> rbelow(r, 64); break;
	}
	/* Semaphore counters stay small: the round reads them out one by one. */
	if (f && f->sem && n != ~0ULL)
		n %= 50;
	int i = xfind(m, fd), want = 0;
	if (n == ~0ULL)
		want = EINVAL;
	else if (i < 0 && (fd < 0 || fd == m->closed_fd))
		want = EBADF;
	else if (i < 0 && (fd == m->pipe_fd || (f && f->pipe)))
		want = EINVAL;
	else if (i < 0 && m->n == m->cap)
		want = ENOBUFS;
	else if (i >= 0 && m->e[i].value + n < m->e[i].value)
		want = EOVERFLOW;
	logop("add(fd %d, %llu): want %s", fd, (unsigned long long)n, want ? strerror(want) : "0");
	errno = 0;
	int got = sysshim_batch_add(&m->b, fd, n);
	CHECK(want ? got == -1 && errno == want : got == 0, "add(fd %d, %llu) = %d (%s), the model "
	      "says %s", fd, (unsigned long long)n, got, strerror(errno), want ? strerror(want) : "0");
	if (!want) {
		if (i < 0) {
			i = m->n++;
			m->e[i] = (struct xent){ .fd = fd, .nb = f->nb };
		}
		m->e[i].value += n;
	}
	ADD(adds, 1);
	x_same(m, "add");
}

/* The blocking write that the tick handler releases (a reader in a signal handler): it
 * reads that eventfd at its third tick, once. */
static volatile int rel_fd = -1, rel_done;
static volatile uint64_t rel_val;

static void on_release(int sig)
{
	uint64_t v;
	if (rel_done || ++ticks < 3)
		return;
	rel_done = 1;
	if (syscall(SYS_read, rel_fd, &v, 8) == 8)
		rel_val = v;
}

/* What the library does with each entry, in its order: the ring's writes first (each
 * eventfd once, so their order does not matter), then every entry left, plainly, in
 * index order (a sum over the maximum in two writes). A blocking write that would
 * block is interrupted (EINTR), or in release mode (SA_RESTART) completes after the
 * handler read its counter. */
struct xflush {
	struct xent e[XCAP];
	struct xfd f[XFD];
	unsigned long writes, uring_writes;
	u128 applied, taken;
	int blocked[XCAP], nblocked;
};

static void x_simulate(struct xm *m, struct xflush *p, int ring, int release_i)
{
	int tried[XCAP] = { 0 };

	memcpy(p->e, m->e, sizeof p->e);
	memcpy(p->f, m->f, sizeof p->f);
	p->writes = p->uring_writes = 0;
	p->applied = p->taken = 0;
	p->nblocked = 0;
	for (int i = 0; i < m->n; i++)
		if (p->e[i].value)
			p->e[i].err = 0;
	for (int i = 0; ring && i < m->n; i++) {
		struct xent *e = &p->e[i];
		struct xfd *f = &p->f[xf(m, e->fd) - m->f];
		if (!e->nb || !e->value || e->value > EFD_MAX)
			continue;
		tried[i] = 1;
		if ((u128)f->cnt + e->value <= EFD_MAX) {
			f->cnt += e->value;
			p->applied += e->value;
			e->value = 0;
			p->uring_writes++;
		} else {
			e->err = EAGAIN;
		}
	}
	for (int i = 0; i < m->n; i++) {
		struct xent *e = &p->e[i];
		struct xfd *f = &p->f[xf(m, e->fd) - m->f];
		while (e->value && !tried[i]) {
			uint64_t w = e->value > EFD_MAX ? EFD_MAX : e->value;
			p->writes++;
			if (m->deny & F_WRITE) {
				e->err = m->deny_err;
				break;
			}
			if (f->pipe) {
				f->cnt += 8;
			} else if ((u128)f->cnt + w <= EFD_MAX) {
				f->cnt += w;
				p->applied += w;
			} else if (f->nb) {
				e->err = EAGAIN;
				break;
			} else if (i == release_i) {
				p->taken += f->cnt;
				f->cnt = w;
				p->applied += w;
			} else {
				p->blocked[p->nblocked++] = i;
				e->err = EINTR;
				break;
			}
			e->value -= w;
		}
	}
}

/* The way the model expects the flush to take: io_uring (*RING) where it is forced, at
 * least two entries can take it and the faults leave it; *KNOWN 0 where the batch
 * decides by its measurements. */
static void x_way(struct xm *m, int *ring, int *known)
{
	int k = 0;

	*ring = 0;
	*known = 1;
	for (int i = 0; i < m->n; i++)
		k += m->e[i].nb && m->e[i].value && m->e[i].value <= EFD_MAX;
	if (k >= 2 && !(m->flags & SYSSHIM_BATCH_PLAIN) && m->uring) {
		if (!(m->flags & SYSSHIM_BATCH_URING)) {
			*known = 0;
		} else if (!m->ring && (m->deny & F_SETUP)) {
			m->uring = 0;
		} else if (m->deny & F_ENTER) {
			m->uring = 0;
			m->ring = 1;
		} else {
			*ring = m->ring = 1;
		}
	}
}

/* A timer's SIGUSR1 every 5 ms while the flush has a write that blocks: each tick
 * interrupts it (EINTR), or, with RELEASE_I, the handler reads that entry's counter. */
static timer_t x_arm(struct xm *m, int release_i)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its = { { 0, 5000000 }, { 0, 5000000 } };
	timer_t t = 0;

	ticks = 0;
	rel_done = 0;
	rel_val = 0;
	rel_fd = release_i >= 0 ? m->e[release_i].fd : -1;
	handle(SIGUSR1, release_i >= 0 ? on_release : on_tick, release_i >= 0);
	CHECK(!timer_create(CLOCK_MONOTONIC, &ev, &t) && !timer_settime(t, 0, &its, 0),
	      "timer_create: %s", strerror(errno));
	return t;
}

/* The flush's result, errno, every entry (value and error: an entry the flush did
 * not touch keeps its error ERR) and, where the way is KNOWN, its writes since W0, U0,
 * as the model P says. */
static void x_check(struct xm *m, const struct xflush *p, int got, int got_errno, const int *err,
		    int known, unsigned long w0, unsigned long u0)
{
	int want = 0;
	for (int i = 0; i < m->n && !want; i++)
		if (p->e[i].value)
			want = p->e[i].err;
	CHECK(want ? got == -1 && got_errno == want : got == 0, "flush = %d (%s), the model says %s",
	      got, strerror(got_errno), want ? strerror(want) : "0");
	for (int i = 0; i < m->n; i++) {
		int we = m->e[i].value ? p->e[i].err : err[i];
		CHECK(m->b.ent[i].value == p->e[i].value && m->b.ent[i].error == we,
		      "flush: entry %d (fd %d) has %llu left, error %d; the model says %llu, error %d",
		      i, m->b.ent[i].fd, (unsigned long long)m->b.ent[i].value, m->b.ent[i].error,
		      (unsigned long long)p->e[i].value, we);
	}
	if (known)
		CHECK(m->b.writes - w0 == p->writes && m->b.uring_writes - u0 == p->uring_writes,
		      "flush: %lu write(2)s and %lu io_uring writes; the model says %lu and %lu",
		      m->b.writes - w0, m->b.uring_writes - u0, p->writes, p->uring_writes);
}

static void x_flush(struct xm *m)
{
	struct xflush p;
	int ring, known, release_i = -1;

	x_way(m, &ring, &known);
	x_simulate(m, &p, ring, -1);
	/* One blocked write, of one counter that is no semaphore: released by a reader
	 * in the tick handler, half the time. */
	if (p.nblocked == 1 && rpct(m->r, 50)) {
		struct xent *e = &m->e[p.blocked[0]];
		if (e->value <= EFD_MAX && !xf(m, e->fd)->sem) {
			release_i = p.blocked[0];
			x_simulate(m, &p, ring, release_i);
		}
	}
	logop("flush: %d entries, %s%s, %d blocked%s", m->n, ring ? "io_uring" : known ? "plain" :
	      "measured", fault_names(m->deny), p.nblocked, release_i >= 0 ? ", one released" : "");

	timer_t t = 0;
	int armed = p.nblocked || release_i >= 0;
	if (armed)
		t = x_arm(m, release_i);
	unsigned long w0 = m->b.writes, u0 = m->b.uring_writes;
	int err[XCAP];
	for (int i = 0; i < m->n; i++)
		err[i] = m->b.ent[i].error;
	errno = 0;
	int got = sysshim_batch_flush(&m->b), got_errno = errno;
	if (armed) {
		timer_delete(t);
		handle(SIGUSR1, on_tick, 0);
		ADD(signals, ticks);
	}
	x_check(m, &p, got, got_errno, err, known, w0, u0);
	if (release_i >= 0) {
		CHECK(rel_done && rel_val == (uint64_t)p.taken, "the handler read %llu, the model "
		      "says %llu", (unsigned long long)rel_val, (unsigned long long)p.taken);
		ADD(released, 1);
	}
	ADD(eintr, p.nblocked);
	ADD(predictions, 2 + 2 * m->n + known);
	ADD(uring_flushes, ring);
	ADD(flushes, 1);
	memcpy(m->e, p.e, sizeof m->e);
	memcpy(m->f, p.f, sizeof m->f);
	m->applied += p.applied;
	m->taken += p.taken;
}

/* Reads one counter (or a pipe) out, as a consumer would. */
static void x_read(struct xm *m, struct xfd *f)
{
	uint64_t v;
	long r;

	if (f->pipe) {
		char buf[65536];
		r = f->cnt ? read(f->rfd, buf, f->cnt) : 0;
		CHECK(r == (long)f->cnt, "pipe read %ld bytes, the model says %llu", r,
		      (unsigned long long)f->cnt);
		f->cnt = 0;
		return;
	}
	if (!f->nb && !f->cnt)
		return;	/* it would block */
	r = raw_read(f->fd, &v);
	logop("read(fd %d): %ld %llu, model %llu", f->fd, r, (unsigned long long)v,
	      (unsigned long long)f->cnt);
	if (!f->cnt) {
		CHECK(r == -EAGAIN, "read of an empty counter: %ld", r);
	} else {
		uint64_t want = f->sem ? 1 : f->cnt;
		CHECK(r == 8 && v == want, "read(fd %d) = %ld, %llu; the model says %llu", f->fd, r,
		      (unsigned long long)v, (unsigned long long)want);
		f->cnt -= want;
		m->taken += want;
	}
	ADD(reads, 1);
	ADD(predictions, 1);
}

/* A producer of its own fills a counter to (nearly) its maximum. */
static void x_fill(struct xm *m)
{
	struct xfd *f = &m->f[rbelow(m->r, m->nf)];
	if (f->pipe || f->sem || f->cnt == EFD_MAX)
		return;
	uint64_t room = EFD_MAX - f->cnt, x = rpct(m->r, 60) ? room - rbelow(m->r, 2) :
		1 + rnext(m->r) % room;
	if (!x)
		return;
	long r = raw_write(f->fd, x);
	logop("fill(fd %d, %llu) = %ld", f->fd, (unsigned long long)x, r);
	if (m->deny & F_WRITE) {
		CHECK(r == -m->deny_err, "a refused write(2) gave %ld", r);
		return;
	}
	CHECK(r == 8, "fill: write(2) = %ld", r);
	f->cnt += x;
	m->applied += x;
	ADD(fills, 1);
	ADD(full, f->cnt == EFD_MAX);
}

static void x_forget(struct xm *m)
{
	int fd = m->f[rbelow(m->r, m->nf)].fd, i = xfind(m, fd);
	errno = 0;
	int got = sysshim_batch_forget(&m->b, fd), e = errno;
	logop("forget(fd %d): %d", fd, got);
	CHECK(i < 0 ? got == -1 && e == ENOENT : got == 0, "forget(fd %d) = %d (%s)", fd, got,
	      strerror(e));
	if (i >= 0) {
		memmove(&m->e[i], &m->e[i + 1], (m->n - i - 1) * sizeof m->e[0]);
		m->n--;
	}
	ADD(forgets, 1);
	x_same(m, "forget");
}

/* Closes an eventfd and gives its number to another object of the same kind (or, for
 * plain batches, a pipe): the batch writes to whatever the number names now. */
static void x_reuse(struct xm *m)
{
	struct xfd *f = &m->f[rbelow(m->r, m->nf)];
	int nfd, p[2];

	/* (A fork child's descriptors are its own: it reuses none.) */
	if (f->pipe || f->sem || m->child)
		return;
	if (f->cnt)
		x_read(m, f);
	if (m->flags == SYSSHIM_BATCH_PLAIN && rpct(m->r, 50)) {
		CHECK(!pipe2(p, f->nb ? O_NONBLOCK : 0), "pipe2: %s", strerror(errno));
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		nfd = p[1];
		f->pipe = 1;
		f->rfd = p[0];
		f->cnt = 0;
	} else {
		unsigned init = rbelow(m->r, 100);
		nfd = eventfd(init, (f->nb ? NB_FLAG : 0) | EFD_CLOEXEC);
		CHECK(nfd >= 0, "eventfd: %s", strerror(errno));
		f->cnt = init;
		m->applied += init;
	}
	CHECK(dup2(nfd, f->fd) == f->fd, "dup2: %s", strerror(errno));
	close(nfd);
	logop("reuse(fd %d) as a %s", f->fd, f->pipe ? "pipe" : "new eventfd");
	ADD(reuses, 1);
}

static void x_ops(struct xm *m, int nops, int fork_at, int filter_at);

/* A fork child goes on with its copy of the batch (and a ring of its own) for a few
 * operations; the counters it changed come back through shared memory. */
struct xback {
	uint64_t cnt[XFD];
	u128 applied, taken;
};

static void x_fork(struct xm *m)
{
	struct xback *back = mmap(0, sizeof *back, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(back != MAP_FAILED, "mmap");
	logop("fork");
	pid_t pid = fork();
	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		m->child = 1;
		m->ring = 0;
		m->applied = m->taken = 0;
		x_ops(m, 5 + rbelow(m->r, 20), -1, rpct(m->r, 30) ? 0 : -1);
		for (int i = 0; i < m->nf; i++)
			back->cnt[i] = m->f[i].cnt;
		back->applied = m->applied;
		back->taken = m->taken;
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the fork child failed (status 0x%x)",
	      status);
	for (int i = 0; i < m->nf; i++)
		m->f[i].cnt = back->cnt[i];
	m->applied += back->applied;
	m->taken += back->taken;
	munmap(back, sizeof *back);
	/* The child's random choices are not the parent's: move the stream on. */
	rnext(m->r);
	ADD(forks, 1);
}

static void x_filter(struct xm *m)
{
	unsigned mask = 0;
	while (!mask) {
		mask |= rpct(m->r, 40) ? F_ENTER : 0;
		mask |= rpct(m->r, 30) ? F_SETUP : 0;
		mask |= rpct(m->r, 20) ? F_MEMBARRIER : 0;
		mask |= m->flags && rpct(m->r, 40) ? F_WRITE : 0;
	}
	if (!m->deny_err)
		m->deny_err = rpct(m->r, 50) ? EPERM : ENOSYS;
	/* Where the kernel has no process_vm_readv the library copies a filter through a pipe,
	 * and a filter in force that refuses write(2) (a fork child's, inherited) leaves it
	 * none: this one is taken for one it cannot read, which may stop anything: no ring. */
	int unread = g_pipe_copy && (m->deny & F_WRITE);
	logop("filter:%s refused (%s)%s", fault_names(mask), strerror(m->deny_err),
	      unread ? ", unread (no process_vm_readv, write refused)" : "");
	if (!refuse(mask, m->deny_err, 0)) {
		m->deny |= mask;
		struct sysshim_interposers c;
		sysshim_interposers(&c);
		CHECK(unread ? c.sandbox == SYSSHIM_SANDBOX_UNREAD : c.sandbox == SYSSHIM_SANDBOX_READ,
		      "the library takes the filter for %s, the model for %s",
		      c.sandbox == SYSSHIM_SANDBOX_UNREAD ? "one it cannot read" : "one it read",
		      unread ? "one it cannot read" : "one it read");
		if (unread) {
			m->uring = 0;
			ADD(filters_unread, 1);
		}
	}
}

static void x_ops(struct xm *m, int nops, int fork_at, int filter_at)
{
	for (int op = 0; op < nops; op++) {
		unsigned w = rbelow(m->r, 100);
		if (op == fork_at)
			x_fork(m);
		if (op == filter_at)
			x_filter(m);
		if (w < 44) {
			x_add(m);
		} else if (w < 70) {
			x_flush(m);
		} else if (w < 80) {
			x_read(m, &m->f[rbelow(m->r, m->nf)]);
		} else if (w < 87) {
			x_fill(m);
		} else if (w < 92) {
			x_forget(m);
		} else if (w < 94) {
			logop("destroy");
			sysshim_batch_destroy(&m->b);
			CHECK(m->b.n == 0, "destroy left %u entries", m->b.n);
			m->n = 0;
			m->ring = 0;
			ADD(destroys, 1);
		} else if (w < 97) {
			x_reuse(m);
		} else {
			x_read(m, &m->f[rbelow(m->r, m->nf)]);
		}
		ADD(ops, 1);
	}
}

static void batch_model_round(struct rng *r, double secs)
{
	static struct xm m;
	int p[2];

	memset(&m, 0, sizeof m);
	m.r = r;
	m.uring = g_uring;
	m.flags = (unsigned[]){ SYSSHIM_BATCH_PLAIN, SYSSHIM_BATCH_URING, SYSSHIM_BATCH_URING, 0 }[rbelow(r, 4)];
	m.nf = 2 + rbelow(r, XFD - 1);
	for (int i = 0; i < m.nf; i++) {
		struct xfd *f = &m.f[i];
		f->nb = rpct(r, 70);
		f->sem = rpct(r, 20);
		unsigned init = rbelow(r, 4) ? rbelow(r, 10) : 0;
		f->fd = eventfd(init, (f->nb ? NB_FLAG : 0) | (f->sem ? SEM_FLAG : 0) | EFD_CLOEXEC);
		CHECK(f->fd >= 0, "eventfd: %s", strerror(errno));
		f->cnt = init;
		m.applied += init;
		if (!f->sem && rpct(r, 30)) {
			uint64_t x = EFD_MAX - init - rbelow(r, 3);
			CHECK(raw_write(f->fd, x) == 8, "write");
			f->cnt += x;
			m.applied += x;
			ADD(full, f->cnt == EFD_MAX);
		}
	}
	m.closed_fd = 1000 + rbelow(r, 24);	/* above every fd a round opens */
	CHECK(!pipe2(p, O_CLOEXEC), "pipe2");
	m.pipe_fd = p[1];
	m.cap = 2 + rbelow(r, XCAP - 1);
	CHECK(!sysshim_batch_init(&m.b, m.ent, m.cap), "init");
	m.b.flags = m.flags;
	int nops = 40 + rbelow(r, (unsigned)(120 / g_scale) + 1);
	x_ops(&m, nops, rpct(r, 25) ? (int)rbelow(r, nops) : -1,
	      rpct(r, 55) ? (int)rbelow(r, nops) : -1);
	/* Every counter read out to the end: equal to the model's, and all that was put in
	 * was read out once. */
	for (int i = 0; i < m.nf; i++) {
		struct xfd *f = &m.f[i];
		fcntl(f->fd, F_SETFL, O_NONBLOCK);
		f->nb = 1;
		for (int k = 0; f->cnt && k < 100000; k++)
			x_read(&m, f);
		if (!f->pipe)
			x_read(&m, f);	/* now empty: EAGAIN */
	}
	CHECK(m.applied == m.taken, "the eventfds got %.0f in all, %.0f was read out",
	      (double)m.applied, (double)m.taken);
	sysshim_batch_destroy(&m.b);
}

START_TEST(batch_model)
{
	run_rounds("batch_model", batch_model_round, 0.25, 0.05, 1);
}
END_TEST

/* ---------------------------------------------------------------- the batch, in chaos
 *
 * Writer threads, each with a batch of its own (its way chosen at random) over shared
 * eventfds; reader threads, each reading its own eventfds, that pause now and then (a
 * few for longer than a non-blocking flush may take); a thread sending signals to both;
 * sometimes a seccomp filter for every thread, mid-run; writers that fork a child which
 * goes on with its copy. What each process applied (the values its flushes took off
 * the entries, and its own fills) and what the readers read are summed per eventfd in
 * shared memory: at the end they must be equal. */

#define CFD 8
#define CW 4
#define CR 3

struct cshared {
	pthread_mutex_t mu;
	u128 applied[CFD], taken[CFD];
	volatile int stop_writers, stop_readers;
	volatile unsigned deny;
	volatile int deny_err;
};

struct cround;

struct cthread {
	struct cround *c;
	struct rng r;
	pthread_t t;
	volatile pid_t tid;
	int idx;
};

struct cround {
	int fd[CFD], nb[CFD], sem[CFD], nf;
	struct cshared *sh;
	struct cthread w[CW], rd[CR], sig;
	int nw, nr;
	double nb_limit, pause_long;
};

static int c_index(struct cround *c, int fd)
{
	for (int i = 0; i < c->nf; i++)
		if (c->fd[i] == fd)
			return i;
	return -1;
}

static void c_account(struct cround *c, int i, uint64_t applied, uint64_t taken)
{
	pthread_mutex_lock(&c->sh->mu);
	c->sh->applied[i] += applied;
	c->sh->taken[i] += taken;
	pthread_mutex_unlock(&c->sh->mu);
}

/* One flush, checked: entries only ever go down, what went is accounted, the result
 * and errno name the first entry left, every error is one the faults explain, and a
 * flush with only non-blocking eventfds to write returns at once. Returns how many
 * entries have something left. */
static unsigned c_flush(struct cround *c, struct sysshim_batch *b)
{
	uint64_t before[CFD];
	unsigned n = b->n, left = 0;
	int nb_only = 1;

	for (unsigned i = 0; i < n; i++) {
		before[i] = b->ent[i].value;
		if (before[i] && !c->nb[c_index(c, b->ent[i].fd)])
			nb_only = 0;
	}
	unsigned long u0 = b->uring_writes;
	double t0 = now();
	errno = 0;
	int r = sysshim_batch_flush(b), e = errno;
	double dt = now() - t0;
	ADD(uring_flushes, b->uring_writes != u0);
	CHECK(b->n == n, "flush changed the number of entries: %u -> %u", n, b->n);
	int first = 0;
	for (unsigned i = 0; i < n; i++) {
		struct sysshim_batch_ent *x = &b->ent[i];
		CHECK(x->value <= before[i], "flush: fd %d went up from %llu to %llu", x->fd,
		      (unsigned long long)before[i], (unsigned long long)x->value);
		if (before[i] != x->value)
			c_account(c, c_index(c, x->fd), before[i] - x->value, 0);
		if (!x->value)
			continue;
		left++;
		int ok = x->error == EAGAIN || x->error == EINTR ||
			 (c->sh->deny_err && x->error == c->sh->deny_err);
		CHECK(ok, "flush: fd %d kept %llu with error %d (%s)", x->fd,
		      (unsigned long long)x->value, x->error, strerror(x->error));
		if (!first)
			first = x->error;
	}
	CHECK(left ? r == -1 && e == first : r == 0, "flush = %d, errno %d; entries left %u, the "
	      "first with error %d", r, e, left, first);
	if (nb_only)
		longest(&st->nb_flush_us, dt);
	CHECK(!nb_only || dt < c->nb_limit, "a flush of non-blocking eventfds took %.2f s (it must "
	      "not wait)", dt);
	ADD(flushes, 1);
	ADD(predictions, 2 + n);
	return left;
}

static uint64_t c_amount(struct rng *r, int sem)
{
	if (sem)
		return 1 + rbelow(r, 4);
	switch (rbelow(r, 10)) {
	case 0: return EFD_MAX / 2 + rbelow(r, 1000);
	case 1: return 1 + rbelow(r, 1000000);
	default: return 1 + rbelow(r, 10);
	}
}

/* Another writer fills eventfd i near the maximum (a writer thread: any of the round's;
 * in the round's setup: the one just made, empty, so that the write cannot block: there
 * is no reader yet). */
static void c_fill_one(struct cround *c, struct rng *r, int i)
{
	if (c->sem[i])
		return;
	uint64_t x = EFD_MAX - rbelow(r, 1000);
	if (raw_write(c->fd[i], x) == 8) {
		c_account(c, i, x, 0);
		ADD(fills, 1);
		ADD(full, 1);
	}
}

static void c_fill(struct cround *c, struct rng *r)
{
	c_fill_one(c, r, rbelow(r, c->nf));
}

/* What is left after the run, written out: EAGAIN and EINTR pass as readers read and
 * signals stop; a refused write(2) does not. */
static void c_finish(struct cround *c, struct sysshim_batch *b)
{
	double end = now() + 20 * g_scale;
	for (;;) {
		unsigned left = c_flush(c, b), stuck = 0;
		if (!left)
			break;
		for (unsigned i = 0; i < b->n; i++)
			stuck += b->ent[i].value && c->sh->deny_err && b->ent[i].error == c->sh->deny_err;
		if (stuck == left)
			break;
		CHECK(now() < end, "%u entries still not applied after 20 s of flushes", left);
		usleep(500);
	}
}

/* A fork child goes on with its copy of the batch: a few adds and flushes of its own. */
static void c_child(struct cround *c, struct sysshim_batch *b, struct rng *r)
{
	for (int k = 0; k < 20; k++) {
		int i = rbelow(r, c->nf);
		sysshim_batch_add(b, c->fd[i], c_amount(r, c->sem[i]));
		if (rpct(r, 40))
			c_flush(c, b);
	}
	c_finish(c, b);
	sysshim_batch_destroy(b);
	_exit(0);
}

static void *c_writer(void *arg)
{
	struct cthread *me = arg;
	struct cround *c = me->c;
	struct rng *r = &me->r;
	struct sysshim_batch b;
	struct sysshim_batch_ent ent[CFD];
	pid_t kids[2];
	int nkids = 0;

	me->tid = (pid_t)syscall(SYS_gettid);
	sysshim_batch_init(&b, ent, CFD);
	b.flags = (unsigned[]){ 0, 0, SYSSHIM_BATCH_PLAIN, SYSSHIM_BATCH_URING }[rbelow(r, 4)];
	while (!c->sh->stop_writers) {
		unsigned w = rbelow(r, 100);
		int i = rbelow(r, c->nf);
		if (w < 50) {
			sysshim_batch_add(&b, c->fd[i], c_amount(r, c->sem[i]));
			ADD(adds, 1);
		} else if (w < 82) {
			c_flush(c, &b);
		} else if (w < 86) {
			sysshim_batch_forget(&b, c->fd[i]);
			ADD(forgets, 1);
		} else if (w < 87) {
			sysshim_batch_destroy(&b);
			ADD(destroys, 1);
		} else if (w < 91) {
			c_fill(c, r);
		} else if (w < 92 && nkids < 2 && g_thread_fork) {
			pid_t pid = fork();
			CHECK(pid >= 0, "fork: %s", strerror(errno));
			if (pid == 0)
				c_child(c, &b, r);
			kids[nkids++] = pid;
			ADD(forks, 1);
		} else {
			sched_yield();
		}
		ADD(ops, 1);
	}
	c_finish(c, &b);
	sysshim_batch_destroy(&b);
	for (int k = 0; k < nkids; k++) {
		int status;
		while (waitpid(kids[k], &status, 0) < 0 && errno == EINTR)
			;
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a writer's fork child failed "
		      "(status 0x%x)", status);
	}
	return 0;
}

static void *c_reader(void *arg)
{
	struct cthread *me = arg;
	struct cround *c = me->c;
	struct rng *r = &me->r;
	struct pollfd p[CFD];
	int idx[CFD], n = 0;

	me->tid = (pid_t)syscall(SYS_gettid);
	for (int i = me->idx; i < c->nf; i += c->nr) {
		p[n] = (struct pollfd){ .fd = c->fd[i], .events = POLLIN };
		idx[n++] = i;
	}
	while (!c->sh->stop_readers) {
		unsigned w = rbelow(r, 1000);
		if (w < 8)
			usleep((useconds_t)(c->pause_long * 1e6));	/* longer than a flush may wait */
		else if (w < 100)
			usleep(rbelow(r, 20000));
		if (poll(p, n, 10) <= 0)
			continue;
		for (int k = 0; k < n; k++) {
			uint64_t v;
			if (!(p[k].revents & POLLIN) || raw_read(p[k].fd, &v) != 8)
				continue;
			c_account(c, idx[k], 0, v);
			ADD(reads, 1);
		}
	}
	return 0;
}

static void on_sig(int sig)
{
}

static void *c_signaller(void *arg)
{
	struct cthread *me = arg;
	struct cround *c = me->c;
	struct rng *r = &me->r;

	while (!c->sh->stop_readers) {
		usleep(200 + rbelow(r, 3000));
		struct cthread *t = rpct(r, 60) ? &c->w[rbelow(r, c->nw)] : &c->rd[rbelow(r, c->nr)];
		if (t->tid && !syscall(SYS_tgkill, getpid(), t->tid, SIGUSR1))
			ADD(signals, 1);
	}
	return 0;
}

/* The round's shared page and its eventfds: non-blocking or not, semaphores or
 * not, some filled to the maximum before anyone starts. */
static void cb_setup(struct cround *c, struct rng *r)
{
	pthread_mutexattr_t ma;

	memset(c, 0, sizeof *c);
	c->sh = mmap(0, sizeof *c->sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(c->sh != MAP_FAILED, "mmap");
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&c->sh->mu, &ma);
	/* A flush may be descheduled on a loaded machine for a while (docs/eventfd.md, "The
	 * stress and fault harness", has the longest seen): the limit is NB_LIMIT, and the
	 * readers' long pause, which a waiting flush would have to sit out, is longer (both
	 * scaled). */
	c->nb_limit = NB_LIMIT * g_scale;
	c->pause_long = PAUSE_LONG * g_scale;
	c->nf = 3 + rbelow(r, CFD - 2);
	for (int i = 0; i < c->nf; i++) {
		c->nb[i] = rpct(r, 70);
		c->sem[i] = rpct(r, 20);
		c->fd[i] = eventfd(0, (c->nb[i] ? NB_FLAG : 0) | (c->sem[i] ? SEM_FLAG : 0) | EFD_CLOEXEC);
		CHECK(c->fd[i] >= 0, "eventfd: %s", strerror(errno));
		/* This one only: a blocking eventfd filled twice before the readers start
		 * blocks the round for good, and one not made yet is fd 0. */
		if (!c->sem[i] && rpct(r, 30)) {
			logop("fd %d (%s) filled", c->fd[i], c->nb[i] ? "non-blocking" : "blocking");
			c_fill_one(c, r, i);
		}
	}
}

/* Readers, writers and the signaller. */
static void cb_start(struct cround *c, struct rng *r)
{
	handle(SIGUSR1, on_sig, 0);
	c->nw = 1 + rbelow(r, CW);
	c->nr = 1 + rbelow(r, CR);
	for (int i = 0; i < c->nr; i++) {
		c->rd[i] = (struct cthread){ .c = c, .r = { rnext(r) }, .idx = i };
		pthread_create(&c->rd[i].t, 0, c_reader, &c->rd[i]);
	}
	for (int i = 0; i < c->nw; i++) {
		c->w[i] = (struct cthread){ .c = c, .r = { rnext(r) }, .idx = i };
		pthread_create(&c->w[i].t, 0, c_writer, &c->w[i]);
	}
	c->sig = (struct cthread){ .c = c, .r = { rnext(r) } };
	pthread_create(&c->sig.t, 0, c_signaller, &c->sig);
}

/* SECS of it, half the rounds with a filter for every thread at a random moment:
 * write(2), io_uring_enter, io_uring_setup, membarrier refused. */
static void cb_run(struct cround *c, struct rng *r, double secs)
{
	double t0 = now(), tf = rpct(r, 50) ? t0 + secs * rbelow(r, 100) / 100.0 : 0;
	unsigned mask = 0;
	if (tf) {
		while (!mask) {
			mask |= rpct(r, 30) ? F_WRITE : 0;
			mask |= rpct(r, 40) ? F_ENTER : 0;
			mask |= rpct(r, 30) ? F_SETUP : 0;
			mask |= rpct(r, 20) ? F_MEMBARRIER : 0;
		}
	}
	int err = rpct(r, 50) ? EPERM : ENOSYS;
	while (now() < t0 + secs) {
		if (tf && now() >= tf) {
			logop("filter for every thread:%s refused (%s)", fault_names(mask), strerror(err));
			c->sh->deny_err = err;
			c->sh->deny = mask;
			if (refuse(mask, err, 1))
				c->sh->deny_err = 0, c->sh->deny = 0;
			tf = 0;
		}
		usleep(5000);
	}
}

/* The writers stop, then the readers; what is left in each counter is read out, and
 * every eventfd gave its readers exactly what was applied to it. */
static void cb_finish(struct cround *c)
{
	logop("%d writers stop, %d readers go on", c->nw, c->nr);
	c->sh->stop_writers = 1;
	for (int i = 0; i < c->nw; i++) {
		pthread_join(c->w[i].t, 0);
		logop("writer %d has finished", i);
	}
	c->sh->stop_readers = 1;
	for (int i = 0; i < c->nr; i++)
		pthread_join(c->rd[i].t, 0);
	pthread_join(c->sig.t, 0);
	for (int i = 0; i < c->nf; i++) {
		uint64_t v;
		fcntl(c->fd[i], F_SETFL, O_NONBLOCK);
		while (raw_read(c->fd[i], &v) == 8)
			c_account(c, i, 0, v);
		CHECK(c->sh->applied[i] == c->sh->taken[i], "eventfd %d (%s%s): %.0f applied, %.0f read",
		      i, c->nb[i] ? "non-blocking" : "blocking", c->sem[i] ? ", semaphore" : "",
		      (double)c->sh->applied[i], (double)c->sh->taken[i]);
		ADD(predictions, 1);
	}
}

static void batch_chaos_round(struct rng *r, double secs)
{
	static struct cround c;

	cb_setup(&c, r);
	cb_start(&c, r);
	cb_run(&c, r, secs);
	cb_finish(&c);
}

START_TEST(batch_chaos)
{
	run_rounds("batch_chaos", batch_chaos_round, 0.30, 2.0, 2);
}
END_TEST

/* ---------------------------------------------------------------- the notifier, modelled
 *
 * notify and drain, one at a time, against a model of the flag and the counter; faults
 * (write(2) or membarrier refused) arrive mid-round; notifies also come from a signal
 * handler and from a fork child (the notifier lives in shared memory); after destroy
 * every call says EBADF. The model names every return value, count and errno. */

static int g_asym;	/* a notifier without FENCE chose membarrier in this process */

struct nm {
	struct rng *r;
	struct sysshim_notifier *n;
	int set;		/* the flag: a wakeup is pending */
	uint64_t cnt;		/* writes in the eventfd */
	int asym, destroyed, deny_err;
	unsigned deny;
};

static struct sysshim_notifier *volatile h_n;
static volatile int h_ret, h_errno;

static void on_notify_signal(int sig)
{
	int e = errno;
	h_ret = sysshim_notify(h_n);
	h_errno = errno;
	errno = e;
}

static void n_notify(struct nm *m, int from_handler)
{
	int want = m->destroyed ? EBADF : m->set ? 0 : (m->deny & F_WRITE) ? m->deny_err : 0;
	int want_ret = m->destroyed || (!m->set && (m->deny & F_WRITE)) ? -1 : m->set ? 0 : 1;
	int got, e;

	errno = 0;
	if (from_handler) {
		h_n = m->n;
		raise(SIGUSR2);
		got = h_ret;
		e = h_errno;
		ADD(handler_notifies, 1);
	} else {
		got = sysshim_notify(m->n);
		e = errno;
	}
	logop("notify%s: %d (%s), model %d", from_handler ? " in a handler" : "", got, strerror(e),
	      want_ret);
	CHECK(got == want_ret && (want_ret >= 0 || e == want), "notify%s = %d (%s); the model says "
	      "%d (%s)", from_handler ? " (signal handler)" : "", got, strerror(e), want_ret,
	      strerror(want));
	if (want_ret == 1) {
		m->set = 1;
		m->cnt++;
	}
	ADD(notifies, 1);
	ADD(predictions, 1);
}

static void n_drain(struct nm *m)
{
	uint64_t c = ~0ULL;
	errno = 0;
	int got = sysshim_notifier_drain(m->n, &c), e = errno;
	logop("drain: %d (%s) count %llu, model %llu", got, strerror(e), (unsigned long long)c,
	      (unsigned long long)m->cnt);
	if (m->destroyed) {
		CHECK(got == -1 && e == EBADF, "drain after destroy = %d (%s)", got, strerror(e));
		return;
	}
	CHECK(got == (m->cnt != 0) && c == m->cnt, "drain = %d, count %llu; the model says %d, %llu",
	      got, (unsigned long long)c, m->cnt != 0, (unsigned long long)m->cnt);
	m->cnt = 0;
	m->set = 0;
	if (m->asym && (m->deny & F_MEMBARRIER)) {
		/* The fallback: fences from now on, and a wakeup of its own, if it can. */
		m->asym = 0;
		if (!(m->deny & F_WRITE)) {
			m->set = 1;
			m->cnt = 1;
		}
	}
	ADD(drains, 1);
	ADD(predictions, 2);
}

/* A filter of this thread refuses write(2), membarrier or both, from now on. */
static void nm_filter(struct nm *m, struct rng *r)
{
	unsigned mask = 0;
	while (!mask)
		mask = (rpct(r, 50) ? F_WRITE : 0) | (rpct(r, 60) ? F_MEMBARRIER : 0);
	logop("filter:%s refused", fault_names(mask));
	if (!refuse(mask, m->deny_err, 0))
		m->deny |= mask;
}

/* A fork child notifies 1 - 4 times (the model goes with it and comes back). */
static void nm_fork(struct nm *m, struct rng *r)
{
	struct nm *back = mmap(0, sizeof *back, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		for (int k = 1 + rbelow(r, 4); k > 0; k--)
			n_notify(m, rpct(r, 30));
		*back = *m;
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && !WEXITSTATUS(status), "the fork child failed");
	m->set = back->set;
	m->cnt = back->cnt;
	munmap(back, sizeof *back);
	rnext(r);
	ADD(forks, 1);
}

/* Destroyed once; the fd and a second destroy say EBADF. */
static void nm_destroy(struct nm *m)
{
	logop("destroy");
	CHECK(!sysshim_notifier_destroy(m->n), "destroy: %s", strerror(errno));
	m->destroyed = 1;
	errno = 0;
	CHECK(sysshim_notifier_fd(m->n) == -1 && errno == EBADF, "fd after destroy");
	CHECK(sysshim_notifier_destroy(m->n) == -1 && errno == EBADF, "destroy twice");
}

static void notifier_model_round(struct rng *r, double secs)
{
	struct nm m = { .r = r };
	int flags = NB_FLAG | (rpct(r, 50) ? SYSSHIM_NOTIFIER_FENCE : 0) | (rpct(r, 50) ? EFD_CLOEXEC : 0);

	m.n = mmap(0, sizeof *m.n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(m.n != MAP_FAILED, "mmap");
	CHECK(!sysshim_notifier_init(m.n, flags), "init: %s", strerror(errno));
	m.asym = !(flags & SYSSHIM_NOTIFIER_FENCE) && g_asym;
	handle(SIGUSR2, on_notify_signal, 1);
	int nops = 30 + rbelow(r, 60), filter_at = rpct(r, 70) ? (int)rbelow(r, nops) : -1;
	int fork_at = rpct(r, 30) ? (int)rbelow(r, nops) : -1;
	int destroy_at = rpct(r, 15) ? nops - 1 - (int)rbelow(r, 5) : -1;
	m.deny_err = rpct(r, 50) ? EPERM : ENOSYS;
	for (int op = 0; op < nops; op++) {
		unsigned w = rbelow(r, 100);
		if (op == filter_at)
			nm_filter(&m, r);
		if (op == fork_at && !m.destroyed)
			nm_fork(&m, r);
		if (op == destroy_at)
			nm_destroy(&m);
		if (w < 55)
			n_notify(&m, 0);
		else if (w < 70)
			n_notify(&m, 1);
		else
			n_drain(&m);
		ADD(ops, 1);
	}
	if (!m.destroyed) {
		CHECK(sysshim_notifier_fd(m.n) == m.n->fd, "notifier_fd");
		n_drain(&m);
		sysshim_notifier_destroy(m.n);
	}
}

START_TEST(notifier_model)
{
	run_rounds("notifier_model", notifier_model_round, 0.15, 0.05, 3);
}
END_TEST

/* ---------------------------------------------------------------- the notifier, in chaos
 *
 * Producers publish an item (a shared counter), then notify; they are threads, signal
 * handlers in those threads, and with SYSSHIM_NOTIFIER_FENCE other processes too. One
 * consumer (a thread, or with FENCE another process) waits in epoll (level or edge
 * triggered), in poll or in a blocking drain, then takes every item. A wakeup is lost
 * when items wait, no notify is under way, the eventfd is not readable, and the
 * consumer waits: caught by the consumer's own timeout, or (blocking drains) by a
 * watcher. At the end every item was taken, and the drains counted exactly the writes
 * the notifies reported (plus the one wakeup a drain writes itself when membarrier is
 * refused after the notifier chose it). */

#define NP 4

struct nshared {
	struct sysshim_notifier n;
	long pending, published, taken, in_notify, ones, drained, wakeups, spurious;
	long drain_calls, in_drain, parked, quiet;
	int stop, hold, write_denied, deny_err, way;
	pid_t consumer_tid;
	double timeout;
};

static struct nshared *ns;

/* Producers park on ns->hold (a futex: the shared page is the same word in a forked
 * producer) until n_quiet() lets them go, or the run stops. */
static void n_park(void)
{
	while (__atomic_load_n(&ns->hold, __ATOMIC_SEQ_CST) &&
	       !__atomic_load_n(&ns->stop, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &ns->hold, FUTEX_WAIT, 1, NULL, NULL, 0);
}

static void n_unpark(int *word, int v)
{
	__atomic_store_n(word, v, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &ns->hold, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void n_publish(void)
{
	__atomic_add_fetch(&ns->in_notify, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&ns->pending, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&ns->published, 1, __ATOMIC_SEQ_CST);
	int r = sysshim_notify(&ns->n), e = errno;
	if (r == 1)
		__atomic_add_fetch(&ns->ones, 1, __ATOMIC_SEQ_CST);
	else if (r < 0 && !(__atomic_load_n(&ns->write_denied, __ATOMIC_SEQ_CST) && e == ns->deny_err))
		die("notify = %d (%s) with no write refused", r, strerror(e));
	__atomic_sub_fetch(&ns->in_notify, 1, __ATOMIC_SEQ_CST);
	ADD(notifies, 1);
	ADD(items, 1);
}

static void on_publish_signal(int sig)
{
	int e = errno;
	n_publish();
	ADD(handler_notifies, 1);
	errno = e;
}

static void *n_producer(void *arg)
{
	struct cthread *me = arg;
	me->tid = (pid_t)syscall(SYS_gettid);
	while (!__atomic_load_n(&ns->stop, __ATOMIC_SEQ_CST)) {
		if (__atomic_load_n(&ns->hold, __ATOMIC_SEQ_CST)) {
			__atomic_add_fetch(&ns->parked, 1, __ATOMIC_SEQ_CST);
			n_park();
			__atomic_sub_fetch(&ns->parked, 1, __ATOMIC_SEQ_CST);
			continue;
		}
		n_publish();
		unsigned w = rbelow(&me->r, 100);
		if (w < 10)
			usleep(rbelow(&me->r, 300));
		else if (w < 40)
			sched_yield();
	}
	return 0;
}

/* The wakeup is lost if items wait, nobody is notifying, and the eventfd has nothing. */
static void n_lost_check(const char *where)
{
	long p = __atomic_load_n(&ns->pending, __ATOMIC_SEQ_CST);
	long i = __atomic_load_n(&ns->in_notify, __ATOMIC_SEQ_CST);
	struct pollfd pf = { .fd = ns->n.fd, .events = POLLIN };
	if (p > 0 && i == 0 && !__atomic_load_n(&ns->write_denied, __ATOMIC_SEQ_CST) &&
	    poll(&pf, 1, 0) == 0)
		die("a lost wakeup (%s): %ld items wait, no notify is under way, the eventfd is "
		     "not readable", where, p);
}

static void n_drain_once(void)
{
	uint64_t c = 0;
	__atomic_add_fetch(&ns->drain_calls, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&ns->in_drain, 1, __ATOMIC_SEQ_CST);
	int r = sysshim_notifier_drain(&ns->n, &c), e = errno;
	__atomic_store_n(&ns->in_drain, 0, __ATOMIC_SEQ_CST);
	if (r < 0) {
		CHECK(e == EINTR, "drain = -1 (%s)", strerror(e));
		return;
	}
	__atomic_add_fetch(&ns->drained, (long)c, __ATOMIC_SEQ_CST);
	ADD(drains, 1);
	/* Now look for work: take every item. */
	long got = __atomic_exchange_n(&ns->pending, 0, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&ns->taken, got, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&ns->wakeups, 1, __ATOMIC_SEQ_CST);
	if (!got)
		__atomic_add_fetch(&ns->spurious, 1, __ATOMIC_SEQ_CST);
}

/* The consumer: way 0 level-triggered epoll, 1 edge-triggered epoll, 2 poll, 3 a
 * blocking drain (a blocking notifier). */
static void *n_consumer(void *arg)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), way = ns->way, ms = (int)(ns->timeout * 1000);
	struct epoll_event ev = { .events = EPOLLIN | (way == 1 ? EPOLLET : 0) };

	ns->consumer_tid = (pid_t)syscall(SYS_gettid);
	epoll_ctl(ep, EPOLL_CTL_ADD, ns->n.fd, &ev);
	while (!__atomic_load_n(&ns->stop, __ATOMIC_SEQ_CST)) {
		int k;
		if (way == 3) {
			n_drain_once();
			continue;
		}
		if (way == 2) {
			struct pollfd pf = { .fd = ns->n.fd, .events = POLLIN };
			k = poll(&pf, 1, ms);
		} else {
			k = epoll_wait(ep, &ev, 1, ms);
		}
		if (k < 0)
			continue;	/* EINTR */
		if (k == 0)
			n_lost_check("the consumer's wait timed out");
		else
			n_drain_once();
	}
	close(ep);
	return 0;
}

/* The consumer, in this process or another. */
static void n_run_consumer(void)
{
	n_consumer(0);
}

/* A quiet moment: every producer parked, no notify under way; every item published
 * must now be taken within the bound, or its wakeup was lost. */
static void n_quiet(int producers)
{
	__atomic_store_n(&ns->hold, 1, __ATOMIC_SEQ_CST);
	double t = now();
	while (__atomic_load_n(&ns->parked, __ATOMIC_SEQ_CST) < producers ||
	       __atomic_load_n(&ns->in_notify, __ATOMIC_SEQ_CST))
		if (now() - t > 10 * g_scale)
			die("the producers did not park within %.0f s", 10 * g_scale);
		else
			usleep(200);
	t = now();
	while (__atomic_load_n(&ns->pending, __ATOMIC_SEQ_CST) &&
	       !__atomic_load_n(&ns->write_denied, __ATOMIC_SEQ_CST)) {
		/* The bound: a consumer descheduled between its read and its drain is not lost. */
		if (now() - t > WAKEUP_LIMIT * g_scale) {
			struct pollfd pf = { .fd = ns->n.fd, .events = POLLIN };
			die("a lost wakeup: %ld items wait %.1f s after every producer stopped, the "
			    "eventfd is %sreadable", ns->pending, now() - t,
			    poll(&pf, 1, 0) == 1 ? "" : "not ");
		}
		usleep(500);
	}
	longest(&st->quiet_us, now() - t);
	ns->quiet++;
	n_unpark(&ns->hold, 0);
}

static void *n_consumer_thread(void *arg)
{
	n_run_consumer();
	return 0;
}

struct nsig {
	struct cthread *prod;
	int np;
	pid_t consumer;
	struct rng r;
};

/* Signals: SIGUSR2 to producers (their handler publishes and notifies), SIGUSR1 to the
 * consumer (its wait or blocking drain returns EINTR). */
static void *n_signaller(void *arg)
{
	struct nsig *s = arg;
	while (!__atomic_load_n(&ns->stop, __ATOMIC_SEQ_CST)) {
		usleep(100 + rbelow(&s->r, 2000));
		if (rpct(&s->r, 15)) {
			if (s->consumer ? !kill(s->consumer, SIGUSR1) :
			    ns->consumer_tid && !syscall(SYS_tgkill, getpid(), ns->consumer_tid, SIGUSR1))
				ADD(signals, 1);
			continue;
		}
		struct cthread *t = &s->prod[rbelow(&s->r, (unsigned)s->np)];
		if (!__atomic_load_n(&ns->hold, __ATOMIC_SEQ_CST) && t->tid &&
		    !syscall(SYS_tgkill, getpid(), t->tid, SIGUSR2))
			ADD(signals, 1);
	}
	return 0;
}

/* One round of notifier chaos: who takes part, and what they left behind. */
struct nchaos {
	struct cthread prod[NP];
	struct nsig sg;
	pthread_t sigt, cons;
	pid_t kids[2], consumer;
	int nkids, np, fence, asym, mb_fault;
};

/* The notifier, its consumer (a thread, or with FENCE perhaps another process), the
 * producers (threads, and with FENCE perhaps processes) and the signaller. */
static void nc_start(struct nchaos *c, struct rng *r)
{
	ns = mmap(0, sizeof *ns, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(ns != MAP_FAILED, "mmap");
	c->fence = rpct(r, 50);
	ns->way = rbelow(r, 4);
	ns->timeout = 0.2 * g_scale;
	int flags = (ns->way == 3 ? 0 : NB_FLAG) | (c->fence ? SYSSHIM_NOTIFIER_FENCE : 0);
	CHECK(!sysshim_notifier_init(&ns->n, flags), "init: %s", strerror(errno));
	c->asym = !c->fence && g_asym;
	handle(SIGUSR2, on_publish_signal, 1);
	handle(SIGUSR1, on_sig, 0);
	logop("notifier with %s, consumer way %d",
	      c->fence ? "FENCE" : c->asym ? "membarrier" : "fences", ns->way);
	/* With FENCE the consumer may be another process, and so may producers. */
	if (c->fence && rpct(r, 30)) {
		c->consumer = fork();
		CHECK(c->consumer >= 0, "fork");
		if (c->consumer == 0) {
			n_run_consumer();
			_exit(0);
		}
		ADD(forks, 1);
	} else {
		pthread_create(&c->cons, 0, n_consumer_thread, 0);
	}
	c->np = 1 + rbelow(r, NP);
	for (int i = 0; i < c->np; i++) {
		c->prod[i] = (struct cthread){ .r = { rnext(r) }, .idx = i };
		pthread_create(&c->prod[i].t, 0, n_producer, &c->prod[i]);
	}
	c->sg = (struct nsig){ .prod = c->prod, .np = c->np, .consumer = c->consumer,
			       .r = { rnext(r) } };
	pthread_create(&c->sigt, 0, n_signaller, &c->sg);
	if (c->fence) {
		for (int k = rbelow(r, 3); k > 0; k--) {
			pid_t pid = fork();
			CHECK(pid >= 0, "fork");
			if (pid == 0) {
				struct cthread me = { .r = { rnext(r) } };
				n_producer(&me);
				_exit(0);
			}
			c->kids[c->nkids++] = pid;
			ADD(producers_proc, 1);
		}
	}
}

/* SECS of it, a quiet check for a lost wakeup now and then; a filter for every thread
 * of this process, mid-run: membarrier (the drain falls back) or write(2) (notifies
 * fail and say so). */
static void nc_run(struct nchaos *c, struct rng *r, double secs)
{
	double t0 = now(), tf = rpct(r, 45) ? t0 + secs * rbelow(r, 100) / 100.0 : 0;
	unsigned mask = rpct(r, 70) ? F_MEMBARRIER : F_WRITE;

	ns->deny_err = rpct(r, 50) ? EPERM : ENOSYS;
	while (now() < t0 + secs) {
		if (tf && now() >= tf) {
			logop("filter for every thread:%s refused", fault_names(mask));
			if (mask & F_WRITE)
				__atomic_store_n(&ns->write_denied, 1, __ATOMIC_SEQ_CST);
			if (!refuse(mask, ns->deny_err, 1))
				c->mb_fault = c->asym && (mask & F_MEMBARRIER) && !c->consumer;
			tf = 0;
		}
		usleep(5000 + rbelow(r, 40000));
		n_quiet(c->np + c->nkids);
	}
}

/* Everyone stops; a consumer blocked in its drain is woken by signals until it has
 * seen stop. */
static void nc_stop(struct nchaos *c)
{
	n_unpark(&ns->stop, 1);
	for (int i = 0; i < c->np; i++)
		pthread_join(c->prod[i].t, 0);
	pthread_join(c->sigt, 0);
	for (int k = 0; k < c->nkids; k++)
		waitpid(c->kids[k], 0, 0);
	for (;;) {
		/* The signal, sent again every 2 ms while its end is waited for: one that
		 * comes before the consumer blocks again is not seen. */
		if (c->consumer) {
			int status;
			if (waitpid(c->consumer, &status, WNOHANG) == c->consumer)
				break;
			kill(c->consumer, SIGUSR1);
			if (!wait_child(c->consumer, 0.002, &status))
				break;
		} else {
			struct timespec ts;
			if (pthread_tryjoin_np(c->cons, 0) == 0)
				break;
			if (ns->consumer_tid)
				syscall(SYS_tgkill, getpid(), ns->consumer_tid, SIGUSR1);
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 2000000;
			if (ts.tv_nsec >= 1000000000)
				ts.tv_sec++, ts.tv_nsec -= 1000000000;
			if (pthread_timedjoin_np(c->cons, 0, &ts) == 0)
				break;
		}
	}
}

/* What is still in the eventfd, and every item left: each item published was taken,
 * and the drains counted exactly the writes the notifies reported. */
static void nc_account(struct nchaos *c)
{
	struct pollfd pf = { .fd = ns->n.fd, .events = POLLIN };
	if (poll(&pf, 1, 0) == 1)
		n_drain_once();
	long left = __atomic_exchange_n(&ns->pending, 0, __ATOMIC_SEQ_CST);
	ns->taken += left;
	CHECK(ns->taken == ns->published, "%ld items published, %ld taken", ns->published, ns->taken);
	long extra = ns->drained - ns->ones;
	CHECK(extra == 0 || (c->mb_fault && extra == 1), "the drains counted %ld writes, the notifies "
	      "reported %ld (membarrier refused after it was chosen: %s)", ns->drained, ns->ones,
	      c->mb_fault ? "yes" : "no");
	ADD(wakeups, ns->wakeups);
	ADD(spurious, ns->spurious);
	ADD(quiet, ns->quiet);
	ADD(predictions, 2);
	ADD(ops, ns->published);
}

static void notifier_chaos_round(struct rng *r, double secs)
{
	struct nchaos c = { .consumer = 0 };

	nc_start(&c, r);
	nc_run(&c, r, secs);
	nc_stop(&c);
	nc_account(&c);
	sysshim_notifier_destroy(&ns->n);
}

START_TEST(notifier_chaos)
{
	run_rounds("notifier_chaos", notifier_chaos_round, 0.30, 2.0, 4);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("evstress");
	const struct { const char *name; const TTest *test; } tests[] = {
		{ "batch_model", batch_model }, { "batch_chaos", batch_chaos },
		{ "notifier_model", notifier_model }, { "notifier_chaos", notifier_chaos },
	};
	setup();
	/* One case per test, so that CK_RUN_CASE=<name> runs one; each runs its share of
	 * the run, plus the watchdogs' slack. */
	for (unsigned i = 0; i < 4; i++) {
		TCase *t = tcase_create(tests[i].name);
		tcase_set_timeout(t, g_seconds * 0.3 + 60 * g_scale + 60);
		_tcase_add_test(t, tests[i].test, 0, 0, 0, 1);
		suite_add_tcase(s, t);
	}
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	struct sysshim_notifier n;

	/* Which way a notifier without FENCE takes here (membarrier or fences): asked
	 * once, as every round inherits the library's answer. */
	if (!sysshim_notifier_init(&n, NB_FLAG)) {
		g_asym = n.mode & 1;
		sysshim_notifier_destroy(&n);
	}
	printf("evstress: %.0f s in all, seed 0x%llx (SYSSHIM_STRESS_SEED reruns it); io_uring %s, "
	       "notifier %s, seccomp faults %s\n", g_seconds, (unsigned long long)g_seed,
	       g_uring ? "usable" : "not usable here", g_asym ? "membarrier" : "fences",
	       g_seccomp ? "on" : "off (valgrind)");
	fflush(stdout);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
