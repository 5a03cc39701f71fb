#include "sandbox.h"
#include "env.h"

static unsigned word;

static unsigned pack(unsigned kind, unsigned stopped, unsigned seen, unsigned flags)
{
	return kind | stopped << 2 | (seen > 0xff ? 0xff : seen) << 8 | flags;
}

/* SYSSHIM_SECCOMP=child: where a filter cannot be read, try the syscalls in throwaway
 * children instead of leaving them all out (the children are a clone and a wait4:
 * only for a filter known to allow those). Anything else: careful, the default. */
static int child_asked(void)
{
	static const char *const names[] = { "careful", "child" };
	int m = __ss_env_pick("SYSSHIM_SECCOMP", names, 2);

	if (m == -2)
		__ss_say("unknown SYSSHIM_SECCOMP=", __ss_env_value("SYSSHIM_SECCOMP"),
			 " ignored (known: careful child)");
	return m == 1;
}

/* The first look, before any filter has come through the C library: none, or filters
 * installed before (at exec, or by a raw syscall), which cannot be read. */
static unsigned look(void)
{
	unsigned mode, filters;

	if (__ss_seccomp_status(&mode, &filters))
		mode = SECCOMP_MODE_FILTER;
	if (mode == 0)
		return pack(SS_SB_NONE, 0, 0, 0);
	if (mode == SECCOMP_MODE_FILTER && child_asked())
		return pack(SS_SB_KNOWN, __ss_seccomp_child_stops(SS_SC_ALL), 0, SS_SB_CHILD);
	return pack(SS_SB_UNKNOWN, SS_SC_ALL, 0, mode == SECCOMP_MODE_STRICT ? SS_SB_STRICT : 0);
}

unsigned __ss_sandbox(void)
{
	unsigned w = __atomic_load_n(&word, __ATOMIC_RELAXED), old = 0;

	if (likely(w))
		return w;
	w = look();
	if (!__atomic_compare_exchange_n(&word, &old, w, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return old;
	return w;
}

unsigned __ss_sandbox_peek(void)
{
	return __atomic_load_n(&word, __ATOMIC_RELAXED);
}

unsigned __ss_sandbox_filter(const struct ss_sock_fprog *p, unsigned *refused)
{
	unsigned old = __ss_sandbox(), w, bad;

	*refused = 0;
	bad = p ? __ss_bpf_stops(p, SS_SC_ALL, refused) : SS_SC_ALL;
	do {
		unsigned kind = SS_SB_KIND(old) == SS_SB_NONE ? SS_SB_KNOWN : SS_SB_KIND(old);
		w = pack(kind, SS_SB_STOPPED(old) | bad, SS_SB_SEEN(old) + 1,
			 (old & (SS_SB_CHILD | SS_SB_STRICT)) | (p ? 0 : SS_SB_STRICT));
	} while (!__atomic_compare_exchange_n(&word, &old, w, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return w;
}
