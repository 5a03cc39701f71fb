#include "eventfd_impl.h"

/* Takes the completions there are: an entry whose write came back is applied (8
 * bytes) or keeps its value with the error. Cancellations and anything that is no
 * write of this flush are passed over. */
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
			/* Cancelled: it was waiting for the counter to go down, i.e.
			 * it would have blocked. */
			e->error = c->res == -ECANCELED ? EAGAIN : c->res < 0 ? -c->res : EIO;
		}
		++*got;
	}
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
}

/* Never taken where the probe holds: a write still in the kernel after the enter
 * that submitted it (it waits for the eventfd, or is still being done). It is
 * cancelled and waited for, so that it ends applied or not before the flush
 * returns: nothing the flush submitted may land later. Where io_uring_enter is
 * refused meanwhile, the completions are waited for by yielding (a write that
 * is being done finishes on its own). */
static void settle(struct sysshim_batch *b, struct ss_ring *r, unsigned *got, unsigned done)
{
	unsigned tail = *r->sq_tail, k = 0;
	long e;

	__ss_uring_refused();
	for (uintptr_t i = 0; i < b->n && k < r->entries; i++) {
		if (!(b->ent[i].flags & SS_BE_INFLIGHT))
			continue;
		/* The request to cancel is named by its user_data, in addr. */
		__ss_ring_prep(r, (tail + k) & r->sq_mask, IORING_OP_ASYNC_CANCEL, -1, (void *)i,
			       0, 0, SS_UD_CANCEL | i);
		k++;
	}
	__atomic_store_n(r->sq_tail, tail + k, __ATOMIC_RELEASE);
	e = __syscall(SYS_io_uring_enter, r->fd, k, 0, IORING_ENTER_GETEVENTS, 0, 0);
	b->uring_enters++;
	for (reap(b, r, got); *got < done; reap(b, r, got)) {
		if (!__ss_denied(e)) {
			e = __syscall(SYS_io_uring_enter, r->fd, 0, 1, IORING_ENTER_GETEVENTS, 0, 0);
			b->uring_enters++;
		} else {
			__syscall(SYS_sched_yield);
		}
	}
}

/* Submits up to one ring's worth of writes, one io_uring_enter that does not wait:
 * with the probe's rw_flags each write is done or fails before it returns. Returns
 * how many were submitted, or a negative errno if none was. Entries the kernel did
 * not take stay untried, for the plain path. */
static long submit_round(struct sysshim_batch *b, struct ss_ring *r, unsigned *next)
{
	unsigned head = __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE), tail = *r->sq_tail;
	unsigned k = 0, done, got = 0, rwf = __ss_uring_rw_flags();
	long ret;

	for (; *next < b->n && k < r->entries; ++*next) {
		struct sysshim_batch_ent *e = &b->ent[*next];
		if (!ss_uring_eligible(e))
			continue;
		__ss_ring_prep(r, (tail + k) & r->sq_mask, IORING_OP_WRITE, e->fd, &e->value,
			       sizeof e->value, rwf, *next);
		e->flags |= SS_BE_INFLIGHT;
		k++;
	}
	if (!k)
		return 0;
	__atomic_store_n(r->sq_tail, tail + k, __ATOMIC_RELEASE);
	ret = __syscall(SYS_io_uring_enter, r->fd, k, 0, IORING_ENTER_GETEVENTS, 0, 0);
	b->uring_enters++;
	done = __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE) - head;
	if (done < k) {
		/* Take back what the kernel did not consume: it never saw them. */
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
	reap(b, r, &got);
	if (unlikely(got < done))
		settle(b, r, &got, done);
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
		if (__ss_denied(e))
			__ss_uring_refused();
		return e;
	}
	while (next < b->n) {
		e = submit_round(b, r, &next);
		if (__ss_denied(e))
			__ss_uring_refused();
		if (e < 0)
			return e;
	}
	return (long)(b->uring_writes - before);
}

/* The fixed part of an io_uring_enter: one with nothing to submit or wait for,
 * timed (the cost model's A, batch_choice.c). */
uint64_t __ss_uring_enter_ns(struct sysshim_batch *b)
{
	struct ss_ring *r = ss_ring_of(b);
	uint64_t t0 = __ss_now_ns();

	__syscall(SYS_io_uring_enter, r->fd, 0, 0, 0, 0, 0);
	b->uring_enters++;
	return __ss_now_ns() - t0;
}
