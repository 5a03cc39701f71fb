/* Running the command as execvp(3) does: the PATH search; for each candidate, where the
 * decision is to preload, what it is (inspect.c) and the library (lib.c, looked for
 * once); the environment the command gets; execve, and the ENOEXEC case (a file
 * without #! goes to /bin/sh, an ELF file does not). The rules are
 * man/sysshim-run.1's. */
#include "run.h"

#define NO_LIB (-4096)	/* not an errno: the library is to be preloaded and is missing */

/* ---- execve */
/* PATH with ENVP. ELF: 1 when PATH is known to be an ELF file, 0 when known not to be,
 * -1 unknown. Returns execve's error. */
static long try_exec(const char *path, char **argv, char **envp, int elf)
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
/* "LD_PRELOAD=LIB[:OLD]" into PRE (room: 13 + LIB's length + ON). OLD, ON long: what the
 * environment's first LD_PRELOAD held. */
static void preload_entry(char *pre, const struct ss_out *lib, const char *old, size_t on)
{
	char *e = __ss_stpcpy(pre, "LD_PRELOAD=");
	__builtin_memcpy(e, lib->b, lib->n);
	e += lib->n;
	*e = 0;
	if (on) {
		*e++ = ':';
		__builtin_memcpy(e, old, on + 1);
	}
}

/* PRE, then ENVP without its LD_PRELOAD entries, into ENV (room: ENVP's and 2). */
static void preload_env(char **env, char *pre, char **envp)
{
	size_t k = 0;
	env[k++] = pre;
	for (char **e = envp; *e; e++)
		if (**e != 'L' || !__ss_after(*e, "LD_PRELOAD="))	/* (one call less an entry) */
			env[k++] = *e;
	env[k] = 0;
}

static long exec_preloaded(const char *path, struct job *j, int elf)
{
	const char *old = __ss_env_get(j->envp, "LD_PRELOAD");
	size_t n = 0, on = old ? __ss_strlen(old) : 0;
	while (j->envp[n])
		n++;
	char pre[sizeof "LD_PRELOAD=" + j->lib.n + 1 + on], *env[n + 2];
	preload_entry(pre, &j->lib, old, on);
	preload_env(env, pre, j->envp);
	return try_exec(path, j->argv, env, elf);
}

/* ---- one candidate */
/* What -v says of a command that was read: preloaded or not, and why. */
static void say_choice(struct job *j, const char *path, int pre, struct ss_out *what)
{
	SS_OUT(o);
	__ss_put(&o, pre ? "preloading " : "not preloading: ");
	if (pre) {
		__ss_put(&o, __ss_cstr(&j->lib));
		__ss_put(&o, ": ");
		__ss_put(&o, __ss_cstr(&j->d.why));
		__ss_put(&o, "; ");
	}
	__ss_put(&o, path);
	__ss_put(&o, " is ");
	__ss_put(&o, __ss_cstr(what));
	if (!pre) {
		__ss_put(&o, " (else preloading: ");
		__ss_put(&o, __ss_cstr(&j->d.why));
		__ss_put(&o, ")");
	}
	say(__ss_cstr(&o), 0, 0);
}

/* PATH, one candidate: where the decision is to preload, read it first, find the
 * library (once), say what was decided (-v), and exec it. execve's error, or NO_LIB. */
static long attempt(struct job *j, const char *path)
{
	if (!j->d.preload)
		return try_exec(path, j->argv, j->envp, -1);
	SS_OUT(what);
	int elf, kind = inspect(path, j->verbose ? &what : 0, j->verbose, &elf);
	if (kind < 0)
		return kind;
	int pre = kind < K_STATIC;
	if (pre && !j->lib.n && find_library(&j->lib, j->self, j->envp))
		return NO_LIB;
	if (j->verbose)
		say_choice(j, path, pre, &what);
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
static long search(struct job *j, const char *file)
{
	const char *path = __ss_env_get(j->envp, "PATH");
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
			long r = attempt(j, buf);
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

int run(struct job *j)
{
	const char *file = j->argv[0];
	long err = -ENOENT;
	if (*file)
		err = has_slash(file) ? attempt(j, file) : search(j, file);
	if (err == NO_LIB)
		return 127;
	say(file, ": ", error_text(-err));
	return err == -ENOENT ? 127 : 126;
}
