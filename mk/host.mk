# The host test suite (Check) and benchmarks: every tests/check_*.c is a Check suite
# binary, every bench/bench_*.c a benchmark; each links libsysshim.a.

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)
TEST_CFLAGS = -std=gnu11 -O2 -g -Wall -Wno-format-truncation -Wno-nonnull -Iinclude -Itests -D_GNU_SOURCE
TEST_SRCS = $(sort $(wildcard tests/check_*.c))
TEST_BINS = $(TEST_SRCS:tests/%.c=$(B)/tests/%)
TEST_COMMON = $(wildcard tests/common/*.c)
BENCH_SRCS = $(sort $(wildcard bench/bench_*.c))
BENCH_BINS = $(BENCH_SRCS:bench/%.c=$(B)/bench/%)

# Objects first (each with its dependency file), then the link.
TEST_OBJ = $(B)/tobj
TEST_COMMON_OBJS = $(TEST_COMMON:tests/%.c=$(TEST_OBJ)/%.o)

$(TEST_OBJ)/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(CHECK_CFLAGS) $(TEST_LDFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/tests/check_%: $(TEST_OBJ)/check_%.o $(TEST_COMMON_OBJS) $(B)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(CC) $(TEST_LDFLAGS) -o $@ $< $(TEST_COMMON_OBJS) $(B)/lib/libsysshim.a \
		$(CHECK_LIBS) -lpthread $(TEST_LDLIBS_$*)

DEP_FILES += $(wildcard $(TEST_OBJ)/*.d $(TEST_OBJ)/*/*.d $(B)/bench/*.d)
.PRECIOUS: $(TEST_OBJ)/%.o

$(B)/bench/bench_%: bench/bench_%.c $(B)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -O2 $(TEST_LDFLAGS) $(DEPFLAGS) -o $@ $< $(B)/lib/libsysshim.a -lpthread \
		$(BENCH_LDLIBS_$*)

# Shell-level checks: configure, the cross builds, make install and pkg-config; the
# private apt sources taken from the system's (tests/apt_sources.sh).
# += : other mk/*.mk (read before this one, in name order) add theirs.
HOST_SCRIPTS += tests/build.sh tests/apt_sources.sh
PKGS_CHECK += file gcc-aarch64-linux-gnu libc6-dev-arm64-cross clang-19 lld-19 llvm-16

tests: $(TEST_BINS)

# Each suite prints Check's own summary line; the run fails if any suite fails.
check-host: deps-check all $(TEST_BINS) $(HOST_EXTRA_DEPS)
	@fail=0; for t in $(TEST_BINS); do echo "-- $$t"; \
		SYSSHIM_BUILD=$(B) $$t || fail=1; done; \
	for s in $(HOST_SCRIPTS); do echo "-- $$s"; B=$(B) sh $$s || fail=1; done; \
	test $$fail = 0

bench: all $(BENCH_BINS)
	@for b in $(BENCH_BINS); do $$b || exit 1; done

.PHONY: tests check-host bench

# The main job: build, show what the probe finds here, the bench table, one real program.
# It installs only what it uses: the build, and what tools/demo-real.sh runs.
PKGS_DEMO = $(PKGS_BUILD) strace coreutils diffutils sed mawk
deps-demo:
	@echo "== make demo needs the Debian packages: $(PKGS_DEMO)"
	@tools/need $(PKGS_DEMO)

demo: deps-demo
	@$(MAKE) --no-print-directory all $(B)/bench/bench_stat
	@echo "== sysshim-probe"
	@$(B)/bin/sysshim-probe
	@echo
	@echo "== make bench (stat family, shortened: SYSSHIM_BENCH_ITERS=50000)"
	@SYSSHIM_BENCH_ITERS=50000 $(B)/bench/bench_stat
	@echo
	@echo "== a real program with and without the library"
	@tools/demo-real.sh $(B)

.PHONY: demo deps-demo
