# What `make check` installs first, and fills beside its parts (tools/check-parts.sh).
#
#   make deps-all        every Debian package a part of `make check-all` needs, in one apt-get
#   make cache-warm      the cache entries the parts of `make check` need, in the order they
#                        need them: the downloads, then the long builds (kernels, chroots);
#                        each step under its entry's lock, so a part that needs one waits for it
#   make cache-warm-all  the same, then the entries of `make check-all`'s parts (libcs, the
#                        arm64 kernel-patches pair)
# CHECK_WARM=none leaves the warm job out (the parts then build what they need themselves).

PKGS_ALL = $(PKGS_BUILD) $(PKGS_CHECK) $(PKGS_TARGETS) $(PKGS_DEB) $(PKGS_TESTBED) \
	$(PKGS_BENCH_REAL) $(KERNEL_PATCHES_DEBS) $(PKGS_UPSTREAM)
CHECK_WARM ?= cache-warm
CHECK_WARM_ALL ?= $(if $(filter none,$(CHECK_WARM)),none,cache-warm-all)
CACHE_WARM_STEPS = testbed-fetch tb-fetch-kernels tb-fetch-kernel-5.10 tb-fetch-kernel-arm64 tb-la64-fetch \
	br-rootfs tb-la64-kernel-old kernel-patches-build
CACHE_WARM_MORE = upstream-musl-build upstream-glibc-build kernel-patches-arm64-build \
	upstream-glibc-la64-build

# CHECK_WARM_READY (a file; tools/check-parts.sh sets it) is touched once make check's
# entries are done, before check-all's: the parts' second lane starts there.
cache-warm cache-warm-all:
	@for t in $(CACHE_WARM_STEPS) ready $(if $(filter cache-warm-all,$@),$(CACHE_WARM_MORE)); do \
		if [ $$t = ready ]; then [ -z "$${CHECK_WARM_READY:-}" ] || touch "$$CHECK_WARM_READY"; continue; fi; \
		echo "== cache-warm: make $$t"; \
		$(MAKE) --no-print-directory $$t || echo "== cache-warm: make $$t FAILED"; done

.PHONY: cache-warm cache-warm-all
