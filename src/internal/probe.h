#ifndef SYSSHIM_PROBE_H
#define SYSSHIM_PROBE_H

#include "kabi.h"
#include "loader.h"
#include "seccomp.h"

/* Ways to stat an open fd: include/sysshim.h's SYSSHIM_S_*, the same numbers (held to that
 * by sysshim_info.c). */
enum {
	SS_AUTO,
	SS_FSTAT,
	SS_NEWFSTATAT_NULL,
	SS_NEWFSTATAT_EMPTY,
	SS_STATX_NULL,
	SS_STATX_EMPTY,
	SS_NONE,
};

/* What the running kernel (or emulator, or sandbox) answers. */
#define SS_CAP_FSTAT		0x01
#define SS_CAP_NEWFSTATAT	0x02
#define SS_CAP_NEWFSTATAT_NULL	0x04
#define SS_CAP_STATX		0x08
#define SS_CAP_STATX_NULL	0x10

/* One word holds every decision (word.h: made once by the probe, one relaxed load on
 * the hot path, changed by compare-and-swap):
 * bits 0-3 the fd strategy, bit 4 set when path lookups go through statx,
 * bit 5 when neither newfstatat nor statx is left, bit 6 when the path alignment
 * guard is on (SYSSHIM_ALIGN_PATHS=1, sysshim_align_paths()), bits 8-12 the capabilities,
 * bits 16-19 the strategy SYSSHIM_STRATEGY asked for, bit 30 "probed".
 * Bits 7, 20 and 21: a call of that group (loader.h: the fstat family, the path
 * calls, statx) has another definition after the library's, which the export hands it
 * to: another interposer's, or the C library's where bit 22 says that a seccomp filter
 * the library cannot read is in force (then the library makes no syscall of its own
 * accord, and its own API hands its calls to the C library too). Bit 7 sits in the
 * mask of fstat's one compare, 20 beside the guard's bit in the path calls' one test:
 * a process with no other interposer pays nothing for them. */
#define SS_ST_FD(v)		((v) & 0xf)
#define SS_ST_PATH_STATX	0x10
#define SS_ST_PATH_NONE		0x20
#define SS_ST_ALIGN		0x40
#define SS_ST_PASS_FD		0x80
#define SS_ST_CAPS(v)		(((v) >> 8) & 0xff)
#define SS_ST_FORCED(v)		(((v) >> 16) & 0xf)
#define SS_ST_PASS_PATH		0x100000U
#define SS_ST_PASS_STATX	0x200000U
#define SS_ST_CAREFUL		0x400000U
#define SS_ST_PROBED		0x40000000U
/* The word before the probe: every bit that sends a call out of its fast path, so that
 * the path calls' one test covers "not probed yet" too. */
#define SS_ST_UNPROBED		(SS_ST_PASS_FD | SS_ST_PASS_PATH | SS_ST_PASS_STATX | SS_ST_CAREFUL)

/* What a decision made again (a refused syscall, a filter on its way) keeps. */
#define SS_ST_KEPT		(SS_ST_ALIGN | SS_ST_PASS_FD | SS_ST_PASS_PATH | SS_ST_PASS_STATX | \
				 SS_ST_CAREFUL)

/* What a core returns to the export that is to hand its call over (loader.h): inside
 * the range of -errno values, where no syscall answers (the kernel's largest errno is
 * far below), so that the export's one test for an error finds it. */
#define SS_HAND_OVER		(-4095L)

hidden extern uint64_t __ss_state_word;
hidden unsigned __ss_probe(void);
hidden unsigned __ss_refused(unsigned cap);
hidden unsigned __ss_cap_of(int strategy);
hidden const char *__ss_strategy_name(int s);
hidden extern unsigned char __ss_null_rule;
/* The function the export of call FN (loader.h) hands its call to, or 0 where the
 * library answers after all; __ss_handed_api: the same for the library's own API. */
hidden ss_fn __ss_handed(int fn);
hidden ss_fn __ss_handed_api(int fn);
/* A seccomp filter about to be installed through the C library: PROG, a struct
 * sock_fprog (FILTER 1), or strict mode (FILTER 0): no syscall it may kill is made from
 * now on. */
hidden void __ss_filter_coming(const void *prog, int filter);
/* Defined beside prctl() and syscall(), the two ways a filter comes (probe.c). */
hidden extern const char __ss_door_prctl, __ss_door_syscall;
hidden int __ss_null_strict(void);

static inline unsigned __ss_state(void)
{
	unsigned v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);
	if (unlikely(!(v & SS_ST_PROBED)))
		v = __ss_probe();
	return v;
}

#endif
