/* Running the command as execvp(3) does: the PATH search; for each candidate, where the
 * decision is to preload (or still to be timed), what it is (inspect.c), the timing
 * where it could be preloaded (decide.c) and the library (lib.c, looked for once); the
 * environment the command gets; execve, and the ENOEXEC case (a file without #! goes
 * to /bin/sh, an ELF file does not). The rules are man/sysshim-run.1's. */
#include "run.h"

#define NO_LIB (-4096)	/* not an errno: the library is to be preloaded and is missing */

/* ---- execve */
/* PATH with ENVP. ELF: 1 when PATH is known to be an ELF file, 0 when known not to be,
 * -1 unknown. Returns execve's error. (Not inlined: callgrind's --dump-before=try_exec
 * counts what sysshim-run does before it, docs/testing.md.) */
static __attribute__((noinline)) long try_exec(const char *path, char **argv, char **envp, int elf)
{
	long r = __syscall(SYS_execve, path, argv, envp);
	if (r == -ENOEXEC && (elf < 0 ? !starts_elf(path) : !elf)) {
		/* A script without "#!": the shell runs it, as execvp does. An ELF file the
		 * kernel refuses (another machine's) is not one: it fails as it is. */
		size_t n = 0;
		while (argv[n])
			n++;
		char *sh[n + 2];
		sh[0] = "/bin/sh";
		sh[1] = (char *)path;
		for (size_t i = 1; i <= n; i++)
			sh[i + 1] = argv[i];
		__syscall(SYS_execve, "/bin/sh", sh, envp);
	}
	return r;
}

/* ---- the environment the command gets where the library is preloaded */
/* Whether the list V (separated by ':' or ' ', as the loader reads it) names LIB. */
static int lists_library(const char *v, const struct ss_out *lib)
{
	for (const char *p = v; *p;) {
		size_t k = 0;
		while (p[k] && p[k] != ':' && p[k] != ' ')
			k++;
		size_t i = 0;
		while (i < k && k == lib->n && p[i] == lib->b[i])
			i++;
		if (k == lib->n && i == k)
			return 1;
		p += k + (p[k] != 0);
	}
	return 0;
}

/* ENVP as it is, but for the entry the loader takes, which gets the library after what
 * it held (an interposer it held stays in front, and its wrappers of the stat family
 * reach the library's), or one more entry at the end where there is none. ENVP itself
 * where that entry names the library already. */
static long exec_preloaded(const char *path, struct run_job *j, int elf)
{
	char **at = j->env.ld_preload;
	const char *old = at ? *at + sizeof "LD_PRELOAD=" - 1 : "";
	size_t n = 0, on = __ss_strlen(old);
	if (lists_library(old, &j->lib))
		return try_exec(path, j->argv, j->envp, elf);
	while (j->envp[n])
		n++;
	char pre[sizeof "LD_PRELOAD=" + on + 1 + j->lib.n], *env[n + 2], *e;
	e = __ss_stpcpy(__ss_stpcpy(pre, "LD_PRELOAD="), old);
	if (on && old[on - 1] != ':' && old[on - 1] != ' ')
		*e++ = ':';
	__builtin_memcpy(e, j->lib.b, j->lib.n);
	e[j->lib.n] = 0;
	for (size_t i = 0; i <= n; i++)
		env[i] = j->envp + i == at ? pre : j->envp[i];
	if (!at)
		env[n] = pre, env[n + 1] = 0;
	return try_exec(path, j->argv, env, elf);
}

/* ---- one candidate */
/* What -v says of a command that was read: preloaded or not, and why. ALLOWED: its kind
 * allows the library (then a timing taken for it may still say no). */
