/* tests/preload/i386.c: a program of another ELF class (gcc -m32 -nostdlib, linked
 * against the i386 libc for a dynamic loader that reads LD_PRELOAD): exits 7. */
void _start(void)
{
	__asm__ volatile("movl $1, %eax; movl $7, %ebx; int $0x80");
}
