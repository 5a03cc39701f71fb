/* sysshim-run [-v] [--always|--never|--auto] [--] COMMAND [ARGS...]: runs COMMAND with
 * libsysshim preloaded where that can pay (usage() says when), else untouched.
 *
 * It runs before every command it wraps, so it is one small static program that links
 * no libc: the library's raw syscalls (src/internal/syscall.h), the entry point in
 * arch/<arch>/crt_arch.h, and nothing to load. Wrapping a command costs one exec of a
 * few pages (README, "What real programs gain", has the numbers). It is a static PIE
 * with no relocations at all (the Makefile checks that), so it needs no self-relocation.
 *
 * auto preloads when
 *   - a sandbox refuses a call that glibc 2.33-2.38 does not fall back from: statx
 *     answered EPERM (glibc's statx() falls back only on ENOSYS: ls and stat fail).
 *     Checked on every start: sandboxes are per process tree. (A sandbox that refuses
 *     newfstatat breaks glibc's ld.so itself, which no preload can mend.) Or
 *   - the kernel lacks the empty-path fast path: newfstatat(fd, "", AT_EMPTY_PATH) costs
 *     at least SYSSHIM_RUN_RATIO (1.5) times fstat(fd). A kernel that takes a NULL path
 *     (Linux 6.11+) has the fast path and is not timed. Otherwise the two calls are timed,
 *     interleaved (16 rounds of 16 calls each, the fastest round of each), because
 *     version numbers lie: distribution kernels backport the 6.6 fast path. The timing
 *     is cached per boot (keyed by /proc/sys/kernel/random/boot_id) in
 *     $SYSSHIM_RUN_CACHE, else $XDG_RUNTIME_DIR/sysshim-run.cache, else
 *     /tmp/sysshim-run-UID.cache.
 * Where it would preload (auto's answer, or --always), it first reads the command it is
 * about to exec (each candidate of the PATH search): open, fstat, one read of the first
 * page (the ELF header and program headers, normally the notes), close; a pread only for
 * program headers or notes beyond that page. It runs the command untouched when the
 * library cannot reach it or gains nothing there:
 *   - set-user-ID or set-group-ID (the loader ignores LD_PRELOAD in secure mode; the
 *     file is not even read),
 *   - an ELF of another class, byte order or machine (a 32-bit program: its ld.so
 *     prints "wrong ELF class" and ignores the library),
 *   - a Go program (a "Go" build-ID note), static or dynamic (cgo): Go makes its stat
 *     calls as raw syscalls, not through libc,
 *   - a static program (no PT_INTERP): no ld.so runs,
 *   - an ELF the kernel will not run.
 * A #! script is preloaded as before, whatever its interpreter (the commands it runs
 * inherit LD_PRELOAD); -v reads the interpreter too and says what it is. Where it steps
 * aside anyway (--never, auto's no), the command is not read. An ELF file that execve
 * refuses with ENOEXEC is not handed to /bin/sh as execvp would (126, as bash does).
 * Test hook: SYSSHIM_RUN_TIMING="FSTAT_NS EMPTY_NS" replaces the NULL check and the
 * measurement (nothing cached). --measure prints a fresh timing (for benchmarks).
 * Exit status: the command's; 125 usage; 126 the command cannot be run; 127 it (or
 * the library, where it is to be preloaded) is not found, as env(1) does.
 *
 * Numbers are fixed point, never floating: times in tenths of a ns, ratios in
 * hundredths. Strings are built on the stack; no pointer tables (they would need
 * relocations). */
#include "kdefs.h"
#include "crt_arch.h"
#include "elf.h"
#include "elf_arch.h"

#ifndef SYSSHIM_LIBDIR
#define SYSSHIM_LIBDIR "/usr/local/lib"
#endif
#ifndef SYSSHIM_SONAME
#define SYSSHIM_SONAME "libsysshim.so.0"
#endif
#ifndef SYSSHIM_VERSION
#define SYSSHIM_VERSION "0"
#endif

#define O_RDONLY	0
#define O_WRONLY	01
#define O_CREAT		0100
#define O_EXCL		0200
#define O_CLOEXEC	02000000
#define W_OK		2
#define S_IFMT		0170000
#define S_IFREG		0100000
#define CLOCK_MONOTONIC	1
#define NO_FD		0x7fffffff	/* an fd nobody has open: the library's probe's */
#define EACCES		13
#define ENOEXEC		8
#define EINTR		4
#define E2BIG		7
#define ETXTBSY		26
#define EISDIR		21
#define ENODEV		19
#define ESTALE		116
#define ETIMEDOUT	110

#define ROUNDS 16
#define CALLS 16
#define PATH_MAX 4096

static char **env;

/* ---- what the compiler may call, and string helpers */
void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;
	while (n--)
		*p++ = *q++;
	return d;
}

static size_t slen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static int seq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* The library's __ss_env_value (src/internal/env.c) would do, but it reads libc's
 * `environ` through the GOT on aarch64, which is a relocation: not here. */
static const char *get_env(const char *name)
{
	for (char **e = env; *e; e++) {
		size_t i = 0;
		while (name[i] && (*e)[i] == name[i])
			i++;
		if (!name[i] && (*e)[i] == '=')
			return *e + i + 1;
	}
	return 0;
}

