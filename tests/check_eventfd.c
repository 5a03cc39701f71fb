/* eventfd signalling: the coalescing notifier and batched increments,
 * checked against the kernel's own counters (raw read(2) of each eventfd). */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "sysshim.h"
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define EFD_MAX 0xfffffffffffffffeULL

/* SYSSHIM_TEST_SCALE=N: this environment is N times slower (valgrind, an
 * emulator): the stress tests do 1/N of the work and wait N times longer. */
static double slow(void)
{
	const char *s = getenv("SYSSHIM_TEST_SCALE");
	double f = s ? atof(s) : 1.0;
	return f >= 1 ? f : 1.0;
}

static int scale(int n)
{
	int v = (int)(n / slow());
	return v > 0 ? v : 1;
}

static int wait_ms(int ms)
{
	return (int)(ms * slow());
}

static int efd(unsigned init, int flags)
{
	int fd = (int)syscall(SYS_eventfd2, init, flags);
	ck_assert_msg(fd >= 0, "eventfd2: %s", strerror(errno));
	return fd;
}

/* The kernel's counter, read raw (and so reset); 0 if it was 0 (non-blocking). */
static uint64_t kread(int fd)
{
	uint64_t v = 0;
	long r = syscall(SYS_read, fd, &v, sizeof v);
	if (r < 0) {
		ck_assert_int_eq(errno, EAGAIN);
		return 0;
	}
	ck_assert_int_eq(r, 8);
	return v;
}

static void kwrite(int fd, uint64_t v)
{
	ck_assert_int_eq(syscall(SYS_write, fd, &v, sizeof v), 8);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* How many io_uring instances this process has open, from /proc/self/fd. */
static int uring_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	char p[64], l[64];
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		snprintf(p, sizeof p, "/proc/self/fd/%s", de->d_name);
		ssize_t k = readlink(p, l, sizeof l - 1);
		if (k > 0) {
			l[k] = 0;
			n += strcmp(l, "anon_inode:[io_uring]") == 0;
		}
	}
	closedir(d);
	return n;
}

/* ---- waiting on events, never on time ---- */

static int is_uring_fd(long fd)
{
	char p[64], l[64];
	snprintf(p, sizeof p, "/proc/self/fd/%ld", fd);
	ssize_t k = readlink(p, l, sizeof l - 1);
	if (k <= 0)
		return 0;
	l[k] = 0;
	return strcmp(l, "anon_inode:[io_uring]") == 0;
}

/* Whether every io_uring of this process is quiet, from its /proc/self/fdinfo: no
 * request armed to wait for a full counter (PollList), and, where the kernel shows the
 * rings' heads (Linux 5.18 on), every entry it took has its completion posted
 * (SqHead == CqTail, those waiting in CqOverflowList counted). A write the library left
 * behind is one or the other, until it lands. */
static int uring_quiet(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int quiet = 1;

	if (!d)
		return 0;
	while (quiet && (de = readdir(d))) {
		long fd = atol(de->d_name);
		if (de->d_name[0] == '.' || fd == dirfd(d) || !is_uring_fd(fd))
			continue;
		char p[64], line[256];
		snprintf(p, sizeof p, "/proc/self/fdinfo/%ld", fd);
		FILE *f = fopen(p, "r");
		if (!f) {
			quiet = 0;
			break;
		}
		unsigned head = 0, tail = 0, over = 0;
		int heads = 0;
		while (fgets(line, sizeof line, f)) {
			heads += sscanf(line, "SqHead: %u", &head) == 1;
			heads += sscanf(line, "CqTail: %u", &tail) == 1;
			if (!strncmp(line, "  op=", 5))
				quiet = 0;		/* a request armed on a file */
			over += !strncmp(line, "  user_data=", 12);
		}
		fclose(f);
		if (heads == 2 && head != tail + over)
			quiet = 0;
	}
	closedir(d);
	return quiet;
}

/* Waits for uring_quiet(); 0 if it is not so within SECS (times slow()). */
static int wait_uring_quiet(double secs)
{
	double end = now() + secs * slow();
	while (!uring_quiet()) {
		if (now() > end)
			return 0;
		sched_yield();
	}
	return 1;
}

/* The first argument of the system call thread TID sleeps in: its state in
 * /proc/self/task/TID/stat is S, and /proc/self/task/TID/syscall names the call.
 * -1: not asleep in a call; -2: asleep, the call not known (that file cannot be read
 * here). Under valgrind a thread also sleeps waiting for its turn: the argument
 * tells that apart. */
static long asleep_in(pid_t tid)
{
	char p[64], b[512];
	long nr;
	unsigned long a0;

	snprintf(p, sizeof p, "/proc/self/task/%d/stat", (int)tid);
	int f = open(p, O_RDONLY);
	ssize_t n = f < 0 ? -1 : read(f, b, sizeof b - 1);
	if (f >= 0)
		close(f);
	if (n <= 0)
		return -1;
	b[n] = 0;
	char *s = strrchr(b, ')');
	if (!s || s[1] != ' ' || s[2] != 'S')
		return -1;
	snprintf(p, sizeof p, "/proc/self/task/%d/syscall", (int)tid);
	f = open(p, O_RDONLY);
	n = f < 0 ? -1 : read(f, b, sizeof b - 1);
	if (f >= 0)
		close(f);
	if (n <= 0)
		return -2;
	b[n] = 0;
	if (sscanf(b, "%ld %lx", &nr, &a0) != 2 || nr < 0)
		return -1;		/* "running", or asleep outside a call */
	return (long)a0;
}

/* Waits until thread TID sleeps in a call whose first argument ON accepts (1), or
 * *DONE is set (0: the call it would sleep in returned); -1 after SECS (times slow()). */
static int wait_asleep(pid_t tid, int (*on)(long), const int *done, double secs)
{
	double end = now() + secs * slow();
	while (!__atomic_load_n(done, __ATOMIC_SEQ_CST)) {
		long a = asleep_in(tid);
		if (a != -1 && (a == -2 || on(a)))
			return !__atomic_load_n(done, __ATOMIC_SEQ_CST);
		if (now() > end)
			return -1;
		sched_yield();
	}
	return 0;
}

/* Whether this kernel (and sandbox) lets us set up a ring at all, asked raw. */
static int kernel_has_uring(void)
{
	unsigned char p[120] = { 0 };
	long fd = syscall(SYS_io_uring_setup, 4, p);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* Whether this kernel fails an io_uring write to a full non-blocking eventfd at once
 * (with RWF_NOWAIT, or without it), asked raw with a ring of the test's own: the oracle
 * for the library's answer (sysshim_eventfd_uring()), which takes io_uring only there. */
struct raw_ring {
	int fd;
	unsigned char *sq, *cq;
	struct { unsigned head, tail, mask, entries, flags, dropped, array, resv; uint64_t u; } so;
	struct { unsigned head, tail, mask, entries, overflow, cqes, flags, resv; uint64_t u; } co;
	unsigned char *sqes;
};

static long raw_write_once(struct raw_ring *r, int fd, const uint64_t *v, unsigned rwf)
{
	unsigned *tail = (unsigned *)(r->sq + r->so.tail), *array = (unsigned *)(r->sq + r->so.array);
	unsigned mask = *(unsigned *)(r->sq + r->so.mask), t = *tail;
	unsigned char *sqe = r->sqes + 64 * (t & mask);
	memset(sqe, 0, 64);
	sqe[0] = 23;					/* IORING_OP_WRITE */
	memcpy(sqe + 4, &fd, 4);
	uint64_t addr = (uintptr_t)v;
	memcpy(sqe + 16, &addr, 8);
	unsigned len = 8;
	memcpy(sqe + 24, &len, 4);
	memcpy(sqe + 28, &rwf, 4);
	array[t & mask] = t & mask;
	__atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, r->fd, 1, 0, 1, 0, 0) < 0)
		return -errno;
	unsigned *ch = (unsigned *)(r->cq + r->co.head), *ct = (unsigned *)(r->cq + r->co.tail);
	if (*ch == __atomic_load_n(ct, __ATOMIC_ACQUIRE))
		return 0;	/* kept */
	int32_t res;
	unsigned cmask = *(unsigned *)(r->cq + r->co.mask);
	memcpy(&res, r->cq + r->co.cqes + 16 * (*ch & cmask) + 8, 4);
	__atomic_store_n(ch, *ch + 1, __ATOMIC_RELEASE);
	return res;
}

static int raw_fails_at_once(unsigned rwf)
{
	uint32_t p[30] = { 0 };
	struct raw_ring r;
	static const uint64_t fill = 0xfffffffffffffffeULL, one = 1;
	int ok = 0;

	r.fd = (int)syscall(SYS_io_uring_setup, 4, p);
	if (r.fd < 0)
		return 0;
	memcpy(&r.so, p + 10, sizeof r.so);
	memcpy(&r.co, p + 20, sizeof r.co);
	size_t len = r.so.array + 4 * p[0] > r.co.cqes + 16 * p[1] ? r.so.array + 4 * p[0] :
		     r.co.cqes + 16 * p[1];
	r.sq = r.cq = mmap(0, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r.fd, 0);
	r.sqes = mmap(0, 64 * p[0], PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r.fd, 0x10000000);
	int e = (int)syscall(SYS_eventfd2, 0, EFD_NONBLOCK);
	if (r.sq != MAP_FAILED && r.sqes != MAP_FAILED && e >= 0)
		ok = raw_write_once(&r, e, &fill, rwf) == 8 && raw_write_once(&r, e, &one, rwf) == -EAGAIN;
	close(e);
	close(r.fd);
	return ok;
}

static int kernel_uring_nowait(void)
{
	return raw_fails_at_once(8 /* RWF_NOWAIT */) || raw_fails_at_once(0);
}

/* ---- the notifier ---- */

START_TEST(notifier_basics)
{
	struct sysshim_notifier n;
	uint64_t c = 99;

	ck_assert_int_eq(sysshim_notifier_init(&n, SYSSHIM_NOTIFIER_NONBLOCK | SYSSHIM_NOTIFIER_CLOEXEC), 0);
	int fd = sysshim_notifier_fd(&n);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, O_NONBLOCK);
	ck_assert_int_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	ck_assert_int_eq(sysshim_notifier_drain(&n, &c), 0);
	ck_assert_uint_eq(c, 0);
	ck_assert_int_eq(sysshim_notify(&n), 1);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(sysshim_notify(&n), 0);
	ck_assert_int_eq(sysshim_notifier_drain(&n, &c), 1);
	ck_assert_uint_eq(c, 1);
	ck_assert_uint_eq(kread(fd), 0);
	/* After the drain the next notify writes again. */
	ck_assert_int_eq(sysshim_notify(&n), 1);
	ck_assert_uint_eq(kread(fd), 1);
	/* A drain that finds nothing (the raw read above took it) still re-arms. */
	ck_assert_int_eq(sysshim_notify(&n), 0);
	ck_assert_int_eq(sysshim_notifier_drain(&n, NULL), 0);
	ck_assert_int_eq(sysshim_notify(&n), 1);
	ck_assert_int_eq(sysshim_notifier_destroy(&n), 0);
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
	ck_assert_int_eq(errno, EBADF);
}
END_TEST

