#include "eventfd_impl.h"

static void plain(struct sysshim_batch *b, struct sysshim_batch_ent *e)
{
	while (e->value) {
		uint64_t v = e->value > EFD_MAX ? EFD_MAX : e->value;
		long r = __syscall(SYS_write, e->fd, &v, sizeof v);
		b->writes++;
		if (r != sizeof v) {
			e->error = r < 0 ? -r : EIO;
			return;
		}
		e->value -= v;
	}
}

SS_EXPORT int sysshim_batch_flush(struct sysshim_batch *b)
{
	unsigned k = 0;
	int err = 0;

	for (unsigned i = 0; i < b->n; i++) {
		struct sysshim_batch_ent *e = &b->ent[i];
		e->flags &= ~(SS_BE_TRIED | SS_BE_INFLIGHT);
		if (e->value)
			e->error = 0;
		k += ss_uring_eligible(e);
	}
	if (k >= 2 && !(b->flags & SYSSHIM_BATCH_PLAIN) && __ss_uring_usable())
		__ss_uring_flush(b);
	for (unsigned i = 0; i < b->n; i++) {
		struct sysshim_batch_ent *e = &b->ent[i];
		if (e->value && !(e->flags & SS_BE_TRIED))
			plain(b, e);
		if (e->value && !err)
			err = e->error ? e->error : EIO;
	}
	return err ? __syscall_ret(-err) : 0;
}
