/* arm64's open flags are its own (arch/arm64/include/uapi/asm/fcntl.h). */
#define O_DIRECTORY		040000
#define O_NOFOLLOW		0100000