START_TEST(notifier_blocking_read)
{
	struct sysshim_notifier n;
	uint64_t c = 0;

	ck_assert_int_eq(sysshim_notifier_init(&n, 0), 0);
	ck_assert_int_eq(fcntl(n.fd, F_GETFL) & O_NONBLOCK, 0);
	ck_assert_int_eq(sysshim_notify(&n), 1);
	ck_assert_int_eq(sysshim_notifier_drain(&n, &c), 1);
	ck_assert_uint_eq(c, 1);
	ck_assert_int_eq(sysshim_notifier_destroy(&n), 0);
}
END_TEST

START_TEST(notifier_errors)
{
	struct sysshim_notifier n;
	int bad[] = { EFD_SEMAPHORE, 0x1234, -1, O_RDONLY | 0x40 };

	for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
		errno = 0;
		ck_assert_int_eq(sysshim_notifier_init(&n, bad[i]), -1);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_int_eq(n.fd, -1);
		ck_assert_int_eq(sysshim_notifier_fd(&n), -1);
		ck_assert_int_eq(errno, EBADF);
	}
	ck_assert_int_eq(sysshim_notifier_init(&n, 0), 0);
	ck_assert_int_eq(sysshim_notifier_destroy(&n), 0);
	errno = 0;
	ck_assert_int_eq(sysshim_notifier_destroy(&n), -1);
	ck_assert_int_eq(errno, EBADF);
	errno = 0;
	ck_assert_int_eq(sysshim_notify(&n), -1);
	ck_assert_int_eq(errno, EBADF);
	/* The failed notify left the flag clear: the next one tries again. */
	errno = 0;
	ck_assert_int_eq(sysshim_notify(&n), -1);
	ck_assert_int_eq(errno, EBADF);
	errno = 0;
	ck_assert_int_eq(sysshim_notifier_drain(&n, NULL), -1);
	ck_assert_int_eq(errno, EBADF);
	errno = 0;
	ck_assert_int_eq(sysshim_notifier_fd(&n), -1);
	ck_assert_int_eq(errno, EBADF);
}
END_TEST

START_TEST(notifier_emfile)
{
	struct rlimit old, rl;
	struct sysshim_notifier n;
	int fd[32], k = 0;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	/* valgrind keeps descriptors of its own above the limit and refuses to lower it:
	 * this case runs in the plain and the ASan runs. */
	if (RUNNING_ON_VALGRIND) {
		fprintf(stderr, "notifier_emfile: not under valgrind (it refuses setrlimit)\n");
		return;
	}
	rl = old;
	rl.rlim_cur = 32;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	while (k < 32 && (fd[k] = (int)syscall(SYS_eventfd2, 0, 0)) >= 0)
		k++;
	ck_assert_int_lt(k, 32);
	ck_assert_int_eq(errno, EMFILE);
	errno = 0;
	ck_assert_int_eq(sysshim_notifier_init(&n, 0), -1);
	ck_assert_int_eq(errno, EMFILE);
	ck_assert_int_eq(n.fd, -1);
	/* Give them back: the sanitizers need descriptors at exit. */
	while (k)
		close(fd[--k]);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
	ck_assert_int_eq(sysshim_notifier_init(&n, 0), 0);
	ck_assert_int_eq(sysshim_notifier_destroy(&n), 0);
}
END_TEST

/* A notify from a signal handler on the consumer's own thread, and one that
 * interrupts a notify in progress, lose nothing and deadlock nowhere. */
static struct sysshim_notifier sig_n;
static volatile sig_atomic_t sig_seen;

static void on_alarm(int sig)
{
	(void)sig;
	if (sysshim_notify(&sig_n) >= 0)
		sig_seen++;
}

START_TEST(notifier_signal_handler)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(0);

	ck_assert_int_eq(sysshim_notifier_init(&sig_n, SYSSHIM_NOTIFIER_NONBLOCK), 0);
	ck_assert_int_eq(epoll_ctl(ep, EPOLL_CTL_ADD, sig_n.fd, &ev), 0);
	sigaction(SIGALRM, &sa, NULL);
	for (int i = 0; i < 20; i++) {
		sig_atomic_t before = sig_seen;
		ualarm(2000, 0);
		while (sig_seen == before)
			ck_assert_int_ge(sysshim_notify(&sig_n), 0);
		ck_assert_int_eq(epoll_wait(ep, &ev, 1, wait_ms(2000)), 1);
		ck_assert_int_eq(sysshim_notifier_drain(&sig_n, NULL), 1);
	}
	close(ep);
	sysshim_notifier_destroy(&sig_n);
}
END_TEST

/* ---- the stress test: producers publish work items, then notify; the consumer
 * (epoll, or a blocking read) must see every item. A lost wakeup shows up as a
 * wait that times out with items unseen. ---- */

enum { W_LT, W_ET, W_BLOCK };

struct stress {
	struct sysshim_notifier n;
	long work;		/* items published */
	long writes;		/* notifies that wrote */
	long notifies;
	int producers, per_round, rounds, broken, stop;
	pthread_barrier_t go;
};

static void *producer(void *arg)
{
	struct stress *s = arg;
	unsigned x = (unsigned)(uintptr_t)&arg;

	for (int r = 0; r < s->rounds; r++) {
		long w = 0, k = 0;
		pthread_barrier_wait(&s->go);
		for (int i = 0; i < s->per_round; i++) {
			__atomic_fetch_add(&s->work, 1, __ATOMIC_RELAXED);
			int v = sysshim_notify(&s->n);
			if (v < 0)
				abort();
			w += v;
			k++;
			x = x * 1103515245 + 12345;
			if ((x >> 16) % 97 == 0)
				sched_yield();
		}
		__atomic_fetch_add(&s->writes, w, __ATOMIC_RELAXED);
		__atomic_fetch_add(&s->notifies, k, __ATOMIC_RELAXED);
		pthread_barrier_wait(&s->go);
		if (__atomic_load_n(&s->stop, __ATOMIC_SEQ_CST))
			break;
	}
	return NULL;
}

/* The protocol done wrong on purpose (look for work, then clear the flag): the
 * harness must catch it, or it could not catch the library either. */
static int broken_drain(struct stress *s, long *seen)
{
	uint64_t v;
	int r = (int)read(s->n.fd, &v, sizeof v);
	*seen = __atomic_load_n(&s->work, __ATOMIC_SEQ_CST);
	usleep(300);
	__atomic_store_n(&s->n.pending, 0, __ATOMIC_SEQ_CST);
	return r == 8 ? (int)v : 0;
}

static void on_wakeup_alarm(int sig)
{
	(void)sig;
}

/* The notifier of a stress run, and the epoll instance its consumer waits in (-1:
 * W_BLOCK, the consumer waits in a blocking drain). */
static int stress_setup(struct stress *s, int mode, int nflags)
{
	int ep = -1;

	ck_assert_int_eq(sysshim_notifier_init(&s->n, nflags | (mode == W_BLOCK ? 0 : SYSSHIM_NOTIFIER_NONBLOCK)), 0);
	if (mode != W_BLOCK) {
		struct epoll_event ev = { .events = EPOLLIN | (mode == W_ET ? EPOLLET : 0) };
		ep = epoll_create1(0);
		ck_assert_int_ge(ep, 0);
		ck_assert_int_eq(epoll_ctl(ep, EPOLL_CTL_ADD, s->n.fd, &ev), 0);
	}
	return ep;
}

/* One round's consumer: waits and drains until the producers' TARGET items are
 * seen, adding what it drains to *DRAINED. 1 if a wait timed out: a lost wakeup. */
static int consume_round(struct stress *s, int mode, int ep, int timeout_ms, long target,
			 uint64_t *drained)
{
	long seen = 0;

	while (seen != target) {
		uint64_t c = 0;
		if (mode == W_BLOCK) {
			/* A blocking read that never returns is a lost wakeup: the
			 * alarm interrupts it (EINTR). */
			alarm(timeout_ms / 1000 + 1);
			int k = sysshim_notifier_drain(&s->n, &c);
			if (k < 0 && errno == EINTR)
				return 1;
			ck_assert_int_eq(k, 1);
		} else {
			struct epoll_event ev;
			int k = epoll_wait(ep, &ev, 1, timeout_ms);
			if (k == 0)
				return 1;
			ck_assert_int_eq(k, 1);
			if (s->broken) {
				c = broken_drain(s, &seen);
				*drained += c;
				continue;
			}
			ck_assert_int_ge(sysshim_notifier_drain(&s->n, &c), 0);
		}
		*drained += c;
		seen = __atomic_load_n(&s->work, __ATOMIC_SEQ_CST);
		ck_assert_int_le(seen, target);
	}
	return 0;
}

/* Returns the number of rounds whose consumer timed out (0 when all is well). */
static int run_stress(int mode, int nflags, int producers, int per_round, int rounds, int broken,
		      int timeout_ms, uint64_t *drained_out, struct stress *out)
{
	static struct stress s;
	pthread_t th[8];
	int ep, lost = 0;
	uint64_t drained = 0;

	struct sigaction sa = { .sa_handler = on_wakeup_alarm };	/* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	memset(&s, 0, sizeof s);
	s.producers = producers;
	s.per_round = per_round;
	s.rounds = rounds;
	s.broken = broken;
	ep = stress_setup(&s, mode, nflags);
	pthread_barrier_init(&s.go, NULL, producers + 1);
	for (int i = 0; i < producers; i++)
		pthread_create(&th[i], NULL, producer, &s);
	for (int r = 0; r < rounds; r++) {
		pthread_barrier_wait(&s.go);
		lost += consume_round(&s, mode, ep, timeout_ms, (long)(r + 1) * producers * per_round,
				      &drained);
		if (lost && broken)
			__atomic_store_n(&s.stop, 1, __ATOMIC_SEQ_CST);
		pthread_barrier_wait(&s.go);
		if (lost && broken)
			break;
	}
	alarm(0);
	for (int i = 0; i < producers; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&s.go);
	/* The wakeups still in flight: every write is accounted for. */
	fcntl(s.n.fd, F_SETFL, O_NONBLOCK);
	drained += kread(s.n.fd);
	*drained_out = drained;
	*out = s;
	if (ep >= 0)
		close(ep);
	sysshim_notifier_destroy(&s.n);
	return lost;
}

static int kernel_has_membarrier(void)
{
	long q = syscall(SYS_membarrier, 0, 0, 0);
	return q > 0 && (q & 8);
}

static const char *const wait_name[] = { "epoll-LT", "epoll-ET", "blocking-read" };

