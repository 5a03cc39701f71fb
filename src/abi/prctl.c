#include <stdarg.h>
#include "probe.h"

/* prctl(PR_SET_SECCOMP) is one of the two ways a program installs a seccomp filter
 * through the C library (libseccomp's seccomp_load() takes either): the filter is read
 * before it reaches the kernel (probe.h), then the call goes on to prctl's next
 * definition, the C library's or another interposer's, as it would without the
 * library; in a static program, to the kernel. */
EXPORT int prctl(int option, ...)
{
	unsigned long a[4];
	va_list ap;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_SECCOMP && (a[0] == SECCOMP_MODE_STRICT || a[0] == SECCOMP_MODE_FILTER))
		__ss_filter_coming((const void *)a[1], a[0] == SECCOMP_MODE_FILTER);
	ss_prctl_fn *f = (ss_prctl_fn *)__ss_loader_next(SS_FN_PRCTL);
	if (f)
		return f(option, a[0], a[1], a[2], a[3]);
	return __syscall_ret(__syscall(SYS_prctl, option, a[0], a[1], a[2], a[3]));
}
