/* Whether to preload: the kernel's answers, the timing (the test hook, the per-boot
 * cache, a measurement), the verdict, and apart from them the words for the reason,
 * put only where -v asks. Cheap facts first (the status main.c read, the test hook,
 * the kernel's answer on the NULL path, the cache); the calls are timed last, and only
 * once a command could be preloaded (exec.c). What it finds it reports in the job's
 * struct preload_decision. The rules are man/sysshim-run.1's (DESCRIPTION, ENVIRONMENT). */
#include "run.h"

#define ROUNDS	16	/* rounds of each call, the fastest kept */
#define CALLS	16	/* calls a round */
#define RATIO	150	/* the threshold without SYSSHIM_RUN_RATIO, in hundredths */

static long sys_empty(int fd, const char *path, struct stat *st)
{
	return __syscall(SYS_newfstatat, fd, path, st, AT_EMPTY_PATH);
}

static long sys_fstat(int fd, struct stat *st)
{
	return __syscall(SYS_fstat, fd, st);
}

/* "123", "123.4": value times 10^dec, or -1. Stops at a space or the end. */
static int64_t parse_fix(const char **sp, int dec)
{
	const char *s = *sp;
	int64_t v = 0;
	int digits = 0, frac = -1;
	while (*s == ' ')
		s++;
	for (; *s && *s != ' ' && *s != '\n'; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
			return -1;
		if (frac >= dec)
			continue;
		v = v * 10 + (*s - '0');
		digits++;
		if (frac >= 0)
			frac++;
	}
	if (!digits)
		return -1;
	for (frac = frac < 0 ? 0 : frac; frac < dec; frac++)
		v *= 10;
	*sp = s;
	return v;
}

/* ---- the kernel's answers */
/* What the calls glibc's stat family stands on answer here, asked on an fd nobody has
 * open (as the library's probe asks): no open, no path lookup. A NULL path with
 * AT_EMPTY_PATH gets EBADF where it is accepted (6.11+), EFAULT where it is read
 * (before), and a seccomp filter's errno where the call is refused. Without a filter
 * the NULL path alone is asked: nothing else can refuse statx or fstat. */
struct answers {
	long statx;		/* statx(fd, NULL, AT_EMPTY_PATH) */
	long fstat;		/* fstat(fd) */
	long empty_null;	/* newfstatat(fd, NULL, AT_EMPTY_PATH) */
};

static void ask_kernel(struct answers *a, int filter)
{
	struct stat st;
	struct statx sx;
	a->statx = a->fstat = 0;
	if (filter) {
		a->statx = __syscall(SYS_statx, NO_FD, 0, AT_EMPTY_PATH, STATX_BASIC_STATS, &sx);
		a->fstat = sys_fstat(NO_FD, &st);
	}
	a->empty_null = sys_empty(NO_FD, 0, &st);
}

/* ---- the timing: the test hook, the per-boot cache, a measurement */
struct ts {
	long sec, nsec;
};

static uint64_t monotonic_ns(void)
{
	struct ts t = { 0, 0 };
	__syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
	return (uint64_t)t.sec * 1000000000u + (uint64_t)t.nsec;
}

/* The cost of reading the clock (a syscall here: no vDSO without a libc to find it). */
static uint64_t clock_cost(void)
{
	uint64_t clk = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t a = monotonic_ns(), b = monotonic_ns();
		if (b - a < clk)
			clk = b - a;
	}
	return clk;
}

/* The fastest round of CALLS calls of each on an fd of "/", interleaved so that drift
 * hits both, less the clock's own cost: tenths of a ns per call. 1 where the clock did
 * not move over a round of either (a clock that ticks by jiffies, as a tinyconfig
 * kernel's under qemu). */
long time_stat_calls(uint64_t *fs, uint64_t *em)
{
	struct stat st;
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	uint64_t best_f = UINT64_MAX, best_e = UINT64_MAX, clk = clock_cost();
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < 2; k++) {
			int empty = (r + k) & 1;
			uint64_t t0 = monotonic_ns();
			for (int i = 0; i < CALLS; i++)
				empty ? sys_empty(fd, "", &st) : sys_fstat(fd, &st);
			uint64_t d = monotonic_ns() - t0;
			d = d > clk ? d - clk : 1;
			if (empty && d < best_e)
				best_e = d;
			if (!empty && d < best_f)
				best_f = d;
		}
	}
	__syscall(SYS_close, fd);
	if (best_f <= 1 || best_e <= 1)
		return 1;
	*fs = best_f * 10 / CALLS ? best_f * 10 / CALLS : 1;
	*em = best_e * 10 / CALLS ? best_e * 10 / CALLS : 1;
	return 0;
}

