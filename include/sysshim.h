#ifndef SYSSHIM_H
#define SYSSHIM_H

/* sysshim: the stat family and eventfd signalling on the fastest correct kernel path,
 * chosen by probing the running kernel once per process. */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

struct stat;
struct statx;

/* The stat family: same results and errno as the libc calls of the same name. */
int sysshim_fstat(int fd, struct stat *st);
int sysshim_fstatat(int fd, const char *__restrict path, struct stat *__restrict st, int flag);
int sysshim_stat(const char *__restrict path, struct stat *__restrict st);
int sysshim_lstat(const char *__restrict path, struct stat *__restrict st);
int sysshim_statx(int fd, const char *__restrict path, int flag, unsigned mask,
		  struct statx *__restrict stx);

/* What the probe found. */
enum sysshim_strategy {
	SYSSHIM_S_AUTO,			/* not forced */
	SYSSHIM_S_FSTAT,		/* fstat(fd) */
	SYSSHIM_S_NEWFSTATAT_NULL,	/* newfstatat(fd, NULL, AT_EMPTY_PATH) */
	SYSSHIM_S_NEWFSTATAT_EMPTY,	/* newfstatat(fd, "", AT_EMPTY_PATH) */
	SYSSHIM_S_STATX_NULL,		/* statx(fd, NULL, AT_EMPTY_PATH) */
	SYSSHIM_S_STATX_EMPTY,		/* statx(fd, "", AT_EMPTY_PATH) */
	SYSSHIM_S_NONE,			/* every way refused: calls fail with ENOSYS */
};

#define SYSSHIM_CAP_FSTAT		0x01	/* the fstat syscall answers */
#define SYSSHIM_CAP_NEWFSTATAT		0x02	/* newfstatat answers */
#define SYSSHIM_CAP_NEWFSTATAT_NULL	0x04	/* ... and takes a NULL path with AT_EMPTY_PATH */
#define SYSSHIM_CAP_STATX		0x08	/* statx answers */
#define SYSSHIM_CAP_STATX_NULL		0x10	/* ... and takes a NULL path with AT_EMPTY_PATH */

struct sysshim_info {
	unsigned caps;		/* SYSSHIM_CAP_* */
	int fstat_strategy;	/* enum sysshim_strategy used by fstat */
	int forced;		/* what SYSSHIM_STRATEGY asked for, SYSSHIM_S_AUTO if nothing */
	int path_via_statx;	/* stat, lstat and fstatat use statx (else newfstatat) */
};

/* Runs the probe if it has not run yet; never fails. */
void sysshim_info(struct sysshim_info *info);
const char *sysshim_strategy_name(int strategy);

/* Compatibility (sysshim(7), COMPATIBILITY): the C library's names the library defines, numbered
 * 0 to SYSSHIM_CALLS - 1 (fstat, fstat64, __fxstat, __fxstat64, fstatat, ..., statx,
 * prctl, syscall: sysshim_call_name()), which of them it hands to their next definition
 * (another interposer's, or the C library's), and what it knows of the seccomp filters
 * on the process. */
#define SYSSHIM_CALLS		19
#define SYSSHIM_SANDBOX_NONE	1	/* no seccomp filter */
#define SYSSHIM_SANDBOX_READ	2	/* filters, every one read on its way in (or tried) */
#define SYSSHIM_SANDBOX_UNREAD	3	/* a filter the library cannot read */
/* Syscalls the library makes of its own accord, for sysshim_interposers.stopped. */
#define SYSSHIM_SYSCALL_FSTAT		0x01
#define SYSSHIM_SYSCALL_NEWFSTATAT	0x02
#define SYSSHIM_SYSCALL_STATX		0x04
#define SYSSHIM_SYSCALL_IO_URING	0x08
#define SYSSHIM_SYSCALL_MEMBARRIER	0x10

struct sysshim_interposers {
	union {
		unsigned forwarded;	/* bit n: call n goes to its next definition */
		unsigned handed;	/* its name in 0.1.0 */
	};
	int sandbox;		/* SYSSHIM_SANDBOX_* */
	unsigned stopped;	/* SYSSHIM_SYSCALL_*: what a filter stops or may; not made */
	unsigned filters_read;	/* seccomp filters read on their way in */
	int tried_in_child;	/* SYSSHIM_SECCOMP=child tried the syscalls in children */
};

/* Runs the probe if it has not run yet; never fails. */
void sysshim_interposers(struct sysshim_interposers *c);
/* The names of 0.1.0, kept for one release: the same function and struct. */
#define sysshim_company sysshim_interposers
/* Call n's name, or NULL; the file of the object that holds its next definition after
 * the library's, or NULL where there is none (a static program). */
const char *sysshim_call_name(int call);
const char *sysshim_call_next(int call);

/* eventfd signalling (docs/eventfd.md). */
#include <stdint.h>

