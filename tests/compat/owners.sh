#!/bin/sh
# tests/compat/owners.sh WAY DIR HELP: the owners scenario of tests/compat.sh, run
# inside fakeroot or pseudo: files chowned there, read back by stat(1), Python, tar,
# cp -a, ls, the stat-family helper (plain, and with libsysshim.a linked in), and a .deb
# built by dpkg-deb; each reader run with sysshim added as WAY (way.sh).
w=$1 h=$3
way=$(dirname "$0")/way.sh
cd "$2" || exit 98
rm -rf d e d.tar pkg x.deb
mkdir d && echo data >d/f && ln -s f d/l && chown -h 123:456 d/f d/l && chown 7:8 d
"$way" "$w" stat -c '%n %u:%g %s' d d/f d/l
"$way" "$w" python3 -c 'import os; print(os.stat("d/f").st_uid, os.lstat("d/l").st_gid, os.fstat(os.open("d/f", 0)).st_uid)'
"$way" "$w" tar cf d.tar d && tar tvf d.tar | awk '{ print $2, $6 }'
"$way" "$w" cp -a d e && stat -c '%n %u:%g' e e/f e/l
"$way" "$w" ls -ln d | awk 'NR > 1 { print $3, $4, $9 }'
"$way" "$w" "$h/showstat" d/f d/l
if [ -x "$h/showstat-linked" ]; then "$way" "$w" "$h/showstat-linked" d/f d/l; fi
mkdir -p pkg/DEBIAN pkg/usr/share/doc/x && echo x >pkg/usr/share/doc/x/README &&
	printf 'Package: x\nVersion: 1\nArchitecture: all\nMaintainer: t <t@example.org>\nDescription: t\n' \
		>pkg/DEBIAN/control && chown -R 0:0 pkg &&
	"$way" "$w" dpkg-deb --build pkg x.deb >/dev/null && dpkg-deb -c x.deb | awk '{ print $2, $6 }'
