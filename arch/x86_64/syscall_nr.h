/* The x86_64 syscall numbers sysshim uses (arch/x86/entry/syscalls/syscall_64.tbl). */
#define SYS_read		0
#define SYS_write		1
#define SYS_close		3
#define SYS_fstat		5
#define SYS_mmap		9
#define SYS_mprotect		10
#define SYS_munmap		11
#define SYS_ioctl		16
#define SYS_writev		20
#define SYS_sched_yield		24
#define SYS_madvise		28
#define SYS_getpid		39
#define SYS_exit		60
#define SYS_execve		59
#define SYS_uname		63
#define SYS_fcntl		72
#define SYS_getcwd		79
#define SYS_getuid		102
#define SYS_getppid		110
#define SYS_prctl		157
#define SYS_gettid		186
#define SYS_futex		202
#define SYS_clock_gettime	228
#define SYS_exit_group		231
#define SYS_epoll_ctl		233
#define SYS_openat		257
#define SYS_mkdirat		258
#define SYS_mknodat		259
#define SYS_newfstatat		262
#define SYS_unlinkat		263
#define SYS_symlinkat		266
#define SYS_readlinkat		267
#define SYS_faccessat		269
#define SYS_ppoll		271
#define SYS_epoll_pwait		281
#define SYS_eventfd2		290
#define SYS_epoll_create1	291
#define SYS_pipe2		293
#define SYS_renameat2		316
#define SYS_seccomp		317
#define SYS_memfd_create	319
#define SYS_membarrier		324
#define SYS_statx		332
#define SYS_io_uring_setup	425
#define SYS_io_uring_enter	426
#define SYS_io_uring_register	427

/* The order in which the probe picks a way to stat an open fd: the plain fstat
 * syscall first (no path to read, no statx conversion; 1.00 against 2.45 for
 * newfstatat(fd, "") and 2.66 for statx(fd, "") on Linux 6.1, equal on 6.18),
 * then the NULL-path forms (6.11+: no user memory read), newfstatat before statx
 * (a smaller copy-out, no conversion). See docs/strategy.md. */
#define ARCH_FD_ORDER SS_FSTAT, SS_NEWFSTATAT_NULL, SS_STATX_NULL, SS_NEWFSTATAT_EMPTY, SS_STATX_EMPTY

/* The open flags that differ between architectures (sysshim-run's cache file). */
#define O_DIRECTORY		0200000
#define O_NOFOLLOW		0400000
