# eventfd signalling (issue 4): the Check suite tests/check_eventfd.c runs in
# check-host; bench/bench_eventfd.c in `make bench` compares raw eventfd writes,
# the sysshim notifier and libuv's uv_async_send, and io_uring batches against
# plain writes. SYSSHIM_BENCH_SCALE=0.1 makes the benchmark ten times shorter.
PKGS_CHECK += libuv1-dev
BENCH_LDLIBS_eventfd = -luv
