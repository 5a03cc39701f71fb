#ifndef SYSSHIM_RT_NOLIBC_H
#define SYSSHIM_RT_NOLIBC_H

/* What a program without a libc must define itself: memset and memcpy, which the
 * compiler may call even in freestanding code (to zero or copy a struct). Included once
 * per program, by the file that includes crt_arch.h (sysshim-run's main.c,
 * tests/cross/la64_test.c); never by the library, which calls libc's.
 *
 * The loops must not become calls to themselves: gcc is given
 * -fno-tree-loop-distribute-patterns (the Makefile's RUN_CFLAGS), and clang does not
 * turn a loop into a call of the function it is in. */

#include <stddef.h>

void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

/* A word that may stand anywhere and alias anything: memcpy copies by words, then the
 * bytes left (paths and environment entries of some tens of bytes). */
typedef size_t __attribute__((__may_alias__, __aligned__(1))) ss_any_word;

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;
	for (; n >= sizeof(ss_any_word); n -= sizeof(ss_any_word)) {
		*(ss_any_word *)p = *(const ss_any_word *)q;
		p += sizeof(ss_any_word), q += sizeof(ss_any_word);
	}
	while (n--)
		*p++ = *q++;
	return d;
}

#endif
