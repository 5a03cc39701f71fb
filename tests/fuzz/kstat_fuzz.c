/* libFuzzer target: the statx <-> stat conversions of src/internal/kstat.c, which make
 * no syscall.  Built with clang-19 -fsanitize=fuzzer,address,undefined (mk/fuzz.mk).
 *
 * Properties, for any input bytes:
 *  1. statx -> stat and stat -> statx are the tests' own conversions
 *     (tests/common/statx_oracle.h: dev and rdev by glibc's makedev, major and minor),
 *     byte for byte, padding included, and nothing outside either struct is touched
 *     (exact-size heap buffers under ASan);
 *  2. statx -> stat -> statx gives back every basic field, blksize, dev and rdev
 *     exactly, stx_mask == STATX_BASIC_STATS, and every other byte zero;
 *  3. stat -> statx -> stat gives back every named field that fits statx's widths
 *     (nlink, blksize and nsec are 32 bits there, mode 16), the rest truncated exactly;
 *  4. ss_makedev/ss_major/ss_minor agree with glibc's gnu_dev_* for any 64-bit value. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "kabi.h"
#include "../common/statx_oracle.h"

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c))                                                                 \
			fail(#c, __LINE__);                                               \
	} while (0)

static void fail(const char *what, int line)
{
	/* libFuzzer saves the input when the process dies */
	static const char pre[] = "kstat_fuzz: property failed: ";
	(void)!__syscall(SYS_write, 2, pre, sizeof pre - 1);
	(void)!__syscall(SYS_write, 2, what, strlen(what));
	(void)!__syscall(SYS_write, 2, "\n", 1);
	(void)line;
	abort();
}

/* Property 1: the library's conversion wrote what the tests' own does, to the byte. */
#define CHECK_SAME(got, want) same_bytes(#got " == " #want, got, want, sizeof *(got))

static void same_bytes(const char *what, const void *got, const void *want, size_t n)
{
	const unsigned char *g = got, *w = want;
	for (size_t i = 0; i < n; i++)
		if (g[i] != w[i]) {
			char line[160];
			snprintf(line, sizeof line, "%s: byte %zu is 0x%02x, not 0x%02x", what, i,
				 g[i], w[i]);
			fail(line, __LINE__);
		}
}

static int all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		if (c[i])
			return 0;
	return 1;
}

static void statx_side(const uint8_t *data, size_t size)
{
	struct statx *in = malloc(sizeof *in);
	struct stat *st = malloc(sizeof *st);
	struct statx *back = malloc(sizeof *back);
	struct stat *want = malloc(sizeof *want);

	memset(in, 0, sizeof *in);
	memcpy(in, data, size < sizeof *in ? size : sizeof *in);
	memset(st, 0xa5, sizeof *st);
	memset(back, 0x5a, sizeof *back);

	__ss_statx_to_stat(st, in);
	oracle_stat_from_statx(want, in);
	CHECK_SAME(st, want);

	__ss_stat_to_statx(back, st);
	CHECK(back->stx_mask == STATX_BASIC_STATS);
	CHECK(back->stx_blksize == in->stx_blksize);
	CHECK(back->stx_nlink == in->stx_nlink);
	CHECK(back->stx_uid == in->stx_uid);
	CHECK(back->stx_gid == in->stx_gid);
	CHECK(back->stx_mode == in->stx_mode);
	CHECK(back->stx_ino == in->stx_ino);
	CHECK(back->stx_size == in->stx_size);
	CHECK(back->stx_blocks == in->stx_blocks);
	CHECK(back->stx_atime.tv_sec == in->stx_atime.tv_sec);
	CHECK(back->stx_atime.tv_nsec == in->stx_atime.tv_nsec);
	CHECK(back->stx_mtime.tv_sec == in->stx_mtime.tv_sec);
	CHECK(back->stx_mtime.tv_nsec == in->stx_mtime.tv_nsec);
	CHECK(back->stx_ctime.tv_sec == in->stx_ctime.tv_sec);
	CHECK(back->stx_ctime.tv_nsec == in->stx_ctime.tv_nsec);
	CHECK(back->stx_dev_major == in->stx_dev_major);
	CHECK(back->stx_dev_minor == in->stx_dev_minor);
	CHECK(back->stx_rdev_major == in->stx_rdev_major);
	CHECK(back->stx_rdev_minor == in->stx_rdev_minor);
	/* nothing else was filled, so nothing else may be set */
	CHECK(back->stx_attributes == 0 && back->stx_attributes_mask == 0);
	CHECK(back->__spare0[0] == 0);
	CHECK(back->stx_atime.__reserved == 0 && back->stx_mtime.__reserved == 0 &&
	      back->stx_ctime.__reserved == 0);
	CHECK(all_zero(&back->stx_btime, sizeof back->stx_btime));
	CHECK(all_zero(back->__spare2, sizeof back->__spare2));

	free(in);
	free(st);
	free(back);
	free(want);
}

