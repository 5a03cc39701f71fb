/* The entry point of sysshim's libc-free programs (sysshim-run, la64_test): _start
 * passes the initial stack (argc, argv, envp, auxv) to __ss_start_c with the stack
 * 16-byte aligned and no frame to unwind into. The one piece of assembly besides the
 * syscall stubs. */
__asm__(".text\n"
	".global _start\n"
	".type _start, @function\n"
	"_start:\n"
	"	move $fp, $zero\n"
	"	move $ra, $zero\n"
	"	move $a0, $sp\n"
	"	bstrins.d $sp, $zero, 3, 0\n"
	"	bl __ss_start_c\n");
