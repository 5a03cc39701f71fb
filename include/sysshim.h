#ifndef SYSSHIM_H
#define SYSSHIM_H

/* sysshim: the stat family and eventfd signalling on the fastest correct kernel path,
 * chosen by probing the running kernel once per process. */

#ifdef __cplusplus
extern "C" {
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

/* @@EVENTFD-API@@ (issue 4: notifier and batch) */

/* @@PATH-API@@ (issue 6: path buffers) */

#ifdef __cplusplus
}
#endif

#endif
