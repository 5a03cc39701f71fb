# Differential fuzzing against glibc and coverage-guided fuzzing (docs/fuzz.md).
#
#   make check-fuzz       replays tests/fuzz/corpus/, then each libFuzzer target for
#                         FUZZ_CHECK_TIME s from a fresh seed, then difffuzz --matrix
#                         (every strategy x seccomp mode) with a fresh seed, FUZZ_CHECK_CASES
#                         cases per configuration and FUZZ_FIRST (100) processes each whose
#                         first call is a case of its own; every seed is printed with its replay
#   make fuzz [FUZZ_TIME=s per libFuzzer target] [N=cases per configuration]
#             [FUZZ_DIFF_TIME=s of difffuzz runs] [SEED=n, 0 = fresh]
#                         the same, longer (tests/fuzz/check-fuzz.sh does both)
#   make fuzz-replay SEED=.. CASE=.. [STRATEGY=..] [SECCOMP=..]   one difffuzz case, verbose
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
FUZZ_CHECK_TIME ?= 60
FUZZ_CHECK_CASES ?= 400
FUZZ_CHECK_SEED ?=
N ?= 5000
SEED ?= 0
FUZZ_TIME ?= 20
FUZZ_DIFF_TIME ?= 0
CASE ?= 0
STRATEGY ?= auto
SECCOMP ?= none

# The coverage-guided targets: the statx <-> stat conversion (kstat.c alone), and the
# flag/mask and strategy logic of src/stat against a model kernel (src/ with
# tests/fuzz/mock/syscall_stubs.h in place of the real syscall instruction).
FUZZ_LIBFUZZER = $(FUZZ_B)/kstat_fuzz $(FUZZ_B)/logic_fuzz
FUZZ_SAN = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-fno-sanitize=pointer-overflow
FUZZ_SRC_CFLAGS = -std=gnu11 -g -O1 -Wall -Wno-unused-parameter -fno-stack-protector \
	-Iarch/generic -Isrc/internal -Isrc -Iinclude
# Each target's objects apart (with their dependency files), then the link.
FUZZ_KSTAT_SRCS = tests/fuzz/kstat_fuzz.c src/internal/kstat.c
FUZZ_LOGIC_SRCS = tests/fuzz/logic_fuzz.c $(filter src/stat/% src/internal/% src/path/%,$(LIB_SRCS))

$(FUZZ_B)/difffuzz: tests/fuzz/difffuzz.c
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_CFLAGS) $(FFI_CFLAGS) $(DEPFLAGS) -o $@ tests/fuzz/difffuzz.c $(FFI_LIBS) -ldl

$(FUZZ_B)/kstat/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_SAN) -Iarch/$(ARCH) $(FUZZ_SRC_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(FUZZ_B)/logic/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_SAN) -Itests/fuzz/mock -Iarch/x86_64 $(FUZZ_SRC_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(FUZZ_B)/kstat_fuzz: $(FUZZ_KSTAT_SRCS:%.c=$(FUZZ_B)/kstat/%.o)
	$(FUZZ_CLANG) $(FUZZ_SAN) -o $@ $^

$(FUZZ_B)/logic_fuzz: $(FUZZ_LOGIC_SRCS:%.c=$(FUZZ_B)/logic/%.o)
	$(FUZZ_CLANG) $(FUZZ_SAN) -o $@ $^

DEP_FILES += $(wildcard $(FUZZ_B)/*.d $(FUZZ_B)/*/*/*/*.d $(FUZZ_B)/*/*/*/*/*.d)

fuzz-bins: $(FUZZ_B)/difffuzz $(FUZZ_LIBFUZZER)

# Every exported function of libsysshim.so outside the sysshim_* API must have a line
# in tests/fuzz/signatures.def; but prctl and syscall, which the library reads a seccomp
# filter from and passes on to the C library's own unchanged (tests/compat.sh and
# check_wrappers hold them to that), and the exec family and posix_spawn, which pass on
# the call with the library's LD_PRELOAD entry left out where it would not load
# (tests/roots.sh holds them to the command without the library), not answers.
fuzz-exports: $(B)/lib/libsysshim.so
	@missing=; for f in $$(nm -D --defined-only $(B)/lib/libsysshim.so | \
		awk '$$2 ~ /^[TWi]$$/ && $$3 !~ /^(sysshim_.*|prctl|syscall|f?execv?(e|p|pe|at|l|le|lp)?|execveat|posix_spawnp?)$$/ { print $$3 }'); do \
		grep -q "^SIG($$f," tests/fuzz/signatures.def || missing="$$missing $$f"; done; \
	if [ -n "$$missing" ]; then \
		echo "fuzz: exported but not in tests/fuzz/signatures.def:$$missing"; exit 1; fi; \
	echo "fuzz: every libc-named export of libsysshim.so is in tests/fuzz/signatures.def"

# The corpus, the libFuzzer targets and difffuzz, each seed printed (tests/fuzz/check-fuzz.sh).
check-fuzz: deps-check $(B)/lib/libsysshim.so fuzz-bins fuzz-exports
	@B=$(B) FUZZ_TIME=$(FUZZ_CHECK_TIME) FUZZ_CASES=$(FUZZ_CHECK_CASES) FUZZ_SEED=$(FUZZ_CHECK_SEED) \
		sh tests/fuzz/check-fuzz.sh

fuzz: deps-check $(B)/lib/libsysshim.so fuzz-bins fuzz-exports
	@B=$(B) FUZZ_TIME=$(FUZZ_TIME) FUZZ_CASES=$(N) FUZZ_DIFF_TIME=$(FUZZ_DIFF_TIME) \
		FUZZ_SEED=$(SEED) $(if $(FUZZ_ONLY),FUZZ_ONLY="$(FUZZ_ONLY)") sh tests/fuzz/check-fuzz.sh

fuzz-replay: $(B)/lib/libsysshim.so $(FUZZ_B)/difffuzz
	$(if $(filter-out auto,$(STRATEGY)),SYSSHIM_STRATEGY=$(STRATEGY),env -u SYSSHIM_STRATEGY) \
		$(FUZZ_B)/difffuzz --lib $(B)/lib/libsysshim.so \
		--seed $(SEED) --seccomp $(SECCOMP) --case $(CASE) -v

.PHONY: check-fuzz fuzz fuzz-bins fuzz-exports fuzz-replay
