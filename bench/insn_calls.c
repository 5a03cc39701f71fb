/* insn_calls CALL N: N calls of the C library's CALL (fstat, stat, lstat, fstatat,
 * fstatat-empty, statx, fstat64, stat64, lstat64, fstatat64), each through the PLT as a
 * program calls it, for callgrind: the difference of two runs gives user-space
 * instructions per call of whichever export answers the name (tools/insn-count.sh). Built
 * twice (mk/quality.mk): plain, where glibc answers, or libsysshim.so.0 when preloaded; and
 * linked with libsysshim.a, where the library's own definitions answer.
 * insn_calls where: the file each name's definition comes from (dladdr), so that the
 * count is known to be of the export it claims to be.
 * insn_calls execve N: N execve calls of a copy of this program that the kernel refuses
 * (no execute bit: EACCES), so that what runs before the syscall is counted: nothing in
 * glibc's, the look at the program in the library's (src/exec/). */
#define _GNU_SOURCE
#define _LARGEFILE64_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

/* N execve calls of a copy of this program without its execute bit. */
static int refused_execs(long n)
{
	char path[] = "/tmp/insn_calls.XXXXXX", buf[65536];
	char *argv[] = { path, 0 };
	int in = open("/proc/self/exe", O_RDONLY), out = mkstemp(path);
	ssize_t k;

	if (in < 0 || out < 0)
		return 1;
	while ((k = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)k) != k)
			return 1;
	close(in);
	close(out);
	for (long i = 0; i < n; i++)
		execve(path, argv, environ);
	unlink(path);
	return 0;
}

static const char *from(void *f)
{
	Dl_info i;
	return dladdr(f, &i) && i.dli_fname && *i.dli_fname ? i.dli_fname : "(the program)";
}

int main(int argc, char **argv)
{
	struct stat st;
	struct stat64 st64;
	struct statx sx;
	int fd = open("/dev/null", O_RDONLY);
	long n = argc == 3 ? atol(argv[2]) : 0;
	const char *c = argc >= 2 ? argv[1] : "";

	if (!strcmp(c, "where")) {
		/* The addresses as the program's calls take them (the PLT's, resolved), and
		 * "(the program)" where the definition is linked in. */
		printf("fstat %s\nstat %s\nlstat %s\nfstatat %s\nstatx %s\n", from((void *)fstat),
		       from((void *)stat), from((void *)lstat), from((void *)fstatat), from((void *)statx));
		printf("fstat64 %s\nstat64 %s\nlstat64 %s\nfstatat64 %s\n", from((void *)fstat64),
		       from((void *)stat64), from((void *)lstat64), from((void *)fstatat64));
		return 0;
	}
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
	else if (!strcmp(c, "fstat64"))
		for (long i = 0; i < n; i++)
			fstat64(fd, &st64);
	else if (!strcmp(c, "stat64"))
		for (long i = 0; i < n; i++)
			stat64("/dev/null", &st64);
	else if (!strcmp(c, "lstat64"))
		for (long i = 0; i < n; i++)
			lstat64("/dev/null", &st64);
	else if (!strcmp(c, "fstatat64"))
		for (long i = 0; i < n; i++)
			fstatat64(AT_FDCWD, "/dev/null", &st64, 0);
	else if (!strcmp(c, "execve"))
		return refused_execs(n);
	else
		return 2;
	return 0;
}
