#ifndef SYSSHIM_CLOCK_H
#define SYSSHIM_CLOCK_H

/* A monotonic clock for the library's own cost measurements (the eventfd batch's
 * decision, the path guard's): the vDSO's clock_gettime where it can be found, else
 * the syscall (clock.c). */

#include "kabi.h"

/* Now, in ns. */
hidden uint64_t __ss_now_ns(void);
/* SYSSHIM_CLOCK_VDSO, _SYSCALL or _COARSE (include/sysshim.h); *cost, if given, the ns
 * one read costs. */
hidden int __ss_clock_source(unsigned *cost);
/* The ns one read costs (measured once). */
hidden unsigned __ss_clock_cost(void);

#endif
