/* tests/run/mkelf.c: writes an ELF file that sysshim-run is to read, for tests/run.sh.
 * None of them runs (the exec fails), so that only the decision is tested:
 *   mkelf FILE elf32        a 32-bit i386 program's header (what a 32-bit program on a
 *                           64-bit system has): another class
 *   mkelf FILE machine N    a 64-bit dynamic program for e_machine N
 *   mkelf FILE far-go       a 64-bit dynamic program of this machine whose program headers
 *   mkelf FILE far-gnu      (at 4096) and notes (at 8192) lie beyond the first page: a
 *                           Go build-ID note, or a GNU one (then: a dynamic program)
 *   mkelf FILE needed HOW   a 64-bit dynamic program of this machine with a dynamic
 *                           section beyond the first page (at 8192) and its string table
 *                           in the second page, for the DT_NEEDED walk (tests/run/needed.c).
 *                           HOW: good (NEEDED libfoo.so.1, libasan.so.8), strtab-outside
 *                           (DT_STRTAB in no PT_LOAD), past-strsz (a name past DT_STRSZ),
 *                           unterminated (a name without its 0 within 256 bytes), huge
 *                           (PT_DYNAMIC at an offset no file has), many (a page of
 *                           NEEDED entries, no DT_NULL, a dynamic section past the end)
 *   mkelf FILE loader PATH  a 64-bit dynamic program of this machine whose PT_INTERP is
 *                           PATH (another C library's loader: musl's, or any other name)
 * The other 64-bit ones name glibc's loader for this machine in a directory that does
 * not exist (/nonexistent/ld-linux-...): their exec fails with ENOENT. Exit status 0, or
 * 1 with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#define HOST_MACHINE 62
#define GLIBC_LOADER "ld-linux-x86-64.so.2"
#elif defined(__aarch64__)
#define HOST_MACHINE 183
#define GLIBC_LOADER "ld-linux-aarch64.so.1"
#elif defined(__loongarch__)
#define HOST_MACHINE 258
#define GLIBC_LOADER "ld-linux-loongarch-lp64d.so.1"
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

/* Dynamic entry I of the section at OFF. */
static void dyn(size_t off, unsigned i, uint64_t tag, uint64_t val)
{
	put64(off + 16 * i, tag);
	put64(off + 16 * i + 8, val);
}

/* The "needed" files: one PT_LOAD maps the whole file at BASE (addresses are not file
 * offsets). Returns the file's length, or 0 for an unknown HOW. */
static size_t needed(const char *how, const char *interp, size_t interp_size)
{
	const uint64_t base = 0x10000, str = 4200, dynoff = 8192;
	static const char names[] = "\0libfoo.so.1\0libasan.so.8";
	ehdr64(HOST_MACHINE, 64, 3);
	phdr(64, 0, 1, 0, sizeof img, 4096);
	put64(64 + 16, base);	/* its p_vaddr */
	phdr(64, 1, 3, 400, interp_size, 1);
	memcpy(img + 400, interp, interp_size);
	phdr(64, 2, 2, dynoff, 5 * 16, 8);
	put64(64 + 56 * 2 + 16, base + dynoff);
	memcpy(img + str, names, sizeof names);
	dyn(dynoff, 0, 1, 1);			/* DT_NEEDED libfoo.so.1 */
	dyn(dynoff, 1, 5, base + str);		/* DT_STRTAB */
	dyn(dynoff, 2, 10, sizeof names);	/* DT_STRSZ */
	dyn(dynoff, 3, 1, 13);			/* DT_NEEDED libasan.so.8 */
	dyn(dynoff, 4, 0, 0);			/* DT_NULL */
	if (!strcmp(how, "strtab-outside")) {
		dyn(dynoff, 1, 5, 0x900000);
	} else if (!strcmp(how, "past-strsz")) {
		dyn(dynoff, 3, 1, sizeof names);
	} else if (!strcmp(how, "unterminated")) {
		dyn(dynoff, 2, 10, 4000);
		memset(img + str + sizeof names, 'a', 300);
		dyn(dynoff, 3, 1, sizeof names);
	} else if (!strcmp(how, "huge")) {
		put64(64 + 56 * 2 + 8, 0x7fffffffffff0000ULL);
		put64(64 + 56 * 2 + 32, 0x8000000000000000ULL);
	} else if (!strcmp(how, "many")) {
		put64(64 + 56 * 2 + 32, 16000);
		for (unsigned i = 3; i < 256; i++)
			dyn(dynoff, i, 1, 1);
	} else if (strcmp(how, "good")) {
		return 0;
	}
	return sizeof img;
}

int main(int argc, char **argv)
{
	size_t len;
	static const char interp[] = "/nonexistent/" GLIBC_LOADER;
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
	} else if (argc >= 4 && !strcmp(argv[2], "loader") && strlen(argv[3]) < 256) {
		ehdr64(HOST_MACHINE, 64, 1);
		phdr(64, 0, 3, 120, strlen(argv[3]) + 1, 1);
		memcpy(img + 120, argv[3], strlen(argv[3]) + 1);
		len = 120 + strlen(argv[3]) + 1;
	} else if (argc >= 4 && !strcmp(argv[2], "needed") && (len = needed(argv[3], interp, sizeof interp))) {
		;
	} else {
		fprintf(stderr, "usage: mkelf FILE elf32|machine N|far-go|far-gnu|needed HOW|loader PATH\n");
		return 1;
	}
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
