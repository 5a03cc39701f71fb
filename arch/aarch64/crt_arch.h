/* The entry point of sysshim's libc-free programs (sysshim-run): _start passes the
 * initial stack (argc, argv, envp, auxv) to __ss_start_c with the stack 16-byte
 * aligned and no frame to unwind into. The one piece of assembly besides the syscall
 * stubs. */
__asm__(".text\n"
	".global _start\n"
	".type _start, %function\n"
	"_start:\n"
	"	mov x29, #0\n"
	"	mov x30, #0\n"
	"	mov x0, sp\n"
	"	and sp, x0, #-16\n"
	"	bl __ss_start_c\n");
