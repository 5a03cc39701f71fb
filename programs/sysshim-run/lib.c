/* Which library file is preloaded: $SYSSHIM_LIB, else ../lib beside this program (the
 * build tree), else the libdir it was built for (man/sysshim-run.1, ENVIRONMENT). */
#include "run.h"

static int is_file(const char *path)
{
	struct stat st;
	return !__syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) && (st.st_mode & S_IFMT) == S_IFREG;
}

/* The working directory into CWD (PATH_MAX bytes): getcwd; under a filter or a tracer
 * (the job's careful), $PWD where it is this directory (the same file as "."), no
 * getcwd. */
static int cwd_of(char *cwd, const struct run_job *j)
{
	struct stat a, b;
	const char *pwd = j->env.pwd;
	if (!j->careful)
		return __syscall(SYS_getcwd, cwd, PATH_MAX) > 0 ? 0 : -1;
	if (!pwd || *pwd != '/' || __ss_strlen(pwd) >= PATH_MAX ||
	    __syscall(SYS_newfstatat, AT_FDCWD, pwd, &a, 0) ||
	    __syscall(SYS_newfstatat, AT_FDCWD, ".", &b, 0) || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return -1;
	__ss_stpcpy(cwd, pwd);
	return 0;
}

/* LIB = CAND made absolute (the command may change directory), if CAND is a file. */
static int absolute(struct ss_out *lib, const char *cand, const struct run_job *j)
{
	char cwd[PATH_MAX];
	if (!is_file(cand))
		return -1;
	lib->n = 0;
	if (cand[0] != '/') {
		if (cwd_of(cwd, j))
			return -1;
		__ss_put(lib, cwd);
		__ss_put(lib, "/");
	}
	__ss_put(lib, cand);
	return __ss_full(lib) ? -1 : 0;
}

/* This program's directory into DIR (PATH_MAX bytes): /proc/self/exe's, else (and where
 * careful: no readlinkat) the path it was started by, else argv[0]'s; "" where none
 * names one. */
static void own_dir(char *dir, const struct run_job *j)
{
	long k = j->careful ? -1 : __syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", dir, PATH_MAX - 1);
	if (k <= 0) {
		const char *p = j->exec_fn ? j->exec_fn : j->self;
		k = (long)__ss_strlen(p);
		if (k >= PATH_MAX)
			k = 0;
		__builtin_memcpy(dir, p, (size_t)k);
	}
	while (k && dir[k - 1] != '/')
		k--;
	if (k > 1)
		k--;
	dir[k] = 0;
}

/* $SYSSHIM_LIB when it is set (and then only it: a wrong setting is an error, not a
 * reason to load another file), else the first of ../lib beside this program (its
 * directory into DIR, PATH_MAX bytes) and the libdir. */
static int look_for_library(struct run_job *j, char *dir)
{
	const char *e = j->env.lib;
	if (e && *e)
		return absolute(&j->lib, e, j);
	own_dir(dir, j);
	if (*dir == '/') {
		/* Absolute already (/proc/self/exe's, the usual case): put once, no copy. */
		j->lib.n = 0;
		__ss_put(&j->lib, dir);
		__ss_put(&j->lib, "/../lib/" SYSSHIM_SONAME);
		if (!__ss_full(&j->lib) && is_file(__ss_cstr(&j->lib)))
			return 0;
	} else {
		SS_OUT(c);
		__ss_put(&c, *dir ? dir : ".");
		__ss_put(&c, "/../lib/" SYSSHIM_SONAME);
		if (!__ss_full(&c) && !absolute(&j->lib, __ss_cstr(&c), j))
			return 0;
	}
	return absolute(&j->lib, SYSSHIM_LIBDIR "/" SYSSHIM_SONAME, j);
}

int find_library(struct run_job *j, int loud)
{
	char dir[PATH_MAX];
	if (!look_for_library(j, dir))
		return 0;
	j->lib.n = 0;	/* not found: looked for again at the next candidate */
	if (!loud)
		return -1;
	/* Where it looked, put only now: most runs find it. */
	SS_OUT(looked);
	if (j->env.lib && *j->env.lib) {
		__ss_put(&looked, "SYSSHIM_LIB=");
		__ss_put(&looked, j->env.lib);
		__ss_put(&looked, ", which is no file");
	} else {
		__ss_put(&looked, *dir ? dir : ".");
		__ss_put(&looked, "/../lib, " SYSSHIM_LIBDIR);
	}
	say_line("cannot find " SYSSHIM_SONAME " (looked in ", __ss_cstr(&looked),
		 j->careful ? "): under a seccomp filter or a tracer, the command runs untouched"
			    : "); set SYSSHIM_LIB=/path/to/" SYSSHIM_SONAME);
	return -1;
}
