# Test beds: Debian's own 6.1 kernel under qemu-system-x86_64, aarch64 and
# loongarch64 under qemu-user 7.2 (Debian 12) and 10.0 (Debian 13). See docs/testbed.md.
#
#   make check-kernel   static suites + sysshim-probe in an initramfs, booted on Debian's
#                       linux-image-6.1.0-*-amd64-unsigned (TCG); also runs on check
#   make bench-kernel   the same boot running the static stat benchmark (bench/bench_stat.c);
#                       fails unless sysshim fstat is 2x faster than glibc 2.36 fstat()
#   make check-cross    aarch64 (Check suites, static) and loongarch64 (freestanding
#                       tests/cross/la64_test.c) under qemu-user 7.2 and 10.0
#   make testbed-fetch  only the downloads (kernel, arm64 Check, trixie qemu-user)
#   make deps-testbed   apt-get install the Debian packages these need (tools/need)
#
# Downloads are cached under $(TB_DL) ($(CACHE)/testbed, outside the clone): a second run,
# or a fresh clone, downloads nothing.
# Every Debian kernel comes through testbed/fetch-debian-kernel.sh (by metapackage, arch and
# suite); Debian 12's 6.1 from the system's own suites: the newest 6.1.0-N apt knows.

TB ?= $(B)/testbed
TB_DL ?= $(CACHE)/testbed
TB_SB ?= $(B)/static
TB_A64 ?= $(B)/aarch64
TB_LA64 ?= $(B)/la64
TB_CK_TIMEOUT ?= 120
# The benchmark's size in the guest (TCG: a syscall costs microseconds; the host's
# defaults, 11 rounds x 200000 calls, would take most of an hour there).
TB_BENCH_ITERS ?= 20000
TB_BENCH_ROUNDS ?= 7
# Sub-makes change B: hand them the test-bed directories as they are here.
TB_PASS = TB=$(TB) TB_DL=$(TB_DL) TB_SB=$(TB_SB) TB_A64=$(TB_A64) TB_LA64=$(TB_LA64)

PKGS_TESTBED = make gcc libc6-dev binutils coreutils apt dpkg cpio gzip pkg-config \
	check libsubunit-dev qemu-system-x86 qemu-user \
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross clang-19 lld-19 llvm-16 \
	qemu-system-arm llvm-19 flex bison bc xz-utils libelf-dev patch zstd

CHECK_PARTS += check-kernel check-cross
# The real-kernel rows: x86_64 5.10 and 6.12, arm64 6.1 and 6.12, loongarch64 old (built
# here) and new (Debian sid's own).
CHECK_PARTS += check-kernel-5.10 check-kernel-6.12 check-kernel-arm64 check-kernel-la64

# The suites every part runs: all tests/check_* but check_preload (it needs host
# programs: ls, git, strace); the benchmarks: all bench/bench_*.
TB_SUITE_NAMES = $(filter-out check_preload,$(patsubst tests/%.c,%,$(wildcard tests/check_*.c)))
# bench-kernel runs the stat, eventfd, path and sandbox benchmarks; TB_KBENCH="bench_stat" runs
# one (a benchmark that links more libraries needs their static archives: libuv1-dev
# ships libuv_a.a). TB_BENCH_SCALE shortens bench_eventfd (the raw notify case alone
# is 4 M syscalls at full size).
TB_KBENCH ?= bench_stat bench_eventfd bench_path bench_sandbox
TB_BENCH_SCALE ?= 0.2
TB_BENCH_NAMES = $(filter $(TB_KBENCH),$(patsubst bench/%.c,%,$(wildcard bench/bench_*.c)))
TB_X86_SUITES = $(TB_SUITE_NAMES:%=$(TB_SB)/tests/%)
TB_X86_BENCH = $(TB_BENCH_NAMES:%=$(TB_SB)/bench/%)
TB_A64_SUITES = $(TB_SUITE_NAMES:%=$(TB_A64)/tests/%)

TB_HOSTCC ?= gcc
TB_A64_ROOT = $(abspath $(TB_DL))/arm64/root
TB_A64_CC = aarch64-linux-gnu-gcc
TB_LA64_CC = clang-19 --target=loongarch64-linux-gnu -mno-lsx
TB_TRIXIE_BIN = $(TB_DL)/trixie/root/usr/bin

deps-testbed:
	@tools/need $(PKGS_TESTBED)

# ---- downloads (cached)
tb-fetch-kernel: deps-testbed
	@$(call CACHE_LOCK,kernel) testbed/fetch-debian-kernel.sh $(TB_DL)/kernel amd64 system

tb-fetch-arm64: deps-testbed
	@$(call CACHE_LOCK,arm64) testbed/apt-private.sh $(TB_DL)/arm64 arm64 system check libsubunit-dev libsubunit0

tb-fetch-trixie: deps-testbed
	@$(call CACHE_LOCK,trixie) testbed/apt-private.sh $(TB_DL)/trixie amd64 trixie qemu-user