/* _i: the consumer's way of waiting (W_*), times 2 for membarrier / FENCE. */
START_TEST(stress_no_lost_wakeup)
{
	int mode = _i % 3, fence = _i / 3;
	int rounds = scale(mode == W_BLOCK ? 1000 : 2000), per = 200, P = 4;
	struct stress s;
	uint64_t drained = 0;
	double t0 = now();

	int lost = run_stress(mode, fence ? SYSSHIM_NOTIFIER_FENCE : 0, P, per, rounds, 0, wait_ms(3000),
			      &drained, &s);
	ck_assert_msg(lost == 0, "%d rounds lost a wakeup", lost);
	ck_assert_int_eq(s.n.mode, fence || !kernel_has_membarrier() ? 0 : 1);
	ck_assert_int_eq(s.work, (long)rounds * P * per);
	ck_assert_int_eq(s.notifies, (long)rounds * P * per);
	/* Every write the notifiers issued reached the consumer, and no more. */
	ck_assert_uint_eq(drained, (uint64_t)s.writes);
	ck_assert_int_ge(s.writes, rounds);
	ck_assert_int_lt(s.writes, s.notifies);
	fprintf(stderr, "stress %s%s: %d rounds x %d producers x %d items, %ld writes for %ld notifies, %.2f s\n",
		wait_name[mode], fence ? " FENCE" : "", rounds, P, per, s.writes, s.notifies, now() - t0);
}
END_TEST

static int forked_by_check(void)
{
	const char *f = getenv("CK_FORK");
	return !f || strcmp(f, "no");
}

static int deny(const int *nrs, int n, int err);

/* membarrier(2) refused from the start (seccomp) or switched off: producers fence. */
START_TEST(membarrier_refused_or_off)
{
	struct sysshim_notifier n;

	if (!forked_by_check())
		return;
	if (_i == 0) {
		setenv("SYSSHIM_NOTIFIER_MEMBARRIER", "0", 1);
	} else {
		int nr = SYS_membarrier;
		if (deny(&nr, 1, _i == 1 ? ENOSYS : EPERM))
			return;
	}
	ck_assert_int_eq(sysshim_notifier_init(&n, SYSSHIM_NOTIFIER_NONBLOCK), 0);
	ck_assert_int_eq(n.mode, 0);
	ck_assert_int_eq(sysshim_notify(&n), 1);
	ck_assert_int_eq(sysshim_notifier_drain(&n, NULL), 1);
	ck_assert_int_eq(sysshim_notifier_destroy(&n), 0);
	struct stress s;
	uint64_t drained;
	ck_assert_int_eq(run_stress(W_ET, 0, 4, 400, scale(50), 0, wait_ms(3000), &drained, &s), 0);
	ck_assert_int_eq(s.n.mode, 0);
	ck_assert_uint_eq(drained, (uint64_t)s.writes);
}
END_TEST

/* membarrier(2) refused after the notifier chose it: the first drain notices,
 * switches its producers to fences and wakes itself once more. */
START_TEST(membarrier_refused_later)
{
	struct sysshim_notifier n;
	int nr = SYS_membarrier;
	uint64_t c = 0;

	if (!forked_by_check() || !kernel_has_membarrier())
		return;
	ck_assert_int_eq(sysshim_notifier_init(&n, SYSSHIM_NOTIFIER_NONBLOCK), 0);
	ck_assert_int_eq(n.mode, 1);
	ck_assert_int_eq(sysshim_notify(&n), 1);
	if (deny(&nr, 1, EPERM))
		return;
	ck_assert_int_eq(sysshim_notifier_drain(&n, &c), 1);
	ck_assert_uint_eq(c, 1);
	ck_assert_int_eq(n.mode, 0);
	/* The wakeup of its own is there, and the flag says so. */
	ck_assert_int_eq(sysshim_notify(&n), 0);
	ck_assert_int_eq(sysshim_notifier_drain(&n, &c), 1);
	ck_assert_uint_eq(c, 1);
	ck_assert_int_eq(sysshim_notify(&n), 1);
	ck_assert_int_eq(sysshim_notifier_destroy(&n), 0);

	/* Under load: a new notifier still starts with membarrier (the process is
	 * registered), falls back at its first drain, and loses nothing. */
	struct stress s;
	uint64_t drained;
	ck_assert_int_eq(run_stress(W_LT, 0, 4, 400, scale(50), 0, wait_ms(3000), &drained, &s), 0);
	ck_assert_int_eq(s.n.mode, 0);
	/* Every write is drained, plus the drain's own wakeup when it wrote one: it writes
	 * none when a producer's claim got in between its clear and its wakeup (that
	 * producer's write wakes the consumer instead; seen under load). Nothing lost is
	 * run_stress's 0 above. */
	ck_assert_msg(drained == (uint64_t)s.writes || drained == (uint64_t)s.writes + 1,
		      "drained %llu for %ld writes (+1 at most: the drain's own wakeup)",
		      (unsigned long long)drained, s.writes);
}
END_TEST

START_TEST(stress_harness_catches_broken_protocol)
{
	struct stress s;
	uint64_t drained;
	int lost = 0;

	double t0 = now();
	int attempt;
	for (attempt = 0; attempt < 5 && !lost; attempt++)
		lost = run_stress(W_ET, 0, 4, 2000, 50, 1, wait_ms(200), &drained, &s);
	fprintf(stderr, "broken protocol: lost wakeup caught after %d attempt(s), %ld items, %.2f s\n",
		attempt, s.work, now() - t0);
	ck_assert_msg(lost > 0, "the harness did not notice a protocol that loses wakeups");
}
END_TEST

/* ---- batches ---- */

static void expect_child(pid_t pid);

static struct sysshim_batch_ent storage[64];

static struct sysshim_batch *mkbatch(int plain)
{
	static struct sysshim_batch b;
	ck_assert_int_eq(sysshim_batch_init(&b, storage, 64), 0);
	/* Forced each way: the io_uring path is tested where the kernel has it, whatever
	 * the measured decision would be here (batch_decision_* test that). */
	b.flags = plain ? SYSSHIM_BATCH_PLAIN : SYSSHIM_BATCH_URING;
	return &b;
}

static struct sysshim_batch_ent *ent_of(struct sysshim_batch *b, int fd)
{
	for (unsigned i = 0; i < b->n; i++)
		if (b->ent[i].fd == fd)
			return &b->ent[i];
	return NULL;
}

