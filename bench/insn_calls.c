/* insn_calls CALL N: N calls of the C library's CALL (fstat, stat, lstat, fstatat,
 * fstatat-empty, statx), for callgrind with libsysshim.so preloaded: the difference of
 * two runs gives user-space instructions per call of the library's export
 * (tools/insn-count.sh). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct stat st;
	struct statx sx;
	int fd = open("/dev/null", O_RDONLY);
	long n = argc == 3 ? atol(argv[2]) : 0;
	const char *c = argc == 3 ? argv[1] : "";

	fstat(fd, &st);
	if (!strcmp(c, "fstat"))
		for (long i = 0; i < n; i++)
			fstat(fd, &st);
	else if (!strcmp(c, "stat"))
		for (long i = 0; i < n; i++)
			stat("/dev/null", &st);
	else if (!strcmp(c, "lstat"))
		for (long i = 0; i < n; i++)
			lstat("/dev/null", &st);
	else if (!strcmp(c, "fstatat"))
		for (long i = 0; i < n; i++)
			fstatat(AT_FDCWD, "/dev/null", &st, 0);
	else if (!strcmp(c, "fstatat-empty"))
		for (long i = 0; i < n; i++)
			fstatat(fd, "", &st, AT_EMPTY_PATH);
	else if (!strcmp(c, "statx"))
		for (long i = 0; i < n; i++)
			statx(AT_FDCWD, "/dev/null", 0, STATX_BASIC_STATS, &sx);
	else
		return 2;
	return 0;
}
