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

/* The entries io_uring would have taken, written plainly; how many went in whole. */
static unsigned plain_eligible(struct sysshim_batch *b)
{
	unsigned ok = 0;

	for (unsigned i = 0; i < b->n; i++) {
		struct sysshim_batch_ent *e = &b->ent[i];
		if (!ss_uring_eligible(e))
			continue;
		plain(b, e);
		e->flags |= SS_BE_TRIED;
		ok += !e->value;
	}
	return ok;
}

/* The k entries both ways could take go out the way the process's measured costs
 * say (batch_choice.c); the timed flushes among them feed those costs. Whatever is left
 * (blocking fds, split sums, what io_uring did not take) is written plainly. */
EXPORT int sysshim_batch_flush(struct sysshim_batch *b)
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
	unsigned pick = __ss_batch_pick(b, k);
	if (pick) {
		if (!(pick & SS_PICK_TIME)) {
			__ss_uring_flush(b);
		} else if (pick & SS_PICK_URING) {
			/* Time the submission alone: the ring is set up first. */
			if (!__ss_ring_get(ss_ring_of(b))) {
				uint64_t t0 = __ss_now_ns();
				long done = __ss_uring_flush(b);
				uint64_t t1 = __ss_now_ns();
				if (done == (long)k)
					__ss_batch_sample(pick, k, t1 - t0, __ss_uring_enter_ns(b));
			} else {
				__ss_uring_flush(b);	/* records the refusal */
			}
		} else {
			uint64_t t0 = __ss_now_ns();
			unsigned done = plain_eligible(b);
			uint64_t t1 = __ss_now_ns();
			if (done == k)
				__ss_batch_sample(pick, k, t1 - t0, 0);
		}
	}
	for (unsigned i = 0; i < b->n; i++) {
		struct sysshim_batch_ent *e = &b->ent[i];
		if (e->value && !(e->flags & SS_BE_TRIED))
			plain(b, e);
		if (e->value && !err)
			err = e->error ? e->error : EIO;
	}
	return err ? __syscall_ret(-err) : 0;
}
