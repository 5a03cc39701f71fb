/* sysshim-probe: what the probe finds on this kernel, and what each call will use. */
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "sysshim.h"

/* The batch decision is measured by flushing: 16 non-blocking eventfds, flushed
 * until calibration is done (and a few more), as a program would. */
static void batch_measure(struct sysshim_batch_info *bi)
{
	struct sysshim_batch_ent ent[16];
	struct sysshim_batch b;
	int fd[16], n = 0;

	sysshim_batch_init(&b, ent, 16);
	while (n < 16 && (fd[n] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) >= 0)
		n++;
	for (int r = 0; r < 64; r++) {
		for (int i = 0; i < n; i++)
			sysshim_batch_add(&b, fd[i], 1);
		sysshim_batch_flush(&b);
	}
	sysshim_batch_destroy(&b);
	while (n)
		close(fd[--n]);
	sysshim_batch_info(bi);
}

static const char *batch_way(const struct sysshim_batch_info *bi, unsigned k)
{
	if (!bi->uring || bi->mode == SYSSHIM_BATCH_MODE_PLAIN)
		return "plain";
	if (bi->mode == SYSSHIM_BATCH_MODE_URING)
		return "io_uring";
	return bi->crossover && k >= bi->crossover ? "io_uring" : "plain";
}

static const struct {
	unsigned bit;
	const char *name, *what;
} caps[] = {
	{ SYSSHIM_CAP_FSTAT, "fstat", "fstat(fd)" },
	{ SYSSHIM_CAP_NEWFSTATAT, "newfstatat", "newfstatat(fd, \"\", AT_EMPTY_PATH)" },
	{ SYSSHIM_CAP_NEWFSTATAT_NULL, "newfstatat_null", "newfstatat(fd, NULL, AT_EMPTY_PATH)" },
	{ SYSSHIM_CAP_STATX, "statx", "statx(fd, \"\", AT_EMPTY_PATH)" },
	{ SYSSHIM_CAP_STATX_NULL, "statx_null", "statx(fd, NULL, AT_EMPTY_PATH)" },
};

/* What the probe found, and what each call uses. */
struct found {
	struct utsname u;
	struct sysshim_info in;
	struct sysshim_interposers co;
	struct sysshim_batch_info bi;
	const char *fd, *path, *empty, *sx;
};

static const char *const sandbox[] = { "?", "none", "read", "unread" };
static const char *const syscalls[] = { "fstat", "newfstatat", "statx", "io_uring", "membarrier" };

static const char *const bmode[] = { "auto", "uring", "plain" };

static void find(struct found *f)
{
	uname(&f->u);
	sysshim_info(&f->in);
	sysshim_interposers(&f->co);
	f->fd = sysshim_strategy_name(f->in.fstat_strategy);
	f->path = f->in.path_via_statx ? "statx" : "newfstatat";
	f->empty = f->in.fstat_strategy == SYSSHIM_S_FSTAT &&
		!(f->in.caps & (SYSSHIM_CAP_NEWFSTATAT_NULL | SYSSHIM_CAP_STATX_NULL)) ? f->fd : f->path;
	f->sx = f->in.caps & SYSSHIM_CAP_STATX ? "statx" : "emulated (fstatat)";
	batch_measure(&f->bi);
}

static void print_json(const struct found *f)
{
	const struct sysshim_batch_info *bi = &f->bi;
	printf("{\"kernel\": \"%s\", \"arch\": \"%s\", \"caps\": {", f->u.release, f->u.machine);
	for (unsigned i = 0; i < sizeof caps / sizeof *caps; i++)
		printf("%s\"%s\": %s", i ? ", " : "", caps[i].name,
		       f->in.caps & caps[i].bit ? "true" : "false");
	printf("}, \"forced\": \"%s\", \"strategy\": {\"fstat\": \"%s\", "
	       "\"fstatat_empty_path\": \"%s\", \"stat\": \"%s\", \"lstat\": \"%s\", "
	       "\"fstatat\": \"%s\", \"statx\": \"%s\"}, ",
	       sysshim_strategy_name(f->in.forced), f->fd, f->empty, f->path, f->path, f->path, f->sx);
	printf("\"interposers\": {\"forwarded\": {");
	for (int c = 0, n = 0; c < SYSSHIM_CALLS; c++)
		if (f->co.forwarded & 1U << c)
			printf("%s\"%s\": \"%s\"", n++ ? ", " : "", sysshim_call_name(c),
			       sysshim_call_next(c) ? sysshim_call_next(c) : "");
	printf("}, \"sandbox\": \"%s\", \"stopped\": [", sandbox[f->co.sandbox & 3]);
	for (unsigned k = 0, n = 0; k < 5; k++)
		if (f->co.stopped & 1U << k)
			printf("%s\"%s\"", n++ ? ", " : "", syscalls[k]);
	printf("], \"filters_read\": %u, \"tried_in_child\": %s}, ", f->co.filters_read,
	       f->co.tried_in_child ? "true" : "false");
	printf("\"batch\": {\"mode\": \"%s\", \"uring\": %s, \"calibrated\": %s, "
	       "\"plain_ns\": %u, \"uring_enter_ns\": %u, \"uring_write_ns\": %u, "
	       "\"crossover\": %u, \"way_16\": \"%s\", \"interval\": %u, "
	       "\"clock\": \"%s\", \"clock_ns\": %u}}\n",
	       bmode[bi->mode], bi->uring ? "true" : "false", bi->calibrated ? "true" : "false",
	       bi->plain_ns, bi->uring_enter_ns, bi->uring_write_ns, bi->crossover,
	       batch_way(bi, 16), bi->interval,
	       bi->clock == SYSSHIM_CLOCK_VDSO ? "vdso" : bi->clock == SYSSHIM_CLOCK_COARSE ? "coarse" : "syscall",
	       bi->clock_ns);
}

