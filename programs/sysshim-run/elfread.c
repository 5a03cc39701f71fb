/* The ELF reader: elfread.h says what it reads and in which steps. */
#include "elfread.h"
#include "syscall.h"

void elf_start(struct elf_file *f, int fd, const unsigned char *page_, long n)
{
	f->fd = fd;
	f->page = page_;
	f->page_n = n < 0 ? 0 : n > PAGE ? PAGE : (uint64_t)n;
	f->win_off = f->win_n = 0;
}

/* Whether [POS, POS + LEN) lies within [OFF, OFF + N). */
static int within(uint64_t pos, uint64_t len, uint64_t off, uint64_t n)
{
	return pos >= off && pos - off <= n && len <= n - (pos - off);
}

/* LEN bytes at file offset POS: from the first page or the window, or (MAY_READ, LEN at
 * most a page) a pread of the page at POS into the window; 0 where they are not there. */
static const unsigned char *bytes_at(struct elf_file *f, uint64_t pos, uint64_t len,
				     int may_read)
{
	if (within(pos, len, 0, f->page_n))
		return f->page + pos;
	if (within(pos, len, f->win_off, f->win_n))
		return f->win + (pos - f->win_off);
	if (!may_read || len > PAGE || (int64_t)pos < 0)
		return 0;
	long r = __syscall(SYS_pread64, f->fd, f->win, PAGE, (long)pos);
	f->win_off = pos;
	f->win_n = r < 0 ? 0 : (uint64_t)r;
	return f->win_n >= len ? f->win : 0;
}

/* ---- the header and the program headers */
static enum elf_status read_ehdr(const struct elf_file *f, struct elf_info *h)
{
	const unsigned char *b = f->page;
	struct ehdr eh;
	/* e_ident, e_type and e_machine are where they are in either class; e_machine in
	 * the file's own byte order. */
	if (f->page_n < 20)
		return ELF_SHORT;
	h->class = b[EI_CLASS], h->data = b[EI_DATA];
	h->machine = h->data == ELFDATA2MSB ? (unsigned)b[18] << 8 | b[19]
					    : b[18] | (unsigned)b[19] << 8;
	if (h->class != ELF_CLASS || h->data != ELF_DATA || h->machine != ARCH_ELF_MACHINE)
		return ELF_FOREIGN;
	if (f->page_n < sizeof eh)
		return ELF_SHORT;
	__builtin_memcpy(&eh, b, sizeof eh);
	h->type = eh.type;
	/* The kernel's own limits: a program, program headers of its size, 64 KB of them. */
	if ((eh.type != ET_EXEC && eh.type != ET_DYN) || eh.phentsize != sizeof(struct phdr) ||
	    !eh.phnum || eh.phnum > 65536 / sizeof(struct phdr))
		return ELF_NOT_PROGRAM;
	h->phoff = eh.phoff, h->phnum = eh.phnum;
	return ELF_OK;
}

/* The one pass over the program headers: the segments sysshim-run reads later. 0, or
 * -1 where a header cannot be read. */
static int collect(struct elf_file *f, struct elf_info *h)
{
	h->has_interp = h->has_dynamic = 0;
	h->notes = h->loads = 0;
	for (unsigned i = 0; i < h->phnum; i++) {
		struct phdr ph;
		const unsigned char *p = bytes_at(f, h->phoff + (uint64_t)i * sizeof ph, sizeof ph, 1);
		if (!p)
			return -1;
		__builtin_memcpy(&ph, p, sizeof ph);
		struct elf_seg s = { ph.offset, ph.vaddr, ph.filesz, ph.align };
		if (ph.type == PT_INTERP)
			h->has_interp = 1, h->interp = s;
		else if (ph.type == PT_DYNAMIC)
			h->has_dynamic = 1, h->dynamic = s;
		else if (ph.type == PT_NOTE && h->notes < ELF_MAX_NOTES)
			h->note[h->notes++] = s;
		else if (ph.type == PT_LOAD && h->loads < ELF_MAX_LOADS)
			h->load[h->loads++] = s;
	}
	return 0;
}

/* The interpreter's name, where it is a C string of 1 to 254 characters (it decides
 * whether the program is glibc's: read where it lies beyond the first page). */
static void interp_name(struct elf_file *f, struct elf_info *h)
{
	uint64_t n = h->interp.filesz;
	const unsigned char *s = h->has_interp && n > 1 && n < sizeof h->interp_name
				 ? bytes_at(f, h->interp.off, n, 1) : 0;
	h->interp_name[0] = 0;
	if (s && !s[n - 1])
		__builtin_memcpy(h->interp_name, s, n);
}

enum elf_status elf_read(struct elf_file *f, struct elf_info *h)
{
	enum elf_status st = read_ehdr(f, h);
	if (st != ELF_OK)
		return st;
	if (collect(f, h))
		return ELF_BAD_PHDRS;
	interp_name(f, h);
	return ELF_OK;
}

/* ---- the notes */
/* Whether the notes in P[0, LEN), aligned A, hold Go's build-ID note: name "Go" (namesz
 * 4, "Go\0\0", as the Go linker writes it; 3 accepted), type 4. */
