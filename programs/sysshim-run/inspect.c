/* What the command is, where sysshim-run would preload: its mode, then its first page
 * (an ELF program: elfread.c reads it; a #! script; anything else), and the words for
 * it that -v says. Where the library cannot reach the program or gains nothing there,
 * the kind says so (enum kind, run.h). The rules are man/sysshim-run.1's. */
#include "run.h"
#include "elfread.h"

#define S_ISUID		04000
#define S_ISGID		02000
#define S_IXGRP		00010

static int open_command(const char *path)
{
	return (int)__syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
}

/* ---- an ELF file */
/* "32-bit, little-endian, machine 62" */
static void put_elf_id(struct ss_out *o, unsigned class, unsigned data, unsigned machine)
{
	if (class == ELFCLASS32 || class == ELFCLASS64) {
		__ss_put(o, class == ELFCLASS32 ? "32-bit" : "64-bit");
	} else {
		__ss_put(o, "class ");
		__ss_put_fix(o, class, 0);
	}
	__ss_put(o, data == ELFDATA2LSB ? ", little-endian" : data == ELFDATA2MSB ? ", big-endian"
									     : ", byte order ?");
	__ss_put(o, ", machine ");
	__ss_put_fix(o, machine, 0);
}

/* An ELF file elf_read would not take (status ST), said in O: its kind. */
static int elf_refused(struct ss_out *o, enum elf_status st, const struct elf_info *h)
{
	if (st == ELF_FOREIGN) {
		__ss_put(o, "an ELF of another class or machine (");
		put_elf_id(o, h->class, h->data, h->machine);
		__ss_put(o, "; this system's: ");
		put_elf_id(o, ELF_CLASS, ELF_DATA, ARCH_ELF_MACHINE);
		__ss_put(o, h->class != ELF_CLASS
			    ? "): its loader would refuse the library (\"wrong ELF class\")"
			    : "): its loader would refuse the library (another machine's)");
		__ss_put(o, " and ignore it");
		return K_FOREIGN;
	}
	if (st == ELF_NOT_PROGRAM) {
		__ss_put(o, "an ELF file but no program (type ");
		__ss_put_fix(o, h->type, 0);
		__ss_put(o, ", or bad program headers): the kernel will not run it");
	} else {
		__ss_put(o, st == ELF_SHORT ? "a truncated ELF file: the kernel will not run it"
					    : "an ELF file whose program headers cannot be read: "
					      "the kernel will not run it");
	}
	return K_BAD;
}

/* The kind of the ELF file FD whose first N bytes are at PAGE_, said in O. A static
 * program steps aside whatever its notes say: a note beyond the first page is read only
 * for a program with an interpreter. */
static int elf_kind(int fd, const unsigned char *page_, long n, struct ss_out *o)
{
	struct elf_file f;
	struct elf_info h;
	elf_start(&f, fd, page_, n);
	enum elf_status st = elf_read(&f, &h);
	if (st != ELF_OK)
		return elf_refused(o, st, &h);
	if (elf_go_note(&f, &h, h.has_interp)) {
		__ss_put(o, h.has_interp ? "a Go program (a \"Go\" build-ID note; dynamic: cgo)"
					 : "a Go program (a \"Go\" build-ID note; static)");
		__ss_put(o, ": Go makes its stat calls itself, not through libc, so the library "
			    "would gain nothing");
		return K_GO;
	}
	if (!h.has_interp) {
		__ss_put(o, "a static program (no PT_INTERP): no dynamic loader runs, LD_PRELOAD "
			    "would be ignored");
		return K_STATIC;
	}
	__ss_put(o, "a dynamic program");
	if (h.interp_name[0]) {
		__ss_put(o, " (its loader: ");
		__ss_put(o, h.interp_name);
		__ss_put(o, ")");
	}
	return K_DYNAMIC;
}

/* ---- a script */
/* "#!INTERP [ARG]": a script is preloaded as before, whatever INTERP is (the commands it
 * runs inherit LD_PRELOAD). Under -v (VERBOSE) INTERP is read too and said what it is
 * (not verbosely: one level, a script's interpreter's interpreter is not read). */
static void script(const unsigned char *b, long n, struct ss_out *o, int verbose)
{
	char interp[256];
	long i = 2, k = 0;
	while (i < n && (b[i] == ' ' || b[i] == '\t'))
		i++;
	while (i < n && k < (long)sizeof interp - 1 && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i])
		interp[k++] = (char)b[i++];
	interp[k] = 0;
	__ss_put(o, "a script for ");
	__ss_put(o, k ? interp : "(no interpreter)");
	if (!verbose || !k)
		return;
	SS_OUT(t);
	int elf, kind = inspect(interp, &t, 0, &elf);
	__ss_put(o, ", ");
	__ss_put(o, kind < 0 ? "which is missing" : __ss_cstr(&t));
	if (kind >= K_STATIC)
		__ss_put(o, "; preloaded as before all the same: the commands it runs inherit LD_PRELOAD");
}

/* ---- any file */
static void not_readable(struct ss_out *o, long err)
{
	__ss_put(o, "not readable (");
	__ss_put(o, error_text(err));
	__ss_put(o, "), so not looked into");
}

/* What the regular file open as FD is, by its first page. */
static int by_contents(int fd, struct ss_out *o, int verbose, int *elf)
{
	unsigned char b[PAGE];
	long n = __syscall(SYS_read, fd, b, PAGE);
	if (n >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
		*elf = 1;
		return elf_kind(fd, b, n, o);
	}
	if (n >= 2 && b[0] == '#' && b[1] == '!') {
		script(b, n, o, verbose);
		return K_SCRIPT;
	}
	if (n >= 0)
		__ss_put(o, "neither an ELF file nor a #! script: as before");
	else
		not_readable(o, -n);
	return K_OTHER;
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

static int setid(uint32_t mode)
{
	return (mode & S_ISUID) || (mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP);
}

/* open, fstat, read, close; a pread where the program headers or notes lie beyond the
 * first page. A set-ID file is told by its mode alone. */
int inspect(const char *path, struct ss_out *o, int verbose, int *elf)
{
	uint32_t mode = 0;
	*elf = 0;
	int fd = open_command(path);
	if (fd == -ENOENT || fd == -ENOTDIR)
		return fd;
	long m = fd < 0 ? mode_of(0, path, &mode) : mode_of(fd, 0, &mode);
	int kind = K_OTHER;
	if (!m && setid(mode)) {
		__ss_put(o, mode & S_ISUID ? "set-user-ID" : "set-group-ID");
		__ss_put(o, ": the loader ignores LD_PRELOAD in secure mode");
		kind = K_SETID;
	} else if (!m && (mode & S_IFMT) != S_IFREG) {
		__ss_put(o, "not a regular file");
	} else if (fd < 0) {
		not_readable(o, -fd);
	} else {
		kind = by_contents(fd, o, verbose, elf);
	}
	if (fd >= 0)
		__syscall(SYS_close, fd);
	return kind;
}

int starts_elf(const char *path)
{
	unsigned char b[4];
	int fd = open_command(path);
	if (fd < 0)
		return 0;
	long r = __syscall(SYS_read, fd, b, 4);
	__syscall(SYS_close, fd);
	return r == 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
}
