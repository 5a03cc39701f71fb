# eventfd signalling: the Check suite tests/check_eventfd.c runs in
# check-host (and, static, in check-kernel's guest); bench/bench_eventfd.c in `make bench`
# and `make bench-kernel` compares raw eventfd writes, the sysshim notifier and libuv's
# uv_async_send (part 1), batches forced plain, forced through io_uring and left to the
# process's measured decision for 2 - 32 eventfds (part 2), and the same where seccomp
# filters make every syscall dearer (part 3). SYSSHIM_BENCH_SCALE=0.1 makes it ten times
# shorter, SYSSHIM_BENCH_PART=1|2|3 runs one part.
PKGS_CHECK += libuv1-dev
BENCH_LDLIBS_eventfd = -luv

# The stress and fault harness (tests/check_evstress.c; docs/eventfd.md, "The stress and
# fault harness"): a Check suite like the others, so a short run (SYSSHIM_STRESS_SECONDS,
# 120 by default; 20 in the test-bed guests, tests/kernel/init.c) is in check-host,
# check-asan, check-valgrind and every test-bed boot.
#   make stress [STRESS_SECONDS=600] [STRESS_SEED=0x...]   as long as asked
#   make check-mutants   the broken variants of tests/mutants/*.patch, each applied to a
#                        copy of the tree: the harness cases each names must fail
STRESS_SECONDS ?= 600
STRESS_SEED ?=

stress: deps-check $(B)/tests/check_evstress
	SYSSHIM_STRESS_SECONDS=$(STRESS_SECONDS) $(if $(STRESS_SEED),SYSSHIM_STRESS_SEED=$(STRESS_SEED)) \
		$(B)/tests/check_evstress

check-mutants: deps-check
	@sh tests/mutants/run.sh $(B)

CHECK_PARTS += check-mutants
.PHONY: stress check-mutants
