# eventfd signalling (issues 4 and 12): the Check suite tests/check_eventfd.c runs in
# check-host (and, static, in check-kernel's guest); bench/bench_eventfd.c in `make bench`
# and `make bench-kernel` compares raw eventfd writes, the sysshim notifier and libuv's
# uv_async_send (part 1), batches forced plain, forced through io_uring and left to the
# process's measured decision for 2 - 32 eventfds (part 2), and the same where seccomp
# filters make every syscall dearer (part 3). SYSSHIM_BENCH_SCALE=0.1 makes it ten times
# shorter, SYSSHIM_BENCH_PART=1|2|3 runs one part.
PKGS_CHECK += libuv1-dev
BENCH_LDLIBS_eventfd = -luv
