/* The asm-generic syscall numbers sysshim uses (include/uapi/asm-generic/unistd.h),
 * shared by aarch64 and loongarch64. fstat (80) and newfstatat (79) are listed for
 * loongarch64 too: Linux 6.11 (and 6.1.106+) wires them up there, and the probe finds
 * out whether the running kernel has them. */
#define SYS_getcwd		17
#define SYS_eventfd2		19
#define SYS_fcntl		25
#define SYS_mknodat		33
#define SYS_mkdirat		34
#define SYS_unlinkat		35
#define SYS_symlinkat		36
#define SYS_faccessat		48
#define SYS_openat		56
#define SYS_close		57
#define SYS_pipe2		59
#define SYS_read		63
#define SYS_write		64
#define SYS_pread64		67
#define SYS_readlinkat		78
#define SYS_newfstatat		79
#define SYS_fstat		80
#define SYS_exit_group		94
#define SYS_clock_gettime	113
#define SYS_sched_yield		124
#define SYS_rt_sigaction	134
#define SYS_uname		160
#define SYS_prctl		167
#define SYS_getpid		172
#define SYS_getppid		173
#define SYS_getuid		174
#define SYS_munmap		215
#define SYS_clone		220
#define SYS_execve		221
#define SYS_mmap		222
#define SYS_mprotect		226
#define SYS_madvise		233
#define SYS_wait4		260
#define SYS_renameat2		276
#define SYS_seccomp		277
#define SYS_memfd_create	279
#define SYS_membarrier		283
#define SYS_statx		291
#define SYS_io_uring_setup	425
#define SYS_io_uring_enter	426
#define SYS_io_uring_register	427
