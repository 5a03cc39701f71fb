/* The syscall glibc's fstat() makes on this architecture, given glibc's version as
 * 100 * major + minor (src/internal/loader.c): the one its dynamic loader makes on
 * every library it maps, so a seccomp filter that let the process start lets it
 * through. x86_64 and aarch64: glibc 2.33 - 2.38 implement fstat() as
 * newfstatat(fd, "", AT_EMPTY_PATH), earlier and later ones with fstat. */
#define ARCH_GLIBC_FSTAT_KIND(v) ((v) >= 233 && (v) <= 238 ? SS_SC_NEWFSTATAT : SS_SC_FSTAT)
/* Whether glibc's statx() answers an ENOSYS from the syscall with its own emulation
 * (through fstatat): where glibc does not assume the kernel has statx (Debian builds
 * for kernels before 4.11). */
#define ARCH_GLIBC_STATX_FALLS_BACK 1
/* Whether glibc's stat(), lstat() and fstatat() go through statx rather than newfstatat:
 * the state word's SS_ST_PATH_STATX before the probe (src/internal/probe.h), so that the
 * path calls make the C library's own syscall until the kernel has been asked. */
#define ARCH_GLIBC_PATH_STATX 0
