/* tests/compat/filter.c: runs a command under a seccomp filter that libseccomp builds,
 * installed before exec, as a service manager or a sandbox does (tests/compat.sh).
 *   filter ACTION SYSCALL[,SYSCALL...] CMD...
 * ACTION: kill (the process), trap (SIGSYS, no handler: the same death), eperm, enosys.
 * Every other syscall is allowed. Exit status: CMD's; 125 when the filter cannot be
 * made, 127 or 126 when CMD cannot be run. */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int action(const char *a)
{
	if (!strcmp(a, "kill"))
		return SCMP_ACT_KILL_PROCESS;
	if (!strcmp(a, "trap"))
		return SCMP_ACT_TRAP;
	if (!strcmp(a, "eperm"))
		return SCMP_ACT_ERRNO(EPERM);
	if (!strcmp(a, "enosys"))
		return SCMP_ACT_ERRNO(ENOSYS);
	return -1;
}

int main(int argc, char **argv)
{
	char names[256], *save, *n;
	scmp_filter_ctx ctx;
	int act;

	if (argc < 4 || (act = action(argv[1])) == -1 || strlen(argv[2]) >= sizeof names) {
		fprintf(stderr, "usage: filter kill|trap|eperm|enosys SYSCALL[,SYSCALL...] CMD...\n");
		return 125;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return 125;
	strcpy(names, argv[2]);
	for (n = strtok_r(names, ",", &save); n; n = strtok_r(0, ",", &save)) {
		int nr = seccomp_syscall_resolve_name(n);
		if (nr == __NR_SCMP_ERROR || seccomp_rule_add(ctx, act, nr, 0)) {
			fprintf(stderr, "filter: cannot add a rule for %s\n", n);
			return 125;
		}
	}
	if (seccomp_load(ctx)) {
		perror("filter: seccomp_load");
		return 125;
	}
	execvp(argv[3], argv + 3);
	int e = errno;
	perror(argv[3]);
	return e == ENOENT ? 127 : 126;
}
