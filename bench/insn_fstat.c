/* insn_fstat MODE N: N fstat calls through MODE (sysshim, glibc, raw: glibc's syscall(),
 * or syscall: the library's syscall(), which reads a seccomp filter on its way), for
 * callgrind: the difference of two runs gives user-space instructions per call. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sysshim.h"
#include "../tests/libc_ref.h"

static int raw_fstat(int fd, struct stat *st)
{
	static long (*glibc_syscall)(long, ...);
	if (!glibc_syscall)
		glibc_syscall = (long (*)(long, ...))libc_sym("syscall");
	return glibc_syscall(SYS_fstat, fd, st);
}

/* Called the way raw_fstat calls glibc's, so that the two differ by the functions alone. */
static int syscall_fstat(int fd, struct stat *st)
{
	static long (*library_syscall)(long, ...);
	if (!library_syscall)
		library_syscall = (long (*)(long, ...))syscall;
	return library_syscall(SYS_fstat, fd, st);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int (*f)(int, struct stat *) = !strcmp(argv[1], "sysshim") ? sysshim_fstat :
				       !strcmp(argv[1], "glibc") ? libc_fstat :
				       !strcmp(argv[1], "syscall") ? syscall_fstat : raw_fstat;
	long n = atol(argv[2]);
	struct stat st;
	int fd = open("/dev/null", O_RDONLY);
	f(fd, &st);
	for (long i = 0; i < n; i++)
		f(fd, &st);
	return 0;
}
