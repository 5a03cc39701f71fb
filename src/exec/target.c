#include "exec.h"
#include "rt.h"

/* What the program an exec call runs is, read as its loader and the kernel read it:
 * the ELF header (class, byte order, machine), the program headers (PT_INTERP,
 * PT_DYNAMIC, the PT_LOADs), the interpreter's name and the DT_NEEDED names; a #!
 * line's interpreter, one level. Read with pread (fexecve's fd keeps its offset) into
 * small buffers on the stack; every offset and size is checked before use, and a file
 * that cannot be read or makes no sense is SS_T_SERVES: left as it is. */

#define HEAD		1024
#define MAX_LOADS	16
#define MAX_NEEDED	64
#define NAME_MAX_READ	128	/* of a DT_NEEDED name: enough for any sanitizer's */
#define NAMES_AT_ONCE	1024

/* glibc's dynamic loader for this arch, by its file name (Debian's multiarch path and
 * the ABI's path end in it). */
#if defined(__x86_64__)
#define GLIBC_LOADER(b) __ss_streq(b, "ld-linux-x86-64.so.2")
#elif defined(__aarch64__)
#define GLIBC_LOADER(b) (__ss_streq(b, "ld-linux-aarch64.so.1") || __ss_streq(b, "ld-linux-aarch64_be.so.1"))
#elif defined(__loongarch64)
#define GLIBC_LOADER(b) (__ss_streq(b, "ld-linux-loongarch-lp64d.so.1") || __ss_streq(b, "ld-linux-loongarch-lp64s.so.1"))
#else
#error "sysshim: glibc's dynamic loader's name for this arch"
#endif

#define ELF_CLASS (sizeof(long) == 8 ? ELFCLASS64 : ELFCLASS32)
#define ELF_DATA (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB)

struct file {
	int fd;
	unsigned char head[HEAD];
	uint64_t n;		/* bytes in head */
};

/* LEN bytes at POS into OUT (from the head, else a pread): 0, or -1. */
static int bytes(struct file *f, uint64_t pos, void *out, uint64_t len)
{
	if (pos < f->n && len <= f->n - pos) {
		__ss_exec_copy(out, f->head + pos, len);
		return 0;
	}
	if ((int64_t)pos < 0 || (int64_t)(pos + len) < 0)
		return -1;
	long r = __syscall(SYS_pread64, f->fd, out, (long)len, (long)pos);
	return r == (long)len ? 0 : -1;
}

static const char *base(const char *p)
{
	const char *b = p;
	for (; *p; p++)
		if (*p == '/')
			b = p + 1;
	return b;
}

/* A sanitizer's runtime, by the name a program needs it by: gcc's libasan.so.N,
 * libtsan, libubsan, liblsan, libhwasan; clang's libclang_rt.*.so. */
static int sanitizer(const char *name)
{
	const char *b = base(name);
	return __ss_after(b, "libasan.so") || __ss_after(b, "libtsan.so") ||
	       __ss_after(b, "libubsan.so") || __ss_after(b, "liblsan.so") ||
	       __ss_after(b, "libhwasan.so") || __ss_after(b, "libclang_rt.");
}

struct seg {
	uint64_t off, vaddr, filesz;
};

/* The file offset of address A through the PT_LOAD that holds it; -1 where none. */
static int64_t offset_of(const struct seg *l, unsigned n, uint64_t a)
{
	for (unsigned i = 0; i < n; i++)
		if (a >= l[i].vaddr && a - l[i].vaddr < l[i].filesz)
			return (int64_t)(l[i].off + (a - l[i].vaddr));
	return -1;
}

/* Whether a DT_NEEDED name of the dynamic section DYN is a sanitizer's runtime. At most
 * a page of entries is read, in 32-entry steps. */
