#ifndef SYSSHIM_STAT_FSTATAT_H
#define SYSSHIM_STAT_FSTATAT_H

#include "probe.h"

/* fstatat, stat and lstat: newfstatat, or statx converted where newfstatat is missing
 * (fstatat.c); -errno. */
hidden long __ss_fstatat(int fd, const char *path, struct stat *st, int flag);

#endif
