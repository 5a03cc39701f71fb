# Every make target the documentation names works on its own from a clean tree:
#
#   make check-targets   reads the `make X` of README.md, CONTRIBUTING.md, docs/*.md,
#                        kernel-patches/README.md and upstream/*/README.md at run time;
#                        for each, `make -n X` in a fresh copy of the committed tree (git
#                        archive HEAD) with a fresh build directory must resolve every
#                        prerequisite; `make`, `make lib`,
#                        `make install DESTDIR=...` and `make clean` really run, each in a
#                        fresh copy. CT_REV=worktree takes the tracked files as they are now.
#
# A target named in the docs without a rule, or one that only works after another target
# left its files behind, fails here. So does history in the tree (tools/check-history.sh,
# also run alone): an issue number, a word that git knows as a commit of this repository,
# or a commit subject over 72 characters from the commit that added CONTRIBUTING.md on.

CHECK_PARTS += check-targets
PKGS_TARGETS = make gcc libc6-dev git tar coreutils findutils
CT_REV ?= HEAD

check-targets:
	@tools/need $(PKGS_TARGETS)
	@CT_REV=$(CT_REV) sh tools/check-targets.sh $(B)/check-targets

.PHONY: check-targets
