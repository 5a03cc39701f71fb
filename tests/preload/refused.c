/* tests/preload/refused.c: calls of the exec family, posix_spawn and the stat family with
 * pointers the kernel refuses (NULL, a small number, one no memory can be at, a page
 * mapped without access), each the first call of a child of its own; prints each one's
 * answer, or how its child ended. "refused probed": each after 40 fstat calls, which
 * make the library probe the kernel and look at the sandbox (a tracer: it is careful).
 * For tests/roots.sh, which holds the output with the library to the output without it:
 * the library reads no pointer before the kernel has. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char *none;	/* a page mapped PROT_NONE */
static volatile uintptr_t zero;	/* pointers the compiler cannot see, so no warning */
#define nul ((char *)zero)
#define AT(v) ((char **)(zero + (v)))
#define FAR ((char *)AT(0x8000000000000000ULL))	/* not canonical */
static char *argv_true[] = { "true", 0 };

static const char *const names[] = {
	"execve(NULL)", "execve(1)", "execve(PROT_NONE)", "execve(far)",
	"execve(true, envp 1)", "execve(missing, envp 1)", "execve(true, envp[0] 8)",
	"execve(true, envp[1] far)", "execve(true, envp NULL)", "execve(true, argv NULL)",
	"execveat(fd, NULL, AT_EMPTY_PATH)", "execveat(fd, 1, AT_EMPTY_PATH)",
	"execveat(fd, PROT_NONE, AT_EMPTY_PATH)", "execveat(AT_FDCWD, PROT_NONE, AT_EMPTY_PATH)",
	"execveat(fd, PROT_NONE, 0)", "execveat(fd, \"\", envp 1, AT_EMPTY_PATH)",
	"fexecve(fd, envp 1)", "execv(NULL)", "execv(PROT_NONE)", "execvpe(true, envp 1)",
	"execvpe(true, envp[0] 8)", "execl(NULL)", "posix_spawn(NULL)", "posix_spawn(PROT_NONE)",
	"posix_spawn(true, envp 1)", "posix_spawnp(NULL)", "posix_spawnp(1)",
	"fstatat(fd, PROT_NONE, AT_EMPTY_PATH)",
	"fstatat(fd, PROT_NONE, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)",
	"fstatat(AT_FDCWD, PROT_NONE, 0)", "statx(fd, PROT_NONE, AT_EMPTY_PATH)",
	"stat(PROT_NONE)",
};

/* Case K in this child: the call's return value (or posix_spawn's error) and errno. */
static void one(int k)
{
	char *bad_env[] = { (char *)8, 0 }, *far_env[] = { "A=1", FAR, 0 };
	int fd = open("/bin/true", O_RDONLY), r = 0, e;
	struct stat st;
	struct statx sx;
	pid_t pid;

	errno = 0;
	switch (k) {
	case 0: r = execve(nul, argv_true, environ); break;
	case 1: r = execve((char *)AT(1), argv_true, environ); break;
	case 2: r = execve(none, argv_true, environ); break;
	case 3: r = execve(FAR, argv_true, environ); break;
	case 4: r = execve("/bin/true", argv_true, AT(1)); break;
	case 5: r = execve("/nonexistent/true", argv_true, AT(1)); break;
	case 6: r = execve("/bin/true", argv_true, bad_env); break;
	case 7: r = execve("/bin/true", argv_true, far_env); break;
	case 8: r = execve("/bin/true", argv_true, AT(0)); break;
	case 9: r = execve("/bin/true", AT(0), environ); break;
	case 10: r = execveat(fd, nul, argv_true, environ, AT_EMPTY_PATH); break;
	case 11: r = execveat(fd, (char *)AT(1), argv_true, environ, AT_EMPTY_PATH); break;
	case 12: r = execveat(fd, none, argv_true, environ, AT_EMPTY_PATH); break;
	case 13: r = execveat(AT_FDCWD, none, argv_true, environ, AT_EMPTY_PATH); break;
	case 14: r = execveat(fd, none, argv_true, environ, 0); break;
	case 15: r = execveat(fd, "", argv_true, AT(1), AT_EMPTY_PATH); break;
	case 16: r = fexecve(fd, argv_true, AT(1)); break;
	case 17: r = execv(nul, argv_true); break;
	case 18: r = execv(none, argv_true); break;
	case 19: r = execvpe("true", argv_true, AT(1)); break;
	case 20: r = execvpe("true", argv_true, bad_env); break;
	case 21: r = execl(nul, "true", (char *)NULL); break;
	case 22: r = posix_spawn(&pid, nul, 0, 0, argv_true, environ); break;
	case 23: r = posix_spawn(&pid, none, 0, 0, argv_true, environ); break;
	case 24: r = posix_spawn(&pid, "/bin/true", 0, 0, argv_true, AT(1)); break;
	case 25: r = posix_spawnp(&pid, nul, 0, 0, argv_true, environ); break;
	case 26: r = posix_spawnp(&pid, (char *)AT(1), 0, 0, argv_true, environ); break;
	case 27: r = fstatat(fd, none, &st, AT_EMPTY_PATH); break;
	case 28: r = fstatat(fd, none, &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW); break;
	case 29: r = fstatat(AT_FDCWD, none, &st, 0); break;
	case 30: r = statx(fd, none, AT_EMPTY_PATH, STATX_BASIC_STATS, &sx); break;
	case 31: r = stat(none, &st); break;
	}
	e = errno;
	/* a spawned child that ran: its end, so that the output is the same every time */
	if (k >= 22 && k <= 26 && !r)
		waitpid(pid, 0, 0);
	printf("%s: %d %s\n", names[k], r, r ? strerrorname_np(e) ? strerrorname_np(e) : "?" : "");
}

int main(int argc, char **argv)
{
	int probed = argc > 1 && !strcmp(argv[1], "probed");
	none = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (none == MAP_FAILED)
		return 2;
	for (unsigned k = 0; k < sizeof names / sizeof *names; k++) {
		fflush(stdout);
		pid_t c = fork();
		if (c < 0)
			return 2;
		if (!c) {
			struct stat st;
			for (int i = 0; probed && i < 40; i++)
				fstat(1, &st);
			one((int)k);
			fflush(stdout);
			_exit(0);
		}
		int s;
		if (waitpid(c, &s, 0) != c)
			return 2;
		if (!WIFEXITED(s) || WEXITSTATUS(s))
			printf("%s: child %s %d\n", names[k], WIFEXITED(s) ? "exited" : "killed by signal",
			       WIFEXITED(s) ? WEXITSTATUS(s) : WTERMSIG(s));
	}
	return 0;
}
