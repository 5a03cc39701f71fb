#include "eventfd_impl.h"

extern char **environ;

/* The value of NAME in the environment, or 0. */
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

/* Whether the environment says NAME=0 (a switch turned off). */
int __ss_env_off(const char *name)
{
	const char *v = __ss_env_value(name);
	return v && v[0] == '0' && !v[1];
}
