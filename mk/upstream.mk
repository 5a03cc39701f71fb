# mk/upstream.mk: the upstream proposals, built and tested.
#
#   make check-upstream        everything below
#   make check-upstream-musl   musl 1.2.6: patch series, x86_64 + loongarch64
#                              builds (patched and unpatched), tests under
#                              qemu-loongarch64 7.2 and 10.0 and natively
#   make check-upstream-glibc  Debian glibc 2.36-9+deb12u14 + fstat backport:
#                              build of libc alone (make lib support/others),
#                              io/tst-stat, io/tst-fstatat,
#                              static fstat-bench with strace check
#   make check-upstream-glibc-la64  glibc 2.43 (Debian's source package) + statx
#                              NULL-path series for loongarch64 (below; its
#                              times: upstream/glibc-loongarch64/README.md)
#
# Downloads, source trees and builds are cached under $(CACHE)/upstream/;
# stamps make reruns cheap.  The Debian packages needed are installed with
# apt-get install -y (the list is printed); a missing tool fails the target.
# Results: $(CACHE)/upstream/musl/results/summary.txt,
#          $(CACHE)/upstream/glibc/results/{io-tests,strace,bench}.txt,
#          build times in $(CACHE)/upstream/musl/times.txt and
#          $(CACHE)/upstream/glibc/build/times.

BUILD ?= build
# The Debian packages upstream/scripts/tools.sh installs (make deps-all installs them first).
PKGS_UPSTREAM = quilt clang-19 lld-19 llvm-16 qemu-user gawk bison python3 gcc make patch strace \
	xz-utils tar gzip dpkg binutils libc6-dev git debootstrap

UPSTREAM_TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
UPSTREAM_DIR := $(abspath $(CACHE))/upstream
UPSTREAM_ENV = $(call CACHE_LOCK,upstream) env UP=$(UPSTREAM_DIR) TOP=$(UPSTREAM_TOP)
UPSTREAM_SH  := $(UPSTREAM_TOP)/upstream/scripts

.PHONY: check-upstream check-upstream-musl check-upstream-glibc upstream-tools \
	upstream-musl-build upstream-glibc-build upstream-glibc-la64-build

check-upstream: check-upstream-musl check-upstream-glibc check-upstream-glibc-la64

# `make check-all` runs each as a part of its own (CHECK_MORE): musl's four builds,
# glibc's libc alone ('make lib' and support/others), the loongarch64 glibc a Debian 13
# chroot and two cross builds (their minutes: docs/testing.md, "What the parts cost").
CHECK_MORE += check-upstream-musl check-upstream-glibc check-upstream-glibc-la64

upstream-tools:
	$(UPSTREAM_SH)/tools.sh

# The builds alone (the warm job's steps, mk/cache.mk), then the tests.
upstream-musl-build: upstream-tools
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/musl.sh fetch
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/musl.sh build x86_64 orig
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/musl.sh build x86_64 patched
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/musl.sh build loongarch64 orig
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/musl.sh build loongarch64 patched

check-upstream-musl: upstream-musl-build
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/musl.sh test

upstream-glibc-build: upstream-tools
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/glibc.sh fetch
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/glibc.sh build

check-upstream-glibc: upstream-glibc-build
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/glibc.sh test
	$(UPSTREAM_ENV) $(UPSTREAM_SH)/glibc.sh bench
	@$(MAKE) --no-print-directory tb-fetch-kernel $(TB)/x86_64/init $(TB)/x86_64/sysshim-probe
	$(UPSTREAM_SH)/glibc-kernel.sh $(TB) $(UPSTREAM_DIR)/glibc $(TB_DL)/kernel/vmlinuz

# ---- glibc for loongarch64: fstat through statx(fd, NULL, AT_EMPTY_PATH), probed once
# (upstream/glibc-loongarch64/README.md).
#   make check-upstream-glibc-la64   a Debian 13 chroot with the loong64 cross tool chain
#        (debootstrap from the system's apt mirror, $(CACHE)/chroot-trixie-<hash>), glibc
#        stock and patched cross builds (build-{stock,patched} in $(GLA64_DIR); the
#        patched one incremental from a copy of the stock one), io/tst-stat,
#        io/tst-fstatat, io/tst-statx and the new test under qemu-user 7.2 and 10.0 with
#        qemu -strace evidence, then booted on the test bed's two LoongArch kernels
#        (tb-la64-kernels: Debian sid's own loong64 kernel, and 6.12 built here without
#        the 6.11 NULL-path support) with a
#        ptrace trace and the fstat benchmark.  Results: $(GLA64_DIR)/results/.
#   GLA64_SOURCE=debian (default): glibc $(GLA64_GLIBC) from the upstream tarball of Debian's
#        glibc source package in sid (glibc_2.43.orig.tar.xz: the release without manual/,
#        sha256 pinned in the script), fetched with apt-get source --download-only through a
#        private deb-src apt config (upstream/scripts/apt-private.sh; /etc/apt untouched),
#        with the one Debian patch the tree needs to build (local-remove-manual.diff) and
#        none of the others.  Cache $(CACHE)/glibc-la64-debian, keyed by version, sha256 and
#        that patch.  How long that takes, empty and cached: upstream/glibc-loongarch64/README.md,
#        "Results on glibc 2.43".
#   GLA64_SOURCE=master: glibc's master branch, 04e750e7 (the series' base), from a tarball that
#        only a git clone can make (glibc-la64.sh src-from-git; $(CACHE)/glibc-la64/src):
#        without it the target says how to make one.
GLA64_SOURCE ?= debian
GLA64_GLIBC ?= 2.43
GLA64_DIR := $(abspath $(CACHE))/glibc-la64$(if $(filter master,$(GLA64_SOURCE)),,-$(GLA64_SOURCE))
GLA64_RUN = $(call CACHE_LOCK,glibc-la64-$(GLA64_SOURCE)) env GL=$(GLA64_DIR) CACHE=$(abspath $(CACHE)) \
	GLA64_SOURCE=$(GLA64_SOURCE) GLA64_GLIBC=$(GLA64_GLIBC) \
	TOP=$(UPSTREAM_TOP) QEMU10=$(abspath $(TB_TRIXIE_BIN))/qemu-loongarch64 \
	KOLD=$(abspath $(TB_LA64_KOLD))/vmlinux KNEW=$(abspath $(TB_LA64_KDEB))/vmlinuz \
	LA64_QEMU=$(abspath $(TB_LA64_QEMU)) $(UPSTREAM_SH)/glibc-la64.sh

.PHONY: check-upstream-glibc-la64
upstream-glibc-la64-build: upstream-tools tb-fetch-trixie
	$(GLA64_RUN) src
	$(GLA64_RUN) build stock
	$(GLA64_RUN) build patched

check-upstream-glibc-la64: upstream-glibc-la64-build
	$(GLA64_RUN) qemu
	@$(MAKE) --no-print-directory tb-la64-kernels
	$(GLA64_RUN) kernel
