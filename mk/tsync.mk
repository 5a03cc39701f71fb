# The TSYNC race (tests/tsync.sh, issue 36): a filter installed with TSYNC while 8
# threads are in fstat() kills none of them. Part of check-host.
HOST_SCRIPTS += tests/tsync.sh
