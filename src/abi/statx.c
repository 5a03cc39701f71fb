#include "stat/statx.h"

EXPORT int statx(int fd, const char *restrict path, int flag, unsigned mask,
		 struct statx *restrict stx)
{
	return __syscall_ret(__ss_statx(fd, path, flag, mask, stx));
}
