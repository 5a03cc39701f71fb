#include "stat/fstatat.h"

/* The (path, st) names, and the legacy ones that take a version first. */
#define ITS(fn)		((fn) | SS_WHO_PATHFORM)
#define LEGACY(fn)	((fn) | SS_WHO_PATHFORM | SS_WHO_VER)
#define FLAG		AT_SYMLINK_NOFOLLOW

EXPORT int lstat(const char *restrict path, struct stat *restrict st)
{
	return __ss_path_call(ITS(SS_FN_LSTAT), 0, AT_FDCWD, path, st, FLAG);
}

EXPORT int lstat64(const char *restrict path, struct stat *restrict st)
{
	return __ss_path_call(ITS(SS_FN_LSTAT64), 0, AT_FDCWD, path, st, FLAG);
}

EXPORT int __lxstat(int ver, const char *path, struct stat *st)
{
	return __ss_path_call(LEGACY(SS_FN_LXSTAT), ver, AT_FDCWD, path, st, FLAG);
}

EXPORT int __lxstat64(int ver, const char *path, struct stat *st)
{
	return __ss_path_call(LEGACY(SS_FN_LXSTAT64), ver, AT_FDCWD, path, st, FLAG);
}