START_TEST(batch_sums_per_fd)
{
	int plain = _i;
	struct sysshim_batch *b = mkbatch(plain);
	int fd[4];

	for (int i = 0; i < 4; i++)
		fd[i] = efd(0, EFD_NONBLOCK);
	for (int r = 0; r < 10; r++)
		for (int i = 0; i < 4; i++)
			ck_assert_int_eq(sysshim_batch_add(b, fd[i], i + 1), 0);
	ck_assert_uint_eq(b->n, 4);
	ck_assert_int_eq(sysshim_batch_flush(b), 0);
	ck_assert_uint_eq(sysshim_batch_left(b), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(kread(fd[i]), 10 * (i + 1));
	/* One write per fd (or one io_uring_enter for all): summed, not 40 writes. */
	ck_assert_uint_eq(b->writes + b->uring_writes, 4);
	/* A flush of nothing issues nothing. */
	unsigned long w = b->writes, e = b->uring_enters;
	ck_assert_int_eq(sysshim_batch_flush(b), 0);
	ck_assert_uint_eq(b->writes, w);
	ck_assert_uint_eq(b->uring_enters, e);
	sysshim_batch_destroy(b);
}
END_TEST

START_TEST(batch_semaphore_counts)
{
	int plain = _i;
	struct sysshim_batch *b = mkbatch(plain);
	int a = efd(0, EFD_SEMAPHORE | EFD_NONBLOCK), c = efd(0, EFD_SEMAPHORE | EFD_NONBLOCK);

	ck_assert_int_eq(sysshim_batch_add(b, a, 3), 0);
	ck_assert_int_eq(sysshim_batch_add(b, c, 5), 0);
	ck_assert_int_eq(sysshim_batch_add(b, a, 4), 0);
	ck_assert_int_eq(sysshim_batch_flush(b), 0);
	/* A semaphore eventfd hands out one per read: 7 and 5 of them, then EAGAIN. */
	for (int i = 0; i < 7; i++)
		ck_assert_uint_eq(kread(a), 1);
	ck_assert_uint_eq(kread(a), 0);
	for (int i = 0; i < 5; i++)
		ck_assert_uint_eq(kread(c), 1);
	ck_assert_uint_eq(kread(c), 0);
	sysshim_batch_destroy(b);
}
END_TEST

/* A non-blocking eventfd near its maximum: the flush reports exactly what it could
 * not apply and keeps it; the other fds are applied; a second flush finishes. */
START_TEST(batch_overflow_partial_flush)
{
	int plain = _i;
	struct sysshim_batch *b = mkbatch(plain);
	int full = efd(0, EFD_NONBLOCK), x = efd(0, EFD_NONBLOCK), y = efd(0, EFD_NONBLOCK);

	kwrite(full, EFD_MAX - 1);
	ck_assert_int_eq(sysshim_batch_add(b, x, 2), 0);
	ck_assert_int_eq(sysshim_batch_add(b, full, 3), 0);
	ck_assert_int_eq(sysshim_batch_add(b, full, 2), 0);
	ck_assert_int_eq(sysshim_batch_add(b, y, 7), 0);
	errno = 0;
	ck_assert_int_eq(sysshim_batch_flush(b), -1);
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_uint_eq(sysshim_batch_left(b), 1);
	ck_assert_uint_eq(ent_of(b, full)->value, 5);
	ck_assert_int_eq(ent_of(b, full)->error, EAGAIN);
	ck_assert_uint_eq(ent_of(b, x)->value, 0);
	ck_assert_uint_eq(ent_of(b, y)->value, 0);
	ck_assert_uint_eq(kread(x), 2);
	ck_assert_uint_eq(kread(y), 7);
	ck_assert_uint_eq(kread(full), EFD_MAX - 1);
	if (!plain && sysshim_eventfd_uring())
		ck_assert_uint_eq(b->writes, 0);
	ck_assert_int_eq(sysshim_batch_flush(b), 0);
	ck_assert_int_eq(ent_of(b, full)->error, 0);
	ck_assert_uint_eq(kread(full), 5);
	sysshim_batch_destroy(b);
}
END_TEST

/* A sum past the counter's maximum is split, never written as ~0. */
START_TEST(batch_split_at_max)
{
	struct sysshim_batch *b = mkbatch(0);
	int d = efd(0, EFD_NONBLOCK), other = efd(0, EFD_NONBLOCK);

	errno = 0;
	ck_assert_int_eq(sysshim_batch_add(b, d, ~0ULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sysshim_batch_add(b, d, EFD_MAX), 0);
	errno = 0;
	ck_assert_int_eq(sysshim_batch_add(b, d, 2), -1);
	ck_assert_int_eq(errno, EOVERFLOW);
	ck_assert_uint_eq(ent_of(b, d)->value, EFD_MAX);
	ck_assert_int_eq(sysshim_batch_add(b, d, 1), 0);
	ck_assert_uint_eq(ent_of(b, d)->value, ~0ULL);
	ck_assert_int_eq(sysshim_batch_add(b, other, 1), 0);
	errno = 0;
	ck_assert_int_eq(sysshim_batch_flush(b), -1);
	ck_assert_int_eq(errno, EAGAIN);
	/* The first part (the maximum) went in, the last 1 did not fit. */
	ck_assert_uint_eq(ent_of(b, d)->value, 1);
	ck_assert_int_eq(ent_of(b, d)->error, EAGAIN);
	ck_assert_uint_eq(kread(d), EFD_MAX);
	ck_assert_uint_eq(kread(other), 1);
	ck_assert_int_eq(sysshim_batch_flush(b), 0);
	ck_assert_uint_eq(kread(d), 1);
	sysshim_batch_destroy(b);
}
END_TEST

/* The reader of batch_blocking_fd_blocks: it reads the blocking eventfd once the
 * flushing thread sleeps in its write to it, or once the flush has returned. */
struct drain_blocked {
	pid_t tid;
	int fd, flushed, asleep;
	uint64_t got;
};
static int drain_fd;

static int on_drain_fd(long a)
{
	return a == drain_fd;
}

static void *drain_when_blocked(void *arg)
{
	struct drain_blocked *d = arg;
	d->asleep = wait_asleep(d->tid, on_drain_fd, &d->flushed, 10);
	d->got = kread(d->fd);
	return NULL;
}

/* A blocking eventfd keeps blocking semantics: the flush waits for the reader. */
START_TEST(batch_blocking_fd_blocks)
{
	struct sysshim_batch *b = mkbatch(0);
	int e = efd(0, 0), f = efd(0, 0), g = efd(0, EFD_NONBLOCK);
	pthread_t t;
	struct drain_blocked d = { .tid = (pid_t)syscall(SYS_gettid), .fd = e };

	kwrite(e, EFD_MAX - 1);
	ck_assert_int_eq(sysshim_batch_add(b, e, 5), 0);
	ck_assert_int_eq(sysshim_batch_add(b, f, 1), 0);
	ck_assert_int_eq(sysshim_batch_add(b, g, 1), 0);
	drain_fd = e;
	pthread_create(&t, NULL, drain_when_blocked, &d);
	ck_assert_int_eq(sysshim_batch_flush(b), 0);
	__atomic_store_n(&d.flushed, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	ck_assert_uint_eq(d.got, EFD_MAX - 1);
	ck_assert_msg(d.asleep == 1, "the flush %s: it did not block",
		      d.asleep ? "never slept in its write within 10 s" : "returned before the reader read");
	ck_assert_uint_eq(kread(e), 5);
	/* Blocking fds never go through io_uring. */
	ck_assert_uint_eq(b->uring_writes, 0);
	ck_assert_uint_eq(b->writes, 3);
	sysshim_batch_destroy(b);
}
END_TEST

/* 16 non-blocking eventfds in one io_uring_enter, when the kernel lets us. */
START_TEST(batch_uring_used)
{
	struct sysshim_batch *b = mkbatch(0);
	int fd[16], blk[4];

	/* The library's answer is the kernel's: a ring, and writes to a full eventfd that
	 * fail at once (not Linux 5.10, whose eventfd writes go through a worker). */
	ck_assert_int_eq(sysshim_eventfd_uring(), kernel_uring_nowait());
	if (!sysshim_eventfd_uring())
		fprintf(stderr, "io_uring %s here: the fallback is checked instead\n",
			kernel_has_uring() ? "does not fail a full eventfd's write at once" : "not available");
	int before = uring_fds();
	for (int i = 0; i < 16; i++)
		fd[i] = efd(0, EFD_NONBLOCK);
	for (int i = 0; i < 4; i++)
		blk[i] = efd(0, 0);
	for (int r = 0; r < 3; r++) {
		for (int i = 0; i < 16; i++) {
			ck_assert_int_eq(sysshim_batch_add(b, fd[i], i + 1), 0);
			ck_assert_int_eq(sysshim_batch_add(b, fd[i], 1000), 0);
		}
		for (int i = 0; i < 4; i++)
			ck_assert_int_eq(sysshim_batch_add(b, blk[i], 10 + i), 0);
		ck_assert_int_eq(sysshim_batch_flush(b), 0);
		for (int i = 0; i < 16; i++)
			ck_assert_uint_eq(kread(fd[i]), 1000 + i + 1);
		for (int i = 0; i < 4; i++)
			ck_assert_uint_eq(kread(blk[i]), 10 + i);
	}
	if (sysshim_eventfd_uring()) {
		ck_assert_uint_eq(b->uring_writes, 3 * 16);
		ck_assert_uint_eq(b->uring_enters, 3);
		ck_assert_uint_eq(b->writes, 3 * 4);
		/* The ring is really there, kept for the next flush, gone after destroy. */
		ck_assert_int_eq(uring_fds(), before + 1);
		sysshim_batch_destroy(b);
		ck_assert_int_eq(uring_fds(), before);
	} else {
		ck_assert_uint_eq(b->uring_enters, 0);
		ck_assert_uint_eq(b->writes, 3 * 20);
		sysshim_batch_destroy(b);
	}
}
END_TEST

/* A fork() child must not submit into its parent's ring (the rings are shared
 * mappings): parent and child flush the same batch at the same time, each to
 * its own eventfds, and every count must come out exact on both sides. */
static int flush_loop(struct sysshim_batch *b, const int *fd, int nfd, int iters)
{
	for (int it = 0; it < iters; it++) {
		for (int i = 0; i < nfd; i++)
			if (sysshim_batch_add(b, fd[i], i + 1))
				return 1;
		if (sysshim_batch_flush(b))
			return 2;
		for (int i = 0; i < nfd; i++) {
			uint64_t v = 0;
			if (read(fd[i], &v, 8) != 8 || v != (uint64_t)(i + 1))
				return 3;
		}
	}
	return 0;
}

START_TEST(batch_uring_after_fork)
{
	struct sysshim_batch *b = mkbatch(0);
	int pfd[8], cfd[8];

	for (int i = 0; i < 8; i++) {
		pfd[i] = efd(0, EFD_NONBLOCK);
		cfd[i] = efd(0, EFD_NONBLOCK);
	}
	int iters = scale(2000);
	ck_assert_int_eq(flush_loop(b, pfd, 8, 1), 0);
	int rings = uring_fds();
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 8; i++)
			sysshim_batch_forget(b, pfd[i]);
		unsigned long w = b->uring_writes;
		int r = flush_loop(b, cfd, 8, iters);
		if (r)
			_exit(10 + r);
		if (sysshim_eventfd_uring() && (b->uring_writes != w + 8 * iters || uring_fds() != rings))
			_exit(20);
		sysshim_batch_destroy(b);
		_exit(0);
	}
	ck_assert_int_eq(flush_loop(b, pfd, 8, iters), 0);
	expect_child(pid);
	ck_assert_int_eq(flush_loop(b, pfd, 8, 10), 0);
	if (sysshim_eventfd_uring())
		ck_assert_uint_eq(b->uring_writes, 8 * (iters + 11));
	sysshim_batch_destroy(b);
}
END_TEST

/* ---- the fallback: a real seccomp filter in a child, or the env switch ---- */

/* A seccomp filter answering err for the syscalls nrs; 0, or -1 where seccomp
 * itself is not available (qemu-user refuses it). */
static int deny(const int *nrs, int n, int err)
{
	struct sock_filter f[16];
	int k = 0;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (int i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA));
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)k, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "seccomp not available here (%s): test skipped\n", strerror(errno));
		return -1;
	}
	return 0;
}

#define CHILD_CHECK(c, code) do { if (!(c)) { fprintf(stderr, "child: %s failed (line %d)\n", #c, __LINE__); _exit(code); } } while (0)

static int child_flush16(struct sysshim_batch *b, int expect_uring)
{
	int fd[16];
	uint64_t v;

	for (int i = 0; i < 16; i++) {
		fd[i] = (int)syscall(SYS_eventfd2, 0, EFD_NONBLOCK);
		CHILD_CHECK(fd[i] >= 0, 80);
		CHILD_CHECK(sysshim_batch_add(b, fd[i], 3 * i + 1) == 0, 81);
	}
	CHILD_CHECK(sysshim_batch_flush(b) == 0, 82);
	for (int i = 0; i < 16; i++) {
		CHILD_CHECK(read(fd[i], &v, 8) == 8, 83);
		CHILD_CHECK(v == (uint64_t)(3 * i + 1), 84);
		CHILD_CHECK(read(fd[i], &v, 8) == -1 && errno == EAGAIN, 85);
		close(fd[i]);
		sysshim_batch_forget(b, fd[i]);
	}
	if (expect_uring)
		CHILD_CHECK(b->uring_writes >= 16, 86);
	return 0;
}

static void expect_child(pid_t pid)
{
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child failed: status %#x", st);
}

/* io_uring_setup refused from the start (ENOSYS, then EPERM as Docker's profile). */
START_TEST(fallback_seccomp_denies_setup)
{
	int err = _i ? EPERM : ENOSYS;
	pid_t pid = fork();

	if (pid == 0) {
		static struct sysshim_batch b;
		static struct sysshim_batch_ent e[32];
		int nr = SYS_io_uring_setup;
		if (deny(&nr, 1, err))
			_exit(0);
		CHILD_CHECK(syscall(SYS_io_uring_setup, 4, (char[120]){ 0 }) == -1 && errno == err, 70);
		sysshim_batch_init(&b, e, 32);
		child_flush16(&b, 0);
		CHILD_CHECK(sysshim_eventfd_uring() == 0, 71);
		CHILD_CHECK(b.uring_enters == 0 && b.uring_writes == 0, 72);
		CHILD_CHECK(b.writes == 16, 73);
		CHILD_CHECK(uring_fds() == 0, 74);
		_exit(0);
	}
	expect_child(pid);
}
END_TEST

/* The probe said yes, then a filter arrives: a batch with a ring (enter refused)
 * and a new batch (setup refused) both fall back, and nothing is written twice. */
START_TEST(fallback_seccomp_after_probe)
{
	if (!sysshim_eventfd_uring())
		return;
	pid_t pid = fork();
	if (pid == 0) {
		static struct sysshim_batch a, b;
		static struct sysshim_batch_ent ea[32], eb[32];
		int nr[] = { SYS_io_uring_setup, SYS_io_uring_enter };
		sysshim_batch_init(&a, ea, 32);
		sysshim_batch_init(&b, eb, 32);
		a.flags = SYSSHIM_BATCH_URING;
		child_flush16(&a, 1);
		CHILD_CHECK(sysshim_eventfd_uring() == 1, 60);
		if (deny(nr, 2, ENOSYS))
			_exit(0);
		unsigned long w = a.uring_writes;
		child_flush16(&a, 0);
		CHILD_CHECK(a.uring_writes == w, 61);
		CHILD_CHECK(sysshim_eventfd_uring() == 0, 62);
		child_flush16(&b, 0);
		CHILD_CHECK(b.writes == 16 && b.uring_enters == 0, 63);
		sysshim_batch_destroy(&a);
		sysshim_batch_destroy(&b);
		_exit(0);
	}
	expect_child(pid);
}
END_TEST

START_TEST(fallback_env_switch)
{
	pid_t pid = fork();
	if (pid == 0) {
		static struct sysshim_batch b;
		static struct sysshim_batch_ent e[32];
		setenv("SYSSHIM_EVENTFD_URING", "0", 1);
		sysshim_batch_init(&b, e, 32);
		child_flush16(&b, 0);
		CHILD_CHECK(sysshim_eventfd_uring() == 0, 50);
		CHILD_CHECK(b.writes == 16 && b.uring_enters == 0, 51);
		CHILD_CHECK(uring_fds() == 0, 52);
		_exit(0);
	}
	expect_child(pid);
}
END_TEST

