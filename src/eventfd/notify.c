#include "eventfd_impl.h"

/* The barrier orders the caller's publication of work before the look at the
 * flag (pairs with sysshim_notifier_drain()); the plain load keeps the cache line
 * shared while a wakeup is pending. Only atomics and write(2), no waiting:
 * lock-free and async-signal-safe. A write that failed leaves the flag clear, so
 * that the next notify tries again. */
SS_EXPORT int sysshim_notify(struct sysshim_notifier *n)
{
	static const uint64_t one = 1;
	unsigned clear = 0, writing = SS_PEND_WRITING;
	long r;

	if (__atomic_load_n(&n->mode, __ATOMIC_RELAXED) & SS_NF_ASYM)
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	else
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&n->pending, __ATOMIC_RELAXED))
		return 0;
	if (!__atomic_compare_exchange_n(&n->pending, &clear, SS_PEND_WRITING, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_RELAXED))
		return 0;
	do
		r = __syscall(SYS_write, n->fd, &one, sizeof one);
	while (r == -EINTR);
	/* Only a hint for the drain (it clears the flag in any case). */
	__atomic_compare_exchange_n(&n->pending, &writing, r == sizeof one ? SS_PEND_WRITTEN : 0, 0,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	if (likely(r == sizeof one))
		return 1;
	return __syscall_ret(r < 0 ? r : -EIO);
}