/* The test hook SYSSHIM_RUN_TIMING="FSTAT_NS EMPTY_NS" into D: 1, or 0 where it is unset
 * or not two positive numbers. */
static int from_hook(const char *h, struct preload_decision *d)
{
	int64_t f, e;
	if (!h || (f = parse_fix(&h, 1)) <= 0 || (e = parse_fix(&h, 1)) <= 0)
		return 0;
	d->fstat_ns = (uint64_t)f, d->empty_ns = (uint64_t)e, d->from = FROM_HOOK;
	return 1;
}

/* The per-boot cache, one line "BOOT_ID FSTAT_NS EMPTY_NS". Its name into O; -1 when it
 * does not fit (then nothing is cached). */
static int cache_path(const struct run_env *env, struct ss_out *o)
{
	const char *e = env->cache, *x = env->runtime_dir;
	if (e && *e) {
		__ss_put(o, e);
	} else if (x && *x == '/' && !__syscall(SYS_faccessat, AT_FDCWD, x, W_OK)) {
		__ss_put(o, x);
		__ss_put(o, "/sysshim-run.cache");
	} else {
		__ss_put(o, "/tmp/sysshim-run-");
		__ss_put_fix(o, (uint64_t)__syscall(SYS_getuid), 0);
		__ss_put(o, ".cache");
	}
	return __ss_full(o) ? -1 : 0;
}

/* Up to N - 1 bytes of PATH into BUF as a C string: 0, or -1. With ST, only from a
 * regular file the user owns. */
static int read_small(const char *path, int flags, char *buf, size_t n, struct stat *st)
{
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | flags);
	long r = -1;
	if (fd < 0)
		return -1;
	if (!st || (!sys_fstat(fd, st) && (st->st_mode & S_IFMT) == S_IFREG &&
		    st->st_uid == (unsigned)__syscall(SYS_getuid)))
		r = __syscall(SYS_read, fd, buf, n - 1);
	__syscall(SYS_close, fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	return 0;
}

static int read_boot_id(char *buf, size_t n)
{
	if (read_small("/proc/sys/kernel/random/boot_id", 0, buf, n, 0))
		return -1;
	for (size_t i = 0; buf[i]; i++)
		if (buf[i] == '\n' || buf[i] == ' ')
			buf[i] = 0;
	return *buf ? 0 : -1;
}

/* Only a regular file the user owns is believed, and only for this boot. */
static int cache_read(const char *path, const char *boot, uint64_t *fs, uint64_t *em)
{
	char line[256];
	struct stat st;
	if (read_small(path, O_NOFOLLOW, line, sizeof line, &st))
		return -1;
	const char *p = __ss_after(line, boot);
	if (!p || *p != ' ')
		return -1;
	int64_t f = parse_fix(&p, 1), e = f > 0 ? parse_fix(&p, 1) : -1;
	if (f <= 0 || e <= 0)
		return -1;
	*fs = (uint64_t)f, *em = (uint64_t)e;
	return 0;
}

/* Written to a file of its own, then renamed over PATH: a reader sees a whole line. */
static void cache_write(const char *path, const char *boot, uint64_t fs, uint64_t em)
{
	SS_OUT(t);
	SS_OUT(o);
	__ss_put(&t, path);
	__ss_put(&t, ".");
	__ss_put_fix(&t, (uint64_t)__syscall(SYS_getpid), 0);
	if (__ss_full(&t))
		return;
	const char *tmp = __ss_cstr(&t);
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, tmp,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	__ss_put(&o, boot);
	__ss_put(&o, " ");
	__ss_put_fix(&o, fs, 1);
	__ss_put(&o, " ");
	__ss_put_fix(&o, em, 1);
	__ss_put(&o, "\n");
	long w = __syscall(SYS_write, fd, o.b, o.n);
	if (__syscall(SYS_close, fd) || w != (long)o.n ||
	    __syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path, 0))
		__syscall(SYS_unlinkat, AT_FDCWD, tmp, 0);
}

/* ---- the decision */
/* This boot's timing from the cache: TIMED; else NOT_TIMED (the calls are timed later,
 * where a command could be preloaded), with the cache's name and the boot's id kept. */