/* ---- output: a line built in a buffer, written at once */
struct out {
	char b[2048];
	size_t n;
};

/* Declares an empty struct out NAME without zeroing its buffer (an initializer would
 * clear all 2 KB, on every start). */
#define OUT(name) struct out name; name.n = 0

/* O may be 0: nothing is said (what the command is, built only under -v). */
static void put(struct out *o, const char *s)
{
	if (!o)
		return;
	while (*s && o->n < sizeof o->b - 1)
		o->b[o->n++] = *s++;
}

/* Whether something put did not fit (and was cut). */
static int full(const struct out *o)
{
	return o->n >= sizeof o->b - 1;
}

/* The text so far as a C string (put always leaves room for the 0). */
static char *cstr(struct out *o)
{
	o->b[o->n] = 0;
	return o->b;
}

/* v / 10^dec with dec decimals (rounded by the caller), e.g. put_fix(o, 250, 2) = "2.50". */
static void put_fix(struct out *o, uint64_t v, int dec)
{
	char t[32];
	int i = 0;
	if (!o)
		return;
	do {
		t[i++] = (char)('0' + v % 10);
		v /= 10;
		if (i == dec)
			t[i++] = '.';
	} while (v || i <= dec + (dec > 0));
	while (i && o->n < sizeof o->b - 1)
		o->b[o->n++] = t[--i];
}

static void flush(struct out *o, int fd)
{
	const char *p = o->b;
	size_t n = o->n;
	while (n) {
		long r = __syscall(SYS_write, fd, p, n);
		if (r == -EINTR)
			continue;
		if (r <= 0)
			break;
		p += r, n -= (size_t)r;
	}
	o->n = 0;
}

static void say(const char *a, const char *b, const char *c)
{
	OUT(o);
	put(&o, "sysshim-run: ");
	put(&o, a);
	put(&o, b ? b : "");
	put(&o, c ? c : "");
	put(&o, "\n");
	flush(&o, 2);
}

static const char *error_text(int e)
{
	if (e == ENOENT) return "No such file or directory";
	if (e == EACCES) return "Permission denied";
	if (e == ENOEXEC) return "Exec format error";
	if (e == ENOTDIR) return "Not a directory";
	if (e == EISDIR) return "Is a directory";
	if (e == ELOOP) return "Too many levels of symbolic links";
	if (e == ENAMETOOLONG) return "File name too long";
	if (e == E2BIG) return "Argument list too long";
	if (e == ENOMEM) return "Cannot allocate memory";
	if (e == ETXTBSY) return "Text file busy";
	if (e == EPERM) return "Operation not permitted";
	if (e == EINVAL) return "Invalid argument";
	return "cannot be run";
}

/* "123", "123.4": value times 10^dec, or -1. Stops at a space or the end. */
static int64_t parse_fix(const char **sp, int dec)
{
	const char *s = *sp;
	int64_t v = 0;
	int digits = 0, frac = -1;
	while (*s == ' ')
		s++;
	for (; *s && *s != ' ' && *s != '\n'; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
			return -1;
		if (frac >= dec)
			continue;
		v = v * 10 + (*s - '0');
		digits++;
		if (frac >= 0)
			frac++;
	}
	if (!digits)
		return -1;
	for (frac = frac < 0 ? 0 : frac; frac < dec; frac++)
		v *= 10;
	*sp = s;
	return v;
}

/* ---- the timing */
static long sys_fstat(int fd, struct stat *st) { return __syscall(SYS_fstat, fd, st); }
static long sys_empty(int fd, const char *path, struct stat *st)
{
	return __syscall(SYS_newfstatat, fd, path, st, AT_EMPTY_PATH);
}

struct ts {
	long sec, nsec;
};

static uint64_t now_ns(void)
{
	struct ts t = { 0, 0 };
	__syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
	return (uint64_t)t.sec * 1000000000u + (uint64_t)t.nsec;
}

/* The fastest round of CALLS calls of each on an fd of "/", interleaved so that drift
 * hits both, less the clock's own cost (a syscall here: no vDSO without a libc to find
 * it): tenths of a ns per call. 0; 1 when the clock did not move over a round of
 * either (a clock that ticks by jiffies, as a tinyconfig kernel's under qemu): no
 * timing; or -errno when "/" cannot be opened. */
static long measure(uint64_t *fs, uint64_t *em)
{
	struct stat st;
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	uint64_t best_f = UINT64_MAX, best_e = UINT64_MAX, clk = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t a = now_ns(), b = now_ns();
		if (b - a < clk)
			clk = b - a;
	}
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < 2; k++) {
			int empty = (r + k) & 1;
			uint64_t t0 = now_ns();
			for (int i = 0; i < CALLS; i++)
				empty ? sys_empty(fd, "", &st) : sys_fstat(fd, &st);
			uint64_t d = now_ns() - t0;
			d = d > clk ? d - clk : 1;
			if (empty && d < best_e)
				best_e = d;
			if (!empty && d < best_f)
				best_f = d;
		}
	}
	__syscall(SYS_close, fd);
	if (best_f <= 1 || best_e <= 1)
		return 1;
	*fs = best_f * 10 / CALLS ? best_f * 10 / CALLS : 1;
	*em = best_e * 10 / CALLS ? best_e * 10 / CALLS : 1;
	return 0;
}

