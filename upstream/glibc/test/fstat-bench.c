/* fstat-bench: ns per call of glibc's fstat() against the raw syscalls.
 *
 * Link it statically against the glibc under test; then strace -f shows
 * which syscall fstat() makes (the program announces each phase with a
 * write to fd 1, so the trace reads as "bench: fstat()" followed by the
 * calls fstat() made).  Prints one line per call kind per round:
 *
 *   bench: <call> <ns> ns/call (<ratio> x raw fstat)
 *
 * then, where no strace is (a test-bed guest), which syscall fstat() made:
 *
 *   bench: which: fstat() -> <fstat|newfstatat|statx|...>
 *
 * read from a seccomp filter that answers each stat syscall with an errno of
 * its own (in a child, so the benchmark above runs unfiltered).
 *
 * Usage: fstat-bench [iterations per round (default 200000)] [rounds (5)]
 *        fstat-bench probe     one fstat() on fd 3 and exit (for strace)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void say(const char *s)
{
	/* Raw write so the marker lands between the traced syscalls. */
	if (write(1, s, strlen(s)) < 0)
		exit(2);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

enum { K_FSTAT_LIBC, K_FSTAT_RAW, K_NEWFSTATAT_RAW, K_STATX_RAW, K_N };
static const char *const kname[K_N] = {
	"fstat()", "syscall(SYS_fstat)", "syscall(SYS_newfstatat, fd, \"\", AT_EMPTY_PATH)",
	"syscall(SYS_statx, fd, \"\", AT_EMPTY_PATH)",
};

static long long run(int kind, int fd, long n)
{
	struct stat st;
	struct statx stx;
	long long t0 = now_ns();
	for (long i = 0; i < n; i++) {
		switch (kind) {
		case K_FSTAT_LIBC: fstat(fd, &st); break;
#ifdef SYS_fstat
		case K_FSTAT_RAW: syscall(SYS_fstat, fd, &st); break;
#endif
#ifdef SYS_newfstatat
		case K_NEWFSTATAT_RAW: syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH); break;
#endif
		case K_STATX_RAW:
			syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx);
			break;
		}
	}
	return (now_ns() - t0) / n;
}

/* Which syscall fstat() makes: each stat syscall refused with an errno of its own
 * (4001 + its index below), the errno fstat() sets names it. In a child. */
static void which(int fd)
{
	static const struct { const char *name; long nr; } call[] = {
#ifdef SYS_fstat
		{ "fstat", SYS_fstat },
#endif
#ifdef SYS_newfstatat
		{ "newfstatat", SYS_newfstatat },
#endif
#ifdef SYS_fstatat64
		{ "fstatat64", SYS_fstatat64 },
#endif
		{ "statx", SYS_statx },
	};
	enum { N = sizeof call / sizeof call[0] };
	struct sock_filter f[2 + 2 * N];
	int k = 0;
	char line[128];

	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return;
	if (pid > 0) {
		waitpid(pid, 0, 0);
		return;
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (int i = 0; i < N; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, call[i].nr, 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (4001 + i));
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = k, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		say("bench: which: fstat() -> unknown (no seccomp here)\n");
		_exit(0);
	}
	struct stat st;
	int r = fstat(fd, &st), e = errno;
	if (r == 0)
		snprintf(line, sizeof line, "bench: which: fstat() -> none of the stat syscalls\n");
	else if (e > 4000 && e <= 4000 + N)
		snprintf(line, sizeof line, "bench: which: fstat() -> %s\n", call[e - 4001].name);
	else
		snprintf(line, sizeof line, "bench: which: fstat() -> unknown (errno %d)\n", e);
	say(line);
	_exit(0);
}

int main(int argc, char **argv)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	if (fd < 0) { perror("open /"); return 2; }

	if (argc > 1 && !strcmp(argv[1], "probe")) {
		struct stat st;
		say("bench: probe fstat()\n");
		int r = fstat(fd, &st);
		say("bench: probe done\n");
		return r != 0;
	}

	long n = argc > 1 ? atol(argv[1]) : 200000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	if (n <= 0 || rounds <= 0 || rounds > 100) { fputs("bad arguments\n", stderr); return 2; }

	long long t[K_N][100];
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < K_N; k++) {
#ifndef SYS_fstat
			if (k == K_FSTAT_RAW) { t[k][r] = 0; continue; }
#endif
#ifndef SYS_newfstatat
			if (k == K_NEWFSTATAT_RAW) { t[k][r] = 0; continue; }
#endif
			t[k][r] = run(k, fd, n);
		}

	char line[256];
	snprintf(line, sizeof line, "bench: %ld calls x %d rounds, median ns per call\n", n, rounds);
	say(line);
	long long med[K_N];
	for (int k = 0; k < K_N; k++) {
		qsort(t[k], rounds, sizeof t[k][0], cmp_ll);
		med[k] = t[k][rounds / 2];
	}
	for (int k = 0; k < K_N; k++) {
		if (!med[k]) continue;
		if (med[K_FSTAT_RAW])
			snprintf(line, sizeof line, "bench: %-48s %6lld ns/call (%.2f x raw fstat)\n",
				 kname[k], med[k], (double)med[k] / med[K_FSTAT_RAW]);
		else
			snprintf(line, sizeof line, "bench: %-48s %6lld ns/call\n", kname[k], med[k]);
		say(line);
	}
	which(fd);
	return 0;
}
