#include "filter.h"
#include "probe.h"
#include "sandbox.h"
#include "own_site.h"

/* ---- what the kernel takes as a seccomp filter */

/* The instructions seccomp_check_filter() lets through (a subset of classic BPF's),
 * each with the operand check bpf_check_classic() makes of it: 0 fine, else refused. */
static int insn_bad(const struct ss_sock_filter *f, unsigned pc, unsigned len)
{
	unsigned k = f[pc].k, left = len - pc - 1;	/* instructions after this one */

	switch (f[pc].code) {
	case 0x06: case 0x16:			/* RET K, RET A */
	case 0x00: case 0x01:			/* LD IMM, LDX IMM */
	case 0x07: case 0x87:			/* TAX, TXA */
	case 0x80: case 0x81:			/* LD W LEN, LDX W LEN */
	case 0x84:				/* NEG */
	case 0x04: case 0x0c: case 0x14: case 0x1c:	/* ADD, SUB */
	case 0x24: case 0x2c: case 0x3c:	/* MUL, DIV X */
	case 0x44: case 0x4c: case 0x54: case 0x5c:	/* OR, AND */
	case 0x6c: case 0x7c:			/* LSH X, RSH X */
	case 0xa4: case 0xac:			/* XOR */
		return 0;
	case 0x34:				/* DIV K */
		return !k;
	case 0x64: case 0x74:			/* LSH K, RSH K */
		return k >= 32;
	case 0x60: case 0x61: case 0x02: case 0x03:	/* LD MEM, LDX MEM, ST, STX */
		return k >= 16;
	case 0x20:				/* LD W ABS: a word of struct seccomp_data */
		return k >= 64 || (k & 3);
	case 0x05:				/* JA */
		return k >= left;
	case 0x15: case 0x1d: case 0x25: case 0x2d:	/* JEQ, JGT */
	case 0x35: case 0x3d: case 0x45: case 0x4d:	/* JGE, JSET */
		return f[pc].jt >= left || f[pc].jf >= left;
	}
	return 1;	/* MOD, RET X, any load of a byte or a half-word, anything else */
}

/* The scratch memory read before it is written on some way to the read (the kernel's
 * check_load_and_stores(): its one pass, a jump's target getting what is written on
 * every way there). MASKS: room for LEN. */
static int memory_bad(const struct ss_sock_filter *f, unsigned len, uint16_t *masks)
{
	uint16_t valid = 0;

	for (unsigned pc = 0; pc < len; pc++)
		masks[pc] = 0xffff;
	for (unsigned pc = 0; pc < len; pc++) {
		uint16_t c = f[pc].code;
		valid &= masks[pc];
		if (c == 0x02 || c == 0x03) {
			valid |= (uint16_t)(1U << f[pc].k);
		} else if (c == 0x60 || c == 0x61) {
			if (!(valid & (1U << f[pc].k)))
				return 1;
		} else if (c == 0x05) {
			masks[pc + 1 + f[pc].k] &= valid;
			valid = 0xffff;
		} else if ((c & 0x07) == 0x05) {
			masks[pc + 1 + f[pc].jt] &= valid;
			masks[pc + 1 + f[pc].jf] &= valid;
			valid = 0xffff;
		}
	}
	return 0;
}

static int valid_with(const struct ss_sock_filter *f, unsigned len, uint16_t *m)
{
	if (!len || len > BPF_MAXINSNS_)
		return 0;
	for (unsigned pc = 0; pc < len; pc++)
		if (insn_bad(f, pc, len))
			return 0;
	if (f[len - 1].code != 0x06 && f[len - 1].code != 0x16)
		return 0;	/* the last instruction is not a return */
	return !memory_bad(f, len, m);
}

/* ---- the program, copied by the kernel */

/* The program's copy, and the masks' room: on the stack of the call that installs a
 * filter (40 KB, only then: as static storage it would be a page mapping more in every
 * process), named here while that call holds it: one filter read at a time (a second,
 * from another thread or a signal handler meanwhile, is taken for one that cannot be
 * read). */
