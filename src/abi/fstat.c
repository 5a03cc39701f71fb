#include "stat/fstat.h"

EXPORT int fstat(int fd, struct stat *st)
{
	return __ss_fd_call(SS_FN_FSTAT, 0, fd, st);
}

EXPORT int fstat64(int fd, struct stat *st)
{
	return __ss_fd_call(SS_FN_FSTAT64, 0, fd, st);
}

EXPORT int __fxstat(int ver, int fd, struct stat *st)
{
	return __ss_fd_call(SS_FN_FXSTAT | SS_WHO_VER, ver, fd, st);
}

EXPORT int __fxstat64(int ver, int fd, struct stat *st)
{
	return __ss_fd_call(SS_FN_FXSTAT64 | SS_WHO_VER, ver, fd, st);
}
