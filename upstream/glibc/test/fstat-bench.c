/* fstat-bench: ns per call of the C library's fstat() against the raw
 * system calls it can be made of, and which of them it makes.  sysshim's
 * benchmark (MIT, not part of either glibc series); one source for both
 * test beds, linked statically against the glibc under test:
 *
 *   upstream/glibc (x86_64; the fstat backport for 2.36): the kinds are
 *     fstat(), the raw fstat, newfstatat(fd, "", AT_EMPTY_PATH) and
 *     statx(fd, "", AT_EMPTY_PATH) syscalls, each against raw fstat; after
 *     the timing, the "which" line.
 *   upstream/glibc-loongarch64 (built for loongarch64: the statx NULL-path
 *     series): fstat(), raw statx(fd, "") and statx(fd, NULL) (with glibc's
 *     AT_EMPTY_PATH | AT_NO_AUTOMOUNT) and the fstat syscall (80, back since
 *     Linux 6.11), each against statx(fd, ""), with the spread (min - max);
 *     without arguments the ptrace trace comes first (a booted kernel has no
 *     strace).
 *
 * The kinds are timed in interleaved rounds (round r runs every kind once);
 * each line is a kind's median.  A raw call that fails is reported with its
 * errno instead of a time.
 *
 * Usage: fstat-bench [calls per round (200000)] [rounds (5)]
 *        fstat-bench probe   fstat() of fd 3 between marker writes, for strace
 *                            or qemu -strace (twice on loongarch64: the second
 *                            call shows what the first one's probe left)
 *        fstat-bench trace   the probe in a child traced with ptrace
 *                            (PTRACE_GET_SYSCALL_INFO): prints each system call
 *                            the child makes, for booted kernels without strace
 *        fstat-bench which   which syscall fstat() makes, read from a seccomp
 *                            filter that answers each stat syscall with an errno
 *                            of its own (in a child):
 *                              bench: which: fstat() -> <fstat|newfstatat|statx|...>
 * FSTAT_BENCH_CALLS and FSTAT_BENCH_ROUNDS in the environment stand for the
 * arguments (a test bed's /init passes kernel command-line words that way).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
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

/* glibc's headers for loongarch64 leave out fstat (80) and newfstatat (79),
 * which Linux 6.11 wired up there again. */
#if defined SYS_fstat
#define NR_FSTAT SYS_fstat
#elif defined __loongarch__
#define NR_FSTAT 80
#endif
#if defined SYS_newfstatat
#define NR_NEWFSTATAT SYS_newfstatat
#elif defined __loongarch__
#define NR_NEWFSTATAT 79
#endif

/* The calls a kind can be. */
enum { C_LIBC, C_FSTAT, C_NEWFSTATAT_EMPTY, C_STATX_EMPTY, C_STATX_NULL };

/* Each bed's kinds, the one the ratios are to, and how its lines look. */
#if defined __loongarch__
static const struct { int call; const char *name; } kinds[] = {
	{ C_LIBC, "fstat()" },
	{ C_STATX_EMPTY, "statx(fd, \"\", AT_EMPTY_PATH)" },
	{ C_STATX_NULL, "statx(fd, NULL, AT_EMPTY_PATH)" },
	{ C_FSTAT, "fstat syscall (80)" },
};
enum { K_BASE = 1 };
#define STATX_FLAGS (AT_EMPTY_PATH | AT_NO_AUTOMOUNT)	/* glibc's own */
#define NAME_WIDTH 32
#define SPREAD 1
#define ROUNDS_ARE "interleaved rounds"
#define RATIO_FMT " %.2f x statx(\"\")"
#define PROBE_CALLS 2
#define TRACE_FIRST 1
#define WHICH_AFTER 0
#else
static const struct { int call; const char *name; } kinds[] = {
	{ C_LIBC, "fstat()" },
	{ C_FSTAT, "syscall(SYS_fstat)" },
	{ C_NEWFSTATAT_EMPTY, "syscall(SYS_newfstatat, fd, \"\", AT_EMPTY_PATH)" },
	{ C_STATX_EMPTY, "syscall(SYS_statx, fd, \"\", AT_EMPTY_PATH)" },
};
enum { K_BASE = 1 };
#define STATX_FLAGS AT_EMPTY_PATH
#define NAME_WIDTH 48
#define SPREAD 0
#define ROUNDS_ARE "rounds"
#define RATIO_FMT " (%.2f x raw fstat)"
#define PROBE_CALLS 1
#define TRACE_FIRST 0
#define WHICH_AFTER 1
#endif
enum { K_N = sizeof kinds / sizeof kinds[0], MAX_ROUNDS = 100 };

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A raw write, so that a marker lands between the traced syscalls. */
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

/* One call of kind k: 0, or -1 and errno (ENOSYS where the headers have no
 * such syscall). */