static enum preload_reason from_cache(const struct run_job *j, struct preload_decision *d)
{
	d->cache_path.n = 0;
	d->cached = !cache_path(&j->env, &d->cache_path) && !read_boot_id(d->boot_id, sizeof d->boot_id);
	d->from = FROM_CACHE;
	if (d->cached && !cache_read(__ss_cstr(&d->cache_path), d->boot_id, &d->fstat_ns, &d->empty_ns))
		return TIMED;
	return NOT_TIMED;
}

/* Under a seccomp filter the kernel is not asked: unless SYSSHIM_SECCOMP=child has
 * throwaway children make the three calls first, and they all live: 1, and sysshim-run
 * goes on as where there is no filter (the one who asked for children knows the filter
 * allows a fork; its timing and its cache are taken on trust). Never under a tracer: it
 * sees the children too, and may treat each process as it likes. */
static int children_cleared(const struct run_job *j, struct preload_decision *d)
{
	const char *m = j->env.seccomp;
	if (traced(j) || !m || !__ss_streq(m, "child"))
		return 0;
	d->stopped = __ss_seccomp_child_stops(SS_SC_FSTAT | SS_SC_NEWFSTATAT | SS_SC_STATX);
	return !d->stopped;
}

/* The reason under auto: a tracer or a sandbox first, then the test hook and the
 * kernel's answers, then the cache. */
static enum preload_reason auto_reason(const struct run_job *j, struct preload_decision *d)
{
	struct answers a;
	int filter = !j->status_read || j->status.mode != 0;
	if (j->careful) {
		if (!filter)
			return TRACED;	/* a tracer alone: the library would be careful, gain nothing */
		if (!(d->cleared = children_cleared(j, d)))
			return d->stopped ? SANDBOX_STOPS : SANDBOX;
	}
	if (!filter && from_hook(j->env.timing, d))
		return TIMED;
	ask_kernel(&a, filter);
	/* glibc 2.33-2.38's statx() falls back only on ENOSYS: ls and stat fail. */
	if (a.statx == -EPERM)
		return STATX_EPERM;
	/* A sandbox that refuses newfstatat breaks glibc's ld.so itself. */
	if (__ss_denied(a.fstat) || __ss_denied(a.empty_null))
		return REFUSED;
	if (from_hook(j->env.timing, d))
		return TIMED;
	if (a.empty_null == -EBADF)
		return NULL_PATH;
	return from_cache(j, d);
}

/* SYSSHIM_RUN_RATIO in hundredths, else RATIO. */
static uint64_t threshold(const char *r)
{
	int64_t v;
	return r && (v = parse_fix(&r, 2)) > 0 ? (uint64_t)v : RATIO;
}

/* The verdict for D's reason. A sandbox preloads: the library reads what it can of the
 * filter, hands every call to the C library where it cannot, and answers a statx() the
 * filter refuses (sysshim(7)). */
static void verdict(const struct run_job *j, struct preload_decision *d)
{
	enum preload_reason r = d->reason;
	if (r == TIMED) {
		d->ratio = cost_ratio(d->fstat_ns, d->empty_ns);
		d->threshold = threshold(j->env.ratio);
	}
	d->preload = r == ASKED || r == STATX_EPERM || r == SANDBOX || r == SANDBOX_STOPS ||
		     (r == TIMED && d->ratio >= d->threshold);
}

void decide_preload(const struct run_job *j, struct preload_decision *d, int always)
{
	d->stopped = 0;
	d->cleared = 0;
	d->cached = 0;
	d->cache_path.n = 0;
	d->reason = always ? ASKED : auto_reason(j, d);
	verdict(j, d);
}

void decide_timed(const struct run_job *j, struct preload_decision *d)
{
	d->from = MEASURED;
	d->err = time_stat_calls(&d->fstat_ns, &d->empty_ns);
	d->reason = d->err ? (d->err == 1 ? NO_CLOCK : NO_ROOT) : TIMED;
	if (!d->err && d->cached)
		cache_write(__ss_cstr(&d->cache_path), d->boot_id, d->fstat_ns, d->empty_ns);
	verdict(j, d);
}

/* ---- the words */
/* The kinds of syscall in SC, by name. */
static void put_kinds(struct ss_out *w, unsigned sc)
{
	const char *sep = "";
	for (unsigned k = SS_SC_FSTAT; k <= SS_SC_STATX; k <<= 1) {
		if (!(sc & k))
			continue;
		__ss_put(w, sep);
		__ss_put(w, k == SS_SC_FSTAT ? "fstat" : k == SS_SC_NEWFSTATAT ? "newfstatat" : "statx");
		sep = ", ";
	}
}

