#ifndef SYSSHIM_DECISION_H
#define SYSSHIM_DECISION_H

/* A decision kept in one 64-bit word (decision.c), the shape the library's three
 * self-measuring decisions share: the probe's (probe.c: how each call goes), the path
 * guard's (path/guard.c: whether a page-end path is copied) and the eventfd batch's
 * (eventfd/batch_choice.c: plain writes or io_uring):
 *   - made once, by asking the kernel or measuring: __ss_decision() makes it the first time
 *     (racing first callers each make one; the first stored is everyone's), and after
 *     that it is one relaxed load;
 *   - changed with a compare-and-swap, retried until no other change came in between:
 *     __ss_decision_change();
 *   - overridden by the environment, read when it is made: __ss_env_choice().
 * A word is made once a bit of its MADE mask is set (each decision has one that its
 * made words always hold). Lock-free, no allocation: async-signal-safe. */

#include "syscall.h"
#include <stdint.h>

typedef uint64_t (*ss_decision_make_fn)(void);
typedef uint64_t (*ss_decision_change_fn)(uint64_t old, uint64_t arg);

/* The word at W, made by MAKE where no bit of MADE is set yet. */
hidden uint64_t __ss_decision_make(uint64_t *w, uint64_t made, ss_decision_make_fn make);

static inline uint64_t __ss_decision(uint64_t *w, uint64_t made, ss_decision_make_fn make)
{
	uint64_t v = __atomic_load_n(w, __ATOMIC_RELAXED);
	return likely(v & made) ? v : __ss_decision_make(w, made, make);
}

/* The word at W (made) replaced by CHANGE(old, ARG), again from the newer word where
 * another change came first; the new word. */
hidden uint64_t __ss_decision_change(uint64_t *w, uint64_t made, ss_decision_make_fn make,
				 ss_decision_change_fn change, uint64_t arg);

/* The index in NAMES[0..N-1] that the environment's VAR chooses, or DFLT where VAR is
 * unset or empty; a value that is none of them gets one line on stderr ("unknown
 * VAR=VALUE ignored (known: KNOWN)"), and DFLT. */
hidden int __ss_env_choice(const char *var, const char *const *names, int n, int dflt,
			   const char *known);

#endif
