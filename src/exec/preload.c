#include "exec.h"
#include "rt.h"
#include "sandbox.h"

/* The library's entry in LD_PRELOAD, and the environment without it. The loader reads
 * the last LD_PRELOAD entry of the environment, its names separated by spaces or
 * colons, each a file name (with a '/': a path, relative to the working directory;
 * without: looked up as a library), in which glibc's loader expands $LIB, $PLATFORM
 * and $ORIGIN (also as ${LIB}...). */

/* Bounds of the environment built on the caller's stack: beyond them it is handed on
 * as it is. */
#define MAX_PTRS	4096
#define MAX_CHARS	4096

static int sep(char c)
{
	return c == ' ' || c == ':';
}

/* The token at P ("$LIB", "${PLATFORM}"...): its length, or 0. */
static size_t token(const char *p)
{
	static const char *const t[] = { "LIB", "PLATFORM", "ORIGIN" };
	if (*p != '$')
		return 0;
	for (unsigned i = 0; i < 3; i++) {
		const char *e = __ss_after(p + 1, t[i]);
		if (e)
			return (size_t)(e - p);
		if (p[1] == '{' && (e = __ss_after(p + 2, t[i])) && *e == '}')
			return (size_t)(e + 1 - p);
	}
	return 0;
}

/* Whether the entry P[0, N) matches the file name S, each token standing for one or
 * more characters (what the loader put there). */
static int matches(const char *p, size_t n, const char *s)
{
	for (; n; p++, s++, n--) {
		size_t k = *p == '$' ? token(p) : 0;
		if (k && k <= n) {
			for (const char *q = s + 1; q[-1]; q++)
				if (matches(p + k, n - k, q))
					return 1;
			return 0;
		}
		if (*s != *p)
			return 0;
	}
	return !*s;
}

static int has_token(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (token(p + i))
			return 1;
	return 0;
}

/* Whether the entry P[0, N) is the library: the name the loader loaded it by, or a
 * file whose name is its soname's ("libsysshim.so", "libsysshim.so.0"...). */
static int ours(const struct ss_exec_self *me, const char *p, size_t n)
{
	size_t b = n, k;
	if (*me->name && matches(p, n, me->name))
		return 1;
	while (b && p[b - 1] != '/')
		b--;
	if (!me->stem[0])
		return 0;
	for (k = 0; me->stem[k] && b + k < n && p[b + k] == me->stem[k]; k++)
		;
	return !me->stem[k] && (b + k == n || p[b + k] == '.');
}

int __ss_exec_room(char *const *envp, struct ss_exec_room *r)
{
	const struct ss_exec_self *me = 0;
	const char *v = 0;
	unsigned n = 0;

	/* A pointer no memory can be at is the kernel's to refuse (EFAULT): handed on. */
	if (ss_bad_ptr(envp))
		return 0;
	r->at = 0, r->earlier = 0;
	for (; envp[n]; n++) {
		if (ss_bad_ptr(envp[n]))
			return 0;
		const char *e = envp[n][0] == 'L' ? __ss_after(envp[n], "LD_PRELOAD=") : 0;
		if (!e)
			continue;
		r->earlier += !!r->at;
		r->at = &envp[n], v = e;
	}
	if (!v || n + 1 > MAX_PTRS)
		return 0;
	size_t len = __ss_strlen(*r->at);
	if (len + 1 > MAX_CHARS)
		return 0;
	for (const char *p = v; *p;) {
		size_t k = 0;
		while (sep(*p))
			p++;
		while (p[k] && !sep(p[k]))
			k++;
		if (k && ours(me ? me : (me = __ss_exec_self()), p, k)) {
			r->ptrs = n + 1, r->chars = (unsigned)len + 1;
			return 1;
		}
		p += k;
	}
	return 0;
}

/* Whether the file at PATH (the entry's, in the current root and working directory) is
 * the library: its first bytes are the library's own. 1 also where that cannot be told
 * (no descriptor left, a read that fails): left as it is. */
static int same_file(const struct ss_exec_self *me, const char *path)
{
	unsigned char b[1024];
	if (!me->id_len)
		return 1;
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd == -ENOENT || fd == -ENOTDIR || fd == -EACCES || fd == -ELOOP || fd == -ENAMETOOLONG ||
	    fd == -EISDIR)
		return 0;	/* the loader would not open it either */
	if (fd < 0)
		return 1;
	long n = __syscall(SYS_pread64, fd, b, me->id_len, 0);
	__syscall(SYS_close, fd);
	if (n < 0)
		return n != -EISDIR;
	return (unsigned long)n == me->id_len && __ss_exec_same(b, __ehdr_start, me->id_len);
}

/* Whether the loader of a program of kind KIND keeps the entry P[0, N) (the library's)
 * and the library serves there. */
static int keeps(const struct ss_exec_self *me, int kind, const char *p, size_t n, int *same)
{
	if (kind == SS_T_OTHER_LOADER || kind == SS_T_SANITIZER)
		return 0;
	int tok = has_token(p, n);
	/* An entry with $LIB or $PLATFORM names each class's own build (multiarch): its
	 * loader finds its own, or says so. */
	if (kind == SS_T_FOREIGN)
		return tok;
	/* The file the loader opens: the entry's path; where it has tokens or no '/', the
	 * name this process's loader resolved it to. */
	const char *file = me->name;
	int slash = 0;
	for (size_t i = 0; i < n; i++)
		slash |= p[i] == '/';
	if (slash && !tok) {
		char path[n + 1];
		__ss_exec_copy(path, p, n);
		path[n] = 0;
		return same_file(me, path);
	}
	if (*same < 0)
		*same = same_file(me, file);
	return *file ? *same : 1;
}

