#ifndef SYSSHIM_STAT_STATX_H
#define SYSSHIM_STAT_STATX_H

#include "probe.h"

/* statx: the syscall, or an emulation from fstatat where statx is refused (statx.c);
 * -errno. */
hidden long __ss_statx(int fd, const char *path, int flag, unsigned mask, struct statx *stx);

#endif
