#ifndef SYSSHIM_EXEC_H
#define SYSSHIM_EXEC_H

/* The exec family and posix_spawn (src/exec/): a process the library is in hands its
 * LD_PRELOAD on to every program it starts, and the library in it to programs whose
 * loader cannot load it (another C library's, another ELF class or machine), that it
 * would not serve (a sanitizer's runtime must come first), or in a root where the path
 * names no such file (chroot, pivot_root, a mount namespace): the loader there prints
 * "cannot be preloaded" on stderr. Before the call goes on, the program is looked at
 * and the library's own entry left out of its LD_PRELOAD where it would not load or
 * serve (man/sysshim.7, "Where the library is not loaded").
 *
 * Async-signal-safe where the call is (execve, execv, execl, execle, fexecve,
 * execveat): no locks, no allocation, raw system calls; the new environment is built
 * on the caller's stack (SS_EXEC_ENV). Only in the shared library: libsysshim.a's code
 * sits inside a program that is not preloaded. */

#include "kabi.h"
#include "elf.h"
#include "elf_arch.h"

#ifndef SYS_execveat
#ifdef __x86_64__
#define SYS_execveat	322
#else
#define SYS_execveat	281	/* asm-generic: aarch64, loongarch64 */
#endif
#endif
#define O_NOCTTY	0400
#define S_IFDIR		0040000
#define O_PATH		010000000

/* ---- the next definitions (next.c) */
enum {
	SS_EX_EXECVE, SS_EX_EXECV, SS_EX_EXECVP, SS_EX_EXECVPE, SS_EX_FEXECVE, SS_EX_EXECVEAT,
	SS_EX_SPAWN, SS_EX_SPAWNP,
	SS_EX_COUNT
};
typedef int ss_execve_fn(const char *, char *const *, char *const *);
typedef int ss_execv_fn(const char *, char *const *);
typedef int ss_fexecve_fn(int, char *const *, char *const *);
typedef int ss_execveat_fn(int, const char *, char *const *, char *const *, int);
typedef int ss_spawn_fn(int *, const char *, const void *, const void *, char *const *,
			char *const *);

/* The definition of call FN that the library's own passes over: the next object's in
 * the loader's order, up to the C library's; 0 where there is none (then the call is
 * made as the C library makes it). *LIBC: whether it is the C library's. Looked up once
 * (racing first callers find the same), lock-free. */
hidden void (*__ss_exec_next(int fn, int *libc))(void);

/* What the library knows of itself: the name the loader loaded it by (l_name), the
 * stem of its soname ("libsysshim.so"), and how many bytes of its first page stand for
 * the file (ELF header, program headers, build ID). */
struct ss_exec_self {
	const char *name;
	char stem[64];
	unsigned id_len;
};
hidden const struct ss_exec_self *__ss_exec_self(void);
/* The library's own first bytes, as mapped. */
hidden extern const unsigned char __ehdr_start[];

/* ---- the program an exec call is about to run (target.c) */
struct ss_target {
	int dirfd;		/* AT_FDCWD, execveat's dirfd, fexecve's fd */
	const char *path;	/* "" with AT_EMPTY_PATH: dirfd itself */
	int flags;		/* execveat's AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW */
	int regular;		/* a PATH search's stat found it a regular file: no stat again */
};

enum {
	SS_T_SERVES,		/* this system's glibc program, a static one, or cannot tell */
	SS_T_FOREIGN,		/* another ELF class, byte order or machine */
	SS_T_OTHER_LOADER,	/* a PT_INTERP that is not glibc's loader for this arch */
	SS_T_SANITIZER,		/* needs a sanitizer's runtime */
	SS_T_ABSENT,		/* no such file, or not a regular one: the call fails whatever
				 * the environment holds */
};
/* What T is (a #! script: what its interpreter is, one level). CAREFUL: under a
 * seccomp filter the library cannot read, or a tracer, with the calls the dynamic
 * loader made alone (openat, pread64, close). */
hidden int __ss_exec_target(const struct ss_target *t, int careful);

/* ---- the environment (preload.c) */
/* What the new environment takes, counted before it is built on the caller's stack. */
struct ss_exec_room {
	unsigned ptrs;		/* envp's entries and its 0 */
	unsigned chars;		/* "LD_PRELOAD=..." and its 0 */
	unsigned earlier;	/* LD_PRELOAD entries before the loader's */
	char *const *at;	/* the LD_PRELOAD entry the loader reads: the last */
};
/* Whether ENVP's LD_PRELOAD names the library (by name: no syscall) and the new
 * environment fits the bounds: then *R is filled. */
hidden int __ss_exec_room(char *const *envp, struct ss_exec_room *r);
/* ENVP as the program T is to get it: ENVP itself, or built in SLOTS and TEXT (sized
 * by R) without the library's entry where T would not load it or it would not serve. */
hidden char *const *__ss_exec_env(const struct ss_target *t, char *const *envp,
				  const struct ss_exec_room *r, char **slots, char *text);
/* *T: the file an execvp-like call runs for FILE (the PATH search, as glibc's), built in
 * BUF (SS_PATH_MAX); FILE itself where it holds a '/' or nothing is found. Returns 1
 * where glibc's search, which runs execve on each candidate in turn, passes over every
 * one before it (each missing, a directory, or a file without an execute bit: ENOENT,
 * ENOTDIR, EACCES) and so tries that file next; else 0. */
#define SS_PATH_MAX	4096
hidden int __ss_exec_search(const char *file, char *buf, struct ss_target *t);

/* OUT: ENVP, or the new environment on this stack frame, for the target T (a
 * struct ss_target *). */
#define SS_EXEC_ENV(out, t, envp)                                                        \
	struct ss_exec_room out##_r;                                                     \
	int out##_has = __ss_exec_room((envp), &out##_r);                                \
	char *out##_slots[out##_has ? out##_r.ptrs : 1];                                 \
	char out##_text[out##_has ? out##_r.chars : 1];                                  \
	char *const *out = out##_has ? __ss_exec_env((t), (envp), &out##_r, out##_slots, \
						     out##_text)                         \
				     : (envp)

extern char **environ;

/* execve as the library makes it: the next definition where it is another
 * interposer's, else the system call (all glibc's execve is). */
hidden int __ss_execve(const char *path, char *const *argv, char *const *envp);
hidden int __ss_execv(const char *path, char *const *argv);
hidden int __ss_execvpe(const char *file, char *const *argv, char *const *envp, int fn);

/* Copies and compares of N bytes, made here, eight at a time: the library calls no
 * function of the C library's (the empty asm keeps the compiler from making the loops
 * memcpy and memcmp; an eight-byte __builtin_memcpy is one load or store). */
static inline void __ss_exec_copy(void *d, const void *s, size_t n)
{
	unsigned char *o = d;
	const unsigned char *i = s;
	for (; n >= 8; n -= 8, o += 8, i += 8) {
		__builtin_memcpy(o, i, 8);
		__asm__("" ::: "memory");
	}
	for (; n; n--) {
		*o++ = *i++;
		__asm__("" ::: "memory");
	}
}

static inline int __ss_exec_same(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (; n >= 8; n -= 8, x += 8, y += 8) {
		uint64_t u, v;
		__builtin_memcpy(&u, x, 8);
		__builtin_memcpy(&v, y, 8);
		if (u != v)
			return 0;
		__asm__("" ::: "memory");
	}
	for (; n; n--, x++, y++) {
		if (*x != *y)
			return 0;
		__asm__("" ::: "memory");
	}
	return 1;
}

#endif