static void stat_side(const uint8_t *data, size_t size)
{
	struct stat *in = malloc(sizeof *in);
	struct statx *x = malloc(sizeof *x);
	struct stat *back = malloc(sizeof *back);
	struct statx *want = malloc(sizeof *want);

	memset(in, 0, sizeof *in);
	memcpy(in, data, size < sizeof *in ? size : sizeof *in);
	memset(x, 0xa5, sizeof *x);
	memset(back, 0x5a, sizeof *back);

	__ss_stat_to_statx(x, in);
	oracle_statx_from_stat(want, in);
	CHECK_SAME(x, want);
	__ss_statx_to_stat(back, x);

	/* dev_t survives whole: major and minor together hold all 64 bits */
	CHECK(back->st_dev == in->st_dev);
	CHECK(back->st_rdev == in->st_rdev);
	CHECK(back->st_ino == in->st_ino);
	CHECK(back->st_mode == (uint16_t)in->st_mode);
	CHECK(back->st_nlink == (uint32_t)in->st_nlink);
	CHECK(back->st_uid == in->st_uid);
	CHECK(back->st_gid == in->st_gid);
	CHECK(back->st_size == in->st_size);
	CHECK((uint64_t)back->st_blksize == (uint32_t)in->st_blksize);
	CHECK(back->st_blocks == in->st_blocks);
	CHECK(back->st_atime_sec == in->st_atime_sec);
	CHECK(back->st_atime_nsec == (uint32_t)in->st_atime_nsec);
	CHECK(back->st_mtime_sec == in->st_mtime_sec);
	CHECK(back->st_mtime_nsec == (uint32_t)in->st_mtime_nsec);
	CHECK(back->st_ctime_sec == in->st_ctime_sec);
	CHECK(back->st_ctime_nsec == (uint32_t)in->st_ctime_nsec);

	/* a struct stat a kernel can produce goes round unchanged */
	if (in->st_mode <= 0xffff && in->st_nlink <= UINT32_MAX &&
	    (uint64_t)in->st_blksize <= UINT32_MAX && in->st_atime_nsec < 1000000000 &&
	    in->st_mtime_nsec < 1000000000 && in->st_ctime_nsec < 1000000000) {
		CHECK(back->st_mode == in->st_mode && back->st_nlink == in->st_nlink &&
		      back->st_blksize == in->st_blksize &&
		      back->st_atime_nsec == in->st_atime_nsec &&
		      back->st_mtime_nsec == in->st_mtime_nsec &&
		      back->st_ctime_nsec == in->st_ctime_nsec);
	}
	free(in);
	free(x);
	free(back);
	free(want);
}

static void devt(const uint8_t *data, size_t size)
{
	uint64_t d = 0;
	uint32_t ma = 0, mi = 0;
	memcpy(&d, data, size < 8 ? size : 8);
	if (size > 8)
		memcpy(&ma, data + 8, size - 8 < 4 ? size - 8 : 4);
	if (size > 12)
		memcpy(&mi, data + 12, size - 12 < 4 ? size - 12 : 4);
	CHECK(ss_major(d) == gnu_dev_major(d));
	CHECK(ss_minor(d) == gnu_dev_minor(d));
	CHECK(ss_makedev(ss_major(d), ss_minor(d)) == d);
	CHECK(ss_makedev(ma, mi) == gnu_dev_makedev(ma, mi));
	CHECK(ss_major(ss_makedev(ma, mi)) == ma && ss_minor(ss_makedev(ma, mi)) == mi);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	/* the first byte picks the property, the rest is the struct */
	switch (data[0] % 3) {
	case 0: statx_side(data + 1, size - 1); break;
	case 1: stat_side(data + 1, size - 1); break;
	case 2: devt(data + 1, size - 1); break;
	}
	return 0;
}