/* ---- the batch decision: forced each way, measured, moved by costs ---- */

/* Internal to the library (hidden, but linked statically): costs as if measured,
 * and the clock the measurements use. */
extern void __ss_batch_set_costs(unsigned plain, unsigned enter, unsigned per_write);
extern uint64_t __ss_now_ns(void);

struct flushes {
	unsigned long writes, enters, uring_writes;
};

/* n flushes of distinct values to k fresh non-blocking eventfds, every counter
 * checked against the kernel after each; what the batch issued, by kind. */
static struct flushes flush_exact(struct sysshim_batch *b, int k, int n)
{
	int fd[32];
	struct flushes f = { b->writes, b->uring_enters, b->uring_writes };

	for (int i = 0; i < k; i++)
		fd[i] = efd(0, EFD_NONBLOCK);
	for (int r = 0; r < n; r++) {
		for (int i = 0; i < k; i++)
			ck_assert_int_eq(sysshim_batch_add(b, fd[i], (uint64_t)r * 100 + i + 1), 0);
		ck_assert_int_eq(sysshim_batch_flush(b), 0);
		for (int i = 0; i < k; i++)
			ck_assert_uint_eq(kread(fd[i]), (uint64_t)r * 100 + i + 1);
	}
	for (int i = 0; i < k; i++) {
		ck_assert_int_eq(sysshim_batch_forget(b, fd[i]), 0);
		close(fd[i]);
	}
	f.writes = b->writes - f.writes;
	f.enters = b->uring_enters - f.enters;
	f.uring_writes = b->uring_writes - f.uring_writes;
	return f;
}

/* _i: SYSSHIM_BATCH=plain, =uring, the batch flag PLAIN, the flag URING. Exact
 * counts either way: every fd's sum in one write, or every flush in one enter. */
START_TEST(batch_forced_each_way)
{
	static struct sysshim_batch b;
	static struct sysshim_batch_ent e[32];
	struct sysshim_batch_info bi;
	int uring = _i & 1, by_env = _i < 2, n = scale(200);

	if (!forked_by_check())
		return;
	if (by_env)
		setenv("SYSSHIM_BATCH", uring ? "uring" : "plain", 1);
	sysshim_batch_init(&b, e, 32);
	if (!by_env)
		b.flags = uring ? SYSSHIM_BATCH_URING : SYSSHIM_BATCH_PLAIN;
	int before = uring_fds();
	struct flushes f = flush_exact(&b, 16, n);
	sysshim_batch_info(&bi);
	ck_assert_int_eq(bi.mode, !by_env ? SYSSHIM_BATCH_MODE_AUTO :
			 uring ? SYSSHIM_BATCH_MODE_URING : SYSSHIM_BATCH_MODE_PLAIN);
	if (uring && sysshim_eventfd_uring()) {
		ck_assert_uint_eq(f.uring_writes, 16UL * n);
		ck_assert_uint_eq(f.enters, (unsigned long)n);
		ck_assert_uint_eq(f.writes, 0);
		ck_assert_int_eq(uring_fds(), before + 1);
	} else {
		ck_assert_uint_eq(f.writes, 16UL * n);
		ck_assert_uint_eq(f.enters, 0);
		ck_assert_uint_eq(f.uring_writes, 0);
		/* Forced plain never even sets a ring up. */
		ck_assert_int_eq(uring_fds(), before);
	}
	/* Forced: nothing was timed, so nothing was learnt. */
	ck_assert_int_eq(bi.calibrated, 0);
	sysshim_batch_destroy(&b);
}
END_TEST

/* Left to decide: the first flushes are timed both ways, costs come out, every
 * flush goes entirely one way, and the counts are exact. */
START_TEST(batch_auto_measures)
{
	static struct sysshim_batch b;
	static struct sysshim_batch_ent e[32];
	struct sysshim_batch_info bi;
	int n = scale(300);

	if (!forked_by_check())
		return;
	sysshim_batch_init(&b, e, 32);
	sysshim_batch_info(&bi);
	ck_assert_int_eq(bi.mode, SYSSHIM_BATCH_MODE_AUTO);
	ck_assert_int_eq(bi.calibrated, 0);
	struct flushes f = flush_exact(&b, 16, n);
	sysshim_batch_info(&bi);
	ck_assert_uint_eq(f.writes + f.uring_writes, 16UL * n);
	ck_assert_uint_eq(f.writes % 16, 0);
	ck_assert_uint_eq(f.uring_writes % 16, 0);
	if (!sysshim_eventfd_uring() || bi.clock == SYSSHIM_CLOCK_COARSE) {
		/* no io_uring, or a clock that cannot time a flush: plain writes only */
		if (bi.clock == SYSSHIM_CLOCK_COARSE)
			fprintf(stderr, "batch_auto_measures: the clock ticks by jiffies: plain only\n");
		ck_assert_uint_eq(f.writes, 16UL * n);
		ck_assert_int_eq(bi.calibrated, 0);
		return;
	}
	ck_assert_int_eq(bi.calibrated, 1);
	ck_assert_uint_gt(bi.plain_ns, 0);
	ck_assert_uint_gt(bi.uring_enter_ns + bi.uring_write_ns, 0);
	/* Calibration took both ways at least three times each (each timed io_uring
	 * flush adds one empty enter for the fixed cost). */
	ck_assert_uint_ge(f.writes, 3 * 16);
	ck_assert_uint_ge(f.uring_writes, 3 * 16);
	ck_assert_uint_ge(f.enters, f.uring_writes / 16);
	ck_assert_uint_le(f.enters, 2 * (f.uring_writes / 16));
	/* The crossover is what the costs say. */
	if (bi.crossover) {
		unsigned k = bi.crossover;
		ck_assert_uint_ge(k, 2);
		ck_assert(8 * (bi.uring_enter_ns + (uint64_t)bi.uring_write_ns * k) < 7ULL * bi.plain_ns * k);
		if (k > 2)
			ck_assert(8 * (bi.uring_enter_ns + (uint64_t)bi.uring_write_ns * (k - 1)) >=
				  7ULL * bi.plain_ns * (k - 1));
	} else {
		ck_assert_uint_ge(8 * bi.uring_write_ns, 7 * bi.plain_ns);
	}
	fprintf(stderr, "batch decision here: write(2) %u ns, io_uring_enter %u + %u ns per write, "
		"io_uring from %u fds on (0: never), clock %s %u ns; %lu of %d flushes via io_uring\n",
		bi.plain_ns, bi.uring_enter_ns, bi.uring_write_ns, bi.crossover,
		bi.clock == SYSSHIM_CLOCK_VDSO ? "vDSO" : "syscall", bi.clock_ns,
		f.uring_writes / 16, n);
	sysshim_batch_destroy(&b);
}
END_TEST

/* The decision follows the costs: costs that say io_uring send every flush through
 * it, costs that say plain send none, until the next timed flush (the 16th). */
START_TEST(batch_decision_follows_costs)
{
	static struct sysshim_batch b;
	static struct sysshim_batch_ent e[32];
	struct sysshim_batch_info bi;

	if (!forked_by_check() || !sysshim_eventfd_uring())
		return;
	sysshim_batch_init(&b, e, 32);
	__ss_batch_set_costs(5000, 10000, 100);	/* io_uring from 3 fds on */
	sysshim_batch_info(&bi);
	ck_assert_uint_eq(bi.crossover, 3);
	struct flushes f = flush_exact(&b, 16, 15);
	ck_assert_uint_eq(f.uring_writes, 15 * 16);
	ck_assert_uint_eq(f.enters, 15);
	ck_assert_uint_eq(f.writes, 0);
	/* Below the crossover: plain. */
	__ss_batch_set_costs(5000, 10000, 100);
	f = flush_exact(&b, 2, 15);
	ck_assert_uint_eq(f.writes, 15 * 2);
	ck_assert_uint_eq(f.enters, 0);
	__ss_batch_set_costs(100, 5000, 1000);	/* io_uring never */
	sysshim_batch_info(&bi);
	ck_assert_uint_eq(bi.crossover, 0);
	f = flush_exact(&b, 16, 15);
	ck_assert_uint_eq(f.writes, 15 * 16);
	ck_assert_uint_eq(f.enters, 0);
	ck_assert_uint_eq(f.uring_writes, 0);
	sysshim_batch_destroy(&b);
}
END_TEST

static double write_ns(int fd);

/* A wrong measurement does not stick: costs far off either way are re-measured
 * (one flush in 16 timed while they move) and end up near the real ones. "Near":
 * below an eighth of the wrong cost, or, where a syscall is that dear already (arm64
 * under TCG on a loaded machine: docs/results.md, "What the limits in the code are set
 * against"), within 4 times what a write costs here. */
START_TEST(batch_decision_recovers)
{
	static struct sysshim_batch b;
	static struct sysshim_batch_ent e[32];
	struct sysshim_batch_info bi;
	const unsigned huge = 250000;	/* 250 us per write: far above any real cost */

	if (!forked_by_check() || !sysshim_eventfd_uring())
		return;
	int wfd = efd(0, EFD_NONBLOCK);
	double real = write_ns(wfd);
	close(wfd);
	double near = real * 4 > huge / 8 ? real * 4 : huge / 8;
	if (near > huge / 2)
		near = huge / 2;
	sysshim_batch_init(&b, e, 32);
	/* Plain looks absurdly slow: io_uring is taken, plain is timed now and then. */
	__ss_batch_set_costs(huge, 100, 10);
	struct flushes f = flush_exact(&b, 16, 400);
	sysshim_batch_info(&bi);
	ck_assert_msg(bi.plain_ns < near, "plain still %u ns after 400 flushes (a write costs %.0f ns here)",
		      bi.plain_ns, real);
	ck_assert_uint_gt(f.writes, 0);
	ck_assert_uint_eq(f.writes + f.uring_writes, 400 * 16);
	/* io_uring looks absurdly slow. */
	__ss_batch_set_costs(100, huge, huge);
	f = flush_exact(&b, 16, 400);
	sysshim_batch_info(&bi);
	ck_assert_msg(bi.uring_write_ns < near && bi.uring_enter_ns < near,
		      "io_uring still %u + %u ns after 400 flushes (a write costs %.0f ns here)",
		      bi.uring_enter_ns, bi.uring_write_ns, real);
	ck_assert_uint_gt(f.uring_writes, 0);
	ck_assert_uint_eq(f.writes + f.uring_writes, 400 * 16);
	/* Once the costs stop moving, timed flushes get rarer. */
	flush_exact(&b, 16, 2000);
	sysshim_batch_info(&bi);
	fprintf(stderr, "after recovery: write(2) %u ns, io_uring_enter %u + %u, timed every %u flushes\n",
		bi.plain_ns, bi.uring_enter_ns, bi.uring_write_ns, bi.interval);
	sysshim_batch_destroy(&b);
}
END_TEST

/* The decision said io_uring, then a seccomp filter refuses io_uring_enter: the
 * flush that finds out writes plainly, nothing twice, and io_uring is off. */
