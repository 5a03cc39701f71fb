#ifndef SYSSHIM_STAT_FSTATAT_H
#define SYSSHIM_STAT_FSTATAT_H

#include "handed.h"

/* fstatat, stat and lstat with the probed strategy (the caller has probed): newfstatat,
 * or statx converted where newfstatat is missing (fstatat.c); -errno. */
hidden long __ss_fstatat_probed(int fd, const char *path, struct stat *st, int flag);
/* The same with the path guard's look first (fstatat.c), for the library's own use. */
hidden long __ss_fstatat_here(int fd, const char *path, struct stat *st, int flag);
/* Everything but the straight path for the call WHO (handed.h), state word V (not probed
 * yet, perhaps): the call handed over, a refused version, the path guard; errno set. */
hidden int __ss_path_look(unsigned v, int who, int ver, int fd, const char *path,
			  struct stat *st, int flag);

/* The path calls' entry, inlined into each export: one load and one test (the path guard
 * on, or the bit that hands WHO's call over, which is set until the probe has run) before the strategy. */
static inline __attribute__((__always_inline__)) int
__ss_path_call(int who, int ver, int fd, const char *path, struct stat *st, int flag)
{
	unsigned v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);

	if (unlikely(v & (SS_ST_ALIGN | SS_PASS_OF(who, SS_ST_PASS_PATH))) ||
	    __ss_bad_ver(who, ver))
		return __ss_path_look(v, who, ver, fd, path, st, flag);
	return __syscall_ret(__ss_fstatat_probed(fd, path, st, flag));
}

#endif
