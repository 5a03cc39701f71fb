#ifndef SYSSHIM_PROBE_H
#define SYSSHIM_PROBE_H

#include "kdefs.h"

/* Ways to stat an open fd, in the order of include/sysshim.h's SYSSHIM_S_*. */
enum {
	SS_AUTO,
	SS_FSTAT,
	SS_NEWFSTATAT_NULL,
	SS_NEWFSTATAT_EMPTY,
	SS_STATX_NULL,
	SS_STATX_EMPTY,
	SS_NONE,
};

/* What the running kernel (or emulator, or sandbox) answers. */
#define SS_CAP_FSTAT		0x01
#define SS_CAP_NEWFSTATAT	0x02
#define SS_CAP_NEWFSTATAT_NULL	0x04
#define SS_CAP_STATX		0x08
#define SS_CAP_STATX_NULL	0x10

/* One word holds every decision, so the hot path is one relaxed load:
 * bits 0-3 the fd strategy, bit 4 set when path lookups go through statx,
 * bit 5 when neither newfstatat nor statx is left, bit 6 when the path alignment
 * guard is on (SYSSHIM_ALIGN_PATHS=1, sysshim_align_paths()), bits 8-12 the capabilities,
 * bits 16-19 the strategy SYSSHIM_STRATEGY asked for, bit 30 "probed". */
#define SS_ST_FD(v)		((v) & 0xf)
#define SS_ST_PATH_STATX	0x10
#define SS_ST_PATH_NONE		0x20
#define SS_ST_ALIGN		0x40
#define SS_ST_CAPS(v)		(((v) >> 8) & 0xff)
#define SS_ST_FORCED(v)		(((v) >> 16) & 0xf)
#define SS_ST_PROBED		0x40000000U

hidden extern unsigned __ss_state_word;
hidden unsigned __ss_probe(void);
hidden unsigned __ss_missing(unsigned cap);
hidden unsigned __ss_cap_of(int strategy);
hidden const char *__ss_strategy_name(int s);
hidden extern unsigned char __ss_null_rule;
hidden int __ss_null_strict(void);

static inline unsigned __ss_state(void)
{
	unsigned v = __atomic_load_n(&__ss_state_word, __ATOMIC_RELAXED);
	if (unlikely(!v))
		v = __ss_probe();
	return v;
}

#endif
