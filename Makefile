# sysshim. `make` builds for the host; see README.md for the rest.

B ?= build
CONFIG ?= config.mak
# Downloads and long builds (kernels, chroots, libcs) live outside the clone, keyed by
# their inputs, so that a fresh clone (CI's) reuses them: SYSSHIM_CACHE or CACHE= moves it.
CACHE ?= $(or $(SYSSHIM_CACHE),/var/cache/sysshim)
# Cache steps take a lock of their own (flock), so two runs never fill one entry at once.
CACHE_LOCK = mkdir -p $(CACHE) && flock -o $(CACHE)/.lock-$(1)
-include $(CONFIG)

ARCH ?= x86_64
HOSTED ?= yes
SHARED ?= yes
STATIC ?= yes
CC ?= cc
AR ?= ar
RANLIB ?= ranlib
READELF ?= readelf
CFLAGS ?= -O2 -g
prefix ?= /usr/local
libdir ?= $(prefix)/lib
includedir ?= $(prefix)/include
bindir ?= $(prefix)/bin
mandir ?= $(prefix)/share/man
DESTDIR ?=
PREFIX ?=
ifneq ($(PREFIX),)
prefix := $(PREFIX)
endif

VERSION = 0.1.0
SONAME = libsysshim.so.0

LIB_SRCS = $(sort $(wildcard src/*/*.c))
LIB_OBJS = $(LIB_SRCS:%.c=$(B)/obj/%.o)
# What only a preloaded library needs (src/exec/: the exec family and posix_spawn, which
# leave the library out of LD_PRELOAD where the program would not load it): not in
# libsysshim.a, whose code sits inside a program that is not preloaded.
SO_ONLY_OBJS = $(filter $(B)/obj/src/exec/%,$(LIB_OBJS))
A_OBJS = $(filter-out $(SO_ONLY_OBJS),$(LIB_OBJS))
# The library's own headers: arch/<arch>/ first, arch/generic/ for what an arch does not
# have of its own (as musl does), src/internal/ (the lowest layer), src/ (a layer's
# header by its folder: "stat/fstat.h"), the public header.
SRC_INC = -Iarch/$(ARCH) -Iarch/generic -Isrc/internal -Isrc -Iinclude
LIB_CFLAGS = -std=c11 -ffreestanding -fPIC -fvisibility=hidden -fno-stack-protector \
	-Wall -Wextra -Wno-unused-parameter $(SRC_INC) $(CFLAGS)

LIBS-$(STATIC) += $(B)/lib/libsysshim.a
LIBS-$(SHARED) += $(B)/lib/libsysshim.so
TOOLS-yes = $(B)/bin/sysshim-probe $(B)/bin/sysshim-run
TOOLS = $(TOOLS-$(HOSTED))

# Every part of `make check` adds itself here (mk/*.mk); check-host comes first.
CHECK_PARTS = check-host
# The parts only `make check-all` runs (mk/upstream.mk, mk/kernel-patches.mk).
CHECK_MORE =
# Debian packages each part needs; tools/need installs the missing ones.
PKGS_BUILD = gcc make libc6-dev
PKGS_CHECK = check pkg-config strace valgrind musl-tools git python3 findutils coreutils binutils

all: $(LIBS-yes) $(TOOLS)

lib: $(LIBS-yes)

$(CONFIG):
	./configure

# Every compile writes its dependency file (-MMD -MP): a header edit rebuilds exactly
# what includes it. DEPFLAGS names the file after the target.
DEPFLAGS = -MMD -MP -MF $@.d -MT $@

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/lib/libsysshim.a: $(A_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rc $@ $(A_OBJS)
	$(RANLIB) $@

# -nostartfiles: the library has no initializer of its own to run, and the C runtime's
# start files would add one and four symbols for ld.so to look up in every process it is
# preloaded into (make check-proc-cost counts them).
$(B)/lib/$(SONAME): $(LIB_OBJS) src/sysshim.map
	@mkdir -p $(dir $@)
	$(CC) -shared -nostartfiles -Wl,-soname,$(SONAME) -Wl,--version-script=src/sysshim.map -Wl,-z,defs \
		$(LDFLAGS) -o $@ $(LIB_OBJS)

$(B)/lib/libsysshim.so: $(B)/lib/$(SONAME)
	ln -sf $(SONAME) $@

$(B)/bin/sysshim-probe: programs/sysshim-probe.c $(B)/lib/libsysshim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wall -Iinclude $(DEPFLAGS) -o $@ $< $(B)/lib/libsysshim.a

# sysshim-run runs before every command it wraps, so it loads nothing: a static PIE with no
# libc (the library's raw syscalls, the runtime the library shares, src/internal/rt.c, and
# arch/$(ARCH)/crt_arch.h) and no relocations, which the link is checked for (nothing would
# apply them). The libdir it looks in is compiled in: $(B)/run-libdir remembers it, so
# `make install libdir=...` rebuilds it. No sanitizer, no stack protector (both call into a
# libc), no fortify (no libc headers): the flags are RUN_CFLAGS and what else CFLAGS holds.
# Each source is compiled apart, into $(B)/runobj/ (with its dependency file), then linked.
RUN_CFLAGS = -std=c11 -ffreestanding -fPIE -fvisibility=hidden -fno-stack-protector -ffunction-sections \
	$(if $(findstring clang,$(CC)),,-fno-tree-loop-distribute-patterns) -Wall -Wextra -Wno-unused-parameter $(SRC_INC) \
	$(filter-out -fsanitize% -fno-sanitize% -fstack-protector% -D_FORTIFY_SOURCE% -Wdate-time,$(CFLAGS))
RUN_DEFS = -DSYSSHIM_LIBDIR='"$(libdir)"' -DSYSSHIM_SONAME='"$(SONAME)"' -DSYSSHIM_VERSION='"$(VERSION)"'
RUN_SRCS = $(sort $(wildcard programs/sysshim-run/*.c)) src/internal/rt.c src/internal/seccomp.c
RUN_OBJS = $(RUN_SRCS:%.c=$(B)/runobj/%.o)
$(B)/run-libdir: FORCE
	@mkdir -p $(dir $@) && echo '$(libdir)' | cmp -s - $@ || echo '$(libdir)' > $@

$(B)/runobj/%.o: %.c $(B)/run-libdir
	@mkdir -p $(dir $@)
	$(CC) $(RUN_CFLAGS) $(RUN_DEFS) $(DEPFLAGS) -c -o $@ $<

$(B)/bin/sysshim-run: $(RUN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(RUN_CFLAGS) -nostdlib -static-pie -Wl,-z,relro,-z,now,-z,noexecstack,--gc-sections -o $@.tmp \
		$(RUN_OBJS)
	@if $(READELF) -rW $@.tmp | grep -q 'R_'; then \
		echo "sysshim-run: it has relocations, and nothing would apply them:"; \
		$(READELF) -rW $@.tmp; rm -f $@.tmp; exit 1; fi
	@mv $@.tmp $@

# The manual pages, man/NAME.SECTION, to $(mandir)/manSECTION; man/links: aliases (symlinks).
MAN_PAGES = $(sort $(wildcard man/*.[1-8]))
MAN_SEC = $(subst .,,$(suffix $(m)))

# sysshim.pc names the install directories: written at install time (sysshim-run has
# libdir compiled in).
install: all
	install -d $(DESTDIR)$(libdir) $(DESTDIR)$(includedir) $(DESTDIR)$(bindir) \
		$(DESTDIR)$(libdir)/pkgconfig
	install -m 644 include/sysshim.h $(DESTDIR)$(includedir)/
	$(if $(filter yes,$(STATIC)),install -m 644 $(B)/lib/libsysshim.a $(DESTDIR)$(libdir)/)
	$(if $(filter yes,$(SHARED)),install -m 755 $(B)/lib/$(SONAME) $(DESTDIR)$(libdir)/ && \
		ln -sf $(SONAME) $(DESTDIR)$(libdir)/libsysshim.so)
	$(if $(filter yes,$(HOSTED)),install -m 755 $(B)/bin/sysshim-probe $(B)/bin/sysshim-run \
		$(DESTDIR)$(bindir)/)
	sed -e 's|@PREFIX@|$(prefix)|g' -e 's|@LIBDIR@|$(libdir)|g' \
		-e 's|@INCLUDEDIR@|$(includedir)|g' -e 's|@VERSION@|$(VERSION)|g' \
		sysshim.pc.in > $(DESTDIR)$(libdir)/pkgconfig/sysshim.pc
	$(foreach m,$(MAN_PAGES),install -d $(DESTDIR)$(mandir)/man$(MAN_SEC) && \
		install -m 644 $(m) $(DESTDIR)$(mandir)/man$(MAN_SEC)/ &&) true
	$(if $(wildcard man/links),grep -v '^#' man/links | while read page alias; do \
		ln -sf $$page $(DESTDIR)$(mandir)/man$${page##*.}/$$alias || exit 1; done)

deps-build:
	@tools/need $(PKGS_BUILD)

deps-check:
	@tools/need $(PKGS_BUILD) $(PKGS_CHECK)

include $(sort $(wildcard mk/*.mk))
# The dependency files written so far (none before the first build); mk/*.mk add theirs.
# (A $(B)/bin/sysshim-run.d is a single-file sysshim-run's, left over: not read.)
DEP_FILES += $(wildcard $(B)/obj/src/*/*.d $(B)/bin/sysshim-probe.d $(B)/runobj/*/*/*.d)
-include $(DEP_FILES)

# The order the parts run in (tools/check-parts.sh): each part's inputs are built by the
# warm job beside (mk/cache.mk) while the parts before it run.
CHECK_ORDER = check-host check-mutants check-targets check-deb check-asan check-valgrind bench-insn check-proc-cost check-fuzz check-kernel \
	check-kernel-5.10 check-kernel-6.12 check-kernel-arm64 check-real check-compat check-cross check-kernel-la64 \
	check-kernel-patches
CHECK_RUN = $(filter $(CHECK_PARTS),$(CHECK_ORDER)) $(filter-out $(CHECK_ORDER),$(CHECK_PARTS))
# `make check-all` adds the parts that build a libc or two more kernels (mk/upstream.mk,
# mk/kernel-patches.mk): cheapest first.
CHECK_MORE_ORDER = check-upstream-musl check-upstream-glibc check-kernel-patches-arm64 \
	check-upstream-glibc-la64
CHECK_MORE_RUN = $(filter $(CHECK_MORE),$(CHECK_MORE_ORDER)) $(filter-out $(CHECK_MORE_ORDER),$(CHECK_MORE))

# Every part runs, even after one fails (tools/check-parts.sh), with `make cache-warm` beside
# them filling the cache (mk/cache.mk), then in a second lane once the cache is filled
# (CHECK_LANES=1: one after the other); the end is a table of each part's minutes. Every
# Debian package any part needs is installed first, at once (two apt-gets at the same time
# would fight over dpkg's lock).
check: deps-all
	@sh tools/check-parts.sh $(B)/check $(CHECK_WARM) $(CHECK_RUN)

# CHECK_BUDGET=N (minutes) or CHECK_DEADLINE=EPOCH-SECONDS (.ci/run: 83 minutes after its
# start): a part of CHECK_MORE starts only before then and is stopped then; such a part is
# reported "not reached", not failed (a cold cache: its builds did not fit). The parts of
# `make check` always run.
CHECK_BUDGET ?=
check-all: deps-all
	@CHECK_BUDGET=$(CHECK_BUDGET) sh tools/check-parts.sh $(B)/check $(CHECK_WARM_ALL) $(CHECK_RUN) \
		-- $(CHECK_MORE_RUN)

deps-all:
	@tools/need $(sort $(PKGS_ALL))

clean:
	rm -rf $(B)

distclean: clean
	rm -f config.mak

.PHONY: all lib install clean distclean check check-all deps-build deps-check deps-all FORCE
FORCE:
