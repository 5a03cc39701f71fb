/* The library beside seccomp filters (src/internal/seccomp.c, sandbox.c, probe.c):
 *  - reader: the classic-BPF reader's answer for each kind of syscall, on filters made
 *    the ways libseccomp and hand-written sandboxes make them (a jump table by number,
 *    an allow-list, a rule on an argument, the instruction pointer, scratch memory and
 *    arithmetic, a malformed program);
 *  - late_model: random filters installed by the process itself after it started
 *    (through prctl() or syscall(), the ways libseccomp takes), each syscall of the stat
 *    family allowed, logged, refused with EPERM or ENOSYS, killed or trapped, and a model
 *    that predicts every call's outcome: answered (the kernel's own answer, field by
 *    field), refused with which errno, or the process killed by SIGSYS at which call (only
 *    where glibc's own call would be), and what sysshim_interposers() says the filter stops.
 *    Each round in a child of its own, under a watchdog. SYSSHIM_STRESS_SEED reruns.
 * Filters are installed in forked children: the test process keeps none. */
#include <check.h>
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sysshim.h"
#include "common/testutil.h"

/* The reader, as the library has it (hidden in libsysshim.so, linkable from the .a). */
struct ss_sock_fprog;
unsigned __ss_bpf_stops(const struct ss_sock_fprog *p, unsigned sc, unsigned *refused);

#define K_FSTAT		SYSSHIM_SYSCALL_FSTAT
#define K_NEWFSTATAT	SYSSHIM_SYSCALL_NEWFSTATAT
#define K_STATX		SYSSHIM_SYSCALL_STATX
#define K_URING		SYSSHIM_SYSCALL_IO_URING
#define K_MEMBARRIER	SYSSHIM_SYSCALL_MEMBARRIER
#define K_ALL		0x1f

#define LD(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define NR offsetof(struct seccomp_data, nr)
#define ARCH offsetof(struct seccomp_data, arch)

static void reads(const char *what, struct sock_filter *f, unsigned short n, unsigned want_stops,
		  unsigned want_refused)
{
	struct sock_fprog p = { n, f };
	unsigned refused, stops = __ss_bpf_stops((const struct ss_sock_fprog *)&p, K_ALL, &refused);
	ck_assert_msg(stops == want_stops && refused == want_refused,
		      "%s: stops %#x refused %#x, want %#x and %#x", what, stops, refused, want_stops,
		      want_refused);
}

START_TEST(reader)
{
	/* libseccomp's shape: the arch, then one jump per rule, the default last. */
	struct sock_filter table[] = {
		LD(ARCH), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_SELF, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
		LD(NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fstat, 0, 1), RET(SECCOMP_RET_KILL_PROCESS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_statx, 0, 1), RET(SECCOMP_RET_ERRNO | EPERM),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_membarrier, 0, 1), RET(SECCOMP_RET_LOG),
		RET(SECCOMP_RET_ALLOW),
	};
	reads("kill fstat, EPERM statx, log membarrier", table, sizeof table / sizeof *table, K_FSTAT,
	      K_STATX);
	/* An allow-list: newfstatat only, traps for the rest. */
	struct sock_filter allow[] = {
		LD(NR), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_newfstatat, 0, 1), RET(SECCOMP_RET_ALLOW),
		RET(SECCOMP_RET_TRAP),
	};
	reads("an allow-list of newfstatat", allow, sizeof allow / sizeof *allow,
	      K_ALL & ~K_NEWFSTATAT, 0);
	/* A rule on the flags argument: the answer depends on the call, so the kind is
	 * stopped; the instruction pointer likewise. */
	struct sock_filter arg[] = {
		LD(NR), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_newfstatat, 0, 3),
		LD(offsetof(struct seccomp_data, args[3])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x1000, 0, 1), RET(SECCOMP_RET_ERRNO | EPERM),
		RET(SECCOMP_RET_ALLOW),
	};
	reads("newfstatat by its flags", arg, sizeof arg / sizeof *arg, K_NEWFSTATAT, 0);
	struct sock_filter ip[] = {
		LD(offsetof(struct seccomp_data, instruction_pointer)),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 0x1000, 0, 1), RET(SECCOMP_RET_ALLOW),
		RET(SECCOMP_RET_KILL_PROCESS),
	};
	reads("by the instruction pointer", ip, sizeof ip / sizeof *ip, K_ALL, 0);
	/* A loaded argument that no decision uses changes nothing. */
	struct sock_filter unused[] = {
		LD(offsetof(struct seccomp_data, args[0])), LD(NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_statx, 0, 1), RET(SECCOMP_RET_TRACE),
		RET(SECCOMP_RET_ALLOW),
	};
	reads("an argument loaded, then the number", unused, sizeof unused / sizeof *unused, K_STATX, 0);
	/* Scratch memory, arithmetic, X: (nr & ~0) + 0 compared through memory and X. */
	struct sock_filter alu[] = {
		LD(NR), BPF_STMT(BPF_ST, 3), BPF_STMT(BPF_LDX | BPF_MEM, 3),
		BPF_STMT(BPF_LD | BPF_IMM, SYS_fstat), BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 0),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xffffffff),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_X, 0, 0, 1), RET(SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_MISC | BPF_TXA, 0), BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, SYS_statx, 0, 1),
		RET(SECCOMP_RET_ERRNO | ENOSYS), RET(SECCOMP_RET_ALLOW),
	};
	unsigned over = (SYS_io_uring_setup >= SYS_statx ? K_URING : 0) |
			(SYS_membarrier >= SYS_statx ? K_MEMBARRIER : 0) | K_STATX |
			(SYS_newfstatat >= SYS_statx ? K_NEWFSTATAT : 0);
	reads("memory, arithmetic and X", alu, sizeof alu / sizeof *alu, K_FSTAT, over);
	/* Programs the kernel refuses: every kind stopped (their installation fails). */
	struct sock_filter far[] = { BPF_JUMP(BPF_JMP | BPF_JA, 5, 0, 0), RET(SECCOMP_RET_ALLOW) };
	reads("a jump out of the program", far, 2, K_ALL, 0);
	struct sock_filter div0[] = { BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0), RET(SECCOMP_RET_ALLOW) };
	reads("a division by 0", div0, 2, K_ALL, 0);
	struct sock_filter open_end[] = { LD(NR) };
	reads("no return", open_end, 1, K_ALL, 0);
	reads("no instructions", table, 0, K_ALL, 0);
}
END_TEST

