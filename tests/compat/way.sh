#!/bin/sh
# tests/compat/way.sh NAME CMD...: runs CMD with sysshim added as NAME, for
# tests/compat.sh (which exports CO_RUN, CO_LIB and CO_LDSO: sysshim-run, the library,
# the dynamic loader). NAME: none (as it is), run (sysshim-run --always), auto
# (sysshim-run), first, last (LD_PRELOAD before and after what it holds), space (before,
# with a space), ldso (the loader's --preload), shell (a shell with the library in it,
# LD_PRELOAD before what it holds, runs CMD: the library's execve hands CMD on).
w=$1
shift
case $w in
none) exec "$@" ;;
run) exec "$CO_RUN" --always "$@" ;;
auto) exec "$CO_RUN" "$@" ;;
first) LD_PRELOAD="$CO_LIB${LD_PRELOAD:+:$LD_PRELOAD}" exec "$@" ;;
last) LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$CO_LIB" exec "$@" ;;
space) LD_PRELOAD="$CO_LIB${LD_PRELOAD:+ $LD_PRELOAD}" exec "$@" ;;
shell) LD_PRELOAD="$CO_LIB${LD_PRELOAD:+:$LD_PRELOAD}" exec sh -c 'exec "$@"' - "$@" ;;
ldso) p=$(command -v "$1") && shift && exec "$CO_LDSO" --preload "$CO_LIB" "$p" "$@" ;;
esac
echo "way.sh: unknown way $w" >&2
exit 99
