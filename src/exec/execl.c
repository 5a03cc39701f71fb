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

static int too_many(void)
{
	return (int)__syscall_ret((unsigned long)-E2BIG);
}

/* The function's prologue: AP started after ARG, ARGV (ARG and what follows it, up to and
 * with the 0) on this stack frame; E2BIG returned where they cannot be counted. A macro:
 * a variadic function's own arguments are reached only from its own frame. */
#define GATHER(argv, arg, ap)                                        \
	va_list ap, ap##_count;                                      \
	va_start(ap, arg);                                           \
	va_copy(ap##_count, ap);                                     \
	size_t argv##_n = count(ap##_count);                         \
	va_end(ap##_count);                                          \
	if (argv##_n >= E2BIG_ARGS) {                                \
		va_end(ap);                                          \
		return too_many();                                   \
	}                                                            \
	char *argv[argv##_n + 2];                                    \
	argv[0] = (char *)(arg);                                     \
	for (size_t i_ = 1; i_ <= argv##_n + 1; i_++)                \
		argv[i_] = va_arg(ap, char *)

EXPORT int execl(const char *path, const char *arg, ...)
{
	GATHER(argv, arg, ap);
	va_end(ap);
	return __ss_execv(path, argv);
}

EXPORT int execle(const char *path, const char *arg, ...)
{
	GATHER(argv, arg, ap);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	struct ss_target t = { AT_FDCWD, path, 0, 0 };
	SS_EXEC_ENV(e, &t, envp);
	return __ss_execve(path, argv, e);
}

EXPORT int execlp(const char *file, const char *arg, ...)
{
	GATHER(argv, arg, ap);
	va_end(ap);
	return __ss_execvpe(file, argv, environ, SS_EX_EXECVP);
}