/* ---- late_model */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return test_random(&rng_state);
}

enum act { A_ALLOW, A_LOG, A_EPERM, A_ENOSYS, A_KILL, A_TRAP, A_COUNT };
static const char *const act_name[] = { "allow", "log", "EPERM", "ENOSYS", "kill", "trap" };
static const uint32_t act_ret[] = { SECCOMP_RET_ALLOW, SECCOMP_RET_LOG, SECCOMP_RET_ERRNO | EPERM,
				    SECCOMP_RET_ERRNO | ENOSYS, SECCOMP_RET_KILL_PROCESS,
				    SECCOMP_RET_TRAP };
static const long kind_nr[] = { SYS_fstat, SYS_newfstatat, SYS_statx };
enum { KF, KN, KX };

struct round {
	enum act act[3];
	int probe_first, via_syscall;
};

static int through(const struct round *r, int k)
{
	return r->act[k] == A_ALLOW || r->act[k] == A_LOG;
}

/* The kernel has the call at all (LoongArch before 6.11 has neither fstat nor
 * newfstatat), and the filter lets it through. */
static int usable(const struct round *r, int k)
{
	return through(r, k) && (k == KF ? raw_has_fstat() : k == KN ? raw_has_newfstatat() : 1);
}

/* What a call comes to: answered, refused (errno), or the process killed. */
struct outcome {
	int killed, err;
};

/* The filter's answer to syscall kind K: answered (where the kernel has the call),
 * refused with an errno, or the process killed. */
static struct outcome outcome_of(const struct round *r, int k)
{
	struct outcome o = { 0, 0 };
	enum act a = r->act[k];
	if (a == A_KILL || a == A_TRAP)
		o.killed = 1;
	else if (a == A_EPERM || a == A_ENOSYS)
		o.err = a == A_EPERM ? EPERM : ENOSYS;
	else if (!usable(r, k))
		o.err = ENOSYS;	/* allowed, but the kernel has no such call */
	return o;
}

/* The syscall the C library makes for a path (fstatat, stat, lstat) and for fstat:
 * newfstatat on x86_64 and aarch64 (fstat by glibc before 2.33 and after 2.38), statx
 * on loongarch64. */
#if defined(__loongarch64)
#define LIBC_PATH KX
#define LIBC_FD KX
#else
#define LIBC_PATH KN
#define LIBC_FD (libc_between(233, 238) ? KN : KF)

static int libc_between(int lo, int hi)
{
	int maj = 0, min = 0;
	sscanf(gnu_get_libc_version(), "%d.%d", &maj, &min);
	return maj * 100 + min >= lo && maj * 100 + min <= hi;
}
#endif

