#include "eventfd_impl.h"

static void reap(struct sysshim_batch *b, struct ss_ring *r, unsigned *got)
{
	unsigned head = *r->cq_head, tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);

	for (; head != tail; head++) {
		struct io_uring_cqe *c = &r->cqes[head & r->cq_mask];
		struct sysshim_batch_ent *e;
		if (c->user_data >= b->n)
			continue;
		e = &b->ent[c->user_data];
		if (!(e->flags & SS_BE_INFLIGHT))
			continue;
		e->flags = (e->flags & ~SS_BE_INFLIGHT) | SS_BE_TRIED;
		if (c->res == sizeof e->value) {
			e->value = 0;
			b->uring_writes++;
		} else {
			e->error = c->res < 0 ? -c->res : EIO;
		}
		++*got;
	}
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
}

/* Submit up to one ring's worth of writes, wait for all of them. Returns how many
 * were submitted, or a negative errno if none was. Entries the kernel did not take
 * stay untried, for the plain path. */
static long submit_round(struct sysshim_batch *b, struct ss_ring *r, unsigned *next)
{
	unsigned head = __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE), tail = *r->sq_tail;
	unsigned k = 0, done, got = 0;
	long ret;

	for (; *next < b->n && k < r->entries; ++*next) {
		struct sysshim_batch_ent *e = &b->ent[*next];
		struct io_uring_sqe *s;
		unsigned idx = (tail + k) & r->sq_mask;
		if (!ss_uring_eligible(e))
			continue;
		s = &r->sqes[idx];
		s->opcode = IORING_OP_WRITE;
		s->flags = 0;
		s->ioprio = 0;
		s->fd = e->fd;
		s->off = 0;
		s->addr = (uintptr_t)&e->value;
		s->len = sizeof e->value;
		s->rw_flags = 0;
		s->user_data = *next;
		s->buf_index = s->personality = 0;
		s->splice_fd_in = 0;
		s->addr3 = s->__pad2 = 0;
		r->sq_array[idx] = idx;
		e->flags |= SS_BE_INFLIGHT;
		k++;
	}
	if (!k)
		return 0;
	__atomic_store_n(r->sq_tail, tail + k, __ATOMIC_RELEASE);
	ret = __syscall(SYS_io_uring_enter, r->fd, k, k, IORING_ENTER_GETEVENTS, 0, 0);
	b->uring_enters++;
	done = __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE) - head;
	if (done < k) {
		/* Take back what the kernel did not consume. */
		__atomic_store_n(r->sq_tail, head + done, __ATOMIC_RELEASE);
		for (unsigned i = 0; i < b->n; i++) {
			struct sysshim_batch_ent *e = &b->ent[i];
			int sent = 0;
			for (unsigned j = head; j != head + done; j++)
				sent |= r->sqes[j & r->sq_mask].user_data == i;
			if ((e->flags & SS_BE_INFLIGHT) && !sent)
				e->flags &= ~SS_BE_INFLIGHT;
		}
	}
	if (!done)
		return ret < 0 ? ret : -EAGAIN;
	for (;;) {
		reap(b, r, &got);
		if (got >= done)
			break;
		ret = __syscall(SYS_io_uring_enter, r->fd, 0, done - got, IORING_ENTER_GETEVENTS, 0, 0);
		b->uring_enters++;
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			break;
	}
	/* Submitted, but the completion never came: say so, do not write again. */
	for (unsigned i = 0; i < b->n; i++) {
		struct sysshim_batch_ent *e = &b->ent[i];
		if (e->flags & SS_BE_INFLIGHT) {
			e->flags = (e->flags & ~SS_BE_INFLIGHT) | SS_BE_TRIED;
			e->error = EIO;
		}
	}
	return done;
}

/* Returns how many entries went in whole through the ring, or a negative errno. */
long __ss_uring_flush(struct sysshim_batch *b)
{
	struct ss_ring *r = ss_ring_of(b);
	unsigned long before = b->uring_writes;
	unsigned next = 0;
	long e;

	e = __ss_ring_get(r);
	if (e < 0) {
		if (e == -ENOSYS || e == -EPERM)
			__ss_uring_refused();
		return e;
	}
	while (next < b->n) {
		e = submit_round(b, r, &next);
		if (e == -ENOSYS || e == -EPERM)
			__ss_uring_refused();
		if (e < 0)
			return e;
	}
	return (long)(b->uring_writes - before);
}

/* The fixed part of an io_uring_enter: one with nothing to submit or wait for,
 * timed (the cost model's A, decide.c). */
uint64_t __ss_uring_enter_ns(struct sysshim_batch *b)
{
	struct ss_ring *r = ss_ring_of(b);
	uint64_t t0 = __ss_now_ns();

	__syscall(SYS_io_uring_enter, r->fd, 0, 0, 0, 0, 0);
	b->uring_enters++;
	return __ss_now_ns() - t0;
}
