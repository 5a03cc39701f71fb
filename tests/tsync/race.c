/* race ROUNDS [libseccomp]: the TSYNC race, ROUNDS times. Each round is a child with
 * THREADS threads in an fstat() loop; once all of them are in it, the first thread
 * installs, through the C library's syscall(SYS_seccomp) with SECCOMP_FILTER_FLAG_TSYNC
 * (as libseccomp's seccomp_load() does with SCMP_FLTATR_CTL_TSYNC), a filter that kills
 * the fstat syscall, and the threads go on for LAPS more calls. glibc 2.33 - 2.38's
 * fstat() makes newfstatat: no child dies without sysshim. With it, a thread that chose
 * the fstat syscall before the filter came, and makes it after the kernel has the filter,
 * would be killed (SIGSYS). Prints "ROUNDS rounds, D killed by SIGSYS"; exit 0 where
 * every child ended by itself or by SIGSYS, 1 otherwise. Waits on events only.
 * "libseccomp" (built with -DWITH_LIBSECCOMP -lseccomp): the filter is libseccomp's
 * (seccomp_rule_add() of SCMP_ACT_KILL_PROCESS for fstat, SCMP_FLTATR_CTL_TSYNC,
 * seccomp_load()), made before the threads start. */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef WITH_LIBSECCOMP
#include <seccomp.h>
#endif

#if defined(__x86_64__)
#define ARCH_SELF AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH_SELF AUDIT_ARCH_AARCH64
#elif defined(__loongarch64)
#define ARCH_SELF AUDIT_ARCH_LOONGARCH64
#endif

#define THREADS 8
#define LAPS 200

static int fd, started, installed, libseccomp;

static void *loop(void *arg)
{
	struct stat st;
	(void)arg;
	if (fstat(fd, &st))
		_exit(3);
	__atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&installed, __ATOMIC_SEQ_CST))
		if (fstat(fd, &st))
			_exit(3);
	for (int i = 0; i < LAPS; i++)
		if (fstat(fd, &st))
			_exit(3);
	return 0;
}

static void round_child(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH_SELF, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fstat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog p = { sizeof f / sizeof *f, f };
	pthread_t t[THREADS];

	fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(4);
#ifdef WITH_LIBSECCOMP
	scmp_filter_ctx ctx = 0;
	if (libseccomp && (!(ctx = seccomp_init(SCMP_ACT_ALLOW)) ||
			   seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(fstat), 0) ||
			   seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1)))
		_exit(7);
#endif
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], 0, loop, 0))
			_exit(5);
	/* every thread inside its loop */
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < THREADS)
		sched_yield();
#ifdef WITH_LIBSECCOMP
	if (libseccomp) {
		if (seccomp_load(ctx))
			_exit(6);
	} else
#endif
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &p))
		_exit(6);
	__atomic_store_n(&installed, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], 0);
	_exit(0);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200, killed = 0, bad = 0;

	libseccomp = argc > 2 && !strcmp(argv[2], "libseccomp");
#ifndef WITH_LIBSECCOMP
	if (libseccomp) {
		fprintf(stderr, "race: built without libseccomp\n");
		return 2;
	}
#endif

	for (int n = 0; n < rounds; n++) {
		int status;
		pid_t pid = fork();
		if (pid < 0)
			return 2;
		if (!pid)
			round_child();
		if (waitpid(pid, &status, 0) != pid)
			return 2;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
			killed++;
		else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "race: round %d: status %#x\n", n, status);
			bad++;
		}
	}
	printf("%d rounds%s, %d killed by SIGSYS\n", rounds, libseccomp ? " (libseccomp)" : "", killed);
	return bad ? 1 : 0;
}
