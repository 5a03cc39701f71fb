/* The e_machine of this arch's programs (src/internal/elf.h): sysshim-run steps aside
 * for a command built for another machine, whose dynamic loader would refuse the
 * library. */
#define ARCH_ELF_MACHINE EM_AARCH64
