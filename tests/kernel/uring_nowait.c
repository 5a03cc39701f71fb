/* tests/kernel/uring_nowait.c (make uring-nowait-kernels; docs/testbed.md, "Debian 11's 5.10").
 *
 * Does an io_uring IORING_OP_WRITE of 1 to a non-blocking eventfd whose
 * counter is at 0xfffffffffffffffe (full: any write would overflow) complete at once
 * with -EAGAIN, or wait until a reader empties the counter? With rw_flags RWF_NOWAIT
 * and with 0. Raw syscalls (no liburing), static; prints one line per case and
 * "uring-nowait: N passed, N failed" (a case "passes" when it ran to an answer).
 *
 * Per case: submit with io_uring_enter(fd, 1, 0, 0) (no waiting), look for the CQE at
 * once ("inline": completed during the submit), else poll the CQ ring for up to 1 s
 * ("later" / "pending"); while pending, read the eventfd (counter to 0) and wait up to
 * 1 s more ("after read"). Also: the same writes with the counter at 0, where each
 * write can succeed (inline or punted to a worker), and pwritev2(RWF_NOWAIT) on the
 * eventfd itself (EOPNOTSUPP: the file lacks FMODE_NOWAIT). The last line is the answer:
 *   ANSWER kernel=R empty+NOWAIT=8@3us|EAGAIN@3us ... full+NOWAIT=EAGAIN-at-once|waits-for-a-reader ...
 * (empty+...: the result of 16 writes and the median time of one, submit to CQE).
 * Exit 0 when every case came to an answer (whatever it was). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

struct ring {
	int fd;
	unsigned features;
	unsigned *sq_head, *sq_tail, sq_mask, *sq_array;
	unsigned *cq_head, *cq_tail, cq_mask;
	struct io_uring_cqe *cqes;
	struct io_uring_sqe *sqes;
};

static int passed, failed;
static char answer[512];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int ring_setup(struct ring *r)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	r->fd = syscall(__NR_io_uring_setup, 4, &p);
	if (r->fd < 0)
		return -errno;
	r->features = p.features;
	size_t sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	unsigned char *sq = mmap(0, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
				 IORING_OFF_SQ_RING);
	unsigned char *cq = mmap(0, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
				 IORING_OFF_CQ_RING);
	void *sqes = mmap(0, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
		return -errno;
	r->sq_head = (unsigned *)(sq + p.sq_off.head);
	r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
	r->sq_mask = *(unsigned *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(sq + p.sq_off.array);
	r->cq_head = (unsigned *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
	r->cq_mask = *(unsigned *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	r->sqes = sqes;
	return 0;
}

/* Queues one IORING_OP_WRITE of *val to fd; submits without waiting. */
static long submit_write(struct ring *r, int fd, const uint64_t *val, unsigned rw_flags, uint64_t tag)
{
	unsigned tail = *r->sq_tail, idx = tail & r->sq_mask;
	struct io_uring_sqe *s = &r->sqes[idx];
	memset(s, 0, sizeof *s);
	s->opcode = IORING_OP_WRITE;
	s->fd = fd;
	s->off = 0;
	s->addr = (uintptr_t)val;
	s->len = sizeof *val;
	s->rw_flags = rw_flags;
	s->user_data = tag;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	long n = syscall(__NR_io_uring_enter, r->fd, 1, 0, 0, NULL, 0);
	return n < 0 ? -errno : n;
}

/* The next CQE, if one is there: 1 and *res, *tag; else 0. */
static int reap(struct ring *r, int *res, uint64_t *tag)
{
	unsigned head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return 0;
	struct io_uring_cqe *c = &r->cqes[head & r->cq_mask];
	*res = c->res;
	*tag = c->user_data;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return 1;
}

static int wait_cqe(struct ring *r, double secs, int *res, uint64_t *tag)
{
	double end = now() + secs;
	do {
		if (reap(r, res, tag))
			return 1;
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	} while (now() < end);
	return reap(r, res, tag);
}

static const char *err_name(int res)
{
	static char b[32];
	switch (-res) {
	case EAGAIN: return "-EAGAIN";
	case EOPNOTSUPP: return "-EOPNOTSUPP";
	case EINVAL: return "-EINVAL";
	case EBADF: return "-EBADF";
	case ECANCELED: return "-ECANCELED";
	case EINTR: return "-EINTR";
	}
	snprintf(b, sizeof b, "%d", res);
	return b;
}

/* The threads of this process, and any io-wq kernel thread (5.10 before the io-wq
 * backport: "io_wqe_worker-N"). */
