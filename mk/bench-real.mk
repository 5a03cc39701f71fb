# Real programs: what users gain and lose. See README "What real programs gain".
#
#   make bench-real   Debian 12 programs (python3, git, sqlite, tar, cp, find, du, ls, cat,
#                     sha256sum, make+gcc) on a tmpfs tree of 2000 files, booted on Debian's
#                     6.1 and Debian 13's 6.12 kernels (qemu TCG), BR_ROUNDS interleaved
#                     rounds under glibc alone, LD_PRELOAD, sysshim-run and the glibc 2.36
#                     backport (upstream/glibc, when built: make check-upstream-glibc)
#                     and the floor (the empty preload of the library's exports,
#                     bench/empty_preload.c: each row shows it beside sysshim), then the
#                     patched 6.1 kernel with stock glibc and sysshim-run (when built: see
#                     BR_KP); the per-process cost (/bin/true) also under sysshim-run
#                     --always and --never; medians, paired
#                     differences with 95% intervals (its time: docs/results.md, "What
#                     real programs gain"; BR_STRACE=1 adds the syscall counts and call
#                     sites, not timed). Not in make check.
#   make check-real   the same bed, one round per kernel: outputs identical across the
#                     set-ups, sysshim-run preloads on 6.1 and steps aside on 6.12 (check)
#   BR_RUNTIMES=1     opt-in, for either: the other runtimes too (Rust: ripgrep, ripgrep
#                     --mmap, fd-find; Go: gdu -n; Debian 12's Node.js 18 and Java 17) in a
#                     root of their own (BR_ROOT keyed by its package list, about twice
#                     the default's size; build dir $(B)/bench-real-rt). Not in make
#                     check: it doubles check-real's time and bench-real's (docs/results.md,
#                     "What the limits in the code are set against").
#                     BR_W=w1,w2 runs only these workloads (e.g. BR_W=rg,rg-mmap,fd,gdu,node,java).
#   make bench-real-native   the per-process cost of a preload on this host
#   make bench-real-host-counts   the runtimes' stat calls by kind on this host (strace)
#
# The root file system is built once with mmdebstrap from the system's apt mirror and
# cached in $(CACHE)/bench-real/rootfs-KEY (KEY: the suite and the package list).

# BR_RUNTIMES=1: the other runtimes' packages and workloads (opt-in: see above). The default
# root's key and build directory are those of the list without them.
BR_RUNTIMES ?= 0
BR_RT = $(filter 1,$(BR_RUNTIMES))
BR = $(B)/bench-real$(if $(BR_RT),-rt)
BR_PKGS = python3 git sqlite3 tar findutils coreutils make gcc libc6-dev strace util-linux \
	$(BR_COMPAT_PKGS) $(if $(BR_RT),ripgrep fd-find gdu nodejs openjdk-17-jre-headless)
# What tests/compat.sh runs sysshim beside (make check-compat): the Debian packages that
# interpose the stat family, libseccomp for its filters, and iproute2 for the loopback
# that fakeroot-tcp's daemon listens on (testbed/bench-real/init).
BR_COMPAT_PKGS = fakeroot pseudo fakechroot faketime umockdev checkinstall libuid-wrapper libseccomp2 \
	iproute2 libc6-i386
BR_KEY := $(shell echo "bookworm minbase 1 $(strip $(BR_PKGS))" | sha256sum | cut -c1-12)
BR_ROOT = $(CACHE)/bench-real/rootfs-$(BR_KEY)
BR_GLIBC ?= $(CACHE)/upstream/glibc/build
BR_ROUNDS ?= 5
BR_TRUE ?= 10
BR_SRC = testbed/bench-real
# BR_W=w1,w2: only these workloads (guest.sh's names).
BR_W ?=
BR_ARGS = $(if $(BR_RT),BRRT=1) $(if $(BR_W),BRW=$(BR_W))
# Time in the guest counts instructions (qemu -icount shift=0: 1 ns each), so that the
# rounds agree on a loaded shared machine; BR_QEMU_OPTS= for wall-clock time under TCG.
BR_QEMU_OPTS ?= -icount shift=0
export BR_QEMU_OPTS
PKGS_BENCH_REAL = mmdebstrap cpio qemu-system-x86 gcc libc6-dev python3 coreutils binutils libc6-dbg \
	libseccomp-dev \
	$(if $(BR_RT),openjdk-17-jdk-headless)

