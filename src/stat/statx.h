#ifndef SYSSHIM_STAT_STATX_H
#define SYSSHIM_STAT_STATX_H

#include "forward.h"

/* statx with the state word as it stands: the syscall, or an emulation from fstatat where
 * the probe found statx refused (statx.c); -errno. */
hidden long __ss_statx_syscall(int fd, const char *path, int flag, unsigned mask,
			 struct statx *stx);
/* Everything but the straight path, as __ss_fstatat_slow (fstatat.h); errno set. */
hidden int __ss_statx_slow(uint64_t v, int who, int fd, const char *path, int flag,
			   unsigned mask, struct statx *stx);

/* statx's entry, inlined into the export and the API (as __ss_path_call): one load and
 * one test, then the syscall the C library makes. */
static inline __attribute__((__always_inline__)) int
__ss_statx_call(int who, int fd, const char *path, int flag, unsigned mask, struct statx *stx)
{
	uint64_t v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);

	if (unlikely(v & (SS_ST_ALIGN | SS_ST_STATX_NONE | SS_FORWARD_BITS(who))))
		return __ss_statx_slow(v, who, fd, path, flag, mask, stx);
	long r = __syscall(SYS_statx, fd, path, flag, mask, stx);
	if (likely(!r))
		return 0;
	if (likely(!__ss_denied(r)))
		return __syscall_err(r);
	return __ss_statx_slow(v, who, fd, path, flag, mask, stx);
}

#endif