# Debian 13's kernel for x86_64 (linux-image-6.12.N+deb13-amd64-unsigned, private apt):
# $(TB_K612)/vmlinuz, kernel.txt names the package and version.
TB_K612 = $(TB_DL)/kernel-amd64-6.12
tb-fetch-kernel-6.12: deps-testbed
	@$(call CACHE_LOCK,kernel-amd64-6.12) testbed/fetch-debian-kernel.sh $(TB_K612) amd64 trixie

# Debian 11's 5.10 (bullseye), a kernel older than 6.1: the stand-in for RHEL 9's 5.14 and
# Ubuntu 22.04's 5.15 (glibc's fstat is newfstatat(fd, "", AT_EMPTY_PATH) there too; its
# io_uring is 5.15's, backported in 5.10.162). TB_K510_SUITE=bullseye (default) is the last
# point release, frozen (linux-image-5.10.0-32-ARCH-unsigned 5.10.223-1); "bullseye
# bullseye-security" takes the LTS kernel of the day (5.10.0-46, 5.10.262-1 on 2026-12-01).
# The cache directory is named after the suites, so a change of suite fetches anew.
TB_K510_SUITE ?= bullseye
TB_K510_KEY = $(subst $(eval) ,+,$(strip $(TB_K510_SUITE)))
TB_K510 = $(TB_DL)/kernel-amd64-5.10-$(TB_K510_KEY)
TB_KA64_510 = $(TB_DL)/kernel-arm64-5.10-$(TB_K510_KEY)
tb-fetch-kernel-5.10: deps-testbed
	@$(call CACHE_LOCK,kernel-amd64-5.10) testbed/fetch-debian-kernel.sh $(TB_K510) amd64 "$(TB_K510_SUITE)"

tb-fetch-kernel-arm64-5.10: deps-testbed
	@$(call CACHE_LOCK,kernel-arm64-5.10) testbed/fetch-debian-kernel.sh $(TB_KA64_510) arm64 "$(TB_K510_SUITE)"

tb-fetch-kernels: tb-fetch-kernel tb-fetch-kernel-6.12

testbed-fetch: tb-fetch-kernel tb-fetch-arm64 tb-fetch-trixie

# ---- x86_64: static suites, benchmarks, probe and /init for the initramfs
tb-x86-static: deps-testbed
	@$(MAKE) --no-print-directory $(TB_PASS) B=$(TB_SB) TEST_LDFLAGS=-static \
		CHECK_LIBS="$$(pkg-config --libs --static check) -lpthread" \
		$(TB_SB)/lib/libsysshim.a $(TB_X86_SUITES)

tb-x86-bench: deps-testbed
	@$(MAKE) --no-print-directory $(TB_PASS) B=$(TB_SB) TEST_LDFLAGS=-static \
		BENCH_LDLIBS_eventfd=-l:libuv_a.a $(TB_SB)/lib/libsysshim.a $(TB_X86_BENCH)

# The static archive, suites and benchmarks have rules here too (B is not TB_SB in this
# make), so a target that needs them (check-upstream-glibc's probe, the initramfs) works
# on its own, not only after tb-x86-static.
ifneq ($(abspath $(TB_SB)),$(abspath $(B)))
TB_SB_MAKE = $(MAKE) --no-print-directory $(TB_PASS) B=$(TB_SB) TEST_LDFLAGS=-static
# (The sub-make is asked every time: its dependency files know what is stale.)
$(TB_SB)/lib/libsysshim.a: FORCE
	@$(TB_SB_MAKE) $@
$(TB_SB)/tests/check_%: FORCE
	@$(TB_SB_MAKE) CHECK_LIBS="$$(pkg-config --libs --static check) -lpthread" $@
$(TB_SB)/bench/bench_%: FORCE
	@$(TB_SB_MAKE) BENCH_LDLIBS_eventfd=-l:libuv_a.a $@
endif

$(TB)/x86_64/init: tests/kernel/init.c
	@mkdir -p $(dir $@)
	$(TB_HOSTCC) -static -O2 -Wall $(DEPFLAGS) -o $@ $<

$(TB)/x86_64/sysshim-probe: programs/sysshim-probe.c $(TB_SB)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(TB_HOSTCC) -static -O2 -Wall -Iinclude $(DEPFLAGS) -o $@ $< $(TB_SB)/lib/libsysshim.a

# sysshim-run's decision on each booted kernel (tests/kernel/run_decide.c), with the
# arch's own sysshim-run as /bin/sysshim-run (an r: tree of the image; built by the
# top Makefile's rule in a build directory of its own). ARCH is the directory's name;
# TB_CC_<arch> its compiler.
TB_CC_x86_64 = $(TB_HOSTCC)
TB_CC_aarch64 = $(TB_A64_CC)
TB_RD_CFLAGS = -std=gnu11 -O2 -Wall -D_GNU_SOURCE -Iinclude -Itests -Itests/common
$(TB)/%/run_decide.o: tests/kernel/run_decide.c
	@mkdir -p $(dir $@)
	$(TB_CC_$*) $(TB_RD_CFLAGS) $(DEPFLAGS) -c -o $@ $<
