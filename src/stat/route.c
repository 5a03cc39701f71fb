#include "route.h"

/* Each routed call's slow path: the decisions out of line (fstat.c, fstatat.c, statx.c), with
 * the word as it is, then the pointers set again for the next call. */
static uint64_t word(void)
{
	return __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);
}

static void rerouted(int fn);

#define FD_SLOW(name, fn)							\
static int name(int fd, struct stat *st)					\
{										\
	int r = __ss_fstat_slow(word(), fn, 0, fd, st);				\
	rerouted(fn);								\
	return r;								\
}

#define AT_SLOW(name, fn)							\
static int name(int fd, const char *path, struct stat *st, int flag)		\
{										\
	int r = __ss_fstatat_slow(word(), fn, 0, fd, path, st, flag);		\
	rerouted(fn);								\
	return r;								\
}

#define PATH_SLOW(name, fn, flag)						\
static int name(const char *path, struct stat *st)				\
{										\
	int r = __ss_fstatat_slow(word(), (fn) | SS_WHO_PATHFORM, 0, AT_FDCWD, path, st, flag); \
	rerouted(fn);								\
	return r;								\
}

FD_SLOW(fstat_slow, SS_FN_FSTAT)
FD_SLOW(fstat64_slow, SS_FN_FSTAT64)
AT_SLOW(fstatat_slow, SS_FN_FSTATAT)
AT_SLOW(fstatat64_slow, SS_FN_FSTATAT64)
PATH_SLOW(stat_slow, SS_FN_STAT, 0)
PATH_SLOW(stat64_slow, SS_FN_STAT64, 0)
PATH_SLOW(lstat_slow, SS_FN_LSTAT, AT_SYMLINK_NOFOLLOW)
PATH_SLOW(lstat64_slow, SS_FN_LSTAT64, AT_SYMLINK_NOFOLLOW)

static int statx_slow(int fd, const char *path, int flag, unsigned mask, struct statx *stx)
{
	int r = __ss_statx_slow(word(), SS_FN_STATX, fd, path, flag, mask, stx);
	rerouted(SS_FN_STATX);
	return r;
}

/* Each call's slow path and direct way, by a switch rather than tables of pointers,
 * which would cost a relocation each at every load of the library. */
static ss_fn slow_way(int fn)
{
	switch (fn) {
	case SS_FN_FSTAT: return (ss_fn)fstat_slow;
	case SS_FN_FSTAT64: return (ss_fn)fstat64_slow;
	case SS_FN_FSTATAT: return (ss_fn)fstatat_slow;
	case SS_FN_FSTATAT64: return (ss_fn)fstatat64_slow;
	case SS_FN_STAT: return (ss_fn)stat_slow;
	case SS_FN_STAT64: return (ss_fn)stat64_slow;
	case SS_FN_LSTAT: return (ss_fn)lstat_slow;
	case SS_FN_LSTAT64: return (ss_fn)lstat64_slow;
	case SS_FN_STATX: return (ss_fn)statx_slow;
	}
	return 0;
}

static ss_fn direct_way(int fn)
{
	switch (fn) {
	case SS_FN_FSTAT: return (ss_fn)__ss_fstat_direct;
	case SS_FN_FSTAT64: return (ss_fn)__ss_fstat64_direct;
	case SS_FN_FSTATAT: return (ss_fn)__ss_fstatat_direct;
	case SS_FN_FSTATAT64: return (ss_fn)__ss_fstatat64_direct;
	case SS_FN_STAT: return (ss_fn)__ss_stat_direct;
	case SS_FN_STAT64: return (ss_fn)__ss_stat64_direct;
	case SS_FN_LSTAT: return (ss_fn)__ss_lstat_direct;
	case SS_FN_LSTAT64: return (ss_fn)__ss_lstat64_direct;
	case SS_FN_STATX: return (ss_fn)__ss_statx_direct;
	}
	return 0;
}

