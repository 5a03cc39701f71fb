/* Finding 2 of docs/fuzz.md: with SYSSHIM_ALIGN_PATHS=1, a misaligned path with no NUL
 * before a PROT_NONE page faults in sysshim (the alignment guard reads it to find its
 * end), where glibc (the kernel) answers EFAULT.  Without the variable both say EFAULT.
 *   cc -o align_path_read tests/fuzz/repro/align_path_read.c -ldl
 *   SYSSHIM_ALIGN_PATHS=1 ./align_path_read $PWD/build/lib/libsysshim.so  # then SIGSEGV */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
int main(int argc, char **argv)
{
	char *m = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(m + 4096, 4096, PROT_NONE);
	char *path = m + 4096 - 7;	/* "reg/abc", no NUL: runs into the PROT_NONE page */
	memcpy(path, "reg/abc", 7);
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	int (*ss_stat)(const char *, struct stat *) = dlsym(h, "stat");
	struct stat st;
	errno = 0;
	int r = stat(path, &st);
	printf("glibc   stat(unterminated path into PROT_NONE) = %d errno %d\n", r, errno);
	fflush(stdout);
	errno = 0;
	r = ss_stat(path, &st);
	printf("sysshim stat(unterminated path into PROT_NONE) = %d errno %d\n", r, errno);
	return 0;
}
