#include "seccomp.h"

/* ---- a filter program, read for one syscall number */

/* Classic BPF as seccomp takes it (Documentation/networking/filter.rst; the
 * instruction set the kernel's seccomp_check_filter() accepts). */
#define BPF_CLASS(c)	((c) & 0x07)
#define BPF_LD		0x00
#define BPF_LDX		0x01
#define BPF_ST		0x02
#define BPF_STX		0x03
#define BPF_ALU		0x04
#define BPF_JMP		0x05
#define BPF_RET		0x06
#define BPF_MISC	0x07
#define BPF_W_ABS	0x20	/* size W, mode ABS: a word of struct seccomp_data */
#define BPF_IMM		0x00
#define BPF_MEM		0x60
#define BPF_W_LEN	0x80
#define BPF_X		0x08
#define BPF_RET_A	0x10
#define BPF_TXA		0x80
#define BPF_MEMWORDS	16
#define BPF_MAXINSNS	4096
#define SECCOMP_DATA_LEN 64	/* nr, arch, instruction_pointer, args[6] */

/* What a reading ends with, besides an action: the program looked at the arguments or
 * the instruction pointer before it decided (the answer may differ from call to
 * call), or the kernel would not take it. */
#define BY_ARGS		(1ULL << 32)
#define REFUSED		(2ULL << 32)
#define ENDED		(4ULL << 32)	/* step(): the program returned the action in the low bits */

/* A register or memory word: its value, and whether it is known without the call's
 * arguments. */
struct word {
	uint32_t v;
	int known;
};

/* seccomp_data's word at OFF for syscall NR: the number and the arch are known, the
 * instruction pointer and the arguments are not. */
static struct word data_word(uint32_t off, unsigned nr)
{
	if (off == 0)
		return (struct word){ nr, 1 };
	if (off == 4)
		return (struct word){ SS_AUDIT_ARCH, 1 };
	return (struct word){ 0, 0 };
}

static int alu(uint16_t op, uint32_t *a, uint32_t s)
{
	switch (op) {
	case 0x00: *a += s; break;
	case 0x10: *a -= s; break;
	case 0x20: *a *= s; break;
	case 0x30: if (!s) return -1; *a /= s; break;
	case 0x40: *a |= s; break;
	case 0x50: *a &= s; break;
	case 0x60: *a = s < 32 ? *a << s : 0; break;
	case 0x70: *a = s < 32 ? *a >> s : 0; break;
	case 0x80: *a = -*a; break;
	case 0x90: if (!s) return -1; *a %= s; break;
	case 0xa0: *a ^= s; break;
	default: return -2;
	}
	return 0;
}

static int jump_taken(uint16_t op, uint32_t a, uint32_t s)
{
	return op == 0x10 ? a == s : op == 0x20 ? a > s : op == 0x30 ? a >= s : (a & s) != 0;
}

/* A reading: the registers, the scratch memory, where it stands. */
struct reading {
	struct word a, x, m[BPF_MEMWORDS];
	const struct ss_sock_filter *f;
	unsigned pc, len, nr;
};

/* A load into A or X (LD and LDX): 0, or REFUSED. */
static uint64_t load(struct reading *r, uint16_t c, uint32_t k)
{
	struct word *to = BPF_CLASS(c) == BPF_LD ? &r->a : &r->x;
	uint16_t how = c & ~0x07;

	if (c == (BPF_LD | BPF_W_ABS) && k < SECCOMP_DATA_LEN && !(k & 3))
		*to = data_word(k, r->nr);
	else if (how == BPF_W_LEN)
		*to = (struct word){ SECCOMP_DATA_LEN, 1 };
	else if (how == BPF_IMM)
		*to = (struct word){ k, 1 };
	else if (how == BPF_MEM && k < BPF_MEMWORDS)
		*to = r->m[k];
	else
		return REFUSED;
	return 0;
}

/* A jump: 0 with the next instruction chosen, BY_ARGS, or REFUSED. */
static uint64_t jump(struct reading *r, const struct ss_sock_filter *in, struct word s)
{
	uint16_t op = in->code & 0xf0;
	unsigned left = r->len - r->pc - 1;	/* instructions after this one */

	if (op == 0x00) {	/* JA */
		if (in->k >= left)
			return REFUSED;
		r->pc += in->k;
		return 0;
	}
	if (op > 0x40 || in->jt >= left || in->jf >= left)
		return REFUSED;
	if (!r->a.known || !s.known)
		return BY_ARGS;
	r->pc += jump_taken(op, r->a.v, s.v) ? in->jt : in->jf;
	return 0;
}

/* The instruction at PC: 0 to go on, else how the reading ends (ENDED with an action,
 * BY_ARGS, REFUSED). */
