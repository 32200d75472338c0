#! /bin/sh
# check-packaging.sh SRCDIR REFROOT: builds the Debian packages from the
# clean tree SRCDIR (a "make distdir" copy), installs them, runs the switch
# through ovs-ctl, takes over a database left by Debian's Open vSwitch 3.1
# and gives it back, then purges them.  Prints one "PASS: packaging: ..." or
# "FAIL: packaging: ..." line per check, for the test command's summary;
# exits 1 if any check failed.  "make check-packaging" runs it (root).
#
# REFROOT is Debian's openvswitch-switch 3.1 unpacked (ovs-vsctl and the
# schema); Debian's openvswitch-common is unpacked from its .deb here.
#
# The packages are installed with dpkg and apt for real, but inside a
# private mount namespace where /usr, /etc, /var and /run are overlays of the
# machine's: the machine's own Open vSwitch packages (openvswitch-common is
# the reference that other tests run at the same time) are replaced only in
# that view, and whatever the test leaves vanishes with the namespace.  The
# test still checks that the purge leaves nothing behind.
#
# Environment: DPS_PKG_JOBS (parallel build jobs, default 2),
# DPS_PKG_KEEP=yes keeps the work directory.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

set -u

failures=0
pass () { echo "PASS: packaging: $*"; }
fail () { echo "FAIL: packaging: $*"; failures=$((failures + 1)); }
# check NAME COMMAND...: PASS or FAIL line for COMMAND.
check () {
    check_name=$1
    shift
    if "$@"; then pass "$check_name"; else fail "$check_name"; fi
}

ovs_common_pkg=openvswitch-common

# ---------------------------------------------------------------------------
# Inside the namespace: install, run, take over, give back, purge.

# ref_server_start DB: Debian's ovsdb-server on $W/ref.sock.
ref_server_start () {
    "$REFSBIN/ovsdb-server" --detach --no-chdir --pidfile="$W/ref.pid" \
        --unixctl="$W/ref.ctl" --log-file="$W/ref.log" --remote=punix:"$W/ref.sock" "$1"
}
ref_server_stop () {
    if [ -f "$W/ref.pid" ]; then
        kill "$(cat "$W/ref.pid")" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 "$(cat "$W/ref.pid" 2>/dev/null)" 2>/dev/null || break
            sleep 0.5
        done
        rm -f "$W/ref.pid"
    fi
}
ref_vsctl () {
    "$REFROOT/usr/bin/ovs-vsctl" --timeout=20 --db=unix:"$W/ref.sock" "$@"
}

# show_config: "ovs-vsctl show" without the first line (the UUID) and the
# version line.
show_config () {
    sed '1d; /ovs_version/d'
}

# daemons_gone: neither daemon runs (the namespace has its own PIDs, so
# only the ones started here count).  ovs-ctl waits for the process in the
# pidfile; with --monitor, its monitor exits just after reaping it, so the
# check allows that a few seconds.
daemons_gone () {
    for dg_try in 1 2 3 4 5 6 7 8 9 10; do
        if ! pgrep -x ovsdb-server >/dev/null \
           && ! pgrep -x ovs-vswitchd >/dev/null; then
            return 0
        fi
        sleep .5
    done
    pgrep -a -x 'ovsdb-server|ovs-vswitchd'
    return 1
}

