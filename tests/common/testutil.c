#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include "testutil.h"

#define F(x) if (a->x != b->x) return #x
const char *stat_diff(const struct stat *a, const struct stat *b)
{
	F(st_dev); F(st_ino); F(st_mode); F(st_nlink); F(st_uid); F(st_gid); F(st_rdev);
	F(st_size); F(st_blksize); F(st_blocks);
	F(st_atim.tv_sec); F(st_atim.tv_nsec); F(st_mtim.tv_sec); F(st_mtim.tv_nsec);
	F(st_ctim.tv_sec); F(st_ctim.tv_nsec);
	return NULL;
}

const char *statx_diff(const struct statx *a, const struct statx *b)
{
	F(stx_mask); F(stx_blksize); F(stx_attributes); F(stx_nlink); F(stx_uid); F(stx_gid);
	F(stx_mode); F(stx_ino); F(stx_size); F(stx_blocks); F(stx_attributes_mask);
	F(stx_atime.tv_sec); F(stx_atime.tv_nsec); F(stx_btime.tv_sec); F(stx_btime.tv_nsec);
	F(stx_ctime.tv_sec); F(stx_ctime.tv_nsec); F(stx_mtime.tv_sec); F(stx_mtime.tv_nsec);
	F(stx_rdev_major); F(stx_rdev_minor); F(stx_dev_major); F(stx_dev_minor);
	return NULL;
}
#undef F

#if defined(__x86_64__)
#define AUDIT_ARCH_SELF AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_SELF AUDIT_ARCH_AARCH64
#elif defined(__loongarch64)
#define AUDIT_ARCH_SELF AUDIT_ARCH_LOONGARCH64
#endif

int deny_syscalls(const int *nrs, int n, int err)
{
	struct sock_filter f[64];
	int k = 0;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_SELF, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (int i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA));
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = k, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

const char *scratch_dir(void)
{
	static char dir[256];
	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/sysshim-test.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir)) {
			perror("mkdtemp");
			abort();
		}
	}
	return dir;
}
