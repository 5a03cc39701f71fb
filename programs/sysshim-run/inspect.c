/* What the command is, where sysshim-run would preload: its mode, then its first page
 * (an ELF program: elfread.c reads it; a #! script and its interpreter; anything else),
 * and the words for it that -v says. Where the library cannot reach the program, would
 * break it or gains nothing there, the kind says so (enum command_kind, run.h). The
 * rules are man/sysshim-run.1's. */
#include "run.h"
#include "elfread.h"

#define S_ISUID		04000
#define S_ISGID		02000
#define S_IXGRP		00010

static long sys_fstat(int fd, struct stat *st)
{
	return __syscall(SYS_fstat, fd, st);
}

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

/* A runtime that checks that it comes first in the loader's list, and aborts the program
 * otherwise (AddressSanitizer's: gcc's libasan.so.N, clang's libclang_rt.asan*.so). Its
 * name into NAME (256 bytes): 1. */
static int must_come_first(const char *name, void *arg)
{
	const char *b = name;
	for (const char *p = name; *p; p++)
		if (*p == '/')
			b = p + 1;
	if (!__ss_after(b, "libasan.so") && !__ss_after(b, "libclang_rt.asan"))
		return 0;
	size_t n = __ss_strlen(name);
	n = n < 255 ? n : 255;
	__builtin_memcpy(arg, name, n);
	((char *)arg)[n] = 0;
	return 1;
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

/* Whether the interpreter NAME is glibc's loader for this arch, by its last component
 * (the directory differs: /lib64, /lib/<triplet>, a chroot's, a Nix store's). */
static int glibc_loader(const char *name)
{
	const char *b = name;
	for (const char *p = name; *p; p++)
		if (*p == '/')
			b = p + 1;
	return __ss_streq(b, GLIBC_LOADER);
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
	if (!glibc_loader(h.interp_name)) {
		__ss_put(o, "a dynamic program whose loader ");
		__ss_put(o, h.interp_name[0] ? h.interp_name : "(its name cannot be read)");
		__ss_put(o, " is not glibc's (" GLIBC_LOADER "): the library is glibc's and "
			    "another C library's loader (musl's) cannot load it: run untouched");
		return K_OTHER_LOADER;
	}
	char first[256];
	if (elf_needed(&f, &h, must_come_first, first) == 1) {
		__ss_put(o, "a program linked against AddressSanitizer's runtime (");
		__ss_put(o, first);
		__ss_put(o, "), which must come first in the loader's list and wraps the stat "
			    "family itself: run untouched (a sanitizer's run is not one to speed up)");
		return K_FIRST;
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
static int inspect_file(const struct run_job *j, const char *path, struct ss_out *o, int *elf,
			int depth);

/* "#!INTERP [ARG]": a script is preloaded as before (the commands it runs inherit
 * LD_PRELOAD), but where its interpreter is a program the library would break (another
 * C library's, another class or machine, AddressSanitizer's): then the script runs
 * untouched, as that program would. INTERP is read one level deep (an interpreter that
 * is a script is not read further). */
static int script(const struct run_job *j, const unsigned char *b, long n, struct ss_out *o,
		  int depth)
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
	if (!k || depth > 0)
		return K_SCRIPT;
	SS_OUT(t);
	int elf, kind = inspect_file(j, interp, o ? &t : 0, &elf, depth + 1);
	__ss_put(o, ", ");
	__ss_put(o, kind < 0 ? "which is missing" : __ss_cstr(&t));
	if (kind == K_FOREIGN || kind == K_OTHER_LOADER || kind == K_FIRST)
		return kind;
	if (kind >= K_STATIC)
		__ss_put(o, "; preloaded as before all the same: the commands it runs inherit LD_PRELOAD");
	return K_SCRIPT;
}

/* ---- any file */
static void not_readable(struct ss_out *o, long err)
{
	__ss_put(o, "not readable (");
	__ss_put(o, error_text(err));
	__ss_put(o, "), so not looked into");
}

/* What the regular file open as FD is, by its first page. */
static int by_contents(const struct run_job *j, int fd, struct ss_out *o, int *elf, int depth)
{
	unsigned char b[PAGE];
	long n = __syscall(SYS_read, fd, b, PAGE);
	if (n >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
		*elf = 1;
		return elf_kind(fd, b, n, o);
	}
	if (n >= 2 && b[0] == '#' && b[1] == '!') {
		return script(j, b, n, o, depth);
	}
	if (n >= 0)
		__ss_put(o, "neither an ELF file nor a #! script: as before");
	else
		not_readable(o, -n);
	return K_OTHER;
}

/* What a file is: its mode, and which file (a file open later must be this one). */
struct file_id {
	uint32_t mode;
	uint64_t dev, ino;
};

/* PATH's (FD's where PATH is 0): newfstatat, or fstat (newfstatat with an empty path
 * where CAREFUL, under a filter or a tracer: the call glibc 2.33 - 2.38's loader makes);
 * statx where the kernel has neither (loongarch64 before 6.11). */
static long file_id(int careful, int fd, const char *path, struct file_id *id)
{
	struct stat st;
	struct statx sx;
	long r = path ? __syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) :
		 careful ? __syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH) : sys_fstat(fd, &st);
	if (!r) {
		*id = (struct file_id){ st.st_mode, st.st_dev, st.st_ino };
	} else if (r == -ENOSYS && !(r = __syscall(SYS_statx, path ? AT_FDCWD : fd, path ? path : "",
						   path ? 0 : AT_EMPTY_PATH, STATX_BASIC_STATS, &sx))) {
		*id = (struct file_id){ sx.stx_mode, ss_makedev(sx.stx_dev_major, sx.stx_dev_minor),
					sx.stx_ino };
	}
	return r;
}

