# Differential fuzzing against glibc and coverage-guided fuzzing (issue 7, docs/fuzz.md).
#
#   make check-fuzz       fixed seed: every strategy x seccomp mode (+ path alignment),
#                         FUZZ_CHECK_CASES cases each (21,600 in all), plus short libFuzzer runs
#   make fuzz [N=cases per configuration] [SEED=n, 0 = from the clock] [FUZZ_TIME=seconds]
#                         a longer differential run, then each libFuzzer target for FUZZ_TIME s
#   make fuzz-replay SEED=.. CASE=.. [STRATEGY=..] [SECCOMP=..]   one case, verbose
#
# The driver calls glibc's functions (libc.so.6) and sysshim's ($(B)/lib/libsysshim.so,
# dlopen RTLD_LOCAL) through libffi, from tests/fuzz/signatures.def.

CHECK_PARTS += check-fuzz
PKGS_CHECK += libffi-dev pkg-config clang-19 libclang-rt-19-dev

FUZZ_B = $(B)/fuzz
FUZZ_CLANG ?= clang-19
FUZZ_CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter
FFI_CFLAGS = $(shell pkg-config --cflags libffi 2>/dev/null)
FFI_LIBS = $(or $(shell pkg-config --libs libffi 2>/dev/null),-lffi)
FUZZ_CHECK_SEED ?= 20261130
FUZZ_CHECK_CASES ?= 400
FUZZ_CHECK_RUNS ?= 20000
N ?= 5000
SEED ?= 0
FUZZ_TIME ?= 20
CASE ?= 0
STRATEGY ?= auto
SECCOMP ?= none

# The coverage-guided targets: the statx <-> stat conversion (kstat.c alone), and the
# flag/mask and strategy logic of src/stat against a model kernel (src/ with
# tests/fuzz/mock/syscall_arch.h in place of the real syscall instruction).
FUZZ_LIBFUZZER = $(FUZZ_B)/kstat_fuzz $(FUZZ_B)/logic_fuzz
FUZZ_SAN = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-fno-sanitize=pointer-overflow
FUZZ_SRC_CFLAGS = -std=gnu11 -g -O1 -Wall -Wno-unused-parameter -fno-stack-protector \
	-Isrc/internal -Iinclude
FUZZ_LOGIC_SRCS = $(filter src/stat/% src/internal/% src/path/% src/probe/%,$(LIB_SRCS))

$(FUZZ_B)/difffuzz: tests/fuzz/difffuzz.c tests/fuzz/signatures.def
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_CFLAGS) $(FFI_CFLAGS) -o $@ tests/fuzz/difffuzz.c $(FFI_LIBS) -ldl

$(FUZZ_B)/kstat_fuzz: tests/fuzz/kstat_fuzz.c src/internal/kstat.c $(wildcard src/internal/*.h arch/$(ARCH)/*.h arch/generic/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_SAN) $(FUZZ_SRC_CFLAGS) -Iarch/$(ARCH) -o $@ \
		tests/fuzz/kstat_fuzz.c src/internal/kstat.c

$(FUZZ_B)/logic_fuzz: tests/fuzz/logic_fuzz.c tests/fuzz/mock/syscall_arch.h $(FUZZ_LOGIC_SRCS) $(wildcard src/internal/*.h arch/x86_64/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_SAN) $(FUZZ_SRC_CFLAGS) -Itests/fuzz/mock -Iarch/x86_64 -o $@ \
		tests/fuzz/logic_fuzz.c $(FUZZ_LOGIC_SRCS)

fuzz-bins: $(FUZZ_B)/difffuzz $(FUZZ_LIBFUZZER)

# Every exported function of libsysshim.so outside the sysshim_* API must have a line
# in tests/fuzz/signatures.def.
fuzz-exports: $(B)/lib/libsysshim.so
	@missing=; for f in $$(nm -D --defined-only $(B)/lib/libsysshim.so | \
		awk '$$2 ~ /^[TWi]$$/ && $$3 !~ /^sysshim_/ { print $$3 }'); do \
		grep -q "^SIG($$f," tests/fuzz/signatures.def || missing="$$missing $$f"; done; \
	if [ -n "$$missing" ]; then \
		echo "fuzz: exported but not in tests/fuzz/signatures.def:$$missing"; exit 1; fi; \
	echo "fuzz: every libc-named export of libsysshim.so is in tests/fuzz/signatures.def"

# A libFuzzer target runs in a scratch dir of its own (it may write crash-* files there).
define fuzz_run_target
	@mkdir -p $(FUZZ_B)/run-$(notdir $(1)) && cd $(FUZZ_B)/run-$(notdir $(1)) && \
	echo "-- $(notdir $(1)) $(2)" && \
	$(abspath $(1)) $(2) >log 2>&1 || { tail -40 log; exit 1; }; \
	grep -E '^(Done|#[0-9]+ +DONE)' log | tail -1
endef

# The differential run goes last: its "N passed, N failed, N skipped" closes the output.
check-fuzz: deps-check $(B)/lib/libsysshim.so fuzz-bins fuzz-exports
	$(call fuzz_run_target,$(FUZZ_B)/kstat_fuzz,-runs=$(FUZZ_CHECK_RUNS) -seed=1)
	$(call fuzz_run_target,$(FUZZ_B)/logic_fuzz,-runs=$(FUZZ_CHECK_RUNS) -seed=1)
	$(FUZZ_B)/difffuzz --matrix --lib $(B)/lib/libsysshim.so --seed $(FUZZ_CHECK_SEED) \
		--cases $(FUZZ_CHECK_CASES)

fuzz: $(B)/lib/libsysshim.so fuzz-bins fuzz-exports
	$(call fuzz_run_target,$(FUZZ_B)/kstat_fuzz,-max_total_time=$(FUZZ_TIME))
	$(call fuzz_run_target,$(FUZZ_B)/logic_fuzz,-max_total_time=$(FUZZ_TIME))
	$(FUZZ_B)/difffuzz --matrix --lib $(B)/lib/libsysshim.so --seed $(SEED) --cases $(N)

fuzz-replay: $(B)/lib/libsysshim.so $(FUZZ_B)/difffuzz
	SYSSHIM_STRATEGY=$(STRATEGY) $(FUZZ_B)/difffuzz --lib $(B)/lib/libsysshim.so \
		--seed $(SEED) --seccomp $(SECCOMP) --case $(CASE) -v

.PHONY: check-fuzz fuzz fuzz-bins fuzz-exports fuzz-replay
