#include "route.h"
#include "sysshim.h"

/* The guard's switch: one bit of the probe's state word, so the stat calls test it
 * through their routes (route.h), set again here. Started first, so that the environment's word does
 * not overwrite it. */
EXPORT int sysshim_align_paths(int on)
{
	uint64_t v = __ss_start();

	if (on > 0)
		v = __atomic_fetch_or(&__ss_state_word, SS_ST_ALIGN, __ATOMIC_RELAXED);
	else if (on == 0)
		v = __atomic_fetch_and(&__ss_state_word, ~SS_ST_ALIGN, __ATOMIC_RELAXED);
	__ss_reroute();
	return !!(v & SS_ST_ALIGN);
}
