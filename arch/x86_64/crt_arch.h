/* The entry point of sysshim's libc-free programs (sysshim-run): _start passes the
 * initial stack (argc, argv, envp, auxv) to __ss_start_c with the stack 16-byte
 * aligned, as a call expects. The one piece of assembly besides the syscall stubs. */
__asm__(".text\n"
	".global _start\n"
	".type _start, @function\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call __ss_start_c\n"
	"	hlt\n");