static int setid(uint32_t mode)
{
	return (mode & S_ISUID) || (mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP);
}

/* A regular file PATH (ID), opened and read: what it is. Opened only now, and read only
 * if it is still that file (it may have been replaced since it was looked at). */
static int regular(const struct run_job *j, const char *path, const struct file_id *id,
		   struct ss_out *o, int *elf, int depth)
{
	struct file_id now;
	int fd = open_command(path), kind = K_OTHER;
	if (fd < 0) {
		not_readable(o, -fd);
		return K_OTHER;
	}
	if (!file_id(j->careful, fd, 0, &now) && now.mode == id->mode && now.dev == id->dev &&
	    now.ino == id->ino)
		kind = by_contents(j, fd, o, elf, depth);
	else
		__ss_put(o, "a file that changed while it was looked at: not read, as before");
	__syscall(SYS_close, fd);
	return kind;
}

/* Looked at before it is opened (a newfstatat), so that only a regular file is opened:
 * a FIFO or a device is left to execve unopened, as env(1) leaves it, and a set-ID file
 * is told by its mode alone. Then open, fstat, read, close; a pread where the program
 * headers, notes or dynamic section lie beyond the first page. */
static int inspect_file(const struct run_job *j, const char *path, struct ss_out *o, int *elf,
			int depth)
{
	struct file_id id;
	long m = file_id(j->careful, 0, path, &id);
	*elf = 0;
	if (m == -ENOENT || m == -ENOTDIR)
		return (int)m;
	if (m) {
		not_readable(o, -m);
		return K_OTHER;
	}
	if (setid(id.mode)) {
		__ss_put(o, id.mode & S_ISUID ? "set-user-ID" : "set-group-ID");
		__ss_put(o, ": the loader ignores LD_PRELOAD in secure mode");
		return K_SETID;
	}
	if ((id.mode & S_IFMT) != S_IFREG) {
		__ss_put(o, "not a regular file: left to execve unopened, as env(1) leaves it");
		return K_OTHER;
	}
	return regular(j, path, &id, o, elf, depth);
}

int inspect_command(const struct run_job *j, const char *path, struct ss_out *o, int *elf)
{
	return inspect_file(j, path, o, elf, 0);
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
