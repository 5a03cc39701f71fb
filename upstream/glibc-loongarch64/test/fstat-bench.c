/* fstat-bench (loongarch64): ns per call of the C library's fstat()
 * against the raw system calls it can be made of.
 *
 * Linked statically against the glibc under test (stock or patched).
 * Kinds, timed in interleaved rounds (round r runs every kind once):
 *   fstat()                      the library call
 *   statx(fd, "", EMPTY_PATH)    raw, what stock glibc makes
 *   statx(fd, NULL, EMPTY_PATH)  raw, what the patched glibc makes on 6.11+
 *   fstat syscall (80)           raw, LoongArch has it again since 6.11
 * Prints per kind the median ns per call, the spread (min - max) and the
 * ratio to raw statx(fd, "").  A raw call that fails is reported with its
 * errno instead of a time.
 *
 * Usage: fstat-bench [calls per round (200000)] [rounds (5)]
 *        fstat-bench probe   two fstat() calls of fd 3 between marker writes,
 *                            for qemu -strace / strace
 *        fstat-bench trace   the same probe in a child traced with ptrace
 *                            (PTRACE_GET_SYSCALL_INFO): prints each system call
 *                            the child makes, for booted kernels without strace
 * Without arguments it runs the trace, then the benchmark.
 * FSTAT_BENCH_CALLS and FSTAT_BENCH_ROUNDS in the environment override the
 * defaults (the test bed's /init passes kernel command-line words that way).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/ptrace.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_statx
#error no statx
#endif
#define NR_FSTAT_LOONGARCH 80

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void say(const char *s)
{
	if (write(1, s, strlen(s)) < 0)
		exit(2);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

enum { K_LIBC, K_STATX_EMPTY, K_STATX_NULL, K_FSTAT_RAW, K_N };
static const char *const kname[K_N] = {
	"fstat()", "statx(fd, \"\", AT_EMPTY_PATH)", "statx(fd, NULL, AT_EMPTY_PATH)",
	"fstat syscall (80)",
};

static long one(int kind, int fd)
{
	struct stat st;
	struct statx stx;
	switch (kind) {
	case K_LIBC: return fstat(fd, &st);
	case K_STATX_EMPTY:
		return syscall(SYS_statx, fd, "", AT_EMPTY_PATH | AT_NO_AUTOMOUNT, STATX_BASIC_STATS, &stx);
	case K_STATX_NULL:
		return syscall(SYS_statx, fd, NULL, AT_EMPTY_PATH | AT_NO_AUTOMOUNT, STATX_BASIC_STATS, &stx);
	default: return syscall(NR_FSTAT_LOONGARCH, fd, &st);
	}
}

static long long run(int kind, int fd, long n)
{
	long long t0 = now_ns();
	for (long i = 0; i < n; i++)
		one(kind, fd);
	return (now_ns() - t0) / n;
}

static int probe(int fd)
{
	struct stat st;
	say("bench: probe fstat()\n");
	int r = fstat(fd, &st);
	say("bench: probe second fstat()\n");
	r |= fstat(fd, &st);
	say("bench: probe done\n");
	return r != 0;
}

static const char *sysname(unsigned long long nr)
{
	switch (nr) {
	case SYS_write: return "write";
	case SYS_statx: return "statx";
	case NR_FSTAT_LOONGARCH: return "fstat";
	case 79: return "newfstatat";
	case SYS_exit_group: return "exit_group";
	default: return NULL;
	}
}

/* A minimal strace: the child stops itself, then runs probe(); the parent
 * prints every system call entry with its first arguments and its result. */
