#include "stat/fstatat.h"

EXPORT int lstat(const char *restrict path, struct stat *restrict st)
{
	return __syscall_ret(__ss_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW));
}

EXPORT int lstat64(const char *restrict path, struct stat *restrict st) __attribute__((__alias__("lstat")));

EXPORT int __lxstat(int ver, const char *path, struct stat *st)
{
	if (!ARCH_STAT_VER_OK(ver))
		return __syscall_ret(-EINVAL);
	return __syscall_ret(__ss_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW));
}

EXPORT int __lxstat64(int ver, const char *path, struct stat *st) __attribute__((__alias__("__lxstat")));
