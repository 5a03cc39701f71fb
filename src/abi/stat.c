#include "stat/fstatat.h"

EXPORT int stat(const char *restrict path, struct stat *restrict st)
{
	return __syscall_ret(__ss_fstatat(AT_FDCWD, path, st, 0));
}

EXPORT int stat64(const char *restrict path, struct stat *restrict st) __attribute__((__alias__("stat")));

EXPORT int __xstat(int ver, const char *path, struct stat *st)
{
	if (!ARCH_STAT_VER_OK(ver))
		return __syscall_ret(-EINVAL);
	return __syscall_ret(__ss_fstatat(AT_FDCWD, path, st, 0));
}

EXPORT int __xstat64(int ver, const char *path, struct stat *st) __attribute__((__alias__("__xstat")));
