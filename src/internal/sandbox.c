#include "sandbox.h"
#include "env.h"
#include "filter.h"

static unsigned word;

static unsigned sandbox_pack(unsigned kind, unsigned stopped, unsigned seen, unsigned flags)
{
	return kind | stopped << 2 | (seen > 0xff ? 0xff : seen) << 8 | flags;
}

/* Whether the environment's VAR is ON: unset, empty or OFF is 0; anything else gets one
 * line on stderr and is 0 (no table of pointers: none to relocate at load). */
static int env_switch(const char *var, const char *off, const char *on)
{
	const char *v = __ss_env_value(var);

	if (!v || !*v || __ss_streq(v, off))
		return 0;
	if (__ss_streq(v, on))
		return 1;
	const char *parts[] = { "sysshim: unknown ", var, "=", v, " ignored (known: ", off, " ", on,
				")\n" };
	for (unsigned i = 0; i < sizeof parts / sizeof *parts; i++)
		__ss_write_all(2, parts[i], __ss_strlen(parts[i]));
	return 0;
}

/* SYSSHIM_SECCOMP=child: where a filter cannot be read, try the syscalls in throwaway
 * children instead of leaving them all out (the children are a clone and a wait4:
 * only for a filter known to allow those). Anything else: careful, the default. */
static int child_asked(void)
{
	return env_switch("SYSSHIM_SECCOMP", "careful", "child");
}

/* SYSSHIM_TRACER=allow: a tracer that only watches (strace without fault injection, a
 * debugger) kills nothing, and the fast paths may run under it. Anything else: careful. */
static int tracer_allowed(void)
{
	return env_switch("SYSSHIM_TRACER", "careful", "allow");
}

/* The first look, before any filter has come through the C library: none, or filters
 * installed before (at exec, or by a raw syscall), which cannot be read. A tracer
 * (TracerPid not 0: strace's fault injection, a debugger) may answer or kill any syscall
 * as a filter it cannot read would: the same care, and no child to try it in (the
 * tracer would see the child too). */
static unsigned look(void)
{
	struct ss_proc_status s;
	unsigned mode;

	if (__ss_proc_status(&s))
		s.mode = SECCOMP_MODE_FILTER;
	mode = s.mode;
	if (s.tracer != 0 && s.tracer != ~0U && !tracer_allowed())
		return sandbox_pack(SS_SB_UNKNOWN, SS_SC_ALL, 0, SS_SB_TRACED |
			    (mode == SECCOMP_MODE_STRICT ? SS_SB_STRICT : 0));
	if (mode == 0)
		return sandbox_pack(SS_SB_NONE, 0, 0, 0);
	if (mode == SECCOMP_MODE_FILTER && child_asked())
		return sandbox_pack(SS_SB_KNOWN, __ss_seccomp_child_stops(SS_SC_ALL), 0, SS_SB_CHILD);
	return sandbox_pack(SS_SB_UNKNOWN, SS_SC_ALL, 0, mode == SECCOMP_MODE_STRICT ? SS_SB_STRICT : 0);
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
	unsigned old = __ss_sandbox(), w, bad = SS_SC_ALL, more = 0;
	int unread = p == SS_FPROG_UNREAD;

	*refused = 0;
	if (unread)
		more = SS_SB_NO_COPY;
	else if (!p)
		more = SS_SB_STRICT;
	else if (bad = __ss_bpf_stops(p, SS_SC_ALL, refused),
		 !__ss_bpf_lets(p, SYS_getpid) || !__ss_bpf_lets(p, SYS_process_vm_readv_))
		more = SS_SB_NO_COPY;
	if (p && !unread && (!__ss_bpf_lets(p, SYS_pipe2) || !__ss_bpf_lets(p, SYS_write) ||
			     !__ss_bpf_lets(p, SYS_read) || !__ss_bpf_lets(p, SYS_close)))
		more |= SS_SB_NO_PIPE;
	do {
		unsigned kind = unread ? SS_SB_UNKNOWN :
				SS_SB_KIND(old) == SS_SB_NONE ? SS_SB_KNOWN : SS_SB_KIND(old);
		w = sandbox_pack(kind, SS_SB_STOPPED(old) | bad, SS_SB_SEEN(old) + 1,
			 (old & (SS_SB_CHILD | SS_SB_STRICT | SS_SB_TRACED | SS_SB_NO_COPY | SS_SB_NO_PIPE)) | more);
	} while (!__atomic_compare_exchange_n(&word, &old, w, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return w;
}
