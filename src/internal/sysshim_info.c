#include "probe.h"
#include "sysshim.h"

EXPORT void sysshim_info(struct sysshim_info *info)
{
	unsigned v = __ss_state();
	info->caps = SS_ST_CAPS(v);
	info->fstat_strategy = SS_ST_FD(v);
	info->forced = SS_ST_FORCED(v);
	info->path_via_statx = !!(v & SS_ST_PATH_STATX);
}

EXPORT const char *sysshim_strategy_name(int strategy)
{
	return __ss_strategy_name(strategy);
}
