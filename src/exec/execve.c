#include "exec.h"

/* execve, execveat, fexecve: the program looked at, the environment handed on without
 * the library's entry where the program would not load it (exec.h), then the call goes
 * on: to another interposer's definition where there is one (fakechroot's, pseudo's),
 * else as the C library makes it. */

int __ss_execve(const char *path, char *const *argv, char *const *envp)
{
	int libc;
	ss_execve_fn *next = (ss_execve_fn *)__ss_exec_next(SS_EX_EXECVE, &libc);

	if (next && !libc)
		return next(path, argv, envp);
	/* glibc's execve is the system call alone. */
	return (int)__syscall_ret(__syscall(SYS_execve, path, argv, envp));
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	struct ss_target t = { AT_FDCWD, path, 0, 0 };
	SS_EXEC_ENV(e, &t, envp);
	return __ss_execve(path, argv, e);
}

EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	struct ss_target t = { dirfd, path, flags, 0 };
	int libc;
	SS_EXEC_ENV(e, &t, envp);
	ss_execveat_fn *next = (ss_execveat_fn *)__ss_exec_next(SS_EX_EXECVEAT, &libc);

	if (next)
		return next(dirfd, path, argv, e, flags);
	return (int)__syscall_ret(__syscall(SYS_execveat, dirfd, path, argv, e, flags));
}

/* glibc's fexecve runs execveat(fd, "", AT_EMPTY_PATH), or /proc/self/fd/FD where the
 * kernel has no execveat: the next definition always. */
EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	struct ss_target t = { fd, "", AT_EMPTY_PATH, 0 };
	int libc;
	SS_EXEC_ENV(e, &t, envp);
	ss_fexecve_fn *next = (ss_fexecve_fn *)__ss_exec_next(SS_EX_FEXECVE, &libc);

	if (next)
		return next(fd, argv, e);
	return (int)__syscall_ret(__syscall(SYS_execveat, fd, "", argv, e, AT_EMPTY_PATH));
}
