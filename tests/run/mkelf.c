/* tests/run/mkelf.c: writes an ELF file that sysshim-run is to read, for tests/run.sh.
 * None of them runs (the exec fails), so that only the decision is tested:
 *   mkelf FILE elf32        a 32-bit i386 program's header (what a 32-bit program on a
 *                           64-bit system has): another class
 *   mkelf FILE machine N    a 64-bit dynamic program for e_machine N
 *   mkelf FILE far-go       a 64-bit dynamic program of this machine whose program headers
 *   mkelf FILE far-gnu      (at 4096) and notes (at 8192) lie beyond the first page: a
 *                           Go build-ID note, or a GNU one (then: a dynamic program)
 * The 64-bit ones name a loader that does not exist (/nonexistent/ld.so): their exec fails
 * with ENOENT. Exit status 0, or 1 with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#define HOST_MACHINE 62
#elif defined(__aarch64__)
#define HOST_MACHINE 183
#elif defined(__loongarch__)
#define HOST_MACHINE 258
#else
#error "mkelf: which e_machine is this?"
#endif

static unsigned char img[12288];

static void put16(size_t at, unsigned v) { img[at] = v & 0xff; img[at + 1] = (v >> 8) & 0xff; }
static void put32(size_t at, uint32_t v) { for (int i = 0; i < 4; i++) img[at + i] = (v >> (8 * i)) & 0xff; }
static void put64(size_t at, uint64_t v) { for (int i = 0; i < 8; i++) img[at + i] = (v >> (8 * i)) & 0xff; }

/* A 64-bit little-endian ET_DYN header for MACHINE with PHNUM program headers at PHOFF. */
static void ehdr64(unsigned machine, uint64_t phoff, unsigned phnum)
{
	memcpy(img, "\177ELF\2\1\1", 7);
	put16(16, 3);		/* ET_DYN */
	put16(18, machine);
	put32(20, 1);
	put64(32, phoff);
	put16(52, 64);
	put16(54, 56);
	put16(56, phnum);
	put16(58, 64);
}

/* Program header I (of the table at PHOFF): TYPE over [OFF, OFF + SIZE), aligned ALIGN. */
static void phdr(uint64_t phoff, unsigned i, uint32_t type, uint64_t off, uint64_t size, uint64_t align)
{
	size_t at = phoff + 56 * i;
	put32(at, type);
	put32(at + 4, 4);	/* PF_R */
	put64(at + 8, off);
	put64(at + 16, off);
	put64(at + 24, off);
	put64(at + 32, size);
	put64(at + 40, size);
	put64(at + 48, align);
}

int main(int argc, char **argv)
{
	size_t len;
	static const char interp[] = "/nonexistent/ld.so";
	if (argc >= 3 && !strcmp(argv[2], "elf32")) {
		memcpy(img, "\177ELF\1\1\1", 7);
		put16(16, 2);	/* ET_EXEC */
		put16(18, 3);	/* EM_386 */
		put32(20, 1);
		put16(40, 52);	/* e_ehsize; no program headers: nothing to load */
		len = 52;
	} else if (argc >= 4 && !strcmp(argv[2], "machine")) {
		ehdr64((unsigned)strtoul(argv[3], 0, 0), 64, 1);
		phdr(64, 0, 3, 120, sizeof interp, 1);
		memcpy(img + 120, interp, sizeof interp);
		len = 120 + sizeof interp;
	} else if (argc >= 3 && (!strcmp(argv[2], "far-go") || !strcmp(argv[2], "far-gnu"))) {
		int go = !strcmp(argv[2], "far-go");
		ehdr64(HOST_MACHINE, 4096, 3);
		phdr(4096, 0, 3, 4096 + 3 * 56, sizeof interp, 1);
		memcpy(img + 4096 + 3 * 56, interp, sizeof interp);
		/* Two notes in one segment: a GNU ABI tag first, then the Go build ID (or a
		 * second GNU note: a type-4 note of another name is no Go note). */
		size_t n = 8192;
		put32(n, 4), put32(n + 4, 16), put32(n + 8, 1);
		memcpy(img + n + 12, "GNU", 4);
		n += 32;
		put32(n, 4), put32(n + 4, 8), put32(n + 8, 4);
		memcpy(img + n + 12, go ? "Go\0\0" : "GNU", 4);
		memcpy(img + n + 16, "buildid!", 8);
		n += 24;
		phdr(4096, 1, 4, 8192, n - 8192, 4);
		phdr(4096, 2, 0x6474e551, 0, 0, 16);	/* PT_GNU_STACK */
		len = n;
	} else {
		fprintf(stderr, "usage: mkelf FILE elf32|machine N|far-go|far-gnu\n");
		return 1;
	}
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
