# The TSYNC race (tests/tsync.sh): a filter installed with TSYNC while 8
# threads are in fstat() kills none of them. Part of check-host.
HOST_SCRIPTS += tests/tsync.sh