ss_fn __ss_route[SS_FN_COUNT] = {
	[SS_FN_FSTAT] = (ss_fn)fstat_slow,
	[SS_FN_FSTAT64] = (ss_fn)fstat64_slow,
	[SS_FN_FSTATAT] = (ss_fn)fstatat_slow,
	[SS_FN_FSTATAT64] = (ss_fn)fstatat64_slow,
	[SS_FN_STAT] = (ss_fn)stat_slow,
	[SS_FN_STAT64] = (ss_fn)stat64_slow,
	[SS_FN_LSTAT] = (ss_fn)lstat_slow,
	[SS_FN_LSTAT64] = (ss_fn)lstat64_slow,
	[SS_FN_STATX] = (ss_fn)statx_slow,
};

#define FD_FNS		(SS_FN_BIT(SS_FN_FSTAT) | SS_FN_BIT(SS_FN_FSTAT64))
#define AT_FNS		(SS_FN_BIT(SS_FN_FSTATAT) | SS_FN_BIT(SS_FN_FSTATAT64))

/* Where call FN goes with word V: its direct way where nothing is left to decide;
 * another interposer's definition where the call is forwarded to it; its slow path otherwise. */
static ss_fn route_of(int fn, uint64_t v)
{
	if (v & SS_ST_OUT(fn)) {
		/* Looked up and forwarded to another interposer: straight to it. */
		uint64_t ld = __atomic_load_n(&__ss_loader_names, __ATOMIC_ACQUIRE);
		if ((ld & SS_LD_OTHER(fn)) && !(v & SS_ST_LIBC_ONLY))
			return __ss_loader_next(fn);
		return slow_way(fn);
	}
	if (FD_FNS >> fn & 1)
		return SS_ST_FD(v) == SS_FSTAT && !(v & SS_ST_LIBC_ONLY) ? direct_way(fn) : slow_way(fn);
	if (fn == SS_FN_STATX)
		return v & (SS_ST_ALIGN | SS_ST_STATX_NONE) ? slow_way(fn) : direct_way(fn);
	/* The path calls: newfstatat, where the path guard is off. */
	if (v & (SS_ST_ALIGN | SS_ST_PATH_STATX | SS_ST_PATH_NONE))
		return slow_way(fn);
	if ((AT_FNS >> fn & 1) && SS_ST_FD(v) == SS_FSTAT &&
	    !(SS_ST_CAPS(v) & (SS_CAP_NEWFSTATAT_NULL | SS_CAP_STATX_NULL)))
		return fn == SS_FN_FSTATAT ? (ss_fn)__ss_fstatat_empty_direct :
					     (ss_fn)__ss_fstatat64_empty_direct;
	return direct_way(fn);
}

/* After FN's slow path: the pointers set again from the word, and FN's to another
 * interposer's definition where its look-up found one (which changes no bit of the word:
 * the call's own stays set). That pointer is right whatever the word says later: a call
 * another object defines goes to it first (probe.c's __ss_forward). */
static void rerouted(int fn)
{
	__ss_reroute();
	if (__atomic_load_n(&__ss_loader_names, __ATOMIC_ACQUIRE) & SS_LD_OTHER(fn)) {
		ss_fn next = __ss_loader_next(fn);
		if (next)
			__atomic_store_n(&__ss_route[fn], next, __ATOMIC_RELAXED);
	}
}

/* The word the pointers were last set from: a slow call that changed nothing sets none. */
static uint64_t routed = SS_ST_UNPROBED;	/* the initializers' word */

/* Racing callers each set the pointers from the word they read, then read it again:
 * whoever saw a change sets them again, so the last pointers stored are the last word's.
 * Where only calls' own bits changed since the pointers were last set (a call's first
 * use), only those calls' pointers are set. */
void __ss_reroute(void)
{
	uint64_t v = word(), last = __atomic_load_n(&routed, __ATOMIC_RELAXED), again;

	for (;;) {
		uint64_t changed = v ^ last;
		if (!changed)
			return;
		int only_own = !(changed & ~(SS_ST_OUT_ALL | SS_ST_STARTED));
		for (int fn = 0; fn <= SS_FN_STATX; fn++)
			if ((!only_own || (changed & SS_ST_OUT(fn))) && slow_way(fn))
				__atomic_store_n(&__ss_route[fn], route_of(fn, v), __ATOMIC_RELAXED);
		again = word();
		if (again == v) {
			__atomic_store_n(&routed, v, __ATOMIC_RELAXED);
			return;
		}
		last = v, v = again;
	}
}
