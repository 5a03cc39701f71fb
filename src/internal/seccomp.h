#ifndef SYSSHIM_SECCOMP_H
#define SYSSHIM_SECCOMP_H

/* What a seccomp filter does to the syscalls sysshim makes of its own accord
 * (seccomp.c): the kernel's seccomp ABI (include/uapi/linux/seccomp.h, filter.h), a
 * reader of a classic-BPF filter program, the filter state /proc/self/status shows,
 * and a syscall tried in a throwaway child. Shared by the library (sandbox.c) and
 * sysshim-run; no libc, no allocation, no pointer tables (sysshim-run has no
 * relocations). */

#include "kabi.h"
#include "elf.h"
#include "elf_arch.h"

/* prctl(2) and seccomp(2). */
#define PR_SET_NO_NEW_PRIVS		38
#define PR_GET_SECCOMP			21
#define PR_SET_SECCOMP			22
#define SECCOMP_MODE_STRICT		1
#define SECCOMP_MODE_FILTER		2
#define SECCOMP_SET_MODE_STRICT		0
#define SECCOMP_SET_MODE_FILTER		1

/* A filter's actions (the return value's top 16 bits), most to least restrictive. */
#define SECCOMP_RET_KILL_PROCESS	0x80000000U
#define SECCOMP_RET_KILL_THREAD		0x00000000U
#define SECCOMP_RET_TRAP		0x00030000U
#define SECCOMP_RET_ERRNO		0x00050000U
#define SECCOMP_RET_USER_NOTIF		0x7fc00000U
#define SECCOMP_RET_TRACE		0x7ff00000U
#define SECCOMP_RET_LOG			0x7ffc0000U
#define SECCOMP_RET_ALLOW		0x7fff0000U
#define SECCOMP_RET_ACTION_FULL		0xffff0000U

/* The audit arch a filter compares seccomp_data.arch with: the ELF machine, 64-bit,
 * little-endian (include/uapi/linux/audit.h), for every arch here. */
#define SS_AUDIT_ARCH	(ARCH_ELF_MACHINE | 0x80000000U | 0x40000000U)

struct ss_sock_filter {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct ss_sock_fprog {
	unsigned short len;
	const struct ss_sock_filter *filter;
};

/* The syscalls sysshim may make beyond what the program asked for, by kind. */
#define SS_SC_FSTAT		0x01	/* fstat */
#define SS_SC_NEWFSTATAT	0x02	/* newfstatat */
#define SS_SC_STATX		0x04	/* statx */
#define SS_SC_URING		0x08	/* io_uring_setup, io_uring_enter, io_uring_register */
#define SS_SC_MEMBARRIER	0x10	/* membarrier */
#define SS_SC_ALL		0x1f

/* The kinds in SC that filter program P may stop for good: kills, traps, hands to a
 * tracer or a supervisor, or answers depending on the arguments (every kind, where the
 * kernel would refuse P): the library does not make those. *REFUSED: the kinds it
 * answers with an errno (a syscall of any of them returns; the stat calls do without
 * it, as they would once it answered so). */
hidden unsigned __ss_bpf_stops(const struct ss_sock_fprog *p, unsigned sc, unsigned *refused);

/* Whether program P lets syscall NR through, whatever its arguments. */
hidden int __ss_bpf_lets(const struct ss_sock_fprog *p, unsigned nr);

/* What /proc/self/status says of the filters and the tracer: the Seccomp field (0 none,
 * 1 strict, 2 filter), Seccomp_filters (Linux 5.9+) and TracerPid, each ~0 where the
 * kernel shows none. */
struct ss_proc_status {
	unsigned mode, filters, tracer;
};

/* The status read into *S: 0, or -1 when it cannot be read (no /proc). An openat, a read
 * and a close: the calls the dynamic loader made to load this process's libraries. */
hidden int __ss_proc_status(struct ss_proc_status *s);

/* The kinds of SC a throwaway child (fork semantics, no signal to the parent at its
 * exit: invisible to the program's wait(2)) could not make and live: each kind tried in
 * a child of its own, which exits by itself only if the call returned. SC entirely
 * where no child can be made. The child itself is a clone(2) and a wait4(2): only
 * where the filter is known to allow those (SYSSHIM_SECCOMP=child). */
hidden unsigned __ss_seccomp_child_stops(unsigned sc);

#endif
