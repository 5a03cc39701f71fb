/* The order in which the probe picks a way to stat an open fd, the same on every
 * architecture so far (an architecture that measures otherwise puts an fd_order.h of
 * its own in arch/<arch>/): the plain fstat syscall first (no path to read, no statx
 * conversion; before Linux 6.6 far cheaper than the "" forms, from 6.11 on as cheap as
 * any), then the NULL-path forms (6.11+: no user memory read), newfstatat before statx
 * (a smaller copy-out, no conversion). The figures: docs/strategy.md, "The measurements
 * behind it". */
#define ARCH_FD_ORDER SS_FSTAT, SS_NEWFSTATAT_NULL, SS_STATX_NULL, SS_NEWFSTATAT_EMPTY, SS_STATX_EMPTY
