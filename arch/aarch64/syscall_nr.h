/* arm64 takes asm-generic's syscall numbers; its open flags are its own
 * (arch/arm64/include/uapi/asm/fcntl.h). */
#define O_DIRECTORY		040000
#define O_NOFOLLOW		0100000
#include "../generic/syscall_nr.h"
