/* tests/preload/execby.c WAY PROG ARG...: runs PROG through one call of the exec
 * family or posix_spawn (WAY: its name), with the caller's environment, and ends as
 * PROG ends; for tests/roots.sh, which preloads the library into this program. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	const char *w = argv[1], *p = argv[2];
	char **a = argv + 2, *b = strrchr(p, '/') ? strrchr(p, '/') + 1 : (char *)p;
	pid_t pid;
	int st, r;

	if (argc < 3)
		return 2;
	if (!strncmp(w, "posix_spawn", 11)) {
		r = (w[11] == 'p' ? posix_spawnp : posix_spawn)(&pid, w[11] == 'p' ? b : p, 0, 0, a, environ);
		if (r || waitpid(pid, &st, 0) != pid)
			return 126;
		return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	if (!strcmp(w, "execve"))
		execve(p, a, environ);
	else if (!strcmp(w, "execv"))
		execv(p, a);
	else if (!strcmp(w, "execvp"))
		execvp(b, a);
	else if (!strcmp(w, "execvpe"))
		execvpe(b, a, environ);
	else if (!strcmp(w, "execl"))
		execl(p, p, argc > 3 ? argv[3] : NULL, (char *)NULL);
	else if (!strcmp(w, "execle"))
		execle(p, p, argc > 3 ? argv[3] : NULL, (char *)NULL, environ);
	else if (!strcmp(w, "execlp"))
		execlp(b, b, argc > 3 ? argv[3] : NULL, (char *)NULL);
	else if (!strcmp(w, "fexecve"))
		fexecve(open(p, O_RDONLY | O_CLOEXEC), a, environ);
	else if (!strcmp(w, "execveat"))
		execveat(AT_FDCWD, p, a, environ, 0);
	perror(w);
	return 127;
}
