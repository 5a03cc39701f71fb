/* The syscall glibc's fstat() makes on loongarch64 (see arch/generic/glibc_arch.h):
 * statx(fd, "", AT_EMPTY_PATH), in every glibc that has the port. */
#define ARCH_GLIBC_FSTAT_KIND(v) SS_SC_STATX
/* glibc's loongarch64 port assumes a kernel with statx: its statx() returns ENOSYS. */
#define ARCH_GLIBC_STATX_FALLS_BACK 0
/* glibc's loongarch64 port does every path stat through statx (generic/glibc_arch.h). */
#define ARCH_GLIBC_PATH_STATX SS_ST_PATH_STATX
