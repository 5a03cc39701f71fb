#ifndef SYSSHIM_RUN_H
#define SYSSHIM_RUN_H

/* What sysshim-run's parts share: one struct run_job, built in main.c and passed by
 * pointer to each part; no part keeps state of its own. The files call one way:
 * main.c -> decide.c, exec.c; exec.c -> decide.c, inspect.c, lib.c; inspect.c ->
 * elfread.c; every part -> say.c. Numbers are fixed point, never floating: times in
 * tenths of a ns, ratios in hundredths. */

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

/* ---- say.c */
/* One line on stderr, "sysshim-run: " A B C (B and C may be 0). */
void say_line(const char *a, const char *b, const char *c);

/* The text of errno value E, for a file that cannot be run or read. */
static inline const char *error_text(long e)
{
	return __ss_error_text((int)e, "cannot be run");
}

/* ---- the environment, read in one pass (main.c): each the first entry's value, or 0 */
struct run_env {
	const char *mode;	/* SYSSHIM_RUN */
	const char *timing;	/* SYSSHIM_RUN_TIMING: the test hook */
	const char *ratio;	/* SYSSHIM_RUN_RATIO */
	const char *cache;	/* SYSSHIM_RUN_CACHE */
	const char *seccomp;	/* SYSSHIM_SECCOMP */
	const char *lib;	/* SYSSHIM_LIB */
	const char *path;	/* PATH */
	const char *pwd;	/* PWD */
	const char *runtime_dir;	/* XDG_RUNTIME_DIR */
	char **ld_preload;	/* the LAST LD_PRELOAD entry (the one the loader takes), or 0 */
};

/* ---- decide.c: whether to preload where the command allows it */
/* Why: each has its words in put_decision. */
enum preload_reason {
	ASKED,		/* --always */
	STATX_EPERM,	/* a sandbox refuses statx with EPERM */
	REFUSED,	/* fstat or newfstatat refused: nothing to gain */
	NULL_PATH,	/* a NULL path accepted (6.11+): the fast path is there */
	NO_CLOCK,	/* the clock does not move over a round: nothing timed */
	NO_ROOT,	/* "/" cannot be opened to time the calls on */
	TIMED,		/* the two costs decide */
	NOT_TIMED,	/* no timing for this boot yet: timed once a command could be preloaded */
	SANDBOX,	/* a seccomp filter: nothing asked, the library is careful */
	SANDBOX_STOPS,	/* a filter stops one of the calls, as throwaway children found */
	TRACED,		/* a tracer and no filter: nothing asked, nothing to gain */
};

enum timing_source { FROM_HOOK, FROM_CACHE, MEASURED };

/* What the decision found: its verdict and everything its words need. */
struct preload_decision {
	enum preload_reason reason;
	int preload;		/* the verdict (0 while NOT_TIMED) */
	uint64_t fstat_ns, empty_ns;	/* TIMED: per call, in tenths of a ns */
	uint64_t ratio, threshold;	/* TIMED: in hundredths */
	enum timing_source from;
	int cached;		/* a cache file for this boot: its name in cache_path */
	struct ss_out cache_path;
	char boot_id[64];	/* NOT_TIMED with a cache: this boot's, to write */
	long err;		/* NO_ROOT: why "/" did not open */
	unsigned stopped;	/* SS_SC_*: what a filter stopped in a child */
	int cleared;		/* throwaway children made the calls and lived: no care needed */
};

/* ---- inspect.c: what the command is */
/* Up to K_OTHER the library is preloaded as decided; from K_STATIC on the command runs
 * untouched. */
