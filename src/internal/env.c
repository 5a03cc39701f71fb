#include "env.h"

extern char **environ;

const char *__ss_env_value(const char *name)
{
	return __ss_env_get(environ, name);
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
	for (int m = 0; m < n; m++)
		if (__ss_streq(v, names[m]))
			return m;
	return -2;
}

/* One write a part, as before: no buffer on a stack that may be a signal handler's. */
void __ss_say(const char *a, const char *b, const char *c)
{
	const char *parts[] = { "sysshim: ", a, b ? b : "", c, "\n" };
	for (unsigned i = 0; i < 5; i++)
		__ss_write_all(2, parts[i], __ss_strlen(parts[i]));
}
