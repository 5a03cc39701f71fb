#include "eventfd_impl.h"
#include "decision.h"

/* How a flush of k >= 2 non-blocking eventfds goes out: k write(2)s, or one
 * io_uring_enter. Which is faster depends on the machine (docs/eventfd.md): the
 * process measures it. Costs model: plain(k) = P * k, uring(k) = A + U * k, where
 * P is one write(2), A one io_uring_enter with nothing to do (its fixed part) and
 * U what each write adds inside the ring. io_uring is taken where it is cheaper by
 * an eighth: 8 (A + U k) < 7 P k.
 *
 * One 64-bit word holds the decision's state and all three costs (decision.h: made once,
 * one relaxed load a flush, changed by compare-and-swap; lock-free, async-signal-safe).
 * Layout:
 *	bits  0-1	SYSSHIM_BATCH: 0 not read yet, SS_BM_AUTO, SS_BM_URING, SS_BM_PLAIN
 *	bits  2-4	timed flushes during calibration (SS_CALIB = done)
 *	bits  5-8	log2 of the flushes between two timed ones after calibration
 *	bit   9	which kind the next timed flush measures (0 plain, 1 io_uring)
 *	bits 10-27	P, ns		(18 bits each: saturate at 262 us)
 *	bits 28-45	A, ns
 *	bits 46-63	U, ns
 * A flush counter (racy on purpose: a lost increment only moves a measurement by a
 * flush) says when the next timed flush is due. */

#define F_MODE(w)	((unsigned)(w) & 3)
#define F_CAL(w)	((unsigned)((w) >> 2) & 7)
#define F_EXP(w)	((unsigned)((w) >> 5) & 15)
#define F_NEXT(w)	((unsigned)((w) >> 9) & 1)
#define F_P(w)		((unsigned)((w) >> 10) & COST_MAX)
#define F_A(w)		((unsigned)((w) >> 28) & COST_MAX)
#define F_U(w)		((unsigned)((w) >> 46) & COST_MAX)
#define COST_MAX	0x3ffffU

#define F_MADE		3	/* the mode bits: set in every made word */

static uint64_t batch_word;
/* Flushes counted since the start (racy on purpose: a lost increment only moves a
 * measurement by a flush): when the next timed flush is due. */
static unsigned long flushes;
/* The timed flush to come right after its warm-up (0: none). Racy on purpose: at
 * worst a sample goes without its warm-up, or a warm-up without its sample. */
static unsigned warm_pick;

static uint64_t choice_pack(unsigned mode, unsigned cal, unsigned exp, unsigned next, unsigned p,
		     unsigned a, unsigned u)
{
	return mode | (uint64_t)cal << 2 | (uint64_t)exp << 5 | (uint64_t)next << 9 |
	       (uint64_t)(p > COST_MAX ? COST_MAX : p) << 10 |
	       (uint64_t)(a > COST_MAX ? COST_MAX : a) << 28 |
	       (uint64_t)(u > COST_MAX ? COST_MAX : u) << 46;
}

/* The word the first time: SYSSHIM_BATCH=uring|plain|auto, nothing measured. */
static uint64_t choice_make(void)
{
	static const char *const names[] = { "auto", "uring", "plain" };
	int m = __ss_env_choice("SYSSHIM_BATCH", names, 3, 0, "uring plain auto");

	return choice_pack(SS_BM_AUTO + (unsigned)m, 0, SS_EXP_MIN, 0, 0, 0, 0);
}

static uint64_t choice_state(void)
{
	return __ss_decision(&batch_word, F_MADE, choice_make);
}

/* Whether the costs say io_uring for k writes: by at least an eighth, since plain
 * writes are the reference ("never slower than write(2)") and, where the two are
 * that close, one flush's noise is larger than the difference. */
static int uring_wins(uint64_t w, unsigned k)
{
	uint64_t p = F_P(w), a = F_A(w), u = F_U(w);
	return 8 * (a + u * k) < 7 * p * k;
}

/* A timed flush comes second: the way it measures is first taken once untimed, so
 * that the losing way, which runs only when it is measured, is not timed cold (its
 * kernel paths out of the caches, and under an emulator out of the translation
 * cache, several times its warm cost: docs/eventfd.md, "How the batch decides"). */