#define PREFIX_MAX	(6 * 24 + 3)	/* SITES_MAX sites at most (filter_prefix()) */
struct filter_room {
	struct ss_sock_filter room[PREFIX_MAX + BPF_MAXINSNS_];
	uint16_t masks[BPF_MAXINSNS_];
};
static struct filter_room *held_room;
#define copy (held_room->room + PREFIX_MAX)
#define masks (held_room->masks)
static int busy;

struct iovec_ {
	const void *base;
	unsigned long len;
};

/* N bytes at FROM into TO through a pipe of the library's own, for a kernel without
 * process_vm_readv (built without CONFIG_CROSS_MEMORY_ATTACH): write(2) reads the
 * caller's memory as the kernel reads it, answering EFAULT (or writing less) where a
 * byte is not readable, and read(2) brings the bytes back; a page at a time, as an
 * empty pipe holds at least one. 0, -EFAULT, or the errno of a refused call. */
static long pipe_copy(void *to, const void *from, unsigned long n)
{
	int fds[2];
	long r = __syscall(SYS_pipe2, fds, O_CLOEXEC | O_NONBLOCK);

	if (r)
		return r;
	for (unsigned long done = 0, k; !r && done < n; done += k) {
		k = n - done < 4096 ? n - done : 4096;
		r = __syscall(SYS_write, fds[1], (const char *)from + done, k);
		if (r == (long)k)
			r = __syscall(SYS_read, fds[0], (char *)to + done, k);
		r = r == (long)k ? 0 : r < 0 ? r : -EFAULT;
	}
	__syscall(SYS_close, fds[0]);
	__syscall(SYS_close, fds[1]);
	return r;
}

/* N bytes at FROM, a pointer of the caller's, into TO: by process_vm_readv(2) on this
 * process, so that the kernel reads them and answers EFAULT where any byte is not
 * readable (unmapped, PROT_NONE, the end of a mapping), as seccomp(2) would, where a
 * load of the library's would crash; through a pipe where the kernel has no
 * process_vm_readv and no filter read may stop the pipe's calls. 0, -EFAULT, or the
 * errno of a refused call (ENOSYS: the filter is taken for one that cannot be read). */
static long kernel_copy(void *to, const void *from, unsigned long n)
{
	struct iovec_ local = { to, n }, remote = { from, n };
	long pid = __syscall(SYS_getpid), got;

	got = __syscall(SYS_process_vm_readv_, pid, &local, 1, &remote, 1, 0);
	if (got == (long)n)
		return 0;
	if (got == -ENOSYS && !(__ss_sandbox_peek() & SS_SB_NO_PIPE))
		return pipe_copy(to, from, n);
	return got >= 0 ? -EFAULT : got;	/* part of it: the kernel's copy faults too */
}

/* The struct sock_fprog at P and its program, copied, in the order seccomp(2) reads
 * and checks them (kernel/seccomp.c seccomp_prepare_user_filter(), net/core/filter.c
 * bpf_prog_create_from_user()): 0 read into *OUT; 1 the kernel refuses it (EFAULT,
 * EINVAL); -1 it cannot be copied here. */
static int fetch(const void *p, struct ss_sock_fprog *out)
{
	struct ss_sock_fprog fp;
	long e;

	if (ss_bad_ptr(p))
		return 1;
	e = kernel_copy(&fp, p, sizeof fp);
	if (e)
		return e == -EFAULT ? 1 : -1;
	if (!fp.len || fp.len > BPF_MAXINSNS_ || !fp.filter)
		return 1;	/* EINVAL (no_new_privs, EACCES, is checked in between) */
	e = kernel_copy(copy, fp.filter, fp.len * sizeof *copy);
	if (e)
		return e == -EFAULT ? 1 : -1;
	if (!valid_with(copy, fp.len, masks))
		return 1;
	out->len = fp.len;
	out->filter = copy;
	return 0;
}

/* Whether a filter of the program's may be copied with getpid and process_vm_readv:
 * none is in force, or each was read here and lets both through (pipe_copy(), where
 * the kernel has no process_vm_readv, also asks SS_SB_NO_PIPE). */