START_TEST(batch_decision_then_seccomp)
{
	if (!forked_by_check() || !sysshim_eventfd_uring())
		return;
	pid_t pid = fork();
	if (pid == 0) {
		static struct sysshim_batch b;
		static struct sysshim_batch_ent e[32];
		int nr = SYS_io_uring_enter;
		sysshim_batch_init(&b, e, 32);
		__ss_batch_set_costs(5000, 1000, 100);
		child_flush16(&b, 1);
		if (deny(&nr, 1, EPERM))
			_exit(0);
		unsigned long w = b.uring_writes, wr = b.writes;
		child_flush16(&b, 0);
		CHILD_CHECK(b.uring_writes == w && b.writes == wr + 16, 41);
		CHILD_CHECK(sysshim_eventfd_uring() == 0, 42);
		struct sysshim_batch_info bi;
		sysshim_batch_info(&bi);
		CHILD_CHECK(bi.uring == 0, 43);
		child_flush16(&b, 0);
		CHILD_CHECK(b.writes == wr + 32, 44);
		sysshim_batch_destroy(&b);
		_exit(0);
	}
	expect_child(pid);
}
END_TEST

/* One write(2) to FD, ns: the fastest of 5 x 200. */
static double write_ns(int fd)
{
	uint64_t v = 1;
	double best = 1e12;
	for (int r = 0; r < 5; r++) {
		double t = now();
		for (int i = 0; i < 200; i++)
			if (syscall(SYS_write, fd, &v, 8) != 8)
				abort();
		t = (now() - t) / 200 * 1e9;
		best = t < best ? t : best;
		kread(fd);
	}
	return best;
}

/* Makes every syscall dearer the way PTI without PCID does (a fixed cost at each
 * entry): seccomp filters of straight-line loads that allow everything, added
 * until a write(2) costs at least want_ns more than before and 3 times what it did,
 * or 8 filters are in (the kernel's limit is 32768 instructions in all). 3 times:
 * the library takes a sample within twice the stored cost for noise and then looks
 * again less often (src/eventfd/batch_choice.c), so a change of less than twice is
 * followed only slowly; from 3 times on, the first samples are out of that band and
 * raise the cost at once. Where a syscall is dear already (qemu TCG of arm64, where one
 * filter adds less than the write costs: docs/results.md, "What the limits in the
 * code are set against"; a host whose write(2) takes 1.1 us, where 8 filters make it
 * 3.8 times dearer) one filter is not enough. Returns the write's cost before and
 * after, -1 where seccomp is not available, 1 where 8 filters did not make it 3 times
 * dearer. */
static int slow_syscalls(double want_ns, double *before, double *after)
{
	static struct sock_filter f[4001];
	int fd = efd(0, EFD_NONBLOCK);

	/* Loads of an argument: the kernel's seccomp cache (5.11+) cannot prove such a
	 * filter's answer per syscall number, so it runs for every syscall. */
	for (int i = 0; i < 4000; i++)
		f[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
	f[4000] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 4001, .filter = f };
	*before = *after = write_ns(fd);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	for (int k = 0; k < 8 && (*after < *before + want_ns || *after < 3 * *before); k++) {
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
			if (!k)
				return -1;
			break;
		}
		*after = write_ns(fd);
	}
	close(fd);
	return *after < *before + want_ns || *after < 3 * *before;
}

/* The decision moves with the machine: measured on this machine first, then every
 * syscall made dearer by seccomp filters (what a migration to a host without
 * PCID does); within a bounded number of flushes io_uring takes over for 16 fds. */
/* What each way really costs now, forced, the fastest of 5 x 20 flushes of 16
 * eventfds each, interleaved: the reference the decision is held to (seconds). */
static void forced_costs(double *tp, double *tu)
{
	static struct sysshim_batch fp, fu;
	static struct sysshim_batch_ent ep[32], eu[32];
	int tfd[16];

	*tp = *tu = 1e12;
	sysshim_batch_init(&fp, ep, 32);
	sysshim_batch_init(&fu, eu, 32);
	fp.flags = SYSSHIM_BATCH_PLAIN;
	fu.flags = SYSSHIM_BATCH_URING;
	for (int i = 0; i < 16; i++)
		tfd[i] = efd(0, EFD_NONBLOCK);
	for (int r = 0; r < 5; r++)
		for (int way = 0; way < 2; way++) {
			struct sysshim_batch *fb = way ? &fu : &fp;
			double x = now();
			for (int k = 0; k < 20; k++) {
				for (int i = 0; i < 16; i++)
					CHILD_CHECK(sysshim_batch_add(fb, tfd[i], 1) == 0, 36);
				CHILD_CHECK(sysshim_batch_flush(fb) == 0, 37);
			}
			x = now() - x;
			if (way)
				*tu = x < *tu ? x : *tu;
			else
				*tp = x < *tp ? x : *tp;
		}
	for (int i = 0; i < 16; i++)
		CHILD_CHECK(kread(tfd[i]) == 5 * 2 * 20, 38);
}

/* The decision follows: samples come at most 2 x the interval later (both ways
 * re-measured), then, while a sample is more than twice the stored cost, 16 - 32
 * flushes apart, each raising the cost by 5/4 (clamped): the stored cost reaches half
 * the real one C (ns) within log(C / 2 P) / log(5/4) plain samples, one in 50 flushes
 * at most. Flushed 100 at a time until it has, at most 2 x the interval + 100 flushes
 * per sample needed (+ 4: noise). Returns the flushes done; *CAP, the bound. */
static int flush_until_cost_follows(struct sysshim_batch *b, const struct sysshim_batch_info *bi,
				    double c, int *cap, struct sysshim_batch_info *bj)
{
	int need = 1, done = 0;

	CHILD_CHECK(bi->interval <= 1024, 34);
	for (double x = bi->plain_ns; x < c / 2 && need < 100; x *= 1.25)
		need++;
	*cap = 2 * (int)bi->interval + 100 * (need + 4);
	do {
		flush_exact(b, 16, 100);
		done += 100;
		sysshim_batch_info(bj);
	} while (bj->plain_ns < 0.45 * c && done < *cap);
	return done;
}

/* The way the decision takes, over windows of 200 flushes: one timed flush that an
 * emulated CPU's host stretches moves a cost for up to 32 flushes (the decision
 * answering noise as designed), so a window may be short of 180; up to 3 windows, and
 * the way must hold in one of them (a decision that does not move fails all three).
 * Returns the last window's flushes; *WINDOWS, how many. */
static struct flushes way_taken(struct sysshim_batch *b, double tp, double tu, int *windows)
{
	struct flushes g;
	int clear = tp > 1.5 * tu || tu > 1.5 * tp;

	*windows = 0;
	do {
		g = flush_exact(b, 16, 200);
		++*windows;
	} while (clear && *windows < 3 &&
		 (tp > 1.5 * tu ? g.uring_writes < 16 * 180 : g.writes < 16 * 180));
	return g;
}

/* The settled decision, then 8 seccomp filters make every syscall dearer: the stored
 * plain cost follows, and the way the forced flushes show faster is taken. */
static void dearer_case(void)
{
	static struct sysshim_batch b;
	static struct sysshim_batch_ent e[32];
	struct sysshim_batch_info bi, bj;
	double before, after, tp, tu;
	int cap, windows;

	sysshim_batch_init(&b, e, 32);
	/* Long enough to settle (the interval grows to 2^8 or so). */
	flush_exact(&b, 16, 400);
	sysshim_batch_info(&bi);
	if (bi.clock == SYSSHIM_CLOCK_COARSE) {
		/* nothing timed: every flush plain (batch_auto_measures checks it) */
		fprintf(stderr, "the clock ticks by jiffies here: test skipped\n");
		return;
	}
	CHILD_CHECK(bi.calibrated, 30);
	double t0 = now();
	int slow = slow_syscalls(2000, &before, &after);
	if (slow) {
		fprintf(stderr, slow < 0 ? "seccomp not available here: test skipped\n" :
			"8 seccomp filters: write(2) %.0f -> %.0f ns, not 3 x: test skipped\n",
			before, after);
		return;
	}
	forced_costs(&tp, &tu);
	double t1 = now();
	double c = tp * 1e9 / (20 * 16);	/* one write(2) of a flush now, ns */
	int done = flush_until_cost_follows(&b, &bi, c, &cap, &bj);
	struct flushes g = way_taken(&b, tp, tu, &windows);
	sysshim_batch_info(&bj);
	/* Noise only adds time, but the forced flushes and the library's samples are timed
	 * apart: a host busy with something else (CI's other lane) all through the first
	 * forced run makes c too high. The fastest forced flush of both runs is the
	 * reference; the way check keeps the first run's, on which way_taken() decided. */
	double tp2, tu2;
	forced_costs(&tp2, &tu2);
	double c2 = tp2 * 1e9 / (20 * 16), cref = c2 < c ? c2 : c;
	fprintf(stderr, "syscalls made dearer: write(2) %.0f -> %.0f ns; decision before: "
		"P %u A %u U %u, io_uring from %u; after: P %u A %u U %u, io_uring from %u; "
		"last 200 flushes: %lu via io_uring (window %d); forced (20 flushes): plain "
		"%.0f us, io_uring %.0f us, again %.0f us, %.0f us; P to 0.45 x %.0f ns: "
		"%d flushes (at most %d), held to 0.45 x %.0f ns; %.1f s + %.1f s\n",
		before, after, bi.plain_ns, bi.uring_enter_ns, bi.uring_write_ns, bi.crossover,
		bj.plain_ns, bj.uring_enter_ns, bj.uring_write_ns, bj.crossover,
		g.uring_writes / 16, windows, tp * 1e6, tu * 1e6, tp2 * 1e6, tu2 * 1e6, c, done,
		cap, cref, t1 - t0, now() - t1);
	c = cref;
	/* 0.45 x c, c at least 2.5 x the old cost: above it, so the cost had to move. */
	if (c >= 2.5 * bi.plain_ns)
		CHILD_CHECK(bj.plain_ns >= 0.45 * c, 31);
	else
		fprintf(stderr, "a write(2) in a flush only %.1f x dearer: the cost not checked\n",
			c / bi.plain_ns);
	/* Where one way is clearly faster, the decision took it. */
	if (tp > 1.5 * tu) {
		CHILD_CHECK(bj.crossover >= 2 && bj.crossover <= 16, 32);
		CHILD_CHECK(g.uring_writes >= 16 * 180, 33);
	} else if (tu > 1.5 * tp) {
		CHILD_CHECK(g.writes >= 16 * 180, 35);
	} else {
		fprintf(stderr, "neither way clearly faster here: the way is not checked\n");
	}
}

START_TEST(batch_decision_moves_when_syscalls_get_dearer)
{
	if (!forked_by_check() || !sysshim_eventfd_uring() || RUNNING_ON_VALGRIND)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		dearer_case();
		_exit(0);
	}
	expect_child(pid);
}
END_TEST