static unsigned warm_up(unsigned timed)
{
	__atomic_store_n(&warm_pick, timed, __ATOMIC_RELAXED);
	return timed & ~SS_PICK_TIME;
}

/* The one place a flush's way is decided: a batch's own flags first (plain: no ring
 * at all), then whether io_uring is to be had here, then SYSSHIM_BATCH, then the
 * measured costs. 0 is plain writes, untimed. */
unsigned __ss_batch_pick(const struct sysshim_batch *b, unsigned k)
{
	uint64_t w;
	unsigned long t;

	if (k < 2 || (b->flags & SYSSHIM_BATCH_PLAIN) || !__ss_uring_usable())
		return 0;
	if (b->flags & SYSSHIM_BATCH_URING)
		return SS_PICK_URING;
	w = choice_state();
	if (F_MODE(w) != SS_BM_AUTO)
		return F_MODE(w) == SS_BM_URING ? SS_PICK_URING : 0;
	if (unlikely(warm_pick)) {
		unsigned p = __atomic_exchange_n(&warm_pick, 0, __ATOMIC_RELAXED);
		if (p)
			return p;
	}
	if (F_CAL(w) < SS_CALIB) {
		/* A clock that cannot time a flush never lets calibration end: plain
		 * writes, the reference, and nothing timed. */
		if (unlikely(__ss_clock_source(0) == SYSSHIM_CLOCK_COARSE))
			return 0;
		/* Calibration: plain first, then alternating; each timed. */
		return warm_up(SS_PICK_TIME | (F_CAL(w) & 1 ? SS_PICK_URING : 0));
	}
	t = __atomic_load_n(&flushes, __ATOMIC_RELAXED) + 1;
	__atomic_store_n(&flushes, t, __ATOMIC_RELAXED);
	if (unlikely(!(t & ((1UL << F_EXP(w)) - 1))))
		return warm_up(SS_PICK_TIME | (F_NEXT(w) ? SS_PICK_URING : 0));
	return uring_wins(w, k) ? SS_PICK_URING : 0;
}

/* After calibration a sample moves a cost towards itself, and no sample counts for
 * more than twice or less than half the old cost: one flush that a preemption made
 * slow cannot flip the decision by itself, a real change (a migrated VM, a new
 * seccomp filter) gets there in a few samples. Noise only ever adds time, so a
 * lower sample moves the cost halfway (at most to 3/4 of it), a higher one a
 * quarter of the way (at most to 5/4). */
static unsigned moved_towards(unsigned old, unsigned s)
{
	if (!old)
		return s;
	if (s > 2 * old)
		s = 2 * old;
	if (s < old / 2)
		s = old / 2;
	return s < old ? (old + s + 1) / 2 : (3 * old + s + 3) / 4;
}

/* A sample the clamp did not cut: within half and twice the stored cost. Noise
 * (a loaded machine, an emulator) stays inside that and lets the interval grow;
 * a real change of cost does not, and the next samples come soon. */
static int within_twice(unsigned old, unsigned now)
{
	return now <= 2ULL * old && 2ULL * now >= old;
}

/* One timed flush: which way, of how many writes, its time and its entry's time, the
 * clock's own cost taken out. */
struct sample {
	unsigned pick, k;
	uint64_t ns, enter_ns;
};

