#ifndef SYSSHIM_STAT_IMPL_H
#define SYSSHIM_STAT_IMPL_H

#include "probe.h"

hidden long __ss_fd_stat(unsigned v, int fd, struct stat *st);
hidden long __ss_fstat(int fd, struct stat *st);
hidden long __ss_fstatat(int fd, const char *path, struct stat *st, int flag);
hidden long __ss_statx(int fd, const char *path, int flag, unsigned mask, struct statx *stx);

#define EXPORT __attribute__((__visibility__("default")))

#endif