/* Where the timing came from: "measured now, cached in FILE" and the like. */
static void put_source(struct ss_out *w, const struct preload_decision *d)
{
	if (d->from == FROM_HOOK) {
		__ss_put(w, "from SYSSHIM_RUN_TIMING");
		return;
	}
	__ss_put(w, d->from == FROM_CACHE ? "measured this boot, cached in " :
		    d->cached ? "measured now, cached in " : "measured now");
	if (d->cached)
		__ss_put(w, d->cache_path.b);
}

/* The two costs, their ratio against the threshold, and where they come from. */
static void put_costs(struct ss_out *w, const struct preload_decision *d)
{
	__ss_put(w, "newfstatat(fd, \"\", AT_EMPTY_PATH) costs ");
	__ss_put_fix(w, d->ratio, 2);
	__ss_put(w, " times fstat(fd) here (");
	__ss_put_fix(w, (d->empty_ns + 5) / 10, 0);
	__ss_put(w, " vs ");
	__ss_put_fix(w, (d->fstat_ns + 5) / 10, 0);
	__ss_put(w, " ns, ");
	put_source(w, d);
	__ss_put(w, d->preload ? "): the kernel lacks the empty-path fast path, glibc's fstat() pays it"
			       : "): the kernel has the empty-path fast path, nothing to save");
	__ss_put(w, " (threshold ");
	__ss_put_fix(w, d->threshold, 2);
	__ss_put(w, ")");
}

/* "traced by pid N" */
static void put_tracer(struct ss_out *w, const struct run_job *j)
{
	__ss_put(w, "traced by pid ");
	__ss_put_fix(w, j->status.tracer, 0);
}

void put_decision(struct ss_out *w, const struct run_job *j)
{
	const struct preload_decision *d = &j->d;
	switch (d->reason) {
	case ASKED:
		__ss_put(w, "asked to (--always or SYSSHIM_RUN=always)");
		if (traced(j)) {
			__ss_put(w, "; ");
			put_tracer(w, j);
			__ss_put(w, ": the command is read with the loader's own calls");
		}
		break;
	case STATX_EPERM:
		__ss_put(w, "statx is refused here with EPERM (a sandbox): glibc's statx() does not "
			    "fall back from EPERM (ls, stat fail), sysshim's does");
		break;
	case REFUSED:
		__ss_put(w, "fstat or newfstatat refused here: nothing to gain");
		break;
	case NULL_PATH:
		__ss_put(w, "the kernel accepts newfstatat(fd, NULL, AT_EMPTY_PATH) (Linux 6.11+): "
			    "glibc's empty-path fstat is on the fast path, nothing to save");
		break;
	case NO_CLOCK:
		__ss_put(w, "the clock here does not move over 16 calls (it ticks by jiffies): "
			    "cannot time newfstatat(fd, \"\") against fstat; left to glibc (not cached)");
		break;
	case NO_ROOT:
		__ss_put(w, "cannot open / to measure (");
		__ss_put(w, error_text(-d->err));
		__ss_put(w, "): left to glibc");
		break;
	case TIMED:
		put_costs(w, d);
		break;
	case NOT_TIMED:
		__ss_put(w, "newfstatat(fd, \"\") and fstat not timed yet this boot: timed only "
			    "for a command that could be preloaded");
		break;
	case SANDBOX:
		__ss_put(w, "a seccomp filter is in force here (/proc/self/status");
		if (traced(j)) {
			__ss_put(w, "; ");
			put_tracer(w, j);
		}
		__ss_put(w, "): its answers cannot be asked without risking the command, so nothing "
			    "is timed; the library reads what filters it can and hands each call to "
			    "the C library where it cannot (correct, not faster; SYSSHIM_SECCOMP=child "
			    "tries the calls in throwaway children)");
		break;
	case SANDBOX_STOPS:
		__ss_put(w, "a seccomp filter here stops ");
		put_kinds(w, d->stopped);
		__ss_put(w, " (throwaway children tried them: SYSSHIM_SECCOMP=child): nothing timed; "
			    "the library makes none of them");
		break;
	case TRACED:
		put_tracer(w, j);
		__ss_put(w, " (/proc/self/status): a tracer may act on any syscall (strace -e inject), "
			    "so none is asked or timed, and the library would make none of its own: "
			    "nothing to gain, left to glibc");
		break;
	}
}
