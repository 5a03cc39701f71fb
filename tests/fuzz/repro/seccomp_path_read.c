/* Finding 4 of docs/fuzz.md (found by tests/fuzz/logic_fuzz, confirmed here on 6.18):
 * with a seccomp filter that denies newfstatat and statx, the probe finds no NULL-path
 * capability, so sysshim's fstatat reads the first byte of the path for AT_EMPTY_PATH
 * on an fd, as on a pre-6.11 kernel, and faults on an unreadable path where glibc
 * answers (ENOSYS, its newfstatat being denied).
 *   cc -o seccomp_path_read tests/fuzz/repro/seccomp_path_read.c -ldl
 *   ./seccomp_path_read $PWD/build/lib/libsysshim.so      # glibc line, then SIGSEGV */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
int main(int argc, char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_newfstatat, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_statx, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
	};
	struct sock_fprog p = { 5, f };
	char *none = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	int (*ss_fstatat)(int, const char *, struct stat *, int) = dlsym(h, "fstatat");
	struct stat st;
	int fd = open("/etc/hostname", O_RDONLY);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p);
	errno = 0;
	int r = fstatat(fd, none, &st, AT_EMPTY_PATH);
	printf("glibc   fstatat(fd, PROT_NONE page, AT_EMPTY_PATH) = %d errno %d\n", r, errno);
	fflush(stdout);
	errno = 0;
	r = ss_fstatat(fd, none, &st, AT_EMPTY_PATH);
	printf("sysshim fstatat(fd, PROT_NONE page, AT_EMPTY_PATH) = %d errno %d\n", r, errno);
	return 0;
}
