#ifndef SYSSHIM_LOADER_H
#define SYSSHIM_LOADER_H

/* What else the dynamic loader has loaded into the process (loader.c): for each call
 * the library answers under the C library's name, the next definition after the
 * library's own in the loader's order (the one a program would reach without it):
 * another interposer's (fakeroot, a sanitizer's interceptor) or the C library's.
 * Read from the loader's list of objects, one call's name at a time, the first time the
 * call is made: lock-free and async-signal-safe. A
 * static program has no such list: nothing is found there. */

#include "kabi.h"
#include "elf.h"

/* The calls, one bit each in __ss_loader_scan()'s answer. */
enum {
	SS_FN_FSTAT, SS_FN_FSTAT64, SS_FN_FXSTAT, SS_FN_FXSTAT64,
	SS_FN_FSTATAT, SS_FN_FSTATAT64, SS_FN_FXSTATAT, SS_FN_FXSTATAT64,
	SS_FN_STAT, SS_FN_STAT64, SS_FN_XSTAT, SS_FN_XSTAT64,
	SS_FN_LSTAT, SS_FN_LSTAT64, SS_FN_LXSTAT, SS_FN_LXSTAT64,
	SS_FN_STATX, SS_FN_PRCTL, SS_FN_SYSCALL,
	SS_FN_COUNT
};

#define SS_FN_BIT(fn)		(1U << (fn))
/* The groups the state word keeps a bit for (probe.h). */
#define SS_FNS_FD		0x0000fU	/* fstat, fstat64, __fxstat, __fxstat64 */
#define SS_FNS_PATH		0x0fff0U	/* the fstatat, stat and lstat families */
#define SS_FNS_STATX		0x10000U
/* In __ss_loader_scan()'s answer: the C library was found (its definitions can be
 * called), and every call is looked up. */
#define SS_LD_LIBC		0x40000000U
#define SS_LD_DONE		0x80000000U

typedef void (*ss_fn)(void);

/* The dynamic loader's list of loaded objects, as the debugger interface publishes it
 * (<link.h>'s struct r_debug and the public head of struct link_map: the ABI fixes
 * these fields and their order). The list of the objects loaded at start-up is built
 * before any code of theirs runs and never changes after, so it is read without a
 * lock; objects loaded later are appended behind the C library, where no call the
 * program makes reaches. */
struct ss_link {
	uintptr_t addr;			/* l_addr: the load bias */
	char *name;			/* l_name */
	const struct dyn *ld;		/* l_ld: the dynamic section */
	struct ss_link *next, *prev;
};

struct ss_r_debug {
	int version;
	struct ss_link *map;
};

/* The library's own entry in the list: the object whose dynamic section is the
 * library's (libsysshim.so), or the program's where libsysshim.a is linked into a
 * dynamic program; 0 in a static program. Lock-free, and callable during relocation. */
hidden struct ss_link *__ss_loader_self(void);



/* The C library's signatures of the calls, to call a definition found for FN. */
typedef int ss_fstat_fn(int, struct stat *);
typedef int ss_fxstat_fn(int, int, struct stat *);
typedef int ss_fstatat_fn(int, const char *, struct stat *, int);
typedef int ss_fxstatat_fn(int, int, const char *, struct stat *, int);
typedef int ss_stat_fn(const char *, struct stat *);
typedef int ss_xstat_fn(int, const char *, struct stat *);
typedef int ss_statx_fn(int, const char *, int, unsigned, struct statx *);
typedef int ss_prctl_fn(int, unsigned long, unsigned long, unsigned long, unsigned long);
typedef long ss_syscall_fn(long, long, long, long, long, long, long);

/* Each call is looked up the first time it is made, by its own name alone
 * (__ss_loader_find): __ss_loader_names has SS_LD_LOOKED(fn) once it is, and
 * SS_LD_OTHER(fn) where its next definition is another object's than the C library's
 * (another interposer's). */
#define SS_LD_LOOKED(fn)	(1ULL << (fn))
#define SS_LD_OTHER(fn)		(1ULL << 32 << (fn))
hidden extern uint64_t __ss_loader_names;
/* The word above with FN looked up (once: one name asked of each object after the
 * library's, up to the C library). */
hidden uint64_t __ss_loader_find(int fn);

static inline uint64_t __ss_loader_of(int fn)
{
	uint64_t w = __atomic_load_n(&__ss_loader_names, __ATOMIC_ACQUIRE);
	return likely(w & SS_LD_LOOKED(fn)) ? w : __ss_loader_find(fn);
}

/* Every call looked up (the public report, sysshim_company()): the calls whose next
 * definition is not the C library's (SS_FN_BIT), | SS_LD_*. */
hidden unsigned __ss_loader_scan(void);

/* The next definition of call FN after the library's, or 0 (none: a static program). */
hidden ss_fn __ss_loader_next(int fn);
/* The C library's own definition of FN, or 0. */
hidden ss_fn __ss_loader_libc(int fn);
/* The file name of the object that holds FN's next definition, or 0. */
hidden const char *__ss_loader_next_file(int fn);
/* The C library's name of FN. */
hidden const char *__ss_fn_name(int fn);
/* glibc's version as 100 * major + minor (236 for 2.36), 0 where it is not glibc. */
hidden unsigned __ss_loader_glibc(void);
/* The kinds of syscall (seccomp.h) the dynamic loader is known to have made in this
 * process: the stat of every library it mapped, the C library's fstat() (glibc's). */
hidden unsigned __ss_loader_made(void);

#endif