static int may_copy(unsigned sb)
{
	return SS_SB_KIND(sb) == SS_SB_NONE ||
	       (SS_SB_KIND(sb) == SS_SB_KNOWN && !(sb & (SS_SB_CHILD | SS_SB_NO_COPY)));
}

/* ---- a prefix for TSYNC */

/* The linker's bounds of the sites; weak: a static link without fstat.o has none. */
extern const struct ss_own_site __start_ss_own_sites[] __attribute__((__weak__)) hidden,
	__stop_ss_own_sites[] __attribute__((__weak__)) hidden;

#define ST(c, k) (struct ss_sock_filter){ (c), 0, 0, (k) }
#define JEQ(k, t, f) (struct ss_sock_filter){ 0x15, (t), (f), (k) }

/* The kinds (seccomp.h) a syscall number is of, for the sites. */
static unsigned kind_of(unsigned long nr)
{
	return nr == SYS_fstat ? SS_SC_FSTAT : nr == SYS_newfstatat ? SS_SC_NEWFSTATAT :
	       nr == SYS_statx ? SS_SC_STATX : 0;
}

/* In front of the program read into copy[] (LEN instructions), for the sites of a kind
 * in STOPS, by number: "this number? then from one of these addresses: ENOSYS"; then A
 * back to 0, as the program starts (X and the scratch memory are not touched). Any
 * other syscall runs 4 more instructions. The program's jumps are relative, and the
 * whole is as valid as the program (valid_with()). The start of the whole, or 0 where
 * no site is stopped, or where it would not fit (SITES_MAX; BPF_MAXINSNS in all). */
#define SITES_MAX	24
static struct ss_sock_filter *filter_prefix(unsigned len, unsigned stops)
{
	const struct ss_own_site *s, *t;
	unsigned n = 0, groups = 0, size, pc = 0;
	struct ss_sock_filter *p;

	for (s = __start_ss_own_sites; s < __stop_ss_own_sites; s++) {
		if (!(kind_of(s->nr) & stops))
			continue;
		n++;
		for (t = __start_ss_own_sites; t < s && t->nr != s->nr; t++)
			;
		groups += t == s;	/* the first site of its number */
	}
	size = 2 * groups + 4 * n + 3;
	if (!n || n > SITES_MAX || len + size > BPF_MAXINSNS_)
		return 0;
	p = copy - size;
	for (s = __start_ss_own_sites; s < __stop_ss_own_sites; s++) {
		unsigned m = 0;
		if (!(kind_of(s->nr) & stops))
			continue;
		for (t = __start_ss_own_sites; t < s && t->nr != s->nr; t++)
			;
		if (t != s)
			continue;	/* its number's group is made */
		for (t = s; t < __stop_ss_own_sites; t++)
			m += t->nr == s->nr;
		p[pc++] = ST(0x20, 0);				/* LD nr */
		p[pc] = JEQ((uint32_t)s->nr, 0, (uint8_t)(4 * m));
		pc++;
		for (t = s; t < __stop_ss_own_sites; t++) {
			if (t->nr != s->nr)
				continue;
			p[pc++] = ST(0x20, 8);			/* instruction_pointer, low half */
			p[pc] = JEQ((uint32_t)t->ip, 0, 2);
			pc++;
			p[pc++] = ST(0x20, 12);			/* high half */
			p[pc] = JEQ((uint32_t)(t->ip >> 32), (uint8_t)(size - 2 - pc - 1), 0);
			pc++;
		}
	}
	p[pc++] = ST(0x05, 1);				/* JA over the return */
	p[pc++] = ST(0x06, SECCOMP_RET_ERRNO | ENOSYS);
	p[pc++] = ST(0x00, 0);				/* LD IMM 0 */
	return p;
}

/* ---- the call */

