#include "stat/route.h"

/* The (path, st) names jump through their route (stat/route.h); the legacy ones, which
 * take a version first, go through the slow path. */
#define LEGACY(fn)	((fn) | SS_WHO_PATHFORM | SS_WHO_VER)
#define FLAG		0

EXPORT int stat(const char *restrict path, struct stat *restrict st)
{
	return SS_ROUTE(SS_FN_STAT, ss_stat_fn)(path, st);
}

EXPORT int stat64(const char *restrict path, struct stat *restrict st)
{
	return SS_ROUTE(SS_FN_STAT64, ss_stat_fn)(path, st);
}

EXPORT int __xstat(int ver, const char *path, struct stat *st)
{
	return __ss_path_call(LEGACY(SS_FN_XSTAT), ver, AT_FDCWD, path, st, FLAG);
}

EXPORT int __xstat64(int ver, const char *path, struct stat *st)
{
	return __ss_path_call(LEGACY(SS_FN_XSTAT64), ver, AT_FDCWD, path, st, FLAG);
}
