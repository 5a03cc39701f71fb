#include "guard.h"
#include "decision.h"
#include "clock.h"
#include "env.h"

/* Whether the guard's copy pays on this machine (docs/path.md, "Measured, not
 * assumed", has the figures). A page-end path costs the kernel a fault and a
 * byte-by-byte finish, how much differs from machine to machine, and nothing at all
 * under qemu-user (which reads guest strings itself). Copying costs a fixed
 * part and a part per 64 bytes. Both are measured in this process, the first time
 * the guard meets an unaligned path, and again every 2^SS_GUARD_EXP unaligned paths
 * after that, so a measurement that came out wrong, or a machine that changed, does
 * not decide for good. A page-end path of n bytes is copied when
 *	penalty > fixed + per64 * (n / 64 + 1);
 * when not even the shortest path would be, the guard does not read paths at all.
 *
 * One 64-bit word holds it all (one relaxed load per unaligned path, updates by
 * compare-and-swap; lock-free, async-signal-safe):
 *	bits  0-1	SYSSHIM_ALIGN_COPY: 0 not read yet, GM_AUTO, GM_ALWAYS, GM_NEVER
 *	bit   2	measured
 *	bits  4-23	penalty, ns (saturates at about 1 ms)
 *	bit   3	scanning every unaligned path (else one in SS_GUARD_SAMPLE)
 *	bits 24-35	fixed copy cost, ns
 *	bits 36-47	copy cost per 64 bytes, ns
 *	bits 48-59	the scan's cost, ns, as timed in place
 *
 * Scanning costs every unaligned path something (a few ns, and where syscalls flush
 * the TLB, PTI without PCID, the first touch of the path's page: tens of ns, a few
 * percent of a stat; docs/path.md, the same section), and pays only if page-end paths
 * are common enough. So one unaligned path in SS_GUARD_SAMPLE (256) is scanned (and
 * timed: the scan's cost S, in place, TLB miss included), and all of them once one of
 * those finds a page-end path. Every 2^SS_GUARD_WIN unaligned paths the window's
 * counts decide again: scan all while
 *	hits * (penalty - fixed - per64) > scans * S. */

#define GM_AUTO		1
#define GM_ALWAYS	2
#define GM_NEVER	3
#define G_MODE(w)	((unsigned)(w) & 3)
#define G_MEASURED	4
#define G_PEN(w)	((unsigned)((w) >> 4) & 0xfffff)
#define G_FIX(w)	((unsigned)((w) >> 24) & 0xfff)
#define G_PER(w)	((unsigned)((w) >> 36) & 0xfff)
#define G_SCAN(w)	((unsigned)((w) >> 48) & 0xfff)
#define G_FULL		8
#define SS_GUARD_EXP	16
#define SS_GUARD_WIN	12
#define SS_GUARD_SAMPLE	256

/* Larger than any base page Linux has (4 KiB x86_64, 16 KiB LoongArch, 64 KiB arm64 and
 * ppc64 configurations), so m + LARGEST_PAGE is a page boundary and mprotect takes it. */
#define LARGEST_PAGE	65536
#define G_MADE		3	/* the mode bits: set in every made word */

static uint64_t guard_word;
/* Racy on purpose (a lost increment shifts a decision by one path); together, so
 * that they share one cache line. */
static struct {
	unsigned long calls, scans, hits;
} cnt __attribute__((__aligned__(64)));

static uint64_t guard_pack(unsigned mode, int measured, unsigned pen, unsigned fix, unsigned per)
{
	return mode | (measured ? G_MEASURED : 0) | (uint64_t)(pen > 0xfffff ? 0xfffff : pen) << 4 |
	       (uint64_t)(fix > 0xfff ? 0xfff : fix) << 24 | (uint64_t)(per > 0xfff ? 0xfff : per) << 36;
}

/* The word the first time: SYSSHIM_ALIGN_COPY=auto|always|never, nothing measured. */
static uint64_t guard_make(void)
{
	static const char *const names[] = { "auto", "always", "never" };
	int m = __ss_env_choice("SYSSHIM_ALIGN_COPY", names, 3, 0, "auto always never");

	return guard_pack(GM_AUTO + (unsigned)m, 0, 0, 0, 0);
}

static uint64_t guard_state(void)
{
	return __ss_decision(&guard_word, G_MADE, guard_make);
}

/* The word OLD with the costs at ARG (penalty, fixed, per 64 bytes, measured: 20, 12,
 * 12 and 1 bits): the scan's cost and the full-scan bit kept. */
static uint64_t guard_with_costs(uint64_t old, uint64_t arg)
{
	return guard_pack(G_MODE(old), (arg >> 44) & 1, arg & 0xfffff, (arg >> 20) & 0xfff,
		    (arg >> 32) & 0xfff) | (old & (G_FULL | 0xfffULL << 48));
}