static int trace(int fd)
{
	pid_t pid = fork();
	if (pid < 0) { perror("fork"); return 2; }
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0) _exit(3);
		raise(SIGSTOP);
		_exit(probe(fd));
	}
	int status;
	char line[256];
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) return 2;
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) != 0) {
		perror("PTRACE_SETOPTIONS"); return 2;
	}
	char pending[200] = "";
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0) != 0) break;
		if (waitpid(pid, &status, 0) != pid) break;
		if (WIFEXITED(status)) {
			snprintf(line, sizeof line, "trace: exited %d\n", WEXITSTATUS(status));
			say(line);
			return WEXITSTATUS(status);
		}
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != (SIGTRAP | 0x80)) continue;
		struct ptrace_syscall_info si;
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof si, &si) <= 0) {
			perror("PTRACE_GET_SYSCALL_INFO"); return 2;
		}
		if (si.op == PTRACE_SYSCALL_INFO_ENTRY) {
			const char *n = sysname(si.entry.nr);
			unsigned long long *a = si.entry.args;
			char nb[32];
			if (!n) { snprintf(nb, sizeof nb, "syscall_%llu", si.entry.nr); n = nb; }
			if (si.entry.nr == SYS_statx)
				snprintf(pending, sizeof pending, "%s(%lld, %s, %#llx, %#llx, buf)", n,
					 (long long)a[0], a[1] ? "\"...\"" : "NULL", a[2], a[3]);
			else if (si.entry.nr == SYS_write)
				snprintf(pending, sizeof pending, "%s(%lld, ..., %llu)", n, (long long)a[0], a[2]);
			else
				snprintf(pending, sizeof pending, "%s(%lld, %#llx, ...)", n, (long long)a[0], a[1]);
		} else if (si.op == PTRACE_SYSCALL_INFO_EXIT) {
			long long rv = si.exit.rval;
			if (si.exit.is_error)
				snprintf(line, sizeof line, "trace: %s = -1 %s\n", pending, strerror((int)-rv));
			else
				snprintf(line, sizeof line, "trace: %s = %lld\n", pending, rv);
			say(line);
		}
	}
	return 2;
}

int main(int argc, char **argv)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	if (fd < 0) { perror("open /"); return 2; }
	if (fd != 3) { dup2(fd, 3); fd = 3; }
	char line[256];

	if (argc > 1 && !strcmp(argv[1], "probe"))
		return probe(fd);
	if (argc > 1 && !strcmp(argv[1], "trace"))
		return trace(fd);

	/* Without arguments (the test bed's /init): the trace first.  */
	if (argc == 1 && trace(fd) != 0)
		return 1;

	const char *ec = getenv("FSTAT_BENCH_CALLS"), *er = getenv("FSTAT_BENCH_ROUNDS");
	long n = argc > 1 ? atol(argv[1]) : ec ? atol(ec) : 200000;
	int rounds = argc > 2 ? atoi(argv[2]) : er ? atoi(er) : 5;
	if (n <= 0 || rounds <= 0 || rounds > 99) { fputs("bad arguments\n", stderr); return 2; }

	int err[K_N];
	for (int k = 0; k < K_N; k++) {
		errno = 0;
		err[k] = one(k, fd) == 0 ? 0 : errno;
	}
	long long t[K_N][99];
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < K_N; k++)
			t[k][r] = err[k] ? 0 : run(k, fd, n);

	snprintf(line, sizeof line, "bench: %ld calls x %d interleaved rounds, median ns per call (min - max)\n",
		 n, rounds);
	say(line);
	long long med[K_N];
	for (int k = 0; k < K_N; k++) {
		qsort(t[k], rounds, sizeof t[k][0], cmp_ll);
		med[k] = t[k][rounds / 2];
	}
	for (int k = 0; k < K_N; k++) {
		if (err[k])
			snprintf(line, sizeof line, "bench: %-32s fails: %s\n", kname[k], strerror(err[k]));
		else if (med[K_STATX_EMPTY])
			snprintf(line, sizeof line,
				 "bench: %-32s %6lld ns/call (%lld - %lld) %.2f x statx(\"\")\n",
				 kname[k], med[k], t[k][0], t[k][rounds - 1],
				 (double)med[k] / med[K_STATX_EMPTY]);
		else
			snprintf(line, sizeof line, "bench: %-32s %6lld ns/call (%lld - %lld)\n",
				 kname[k], med[k], t[k][0], t[k][rounds - 1]);
		say(line);
	}
	return 0;
}
