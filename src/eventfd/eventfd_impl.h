#ifndef SYSSHIM_EVENTFD_IMPL_H
#define SYSSHIM_EVENTFD_IMPL_H

#include "kabi.h"
#include "clock.h"
#include "env.h"
#include "sandbox.h"
#include "sysshim.h"

/* sysshim_notifier.mode: producers use a compiler barrier only, the consumer
 * calls membarrier(2) after clearing the flag (an asymmetric fence). */
#define SS_NF_ASYM	1

/* sysshim_notifier.pending: the state in bits 0-1 (clear, its write in flight,
 * written) and a generation in bits 2-31, counted up by every claim, so that a
 * producer's late step from "writing" can only ever move its own claim, never a
 * newer producer's. */
#define SS_PEND_WRITING	1
#define SS_PEND_WRITTEN	2
#define SS_PEND_STATE	3
#define SS_PEND_GEN	4
hidden int __ss_notifier_wake(struct sysshim_notifier *n);
/* How long a drain waits for a write in flight before clearing anyway: a spin,
 * then a few sched_yield()s for a writer that our own wakeup preempted. */
#define SS_DRAIN_SPIN	256
#define SS_DRAIN_YIELD	4

#if defined(__x86_64__)
#define ss_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define ss_relax() __asm__ __volatile__("yield" ::: "memory")
#else
#define ss_relax() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif
#define SS_MB_OK	1
#define SS_MB_NO	2

hidden int __ss_membarrier_ok(void);
hidden int __ss_membarrier_stopped(void);

/* sysshim_batch_ent.flags */
#define SS_BE_NONBLOCK	1
#define SS_BE_TRIED	2
#define SS_BE_INFLIGHT	4

/* The kernel's io_uring ABI (include/uapi/linux/io_uring.h), the part sysshim uses:
 * here, beside its only user, rather than in kabi.h. */
struct io_sqring_offsets {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t user_addr;
};

struct io_cqring_offsets {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t user_addr;
};

struct io_uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd;
	uint32_t resv[3];
	struct io_sqring_offsets sq_off;
	struct io_cqring_offsets cq_off;
};

struct io_uring_sqe {
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr;
	uint32_t len, rw_flags;
	uint64_t user_data;
	uint16_t buf_index, personality;
	int32_t splice_fd_in;
	uint64_t addr3, __pad2;
};

struct io_uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};

_Static_assert(sizeof(struct io_uring_params) == 120, "io_uring_params");
_Static_assert(sizeof(struct io_uring_sqe) == 64, "io_uring_sqe");

#define IORING_OP_WRITE		23
#define IORING_ENTER_GETEVENTS	1
#define IORING_FEAT_SINGLE_MMAP	1
#define IORING_FEAT_RW_CUR_POS	8
#define IORING_OFF_SQ_RING	0ULL
#define IORING_OFF_SQES		0x10000000ULL

#define SS_RING_ENTRIES	32

/* A batch's ring, kept in sysshim_batch.__ring. */
struct ss_ring {
	int fd;
	unsigned sq_mask, cq_mask, entries;
	unsigned *sq_head, *sq_tail, *sq_array, *cq_head, *cq_tail;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *map;
	size_t map_len, sqe_len;
	unsigned *alive;	/* 1, on a page a fork() child sees zeroed */
};

_Static_assert(sizeof(struct ss_ring) <= sizeof(((struct sysshim_batch *)0)->__ring), "ring");

static inline struct ss_ring *ss_ring_of(struct sysshim_batch *b)
{
	return (struct ss_ring *)(void *)b->__ring;
}

/* Only non-blocking eventfds go through io_uring: blocking writes are punted to
 * kernel workers there, far dearer than a plain write (docs/eventfd.md, "Batches"). */
static inline int ss_uring_eligible(const struct sysshim_batch_ent *e)
{
	return (e->flags & (SS_BE_NONBLOCK | SS_BE_TRIED)) == SS_BE_NONBLOCK && e->value &&
	       e->value <= EFD_MAX;
}

/* The io_uring probe word (uring.c): 0 not asked yet, else one of these. io_uring
 * arms a poll and waits for a full eventfd to become writable, O_NONBLOCK or not;
 * the batch takes the ring only where this kernel makes such a write fail at once
 * with EAGAIN, as write(2) does, so that no write outlives its flush. */
#define SS_URING_NO	1	/* no ring, or it would wait: plain writes */
#define SS_URING_NOWAIT	2	/* the writes carry RWF_NOWAIT */
#define SS_URING_ASIS	3	/* RWF_NOWAIT refused, but a write fails at once anyway */
#define RWF_NOWAIT	8

#define IORING_OP_ASYNC_CANCEL	14
/* user_data of a cancellation: never an entry's index. */
#define SS_UD_CANCEL	(1ULL << 63)

hidden int __ss_uring_usable(void);
hidden unsigned __ss_uring_rw_flags(void);
hidden void __ss_uring_refused(void);
hidden void __ss_uring_set_state(unsigned v);
hidden long __ss_ring_setup(struct ss_ring *r);
hidden void __ss_ring_free(struct ss_ring *r);
hidden long __ss_ring_get(struct ss_ring *r);
hidden void __ss_ring_prep(struct ss_ring *r, unsigned idx, unsigned op, int fd, const void *buf,
			   unsigned len, unsigned rw_flags, uint64_t user_data);
hidden long __ss_uring_flush(struct sysshim_batch *b);
hidden uint64_t __ss_uring_enter_ns(struct sysshim_batch *b);

/* The batch decision (batch_choice.c): SYSSHIM_BATCH's modes in the decision word. */
#define SS_BM_AUTO	1
#define SS_BM_URING	2
#define SS_BM_PLAIN	3
/* Timed flushes before the costs are trusted: plain, io_uring, plain, ... */
#define SS_CALIB	6
/* After calibration one flush in 2^SS_EXP_MIN .. 2^SS_EXP_MAX is timed. */
#define SS_EXP_MIN	4
#define SS_EXP_MAX	12
/* __ss_batch_pick's answer: through io_uring (else plain), and timed. */
#define SS_PICK_URING	1
#define SS_PICK_TIME	2
hidden unsigned __ss_batch_pick(const struct sysshim_batch *b, unsigned k);
hidden void __ss_batch_sample(unsigned pick, unsigned k, uint64_t ns, uint64_t enter_ns);
hidden void __ss_batch_set_costs(unsigned p, unsigned a, unsigned u);

#endif
