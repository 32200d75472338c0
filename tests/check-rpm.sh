#! /bin/sh
# check-rpm.sh TARBALL SPEC: builds the binary RPMs from "make dist"'s
# TARBALL with rpmbuild -bb, then checks that every file "make install
# DESTDIR=..." installs is in exactly one of them and that the packages hold
# nothing else but the files the spec adds (units, sysconfig, logrotate,
# documentation, directories and ghosts).  One "PASS: rpm: ..." or "FAIL:
# rpm: ..." line per check; exits 1 if any failed.  "make check-rpm" runs it.
#
# Debian's rpmbuild cannot see the build dependencies that dpkg installed,
# so it runs with --nodeps; the testsuite is left to the other steps
# (--nocheck).  DPS_PKG_JOBS sets the parallel jobs (default 2).
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

set -u

failures=0
pass () { echo "PASS: rpm: $*"; }
fail () { echo "FAIL: rpm: $*"; failures=$((failures + 1)); }

if [ $# != 2 ]; then
    echo "usage: $0 TARBALL SPEC" >&2
    exit 2
fi
tarball=$1 spec=$2
W=$(mktemp -d /tmp/dps-rpm.XXXXXX) || exit 1
trap 'cd /; [ "${DPS_PKG_KEEP-}" = yes ] || rm -rf "$W"' EXIT
mkdir -p "$W/SOURCES"
cp "$tarball" "$W/SOURCES/"

rpmbuild -bb --nodeps --nocheck --noclean --define "_topdir $W" \
    --define "_smp_mflags -j${DPS_PKG_JOBS:-2}" "$spec" > "$W/build.log" 2>&1
rc=$?
tail -n 20 "$W/build.log"
if [ $rc = 0 ]; then
    pass "rpmbuild -bb --nodeps $(basename "$spec")"
else
    fail "rpmbuild -bb --nodeps $(basename "$spec")"
    exit 1
fi

rpms=$(find "$W/RPMS" -name 'dpswitch-*.rpm' ! -name '*debug*' | sort)
for r in $rpms; do
    echo "$(basename "$r"):"
    rpm -qp --requires "$r" | grep -v '^rpmlib(' | sed 's/^/  requires: /'
    rpm -qp --provides --conflicts "$r" | sed 's/^/  provides|conflicts: /'
    rpm -qp --scripts "$r" | grep -q systemctl \
        && echo "  scriptlets: systemctl"
    rpm -qlp "$r" | tee "$W/$(basename "$r").list"
done
for p in common switch; do
    if ls "$W"/dpswitch-$p-*.rpm.list > /dev/null 2>&1; then
        pass "dpswitch-$p built"
    else
        fail "dpswitch-$p built"
    fi
done
cat "$W"/*.rpm.list | sort > "$W/rpm-files"
# (/usr/lib/.build-id's directories are shared.)
grep -v '^/usr/lib/\.build-id' "$W/rpm-files" | uniq -d > "$W/dup"
if [ -s "$W/dup" ]; then
    fail "no file in both packages ($(tr '\n' ' ' < "$W/dup"))"
else
    pass "no file in both packages"
fi

# What make install puts in a DESTDIR, from rpmbuild's own build tree.
builddir=$(find "$W/BUILD" -mindepth 1 -maxdepth 1 -type d -name 'dpswitch-*' | head -n 1)
if [ -z "$builddir" ]; then
    fail "rpmbuild's build tree (BUILD/dpswitch-*) is kept"
    exit 1
fi
make -s -C "$builddir" install DESTDIR="$W/destdir" > "$W/install.log" 2>&1 \
    || { cat "$W/install.log"; fail "make install DESTDIR"; exit 1; }
(cd "$W/destdir" && find . ! -type d | sed 's,^\.,,') | sort > "$W/installed"
missing=
while read -r f; do
    # The packages hold man pages compressed.
    grep -q -x -e "$f" -e "$f.gz" -e "$f.bz2" -e "$f.xz" "$W/rpm-files" \
        || missing="$missing $f"
done < "$W/installed"
if [ -z "$missing" ]; then
    pass "every file make install installs is packaged ($(wc -l < "$W/installed") files)"
else
    fail "every file make install installs is packaged (missing:$missing)"
fi

# Anything else in the packages: what the spec adds.
extra=
while read -r f; do
    base=${f%.gz}
    grep -q -x -e "$base" -e "$f" "$W/installed" && continue
    [ -d "$W/destdir$f" ] && continue
    case $f in
        /usr/lib/systemd/system/*.service | /etc/sysconfig/openvswitch | \
        /etc/logrotate.d/openvswitch | /usr/share/doc/* | \
        /usr/share/licenses/* | /etc/openvswitch | \
        /etc/openvswitch/conf.db | /etc/openvswitch/system-id.conf | \
        /var/lib/openvswitch | /var/log/openvswitch | \
        /usr/share/openvswitch | /usr/share/openvswitch/scripts | \
        /usr/lib/.build-id*) ;;
        *) extra="$extra $f" ;;
    esac
done < "$W/rpm-files"
if [ -z "$extra" ]; then
    pass "the packages hold nothing make install and the spec do not"
else
    fail "the packages hold nothing make install and the spec do not (extra:$extra)"
fi

sw=$(find "$W/RPMS" -name 'dpswitch-switch-[0-9]*.rpm' | head -n 1)
if [ -n "$sw" ] && rpm -qp --scripts "$sw" | grep -q 'systemctl.*preset' &&
   rpm -qp --scripts "$sw" | grep -q 'systemctl.*disable'; then
    pass "dpswitch-switch has systemd scriptlets"
else
    fail "dpswitch-switch has systemd scriptlets"
fi

echo "rpm: $failures failed"
exit $((failures != 0))