static uint64_t step(struct reading *r)
{
	const struct ss_sock_filter *in = &r->f[r->pc];
	uint16_t c = in->code;
	uint32_t k = in->k;
	struct word s = c & BPF_X ? r->x : (struct word){ k, 1 };
	int e;

	switch (BPF_CLASS(c)) {
	case BPF_LD:
	case BPF_LDX:
		return load(r, c, k);
	case BPF_ST:
	case BPF_STX:
		if (k >= BPF_MEMWORDS || (c & ~BPF_STX))
			return REFUSED;
		r->m[k] = BPF_CLASS(c) == BPF_ST ? r->a : r->x;
		return 0;
	case BPF_ALU:
		if (!r->a.known || !s.known)
			return BY_ARGS;
		if (!(c & BPF_X) && !k && ((c & 0xf0) == 0x30 || (c & 0xf0) == 0x90))
			return REFUSED;	/* the kernel refuses a division by 0 */
		e = alu(c & 0xf0, &r->a.v, s.v);
		/* A division by X = 0 ends the program with 0: KILL_THREAD. */
		return e == -1 ? (uint64_t)SECCOMP_RET_KILL_THREAD | ENDED : e ? REFUSED : 0;
	case BPF_JMP:
		return jump(r, in, s);
	case BPF_RET:
		if (c == (BPF_RET | BPF_RET_A))
			return r->a.known ? r->a.v | ENDED : BY_ARGS;
		return c == BPF_RET ? k | ENDED : REFUSED;
	default:
		if (c == (BPF_MISC | BPF_TXA))
			r->a = r->x;
		else if (c == BPF_MISC)
			r->x = r->a;
		else
			return REFUSED;
		return 0;
	}
}

/* The action program P takes for syscall NR on this arch, or BY_ARGS, or REFUSED.
 * Jumps only go forward, so the walk ends within P's length. */
static uint64_t action_for(const struct ss_sock_fprog *p, unsigned nr)
{
	struct reading r = { .a = { 0, 1 }, .x = { 0, 1 }, .f = p->filter, .len = p->len, .nr = nr };

	for (unsigned i = 0; i < BPF_MEMWORDS; i++)
		r.m[i] = (struct word){ 0, 1 };
	if (!r.len || r.len > BPF_MAXINSNS || ss_bad_ptr(r.f))
		return REFUSED;
	for (; r.pc < r.len; r.pc++) {
		uint64_t end = step(&r);
		if (end)
			return end & ~ENDED;	/* an action (which may be 0), or how it failed */
	}
	return REFUSED;	/* ran off the end */
}

/* Whether the call returns to the caller: ALLOW and LOG let it through to the kernel,
 * ERRNO refuses it with an errno; anything else (kill, trap, a tracer, a supervisor, an
 * answer by the arguments, a program the kernel would refuse) may not return. */
static int lets_through(uint64_t r)
{
	uint32_t act = (uint32_t)r & SECCOMP_RET_ACTION_FULL;
	return !(r >> 32) && (act == SECCOMP_RET_ALLOW || act == SECCOMP_RET_LOG);
}