/* ---- the per-boot cache: one line "BOOT_ID FSTAT_NS EMPTY_NS" */
/* The cache file's name into O; -1 when it does not fit (then nothing is cached). */
static int cache_path(struct out *o)
{
	const char *e = get_env("SYSSHIM_RUN_CACHE"), *x = get_env("XDG_RUNTIME_DIR");
	if (e && *e) {
		put(o, e);
	} else if (x && *x == '/' && !__syscall(SYS_faccessat, AT_FDCWD, x, W_OK)) {
		put(o, x);
		put(o, "/sysshim-run.cache");
	} else {
		put(o, "/tmp/sysshim-run-");
		put_fix(o, (uint64_t)__syscall(SYS_getuid), 0);
		put(o, ".cache");
	}
	return full(o) ? -1 : 0;
}

static int read_small(const char *path, int flags, char *buf, size_t n, struct stat *st)
{
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | flags);
	long r = -1;
	if (fd < 0)
		return -1;
	if (!st || (!sys_fstat(fd, st) && (st->st_mode & S_IFMT) == S_IFREG &&
		    st->st_uid == (unsigned)__syscall(SYS_getuid)))
		r = __syscall(SYS_read, fd, buf, n - 1);
	__syscall(SYS_close, fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	return 0;
}

static int read_boot_id(char *buf, size_t n)
{
	if (read_small("/proc/sys/kernel/random/boot_id", 0, buf, n, 0))
		return -1;
	for (size_t i = 0; buf[i]; i++)
		if (buf[i] == '\n' || buf[i] == ' ')
			buf[i] = 0;
	return *buf ? 0 : -1;
}

/* Only a regular file the user owns is believed, and only for this boot. */
static int cache_read(const char *path, const char *boot, uint64_t *fs, uint64_t *em)
{
	char line[256];
	struct stat st;
	if (read_small(path, O_NOFOLLOW, line, sizeof line, &st))
		return -1;
	size_t i = 0;
	while (boot[i] && line[i] == boot[i])
		i++;
	if (boot[i] || line[i] != ' ')
		return -1;
	const char *p = line + i;
	int64_t f = parse_fix(&p, 1), e = f > 0 ? parse_fix(&p, 1) : -1;
	if (f <= 0 || e <= 0)
		return -1;
	*fs = (uint64_t)f, *em = (uint64_t)e;
	return 0;
}

static void cache_write(const char *path, const char *boot, uint64_t fs, uint64_t em)
{
	OUT(t);
	OUT(o);
	put(&t, path);
	put(&t, ".");
	put_fix(&t, (uint64_t)__syscall(SYS_getpid), 0);
	if (full(&t))
		return;
	const char *tmp = cstr(&t);
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, tmp,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	put(&o, boot);
	put(&o, " ");
	put_fix(&o, fs, 1);
	put(&o, " ");
	put_fix(&o, em, 1);
	put(&o, "\n");
	long w = __syscall(SYS_write, fd, o.b, o.n);
	if (__syscall(SYS_close, fd) || w != (long)o.n ||
	    __syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path, 0))
		__syscall(SYS_unlinkat, AT_FDCWD, tmp, 0);
}

/* ---- the decision */
struct decision {
	int preload;
	struct out why;
};

