#include "probe.h"
#include "env.h"
#include "fd_order.h"
#include "sandbox.h"
#include "valgrind.h"

uint64_t __ss_state_word = SS_ST_UNPROBED;
/* The fd stats forwarded to the C library so far, before the probe (SS_PROBE_AFTER). */
static unsigned fd_calls;

/* An fd number no process has open: the NULL-path fast paths of Linux 6.11 only
 * look at fds >= 0, and a closed one answers EBADF there and EFAULT before. */
#define PROBE_FD 0x7fffffff

static const char empty[1];

/* Fixed-width rows, not pointers: no relocation at load (loader.c says why). */
static const char names[][18] = {
	"auto", "fstat", "newfstatat-null", "newfstatat-empty", "statx-null", "statx-empty",
	"none",
};

const char *__ss_strategy_name(int s)
{
	return s >= 0 && s <= SS_NONE ? names[s] : "?";
}

static long try_cap(unsigned cap)
{
	struct stat st;
	struct statx stx;

	switch (cap) {
	case SS_CAP_FSTAT:
		return __syscall(SYS_fstat, PROBE_FD, &st);
	case SS_CAP_NEWFSTATAT:
		return __syscall(SYS_newfstatat, PROBE_FD, empty, &st, AT_EMPTY_PATH);
	case SS_CAP_NEWFSTATAT_NULL:
		return __syscall(SYS_newfstatat, PROBE_FD, 0, &st, AT_EMPTY_PATH);
	case SS_CAP_STATX:
		return __syscall(SYS_statx, PROBE_FD, empty, AT_EMPTY_PATH, STATX_BASIC_STATS, &stx);
	case SS_CAP_STATX_NULL:
		return __syscall(SYS_statx, PROBE_FD, 0, AT_EMPTY_PATH, STATX_BASIC_STATS, &stx);
	}
	return -ENOSYS;
}

unsigned __ss_cap_of(int s)
{
	static const unsigned char caps[] = {
		[SS_FSTAT] = SS_CAP_FSTAT,
		[SS_NEWFSTATAT_NULL] = SS_CAP_NEWFSTATAT_NULL,
		[SS_NEWFSTATAT_EMPTY] = SS_CAP_NEWFSTATAT,
		[SS_STATX_NULL] = SS_CAP_STATX_NULL,
		[SS_STATX_EMPTY] = SS_CAP_STATX,
	};
	return caps[s];
}

/* The word for capabilities CAPS and the strategy SYSSHIM_STRATEGY asked for. */
static uint64_t word_for(unsigned caps, int forced)
{
	static const unsigned char order[] = { ARCH_FD_ORDER };
	uint64_t v = SS_ST_PROBED | (uint64_t)caps << 32 | (uint64_t)forced << 40;
	int s = SS_NONE;

	if (forced != SS_AUTO && (caps & __ss_cap_of(forced)) == __ss_cap_of(forced)) {
		s = forced;
	} else {
		for (unsigned i = 0; i < sizeof order; i++) {
			if (caps & __ss_cap_of(order[i])) {
				s = order[i];
				break;
			}
		}
	}
	v |= s;
	if (!(caps & SS_CAP_NEWFSTATAT) ||
	    (s >= SS_STATX_NULL && s <= SS_STATX_EMPTY && forced == s))
		v |= SS_ST_PATH_STATX;
	if (!(caps & (SS_CAP_NEWFSTATAT | SS_CAP_STATX)))
		v |= SS_ST_PATH_NONE;
	if (!(caps & SS_CAP_STATX))
		v |= SS_ST_STATX_NONE;
	return v;
}

static int forced_strategy(int *bad)
{
	const char *v = __ss_env_value("SYSSHIM_STRATEGY");
	*bad = 0;
	if (!v || !*v)
		return SS_AUTO;
	for (int s = SS_AUTO; s < SS_NONE; s++)
		if (__ss_streq(v, names[s]))
			return s;
	*bad = 1;
	return SS_AUTO;
}

/* The capabilities that need a syscall of kind SC (seccomp.h) to be asked or used. */
static unsigned caps_of_kinds(unsigned sc)
{
	return (sc & SS_SC_FSTAT ? SS_CAP_FSTAT : 0) |
	       (sc & SS_SC_NEWFSTATAT ? SS_CAP_NEWFSTATAT | SS_CAP_NEWFSTATAT_NULL : 0) |
	       (sc & SS_SC_STATX ? SS_CAP_STATX | SS_CAP_STATX_NULL : 0);
}

/* Every capability not in AVOID (a filter may kill its syscall): asked. Under valgrind
 * the NULL-path forms are not asked (valgrind.h): memcheck would report the NULL it does
 * not know the kernel takes, and fstat, asked first, is there on every arch that valgrind
 * runs here. */