static void set_costs(unsigned pen, unsigned fix, unsigned per, int measured)
{
	uint64_t arg = (uint64_t)(pen > 0xfffff ? 0xfffff : pen) | (uint64_t)(fix > 0xfff ? 0xfff : fix) << 20 |
		       (uint64_t)(per > 0xfff ? 0xfff : per) << 32 | (uint64_t)!!measured << 44;
	__ss_decision_change(&guard_word, G_MADE, guard_make, guard_with_costs, arg);
}

/* The word OLD with the full-scan bit as ARG's bit 0 says, and with a scan's cost in
 * ARG's bits 1-63 (0: none) moved halfway towards it. */
static uint64_t with_scan(uint64_t old, uint64_t arg)
{
	unsigned sc = G_SCAN(old), scan_ns = (unsigned)(arg >> 1 > 0xffffffff ? 0xffffffff : arg >> 1);
	if (scan_ns)
		sc = sc ? (unsigned)(((uint64_t)sc + scan_ns + 1) / 2) : scan_ns;
	if (sc > 0xfff)
		sc = 0xfff;
	return (old & ~(G_FULL | 0xfffULL << 48)) | (arg & 1 ? G_FULL : 0) | (uint64_t)sc << 48;
}

/* Sets the full-scan bit (FULL), and with scan_ns != 0 moves the scan's cost halfway. */
static void set_scanning(int full, unsigned scan_ns)
{
	__ss_decision_change(&guard_word, G_MADE, guard_make, with_scan, (uint64_t)scan_ns << 1 | !!full);
}

static void fill_slashes(char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((volatile char *)s)[i] = '/';
	s[n] = 0;
}

