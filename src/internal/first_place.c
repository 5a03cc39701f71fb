#include "loader.h"
#include "dso.h"

/* AddressSanitizer's runtime, loaded as a library the program needs, checks before
 * any library's initializer runs (from the program's .preinit_array) that it comes
 * first in the loader's list, and aborts otherwise ("ASan runtime does not come first
 * in initial library list"): LD_PRELOAD=libsysshim.so.0 puts the library first. The
 * check is there so that no other library's definitions shadow the runtime's
 * interceptors; this one's do not (every call the runtime also defines is handed to
 * it, loader.h), so the library steps out of first place for the check: the check
 * skips an entry with an empty name (as the vDSO's once was), and the library's name
 * is empty from its relocation, where an IFUNC resolver runs before every
 * initializer, to its own initializer, which runs after the program's .preinit_array
 * and puts the name back. Only where such a runtime follows the library. */
static char *hidden_name;
static struct ss_link *hidden_entry;

static int first_place_noop(void)
{
	return 0;
}

/* Runs inside the loader, during relocation: no call through the PLT (nothing but
 * this file's and dso.c's own functions), no libc. */
static int (*first_place_step(void))(void)
{
	struct ss_link *me = __ss_loader_self();
	struct ss_dso d;

	for (const struct ss_link *l = me ? me->next : 0; l; l = l->next) {
		if (__ss_dso_open(&d, l->ld, l->addr) || !__ss_dso_func(&d, "__asan_init"))
			continue;
		hidden_entry = me;
		hidden_name = me->name;
		hidden_entry->name = (char *)"";
		break;
	}
	return first_place_noop;
}

static int first_place(void) __attribute__((__ifunc__("first_place_step")));
/* The pointer whose IRELATIVE relocation runs the resolver at load. */
__attribute__((__used__)) static int (*const first_place_at_load)(void) = first_place;

__attribute__((__constructor__)) static void first_place_back(void)
{
	if (hidden_entry)
		hidden_entry->name = hidden_name;
}