$(TB)/%/testutil.o: tests/common/testutil.c
	@mkdir -p $(dir $@)
	$(TB_CC_$*) $(TB_RD_CFLAGS) $(DEPFLAGS) -c -o $@ $<
$(TB)/%/run_decide: $(TB)/%/run_decide.o $(TB)/%/testutil.o
	$(TB_CC_$*) -static -o $@ $^
.PRECIOUS: $(TB)/%/run_decide.o $(TB)/%/testutil.o

$(TB)/%/runroot/bin/sysshim-run: FORCE
	@$(MAKE) --no-print-directory B=$(TB)/$*/run ARCH=$* CC=$(TB_CC_$*) $(TB)/$*/run/bin/sysshim-run
	@mkdir -p $(dir $@) && cmp -s $(TB)/$*/run/bin/sysshim-run $@ || cp $(TB)/$*/run/bin/sysshim-run $@

$(TB)/x86_64/check.cpio.gz: $(TB)/x86_64/init $(TB)/x86_64/sysshim-probe $(TB_X86_SUITES) \
		$(TB)/x86_64/run_decide $(TB)/x86_64/runroot/bin/sysshim-run testbed/mkinitramfs.sh
	testbed/mkinitramfs.sh $@ $(TB)/x86_64/init $(TB)/x86_64/sysshim-probe \
		$(TB_X86_SUITES:%=t:%) t:$(TB)/x86_64/run_decide r:$(TB)/x86_64/runroot

$(TB)/x86_64/bench.cpio.gz: $(TB)/x86_64/init $(TB)/x86_64/sysshim-probe $(TB_X86_BENCH) \
		testbed/mkinitramfs.sh
	@test -n "$(TB_X86_BENCH)" || { echo "testbed: no bench/bench_*.c to run" >&2; exit 1; }
	testbed/mkinitramfs.sh $@ $(TB)/x86_64/init $(TB)/x86_64/sysshim-probe \
		$(TB_X86_BENCH:%=b:%)

check-kernel: deps-testbed tb-fetch-kernel tb-x86-static
	@$(MAKE) --no-print-directory $(TB)/x86_64/check.cpio.gz
	@echo "testbed: the same static suites on the host ($$(uname -r)) for comparison"
	@testbed/host-suites.sh $(TB)/x86_64/host-results.txt $(TB_X86_SUITES)
	@CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) TB_HOST_RESULTS=$(TB)/x86_64/host-results.txt \
		testbed/run-kernel.sh check $(TB_DL)/kernel/vmlinuz $(TB)/x86_64/check.cpio.gz \
		$(TB)/x86_64

# Debian 13's 6.12: the same initramfs; the probe must find NULL paths accepted.
check-kernel-6.12: deps-testbed tb-fetch-kernel-6.12 tb-x86-static
	@$(MAKE) --no-print-directory $(TB)/x86_64/check.cpio.gz
	@CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) TB_EXPECT=new TB_KREL='6\.12\.' TB_NAME=kernel-6.12 \
		testbed/run-kernel.sh check $(TB_K612)/vmlinuz $(TB)/x86_64/check.cpio.gz \
		$(TB)/x86_64-6.12

# Debian 11's 5.10: the same initramfs; the probe must find what it finds on 6.1.
check-kernel-5.10: deps-testbed tb-fetch-kernel-5.10 tb-x86-static
	@$(MAKE) --no-print-directory $(TB)/x86_64/check.cpio.gz
	@CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) TB_EXPECT=stock TB_KREL='5\.10\.' TB_NAME=kernel-5.10 \
		testbed/run-kernel.sh check $(TB_K510)/vmlinuz $(TB)/x86_64/check.cpio.gz \
		$(TB)/x86_64-5.10

# io_uring IORING_OP_WRITE to a non-blocking eventfd at its maximum, with and without
# RWF_NOWAIT, on the x86_64 kernels 5.10, 6.1 and 6.12 and on the host
# (tests/kernel/uring_nowait.c: raw syscalls, static; its ANSWER lines make the table of
# docs/testbed.md, "Debian 11's 5.10"). Informational: not part of make check.
$(TB)/x86_64/uring_nowait: tests/kernel/uring_nowait.c
	@mkdir -p $(dir $@)
	$(TB_HOSTCC) -static -O2 -Wall -o $@ $<

$(TB)/x86_64/uring.cpio.gz: $(TB)/x86_64/init $(TB)/x86_64/uring_nowait testbed/mkinitramfs.sh
	testbed/mkinitramfs.sh $@ $(TB)/x86_64/init b:$(TB)/x86_64/uring_nowait

