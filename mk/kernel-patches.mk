# Kernel patches (kernel-patches/linux-6.1/): build a stock and a
# patched Linux 6.1 from Debian's linux-source-6.1, boot both under
# qemu-system-x86_64 (TCG) with kernel-patches/test/kpatch-test.c as /init,
# compare.  The work is done by kernel-patches/build.sh; everything it makes
# is under $(CACHE)/kernel-patches/ (outside the clone, keyed by the series).  A clean run
# builds two kernels (build times: kernel-patches/README.md, "Measurements"); a second run
# is incremental.
#
#   make kernel-patches-build    bzImage-stock, bzImage-patched (make kernel-patches-arm64:
#                                the patched fs/stat.o compiled for arm64's defconfig)
#   make check-kernel-patches    build, boot both, pass/fail
#   make bench-kernel-patches    build, boot both, stock vs patched table
#   make kernel-patches-checkpatch   checkpatch.pl --strict on the series
#   make kernel-patches-boot KP_KERNEL=... KP_INITRD=... [KP_APPEND='K=V ...']
#   make kernel-patches-deps     apt-get install what is missing (root)
#   make kernel-patches-clean    remove $(CACHE)/kernel-patches
#
# Other configurations, with KCONFIG=debian or KCONFIG=arm64 (default: tiny):
#   make bench-kernel-patches KCONFIG=debian   Debian's own config-6.1.0-57-amd64 without
#       modules: stock, patches 1-3, patches 1-4 and Debian's binary kernel booted with
#       the patch test, the table and each patch's effect; $(CACHE)/kernel-patches-debian
#   make bench-kernel-patches KCONFIG=arm64    tinyconfig + arm64.fragment, stock and
#       patched under qemu-system-aarch64 -M virt -cpu max; $(CACHE)/kernel-patches-arm64
#   make kernel-patches-build KCONFIG=...      only build
#   make check-kernel-patches-arm64    the arm64 patch test, then the project's suites and
#       probe on both arm64 kernels (testbed/run-kernel.sh TB_ARCH=aarch64)
# Their compiles run under nice -n $(KP_NICE) (19): they soak up idle CPU only.
#
# Debian packages needed (kernel-patches-deps installs the missing ones):
KERNEL_PATCHES_DEBS = build-essential make flex bison bc perl python3 \
	libelf-dev libssl-dev cpio gzip xz-utils coreutils apt dpkg \
	qemu-system-x86 gcc-aarch64-linux-gnu

# Do not let this fragment choose the default goal of the top Makefile.
KP_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

# The top Makefile calls its build directory B; BUILD follows it.
BUILD ?= $(if $(B),$(B),build)
KP_BUILD_DIR = $(CACHE)/kernel-patches
KP_SCRIPT = kernel-patches/build.sh
KP_RUN = $(call CACHE_LOCK,kernel-patches) env KP_BUILD='$(KP_BUILD_DIR)' $(KP_SCRIPT)
KP_KERNEL ?= $(KP_BUILD_DIR)/bzImage-patched
KP_INITRD ?= $(KP_BUILD_DIR)/kpt-initramfs.cpio.gz
KP_APPEND ?= KPT_EXPECT=patched

kernel-patches-deps:
	$(KP_RUN) deps

kernel-patches-fetch:
	$(KP_RUN) deps fetch unpack

kernel-patches-apply:
	$(KP_RUN) deps fetch unpack patch

kernel-patches-checkpatch:
	$(KP_RUN) deps fetch unpack checkpatch

kernel-patches-build:
ifeq ($(filter-out tiny,$(KCONFIG)),)
	$(KP_RUN) build
else
	$(KP_VRUN) vbuild
endif

kernel-patches-arm64:
	$(KP_RUN) deps fetch unpack arm64

# The arm64 pair's builds alone (the warm job's step for check-kernel-patches-arm64).
kernel-patches-arm64-build:
	$(KP_VRUN_arm64) vbuild

kernel-patches-initramfs:
	$(KP_RUN) deps fetch unpack initramfs

kernel-patches-boot:
	$(KP_RUN) boot '$(KP_KERNEL)' '$(KP_INITRD)' $(KP_APPEND)

# Then the project's own suites and probe (the initramfs of `make check-kernel`) on both
# kernels: stock must refuse a NULL path, patched must accept it. The arm64 pair is
# check-kernel-patches-arm64 (below).
check-kernel-patches:
	$(KP_RUN) deps fetch unpack checkpatch check
	@$(MAKE) --no-print-directory tb-x86-static
	@$(MAKE) --no-print-directory $(TB)/x86_64/check.cpio.gz
	@for k in stock patched; do echo "kernel-patches: the project's suites on the $$k kernel"; \
		CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) TB_EXPECT=$$k testbed/run-kernel.sh check \
		'$(KP_BUILD_DIR)/bzImage-'$$k $(TB)/x86_64/check.cpio.gz \
		'$(KP_BUILD_DIR)/suites-'$$k || exit 1; done

