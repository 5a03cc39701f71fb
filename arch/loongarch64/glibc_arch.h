/* The syscall glibc's fstat() makes on loongarch64 (see arch/generic/glibc_arch.h):
 * statx(fd, "", AT_EMPTY_PATH), in every glibc that has the port. */
#define ARCH_GLIBC_FSTAT_KIND(v) SS_SC_STATX
