#ifndef SYSSHIM_OWN_SITE_H
#define SYSSHIM_OWN_SITE_H

/* A system call the library makes of its own accord where the C library would make
 * another (the fstat syscall for glibc 2.33 - 2.38's fstat(), which makes newfstatat),
 * made at a site whose address is recorded: the address after the instruction (the
 * seccomp_data.instruction_pointer the kernel shows a filter, on x86_64, aarch64 and
 * loongarch64) and the number, in the section ss_own_sites. A filter that comes
 * through the library with TSYNC and stops that call gets a few instructions in front
 * (filter.c) that refuse it with ENOSYS at these sites alone: a thread that chose the
 * call before the filter came is refused, and decides again, instead of being killed.
 * The same stub as __ss_syscall2 (arch/generic/syscall_stubs.h) otherwise. */

#include "syscall.h"

struct ss_own_site {
	unsigned long ip, nr;
};

#ifdef SYSSHIM_MOCK_SYSCALL_STUBS_H
/* tests/fuzz/logic_fuzz's model kernel (tests/fuzz/mock/): no site, no instruction. */
#define __ss_own_syscall2(N, a1, a2) __ss_syscall2((N), (long)(a1), (long)(a2))
#else
#define __ss_own_syscall2(N, a1, a2) __extension__({					\
	register long ret_ __asm__(SS_SYSCALL_RET), nr_ __asm__(SS_SYSCALL_NR) = (N);	\
	register long r1_ __asm__(SS_SYSCALL_ARG1) = (long)(a1);			\
	register long r2_ __asm__(SS_SYSCALL_ARG2) = (long)(a2);			\
	__asm__ __volatile__(SS_SYSCALL_INSN "\n1:\n"					\
			     "\t.pushsection ss_own_sites,\"aw\"\n"			\
			     "\t.balign 8\n"						\
			     "\t.quad 1b, %c[k]\n"					\
			     "\t.popsection"						\
			     : "=r"(ret_)						\
			     : "r"(nr_), "r"(r1_), "r"(r2_), [k] "i"(N)			\
			     : SS_SYSCALL_CLOBBERS);					\
	ret_;										\
})
#endif

#endif
