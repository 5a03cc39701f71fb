# What `make check` installs first, and fills beside its parts (tools/check-parts.sh).
#
#   make deps-all     every Debian package a part of `make check` needs, in one apt-get
#   make cache-warm   the cache entries the parts need, in the order they need them: the
#                     downloads, then the long builds (kernels, chroots, libcs); each step
#                     under its entry's lock, so a part that needs one waits for it
# CHECK_WARM=none leaves the warm job out (the parts then build what they need themselves).

PKGS_ALL = $(PKGS_BUILD) $(PKGS_CHECK) $(PKGS_TARGETS) $(PKGS_DEB) $(PKGS_TESTBED) \
	$(PKGS_BENCH_REAL) $(KERNEL_PATCHES_DEBS) $(PKGS_UPSTREAM)
CHECK_WARM ?= cache-warm
CACHE_WARM_STEPS = testbed-fetch tb-fetch-kernels tb-fetch-kernel-5.10 tb-fetch-kernel-arm64 tb-fetch-la64-debian \
	br-rootfs tb-la64-kernel-old

cache-warm:
	@for t in $(CACHE_WARM_STEPS); do echo "== cache-warm: make $$t"; \
		$(MAKE) --no-print-directory $$t || echo "== cache-warm: make $$t FAILED"; done

.PHONY: cache-warm