/* The word OLD with the sample at ARG (a struct sample) in its costs. */
static uint64_t with_sample(uint64_t old, uint64_t arg)
{
	const struct sample *sm = (const struct sample *)(uintptr_t)arg;
	unsigned cal = F_CAL(old), exp = F_EXP(old), p = F_P(old), a = F_A(old), u = F_U(old);
	int before = uring_wins(old, sm->k), stable = 1;
	uint64_t w;

	if (sm->pick & SS_PICK_URING) {
		unsigned na = (unsigned)(sm->enter_ns > COST_MAX ? COST_MAX : sm->enter_ns);
		unsigned nu = sm->ns > na ? (unsigned)((sm->ns - na) / sm->k) : 0;
		if (cal < SS_CALIB) {
			a = !a || na < a ? na : a;
			u = !u || nu < u ? nu : u;
		} else {
			stable = within_twice(a, na) && within_twice(u, nu);
			a = moved_towards(a, na);
			u = moved_towards(u, nu);
		}
	} else {
		unsigned np = (unsigned)(sm->ns / sm->k);
		if (cal < SS_CALIB) {
			p = !p || np < p ? np : p;
		} else {
			stable = within_twice(p, np);
			p = moved_towards(p, np);
		}
	}
	if (cal < SS_CALIB)
		return choice_pack(F_MODE(old), cal + 1, exp, !F_NEXT(old), p, a, u);
	w = choice_pack(F_MODE(old), cal, exp, !F_NEXT(old), p, a, u);
	/* Confirmed (the same decision, a sample within 2x): look again half as often (at
	 * most every 2^SS_EXP_MAX flushes); moved: look again soon. */
	if (stable && before == uring_wins(w, sm->k))
		exp = exp < SS_EXP_MAX ? exp + 1 : exp;
	else
		exp = SS_EXP_MIN;
	return choice_pack(F_MODE(old), cal, exp, !F_NEXT(old), p, a, u);
}

void __ss_batch_sample(unsigned pick, unsigned k, uint64_t ns, uint64_t enter_ns)
{
	unsigned clk;

	__ss_clock_source(&clk);
	/* The clock's own cost is in every interval: take it out. */
	struct sample sm = { pick, k, ns > clk ? ns - clk : 0, enter_ns > clk ? enter_ns - clk : 0 };
	__ss_decision_change(&batch_word, F_MADE, choice_make, with_sample, (uintptr_t)&sm);
}

/* The word OLD with the costs at ARG (three 18-bit costs, p a u), as if measured. */
static uint64_t choice_with_costs(uint64_t old, uint64_t arg)
{
	unsigned p = arg & COST_MAX, a = (arg >> 18) & COST_MAX, u = (arg >> 36) & COST_MAX;
	return choice_pack(F_MODE(old), arg ? SS_CALIB : 0, SS_EXP_MIN, 0, p, a, u);
}

/* For the tests: costs as if measured (calibration done), or 0s to start over; the
 * next timed flush is then the 2^SS_EXP_MIN-th. */
void __ss_batch_set_costs(unsigned p, unsigned a, unsigned u)
{
	__atomic_store_n(&flushes, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&warm_pick, 0, __ATOMIC_RELAXED);
	p = p > COST_MAX ? COST_MAX : p, a = a > COST_MAX ? COST_MAX : a, u = u > COST_MAX ? COST_MAX : u;
	__ss_decision_change(&batch_word, F_MADE, choice_make, choice_with_costs,
			 (uint64_t)p | (uint64_t)a << 18 | (uint64_t)u << 36);
}

EXPORT void sysshim_batch_info(struct sysshim_batch_info *in)
{
	uint64_t w = choice_state();
	unsigned p = F_P(w), a = F_A(w), u = F_U(w);

	in->mode = F_MODE(w) == SS_BM_URING ? SYSSHIM_BATCH_MODE_URING :
		   F_MODE(w) == SS_BM_PLAIN ? SYSSHIM_BATCH_MODE_PLAIN : SYSSHIM_BATCH_MODE_AUTO;
	in->uring = __ss_uring_usable();
	in->calibrated = F_CAL(w) >= SS_CALIB;
	in->plain_ns = p;
	in->uring_enter_ns = a;
	in->uring_write_ns = u;
	/* The smallest k >= 2 for which the costs say io_uring (8 (a + u k) < 7 p k,
	 * k (7p - 8u) > 8a); 0: none. */
	in->crossover = 0;
	if (in->calibrated && 7ULL * p > 8ULL * u) {
		uint64_t k = 8ULL * a / (7ULL * p - 8ULL * u) + 1;
		in->crossover = k < 2 ? 2 : k > 0xffffffffu ? 0xffffffffu : (unsigned)k;
	}
	in->interval = 1u << F_EXP(w);
	in->clock = __ss_clock_source(&in->clock_ns);
}