static int needs_sanitizer(struct file *f, const struct seg *dyn, const struct seg *loads,
			   unsigned nloads)
{
	uint64_t need[MAX_NEEDED], strtab = 0, strsz = ~0ULL;
	unsigned nneed = 0, done = 0;
	int has_strtab = 0;
	struct dyn d[32];

	for (uint64_t i = 0; !done && i < 256 && (i + 1) * sizeof *d <= dyn->filesz; i += 32) {
		uint64_t k = (dyn->filesz / sizeof *d) - i;
		k = k < 32 ? k : 32;
		if (bytes(f, dyn->off + i * sizeof *d, d, k * sizeof *d))
			return 0;
		for (unsigned j = 0; j < k && !done; j++) {
			if (d[j].tag == DT_NULL)
				done = 1;
			else if (d[j].tag == DT_NEEDED && nneed < MAX_NEEDED)
				need[nneed++] = d[j].val;
			else if (d[j].tag == DT_STRTAB)
				strtab = d[j].val, has_strtab = 1;
			else if (d[j].tag == DT_STRSZ)
				strsz = d[j].val;
		}
	}
	int64_t str = has_strtab ? offset_of(loads, nloads, strtab) : -1;
	if (str < 0)
		return 0;
	/* The names lie side by side, as a linker writes them: one read for all of them
	 * where they fit in NAMES_AT_ONCE bytes; else (or where that read fails) each apart. */
	char names[NAMES_AT_ONCE];
	uint64_t lo = ~0ULL, hi = 0, span = 0;
	for (unsigned i = 0; i < nneed; i++)
		if (need[i] < strsz) {
			lo = need[i] < lo ? need[i] : lo;
			hi = need[i] > hi ? need[i] : hi;
		}
	if (lo <= hi) {
		span = hi - lo + NAME_MAX_READ;
		span = span < strsz - lo ? span : strsz - lo;
		if (span > sizeof names || bytes(f, (uint64_t)str + lo, names, span))
			span = 0;
	}
	for (unsigned i = 0; i < nneed; i++) {
		char name[NAME_MAX_READ];
		uint64_t room = strsz - need[i];
		if (need[i] >= strsz)
			continue;
		room = room < sizeof name ? room : sizeof name;
		if (span) {
			__ss_exec_copy(name, names + (need[i] - lo), room);
		} else {
			/* Short names near the table's end: read what is there, byte by byte at worst. */
			while (room && bytes(f, (uint64_t)str + need[i], name, room))
				room = room > 16 ? room / 2 : room - 1;
			if (!room)
				continue;
		}
		name[room - 1] = 0;
		if (sanitizer(name))
			return 1;
	}
	return 0;
}

static int elf(struct file *f)
{
	const unsigned char *b = f->head;
	struct ehdr eh;

	if (f->n < sizeof eh)
		return SS_T_SERVES;
	__ss_exec_copy(&eh, b, sizeof eh);
	unsigned machine = b[EI_DATA] == ELFDATA2MSB ? (unsigned)b[18] << 8 | b[19]
						     : b[18] | (unsigned)b[19] << 8;
	if (b[EI_CLASS] != ELF_CLASS || b[EI_DATA] != ELF_DATA || machine != ARCH_ELF_MACHINE)
		return SS_T_FOREIGN;
	if ((eh.type != ET_EXEC && eh.type != ET_DYN) || eh.phentsize != sizeof(struct phdr) ||
	    !eh.phnum || eh.phnum > 65536 / sizeof(struct phdr))
		return SS_T_SERVES;	/* the kernel will not run it */

	struct seg interp = { 0 }, dyn = { 0 }, loads[MAX_LOADS];
	unsigned nloads = 0;
	int has_interp = 0, has_dyn = 0;
	for (unsigned i = 0; i < eh.phnum; i++) {
		struct phdr p;
		if (bytes(f, eh.phoff + (uint64_t)i * sizeof p, &p, sizeof p))
			return SS_T_SERVES;
		struct seg s = { p.offset, p.vaddr, p.filesz };
		if (p.type == PT_INTERP)
			interp = s, has_interp = 1;
		else if (p.type == PT_DYNAMIC)
			dyn = s, has_dyn = 1;
		else if (p.type == PT_LOAD && nloads < MAX_LOADS)
			loads[nloads++] = s;
	}
	/* A static program reads no LD_PRELOAD; the programs it starts may (valgrind's
	 * tools, busybox, Go's toolchain): it is handed on as it is. */
	if (!has_interp)
		return SS_T_SERVES;
	char name[256];
	if (interp.filesz < 2 || interp.filesz > sizeof name || bytes(f, interp.off, name, interp.filesz))
		return SS_T_SERVES;
	name[interp.filesz - 1] = 0;
	if (!GLIBC_LOADER(base(name)))
		return SS_T_OTHER_LOADER;
	if (has_dyn && needs_sanitizer(f, &dyn, loads, nloads))
		return SS_T_SANITIZER;
	return SS_T_SERVES;
}