/* SYSSHIM_BATCH=<anything else>: one line on stderr, then auto. */
START_TEST(batch_env_bad_value)
{
	int p[2];
	char buf[512];

	if (!forked_by_check())
		return;
	ck_assert_int_eq(pipe(p), 0);
	int saved = dup(2);
	dup2(p[1], 2);
	setenv("SYSSHIM_BATCH", "fastest", 1);
	struct sysshim_batch_info bi;
	sysshim_batch_info(&bi);
	sysshim_batch_info(&bi);
	dup2(saved, 2);
	close(p[1]);
	ssize_t n = read(p[0], buf, sizeof buf - 1);
	ck_assert_int_gt(n, 0);
	buf[n] = 0;
	ck_assert_str_eq(buf, "sysshim: unknown SYSSHIM_BATCH=fastest ignored (known: uring plain auto)\n");
	ck_assert_int_eq(bi.mode, SYSSHIM_BATCH_MODE_AUTO);
}
END_TEST

/* Whether CLOCK_MONOTONIC ticks by jiffies here, by the library's rule: the smallest of
 * three steps, each across up to 64 syscalls, is none or over 0.5 ms. */
static int clock_is_coarse(void)
{
	uint64_t step = ~0ULL;
	for (int k = 0; k < 3; k++) {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		uint64_t a = (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec, b = a;
		for (int i = 0; i < 64 && b == a; i++) {
			syscall(SYS_getppid);
			clock_gettime(CLOCK_MONOTONIC, &t);
			b = (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec;
		}
		if (b - a < step)
			step = b - a;
	}
	return !step || step > 500000;
}

/* The clock: the vDSO's where the auxiliary vector names one (SYSSHIM_VDSO=0: the
 * syscall), monotonic, and in step with clock_gettime; coarse where it ticks by
 * jiffies (a tinyconfig kernel under qemu, early after boot). */
START_TEST(batch_clock)
{
	struct sysshim_batch_info bi;
	struct timespec ts;

	if (!forked_by_check())
		return;
	if (_i)
		setenv("SYSSHIM_VDSO", "0", 1);
	uint64_t a = __ss_now_ns();
	int coarse = clock_is_coarse();	/* right after the library looked */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t c = (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
	uint64_t b2 = __ss_now_ns();
	ck_assert_uint_le(a, c);
	ck_assert_uint_le(c, b2);
	ck_assert_uint_lt(b2 - a, 1000000000ULL);
	sysshim_batch_info(&bi);
	int want = coarse ? SYSSHIM_CLOCK_COARSE :
		   !_i && getauxval(AT_SYSINFO_EHDR) ? SYSSHIM_CLOCK_VDSO : SYSSHIM_CLOCK_SYSCALL;
	ck_assert_int_eq(bi.clock, want);
	ck_assert_uint_gt(bi.clock_ns, 0);
	fprintf(stderr, "clock: %s, %u ns per read\n", bi.clock == SYSSHIM_CLOCK_VDSO ? "vDSO" :
		bi.clock == SYSSHIM_CLOCK_COARSE ? "coarse" : "syscall",
		bi.clock_ns);
}
END_TEST

/* ---- bad fds ---- */

/* What is no eventfd, or no open fd, is refused at once, and nothing is added. */
static void bad_fds_refused(struct sysshim_batch *b, int a)
{
	int p[2], closed = efd(0, 0);
	int devnull = open("/dev/null", O_WRONLY), ep = epoll_create1(0);

	ck_assert_int_eq(pipe(p), 0);
	close(closed);
	errno = 0;
	ck_assert_int_eq(sysshim_batch_add(b, closed, 1), -1);
	ck_assert_int_eq(errno, EBADF);
	errno = 0;
	ck_assert_int_eq(sysshim_batch_add(b, -1, 1), -1);
	ck_assert_int_eq(errno, EBADF);
	int notefd[] = { p[1], devnull, ep };
	for (int i = 0; i < 3; i++) {
		errno = 0;
		ck_assert_int_eq(sysshim_batch_add(b, notefd[i], 1), -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	ck_assert_uint_eq(b->n, 0);
	errno = 0;
	ck_assert_int_eq(sysshim_batch_forget(b, a), -1);
	ck_assert_int_eq(errno, ENOENT);
}

/* An fd closed behind the batch's back: reported, kept, the others applied.
 * (A first flush sets up the ring, so that its fd cannot take the number.) */
static void closed_fd_kept(struct sysshim_batch *b, int a, int c)
{
	ck_assert_int_eq(sysshim_batch_add(b, a, 1), 0);
	ck_assert_int_eq(sysshim_batch_add(b, c, 1), 0);
	ck_assert_int_eq(sysshim_batch_flush(b), 0);
	ck_assert_uint_eq(kread(a), 1);
	ck_assert_uint_eq(kread(c), 1);
	int d = efd(0, EFD_NONBLOCK);
	ck_assert_int_eq(sysshim_batch_add(b, a, 4), 0);
	ck_assert_int_eq(sysshim_batch_add(b, d, 6), 0);
	ck_assert_int_eq(sysshim_batch_add(b, c, 5), 0);
	close(d);
	errno = 0;
	ck_assert_int_eq(sysshim_batch_flush(b), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_uint_eq(sysshim_batch_left(b), 1);
	ck_assert_uint_eq(ent_of(b, d)->value, 6);
	ck_assert_int_eq(ent_of(b, d)->error, EBADF);
	ck_assert_uint_eq(kread(a), 4);
	ck_assert_uint_eq(kread(c), 5);
	ck_assert_int_eq(sysshim_batch_forget(b, d), 0);
	ck_assert_int_eq(sysshim_batch_flush(b), 0);
}

/* A full batch says so. */
static void full_batch_refuses(int a, int c)
{
	struct sysshim_batch small;
	struct sysshim_batch_ent two[2];
	ck_assert_int_eq(sysshim_batch_init(&small, two, 2), 0);
	ck_assert_int_eq(sysshim_batch_add(&small, a, 1), 0);
	ck_assert_int_eq(sysshim_batch_add(&small, c, 1), 0);
	int e3 = efd(0, 0);
	errno = 0;
	ck_assert_int_eq(sysshim_batch_add(&small, e3, 1), -1);
	ck_assert_int_eq(errno, ENOBUFS);
	sysshim_batch_destroy(&small);
}

START_TEST(batch_bad_fds)
{
	struct sysshim_batch *b = mkbatch(_i);
	int a = efd(0, EFD_NONBLOCK), c = efd(0, EFD_NONBLOCK);

	bad_fds_refused(b, a);
	closed_fd_kept(b, a, c);
	full_batch_refuses(a, c);
	sysshim_batch_destroy(b);
}
END_TEST

/* ---- the edges: a full counter, a write the kernel keeps, a refused syscall ---- */

extern void __ss_uring_set_state(unsigned v);
#define SS_URING_ASIS 3	/* the probe's "writes fail at once without RWF_NOWAIT" */

/* Runs fn in a child under a watchdog: a hang fails, with what it was doing. */
static void in_child_within(void (*fn)(int), int arg, int secs)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		alarm((unsigned)(secs * slow()));
		fn(arg);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	ck_assert_msg(!WIFSIGNALED(status) || WTERMSIG(status) != SIGALRM,
		      "it hung: still waiting after %d s", (int)(secs * slow()));
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed: status 0x%x (%d)",
		      status, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Two non-blocking eventfds, the first that can never take 1 more without a read:
 * every way returns at once, keeps the first with EAGAIN and applies the second. */
static void full_counter_case(int way)
{
	int a = efd(0, EFD_NONBLOCK), c = efd(0, EFD_NONBLOCK);
	uint64_t fill = way & 4 ? EFD_MAX - 1 : EFD_MAX, add = way & 4 ? 5 : 1;
	struct sysshim_batch b;
	struct sysshim_batch_ent e[2];

	kwrite(a, fill);
	sysshim_batch_init(&b, e, 2);
	b.flags = (way & 3) == 0 ? SYSSHIM_BATCH_URING : (way & 3) == 1 ? SYSSHIM_BATCH_PLAIN : 0;
	CHILD_CHECK(!sysshim_batch_add(&b, a, add) && !sysshim_batch_add(&b, c, 1), 2);
	errno = 0;
	CHILD_CHECK(sysshim_batch_flush(&b) == -1 && errno == EAGAIN, 3);
	CHILD_CHECK(e[0].value == add && e[0].error == EAGAIN && e[1].value == 0, 4);
	CHILD_CHECK(kread(c) == 1 && kread(a) == fill, 5);
	/* The kept increment goes in once there is room, and only once. */
	CHILD_CHECK(sysshim_batch_flush(&b) == 0, 6);
	CHILD_CHECK(wait_uring_quiet(5), 8);	/* a write left behind lands, or fails this */
	CHILD_CHECK(kread(a) == add && kread(a) == 0, 7);
	sysshim_batch_destroy(&b);
}

START_TEST(batch_full_nonblocking_never_waits)
{
	in_child_within(full_counter_case, _i, 10);
}
END_TEST

/* A kernel that keeps the write (io_uring arms a poll on a full eventfd when the write
 * carries no RWF_NOWAIT: forced here through the probe's answer): the flush cancels it
 * and reports it not applied, promptly, and the process stops using io_uring. */
static void kept_write_case(int unused)
{
	int a = efd(0, EFD_NONBLOCK), c = efd(0, EFD_NONBLOCK);
	struct sysshim_batch b;
	struct sysshim_batch_ent e[2];

	if (!kernel_has_uring())
		return;
	__ss_uring_set_state(SS_URING_ASIS);
	kwrite(a, EFD_MAX);
	sysshim_batch_init(&b, e, 2);
	b.flags = SYSSHIM_BATCH_URING;
	CHILD_CHECK(!sysshim_batch_add(&b, a, 1) && !sysshim_batch_add(&b, c, 1), 2);
	errno = 0;
	CHILD_CHECK(sysshim_batch_flush(&b) == -1 && errno == EAGAIN, 3);
	CHILD_CHECK(e[0].value == 1 && e[0].error == EAGAIN, 4);
	/* The other write was done, or (where eventfd writes go through a worker, 5.10)
	 * cancelled with the first: the report says which, and the counter agrees. */
	CHILD_CHECK(e[1].value == 0 ? kread(c) == 1 : e[1].error == EAGAIN && kread(c) == 0, 5);
	CHILD_CHECK(kread(a) == EFD_MAX, 6);
	CHILD_CHECK(wait_uring_quiet(5), 10);
	CHILD_CHECK(kread(a) == 0 && kread(c) == 0, 7);	/* no cancelled write lands */
	CHILD_CHECK(sysshim_batch_flush(&b) == 0 && kread(a) == 1, 8);
	CHILD_CHECK(wait_uring_quiet(5), 11);
	CHILD_CHECK(kread(a) == 0, 9);
	sysshim_batch_destroy(&b);
}

START_TEST(batch_kept_write_is_cancelled)
{
	in_child_within(kept_write_case, 0, 10);
}
END_TEST

/* The write kept, the signal, the refused io_uring_enter: a filter refuses every
 * io_uring_enter that submits one entry (the flush's cancellation; its submission
 * has two), a signal arrives while the flush waits for the kept write, and a reader
 * empties the counter once the flush waits again. The kept write lands, the flush
 * reports it applied, and the reader receives 1 for the 1 added: never 2. */
static int kept_a, kept_flushed, kept_late;
static volatile sig_atomic_t kept_handled;
static pid_t kept_tid;
static pthread_t kept_main;

static void *kept_reader(void *arg)
{
	/* The flush waits in io_uring_enter (or has returned: this kernel failed the
	 * write at once), then the signal, handled, then the flush waits again. */
	int w = wait_asleep(kept_tid, is_uring_fd, &kept_flushed, 10);
	pthread_kill(kept_main, SIGUSR1);
	double end = now() + 10 * slow();
	while (w == 1 && !kept_handled && now() < end)
		sched_yield();
	if (w == 1)
		w = kept_handled ? wait_asleep(kept_tid, is_uring_fd, &kept_flushed, 10) : -1;
	kept_late = w < 0;
	*(uint64_t *)arg = kread(kept_a);
	return 0;
}

static void on_usr1(int sig)
{
	kept_handled = 1;
}

static void kept_refused_case(int unused)
{
	int c = efd(0, EFD_NONBLOCK);
	struct sysshim_batch b;
	struct sysshim_batch_ent e[2];
	uint64_t first = 0;
	pthread_t t;
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_enter, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 6, .filter = f };

	if (!kernel_has_uring())
		return;
	kept_a = efd(0, EFD_NONBLOCK);
	__ss_uring_set_state(SS_URING_ASIS);
	sigaction(SIGUSR1, &sa, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return;		/* no seccomp here (qemu-user) */
	kwrite(kept_a, EFD_MAX);
	sysshim_batch_init(&b, e, 2);
	b.flags = SYSSHIM_BATCH_URING;
	CHILD_CHECK(!sysshim_batch_add(&b, kept_a, 1) && !sysshim_batch_add(&b, c, 1), 2);
	kept_main = pthread_self();
	kept_tid = (pid_t)syscall(SYS_gettid);
	pthread_create(&t, 0, kept_reader, &first);
	int r = sysshim_batch_flush(&b);
	__atomic_store_n(&kept_flushed, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, 0);
	CHILD_CHECK(!kept_late, 9);	/* the flush neither waited nor returned within 10 s */
	CHILD_CHECK(first == EFD_MAX, 3);
	if (r == 0) {
		/* The kernel kept the write: it landed after the read, once. */
		CHILD_CHECK(e[0].value == 0 && kread(kept_a) == 1, 4);
	} else {
		/* This kernel failed it at once after all: kept, and applied once later. */
		CHILD_CHECK(e[0].value == 1 && e[0].error == EAGAIN, 5);
		CHILD_CHECK(sysshim_batch_flush(&b) == 0 && kread(kept_a) == 1, 6);
	}
	CHILD_CHECK(kread(c) == 1 && sysshim_batch_flush(&b) == 0, 7);
	CHILD_CHECK(wait_uring_quiet(5), 10);
	CHILD_CHECK(kread(kept_a) == 0, 8);
	sysshim_batch_destroy(&b);
}

START_TEST(batch_kept_write_then_refused_enter_applies_once)
{
	if (RUNNING_ON_VALGRIND)
		return;	/* seccomp filters would refuse valgrind's own io_uring_enter */
	in_child_within(kept_refused_case, 0, 10);
}
END_TEST

/* membarrier refused after the notifier chose it, and write(2) refused too: the
 * drain's own wakeup fails, and the next notify says so instead of answering 0. */
static void fallback_refused_case(int unused)
{
	struct sysshim_notifier n;
	uint64_t c = 0;
	int nrs[] = { SYS_membarrier, SYS_write };

	CHILD_CHECK(!sysshim_notifier_init(&n, SYSSHIM_NOTIFIER_NONBLOCK), 2);
	if (!(n.mode & 1))
		return;		/* no membarrier here: nothing to fall back from */
	CHILD_CHECK(sysshim_notify(&n) == 1, 3);
	if (deny(nrs, 2, EPERM))
		return;
	CHILD_CHECK(sysshim_notifier_drain(&n, &c) == 1 && c == 1, 4);
	errno = 0;
	CHILD_CHECK(sysshim_notify(&n) == -1 && errno == EPERM, 5);
	errno = 0;
	CHILD_CHECK(sysshim_notify(&n) == -1 && errno == EPERM, 6);
}

START_TEST(notifier_fallback_write_refused)
{
	if (!forked_by_check() || RUNNING_ON_VALGRIND)
		return;
	in_child_within(fallback_refused_case, 0, 10);
}
END_TEST

/* A producer's late step after its write must move only its own claim. Producer A
 * (a process, stopped by ptrace right after its write) leaves its claim "writing";
 * the consumer drains, waits its bounded while for A and clears; producer B (a
 * process whose copy of the eventfd is closed, so its write fails) claims and is
 * stopped at its write; A then finishes (its step must not take B's claim); B's
 * write fails and its claim is cleared. The next notify must write. */
static pid_t traced_notifier(struct sysshim_notifier *n, int close_fd)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (close_fd)
			close(n->fd);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		int r = sysshim_notify(n);
		_exit(r == 1 ? 0 : r == 0 ? 10 : 20 + errno % 100);
	}
	return pid;
}

/* Runs the traced child to the entry (exit = 0) or the exit (exit = 1) of its next
 * write(2); 0 when it got there. */
static int run_to_write(pid_t pid, int exit)
{
	for (int i = 0; i < 200; i++) {
		struct __ptrace_syscall_info si;
		int status;
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0) || waitpid(pid, &status, 0) != pid ||
		    !WIFSTOPPED(status))
			return -1;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof si, &si) <= 0)
			return -1;
		if (!exit && si.op == PTRACE_SYSCALL_INFO_ENTRY && si.entry.nr == SYS_write)
			return 0;
		if (exit && si.op == PTRACE_SYSCALL_INFO_EXIT)
			return 0;
	}
	return -1;
}

