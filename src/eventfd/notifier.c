#include "eventfd_impl.h"

EXPORT int sysshim_notifier_init(struct sysshim_notifier *n, int flags)
{
	long r;

	n->fd = -1;
	n->mode = 0;
	__atomic_store_n(&n->pending, 0, __ATOMIC_RELAXED);
	if (flags & ~(EFD_NONBLOCK | EFD_CLOEXEC | SYSSHIM_NOTIFIER_FENCE))
		return __syscall_ret(-EINVAL);
	r = __syscall(SYS_eventfd2, 0, flags & ~SYSSHIM_NOTIFIER_FENCE);
	if (r < 0)
		return __syscall_ret(r);
	if (!(flags & SYSSHIM_NOTIFIER_FENCE) && __ss_membarrier_ok())
		n->mode = SS_NF_ASYM;
	n->fd = r;
	return 0;
}

EXPORT int sysshim_notifier_destroy(struct sysshim_notifier *n)
{
	int fd = n->fd;

	if (fd < 0)
		return __syscall_ret(-EBADF);
	n->fd = -1;
	/* A wakeup left pending must not make a later notify answer 0: it is to
	 * find the notifier closed (EBADF). */
	__atomic_fetch_and(&n->pending, ~SS_PEND_STATE, __ATOMIC_SEQ_CST);
	return __syscall_ret(__syscall(SYS_close, fd));
}

EXPORT int sysshim_notifier_fd(const struct sysshim_notifier *n)
{
	return n->fd < 0 ? __syscall_ret(-EBADF) : n->fd;
}

/* Drain first, then clear: a notify that finds the flag clear after this writes
 * again. The barrier after the clear pairs with the one in sysshim_notify(), so
 * that the caller's look for work after we return sees whatever a producer that
 * still found the flag set had published: a full fence on both sides, or
 * membarrier(2) here against a compiler barrier there. */
EXPORT int sysshim_notifier_drain(struct sysshim_notifier *n, uint64_t *count)
{
	uint64_t v = 0;
	unsigned w;
	long r;

	if (n->fd < 0)
		return __syscall_ret(-EBADF);
	r = __syscall(SYS_read, n->fd, &v, sizeof v);
	if (r < 0 && r != -EAGAIN)
		return __syscall_ret(r);
	if (r < 0)
		v = 0;
	/* A write still in flight would land after our read and wake us for
	 * nothing, and the next notify would write again: under load that chain
	 * never ends. Give it a moment to land (the writer may be the very thread
	 * our wakeup preempted), then clear anyway. */
	for (unsigned i = 0; i < SS_DRAIN_SPIN + SS_DRAIN_YIELD; i++) {
		w = __atomic_load_n(&n->pending, __ATOMIC_ACQUIRE);
		if ((w & SS_PEND_STATE) != SS_PEND_WRITING)
			break;
		if (i < SS_DRAIN_SPIN)
			ss_relax();
		else
			__syscall(SYS_sched_yield);
	}
	/* Clear the state, keep the generation: a producer still writing then
	 * finds its claim gone and leaves the flag alone. */
	w = __atomic_load_n(&n->pending, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&n->pending, &w, w & ~SS_PEND_STATE, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	if (__atomic_load_n(&n->mode, __ATOMIC_RELAXED) & SS_NF_ASYM) {
		if (unlikely(__ss_membarrier_stopped()) ||
		    unlikely(__syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))) {
			/* Refused after all (a new seccomp filter): producers fence from
			 * now on, and a wakeup of our own makes the consumer look again
			 * once those that did not have surely published. If that write
			 * fails too, the flag is left clear: the next notify writes
			 * again, or reports why it cannot. */
			__atomic_store_n(&n->mode, 0, __ATOMIC_SEQ_CST);
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			__ss_notifier_wake(n);
		}
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (count)
		*count = v;
	return v != 0;
}