static void decide(struct decision *d, const char *mode)
{
	struct stat st;
	unsigned char sx[256];
	struct out *w = &d->why;

	d->preload = 0;
	if (seq(mode, "always")) {
		d->preload = 1;
		put(w, "asked to (--always or SYSSHIM_RUN=always)");
		return;
	}
	/* What the kernel and a sandbox answer, asked on an fd nobody has open (as the
	 * library's probe asks): no open, no path lookup. A NULL path with AT_EMPTY_PATH
	 * gets EBADF where it is accepted (6.11+), EFAULT where it is read (before), and a
	 * seccomp filter's errno where the call is refused. */
	long x = __syscall(SYS_statx, NO_FD, 0, AT_EMPTY_PATH, STATX_BASIC_STATS, sx);
	long f = sys_fstat(NO_FD, &st), n = sys_empty(NO_FD, 0, &st);
	/* Sandboxes: what glibc 2.36 does not fall back from. */
	if (x == -EPERM) {
		d->preload = 1;
		put(w, "statx is refused here with EPERM (a sandbox): glibc's statx() does not "
		       "fall back from EPERM (ls, stat fail), sysshim's does");
		return;
	}
	if (f == -ENOSYS || f == -EPERM || n == -ENOSYS || n == -EPERM) {
		put(w, "fstat or newfstatat refused here: nothing to gain");
		return;
	}
	uint64_t fs = 0, em = 0, ratio_min = 150;
	const char *hook = get_env("SYSSHIM_RUN_TIMING"), *r;
	char boot[128];
	OUT(cpath);
	int64_t v, v2;
	int hooked = hook && (v = parse_fix(&hook, 1)) > 0 && (v2 = parse_fix(&hook, 1)) > 0;
	if (hooked)
		fs = (uint64_t)v, em = (uint64_t)v2;
	/* 6.11+: NULL accepted, the fast path is there; no timing needed. */
	if (!hooked && n == -EBADF) {
		put(w, "the kernel accepts newfstatat(fd, NULL, AT_EMPTY_PATH) (Linux 6.11+): "
		       "glibc's empty-path fstat is on the fast path, nothing to save");
		return;
	}
	if ((r = get_env("SYSSHIM_RUN_RATIO")) && (v = parse_fix(&r, 2)) > 0)
		ratio_min = (uint64_t)v;
	OUT(src);
	if (hooked) {
		put(&src, "from SYSSHIM_RUN_TIMING");
	} else {
		int have_boot = !cache_path(&cpath) && !read_boot_id(boot, sizeof boot);
		if (have_boot && !cache_read(cstr(&cpath), boot, &fs, &em)) {
			put(&src, "measured this boot, cached in ");
		} else {
			long m = measure(&fs, &em);
			if (m == 1) {
				put(w, "the clock here does not move over 16 calls (it ticks by jiffies): "
				       "cannot time newfstatat(fd, \"\") against fstat; left to glibc (not cached)");
				return;
			}
			if (m) {
				put(w, "cannot open / to measure (");
				put(w, error_text((int)-m));
				put(w, "): left to glibc");
				return;
			}
			put(&src, "measured now");
			if (have_boot) {
				cache_write(cstr(&cpath), boot, fs, em);
				put(&src, ", cached in ");
			}
		}
		if (have_boot)
			put(&src, cstr(&cpath));
	}
	uint64_t ratio = (em * 100 + fs / 2) / fs;
	d->preload = ratio >= ratio_min;
	put(w, "newfstatat(fd, \"\", AT_EMPTY_PATH) costs ");
	put_fix(w, ratio, 2);
	put(w, " times fstat(fd) here (");
	put_fix(w, (em + 5) / 10, 0);
	put(w, " vs ");
	put_fix(w, (fs + 5) / 10, 0);
	put(w, " ns, ");
	put(w, cstr(&src));
	put(w, d->preload ? "): the kernel lacks the empty-path fast path, glibc's fstat() pays it"
			  : "): the kernel has the empty-path fast path, nothing to save");
	put(w, " (threshold ");
	put_fix(w, ratio_min, 2);
	put(w, ")");
}

/* ---- finding the library */
static int is_file(const char *path)
{
	struct stat st;
	return !__syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) && (st.st_mode & S_IFMT) == S_IFREG;
}

/* LIB = CAND made absolute (the command may change directory), if CAND is a file. */
static int absolute(struct out *lib, const char *cand)
{
	char cwd[PATH_MAX];
	if (!is_file(cand))
		return -1;
	lib->n = 0;
	if (cand[0] != '/') {
		if (__syscall(SYS_getcwd, cwd, sizeof cwd) <= 0)
			return -1;
		put(lib, cwd);
		put(lib, "/");
	}
	put(lib, cand);
	return full(lib) ? -1 : 0;
}

/* $SYSSHIM_LIB when it is set (and then only it: a wrong setting is an error, not a
 * reason to load another file), else the first of ../lib beside this program (the
 * build tree) and the libdir it was built for. LOOKED says where it looked. */
static int find_lib(struct out *lib, const char *argv0, struct out *looked)
{
	const char *e = get_env("SYSSHIM_LIB");
	if (e && *e) {
		put(looked, "SYSSHIM_LIB=");
		put(looked, e);
		put(looked, ", which is no file");
		return absolute(lib, e);
	}
	/* This program's directory (argv[0]'s without /proc), or ".". */
	char exe[PATH_MAX];
	long k = __syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", exe, sizeof exe - 1);
	if (k <= 0) {
		k = (long)slen(argv0);
		if (k >= (long)sizeof exe)
			k = 0;
		memcpy(exe, argv0, (size_t)k);
	}
	while (k && exe[k - 1] != '/')
		k--;
	if (k > 1)
		k--;
	exe[k] = 0;
	OUT(c);
	put(&c, k ? exe : ".");
	put(&c, "/../lib/" SYSSHIM_SONAME);
	put(looked, k ? exe : ".");
	put(looked, "/../lib, " SYSSHIM_LIBDIR);
	if (!full(&c) && !absolute(lib, cstr(&c)))
		return 0;
	return absolute(lib, SYSSHIM_LIBDIR "/" SYSSHIM_SONAME);
}

/* ---- reading the command: whether a preload can reach it at all */
/* The command's first page (its ELF header and program headers, normally its notes too)
 * is read once where sysshim-run would preload; a program the library cannot reach runs
 * untouched. Nothing is read where it steps aside anyway. */
#define PAGE		4096
#define O_NOCTTY	0400
#define S_ISUID		04000
#define S_ISGID		02000
#define S_IXGRP		00010
/* What this system's programs are: every arch here is 64-bit, the byte order is the
 * compiler's, the machine is the arch's own (arch/<arch>/elf_arch.h). */
#define ELF_CLASS (sizeof(long) == 8 ? ELFCLASS64 : ELFCLASS32)
#define ELF_DATA (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB)

/* What a command is. Up to K_OTHER the library is preloaded as decided; from K_STATIC
 * on the command runs untouched. */
