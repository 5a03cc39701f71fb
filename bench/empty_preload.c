/* The floor of a preload: a shared library exporting the names libsysshim.so.0 exports,
 * each C-library name going straight to the syscall glibc 2.36 makes for it (x86_64:
 * fstat is newfstatat(fd, "", st, AT_EMPTY_PATH)), with no initializer (linked with
 * -nostartfiles), no resolver, no state. What a process pays over it under the library
 * is the library's own cost (tools/proc-cost.sh, make bench-real's empty-preload column).
 *
 * Built with -include of a generated header (mk/quality.mk, from `nm -D --defined-only`
 * of the library): EXPORT_name for each C-library name the library exports, STUB(name)
 * for each of its own (sysshim_*), which no program here calls. A name the library exports
 * and this file does not define fails the build's comparison of the two export lists, so
 * the floor tracks the library.
 *
 * The fd stats (an fd, or an empty or NULL path with AT_EMPTY_PATH) go through
 * floor_fd_stat and floor_fd_statx, which no other path reaches: tools/proc-cost.sh reads
 * from callgrind's profile whether a process made one through these exports. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <dlfcn.h>
#include <spawn.h>

#define EXPORT __attribute__((visibility("default")))

#if defined(__x86_64__)
static long sc6(long n, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return r;
}

static long sc4r(long n, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
	return r;
}
#elif defined(__aarch64__)
static long sc6(long n, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
	return x0;
}

static long sc4r(long n, long a, long b, long c, long d)
{
	return sc6(n, a, b, c, d, 0, 0);
}
#else
#error "the floor preload knows the syscall instruction of x86_64 and aarch64 only"
#endif

/* glibc's convention: -1 and errno for -4095..-1; the errno store out of line, so that the
 * calls that succeed keep no stack frame. */
__attribute__((noinline, cold)) static long fail(long r)
{
	errno = -r;
	return -1;
}

static inline long ret(long r)
{
	return (unsigned long)r > -4096UL ? fail(r) : r;
}

#define sc4(n, a, b, c, d) ret(sc4r(n, (long)(a), (long)(b), (long)(c), (long)(d)))
#define sc5(n, a, b, c, d, e) ret(sc6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0))

/* glibc's struct stat and stat64 are the kernel's on the 64-bit machines built here. */
__attribute__((noinline, visibility("hidden"))) int floor_fd_stat(int fd, void *st, int flag)
{
	return sc4(SYS_newfstatat, fd, "", st, flag | AT_EMPTY_PATH);
}

__attribute__((noinline, visibility("hidden"))) int floor_fd_statx(int fd, const char *p, int flag,
								   unsigned mask, struct statx *sx)
{
	return sc5(SYS_statx, fd, p, flag, mask, sx);
}

/* glibc declares the paths nonnull, but Linux 6.11+ takes NULL with AT_EMPTY_PATH: the
 * empty asm keeps the compiler from dropping the test on that promise. */
#define MAY_BE_NULL(p) __asm__("" : "+r"(p))

static int at(int d, const char *p, void *st, int flag)
{
	MAY_BE_NULL(p);
	if ((flag & AT_EMPTY_PATH) && (!p || !*p))
		return floor_fd_stat(d, st, flag);
	return sc4(SYS_newfstatat, d, p, st, flag);
}

/* The legacy names' version argument: glibc's x86_64 accepts 0 and 1 (_STAT_VER_KERNEL,
 * _STAT_VER_LINUX). */
#define BAD_VER(v) ((unsigned)(v) > 1 ? (errno = EINVAL, 1) : 0)