/* A call handed to another interposer (a sanitizer's stat) ends in the C library's:
 * its syscall's answer; glibc's statx() answers ENOSYS by stat's syscall (its
 * emulation). */
static struct outcome as_libc(const struct round *r, int call)
{
	if (call >= 5) {
		struct outcome o = outcome_of(r, KX);
		return o.err == ENOSYS ? outcome_of(r, LIBC_PATH) : o;
	}
	return outcome_of(r, call < 2 ? LIBC_FD : LIBC_PATH);
}

/* CALL's outcome: handed on, the C library's; else answered while any way is left the
 * library may take (fstat's own only for an fd), and where none is, what newfstatat,
 * the call the library then makes as glibc would, comes to. */
static struct outcome predict(const struct round *r, int call, int handed)
{
	struct outcome ok = { 0, 0 };
	int fd_call = call < 2 || call == 5;
	if (handed)
		return as_libc(r, call);
	if (usable(r, KN) || usable(r, KX) || (fd_call && usable(r, KF)))
		return ok;
	return outcome_of(r, KN);
}

static void install(const struct round *r)
{
	struct sock_filter f[16];
	int k = 0;
	f[k++] = (struct sock_filter)LD(ARCH);
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_SELF, 1, 0);
	f[k++] = (struct sock_filter)RET(SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)LD(NR);
	for (int i = 0; i < 3; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kind_nr[i], 0, 1);
		f[k++] = (struct sock_filter)RET(act_ret[r->act[i]]);
	}
	f[k++] = (struct sock_filter)RET(SECCOMP_RET_ALLOW);
	struct sock_fprog p = { (unsigned short)k, f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    (r->via_syscall ? syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &p)
			    : prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p)))
		_exit(90);
}

#define CALLS 7
static const char *const call_name[CALLS] = {
	"fstat", "fstatat(fd, \"\")", "stat", "lstat", "fstatat", "statx(fd, \"\")", "statx(path)",
};
static const char *const export_of[CALLS] = {
	"fstat", "fstatat", "stat", "lstat", "fstatat", "statx", "statx",
};

/* Whether the library hands NAME on: the next definition after the program's (the
 * library's, linked in) is another interposer's, not the C library's. */
static int handed_on(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	Dl_info di;
	return p && dladdr(p, &di) && di.dli_fname && !strstr(di.dli_fname, "/libc.so");
}

/* In the child: the calls, each outcome to the pipe as (call, errno or 0, ino). The
 * first byte sent is sysshim_interposers().stopped. */
static void child(const struct round *r, const char *path, int out)
{
	struct stat st;
	struct statx sx;
	struct sysshim_interposers co;
	int fd = open(path, O_RDONLY);
	if (r->probe_first)
		stat(path, &st);
	install(r);
	sysshim_interposers(&co);
	unsigned char s = (unsigned char)co.stopped;
	if (write(out, &s, 1) != 1)
		_exit(91);
	for (int c = 0; c < CALLS; c++) {
		long rv;
		unsigned long ino = 0;
		errno = 0;
		switch (c) {
		case 0: rv = fstat(fd, &st); break;
		case 1: rv = fstatat(fd, "", &st, AT_EMPTY_PATH); break;
		case 2: rv = stat(path, &st); break;
		case 3: rv = lstat(path, &st); break;
		case 4: rv = fstatat(AT_FDCWD, path, &st, 0); break;
		case 5: rv = statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx); break;
		default: rv = statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &sx); break;
		}
		ino = c >= 5 ? sx.stx_ino : st.st_ino;
		long rec[3] = { c, rv ? errno : 0, rv ? 0 : (long)ino };
		if (write(out, rec, sizeof rec) != sizeof rec)
			_exit(92);
	}
	_exit(0);
}

