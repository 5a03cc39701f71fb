/* tests/compat/dupenv.c: runs CMD with an environment that holds NAME=VALUE entries
 * as given, duplicates and all (env(1) cannot make two LD_PRELOAD entries):
 *   dupenv NAME=VALUE... -- CMD...
 * The entries come after the caller's environment. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *env[512];
	int n = 0, i = 1;

	for (char **e = environ; *e && n < 256; e++)
		env[n++] = *e;
	for (; i < argc && strcmp(argv[i], "--") && n < 510; i++)
		env[n++] = argv[i];
	env[n] = 0;
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: dupenv NAME=VALUE... -- CMD...\n");
		return 125;
	}
	execve(argv[i + 1], argv + i + 1, env);
	perror(argv[i + 1]);
	return 127;
}
