#ifndef SYSSHIM_SYSCALL_H
#define SYSSHIM_SYSCALL_H

/* The library's system calls. Raw calls return -errno; __syscall_ret() is the one place
 * errno is set. A raw call is __syscall(SYS_x, a, b, ...); an exported function returns
 * __syscall_ret() of its answer, which turns -errno into errno and -1. */

#include "syscall_arch.h"	/* the arch's system call ABI (arch/<arch>/) */
#include "syscall_stubs.h"	/* __ss_syscall0 to __ss_syscall6 (arch/generic/) */
#include "syscall_nr.h"

#define hidden __attribute__((__visibility__("hidden")))
/* The library's exported functions (everything else is hidden). */
#define EXPORT __attribute__((__visibility__("default")))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

hidden long __syscall_err(unsigned long r);

/* -4095 to -1 are -errno; anything else is a result. */
static inline long __syscall_ret(unsigned long r)
{
	if (unlikely(r > -4096UL))
		return __syscall_err(r);
	return r;
}

/* __syscall(SYS_x, ...) with k arguments is SS_SYSCALL_k: the stub for k arguments, each
 * converted to long, the width of the register that carries it (a pointer, an int and a
 * size all travel alike). */
#define __syscall(...) SS_SYSCALL_BY_ARITY(SS_SYSCALL_ARITY(__VA_ARGS__), __VA_ARGS__)

/* The number of arguments after the syscall number, 0 to 6. The arity is counted as
 * musl's syscall.h does: the number and its arguments go in front of the list 6, 5,
 * ..., 0, which pushes the count into the eighth place (the empty last argument keeps
 * "..." from being empty). */
#define SS_SYSCALL_ARITY(...) SS_EIGHTH_ARG(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0, )
#define SS_EIGHTH_ARG(nr, a1, a2, a3, a4, a5, a6, eighth, ...) eighth

/* In two steps, so that the arity is a digit before it is pasted. */
#define SS_SYSCALL_BY_ARITY(k, ...) SS_SYSCALL_PASTE(k, __VA_ARGS__)
#define SS_SYSCALL_PASTE(k, ...) SS_SYSCALL_##k(__VA_ARGS__)

#define SS_SYSCALL_0(n) __ss_syscall0(n)
#define SS_SYSCALL_1(n, a) __ss_syscall1(n, (long)(a))
#define SS_SYSCALL_2(n, a, b) __ss_syscall2(n, (long)(a), (long)(b))
#define SS_SYSCALL_3(n, a, b, c) __ss_syscall3(n, (long)(a), (long)(b), (long)(c))
#define SS_SYSCALL_4(n, a, b, c, d) \
	__ss_syscall4(n, (long)(a), (long)(b), (long)(c), (long)(d))
#define SS_SYSCALL_5(n, a, b, c, d, e) \
	__ss_syscall5(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e))
#define SS_SYSCALL_6(n, a, b, c, d, e, f) \
	__ss_syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

#endif
