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

long __ss_fd_stat(unsigned v, int fd, struct stat *st)
{
	for (;;) {
		int s = SS_ST_FD(v);
		long r = fd_try(s, fd, st);
		if (likely(!__ss_denied(r)) || s == SS_NONE)
			return r;
		unsigned nv = __ss_refused(__ss_cap_of(s));
		if ((int)SS_ST_FD(nv) == s)
			return r;
		v = nv;
	}
}

int __ss_fd_look(unsigned v, int who, int ver, int fd, struct stat *st)
{
	if (!(v & SS_ST_PROBED))
		v = __ss_state();
	if (v & SS_PASS_OF(who, SS_ST_PASS_FD)) {
		ss_fn f = __ss_target(who);
		if (f)
			return __ss_call_fd(f, who, ver, fd, st);
	}
	if (__ss_bad_ver(who, ver))
		return __syscall_ret(-EINVAL);
	return __syscall_ret(__ss_fd_stat(v, fd, st));
}

EXPORT int sysshim_fstat(int fd, struct stat *st)
{
	return __ss_fd_call(SS_FN_FSTAT | SS_WHO_API, 0, fd, st);
}
