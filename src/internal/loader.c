#include "loader.h"
#include "dso.h"
#include "env.h"
#include "glibc_arch.h"
#include "seccomp.h"

/* Weak: a static program has neither (then nothing is found). */
extern struct ss_r_debug _r_debug __attribute__((__weak__));
extern const struct dyn _DYNAMIC[] __attribute__((__weak__));

/* Fixed-width rows, not pointers: a table of pointers would cost a relocation each at
 * every load of the library. */
static const char fn_names[SS_FN_COUNT][16] = {
	"fstat", "fstat64", "__fxstat", "__fxstat64",
	"fstatat", "fstatat64", "__fxstatat", "__fxstatat64",
	"stat", "stat64", "__xstat", "__xstat64",
	"lstat", "lstat64", "__lxstat", "__lxstat64",
	"statx", "prctl", "syscall",
};

static uintptr_t next_fn[SS_FN_COUNT], libc_fn[SS_FN_COUNT];
static const struct ss_link *next_obj[SS_FN_COUNT];
uint64_t __ss_loader_names;
/* The C library's entry in the loader's list (or LIBC_NONE), and its version. */
static const struct ss_link *libc_obj;
/* Its symbol table, read when a definition of it is first asked for (libc_symbols()). */
static struct ss_dso libc_dso;
static unsigned libc_dso_state;	/* 0, 1 claimed by the one who writes it, 2 written */
/* The objects between the library's own and the C library, with their hash tables, as
 * the first walk found them (written before libc_obj is published): the look-ups of each
 * call's name ask them again. */
#define KEPT	8
struct kept_object {
	const struct ss_link *link;
	const uint32_t *gnu;
};
static struct kept_object kept[KEPT];
static unsigned n_kept, kept_claimed;	/* one walker writes them, then publishes n_kept */

static unsigned glibc_version;
#define LIBC_NONE	((const struct ss_link *)1)

const char *__ss_fn_name(int fn)
{
	return fn >= 0 && fn < SS_FN_COUNT ? fn_names[fn] : "?";
}

struct ss_link *__ss_loader_self(void)
{
	if (!&_r_debug || !_DYNAMIC)
		return 0;
	for (struct ss_link *l = _r_debug.map; l; l = l->next)
		if (l->ld == _DYNAMIC)
			return l;
	return 0;
}

/* The C library is the object that defines errno's accessor (glibc's and musl's
 * libc.so both do; no interposer does). */
static int is_libc(const struct ss_dso *d)
{
	return __ss_dso_func(d, "__errno_location") != 0;
}

/* Whether L's file is named as glibc's C library (libc.so.6 on every arch here): where
 * its Bloom filter says errno's accessor may be defined, that settles it without
 * reading the symbol table. */
static int named_libc(const struct ss_link *l)
{
	size_t n = l->name ? __ss_strlen(l->name) : 0;

	return n >= 9 && __ss_streq(l->name + n - 9, "libc.so.6") && (n == 9 || l->name[n - 10] == '/');
}

/* "2.36" -> 236. */
static unsigned version_of(const char *v)
{
	unsigned major = 0, minor = 0;

	for (; *v >= '0' && *v <= '9'; v++)
		major = major * 10 + (unsigned)(*v - '0');
	if (*v++ != '.')
		return 0;
	for (; *v >= '0' && *v <= '9'; v++)
		minor = minor * 10 + (unsigned)(*v - '0');
	return major * 100 + minor;
}

/* The C library's entry: after the library's own in the loader's order, or before it (a
 * library opened with dlopen comes after the C library). Looked for once: racing first
 * callers find the same entry. */
static const struct ss_link *libc_entry(void)
{
	const struct ss_link *c = __atomic_load_n(&libc_obj, __ATOMIC_ACQUIRE), *me, *l;
	struct kept_object mine[KEPT];
	struct ss_dso d;
	unsigned n = 0;

	if (likely(c))
		return c == LIBC_NONE ? 0 : c;
	me = __ss_loader_self();
	c = LIBC_NONE;
	/* After the library's own, the object that defines errno's accessor (each asked its
	 * Bloom filter first, then its name or its symbol table); else one before it (dlopen). */
	for (l = me ? me->next : 0; l && c == LIBC_NONE; l = l->next) {
		const uint32_t *g = __ss_dso_gnu_hash(l->ld, l->addr);
		if (__ss_dso_may_define(g, "__errno_location") &&
		    (named_libc(l) || (!__ss_dso_open(&d, l->ld, l->addr) && is_libc(&d))))
			c = l;
		else if (n < KEPT)
			mine[n].link = l, mine[n++].gnu = g;
	}
	/* Racing first walkers find the same objects: the first to claim the table fills it. */
	if (!__atomic_exchange_n(&kept_claimed, 1, __ATOMIC_ACQUIRE)) {
		for (unsigned i = 0; i < n; i++)
			kept[i] = mine[i];
		__atomic_store_n(&n_kept, n, __ATOMIC_RELEASE);
	}
	for (l = me ? me->prev : 0; l && c == LIBC_NONE; l = l->prev)
		if (!__ss_dso_open(&d, l->ld, l->addr) && is_libc(&d))
			c = l;
	__atomic_store_n(&libc_obj, c, __ATOMIC_RELEASE);
	return c == LIBC_NONE ? 0 : c;
}

