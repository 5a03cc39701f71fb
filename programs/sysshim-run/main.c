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
 * Its parts (run.h has what they share: struct run_job, passed to each by pointer):
 *   main.c     the options, the environment and the status read once, the job built
 *   decide.c   whether to preload: the kernel's answers, the timing, the verdict
 *   inspect.c  what the command is: its mode, a script, the words for an ELF file
 *   elfread.c  the ELF reader (one pass over the program headers, notes, DT_NEEDED)
 *   lib.c      which library file
 *   exec.c     the PATH search, the environment the command gets, execve
 *   say.c      one line on stderr */
#include "run.h"
#include "crt_arch.h"
#include "rt_nolibc.h"

#define AT_EXECFN	31

static void print_usage(int fd)
{
	SS_OUT(o);
	__ss_put(&o, "usage: sysshim-run [-v] [--always|--never|--auto] [--] COMMAND [ARGS...]\n"
		     "Runs COMMAND with " SYSSHIM_SONAME " preloaded where that can pay (a kernel\n"
		     "without the empty-path fast path, timed once per boot; a sandbox that refuses\n"
		     "statx with EPERM), else untouched; untouched too where the library cannot\n"
		     "reach it (static, set-ID, Go, other machines' programs, other C libraries').\n"
		     "  --always, --never, --auto   force the choice (default: SYSSHIM_RUN, else auto)\n"
		     "  -v, --verbose               say on stderr what was decided and why\n"
		     "  --measure                   print the two calls' costs here now, and exit\n"
		     "  -h, --help, --version       this text; the version\n"
		     "Exit status: COMMAND's; 125 bad usage; 126 COMMAND cannot be run; 127 not found.\n"
		     "The rules, the environment and the files: man sysshim-run\n");
	__ss_flush(&o, fd);
}

