#ifndef SYSSHIM_STAT_FSTATAT_H
#define SYSSHIM_STAT_FSTATAT_H

#include "forward.h"

/* fstatat, stat and lstat with the state word as it stands: newfstatat, or statx
 * converted where newfstatat is missing, the probe made where the kernel refuses one
 * (fstatat.c); -errno. */
hidden long __ss_fstatat_syscall(int fd, const char *path, struct stat *st, int flag);
/* The same with the path guard's look first (fstatat.c), for the library's own use. */
hidden long __ss_fstatat_guarded(int fd, const char *path, struct stat *st, int flag);
/* Everything but the straight path for the call WHO (forward.h), state word V: the call
 * looked up or forwarded, an fd's empty path, a refused version or syscall, the path
 * guard; errno set. */
hidden int __ss_fstatat_slow(uint64_t v, int who, int ver, int fd, const char *path,
			  struct stat *st, int flag);

/* The path calls' entry, inlined into each export: one load and one test (WHO's own
 * bit, the path guard, a path way other than newfstatat; for fstatat, AT_EMPTY_PATH,
 * whose bit the word never sets), then the syscall the C library makes. */
static inline __attribute__((__always_inline__)) int
__ss_path_call(int who, int ver, int fd, const char *path, struct stat *st, int flag)
{
	uint64_t v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);

	if (unlikely(((v | (unsigned)(flag & AT_EMPTY_PATH)) &
		      (SS_ST_ALIGN | SS_ST_PATH_STATX | SS_ST_PATH_NONE | SS_FORWARD_BITS(who) |
		       AT_EMPTY_PATH)) ||
		     __ss_bad_ver(who, ver)))
		return __ss_fstatat_slow(v, who, ver, fd, path, st, flag);
	long r = __syscall(SYS_newfstatat, fd, path, st, flag);
	if (likely(!r))
		return 0;
	if (likely(!__ss_denied(r)))
		return __syscall_err(r);
	return __ss_fstatat_slow(v, who, ver, fd, path, st, flag);
}

#endif
