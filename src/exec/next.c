#include "exec.h"
#include "dso.h"
#include "rt.h"

/* The loader's list of objects (<link.h>'s struct r_debug and the head of struct
 * link_map, fixed by the ABI): read here rather than through loader.h, for the exec
 * calls alone. Weak: a static program has neither. */
struct link {
	uintptr_t addr;
	char *name;
	const struct dyn *ld;
	struct link *next, *prev;
};
struct r_debug_head {
	int version;
	struct link *map;
};
extern struct r_debug_head _r_debug __attribute__((__weak__));
extern const struct dyn _DYNAMIC[] __attribute__((__weak__));

#define DT_SONAME	14

/* Fixed-width rows, not pointers: no relocation at load (loader.c says why). */
static const char names[SS_EX_COUNT][16] = {
	"execve", "execv", "execvp", "execvpe", "fexecve", "execveat", "posix_spawn", "posix_spawnp",
};

static uintptr_t next[SS_EX_COUNT];
static unsigned next_libc;	/* bit FN: next[FN] is the C library's */
static unsigned scanned;	/* 1 once next[] is filled */
static struct ss_exec_self self;
static unsigned self_done;

static const struct link *me(void)
{
	if (!&_r_debug || !_DYNAMIC)
		return 0;
	for (const struct link *l = _r_debug.map; l; l = l->next)
		if (l->ld == _DYNAMIC)
			return l;
	return 0;
}

/* The objects after the library's own, up to and including the C library (the object
 * that defines errno's accessor): each call's first definition there. */
static void scan(void)
{
	const struct link *l = me();
	struct ss_dso d;
	unsigned found = 0, libc = 0;

	for (l = l ? l->next : 0; l; l = l->next) {
		if (__ss_dso_open(&d, l->ld, l->addr))
			continue;
		int is_libc = __ss_dso_func(&d, "__errno_location") != 0;
		for (int fn = 0; fn < SS_EX_COUNT; fn++) {
			uintptr_t a = found & (1U << fn) ? 0 : __ss_dso_func(&d, names[fn]);
			if (!a)
				continue;
			found |= 1U << fn;
			libc |= is_libc ? 1U << fn : 0;
			__atomic_store_n(&next[fn], a, __ATOMIC_RELAXED);
		}
		if (is_libc)
			break;
	}
	__atomic_store_n(&next_libc, libc, __ATOMIC_RELAXED);
	__atomic_store_n(&scanned, 1, __ATOMIC_RELEASE);
}

void (*__ss_exec_next(int fn, int *libc))(void)
{
	if (!__atomic_load_n(&scanned, __ATOMIC_ACQUIRE))
		scan();
	*libc = !!(__atomic_load_n(&next_libc, __ATOMIC_RELAXED) & (1U << fn));
	return (void (*)(void))__atomic_load_n(&next[fn], __ATOMIC_RELAXED);
}

/* How many of the first bytes stand for the file: those of the first PT_LOAD (file
 * offset 0, never relocated: the ELF header, the program headers, the build-ID note
 * the linker puts next, the start of the symbol table), at most 1 KB. */
static unsigned id_len(void)
{
	const struct ehdr *eh = (const struct ehdr *)__ehdr_start;
	const unsigned char *ph = __ehdr_start + eh->phoff;

	for (unsigned i = 0; i < eh->phnum; i++) {
		struct phdr p;
		__ss_exec_copy(&p, ph + (size_t)i * sizeof p, sizeof p);
		if (p.type == PT_LOAD)
			return p.offset ? 0 : p.filesz < 1024 ? (unsigned)p.filesz : 1024;
	}
	return 0;
}

/* The soname up to its ".so": "libsysshim.so". */
static void stem(char *out, size_t size, uintptr_t bias)
{
	uint64_t str = 0, soname = 0;
	int has = 0;

	out[0] = 0;
	if (!_DYNAMIC)
		return;
	for (const struct dyn *d = _DYNAMIC; d->tag != DT_NULL; d++) {
		if (d->tag == DT_STRTAB)
			str = d->val;
		else if (d->tag == DT_SONAME)
			soname = d->val, has = 1;
	}
	if (!str || !has)
		return;
	/* glibc's loader adds the bias to DT_STRTAB in place, musl's does not (dso.c). */
	const char *so = (const char *)(uintptr_t)(str < bias ? str + bias : str) + soname;
	for (size_t i = 0; so[i] && i + 1 < size; i++) {
		out[i] = so[i];
		out[i + 1] = 0;
		if (i >= 2 && so[i - 2] == '.' && so[i - 1] == 's' && so[i] == 'o' &&
		    (so[i + 1] == '.' || !so[i + 1]))
			return;
	}
}

const struct ss_exec_self *__ss_exec_self(void)
{
	if (__atomic_load_n(&self_done, __ATOMIC_ACQUIRE))
		return &self;
	const struct link *l = me();
	struct ss_exec_self s = { .name = l && l->name ? l->name : "", .id_len = id_len() };
	stem(s.stem, sizeof s.stem, l ? l->addr : 0);
	/* Racing first callers write the same bytes. */
	__ss_exec_copy(&self, &s, sizeof s);
	__atomic_store_n(&self_done, 1, __ATOMIC_RELEASE);
	return &self;
}
