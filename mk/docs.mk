# The build's surface and the docs held to the tree:
#
#   make help              the targets a user and a contributor need, one line each, grouped
#   make help-all          every other target: the steps those are made of
#   make check-doc-names   every name of code and every path the docs write exists in the tree
#                          (tools/check-doc-names.sh, also run alone; in make check-host)

# The code names the system's headers define count as names (libc6-dev brings both).
PKGS_CHECK += linux-libc-dev
HOST_SCRIPTS += tools/check-doc-names.sh

check-doc-names:
	@sh tools/check-doc-names.sh

# One line a target: "make TARGET" and what it does. help-all lists the phony targets of
# make's own database that help does not name, so a new target shows there by itself.
define HELP_TEXT
The two commands (README.md):
  make demo              build, show what the probe finds here, the bench table, a real program
  make check             every part of the test suite, each with its summary line and minutes

Build and install:
  make                   the libraries and the two programs, in $(B)/ (./configure first, if at all)
  make lib               the libraries only
  make install           to prefix=$(prefix) (DESTDIR=, libdir=, mandir=, as usual)
  make clean             remove $(B)/ (make distclean: config.mak too)

Test:
  make check-host        the quick part: the Check suites, shell tests, this doc check
  make check-all         make check and the parts that build libcs (what CI runs)
  make check-PART        one part alone (make check's table names them; docs/testing.md)
  make check-doc-names   every code name and path the docs write exists in the tree
  make check-targets     every make target the docs name works in a fresh tree; history lint
  make check-mutants     the broken variants of tests/mutants/ that the tests must catch
  make check-asan        the suites under ASan+UBSan (check-valgrind: under valgrind)
  make stress            the eventfd stress harness, STRESS_SECONDS=600 [STRESS_SEED=]
  make fuzz              the fuzzers, longer than check-fuzz (docs/fuzz.md)

Bench:
  make bench             every benchmark of bench/ on this host
  make bench-insn        instructions per call, each export against glibc's own (callgrind)
  make bench-kernel      the stat benchmark on Debian's 6.1 kernel under qemu
  make bench-real        Debian 12 programs with and without sysshim, 6.1 and 6.12 kernels

Packaging:
  make deb               the Debian packages in $(B)/deb/, lintian-clean
  make check-deb         build them, unpack them into a scratch root, test them there
  make deb-symbols       write debian/libsysshim0.symbols from the exports

Test beds (qemu, kernels and libcs kept in $(CACHE); docs/testbed.md):
  make check-kernel      the suites on Debian's 6.1 kernel (-5.10, -6.12, -arm64, -la64: others)
  make check-cross       aarch64 and loongarch64 under qemu-user 7.2 and 10.0
  make check-real        Debian 12 programs booted on 6.1 and 6.12: the same outputs
  make check-compat      tests/compat.sh in the 6.1 and 5.10 guests
  make check-kernel-patches   the Linux 6.1 series built and booted (kernel-patches/)
  make check-upstream    the musl and glibc proposals built and tested (upstream/)
  make cache-warm        fill the cache the parts need (downloads, kernels, roots)

Every other target: make help-all.
endef
export HELP_TEXT

help:
	@echo "$$HELP_TEXT"

help-all:
	@echo "The steps the targets of make help are made of (their mk/*.mk say what each does):"
	@$(MAKE) --no-print-directory -rpq FORCE 2>/dev/null | sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | \
		awk 'BEGIN { n = split(ENVIRON["HELP_TEXT"], l, "\n"); \
			named["all"] = 1; for (i = 1; i <= n; i++) while (match(l[i], /make [a-z][a-z0-9.-]*/)) { \
				named[substr(l[i], RSTART + 5, RLENGTH - 5)] = 1; l[i] = substr(l[i], RSTART + RLENGTH) } } \
			$$0 != "" && $$0 != "FORCE" && !($$0 in named)' | sort -u | paste -sd ' ' | fold -s -w 100

.PHONY: help help-all check-doc-names
