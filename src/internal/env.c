#include "env.h"

extern char **environ;

static unsigned slen(const char *s)
{
	unsigned n = 0;
	while (s[n])
		n++;
	return n;
}

const char *__ss_env_value(const char *name)
{
	if (!environ)
		return 0;
	for (char **e = environ; *e; e++) {
		unsigned i = 0;
		while (name[i] && (*e)[i] == name[i])
			i++;
		if (!name[i] && (*e)[i] == '=')
			return *e + i + 1;
	}
	return 0;
}

int __ss_streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int __ss_env_off(const char *name)
{
	const char *v = __ss_env_value(name);
	return v && v[0] == '0' && !v[1];
}

int __ss_env_pick(const char *name, const char *const *names, int n)
{
	const char *v = __ss_env_value(name);

	if (!v || !*v)
		return -1;
	for (int m = 0; m < n; m++) {
		unsigned i = 0;
		while (names[m][i] && v[i] == names[m][i])
			i++;
		if (!names[m][i] && !v[i])
			return m;
	}
	return -2;
}

void __ss_say(const char *a, const char *b, const char *c)
{
	const char *parts[] = { "sysshim: ", a, b ? b : "", c, "\n" };
	for (unsigned i = 0; i < 5; i++)
		__syscall(SYS_write, 2, parts[i], slen(parts[i]));
}
