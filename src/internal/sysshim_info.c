#include "probe.h"
#include "sysshim.h"

/* The public numbers are the internal ones. */
_Static_assert((int)SYSSHIM_S_AUTO == SS_AUTO && (int)SYSSHIM_S_FSTAT == SS_FSTAT &&
	       (int)SYSSHIM_S_NEWFSTATAT_NULL == SS_NEWFSTATAT_NULL &&
	       (int)SYSSHIM_S_NEWFSTATAT_EMPTY == SS_NEWFSTATAT_EMPTY &&
	       (int)SYSSHIM_S_STATX_NULL == SS_STATX_NULL && (int)SYSSHIM_S_STATX_EMPTY == SS_STATX_EMPTY &&
	       (int)SYSSHIM_S_NONE == SS_NONE, "the strategies");
_Static_assert(SYSSHIM_CAP_FSTAT == SS_CAP_FSTAT && SYSSHIM_CAP_NEWFSTATAT == SS_CAP_NEWFSTATAT &&
	       SYSSHIM_CAP_NEWFSTATAT_NULL == SS_CAP_NEWFSTATAT_NULL &&
	       SYSSHIM_CAP_STATX == SS_CAP_STATX && SYSSHIM_CAP_STATX_NULL == SS_CAP_STATX_NULL,
	       "the capabilities");

EXPORT void sysshim_info(struct sysshim_info *info)
{
	uint64_t v = __ss_state();
	info->caps = SS_ST_CAPS(v);
	info->fstat_strategy = SS_ST_FD(v);
	info->forced = SS_ST_FORCED(v);
	info->path_via_statx = !!(v & SS_ST_PATH_STATX);
}

EXPORT const char *sysshim_strategy_name(int strategy)
{
	return __ss_strategy_name(strategy);
}
