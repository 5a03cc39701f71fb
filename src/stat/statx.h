#ifndef SYSSHIM_STAT_STATX_H
#define SYSSHIM_STAT_STATX_H

#include "handed.h"

/* statx with the probed state (the caller has probed): the syscall, or an emulation from fstatat where
 * statx is refused (statx.c); -errno. */
hidden long __ss_statx_probed(int fd, const char *path, int flag, unsigned mask,
			 struct statx *stx);
/* Everything but the straight path, as __ss_path_look (fstatat.h); errno set. */
hidden int __ss_statx_look(unsigned v, int who, int fd, const char *path, int flag,
			   unsigned mask, struct statx *stx);

/* statx's entry, inlined into the export and the API (as __ss_path_call). */
static inline __attribute__((__always_inline__)) int
__ss_statx_call(int who, int fd, const char *path, int flag, unsigned mask, struct statx *stx)
{
	unsigned v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);

	if (unlikely(v & (SS_ST_ALIGN | SS_PASS_OF(who, SS_ST_PASS_STATX))))
		return __ss_statx_look(v, who, fd, path, flag, mask, stx);
	return __syscall_ret(__ss_statx_probed(fd, path, flag, mask, stx));
}

#endif
