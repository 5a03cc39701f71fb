#include "forward.h"

int __ss_forward_fd(ss_fn f, int who, int ver, int fd, struct stat *st)
{
	if (!(who & SS_WHO_VER))
		return ((ss_fstat_fn *)f)(fd, st);
	return ((ss_fxstat_fn *)f)(ver, fd, st);
}

int __ss_forward_path(ss_fn f, int who, int ver, int fd, const char *path, struct stat *st,
		   int flag)
{
	if (!(who & SS_WHO_PATHFORM))
		return !(who & SS_WHO_VER) ? ((ss_fstatat_fn *)f)(fd, path, st, flag) :
				 ((ss_fxstatat_fn *)f)(ver, fd, path, st, flag);
	return !(who & SS_WHO_VER) ? ((ss_stat_fn *)f)(path, st) : ((ss_xstat_fn *)f)(ver, path, st);
}
