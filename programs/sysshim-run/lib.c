/* Which library file is preloaded: $SYSSHIM_LIB, else ../lib beside this program (the
 * build tree), else the libdir it was built for (man/sysshim-run.1, ENVIRONMENT). */
#include "run.h"

static int is_file(const char *path)
{
	struct stat st;
	return !__syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) && (st.st_mode & S_IFMT) == S_IFREG;
}

/* The working directory into CWD (PATH_MAX bytes): getcwd; under a filter (main.c's
 * careful), $PWD where it is this directory (the same file as "."), no getcwd. */
static int cwd_of(char *cwd, char **envp)
{
	struct stat a, b;
	const char *pwd = __ss_env_get(envp, "PWD");
	if (!careful)
		return __syscall(SYS_getcwd, cwd, PATH_MAX) > 0 ? 0 : -1;
	if (!pwd || *pwd != '/' || __ss_strlen(pwd) >= PATH_MAX ||
	    __syscall(SYS_newfstatat, AT_FDCWD, pwd, &a, 0) ||
	    __syscall(SYS_newfstatat, AT_FDCWD, ".", &b, 0) || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return -1;
	__ss_stpcpy(cwd, pwd);
	return 0;
}

/* LIB = CAND made absolute (the command may change directory), if CAND is a file. */
static int absolute(struct ss_out *lib, const char *cand, char **envp)
{
	char cwd[PATH_MAX];
	if (!is_file(cand))
		return -1;
	lib->n = 0;
	if (cand[0] != '/') {
		if (cwd_of(cwd, envp))
			return -1;
		__ss_put(lib, cwd);
		__ss_put(lib, "/");
	}
	__ss_put(lib, cand);
	return __ss_full(lib) ? -1 : 0;
}

/* This program's directory into DIR (PATH_MAX bytes): /proc/self/exe's, else (and under
 * a filter: no readlinkat) the path it was started by, else SELF's (argv[0]); "" where
 * none names one. */
static void own_dir(char *dir, const char *self)
{
	long k = careful ? -1 : __syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", dir, PATH_MAX - 1);
	if (k <= 0) {
		const char *p = exec_fn ? exec_fn : self;
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
 * reason to load another file), else the first of ../lib beside this program and the
 * libdir. LOOKED says where it looked. */
static int find_lib(struct ss_out *lib, const char *self, char **envp, struct ss_out *looked)
{
	const char *e = __ss_env_get(envp, "SYSSHIM_LIB");
	if (e && *e) {
		__ss_put(looked, "SYSSHIM_LIB=");
		__ss_put(looked, e);
		__ss_put(looked, ", which is no file");
		return absolute(lib, e, envp);
	}
	char dir[PATH_MAX];
	own_dir(dir, self);
	const char *d = *dir ? dir : ".";
	SS_OUT(c);
	__ss_put(&c, d);
	__ss_put(&c, "/../lib/" SYSSHIM_SONAME);
	__ss_put(looked, d);
	__ss_put(looked, "/../lib, " SYSSHIM_LIBDIR);
	if (!__ss_full(&c) && !absolute(lib, __ss_cstr(&c), envp))
		return 0;
	return absolute(lib, SYSSHIM_LIBDIR "/" SYSSHIM_SONAME, envp);
}

int find_library(struct ss_out *lib, const char *self, char **envp, int loud)
{
	SS_OUT(looked);
	if (!find_lib(lib, self, envp, &looked))
		return 0;
	if (loud)
		say("cannot find " SYSSHIM_SONAME " (looked in ", __ss_cstr(&looked),
		    careful ? "): under a seccomp filter, the command runs untouched"
			    : "); set SYSSHIM_LIB=/path/to/" SYSSHIM_SONAME);
	return -1;
}