/* A coalescing notifier: an eventfd and a pending flag. sysshim_notify() writes 1
 * only when it moves the flag from clear to set; the consumer's
 * sysshim_notifier_drain() reads the eventfd and then clears the flag, so no wakeup
 * is lost and at most one is spurious. The caller owns the storage. */
struct sysshim_notifier {
	int fd;			/* the eventfd, -1 when not open */
	unsigned pending;	/* sysshim's own: only touched atomically */
	unsigned mode;		/* sysshim's own */
};

#define SYSSHIM_NOTIFIER_NONBLOCK	04000		/* EFD_NONBLOCK */
#define SYSSHIM_NOTIFIER_CLOEXEC	02000000	/* EFD_CLOEXEC */
/* Producers fence on every notify instead of the consumer calling membarrier(2)
 * on every drain: for producers in other processes (shared memory), or for a
 * notifier that wakes its consumer on almost every notify. */
#define SYSSHIM_NOTIFIER_FENCE		0x40000000

/* 0, or -1 and errno (EINVAL for unknown flags or EFD_SEMAPHORE, EMFILE, ...). */
int sysshim_notifier_init(struct sysshim_notifier *n, int flags);
/* Closes the eventfd; 0, or -1 and errno (EBADF if not open). */
int sysshim_notifier_destroy(struct sysshim_notifier *n);
/* The eventfd to poll, or -1 and EBADF. */
int sysshim_notifier_fd(const struct sysshim_notifier *n);
/* Producer side, lock-free and async-signal-safe: 1 if this call wrote to the
 * eventfd, 0 if a wakeup was already pending, -1 and errno on failure. */
int sysshim_notify(struct sysshim_notifier *n);
/* Consumer side: read the eventfd (blocking unless it is non-blocking), then clear
 * the flag; look for work after this returns. 1 and *count = the number of
 * notifying writes consumed, 0 if none was pending (non-blocking), -1 and errno.
 * May wait a few microseconds for a notify's write in flight. One consumer. */
int sysshim_notifier_drain(struct sysshim_notifier *n, uint64_t *count);

/* Batched increments: add() sums the increments per eventfd, flush() writes each
 * sum as one 8-byte write (two if it passes 0xfffffffffffffffe), several
 * non-blocking eventfds in one io_uring_enter when io_uring is usable. What a
 * flush could not apply stays in the batch: ent[i].value with ent[i].error. */
struct sysshim_batch_ent {
	int fd;
	int error;		/* errno of the write that failed in the last flush, or 0 */
	uint64_t value;		/* increments not applied yet */
	unsigned flags;		/* sysshim's own */
};

struct sysshim_batch {
	struct sysshim_batch_ent *ent;	/* the caller's storage, cap entries */
	unsigned n, cap;
	unsigned flags;			/* SYSSHIM_BATCH_* */
	unsigned long writes;		/* write(2) calls issued */
	unsigned long uring_enters;	/* io_uring_enter(2) calls issued */
	unsigned long uring_writes;	/* writes completed through io_uring */
	void *__ring[16];		/* sysshim's own: the io_uring, if set up */
};

#define SYSSHIM_BATCH_PLAIN	1	/* never use io_uring for this batch */
#define SYSSHIM_BATCH_URING	2	/* always io_uring for this batch, where usable */
/* Neither flag: the process measures which way is faster here (docs/eventfd.md);
 * SYSSHIM_BATCH=uring|plain|auto in the environment sets the default for all. */

/* The batch keeps every fd it was given until forget() or destroy(): do not close
 * an fd while it is in a batch. One thread at a time per batch; a fork() child
 * may go on using its copy (it gets a ring of its own). */
int sysshim_batch_init(struct sysshim_batch *b, struct sysshim_batch_ent *ent, unsigned cap);
/* 0, or -1 and errno: EBADF (not open), EINVAL (not an eventfd, or n is
 * 0xffffffffffffffff), ENOBUFS (cap fds already), EOVERFLOW (the sum would pass
 * 0xffffffffffffffff: flush first). */
int sysshim_batch_add(struct sysshim_batch *b, int fd, uint64_t n);
/* 0 when every increment was applied; else -1, errno = the first failed entry's
 * error, and the entries with value != 0 are exactly what was not applied. */
int sysshim_batch_flush(struct sysshim_batch *b);
/* The number of entries with increments left (after a failed flush). */
unsigned sysshim_batch_left(const struct sysshim_batch *b);
/* Drops fd and whatever is left for it; 0, or -1 and ENOENT. */
int sysshim_batch_forget(struct sysshim_batch *b, int fd);
/* Releases the io_uring; the caller's storage is not touched. */
void sysshim_batch_destroy(struct sysshim_batch *b);
/* 1 if flushes may use io_uring in this process (probed once), else 0. */
int sysshim_eventfd_uring(void);

/* The process's batch decision and the costs measured behind it (all in ns). A
 * flush of k non-blocking eventfds costs plain_ns * k as write(2)s and
 * uring_enter_ns + uring_write_ns * k through io_uring; io_uring is taken from
 * crossover writes on (0: never). */
