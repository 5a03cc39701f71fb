/* tests/preload/showfile.c FILE...: each file's size, type and first line, through
 * stat() and stdio: built with musl-gcc for tests/roots.sh (a program of another C
 * library, whose loader cannot load a glibc library). Then its own LD_PRELOAD: the
 * library must not be handed to it. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct stat st;
		char line[256] = "";
		FILE *f;
		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		if ((f = fopen(argv[i], "r"))) {
			if (!fgets(line, sizeof line, f))
				line[0] = 0;
			fclose(f);
		}
		printf("%s %lld %s %s", argv[i], (long long)st.st_size, S_ISDIR(st.st_mode) ? "dir" : "file", line);
	}
	printf("LD_PRELOAD %s\n", getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "unset");
	return 0;
}
