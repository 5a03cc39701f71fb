/* The shared freestanding runtime (rt.h says who uses it and what it must not do). */
#include "rt.h"
#include "kabi.h"

size_t __ss_strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

int __ss_streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

const char *__ss_after(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix)
		s++, prefix++;
	return *prefix ? 0 : s;
}

char *__ss_stpcpy(char *d, const char *s)
{
	while ((*d = *s++))
		d++;
	return d;
}

const char *__ss_env_get(char *const *env, const char *name)
{
	for (; env && *env; env++) {
		const char *v = __ss_after(*env, name);
		if (v && *v == '=')
			return v + 1;
	}
	return 0;
}

/* A switch, not a table: a table of pointers would need relocations. */
const char *__ss_error_text(int e, const char *otherwise)
{
	switch (e) {
	case ENOENT: return "No such file or directory";
	case EACCES: return "Permission denied";
	case ENOEXEC: return "Exec format error";
	case ENOTDIR: return "Not a directory";
	case EISDIR: return "Is a directory";
	case ELOOP: return "Too many levels of symbolic links";
	case ENAMETOOLONG: return "File name too long";
	case E2BIG: return "Argument list too long";
	case ENOMEM: return "Cannot allocate memory";
	case ETXTBSY: return "Text file busy";
	case EPERM: return "Operation not permitted";
	case EINVAL: return "Invalid argument";
	}
	return otherwise;
}

long __ss_write_all(int fd, const void *p, size_t n)
{
	const char *s = p;
	while (n) {
		long r = __syscall(SYS_write, fd, s, n);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return r;
		if (!r)
			return -EIO;
		s += r, n -= (size_t)r;
	}
	return 0;
}

void __ss_put(struct ss_out *o, const char *s)
{
	if (!o)
		return;
	size_t n = o->n;
	while (*s && n < sizeof o->b - 1)
		o->b[n++] = *s++;
	o->n = n;
}

void __ss_put_fix(struct ss_out *o, uint64_t v, int dec)
{
	char t[32];
	int i = 0;
	if (!o)
		return;
	do {
		t[i++] = (char)('0' + v % 10);
		v /= 10;
		if (i == dec)
			t[i++] = '.';
	} while (v || i <= dec + (dec > 0));
	size_t n = o->n;
	while (i && n < sizeof o->b - 1)
		o->b[n++] = t[--i];
	o->n = n;
}

void __ss_put_num(struct ss_out *o, int64_t v)
{
	if (v < 0)
		__ss_put(o, "-");
	__ss_put_fix(o, v < 0 ? -(uint64_t)v : (uint64_t)v, 0);
}

int __ss_full(const struct ss_out *o)
{
	return o->n >= sizeof o->b - 1;
}

char *__ss_cstr(struct ss_out *o)
{
	o->b[o->n] = 0;
	return o->b;
}

void __ss_flush(struct ss_out *o, int fd)
{
	__ss_write_all(fd, o->b, o->n);
	o->n = 0;
}