enum kind {
	K_DYNAMIC,	/* an ELF program of this machine with an interpreter (ld.so) */
	K_SCRIPT,	/* #!: as before (what it runs inherits LD_PRELOAD) */
	K_OTHER,	/* no ELF, no #! (execvp's /bin/sh runs it), or not readable: as before */
	K_STATIC,	/* no PT_INTERP: no loader runs */
	K_GO,		/* a Go build-ID note: Go makes its own syscalls */
	K_FOREIGN,	/* another class, byte order or machine: its loader refuses the library */
	K_SETID,	/* set-user-ID or set-group-ID: the loader's secure mode ignores it */
	K_BAD,		/* an ELF the kernel will not run */
};

/* The file's bytes [off, off + n) in b: the first page, or what a pread put there. */
struct window {
	int fd;
	unsigned char *b;
	uint64_t off;
	long n;
};

/* LEN (at most PAGE) bytes at file offset POS: from the window, or (MAY_READ) a pread
 * of the page at POS into it; 0 when they are not there. */
static const unsigned char *bytes_at(struct window *w, uint64_t pos, uint64_t len, int may_read)
{
	uint64_t rel = pos - w->off;
	if (pos >= w->off && rel <= (uint64_t)w->n && len <= (uint64_t)w->n - rel)
		return w->b + rel;
	if (!may_read || len > PAGE || (int64_t)pos < 0)
		return 0;
	long r = __syscall(SYS_pread64, w->fd, w->b, PAGE, (long)pos);
	w->off = pos;
	w->n = r < 0 ? 0 : r;
	return (uint64_t)w->n >= len ? w->b : 0;
}

/* Whether the PT_NOTE segment PH holds Go's build-ID note: name "Go" (namesz 4, "Go\0\0",
 * as the Go linker writes it; 3 accepted), type 4. An external link (cgo's) keeps it.
 * The segment's first page is looked at; -1 when it is not in the window and MAY_READ
 * is 0. */
static int go_note(struct window *w, const struct phdr *ph, int may_read)
{
	uint64_t len = ph->filesz < PAGE ? ph->filesz : PAGE, a = ph->align == 8 ? 8 : 4;
	const unsigned char *p = bytes_at(w, ph->offset, len, may_read);
	struct nhdr nh;
	if (!p)
		return may_read ? 0 : -1;
	for (uint64_t i = 0; len - i >= sizeof nh;) {
		__builtin_memcpy(&nh, p + i, sizeof nh);
		/* The descriptor and the next note start aligned (as binutils and the kernel
		 * read them: for an 8-aligned segment the name's end is rounded, not its size). */
		uint64_t name = i + sizeof nh, desc = (name + nh.namesz + a - 1) & ~(a - 1);
		uint64_t next = (desc + nh.descsz + a - 1) & ~(a - 1);
		if (nh.type == NT_GO_BUILDID && (nh.namesz == 3 || nh.namesz == 4) &&
		    len - name >= nh.namesz && p[name] == 'G' && p[name + 1] == 'o' && !p[name + 2] &&
		    (nh.namesz == 3 || !p[name + 3]))
			return 1;
		if (next > len)
			break;
		i = next;
	}
	return 0;
}

/* "32-bit, little-endian, machine 62" */
static void put_elf_id(struct out *o, unsigned class, unsigned data, unsigned machine)
{
	if (class == ELFCLASS32 || class == ELFCLASS64) {
		put(o, class == ELFCLASS32 ? "32-bit" : "64-bit");
	} else {
		put(o, "class ");
		put_fix(o, class, 0);
	}
	put(o, data == ELFDATA2LSB ? ", little-endian" : data == ELFDATA2MSB ? ", big-endian" : ", byte order ?");
	put(o, ", machine ");
	put_fix(o, machine, 0);
}

