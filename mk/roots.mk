# tests/roots.sh in make check-host: the library left out of LD_PRELOAD where a program
# cannot load it (a musl program, a chroot, an i386 program, a sanitizer's): musl-gcc
# (musl-tools), an i386 program (gcc -m32 -nostdlib against libc6-i386: no gcc-multilib), valgrind.
HOST_SCRIPTS += tests/roots.sh
PKGS_CHECK += musl-tools libc6-i386 valgrind util-linux
