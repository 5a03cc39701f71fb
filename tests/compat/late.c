/* tests/compat/late.c: a program that sandboxes itself after it has started, as sshd's
 * and browsers' children do (tests/compat.sh).
 *   late ACTION SYSCALL PATH
 * stats PATH (so that a preloaded library has probed), installs a libseccomp filter
 * that answers SYSCALL with ACTION (kill, trap, eperm) and allows everything else, then
 * calls fstat, stat, lstat, fstatat and statx on PATH and prints what each returned.
 * ACTION none installs no filter (what the program prints where nothing stops it). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *call, int r, const struct stat *st)
{
	if (r)
		printf("%s: -1 %s\n", call, strerror(errno));
	else
		printf("%s: 0 ino %lu size %ld mode %o\n", call, (unsigned long)st->st_ino,
		       (long)st->st_size, st->st_mode);
}

int main(int argc, char **argv)
{
	struct stat st;
	struct statx sx;
	int act, fd;

	if (argc != 4) {
		fprintf(stderr, "usage: late kill|trap|eperm|none SYSCALL PATH\n");
		return 125;
	}
	act = !strcmp(argv[1], "kill") ? SCMP_ACT_KILL_PROCESS :
	      !strcmp(argv[1], "trap") ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EPERM);
	show("stat before", stat(argv[3], &st), &st);
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (strcmp(argv[1], "none") && (!ctx || seccomp_rule_add(ctx, act, seccomp_syscall_resolve_name(argv[2]), 0) ||
	    seccomp_load(ctx))) {
		fprintf(stderr, "late: cannot install the filter\n");
		return 125;
	}
	fd = open(argv[3], O_RDONLY);
	show("fstat", fstat(fd, &st), &st);
	show("stat", stat(argv[3], &st), &st);
	show("lstat", lstat(argv[3], &st), &st);
	show("fstatat", fstatat(AT_FDCWD, argv[3], &st, 0), &st);
	show("fstatat empty", fstatat(fd, "", &st, AT_EMPTY_PATH), &st);
	if (statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx))
		printf("statx: -1 %s\n", strerror(errno));
	else
		printf("statx: 0 ino %llu size %llu\n", (unsigned long long)sx.stx_ino,
		       (unsigned long long)sx.stx_size);
	return 0;
}