static void print_calls(const struct found *f)
{
	printf("kernel   %s %s\n", f->u.sysname, f->u.release);
	printf("arch     %s\n", f->u.machine);
	printf("probe:\n");
	for (unsigned i = 0; i < sizeof caps / sizeof *caps; i++)
		printf("  %-40s %s\n", caps[i].what,
		       f->in.caps & caps[i].bit ? "yes" : "no");
	if (f->in.forced)
		printf("forced   SYSSHIM_STRATEGY=%s\n", sysshim_strategy_name(f->in.forced));
	printf("calls:\n");
	printf("  %-40s %s\n", "fstat(fd)", f->fd);
	printf("  %-40s %s\n", "fstatat(fd, \"\", AT_EMPTY_PATH)", f->empty);
	printf("  %-40s %s\n", "stat, lstat, fstatat(fd, path)", f->path);
	printf("  %-40s %s\n", "statx", f->sx);
}

/* Which calls go to another definition, and what the library knows of a sandbox. */
static void print_interposers(const struct sysshim_interposers *co)
{
	printf("interposers and sandboxes (sysshim(7), COMPATIBILITY):\n");
	for (int c = 0; c < SYSSHIM_CALLS; c++)
		if (co->forwarded & 1U << c)
			printf("  %-40s forwarded to %s\n", sysshim_call_name(c),
			       sysshim_call_next(c) ? sysshim_call_next(c) : "?");
	if (!co->forwarded)
		printf("  %-40s %s\n", "other interposers", "none: every call answered here");
	printf("  %-40s %s", "seccomp",
	       co->sandbox == SYSSHIM_SANDBOX_NONE ? "no filter" :
	       co->sandbox == SYSSHIM_SANDBOX_READ && co->tried_in_child ?
	       "a filter, its calls tried in throwaway children" :
	       co->sandbox == SYSSHIM_SANDBOX_READ ? "filters, each read on its way in" :
	       "a filter the library cannot read: calls go to the C library");
	if (co->filters_read)
		printf(" (%u read on their way in)", co->filters_read);
	printf("\n");
	if (co->stopped) {
		printf("  %-40s", "not made (a filter stops them, or may)");
		for (unsigned k = 0; k < 5; k++)
			if (co->stopped & 1U << k)
				printf(" %s", syscalls[k]);
		printf("\n");
	}
}

static void print_batch(const struct sysshim_batch_info *bi)
{
	printf("eventfd batch (measured by 64 flushes of 16 eventfds here; SYSSHIM_BATCH=%s):\n",
	       bmode[bi->mode]);
	printf("  %-40s %s\n", "io_uring", bi->uring ? "usable" : "not usable");
	printf("  %-40s %u ns\n", "write(2), each", bi->plain_ns);
	printf("  %-40s %u ns + %u ns per write\n", "io_uring_enter", bi->uring_enter_ns,
	       bi->uring_write_ns);
	if (bi->crossover)
		printf("  %-40s from %u eventfds on\n", "io_uring cheaper", bi->crossover);
	else
		printf("  %-40s %s\n", "io_uring cheaper", bi->calibrated ? "never" : "not measured");
	printf("  %-40s %s\n", "a flush of 16 uses", batch_way(bi, 16));
	printf("  %-40s %s, %u ns per read; re-measured every %u flushes\n", "clock",
	       bi->clock == SYSSHIM_CLOCK_VDSO ? "vDSO" :
	       bi->clock == SYSSHIM_CLOCK_COARSE ? "coarse (ticks by jiffies: nothing timed, plain writes)" :
	       "syscall", bi->clock_ns, bi->interval);
}

int main(int argc, char **argv)
{
	struct found f;
	int json = argc > 1 && !strcmp(argv[1], "--json");

	if (argc > 1 && !json) {
		fprintf(stderr, "usage: sysshim-probe [--json]\n");
		return 2;
	}
	find(&f);
	if (json) {
		print_json(&f);
		return 0;
	}
	print_calls(&f);
	print_interposers(&f.co);
	print_batch(&f.bi);
	return 0;
}
