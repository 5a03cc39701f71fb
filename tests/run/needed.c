/* tests/run/needed.c: sysshim-run's ELF reader (programs/sysshim-run/elfread.c) on its
 * own, built with a libc (and, where the compiler has them, ASan and UBSan) by
 * tests/run.sh:
 *   run-needed FILE PREFIX    FILE read as sysshim-run reads it (its first page, then
 *                             the reader); prints "status N" (elf_read's answer), then,
 *                             for a program, "go: yes|no", each DT_NEEDED name the walk
 *                             looks at ("needed NAME") and whether one starts with PREFIX
 *                             ("match: yes|no|unreadable").
 *   run-needed --fuzz FILE N  N copies of FILE, each with a few bytes changed where the
 *                             reader looks (the headers, the dynamic section, the notes)
 *                             or anywhere in its first 12 KB (a fixed seed: the same N
 *                             files each run), read the same way; prints "fuzz: N files,
 *                             ..." with how they were taken. A crash, or a read outside a
 *                             buffer under ASan, fails.
 * Exit status 0, or 1 (bad use, FILE unreadable). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elfread.h"

struct want {
	const char *prefix;
	int quiet;
};

static int starts_with(const char *name, void *arg)
{
	const struct want *w = arg;
	if (!w->quiet)
		printf("needed %s\n", name);
	return !strncmp(name, w->prefix, strlen(w->prefix));
}

/* The reader on the file open as FD, as inspect.c runs it: 1 for a program that the walk
 * matched, 0 not, -1 unreadable; -2 not a program (STATUS says why). The first page is
 * handed over in a buffer of its own length: ASan sees a read past it. */
static int read_elf(int fd, const struct want *w, enum elf_status *status, int *go)
{
	static unsigned char page[PAGE];
	static struct elf_file f;
	struct elf_info h;
	long n = pread(fd, page, PAGE, 0);
	unsigned char *first = malloc(n > 0 ? (size_t)n : 1);
	if (n > 0)
		memcpy(first, page, (size_t)n);
	elf_start(&f, fd, first, n);
	*status = elf_read(&f, &h);
	int r = -2;
	if (*status == ELF_OK) {
		*go = elf_go_note(&f, &h, 1);
		r = elf_needed(&f, &h, starts_with, (void *)w);
	}
	free(first);
	return r;
}

static int one(const char *path, const char *prefix)
{
	struct want w = { prefix, 0 };
	enum elf_status st;
	int go = 0, fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	int r = read_elf(fd, &w, &st, &go);
	printf("status %d\n", (int)st);
	if (r > -2)
		printf("go: %s\nmatch: %s\n", go ? "yes" : "no", r > 0 ? "yes" : r ? "unreadable" : "no");
	close(fd);
	return 0;
}

static uint64_t seed = 0x5eed5eed5eedULL;

static uint64_t rnd(void)
{
	seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
	return seed;
}

/* Where a change matters: the ELF header, the program headers, the dynamic section,
 * the notes (as the reader found them in the unchanged file), or anywhere. */
struct region {
	uint64_t off, len;
};

static unsigned regions(int fd, struct region *r, size_t len)
{
	static unsigned char page[PAGE];
	static struct elf_file f;
	struct elf_info h;
	unsigned n = 0;
	r[n++] = (struct region){ 0, len < 12288 ? len : 12288 };
	r[n++] = (struct region){ 0, 64 };
	elf_start(&f, fd, page, pread(fd, page, PAGE, 0));
	if (elf_read(&f, &h) != ELF_OK)
		return n;
	r[n++] = (struct region){ h.phoff, (uint64_t)h.phnum * 56 };
	if (h.has_dynamic)
		r[n++] = (struct region){ h.dynamic.off, h.dynamic.filesz < 512 ? h.dynamic.filesz : 512 };
	for (unsigned i = 0; i < h.notes && n < 8; i++)
		r[n++] = (struct region){ h.note[i].off, h.note[i].filesz < 256 ? h.note[i].filesz : 256 };
	return n;
}

static const uint64_t odd[] = { 0, 1, 0xff, 4096, 4095, 0x7fffffffffffffffULL,
				0x8000000000000000ULL, ~0ULL, ~0ULL - 7 };

/* A few bytes of one region changed: single bytes, or a 64-bit field set to a value
 * that makes an offset, size or count go wrong. */
static void mutate(unsigned char *b, size_t len, const struct region *r, unsigned nr)
{
	const struct region *g = &r[rnd() % nr];
	for (unsigned k = 1 + rnd() % 4; k; k--) {
		size_t at = g->len ? g->off + rnd() % g->len : 0;
		if (at >= len)
			continue;
		if (rnd() % 2 || (at & ~(size_t)7) + 8 > len) {
			b[at] = (unsigned char)rnd();
		} else {
			uint64_t v = odd[rnd() % (sizeof odd / sizeof *odd)];
			memcpy(b + (at & ~(size_t)7), &v, 8);
		}
	}
}

static int fuzz(const char *path, long n)
{
	static unsigned char orig[1 << 20], cur[1 << 20];
	char tmp[] = "/tmp/run-needed.XXXXXX";
	struct want w = { "libasan.so.", 1 };
	long counts[4 + 5] = { 0 };
	int fd = open(path, O_RDONLY), t = mkstemp(tmp);
	ssize_t len = fd < 0 ? -1 : read(fd, orig, sizeof orig);
	if (len <= 0 || t < 0) {
		perror(path);
		return 1;
	}
	unlink(tmp);
	struct region r[8];
	unsigned nr = regions(fd, r, (size_t)len);
	for (long i = 0; i < n; i++) {
		enum elf_status st;
		int go;
		memcpy(cur, orig, (size_t)len);
		mutate(cur, (size_t)len, r, nr);
		if (ftruncate(t, 0) || pwrite(t, cur, (size_t)len, 0) != len)
			return perror(tmp), 1;
		int r = read_elf(t, &w, &st, &go);
		counts[r + 2]++;
		counts[4 + st]++;
	}
	printf("fuzz: %ld files, %ld programs (NEEDED matched %ld, not %ld, unreadable %ld), "
	       "refused: short %ld, foreign %ld, no program %ld, bad headers %ld\n",
	       n, counts[4 + ELF_OK], counts[3], counts[2], counts[1], counts[4 + ELF_SHORT],
	       counts[4 + ELF_FOREIGN], counts[4 + ELF_NOT_PROGRAM], counts[4 + ELF_BAD_PHDRS]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--fuzz"))
		return fuzz(argv[2], atol(argv[3]));
	if (argc == 3)
		return one(argv[1], argv[2]);
	fprintf(stderr, "usage: run-needed FILE PREFIX | --fuzz FILE N\n");
	return 1;
}
