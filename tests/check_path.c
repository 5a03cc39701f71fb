/* Path buffers and the path alignment guard (docs/path.md): every answer with the
 * guard on must be the kernel's (raw syscalls) and the same as with it off. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sysshim.h"
#include "common/testutil.h"

/* The guard's decision, internal to the library (hidden, but linked statically):
 * the geometry alone, and with the measured (or forced) answer whether to copy. */
extern size_t __ss_path_at_risk(const char *path);
extern size_t __ss_path_scan(const char *path);
extern void __ss_align_set_costs(unsigned penalty, unsigned fixed, unsigned per64);
/* The probe's state word: 0 until the first call decides everything. */
extern uint64_t __ss_state_word;

/* the page size of the running kernel (16 KiB on LoongArch) */
#define PAGE ((size_t)sysconf(_SC_PAGESIZE))
#define BIG (SYSSHIM_PATH_MAX + 200)

static char dir[512];
static int dfd = -1;

/* A tree whose inodes nothing else touches: dir/f, dir/d/, dir/l -> f. */
static void make_objects(void)
{
	if (dfd >= 0)
		return;
	snprintf(dir, sizeof dir, "%s/path", scratch_dir());
	mkdir(dir, 0755);
	char p[600];
	snprintf(p, sizeof p, "%s/f", dir);
	int fd = open(p, O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || write(fd, "hello", 5) != 5)
		abort();
	close(fd);
	snprintf(p, sizeof p, "%s/d", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/l", dir);
	symlink("f", p);
	if (chdir(dir))
		abort();
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		abort();
}

/* Two or more pages, the last PROT_NONE; returns the first byte of the guard page. */
static char *guarded(size_t pages)
{
	char *m = mmap(NULL, (pages + 1) * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(mprotect(m + pages * PAGE, PAGE, PROT_NONE), 0);
	return m + pages * PAGE;
}

/* A path of exactly len bytes (before the NUL) written at s, of one of these kinds
 * (relative to dir, the current directory):
 * 0 ".////f" (exists), 1 ".////x" (ENOENT), 2 "xxxx" (one component: ENOENT up to
 * NAME_MAX, ENAMETOOLONG past it), 3 "f///x" (ENOTDIR), 4 ".////l" (a symlink). */
static void make_path(char *s, size_t len, int kind)
{
	static const char last[] = "fxxxl";
	if (kind == 2 || len < 3) {
		memset(s, kind == 2 ? 'x' : 'f', len);
	} else {
		s[0] = kind == 3 ? 'f' : '.';
		memset(s + 1, '/', len - 2);
		s[len - 1] = last[kind];
	}
	s[len] = 0;
}

/* stat, lstat, fstatat (and statx when full) on p, with the guard off and on: each
 * answer must be the raw syscall's, field by field and errno. */
static void same_answers(const char *p, int full)
{
	struct stat k, s;
	struct statx kx, sx;
	static const int flags[] = { 0, AT_SYMLINK_NOFOLLOW };
	const size_t len = strnlen(p, BIG);

	for (unsigned f = 0; f < 2; f++) {
		errno = 0;
		long kr = RAW_FSTATAT(AT_FDCWD, p, &k, flags[f]);
		int ke = kr ? errno : 0;
		for (int on = 0; on < 2; on++) {
			sysshim_align_paths(on);
			for (int call = 0; call < (full ? 3 : 1); call++) {
				memset(&s, 0xa5, sizeof s);
				errno = 0;
				int r = call == 0 ? sysshim_fstatat(AT_FDCWD, p, &s, flags[f]) :
					call == 1 && !flags[f] ? sysshim_stat(p, &s) :
					call == 1 ? sysshim_lstat(p, &s) :
					sysshim_fstatat(dfd, p, &s, flags[f]);
				ck_assert_msg(r == kr && (r ? errno : 0) == ke,
					      "len %zu at %p &7=%d guard %d call %d flag %d: %d/%d, kernel %ld/%d",
					      len, (void *)p, (int)((uintptr_t)p & 7), on, call,
					      flags[f], r, errno, kr, ke);
				if (!r) {
					const char *d = stat_diff(&s, &k);
					ck_assert_msg(!d, "len %zu guard %d: %s differs", len, on, d);
				}
			}
		}
	}
	if (!full)
		return;
	errno = 0;
	long kr = RAW_STATX(AT_FDCWD, p, 0, STATX_BASIC_STATS | STATX_BTIME, &kx);
	int ke = kr ? errno : 0;
	for (int on = 0; on < 2; on++) {
		sysshim_align_paths(on);
		errno = 0;
		int r = sysshim_statx(AT_FDCWD, p, 0, STATX_BASIC_STATS | STATX_BTIME, &sx);
		ck_assert_msg(r == kr && (r ? errno : 0) == ke, "statx len %zu guard %d: %d/%d",
			      len, on, r, errno);
		if (!r) {
			const char *d = statx_diff(&sx, &kx);
			ck_assert_msg(!d, "statx len %zu guard %d: %s differs", len, on, d);
		}
	}
}

/* Every length from 0 to past PATH_MAX, at every start alignment 0-7. */
START_TEST(every_length)
{
	static char buf[5000 + 16] __attribute__((aligned(16)));
	int a = _i;
	for (size_t len = 0; len <= SYSSHIM_PATH_MAX + 8; len++) {
		make_path(buf + a, len, 0);
		same_answers(buf + a, len % 61 == 0 || len >= SYSSHIM_PATH_MAX - 3);
	}
	sysshim_align_paths(0);
}
END_TEST

/* The boundaries themselves, asserted on the kernel first so that the test means
 * what it says: 4095 bytes and a NUL fit in PATH_MAX, 4096 do not; 255-byte names
 * fit NAME_MAX, 256 do not. */
START_TEST(length_boundaries)
{
	static char buf[5000 + 16] __attribute__((aligned(16)));
	struct stat k;
	static const size_t lens[] = { 4094, 4095, 4096, 4097, 5000 };
	for (int a = 0; a < 8; a++) {
		for (unsigned i = 0; i < sizeof lens / sizeof *lens; i++) {
			make_path(buf + a, lens[i], 0);
			errno = 0;
			int r = RAW_FSTATAT(AT_FDCWD, buf + a, &k, 0);
			if (lens[i] < SYSSHIM_PATH_MAX)
				ck_assert_int_eq(r, 0);
			else
				ck_assert(r == -1 && errno == ENAMETOOLONG);
			same_answers(buf + a, 1);
		}
		for (size_t len = 250; len <= 260; len++) {
			make_path(buf + a, len, 2);
			errno = 0;
			RAW_FSTATAT(AT_FDCWD, buf + a, &k, 0);
			ck_assert_int_eq(errno, len <= 255 ? ENOENT : ENAMETOOLONG);
			same_answers(buf + a, 1);
		}
		for (int kind = 1; kind <= 4; kind++)
			for (size_t len = 3; len < 40; len++) {
				make_path(buf + a, len, kind);
				same_answers(buf + a, 1);
			}
	}
	sysshim_align_paths(0);
}
END_TEST

/* The NUL gap bytes before a PROT_NONE page (0: the last byte of the page), the
 * start at every offset 0-15, short, long and too long paths: the case the guard
 * copies, and every neighbour of it. */
START_TEST(before_guard_page)
{
	char *end = guarded(3);
	static const size_t base[] = { 0, 32, 256, 4064, 4080, 4096 };
	for (int gap = 0; gap < 16; gap++)
		for (int a = 0; a < 16; a++)
			for (unsigned b = 0; b < sizeof base / sizeof *base; b++) {
				char *nul = end - 1 - gap;
				size_t len = base[b] + (((uintptr_t)nul - a) & 15);
				make_path(nul - len, len, len % 2 ? 0 : 4);
				same_answers(nul - len, 1);
			}
	sysshim_align_paths(0);
}
END_TEST

/* The guard copies exactly when the kernel's word load holding the NUL (at
 * start + 8k) crosses into the next page: unaligned start, NUL in the last
 * 8 - (start & 7) bytes of the page. Never for a path the kernel refuses as too long. */
START_TEST(guard_decision)
{
	char *end = guarded(3);
	static const size_t extra[] = { 0, 16, 48, 240, 1008, 4064, 4080, 4096, 4112 };
	for (int gap = 0; gap < 16; gap++)
		for (int a = 0; a < 16; a++)
			for (unsigned e = 0; e < sizeof extra / sizeof *extra; e++) {
				char *nul = end - 1 - gap;
				size_t len = extra[e] + (((uintptr_t)nul - a) & 15);
				char *s = nul - len;
				make_path(s, len, 0);
				int m = (uintptr_t)s & 7;
				int want = m && gap <= 7 - m && len < SYSSHIM_PATH_MAX;
				size_t got = __ss_path_scan(s);
				ck_assert_msg(got == (want ? len + 1 : 0),
					      "gap %d start&7 %d len %zu: %zu", gap, m, len, got);
			}
	/* In the middle of a page: never. */
	static char mid[64] __attribute__((aligned(64)));
	for (int a = 0; a < 8; a++) {
		make_path(mid + a, 20, 0);
		ck_assert_uint_eq(__ss_path_scan(mid + a), 0);
	}
}
END_TEST

/* EFAULT stays EFAULT: NULL and impossible pointers with the guard on or off; with it
 * off, nothing reads the path, so unreadable memory is the kernel's to report. */
START_TEST(efault_cases)
{
	struct stat s;
	struct statx sx;
	char *end = guarded(1);
	const char *bad[] = { NULL, (const char *)1, (const char *)-1, (const char *)4095,
			      end, end + 3, end - 3 };
	memcpy(end - 3, "abc", 3); /* no NUL before the guard page */
	for (int on = 0; on < 2; on++) {
		sysshim_align_paths(on);
		for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
			/* With the guard on, an unaligned unreadable path is read: see
			 * guard_crashes_on_unreadable. */
			if (on && ((uintptr_t)bad[i] & 7) && bad[i] >= end - 3)
				continue;
			/* valgrind itself faults reading a syscall's path in a PROT_NONE
			 * page: these run in the plain and the ASan runs. */
			if (RUNNING_ON_VALGRIND && bad[i] >= end - 3)
				continue;
			errno = 0;
			ck_assert_int_eq(sysshim_stat(bad[i], &s), -1);
			ck_assert_int_eq(errno, EFAULT);
			errno = 0;
			ck_assert_int_eq(sysshim_lstat(bad[i], &s), -1);
			ck_assert_int_eq(errno, EFAULT);
			errno = 0;
			ck_assert_int_eq(sysshim_fstatat(AT_FDCWD, bad[i], &s, 0), -1);
			ck_assert_int_eq(errno, EFAULT);
			errno = 0;
			ck_assert_int_eq(sysshim_statx(AT_FDCWD, bad[i], 0, STATX_BASIC_STATS, &sx), -1);
			ck_assert_int_eq(errno, EFAULT);
		}
	}
	sysshim_align_paths(0);
}
END_TEST

/* The price of the guard, documented: an unaligned string that runs into a
 * PROT_NONE page crashes the program (the kernel would have said EFAULT). */
START_TEST(guard_crashes_on_unreadable)
{
	struct stat s;
	char *end = guarded(1);
	memcpy(end - 3, "abc", 3);
	sysshim_align_paths(1);
	sysshim_stat(end - 3, &s);
}
END_TEST

/* The switch: returns the previous setting, -1 only asks, and it leaves the probe's
 * other decisions alone. */
START_TEST(switch_returns_previous)
{
	struct sysshim_info a, b;
	sysshim_info(&a);
	sysshim_align_paths(0);	/* off by default, unless SYSSHIM_ALIGN_PATHS=1 */
	ck_assert_int_eq(sysshim_align_paths(-1), 0);
	ck_assert_int_eq(sysshim_align_paths(1), 0);
	ck_assert_int_eq(sysshim_align_paths(1), 1);
	ck_assert_int_eq(sysshim_align_paths(-1), 1);
	sysshim_info(&b);
	ck_assert(!memcmp(&a, &b, sizeof a));
	ck_assert_int_eq(sysshim_align_paths(0), 1);
	ck_assert_int_eq(sysshim_align_paths(0), 0);
	sysshim_info(&b);
	ck_assert(!memcmp(&a, &b, sizeof a));
}
END_TEST

/* A syscall refused after the probe (a seccomp filter installed later) makes the
 * probe decide again; the guard's bit survives that. */
START_TEST(guard_survives_reprobe)
{
	struct statx sx;
	struct sysshim_info info;
	static const int nrs[] = { SYS_statx };
	sysshim_info(&info);
	if (!(info.caps & SYSSHIM_CAP_STATX))
		return;
	if (!(info.caps & SYSSHIM_CAP_NEWFSTATAT)) {
		fprintf(stderr, "guard_survives_reprobe: skipped: statx is the only path syscall "
			"here, nothing answers with it denied\n");
		return;
	}
	sysshim_align_paths(1);
	if (deny_syscalls(nrs, 1, EPERM)) {
		const char *tb = getenv("SYSSHIM_TESTBED");
		/* qemu-user cannot apply a guest's seccomp filter. */
		ck_assert_msg(tb && !strncmp(tb, "qemu-user", 9), "seccomp: %s", strerror(errno));
		return;
	}
	ck_assert_int_eq(sysshim_statx(AT_FDCWD, "f", 0, STATX_BASIC_STATS, &sx), 0);
	sysshim_info(&info);
	ck_assert(!(info.caps & SYSSHIM_CAP_STATX));
	ck_assert_int_eq(sysshim_align_paths(-1), 1);
}
END_TEST

/* SYSSHIM_ALIGN_PATHS is read once, at the first call: in a child that has made none yet
 * (a fork of Check's runner, which never calls the library), or else in this binary
 * run again in its reporting mode (see main; not possible under qemu-user). */
static int child_setting(const char *value)
{
	pid_t pid = fork();
	if (!pid) {
		if (value)
			setenv("SYSSHIM_ALIGN_PATHS", value, 1);
		else
			unsetenv("SYSSHIM_ALIGN_PATHS");
		/* not started: the environment not read yet (SS_ST_STARTED, probe.h) */
		if (!(__atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED) & (1ULL << 48)))
			_exit(sysshim_align_paths(-1));
		execl("/proc/self/exe", "check_path", "--report-align", (char *)NULL);
		_exit(99);
	}
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(env_switch)
{
	ck_assert_int_eq(child_setting(NULL), 0);
	ck_assert_int_eq(child_setting("1"), 1);
	ck_assert_int_eq(child_setting("0"), 0);
	ck_assert_int_eq(child_setting(""), 0);
	ck_assert_int_eq(child_setting("yes"), 0);
}
END_TEST

/* ---- whether copying pays: forced each way, measured, moved by costs ---- */

/* A page-end path of len bytes (NUL on the last byte before the PROT_NONE page,
 * starting at & 7 == 1, where the kernel's load faults). */
static char *edge_path(char *end, size_t len)
{
	char *s = end - 1 - len;
	while (((uintptr_t)s & 7) != 1)
		s--, len++;
	make_path(s, len, 0);
	return s;
}

/* _i: SYSSHIM_ALIGN_COPY=always, =never. The geometry decides, or nothing copies;
 * the answers are the kernel's either way. */
START_TEST(copy_forced_each_way)
{
	struct sysshim_align_info in;
	char *end = guarded(3);

	setenv("SYSSHIM_ALIGN_COPY", _i ? "never" : "always", 1);
	sysshim_align_info(&in);
	ck_assert_int_eq(in.mode, _i ? SYSSHIM_ALIGN_COPY_NEVER : SYSSHIM_ALIGN_COPY_ALWAYS);
	ck_assert_int_eq(in.measured, 0);
	ck_assert_uint_eq(in.copy_max_len, _i ? 0 : SYSSHIM_PATH_MAX - 1);
	for (int gap = 0; gap < 10; gap++)
		for (int a = 0; a < 8; a++) {
			char *nul = end - 1 - gap;
			size_t len = 40 + (((uintptr_t)nul - a) & 7);
			char *p = nul - len;
			make_path(p, len, 0);
			size_t risk = __ss_path_at_risk(p);
			ck_assert_uint_eq(__ss_path_scan(p), _i ? 0 : risk);
			same_answers(p, gap == 0);
		}
	sysshim_align_paths(0);
	sysshim_align_info(&in);
	ck_assert_int_eq(in.measured, 0);	/* forced: nothing measured */
}
END_TEST

/* Left to decide: the first unaligned path measures, and the guard copies a page-end
 * path exactly when the measured costs say it pays for its length. */
START_TEST(copy_decision_measured)
{
	struct sysshim_align_info in;
	struct stat st;
	char *end = guarded(2);

	setenv("SYSSHIM_ALIGN_COPY", "auto", 1);
	sysshim_align_info(&in);
	ck_assert_int_eq(in.measured, 0);
	sysshim_align_paths(1);
	char *p = edge_path(end, 30);
	ck_assert_int_eq(sysshim_stat(p, &st), 0);
	sysshim_align_info(&in);
	ck_assert_int_eq(in.mode, SYSSHIM_ALIGN_COPY_AUTO);
	ck_assert_int_eq(in.measured, 1);
	ck_assert_uint_gt(in.copy_ns + in.copy_ns_per64, 0);
	fprintf(stderr, "guard here: page-end penalty %u ns, copy %u ns + %u ns per 64 bytes: "
		"copies page-end paths up to %u bytes\n", in.penalty_ns, in.copy_ns, in.copy_ns_per64,
		in.copy_max_len);
	for (size_t len = 20; len < SYSSHIM_PATH_MAX - 16; len += 97) {
		p = edge_path(end, len);
		size_t n = strlen(p);
		int pays = in.penalty_ns > in.copy_ns + (uint64_t)in.copy_ns_per64 * (n / 64 + 1);
		ck_assert_uint_eq(__ss_path_scan(p), pays ? n + 1 : 0);
		ck_assert_int_eq(pays, n <= in.copy_max_len);
		same_answers(p, 0);
	}
	sysshim_align_paths(0);
}
END_TEST

/* Costs that say copying pays send page-end paths to the copy, up to the length
 * where it stops paying; costs that say it never pays make the guard read nothing,
 * so that an unreadable unaligned path gets the kernel's EFAULT, not a crash. */
START_TEST(copy_decision_follows_costs)
{
	struct sysshim_align_info in;
	struct stat st;
	char *end = guarded(2);

	setenv("SYSSHIM_ALIGN_COPY", "auto", 1);
	sysshim_align_paths(1);
	__ss_align_set_costs(1000, 100, 100);	/* pays while n / 64 + 1 <= 8 */
	sysshim_align_info(&in);
	ck_assert_uint_eq(in.copy_max_len, 511);
	char *p = edge_path(end, 500);
	ck_assert_uint_le(strlen(p), 511);
	ck_assert_uint_eq(__ss_path_scan(p), strlen(p) + 1);
	p = edge_path(end, 512);
	ck_assert_uint_ge(strlen(p), 512);
	ck_assert_uint_eq(__ss_path_scan(p), 0);
	ck_assert_uint_ne(__ss_path_at_risk(p), 0);
	static char mid[64] __attribute__((aligned(64)));
	make_path(mid + 3, 20, 0);
	ck_assert_uint_eq(__ss_path_scan(mid + 3), 0);	/* not at a page end */

	__ss_align_set_costs(10, 5000, 10);	/* never pays */
	sysshim_align_info(&in);
	ck_assert_uint_eq(in.copy_max_len, 0);
	p = edge_path(end, 20);
	ck_assert_uint_eq(__ss_path_scan(p), 0);
	same_answers(p, 1);
	memcpy(end - 3, "abc", 3);	/* no NUL before the PROT_NONE page */
	sysshim_align_paths(1);
	if (!RUNNING_ON_VALGRIND) {
		errno = 0;
		ck_assert_int_eq(sysshim_stat(end - 3, &st), -1);
		ck_assert_int_eq(errno, EFAULT);
	}
	sysshim_align_paths(0);
}
END_TEST

/* A wrong measurement does not stick: every 2^16 unaligned paths it is taken
 * again. */
START_TEST(copy_decision_recovers)
{
	struct sysshim_align_info in;
	static char mid[64] __attribute__((aligned(64)));

	setenv("SYSSHIM_ALIGN_COPY", "auto", 1);
	make_path(mid + 3, 20, 0);
	__ss_path_scan(mid + 3);	/* the first measurement */
	__ss_align_set_costs(0, 4000, 4000);	/* absurd: copying never pays */
	for (int i = 0; i < (1 << 16); i++)
		__ss_path_scan(mid + 3);
	sysshim_align_info(&in);
	ck_assert_int_eq(in.measured, 1);
	ck_assert_msg(in.copy_ns < 4000 && in.copy_ns_per64 < 4000,
		      "still %u + %u ns per copy after 2^16 paths", in.copy_ns, in.copy_ns_per64);
}
END_TEST

/* Scanning pays only where page-end paths are common: after a window of 4096
 * unaligned paths none of which was at a page end, one in 256 is looked at (and
 * timed); the first of those that finds a page-end path turns full scanning on. */
START_TEST(copy_decision_samples)
{
	struct sysshim_align_info in;
	static char mid[64] __attribute__((aligned(64)));
	char *end = guarded(2);

	setenv("SYSSHIM_ALIGN_COPY", "auto", 1);
	make_path(mid + 3, 20, 0);
	__ss_path_scan(mid + 3);
	__ss_align_set_costs(100000, 10, 10);	/* copying pays for every length */
	sysshim_align_info(&in);
	ck_assert_int_eq(in.scan_all, 1);
	for (int i = 0; i < 2 * 4096; i++)
		ck_assert_uint_eq(__ss_path_scan(mid + 3), 0);
	sysshim_align_info(&in);
	ck_assert_int_eq(in.scan_all, 0);
	ck_assert_uint_gt(in.scan_ns, 0);
	char *p = edge_path(end, 40);
	size_t n = strlen(p);
	int first = -1;
	for (int i = 0; i < 600; i++) {
		size_t r = __ss_path_scan(p);
		ck_assert(r == 0 || r == n + 1);
		if (r && first < 0)
			first = i;
		if (first >= 0)
			ck_assert_uint_eq(r, n + 1);	/* from the first hit on, every time */
	}
	ck_assert_msg(first >= 0 && first < 256, "first copy after %d page-end paths", first);
	sysshim_align_info(&in);
	ck_assert_int_eq(in.scan_all, 1);
	fprintf(stderr, "guard scan timed in place: %u ns; full scanning again after %d page-end paths\n",
		in.scan_ns, first + 1);
}
END_TEST

START_TEST(copy_env_bad_value)
{
	int p[2];
	char buf[256];
	struct sysshim_align_info in;

	ck_assert_int_eq(pipe(p), 0);
	int saved = dup(2);
	dup2(p[1], 2);
	setenv("SYSSHIM_ALIGN_COPY", "sometimes", 1);
	sysshim_align_info(&in);
	sysshim_align_info(&in);
	dup2(saved, 2);
	close(p[1]);
	ssize_t n = read(p[0], buf, sizeof buf - 1);
	ck_assert_int_gt(n, 0);
	buf[n] = 0;
	ck_assert_str_eq(buf, "sysshim: unknown SYSSHIM_ALIGN_COPY=sometimes ignored (known: auto always never)\n");
	ck_assert_int_eq(in.mode, SYSSHIM_ALIGN_COPY_AUTO);
}
END_TEST

/* The path buffer API. */

static void assert_path(const struct sysshim_path *p, const char *want)
{
	ck_assert_str_eq(sysshim_path_str(p), want);
	ck_assert_uint_eq(p->len, strlen(want));
	ck_assert_uint_eq((uintptr_t)sysshim_path_str(p) & 7, 0);
}

START_TEST(api_basics)
{
	static struct sysshim_path p;
	memset(&p, 0x5a, sizeof p);
	sysshim_path_init(&p);
	assert_path(&p, "");
	ck_assert_int_eq(sysshim_path_append(&p, "a"), 0);
	assert_path(&p, "a");
	ck_assert_int_eq(sysshim_path_append(&p, "b"), 0);
	assert_path(&p, "a/b");
	ck_assert_int_eq(sysshim_path_append(&p, "/c"), 0);
	assert_path(&p, "a/b/c");
	ck_assert_int_eq(sysshim_path_set(&p, "/"), 0);
	assert_path(&p, "/");
	ck_assert_int_eq(sysshim_path_append(&p, "usr"), 0);
	assert_path(&p, "/usr");
	ck_assert_int_eq(sysshim_path_set(&p, "x/"), 0);
	ck_assert_int_eq(sysshim_path_append(&p, "y"), 0);
	assert_path(&p, "x/y");
	ck_assert_int_eq(sysshim_path_append(&p, ""), 0);
	assert_path(&p, "x/y/");
	size_t mark = p.len;
	ck_assert_int_eq(sysshim_path_append(&p, "z"), 0);
	assert_path(&p, "x/y/z");
	ck_assert_int_eq(sysshim_path_truncate(&p, mark), 0);
	assert_path(&p, "x/y/");
	ck_assert_int_eq(sysshim_path_truncate(&p, 1), 0);
	assert_path(&p, "x");
	ck_assert_int_eq(sysshim_path_set(&p, ""), 0);
	assert_path(&p, "");
}
END_TEST

/* Failures leave every byte of the buffer as it was. */
#define FAILS(call, err, p) do { \
	static struct sysshim_path before_; \
	memcpy(&before_, (p), sizeof before_); \
	errno = 0; \
	ck_assert_int_eq((call), -1); \
	ck_assert_int_eq(errno, (err)); \
	ck_assert(!memcmp(&before_, (p), sizeof before_)); \
} while (0)

