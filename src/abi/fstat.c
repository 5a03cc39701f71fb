#include "stat/fstat.h"

EXPORT int fstat(int fd, struct stat *st)
{
	return __syscall_ret(__ss_fstat(fd, st));
}

EXPORT int fstat64(int fd, struct stat *st) __attribute__((__alias__("fstat")));

EXPORT int __fxstat(int ver, int fd, struct stat *st)
{
	if (!ARCH_STAT_VER_OK(ver))
		return __syscall_ret(-EINVAL);
	return __syscall_ret(__ss_fstat(fd, st));
}

EXPORT int __fxstat64(int ver, int fd, struct stat *st) __attribute__((__alias__("__fxstat")));
