#include "eventfd_impl.h"

EXPORT int sysshim_batch_init(struct sysshim_batch *b, struct sysshim_batch_ent *ent,
				 unsigned cap)
{
	if (!ent && cap)
		return __syscall_ret(-EINVAL);
	b->ent = ent;
	b->n = 0;
	b->cap = cap;
	b->flags = 0;
	b->writes = b->uring_enters = b->uring_writes = 0;
	for (unsigned i = 0; i < sizeof b->__ring / sizeof b->__ring[0]; i++)
		b->__ring[i] = 0;
	ss_ring_of(b)->fd = -1;
	return 0;
}

/* An eventfd's /proc/self/fd link reads "anon_inode:[eventfd]"; without /proc
 * the kernel's answer to the first write has to do. */
static long check_eventfd(int fd)
{
	static const char want[] = "anon_inode:[eventfd]";
	char path[32] = "/proc/self/fd/", buf[sizeof want], d[12];
	unsigned i = 14, k = 0;
	long r;

	do
		d[k++] = '0' + fd % 10;
	while ((fd /= 10));
	while (k)
		path[i++] = d[--k];
	path[i] = 0;
	r = __syscall(SYS_readlinkat, AT_FDCWD, path, buf, sizeof buf);
	if (r < 0)
		return 0;
	if (r != sizeof want - 1)
		return -EINVAL;
	for (i = 0; i < r; i++)
		if (buf[i] != want[i])
			return -EINVAL;
	return 0;
}

static long batch_slot(struct sysshim_batch *b, int fd)
{
	for (unsigned i = 0; i < b->n; i++)
		if (b->ent[i].fd == fd)
			return i;
	return -1;
}

EXPORT int sysshim_batch_add(struct sysshim_batch *b, int fd, uint64_t n)
{
	struct sysshim_batch_ent *e;
	long i = batch_slot(b, fd), fl, r;

	if (n == ~0ULL)
		return __syscall_ret(-EINVAL);
	if (i < 0) {
		if (fd < 0)
			return __syscall_ret(-EBADF);
		fl = __syscall(SYS_fcntl, fd, F_GETFL);
		if (fl < 0)
			return __syscall_ret(fl);
		if ((r = check_eventfd(fd)) < 0)
			return __syscall_ret(r);
		if (b->n == b->cap)
			return __syscall_ret(-ENOBUFS);
		i = b->n++;
		e = &b->ent[i];
		e->fd = fd;
		e->error = 0;
		e->value = 0;
		e->flags = (fl & O_NONBLOCK) ? SS_BE_NONBLOCK : 0;
	}
	e = &b->ent[i];
	if (e->value + n < e->value)
		return __syscall_ret(-EOVERFLOW);
	e->value += n;
	return 0;
}

EXPORT unsigned sysshim_batch_left(const struct sysshim_batch *b)
{
	unsigned k = 0;
	for (unsigned i = 0; i < b->n; i++)
		k += b->ent[i].value != 0;
	return k;
}

EXPORT int sysshim_batch_forget(struct sysshim_batch *b, int fd)
{
	long i = batch_slot(b, fd);

	if (i < 0)
		return __syscall_ret(-ENOENT);
	for (b->n--; (unsigned long)i < b->n; i++)
		b->ent[i] = b->ent[i + 1];
	return 0;
}

EXPORT void sysshim_batch_destroy(struct sysshim_batch *b)
{
	__ss_ring_free(ss_ring_of(b));
	b->n = 0;
}
