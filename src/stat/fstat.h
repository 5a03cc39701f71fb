#ifndef SYSSHIM_STAT_FSTAT_H
#define SYSSHIM_STAT_FSTAT_H

#include "handed.h"

/* Stat an open fd with the strategy of state word V (probed), moving down the list
 * while the kernel refuses the syscall itself (fstat.c); -errno. */
hidden long __ss_fd_stat(unsigned v, int fd, struct stat *st);
/* Everything but the fast path, for the call WHO (handed.h) with state word V (not
 * probed yet, perhaps): the call handed over, a refused version, the strategy; errno set. */
hidden int __ss_fd_look(unsigned v, int who, int ver, int fd, struct stat *st);

/* fstat's hot path, inlined into each export: one load, one compare, the syscall,
 * one test. The compare's mask holds the bit that hands WHO's call over, so that a
 * process with no other interposer pays nothing for it; everything else is a tail
 * call out of line. */
static inline __attribute__((__always_inline__)) int
__ss_fd_call(int who, int ver, int fd, struct stat *st)
{
	unsigned v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);

	if (likely((v & (0xf | SS_PASS_OF(who, SS_ST_PASS_FD))) == SS_FSTAT) &&
	    !__ss_bad_ver(who, ver)) {
		long r = __syscall(SYS_fstat, fd, st);
		if (likely(!r))
			return 0;
		if (likely(!__ss_denied(r)))
			return __syscall_err(r);
	}
	return __ss_fd_look(v, who, ver, fd, st);
}

#endif
