#ifndef SYSSHIM_SANDBOX_H
#define SYSSHIM_SANDBOX_H

/* What the library knows of the seccomp filters on this process (sandbox.c), so that
 * it never makes a syscall of its own accord that a filter could kill: the filter
 * state when the library first looks (/proc/self/status), and every filter the
 * program installs through the C library afterwards (prctl(), syscall(): src/abi/),
 * read before it reaches the kernel. A filter installed by a raw syscall after the
 * first look is not seen. */

#include "seccomp.h"

/* One word: what is known, the kinds of syscall (SS_SC_*) a filter stops or may stop
 * (kills, traps, refuses: the library does not make them), the filters read on their
 * way in. 0: not looked yet. */
#define SS_SB_NONE		1	/* no filter */
#define SS_SB_KNOWN		2	/* filters, each read (or tried in a child) */
#define SS_SB_UNKNOWN		3	/* a filter the library could not read */
#define SS_SB_KIND(w)		((w) & 3)
#define SS_SB_STOPPED(w)		(((w) >> 2) & SS_SC_ALL)
#define SS_SB_SEEN(w)		(((w) >> 8) & 0xff)
#define SS_SB_CHILD		0x10000U	/* the kinds were tried in throwaway children */
#define SS_SB_STRICT		0x20000U	/* strict mode: read, write, exit, sigreturn */
#define SS_SB_TRACED		0x40000U	/* a tracer is attached (TracerPid) */
#define SS_SB_NO_COPY		0x80000U	/* a filter read may stop getpid or process_vm_readv,
						 * by which a later filter is copied (filter.c) */
#define SS_SB_NO_PIPE		0x100000U	/* a filter read may stop pipe2, write, read or close,
						 * by which a later one is copied where the kernel has
						 * no process_vm_readv (filter.c) */

/* The program for __ss_sandbox_filter() of a filter that could not be read. */
#define SS_FPROG_UNREAD		((const struct ss_sock_fprog *)1)

/* The word, looked up the first time (an openat, a read and a close, and under
 * SYSSHIM_SECCOMP=child a throwaway child per kind where a filter is not known). */
hidden unsigned __ss_sandbox(void);
/* The word as it stands, 0 if not looked yet: for a hot path. */
hidden unsigned __ss_sandbox_peek(void);
/* A filter program P (0: strict mode; SS_FPROG_UNREAD: one that could not be read, which
 * may stop every kind) about to be installed through the C library: read, and the kinds
 * it stops added. P is the library's copy (filter.c), never the caller's memory. The new
 * word; *REFUSED: the kinds P answers with an errno (__ss_bpf_stops). */
hidden unsigned __ss_sandbox_filter(const struct ss_sock_fprog *p, unsigned *refused);

#endif
