/* brtime: the bench-real guest's timer (static, so it is the same in every set-up).
 *   brtime [-o FILE] [-n N] -- COMMAND [ARGS...]
 * Runs COMMAND N times (default 1), one after the other, its stdout to FILE (truncated
 * for each run; default /dev/null), stderr to FILE.err, stdin from /dev/null, and prints
 * for each run "NS RC CPU_NS": the wall time from fork to the end of wait (CLOCK_MONOTONIC),
 * the exit status (128+signal when killed) and the CPU time the run used (user + system of
 * it and its waited-for children, from wait4: unlike the wall time, it leaves out the time
 * spent waiting for a processor on a loaded machine). Exit status 0, 2 on bad usage, 1 when a run
 * cannot be started. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *out = "/dev/null";
	char err[4096];
	int n = 1, i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			n = atoi(argv[++i]);
		} else {
			break;
		}
	}
	if (i >= argc || n < 1) {
		fprintf(stderr, "usage: brtime [-o FILE] [-n N] -- COMMAND [ARGS...]\n");
		return 2;
	}
	snprintf(err, sizeof err, "%s.err", strcmp(out, "/dev/null") ? out : "/tmp/brtime");
	for (int k = 0; k < n; k++) {
		long long t0 = now();
		pid_t p = fork();
		if (p < 0) {
			perror("brtime: fork");
			return 1;
		}
		if (p == 0) {
			int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			int z = open("/dev/null", O_RDONLY);
			if (o < 0 || e < 0 || z < 0)
				_exit(125);
			dup2(z, 0);
			dup2(o, 1);
			dup2(e, 2);
			close(o), close(e), close(z);
			execvp(argv[i], argv + i);
			_exit(errno == ENOENT ? 127 : 126);
		}
		int st;
		struct rusage ru;
		while (wait4(p, &st, 0, &ru) < 0 && errno == EINTR)
			;
		long long d = now() - t0;
		long long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
				(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
		printf("%lld %d %lld\n", d, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), cpu);
	}
	return 0;
}
