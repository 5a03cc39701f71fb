#include <stdarg.h>
#include "probe.h"

/* syscall(SYS_seccomp, ...) and syscall(SYS_prctl, PR_SET_SECCOMP, ...): the other way
 * a filter comes through the C library (prctl.c says what happens to it). Every other
 * call goes straight on to syscall's next definition. */
EXPORT long syscall(long n, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	/* Strict mode takes no flags and no argument (the kernel refuses it otherwise, and
	 * libseccomp asks it so to learn whether seccomp(2) exists). */
	if (n == SYS_seccomp && ((a[0] == SECCOMP_SET_MODE_STRICT && !a[1] && !a[2]) ||
				 a[0] == SECCOMP_SET_MODE_FILTER))
		__ss_filter_coming((const void *)a[2], a[0] == SECCOMP_SET_MODE_FILTER);
	else if (n == SYS_prctl && a[0] == PR_SET_SECCOMP &&
		 (a[1] == SECCOMP_MODE_STRICT || a[1] == SECCOMP_MODE_FILTER))
		__ss_filter_coming((const void *)a[2], a[1] == SECCOMP_MODE_FILTER);
	ss_syscall_fn *f = (ss_syscall_fn *)__ss_loader_next(SS_FN_SYSCALL);
	if (f)
		return f(n, a[0], a[1], a[2], a[3], a[4], a[5]);
	return __syscall_ret(__syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]));
}