static int refuses(uint64_t r)
{
	return !(r >> 32) && ((uint32_t)r & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO;
}

/* The syscall numbers of kind KIND; 0 ends the list (no kind uses syscall 0 here:
 * read on x86_64 is no kind's). */
static unsigned kind_nr(unsigned kind, int i)
{
	switch (kind) {
	case SS_SC_FSTAT: return i ? 0 : SYS_fstat;
	case SS_SC_NEWFSTATAT: return i ? 0 : SYS_newfstatat;
	case SS_SC_STATX: return i ? 0 : SYS_statx;
	case SS_SC_URING:
		return i == 0 ? SYS_io_uring_setup : i == 1 ? SYS_io_uring_enter :
		       i == 2 ? SYS_io_uring_register : 0;
	case SS_SC_MEMBARRIER: return i ? 0 : SYS_membarrier;
	}
	return 0;
}

unsigned __ss_bpf_stops(const struct ss_sock_fprog *p, unsigned sc, unsigned *refused)
{
	unsigned bad = 0;

	*refused = 0;
	for (unsigned kind = 1; kind & SS_SC_ALL; kind <<= 1) {
		if (!(sc & kind))
			continue;
		for (int i = 0; kind_nr(kind, i); i++) {
			uint64_t r = action_for(p, kind_nr(kind, i));
			if (refuses(r))
				*refused |= kind;
			else if (!lets_through(r))
				bad |= kind;
		}
	}
	return bad;
}

int __ss_bpf_lets(const struct ss_sock_fprog *p, unsigned nr)
{
	return lets_through(action_for(p, nr));
}

/* ---- the filter state and the tracer, from /proc/self/status */

/* The number after "NAME:" and blanks at P, or ~0 where none follows. */
static unsigned number_at(const char *p)
{
	unsigned v = 0;
	int digits = 0;

	for (; *p == ' ' || *p == '\t'; p++)
		;
	for (; *p >= '0' && *p <= '9' && v < 100000000; p++, digits++)
		v = v * 10 + (unsigned)(*p - '0');
	return digits ? v : ~0U;
}

/* Whether the line at P starts with NAME and a colon; the text after the colon in *AFTER. */
static int line_is(const char *p, const char *name, const char **after)
{
	while (*name && *p == *name)
		p++, name++;
	if (*name || *p != ':')
		return 0;
	*after = p + 1;
	return 1;
}

/* The kernel writes the status in one order (fs/proc/array.c): TracerPid among the first
 * ten lines, Seccomp and Seccomp_filters among the last dozen. So the lines are looked
 * at forward from the start until TracerPid, and backward from the end until Seccomp:
 * about a third of the file, a compare of one byte for most lines. */
int __ss_proc_status(struct ss_proc_status *s)
{
	char b[4096];
	const char *v;
	long n, fd = __syscall(SYS_openat, AT_FDCWD, "/proc/self/status", O_RDONLY | O_CLOEXEC);

	s->mode = s->filters = s->tracer = ~0U;
	if (fd < 0)
		return -1;
	b[0] = '\n';	/* so that the first line is found as the others */
	do
		n = __syscall(SYS_read, fd, b + 1, sizeof b - 2);
	while (n == -EINTR);
	__syscall(SYS_close, fd);
	if (n <= 0)
		return -1;
	b[1 + n] = 0;
	for (const char *p = b; p < b + 1 + n; p++)
		if (*p == '\n' && p[1] == 'T' && line_is(p + 1, "TracerPid", &v)) {
			s->tracer = number_at(v);
			break;
		}
	for (const char *p = b + n; p >= b; p--) {
		if (*p != '\n' || p[1] != 'S')
			continue;
		if (line_is(p + 1, "Seccomp_filters", &v))
			s->filters = number_at(v);
		else if (line_is(p + 1, "Seccomp", &v)) {
			s->mode = number_at(v);
			break;
		}
	}
	return s->mode == ~0U ? -1 : 0;
}

/* ---- a throwaway child */

#define SIGSYS		31
#define WALL		0x40000000	/* __WALL: a child whose exit signals nothing */
#define NO_FD		0x7fffffff

/* KIND's calls, made with arguments that change nothing (an fd nobody has open, a
 * ring of no entries, a query). */
static void try_kind(unsigned kind)
{
	struct stat st;
	struct statx stx;

	switch (kind) {
	case SS_SC_FSTAT:
		__syscall(SYS_fstat, NO_FD, &st);
		break;
	case SS_SC_NEWFSTATAT:
		__syscall(SYS_newfstatat, NO_FD, "", &st, AT_EMPTY_PATH);
		break;
	case SS_SC_STATX:
		__syscall(SYS_statx, NO_FD, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx);
		break;
	case SS_SC_URING:
		__syscall(SYS_io_uring_setup, 0, 0);
		__syscall(SYS_io_uring_enter, -1, 0, 0, 0, 0, 0);
		__syscall(SYS_io_uring_register, -1, 0, 0, 0);
		break;
	case SS_SC_MEMBARRIER:
		__syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
		break;
	}
}

/* Whether a child making KIND's calls exits by itself. The child puts SIGSYS back to
 * its default first, so that a trapping filter kills it rather than running a handler
 * of the program's; a child that cannot even do that counts as killed. */
static int child_lives(unsigned kind)
{
	unsigned long dfl[4] = { 0, 0, 0, 0 };	/* SIG_DFL, no flags, no mask */
	int status = 0;
	long pid = __syscall(SYS_clone, 0, 0, 0, 0, 0), r;

	if (pid < 0)
		return 0;
	if (pid == 0) {
		if (!__syscall(SYS_rt_sigaction, SIGSYS, dfl, 0, 8))
			try_kind(kind);
		else
			__syscall(SYS_exit_group, 1);
		__syscall(SYS_exit_group, 0);
	}
	do
		r = __syscall(SYS_wait4, pid, &status, WALL, 0);
	while (r == -EINTR);
	return r == pid && status == 0;
}

unsigned __ss_seccomp_child_stops(unsigned sc)
{
	unsigned bad = 0;

	for (unsigned kind = 1; kind & SS_SC_ALL; kind <<= 1)
		if ((sc & kind) && !child_lives(kind))
			bad |= kind;
	return bad;
}
