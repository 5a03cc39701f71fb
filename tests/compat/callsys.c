/* tests/compat/callsys.c: the two calls through which a seccomp filter comes, made for
 * something else, for tests/compat.sh: the library reads them and passes them on to
 * their next definition unchanged (uid_wrapper's and torsocks' syscall(), the C
 * library's). Prints what syscall(SYS_getuid), syscall(SYS_getppid) == getppid() and
 * prctl(PR_GET_DUMPABLE) answer. */
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	printf("syscall(getuid) %ld\n", syscall(SYS_getuid));
	printf("syscall(getppid) is getppid() %d\n", syscall(SYS_getppid) == getppid());
	printf("prctl(PR_GET_DUMPABLE) %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	return 0;
}
