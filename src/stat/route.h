#ifndef SYSSHIM_STAT_ROUTE_H
#define SYSSHIM_STAT_ROUTE_H

/* Where each of the C library's names the library exports goes (route.c): one pointer
 * per call, which the export jumps through, as a PLT entry does. It points at the
 * call's direct way (direct.c: the syscall the C library makes, or fstat where the
 * probe chose it), at another interposer's definition the call is forwarded to, or at the
 * call's slow path (the out-of-line decisions: the first call, a sandbox it cannot read, the path
 * guard, before the probe). Every way is right whatever the word says now: a stale
 * pointer costs time, never an answer (a direct way whose syscall is refused goes
 * through the look). Async-signal-safe: atomic stores, no locks. */

#include "fstat.h"
#include "fstatat.h"
#include "statx.h"

/* The routed calls: loader.h's SS_FN_* below this (the legacy __fxstat family has no
 * route: its exports go through the look). */
extern ss_fn __ss_route[SS_FN_COUNT] hidden;

/* The pointers set again from the state word and the loader's list as they are now:
 * after every change of either (the look does it; prctl() and syscall() after a
 * filter comes; sysshim_align_paths()). */
hidden void __ss_reroute(void);

/* __ss_filter_call() (filter.h) for prctl() and syscall(), and the routes set again from
 * what it left in the state word (a refusal after the read, a filter taken for one that
 * cannot be read); the kernel call itself (KERNEL) sets them first, once the fast paths
 * are dropped. */
#include "filter.h"
static inline long __ss_filter_call_rerouted(unsigned op, unsigned flags, const void *prog,
					     ss_seccomp_call_fn *kernel, const long *a)
{
	long r = __ss_filter_call(op, flags, prog, kernel, a);
	__ss_reroute();
	return r;
}

/* The export's jump: a plain load, so that the compiler makes it one indirect jump
 * (an aligned pointer is read whole on every arch here; only atomic stores write it). */
#define SS_ROUTE(fn, type)	((type *)__ss_route[fn])

/* The direct ways (direct.c). Declared with long parameters where the C library's take
 * int: every psABI here passes an int in the register a long takes, and the kernel reads
 * only the low 32 bits of an int argument, so the fd and the flags reach the kernel as
 * the caller left them, with no instruction to widen them (glibc's own wrappers pass
 * them so). They return an int's value in the return register. */
hidden long __ss_fstat_direct(long fd, long st);
hidden long __ss_fstat64_direct(long fd, long st);
hidden long __ss_fstatat_direct(long fd, long path, long st, long flag);
hidden long __ss_fstatat64_direct(long fd, long path, long st, long flag);
hidden long __ss_fstatat_empty_direct(long fd, long path, long st, long flag);
hidden long __ss_fstatat64_empty_direct(long fd, long path, long st, long flag);
hidden long __ss_stat_direct(long path, long st);
hidden long __ss_stat64_direct(long path, long st);
hidden long __ss_lstat_direct(long path, long st);
hidden long __ss_lstat64_direct(long path, long st);
hidden long __ss_statx_direct(long fd, long path, long flag, long mask, long stx);

#endif