START_TEST(late_model)
{
	const char *seed_env = getenv("SYSSHIM_STRESS_SEED");
	uint64_t seed = seed_env ? strtoull(seed_env, 0, 0) : (uint64_t)getpid() * 2654435761u ^ (uint64_t)time(0);
	int rounds = 300, died = 0, answered = 0, refused = 0;
	char path[512];
	struct stat ref;

	int handed[CALLS];
	for (int c = 0; c < CALLS; c++)
		handed[c] = handed_on(export_of[c]);
	snprintf(path, sizeof path, "%s/late-model", scratch_dir());
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "model\n", 6), 6);
	close(fd);
	ck_assert_int_eq(RAW_FSTATAT(AT_FDCWD, path, &ref, 0), 0);
	rng_state = seed;
	for (int n = 0; n < rounds; n++) {
		struct round r;
		for (int i = 0; i < 3; i++)
			r.act[i] = (enum act)(rnd() % A_COUNT);
		r.probe_first = rnd() & 1;
		r.via_syscall = rnd() & 1;
		char what[160];
		snprintf(what, sizeof what, "fstat %s, newfstatat %s, statx %s%s, via %s (seed %#llx, round %d)",
			 act_name[r.act[KF]], act_name[r.act[KN]], act_name[r.act[KX]],
			 r.probe_first ? ", probed before" : "", r.via_syscall ? "syscall()" : "prctl()",
			 (unsigned long long)seed, n);
		int pp[2];
		ck_assert_int_eq(pipe(pp), 0);
		pid_t pid = fork();
		if (!pid) {
			close(pp[0]);
			alarm(10);	/* a hang is a failure */
			child(&r, path, pp[1]);
		}
		close(pp[1]);
		unsigned char stopped = 0xff;
		int got_stopped = read(pp[0], &stopped, 1) == 1;
		long rec[3];
		int c = 0;
		struct outcome want;
		while (read(pp[0], rec, sizeof rec) == sizeof rec) {
			ck_assert_int_eq(rec[0], c);
			want = predict(&r, c, handed[c]);
			ck_assert_msg(!want.killed, "%s: %s answered (errno %ld), the model says killed",
				      what, call_name[c], rec[1]);
			ck_assert_msg(rec[1] == want.err, "%s: %s: errno %ld, the model says %d", what,
				      call_name[c], rec[1], want.err);
			if (!rec[1])
				ck_assert_msg((unsigned long)rec[2] == ref.st_ino, "%s: %s: ino %ld, the kernel's %lu",
					      what, call_name[c], rec[2], (unsigned long)ref.st_ino);
			rec[1] ? refused++ : answered++;
			c++;
		}
		close(pp[0]);
		int status;
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_msg(!(WIFEXITED(status) && WEXITSTATUS(status) == 90),
			      "%s: the filter could not be installed", what);
		if (c < CALLS) {
			want = predict(&r, c, handed[c]);
			ck_assert_msg(want.killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
				      "%s: %s: the child ended (status %#x), the model says %s", what,
				      c < CALLS ? call_name[c] : "-", status,
				      want.killed ? "killed by SIGSYS" : "answered");
			died++;
		} else {
			ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status), "%s: status %#x", what, status);
		}
		unsigned want_stopped = (r.act[KF] >= A_KILL ? K_FSTAT : 0) |
					(r.act[KN] >= A_KILL ? K_NEWFSTATAT : 0) |
					(r.act[KX] >= A_KILL ? K_STATX : 0);
		ck_assert_msg(got_stopped && stopped == want_stopped,
			      "%s: sysshim_interposers() says %#x stopped, the model %#x", what, stopped,
			      want_stopped);
	}
	fprintf(stderr, "sandbox late_model: %d rounds, %d calls answered, %d refused, %d children killed "
			"where glibc's own call would be; seed %#llx\n",
		rounds, answered, refused, died, (unsigned long long)seed);
}
END_TEST

/* qemu-user cannot apply a guest's filter: nothing to read there. */
static int filters_apply(void)
{
	pid_t pid = fork();
	if (!pid) {
		struct sock_filter f[] = { LD(NR), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
					   RET(SECCOMP_RET_ERRNO | EPERM), RET(SECCOMP_RET_ALLOW) };
		struct sock_fprog p = { 4, f };
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p))
			_exit(1);
		_exit(syscall(SYS_getppid) == -1 && errno == EPERM ? 0 : 1);
	}
	int status;
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

int main(void)
{
	Suite *s = suite_create("sandbox");
	TCase *t = tcase_create("reader");
	tcase_add_test(t, reader);
	suite_add_tcase(s, t);
	if (RUNNING_ON_VALGRIND) {
		/* valgrind has no seccomp(2), and a killed syscall ends its process otherwise */
		fprintf(stderr, "sandbox: under valgrind: late_model skipped\n");
	} else if (filters_apply()) {
		t = tcase_create("late_model");
		tcase_set_timeout(t, 600);
		tcase_add_test(t, late_model);
		suite_add_tcase(s, t);
	} else {
		fprintf(stderr, "sandbox: seccomp filters do not apply here (qemu-user): late_model skipped\n");
	}
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
