/* What the library's look at its sandbox costs (sysshim(7), Sandboxes): the read of
 * /proc/self/status every process makes once, at its first stat call (an openat, a
 * read, a close: __ss_proc_status), and SYSSHIM_SECCOMP=child's test of the
 * syscalls in a throwaway child (__ss_seccomp_child_stops, one clone and wait), each
 * against a raw fstat syscall on this kernel: interleaved rounds, the median of the
 * rounds and their spread. SYSSHIM_BENCH_SANDBOX_ROUNDS (11) and
 * SYSSHIM_BENCH_SANDBOX_ITERS (2000 status reads a round; a fifth as many children)
 * scale it. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The library's own, hidden in libsysshim.so, linked from libsysshim.a. */
struct ss_proc_status {
	unsigned mode, filters, tracer;
};
int __ss_proc_status(struct ss_proc_status *s);
unsigned __ss_seccomp_child_stops(unsigned sc);

#define MAXR 64

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	return v && *v ? atol(v) : dflt;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of V[0..N), and its smallest and largest in *LO and *HI. */
static double median(double *v, int n, double *lo, double *hi)
{
	qsort(v, n, sizeof *v, cmp);
	*lo = v[0];
	*hi = v[n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One round of N calls of case C: ns per call. */
static double round_of(int c, long n)
{
	struct stat st;
	struct ss_proc_status ps;
	double t0 = now_ns();

	for (long i = 0; i < n; i++) {
		if (c == 0)
			syscall(SYS_fstat, 0, &st);
		else if (c == 1)
			__ss_proc_status(&ps);
		else
			__ss_seccomp_child_stops(0x1f);
	}
	return (now_ns() - t0) / n;
}

int main(void)
{
	static const char *const what[] = {
		"fstat syscall (the reference)",
		"/proc/self/status read (once a process)",
		"SYSSHIM_SECCOMP=child test (one clone)",
	};
	int rounds = (int)env_long("SYSSHIM_BENCH_SANDBOX_ROUNDS", 11);
	long iters = env_long("SYSSHIM_BENCH_SANDBOX_ITERS", 2000);
	double t[3][MAXR];
	struct ss_proc_status ps;

	if (rounds < 1)
		rounds = 1;
	if (rounds > MAXR)
		rounds = MAXR;
	if (__ss_proc_status(&ps)) {
		printf("sandbox benchmark: /proc/self/status has no Seccomp line here: nothing to time\n");
		return 0;
	}
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < 3; k++) {
			int c = (r + k) % 3;	/* each case takes each place in turn */
			t[c][r] = round_of(c, c == 2 ? iters / 5 + 1 : iters);
		}
	printf("sandbox benchmark: %d interleaved rounds (%ld status reads, %ld children a round), "
	       "medians [min, max]; seccomp mode %u, %u filters\n",
	       rounds, iters, iters / 5 + 1, ps.mode, ps.filters);
	double ref = 0;
	for (int c = 0; c < 3; c++) {
		double lo, hi, m = median(t[c], rounds, &lo, &hi);
		if (!c)
			ref = m;
		printf("%-42s %10.2f us [%.2f, %.2f]  %7.1f fstat calls\n", what[c], m / 1e3, lo / 1e3,
		       hi / 1e3, m / ref);
	}
	return 0;
}
