#include "clock.h"
#include "dso.h"
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

/* The vDSO is a complete ELF image in memory: its program headers give the load bias
 * and the dynamic section, which names the symbol and hash tables (DT_HASH, or only
 * DT_GNU_HASH where the kernel links it so, as arm64 does since Linux 6.11). */
static uintptr_t vdso_sym(uintptr_t base, const char *name)
{
	const struct ehdr *eh = (const void *)base;
	const struct phdr *ph;
	const struct dyn *dy = 0;
	struct ss_dso d;
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
	if (!have_load || __ss_dso_open(&d, dy, bias))
		return 0;
	return __ss_dso_func(&d, name);
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
