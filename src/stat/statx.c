#include "statx.h"
#include "fstatat.h"
#include "path/guard.h"
#include "sysshim.h"

static long emulate(int fd, const char *path, int flag, unsigned mask, struct statx *stx)
{
	struct stat st;

	if ((flag & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	long r = __ss_fstatat(fd, path, &st, flag & ~AT_STATX_SYNC_TYPE);
	if (r)
		return r;
	if (ss_bad_ptr(stx))
		return -EFAULT;
	__ss_stat_to_statx(stx, &st);
	return 0;
}

/* A path the kernel would read slowly, redone on an aligned copy (as in fstatat.c). */
static __attribute__((__noinline__)) long copied(int fd, const char *path, size_t n, int flag,
						 unsigned mask, struct statx *stx)
{
	struct sysshim_path tmp;
	return __ss_statx(fd, __ss_path_copy(&tmp, path, n), flag, mask, stx);
}

long __ss_statx(int fd, const char *path, int flag, unsigned mask, struct statx *stx)
{
	unsigned v = __ss_state();
	size_t n;

	if (unlikely(v & SS_ST_ALIGN) && (n = __ss_path_misplaced(path)))
		return copied(fd, path, n - 1, flag, mask, stx);
	if (likely(SS_ST_CAPS(v) & SS_CAP_STATX)) {
		long r = __syscall(SYS_statx, fd, path, flag, mask, stx);
		if (likely(!__ss_denied(r)) || (SS_ST_CAPS(__ss_missing(SS_CAP_STATX)) & SS_CAP_STATX))
			return r;
	}
	return emulate(fd, path, flag, mask, stx);
}

EXPORT int sysshim_statx(int fd, const char *restrict path, int flag, unsigned mask,
		  struct statx *restrict stx)
{
	return __syscall_ret(__ss_statx(fd, path, flag, mask, stx));
}
