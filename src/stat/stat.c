#include "fstatat.h"
#include "sysshim.h"

EXPORT int sysshim_stat(const char *restrict path, struct stat *restrict st)
{
	return __ss_path_call(SS_FN_STAT | SS_WHO_API | SS_WHO_PATHFORM, 0, AT_FDCWD, path, st,
			      0);
}