static int print_version(void)
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
	long m = time_stat_calls(&fs, &em);
	if (m) {
		say_line(m == 1 ? "the clock here does not move over 16 calls: cannot time them" :
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

/* The value of the entry at P if it is NAME=VALUE, else 0. */
static const char *value_at(const char *p, const char *name)
{
	const char *v = __ss_after(p, name);
	return v && *v == '=' ? v + 1 : 0;
}

/* Keeps the first V for *SLOT, as getenv(3) does. */
static void keep_first(const char **slot, const char *v)
{
	if (v && !*slot)
		*slot = v;
}

/* The entries sysshim-run reads, in one pass over ENVP (each part used to walk it once
 * for each name it wanted); two bytes looked at for most entries. */
static void read_env(char **envp, struct run_env *v)
{
	*v = (struct run_env){ 0 };
	for (char **e = envp; *e; e++) {
		const char *s = *e, *x;
		if (s[0] == 'S' && s[1] == 'Y' && (x = __ss_after(s, "SYSSHIM_"))) {
			keep_first(&v->mode, value_at(x, "RUN"));
			keep_first(&v->timing, value_at(x, "RUN_TIMING"));
			keep_first(&v->ratio, value_at(x, "RUN_RATIO"));
			keep_first(&v->cache, value_at(x, "RUN_CACHE"));
			keep_first(&v->seccomp, value_at(x, "SECCOMP"));
			keep_first(&v->lib, value_at(x, "LIB"));
		} else if (s[0] == 'P' && s[1] == 'A') {
			keep_first(&v->path, value_at(s, "PATH"));
		} else if (s[0] == 'P' && s[1] == 'W') {
			keep_first(&v->pwd, value_at(s, "PWD"));
		} else if (s[0] == 'X' && s[1] == 'D') {
			keep_first(&v->runtime_dir, value_at(s, "XDG_RUNTIME_DIR"));
		} else if (s[0] == 'L' && s[1] == 'D' && value_at(s, "LD_PRELOAD")) {
			v->ld_preload = e;	/* the last: the loader reads them all */
		}
	}
}

enum run_mode { MODE_AUTO, MODE_ALWAYS, MODE_NEVER };

/* The options before the command into J and *MODE: -1 to go on, else the exit status
 * (--help, --version, --measure; 125 for a bad option, no command, a bad SYSSHIM_RUN). */
static int read_options(int argc, char **argv, struct run_job *j, enum run_mode *mode)
{
	const char *m = j->env.mode && *j->env.mode ? j->env.mode : "auto";
	int cmd;
	j->verbose = 0;
	for (cmd = 1; cmd < argc; cmd++) {
		const char *a = argv[cmd];
		if (a[0] != '-') {
			break;
		} else if (__ss_streq(a, "--")) {
			cmd++;
			break;
		} else if (__ss_streq(a, "-h") || __ss_streq(a, "--help")) {
			print_usage(1);
			return 0;
		} else if (__ss_streq(a, "--version")) {
			return print_version();
		} else if (__ss_streq(a, "-v") || __ss_streq(a, "--verbose")) {
			j->verbose = 1;
		} else if (__ss_streq(a, "--always") || __ss_streq(a, "--never") || __ss_streq(a, "--auto")) {
			m = a + 2;
		} else if (__ss_streq(a, "--measure")) {
			return print_measure();
		} else {
			say_line("unknown option '", a, "' (try --help)");
			return 125;
		}
	}
	if (cmd >= argc) {
		print_usage(2);
		return 125;
	}
	if (__ss_streq(m, "auto"))
		*mode = MODE_AUTO;
	else if (__ss_streq(m, "always"))
		*mode = MODE_ALWAYS;
	else if (__ss_streq(m, "never"))
		*mode = MODE_NEVER;
	else {
		say_line("SYSSHIM_RUN=", m, ": want always, never or auto");
		return 125;
	}
	j->argv = argv + cmd;
	return -1;
}

static int sysshim_run(int argc, char **argv, char **envp, const char *exec_fn)
{
	struct run_job j;
	enum run_mode mode;
	j.envp = envp;
	j.self = argv[0];
	j.exec_fn = exec_fn;
	j.lib.n = 0;
	j.d.preload = 0;
	j.careful = 0;
	j.status_read = 0;
	read_env(envp, &j.env);
	int r = read_options(argc, argv, &j, &mode);
	if (r >= 0)
		return r;
	if (mode == MODE_NEVER) {
		if (j.verbose)
			say_line("not preloading: asked not to (--never or SYSSHIM_RUN=never)", 0, 0);
		return run_command(&j);
	}
	/* A filter or a tracer, by /proc/self/status: an openat, a read and a close, the
	 * first calls a dynamic loader makes, before any other sysshim-run makes. Where it
	 * cannot be read (no /proc), there may be either. */
	j.status_read = !__ss_proc_status(&j.status);
	j.careful = !j.status_read || j.status.mode != 0 || traced(&j);
	decide_preload(&j, &j.d, mode == MODE_ALWAYS);
	if (j.d.cleared)
		j.careful = 0;
	/* Where it steps aside now, the decision's calls are all it costs: the command is not
	 * read and the library not looked for. Else run_command reads each candidate before
	 * its execve, times the calls where that is still to do and the command could be
	 * preloaded, and looks for the library once. */
	if (j.verbose && !j.d.preload && j.d.reason != NOT_TIMED) {
		SS_OUT(w);
		put_decision(&w, &j);
		say_line("not preloading: ", __ss_cstr(&w), 0);
	}
	return run_command(&j);
}

__attribute__((noreturn, used, visibility("hidden"))) void __ss_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1, **e = envp;
	const char *exec_fn = 0;
	while (*e)
		e++;
	for (unsigned long *aux = (unsigned long *)(e + 1); aux[0]; aux += 2)
		if (aux[0] == AT_EXECFN)
			exec_fn = (const char *)aux[1];
	int r = sysshim_run(argc, argv, envp, exec_fn);
	for (;;)
		__syscall(SYS_exit_group, r);
}
