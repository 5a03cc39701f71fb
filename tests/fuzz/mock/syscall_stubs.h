/* tests/fuzz/logic_fuzz: sysshim's src/ built with every syscall sent to a model kernel
 * (tests/fuzz/logic_fuzz.c) instead of the syscall instruction. These stubs stand in for
 * arch/generic/syscall_stubs.h (this folder comes first on the include path);
 * syscall_arch.h, syscall_nr.h and stat_arch.h still come from arch/x86_64/. */
#ifndef SYSSHIM_MOCK_SYSCALL_STUBS_H
#define SYSSHIM_MOCK_SYSCALL_STUBS_H

long __ss_mock_syscall(long n, long a, long b, long c, long d, long e, long f);

static inline long __ss_syscall0(long n) { return __ss_mock_syscall(n, 0, 0, 0, 0, 0, 0); }
static inline long __ss_syscall1(long n, long a)
{
	return __ss_mock_syscall(n, a, 0, 0, 0, 0, 0);
}
static inline long __ss_syscall2(long n, long a, long b)
{
	return __ss_mock_syscall(n, a, b, 0, 0, 0, 0);
}
static inline long __ss_syscall3(long n, long a, long b, long c)
{
	return __ss_mock_syscall(n, a, b, c, 0, 0, 0);
}
static inline long __ss_syscall4(long n, long a, long b, long c, long d)
{
	return __ss_mock_syscall(n, a, b, c, d, 0, 0);
}
static inline long __ss_syscall5(long n, long a, long b, long c, long d, long e)
{
	return __ss_mock_syscall(n, a, b, c, d, e, 0);
}
static inline long __ss_syscall6(long n, long a, long b, long c, long d, long e, long f)
{
	return __ss_mock_syscall(n, a, b, c, d, e, f);
}

#endif
