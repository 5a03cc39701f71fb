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

/* DT_GNU_HASH: the bucket of the name's hash, then its chain, whose entries carry the
 * hash with the low bit marking the chain's end. The Bloom filter is not consulted:
 * it only saves a miss a few compares. */
static uintptr_t gnu_find(const struct ss_dso *d, const char *name)
{
	const uint32_t *g = d->gnu;
	uint32_t nbuckets = g[0], symoffset = g[1], h = 5381;
	const uint32_t *buckets = g + 4 + 2 * g[2];	/* 64-bit Bloom words */
	const uint32_t *chain = buckets + nbuckets;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = h * 33 + *p;
	if (!nbuckets)
		return 0;
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

uintptr_t __ss_dso_func(const struct ss_dso *d, const char *name)
{
	return d->gnu ? gnu_find(d, name) : sysv_find(d, name);
}
