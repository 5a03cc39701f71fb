#include "fstat.h"
#include "sysshim.h"

static long fd_try(int s, int fd, struct stat *st)
{
	if (fd < 0)
		return -EBADF;
	switch (s) {
	case SS_FSTAT:
		return __syscall(SYS_fstat, fd, st);
	case SS_NEWFSTATAT_NULL:
		return __syscall(SYS_newfstatat, fd, 0, st, AT_EMPTY_PATH);
	case SS_NEWFSTATAT_EMPTY:
		return __syscall(SYS_newfstatat, fd, "", st, AT_EMPTY_PATH);
	case SS_STATX_NULL:
	case SS_STATX_EMPTY:
		return __ss_stat_by_statx(fd, s == SS_STATX_NULL ? 0 : "", AT_EMPTY_PATH, st);
	}
	/* Every way refused: the answer is what glibc's own call gets. */
	return __syscall(SYS_newfstatat, fd, "", st, AT_EMPTY_PATH);
}

/* Stat an open fd with the probed strategy, moving down the list while the kernel
 * refuses the syscall itself. */
long __ss_fd_stat(unsigned v, int fd, struct stat *st)
{
	if (!v)
		v = __ss_probe();
	for (;;) {
		int s = SS_ST_FD(v);
		long r = fd_try(s, fd, st);
		if (likely(!__ss_denied(r)) || s == SS_NONE)
			return r;
		unsigned nv = __ss_missing(__ss_cap_of(s));
		if ((int)SS_ST_FD(nv) == s)
			return r;
		v = nv;
	}
}

EXPORT int sysshim_fstat(int fd, struct stat *st)
{
	return __syscall_ret(__ss_fstat(fd, st));
}