static int inspect(int dirfd, const char *path, int flags, int level, int careful, int regular);

/* "#!INTERP [ARG]": what INTERP is, as the kernel reads the line (blanks, then up to a
 * blank or the line's end). */
static int script(struct file *f, int level, int careful)
{
	char interp[256];
	uint64_t i = 2, k = 0;

	if (level)
		return SS_T_SERVES;
	while (i < f->n && (f->head[i] == ' ' || f->head[i] == '\t'))
		i++;
	while (i < f->n && k + 1 < sizeof interp && f->head[i] != ' ' && f->head[i] != '\t' &&
	       f->head[i] != '\n' && f->head[i])
		interp[k++] = (char)f->head[i++];
	interp[k] = 0;
	return k ? inspect(AT_FDCWD, interp, 0, level + 1, careful, 0) : SS_T_SERVES;
}

/* Whether an exec of a file that a stat or an open found so (R: -errno) fails whatever
 * the environment: there is no such file, or its path cannot be read (a filter that
 * refuses the call answers EPERM, EACCES or ENOSYS). */
static int absent(long r)
{
	return r == -ENOENT || r == -ENOTDIR || r == -EFAULT;
}

/* A regular file only: a FIFO or a device is not opened (execve refuses them), nor is
 * one a PATH search's stat has just found REGULAR stat'ed again. Where the library is
 * CAREFUL there is no stat: the file is opened for reading without blocking and read (a
 * FIFO reads nothing; one exec'd while its writer waits in open() lets the writer on:
 * the one trace left, for an exec the kernel refuses anyway). */
static int inspect(int dirfd, const char *path, int flags, int level, int careful, int regular)
{
	struct stat st;
	struct file f;
	int empty = 0, kind = SS_T_SERVES;
	int nofollow = flags & AT_SYMLINK_NOFOLLOW ? O_NOFOLLOW : 0;

	/* The caller's path is read here only after the kernel has read it (the stat, or
	 * the open): one it cannot read fails the exec with EFAULT, and would fault here. */
	if (ss_bad_ptr(path))
		return SS_T_ABSENT;
	if (!careful && !regular) {
		long r = __syscall(SYS_newfstatat, dirfd, path, &st,
				   flags & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW));
		if (absent(r) || (!r && (st.st_mode & S_IFMT) != S_IFREG))
			return SS_T_ABSENT;
		if (r)
			return SS_T_SERVES;
	}
	/* Where the library is careful there was no stat: the open reads the path first
	 * ("" is ENOENT to it). */
	if (!careful)
		empty = (flags & AT_EMPTY_PATH) && !*path;
	f.fd = empty ? dirfd
		     : (int)__syscall(SYS_openat, dirfd, path,
				      O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | nofollow);
	if (f.fd == -ENOENT && careful && (flags & AT_EMPTY_PATH) && !*path)
		empty = 1, f.fd = dirfd;
	if (f.fd < 0)
		return absent(f.fd) ? SS_T_ABSENT : SS_T_SERVES;
	long n = __syscall(SYS_pread64, f.fd, f.head, HEAD, 0);
	f.n = n > 0 ? (uint64_t)n : 0;
	if (f.n >= 4 && f.head[0] == 0x7f && f.head[1] == 'E' && f.head[2] == 'L' && f.head[3] == 'F')
		kind = elf(&f);
	else if (f.n >= 2 && f.head[0] == '#' && f.head[1] == '!')
		kind = script(&f, level, careful);
	if (!empty)
		__syscall(SYS_close, f.fd);
	return kind;
}

int __ss_exec_target(const struct ss_target *t, int careful)
{
	return inspect(t->dirfd, t->path, t->flags, 0, careful, t->regular && !careful);
}
