#include "kabi.h"
#include "sysshim.h"

/* The path buffer: one small object, so its five operations share one file. */

_Static_assert(offsetof(struct sysshim_path, buf) % 8 == 0, "sysshim_path.buf is aligned");

/* Puts s at p->buf + at, after a '/' when sep asks for one and the join needs it.
 * All or nothing: s is measured before anything is written, and never read past
 * the first byte that would not fit. */
static long put(struct sysshim_path *p, size_t at, int sep, const char *s)
{
	size_t room, n, i;
	char *d;

	if (ss_bad_ptr(s))
		return -EFAULT;
	if (at >= SYSSHIM_PATH_MAX)
		return -EINVAL;
	sep = sep && at && p->buf[at - 1] != '/' && *s != '/';
	if (at + sep >= SYSSHIM_PATH_MAX)
		return -ENAMETOOLONG;
	room = SYSSHIM_PATH_MAX - 1 - at - sep;
	for (n = 0; s[n]; n++)
		if (n == room)
			return -ENAMETOOLONG;
	d = p->buf + at;
	if (sep)
		*d++ = '/';
	/* Bounded by n and by the NUL both: a string changed meanwhile cannot overflow
	 * (and the second exit keeps the compiler from making this a memcpy call). */
	for (i = 0; i < n && s[i]; i++)
		d[i] = s[i];
	d[i] = 0;
	p->len = d + i - p->buf;
	return 0;
}

EXPORT void sysshim_path_init(struct sysshim_path *p)
{
	p->len = 0;
	p->buf[0] = 0;
}

EXPORT int sysshim_path_set(struct sysshim_path *p, const char *s)
{
	return __syscall_ret(put(p, 0, 0, s));
}

EXPORT int sysshim_path_append(struct sysshim_path *p, const char *name)
{
	return __syscall_ret(put(p, p->len, 1, name));
}

EXPORT int sysshim_path_truncate(struct sysshim_path *p, size_t len)
{
	if (len > p->len || len >= SYSSHIM_PATH_MAX)
		return __syscall_ret(-EINVAL);
	p->len = len;
	p->buf[len] = 0;
	return 0;
}

EXPORT const char *sysshim_path_str(const struct sysshim_path *p)
{
	return p->buf;
}
