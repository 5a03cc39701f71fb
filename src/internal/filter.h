#ifndef SYSSHIM_FILTER_H
#define SYSSHIM_FILTER_H

/* A seccomp filter on its way through the library's prctl() or syscall() (filter.c):
 * the call's arguments are looked at as the kernel looks at them, the program is
 * copied out of the caller's memory by the kernel (never loaded through a pointer the
 * kernel has not checked) and read before the kernel has it. The call itself goes on
 * unchanged: its answer, errno included, is the kernel's. */

#include "seccomp.h"

/* seccomp(2)'s other operations and its filter flags (include/uapi/linux/seccomp.h). */
#define SECCOMP_GET_ACTION_AVAIL		2
#define SECCOMP_GET_NOTIF_SIZES			3
#define SECCOMP_FILTER_FLAG_TSYNC		0x01
#define SECCOMP_FILTER_FLAG_LOG			0x02
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW		0x04
#define SECCOMP_FILTER_FLAG_NEW_LISTENER	0x08
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH		0x10
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV	0x20
#define SS_FILTER_FLAGS				0x3f	/* all Linux 5.19 to 6.18 know */
#define BPF_MAXINSNS_				4096

#if defined(__x86_64__)
#define SYS_process_vm_readv_	310
#else
#define SYS_process_vm_readv_	270	/* the generic table: aarch64, loongarch64 */
#endif

/* What __ss_filter_call() still has to do after the kernel's answer. */
#define SS_FILTER_DONE		0	/* nothing: no filter can come, or it was read */
#define SS_FILTER_UNREAD	1	/* the kernel should refuse it; if it takes it after all,
					 * it is a filter the library has not read */

/* The call a wrapper makes, with UARGS (the caller's, or the library's program) in the
 * place of the caller's pointer, ARGS the wrapper's own: the kernel's raw answer (a value
 * or -errno). */
typedef long ss_seccomp_call_fn(const void *uargs, const long *args);

/* seccomp(OP, FLAGS, UARGS) made by CALL (prctl(PR_SET_SECCOMP) comes here as the
 * kernel turns it into seccomp(2)), with what it may install recorded before (probe.h:
 * __ss_filter_coming): CALL's answer. */
hidden long __ss_filter_call(unsigned op, unsigned flags, const void *uargs,
			     ss_seccomp_call_fn *call, const long *args);

#endif