static long one(int k, int fd)
{
	struct stat st;
	struct statx stx;
	switch (kinds[k].call) {
	case C_LIBC: return fstat(fd, &st);
#ifdef NR_FSTAT
	case C_FSTAT: return syscall(NR_FSTAT, fd, &st);
#endif
#ifdef NR_NEWFSTATAT
	case C_NEWFSTATAT_EMPTY: return syscall(NR_NEWFSTATAT, fd, "", &st, AT_EMPTY_PATH);
#endif
	case C_STATX_EMPTY: return syscall(SYS_statx, fd, "", STATX_FLAGS, STATX_BASIC_STATS, &stx);
	case C_STATX_NULL: return syscall(SYS_statx, fd, NULL, STATX_FLAGS, STATX_BASIC_STATS, &stx);
	}
	errno = ENOSYS;
	return -1;
}

static long long run(int k, int fd, long n)
{
	long long t0 = now_ns();
	for (long i = 0; i < n; i++)
		one(k, fd);
	return (now_ns() - t0) / n;
}

static int probe(int fd)
{
	struct stat st;
	int r = 0;
	say("bench: probe fstat()\n");
	for (int i = 0; i < PROBE_CALLS; i++) {
		if (i)
			say("bench: probe second fstat()\n");
		r |= fstat(fd, &st);
	}
	say("bench: probe done\n");
	return r != 0;
}

static const char *sysname(unsigned long long nr)
{
	switch (nr) {
	case SYS_write: return "write";
	case SYS_statx: return "statx";
#ifdef NR_FSTAT
	case NR_FSTAT: return "fstat";
#endif
#ifdef NR_NEWFSTATAT
	case NR_NEWFSTATAT: return "newfstatat";
#endif
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

/* Which syscall fstat() makes: each stat syscall refused with an errno of its own
 * (4001 + its index below), the errno fstat() sets names it. In a child. */
static void which(int fd)
{
	static const struct { const char *name; long nr; } call[] = {
#ifdef NR_FSTAT
		{ "fstat", NR_FSTAT },
#endif
#ifdef NR_NEWFSTATAT
		{ "newfstatat", NR_NEWFSTATAT },
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

static int bench(int fd, long n, int rounds)
{
	char line[256];
	int err[K_N];
	long long t[K_N][MAX_ROUNDS];

	if (n <= 0 || rounds <= 0 || rounds > MAX_ROUNDS) { fputs("bad arguments\n", stderr); return 2; }
	for (int k = 0; k < K_N; k++) {
		errno = 0;
		err[k] = one(k, fd) == 0 ? 0 : errno;
	}
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < K_N; k++)
			t[k][r] = err[k] ? 0 : run(k, fd, n);

	snprintf(line, sizeof line, "bench: %ld calls x %d " ROUNDS_ARE ", median ns per call%s\n",
		 n, rounds, SPREAD ? " (min - max)" : "");
	say(line);
	long long med[K_N];
	for (int k = 0; k < K_N; k++) {
		qsort(t[k], rounds, sizeof t[k][0], cmp_ll);
		med[k] = t[k][rounds / 2];
	}
	for (int k = 0; k < K_N; k++) {
		size_t o = snprintf(line, sizeof line, "bench: %-*s ", NAME_WIDTH, kinds[k].name);
		if (err[k]) {
			o += snprintf(line + o, sizeof line - o, "fails: %s", strerror(err[k]));
		} else {
			o += snprintf(line + o, sizeof line - o, "%6lld ns/call", med[k]);
			if (SPREAD)
				o += snprintf(line + o, sizeof line - o, " (%lld - %lld)", t[k][0],
					      t[k][rounds - 1]);
			if (med[K_BASE])
				o += snprintf(line + o, sizeof line - o, RATIO_FMT,
					      (double)med[k] / med[K_BASE]);
		}
		snprintf(line + o, sizeof line - o, "\n");
		say(line);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	if (fd < 0) { perror("open /"); return 2; }
	if (fd != 3) { dup2(fd, 3); close(fd); fd = 3; }

	if (argc > 1 && !strcmp(argv[1], "probe"))
		return probe(fd);
	if (argc > 1 && !strcmp(argv[1], "trace"))
		return trace(fd);
	if (argc > 1 && !strcmp(argv[1], "which")) {
		which(fd);
		return 0;
	}

	if (TRACE_FIRST && argc == 1 && trace(fd) != 0)
		return 1;
	const char *ec = getenv("FSTAT_BENCH_CALLS"), *er = getenv("FSTAT_BENCH_ROUNDS");
	long n = argc > 1 ? atol(argv[1]) : ec ? atol(ec) : 200000;
	int rounds = argc > 2 ? atoi(argv[2]) : er ? atoi(er) : 5;
	int r = bench(fd, n, rounds);
	if (r == 0 && WHICH_AFTER)
		which(fd);
	return r;
}