uring-nowait-kernels: deps-testbed tb-fetch-kernel-5.10 tb-fetch-kernel tb-fetch-kernel-6.12
	@$(MAKE) --no-print-directory $(TB)/x86_64/uring.cpio.gz
	@r=0; echo "testbed: the host ($$(uname -r)):"; \
	$(TB)/x86_64/uring_nowait > $(TB)/x86_64/uring-host.txt || r=1; sed 's/^/  /' $(TB)/x86_64/uring-host.txt; \
	for k in 5.10=$(TB_K510) 6.1=$(TB_DL)/kernel 6.12=$(TB_K612); do \
		TB_TIMEOUT=300 testbed/run-kernel.sh bench $${k#*=}/vmlinuz $(TB)/x86_64/uring.cpio.gz \
			$(TB)/x86_64-uring-$${k%%=*} || r=1; done; \
	sed -n 's/^\(OUT uring_nowait| \)\{0,1\}\(ANSWER .*\)/uring-nowait: \2/p' $(TB)/x86_64/uring-host.txt \
		$(TB)/x86_64-uring-5.10/bench.log $(TB)/x86_64-uring-6.1/bench.log $(TB)/x86_64-uring-6.12/bench.log; \
	exit $$r

bench-kernel-6.12: deps-testbed tb-fetch-kernel-6.12 tb-x86-bench
	@$(MAKE) --no-print-directory $(TB)/x86_64/bench.cpio.gz
	@TB_APPEND="SYSSHIM_BENCH_ITERS=$(TB_BENCH_ITERS) SYSSHIM_BENCH_ROUNDS=$(TB_BENCH_ROUNDS) SYSSHIM_BENCH_SCALE=$(TB_BENCH_SCALE)" \
		TB_BENCH_MIN_RATIO=$${TB_BENCH_MIN_RATIO:-0} \
		testbed/run-kernel.sh bench $(TB_K612)/vmlinuz $(TB)/x86_64/bench.cpio.gz \
		$(TB)/x86_64-6.12

bench-kernel: deps-testbed tb-fetch-kernel tb-x86-bench
	@$(MAKE) --no-print-directory $(TB)/x86_64/bench.cpio.gz
	@TB_APPEND="SYSSHIM_BENCH_ITERS=$(TB_BENCH_ITERS) SYSSHIM_BENCH_ROUNDS=$(TB_BENCH_ROUNDS) SYSSHIM_BENCH_SCALE=$(TB_BENCH_SCALE)" \
		testbed/run-kernel.sh bench $(TB_DL)/kernel/vmlinuz $(TB)/x86_64/bench.cpio.gz \
		$(TB)/x86_64

# ---- aarch64: the library, the Check suites and the probe, static
tb-aarch64: deps-testbed tb-fetch-arm64
	@$(MAKE) --no-print-directory $(TB_PASS) B=$(TB_A64) ARCH=aarch64 CC=$(TB_A64_CC) \
		AR=aarch64-linux-gnu-ar RANLIB=aarch64-linux-gnu-ranlib SHARED=no HOSTED=yes \
		TEST_LDFLAGS=-static CHECK_CFLAGS=-I$(TB_A64_ROOT)/usr/include \
		CHECK_LIBS="-L$(TB_A64_ROOT)/usr/lib/aarch64-linux-gnu -lcheck -lsubunit -lrt -lm -lpthread" \
		$(TB_A64)/lib/libsysshim.a $(TB_A64_SUITES) $(TB)/aarch64/sysshim-probe

$(TB)/aarch64/sysshim-probe: programs/sysshim-probe.c $(TB_A64)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(TB_A64_CC) -static -O2 -Wall -Iinclude $(DEPFLAGS) -o $@ $< $(TB_A64)/lib/libsysshim.a

# ---- loongarch64: the freestanding library and la64_test
tb-la64: deps-testbed
	@$(MAKE) --no-print-directory $(TB_PASS) B=$(TB_LA64) ARCH=loongarch64 HOSTED=no SHARED=no \
		CC="$(TB_LA64_CC)" AR=llvm-ar-16 RANLIB=llvm-ranlib-16 \
		$(TB_LA64)/lib/libsysshim.a $(TB)/la64/la64_test

$(TB)/la64/la64_test: tests/cross/la64_test.c $(TB_LA64)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(TB_LA64_CC) -ffreestanding -nostdlib -fno-stack-protector -static -O2 -g -Wall -Wextra \
		-Wno-unused-parameter -Iarch/loongarch64 -Iarch/generic -Isrc/internal -Isrc -Iinclude \
		$(DEPFLAGS) -fuse-ld=lld -Wl,-e,_start -o $@ $< $(TB_LA64)/lib/libsysshim.a
DEP_FILES += $(wildcard $(TB)/*/*.d)

check-cross: deps-testbed tb-fetch-trixie tb-aarch64 tb-la64
	@TB_EMUS="7.2=/usr/bin 10.0=$(TB_TRIXIE_BIN)" TB_A64_PROBE=$(TB)/aarch64/sysshim-probe \
		TB_A64_SUITES="$(abspath $(TB_A64_SUITES))" TB_LA64_TEST=$(abspath $(TB))/la64/la64_test \
		CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) testbed/run-cross.sh $(TB)/cross

# ---- arm64 kernels: Debian 12's 6.1 and Debian 13's 6.12 (linux-image-*-arm64-unsigned,
# private apt), qemu-system-aarch64 -M virt -cpu cortex-a57 (TCG), console ttyAMA0, with
# the static aarch64 suites (seccomp included), sysshim-probe and bench_stat.
TB_KA64_61 = $(TB_DL)/kernel-arm64-6.1
TB_KA64_612 = $(TB_DL)/kernel-arm64-6.12
TB_A64_KBENCH ?= bench_stat
TB_A64_BENCH = $(TB_A64_KBENCH:%=$(TB_A64)/bench/%)

tb-fetch-kernel-arm64: deps-testbed
	@$(call CACHE_LOCK,kernel-arm64-6.1) testbed/fetch-debian-kernel.sh $(TB_KA64_61) arm64 system
	@$(call CACHE_LOCK,kernel-arm64-6.12) testbed/fetch-debian-kernel.sh $(TB_KA64_612) arm64 trixie

tb-aarch64-bench: deps-testbed tb-fetch-arm64
	@$(MAKE) --no-print-directory $(TB_PASS) B=$(TB_A64) ARCH=aarch64 CC=$(TB_A64_CC) \
		AR=aarch64-linux-gnu-ar RANLIB=aarch64-linux-gnu-ranlib SHARED=no HOSTED=yes \
		TEST_LDFLAGS=-static $(TB_A64)/lib/libsysshim.a $(TB_A64_BENCH)

# The aarch64 archive, suites and benchmarks from this make (B is not TB_A64 here): the
# sub-makes of tb-aarch64 and tb-aarch64-bench build them, so an initramfs target works
# on its own (and under make -n).
ifneq ($(abspath $(TB_A64)),$(abspath $(B)))
$(TB_A64)/lib/libsysshim.a $(TB_A64_SUITES): FORCE
	@$(MAKE) --no-print-directory tb-aarch64
$(TB_A64_BENCH): FORCE
	@$(MAKE) --no-print-directory tb-aarch64-bench
endif

$(TB)/aarch64/init: tests/kernel/init.c
	@mkdir -p $(dir $@)
	$(TB_A64_CC) -static -O2 -Wall $(DEPFLAGS) -o $@ $<

$(TB)/aarch64/check.cpio.gz: $(TB)/aarch64/init $(TB)/aarch64/sysshim-probe $(TB_A64_SUITES) \
		$(TB)/aarch64/run_decide $(TB)/aarch64/runroot/bin/sysshim-run testbed/mkinitramfs.sh
	testbed/mkinitramfs.sh $@ $(TB)/aarch64/init $(TB)/aarch64/sysshim-probe \
		$(TB_A64_SUITES:%=t:%) t:$(TB)/aarch64/run_decide r:$(TB)/aarch64/runroot

$(TB)/aarch64/bench.cpio.gz: $(TB)/aarch64/init $(TB)/aarch64/sysshim-probe $(TB_A64_BENCH) \
		testbed/mkinitramfs.sh
	testbed/mkinitramfs.sh $@ $(TB)/aarch64/init $(TB)/aarch64/sysshim-probe \
		$(TB_A64_BENCH:%=b:%)

TB_A64_RUN = TB_ARCH=aarch64 CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) testbed/run-kernel.sh
check-kernel-arm64: deps-testbed tb-fetch-kernel-arm64 tb-aarch64
	@$(MAKE) --no-print-directory $(TB)/aarch64/check.cpio.gz
	@r=0; TB_EXPECT=stock TB_KREL='6\.1\.' TB_NAME=kernel-arm64-6.1 $(TB_A64_RUN) check \
		$(TB_KA64_61)/vmlinuz $(TB)/aarch64/check.cpio.gz $(TB)/aarch64-6.1 || r=1; \
	TB_EXPECT=new TB_KREL='6\.12\.' TB_NAME=kernel-arm64-6.12 $(TB_A64_RUN) check \
		$(TB_KA64_612)/vmlinuz $(TB)/aarch64/check.cpio.gz $(TB)/aarch64-6.12 || r=1; exit $$r

check-kernel-arm64-5.10: deps-testbed tb-fetch-kernel-arm64-5.10 tb-aarch64
	@$(MAKE) --no-print-directory $(TB)/aarch64/check.cpio.gz
	@TB_EXPECT=stock TB_KREL='5\.10\.' TB_NAME=kernel-arm64-5.10 $(TB_A64_RUN) check \
		$(TB_KA64_510)/vmlinuz $(TB)/aarch64/check.cpio.gz $(TB)/aarch64-5.10

bench-kernel-arm64: deps-testbed tb-fetch-kernel-arm64 tb-aarch64-bench tb-aarch64
	@$(MAKE) --no-print-directory $(TB)/aarch64/bench.cpio.gz
	@r=0; for k in 6.1=$(TB_KA64_61) 6.12=$(TB_KA64_612); do \
		TB_APPEND="SYSSHIM_BENCH_ITERS=$(TB_BENCH_ITERS) SYSSHIM_BENCH_ROUNDS=$(TB_BENCH_ROUNDS)" \
		TB_BENCH_MIN_RATIO=$${TB_BENCH_MIN_RATIO:-0} $(TB_A64_RUN) bench $${k#*=}/vmlinuz \
		$(TB)/aarch64/bench.cpio.gz $(TB)/aarch64-$${k%%=*} || r=1; done; exit $$r

.PHONY: tb-fetch-kernel-arm64 tb-aarch64-bench check-kernel-arm64 bench-kernel-arm64 \
	tb-fetch-kernel-5.10 tb-fetch-kernel-arm64-5.10 check-kernel-5.10 check-kernel-arm64-5.10

# ---- loongarch64 kernels, two rows booted by Debian 13's qemu-system-loongarch64 10.0 (with
# its own trixie libraries) -M virt -kernel:
# "new": Debian sid's own loong64 kernel (linux-image-loong64 -> linux-image-KREL, a
# metapackage since Debian's 7.x kernels -> linux-binary-KREL: 7.2.13+deb14-loong64 when this
# was written; the 6.11+ fstat/newfstatat and the 6.13+ NULL-path rules), fetched through the
# private apt (testbed/fetch-debian-kernel.sh) like the other Debian kernels, cached by the
# version in kernel.txt; its vmlinuz (EFI zboot, zstd) is unpacked to the LoongArch Image.
# "old": Linux 6.12 (Debian 13's linux-source-6.12) with testbed/kpatch/la64-old/*.patch
# (statx and newfstatat path handling as before 6.11, no fstat/newfstatat on LoongArch),
# built here on its own with clang-19/ld.lld-19 from tinyconfig +
# testbed/kconfig/loongarch64-virt.config.
#   $(TB_LA64_KDEB)/vmlinuz -> Image (unpacked from the EFI zboot vmlinuz), kernel.txt (package, version, .deb)
#   $(TB_LA64_KOLD)/vmlinux (+ config, kernel.txt, key)
#   $(TB_LA64_QEMU)  (a wrapper script; TB_ARCH=loongarch64 TB_QEMU=... run-kernel.sh)
TB_LA64_SRCTAR = $(TB_DL)/la64-src/root/usr/src/linux-source-6.12.tar.xz
TB_LA64_WORK = $(TB_DL)/la64-build
TB_LA64_KOLD = $(TB_DL)/la64-kernel-old
TB_LA64_KFRAG = testbed/kconfig/loongarch64-virt.config
TB_LA64_KPATCH = $(sort $(wildcard testbed/kpatch/la64-old/*.patch))
TB_LA64_QEMU = $(TB_DL)/la64-qemu/qemu-system-loongarch64
TB_LA64_KDEB = $(TB_DL)/kernel-loong64-sid
# Debian's kernel has i8042 built in; testbed/boot.sh's loongarch64 board skips its
# initcall for every boot (without firmware it probes ports nothing maps, and panics).
# The release the probe must report (linux-binary-KREL's KREL, dots escaped) and the row's
# name (kernel-la64-7.2.13 for 7.2.13+deb14-loong64), from kernel.txt.
TB_LA64_KDEB_REL = $$(cut -d' ' -f1 $(TB_LA64_KDEB)/kernel.txt | sed -e 's/^linux-[a-z]*-//' -e 's/-unsigned$$//')
TB_LA64_KDEB_KREL = $$(echo $(TB_LA64_KDEB_REL) | sed 's/\./\\./g')
TB_LA64_KDEB_NAME = kernel-la64-$$(echo $(TB_LA64_KDEB_REL) | sed 's/[+-].*//')

tb-fetch-la64-src: deps-testbed
	@$(call CACHE_LOCK,la64-src) testbed/apt-private.sh $(TB_DL)/la64-src amd64 trixie linux-source-6.12

# Built alone (nothing else is built here to start from).
tb-la64-kernel-old: deps-testbed tb-fetch-la64-src
	@$(call CACHE_LOCK,la64-kernel) testbed/build-la64-kernel.sh $(TB_LA64_KOLD) old \
		$(TB_LA64_SRCTAR) $(TB_LA64_WORK) $(TB_LA64_KFRAG) $(TB_LA64_KPATCH)

tb-fetch-la64-debian: deps-testbed
	@$(call CACHE_LOCK,kernel-loong64-sid) testbed/fetch-debian-kernel.sh $(TB_LA64_KDEB) loong64 sid

tb-fetch-la64-qemu: deps-testbed
	@$(call CACHE_LOCK,la64-qemu) testbed/fetch-la64-qemu.sh $(TB_DL)/la64-qemu

# What check-kernel-la64, bench-kernel-la64 and check-upstream-glibc-la64 boot.
tb-la64-kernels: tb-fetch-la64-debian tb-la64-kernel-old tb-fetch-la64-qemu

# ---- loongarch64 guest programs, hosted: built with clang-19 against Debian 13's cross
# glibc 2.41 (libc6-dev-loong64-cross, unpacked) and run on Debian sid's loong64 glibc
# and coreutils (the guest's /usr, from the loong64 port in the main archive). Dynamic:
# static glibc programs linked by ld.lld-19 crash at start (SIGSEGV before their first
# syscall, under qemu-user 7.2 and 10.0 alike), so the guest has a libc.
TB_LA64_ROOT = $(abspath $(TB_DL))/la64-libc/root
TB_LA64_SID = $(abspath $(TB_DL))/la64-sid/root
TB_LA64_FS = $(TB_DL)/la64-rootfs/sysroot
TB_LA64H ?= $(B)/la64-hosted
TB_LA64_HCC = clang-19 --target=loongarch64-linux-gnu --sysroot=$(TB_LA64_ROOT) -fuse-ld=lld \
	-mno-lsx -Wno-unused-command-line-argument
TB_LA64H_SUITES = $(TB_SUITE_NAMES:%=$(TB_LA64H)/tests/%)
TB_LA64_KBENCH ?= bench_stat
TB_LA64H_BENCH = $(TB_LA64_KBENCH:%=$(TB_LA64H)/bench/%)

tb-fetch-la64-libc: deps-testbed
	@$(call CACHE_LOCK,la64-libc) testbed/apt-private.sh $(TB_DL)/la64-libc amd64 trixie \
		libc6-dev-loong64-cross libc6-loong64-cross linux-libc-dev-loong64-cross \
		libgcc-14-dev-loong64-cross libgcc-s1-loong64-cross

tb-fetch-la64-sid: deps-testbed
	@$(call CACHE_LOCK,la64-sid) testbed/apt-private.sh $(TB_DL)/la64-sid loong64 sid \
		check libsubunit-dev libsubunit0
	@$(call CACHE_LOCK,la64-rootfs) testbed/apt-closure.sh $(TB_DL)/la64-rootfs loong64 sid \
		coreutils busybox-static

tb-la64-hosted: deps-testbed tb-fetch-la64-libc tb-fetch-la64-sid
	@$(MAKE) --no-print-directory $(TB_PASS) TB_LA64H=$(TB_LA64H) B=$(TB_LA64H) ARCH=loongarch64 CC="$(TB_LA64_HCC)" \
		AR=llvm-ar-19 RANLIB=llvm-ranlib-19 SHARED=yes HOSTED=yes TEST_LDFLAGS= \
		CHECK_CFLAGS=-I$(TB_LA64_SID)/usr/include \
		CHECK_LIBS="-L$(TB_LA64_SID)/usr/lib/loongarch64-linux-gnu -l:libcheck.a -l:libsubunit.a -lrt -lm -lpthread" \
		$(TB_LA64H)/lib/libsysshim.a $(TB_LA64H)/lib/libsysshim.so $(TB_LA64H_SUITES) \
		$(TB_LA64H_BENCH) $(TB)/la64k/init $(TB)/la64k/sysshim-probe

ifneq ($(abspath $(TB_LA64)),$(abspath $(B)))
$(TB_LA64)/lib/libsysshim.a: FORCE
	@$(MAKE) --no-print-directory tb-la64
endif
ifneq ($(abspath $(TB_LA64H)),$(abspath $(B)))
$(TB_LA64H)/lib/libsysshim.a $(TB_LA64H)/lib/libsysshim.so $(TB_LA64H_SUITES) $(TB_LA64H_BENCH): FORCE
	@$(MAKE) --no-print-directory tb-la64-hosted
endif

$(TB)/la64k/init: tests/kernel/init.c
	@mkdir -p $(dir $@)
	$(TB_LA64_HCC) -O2 -Wall $(DEPFLAGS) -o $@ $<

$(TB)/la64k/sysshim-probe: programs/sysshim-probe.c $(TB_LA64H)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(TB_LA64_HCC) -O2 -Wall -Iinclude $(DEPFLAGS) -o $@ $< $(TB_LA64H)/lib/libsysshim.a

# The guest's /usr: sid's loader, libraries and /usr/bin (coreutils, busybox as sh, sed,
# grep), the library at /lib/sysshim/libsysshim.so.0 and la64_preload.sh in /tests.
$(TB)/la64k/rootfs.stamp: $(TB_LA64H)/lib/libsysshim.so tests/cross/la64_preload.sh
	@rm -rf $(TB)/la64k/rootfs && mkdir -p $(TB)/la64k/rootfs/usr/lib $(TB)/la64k/rootfs/lib/sysshim \
		$(TB)/la64k/rootfs/tests
	@cp -a $(TB_LA64_FS)/usr/bin $(TB_LA64_FS)/usr/lib64 $(TB)/la64k/rootfs/usr/
	@mkdir -p $(TB)/la64k/rootfs/usr/lib/loongarch64-linux-gnu
	@cp -a $(TB_LA64_FS)/usr/lib/loongarch64-linux-gnu/*.so* $(TB)/la64k/rootfs/usr/lib/loongarch64-linux-gnu/
	@ln -s usr/lib64 $(TB)/la64k/rootfs/lib64
	@ln -s ../usr/lib/loongarch64-linux-gnu $(TB)/la64k/rootfs/lib/loongarch64-linux-gnu
	@for t in sh sed grep; do ln -sf busybox $(TB)/la64k/rootfs/usr/bin/$$t; done
	@cp -L $(TB_LA64H)/lib/libsysshim.so $(TB)/la64k/rootfs/lib/sysshim/libsysshim.so.0
	@install -m 755 tests/cross/la64_preload.sh $(TB)/la64k/rootfs/tests/zz_la64_preload
	@touch $@

$(TB)/la64k/check.cpio.gz: $(TB)/la64k/init $(TB)/la64k/sysshim-probe $(TB_LA64H_SUITES) \
		$(TB)/la64/la64_test $(TB)/la64k/rootfs.stamp testbed/mkinitramfs.sh
	TB_DYNAMIC_OK=1 testbed/mkinitramfs.sh $@ $(TB)/la64k/init $(TB)/la64k/sysshim-probe \
		$(TB_LA64H_SUITES:%=t:%) t:$(TB)/la64/la64_test r:$(TB)/la64k/rootfs

$(TB)/la64k/bench.cpio.gz: $(TB)/la64k/init $(TB)/la64k/sysshim-probe $(TB_LA64H_BENCH) \
		$(TB)/la64k/rootfs.stamp testbed/mkinitramfs.sh
	TB_DYNAMIC_OK=1 testbed/mkinitramfs.sh $@ $(TB)/la64k/init $(TB)/la64k/sysshim-probe \
		$(TB_LA64H_BENCH:%=b:%) r:$(TB)/la64k/rootfs

TB_LA64_RUN = TB_ARCH=loongarch64 TB_QEMU=$(TB_LA64_QEMU) CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) \
	testbed/run-kernel.sh
check-kernel-la64: deps-testbed tb-la64-kernels tb-la64 tb-la64-hosted
	@$(MAKE) --no-print-directory $(TB)/la64k/check.cpio.gz
	@r=0; TB_EXPECT=la64-old TB_KREL='6\.12\.' TB_NAME=kernel-la64-old \
		TB_LABEL="Linux $$(cut -d' ' -f1 $(TB_LA64_KOLD)/kernel.txt) with the pre-6.11 stat ABI (kpatch/la64-old)" \
		TB_APPEND="LA64_EXPECT=statx-empty LA64_EXPECT_CAPS=statx,!statx_null,!fstat,!newfstatat" \
		$(TB_LA64_RUN) check $(TB_LA64_KOLD)/vmlinux $(TB)/la64k/check.cpio.gz $(TB)/la64k-old || r=1; \
	TB_EXPECT=la64-new TB_KREL="$(TB_LA64_KDEB_KREL)" TB_NAME=$(TB_LA64_KDEB_NAME) \
		TB_LABEL="Debian sid's $$(cut -d' ' -f1,2 $(TB_LA64_KDEB)/kernel.txt)" \
		TB_APPEND="LA64_EXPECT=fstat LA64_EXPECT_CAPS=statx,statx_null,fstat,newfstatat" \
		$(TB_LA64_RUN) check $(TB_LA64_KDEB)/vmlinuz $(TB)/la64k/check.cpio.gz $(TB)/la64k-debian || r=1; \
	exit $$r

bench-kernel-la64: deps-testbed tb-la64-kernels tb-la64-hosted
	@$(MAKE) --no-print-directory $(TB)/la64k/bench.cpio.gz
	@r=0; for k in old=$(TB_LA64_KOLD)/vmlinux debian=$(TB_LA64_KDEB)/vmlinuz; do \
		TB_APPEND="SYSSHIM_BENCH_ITERS=$(TB_BENCH_ITERS) SYSSHIM_BENCH_ROUNDS=$(TB_BENCH_ROUNDS)" \
		TB_BENCH_MIN_RATIO=$${TB_BENCH_MIN_RATIO:-0} $(TB_LA64_RUN) bench $${k#*=} \
		$(TB)/la64k/bench.cpio.gz $(TB)/la64k-$${k%%=*} || r=1; done; exit $$r

.PHONY: tb-fetch-la64-src tb-la64-kernel-old tb-fetch-la64-debian tb-fetch-la64-qemu tb-la64-kernels \
	tb-fetch-la64-libc tb-fetch-la64-sid tb-la64-hosted check-kernel-la64 bench-kernel-la64
.PHONY: uring-nowait-kernels check-kernel-6.12 bench-kernel-6.12 deps-testbed testbed-fetch tb-fetch-kernel tb-fetch-kernel-6.12 tb-fetch-kernels tb-fetch-arm64 tb-fetch-trixie \
	tb-x86-static tb-x86-bench tb-aarch64 tb-la64 check-kernel bench-kernel check-cross

# The warm job's LoongArch downloads (mk/cache.mk): what check-kernel-la64 needs but the
# old kernel, which the warm job builds later.
tb-la64-fetch: tb-fetch-la64-debian tb-fetch-la64-qemu tb-fetch-la64-libc tb-fetch-la64-sid tb-fetch-la64-src
.PHONY: tb-la64-fetch
