#include "stat/statx.h"

EXPORT int statx(int fd, const char *restrict path, int flag, unsigned mask,
		 struct statx *restrict stx)
{
	return __ss_statx_call(SS_FN_STATX, fd, path, flag, mask, stx);
}
