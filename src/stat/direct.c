#include "route.h"
#include "own_site.h"

/* Each call's direct way: the syscall, and the C library's errno where it fails. A
 * syscall the kernel refuses itself (ENOSYS, EPERM: a filter, an emulator) goes to the
 * call's slow path, which decides again (route.h says why the parameters are long). The
 * failures are out of line, so that the way itself is the syscall and one compare. */

static __attribute__((__noinline__, __cold__)) int fd_failed(long r, int fn, int fd,
							    struct stat *st)
{
	if (!__ss_denied(r))
		return __syscall_err(r);
	return __ss_fstat_slow(__atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED), fn, 0, fd, st);
}

static __attribute__((__noinline__, __cold__)) int path_failed(long r, int who, int fd,
							      const char *path, struct stat *st,
							      int flag)
{
	if (!__ss_denied(r))
		return __syscall_err(r);
	return __ss_fstatat_slow(__atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED), who, 0, fd,
			      path, st, flag);
}

#define FD_WAY(name, fn)							\
long name(long fd, long st)							\
{										\
	long r = __ss_own_syscall2(SYS_fstat, fd, st);	/* own_site.h */	\
	if (likely((unsigned long)r < -4095UL))					\
		return r;							\
	return fd_failed(r, fn, (int)fd, (struct stat *)st);			\
}

FD_WAY(__ss_fstat_direct, SS_FN_FSTAT)
FD_WAY(__ss_fstat64_direct, SS_FN_FSTAT64)

/* fstatat(fd, path, st, flag): newfstatat, as the C library makes it. */
#define AT_WAY(name, fn)							\
__attribute__((__noinline__)) long name(long fd, long path, long st, long flag) \
{										\
	long r = __syscall(SYS_newfstatat, fd, path, st, flag);			\
	if (likely((unsigned long)r < -4095UL))					\
		return r;							\
	return path_failed(r, fn, (int)fd, (const char *)path, (struct stat *)st,	\
			   (int)flag);						\
}

AT_WAY(__ss_fstatat_direct, SS_FN_FSTATAT)
AT_WAY(__ss_fstatat64_direct, SS_FN_FSTATAT64)

/* The same where the probe chose fstat on a kernel whose newfstatat(fd, "") reads the
 * path (before 6.11's NULL path, found by the probe): AT_EMPTY_PATH goes to the slow path,
 * which answers an empty path with fstat (fstatat.c). */
#define AT_EMPTY_WAY(name, fn)							\
long name(long fd, long path, long st, long flag)				\
{										\
	if (unlikely(flag & AT_EMPTY_PATH))					\
		return __ss_fstatat_slow(__atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED), \
				      fn, 0, (int)fd, (const char *)path,		\
				      (struct stat *)st, (int)flag);		\
	long r = __syscall(SYS_newfstatat, fd, path, st, flag);			\
	if (likely((unsigned long)r < -4095UL))					\
		return r;							\
	return path_failed(r, fn, (int)fd, (const char *)path, (struct stat *)st,	\
			   (int)flag);						\
}

AT_EMPTY_WAY(__ss_fstatat_empty_direct, SS_FN_FSTATAT)
AT_EMPTY_WAY(__ss_fstatat64_empty_direct, SS_FN_FSTATAT64)

/* stat(path, st) and lstat: fstatat's way at the current directory, as the C library's
 * stat is its fstatat (a refused syscall is decided again as fstatat's, the same call). */
long __ss_stat_direct(long path, long st)
{
	return __ss_fstatat_direct(AT_FDCWD, path, st, 0);
}

long __ss_stat64_direct(long path, long st)
{
	return __ss_fstatat64_direct(AT_FDCWD, path, st, 0);
}

long __ss_lstat_direct(long path, long st)
{
	return __ss_fstatat_direct(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

long __ss_lstat64_direct(long path, long st)
{
	return __ss_fstatat64_direct(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

static __attribute__((__noinline__, __cold__)) int statx_failed(long r, int fd, const char *path,
							       int flag, unsigned mask,
							       struct statx *stx)
{
	if (!__ss_denied(r))
		return __syscall_err(r);
	return __ss_statx_slow(__atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED), SS_FN_STATX,
			       fd, path, flag, mask, stx);
}

long __ss_statx_direct(long fd, long path, long flag, long mask, long stx)
{
	long r = __syscall(SYS_statx, fd, path, flag, mask, stx);
	if (likely((unsigned long)r < -4095UL))
		return r;
	return statx_failed(r, (int)fd, (const char *)path, (int)flag, (unsigned)mask,
			    (struct statx *)stx);
}
