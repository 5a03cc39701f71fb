#include "stat/route.h"

/* The (path, st) names jump through their route (stat/route.h); the legacy ones, which
 * take a version first, go through the slow path. */
#define LEGACY(fn)	((fn) | SS_WHO_PATHFORM | SS_WHO_VER)
#define FLAG		AT_SYMLINK_NOFOLLOW

EXPORT int lstat(const char *restrict path, struct stat *restrict st)
{
	return SS_ROUTE(SS_FN_LSTAT, ss_stat_fn)(path, st);
}

EXPORT int lstat64(const char *restrict path, struct stat *restrict st)
{
	return SS_ROUTE(SS_FN_LSTAT64, ss_stat_fn)(path, st);
}

EXPORT int __lxstat(int ver, const char *path, struct stat *st)
{
	return __ss_path_call(LEGACY(SS_FN_LXSTAT), ver, AT_FDCWD, path, st, FLAG);
}

EXPORT int __lxstat64(int ver, const char *path, struct stat *st)
{
	return __ss_path_call(LEGACY(SS_FN_LXSTAT64), ver, AT_FDCWD, path, st, FLAG);
}
