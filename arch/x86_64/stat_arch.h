/* The kernel's struct stat on x86_64 (arch/x86/include/uapi/asm/stat.h),
 * which is also glibc's and musl's. */
struct stat {
	unsigned long st_dev;
	unsigned long st_ino;
	unsigned long st_nlink;
	unsigned int st_mode;
	unsigned int st_uid;
	unsigned int st_gid;
	unsigned int __pad0;
	unsigned long st_rdev;
	long st_size;
	long st_blksize;
	long st_blocks;
	long st_atime_sec;
	unsigned long st_atime_nsec;
	long st_mtime_sec;
	unsigned long st_mtime_nsec;
	long st_ctime_sec;
	unsigned long st_ctime_nsec;
	long __unused[3];
};

#define KSTAT_PAD_CLEAR(st) ((st)->__pad0 = 0, (st)->__unused[0] = (st)->__unused[1] = \
			     (st)->__unused[2] = 0)

/* glibc's _STAT_VER_KERNEL and _STAT_VER_LINUX for the legacy __xstat family. */
#define ARCH_STAT_VER_OK(v) ((v) == 0 || (v) == 1)