/* Whether the sandbox word SB says to be careful: a filter or a tracer the library has
 * seen. An exec never looks itself (/proc/self/status: three syscalls, and under
 * emulation the cost of some 40 fstat calls, in every process that starts another).
 * Where the library has not looked yet, a filter came with the process's start (and let
 * its dynamic loader's newfstatat through) or by a raw syscall; a stat the look makes
 * and such a filter refuses leaves the program as it is (target.c), one it kills would
 * kill the program's own stat calls too. */
static int careful(unsigned sb)
{
	return sb && SS_SB_KIND(sb) != SS_SB_NONE;
}

char *const *__ss_exec_env(const struct ss_target *t, char *const *envp,
			   const struct ss_exec_room *r, char **slots, char *text)
{
	const struct ss_exec_self *me = __ss_exec_self();
	unsigned sb = __ss_sandbox_peek();
	int kind, dropped = 0, kept = 0, same = -1;

	/* Strict mode kills an openat: nothing is looked at. Under a filter, or a tracer,
	 * the files are read with the calls the dynamic loader made to load this process
	 * (openat, pread64, close) and nothing else: no stat. What the library knows
	 * already, never a look of its own (careful()). */
	if (sb & SS_SB_STRICT)
		return envp;
	kind = __ss_exec_target(t, careful(sb));
	/* Nothing to run: the call fails as it would have, and the library's own file is
	 * not looked for. */
	if (kind == SS_T_ABSENT)
		return envp;

	const char *v = *r->at + sizeof "LD_PRELOAD=" - 1;
	char *o = __ss_stpcpy(text, "LD_PRELOAD=");
	for (const char *p = v; *p;) {
		const char *run = p;
		size_t k = 0;
		while (sep(*p))
			p++;
		while (p[k] && !sep(p[k]))
			k++;
		if (!k)
			break;
		if (ours(me, p, k) && !keeps(me, kind, p, k, &same)) {
			dropped = 1;
		} else {
			/* The separators just before it (none before the first kept). */
			if (kept++)
				for (const char *g = run; g < p; g++)
					*o++ = *g;
			__ss_exec_copy(o, p, k);
			o += k;
		}
		p += k;
	}
	*o = 0;
	if (!dropped)
		return envp;
	/* Nothing left: no LD_PRELOAD, unless an earlier one would then be the loader's. */
	unsigned j = 0;
	for (char *const *e = envp; *e; e++) {
		if (e != r->at)
			slots[j++] = *e;
		else if (kept || r->earlier)
			slots[j++] = text;
	}
	slots[j] = 0;
	return slots;
}

/* As glibc's execvp and posix_spawnp search: PATH from the caller's own environment,
 * "/bin:/usr/bin" where it is unset; an empty element is the working directory. The
 * first regular file with an execute bit is the one (the kernel then decides). */
/* Whether BUF is a file to run: 1, a regular file with an execute bit; where the library
 * is careful (a filter, a tracer), 2, a file that opens (O_PATH: a FIFO's writer and a
 * device see nothing); 0 where it is not one and glibc's search passes over it too (its
 * execve would fail with ENOENT, ENOTDIR or EACCES), -1 where that search would stop at
 * it (ELOOP, ENAMETOOLONG...). */
static int runnable(const char *buf, int careful)
{
	struct stat st;
	long r;
	if (careful) {
		r = __syscall(SYS_openat, AT_FDCWD, buf, O_PATH | O_CLOEXEC);
		if (r >= 0)
			__syscall(SYS_close, r);
	} else {
		r = __syscall(SYS_newfstatat, AT_FDCWD, buf, &st, 0);
		if (!r)
			return (st.st_mode & S_IFMT) == S_IFREG && (st.st_mode & 0111);
	}
	if (r >= 0)
		return 2;
	return r == -ENOENT || r == -ENOTDIR || r == -EACCES ? 0 : -1;
}

int __ss_exec_search(const char *file, char *buf, struct ss_target *t)
{
	int wary = careful(__ss_sandbox_peek()), first = 1;
	const char *path = __ss_env_get(environ, "PATH");
	size_t fl;

	*t = (struct ss_target){ AT_FDCWD, file, 0, 0 };
	if (ss_bad_ptr(file))
		return 0;
	fl = __ss_strlen(file);
	for (const char *c = file; *c; c++)
		if (*c == '/')
			return 0;
	if (!*file)
		return 0;
	if (!path)
		path = "/bin:/usr/bin";
	for (const char *p = path;; p++) {
		const char *s = p;
		while (*p && *p != ':')
			p++;
		size_t dl = (size_t)(p - s);
		if (dl + 1 + fl + 1 <= SS_PATH_MAX) {
			char *o = buf;
			if (dl) {
				__ss_exec_copy(o, s, dl);
				o += dl;
				*o++ = '/';
			}
			__ss_stpcpy(o, file);
			int k = runnable(buf, wary);
			if (k > 0) {
				t->path = buf, t->regular = k == 1;
				return first;
			}
			if (k < 0)
				first = 0;
		} else {
			first = 0;	/* glibc's search may see it otherwise */
		}
		if (!*p)
			break;
	}
	return 0;
}
