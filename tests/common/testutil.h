#ifndef SYSSHIM_TESTUTIL_H
#define SYSSHIM_TESTUTIL_H

#include <linux/audit.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* The kernel, asked directly: the oracle for every test.  Where the kernel has no fstat
 * or newfstatat syscall (LoongArch before 6.11: statx only), raw_fstat and raw_fstatat ask
 * statx and convert its answer with the tests' own conversion, not the library's
 * (tests/common/statx_oracle.h; said once on stderr). */
long raw_fstat(int fd, struct stat *st);
long raw_fstatat(int fd, const char *p, struct stat *st, int f);
/* 0 where the kernel has no such syscall (ENOSYS at process start). */
int raw_has_fstat(void);
int raw_has_newfstatat(void);
#define RAW_FSTAT(fd, st) raw_fstat((fd), (st))
#define RAW_FSTATAT(fd, p, st, f) raw_fstatat((fd), (p), (st), (f))
#define RAW_STATX(fd, p, f, m, stx) syscall(SYS_statx, (fd), (p), (f), (m), (stx))

/* Field-by-field comparison of two struct stat; returns the first differing field. */
const char *stat_diff(const struct stat *a, const struct stat *b);
const char *statx_diff(const struct statx *a, const struct statx *b);

#include "libc_ref.h"

/* The audit architecture of this build: a seccomp filter's first test. */
#if defined(__x86_64__)
#define AUDIT_ARCH_SELF AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_SELF AUDIT_ARCH_AARCH64
#elif defined(__loongarch64)
#define AUDIT_ARCH_SELF AUDIT_ARCH_LOONGARCH64
#endif

/* The tests' random numbers (splitmix64): a seed printed, the same rounds replayed. */
static inline uint64_t test_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A seccomp filter that makes each listed syscall fail with errno err; 0 on success. */
int deny_syscalls(const int *nrs, int n, int err);

/* A scratch directory under $TMPDIR (or /tmp), made once per process. */
const char *scratch_dir(void);

#endif
