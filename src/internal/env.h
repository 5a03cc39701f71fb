#ifndef SYSSHIM_ENV_H
#define SYSSHIM_ENV_H

/* The environment and one line on stderr, without libc: the library calls none of
 * it (src/internal/env.c, on the shared runtime rt.h). Async-signal-safe: no locks, no
 * allocation. */

#include "rt.h"

/* The value of NAME in the environment, or 0. */
hidden const char *__ss_env_value(const char *name);
/* Whether the environment says NAME=0 (a switch turned off). */
hidden int __ss_env_off(const char *name);
/* NAME's value as an index into NAMES[0..N-1]; -1 unset or empty, -2 none of them. */
hidden int __ss_env_pick(const char *name, const char *const *names, int n);
/* "sysshim: " A B C "\n" on stderr, in raw writes. */
hidden void __ss_say(const char *a, const char *b, const char *c);

#endif