# sysshim-run's tests (tests/run.sh) are part of check-host; they run Go programs from
# Debian (gdu, dynamically linked with cgo; shfmt, static) that it must step aside for.
HOST_SCRIPTS += tests/run.sh
PKGS_CHECK += gdu shfmt

CHECK_PARTS += check-real

deps-bench-real:
	@tools/need $(PKGS_BENCH_REAL)

br-rootfs: deps-bench-real
	@$(call CACHE_LOCK,bench-real) $(BR_SRC)/mkrootfs.sh $(BR_ROOT) $(BR_PKGS)

# The overlay: /init, the runner, the timer, the workloads, sysshim (built here), the floor
# preload (mk/quality.mk), put where the library is put, at a path of the same length
# (/opt/shfloor/lib/libshfloor.so.0: the environment's length changes ld.so's work), and,
# when it is built, the backport's libc.so.6 and ld.so.
$(BR)/brtime: $(BR_SRC)/brtime.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<

$(BR)/bpmount: $(BR_SRC)/bpmount.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<

# The Java workload (BR_RUNTIMES=1), compiled on the host for the guest's Java 17.
$(BR)/java/JFiles.class: $(BR_SRC)/w/java/JFiles.java
	@mkdir -p $(dir $@)
	javac --release 17 -d $(dir $@) $<

