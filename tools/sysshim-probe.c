/* sysshim-probe: what the probe finds on this kernel, and what each call will use. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "sysshim.h"

static const struct {
	unsigned bit;
	const char *name, *what;
} caps[] = {
	{ SYSSHIM_CAP_FSTAT, "fstat", "fstat(fd)" },
	{ SYSSHIM_CAP_NEWFSTATAT, "newfstatat", "newfstatat(fd, \"\", AT_EMPTY_PATH)" },
	{ SYSSHIM_CAP_NEWFSTATAT_NULL, "newfstatat_null", "newfstatat(fd, NULL, AT_EMPTY_PATH)" },
	{ SYSSHIM_CAP_STATX, "statx", "statx(fd, \"\", AT_EMPTY_PATH)" },
	{ SYSSHIM_CAP_STATX_NULL, "statx_null", "statx(fd, NULL, AT_EMPTY_PATH)" },
};

int main(int argc, char **argv)
{
	struct utsname u;
	struct sysshim_info in;
	int json = argc > 1 && !strcmp(argv[1], "--json");

	if (argc > 1 && !json) {
		fprintf(stderr, "usage: sysshim-probe [--json]\n");
		return 2;
	}
	uname(&u);
	sysshim_info(&in);
	const char *fd = sysshim_strategy_name(in.fstat_strategy);
	const char *path = in.path_via_statx ? "statx" : "newfstatat";
	const char *empty = in.fstat_strategy == SYSSHIM_S_FSTAT &&
		!(in.caps & (SYSSHIM_CAP_NEWFSTATAT_NULL | SYSSHIM_CAP_STATX_NULL)) ? fd : path;
	const char *sx = in.caps & SYSSHIM_CAP_STATX ? "statx" : "emulated (fstatat)";

	if (json) {
		printf("{\"kernel\": \"%s\", \"arch\": \"%s\", \"caps\": {", u.release, u.machine);
		for (unsigned i = 0; i < sizeof caps / sizeof *caps; i++)
			printf("%s\"%s\": %s", i ? ", " : "", caps[i].name,
			       in.caps & caps[i].bit ? "true" : "false");
		printf("}, \"forced\": \"%s\", \"strategy\": {\"fstat\": \"%s\", "
		       "\"fstatat_empty_path\": \"%s\", \"stat\": \"%s\", \"lstat\": \"%s\", "
		       "\"fstatat\": \"%s\", \"statx\": \"%s\"}}\n",
		       sysshim_strategy_name(in.forced), fd, empty, path, path, path, sx);
		return 0;
	}
	printf("kernel   %s %s\n", u.sysname, u.release);
	printf("arch     %s\n", u.machine);
	printf("probe:\n");
	for (unsigned i = 0; i < sizeof caps / sizeof *caps; i++)
		printf("  %-40s %s\n", caps[i].what,
		       in.caps & caps[i].bit ? "yes" : "no");
	if (in.forced)
		printf("forced   SYSSHIM_STRATEGY=%s\n", sysshim_strategy_name(in.forced));
	printf("calls:\n");
	printf("  %-40s %s\n", "fstat(fd)", fd);
	printf("  %-40s %s\n", "fstatat(fd, \"\", AT_EMPTY_PATH)", empty);
	printf("  %-40s %s\n", "stat, lstat, fstatat(fd, path)", path);
	printf("  %-40s %s\n", "statx", sx);
	return 0;
}
