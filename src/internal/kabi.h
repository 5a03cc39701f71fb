#ifndef SYSSHIM_KABI_H
#define SYSSHIM_KABI_H

/* The kernel ABI sysshim speaks, defined here rather than taken from libc headers,
 * so that the core builds freestanding (loongarch64 has no sysroot on Debian 12). */

#include <stddef.h>
#include <stdint.h>
#include "stat_arch.h"
#include "syscall.h"
#include "fcntl_arch.h"

/* errno values (asm-generic/errno-base.h, errno.h: the same on every arch here). */
#define EPERM		1
#define ENOENT		2
#define EINTR		4
#define EIO		5
#define E2BIG		7
#define ENOEXEC		8
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define ENODEV		19
#define ENOTDIR		20
#define EISDIR		21
#define EINVAL		22
#define EMFILE		24
#define ETXTBSY		26
#define ENAMETOOLONG	36
#define ENOSYS		38
#define ELOOP		40
#define EOVERFLOW	75
#define EOPNOTSUPP	95
#define ENOBUFS		105
#define ETIMEDOUT	110
#define ESTALE		116
#define ECANCELED	125

/* *at() flags. */
#define AT_FDCWD		(-100)
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000
#define AT_STATX_FORCE_SYNC	0x2000
#define AT_STATX_DONT_SYNC	0x4000
#define AT_STATX_SYNC_TYPE	0x6000

/* open(2) and fcntl(2) flags the same on every arch here (the ones that differ are
 * in fcntl_arch.h); access(2), st_mode. */
#define O_RDONLY	0
#define O_WRONLY	01
#define O_CREAT		0100
#define O_EXCL		0200
#define O_NONBLOCK	04000
#define O_CLOEXEC	02000000
#define F_GETFL		3
#define W_OK		2
#define S_IFMT		0170000
#define S_IFREG		0100000

/* mmap(2), madvise(2). */
#define PROT_NONE	0
#define PROT_READ	1
#define PROT_WRITE	2
#define MAP_SHARED	0x01
#define MAP_PRIVATE	0x02
#define MAP_ANONYMOUS	0x20
#define MAP_POPULATE	0x8000
#define MADV_WIPEONFORK	18

/* Clocks, the auxiliary vector. */
#define CLOCK_MONOTONIC	1
#define AT_NULL		0
#define AT_SYSINFO_EHDR	33

/* eventfd(2), membarrier(2). */
#define EFD_SEMAPHORE	1
#define EFD_NONBLOCK	O_NONBLOCK
#define EFD_CLOEXEC	O_CLOEXEC
#define EFD_MAX		0xfffffffffffffffeULL
#define MEMBARRIER_CMD_QUERY				0
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED		8
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED	16

#define STATX_BASIC_STATS	0x7ffU
#define STATX__RESERVED		0x80000000U

struct statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t __reserved;
};

struct statx {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink;
	uint32_t stx_uid;
	uint32_t stx_gid;
	uint16_t stx_mode;
	uint16_t __spare0[1];
	uint64_t stx_ino;
	uint64_t stx_size;
	uint64_t stx_blocks;
	uint64_t stx_attributes_mask;
	struct statx_timestamp stx_atime;
	struct statx_timestamp stx_btime;
	struct statx_timestamp stx_ctime;
	struct statx_timestamp stx_mtime;
	uint32_t stx_rdev_major;
	uint32_t stx_rdev_minor;
	uint32_t stx_dev_major;
	uint32_t stx_dev_minor;
	uint64_t __spare2[14];
};

_Static_assert(sizeof(struct statx) == 256, "struct statx is 256 bytes");

/* The C library's errno (the one thing the library imports besides the environment). */
int *__errno_location(void);

/* A syscall that a sandbox (seccomp) or the kernel refuses outright. */
static inline int __ss_denied(long r)
{
	return r == -ENOSYS || r == -EPERM;
}

/* glibc's and musl's 64-bit dev_t encoding. */
static inline uint64_t ss_makedev(uint64_t maj, uint64_t min)
{
	return ((maj & 0xfffff000ULL) << 32) | ((maj & 0xfffULL) << 8) |
	       ((min & 0xffffff00ULL) << 12) | (min & 0xffULL);
}

static inline uint32_t ss_major(uint64_t d)
{
	return ((d >> 32) & 0xfffff000) | ((d >> 8) & 0xfff);
}

static inline uint32_t ss_minor(uint64_t d)
{
	return ((d >> 12) & 0xffffff00) | (d & 0xff);
}

/* A pointer no user mapping can hold: the kernel answers EFAULT for these, and
 * sysshim must never load through them itself. */
static inline int ss_bad_ptr(const void *p)
{
	/* below 4096 or at 2^56 and above: one unsigned compare (below 4096 wraps) */
	return (uintptr_t)p - 4096 >= ((uintptr_t)1 << 56) - 4096;
}

hidden void __ss_statx_to_stat(struct stat *st, const struct statx *stx);
hidden void __ss_stat_to_statx(struct statx *stx, const struct stat *st);
hidden long __ss_stat_by_statx(int fd, const char *path, int flag, struct stat *st);

#endif
