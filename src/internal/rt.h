#ifndef SYSSHIM_RT_H
#define SYSSHIM_RT_H

/* The small freestanding runtime that sysshim's parts share (src/internal/rt.c): the
 * library (its environment and its messages, env.c), and the two programs that have no
 * libc: sysshim-run compiles the same source, tests/cross/la64_test.c links it from
 * libsysshim.a.
 *
 * Async-signal-safe: no locks, no allocation, no state. No table of pointers either
 * (sysshim-run is a static PIE without relocations). memcpy and memset, which the
 * compiler may call, are not here: the library has libc's, and a program without a
 * libc defines them once with rt_nolibc.h. */

#include <stddef.h>
#include <stdint.h>
#include "syscall.h"

/* ---- strings */
/* The length of S. */
hidden size_t __ss_strlen(const char *s);
/* Whether two C strings are equal. */
hidden int __ss_streq(const char *a, const char *b);
/* What follows PREFIX in S, or 0 when S does not start with PREFIX. */
hidden const char *__ss_after(const char *s, const char *prefix);
/* S copied to D with its 0; the end of the copy (where its 0 is). */
hidden char *__ss_stpcpy(char *d, const char *s);

/* ---- the environment */
/* The value of NAME in ENV (an array of "NAME=VALUE", 0-terminated; ENV may be 0): the
 * first entry's, or 0. The library passes libc's environ, a program its own envp. */
hidden const char *__ss_env_get(char *const *env, const char *name);

/* ---- errors */
/* The text for errno value E (kabi.h's values), as strerror says it, for the errors a
 * program is told of when it opens, reads or runs a file; OTHERWISE for any other. */
hidden const char *__ss_error_text(int e, const char *otherwise);
/* N bytes at P to FD, again after EINTR and a short write: 0, or -errno. */
hidden long __ss_write_all(int fd, const void *p, size_t n);

/* ---- output: text built in a buffer, written at once */
#define SS_OUT_SIZE 2048

struct ss_out {
	char b[SS_OUT_SIZE];
	size_t n;	/* always < SS_OUT_SIZE: room for the 0 of __ss_cstr */
};

/* Declares an empty struct ss_out NAME without clearing its buffer (an initializer
 * would zero all 2 KB). */
#define SS_OUT(name) struct ss_out name; name.n = 0

/* S at the end of O, cut where O is full (__ss_full says so). O may be 0: then nothing
 * is put (text that only -v would say, not built otherwise). */
hidden void __ss_put(struct ss_out *o, const char *s);
/* V / 10^DEC with DEC decimals, e.g. __ss_put_fix(o, 250, 2) puts "2.50" (the caller
 * rounds). O may be 0. */
hidden void __ss_put_fix(struct ss_out *o, uint64_t v, int dec);
/* V in decimal, with its sign. */
hidden void __ss_put_num(struct ss_out *o, int64_t v);
/* Whether something put did not fit (and was cut). */
hidden int __ss_full(const struct ss_out *o);
/* The text so far as a C string. */
hidden char *__ss_cstr(struct ss_out *o);
/* The text to FD (__ss_write_all), and O empty again. */
hidden void __ss_flush(struct ss_out *o, int fd);

#endif
