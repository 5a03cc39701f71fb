#include "stat/route.h"

/* The exports jump through their route (stat/route.h); the legacy names, which take a
 * version first, go through the slow path. */
EXPORT int fstat(int fd, struct stat *st)
{
	return SS_ROUTE(SS_FN_FSTAT, ss_fstat_fn)(fd, st);
}

EXPORT int fstat64(int fd, struct stat *st)
{
	return SS_ROUTE(SS_FN_FSTAT64, ss_fstat_fn)(fd, st);
}

EXPORT int __fxstat(int ver, int fd, struct stat *st)
{
	return __ss_fd_call(SS_FN_FXSTAT | SS_WHO_VER, ver, fd, st);
}

EXPORT int __fxstat64(int ver, int fd, struct stat *st)
{
	return __ss_fd_call(SS_FN_FXSTAT64 | SS_WHO_VER, ver, fd, st);
}
