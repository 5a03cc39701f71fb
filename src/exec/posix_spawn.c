#include "exec.h"

/* posix_spawn, posix_spawnp: the program looked at as for execve (posix_spawnp's as
 * PATH leads to it), then the next definition (the C library's, which runs the program
 * from a child that shares the caller's memory: the new environment on this stack
 * lives until it returns). */

EXPORT int posix_spawn(int *pid, const char *path, const void *actions, const void *attr,
		       char *const argv[], char *const envp[])
{
	struct ss_target t = { AT_FDCWD, path, 0, 0 };
	int libc;
	ss_spawn_fn *next = (ss_spawn_fn *)__ss_exec_next(SS_EX_SPAWN, &libc);
	SS_EXEC_ENV(e, &t, envp);

	return next ? next(pid, path, actions, attr, argv, e) : ENOSYS;
}

EXPORT int posix_spawnp(int *pid, const char *file, const void *actions, const void *attr,
			char *const argv[], char *const envp[])
{
	struct ss_exec_room r;
	int libc;
	ss_spawn_fn *next = (ss_spawn_fn *)__ss_exec_next(SS_EX_SPAWNP, &libc);

	if (!next)
		return ENOSYS;
	if (__ss_exec_room(envp, &r)) {
		char buf[SS_PATH_MAX];
		struct ss_target t;
		__ss_exec_search(file, buf, &t);
		SS_EXEC_ENV(e, &t, envp);
		return next(pid, file, actions, attr, argv, e);
	}
	return next(pid, file, actions, attr, argv, envp);
}
