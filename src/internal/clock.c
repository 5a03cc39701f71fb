#include "clock.h"
#include "elf.h"
#include "env.h"
#include "sysshim.h"

/* A monotonic clock for the cost measurements (docs/eventfd.md, "How the batch
 * decides"): the vDSO's clock_gettime when it can be found, else the raw syscall.
 * The library calls no libc function, so getauxval() is out; environ's strings are
 * followed by the auxiliary vector only until a setenv() moves them, and the library
 * cannot tell, so the vector is read from /proc/self/auxv (three syscalls, once per
 * process). Lock-free: racing first callers all resolve the same address. */

#if defined(__aarch64__)
#define VDSO_CLOCK "__kernel_clock_gettime"
#else
#define VDSO_CLOCK "__vdso_clock_gettime"
#endif

struct ss_timespec {
	long tv_sec, tv_nsec;
};

typedef int (*vdso_clock_fn)(int, struct ss_timespec *);

/* 0 not looked up, 1 the syscall, else the vDSO function. */
static uintptr_t clock_fn;
static unsigned clock_cost;	/* ns per read, 0 = not measured yet */
static unsigned char clock_coarse;	/* 1: the clock's smallest step is over COARSE_NS */
#define COARSE_NS	500000

static uintptr_t vdso_base(void)
{
	uint64_t aux[64];
	long fd = __syscall(SYS_openat, AT_FDCWD, "/proc/self/auxv", O_RDONLY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return 0;
	n = __syscall(SYS_read, fd, aux, sizeof aux);
	__syscall(SYS_close, fd);
	for (long i = 0; i + 1 < n / 8 && aux[i] != AT_NULL; i += 2)
		if (aux[i] == AT_SYSINFO_EHDR)
			return aux[i + 1];
	return 0;
}

/* The number of symbols a DT_GNU_HASH table covers: past the highest bucket's
 * start, to the end of that chain (the entry with the low bit set). */
static uint32_t gnu_hash_count(const uint32_t *gh)
{
	uint32_t nbuckets = gh[0], symoffset = gh[1], bloom = gh[2], max = 0;
	const uint32_t *buckets = gh + 4 + 2 * bloom;	/* 64-bit bloom words */
	const uint32_t *chain = buckets + nbuckets;

	for (uint32_t i = 0; i < nbuckets; i++)
		if (buckets[i] > max)
			max = buckets[i];
	if (max < symoffset)
		return symoffset;
	while (!(chain[max - symoffset] & 1))
		max++;
	return max + 1;
}

/* The vDSO is a complete ELF image in memory: its dynamic section names the symbol
 * table, and DT_HASH's nchain is the number of symbols; kernels whose vDSO has only
 * DT_GNU_HASH (arm64 since Linux 6.11 dropped --hash-style=sysv) give it through
 * that table's chains. */
static uintptr_t vdso_sym(uintptr_t base, const char *name)
{
	const struct ehdr *eh = (const void *)base;
	const struct phdr *ph;
	const struct dyn *dy = 0;
	const struct sym *syms = 0;
	const uint32_t *hash = 0, *gnu = 0;
	uint32_t nsym;
	const char *strs = 0;
	uintptr_t bias = 0;
	int have_load = 0;

	if (!base || eh->ident[0] != 0x7f || eh->ident[1] != 'E' || eh->ident[2] != 'L' ||
	    eh->ident[3] != 'F' || eh->ident[4] != 2 || eh->phentsize != sizeof *ph)
		return 0;
	ph = (const void *)(base + eh->phoff);
	for (unsigned i = 0; i < eh->phnum; i++) {
		if (ph[i].type == PT_LOAD && !have_load) {
			bias = base + ph[i].offset - ph[i].vaddr;
			have_load = 1;
		} else if (ph[i].type == PT_DYNAMIC) {
			dy = (const void *)(base + ph[i].offset);
		}
	}
	if (!dy || !have_load)
		return 0;
	for (; dy->tag != DT_NULL; dy++) {
		if (dy->tag == DT_SYMTAB)
			syms = (const void *)(bias + dy->val);
		else if (dy->tag == DT_STRTAB)
			strs = (const void *)(bias + dy->val);
		else if (dy->tag == DT_HASH)
			hash = (const void *)(bias + dy->val);
		else if (dy->tag == DT_GNU_HASH)
			gnu = (const void *)(bias + dy->val);
	}
	if (!syms || !strs || (!hash && !gnu))
		return 0;
	nsym = hash ? hash[1] : gnu_hash_count(gnu);
	for (uint32_t i = 0; i < nsym; i++)
		if ((syms[i].info & 0xf) == STT_FUNC && syms[i].shndx && syms[i].value &&
		    __ss_streq(strs + syms[i].name, name))
			return bias + syms[i].value;
	return 0;
}

static uint64_t read_clock(uintptr_t f)
{
	struct ss_timespec ts = { 0, 0 };

	if (f > 1 && !((vdso_clock_fn)f)(CLOCK_MONOTONIC, &ts))
		return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
	__syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static uintptr_t resolve(void)
{
	uintptr_t f = __atomic_load_n(&clock_fn, __ATOMIC_ACQUIRE);
	uint64_t a, b, best = ~0ULL;

	if (likely(f))
		return f;
	f = vdso_sym(vdso_base(), VDSO_CLOCK);
	if (!f || __ss_env_off("SYSSHIM_VDSO"))
		f = 1;
	/* The cost of one read, the smallest of a few back-to-back pairs (the first
	 * also takes the vDSO data page's first touch). */
	for (int i = 0; i < 5; i++) {
		a = read_clock(f);
		b = read_clock(f);
		if (b - a < best)
			best = b - a;
	}
	/* A clock that ticks by jiffies (a kernel with no fine clocksource, as a
	 * tinyconfig kernel under qemu) reads the same across many syscalls and then
	 * jumps by a millisecond or more: it cannot time a flush, so nothing is timed.
	 * A fine clock moves within a syscall or two, however slow the syscall is
	 * (valgrind, an emulator): its smallest step of three stays well under that. */
	uint64_t step = ~0ULL;
	for (int k = 0; k < 3; k++) {
		a = read_clock(f);
		b = a;
		for (int i = 0; i < 64 && b == a; i++) {
			__syscall(SYS_getppid);
			b = read_clock(f);
		}
		if (b - a < step)
			step = b - a;
	}
	if (!step || step > COARSE_NS)
		__atomic_store_n(&clock_coarse, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&clock_cost, best ? (unsigned)best : 1, __ATOMIC_RELAXED);
	__atomic_store_n(&clock_fn, f, __ATOMIC_RELEASE);
	return f;
}

uint64_t __ss_now_ns(void)
{
	return read_clock(resolve());
}

/* SYSSHIM_CLOCK_VDSO, SYSSHIM_CLOCK_SYSCALL or SYSSHIM_CLOCK_COARSE, and the ns one
 * read costs. */
int __ss_clock_source(unsigned *cost)
{
	uintptr_t f = resolve();

	if (cost)
		*cost = __atomic_load_n(&clock_cost, __ATOMIC_RELAXED);
	if (__atomic_load_n(&clock_coarse, __ATOMIC_RELAXED))
		return SYSSHIM_CLOCK_COARSE;
	return f > 1 ? SYSSHIM_CLOCK_VDSO : SYSSHIM_CLOCK_SYSCALL;
}

/* The ns one clock read costs (the path guard takes it out of its timings). */
unsigned __ss_clock_cost(void)
{
	resolve();
	return __atomic_load_n(&clock_cost, __ATOMIC_RELAXED);
}