# tests/compat.sh and its helper programs, built here for the guest's Debian 12.
$(BR)/compat-bin/.built: tests/compat.sh $(wildcard tests/compat/*.c) $(B)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	@B=$(B) HELP=$(abspath $(dir $@)) COMPAT_BUILD_ONLY=1 sh tests/compat.sh && touch $@

# tests/roots.sh's programs (musl, i386, AddressSanitizer) and tests/tsync.sh's race, built
# here too; the wrappers' table (tests/check_wrappers.c; see BR_WRAPPERS); the musl
# loader the musl program names, from this host's musl (the root has no musl package),
# put at /usr/lib, where /lib leads.
$(BR)/roots-bin/.built: tests/roots.sh $(wildcard tests/preload/*.c) tests/tsync.sh tests/tsync/race.c
	@mkdir -p $(dir $@)
	@B=$(B) HELP=$(abspath $(dir $@)) ROOTS_BUILD_ONLY=1 sh tests/roots.sh && \
		B=$(B) TSYNC_BIN=$(abspath $(dir $@))/race TSYNC_BUILD_ONLY=1 sh tests/tsync.sh && touch $@
BR_MUSL_LD = /lib/ld-musl-x86_64.so.1
# The wrappers' table linked dynamically: its check that filters apply asks dlsym for the
# C library's syscall(), which a static program has not; with it goes the host's
# libsubunit.so.0 (Check itself is linked in; the host is Debian 12 as the root is).
BR_WRAPPERS = $(B)/tests/check_wrappers

br-overlay: deps-bench-real all $(BR)/brtime $(BR)/bpmount floor $(BR)/compat-bin/.built \
	$(BR)/roots-bin/.built $(BR_WRAPPERS) \
	$(if $(BR_RT),$(BR)/java/JFiles.class)
	@rm -rf $(BR)/overlay && mkdir -p $(BR)/overlay/opt/bench/w $(BR)/overlay/opt/sysshim/bin \
		$(BR)/overlay/opt/sysshim/lib $(BR)/overlay/opt/shfloor/lib
	@cp $(BR_SRC)/init $(BR)/overlay/init && chmod 755 $(BR)/overlay/init
	@cp $(BR_SRC)/guest.sh $(BR)/brtime $(BR)/bpmount $(BR)/overlay/opt/bench/
	@cp -r $(BR_SRC)/w/* $(BR)/overlay/opt/bench/w/
	@mkdir -p $(BR)/overlay/opt/bench/compat && cp tests/compat.sh $(BR)/overlay/opt/bench/ && \
		cp tests/compat/*.sh $(BR)/overlay/opt/bench/compat/ && cp -r $(BR)/compat-bin $(BR)/overlay/opt/bench/
	@cp tests/roots.sh tests/tsync.sh $(BR_WRAPPERS) $(BR)/overlay/opt/bench/ && \
		cp -r $(BR)/roots-bin $(BR)/overlay/opt/bench/ && mkdir -p $(BR)/overlay/usr/lib && \
		cp -L $(BR_MUSL_LD) $(BR)/overlay/usr/lib/ && mkdir -p $(BR)/overlay/usr/lib/x86_64-linux-gnu && \
		cp -L $$(ldd $(BR_WRAPPERS) | sed -n 's|.*libsubunit[^ ]* => \([^ ]*\) .*|\1|p') \
			$(BR)/overlay/usr/lib/x86_64-linux-gnu/
	@$(if $(BR_RT),cp $(BR)/java/JFiles.class $(BR)/overlay/opt/bench/w/java/,rm -rf $(BR)/overlay/opt/bench/w/java $(BR)/overlay/opt/bench/w/nodefs.js)
	@cp $(B)/bin/sysshim-run $(B)/bin/sysshim-probe $(BR)/overlay/opt/sysshim/bin/
	@cp $(B)/lib/$(SONAME) $(BR)/overlay/opt/sysshim/lib/
	@cp $(FLOOR) $(BR)/overlay/opt/shfloor/lib/
	@if [ -f $(BR_GLIBC)/libc.so.6 ] && [ -f $(BR_GLIBC)/elf/ld.so ]; then \
		mkdir -p $(BR)/overlay/opt/glibc-backport && \
		cp -L $(BR_GLIBC)/libc.so.6 $(BR)/overlay/opt/glibc-backport/libc.so.6 && \
		cp -L $(BR_GLIBC)/elf/ld.so $(BR)/overlay/opt/glibc-backport/ld-linux-x86-64.so.2 && \
		echo "bench-real: the glibc backport from $(BR_GLIBC)"; \
	else echo "bench-real: no glibc backport in $(BR_GLIBC) (make check-upstream-glibc builds it): that column is left out"; fi
	@(cd $(BR)/overlay && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > $(BR)/overlay.cpio
	@cat $(BR_ROOT)/root.cpio $(BR)/overlay.cpio > $(BR)/initrd.cpio.tmp && mv $(BR)/initrd.cpio.tmp $(BR)/initrd.cpio
	@echo "bench-real: $(BR)/initrd.cpio ($$(du -m $(BR)/initrd.cpio | cut -f1) MB)"

br-prep: br-rootfs tb-fetch-kernel tb-fetch-kernel-6.12
	@$(MAKE) --no-print-directory br-overlay

# KERNELS: label=vmlinuz pairs; BR_EXTRA_KERNELS adds more (e.g. a patched 6.1).
BR_KERNELS = 6.1=$(TB_DL)/kernel/vmlinuz 6.12=$(TB_K612)/vmlinuz $(BR_EXTRA_KERNELS)

# BR_STRACE=1 adds the strace round (syscall counts and call sites; slow under TCG, and not
# timed to the end yet) on the first kernel: the counts are the same userspace's on every kernel;
# with BR_RUNTIMES=1, on the second the other runtimes' counts again (glibc alone and the
# preload: BRSTRACE=2).
BR_STRACE ?= 0
# The kernel series (kernel-patches/linux-6.1, patches 1-4) on Debian's configuration, booted
# last with stock glibc (glibc alone and sysshim-run), when it is built: make
# kernel-patches-build KCONFIG=debian (about an hour, cached in $(KP_DEBIAN_DIR)).
BR_KP = $$([ -f $(KP_DEBIAN_DIR)/src/.unpacked ] && env KP_BUILD='$(KP_DEBIAN_DIR)' KP_KCONFIG=debian \
	$(KP_SCRIPT) vimage p1234 2>/dev/null | tail -1)
bench-real: br-prep
	@ks="$(BR_KERNELS)"; kp=$(BR_KP); if [ -n "$$kp" ] && [ -f "$$kp" ]; then ks="$$ks 6.1-patched=$$kp"; \
	else echo "bench-real: no patched 6.1 kernel (make kernel-patches-build KCONFIG=debian builds it): that boot is left out"; fi; \
	fail=0; st=$(BR_STRACE); for kv in $$ks; do k=$${kv%%=*}; set=; \
		[ $$k = 6.1-patched ] && set=BRSETUPS=glibc,auto; \
		$(BR_SRC)/run.sh bench $${kv#*=} $(BR)/initrd.cpio $(BR)/bench-$$k BRROUNDS=$(BR_ROUNDS) \
			BRTRUE=$(BR_TRUE) BRSTRACE=$$st $$set $(BR_ARGS) || fail=1; \
		[ $$st = 1 ] && [ -n "$(BR_RT)" ] && st=2 || st=0; \
	done; python3 $(BR_SRC)/report.py bench $$(for kv in $$ks; do echo $${kv%%=*}=$(BR)/bench-$${kv%%=*}/results.txt; done) \
		| tee $(BR)/report.txt || fail=1; exit $$fail

# check-real's limit per boot: run.sh's default (300 s); 900 s with the runtimes (a root twice
# the size, 18 more runs).
BR_CHECK_TIMEOUT ?= $(if $(BR_RT),900)
check-real: br-prep
	@fail=0; $(if $(BR_CHECK_TIMEOUT),export BR_TIMEOUT=$${BR_TIMEOUT:-$(BR_CHECK_TIMEOUT)};) \
	for kv in 6.1=$(TB_DL)/kernel/vmlinuz 6.12=$(TB_K612)/vmlinuz; do k=$${kv%%=*}; \
		$(BR_SRC)/run.sh check $${kv#*=} $(BR)/initrd.cpio $(BR)/check-$$k BRROUNDS=1 BRTRUE=3 $(BR_ARGS) || fail=1; \
	done; python3 $(BR_SRC)/report.py check 6.1=$(BR)/check-6.1/results.txt 6.12=$(BR)/check-6.12/results.txt \
		|| fail=1; exit $$fail

# tests/compat.sh in the bed, booted on Debian's 6.1 and Debian 11's 5.10, the kernels
# where sysshim-run's auto mode preloads (make check-host runs it on the host), then
# tests/roots.sh (but valgrind), tests/tsync.sh, the wrappers' table and a tracer that
# kills fstat (testbed/bench-real/guest.sh, mode compat); each one's summary line must
# read "N passed, 0 failed" on both kernels (a missing line fails too).
CHECK_PARTS += check-compat
HOST_SCRIPTS += tests/compat.sh
PKGS_CHECK += $(BR_COMPAT_PKGS) libseccomp-dev dpkg
check-compat: br-prep tb-fetch-kernel-5.10
	@fail=0; for kv in 6.1=$(TB_DL)/kernel/vmlinuz 5.10=$(TB_K510)/vmlinuz; do k=$${kv%%=*}; \
		$(BR_SRC)/run.sh compat $${kv#*=} $(BR)/initrd.cpio $(BR)/compat-$$k || fail=1; \
		sed -n 's/^CO //p' $(BR)/compat-$$k/results.txt > $(BR)/compat-$$k/compat.txt; \
		grep -E '^  FAIL|^  skip|^       ' $(BR)/compat-$$k/compat.txt | head -40; \
		for t in compat roots tsync wrappers tracer; do \
			r=$$(grep "^$$t: [0-9]* passed, [0-9]* failed" $(BR)/compat-$$k/compat.txt | tail -1); \
			echo "$$t-$$k: $${r#$$t: }"; \
			case $$r in *' passed, 0 failed') ;; *) fail=1 ;; esac; \
		done; \
	done; exit $$fail

bench-real-native: deps-bench-real all $(BR)/brtime floor
	@$(BR_SRC)/native.sh $(B) $(BR) $(FLOOR)

# The runtimes' stat calls on this host, by kind, alone, under LD_PRELOAD and sysshim-run
# (strace -f; what is installed of ripgrep, fd-find, gdu, nodejs, java, python3). Not in make
# check; about a minute.
bench-real-host-counts: all
	@tools/need strace
	@$(BR_SRC)/host-counts.sh $(B) $(B)/bench-real-host-counts | tee $(B)/bench-real-host-counts.txt

.PHONY: deps-bench-real br-rootfs br-overlay br-prep bench-real check-real check-compat bench-real-native \
	bench-real-host-counts
