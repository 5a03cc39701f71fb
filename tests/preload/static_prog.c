/* Linked statically with libsysshim.a: its stat calls must be sysshim's and right.
 * With an argument it also walks that directory with nftw and fdopendir (libc's own
 * callers of the stat family). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sysshim.h"

static int same(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_size == b->st_size &&
	       a->st_mode == b->st_mode && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static long nfiles;

static int visit(const char *p, const struct stat *st, int type, struct FTW *f)
{
	(void)p, (void)st, (void)type, (void)f;
	nfiles++;
	return 0;
}

int main(int argc, char **argv)
{
	struct stat a, b;
	struct sysshim_info in;
	int bad = 0;
	int fd = open(argv[0], O_RDONLY);

	bad |= fstat(fd, &a) || syscall(SYS_fstat, fd, &b) || !same(&a, &b);
	bad |= stat(argv[0], &a) || !same(&a, &b);
	bad |= lstat(argv[0], &a) || !same(&a, &b);
	bad |= fstatat(fd, "", &a, AT_EMPTY_PATH) || !same(&a, &b);
	if (argc > 1) {
		DIR *d = fdopendir(open(argv[1], O_RDONLY | O_DIRECTORY));
		bad |= !d;
		if (d)
			closedir(d);
		bad |= nftw(argv[1], visit, 8, FTW_PHYS) != 0;
	}
	sysshim_info(&in);
	printf("static: %s, fstat strategy %s, %ld entries walked\n", bad ? "WRONG" : "ok",
	       sysshim_strategy_name(in.fstat_strategy), nfiles);
	return bad;
}
