#include "guard.h"

/* The path alignment guard (docs/path.md). The kernel copies a path in with word
 * loads at path, path + 8, path + 16, ... whatever the alignment. When the path
 * starts unaligned, the load holding its NUL can run past the end of the page; if
 * the next page is unmapped or PROT_NONE that load faults and the kernel finishes
 * byte by byte, several times slower (bench_path's "kernel alone" line; docs/path.md,
 * "Why alignment matters at all, and only there"). An aligned copy never crosses. */

/* The smallest page size: every page boundary is a multiple of it. */
#define GUARD_PAGE 4096

typedef uint64_t __attribute__((__may_alias__)) word;

#define ONES ((uint64_t)-1 / 0xff)
#define HIGHS (ONES * 0x80)
#define LOWS (ONES * 0x7f)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* 0x80 in each byte that is 0 (and maybe in bytes after the first 0: only the
 * lowest one counts); the bytes before the path (the word's low m) made non-zero. */
#define ZEROS(x) (((x) - ONES) & ~(x) & HIGHS)
#define BEFORE(m) (((uint64_t)1 << 8 * (m)) - 1)
#define FIRST(z) (__builtin_ctzll(z) >> 3)
#else
#define ZEROS(x) (~((((x) & LOWS) + LOWS) | (x) | LOWS))
#define BEFORE(m) (~(uint64_t)0 << (64 - 8 * (m)))
#define FIRST(z) (__builtin_clzll(z) >> 3)
#endif

/* Measures the path with aligned loads only, each in a page the kernel's own copy
 * reads too (the one holding path[0], then one holding a byte before the NUL);
 * stops after SYSSHIM_PATH_MAX bytes, since a longer path is the kernel's to
 * refuse (ENAMETOOLONG) and is passed through as it is. Its length + 1 when the
 * kernel's load holding the NUL crosses a page, else 0. */
__attribute__((__no_sanitize_address__)) size_t __ss_path_at_risk(const char *path)
{
	unsigned m = (uintptr_t)path & 7;
	const word *w = (const void *)(path - m);
	const char *lim;
	uint64_t z;
	size_t n;

	if (!m || ss_bad_ptr(path))
		return 0;
	lim = path + SYSSHIM_PATH_MAX;
	for (z = ZEROS(*w | BEFORE(m)); !z; z = ZEROS(*w))
		if ((const char *)++w >= lim)
			return 0;
	n = (const char *)w + FIRST(z) - path;
	if (n >= SYSSHIM_PATH_MAX)
		return 0;
	/* The kernel's load that holds the NUL starts at path + (n & ~7). */
	if (((uintptr_t)path + (n & ~(size_t)7)) % GUARD_PAGE <= GUARD_PAGE - 8)
		return 0;
	return n + 1;
}

/* Copies the n bytes before the NUL with aligned loads (8 bytes a step, shifted
 * into place), reading no word past the one that holds the NUL. */
const char *__ss_path_copy(struct sysshim_path *d, const char *s, size_t n)
{
	unsigned m = (uintptr_t)s & 7, sh = 8 * m;
	const word *w = (const void *)(s - m);
	word *o = (void *)d->buf;
	size_t last = (m + n) >> 3;

	for (size_t i = 0; i <= n >> 3; i++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		uint64_t x = w[i] >> sh;
		if (i < last)
			x |= w[i + 1] << (64 - sh);
#else
		uint64_t x = w[i] << sh;
		if (i < last)
			x |= w[i + 1] >> (64 - sh);
#endif
		o[i] = x;
	}
	d->buf[n] = 0;
	d->len = n;
	return d->buf;
}
