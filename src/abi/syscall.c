#include "stat/route.h"
#include "filter.h"
#include "sandbox.h"

/* syscall(SYS_seccomp, ...) and syscall(SYS_prctl, PR_SET_SECCOMP, ...): the other way
 * a filter comes through the C library (prctl.c says what happens to it). Every other
 * call goes straight on as it would without the library.
 *
 * The C library declares syscall(long, ...). On every arch here a variadic call passes
 * its integer arguments where a call with these seven long parameters passes them (the
 * x86_64 psABI, AAPCS64 as Linux has it, the LoongArch psABI): the way glibc's own
 * syscall(), written in assembly, reads them. */

const char __ss_door_syscall;

/* The number the kernel runs: an int (the upper half of the register is not looked at),
 * on x86_64 without the x32 bit (x32's seccomp and prctl are the same numbers). */
#if defined(__x86_64__)
#define SYS_CANON(n)	((int)(n) & ~0x40000000)
#else
#define SYS_CANON(n)	((int)(n))
#endif

/* syscall(ARGS[0..6]) with UARGS in the place of the pointer (ARGS[3], or prctl's a3):
 * to the next definition (its -1 and errno made -errno again) or to the kernel. */
static long call(const void *uargs, const long *a)
{
	__ss_reroute();	/* the word changed before the kernel call: the routes follow */
	if (SYS_CANON(a[0]) == SYS_prctl && a[2] == SECCOMP_MODE_STRICT)
		uargs = (const void *)a[3];	/* looked at by no kernel; passed on as it came */
	if (__ss_loader_of(SS_FN_SYSCALL) & SS_LD_OTHER(SS_FN_SYSCALL)) {
		long r = ((ss_syscall_fn *)__ss_loader_next(SS_FN_SYSCALL))(a[0], a[1], a[2],
									     (long)uargs, a[4], a[5], a[6]);
		return r == -1 ? -(long)*__errno_location() : r;
	}
	return __syscall(a[0], a[1], a[2], uargs, a[4], a[5], a[6]);
}

/* Out of the way of every other call: a filter on its way, another interposer's
 * syscall(), the loader's list not read yet. The kernel takes seccomp(2)'s op and
 * flags, and prctl(2)'s option, as 32-bit ints: their upper halves are not looked at. */
static __attribute__((__noinline__)) long syscall_slow(long n, long a1, long a2, long a3, long a4,
					       long a5, long a6)
{
	const long a[7] = { n, a1, a2, a3, a4, a5, a6 };

	/* x32's seccomp(2) reads a struct sock_fprog of another layout: a filter that may
	 * come that way is taken for one that cannot be read. */
	if (SYS_CANON(n) != (int)n && (SYS_CANON(n) == SYS_seccomp ||
				       (SYS_CANON(n) == SYS_prctl && (int)a1 == PR_SET_SECCOMP)))
		__ss_filter_coming(SS_FPROG_UNREAD, 1), __ss_reroute();

	if (SYS_CANON(n) == SYS_seccomp)
		return __syscall_ret(__ss_filter_call_rerouted((unsigned)a1, (unsigned)a2, (const void *)a3,
						      call, a));
	if (SYS_CANON(n) == SYS_prctl && (int)a1 == PR_SET_SECCOMP &&
	    ((unsigned long)a2 == SECCOMP_MODE_STRICT || (unsigned long)a2 == SECCOMP_MODE_FILTER))
		return __syscall_ret(__ss_filter_call_rerouted(
			a2 == SECCOMP_MODE_STRICT ? SECCOMP_SET_MODE_STRICT : SECCOMP_SET_MODE_FILTER, 0,
			a2 == SECCOMP_MODE_STRICT ? 0 : (const void *)a3, call, a));
	if (__ss_loader_of(SS_FN_SYSCALL) & SS_LD_OTHER(SS_FN_SYSCALL))
		return ((ss_syscall_fn *)__ss_loader_next(SS_FN_SYSCALL))(n, a1, a2, a3, a4, a5, a6);
	return __syscall_ret(__syscall(n, a1, a2, a3, a4, a5, a6));
}

/* The C library's syscall() is the system call itself: made here. */
EXPORT long syscall(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	uint64_t ld = __atomic_load_n(&__ss_loader_names, __ATOMIC_ACQUIRE);

	/* The two numbers a filter comes by; then one test: the loader's list is read, and no
	 * other object after the library's defines syscall(). */
	switch (SYS_CANON(n)) {
	case SYS_seccomp:
	case SYS_prctl:
		break;
	default:
		if (likely((ld & (SS_LD_LOOKED(SS_FN_SYSCALL) | SS_LD_OTHER(SS_FN_SYSCALL))) ==
			   SS_LD_LOOKED(SS_FN_SYSCALL)))
			return __syscall_ret(__syscall(n, a1, a2, a3, a4, a5, a6));
	}
	return syscall_slow(n, a1, a2, a3, a4, a5, a6);
}
