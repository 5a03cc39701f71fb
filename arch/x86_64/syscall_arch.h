/* The x86_64 Linux system call (the x86-64 psABI's "Linux Conventions"; the kernel's
 * entry_SYSCALL_64):
 *   - the instruction is "syscall";
 *   - the syscall number is passed in rax;
 *   - arguments 1 to 6 in rdi, rsi, rdx, r10, r8, r9: the C calling convention's
 *     registers, but r10 where a function takes rcx, which the instruction overwrites;
 *   - the result comes back in rax: a value, or -errno (-4095 to -1);
 *   - the kernel clobbers rcx (the instruction leaves the return address there) and r11
 *     (the saved rflags); every other register comes back as it went in;
 *   - "memory": the kernel reads and writes memory that no operand names (a path, a
 *     struct stat, an eventfd's counter), so the compiler must not keep such memory in
 *     a register across the call, nor move a load or store to the other side of it.
 * The register names and the clobbers follow the ABI. arch/generic/syscall_stubs.h
 * builds the stubs from these. */
#define SS_SYSCALL_INSN		"syscall"
#define SS_SYSCALL_NR		"rax"
#define SS_SYSCALL_ARG1		"rdi"
#define SS_SYSCALL_ARG2		"rsi"
#define SS_SYSCALL_ARG3		"rdx"
#define SS_SYSCALL_ARG4		"r10"
#define SS_SYSCALL_ARG5		"r8"
#define SS_SYSCALL_ARG6		"r9"
#define SS_SYSCALL_RET		"rax"
#define SS_SYSCALL_CLOBBERS	"rcx", "r11", "memory"
