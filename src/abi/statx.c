#include "stat/route.h"

EXPORT int statx(int fd, const char *restrict path, int flag, unsigned mask,
		 struct statx *restrict stx)
{
	return SS_ROUTE(SS_FN_STATX, ss_statx_fn)(fd, path, flag, mask, stx);
}
