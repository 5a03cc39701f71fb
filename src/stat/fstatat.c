#include "fstatat.h"
#include "fstat.h"
#include "path/guard.h"
#include "sysshim.h"

/* fstatat(fd, "", st, AT_EMPTY_PATH) is fstat(fd), but only a kernel with the empty-path
 * fast path (6.6+, found by its NULL-path answer from 6.11 on) knows that by itself.
 * On older ones reading the first byte lets the fstat syscall answer. */
static int empty_path_on_fd(uint64_t v, int fd, const char *path, int flag)
{
	return SS_ST_FD(v) == SS_FSTAT &&
	       !(SS_ST_CAPS(v) & (SS_CAP_NEWFSTATAT_NULL | SS_CAP_STATX_NULL)) &&
	       (flag & ~(AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW)) == AT_EMPTY_PATH &&
	       fd >= 0 && !ss_bad_ptr(path) && !*path;
}

/* newfstatat's answers, given by statx. A NULL path is where the two syscalls differ:
 * which one takes it, with which flags and fds, and whether the flags or the path are
 * refused first, changed from kernel to kernel (and qemu-user 10 passes statx's NULL
 * through but refuses newfstatat's). While newfstatat answers, a NULL path goes to
 * newfstatat itself, so every check comes in its order on this kernel; a refused
 * newfstatat is noted and statx answers after all, with newfstatat's NULL-path rule of
 * this kernel (__ss_null_strict). */
static long by_statx(uint64_t v, int fd, const char *path, struct stat *st, int flag)
{
	if (unlikely(!path) && (SS_ST_CAPS(v) & SS_CAP_NEWFSTATAT)) {
		long r = __syscall(SYS_newfstatat, fd, path, st, flag);
		if (likely(!__ss_denied(r)) ||
		    (SS_ST_CAPS(__ss_refused(SS_CAP_NEWFSTATAT)) & SS_CAP_NEWFSTATAT))
			return r;
	}
	/* Linux 6.11 - 6.12: newfstatat takes NULL only with flags of AT_EMPTY_PATH alone,
	 * statx also with AT_NO_AUTOMOUNT or a sync bit; AT_SYMLINK_NOFOLLOW (harmless where
	 * the path is refused) makes statx refuse it too, in newfstatat's order (EINVAL for
	 * bad flags, else EFAULT). */
	if (unlikely(!path) && flag != AT_EMPTY_PATH && __ss_null_strict())
		flag |= AT_SYMLINK_NOFOLLOW;
	if ((flag & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		flag &= ~AT_STATX_SYNC_TYPE;
	return __ss_stat_by_statx(fd, path, flag, st);
}

/* A path the kernel would read slowly, redone on an aligned copy (the guard then lets
 * it through): out of line, so that the copy's buffer is not in every call's frame. */
static __attribute__((__noinline__)) long fstatat_copied(int fd, const char *path, size_t n,
						 struct stat *st, int flag)
{
	struct sysshim_path tmp;
	return __ss_fstatat_syscall(fd, __ss_path_copy(&tmp, path, n), st, flag);
}

long __ss_fstatat_syscall(int fd, const char *path, struct stat *st, int flag)
{
	uint64_t v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);
	long r;

	if (unlikely(empty_path_on_fd(v, fd, path, flag)))
		return __ss_fstat_strategy(v, fd, st);
	for (;;) {
		if (v & SS_ST_PATH_NONE)
			return __syscall(SYS_newfstatat, fd, path, st, flag);
		unsigned cap = v & SS_ST_PATH_STATX ? SS_CAP_STATX : SS_CAP_NEWFSTATAT;
		if (cap == SS_CAP_STATX)
			r = by_statx(v, fd, path, st, flag);
		else
			r = __syscall(SYS_newfstatat, fd, path, st, flag);
		if (likely(!__ss_denied(r)))
			return r;
		uint64_t nv = __ss_refused(cap);
		if ((nv & (SS_ST_PATH_STATX | SS_ST_PATH_NONE)) ==
		    (v & (SS_ST_PATH_STATX | SS_ST_PATH_NONE)))
			return r;
		v = nv;
	}
}

long __ss_fstatat_guarded(int fd, const char *path, struct stat *st, int flag)
{
	uint64_t v = __ss_start();
	size_t n;

	if (unlikely(v & SS_ST_ALIGN) && (n = __ss_path_misplaced(path)))
		return fstatat_copied(fd, path, n - 1, st, flag);
	return __ss_fstatat_syscall(fd, path, st, flag);
}

int __ss_fstatat_slow(uint64_t v, int who, int ver, int fd, const char *path, struct stat *st,
		   int flag)
{
	int fn = SS_WHO_FN(who);

	if (who & SS_WHO_API)
		v = __ss_state();
	else if (v & SS_ST_OUT(fn))
		v = __ss_settle(fn);
	if (v & SS_FORWARD_BITS(who)) {
		ss_fn f = __ss_forward_target(who);
		if (f)
			return __ss_forward_path(f, who, ver, fd, path, st, flag);
	}
	if (__ss_bad_ver(who, ver))
		return __syscall_ret(-EINVAL);
	/* fstatat(fd, "", AT_EMPTY_PATH) is an fd stat: before the probe it goes to the C
	 * library's own fstatat, counted with the others (fstat.c), then the probe. The path
	 * is not read to tell (the kernel answers EFAULT for one that cannot be read): every
	 * call with AT_EMPTY_PATH goes there, a rare path call among them counted too. */
	if (!(v & SS_ST_PROBED) && (flag & AT_EMPTY_PATH)) {
		ss_fn f = __ss_before_probe(fn);
		if (f)
			return __ss_forward_path(f, who, ver, fd, path, st, flag);
		__ss_probe();
	}
	return __syscall_ret(__ss_fstatat_guarded(fd, path, st, flag));
}

EXPORT int sysshim_fstatat(int fd, const char *restrict path, struct stat *restrict st, int flag)
{
	return __ss_path_call(SS_FN_FSTATAT | SS_WHO_API, 0, fd, path, st, flag);
}