START_TEST(api_overflow)
{
	static struct sysshim_path p;
	static char s[BIG];

	memset(s, 'a', SYSSHIM_PATH_MAX - 1);
	s[SYSSHIM_PATH_MAX - 1] = 0;
	ck_assert_int_eq(sysshim_path_set(&p, s), 0);			/* 4095: fits */
	ck_assert_uint_eq(p.len, SYSSHIM_PATH_MAX - 1);
	FAILS(sysshim_path_append(&p, ""), ENAMETOOLONG, &p);		/* the '/' does not */
	memset(s, 'b', SYSSHIM_PATH_MAX);
	s[SYSSHIM_PATH_MAX] = 0;
	sysshim_path_set(&p, "keep");
	FAILS(sysshim_path_set(&p, s), ENAMETOOLONG, &p);		/* 4096 */
	s[SYSSHIM_PATH_MAX] = 'b';
	s[SYSSHIM_PATH_MAX + 1] = 0;
	FAILS(sysshim_path_set(&p, s), ENAMETOOLONG, &p);		/* 4097 */
	assert_path(&p, "keep");

	/* "keep" + "/" + name: 4095 - 5 = 4090 bytes of name fit, 4091 do not. */
	memset(s, 'c', sizeof s);
	s[4091] = 0;
	FAILS(sysshim_path_append(&p, s), ENAMETOOLONG, &p);
	s[4090] = 0;
	ck_assert_int_eq(sysshim_path_append(&p, s), 0);
	ck_assert_uint_eq(p.len, SYSSHIM_PATH_MAX - 1);
	ck_assert_int_eq(p.buf[4], '/');
	ck_assert_int_eq(p.buf[SYSSHIM_PATH_MAX - 1], 0);

	/* Every split of a 4095-byte result, and one byte more. */
	for (size_t head = 1; head < SYSSHIM_PATH_MAX - 2; head += 97) {
		memset(s, 'd', head);
		s[head] = 0;
		ck_assert_int_eq(sysshim_path_set(&p, s), 0);
		size_t name = SYSSHIM_PATH_MAX - 2 - head;
		memset(s, 'e', name + 1);
		s[name + 1] = 0;
		FAILS(sysshim_path_append(&p, s), ENAMETOOLONG, &p);
		s[name] = 0;
		ck_assert_int_eq(sysshim_path_append(&p, s), 0);
		ck_assert_uint_eq(p.len, SYSSHIM_PATH_MAX - 1);
		ck_assert_uint_eq(strlen(p.buf), SYSSHIM_PATH_MAX - 1);
	}

	sysshim_path_set(&p, "keep");
	FAILS(sysshim_path_append(&p, NULL), EFAULT, &p);
	FAILS(sysshim_path_set(&p, NULL), EFAULT, &p);
	FAILS(sysshim_path_truncate(&p, 5), EINVAL, &p);
	FAILS(sysshim_path_truncate(&p, (size_t)-1), EINVAL, &p);
}
END_TEST