#define SYSSHIM_BATCH_MODE_AUTO		0	/* measured (SYSSHIM_BATCH unset or auto) */
#define SYSSHIM_BATCH_MODE_URING	1	/* SYSSHIM_BATCH=uring */
#define SYSSHIM_BATCH_MODE_PLAIN	2	/* SYSSHIM_BATCH=plain */
#define SYSSHIM_CLOCK_VDSO		1	/* the vDSO's clock_gettime */
#define SYSSHIM_CLOCK_SYSCALL		2	/* the clock_gettime syscall */
#define SYSSHIM_CLOCK_COARSE		3	/* ticks by jiffies: nothing timed, plain writes */
struct sysshim_batch_info {
	int mode;			/* SYSSHIM_BATCH_MODE_* */
	int uring;			/* io_uring usable in this process */
	int calibrated;			/* the first timed flushes are in */
	unsigned plain_ns;		/* one write(2) */
	unsigned uring_enter_ns;	/* one io_uring_enter, its fixed part */
	unsigned uring_write_ns;	/* each write through io_uring */
	unsigned crossover;		/* io_uring from this many fds on, 0 never */
	unsigned interval;		/* one flush in this many is timed now */
	int clock;			/* SYSSHIM_CLOCK_* used for the timing */
	unsigned clock_ns;		/* the cost of one clock read */
};
void sysshim_batch_info(struct sysshim_batch_info *info);

/* Path buffers (docs/path.md): a path that is 8-byte aligned, keeps its length and
 * holds up to SYSSHIM_PATH_MAX bytes including the NUL (the kernel's PATH_MAX).
 * Functions returning int give 0, or -1 with errno set, and leave the buffer as it
 * was on failure: ENAMETOOLONG when the result would not fit (never truncated),
 * EFAULT for a NULL or impossible string pointer, EINVAL for a length past the end. */
#define SYSSHIM_PATH_MAX 4096

struct sysshim_path {
	__SIZE_TYPE__ len;				/* bytes before the NUL */
	char buf[SYSSHIM_PATH_MAX] __attribute__((__aligned__(8)));	/* NUL-terminated */
};

/* Makes p the empty path "". */
void sysshim_path_init(struct sysshim_path *p);
/* Makes p a copy of s. */
int sysshim_path_set(struct sysshim_path *p, const char *s);
/* Appends the component name, with a '/' before it unless p is empty, p ends in '/'
 * or name starts with '/': "dir" + "f" = "dir/f", "/" + "f" = "/f", "" + "f" = "f". */
int sysshim_path_append(struct sysshim_path *p, const char *name);
/* Cuts p back to its first len bytes (a length saved before an append). */
int sysshim_path_truncate(struct sysshim_path *p, __SIZE_TYPE__ len);
/* The NUL-terminated path, aligned, for any call that takes a path. */
const char *sysshim_path_str(const struct sysshim_path *p);

/* The path alignment guard, off by default (on from the start with the environment
 * variable SYSSHIM_ALIGN_PATHS=1): stat, lstat, fstatat and statx copy a path into an
 * aligned buffer when it starts unaligned and ends where the kernel's word-at-a-time
 * read of it would fault on the next page (several times slower). With it on, these
 * calls read an unaligned path themselves: one that runs into unmapped memory
 * crashes the program where the kernel would have answered EFAULT (NULL and other
 * impossible pointers are still passed to the kernel). on: 1 on, 0 off, -1 only
 * ask. Returns the previous setting. */
int sysshim_align_paths(int on);

/* Whether the guard's copy pays here: the kernel's extra time for a page-end path
 * against the cost of copying, measured the first time the guard meets an unaligned
 * path and again now and then (docs/path.md). SYSSHIM_ALIGN_COPY=always|never|auto
 * in the environment forces it. All times in ns. */
#define SYSSHIM_ALIGN_COPY_AUTO		0
#define SYSSHIM_ALIGN_COPY_ALWAYS	1
#define SYSSHIM_ALIGN_COPY_NEVER	2
struct sysshim_align_info {
	int mode;			/* SYSSHIM_ALIGN_COPY_* */
	int measured;			/* costs measured (else: copied, as the safe default) */
	unsigned penalty_ns;		/* the kernel's extra time for a page-end path */
	unsigned copy_ns;		/* copying a short path */
	unsigned copy_ns_per64;		/* ... and each 64 bytes more */
	unsigned copy_max_len;		/* page-end paths up to this length are copied; 0 none */
	unsigned scan_ns;		/* looking at one unaligned path, timed in place */
	int scan_all;			/* every unaligned path is looked at (else 1 in 256:
					   page-end paths have been rare) */
};
void sysshim_align_info(struct sysshim_align_info *info);
/* Measures now (sysshim_align_info then reports it); the guard need not be on. */
void sysshim_align_measure(void);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