#ifdef EXPORT_fstat
EXPORT int fstat(int fd, struct stat *st) { return floor_fd_stat(fd, st, 0); }
#endif
#ifdef EXPORT_fstat64
EXPORT int fstat64(int fd, struct stat64 *st) { return floor_fd_stat(fd, st, 0); }
#endif
#ifdef EXPORT_stat
EXPORT int stat(const char *p, struct stat *st) { return sc4(SYS_newfstatat, AT_FDCWD, p, st, 0); }
#endif
#ifdef EXPORT_stat64
EXPORT int stat64(const char *p, struct stat64 *st) { return sc4(SYS_newfstatat, AT_FDCWD, p, st, 0); }
#endif
#ifdef EXPORT_lstat
EXPORT int lstat(const char *p, struct stat *st)
{
	return sc4(SYS_newfstatat, AT_FDCWD, p, st, AT_SYMLINK_NOFOLLOW);
}
#endif
#ifdef EXPORT_lstat64
EXPORT int lstat64(const char *p, struct stat64 *st)
{
	return sc4(SYS_newfstatat, AT_FDCWD, p, st, AT_SYMLINK_NOFOLLOW);
}
#endif
#ifdef EXPORT_fstatat
EXPORT int fstatat(int d, const char *p, struct stat *st, int flag) { return at(d, p, st, flag); }
#endif
#ifdef EXPORT_fstatat64
EXPORT int fstatat64(int d, const char *p, struct stat64 *st, int flag) { return at(d, p, st, flag); }
#endif
#ifdef EXPORT_statx
EXPORT int statx(int d, const char *p, int flag, unsigned mask, struct statx *sx)
{
	MAY_BE_NULL(p);
	if ((flag & AT_EMPTY_PATH) && (!p || !*p))
		return floor_fd_statx(d, p, flag, mask, sx);
	return sc5(SYS_statx, d, p, flag, mask, sx);
}
#endif
#ifdef EXPORT___fxstat
EXPORT int __fxstat(int v, int fd, struct stat *st) { return BAD_VER(v) ? -1 : floor_fd_stat(fd, st, 0); }
#endif
#ifdef EXPORT___fxstat64
EXPORT int __fxstat64(int v, int fd, struct stat *st) { return BAD_VER(v) ? -1 : floor_fd_stat(fd, st, 0); }
#endif
#ifdef EXPORT___xstat
EXPORT int __xstat(int v, const char *p, struct stat *st)
{
	return BAD_VER(v) ? -1 : sc4(SYS_newfstatat, AT_FDCWD, p, st, 0);
}
#endif
#ifdef EXPORT___xstat64
EXPORT int __xstat64(int v, const char *p, struct stat *st)
{
	return BAD_VER(v) ? -1 : sc4(SYS_newfstatat, AT_FDCWD, p, st, 0);
}
#endif
#ifdef EXPORT___lxstat
EXPORT int __lxstat(int v, const char *p, struct stat *st)
{
	return BAD_VER(v) ? -1 : sc4(SYS_newfstatat, AT_FDCWD, p, st, AT_SYMLINK_NOFOLLOW);
}
#endif
#ifdef EXPORT___lxstat64
EXPORT int __lxstat64(int v, const char *p, struct stat *st)
{
	return BAD_VER(v) ? -1 : sc4(SYS_newfstatat, AT_FDCWD, p, st, AT_SYMLINK_NOFOLLOW);
}
#endif
#ifdef EXPORT___fxstatat
EXPORT int __fxstatat(int v, int d, const char *p, struct stat *st, int flag)
{
	return BAD_VER(v) ? -1 : at(d, p, st, flag);
}
#endif
#ifdef EXPORT___fxstatat64
EXPORT int __fxstatat64(int v, int d, const char *p, struct stat *st, int flag)
{
	return BAD_VER(v) ? -1 : at(d, p, st, flag);
}
#endif
#ifdef EXPORT_prctl
EXPORT int prctl(int op, ...)
{
	va_list ap;
	va_start(ap, op);
	unsigned long a = va_arg(ap, unsigned long), b = va_arg(ap, unsigned long);
	unsigned long c = va_arg(ap, unsigned long), d = va_arg(ap, unsigned long);
	va_end(ap);
	return ret(sc6(SYS_prctl, op, (long)a, (long)b, (long)c, (long)d, 0));
}
#endif
#ifdef EXPORT_syscall
EXPORT long syscall(long n, ...)
{
	va_list ap;
	va_start(ap, n);
	long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
	long d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
	va_end(ap);
	return ret(sc6(n, a, b, c, d, e, f));
}
#endif

