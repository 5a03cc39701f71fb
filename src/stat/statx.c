#include "statx.h"
#include "fstatat.h"
#include "glibc_arch.h"
#include "path/guard.h"
#include "sysshim.h"

/* statx answered from fstatat, FLAG already checked and holding no sync bit. */
static long from_fstatat(int fd, const char *path, int flag, struct statx *stx)
{
	struct stat st;
	long r = __ss_fstatat_guarded(fd, path, &st, flag);

	if (r)
		return r;
	if (ss_bad_ptr(stx))
		return -EFAULT;
	__ss_stat_to_statx(stx, &st);
	return 0;
}

/* The library's emulation with statx refused: the kernel's checks of the flags and the
 * mask, then fstatat without the sync bits. */
static long emulate(int fd, const char *path, int flag, unsigned mask, struct statx *stx)
{
	if ((flag & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	return from_fstatat(fd, path, flag & ~AT_STATX_SYNC_TYPE, stx);
}

/* glibc's own emulation, its statx()'s answer to ENOSYS where it falls back: it takes
 * no flag but these (AT_STATX_SYNC_AS_STAT is 0), so a sync bit is EINVAL there, and it
 * looks at no mask bit. */
static long emulate_as_glibc(int fd, const char *path, int flag, struct statx *stx)
{
	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	return from_fstatat(fd, path, flag, stx);
}

/* In a sandbox the library cannot read (SS_ST_LIBC_ONLY) and with no C library to hand
 * the call to (a static program, a library opened RTLD_LOCAL), statx is the call's own
 * syscall, made even though the probe asked nothing, as the C library's statx() makes
 * it. Refused, the answer is what the C library gives: its own emulation's from ENOSYS
 * where it falls back (glibc_arch.h; emulate_as_glibc), and the library's from EPERM
 * where the dynamic loader's newfstatat shows the filter lets that through (as
 * forwarded() below). */
static int libc_only_fallback(long r)
{
	return (r == -ENOSYS && ARCH_GLIBC_STATX_FALLS_BACK) ||
	       (r == -EPERM && (__ss_loader_made() & SS_SC_NEWFSTATAT));
}

long __ss_statx_syscall(int fd, const char *path, int flag, unsigned mask, struct statx *stx)
{
	uint64_t v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);

	/* Before the probe, the C library's own syscall; the probe only where it is refused. */
	if (!(v & SS_ST_PROBED)) {
		long r = __syscall(SYS_statx, fd, path, flag, mask, stx);
		if (likely(!__ss_denied(r)))
			return r;
		v = __ss_probe();
	}
	if (likely(SS_ST_CAPS(v) & SS_CAP_STATX) || unlikely(v & SS_ST_LIBC_ONLY)) {
		long r = __syscall(SYS_statx, fd, path, flag, mask, stx);
		if (likely(!__ss_denied(r)))
			return r;
		if (v & SS_ST_LIBC_ONLY ? !libc_only_fallback(r)
				      : SS_ST_CAPS(__ss_refused(SS_CAP_STATX)) & SS_CAP_STATX)
			return r;
		if ((v & SS_ST_LIBC_ONLY) && r == -ENOSYS)
			return emulate_as_glibc(fd, path, flag, stx);
	}
	return emulate(fd, path, flag, mask, stx);
}

/* A path the kernel would read slowly, redone on an aligned copy (as in fstatat.c). */
static __attribute__((__noinline__)) long statx_copied(int fd, const char *path, size_t n, int flag,
						 unsigned mask, struct statx *stx)
{
	struct sysshim_path tmp;
	return __ss_statx_syscall(fd, __ss_path_copy(&tmp, path, n), flag, mask, stx);
}

/* statx() forwarded to F. Where that is the C library's because a filter the library
 * cannot read is in force, and the filter refused statx itself (EPERM: glibc falls
 * back only from ENOSYS), the answer comes from the C library's own fstatat, if its
 * syscall, newfstatat, is one the dynamic loader made to map this process's libraries
 * (loader.h): the filter lets it through. */
static int forwarded(ss_fn f, int fd, const char *path, int flag, unsigned mask,
		  struct statx *stx)
{
	int *err = __errno_location(), e = *err;
	int r = ((ss_statx_fn *)f)(fd, path, flag, mask, stx);
	ss_fstatat_fn *at = (ss_fstatat_fn *)__ss_loader_libc(SS_FN_FSTATAT);
	struct stat st;

	if (!r || *err != EPERM ||
	    !(__atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED) & SS_ST_LIBC_ONLY) ||
	    f != __ss_loader_libc(SS_FN_STATX) || !at || !(__ss_loader_made() & SS_SC_NEWFSTATAT))
		return r;
	if ((flag & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return __syscall_ret(-EINVAL);
	if (at(fd, path, &st, flag & ~AT_STATX_SYNC_TYPE))
		return -1;
	if (ss_bad_ptr(stx))
		return __syscall_ret(-EFAULT);
	__ss_stat_to_statx(stx, &st);
	*err = e;
	return 0;
}

int __ss_statx_slow(uint64_t v, int who, int fd, const char *path, int flag, unsigned mask,
		    struct statx *stx)
{
	size_t n;

	if (who & SS_WHO_API)
		v = __ss_state();
	else if (v & SS_ST_OUT(SS_WHO_FN(who)))
		v = __ss_settle(SS_WHO_FN(who));
	if (v & SS_FORWARD_BITS(who)) {
		ss_fn f = __ss_forward_target(who);
		if (f)
			return forwarded(f, fd, path, flag, mask, stx);
	}
	if ((v & SS_ST_ALIGN) && (n = __ss_path_misplaced(path)))
		return __syscall_ret(statx_copied(fd, path, n - 1, flag, mask, stx));
	return __syscall_ret(__ss_statx_syscall(fd, path, flag, mask, stx));
}

EXPORT int sysshim_statx(int fd, const char *restrict path, int flag, unsigned mask,
		  struct statx *restrict stx)
{
	return __ss_statx_call(SS_FN_STATX | SS_WHO_API, fd, path, flag, mask, stx);
}