bench-kernel-patches:
ifeq ($(filter-out tiny,$(KCONFIG)),)
	$(KP_RUN) bench
else
	$(KP_VRUN) vbench
endif

# ---- KCONFIG=debian and KCONFIG=arm64 (kernel-patches/build.sh v*): each fills its own
# cache directory under its own lock; both take the source trees (dl/, src/,
# patched-<stage>/) from $(KP_DEBIAN_DIR), under the lock $(KP_DEBIAN_DIR)/.lock-src that
# the script takes for the short fetch/unpack/patch steps.
KCONFIG ?=
KP_NICE ?= 19
KP_DEBIAN_DIR = $(CACHE)/kernel-patches-debian
KP_ARM64_DIR = $(CACHE)/kernel-patches-arm64
KP_VRUN_debian = $(call CACHE_LOCK,kernel-patches-debian) env KP_BUILD='$(KP_DEBIAN_DIR)' \
	KP_KCONFIG=debian KP_NICE='$(KP_NICE)' $(KP_SCRIPT)
KP_VRUN_arm64 = $(call CACHE_LOCK,kernel-patches-arm64) env KP_BUILD='$(KP_ARM64_DIR)' \
	KP_SRC_DIR='$(KP_DEBIAN_DIR)' KP_KCONFIG=arm64 KP_NICE='$(KP_NICE)' $(KP_SCRIPT)
KP_VRUN = $(if $(KP_VRUN_$(KCONFIG)),$(KP_VRUN_$(KCONFIG)),$(error KCONFIG=$(KCONFIG): tiny, debian or arm64))

# The project's static aarch64 suites and probe (make tb-aarch64) in an initramfs with
# tests/kernel/init.c, booted by testbed/run-kernel.sh on both arm64 kernels: the
# stock one must refuse a NULL path, the patched one accept it.
# (mk/testbed.mk comes after this file: its variables are used in recipes only.)
KP_A64_INIT = $(TB)/aarch64/kp-init
KP_A64_CPIO = $(TB)/aarch64/kp-check.cpio.gz

check-kernel-patches-arm64:
	$(KP_VRUN_arm64) vbench
	@$(MAKE) --no-print-directory tb-aarch64
	@mkdir -p $(TB)/aarch64
	$(TB_A64_CC) -static -O2 -Wall -o $(KP_A64_INIT) tests/kernel/init.c
	testbed/mkinitramfs.sh $(KP_A64_CPIO) $(KP_A64_INIT) $(TB)/aarch64/sysshim-probe \
		$(TB_A64_SUITES:%=t:%)
	@r=0; for k in stock=stock p1234=patched; do \
		img=$$($(KP_VRUN_arm64) vimage $${k%%=*} | tail -1); \
		echo "kernel-patches: the project's suites on the arm64 $${k%%=*} kernel ($$img)"; \
		TB_ARCH=aarch64 TB_CPU=max,pauth-impdef=on TB_EXPECT=$${k#*=} \
		TB_NAME=kernel-patches-arm64-$${k#*=} CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) \
		testbed/run-kernel.sh check $$img $(KP_A64_CPIO) \
		'$(KP_ARM64_DIR)/suites-'$${k#*=} || r=1; done; exit $$r

kernel-patches-clean:
	rm -rf '$(KP_BUILD_DIR)'

.PHONY: kernel-patches-deps kernel-patches-fetch kernel-patches-apply \
	kernel-patches-checkpatch kernel-patches-build kernel-patches-arm64 \
	kernel-patches-initramfs kernel-patches-boot check-kernel-patches \
	bench-kernel-patches kernel-patches-clean check-kernel-patches-arm64 kernel-patches-arm64-build

# `make check` runs the x86_64 pair (two kernel builds, the second on the first one's
# objects, done by the warm job beside the parts; their minutes: docs/testing.md, "What
# the parts cost"); `make check-all` the arm64 pair too. KERNEL_PATCHES_CHECK=no leaves
# both out.
ifneq ($(KERNEL_PATCHES_CHECK),no)
CHECK_PARTS += check-kernel-patches
CHECK_MORE += check-kernel-patches-arm64
endif

.DEFAULT_GOAL := $(KP_SAVED_DEFAULT_GOAL)