static int attach(pid_t pid)
{
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return -1;
	return ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL);
}

static int finish(pid_t pid)
{
	int status;
	ptrace(PTRACE_DETACH, pid, 0, 0);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

START_TEST(notifier_late_step_keeps_newer_claim)
{
	struct sysshim_notifier *n = mmap(0, sizeof *n, PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t c;
	const char *bed = getenv("SYSSHIM_TESTBED");

	/* Under qemu-user a tracer sees the emulator's host syscalls, not the guest's, and
	 * waits for a stop that never comes: the test needs a kernel of the guest's arch. */
	if (RUNNING_ON_VALGRIND || (bed && !strncmp(bed, "qemu-user", 9)))
		return;
	ck_assert_int_eq(sysshim_notifier_init(n, SYSSHIM_NOTIFIER_NONBLOCK | SYSSHIM_NOTIFIER_FENCE), 0);
	pid_t a = traced_notifier(n, 0);
	if (attach(a) || run_to_write(a, 0) || run_to_write(a, 1)) {
		kill(a, SIGKILL);
		waitpid(a, 0, 0);
		return;		/* no ptrace here (qemu-user, a kernel without it) */
	}
	/* A's write is in; A is stopped before its step to "written". */
	ck_assert_int_eq(sysshim_notifier_drain(n, &c), 1);
	ck_assert_uint_eq(c, 1);
	pid_t b = traced_notifier(n, 1);
	ck_assert_int_eq(attach(b), 0);
	ck_assert_int_eq(run_to_write(b, 0), 0);	/* B has claimed, its write is next */
	ck_assert_int_eq(finish(a), 0);			/* A: returns 1 */
	ck_assert_int_eq(finish(b), 20 + EBADF);	/* B: -1, EBADF */
	/* Nothing is pending: the next notify writes, and wakes the consumer. */
	ck_assert_int_eq(sysshim_notify(n), 1);
	ck_assert_int_eq(sysshim_notifier_drain(n, &c), 1);
	ck_assert_uint_eq(c, 1);
	sysshim_notifier_destroy(n);
}
END_TEST

/* The cases, by what they test: one TCase each. */
static TCase *notifier_cases(void)
{
	TCase *t = tcase_create("notifier");
	tcase_add_test(t, notifier_basics);
	tcase_add_test(t, notifier_blocking_read);
	tcase_add_test(t, notifier_errors);
	tcase_add_test(t, notifier_emfile);
	tcase_add_test(t, notifier_signal_handler);
	tcase_set_timeout(t, 30 * slow());
	return t;
}

static TCase *stress_cases(void)
{
	TCase *t = tcase_create("stress");
	tcase_add_loop_test(t, stress_no_lost_wakeup, 0, 6);
	tcase_add_test(t, stress_harness_catches_broken_protocol);
	tcase_add_loop_test(t, membarrier_refused_or_off, 0, 3);
	tcase_add_test(t, membarrier_refused_later);
	tcase_set_timeout(t, 90 * slow());
	return t;
}

static TCase *batch_cases(void)
{
	TCase *t = tcase_create("batch");
	tcase_add_loop_test(t, batch_sums_per_fd, 0, 2);
	tcase_add_loop_test(t, batch_semaphore_counts, 0, 2);
	tcase_add_loop_test(t, batch_overflow_partial_flush, 0, 2);
	tcase_add_test(t, batch_split_at_max);
	tcase_add_test(t, batch_blocking_fd_blocks);
	tcase_add_test(t, batch_uring_used);
	tcase_add_loop_test(t, batch_bad_fds, 0, 2);
	tcase_add_test(t, batch_uring_after_fork);
	tcase_set_timeout(t, 30 * slow());
	return t;
}

static TCase *decision_cases(void)
{
	TCase *t = tcase_create("decision");
	tcase_add_loop_test(t, batch_forced_each_way, 0, 4);
	tcase_add_test(t, batch_auto_measures);
	tcase_add_test(t, batch_decision_follows_costs);
	tcase_add_test(t, batch_decision_recovers);
	tcase_add_test(t, batch_decision_then_seccomp);
	tcase_add_test(t, batch_decision_moves_when_syscalls_get_dearer);
	tcase_add_test(t, batch_env_bad_value);
	tcase_add_loop_test(t, batch_clock, 0, 2);
	tcase_set_timeout(t, 60 * slow());
	return t;
}

static TCase *edges_cases(void)
{
	TCase *t = tcase_create("edges");
	tcase_add_loop_test(t, batch_full_nonblocking_never_waits, 0, 8);
	tcase_add_test(t, batch_kept_write_is_cancelled);
	tcase_add_test(t, batch_kept_write_then_refused_enter_applies_once);
	tcase_add_test(t, notifier_fallback_write_refused);
	tcase_add_test(t, notifier_late_step_keeps_newer_claim);
	tcase_set_timeout(t, 30 * slow());
	return t;
}

static TCase *fallback_cases(void)
{
	TCase *t = tcase_create("fallback");
	tcase_add_loop_test(t, fallback_seccomp_denies_setup, 0, 2);
	tcase_add_test(t, fallback_seccomp_after_probe);
	tcase_add_test(t, fallback_env_switch);
	tcase_set_timeout(t, 30 * slow());
	return t;
}

static Suite *suite(void)
{
	Suite *s = suite_create("eventfd");
	suite_add_tcase(s, notifier_cases());
	suite_add_tcase(s, stress_cases());
	suite_add_tcase(s, batch_cases());
	suite_add_tcase(s, decision_cases());
	suite_add_tcase(s, edges_cases());
	suite_add_tcase(s, fallback_cases());
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
