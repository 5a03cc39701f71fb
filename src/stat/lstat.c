#include "fstatat.h"
#include "sysshim.h"

EXPORT int sysshim_lstat(const char *restrict path, struct stat *restrict st)
{
	return __syscall_ret(__ss_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW));
}
