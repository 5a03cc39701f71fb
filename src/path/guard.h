#ifndef SYSSHIM_GUARD_H
#define SYSSHIM_GUARD_H

/* The path alignment guard (docs/path.md): the measured decision whether copying pays
 * here (guard.c), on the geometry and the copy of a page-end path (page_end.c). The stat calls
 * ask __ss_path_misplaced() and, for a path the kernel would read slowly, redo the
 * call on an aligned copy (__ss_path_copy) themselves. */

#include "kabi.h"
#include "sysshim.h"

/* A path the kernel would read slowly (unaligned, the word load holding its NUL
 * crossing a page) gets its length + 1, any other 0: measured geometry, no decision. */
hidden size_t __ss_path_at_risk(const char *path);
/* The same, where the measured decision says copying pays (and the path is looked at). */
hidden size_t __ss_path_scan(const char *path);
/* Copies the n bytes of s (and a NUL) into d, aligned; returns d->buf. */
hidden const char *__ss_path_copy(struct sysshim_path *d, const char *s, size_t n);
/* For the tests: costs as if measured. */
hidden void __ss_align_set_costs(unsigned penalty, unsigned fixed, unsigned per64);

static inline size_t __ss_path_misplaced(const char *path)
{
	return (uintptr_t)path & 7 ? __ss_path_scan(path) : 0;
}

#endif
