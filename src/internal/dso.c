#include "dso.h"
#include "rt.h"

/* The dynamic section's addresses: the dynamic loader adds the load bias to them in
 * place on most architectures, the kernel's vDSO image and a read-only dynamic section
 * keep the link-time value, which is below the bias (a shared object is linked at 0).
 * A main program that is not position-independent has bias 0 and absolute values. */
static const void *at(const struct ss_dso *d, uint64_t v)
{
	return (const void *)(uintptr_t)(v < d->bias ? v + d->bias : v);
}

/* The GNU hash of NAME (the one DT_GNU_HASH keys on). */
static uint32_t gnu_hash(const char *name)
{
	uint32_t h = 5381;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = h * 33 + *p;
	return h;
}

int __ss_dso_open(struct ss_dso *d, const struct dyn *dyn, uintptr_t bias)
{
	*d = (struct ss_dso){ .bias = bias };
	if (!dyn)
		return -1;
	for (; dyn->tag != DT_NULL; dyn++) {
		if (dyn->tag == DT_SYMTAB)
			d->syms = at(d, dyn->val);
		else if (dyn->tag == DT_STRTAB)
			d->strs = at(d, dyn->val);
		else if (dyn->tag == DT_HASH)
			d->hash = at(d, dyn->val);
		else if (dyn->tag == DT_GNU_HASH)
			d->gnu = at(d, dyn->val);
		else if (dyn->tag == DT_VERSYM)
			d->versym = at(d, dyn->val);
	}
	return d->syms && d->strs && (d->hash || d->gnu) ? 0 : -1;
}

/* Symbol I, if it is NAME as a function others bind to: defined, global or weak, not
 * hidden, not a version kept only for old binaries. An IFUNC is passed over: its
 * address is a resolver, and calling one outside the loader is not ours to do. */
static uintptr_t func(const struct ss_dso *d, uint32_t i, const char *name)
{
	const struct sym *s = &d->syms[i];
	unsigned bind = s->info >> 4, vis = s->other & 3;

	if ((s->info & 0xf) != STT_FUNC || s->shndx == SHN_UNDEF || !s->value)
		return 0;
	if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE)
		return 0;
	if (vis != STV_DEFAULT && vis != STV_PROTECTED)
		return 0;
	if (d->versym && (d->versym[i] & VERSYM_HIDDEN))
		return 0;
	return __ss_streq(d->strs + s->name, name) ? d->bias + s->value : 0;
}

/* DT_GNU_HASH (the layout the GNU linker and ld.so share): nbuckets, symoffset, the
 * number of 64-bit Bloom words and the Bloom shift, the Bloom words, the buckets, the
 * chain. The Bloom filter first (two bits of the hash, both set in a word where the name
 * may be defined: most names asked of an object that does not define them stop there),
 * then the bucket of the name's hash and its chain, whose entries carry the hash with
 * the low bit marking the chain's end. */
static uintptr_t gnu_find(const struct ss_dso *d, const char *name)
{
	const uint32_t *g = d->gnu;
	uint32_t nbuckets = g[0], symoffset = g[1], nbloom = g[2], shift = g[3], h = gnu_hash(name);
	const uint64_t *bloom = (const uint64_t *)(g + 4);
	const uint32_t *buckets = g + 4 + 2 * nbloom;
	const uint32_t *chain = buckets + nbuckets;

	if (!nbuckets)
		return 0;
	if (nbloom) {
		uint64_t w = bloom[(h / 64) & (nbloom - 1)];
		if (!((w >> (h % 64)) & (w >> ((h >> shift) % 64)) & 1))
			return 0;
	}
	for (uint32_t i = buckets[h % nbuckets]; i >= symoffset; i++) {
		uint32_t c = chain[i - symoffset];
		uintptr_t a = (c | 1) == (h | 1) ? func(d, i, name) : 0;
		if (a)
			return a;
		if (c & 1)
			break;
	}
	return 0;
}

/* DT_HASH (System V): nbucket, nchain, the buckets, then the chains. */
static uintptr_t sysv_find(const struct ss_dso *d, const char *name)
{
	const uint32_t *t = d->hash;
	uint32_t h = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h = (h << 4) + *p;
		h ^= (h >> 24) & 0xf0;
		h &= 0x0fffffff;
	}
	if (!t[0])
		return 0;
	for (uint32_t i = t[2 + h % t[0]], n = 0; i && i < t[1] && n < t[1]; i = t[2 + t[0] + i], n++) {
		uintptr_t a = func(d, i, name);
		if (a)
			return a;
	}
	return 0;
}

const uint32_t *__ss_dso_gnu_hash(const struct dyn *dyn, uintptr_t bias)
{
	struct ss_dso d = { .bias = bias };

	for (; dyn && dyn->tag != DT_NULL; dyn++)
		if (dyn->tag == DT_GNU_HASH)
			return at(&d, dyn->val);
	return 0;
}

int __ss_dso_may_define(const uint32_t *g, const char *name)
{
	uint32_t h = gnu_hash(name), nbloom, shift;

	if (!g || !(nbloom = g[2]))
		return 1;	/* no Bloom filter to ask: perhaps */
	shift = g[3];
	uint64_t w = ((const uint64_t *)(g + 4))[(h / 64) & (nbloom - 1)];
	return (w >> (h % 64)) & (w >> ((h >> shift) % 64)) & 1;
}

uintptr_t __ss_dso_func(const struct ss_dso *d, const char *name)
{
	return d->gnu ? gnu_find(d, name) : sysv_find(d, name);
}
