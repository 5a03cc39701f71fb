#ifndef SYSSHIM_DSO_H
#define SYSSHIM_DSO_H

/* The dynamic symbol table of an ELF object in memory (dso.c): the vDSO's clock
 * (clock.c), and what the other objects the dynamic loader has loaded define
 * (loader.c). Reads only; no locks, no allocation: async-signal-safe. */

#include "elf.h"
#include "syscall.h"

struct ss_dso {
	uintptr_t bias;			/* the load bias */
	const struct sym *syms;
	const char *strs;
	const uint32_t *hash;		/* DT_HASH, or 0 */
	const uint32_t *gnu;		/* DT_GNU_HASH, or 0 */
	const uint16_t *versym;		/* DT_VERSYM, or 0 */
};

/* D from the object's dynamic section DYN, loaded at BIAS; -1 when it has no symbol
 * table or no hash table to look names up with. */
hidden int __ss_dso_open(struct ss_dso *d, const struct dyn *dyn, uintptr_t bias);
/* The DT_GNU_HASH table of the object of dynamic section DYN loaded at BIAS, or 0. */
hidden const uint32_t *__ss_dso_gnu_hash(const struct dyn *dyn, uintptr_t bias);
/* 0 where the object whose DT_GNU_HASH table is G defines no symbol NAME, by its Bloom
 * filter alone (no table: 1, perhaps): the cheap first look at an object most names are
 * not in. */
hidden int __ss_dso_may_define(const uint32_t *g, const char *name);
/* The address of the function NAME that D defines for others to bind to, or 0. */
hidden uintptr_t __ss_dso_func(const struct ss_dso *d, const char *name);

#endif
