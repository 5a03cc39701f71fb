#ifndef SYSSHIM_STAT_HANDED_H
#define SYSSHIM_STAT_HANDED_H

#include "probe.h"

/* Which name a call came in by, for a call the library may hand over (probe.h):
 * SS_FN_* (loader.h), with SS_WHO_API for the library's own API (sysshim_stat and the
 * rest: the C library's own definition, and only where a filter cannot be read) and
 * SS_WHO_PATHFORM for the names that take (path, st) rather than (fd, path, st, flag),
 * SS_WHO_VER for the legacy __xstat family, whose first argument is a version.
 * A compile-time constant at every export. */
#define SS_WHO_API		0x100
#define SS_WHO_PATHFORM		0x200
#define SS_WHO_VER		0x400	/* a legacy name: VER is its version argument */
#define SS_WHO_FN(w)		((w) & 0xff)

/* The function the call goes to (probe.h's __ss_handed, __ss_handed_api), or 0. */
static inline ss_fn __ss_target(int who)
{
	return who & SS_WHO_API ? __ss_handed_api(SS_WHO_FN(who)) : __ss_handed(SS_WHO_FN(who));
}

/* The state word's bit that makes WHO's calls go elsewhere. */
#define SS_PASS_OF(who, group)	((who) & SS_WHO_API ? SS_ST_CAREFUL : (group))

/* The call made to F with the C library's signature of WHO's name (handed.c). VER: the
 * legacy names' version argument. Errno set. */
hidden int __ss_call_fd(ss_fn f, int who, int ver, int fd, struct stat *st);
hidden int __ss_call_path(ss_fn f, int who, int ver, int fd, const char *path,
			  struct stat *st, int flag);

/* A legacy name's version argument that the C library refuses. */
static inline int __ss_bad_ver(int who, int ver)
{
	return (who & SS_WHO_VER) && !ARCH_STAT_VER_OK(ver);
}

#endif
