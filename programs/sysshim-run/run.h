#ifndef SYSSHIM_RUN_H
#define SYSSHIM_RUN_H

/* What sysshim-run's parts share (main.c says which part does what). Numbers are fixed
 * point, never floating: times in tenths of a ns, ratios in hundredths. */

#include "kabi.h"
#include "rt.h"
#include "seccomp.h"

#ifndef SYSSHIM_LIBDIR
#define SYSSHIM_LIBDIR "/usr/local/lib"
#endif
#ifndef SYSSHIM_SONAME
#define SYSSHIM_SONAME "libsysshim.so.0"
#endif
#ifndef SYSSHIM_VERSION
#define SYSSHIM_VERSION "0"
#endif

#define O_NOCTTY	0400
#define NO_FD		0x7fffffff	/* an fd nobody has open: the library's probe's */
#define PATH_MAX	4096

/* main.c: one line on stderr, "sysshim-run: " A B C (B and C may be 0). */
void say(const char *a, const char *b, const char *c);

/* main.c: a seccomp filter is in force (or there is no /proc to tell): sysshim-run makes
 * none but the calls the command's own dynamic loader makes (openat, read, pread64,
 * close, newfstatat, execve; write for what it says), so none that the filter could
 * kill where the command would live (man/sysshim-run.1, SANDBOXES). */
hidden extern int careful;
/* The path sysshim-run was started by (the auxiliary vector's AT_EXECFN), or 0. */
hidden extern const char *exec_fn;

/* The text of errno value E, for a file that cannot be run or read. */
static inline const char *error_text(long e)
{
	return __ss_error_text((int)e, "cannot be run");
}

static inline long sys_fstat(int fd, struct stat *st)
{
	return __syscall(SYS_fstat, fd, st);
}

/* ---- decide.c: whether to preload where the command allows it */
struct decision {
	int preload;
	struct ss_out why;	/* the reason, said under -v */
};

/* The decision for MODE "always" or "auto" (SYSSHIM_RUN's values; "never" needs none),
 * with what ENVP says (the test hook, the cache file, the threshold, SYSSHIM_SECCOMP). */
void decide(struct decision *d, const char *mode, char **envp);
/* fstat(fd) and newfstatat(fd, "", AT_EMPTY_PATH) timed now, per call: 0; 1 when the
 * clock does not move over a round of calls; -errno when "/" cannot be opened. */
long measure(uint64_t *fstat_ns, uint64_t *empty_ns);

/* How many times fstat's cost EMPTY costs, in hundredths (rounded). */
static inline uint64_t cost_ratio(uint64_t fstat_ns, uint64_t empty_ns)
{
	return (empty_ns * 100 + fstat_ns / 2) / fstat_ns;
}

/* ---- inspect.c: what the command is */
/* Up to K_OTHER the library is preloaded as decided; from K_STATIC on the command runs
 * untouched. */
enum kind {
	K_DYNAMIC,	/* an ELF program of this machine with an interpreter (ld.so) */
	K_SCRIPT,	/* #!: as before (what it runs inherits LD_PRELOAD) */
	K_OTHER,	/* no ELF, no #! (execvp's /bin/sh runs it), or not readable: as before */
	K_STATIC,	/* no PT_INTERP: no loader runs */
	K_GO,		/* a Go build-ID note: Go makes its own syscalls */
	K_FOREIGN,	/* another class, byte order or machine: its loader refuses the library */
	K_SETID,	/* set-user-ID or set-group-ID: the loader's secure mode ignores it */
	K_FIRST,	/* linked against a runtime that must come first (AddressSanitizer's) */
	K_BAD,		/* an ELF the kernel will not run */
};

/* What the file PATH is (enum kind), said in O (which may be 0); -errno where it cannot
 * be opened for a reason execve would fail with too (ENOENT, ENOTDIR). *ELF: whether
 * it starts as an ELF file. VERBOSE: a script's interpreter is looked at too. */
int inspect(const char *path, struct ss_out *o, int verbose, int *elf);
/* Whether PATH starts as an ELF file (asked only after execve said ENOEXEC). */
int starts_elf(const char *path);

/* ---- lib.c: which library file */
/* The library's absolute path into LIB: 0, or -1 where it is missing (said on stderr
 * where LOUD). SELF: sysshim-run's argv[0], for its directory where /proc is not
 * mounted. */
int find_library(struct ss_out *lib, const char *self, char **envp, int loud);

/* ---- exec.c: running the command */
/* What running the command needs, built once (main.c). */
struct job {
	char **argv;		/* COMMAND [ARGS...] */
	char **envp;		/* sysshim-run's own environment */
	const char *self;	/* sysshim-run's argv[0] */
	int verbose;
	struct decision d;	/* preload 0 under --never */
	struct ss_out lib;	/* the library's path: empty until looked for */
};

/* The command run as execvp(3) runs it, preloaded where J decided and the command
 * allows: returns only where it could not be run, with the exit status to give. */
int run(struct job *j);

#endif
