#ifndef SYSSHIM_ELF_H
#define SYSSHIM_ELF_H

/* The parts of the 64-bit ELF format sysshim reads: the dynamic symbol tables of the
 * objects in memory (dso.c: the vDSO's clock, the definitions other loaded objects
 * make), and the header, program headers, notes and dynamic section of the command
 * sysshim-run is about to run (programs/sysshim-run/elfread.c). The arch's own
 * e_machine is ARCH_ELF_MACHINE, in arch/<arch>/elf_arch.h. */

#include <stdint.h>

/* e_ident */
#define EI_CLASS	4
#define EI_DATA		5
#define ELFCLASS32	1
#define ELFCLASS64	2
#define ELFDATA2LSB	1
#define ELFDATA2MSB	2

/* e_type */
#define ET_EXEC		2
#define ET_DYN		3

/* e_machine */
#define EM_386		3
#define EM_X86_64	62
#define EM_AARCH64	183
#define EM_LOONGARCH	258

#define PT_LOAD		1
#define PT_DYNAMIC	2
#define PT_INTERP	3
#define PT_NOTE		4
#define DT_NULL		0
#define DT_NEEDED	1
#define DT_HASH		4
#define DT_STRTAB	5
#define DT_SYMTAB	6
#define DT_STRSZ	10
#define DT_GNU_HASH	0x6ffffef5
#define DT_VERSYM	0x6ffffff0
#define VERSYM_HIDDEN	0x8000	/* a version only old references bind to */
#define SHN_UNDEF	0
#define STB_GLOBAL	1
#define STB_WEAK	2
#define STB_GNU_UNIQUE	10
#define STT_FUNC	2
#define STV_DEFAULT	0
#define STV_PROTECTED	3

/* The Go linker's build-ID note: name "Go\0\0" (namesz 4), this type. */
#define NT_GO_BUILDID	4

struct ehdr {
	unsigned char ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

/* A note's header, followed by the name and the descriptor, each padded to the
 * segment's alignment (4, or 8 for an 8-aligned PT_NOTE). */
struct nhdr {
	uint32_t namesz, descsz, type;
};

struct dyn {
	int64_t tag;
	uint64_t val;
};

struct sym {
	uint32_t name;
	unsigned char info, other;
	uint16_t shndx;
	uint64_t value, size;
};

#endif
