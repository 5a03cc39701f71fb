#ifndef SYSSHIM_PROBE_H
#define SYSSHIM_PROBE_H

#include "kabi.h"
#include "loader.h"
#include "seccomp.h"
#include "glibc_arch.h"

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

/* One word holds every decision (decision.h: one relaxed load on the hot path, changed by
 * compare-and-swap). It is made in two steps, each when a call first needs it (pay as you
 * go, docs/strategy.md):
 *   - started (SS_ST_STARTED): the environment read (SYSSHIM_ALIGN_PATHS), at the first
 *     call of any kind; a call's own bit SS_ST_OUT(fn) is cleared once the loader's list
 *     shows its next definition is the C library's (__ss_loader_find: that name alone);
 *   - probed (SS_ST_PROBED): the look at the sandbox and the kernel's answers, only
 *     before the first syscall the C library would not have made: the fd calls once
 *     SS_PROBE_AFTER of them have gone to the C library, a refused syscall, the API.
 * Low half, what the hot paths test: bits 0-3 the fd strategy (SS_AUTO until probed),
 * bit 4 set when path lookups go through statx, bit 5 when neither newfstatat nor statx
 * is left, bit 6 when the path alignment guard is on, bit 7 when a filter or a tracer
 * the library cannot read is there (every call goes to the C library: SS_ST_LIBC_ONLY),
 * bit 8 when the probe found statx refused (statx() is emulated), bit 12 never (it is AT_EMPTY_PATH's, tested beside the word by fstatat), bits 13-31 one
 * per call (loader.h's SS_FN_*): set while the call leaves its straight way (not looked
 * up yet, forwarded to another interposer's definition, or SS_ST_LIBC_ONLY). High half: bits 32-39
 * the capabilities, 40-43 the strategy SYSSHIM_STRATEGY asked for, 48 started,
 * 49 probed, 50 when SYSSHIM_STRATEGY is set (even to "auto"): the probe at the first
 * fd call rather than after SS_PROBE_AFTER of them. */
#define SS_ST_FD(v)		((unsigned)(v) & 0xf)
#define SS_ST_PATH_STATX	0x10ULL
#define SS_ST_PATH_NONE		0x20ULL
#define SS_ST_ALIGN		0x40ULL
#define SS_ST_LIBC_ONLY		0x80ULL
#define SS_ST_STATX_NONE	0x100ULL
#define SS_ST_OUT(fn)		(0x2000ULL << (fn))
#define SS_ST_OUT_ALL		(((1ULL << SS_FN_COUNT) - 1) << 13)
#define SS_ST_CAPS(v)		((unsigned)((v) >> 32) & 0xff)
#define SS_ST_FORCED(v)		((int)((v) >> 40) & 0xf)
#define SS_ST_STARTED		(1ULL << 48)
#define SS_ST_PROBED		(1ULL << 49)
#define SS_ST_EAGER		(1ULL << 50)	/* SYSSHIM_STRATEGY set: probe at the first fd call */
/* The word before anything: every call out of its straight way, and the path calls
 * through the syscall the C library makes (ARCH_GLIBC_PATH_STATX). */
#define SS_ST_UNPROBED		(SS_ST_OUT_ALL | ARCH_GLIBC_PATH_STATX)

/* What a decision made again (a refused syscall, a filter on its way) keeps. */
#define SS_ST_KEPT		(SS_ST_ALIGN | SS_ST_LIBC_ONLY | SS_ST_OUT_ALL | SS_ST_STARTED | SS_ST_EAGER)

/* How many fd stats go to the C library before the probe (docs/strategy.md, "When the
 * probe runs"): the probe and the look at the sandbox cost about 50 fstat syscalls on
 * Debian 12's 6.1, and each fd stat after it saves about 1.7 of them; a process that
 * makes fewer pays nothing, one that makes more pays at most twice the best choice. */
#define SS_PROBE_AFTER		32

/* What a core returns to the export that is to forward its call (loader.h): inside
 * the range of -errno values, where no syscall answers (the kernel's largest errno is
 * far below), so that the export's one test for an error finds it. */
#define SS_HAND_OVER		(-4095L)

hidden extern uint64_t __ss_state_word;
/* The word probed (the sandbox looked at, the kernel asked), once. */
hidden uint64_t __ss_probe(void);
/* The word started (the environment read), once. */
hidden uint64_t __ss_start(void);
/* The word with call FN looked up: its SS_ST_OUT bit cleared where the library takes
 * it itself (the next definition is the C library's, and no sandbox it cannot read). */
hidden uint64_t __ss_settle(int fn);
hidden uint64_t __ss_refused(unsigned cap);
hidden unsigned __ss_cap_of(int strategy);
hidden const char *__ss_strategy_name(int s);
hidden extern unsigned char __ss_null_rule;
/* The function the export of call FN (loader.h) forwards its call to, or 0 where the
 * library answers after all; __ss_forward_api: the same for the library's own API. */
hidden ss_fn __ss_forward(int fn);
hidden ss_fn __ss_forward_api(int fn);
/* An fd stat that may go to the C library's own definition of FN instead of the probe
 * (SS_PROBE_AFTER): that definition, or 0 once the probe is due. */
hidden ss_fn __ss_before_probe(int fn);
/* A seccomp filter about to be installed through the C library: PROG, a struct
 * sock_fprog (FILTER 1), or strict mode (FILTER 0): no syscall it may kill is made from
 * now on. */
hidden void __ss_filter_coming(const void *prog, int filter);
/* Defined beside prctl() and syscall(), the two ways a filter comes (probe.c). */
hidden extern const char __ss_door_prctl, __ss_door_syscall;
hidden int __ss_null_strict(void);

static inline uint64_t __ss_state(void)
{
	uint64_t v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);
	if (unlikely(!(v & SS_ST_PROBED)))
		v = __ss_probe();
	return v;
}

#endif
