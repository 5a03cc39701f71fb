/* tests/compat/showstat.c: what each call of the stat family says of PATH... (owner,
 * size, type), for tests/compat.sh: built plainly, with a sanitizer, and linked with
 * libsysshim.a, so that every way of having the library is compared with the same
 * program without it. With -o, a stat buffer one word short (a sanitizer must catch
 * the write past its end). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void line(const char *call, const char *path, int r, const struct stat *st)
{
	if (r)
		printf("%s %s: %s\n", call, path, strerror(errno));
	else
		printf("%s %s: %u:%u %ld %o\n", call, path, st->st_uid, st->st_gid,
		       (long)st->st_size, st->st_mode & S_IFMT);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-o")) {
		struct stat *st = malloc(sizeof *st - 8);
		printf("%d\n", stat("/", st));
		free(st);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		struct statx sx;
		int fd = open(argv[i], O_RDONLY | O_NONBLOCK);
		line("stat", argv[i], stat(argv[i], &st), &st);
		line("lstat", argv[i], lstat(argv[i], &st), &st);
		line("fstatat", argv[i], fstatat(AT_FDCWD, argv[i], &st, AT_SYMLINK_NOFOLLOW), &st);
		if (fd >= 0) {
			line("fstat", argv[i], fstat(fd, &st), &st);
			line("fstatat-empty", argv[i], fstatat(fd, "", &st, AT_EMPTY_PATH), &st);
			close(fd);
		}
		if (statx(AT_FDCWD, argv[i], 0, STATX_BASIC_STATS, &sx))
			printf("statx %s: %s\n", argv[i], strerror(errno));
		else
			printf("statx %s: %u:%u %llu\n", argv[i], sx.stx_uid, sx.stx_gid,
			       (unsigned long long)sx.stx_size);
	}
	return 0;
}