static unsigned probe_caps(unsigned avoid)
{
	unsigned caps = 0;

	if (__ss_on_valgrind())
		avoid |= SS_CAP_NEWFSTATAT_NULL | SS_CAP_STATX_NULL;
	for (unsigned cap = SS_CAP_FSTAT; cap <= SS_CAP_STATX_NULL; cap <<= 1)
		if (!(cap & avoid) && try_cap(cap) == -EBADF)
			caps |= cap;
	return caps;
}

extern char **environ;

/* The environment's part of the word, in one pass over it: SYSSHIM_ALIGN_PATHS=1 (the
 * path alignment guard starts on, docs/path.md), SYSSHIM_STRATEGY set (SS_ST_EAGER). */
static uint64_t from_env(void)
{
	uint64_t v = 0;
	const char *rest;

	for (char **e = environ; e && *e; e++) {
		if ((*e)[0] != 'S' || !(rest = __ss_after(*e, "SYSSHIM_")))
			continue;
		const char *a = __ss_after(rest, "ALIGN_PATHS=");
		if (a && __ss_streq(a, "1"))
			v |= SS_ST_ALIGN;
		if (__ss_after(rest, "STRATEGY="))
			v |= SS_ST_EAGER;
	}
	return v;
}

/* The word at its first step: the environment. */
uint64_t __ss_start(void)
{
	uint64_t old = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED), v;

	if (likely(old & SS_ST_STARTED))
		return old;
	v = from_env();
	while (!(old & SS_ST_STARTED))
		if (__atomic_compare_exchange_n(&__ss_state_word, &old, old | v | SS_ST_STARTED, 0,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return old | v | SS_ST_STARTED;
	return old;
}

/* The stat calls' bits (prctl and syscall keep their own test, loader.h). */
#define STAT_OUT	(SS_ST_OUT_ALL & ~SS_ST_OUT(SS_FN_PRCTL) & ~SS_ST_OUT(SS_FN_SYSCALL))

/* The word's probed part: the environment's strategy, the sandbox, the kernel's answers
 * to what may be asked. Where a filter or a tracer the library cannot read is there
 * (SB: __ss_sandbox()), SS_ST_LIBC_ONLY: every stat call goes to the C library where it is there
 * to take them; without it (a static program) the library makes the C library's
 * syscalls itself, having no capability left to use. */
static uint64_t probed(void)
{
	int bad;
	int forced = forced_strategy(&bad);
	unsigned sb = __ss_sandbox();
	uint64_t v = word_for(probe_caps(caps_of_kinds(SS_SB_STOPPED(sb))), forced);

	if (SS_SB_KIND(sb) == SS_SB_UNKNOWN)
		v |= SS_ST_LIBC_ONLY | (__ss_loader_libc(SS_FN_FSTAT) ? STAT_OUT : 0);
	if (bad)
		__ss_say("unknown SYSSHIM_STRATEGY=", __ss_env_value("SYSSHIM_STRATEGY"),
		    " ignored (known: fstat newfstatat-null newfstatat-empty statx-null statx-empty auto)");
	else if (forced != SS_AUTO && (int)SS_ST_FD(v) != forced)
		__ss_say("SYSSHIM_STRATEGY=", names[forced],
		    " is not available on this kernel; using the probed strategy");
	return v;
}

/* The second step, once: racing first callers each probe; the first stored is everyone's.
 * What the first step and the calls' look-ups set is kept. */
uint64_t __ss_probe(void)
{
	uint64_t old = __ss_start(), p, v;

	if (old & SS_ST_PROBED)
		return old;
	p = probed();
	do {
		if (old & SS_ST_PROBED)
			return old;
		v = p | (old & SS_ST_KEPT);
	} while (!__atomic_compare_exchange_n(&__ss_state_word, &old, v, 0, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return v;
}

/* The legacy path names (glibc's __xstat family). */
#define LEGACY_FNS	(SS_FN_BIT(SS_FN_FXSTATAT) | SS_FN_BIT(SS_FN_FXSTATAT64) | SS_FN_BIT(SS_FN_XSTAT) | \
			 SS_FN_BIT(SS_FN_XSTAT64) | SS_FN_BIT(SS_FN_LXSTAT) | SS_FN_BIT(SS_FN_LXSTAT64))

uint64_t __ss_settle(int fn)
{
	uint64_t old = __ss_start(), v;
	unsigned g;

	if (__ss_loader_of(fn) & SS_LD_OTHER(fn))
		return old;
	/* A path call's own syscall is the C library's: a program that calls stat, lstat or
	 * fstatat by these names was linked against glibc 2.33 or later (before, they were
	 * __xstat and the rest) or musl, which make newfstatat. The legacy names' glibc may be
	 * older (its __xstat made the stat syscall): those ask its version. */
	if ((LEGACY_FNS >> fn & 1) && (g = __ss_loader_glibc()) && g < 233)
		old = __ss_probe();
	do {
		if ((old & SS_ST_LIBC_ONLY) && __ss_loader_libc(fn))
			return old;
		v = old & ~SS_ST_OUT(fn);
	} while (v != old && !__atomic_compare_exchange_n(&__ss_state_word, &old, v, 0,
							  __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return v;
}

ss_fn __ss_before_probe(int fn)
{
	unsigned n = __atomic_load_n(&fd_calls, __ATOMIC_RELAXED);

	/* A strategy asked for by name is wanted from the first call. */
	if (n >= SS_PROBE_AFTER || (__ss_start() & SS_ST_EAGER))
		return 0;
	/* Racing callers may count one call once: the probe comes a call or two later. */
	__atomic_store_n(&fd_calls, n + 1, __ATOMIC_RELAXED);
	return __ss_loader_libc(fn);
}

/* Whether statx and newfstatat take a NULL path only with AT_EMPTY_PATH alone: Linux
 * 6.11 - 6.12 (newfstatat: flags exactly AT_EMPTY_PATH; statx: AT_EMPTY_PATH, give or take
 * AT_NO_AUTOMOUNT and the sync bits) are strict, later kernels take NULL whenever the flags
 * hold AT_EMPTY_PATH. Asked once, by the rare call that needs it (fstatat through statx
 * with a NULL path), with AT_SYMLINK_NOFOLLOW added: EBADF is lenient, anything else
 * (EFAULT: strict or no NULL path at all; a refused statx) counts as strict. */
unsigned char __ss_null_rule;	/* 0 not asked, 1 lenient, 2 strict */

int __ss_null_strict(void)
{
	unsigned char r = __atomic_load_n(&__ss_null_rule, __ATOMIC_RELAXED);
	if (unlikely(!r)) {
		struct statx stx;
		r = __syscall(SYS_statx, PROBE_FD, 0, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
			      STATX_BASIC_STATS, &stx) == -EBADF ? 1 : 2;
		__atomic_store_n(&__ss_null_rule, r, __ATOMIC_RELAXED);
	}
	return r == 2;
}

/* The word OLD without the capabilities CAPS, decided again. */
static uint64_t without(uint64_t old, uint64_t caps)
{
	return word_for(SS_ST_CAPS(old) & ~(unsigned)caps, SS_ST_FORCED(old)) | (old & SS_ST_KEPT);
}

static uint64_t drop(unsigned caps)
{
	uint64_t old = __ss_probe(), v;

	do
		v = without(old, caps);
	while (v != old && !__atomic_compare_exchange_n(&__ss_state_word, &old, v, 0,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return v;
}

/* A syscall the probe found answered ENOSYS or EPERM: ask again whether the syscall
 * itself is now refused (a seccomp filter installed after the probe), and if so
 * record it and move on to the next strategy. An error that was the call's own
 * answer leaves the word as it was. */
uint64_t __ss_refused(unsigned cap)
{
	uint64_t old = __ss_state();

	if (!(SS_ST_CAPS(old) & cap) || try_cap(cap) == -EBADF)
		return old;
	if (cap == SS_CAP_STATX)
		cap |= SS_CAP_STATX_NULL;
	if (cap == SS_CAP_NEWFSTATAT)
		cap |= SS_CAP_NEWFSTATAT_NULL;
	return drop(cap);
}

/* A static link takes prctl.o and syscall.o out of libsysshim.a only for a name no
 * object before the archive defines, and a sanitizer's runtime comes first (libasan
 * defines prctl): the filter would go past the library. These references take both in
 * with the probe, so that the program's prctl() is the library's, which hands the call
 * on to the sanitizer's. */
__attribute__((used)) static const char *const doors[] = { &__ss_door_prctl, &__ss_door_syscall };

/* The probe runs first (it asks the kernel while no unread filter is in force), then
 * the program is read and what it may kill is dropped, all before the kernel has it. */
void __ss_filter_coming(const void *prog, int filter)
{
	/* PROG is the library's own copy, or SS_FPROG_UNREAD (filter.c): nothing here
	 * reads the caller's memory. */
	unsigned refused;
	__ss_state();
	unsigned stopped = SS_SB_STOPPED(__ss_sandbox_filter(filter ? prog : 0, &refused));
	drop(caps_of_kinds(stopped | refused));
}

ss_fn __ss_forward(int fn)
{
	if (__ss_loader_of(fn) & SS_LD_OTHER(fn))
		return __ss_loader_next(fn);
	if (__atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED) & SS_ST_LIBC_ONLY) {
		ss_fn f = __ss_loader_next(fn);
		return f ? f : __ss_loader_libc(fn);	/* opened by dlopen: the C library is before */
	}
	return 0;
}

ss_fn __ss_forward_api(int fn)
{
	return __ss_state() & SS_ST_LIBC_ONLY ? __ss_loader_libc(fn) : 0;
}
