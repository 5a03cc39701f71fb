/* sysshim-run: runs a command with libsysshim preloaded where that can pay, else
 * untouched. What it decides, what it reads of the command and what the command gets
 * are written once, in its manual page, man/sysshim-run.1; --help sums that up.
 *
 * It runs before every command it wraps, so it is one small static PIE that links no
 * libc and has no relocations at all (the Makefile checks): nothing applies them. It
 * stands on the library's raw syscalls (src/internal/syscall.h), the runtime the
 * library shares (src/internal/rt.h), and the entry point in arch/<arch>/crt_arch.h.
 * No tables of pointers; text is built on the stack.
 *
 * Its parts (run.h has what they share):
 *   main.c     the options, the usage, the job built once
 *   decide.c   whether to preload: the kernel's answers, the timing, the verdict
 *   inspect.c  what the command is: its mode, a script, the words for an ELF file
 *   elfread.c  the ELF reader (one pass over the program headers, notes, DT_NEEDED)
 *   lib.c      which library file
 *   exec.c     the PATH search, the environment the command gets, execve */
#include "run.h"
#include "crt_arch.h"
#include "rt_nolibc.h"

int careful;
const char *exec_fn;

#define AT_EXECFN	31

/* Whether a seccomp filter is in force, by /proc/self/status: an openat, a read and a
 * close, the first calls a dynamic loader makes, before any other sysshim-run makes.
 * Where it cannot be read (no /proc), it may be. */
static int filtered(void)
{
	unsigned mode, filters;
	return __ss_seccomp_status(&mode, &filters) || mode != 0;
}

void say(const char *a, const char *b, const char *c)
{
	SS_OUT(o);
	__ss_put(&o, "sysshim-run: ");
	__ss_put(&o, a);
	__ss_put(&o, b ? b : "");
	__ss_put(&o, c ? c : "");
	__ss_put(&o, "\n");
	__ss_flush(&o, 2);
}

static void usage(int fd)
{
	SS_OUT(o);
	__ss_put(&o, "usage: sysshim-run [-v] [--always|--never|--auto] [--] COMMAND [ARGS...]\n"
		     "Runs COMMAND with " SYSSHIM_SONAME " preloaded where that can pay (a kernel\n"
		     "without the empty-path fast path, timed once per boot; a sandbox that refuses\n"
		     "statx with EPERM), else untouched; untouched too where the library cannot\n"
		     "reach it (static, set-ID, Go and other machines' programs).\n"
		     "  --always, --never, --auto   force the choice (default: SYSSHIM_RUN, else auto)\n"
		     "  -v, --verbose               say on stderr what was decided and why\n"
		     "  --measure                   print the two calls' costs here now, and exit\n"
		     "  -h, --help, --version       this text; the version\n"
		     "Exit status: COMMAND's; 125 bad usage; 126 COMMAND cannot be run; 127 not found.\n"
		     "The rules, the environment and the files: man sysshim-run\n");
	__ss_flush(&o, fd);
}

static int version(void)
{
	SS_OUT(o);
	__ss_put(&o, "sysshim-run (sysshim) " SYSSHIM_VERSION "\n");
	__ss_flush(&o, 1);
	return 0;
}

/* --measure: the two costs now, and their ratio. */
static int print_measure(void)
{
	uint64_t fs, em;
	long m = measure(&fs, &em);
	if (m) {
		say(m == 1 ? "the clock here does not move over 16 calls: cannot time them" :
		    "cannot open / to measure: ", m == 1 ? "" : error_text(-m), 0);
		return 1;
	}
	SS_OUT(o);
	__ss_put(&o, "fstat ");
	__ss_put_fix(&o, fs, 1);
	__ss_put(&o, " ns, newfstatat-empty ");
	__ss_put_fix(&o, em, 1);
	__ss_put(&o, " ns, ratio ");
	__ss_put_fix(&o, cost_ratio(fs, em), 2);
	__ss_put(&o, "\n");
	__ss_flush(&o, 1);
	return 0;
}

struct options {
	const char *mode;	/* always, never or auto */
	int verbose;
	int cmd;		/* argv[cmd] is the command */
};

/* The options before the command into OP: -1 to go on, else the exit status (--help,
 * --version, --measure; 125 for a bad option, no command, a bad SYSSHIM_RUN). */
static int options(int argc, char **argv, char **envp, struct options *op)
{
	op->mode = __ss_env_get(envp, "SYSSHIM_RUN");
	if (!op->mode || !*op->mode)
		op->mode = "auto";
	op->verbose = 0;
	for (op->cmd = 1; op->cmd < argc; op->cmd++) {
		const char *a = argv[op->cmd];
		if (__ss_streq(a, "--")) {
			op->cmd++;
			break;
		} else if (__ss_streq(a, "-h") || __ss_streq(a, "--help")) {
			usage(1);
			return 0;
		} else if (__ss_streq(a, "--version")) {
			return version();
		} else if (__ss_streq(a, "-v") || __ss_streq(a, "--verbose")) {
			op->verbose = 1;
		} else if (__ss_streq(a, "--always") || __ss_streq(a, "--never") || __ss_streq(a, "--auto")) {
			op->mode = a + 2;
		} else if (__ss_streq(a, "--measure")) {
			return print_measure();
		} else if (a[0] == '-') {
			say("unknown option '", a, "' (try --help)");
			return 125;
		} else {
			break;
		}
	}
	if (op->cmd >= argc) {
		usage(2);
		return 125;
	}
	if (!__ss_streq(op->mode, "auto") && !__ss_streq(op->mode, "always") &&
	    !__ss_streq(op->mode, "never")) {
		say("SYSSHIM_RUN=", op->mode, ": want always, never or auto");
		return 125;
	}
	return -1;
}

static int sysshim_run(int argc, char **argv, char **envp)
{
	struct options op;
	int r = options(argc, argv, envp, &op);
	if (r >= 0)
		return r;
	struct job j;
	j.argv = argv + op.cmd;
	j.envp = envp;
	j.self = argv[0];
	j.verbose = op.verbose;
	j.lib.n = 0;
	j.d.preload = 0;
	if (__ss_streq(op.mode, "never")) {
		if (j.verbose)
			say("not preloading: asked not to (--never or SYSSHIM_RUN=never)", 0, 0);
		return run(&j);
	}
	careful = filtered();
	decide(&j.d, op.mode, envp);
	/* Where it steps aside the decision's three syscalls are all it costs: the command is
	 * not read and the library not looked for. Where it preloads, run() reads each
	 * candidate before its execve, and looks for the library once. */
	if (j.verbose && !j.d.preload)
		say("not preloading: ", __ss_cstr(&j.d.why), 0);
	return run(&j);
}

__attribute__((noreturn, used, visibility("hidden"))) void __ss_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1, **e = envp;
	while (*e)
		e++;
	for (unsigned long *aux = (unsigned long *)(e + 1); aux[0]; aux += 2)
		if (aux[0] == AT_EXECFN)
			exec_fn = (const char *)aux[1];
	int r = sysshim_run(argc, argv, envp);
	for (;;)
		__syscall(SYS_exit_group, r);
}