/* The C library's symbol table, or 0 where there is none: read once into libc_dso by the
 * first caller to claim it; a caller racing it reads its own into *MINE. */
static const struct ss_dso *libc_symbols(struct ss_dso *mine)
{
	const struct ss_link *c;

	if (likely(__atomic_load_n(&libc_dso_state, __ATOMIC_ACQUIRE) == 2))
		return &libc_dso;
	if (!(c = libc_entry()) || __ss_dso_open(mine, c->ld, c->addr))
		return 0;
	if (!__atomic_exchange_n(&libc_dso_state, 1, __ATOMIC_ACQUIRE)) {
		libc_dso = *mine;
		__atomic_store_n(&libc_dso_state, 2, __ATOMIC_RELEASE);
	}
	return mine;
}

/* The objects after the library's own, up to the C library, asked for FN's name alone:
 * the first that defines it holds its next definition. */
uint64_t __ss_loader_find(int fn)
{
	uint64_t w = __atomic_load_n(&__ss_loader_names, __ATOMIC_ACQUIRE);
	const struct ss_link *me, *libc, *l;
	struct ss_dso d;
	uintptr_t a = 0;
	unsigned i = 0;

	if (likely(w & SS_LD_LOOKED(fn)))
		return w;
	me = __ss_loader_self();
	libc = libc_entry();
	/* The objects before the C library, each asked its Bloom filter first: most define
	 * none of these names. The C library's own definition is looked up when it is asked
	 * for (__ss_loader_libc): a path call that goes its direct way never asks. */
	for (l = me ? me->next : 0; l && l != libc; l = l->next, i++) {
		const uint32_t *g = i < __atomic_load_n(&n_kept, __ATOMIC_ACQUIRE) && kept[i].link == l ?
					    kept[i].gnu : __ss_dso_gnu_hash(l->ld, l->addr);
		if (__ss_dso_may_define(g, fn_names[fn]) && !__ss_dso_open(&d, l->ld, l->addr) &&
		    (a = __ss_dso_func(&d, fn_names[fn])))
			break;
	}
	if (a) {
		__atomic_store_n(&next_fn[fn], a, __ATOMIC_RELAXED);
		__atomic_store_n(&next_obj[fn], l, __ATOMIC_RELAXED);
	}
	/* The release publishes the stores above to whoever sees the bit. */
	return __atomic_or_fetch(&__ss_loader_names, SS_LD_LOOKED(fn) | (a ? SS_LD_OTHER(fn) : 0),
				 __ATOMIC_ACQ_REL);
}

/* The C library's definition of FN, looked up once (0: none, or no C library). */
static uintptr_t libc_def(int fn)
{
	uintptr_t a = __atomic_load_n(&libc_fn[fn], __ATOMIC_RELAXED);
	const struct ss_dso *d;
	struct ss_dso mine;

	if (likely(a))
		return a == 1 ? 0 : a;
	a = (d = libc_symbols(&mine)) ? __ss_dso_func(d, fn_names[fn]) : 0;
	__atomic_store_n(&libc_fn[fn], a ? a : 1, __ATOMIC_RELAXED);
	return a;
}

unsigned __ss_loader_scan(void)
{
	unsigned s = SS_LD_DONE | (libc_entry() ? SS_LD_LIBC : 0);

	for (int fn = 0; fn < SS_FN_COUNT; fn++)
		if (__ss_loader_find(fn) & SS_LD_OTHER(fn))
			s |= SS_FN_BIT(fn);
	return s;
}

ss_fn __ss_loader_next(int fn)
{
	if (__ss_loader_find(fn) & SS_LD_OTHER(fn))
		return (ss_fn)__atomic_load_n(&next_fn[fn], __ATOMIC_RELAXED);
	/* After the library's own, the C library's; a library opened with dlopen has
	 * none after it (the C library comes before). */
	const struct ss_link *me = __ss_loader_self(), *libc = libc_entry(), *l;
	for (l = me ? me->next : 0; l && l != libc; l = l->next)
		;
	return l ? (ss_fn)libc_def(fn) : 0;
}

ss_fn __ss_loader_libc(int fn)
{
	return (ss_fn)libc_def(fn);
}

const char *__ss_loader_next_file(int fn)
{
	const struct ss_link *l;

	if (__ss_loader_find(fn) & SS_LD_OTHER(fn))
		l = __atomic_load_n(&next_obj[fn], __ATOMIC_RELAXED);
	else
		l = __ss_loader_next(fn) ? libc_entry() : 0;
	return l ? l->name : 0;
}

unsigned __ss_loader_glibc(void)
{
	unsigned v = __atomic_load_n(&glibc_version, __ATOMIC_RELAXED);
	const struct ss_dso *d;
	struct ss_dso mine;
	uintptr_t f;

	/* Asked the first time it is needed (a legacy name's first call, a refused statx
	 * under a filter the library cannot read): 1 where the C library is not glibc. */
	if (likely(v))
		return v == 1 ? 0 : v;
	v = (d = libc_symbols(&mine)) && (f = __ss_dso_func(d, "gnu_get_libc_version")) ?
		    version_of(((const char *(*)(void))f)()) : 0;
	__atomic_store_n(&glibc_version, v ? v : 1, __ATOMIC_RELAXED);
	return v;
}

unsigned __ss_loader_made(void)
{
	unsigned v = __ss_loader_glibc();
	return v ? ARCH_GLIBC_FSTAT_KIND(v) : 0;
}
