#include "probe.h"
#include "env.h"
#include "fd_order.h"
#include "sandbox.h"
#include "word.h"

uint64_t __ss_state_word = SS_ST_UNPROBED;

/* An fd number no process has open: the NULL-path fast paths of Linux 6.11 only
 * look at fds >= 0, and a closed one answers EBADF there and EFAULT before. */
#define PROBE_FD 0x7fffffff

static const char empty[1];

static const char *const names[] = {
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
static unsigned word_for(unsigned caps, int forced)
{
	static const unsigned char order[] = { ARCH_FD_ORDER };
	unsigned v = SS_ST_PROBED | caps << 8 | (unsigned)forced << 16;
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

/* Every capability not in AVOID (a filter may kill its syscall): asked. */
static unsigned probe_caps(unsigned avoid)
{
	unsigned caps = 0;
	for (unsigned cap = SS_CAP_FSTAT; cap <= SS_CAP_STATX_NULL; cap <<= 1)
		if (!(cap & avoid) && try_cap(cap) == -EBADF)
			caps |= cap;
	return caps;
}

/* SYSSHIM_ALIGN_PATHS=1: the path alignment guard starts on (docs/path.md). */
static unsigned align_from_env(void)
{
	const char *v = __ss_env_value("SYSSHIM_ALIGN_PATHS");
	return v && __ss_streq(v, "1") ? SS_ST_ALIGN : 0;
}

/* The groups of calls that go to another definition (probe.h): where another loaded
 * object defines them (LD: __ss_loader_scan()), and all of them where a filter the
 * library cannot read is in force (SB: __ss_sandbox()) and the C library is there to
 * take them; without it (a static program) the library makes the C library's syscalls
 * itself, having no capability left to use. */
static unsigned company(unsigned ld, unsigned sb)
{
	unsigned v = (ld & SS_FNS_FD ? SS_ST_PASS_FD : 0) | (ld & SS_FNS_PATH ? SS_ST_PASS_PATH : 0) |
		     (ld & SS_FNS_STATX ? SS_ST_PASS_STATX : 0);

	if (SS_SB_KIND(sb) != SS_SB_UNKNOWN)
		return v;
	return SS_ST_CAREFUL |
	       (ld & SS_LD_LIBC ? SS_ST_PASS_FD | SS_ST_PASS_PATH | SS_ST_PASS_STATX : 0);
}

/* The word the first time: the environment, the sandbox, the other loaded objects, and
 * the kernel's answers to what may be asked. */
static uint64_t make(void)
{
	int bad;
	int forced = forced_strategy(&bad);
	unsigned sb = __ss_sandbox(), ld = __ss_loader_scan();
	unsigned v = word_for(probe_caps(caps_of_kinds(SS_SB_STOPPED(sb))), forced) |
		     align_from_env() | company(ld, sb);

	if (bad)
		__ss_say("unknown SYSSHIM_STRATEGY=", __ss_env_value("SYSSHIM_STRATEGY"),
		    " ignored (known: fstat newfstatat-null newfstatat-empty statx-null statx-empty auto)");
	else if (forced != SS_AUTO && (int)SS_ST_FD(v) != forced)
		__ss_say("SYSSHIM_STRATEGY=", names[forced],
		    " is not available on this kernel; using the probed strategy");
	return v;
}

unsigned __ss_probe(void)
{
	return (unsigned)__ss_word_make(&__ss_state_word, SS_ST_PROBED, make);
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

static unsigned drop(unsigned caps)
{
	return (unsigned)__ss_word_change(&__ss_state_word, SS_ST_PROBED, make, without, caps);
}

/* A syscall the probe found answered ENOSYS or EPERM: ask again whether the syscall
 * itself is now refused (a seccomp filter installed after the probe), and if so
 * record it and move on to the next strategy. An error that was the call's own
 * answer leaves the word as it was. */
unsigned __ss_refused(unsigned cap)
{
	unsigned old = __ss_state();

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
	/* A pointer the kernel refuses (EFAULT) installs nothing. */
	if (filter && ss_bad_ptr(prog))
		return;
	unsigned refused;
	__ss_state();
	unsigned stopped = SS_SB_STOPPED(__ss_sandbox_filter(filter ? prog : 0, &refused));
	drop(caps_of_kinds(stopped | refused));
}

ss_fn __ss_handed(int fn)
{
	if (__ss_loader_scan() & SS_FN_BIT(fn))
		return __ss_loader_next(fn);
	if (__ss_state() & SS_ST_CAREFUL) {
		ss_fn f = __ss_loader_next(fn);
		return f ? f : __ss_loader_libc(fn);	/* opened by dlopen: the C library is before */
	}
	return 0;
}

ss_fn __ss_handed_api(int fn)
{
	return __ss_state() & SS_ST_CAREFUL ? __ss_loader_libc(fn) : 0;
}