/* The kind of the ELF whose first page W holds (N bytes), said in O. */
static int elf_kind(struct window *w, struct out *o)
{
	struct ehdr eh;
	struct phdr ph;
	const unsigned char *b = w->b;
	/* e_ident, e_type and e_machine are where they are in either class; e_machine in
	 * the file's own byte order. */
	if (w->n < 20) {
		put(o, "a truncated ELF file: the kernel will not run it");
		return K_BAD;
	}
	unsigned machine = b[EI_DATA] == ELFDATA2MSB ? (unsigned)b[18] << 8 | b[19] : b[18] | (unsigned)b[19] << 8;
	if (b[EI_CLASS] != ELF_CLASS || b[EI_DATA] != ELF_DATA || machine != ARCH_ELF_MACHINE) {
		put(o, "an ELF of another class or machine (");
		put_elf_id(o, b[EI_CLASS], b[EI_DATA], machine);
		put(o, "; this system's: ");
		put_elf_id(o, ELF_CLASS, ELF_DATA, ARCH_ELF_MACHINE);
		put(o, b[EI_CLASS] != ELF_CLASS ? "): its loader would refuse the library (\"wrong ELF class\")"
					      : "): its loader would refuse the library (another machine's)");
		put(o, " and ignore it");
		return K_FOREIGN;
	}
	if (w->n < (long)sizeof eh) {
		put(o, "a truncated ELF file: the kernel will not run it");
		return K_BAD;
	}
	__builtin_memcpy(&eh, b, sizeof eh);
	/* The kernel's own limits: a program, program headers of its size, 64 KB of them. */
	if ((eh.type != ET_EXEC && eh.type != ET_DYN) || eh.phentsize != sizeof ph || !eh.phnum ||
	    eh.phnum > 65536 / sizeof ph) {
		put(o, "an ELF file but no program (type ");
		put_fix(o, eh.type, 0);
		put(o, ", or bad program headers): the kernel will not run it");
		return K_BAD;
	}
	/* One pass over the program headers: the interpreter, and the notes that were read
	 * with the first page. A second pass, for notes beyond it (a pread), only where it
	 * decides: a program with an interpreter. */
	uint64_t interp_off = 0, interp_len = 0;
	int interp = 0, go = 0, far = 0;
	for (int pass = 0; pass < 1 + (far && interp) && go <= 0; pass++) {
		for (unsigned i = 0; i < eh.phnum; i++) {
			const unsigned char *p = bytes_at(w, eh.phoff + (uint64_t)i * sizeof ph, sizeof ph, 1);
			if (!p) {
				put(o, "an ELF file whose program headers cannot be read: the kernel will not run it");
				return K_BAD;
			}
			__builtin_memcpy(&ph, p, sizeof ph);
			if (ph.type == PT_INTERP) {
				interp = 1;
				interp_off = ph.offset, interp_len = ph.filesz;
			} else if (ph.type == PT_NOTE && (go = go_note(w, &ph, pass)) != 0) {
				if (go > 0)
					break;
				far = 1;
			}
		}
	}
	go = go > 0;
	if (go) {
		put(o, interp ? "a Go program (a \"Go\" build-ID note; dynamic: cgo)"
			      : "a Go program (a \"Go\" build-ID note; static)");
		put(o, ": Go makes its stat calls itself, not through libc, so the library would "
		       "gain nothing");
		return K_GO;
	}
	if (!interp) {
		put(o, "a static program (no PT_INTERP): no dynamic loader runs, LD_PRELOAD would be ignored");
		return K_STATIC;
	}
	put(o, "a dynamic program");
	const unsigned char *s = interp_len > 1 && interp_len < 256 ? bytes_at(w, interp_off, interp_len, 0) : 0;
	if (s && !s[interp_len - 1]) {
		put(o, " (its loader: ");
		put(o, (const char *)s);
		put(o, ")");
	}
	return K_DYNAMIC;
}

static int setid(uint32_t mode)
{
	return (mode & S_ISUID) || (mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP);
}

/* The mode of FD (PATH 0) or of PATH: fstat, newfstatat; statx where the kernel has
 * neither (loongarch64 before 6.11). */
static long mode_of(int fd, const char *path, uint32_t *mode)
{
	struct stat st;
	struct statx sx;
	long r = path ? __syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) : sys_fstat(fd, &st);
	if (!r)
		*mode = st.st_mode;
	else if (r == -ENOSYS && !(r = __syscall(SYS_statx, path ? AT_FDCWD : fd, path ? path : "",
						 path ? 0 : AT_EMPTY_PATH, STATX_BASIC_STATS, &sx)))
		*mode = sx.stx_mode;
	return r;
}

static int inspect(const char *path, struct out *o, int verbose, int *elf);

/* "#!INTERP [ARG]": a script is preloaded as before, whatever INTERP is (the commands it
 * runs inherit LD_PRELOAD). Under -v (VERBOSE) INTERP is read too and said what it is
 * (not verbosely: one level, a script's interpreter's interpreter is not read). */
static void script(const unsigned char *b, long n, struct out *o, int verbose)
{
	char interp[256];
	long i = 2, k = 0;
	while (i < n && (b[i] == ' ' || b[i] == '\t'))
		i++;
	while (i < n && k < (long)sizeof interp - 1 && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i])
		interp[k++] = (char)b[i++];
	interp[k] = 0;
	put(o, "a script for ");
	put(o, k ? interp : "(no interpreter)");
	if (!verbose || !k)
		return;
	OUT(t);
	int elf, kind = inspect(interp, &t, 0, &elf);
	put(o, ", ");
	put(o, kind < 0 ? "which is missing" : cstr(&t));
	if (kind >= K_STATIC)
		put(o, "; preloaded as before all the same: the commands it runs inherit LD_PRELOAD");
}

/* What the file PATH is (enum kind), said in O; -errno where it cannot be opened for a
 * reason execve would fail with too (ENOENT, ENOTDIR). *ELF: whether it starts as an
 * ELF file. open, fstat, read, close; a pread where the program headers or notes lie
 * beyond the first page. */
static int inspect(const char *path, struct out *o, int verbose, int *elf)
{
	unsigned char b[PAGE];
	uint32_t mode = 0;
	*elf = 0;
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd == -ENOENT || fd == -ENOTDIR)
		return fd;
	long m = fd < 0 ? mode_of(0, path, &mode) : mode_of(fd, 0, &mode);
	int kind = K_OTHER;
	if (!m && setid(mode)) {
		put(o, mode & S_ISUID ? "set-user-ID" : "set-group-ID");
		put(o, ": the loader ignores LD_PRELOAD in secure mode");
		kind = K_SETID;
	} else if (!m && (mode & S_IFMT) != S_IFREG) {
		put(o, "not a regular file");
	} else if (fd < 0) {
		put(o, "not readable (");
		put(o, error_text(-fd));
		put(o, "), so not looked into");
	} else {
		struct window w = { fd, b, 0, __syscall(SYS_read, fd, b, PAGE) };
		if (w.n >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
			*elf = 1;
			kind = elf_kind(&w, o);
		} else if (w.n >= 2 && b[0] == '#' && b[1] == '!') {
			kind = K_SCRIPT;
			script(b, w.n, o, verbose);
		} else if (w.n >= 0) {
			put(o, "neither an ELF file nor a #! script: as before");
		} else {
			put(o, "not readable (");
			put(o, error_text((int)-w.n));
			put(o, "), so not looked into");
		}
	}
	if (fd >= 0)
		__syscall(SYS_close, fd);
	return kind;
}

