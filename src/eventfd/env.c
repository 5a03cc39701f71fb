#include "eventfd_impl.h"

extern char **environ;

/* Whether the environment says NAME=0 (a switch turned off). */
int __ss_env_off(const char *name)
{
	if (!environ)
		return 0;
	for (char **e = environ; *e; e++) {
		unsigned i = 0;
		while (name[i] && (*e)[i] == name[i])
			i++;
		if (!name[i] && (*e)[i] == '=')
			return (*e)[i + 1] == '0' && !(*e)[i + 2];
	}
	return 0;
}
