#include "../generic/kstat.h"