inside () {
    ip link set lo up 2>/dev/null

    # Services started by the maintainer scripts run (the machine's
    # policy-rc.d, if any, is replaced only in this view).
    printf '#! /bin/sh\nexit 0\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d

    # A machine where Debian's Open vSwitch 3.1 ran: its database in
    # /var/lib/openvswitch, linked from /etc/openvswitch, with bridges,
    # ports and settings written by Debian's ovsdb-server and ovs-vsctl.
    rm -rf /etc/openvswitch /var/lib/openvswitch /var/log/openvswitch \
           /run/openvswitch
    mkdir -p /etc/openvswitch /var/lib/openvswitch
    "$REFBIN/ovsdb-tool" create /var/lib/openvswitch/conf.db \
        "$REFROOT/usr/share/openvswitch/vswitch.ovsschema" &&
    ln -s /var/lib/openvswitch/conf.db /etc/openvswitch/conf.db &&
    ref_server_start /etc/openvswitch/conf.db &&
    ref_vsctl --no-wait init -- add-br br0 \
        -- add-port br0 p1 tag=10 -- set Interface p1 type=dummy \
        -- add-port br0 p2 trunks=20,30 -- set Interface p2 type=dummy \
        -- add-br br1 -- set Bridge br1 fail-mode=secure \
           other_config:hwaddr=00:11:22:33:44:55 \
        -- add-port br1 p3 vlan_mode=native-untagged tag=5 \
        -- set Interface p3 type=dummy mtu_request=9000 \
        -- set Open_vSwitch . other_config:pmd-cpu-mask=0x2 &&
    ref_vsctl show | show_config > "$W/before" &&
    ref_vsctl get Open_vSwitch . other_config > "$W/before-oc"
    check "fixture: Debian's Open vSwitch 3.1 database with 2 bridges, 3 ports" \
        grep -q 'Port p3' "$W/before"
    ref_server_stop

    # apt swaps Debian's openvswitch-common for ours.
    debs="$W/dpswitch-common_${VERSION}_$ARCH.deb $W/dpswitch-switch_${VERSION}_$ARCH.deb"
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y \
        $debs > "$W/apt-install.log" 2>&1
    rc=$?
    cat "$W/apt-install.log"
    check "apt-get install ./dpswitch-common.deb ./dpswitch-switch.deb" \
        test $rc = 0
    check "apt removed Debian's $ovs_common_pkg in favour of dpswitch" \
        sh -c "! dpkg-query -W -f='\${Status}' $ovs_common_pkg 2>/dev/null | grep -q 'ok installed'"
    check "/usr/sbin/ovs-vswitchd is the ovs-vswitchd alternative" \
        test "$(readlink -f /usr/sbin/ovs-vswitchd)" = \
             /usr/lib/openvswitch-switch/ovs-vswitchd
    ls -l /etc/openvswitch /var/lib/openvswitch
    check "the database stays where Debian keeps it" \
        test -h /etc/openvswitch/conf.db -a -f /var/lib/openvswitch/conf.db
    # The postinst started the service (init script, as without systemd).
    check "installing starts the switch (ovs-ctl status)" \
        /usr/share/openvswitch/scripts/ovs-ctl status

    # The operator's way: stop and start with ovs-ctl.
    check "ovs-ctl stop" /usr/share/openvswitch/scripts/ovs-ctl stop
    check "ovs-ctl stop leaves no daemon" daemons_gone
    # (The fixture's ports are dummy ports, which ovs-vswitchd opens with
    # --enable-dummy.)
    check "ovs-ctl start" \
        /usr/share/openvswitch/scripts/ovs-ctl --system-id=random \
        --ovs-vswitchd-options=--enable-dummy start
    check "ovs-ctl status" /usr/share/openvswitch/scripts/ovs-ctl status

    # ovs-vswitchd opens the fixture's ports (and clears the errors the
    # first start, without --enable-dummy, left).
    for _ in $(seq 40); do
        n=0
        for i in p1 p2 p3; do
            [ "$(ovs-vsctl --timeout=20 get Interface $i error)" = '[]' ] \
                && n=$((n + 1))
        done
        [ $n = 3 ] && break
        sleep 0.5
    done
    ovs-vsctl --timeout=20 show | show_config > "$W/after"
    if diff -u "$W/before" "$W/after"; then
        pass "drop-in upgrade keeps every bridge and port (ovs-vsctl show)"
    else
        fail "drop-in upgrade keeps every bridge and port (ovs-vsctl show)"
    fi
    ovs-vsctl --timeout=20 get Open_vSwitch . other_config > "$W/after-oc"
    check "drop-in upgrade keeps other_config" \
        cmp -s "$W/before-oc" "$W/after-oc"

    # A bridge and a dummy port on the packaged switch.
    check "ovs-vsctl add-br brt -- add-port brt dummy0 (type=dummy)" \
        ovs-vsctl --timeout=20 add-br brt -- add-port brt dummy0 \
            -- set Interface dummy0 type=dummy
    ovs-vsctl --timeout=20 show > "$W/show"
    cat "$W/show"
    check "ovs-vsctl show lists brt and dummy0" \
        sh -c "grep -q 'Bridge brt' '$W/show' && grep -q 'Port dummy0' '$W/show' && grep -q 'type: dummy' '$W/show'"
    ofport=$(ovs-vsctl --timeout=20 get Interface dummy0 ofport)
    check "ovs-vswitchd opened dummy0 (ofport $ofport)" \
        test "${ofport:-0}" -gt 0
    check "ovs-vswitchd reports no error for dummy0" \
        test "$(ovs-vsctl --timeout=20 get Interface dummy0 error)" = '[]'
    ovs-appctl version > "$W/version" 2>&1
    cat "$W/version"
    check "ovs-appctl version is the packaged ovs-vswitchd $VERSION" \
        grep -q "^ovs-vswitchd (dpswitch) ${VERSION%-*}\$" "$W/version"
    check "ovs-vswitchd runs the packaged binary" \
        test "$(readlink -f "/proc/$(cat /run/openvswitch/ovs-vswitchd.pid)/exe")" = \
             /usr/lib/openvswitch-switch/ovs-vswitchd

    check "ovs-vsctl del-br brt" ovs-vsctl --timeout=20 del-br brt

    # Giving it back: removing dpswitch stops the switch and keeps the
    # database; Debian's openvswitch-common opens it after converting it
    # to Open vSwitch's schema, as Open vSwitch's ovs-ctl does.
    dpkg -r dpswitch-switch dpswitch-common > "$W/remove.log" 2>&1
    rc=$?
    cat "$W/remove.log"
    check "dpkg -r dpswitch-switch dpswitch-common" sh -c "test $rc = 0 &&
        dpkg-query -W -f='\${Status}' dpswitch-switch | grep -q 'config-files'"
    check "removing stops both daemons" daemons_gone
    check "removing keeps the database" test -f /var/lib/openvswitch/conf.db
    dpkg -i "$W/$ovs_common_deb" > "$W/reinstall.log" 2>&1
    check "dpkg -i Debian's $ovs_common_pkg again" test $? = 0
    REFBIN=/usr/bin REFSBIN=/usr/sbin
    if [ "$("$REFBIN/ovsdb-tool" needs-conversion /etc/openvswitch/conf.db \
              "$REFROOT/usr/share/openvswitch/vswitch.ovsschema")" = yes ]
    then
        "$REFBIN/ovsdb-tool" convert /etc/openvswitch/conf.db \
            "$REFROOT/usr/share/openvswitch/vswitch.ovsschema"
    fi
    ref_server_start /etc/openvswitch/conf.db
    ref_vsctl show | show_config > "$W/back"
    ref_server_stop
    if diff -u "$W/before" "$W/back"; then
        pass "Debian's Open vSwitch opens the database with every bridge and port"
    else
        fail "Debian's Open vSwitch opens the database with every bridge and port"
    fi

    # Purge: nothing of ours left.
    dpkg -P dpswitch-switch dpswitch-common > "$W/purge.log" 2>&1
    rc=$?
    cat "$W/purge.log"
    check "dpkg -P dpswitch-switch dpswitch-common" test $rc = 0
    left=
    for p in dpswitch-common dpswitch-switch; do
        if dpkg-query -W -f='${Status}' "$p" 2>/dev/null \
                | grep -qv 'not-installed'; then
            left="$left $p"
        fi
    done
    for f in /usr/lib/openvswitch-switch /usr/sbin/ovs-vswitchd \
             /usr/share/openvswitch/scripts/ovs-ctl \
             /etc/default/openvswitch-switch \
             /etc/logrotate.d/openvswitch-switch \
             /etc/init.d/openvswitch-switch \
             /lib/systemd/system/ovs-vswitchd.service \
             /etc/openvswitch/conf.db /var/lib/openvswitch/conf.db \
             /etc/openvswitch/system-id.conf \
             /var/log/openvswitch/ovs-vswitchd.log; do
        if [ -e "$f" ] || [ -h "$f" ]; then left="$left $f"; fi
    done
    if [ -z "$left" ]; then
        pass "purge leaves no package, file or daemon"
    else
        fail "purge leaves no package, file or daemon (left:$left)"
    fi
    check "no daemon runs after the purge" daemons_gone

    # Whatever happened, nothing started here outlives the namespace.
    for pidfile in /run/openvswitch/*.pid "$W/ref.pid"; do
        [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null
    done
    exit $((failures != 0))
}

if [ "${1-}" = --inside ]; then
    W=$2 REFROOT=$3 VERSION=$4 ARCH=$5 ovs_common_deb=$6
    REFBIN=$W/ovs-common/usr/bin REFSBIN=$W/ovs-common/usr/sbin
    inside
fi

# ---------------------------------------------------------------------------
# Outside: build, check the packages, then the namespace.

if [ $# != 2 ]; then
    echo "usage: $0 SRCDIR REFROOT" >&2
    exit 2
fi
src=$(cd "$1" && pwd) REFROOT=$(cd "$2" && pwd)
if [ "$(id -u)" != 0 ]; then
    fail "must run as root (dpkg, apt-get, mount namespaces)"
    exit 1
fi
W=$(mktemp -d /tmp/dps-pkg.XXXXXX) || exit 1
trap 'cd /; [ "${DPS_PKG_KEEP-}" = yes ] || rm -rf "$W"' EXIT
cp -a "$src" "$W/src"
chmod -R u+w "$W/src"

(cd "$W/src" && DEB_BUILD_OPTIONS="nocheck parallel=${DPS_PKG_JOBS:-2}" \
    dpkg-buildpackage -b -us -uc) > "$W/build.log" 2>&1
rc=$?
tail -n 20 "$W/build.log"
check "dpkg-buildpackage -b -us -uc" test $rc = 0
if [ $rc != 0 ]; then exit 1; fi

VERSION=$(cd "$W/src" && dpkg-parsechangelog -S Version)
ARCH=$(dpkg --print-architecture)
changes=$W/dpswitch_${VERSION}_$ARCH.changes

lintian --fail-on error "$changes" > "$W/lintian.log" 2>&1
rc=$?
cat "$W/lintian.log"
echo "lintian: $(grep -c '^E:' "$W/lintian.log") errors," \
     "$(grep -c '^W:' "$W/lintian.log") warnings," \
     "$(grep -c '^I:' "$W/lintian.log") informational tags"
check "lintian: no errors" test $rc = 0

for p in dpswitch-common dpswitch-switch; do
    echo "$p:"
    dpkg-deb -c "$W/${p}_${VERSION}_$ARCH.deb" | awk '{print $6}' \
        | sed 's,^\./,/,' | grep -v '/$' | tee "$W/$p.files"
    dpkg-deb -f "$W/${p}_${VERSION}_$ARCH.deb" Depends Provides Conflicts \
        Replaces | tee "$W/$p.fields"
done
# has PACKAGE FILE...: PACKAGE's .deb holds every FILE.
has () {
    has_p=$1
    shift
    for f; do
        grep -q "^$f\$" "$W/$has_p.files" || { echo "$has_p: no $f"; return 1; }
    done
}
check "dpswitch-common holds ovs-vsctl, ovs-appctl, ovs-ofctl, ovsdb-tool, ovsdb-client" \
    has dpswitch-common /usr/bin/ovs-vsctl /usr/bin/ovs-appctl /usr/bin/ovs-ofctl \
        /usr/bin/ovsdb-tool /usr/bin/ovsdb-client \
        /usr/share/man/man8/ovs-vsctl.8.gz
check "dpswitch-switch holds the daemons, ovs-ctl, units, defaults, logrotate" \
    has dpswitch-switch /usr/sbin/ovsdb-server \
        /usr/lib/openvswitch-switch/ovs-vswitchd \
        /usr/share/openvswitch/scripts/ovs-ctl \
        /usr/share/openvswitch/vswitch.ovsschema \
        /lib/systemd/system/openvswitch-switch.service \
        /lib/systemd/system/ovsdb-server.service \
        /lib/systemd/system/ovs-vswitchd.service \
        /etc/default/openvswitch-switch /etc/logrotate.d/openvswitch-switch \
        /etc/init.d/openvswitch-switch
check "Provides/Conflicts/Replaces Debian's Open vSwitch packages" \
    sh -c "grep -q '^Conflicts: openvswitch-common' '$W/dpswitch-common.fields' &&
           grep -q '^Conflicts: openvswitch-switch, openvswitch-switch-dpdk' '$W/dpswitch-switch.fields' &&
           grep -q '^Replaces:.*openvswitch-switch-dpdk' '$W/dpswitch-switch.fields' &&
           grep -q '^Provides: openvswitch-switch (= 3.1.0)' '$W/dpswitch-switch.fields'"
check "DPDK's libraries are dependencies, not bundled" \
    sh -c "grep -q '^Depends:.*librte-ethdev' '$W/dpswitch-switch.fields' &&
           ! grep -q 'librte' '$W/dpswitch-switch.files'"
check "debug symbols in -dbgsym packages" \
    test -f "$W/dpswitch-switch-dbgsym_${VERSION}_$ARCH.deb" \
         -a -f "$W/dpswitch-common-dbgsym_${VERSION}_$ARCH.deb"

# Debian's openvswitch-common 3.1: its ovsdb-server and ovsdb-tool write the
# fixture, and it is installed again to open the database we hand back.
ovs_common_deb=
for d in /var/cache/apt/archives/${ovs_common_pkg}_*_"$ARCH".deb; do
    [ -f "$d" ] && cp "$d" "$W/" && ovs_common_deb=$(basename "$d")
done
if [ -z "$ovs_common_deb" ]; then
    (cd "$W" && apt-get download -qq -o APT::Sandbox::User=root \
         "$ovs_common_pkg") > /dev/null 2>&1
    ovs_common_deb=$(cd "$W" && ls ${ovs_common_pkg}_*.deb 2>/dev/null | head -n 1)
fi
if [ -z "$ovs_common_deb" ] || ! dpkg-deb -x "$W/$ovs_common_deb" "$W/ovs-common"
then
    fail "Debian's $ovs_common_pkg .deb (apt cache or apt-get download)"
    exit 1
fi

host_common=$(dpkg-query -W -f='${Status} ${Version}' "$ovs_common_pkg" 2>/dev/null)

# The private view: /usr, /etc, /var and /run over the machine's.
mkdir -p "$W/ovl"
unshare --mount --net --pid --fork --mount-proc --propagation private sh -c '
    set -e
    for d in usr etc var run; do
        mkdir -p "$1/ovl/$d.up" "$1/ovl/$d.work"
        mount -t overlay overlay \
            -o "lowerdir=/$d,upperdir=$1/ovl/$d.up,workdir=$1/ovl/$d.work" "/$d"
    done
    shift
    exec sh "$@"' sh "$W" "$0" --inside "$W" "$REFROOT" "$VERSION" "$ARCH" \
    "$ovs_common_deb"
[ $? = 0 ] || failures=$((failures + 1))

# The machine as it was.
check "the machine's $ovs_common_pkg is untouched" \
    test "$(dpkg-query -W -f='${Status} ${Version}' "$ovs_common_pkg" 2>/dev/null)" = "$host_common"
check "no dpswitch package is installed on the machine" \
    sh -c "! dpkg-query -W -f='\${Status}\n' dpswitch-common dpswitch-switch 2>/dev/null | grep -q 'ok installed'"
nothing_runs () { ! pgrep -f "$W" > /dev/null; }
check "nothing from the test runs on the machine" nothing_runs

echo "packaging: $failures failed"
exit $((failures != 0))
