/* The aarch64 Linux system call (the kernel's arch/arm64/kernel/syscall.c):
 *   - the instruction is "svc #0";
 *   - the syscall number is passed in x8;
 *   - arguments 1 to 6 in x0 to x5;
 *   - the result comes back in x0, over the first argument: a value, or -errno (-4095
 *     to -1);
 *   - the kernel keeps every other general register and the FP/SIMD registers v0 to
 *     v31; the rest of the SVE state (the z registers' bits above 128, p0 to p15, ffr)
 *     comes back zeroed, which a library built without SVE never notices;
 *   - "cc": the condition flags: no document promises that the kernel keeps them, so
 *     the compiler is told they may change;
 *   - "memory": the kernel reads and writes memory that no operand names (a path, a
 *     struct stat, an eventfd's counter), so the compiler must not keep such memory in
 *     a register across the call, nor move a load or store to the other side of it.
 * The register names and the clobbers follow the ABI. arch/generic/syscall_stubs.h
 * builds the stubs from these. */
#define SS_SYSCALL_INSN		"svc #0"
#define SS_SYSCALL_NR		"x8"
#define SS_SYSCALL_ARG1		"x0"
#define SS_SYSCALL_ARG2		"x1"
#define SS_SYSCALL_ARG3		"x2"
#define SS_SYSCALL_ARG4		"x3"
#define SS_SYSCALL_ARG5		"x4"
#define SS_SYSCALL_ARG6		"x5"
#define SS_SYSCALL_RET		"x0"
#define SS_SYSCALL_CLOBBERS	"memory", "cc"
