#ifndef SYSSHIM_STAT_FORWARD_H
#define SYSSHIM_STAT_FORWARD_H

#include "probe.h"

/* Which name a call came in by, for a call the library may forward (probe.h):
 * SS_FN_* (loader.h), with SS_WHO_API for the library's own API (sysshim_stat and the
 * rest: the C library's own definition, and only where a filter cannot be read) and
 * SS_WHO_PATHFORM for the names that take (path, st) rather than (fd, path, st, flag),
 * SS_WHO_VER for the legacy __xstat family, whose first argument is a version.
 * A compile-time constant at every export. */
#define SS_WHO_API		0x100
#define SS_WHO_PATHFORM		0x200
#define SS_WHO_VER		0x400	/* a legacy name: VER is its version argument */
#define SS_WHO_FN(w)		((w) & 0xff)

/* The function the call goes to (probe.h's __ss_forward, __ss_forward_api), or 0. */
static inline ss_fn __ss_forward_target(int who)
{
	return who & SS_WHO_API ? __ss_forward_api(SS_WHO_FN(who)) : __ss_forward(SS_WHO_FN(who));
}

/* The state word's bits that take WHO's calls out of their straight way: the call's own
 * (probe.h), or for the library's API a sandbox it cannot read alone. */
#define SS_FORWARD_BITS(who)		((who) & SS_WHO_API ? SS_ST_LIBC_ONLY : SS_ST_OUT(SS_WHO_FN(who)))

/* The call made to F with the C library's signature of WHO's name (forward.c). VER: the
 * legacy names' version argument. Errno set. */
hidden int __ss_forward_fd(ss_fn f, int who, int ver, int fd, struct stat *st);
hidden int __ss_forward_path(ss_fn f, int who, int ver, int fd, const char *path,
			  struct stat *st, int flag);

/* A legacy name's version argument that the C library refuses. */
static inline int __ss_bad_ver(int who, int ver)
{
	return (who & SS_WHO_VER) && !ARCH_STAT_VER_OK(ver);
}

#endif