static uint64_t min_of(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* A private page followed by a PROT_NONE one; "//...//" (the root) once with its
 * NUL on the first page's last byte, starting unaligned, so that the kernel's word
 * load faults, and once aligned in the middle: the difference of the fastest of a
 * few alternating stats is the penalty. Then copies of a 15- and a 1023-byte path. */
/* newfstatat, or statx where the kernel has no newfstatat (LoongArch before 6.11). */
static long stat_once(const char *p, struct stat *st)
{
	struct statx stx;
	long r = __syscall(SYS_newfstatat, AT_FDCWD, p, st, 0);
	return r != -ENOSYS ? r : __syscall(SYS_statx, AT_FDCWD, p, 0, STATX_BASIC_STATS, &stx);
}

static void guard_measure(void)
{
	struct stat st;
	struct sysshim_path tmp;
	uint64_t edge = ~0ULL, mid = ~0ULL, c15 = ~0ULL, c1k = ~0ULL, t;
	long a = __syscall(SYS_mmap, 0, 2 * LARGEST_PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *m, *e, *al, *lng;
	int ok = 1;

	if ((unsigned long)a > -4096UL)
		return set_costs(0, 0, 0, 0);
	m = (char *)a;
	if (__syscall(SYS_mprotect, m + LARGEST_PAGE, LARGEST_PAGE, PROT_NONE)) {
		__syscall(SYS_munmap, m, 2 * LARGEST_PAGE);
		return set_costs(0, 0, 0, 0);
	}
	e = m + LARGEST_PAGE - 15;		/* & 7 == 1, NUL at the page's last byte */
	al = m + 1024;
	lng = m + 2048 + 1;
	fill_slashes(e, 14);
	fill_slashes(al, 14);
	fill_slashes(lng, 1023);
	for (int i = 0; i < 6 && ok; i++) {
		for (int j = 0; j < 2; j++) {
			int first = (i + j) & 1;
			t = __ss_now_ns();
			ok &= !stat_once(first ? e : al, &st);
			t = __ss_now_ns() - t;
			if (first)
				edge = min_of(edge, t);
			else
				mid = min_of(mid, t);
		}
		t = __ss_now_ns();
		for (int k = 0; k < 8; k++) {
			__ss_path_copy(&tmp, e, 14);
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
		}
		c15 = min_of(c15, (__ss_now_ns() - t + 7) / 8);
		t = __ss_now_ns();
		__ss_path_copy(&tmp, lng, 1023);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		c1k = min_of(c1k, __ss_now_ns() - t);
	}
	__syscall(SYS_munmap, m, 2 * LARGEST_PAGE);
	if (!ok)	/* refused (a sandbox): nothing measured, copy as before */
		return set_costs(0, 0, 0, 0);
	/* 15 bytes: the fixed part; 1023 bytes: 16 more 64-byte blocks. */
	unsigned fix = (unsigned)c15 ? (unsigned)c15 : 1;
	unsigned per = c1k > c15 ? (unsigned)((c1k - c15 + 15) / 16) : 1;
	set_costs(edge > mid ? (unsigned)(edge - mid) : 0, fix, per, 1);
}

static int copy_pays(uint64_t w, size_t n)
{
	return G_PEN(w) > G_FIX(w) + (uint64_t)G_PER(w) * ((n >> 6) + 1);
}

/* The guard's question for an unaligned path (the stat calls, via guard.h): its length + 1
 * when it is to be copied, else 0. */
size_t __ss_path_scan(const char *path)
{
	uint64_t w = guard_state(), t0 = 0;
	size_t n;
	unsigned long c;
	int timed = 0;

	if (G_MODE(w) == GM_NEVER)
		return 0;
	if (G_MODE(w) == GM_AUTO) {
		c = __atomic_load_n(&cnt.calls, __ATOMIC_RELAXED);
		__atomic_store_n(&cnt.calls, c + 1, __ATOMIC_RELAXED);
		/* The common case, first: measured, sampling, not this path's turn (the
		 * window's and the measurement's turns are sampling turns too). */
		if ((w & (G_MEASURED | G_FULL)) == G_MEASURED && likely((c + 1) % SS_GUARD_SAMPLE))
			return 0;
		if (unlikely(!(w & G_MEASURED) && !c) ||
		    unlikely(!((c + 1) & ((1UL << SS_GUARD_EXP) - 1)))) {
			guard_measure();
			w = guard_state();
		}
		/* Measured, and not even a short page-end path pays: read nothing. */
		if ((w & G_MEASURED) && !copy_pays(w, 0))
			return 0;
		if (unlikely(!((c + 1) & ((1UL << SS_GUARD_WIN) - 1)))) {
			unsigned long sc = __atomic_load_n(&cnt.scans, __ATOMIC_RELAXED);
			unsigned long hi = __atomic_load_n(&cnt.hits, __ATOMIC_RELAXED);
			uint64_t gain = G_PEN(w) > G_FIX(w) + G_PER(w) ? G_PEN(w) - G_FIX(w) - G_PER(w) : 0;
			set_scanning((uint64_t)hi * gain > (uint64_t)sc * G_SCAN(w), 0);
			__atomic_store_n(&cnt.scans, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&cnt.hits, 0, __ATOMIC_RELAXED);
			w = guard_state();
		}
		timed = !c || !((c + 1) % SS_GUARD_SAMPLE);
		if (!(w & G_FULL) && (w & G_MEASURED) && !timed)
			return 0;
		__atomic_store_n(&cnt.scans, __atomic_load_n(&cnt.scans, __ATOMIC_RELAXED) + 1,
				 __ATOMIC_RELAXED);
		if (timed)
			t0 = __ss_now_ns();
	}
	n = __ss_path_at_risk(path);
	if (G_MODE(w) != GM_AUTO)
		return n;
	if (timed) {
		uint64_t d = __ss_now_ns() - t0;
		unsigned clk = __ss_clock_cost();
		set_scanning(n || (w & G_FULL), d > clk ? (unsigned)(d - clk) : 1);
	} else if (n && !(w & G_FULL)) {
		set_scanning(1, 0);
	}
	if (!n)
		return 0;
	__atomic_store_n(&cnt.hits, __atomic_load_n(&cnt.hits, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
	if (!(w & G_MEASURED))
		return n;
	return copy_pays(w, n - 1) ? n : 0;
}

/* For the tests: costs as if measured. */
void __ss_align_set_costs(unsigned penalty, unsigned fixed, unsigned per64)
{
	set_costs(penalty, fixed, per64, 1);
	set_scanning(1, 0);
}

EXPORT void sysshim_align_info(struct sysshim_align_info *in)
{
	uint64_t w = guard_state();
	unsigned pen = G_PEN(w), fix = G_FIX(w), per = G_PER(w);

	in->mode = G_MODE(w) == GM_ALWAYS ? SYSSHIM_ALIGN_COPY_ALWAYS :
		   G_MODE(w) == GM_NEVER ? SYSSHIM_ALIGN_COPY_NEVER : SYSSHIM_ALIGN_COPY_AUTO;
	in->measured = !!(w & G_MEASURED);
	in->penalty_ns = pen;
	in->copy_ns = fix;
	in->copy_ns_per64 = per;
	in->scan_ns = G_SCAN(w);
	in->scan_all = in->mode == SYSSHIM_ALIGN_COPY_ALWAYS ||
		       (in->mode == SYSSHIM_ALIGN_COPY_AUTO && (!in->measured || (w & G_FULL)));
	/* The longest path that is copied at a page end. */
	if (in->mode == SYSSHIM_ALIGN_COPY_NEVER)
		in->copy_max_len = 0;
	else if (in->mode == SYSSHIM_ALIGN_COPY_ALWAYS || !in->measured)
		in->copy_max_len = SYSSHIM_PATH_MAX - 1;
	else if (pen <= fix + per)
		in->copy_max_len = 0;
	else {
		uint64_t blocks = per ? (pen - fix - 1) / per : 64;	/* n / 64 + 1 <= blocks */
		uint64_t max = blocks * 64 - 1;
		in->copy_max_len = max >= SYSSHIM_PATH_MAX - 1 ? SYSSHIM_PATH_MAX - 1 : (unsigned)max;
	}
}

/* Measure now (the benchmarks and sysshim-probe); the guard need not be on. */
EXPORT void sysshim_align_measure(void)
{
	if (G_MODE(guard_state()) == GM_AUTO)
		guard_measure();
}