/* The exec family and posix_spawn: execve is the syscall; the rest go to the next
 * definition, looked up when first called (dlsym's import is bound lazily: a process that
 * never execs pays nothing for it); the variadic ones gather their arguments on the stack. */
extern char **environ;
#define NEXT(name, type) ((type)dlsym(RTLD_NEXT, #name))
typedef int execve_fn(const char *, char *const[], char *const[]);
typedef int execv_fn(const char *, char *const[]);
#define MAX_ARGS 4096
#define GATHER(a0, ap, argv)							\
	const char *argv[MAX_ARGS];						\
	int n_ = 0;								\
	for (argv[n_] = a0; argv[n_] && n_ < MAX_ARGS - 1;)			\
		argv[++n_] = va_arg(ap, const char *);				\
	argv[n_] = 0

#ifdef EXPORT_execve
EXPORT int execve(const char *p, char *const a[], char *const e[])
{
	return ret(sc6(SYS_execve, (long)p, (long)a, (long)e, 0, 0, 0));
}
#endif
#ifdef EXPORT_execv
EXPORT int execv(const char *p, char *const a[])
{
	return ret(sc6(SYS_execve, (long)p, (long)a, (long)environ, 0, 0, 0));
}
#endif
#ifdef EXPORT_execvp
EXPORT int execvp(const char *f, char *const a[]) { return NEXT(execvp, execv_fn *)(f, a); }
#endif
#ifdef EXPORT_execvpe
EXPORT int execvpe(const char *f, char *const a[], char *const e[])
{
	return NEXT(execvpe, execve_fn *)(f, a, e);
}
#endif
#ifdef EXPORT_fexecve
EXPORT int fexecve(int fd, char *const a[], char *const e[])
{
	return NEXT(fexecve, int (*)(int, char *const[], char *const[]))(fd, a, e);
}
#endif
#ifdef EXPORT_execveat
EXPORT int execveat(int d, const char *p, char *const a[], char *const e[], int fl)
{
	return ret(sc6(SYS_execveat, d, (long)p, (long)a, (long)e, fl, 0));
}
#endif
#ifdef EXPORT_execl
EXPORT int execl(const char *p, const char *a0, ...)
{
	va_list ap;
	va_start(ap, a0);
	GATHER(a0, ap, argv);
	va_end(ap);
	return execv(p, (char *const *)argv);
}
#endif
#ifdef EXPORT_execle
EXPORT int execle(const char *p, const char *a0, ...)
{
	va_list ap;
	va_start(ap, a0);
	GATHER(a0, ap, argv);
	char *const *e = va_arg(ap, char *const *);
	va_end(ap);
	return execve(p, (char *const *)argv, e);
}
#endif
#ifdef EXPORT_execlp
EXPORT int execlp(const char *f, const char *a0, ...)
{
	va_list ap;
	va_start(ap, a0);
	GATHER(a0, ap, argv);
	va_end(ap);
	return execvp(f, (char *const *)argv);
}
#endif
typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *,
		     const posix_spawnattr_t *, char *const[], char *const[]);
#ifdef EXPORT_posix_spawn
EXPORT int posix_spawn(pid_t *pid, const char *p, const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *at, char *const a[], char *const e[])
{
	return NEXT(posix_spawn, spawn_fn *)(pid, p, fa, at, a, e);
}
#endif
#ifdef EXPORT_posix_spawnp
EXPORT int posix_spawnp(pid_t *pid, const char *f, const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *at, char *const a[], char *const e[])
{
	return NEXT(posix_spawnp, spawn_fn *)(pid, f, fa, at, a, e);
}
#endif

/* The library's own names: loaded and looked up like the library's, never called. */
#define STUB(name) EXPORT long name(void) { return -ENOSYS; }
#ifdef FLOOR_STUBS
FLOOR_STUBS
#endif
