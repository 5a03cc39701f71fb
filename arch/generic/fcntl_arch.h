/* The open flags that differ between architectures (sysshim-run's cache file):
 * asm-generic's (x86_64 and loongarch64 have the same). */
#define O_DIRECTORY		0200000
#define O_NOFOLLOW		0400000
