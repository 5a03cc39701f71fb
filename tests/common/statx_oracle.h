#ifndef SYSSHIM_STATX_ORACLE_H
#define SYSSHIM_STATX_ORACLE_H

/* The tests' own conversions between struct statx and struct stat, written once for
 * every test that needs a struct stat out of a raw statx (a kernel without fstat or
 * newfstatat, a model kernel) or a struct statx out of a struct stat (the statx
 * emulation's contract).
 *
 * They are not the library's (src/internal/kstat.c) on purpose: a test that holds
 * sysshim against the kernel must not take sysshim's conversion for the kernel's
 * answer, or a wrong field would agree with itself. tests/fuzz/kstat_fuzz.c holds
 * the library's conversion against these.
 *
 * Header only, no C library needed: a program that includes the library's kabi.h
 * first (tests/cross/la64_test.c, tests/fuzz/kstat_fuzz.c, tests/fuzz/logic_fuzz.c)
 * gets kabi.h's types, whose struct stat is the kernel's (st_atime_sec,
 * st_atime_nsec, ...); any other gets the C library's from <sys/stat.h> with
 * _GNU_SOURCE (tests/common/testutil.c, debian/tests/stat-compare.c,
 * tests/fuzz/difffuzz.c). dev_t is the C library's makedev(), major() and minor()
 * where there is a C library, else the same 64-bit encoding written out below
 * (glibc's and musl's: 12 + 20 bits of major, 8 + 24 of minor). */

#ifdef SYSSHIM_KABI_H
#define ORACLE_ST_TIME(st, t, part) ((st)->st_##t##time_##part)
#else
#include <sys/stat.h>
#define ORACLE_ST_TIME(st, t, part) ((st)->st_##t##tim.tv_##part)
#endif

#if __STDC_HOSTED__
#include <sys/sysmacros.h>
#define ORACLE_MAKEDEV(ma, mi) makedev((ma), (mi))
#define ORACLE_MAJOR(d) major(d)
#define ORACLE_MINOR(d) minor(d)
#else
#define ORACLE_MAKEDEV(ma, mi)                                                            \
	((((unsigned long long)(ma) & 0xfffff000ULL) << 32) |                             \
	 (((unsigned long long)(ma) & 0xfffULL) << 8) |                                   \
	 (((unsigned long long)(mi) & 0xffffff00ULL) << 12) | ((unsigned long long)(mi) & 0xffULL))
#define ORACLE_MAJOR(d)                                                                   \
	((unsigned)((((unsigned long long)(d) >> 32) & 0xfffff000ULL) |                   \
		    (((unsigned long long)(d) >> 8) & 0xfffULL)))
#define ORACLE_MINOR(d)                                                                   \
	((unsigned)((((unsigned long long)(d) >> 12) & 0xffffff00ULL) |                   \
		    ((unsigned long long)(d) & 0xffULL)))
#endif

/* What the kernel's own stat would have written: the basic fields, dev and rdev
 * encoded, every other byte of *st zero. */
static inline void oracle_stat_from_statx(struct stat *st, const struct statx *x)
{
	__builtin_memset(st, 0, sizeof *st);
	st->st_dev = ORACLE_MAKEDEV(x->stx_dev_major, x->stx_dev_minor);
	st->st_ino = x->stx_ino;
	st->st_mode = x->stx_mode;
	st->st_nlink = x->stx_nlink;
	st->st_uid = x->stx_uid;
	st->st_gid = x->stx_gid;
	st->st_rdev = ORACLE_MAKEDEV(x->stx_rdev_major, x->stx_rdev_minor);
	st->st_size = x->stx_size;
	st->st_blksize = x->stx_blksize;
	st->st_blocks = x->stx_blocks;
	ORACLE_ST_TIME(st, a, sec) = x->stx_atime.tv_sec;
	ORACLE_ST_TIME(st, a, nsec) = x->stx_atime.tv_nsec;
	ORACLE_ST_TIME(st, m, sec) = x->stx_mtime.tv_sec;
	ORACLE_ST_TIME(st, m, nsec) = x->stx_mtime.tv_nsec;
	ORACLE_ST_TIME(st, c, sec) = x->stx_ctime.tv_sec;
	ORACLE_ST_TIME(st, c, nsec) = x->stx_ctime.tv_nsec;
}

/* The statx emulation's contract: stx_mask = STATX_BASIC_STATS, the basic fields,
 * blksize, dev and rdev of *st, every other byte of *x zero (no btime, no
 * attributes). */
static inline void oracle_statx_from_stat(struct statx *x, const struct stat *st)
{
	__builtin_memset(x, 0, sizeof *x);
	x->stx_mask = STATX_BASIC_STATS;
	x->stx_blksize = st->st_blksize;
	x->stx_nlink = st->st_nlink;
	x->stx_uid = st->st_uid;
	x->stx_gid = st->st_gid;
	x->stx_mode = st->st_mode;
	x->stx_ino = st->st_ino;
	x->stx_size = st->st_size;
	x->stx_blocks = st->st_blocks;
	x->stx_atime.tv_sec = ORACLE_ST_TIME(st, a, sec);
	x->stx_atime.tv_nsec = ORACLE_ST_TIME(st, a, nsec);
	x->stx_mtime.tv_sec = ORACLE_ST_TIME(st, m, sec);
	x->stx_mtime.tv_nsec = ORACLE_ST_TIME(st, m, nsec);
	x->stx_ctime.tv_sec = ORACLE_ST_TIME(st, c, sec);
	x->stx_ctime.tv_nsec = ORACLE_ST_TIME(st, c, nsec);
	x->stx_rdev_major = ORACLE_MAJOR(st->st_rdev);
	x->stx_rdev_minor = ORACLE_MINOR(st->st_rdev);
	x->stx_dev_major = ORACLE_MAJOR(st->st_dev);
	x->stx_dev_minor = ORACLE_MINOR(st->st_dev);
}

#endif
