#ifndef SYSSHIM_TESTUTIL_H
#define SYSSHIM_TESTUTIL_H

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* The kernel, asked directly: the oracle for every test. */
#define RAW_FSTAT(fd, st) syscall(SYS_fstat, (fd), (st))
#define RAW_FSTATAT(fd, p, st, f) syscall(SYS_newfstatat, (fd), (p), (st), (f))
#define RAW_STATX(fd, p, f, m, stx) syscall(SYS_statx, (fd), (p), (f), (m), (stx))

/* Field-by-field comparison of two struct stat; returns the first differing field. */
const char *stat_diff(const struct stat *a, const struct stat *b);
const char *statx_diff(const struct statx *a, const struct statx *b);

#include "libc_ref.h"

/* A seccomp filter that makes each listed syscall fail with errno err; 0 on success. */
int deny_syscalls(const int *nrs, int n, int err);

/* A scratch directory under $TMPDIR (or /tmp), made once per process. */
const char *scratch_dir(void);

#endif
