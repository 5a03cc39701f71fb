#include "probe.h"
#include "sandbox.h"
#include "sysshim.h"

/* The public numbers are the internal ones. */
_Static_assert(SYSSHIM_CALLS == SS_FN_COUNT, "one public number per call");
_Static_assert(SYSSHIM_SANDBOX_NONE == SS_SB_NONE && SYSSHIM_SANDBOX_READ == SS_SB_KNOWN &&
	       SYSSHIM_SANDBOX_UNREAD == SS_SB_UNKNOWN, "the sandbox's states");
_Static_assert(SYSSHIM_SYSCALL_FSTAT == SS_SC_FSTAT && SYSSHIM_SYSCALL_NEWFSTATAT == SS_SC_NEWFSTATAT &&
	       SYSSHIM_SYSCALL_STATX == SS_SC_STATX && SYSSHIM_SYSCALL_IO_URING == SS_SC_URING &&
	       SYSSHIM_SYSCALL_MEMBARRIER == SS_SC_MEMBARRIER, "the kinds of syscall");

EXPORT void sysshim_interposers(struct sysshim_interposers *c)
{
	unsigned sb;

	__ss_state();
	sb = __ss_sandbox();
	c->forwarded = 0;
	/* prctl and syscall always go on to the next definition: forwarded where that is
	 * not the C library's (another interposer's). */
	for (int fn = 0; fn < SS_FN_COUNT; fn++)
		if (fn < SS_FN_PRCTL ? __ss_forward(fn) != 0 : (__ss_loader_scan() & SS_FN_BIT(fn)) != 0)
			c->forwarded |= 1U << fn;
	c->sandbox = SS_SB_KIND(sb);
	c->stopped = SS_SB_STOPPED(sb);
	c->filters_read = SS_SB_SEEN(sb);
	c->tried_in_child = !!(sb & SS_SB_CHILD);
}

/* The 0.1.0 name, for programs linked against it (sysshim.h defines the name away). */
#undef sysshim_company
EXPORT void sysshim_company(struct sysshim_interposers *c)
	__attribute__((__alias__("sysshim_interposers")));

EXPORT const char *sysshim_call_name(int call)
{
	return call >= 0 && call < SS_FN_COUNT ? __ss_fn_name(call) : 0;
}

EXPORT const char *sysshim_call_next(int call)
{
	return call >= 0 && call < SS_FN_COUNT ? __ss_loader_next_file(call) : 0;
}
