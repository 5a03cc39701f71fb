#ifndef SYSSHIM_LIBC_REF_H
#define SYSSHIM_LIBC_REF_H

/* glibc's own fstat and fstatat, whatever else is linked: the libc-named exports of
 * libsysshim.a would shadow the public names. Static links see glibc's internal
 * names; dynamic ones find the next definition after this program (libc.so.6). */
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/stat.h>

extern int __fstat64(int, struct stat *) __attribute__((weak));
extern int __fstatat64(int, const char *, struct stat *, int) __attribute__((weak));

static inline void *libc_sym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	if (!p)
		abort();
	return p;
}

static inline int libc_fstat(int fd, struct stat *st)
{
	static int (*f)(int, struct stat *);
	if (!f)
		f = __fstat64 ? __fstat64 : (int (*)(int, struct stat *))libc_sym("fstat");
	return f(fd, st);
}

static inline int libc_fstatat(int fd, const char *path, struct stat *st, int flag)
{
	static int (*f)(int, const char *, struct stat *, int);
	if (!f)
		f = __fstatat64 ? __fstatat64
				: (int (*)(int, const char *, struct stat *, int))libc_sym("fstatat");
	return f(fd, path, st, flag);
}

#endif
