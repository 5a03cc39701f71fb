#include "loader.h"
#include "dso.h"
#include "env.h"
#include "glibc_arch.h"
#include "seccomp.h"

/* Weak: a static program has neither (then nothing is found). */
extern struct ss_r_debug _r_debug __attribute__((__weak__));
extern const struct dyn _DYNAMIC[] __attribute__((__weak__));

static const char *const fn_names[SS_FN_COUNT] = {
	"fstat", "fstat64", "__fxstat", "__fxstat64",
	"fstatat", "fstatat64", "__fxstatat", "__fxstatat64",
	"stat", "stat64", "__xstat", "__xstat64",
	"lstat", "lstat64", "__lxstat", "__lxstat64",
	"statx", "prctl", "syscall",
};

static uintptr_t next_fn[SS_FN_COUNT], libc_fn[SS_FN_COUNT];
static const struct ss_link *next_obj[SS_FN_COUNT];
unsigned __ss_loader_scanned;
static unsigned glibc_version;

const char *__ss_fn_name(int fn)
{
	return fn >= 0 && fn < SS_FN_COUNT ? fn_names[fn] : "?";
}

struct ss_link *__ss_loader_self(void)
{
	if (!&_r_debug || !_DYNAMIC)
		return 0;
	for (struct ss_link *l = _r_debug.map; l; l = l->next)
		if (l->ld == _DYNAMIC)
			return l;
	return 0;
}

/* The C library is the object that defines errno's accessor (glibc's and musl's
 * libc.so both do; no interposer does). */
static int is_libc(const struct ss_dso *d)
{
	return __ss_dso_func(d, "__errno_location") != 0;
}

/* "2.36" -> 236. */
static unsigned version_of(const char *v)
{
	unsigned major = 0, minor = 0;

	for (; *v >= '0' && *v <= '9'; v++)
		major = major * 10 + (unsigned)(*v - '0');
	if (*v++ != '.')
		return 0;
	for (; *v >= '0' && *v <= '9'; v++)
		minor = minor * 10 + (unsigned)(*v - '0');
	return major * 100 + minor;
}

/* The C library's own definitions, and its version where it is glibc. */
static void take_libc(const struct ss_dso *d)
{
	for (int fn = 0; fn < SS_FN_COUNT; fn++)
		__atomic_store_n(&libc_fn[fn], __ss_dso_func(d, fn_names[fn]), __ATOMIC_RELAXED);
	uintptr_t v = __ss_dso_func(d, "gnu_get_libc_version");
	if (v)
		__atomic_store_n(&glibc_version, version_of(((const char *(*)(void))v)()),
				 __ATOMIC_RELAXED);
}

/* The C library before the library's own object (a library opened with dlopen comes
 * after it): its definitions, for the calls the library hands to it; 0 or SS_LD_LIBC. */
static unsigned libc_before(const struct ss_link *me)
{
	struct ss_dso d;

	for (const struct ss_link *l = me ? me->prev : 0; l; l = l->prev)
		if (!__ss_dso_open(&d, l->ld, l->addr) && is_libc(&d)) {
			take_libc(&d);
			return SS_LD_LIBC;
		}
	return 0;
}

/* Each call's next definition: the objects after the library's own, in the loader's
 * order, up to and including the C library. Racing first callers compute the same
 * tables; the last store publishes them. */
unsigned __ss_loader_scan(void)
{
	unsigned s = __atomic_load_n(&__ss_loader_scanned, __ATOMIC_ACQUIRE), found = 0;
	const struct ss_link *me = __ss_loader_self(), *l;
	struct ss_dso d;

	if (likely(s))
		return s;
	s = SS_LD_DONE;
	for (l = me ? me->next : 0; l && !(s & SS_LD_LIBC); l = l->next) {
		if (__ss_dso_open(&d, l->ld, l->addr))
			continue;
		int libc = is_libc(&d);
		for (int fn = 0; fn < SS_FN_COUNT; fn++) {
			uintptr_t a = found & SS_FN_BIT(fn) ? 0 : __ss_dso_func(&d, fn_names[fn]);
			if (!a)
				continue;
			found |= SS_FN_BIT(fn);
			__atomic_store_n(&next_fn[fn], a, __ATOMIC_RELAXED);
			__atomic_store_n(&next_obj[fn], l, __ATOMIC_RELAXED);
			if (!libc)
				s |= SS_FN_BIT(fn);
		}
		if (libc) {
			take_libc(&d);
			s |= SS_LD_LIBC;
		}
	}
	if (!(s & SS_LD_LIBC))
		s |= libc_before(me);
	__atomic_store_n(&__ss_loader_scanned, s, __ATOMIC_RELEASE);
	return s;
}

ss_fn __ss_loader_next(int fn)
{
	__ss_loader_scan();
	return (ss_fn)__atomic_load_n(&next_fn[fn], __ATOMIC_RELAXED);
}

ss_fn __ss_loader_libc(int fn)
{
	__ss_loader_scan();
	return (ss_fn)__atomic_load_n(&libc_fn[fn], __ATOMIC_RELAXED);
}

const char *__ss_loader_next_file(int fn)
{
	const struct ss_link *l;

	__ss_loader_scan();
	l = __atomic_load_n(&next_obj[fn], __ATOMIC_RELAXED);
	return l ? l->name : 0;
}

unsigned __ss_loader_glibc(void)
{
	__ss_loader_scan();
	return __atomic_load_n(&glibc_version, __ATOMIC_RELAXED);
}

unsigned __ss_loader_made(void)
{
	unsigned v = __ss_loader_glibc();
	return v ? ARCH_GLIBC_FSTAT_KIND(v) : 0;
}
