#include "probe.h"

/* syscall(SYS_seccomp, ...) and syscall(SYS_prctl, PR_SET_SECCOMP, ...): the other way
 * a filter comes through the C library (prctl.c says what happens to it). Every other
 * call goes straight on as it would without the library.
 *
 * The C library declares syscall(long, ...). On every arch here a variadic call passes
 * its integer arguments where a call with these seven long parameters passes them (the
 * x86_64 psABI, AAPCS64 as Linux has it, the LoongArch psABI): the way glibc's own
 * syscall(), written in assembly, reads them. */

const char __ss_door_syscall;

/* Out of the way of every other call: a filter on its way, another interposer's
 * syscall(), the loader's list not read yet. */
static __attribute__((__noinline__)) long slow(long n, long a1, long a2, long a3, long a4,
					       long a5, long a6)
{
	/* Strict mode takes no flags and no argument (the kernel refuses it otherwise, and
	 * libseccomp asks it so to learn whether seccomp(2) exists). */
	if (n == SYS_seccomp &&
	    ((a1 == SECCOMP_SET_MODE_STRICT && !a2 && !a3) || a1 == SECCOMP_SET_MODE_FILTER))
		__ss_filter_coming((const void *)a3, a1 == SECCOMP_SET_MODE_FILTER);
	else if (n == SYS_prctl && a1 == PR_SET_SECCOMP &&
		 (a2 == SECCOMP_MODE_STRICT || a2 == SECCOMP_MODE_FILTER))
		__ss_filter_coming((const void *)a3, a2 == SECCOMP_MODE_FILTER);
	if (__ss_loader() & SS_FN_BIT(SS_FN_SYSCALL))
		return ((ss_syscall_fn *)__ss_loader_next(SS_FN_SYSCALL))(n, a1, a2, a3, a4, a5, a6);
	return __syscall_ret(__syscall(n, a1, a2, a3, a4, a5, a6));
}

/* The C library's syscall() is the system call itself: made here. */
EXPORT long syscall(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	unsigned ld = __atomic_load_n(&__ss_loader_scanned, __ATOMIC_ACQUIRE);

	/* The two numbers a filter comes by; then one test: the loader's list is read, and no
	 * other object after the library's defines syscall(). */
	switch (n) {
	case SYS_seccomp:
	case SYS_prctl:
		break;
	default:
		if (likely((ld & (SS_LD_DONE | SS_FN_BIT(SS_FN_SYSCALL))) == SS_LD_DONE))
			return __syscall_ret(__syscall(n, a1, a2, a3, a4, a5, a6));
	}
	return slow(n, a1, a2, a3, a4, a5, a6);
}
