#ifndef SYSSHIM_STAT_FSTAT_H
#define SYSSHIM_STAT_FSTAT_H

#include "probe.h"

/* Stat an open fd with the probed strategy, moving down the list while the kernel
 * refuses the syscall itself (fstat.c). */
hidden long __ss_fd_stat(unsigned v, int fd, struct stat *st);

/* fstat's hot path, inlined into each export: one load, one compare, the syscall,
 * one test. Everything else (first call, a refused syscall, errors) is out of line. */
static inline long __ss_fstat(int fd, struct stat *st)
{
	unsigned v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);
	if (likely(SS_ST_FD(v) == SS_FSTAT)) {
		long r = __syscall(SYS_fstat, fd, st);
		if (likely(!r))
			return 0;
		if (likely(!__ss_denied(r)))
			return r;
	}
	return __ss_fd_stat(v, fd, st);
}

#endif
