# The suites under ASan+UBSan and valgrind, the instruction counts per call (bench-insn)
# and per process (check-proc-cost).

SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-fno-sanitize=nonnull-attribute
# check_preload runs other programs; every other suite runs under the tools. The stress
# harness runs QUALITY_STRESS_SECONDS there (check-host runs its full 120 s).
QUALITY_STRESS_SECONDS ?= 30
SUITES_NOPRELOAD = $(filter-out %/check_preload,$(TEST_BINS))

check-asan: deps-check
	rm -rf $(B)/asan/tests
	$(MAKE) --no-print-directory B=$(B)/asan CFLAGS="-O1 -g $(SAN_FLAGS)" \
		TEST_LDFLAGS="$(SAN_FLAGS)" tests
	@fail=0; for t in $(SUITES_NOPRELOAD:$(B)/%=$(B)/asan/%); do echo "-- asan+ubsan $$t"; \
		SYSSHIM_STRESS_SECONDS=$(QUALITY_STRESS_SECONDS) ASAN_OPTIONS=detect_leaks=1:handle_segv=0 UBSAN_OPTIONS=print_stacktrace=1 $$t || fail=1; done; \
	test $$fail = 0

check-valgrind: deps-check $(TEST_BINS)
	@fail=0; for t in $(SUITES_NOPRELOAD); do echo "-- valgrind $$t"; \
		SYSSHIM_STRESS_SECONDS=$(QUALITY_STRESS_SECONDS) SYSSHIM_TEST_SCALE=10 CK_DEFAULT_TIMEOUT=600 valgrind -q --error-exitcode=99 --suppressions=tests/valgrind.supp \
		--leak-check=full --errors-for-leak-kinds=definite $$t || fail=1; done; \
	test $$fail = 0

$(B)/bench/insn_fstat: bench/insn_fstat.c $(B)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -O2 -o $@ $< $(B)/lib/libsysshim.a -ldl

# The C library's names, called plainly: glibc answers them, or the preloaded library; and
# the same program with libsysshim.a linked in, whose definitions answer them there.
$(B)/bench/insn_calls: bench/insn_calls.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -o $@ $<

$(B)/bench/insn_calls_linked: bench/insn_calls.c $(B)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -o $@ $< $(B)/lib/libsysshim.a

# The library's syscall() over glibc's, both called through a pointer: what looking for a
# seccomp filter on its way may add to every syscall() a program makes (insn_fstat). The
# stat exports have no such allowance: each is held to glibc's own count, measured in the
# same run.
INSN_SYSCALL_OVER ?= 8

# Every export per call, against glibc's own, in one run (tools/insn-count.sh). Under a
# minute.
bench-insn: deps-check $(B)/bench/insn_fstat $(B)/bench/insn_calls $(B)/bench/insn_calls_linked \
		$(B)/lib/libsysshim.so
	@CC=$(CC) INSN_SYSCALL_OVER=$(INSN_SYSCALL_OVER) tools/insn-count.sh $(B)/bench/insn_fstat \
		$(B)/bench/insn_calls $(B)/lib/$(SONAME) $(B)/bench/insn_calls_linked

# The floor of a preload (bench/empty_preload.c): the library's exports, each straight to
# the syscall glibc makes, no initializer; its export list generated from the library's,
# and checked to be the same after the link.
FLOOR_SONAME = libshfloor.so.0
FLOOR = $(B)/bench/floor/$(FLOOR_SONAME)
NM ?= nm
$(B)/bench/floor/names.h: $(B)/lib/$(SONAME)
	@mkdir -p $(dir $@)
	@$(NM) -D --defined-only $< | awk 'NF == 3 { n = $$3; if (n ~ /^sysshim_/) s = s " STUB(" n ")"; \
		else print "#define EXPORT_" n } END { print "#define FLOOR_STUBS" s }' > $@.tmp && mv $@.tmp $@

$(FLOOR): bench/empty_preload.c $(B)/bench/floor/names.h $(B)/lib/$(SONAME)
	$(CC) -O2 -Wall -Wextra -fPIC -shared -nostartfiles -fvisibility=hidden -Wl,-soname,$(FLOOR_SONAME) \
		-include $(B)/bench/floor/names.h -o $@.tmp $<
	@$(NM) -D --defined-only $@.tmp | awk 'NF == 3 { print $$3 }' > $@.names
	@$(NM) -D --defined-only $(B)/lib/$(SONAME) | awk 'NF == 3 { print $$3 }' | diff - $@.names || \
		{ echo "floor: its exports are not the library's (bench/empty_preload.c defines no such name?)"; \
		rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

# (floor: the name other parts ask for it by; mk/bench-real.mk is read before this file.)
floor: $(FLOOR)

# The cost of a process (tools/proc-cost.sh): user-space instructions (callgrind) and
# syscalls (strace) of /bin/true, stat, find, python3 and cat, with nothing preloaded, the
# floor, the library and through sysshim-run; fails where a process that makes no fd stat
# through the library's exports pays more than the floor + PROC_COST_SLACK instructions,
# or a syscall the floor does not make. About a minute.
PROC_COST_SLACK ?= 3000
check-proc-cost: deps-check all $(FLOOR)
	@PROC_COST_SLACK=$(PROC_COST_SLACK) tools/proc-cost.sh $(B) $(FLOOR)

bench-proc-cost: all $(FLOOR)
	@tools/need strace valgrind python3 findutils coreutils
	@PROC_COST_GATE=0 tools/proc-cost.sh $(B) $(FLOOR)

bench: bench-proc-cost

CHECK_PARTS += check-asan check-valgrind bench-insn check-proc-cost
.PHONY: check-asan check-valgrind bench-insn floor check-proc-cost bench-proc-cost
