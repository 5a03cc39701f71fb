#include "eventfd_impl.h"

static unsigned word;

static int refused(long r)
{
	return r == -ENOSYS || r == -EPERM;
}

static unsigned probe(void)
{
	struct ss_ring r = { .fd = -1 };
	unsigned v = SS_URING_NO, old = 0;
	long e;

	if (!__ss_env_off("SYSSHIM_EVENTFD_URING")) {
		e = __ss_ring_setup(&r);
		if (e < 0 && !refused(e))
			return 0;
		if (!e)
			v = SS_URING_OK;
		__ss_ring_free(&r);
	}
	if (!__atomic_compare_exchange_n(&word, &old, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return old;
	return v;
}

int __ss_uring_usable(void)
{
	unsigned v = __atomic_load_n(&word, __ATOMIC_RELAXED);
	if (unlikely(!v))
		v = probe();
	return v == SS_URING_OK;
}

/* A sandbox that refuses io_uring after the probe said yes. */
void __ss_uring_refused(void)
{
	__atomic_store_n(&word, SS_URING_NO, __ATOMIC_RELAXED);
}

SS_EXPORT int sysshim_eventfd_uring(void)
{
	return __ss_uring_usable();
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