/* A name too long to fit is read no further than the first byte that does not fit:
 * here that byte is the last before a PROT_NONE page and there is no NUL at all. */
START_TEST(api_reads_no_further_than_needed)
{
	static struct sysshim_path p;
	char *end = guarded(2);
	sysshim_path_set(&p, "dir");
	size_t room = SYSSHIM_PATH_MAX - 1 - 4;
	memset(end - (room + 1), 'n', room + 1);
	FAILS(sysshim_path_append(&p, end - (room + 1)), ENAMETOOLONG, &p);
	memset(end - SYSSHIM_PATH_MAX, 'n', SYSSHIM_PATH_MAX);
	FAILS(sysshim_path_set(&p, end - SYSSHIM_PATH_MAX), ENAMETOOLONG, &p);
}
END_TEST

/* A small directory walk with append and truncate, every path stat'ed through the
 * library (guard on and off) and checked against the kernel. */
START_TEST(api_walk)
{
	static struct sysshim_path p;
	static const char *const names[] = { "f", "d", "l", "missing" };
	sysshim_path_set(&p, dir);
	for (int depth = 0; depth < 3; depth++) {
		for (unsigned i = 0; i < 4; i++) {
			size_t mark = p.len;
			ck_assert_int_eq(sysshim_path_append(&p, names[i]), 0);
			same_answers(sysshim_path_str(&p), 1);
			ck_assert_int_eq(sysshim_path_truncate(&p, mark), 0);
		}
		ck_assert_int_eq(sysshim_path_append(&p, "d/.."), 0);
	}
	sysshim_align_paths(0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("path");
	TCase *t = tcase_create("guard");
	tcase_add_unchecked_fixture(t, make_objects, NULL);
	tcase_add_loop_test(t, every_length, 0, 8);
	tcase_add_test(t, length_boundaries);
	tcase_add_test(t, before_guard_page);
	tcase_add_test(t, guard_decision);
	tcase_add_test(t, efault_cases);
	tcase_add_test_raise_signal(t, guard_crashes_on_unreadable, SIGSEGV);
	tcase_add_test(t, switch_returns_previous);
	tcase_add_test(t, guard_survives_reprobe);
	tcase_add_test(t, env_switch);
	tcase_add_loop_test(t, copy_forced_each_way, 0, 2);
	tcase_add_test(t, copy_decision_measured);
	tcase_add_test(t, copy_decision_follows_costs);
	tcase_add_test(t, copy_decision_recovers);
	tcase_add_test(t, copy_decision_samples);
	tcase_add_test(t, copy_env_bad_value);
	tcase_set_timeout(t, 300);
	suite_add_tcase(s, t);

	t = tcase_create("api");
	tcase_add_unchecked_fixture(t, make_objects, NULL);
	tcase_add_test(t, api_basics);
	tcase_add_test(t, api_overflow);
	tcase_add_test(t, api_reads_no_further_than_needed);
	tcase_add_test(t, api_walk);
	tcase_set_timeout(t, 120);
	suite_add_tcase(s, t);
	return s;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--report-align"))
		return sysshim_align_paths(-1);
	/* The guard's tests check the copy itself wherever the kernel's load would
	 * fault, whatever copying costs here; copy_decision_* test the measured way. */
	if (!getenv("SYSSHIM_ALIGN_COPY"))
		setenv("SYSSHIM_ALIGN_COPY", "always", 1);
	SRunner *sr = srunner_create(suite());
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
