/* tests/run/sandbox.c: runs a command under a seccomp filter, for tests/run.sh.
 *   sandbox statx-eperm CMD...     statx answers EPERM (a container runtime's old profile)
 *   sandbox statx-enosys CMD...    statx answers ENOSYS (glibc falls back)
 *   sandbox newfstatat-eperm CMD...  newfstatat answers EPERM, fstat allowed
 *   sandbox null-efault CMD...     newfstatat and statx with a NULL path answer EFAULT:
 *                                  what a kernel before 6.11 answers, on any kernel
 *   sandbox clock-eperm CMD...     the clock_gettime syscall answers EPERM (the vDSO's
 *                                  is untouched): to a raw caller, a clock that never moves
 * Exit status: CMD's, 127/126 when it cannot be run, 125 when the filter cannot be set. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ERR(e) RET(SECCOMP_RET_ERRNO | (e))

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: sandbox statx-eperm|statx-enosys|newfstatat-eperm|null-efault|"
				"clock-eperm CMD...\n");
		return 125;
	}
	struct sock_filter deny[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), /* nr patched below */
		ERR(EPERM),                                   /* errno patched below */
		RET(SECCOMP_RET_ALLOW),
	};
	/* A NULL path (args[1], low and high words zero) to newfstatat or statx: EFAULT. */
	struct sock_filter null[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_newfstatat, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_statx, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1]) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		ERR(EFAULT),
		RET(SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog;
	if (!strcmp(argv[1], "null-efault")) {
		prog.filter = null;
		prog.len = sizeof null / sizeof *null;
	} else {
		if (!strcmp(argv[1], "statx-eperm")) {
			deny[4].k = SYS_statx;
		} else if (!strcmp(argv[1], "statx-enosys")) {
			deny[4].k = SYS_statx;
			deny[5].k = SECCOMP_RET_ERRNO | ENOSYS;
		} else if (!strcmp(argv[1], "newfstatat-eperm")) {
			deny[4].k = SYS_newfstatat;
		} else if (!strcmp(argv[1], "clock-eperm")) {
			deny[4].k = SYS_clock_gettime;
		} else {
			fprintf(stderr, "sandbox: unknown filter %s\n", argv[1]);
			return 125;
		}
		prog.filter = deny;
		prog.len = sizeof deny / sizeof *deny;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("sandbox: seccomp");
		return 125;
	}
	execvp(argv[2], argv + 2);
	int e = errno;
	perror(argv[2]);
	return e == ENOENT ? 127 : 126;
}
