#include "fstat.h"
#include "sysshim.h"
#include "own_site.h"

static long fd_try(int s, int fd, struct stat *st)
{
	if (fd < 0)
		return -EBADF;
	switch (s) {
	case SS_FSTAT:	/* a site a TSYNC filter is told of (own_site.h) */
		return __ss_own_syscall2(SYS_fstat, fd, st);
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

long __ss_fstat_strategy(uint64_t v, int fd, struct stat *st)
{
	for (;;) {
		int s = SS_ST_FD(v);
		long r = fd_try(s, fd, st);
		if (likely(!__ss_denied(r)) || s == SS_NONE)
			return r;
		uint64_t nv = __ss_refused(__ss_cap_of(s));
		if ((int)SS_ST_FD(nv) == s)
			return r;
		v = nv;
	}
}

int __ss_fstat_slow(uint64_t v, int who, int ver, int fd, struct stat *st)
{
	int fn = SS_WHO_FN(who);

	/* The library's own API wants the fast path from its first call. */
	if (who & SS_WHO_API)
		v = __ss_state();
	else if (v & SS_ST_OUT(fn))
		v = __ss_settle(fn);
	for (;;) {
		if (v & SS_FORWARD_BITS(who)) {
			ss_fn f = __ss_forward_target(who);
			if (f)
				return __ss_forward_fd(f, who, ver, fd, st);
		}
		if (v & SS_ST_PROBED)
			break;
		/* Before the probe the C library's own fstat answers, as it would without
		 * the library (SS_PROBE_AFTER); then the probe, and the word it makes. */
		ss_fn f = __ss_before_probe(fn);
		if (f)
			return __ss_forward_fd(f, who, ver, fd, st);
		v = __ss_probe();
	}
	if (__ss_bad_ver(who, ver))
		return __syscall_ret(-EINVAL);
	return __syscall_ret(__ss_fstat_strategy(v, fd, st));
}

EXPORT int sysshim_fstat(int fd, struct stat *st)
{
	return __ss_fd_call(SS_FN_FSTAT | SS_WHO_API, 0, fd, st);
}
