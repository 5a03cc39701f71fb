#ifndef SYSSHIM_ELF_H
#define SYSSHIM_ELF_H

/* The parts of the 64-bit ELF format the library reads: the vDSO's symbol table
 * (clock.c). */

#include <stdint.h>

#define PT_LOAD		1
#define PT_DYNAMIC	2
#define DT_NULL		0
#define DT_HASH		4
#define DT_STRTAB	5
#define DT_SYMTAB	6
#define DT_GNU_HASH	0x6ffffef5
#define STT_FUNC	2

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
