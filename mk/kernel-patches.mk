# Kernel patches (kernel-patches/linux-6.1/, issue 5): build a stock and a
# patched Linux 6.1 from Debian's linux-source-6.1, boot both under
# qemu-system-x86_64 (TCG) with kernel-patches/test/kpatch-test.c as /init,
# compare.  The work is done by kernel-patches/build.sh; everything it makes
# is under $(CACHE)/kernel-patches/ (outside the clone, keyed by the series).  A clean run takes 15 - 20 minutes on
# 2 cores (two kernel builds); a second run is incremental.
#
#   make kernel-patches-build    bzImage-stock, bzImage-patched, arm64 fs/stat.o
#   make check-kernel-patches    build, boot both, pass/fail
#   make bench-kernel-patches    build, boot both, stock vs patched table
#   make kernel-patches-checkpatch   checkpatch.pl --strict on the series
#   make kernel-patches-boot KP_KERNEL=... KP_INITRD=... [KP_APPEND='K=V ...']
#   make kernel-patches-deps     apt-get install what is missing (root)
#   make kernel-patches-clean    remove $(CACHE)/kernel-patches
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
	$(KP_RUN) build

kernel-patches-arm64:
	$(KP_RUN) deps fetch unpack arm64

kernel-patches-initramfs:
	$(KP_RUN) deps fetch unpack initramfs

kernel-patches-boot:
	$(KP_RUN) boot '$(KP_KERNEL)' '$(KP_INITRD)' $(KP_APPEND)

# Then the project's own suites and probe (the initramfs of `make check-kernel`) on both
# kernels: stock must refuse a NULL path, patched must accept it.
check-kernel-patches:
	$(KP_RUN) deps fetch unpack checkpatch check
	@$(MAKE) --no-print-directory tb-x86-static
	@$(MAKE) --no-print-directory $(TB)/x86_64/check.cpio.gz
	@for k in stock patched; do echo "kernel-patches: the project's suites on the $$k kernel"; \
		CK_DEFAULT_TIMEOUT=$(TB_CK_TIMEOUT) TB_EXPECT=$$k tools/testbed/run-kernel.sh check \
		'$(KP_BUILD_DIR)/bzImage-'$$k $(TB)/x86_64/check.cpio.gz \
		'$(KP_BUILD_DIR)/suites-'$$k || exit 1; done

bench-kernel-patches:
	$(KP_RUN) bench

kernel-patches-clean:
	rm -rf '$(KP_BUILD_DIR)'

.PHONY: kernel-patches-deps kernel-patches-fetch kernel-patches-apply \
	kernel-patches-checkpatch kernel-patches-build kernel-patches-arm64 \
	kernel-patches-initramfs kernel-patches-boot check-kernel-patches \
	bench-kernel-patches kernel-patches-clean

# `make check` runs it (two kernel builds: about 10 minutes on an idle 2-core machine);
# KERNEL_PATCHES_CHECK=no leaves it out of a local run.
ifneq ($(KERNEL_PATCHES_CHECK),no)
CHECK_PARTS += check-kernel-patches
endif

.DEFAULT_GOAL := $(KP_SAVED_DEFAULT_GOAL)
