#include "eventfd_impl.h"

/* Claims the flag if it is clear and writes 1: 1 written, 0 a wakeup was pending
 * already, or -errno (the flag is then clear again, unless the consumer has moved
 * it meanwhile). A claim names its generation, so the step after the write moves
 * only this claim: a claim the consumer cleared and another producer took since
 * stays that producer's. Only atomics and write(2): lock-free, async-signal-safe. */
int __ss_notifier_wake(struct sysshim_notifier *n)
{
	static const uint64_t one = 1;
	unsigned w = __atomic_load_n(&n->pending, __ATOMIC_RELAXED), claim;
	long r;

	if (n->fd < 0)
		return -EBADF;	/* destroyed: whatever a filter would say of write(2) */
	do {
		if (w & SS_PEND_STATE)
			return 0;
		claim = (w & ~SS_PEND_STATE) + SS_PEND_GEN + SS_PEND_WRITING;
	} while (!__atomic_compare_exchange_n(&n->pending, &w, claim, 1, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	do
		r = __syscall(SYS_write, n->fd, &one, sizeof one);
	while (r == -EINTR);
	w = claim;
	__atomic_compare_exchange_n(&n->pending, &w,
				    (claim & ~SS_PEND_STATE) | (r == sizeof one ? SS_PEND_WRITTEN : 0),
				    0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	if (likely(r == sizeof one))
		return 1;
	return r < 0 ? (int)r : -EIO;
}

/* The barrier orders the caller's publication of work before the look at the
 * flag (pairs with sysshim_notifier_drain()); the plain load keeps the cache line
 * shared while a wakeup is pending. A write that failed leaves the flag clear, so
 * that the next notify tries again. */
EXPORT int sysshim_notify(struct sysshim_notifier *n)
{
	int r;

	if (__atomic_load_n(&n->mode, __ATOMIC_RELAXED) & SS_NF_ASYM)
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	else
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&n->pending, __ATOMIC_RELAXED) & SS_PEND_STATE)
		return 0;
	r = __ss_notifier_wake(n);
	return r < 0 ? __syscall_ret(r) : r;
}
