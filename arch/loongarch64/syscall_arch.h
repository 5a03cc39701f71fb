/* The loongarch64 Linux system call (the kernel's handle_syscall,
 * arch/loongarch/kernel/entry.S):
 *   - the instruction is "syscall 0";
 *   - the syscall number is passed in a7;
 *   - arguments 1 to 6 in a0 to a5;
 *   - the result comes back in a0, over the first argument: a value, or -errno (-4095
 *     to -1);
 *   - the kernel does not keep the temporaries t0 to t8: its entry uses t0 to t2 before
 *     it has saved anything, and it saves none of them; every other register comes back
 *     as it went in;
 *   - "memory": the kernel reads and writes memory that no operand names (a path, a
 *     struct stat, an eventfd's counter), so the compiler must not keep such memory in
 *     a register across the call, nor move a load or store to the other side of it.
 * The register names and the clobbers follow the ABI. arch/generic/syscall_stubs.h
 * builds the stubs from these. */
#define SS_SYSCALL_INSN		"syscall 0"
#define SS_SYSCALL_NR		"$a7"
#define SS_SYSCALL_ARG1		"$a0"
#define SS_SYSCALL_ARG2		"$a1"
#define SS_SYSCALL_ARG3		"$a2"
#define SS_SYSCALL_ARG4		"$a3"
#define SS_SYSCALL_ARG5		"$a4"
#define SS_SYSCALL_ARG6		"$a5"
#define SS_SYSCALL_RET		"$a0"
#define SS_SYSCALL_CLOBBERS	\
	"$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7", "$t8", "memory"
