#include "exec.h"

/* execv, execvp, execvpe: glibc's run its internal execve, which no interposer sees, so
 * the library looks at the program here. Where the environment is handed on unchanged
 * the call goes to its next definition as it is; where it changes, to the next execve
 * (execv) or execvpe (execvp), which take the new one. */

int __ss_execv(const char *path, char *const *argv)
{
	struct ss_target t = { AT_FDCWD, path, 0, 0 };
	char **env = environ;
	int libc;
	SS_EXEC_ENV(e, &t, env);
	ss_execv_fn *next = (ss_execv_fn *)__ss_exec_next(SS_EX_EXECV, &libc);

	if (e == env && next)
		return next(path, argv);
	return __ss_execve(path, argv, e);
}

EXPORT int execv(const char *path, char *const argv[])
{
	return __ss_execv(path, argv);
}

/* FN: SS_EX_EXECVP (ENVP is environ) or SS_EX_EXECVPE. The file is the one PATH leads
 * to (as glibc's search finds it). glibc's search runs execve on each candidate until
 * one runs, and each that fails (a missing one) costs the kernel an exec's set-up (a new
 * memory map, the arguments and environment copied in); the library's has found the
 * file with a stat of each: where glibc's would try that file next, it is run at once,
 * with the system call glibc's makes. Where that fails, glibc's search runs as it
 * would have (the next candidate after EACCES, a shell for ENOEXEC); where the next
 * definition is another interposer's, it runs its own. */
int __ss_execvpe(const char *file, char *const *argv, char *const *envp, int fn)
{
	struct ss_exec_room r;
	int libc, libc2;
	void (*next)(void) = __ss_exec_next(fn, &libc);
	ss_execve_fn *next_vpe = (ss_execve_fn *)__ss_exec_next(SS_EX_EXECVPE, &libc2);

	if (__ss_exec_room(envp, &r) && next_vpe) {
		char buf[SS_PATH_MAX];
		struct ss_target t;
		int first = __ss_exec_search(file, buf, &t);
		SS_EXEC_ENV(e, &t, envp);
		if (first && libc2 && (libc || !next))
			__syscall(SYS_execve, t.path, argv, e);
		if (e != envp)
			return next_vpe(file, argv, e);
	}
	if (fn == SS_EX_EXECVP && next)
		return ((ss_execv_fn *)next)(file, argv);
	if (next_vpe)
		return next_vpe(file, argv, envp);
	return __ss_execve(file, argv, envp);
}

EXPORT int execvp(const char *file, char *const argv[])
{
	return __ss_execvpe(file, argv, environ, SS_EX_EXECVP);
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return __ss_execvpe(file, argv, envp, SS_EX_EXECVPE);
}