static int go_buildid_in(const unsigned char *p, uint64_t len, uint64_t a)
{
	struct nhdr nh;
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

/* Each segment's first page is looked at: an external link (cgo's) keeps Go's note, and
 * linkers put the notes in the first page. */
int elf_go_note(struct elf_file *f, const struct elf_info *h, int may_read)
{
	for (unsigned i = 0; i < h->notes; i++) {
		const struct elf_seg *s = &h->note[i];
		uint64_t len = s->filesz < PAGE ? s->filesz : PAGE;
		const unsigned char *p = len >= sizeof(struct nhdr) ? bytes_at(f, s->off, len, may_read)
								    : 0;
		if (p && go_buildid_in(p, len, s->align == 8 ? 8 : 4))
			return 1;
	}
	return 0;
}

/* ---- the dynamic section */
/* The file offset of address ADDR, through the PT_LOAD whose file bytes hold it, and in
 * *ROOM how many of them follow; -1 where none holds it. */
static int64_t file_offset(const struct elf_info *h, uint64_t addr, uint64_t *room)
{
	for (unsigned i = 0; i < h->loads; i++) {
		const struct elf_seg *l = &h->load[i];
		uint64_t rel = addr - l->vaddr, off = l->off + rel;
		if (addr < l->vaddr || rel >= l->filesz || off < l->off || (int64_t)off < 0)
			continue;
		*room = l->filesz - rel;
		return (int64_t)off;
	}
	return -1;
}

static struct dyn dyn_at(const unsigned char *p, unsigned i)
{
	struct dyn d;
	__builtin_memcpy(&d, p + (size_t)i * sizeof d, sizeof d);
	return d;
}

/* The string table of the N entries at P: its file offset into *OFF and its size (its
 * DT_STRSZ, cut at its segment's end) into *SIZE. 0, or -1 where it is not in the file. */
static int strtab(const struct elf_info *h, const unsigned char *p, unsigned n, uint64_t *off,
		  uint64_t *size)
{
	uint64_t addr = 0, sz = UINT64_MAX, room = 0;
	int found = 0;
	for (unsigned i = 0; i < n; i++) {
		struct dyn d = dyn_at(p, i);
		if (d.tag == DT_NULL)
			break;
		if (d.tag == DT_STRTAB)
			addr = d.val, found = 1;
		else if (d.tag == DT_STRSZ)
			sz = d.val;
	}
	int64_t o = found ? file_offset(h, addr, &room) : -1;
	if (o < 0)
		return -1;
	*off = (uint64_t)o, *size = sz < room ? sz : room;
	return 0;
}

/* Bytes at file offset POS that are at hand (the first page, the window): how many, at
 * most MAX, into *N. */
static const unsigned char *at_hand(const struct elf_file *f, uint64_t pos, uint64_t max,
				    uint64_t *n)
{
	const unsigned char *b = f->page;
	uint64_t off = 0, len = f->page_n;
	if (!(pos >= off && pos < off + len))
		b = f->win, off = f->win_off, len = f->win_n;
	if (!(pos >= off && pos - off < len))
		return 0;
	*n = len - (pos - off) < max ? len - (pos - off) : max;
	return b + (pos - off);
}

/* NAME from the bytes at P, N of them at most: 0, or -1 where they hold no 0. */
static int copy_name(char name[256], const unsigned char *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (!(name[i] = (char)p[i]))
			return 0;
	return -1;
}

/* The name at offset V of the string table (file offset STR, SIZE bytes) into NAME: 0,
 * or -1 where it is outside the table or not ended within 256 bytes. From the bytes at
 * hand, else one pread into NAME (not the window: it holds the dynamic entries). */
static int needed_name(const struct elf_file *f, uint64_t str, uint64_t size, uint64_t v,
		       char name[256])
{
	if (v >= size || str + v < str || (int64_t)(str + v) < 0)
		return -1;
	uint64_t pos = str + v, max = size - v < 256 ? size - v : 256, n = 0;
	const unsigned char *p = at_hand(f, pos, max, &n);
	if (p && !copy_name(name, p, n))
		return 0;
	if (p && n == max)
		return -1;
	long r = __syscall(SYS_pread64, f->fd, name, max, (long)pos);
	return r > 0 ? copy_name(name, (const unsigned char *)name, (uint64_t)r) : -1;
}

int elf_needed(struct elf_file *f, const struct elf_info *h,
	       int (*want)(const char *name, void *arg), void *arg)
{
	if (!h->has_dynamic)
		return 0;
	uint64_t len = h->dynamic.filesz < PAGE ? h->dynamic.filesz : PAGE, str, size;
	len -= len % sizeof(struct dyn);
	const unsigned char *p = len ? bytes_at(f, h->dynamic.off, len, 1) : 0;
	unsigned n = (unsigned)(len / sizeof(struct dyn));
	if (!p || strtab(h, p, n, &str, &size))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		struct dyn d = dyn_at(p, i);
		char name[256];
		if (d.tag == DT_NULL)
			break;
		if (d.tag != DT_NEEDED)
			continue;
		if (needed_name(f, str, size, d.val, name))
			return -1;
		if (want(name, arg))
			return 1;
	}
	return 0;
}
