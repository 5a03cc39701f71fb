#include "kabi.h"

long __syscall_err(unsigned long r)
{
	*__errno_location() = -(long)r;
	return -1;
}
