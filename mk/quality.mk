# The suites under ASan+UBSan and valgrind, and the instruction-count check.

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

# The C library's names, called plainly: the preloaded library answers them.
$(B)/bench/insn_calls: bench/insn_calls.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -o $@ $<

bench-insn: deps-check $(B)/bench/insn_fstat $(B)/bench/insn_calls $(B)/lib/libsysshim.so
	@CC=$(CC) tools/insn-count.sh $(B)/bench/insn_fstat $(B)/bench/insn_calls \
		$(B)/lib/$(SONAME) bench/insn-ceiling.txt

CHECK_PARTS += check-asan check-valgrind bench-insn
.PHONY: check-asan check-valgrind bench-insn
