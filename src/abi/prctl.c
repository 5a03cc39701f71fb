#include "probe.h"

/* prctl(PR_SET_SECCOMP) is one of the two ways a program installs a seccomp filter
 * through the C library (libseccomp's seccomp_load() takes either): the filter is read
 * before it reaches the kernel (probe.h), then the call goes on as it would without
 * the library: to another interposer's definition, where there is one; else straight
 * to the kernel, as the C library's prctl() would send it. The C library declares
 * prctl(int, ...), whose arguments travel as these parameters do (syscall.c says why). */
const char __ss_door_prctl;

static __attribute__((__noinline__)) int slow(int option, unsigned long a2, unsigned long a3,
					      unsigned long a4, unsigned long a5)
{
	if (option == PR_SET_SECCOMP && (a2 == SECCOMP_MODE_STRICT || a2 == SECCOMP_MODE_FILTER))
		__ss_filter_coming((const void *)a3, a2 == SECCOMP_MODE_FILTER);
	if (__ss_loader() & SS_FN_BIT(SS_FN_PRCTL))
		return ((ss_prctl_fn *)__ss_loader_next(SS_FN_PRCTL))(option, a2, a3, a4, a5);
	return __syscall_ret(__syscall(SYS_prctl, option, a2, a3, a4, a5));
}

EXPORT int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4,
		 unsigned long a5)
{
	unsigned ld = __atomic_load_n(&__ss_loader_scanned, __ATOMIC_ACQUIRE);

	if (unlikely(option == PR_SET_SECCOMP || !ld || (ld & SS_FN_BIT(SS_FN_PRCTL))))
		return slow(option, a2, a3, a4, a5);
	return __syscall_ret(__syscall(SYS_prctl, option, a2, a3, a4, a5));
}
