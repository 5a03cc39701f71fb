#include "kabi.h"

void __ss_statx_to_stat(struct stat *st, const struct statx *stx)
{
	st->st_dev = ss_makedev(stx->stx_dev_major, stx->stx_dev_minor);
	st->st_ino = stx->stx_ino;
	st->st_mode = stx->stx_mode;
	st->st_nlink = stx->stx_nlink;
	st->st_uid = stx->stx_uid;
	st->st_gid = stx->stx_gid;
	st->st_rdev = ss_makedev(stx->stx_rdev_major, stx->stx_rdev_minor);
	st->st_size = stx->stx_size;
	st->st_blksize = stx->stx_blksize;
	st->st_blocks = stx->stx_blocks;
	st->st_atime_sec = stx->stx_atime.tv_sec;
	st->st_atime_nsec = stx->stx_atime.tv_nsec;
	st->st_mtime_sec = stx->stx_mtime.tv_sec;
	st->st_mtime_nsec = stx->stx_mtime.tv_nsec;
	st->st_ctime_sec = stx->stx_ctime.tv_sec;
	st->st_ctime_nsec = stx->stx_ctime.tv_nsec;
	KSTAT_PAD_CLEAR(st);
}

/* A struct stat from the statx syscall: the kernel checks everything but the output
 * buffer, which is ours to refuse when it cannot be written. */
long __ss_stat_by_statx(int fd, const char *path, int flag, struct stat *st)
{
	struct statx stx;
	long r = __syscall(SYS_statx, fd, path, flag, STATX_BASIC_STATS, &stx);
	if (r)
		return r;
	if (ss_bad_ptr(st))
		return -EFAULT;
	__ss_statx_to_stat(st, &stx);
	return 0;
}

static void set_ts(struct statx_timestamp *ts, long sec, unsigned long nsec)
{
	ts->tv_sec = sec;
	ts->tv_nsec = nsec;
	ts->__reserved = 0;
}

/* statx() emulated from a struct stat: stx_mask says only what was filled. */
void __ss_stat_to_statx(struct statx *stx, const struct stat *st)
{
	volatile unsigned char *p = (volatile unsigned char *)stx;
	for (unsigned i = 0; i < sizeof *stx; i++)
		p[i] = 0;
	stx->stx_mask = STATX_BASIC_STATS;
	stx->stx_blksize = st->st_blksize;
	stx->stx_nlink = st->st_nlink;
	stx->stx_uid = st->st_uid;
	stx->stx_gid = st->st_gid;
	stx->stx_mode = st->st_mode;
	stx->stx_ino = st->st_ino;
	stx->stx_size = st->st_size;
	stx->stx_blocks = st->st_blocks;
	set_ts(&stx->stx_atime, st->st_atime_sec, st->st_atime_nsec);
	set_ts(&stx->stx_mtime, st->st_mtime_sec, st->st_mtime_nsec);
	set_ts(&stx->stx_ctime, st->st_ctime_sec, st->st_ctime_nsec);
	stx->stx_rdev_major = ss_major(st->st_rdev);
	stx->stx_rdev_minor = ss_minor(st->st_rdev);
	stx->stx_dev_major = ss_major(st->st_dev);
	stx->stx_dev_minor = ss_minor(st->st_dev);
}
