#include "eventfd_impl.h"

static unsigned word;

static unsigned membarrier_probe(void)
{
	unsigned v = SS_MB_NO, old = 0;
	long q;

	if (!__ss_env_off("SYSSHIM_NOTIFIER_MEMBARRIER") &&
	    !(SS_SB_STOPPED(__ss_sandbox()) & SS_SC_MEMBARRIER)) {
		q = __syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
		if (q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
		    !__syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0))
			v = SS_MB_OK;
	}
	if (!__atomic_compare_exchange_n(&word, &old, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return old;
	return v;
}

/* Whether this process may use membarrier(2) so that producers need no fence;
 * probed and registered once. */
int __ss_membarrier_ok(void)
{
	unsigned v = __atomic_load_n(&word, __ATOMIC_RELAXED);
	if (unlikely(!v))
		v = membarrier_probe();
	return v == SS_MB_OK;
}

/* Whether a seccomp filter that stops membarrier(2) (sandbox.h) has come through the C
 * library since the probe: a notifier that chose it does not call it again. */
int __ss_membarrier_stopped(void)
{
	return unlikely(SS_SB_STOPPED(__ss_sandbox_peek()) & SS_SC_MEMBARRIER);
}
