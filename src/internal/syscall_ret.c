#include "syscall.h"

int *__errno_location(void);

long __syscall_ret(unsigned long r)
{
	if (r > -4096UL) {
		*__errno_location() = -(long)r;
		return -1;
	}
	return r;
}
