#include "eventfd_impl.h"

static unsigned word;

/* One write of *v to fd through the ring, submitted without waiting: its result, or
 * 0 when the kernel kept it (it waits for the eventfd to become writable). */
static long one_write(struct ss_ring *r, int fd, const uint64_t *v, unsigned rwf)
{
	unsigned tail = *r->sq_tail, head;
	long e;

	__ss_ring_prep(r, tail & r->sq_mask, IORING_OP_WRITE, fd, v, sizeof *v, rwf, 0);
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	e = __syscall(SYS_io_uring_enter, r->fd, 1, 0, IORING_ENTER_GETEVENTS, 0, 0);
	if (e < 0)
		return e;
	head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return 0;
	e = r->cqes[head & r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return e;
}

/* Whether, with these rw_flags, a write to an empty non-blocking eventfd is done and
 * one to a full one fails at once: 1 yes, 0 no, or a negative errno (ring or eventfd
 * not to be had, or io_uring_enter refused). The first write is the one that fills
 * it: Linux 5.10 fails every RWF_NOWAIT write to an eventfd, full or not (its eventfd
 * writes go through a worker), and a kernel that refuses the flag says EOPNOTSUPP or
 * EINVAL; all of that is "no". A write the kernel kept goes with the ring and the
 * eventfd, both ours. */
static long fails_at_once(unsigned rwf)
{
	static const uint64_t fill = EFD_MAX, one = 1;
	struct ss_ring r = { .fd = -1 };
	long e = __ss_ring_setup(&r), efd;

	if (e < 0)
		return e;
	efd = __syscall(SYS_eventfd2, 0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0) {
		__ss_ring_free(&r);
		return efd;
	}
	e = one_write(&r, efd, &fill, rwf);	/* on the empty counter: must be done */
	if (e == sizeof fill) {
		e = one_write(&r, efd, &one, rwf);	/* on the full one: must fail */
		e = e == -EAGAIN ? 1 : __ss_denied(e) ? e : 0;
	} else if (!__ss_denied(e)) {
		e = 0;		/* kept, the flag refused, EAGAIN on an empty counter */
	}
	__ss_ring_free(&r);
	__syscall(SYS_close, efd);
	return e;
}

/* Asked once per process: a ring that can be set up, and writes that fail at once
 * on a full non-blocking eventfd, with RWF_NOWAIT or (where it is refused) without. */
static unsigned uring_probe(void)
{
	unsigned v = SS_URING_NO, old = 0;
	long e = 0;

	/* A seccomp filter that stops io_uring (or may): not even asked (sandbox.h). */
	if (!__ss_env_off("SYSSHIM_EVENTFD_URING") &&
	    !(SS_SB_STOPPED(__ss_sandbox()) & SS_SC_URING)) {
		e = fails_at_once(RWF_NOWAIT);
		if (e == 0)
			e = fails_at_once(0) > 0 ? 2 : 0;
		if (e < 0 && !__ss_denied(e))
			return 0;	/* out of fds or memory: ask again later */
		v = e == 1 ? SS_URING_NOWAIT : e == 2 ? SS_URING_ASIS : SS_URING_NO;
	}
	if (!__atomic_compare_exchange_n(&word, &old, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return old;
	return v;
}

static unsigned uring_state(void)
{
	unsigned v = __atomic_load_n(&word, __ATOMIC_RELAXED);
	return likely(v) ? v : uring_probe();
}

/* A filter that stops io_uring may come through the C library after the probe said
 * yes: from then on, no ring is entered. */
int __ss_uring_usable(void)
{
	unsigned v = uring_state();
	return (v == SS_URING_NOWAIT || v == SS_URING_ASIS) &&
	       likely(!(SS_SB_STOPPED(__ss_sandbox_peek()) & SS_SC_URING));
}

unsigned __ss_uring_rw_flags(void)
{
	return uring_state() == SS_URING_NOWAIT ? RWF_NOWAIT : 0;
}

/* A sandbox that refuses io_uring after the probe said yes, or a kernel that kept
 * a write after all. */
void __ss_uring_refused(void)
{
	__atomic_store_n(&word, SS_URING_NO, __ATOMIC_RELAXED);
}

/* For the tests: as if the probe had answered v (SS_URING_*). */
void __ss_uring_set_state(unsigned v)
{
	__atomic_store_n(&word, v, __ATOMIC_RELAXED);
}

EXPORT int sysshim_eventfd_uring(void)
{
	return __ss_uring_usable();
}

void __ss_ring_prep(struct ss_ring *r, unsigned idx, unsigned op, int fd, const void *buf,
		    unsigned len, unsigned rw_flags, uint64_t user_data)
{
	struct io_uring_sqe *s = &r->sqes[idx];

	s->opcode = op;
	s->flags = 0;
	s->ioprio = 0;
	s->fd = fd;
	s->off = 0;
	s->addr = (uintptr_t)buf;
	s->len = len;
	s->rw_flags = rw_flags;
	s->user_data = user_data;
	s->buf_index = s->personality = 0;
	s->splice_fd_in = 0;
	s->addr3 = s->__pad2 = 0;
	r->sq_array[idx] = idx;
}

long __ss_ring_setup(struct ss_ring *r)
{
	struct io_uring_params p;
	unsigned char *q = (unsigned char *)&p, *m;
	long fd, a;

	for (unsigned i = 0; i < sizeof p; i++)
		q[i] = 0;
	fd = __syscall(SYS_io_uring_setup, SS_RING_ENTRIES, &p);
	if (fd < 0)
		return fd;
	r->fd = fd;
	if ((p.features & (IORING_FEAT_SINGLE_MMAP | IORING_FEAT_RW_CUR_POS)) !=
	    (IORING_FEAT_SINGLE_MMAP | IORING_FEAT_RW_CUR_POS)) {
		__ss_ring_free(r);
		return -ENOSYS;
	}
	r->map_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	if (r->map_len < p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe))
		r->map_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	a = __syscall(SYS_mmap, 0, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		      fd, IORING_OFF_SQ_RING);
	if ((unsigned long)a > -4096UL) {
		__ss_ring_free(r);
		return a;
	}
	r->map = m = (unsigned char *)a;
	r->sqe_len = p.sq_entries * sizeof(struct io_uring_sqe);
	a = __syscall(SYS_mmap, 0, r->sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		      fd, IORING_OFF_SQES);
	if ((unsigned long)a > -4096UL) {
		r->sqes = 0;
		__ss_ring_free(r);
		return a;
	}
	r->sqes = (struct io_uring_sqe *)a;
	/* The rings are MAP_SHARED: a fork() child must not submit into its
	 * parent's ring. A wipe-on-fork page tells the child it has none. */
	a = __syscall(SYS_mmap, 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((unsigned long)a > -4096UL) {
		__ss_ring_free(r);
		return a;
	}
	r->alive = (unsigned *)a;
	if (__syscall(SYS_madvise, a, 4096, MADV_WIPEONFORK)) {
		__ss_ring_free(r);
		return -ENOSYS;
	}
	*r->alive = 1;
	r->entries = p.sq_entries;
	r->sq_head = (unsigned *)(m + p.sq_off.head);
	r->sq_tail = (unsigned *)(m + p.sq_off.tail);
	r->sq_mask = *(unsigned *)(m + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(m + p.sq_off.array);
	r->cq_head = (unsigned *)(m + p.cq_off.head);
	r->cq_tail = (unsigned *)(m + p.cq_off.tail);
	r->cq_mask = *(unsigned *)(m + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(m + p.cq_off.cqes);
	return 0;
}

void __ss_ring_free(struct ss_ring *r)
{
	if (r->alive)
		__syscall(SYS_munmap, r->alive, 4096);
	if (r->sqes)
		__syscall(SYS_munmap, r->sqes, r->sqe_len);
	if (r->map)
		__syscall(SYS_munmap, r->map, r->map_len);
	if (r->fd >= 0)
		__syscall(SYS_close, r->fd);
	r->sqes = 0;
	r->map = 0;
	r->alive = 0;
	r->fd = -1;
}

/* The batch's ring, set up on first use, and again in a fork() child (which
 * drops its copies of the parent's). */
long __ss_ring_get(struct ss_ring *r)
{
	if (r->fd >= 0 && likely(*r->alive))
		return 0;
	__ss_ring_free(r);
	return __ss_ring_setup(r);
}
