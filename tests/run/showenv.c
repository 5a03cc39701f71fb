/* tests/run/showenv.c: what reached this program, for tests/run.sh: its LD_PRELOAD
 * ("LD_PRELOAD=VALUE" or "LD_PRELOAD=(unset)"), whether libsysshim is mapped into it
 * ("mapped: yes|no", from /proc/self/maps) and its arguments ("arg: ..."; as a script's
 * interpreter, the script's name comes first). Built dynamic (the dynamic C program, and
 * its set-user-ID and set-group-ID copies) and static. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *p = getenv("LD_PRELOAD");
	char line[4096];
	int mapped = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof line, f))
		if (strstr(line, "libsysshim"))
			mapped = 1;
	if (f)
		fclose(f);
	printf("LD_PRELOAD=%s\nmapped: %s\n", p ? p : "(unset)", mapped ? "yes" : "no");
	for (int i = 1; i < argc; i++)
		printf("arg: %s\n", argv[i]);
	return 0;
}
