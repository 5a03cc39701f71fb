#include "stat/route.h"

EXPORT int fstatat(int fd, const char *restrict path, struct stat *restrict st, int flag)
{
	return SS_ROUTE(SS_FN_FSTATAT, ss_fstatat_fn)(fd, path, st, flag);
}

EXPORT int fstatat64(int fd, const char *restrict path, struct stat *restrict st, int flag)
{
	return SS_ROUTE(SS_FN_FSTATAT64, ss_fstatat_fn)(fd, path, st, flag);
}

EXPORT int __fxstatat(int ver, int fd, const char *path, struct stat *st, int flag)
{
	return __ss_path_call(SS_FN_FXSTATAT | SS_WHO_VER, ver, fd, path, st, flag);
}

EXPORT int __fxstatat64(int ver, int fd, const char *path, struct stat *st, int flag)
{
	return __ss_path_call(SS_FN_FXSTATAT64 | SS_WHO_VER, ver, fd, path, st, flag);
}
