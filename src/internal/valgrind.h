#ifndef SYSSHIM_VALGRIND_H
#define SYSSHIM_VALGRIND_H

/* Whether the process runs under valgrind: its RUNNING_ON_VALGRIND client request,
 * whose instruction sequence the valgrind ABI fixes (a no-op on the real processor,
 * recognised by valgrind's translator: the rotations of one register that add up to a
 * whole turn, then a marker instruction; the request's block of six words is named by
 * one register, the answer comes back in another, preset to 0). Asked by the probe
 * alone (probe.c), so that it does not pass the NULL path valgrind's memcheck does not
 * know the kernel takes since Linux 6.11. 0 on an arch without the sequence here. */

#include <stdint.h>

#define SS_VG_RUNNING_ON_VALGRIND	0x1001

static inline unsigned long __ss_on_valgrind(void)
{
	volatile unsigned long req[6] = { SS_VG_RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0 };
#if defined(__x86_64__)
	unsigned long r;
	__asm__ __volatile__("rolq $3, %%rdi; rolq $13, %%rdi\n\t"
			     "rolq $61, %%rdi; rolq $51, %%rdi\n\t"
			     "xchgq %%rbx, %%rbx"
			     : "=d"(r)
			     : "a"(&req[0]), "0"(0UL)
			     : "cc", "memory");
	return r;
#elif defined(__aarch64__)
	register unsigned long r __asm__("x3") = 0;
	register volatile unsigned long *a __asm__("x4") = req;
	__asm__ __volatile__("ror x12, x12, #3; ror x12, x12, #13\n\t"
			     "ror x12, x12, #51; ror x12, x12, #61\n\t"
			     "orr x10, x10, x10"
			     : "+r"(r)
			     : "r"(a)
			     : "cc", "memory");
	return r;
#else
	(void)req;
	return 0;
#endif
}

#endif
