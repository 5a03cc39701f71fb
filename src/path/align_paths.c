#include "probe.h"
#include "sysshim.h"

/* The guard's switch: one bit of the probe's state word, so the stat calls test it
 * with the load they already make. Probing first keeps the word non-zero. */
EXPORT int sysshim_align_paths(int on)
{
	unsigned v = __ss_state();

	if (on > 0)
		v = __atomic_fetch_or(&__ss_state_word, SS_ST_ALIGN, __ATOMIC_RELAXED);
	else if (on == 0)
		v = __atomic_fetch_and(&__ss_state_word, ~SS_ST_ALIGN, __ATOMIC_RELAXED);
	return !!(v & SS_ST_ALIGN);
}