/* Why before the kernel: from the moment the kernel has the filter, the calling thread
 * (a signal handler on it), and every thread where TSYNC spreads it, must make none of
 * the calls it may stop; so the calls are dropped first, and a call the kernel refuses
 * (no_new_privs, a thread TSYNC cannot reach) leaves them dropped: only the library's
 * speed pays. What the kernel is sure to refuse (bad op, flags, mode, pointers,
 * lengths, programs) changes nothing: read as the kernel reads, copied by the kernel.
 * What is left: a filter the kernel takes though the library expected a refusal (a
 * flag a later kernel adds, memory mapped by another thread meanwhile, a page at
 * address 0): taken for one that cannot be read, once the kernel has it.
 * With TSYNC, a thread that loaded the word before the drop may make its call after
 * the kernel has the filter: where the filter stops it, the program the kernel gets is
 * the caller's with filter_prefix() in front, which refuses that call at the library's
 * own sites alone. *MINE: that program, or 0 for the caller's. */
static int before(unsigned op, unsigned flags, const void *uargs, struct ss_sock_fprog *mine,
		  int *held, struct filter_room *stack_room)
{
	struct ss_sock_fprog fp;
	unsigned sb, refused, stops;
	int r;

	*held = 0;
	mine->filter = 0;
	switch (op) {
	case SECCOMP_SET_MODE_STRICT:
		if (flags || uargs)
			return SS_FILTER_DONE;	/* EINVAL */
		__ss_filter_coming(0, 0);
		return SS_FILTER_DONE;
	case SECCOMP_SET_MODE_FILTER:
		break;
	default:
		return SS_FILTER_DONE;	/* no filter comes (GET_ACTION_AVAIL, GET_NOTIF_SIZES, EINVAL) */
	}
	/* The flags, as seccomp_set_mode_filter() checks them before the program. */
	if ((flags & ~SS_FILTER_FLAGS) ||
	    ((flags & SECCOMP_FILTER_FLAG_TSYNC) && (flags & SECCOMP_FILTER_FLAG_NEW_LISTENER) &&
	     !(flags & SECCOMP_FILTER_FLAG_TSYNC_ESRCH)) ||
	    ((flags & SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV) &&
	     !(flags & SECCOMP_FILTER_FLAG_NEW_LISTENER)))
		return SS_FILTER_UNREAD;
	sb = __ss_sandbox();
	if (SS_SB_KIND(sb) == SS_SB_UNKNOWN)
		return SS_FILTER_DONE;	/* every call of its own left out already */
	if (!may_copy(sb) || __atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE)) {
		__ss_filter_coming(SS_FPROG_UNREAD, 1);
		return SS_FILTER_DONE;
	}
	*held = 1;
	held_room = stack_room;
	r = fetch(uargs, &fp);
	if (r > 0)
		return SS_FILTER_UNREAD;
	if (r < 0) {
		__ss_filter_coming(SS_FPROG_UNREAD, 1);
		return SS_FILTER_DONE;
	}
	stops = __ss_bpf_stops(&fp, SS_SC_FSTAT | SS_SC_NEWFSTATAT | SS_SC_STATX, &refused);
	__ss_filter_coming(&fp, 1);
	if (flags & SECCOMP_FILTER_FLAG_TSYNC) {
		mine->filter = filter_prefix(fp.len, stops | refused);
		mine->len = (unsigned short)(fp.len + (copy - mine->filter));
	}
	return SS_FILTER_DONE;
}

long __ss_filter_call(unsigned op, unsigned flags, const void *uargs, ss_seccomp_call_fn *call,
		      const long *args)
{
	struct ss_sock_fprog mine;
	struct filter_room stack_room;
	int held, todo = before(op, flags, uargs, &mine, &held, &stack_room);
	long r;

	if (mine.filter) {
		r = call(&mine, args);
		/* The filters' chain too long for the prefix (MAX_INSNS_PER_PATH): the
		 * caller's program, as the caller gave it. */
		if (r == -ENOMEM)
			r = call(uargs, args);
	} else {
		r = call(uargs, args);
	}
	if (held)
		__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
	/* Installed: 0, or with NEW_LISTENER the listener's fd (with TSYNC a positive
	 * answer is the thread it could not reach). A filter the library expected the
	 * kernel to refuse, taken: one it has not read. */
	if (todo == SS_FILTER_UNREAD &&
	    (r == 0 || (r > 0 && (flags & SECCOMP_FILTER_FLAG_NEW_LISTENER))))
		__ss_filter_coming(SS_FPROG_UNREAD, 1);
	return r;
}
