#include "stat/fstatat.h"

EXPORT int fstatat(int fd, const char *restrict path, struct stat *restrict st, int flag)
{
	return __syscall_ret(__ss_fstatat(fd, path, st, flag));
}

EXPORT int fstatat64(int fd, const char *restrict path, struct stat *restrict st, int flag)
	__attribute__((__alias__("fstatat")));

EXPORT int __fxstatat(int ver, int fd, const char *path, struct stat *st, int flag)
{
	if (!ARCH_STAT_VER_OK(ver))
		return __syscall_ret(-EINVAL);
	return __syscall_ret(__ss_fstatat(fd, path, st, flag));
}

EXPORT int __fxstatat64(int ver, int fd, const char *path, struct stat *st, int flag)
	__attribute__((__alias__("__fxstatat")));