#pragma GCC diagnostic ignored "-Wformat-truncation"
/* CPU ticks (utime + stime) of this process's io-wq worker threads ("iou-wrk-N"). */
static long worker_ticks(void)
{
	long sum = 0;
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[64], buf[512];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = 0;
		char *c = strrchr(buf, ')');
		if (!c || !strstr(buf, "(iou-wrk"))
			continue;
		unsigned long ut = 0, st = 0;
		/* after ")": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
		if (sscanf(c + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
			sum += ut + st;
	}
	if (d)
		closedir(d);
	return sum;
}

static void threads(char *out, size_t n)
{
	int tasks = 0, kworkers = 0, uworkers = 0;
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			char path[64], comm[64] = "";
			tasks++;
			snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
			FILE *f = fopen(path, "r");
			if (f) {
				if (fgets(comm, sizeof comm, f) && !strncmp(comm, "iou-wrk", 7))
					uworkers++;
				fclose(f);
			}
		}
	if (d)
		closedir(d);
	d = opendir("/proc");
	while (d && (e = readdir(d))) {
		char path[64], comm[64] = "";
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (f) {
			if (fgets(comm, sizeof comm, f) && strstr(comm, "io_wq"))
				kworkers++;
			fclose(f);
		}
	}
	if (d)
		closedir(d);
	snprintf(out, n, "threads=%d iou-wrk=%d io_wq-kthreads=%d", tasks, uworkers, kworkers);
}

/* The counter at start, one write of add with rw_flags: start + add > EFD_MAX. */
static void full_case(const char *name, const char *key, uint64_t start, uint64_t add, unsigned rw_flags)
{
	const char *a = "none";
	struct ring r;
	int e = ring_setup(&r);
	if (e) {
		printf("%-22s ring: %s\n", name, strerror(-e));
		failed++;
		return;
	}
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	uint64_t full = start, one = add, got;
	if (write(efd, &full, 8) != 8) {
		printf("%-22s setup write: %s\n", name, strerror(errno));
		failed++;
		return;
	}
	errno = 0;
	long w = write(efd, &one, 8);
	int plain_errno = errno;
	long n = submit_write(&r, efd, &one, rw_flags, 7);
	int res = 0;
	uint64_t tag = 0;
	char th[160];
	if (n != 1) {
		printf("%-22s io_uring_enter submitted %ld (%s)\n", name, n, n < 0 ? strerror(-n) : "");
		failed++;
		return;
	}
	if (reap(&r, &res, &tag)) {
		printf("%-22s inline: res=%s (at once, during the submit) [plain write(2): %ld %s]\n", name,
		       err_name(res), w, strerror(plain_errno));
		a = res == -EAGAIN ? "EAGAIN-at-once" : "other-at-once";
		passed++;
	} else {
		double t0 = now();
		long ticks0 = worker_ticks();
		if (wait_cqe(&r, 1.0, &res, &tag)) {
			printf("%-22s later: res=%s after %.1f ms (a worker, or task_work)\n", name, err_name(res),
			       (now() - t0) * 1e3);
			a = res == -EAGAIN ? "EAGAIN-later" : "other-later";
			passed++;
		} else {
			threads(th, sizeof th);
			long busy = worker_ticks() - ticks0;
			size_t l = strlen(th);
			snprintf(th + l, sizeof th - l, ", iou-wrk CPU %ld%% of the 1 s wait", busy * 100 / sysconf(_SC_CLK_TCK));
			if (read(efd, &got, 8) != 8)
				printf("%-22s read: %s\n", name, strerror(errno));
			t0 = now();
			if (wait_cqe(&r, 1.0, &res, &tag)) {
				uint64_t left = 0;
				long rl = read(efd, &left, 8);
				printf("%-22s WAITS: no CQE in 1 s (%s); after a read emptied the counter: res=%s in %.1f ms, counter then %s%llu\n",
				       name, th, err_name(res), (now() - t0) * 1e3, rl == 8 ? "" : "(read failed) ",
				       (unsigned long long)left);
				a = "waits-for-a-reader";
			} else {
				printf("%-22s WAITS: no CQE in 1 s (%s), none 1 s after a read either\n", name, th);
				a = "waits-past-a-read";
			}
			passed++;
		}
	}
	snprintf(answer + strlen(answer), sizeof answer - strlen(answer), " %s=%s", key, a);
	close(efd);
	close(r.fd);
}

/* Counter at 0: 16 writes of 1 with rw_flags, each submitted alone: how many
 * completed during their own submit (inline) and the mean time per write. */
static void empty_case(const char *name, const char *key, unsigned rw_flags)
{
	struct ring r;
	if (ring_setup(&r)) {
		failed++;
		return;
	}
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	uint64_t one = 1;
	int inl = 0, ok = 0, res = 0, other = 0, got = 0;
	uint64_t tag;
	double t0 = now(), each[16] = { 0 };
	for (int i = 0; i < 16; i++) {
		double ti = now();
		if (submit_write(&r, efd, &one, rw_flags, i) != 1)
			break;
		if (reap(&r, &res, &tag))
			inl++;
		else if (!wait_cqe(&r, 1.0, &res, &tag))
			break;
		got++;
		if (res == 8)
			ok++;
		else
			other = res;
		each[i] = (now() - ti) * 1e6;
	}
	double us = (now() - t0) * 1e6 / 16;
	for (int i = 1; i < 16; i++)	/* sort: min and median */
		for (int j = i; j > 0 && each[j] < each[j - 1]; j--) {
			double x = each[j]; each[j] = each[j - 1]; each[j - 1] = x;
		}
	uint64_t v = 0;
	if (read(efd, &v, 8) != 8)
		v = 0;
	printf("%-22s %d/16 res=8 (%d inline, during the submit)%s%s; per write: mean %.0f us, min %.0f, median %.0f; counter %llu\n",
	       name, ok, inl, other ? ", other res " : "", other ? err_name(other) : "", us, each[0], each[8],
	       (unsigned long long)v);
	*(got == 16 ? &passed : &failed) += 1;
	/* "inline" (the CQE there when the submit returned) cannot tell a worker that ran
	 * before the submitter was back from one that did not run: the median time can. */
	snprintf(answer + strlen(answer), sizeof answer - strlen(answer), " %s=%s@%.0fus", key,
		 ok == 16 ? "8" : other ? err_name(other) + 1 : "none", each[8]);
	close(efd);
	close(r.fd);
}

int main(void)
{
	struct utsname u;
	uname(&u);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("kernel %s %s\n", u.release, u.machine);

	struct ring r;
	int e = ring_setup(&r);
	if (e) {
		printf("io_uring_setup: %s\n", strerror(-e));
		printf("uring-nowait: 0 passed, 1 failed\n");
		return 1;
	}
	static const char *fn[] = { "SINGLE_MMAP", "NODROP", "SUBMIT_STABLE", "RW_CUR_POS",
		"CUR_PERSONALITY", "FAST_POLL", "POLL_32BITS", "SQPOLL_NONFIXED", "EXT_ARG",
		"NATIVE_WORKERS", "RSRC_TAGS", "CQE_SKIP", "LINKED_FILE", "REG_REG_RING",
		"RECVSEND_BUNDLE", "MIN_TIMEOUT", "RW_ATTR", "NO_IOWAIT" };
	printf("IORING_FEAT 0x%x:", r.features);
	for (unsigned i = 0; i < 32; i++)
		if (r.features & (1U << i))
			printf(" %s", i < sizeof fn / sizeof *fn ? fn[i] : "?");
	printf("\n");
	close(r.fd);

	/* The eventfd itself: RWF_NOWAIT through pwritev2 (FMODE_NOWAIT or not). */
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	uint64_t one = 1;
	struct iovec iov = { &one, 8 };
	errno = 0;
	long w = syscall(__NR_pwritev2, efd, &iov, 1, -1L, -1L, RWF_NOWAIT);
	printf("pwritev2(eventfd, RWF_NOWAIT), counter 0: %ld %s (EOPNOTSUPP: no FMODE_NOWAIT or no ->write_iter)\n", w, w < 0 ? strerror(errno) : "(accepted)");
	uint64_t v = 0;
	if (write(efd, &one, 8) != 8)
		printf("write: %s\n", strerror(errno));
	iov.iov_base = &v;
	errno = 0;
	w = syscall(__NR_preadv2, efd, &iov, 1, -1L, -1L, RWF_NOWAIT);
	printf("preadv2(eventfd, RWF_NOWAIT), counter 1: %ld %s (8: FMODE_NOWAIT and ->read_iter; EOPNOTSUPP: not both)\n", w,
	       w < 0 ? strerror(errno) : "(accepted)");
	close(efd);

	empty_case("counter 0, rw_flags 0", "empty+0", 0);
	empty_case("counter 0, RWF_NOWAIT", "empty+NOWAIT", RWF_NOWAIT);
	empty_case("counter 0, rw_flags 0", "empty+0(again)", 0);	/* the first may pay one-time costs */
	full_case("full, RWF_NOWAIT", "full+NOWAIT", 0xfffffffffffffffeULL, 1, RWF_NOWAIT);
	full_case("full, rw_flags 0", "full+0", 0xfffffffffffffffeULL, 1, 0);
	/* Poll says writable (the counter is below the maximum) but the write overflows. */
	full_case("max-1 +2, RWF_NOWAIT", "max-1+2+NOWAIT", 0xfffffffffffffffdULL, 2, RWF_NOWAIT);
	full_case("max-1 +2, rw_flags 0", "max-1+2+0", 0xfffffffffffffffdULL, 2, 0);
	printf("ANSWER kernel=%s%s\n", u.release, answer);
	printf("uring-nowait: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
