#include "stat/fstatat.h"

/* The (path, st) names, and the legacy ones that take a version first. */
#define ITS(fn)		((fn) | SS_WHO_PATHFORM)
#define LEGACY(fn)	((fn) | SS_WHO_PATHFORM | SS_WHO_VER)
#define FLAG		0

EXPORT int stat(const char *restrict path, struct stat *restrict st)
{
	return __ss_path_call(ITS(SS_FN_STAT), 0, AT_FDCWD, path, st, FLAG);
}

EXPORT int stat64(const char *restrict path, struct stat *restrict st)
{
	return __ss_path_call(ITS(SS_FN_STAT64), 0, AT_FDCWD, path, st, FLAG);
}

EXPORT int __xstat(int ver, const char *path, struct stat *st)
{
	return __ss_path_call(LEGACY(SS_FN_XSTAT), ver, AT_FDCWD, path, st, FLAG);
}

EXPORT int __xstat64(int ver, const char *path, struct stat *st)
{
	return __ss_path_call(LEGACY(SS_FN_XSTAT64), ver, AT_FDCWD, path, st, FLAG);
}