/* Whether PATH starts as an ELF file (asked only after execve said ENOEXEC). */
static int starts_elf(const char *path)
{
	unsigned char b[4];
	int fd = (int)__syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return 0;
	long r = __syscall(SYS_read, fd, b, 4);
	__syscall(SYS_close, fd);
	return r == 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
}

/* ---- running the command, as execvp(3) does */
/* ELF: 1 when PATH is known to be an ELF file, 0 when known not to be, -1 unknown. */
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

/* What run() needs: the decision so far, and the library once it is found. */
struct job {
	struct decision d;
	int verbose;
	const char *argv0;
	struct out lib;		/* empty until looked for */
};

#define NO_LIB (-4096)	/* not an errno: the library is to be preloaded and is missing */

/* PATH with LD_PRELOAD=LIB[:what it held] in front of the environment. */
static long exec_preloaded(const char *path, char **argv, const struct out *lib, int elf)
{
	size_t n = 0;
	const char *old = get_env("LD_PRELOAD");
	while (env[n])
		n++;
	size_t ln = lib->n, on = old ? slen(old) : 0;
	char pre[ln + on + 13], *nenv[n + 2];
	memcpy(pre, "LD_PRELOAD=", 11);
	memcpy(pre + 11, lib->b, ln);
	if (on) {
		pre[11 + ln] = ':';
		memcpy(pre + 12 + ln, old, on + 1);
	} else {
		pre[11 + ln] = 0;
	}
	size_t k = 0;
	nenv[k++] = pre;
	for (size_t j = 0; j < n; j++) {
		const char *s = env[j];
		if (!(s[0] == 'L' && s[1] == 'D' && s[2] == '_' && s[3] == 'P' && s[4] == 'R' &&
		      s[5] == 'E' && s[6] == 'L' && s[7] == 'O' && s[8] == 'A' && s[9] == 'D' &&
		      s[10] == '='))
			nenv[k++] = env[j];
	}
	nenv[k] = 0;
	return try_exec(path, argv, nenv, elf);
}

/* One candidate PATH: where the decision is to preload, read it first, find the library
 * (once), say what was decided (-v), and exec it. execve's error, or NO_LIB. */
static long attempt(struct job *j, const char *path, char **argv)
{
	if (!j->d.preload)
		return try_exec(path, argv, env, -1);
	OUT(what);
	int elf, kind = inspect(path, j->verbose ? &what : 0, j->verbose, &elf);
	if (kind < 0)
		return kind;
	int pre = kind < K_STATIC;
	if (pre && !j->lib.n) {
		OUT(looked);
		if (find_lib(&j->lib, j->argv0, &looked)) {
			say("cannot find " SYSSHIM_SONAME " (looked in ", cstr(&looked),
			    "); set SYSSHIM_LIB=/path/to/" SYSSHIM_SONAME);
			return NO_LIB;
		}
	}
	if (j->verbose) {
		OUT(o);
		if (pre) {
			put(&o, "preloading ");
			put(&o, cstr(&j->lib));
			put(&o, ": ");
			put(&o, cstr(&j->d.why));
			put(&o, "; ");
			put(&o, path);
			put(&o, " is ");
			put(&o, cstr(&what));
		} else {
			put(&o, "not preloading: ");
			put(&o, path);
			put(&o, " is ");
			put(&o, cstr(&what));
			put(&o, " (else preloading: ");
			put(&o, cstr(&j->d.why));
			put(&o, ")");
		}
		say(cstr(&o), 0, 0);
	}
	return pre ? exec_preloaded(path, argv, &j->lib, elf) : try_exec(path, argv, env, elf);
}

static int run(struct job *j, char **argv)
{
	const char *file = argv[0], *path = get_env("PATH");
	long err = -ENOENT;
	int eacces = 0;
	size_t fl = slen(file);
	for (size_t i = 0; i < fl; i++)
		if (file[i] == '/') {
			err = attempt(j, file, argv);
			goto failed;
		}
	if (!fl)
		goto failed;
	if (!path)
		path = "/bin:/usr/bin";
	for (const char *p = path;; p++) {
		const char *q = p;
		while (*q && *q != ':')
			q++;
		char buf[PATH_MAX];
		size_t dl = (size_t)(q - p);
		if (dl + fl + 2 <= sizeof buf) {
			memcpy(buf, p, dl);
			if (dl)
				buf[dl++] = '/';
			memcpy(buf + dl, file, fl + 1);
			long r = attempt(j, buf, argv);
			if (r == -EACCES)
				eacces = 1;
			else if (r != -ENOENT && r != -ENOTDIR && r != -ESTALE && r != -ENODEV &&
				 r != -ETIMEDOUT) {
				err = r;
				goto failed;
			}
		}
		if (!*q)
			break;
		p = q;
	}
	if (eacces)
		err = -EACCES;
failed:
	if (err == NO_LIB)
		return 127;
	say(file, ": ", error_text((int)-err));
	return err == -ENOENT ? 127 : 126;
}

