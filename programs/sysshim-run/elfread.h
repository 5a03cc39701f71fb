#ifndef SYSSHIM_RUN_ELFREAD_H
#define SYSSHIM_RUN_ELFREAD_H

/* The ELF reader (elfread.c): what inspect.c needs to know of the program it is about
 * to run, read without trusting a byte of it. Steps, each in one place:
 *   elf_read     the ELF header, then ONE pass over the program headers that keeps
 *                PT_INTERP, PT_DYNAMIC, the PT_NOTEs and the PT_LOADs, then the
 *                interpreter's name (a pread where it lies beyond the first page);
 *   elf_go_note  the notes: whether one is Go's build-ID note;
 *   elf_needed   the dynamic section: whether a DT_NEEDED name satisfies a test.
 * Bytes come from the first page, which the caller has read, or from a pread of a page
 * where they lie beyond it. Every offset, size and count is checked before use: a
 * malformed file gets an answer ("cannot tell"), never a read outside a buffer.
 *
 * It needs no libc and holds no libc header: tests/run/needed.c builds it with one. */

#include <stddef.h>
#include <stdint.h>
#include "elf.h"
#include "elf_arch.h"

#define PAGE		4096
/* Segments kept of each kind; more are not looked at. Linkers write 4 to 6 PT_LOADs
 * and up to 4 PT_NOTEs; a Go note past the 16th is not seen (the program is then
 * preloaded, which costs it nothing). */
#define ELF_MAX_NOTES	16
#define ELF_MAX_LOADS	16

/* What this system's programs are: every arch here is 64-bit, the byte order is the
 * compiler's, the machine is the arch's own (arch/<arch>/elf_arch.h). */
#define ELF_CLASS (sizeof(long) == 8 ? ELFCLASS64 : ELFCLASS32)
#define ELF_DATA (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB)

/* The last component of glibc's dynamic loader's path for this arch's ABI (glibc's
 * sysdeps/unix/sysv/linux/<arch>/ldconfig.h): a PT_INTERP of another name is another C
 * library's loader (musl's ld-musl-<arch>.so.1), which cannot load the library. */
#if defined(__x86_64__)
#define GLIBC_LOADER "ld-linux-x86-64.so.2"
#elif defined(__aarch64__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GLIBC_LOADER "ld-linux-aarch64_be.so.1"
#elif defined(__aarch64__)
#define GLIBC_LOADER "ld-linux-aarch64.so.1"
#elif defined(__loongarch__) && defined(__loongarch_soft_float)
#define GLIBC_LOADER "ld-linux-loongarch-lp64s.so.1"
#elif defined(__loongarch__)
#define GLIBC_LOADER "ld-linux-loongarch-lp64d.so.1"
#else
#error "elfread.h: which is glibc's loader here?"
#endif

/* The file: its first page as the caller read it, and a window with the last pread. */
struct elf_file {
	int fd;
	const unsigned char *page;
	uint64_t page_n;		/* bytes in page (fewer in a short file) */
	unsigned char win[PAGE];	/* the file's [win_off, win_off + win_n) */
	uint64_t win_off, win_n;
};

/* A segment: where its bytes lie in the file and in memory. */
struct elf_seg {
	uint64_t off, vaddr, filesz, align;
};

/* What elf_read found. */
struct elf_info {
	unsigned class, data, machine;	/* e_ident[EI_CLASS], e_ident[EI_DATA], e_machine */
	unsigned type;			/* e_type */
	uint64_t phoff;
	unsigned phnum;
	int has_interp, has_dynamic;
	struct elf_seg interp, dynamic;	/* the last PT_INTERP, the last PT_DYNAMIC */
	unsigned notes, loads;
	struct elf_seg note[ELF_MAX_NOTES], load[ELF_MAX_LOADS];
	char interp_name[256];		/* "" where not a C string of 1 to 255 bytes */
};

enum elf_status {
	ELF_OK,
	ELF_SHORT,		/* too short for its header */
	ELF_FOREIGN,		/* another class, byte order or machine (class, data, machine) */
	ELF_NOT_PROGRAM,	/* not ET_EXEC or ET_DYN, or program headers the kernel refuses */
	ELF_BAD_PHDRS,		/* a program header cannot be read */
};

/* F set up for the file FD whose first N bytes (at most a page) are at PAGE_. */
void elf_start(struct elf_file *f, int fd, const unsigned char *page_, long n);
/* The header and the program headers of F into H (the fields the status names). */
enum elf_status elf_read(struct elf_file *f, struct elf_info *h);
/* Whether a PT_NOTE of H holds Go's build-ID note (name "Go", type 4). A note segment
 * whose first page is not at hand is read only where MAY_READ. */
int elf_go_note(struct elf_file *f, const struct elf_info *h, int may_read);
/* Whether a DT_NEEDED name of H satisfies WANT(name, arg), in the dynamic section's
 * order: 1; 0 where none does (or there is no PT_DYNAMIC); -1 where the dynamic
 * section or a name cannot be read (outside the file or the PT_LOADs, or a name not
 * ended within 256 bytes). At most a page of dynamic entries is read. */
int elf_needed(struct elf_file *f, const struct elf_info *h,
	       int (*want)(const char *name, void *arg), void *arg);

#endif
