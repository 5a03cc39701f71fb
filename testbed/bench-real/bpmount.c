/* bpmount: binds files over others and detaches them again, in one static process, so that
 * glibc's ld.so and libc.so.6 are swapped together (a dynamic mount(8) between the two
 * binds would run with one of each).
 *   bpmount on SRC DST [SRC DST...]     mount --bind each SRC over DST
 *   bpmount off DST [DST...]            lazy unmount (MNT_DETACH), last first */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "on") && argc % 2 == 0) {
		for (int i = 2; i < argc; i += 2)
			if (mount(argv[i], argv[i + 1], 0, MS_BIND, 0)) {
				perror(argv[i + 1]);
				return 1;
			}
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "off")) {
		int rc = 0;
		for (int i = argc - 1; i >= 2; i--)
			if (umount2(argv[i], MNT_DETACH)) {
				perror(argv[i]);
				rc = 1;
			}
		return rc;
	}
	fprintf(stderr, "usage: bpmount on SRC DST [SRC DST...] | off DST...\n");
	return 2;
}