/* ---- options */
static void usage(int fd)
{
	OUT(o);
	put(&o, "usage: sysshim-run [-v] [--always|--never|--auto] [--] COMMAND [ARGS...]\n"
		"Runs COMMAND with " SYSSHIM_SONAME " preloaded where it can pay:\n"
		"  - a sandbox refuses statx with EPERM (glibc does not fall back: ls and stat fail); or\n"
		"  - the kernel lacks the empty-path fast path: newfstatat(fd, \"\", AT_EMPTY_PATH), which\n"
		"    glibc 2.33-2.38 uses for fstat(), costs 1.5 times fstat(fd) or more: measured once\n"
		"    per boot (a kernel that accepts a NULL path, Linux 6.11+, has the fast path).\n"
		"Otherwise COMMAND runs untouched: the preload costs every process start time.\n"
		"Where it would preload, it reads COMMAND first (its first page) and runs it untouched\n"
		"if it is set-user/group-ID, static, a Go program, or built for another class or\n"
		"machine (the library cannot reach it or gains nothing); a #! script as before.\n");
	flush(&o, fd);
	put(&o, "  --always, --never, --auto   force the choice (default: SYSSHIM_RUN, else auto)\n"
		"  -v, --verbose               say on stderr what was decided and why, and what\n"
		"                              COMMAND is\n"
		"  --measure                   print the two calls' costs here now, and exit\n"
		"  -h, --help, --version       this text; the version\n"
		"Environment: SYSSHIM_RUN=always|never|auto, SYSSHIM_LIB (the library file),\n"
		"  SYSSHIM_RUN_CACHE (the per-boot measurement file), SYSSHIM_RUN_RATIO (1.5).\n"
		"Exit status: COMMAND's; 125 bad usage; 126 COMMAND cannot be run; 127 COMMAND (or\n"
		"  the library, where it is to be preloaded) not found.\n");
	flush(&o, fd);
}

static int sysshim_run(int argc, char **argv)
{
	const char *mode = get_env("SYSSHIM_RUN");
	int verbose = 0, i = 1;
	if (!mode || !*mode)
		mode = "auto";
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (seq(a, "--")) {
			i++;
			break;
		} else if (seq(a, "-h") || seq(a, "--help")) {
			usage(1);
			return 0;
		} else if (seq(a, "--version")) {
			OUT(o);
			put(&o, "sysshim-run (sysshim) " SYSSHIM_VERSION "\n");
			flush(&o, 1);
			return 0;
		} else if (seq(a, "-v") || seq(a, "--verbose")) {
			verbose = 1;
		} else if (seq(a, "--always") || seq(a, "--never") || seq(a, "--auto")) {
			mode = a + 2;
		} else if (seq(a, "--measure")) {
			uint64_t fs, em;
			OUT(o);
			long m = measure(&fs, &em);
			if (m) {
				say(m == 1 ? "the clock here does not move over 16 calls: cannot time them" :
				    "cannot open / to measure: ", m == 1 ? "" : error_text((int)-m), 0);
				return 1;
			}
			put(&o, "fstat ");
			put_fix(&o, fs, 1);
			put(&o, " ns, newfstatat-empty ");
			put_fix(&o, em, 1);
			put(&o, " ns, ratio ");
			put_fix(&o, (em * 100 + fs / 2) / fs, 2);
			put(&o, "\n");
			flush(&o, 1);
			return 0;
		} else if (a[0] == '-') {
			say("unknown option '", a, "' (try --help)");
			return 125;
		} else {
			break;
		}
	}
	if (i >= argc) {
		usage(2);
		return 125;
	}
	if (!seq(mode, "auto") && !seq(mode, "always") && !seq(mode, "never")) {
		say("SYSSHIM_RUN=", mode, ": want always, never or auto");
		return 125;
	}
	if (seq(mode, "never")) {
		struct job j;
		j.d.preload = 0;
		if (verbose)
			say("not preloading: asked not to (--never or SYSSHIM_RUN=never)", 0, 0);
		return run(&j, argv + i);
	}
	struct job j;
	j.d.preload = 0;
	j.d.why.n = 0;
	j.verbose = verbose;
	j.argv0 = argv[0];
	j.lib.n = 0;
	decide(&j.d, mode);
	/* Where it steps aside the decision's three syscalls are all it costs: the command is
	 * not read and the library not looked for. Where it preloads, run() reads each
	 * candidate before its execve, and looks for the library once. */
	if (verbose && !j.d.preload)
		say("not preloading: ", cstr(&j.d.why), 0);
	return run(&j, argv + i);
}

__attribute__((noreturn, used, visibility("hidden"))) void __ss_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	env = argv + argc + 1;
	int r = sysshim_run(argc, argv);
	for (;;)
		__syscall(SYS_exit_group, r);
}
