#include "../generic/syscall_nr.h"
