#include <stdarg.h>
#include "exec.h"

/* execl, execle, execlp: the arguments gathered into an array on the stack (as glibc
 * does), then execv, execve and execvp as the library makes them. */

#define E2BIG_ARGS	0x7fffffff

/* The number of arguments after ARG0 up to the 0 that ends them. */
static size_t count(va_list ap)
{
	size_t n = 0;
	while (va_arg(ap, char *) && n < E2BIG_ARGS)
		n++;
	return n;
}

#define GATHER(argv, arg, ap, n)                        \
	char *argv[n + 2];                              \
	argv[0] = (char *)(arg);                        \
	for (size_t i_ = 1; i_ <= n + 1; i_++)          \
		argv[i_] = va_arg(ap, char *)

static int too_many(void)
{
	return (int)__syscall_ret((unsigned long)-E2BIG);
}

EXPORT int execl(const char *path, const char *arg, ...)
{
	va_list ap, cp;
	va_start(ap, arg);
	va_copy(cp, ap);
	size_t n = count(cp);
	va_end(cp);
	if (n >= E2BIG_ARGS) {
		va_end(ap);
		return too_many();
	}
	GATHER(argv, arg, ap, n);
	va_end(ap);
	return __ss_execv(path, argv);
}

EXPORT int execle(const char *path, const char *arg, ...)
{
	va_list ap, cp;
	va_start(ap, arg);
	va_copy(cp, ap);
	size_t n = count(cp);
	va_end(cp);
	if (n >= E2BIG_ARGS) {
		va_end(ap);
		return too_many();
	}
	GATHER(argv, arg, ap, n);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	struct ss_target t = { AT_FDCWD, path, 0 };
	SS_EXEC_ENV(e, &t, envp);
	return __ss_execve(path, argv, e);
}

EXPORT int execlp(const char *file, const char *arg, ...)
{
	va_list ap, cp;
	va_start(ap, arg);
	va_copy(cp, ap);
	size_t n = count(cp);
	va_end(cp);
	if (n >= E2BIG_ARGS) {
		va_end(ap);
		return too_many();
	}
	GATHER(argv, arg, ap, n);
	va_end(ap);
	return __ss_execvpe(file, argv, environ, SS_EX_EXECVP);
}
