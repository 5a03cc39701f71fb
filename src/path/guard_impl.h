#ifndef SYSSHIM_GUARD_IMPL_H
#define SYSSHIM_GUARD_IMPL_H

#include "stat_impl.h"
#include "env.h"
#include "sysshim.h"

/* The path guard's parts (docs/path.md): the geometry (guard.c), the copy, and the
 * measured decision whether copying pays here (guard_decide.c). */
hidden size_t __ss_path_at_risk(const char *path);
hidden const char *__ss_path_copy(struct sysshim_path *d, const char *s, size_t n);
hidden uint64_t __ss_now_ns(void);
hidden unsigned __ss_clock_cost(void);
hidden void __ss_align_set_costs(unsigned penalty, unsigned fixed, unsigned per64);

#endif