enum command_kind {
	K_DYNAMIC,	/* an ELF program of this machine whose interpreter is glibc's ld.so */
	K_SCRIPT,	/* #!: as before (what it runs inherits LD_PRELOAD) */
	K_OTHER,	/* no ELF, no #! (execvp's /bin/sh runs it), or not readable: as before */
	K_STATIC,	/* no PT_INTERP: no loader runs */
	K_GO,		/* a Go build-ID note: Go makes its own syscalls */
	K_FOREIGN,	/* another class, byte order or machine: its loader refuses the library */
	K_OTHER_LOADER,	/* an interpreter that is not glibc's (musl's): it cannot load the library */
	K_SETID,	/* set-user-ID or set-group-ID: the loader's secure mode ignores it */
	K_FIRST,	/* linked against a runtime that must come first (AddressSanitizer's) */
	K_BAD,		/* an ELF the kernel will not run */
};

/* ---- the job: what every part reads, built once (main.c) */
struct run_job {
	/* the options */
	char **argv;		/* COMMAND [ARGS...] */
	char **envp;		/* sysshim-run's own environment */
	const char *self;	/* sysshim-run's argv[0] */
	const char *exec_fn;	/* the path it was started by (AT_EXECFN), or 0 */
	int verbose;
	struct run_env env;
	/* the sandbox and the tracer (/proc/self/status), read where the mode is not never */
	struct ss_proc_status status;
	int status_read;	/* 0 where there was no /proc to tell */
	/* A seccomp filter, a tracer, or no /proc to tell: sysshim-run makes none but the
	 * calls the command's own dynamic loader makes (openat, read, pread64, close,
	 * newfstatat, execve; write for what it says), so none that the filter or the
	 * tracer could act on where the command would live (man/sysshim-run.1, SANDBOXES). */
	int careful;
	struct preload_decision d;	/* preload 0 under --never */
	struct ss_out lib;	/* the library's path: empty until looked for */
};

/* Whether a tracer is attached (TracerPid not 0: strace, a debugger). */
static inline int traced(const struct run_job *j)
{
	return j->status_read && j->status.tracer != 0 && j->status.tracer != ~0U;
}

/* decide.c: the decision for --always (ALWAYS) or auto into D, from what J holds (the
 * status, the environment), with the kernel's answers, the test hook and the cache.
 * Where throwaway children cleared a filter (SYSSHIM_SECCOMP=child) it says so in
 * D->cleared; the caller drops its care. Auto without a timing for this boot is left
 * NOT_TIMED: decide_timed() times the calls once a command could be preloaded. */
void decide_preload(const struct run_job *j, struct preload_decision *d, int always);
/* NOT_TIMED into TIMED (cached for this boot), NO_CLOCK or NO_ROOT, and the verdict. */
void decide_timed(const struct run_job *j, struct preload_decision *d);
/* The decision's words (what -v says after "preloading ...: "), into W. */
void put_decision(struct ss_out *w, const struct run_job *j);
/* fstat(fd) and newfstatat(fd, "", AT_EMPTY_PATH) timed now, per call: 0; 1 when the
 * clock does not move over a round of calls; -errno when "/" cannot be opened. */
long time_stat_calls(uint64_t *fstat_ns, uint64_t *empty_ns);

/* How many times fstat's cost EMPTY costs, in hundredths (rounded). */
static inline uint64_t cost_ratio(uint64_t fstat_ns, uint64_t empty_ns)
{
	return (empty_ns * 100 + fstat_ns / 2) / fstat_ns;
}

/* inspect.c: what the file PATH is (enum command_kind), said in O (which may be 0);
 * -errno where it cannot be opened for a reason execve would fail with too (ENOENT,
 * ENOTDIR). *ELF: whether it starts as an ELF file. A script's interpreter is read
 * too (one level). */
int inspect_command(const struct run_job *j, const char *path, struct ss_out *o, int *elf);
/* Whether PATH starts as an ELF file (asked only after execve said ENOEXEC). */
int starts_elf(const char *path);

/* lib.c: the library's absolute path into J->lib: 0, or -1 where it is missing (said on
 * stderr where LOUD). */
int find_library(struct run_job *j, int loud);

/* exec.c: the command run as execvp(3) runs it, preloaded where J decided and the
 * command allows: returns only where it could not be run, with the exit status to give. */
int run_command(struct run_job *j);

#endif
