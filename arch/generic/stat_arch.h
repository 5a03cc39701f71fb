/* The kernel's struct stat of include/uapi/asm-generic/stat.h (aarch64, loongarch64),
 * which is also glibc's and musl's on those architectures. */
struct stat {
	unsigned long st_dev;
	unsigned long st_ino;
	unsigned int st_mode;
	unsigned int st_nlink;
	unsigned int st_uid;
	unsigned int st_gid;
	unsigned long st_rdev;
	unsigned long __pad1;
	long st_size;
	int st_blksize;
	int __pad2;
	long st_blocks;
	long st_atime_sec;
	unsigned long st_atime_nsec;
	long st_mtime_sec;
	unsigned long st_mtime_nsec;
	long st_ctime_sec;
	unsigned long st_ctime_nsec;
	unsigned int __unused4;
	unsigned int __unused5;
};

#define KSTAT_PAD_CLEAR(st) ((st)->__pad1 = 0, (st)->__pad2 = 0, \
			     (st)->__unused4 = (st)->__unused5 = 0)

/* glibc's _STAT_VER for the legacy __xstat family on the generic ABI. */
#define ARCH_STAT_VER_OK(v) ((v) == 0)
