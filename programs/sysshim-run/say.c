/* What sysshim-run says: one line on stderr. */
#include "run.h"

void say_line(const char *a, const char *b, const char *c)
{
	SS_OUT(o);
	__ss_put(&o, "sysshim-run: ");
	__ss_put(&o, a);
	__ss_put(&o, b ? b : "");
	__ss_put(&o, c ? c : "");
	__ss_put(&o, "\n");
	__ss_flush(&o, 2);
}
