#ifndef SYSSHIM_STAT_FSTAT_H
#define SYSSHIM_STAT_FSTAT_H

#include "forward.h"
#include "own_site.h"

/* Stat an open fd with the strategy of state word V (probed), moving down the list
 * while the kernel refuses the syscall itself (fstat.c); -errno. */
hidden long __ss_fstat_strategy(uint64_t v, int fd, struct stat *st);
/* Everything but the fast path, for the call WHO (forward.h) with state word V (not
 * probed yet, perhaps): the call looked up, forwarded, sent to the C library before the
 * probe, a refused version, the strategy; errno set. */
hidden int __ss_fstat_slow(uint64_t v, int who, int ver, int fd, struct stat *st);

/* fstat's hot path, inlined into each export: one load, one compare, the syscall,
 * one test. The compare's mask holds WHO's own bit, set until the call is looked up
 * and while it is forwarded, so that a process with no other interposer pays nothing
 * for it; everything else is a call out of line. */
static inline __attribute__((__always_inline__)) int
__ss_fd_call(int who, int ver, int fd, struct stat *st)
{
	uint64_t v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);

	if (likely((v & (0xf | SS_FORWARD_BITS(who))) == SS_FSTAT) && !__ss_bad_ver(who, ver)) {
		long r = __ss_own_syscall2(SYS_fstat, fd, st);	/* own_site.h */
		if (likely(!r))
			return 0;
		if (likely(!__ss_denied(r)))
			return __syscall_err(r);
	}
	return __ss_fstat_slow(v, who, ver, fd, st);
}

#endif
