/* The system call stubs, __ss_syscall0 to __ss_syscall6, one for each number of
 * arguments, for every arch whose kernel takes the syscall number and up to six
 * arguments in registers and answers in one register: x86_64, aarch64 and loongarch64.
 * arch/<arch>/syscall_arch.h names the instruction, the registers and the clobbers
 * (SS_SYSCALL_*); an arch whose system call has another form would have a
 * syscall_stubs.h of its own in arch/<arch>/, found first.
 *
 * Each stub puts every operand in the register the ABI gives it (register variables,
 * which are only promised to hold their register as asm operands, and are used for
 * nothing else) and makes the call with one asm statement. The result has a variable of
 * its own even where its register also brings the number (x86_64) or the first argument
 * (aarch64, loongarch64): an output may share a register with an input, and this way
 * the stubs read the same for every arch. The asm is volatile: a call whose result is
 * unused is still made, and two alike calls are never merged into one. */

static inline long __ss_syscall0(long n)
{
	register long ret __asm__(SS_SYSCALL_RET), nr __asm__(SS_SYSCALL_NR) = n;
	__asm__ __volatile__(SS_SYSCALL_INSN : "=r"(ret)
			     : "r"(nr)
			     : SS_SYSCALL_CLOBBERS);
	return ret;
}

static inline long __ss_syscall1(long n, long a1)
{
	register long ret __asm__(SS_SYSCALL_RET), nr __asm__(SS_SYSCALL_NR) = n;
	register long r1 __asm__(SS_SYSCALL_ARG1) = a1;
	__asm__ __volatile__(SS_SYSCALL_INSN : "=r"(ret)
			     : "r"(nr), "r"(r1)
			     : SS_SYSCALL_CLOBBERS);
	return ret;
}

static inline long __ss_syscall2(long n, long a1, long a2)
{
	register long ret __asm__(SS_SYSCALL_RET), nr __asm__(SS_SYSCALL_NR) = n;
	register long r1 __asm__(SS_SYSCALL_ARG1) = a1, r2 __asm__(SS_SYSCALL_ARG2) = a2;
	__asm__ __volatile__(SS_SYSCALL_INSN : "=r"(ret)
			     : "r"(nr), "r"(r1), "r"(r2)
			     : SS_SYSCALL_CLOBBERS);
	return ret;
}

static inline long __ss_syscall3(long n, long a1, long a2, long a3)
{
	register long ret __asm__(SS_SYSCALL_RET), nr __asm__(SS_SYSCALL_NR) = n;
	register long r1 __asm__(SS_SYSCALL_ARG1) = a1, r2 __asm__(SS_SYSCALL_ARG2) = a2;
	register long r3 __asm__(SS_SYSCALL_ARG3) = a3;
	__asm__ __volatile__(SS_SYSCALL_INSN : "=r"(ret)
			     : "r"(nr), "r"(r1), "r"(r2), "r"(r3)
			     : SS_SYSCALL_CLOBBERS);
	return ret;
}

static inline long __ss_syscall4(long n, long a1, long a2, long a3, long a4)
{
	register long ret __asm__(SS_SYSCALL_RET), nr __asm__(SS_SYSCALL_NR) = n;
	register long r1 __asm__(SS_SYSCALL_ARG1) = a1, r2 __asm__(SS_SYSCALL_ARG2) = a2;
	register long r3 __asm__(SS_SYSCALL_ARG3) = a3, r4 __asm__(SS_SYSCALL_ARG4) = a4;
	__asm__ __volatile__(SS_SYSCALL_INSN : "=r"(ret)
			     : "r"(nr), "r"(r1), "r"(r2), "r"(r3), "r"(r4)
			     : SS_SYSCALL_CLOBBERS);
	return ret;
}

static inline long __ss_syscall5(long n, long a1, long a2, long a3, long a4, long a5)
{
	register long ret __asm__(SS_SYSCALL_RET), nr __asm__(SS_SYSCALL_NR) = n;
	register long r1 __asm__(SS_SYSCALL_ARG1) = a1, r2 __asm__(SS_SYSCALL_ARG2) = a2;
	register long r3 __asm__(SS_SYSCALL_ARG3) = a3, r4 __asm__(SS_SYSCALL_ARG4) = a4;
	register long r5 __asm__(SS_SYSCALL_ARG5) = a5;
	__asm__ __volatile__(SS_SYSCALL_INSN : "=r"(ret)
			     : "r"(nr), "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5)
			     : SS_SYSCALL_CLOBBERS);
	return ret;
}

static inline long __ss_syscall6(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	register long ret __asm__(SS_SYSCALL_RET), nr __asm__(SS_SYSCALL_NR) = n;
	register long r1 __asm__(SS_SYSCALL_ARG1) = a1, r2 __asm__(SS_SYSCALL_ARG2) = a2;
	register long r3 __asm__(SS_SYSCALL_ARG3) = a3, r4 __asm__(SS_SYSCALL_ARG4) = a4;
	register long r5 __asm__(SS_SYSCALL_ARG5) = a5, r6 __asm__(SS_SYSCALL_ARG6) = a6;
	__asm__ __volatile__(SS_SYSCALL_INSN : "=r"(ret)
			     : "r"(nr), "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6)
			     : SS_SYSCALL_CLOBBERS);
	return ret;
}
