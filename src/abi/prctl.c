#include "stat/route.h"
#include "filter.h"

/* prctl(PR_SET_SECCOMP) is one of the two ways a program installs a seccomp filter
 * through the C library (libseccomp's seccomp_load() takes either): the filter is read
 * before it reaches the kernel (filter.c), then the call goes on as it would without
 * the library: to another interposer's definition, where there is one; else straight
 * to the kernel, as the C library's prctl() would send it. The C library declares
 * prctl(int, ...), whose arguments travel as these parameters do (syscall.c says why). */
const char __ss_door_prctl;

/* prctl(ARGS[0..4]) with UARGS as its a3: to the next definition (its -1 and errno
 * made -errno again) or to the kernel. */
static long call(const void *uargs, const long *a)
{
	__ss_reroute();	/* the word changed before the kernel call: the routes follow */
	if (a[1] == SECCOMP_MODE_STRICT)
		uargs = (const void *)a[2];	/* looked at by no kernel; passed on as it came */
	if (__ss_loader_of(SS_FN_PRCTL) & SS_LD_OTHER(SS_FN_PRCTL)) {
		long r = ((ss_prctl_fn *)__ss_loader_next(SS_FN_PRCTL))((int)a[0], a[1],
									 (unsigned long)uargs, a[3], a[4]);
		return r == -1 ? -(long)*__errno_location() : r;
	}
	return __syscall(SYS_prctl, a[0], a[1], uargs, a[3], a[4]);
}

static __attribute__((__noinline__)) int prctl_slow(int option, unsigned long a2, unsigned long a3,
					      unsigned long a4, unsigned long a5)
{
	const long a[5] = { option, (long)a2, (long)a3, (long)a4, (long)a5 };

	/* The kernel's prctl_set_seccomp(): strict mode ignores A3 (seccomp(2) is given
	 * none); any other mode is EINVAL. */
	if (option == PR_SET_SECCOMP && (a2 == SECCOMP_MODE_STRICT || a2 == SECCOMP_MODE_FILTER))
		return (int)__syscall_ret(__ss_filter_call_rerouted(
			a2 == SECCOMP_MODE_STRICT ? SECCOMP_SET_MODE_STRICT : SECCOMP_SET_MODE_FILTER, 0,
			a2 == SECCOMP_MODE_STRICT ? 0 : (const void *)a3, call, a));
	if (__ss_loader_of(SS_FN_PRCTL) & SS_LD_OTHER(SS_FN_PRCTL))
		return ((ss_prctl_fn *)__ss_loader_next(SS_FN_PRCTL))(option, a2, a3, a4, a5);
	return __syscall_ret(__syscall(SYS_prctl, option, a2, a3, a4, a5));
}

EXPORT int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4,
		 unsigned long a5)
{
	uint64_t ld = __atomic_load_n(&__ss_loader_names, __ATOMIC_ACQUIRE);

	if (unlikely(option == PR_SET_SECCOMP ||
		     (ld & (SS_LD_LOOKED(SS_FN_PRCTL) | SS_LD_OTHER(SS_FN_PRCTL))) !=
			     SS_LD_LOOKED(SS_FN_PRCTL)))
		return prctl_slow(option, a2, a3, a4, a5);
	return __syscall_ret(__syscall(SYS_prctl, option, a2, a3, a4, a5));
}