static void say_choice(struct run_job *j, const char *path, int pre, int allowed,
		       struct ss_out *what)
{
	SS_OUT(o);
	SS_OUT(why);
	put_decision(&why, j);
	__ss_put(&o, pre ? "preloading " : "not preloading: ");
	if (!pre && allowed && !j->d.preload) {
		__ss_put(&o, __ss_cstr(&why));
		__ss_put(&o, "; ");
	} else if (pre) {
		__ss_put(&o, __ss_cstr(&j->lib));
		char **at = j->env.ld_preload;
		if (at && (*at)[sizeof "LD_PRELOAD=" - 1]) {
			__ss_put(&o, " after LD_PRELOAD's ");
			__ss_put(&o, *at + sizeof "LD_PRELOAD=" - 1);
			__ss_put(&o, " (which stays in front)");
		}
		__ss_put(&o, ": ");
		__ss_put(&o, __ss_cstr(&why));
		__ss_put(&o, "; ");
	}
	__ss_put(&o, path);
	__ss_put(&o, " is ");
	__ss_put(&o, __ss_cstr(what));
	if (!pre && (!allowed || j->d.preload)) {
		__ss_put(&o, j->d.reason == NOT_TIMED ? " (else: " : " (else preloading: ");
		__ss_put(&o, __ss_cstr(&why));
		__ss_put(&o, ")");
	}
	say_line(__ss_cstr(&o), 0, 0);
}

/* PATH, one candidate: where the decision is to preload or still to be timed, read it
 * first; time the calls where it could be preloaded and that is still to do; find the
 * library (once); say what was decided (-v), and exec it. execve's error, or NO_LIB. */
static long try_candidate(struct run_job *j, const char *path)
{
	if (!j->d.preload && j->d.reason != NOT_TIMED)
		return try_exec(path, j->argv, j->envp, -1);
	SS_OUT(what);
	int elf, kind = inspect_command(j, path, j->verbose ? &what : 0, &elf);
	if (kind < 0)
		return kind;
	if (kind < K_STATIC && j->d.reason == NOT_TIMED)
		decide_timed(j, &j->d);
	int pre = kind < K_STATIC && j->d.preload;
	/* Under a filter the preload was a maybe: without the library, the command runs. */
	if (pre && !j->lib.n && find_library(j, !j->careful || j->verbose)) {
		if (!j->careful)
			return NO_LIB;
		pre = 0;
		__ss_put(&what, "; the library is not to be found");
	}
	if (j->verbose)
		say_choice(j, path, pre, kind < K_STATIC, &what);
	return pre ? exec_preloaded(path, j, elf) : try_exec(path, j->argv, j->envp, elf);
}

/* ---- the PATH search */
static int not_there(long r)
{
	return r == -ENOENT || r == -ENOTDIR || r == -ESTALE || r == -ENODEV || r == -ETIMEDOUT;
}

/* FILE (no slash in it) in each directory of PATH (else /bin:/usr/bin), as execvp
 * does: a candidate that is not there is passed over, one that cannot be run (EACCES)
 * too but remembered, any other error ends the search. */
static long search_path(struct run_job *j, const char *file)
{
	const char *path = j->env.path;
	size_t fl = __ss_strlen(file);
	int eacces = 0;
	for (const char *p = path ? path : "/bin:/usr/bin";; p++) {
		const char *q = p;
		while (*q && *q != ':')
			q++;
		char buf[PATH_MAX];
		size_t dl = (size_t)(q - p);
		if (dl + fl + 2 <= sizeof buf) {
			__builtin_memcpy(buf, p, dl);
			if (dl)
				buf[dl++] = '/';
			__builtin_memcpy(buf + dl, file, fl + 1);
			long r = try_candidate(j, buf);
			if (r == -EACCES)
				eacces = 1;
			else if (!not_there(r))
				return r;
		}
		if (!*q)
			break;
		p = q;
	}
	return eacces ? -EACCES : -ENOENT;
}

static int has_slash(const char *s)
{
	while (*s && *s != '/')
		s++;
	return *s == '/';
}

int run_command(struct run_job *j)
{
	const char *file = j->argv[0];
	long err = -ENOENT;
	if (*file)
		err = has_slash(file) ? try_candidate(j, file) : search_path(j, file);
	if (err == NO_LIB)
		return 127;
	say_line(file, ": ", error_text(-err));
	return err == -ENOENT ? 127 : 126;
}
