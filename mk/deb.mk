# Debian packages (debian/): `make deb` builds libsysshim0, libsysshim-dev and sysshim with
# dpkg-buildpackage in a copy of the tree under $(B)/deb (it writes the .debs to the parent
# directory: $(B)/deb, so nothing lands outside the build dir), then runs lintian, which
# must report no errors and no warnings (overrides with a reason: debian/*.lintian-overrides).
# debian/README.source says the rest (the build options, the hardening, the tests).
#
# `make check-deb` builds them, unpacks them into a scratch root (dpkg -x) and tests them
# there (tests/deb.sh): the package-level checks (lintian, contents, hardening, symbols,
# manual pages) and Debian's own tests of the installed packages, debian/tests (DEP-8,
# what autopkgtest and Debian's CI run), run by tests/deb.sh on the scratch root with
# PATH, LD_LIBRARY_PATH, PKG_CONFIG_SYSROOT_DIR/PKG_CONFIG_LIBDIR and SYSSHIM_LIB pointing
# into it.  Not `autopkgtest ... -- null`: that installs the packages into this system as
# root (/usr/lib/<triplet>/libsysshim.so.0, /usr/bin/sysshim-run), which `make check` must
# not do on a developer's machine or a shared one (other checks and other developers'
# runs would find that library; a run stopped half-way leaves it there).  `make check-deb`
# installs nothing but the tests' Depends (tools/need), needs no network beyond those, and
# is part of `make check` (its minutes: docs/testing.md, "What the parts cost"), most of it
# dpkg-buildpackage.
#
# `make check-deb-autopkgtest` (not part of `make check`) runs autopkgtest itself on the
# same debian/tests: the testbed is a throwaway chroot unpacked from a cached minbase
# tarball of this system's Debian release ($(CACHE)/autopkgtest-<release>-<hash>.tar,
# debootstrap on first use), in a private mount namespace; autopkgtest installs the three
# .debs and the tests' Depends there with apt (it needs the Debian mirror), and the chroot
# is removed afterwards, so nothing changes on the system (how long it takes:
# docs/results.md, "What the limits in the code are set against").  On a
# throwaway machine, `autopkgtest` with the three .debs (not the dbgsym ones), the built
# tree $(B)/deb/sysshim-<version>/ and `-- null` installs into the system instead.

# What building and linting need; the Depends of debian/tests/control are installed by
# tests/deb.sh before each test, as autopkgtest would.
PKGS_DEB = debhelper dpkg-dev lintian mandoc fakeroot pkg-config check
DEB_DIR = $(B)/deb
DEB_VERSION = $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
DEB_SRC = $(DEB_DIR)/sysshim-$(DEB_VERSION)
# The package build skips its own run of the Check suites (debian/rules runs check_stat,
# check_path and check_eventfd unless nocheck): `make check-host` runs them already.
# `make deb DEB_BUILD_OPTIONS=` runs them inside the package build too.
DEB_BUILD_OPTIONS ?= nocheck
LINTIAN_FLAGS = --fail-on error,warning --display-info

# The tree's tracked files, as they are in the work tree (plus new, not yet added files
# under debian/ and man/); a tree without git: everything but build directories.
deb-build:
	@tools/need $(PKGS_DEB)
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_SRC)
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
		{ git ls-files; git ls-files -o --exclude-standard -- debian man; } | sort -u | \
		while read -r f; do [ -e "$$f" ] && printf '%s\n' "$$f"; done | \
		tar cf - --no-recursion -T - | tar xf - -C $(DEB_SRC); \
	else tar cf - --exclude='./build*' --exclude=./config.mak . | tar xf - -C $(DEB_SRC); fi
	@echo "dpkg-buildpackage -us -uc -b in $(DEB_SRC) (DEB_BUILD_OPTIONS=$(DEB_BUILD_OPTIONS)), log $(DEB_DIR)/build.log"
	@cd $(DEB_SRC) && DEB_BUILD_OPTIONS="$(DEB_BUILD_OPTIONS)" dpkg-buildpackage -us -uc -b \
		>../build.log 2>&1 || { tail -40 ../build.log; echo "dpkg-buildpackage failed"; exit 1; }
	@ls $(DEB_DIR)/*.deb

deb: deb-build
	lintian $(LINTIAN_FLAGS) $(DEB_DIR)/sysshim_$(DEB_VERSION)_*.changes

# Rewrites debian/libsysshim0.symbols from the library the package build made (after an
# exported function was added: review the diff, then commit it).
deb-symbols: deb-build
	dpkg-gensymbols -q -plibsysshim0 -v$(DEB_VERSION) -P$(DEB_SRC)/debian/libsysshim0 \
		-e$(DEB_SRC)/debian/libsysshim0/usr/lib/*/libsysshim.so.0 -O- | sed '/^#/d' | \
		{ read -r head; echo "$$head"; echo '* Build-Depends-Package: libsysshim-dev'; cat; } \
		> debian/libsysshim0.symbols
	git diff --stat debian/libsysshim0.symbols

check-deb: deb-build
	@B=$(B) sh tests/deb.sh $(DEB_DIR) $(DEB_VERSION)

# The tarball is made under the cache's lock; the chroot is the run's own.
check-deb-autopkgtest: deb-build
	@tools/need autopkgtest debootstrap
	@tb=$$($(call CACHE_LOCK,autopkgtest-tarball) sh tests/deb.sh --tarball $(abspath $(CACHE))) && \
		sh tests/deb.sh --autopkgtest $(DEB_DIR) $(DEB_VERSION) "$$tb"

CHECK_PARTS += check-deb
.PHONY: deb deb-build deb-symbols check-deb check-deb-autopkgtest
