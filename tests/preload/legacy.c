/* Calls glibc's legacy __xstat family directly, as binaries built before glibc 2.33 do. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#if defined(__x86_64__)
#define VER 1
#else
#define VER 0
#endif

extern int __fxstat(int, int, struct stat *);
extern int __xstat(int, const char *, struct stat *);
extern int __lxstat(int, const char *, struct stat *);
extern int __fxstatat(int, int, const char *, struct stat *, int);

static void show(const char *what, int r, const struct stat *st)
{
	if (r)
		printf("%s: -1\n", what);
	else
		printf("%s: ino %lu mode %o size %ld nlink %lu mtime %ld.%09ld\n", what,
		       (unsigned long)st->st_ino, st->st_mode, (long)st->st_size,
		       (unsigned long)st->st_nlink, (long)st->st_mtim.tv_sec,
		       (long)st->st_mtim.tv_nsec);
}

int main(int argc, char **argv)
{
	struct stat st;
	if (argc < 2)
		return 2;
	int fd = open(argv[1], O_RDONLY);
	show("__fxstat", __fxstat(VER, fd, &st), &st);
	show("__xstat", __xstat(VER, argv[1], &st), &st);
	show("__lxstat", __lxstat(VER, argv[1], &st), &st);
	show("__fxstatat", __fxstatat(VER, AT_FDCWD, argv[1], &st, 0), &st);
	show("__fxstat(bad version)", __fxstat(99, fd, &st), &st);
	return 0;
}
