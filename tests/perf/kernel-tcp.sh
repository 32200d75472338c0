#! /bin/sh
# kernel-tcp.sh: TCP throughput through the switch between two network
# namespaces on "system" ports, dpswitch next to Open vSwitch 3.1.
#
# Usage (as root; the switches poll in their main thread, but iperf3 keeps
# both CPUs busy, so take the shared lock):
#
#   flock /work/locks/busy.lock tests/perf/kernel-tcp.sh BUILD_DIR [SECONDS [WHICH]]
#
# For each switch, in turn: a private run directory under /tmp and a network
# namespace of its own (dpskpf-sw) hold ovsdb-server and ovs-vswitchd; veth
# pairs connect bridge br0 (datapath_type=netdev, NORMAL switching) to
# namespaces dpskpf-a (10.93.0.1) and dpskpf-b (10.93.0.2); one iperf3 TCP
# stream runs from a to b for SECONDS (default 5), after a ping.  Switches:
#
#   dpswitch       our ovs-vswitchd and ovsdb-server from BUILD_DIR;
#   ovs-3.1        Debian's ovs-vswitchd (from _ref/root or
#                  /usr/lib/openvswitch-switch), ovsdb-server and schema,
#                  default settings;
#   ovs-3.1-tso    the same with other_config:userspace-tso-enable=true,
#                  which Open vSwitch needs to take the veths' segmentation
#                  frames (without it, they are dropped as too long);
#
# and then the same through "afxdp" ports polled by one PMD thread on core 0
# (other_config:pmd-cpu-mask=1), with the namespaces' veth ends sending with
# offloads off (ethtool -K tx off), as AF_XDP needs:
#
#   dpswitch-afxdp      options:xdp-mode=best-effort (native on a veth);
#   dpswitch-afxdp-gen  options:xdp-mode=generic;
#   ovs-3.1-afxdp, ovs-3.1-afxdp-gen
#                       the same with Debian's Open vSwitch, which is built
#                       with AF_XDP.
#
# and then (WHICH "tap") each namespace behind a tap device of the switch
# instead of a veth, the switch's PMD thread on core 1
# (other_config:pmd-cpu-mask=2), DPDK without hugepages:
#
#   dpswitch-tap        "dpdk" ports on net_tap (DPDK's tap PMD);
#   ovs-3.1-dpdk-tap    the same with Debian's DPDK build of Open vSwitch
#                       3.1 (ovs-vswitchd-dpdk, from BUILD_DIR/tests/perf/
#                       ovs-ref, where dps-bench unpacks it; fetched with
#                       "apt-get download" if it is not there), with
#                       options:n_rxq=2 (net_tap wants as many rx as tx
#                       queues, and Open vSwitch asks for 2 tx queues);
#   ovs-3.1-tap         Debian's ovs-vswitchd (no DPDK) with its own "tap"
#                       ports (netdev-linux taps, read and written by the
#                       main thread).
#
# WHICH (default all) picks the rows: "system", "afxdp" or "tap".  dpswitch's
# afxdp rows need a build with libxdp (configure says so); without it they
# print "port not added" and the reason.
#
# Prints one line per switch: name, Gbit/s received, retransmits, and the
# TCP segments with a bad checksum the receiving kernel counted
# (TcpInCsumErrors, which must be 0).  Every namespace and interface it
# creates is deleted at exit.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

set -e
build=${1:?usage: $0 BUILD_DIR [SECONDS [WHICH]]}
secs=${2:-5}
which=${3:-all}
# Port type and XDP mode of the next run (see "run").
ptype=system xmode= tapq=
build=`cd "$build" && pwd`
src=`cd "$(dirname "$0")/../.." && pwd`
ref_root=$src/_ref/root
ref_vswitchd=$ref_root/usr/lib/openvswitch-switch/ovs-vswitchd
test -x "$ref_vswitchd" || ref_vswitchd=/usr/lib/openvswitch-switch/ovs-vswitchd
ref_vsctl=$ref_root/usr/bin/ovs-vsctl
test -x "$ref_vsctl" || ref_vsctl=/usr/bin/ovs-vsctl
ref_schema=$ref_root/usr/share/openvswitch/vswitch.ovsschema
test -f "$ref_schema" || ref_schema=/usr/share/openvswitch/vswitch.ovsschema
ref_ovsdb=/usr/sbin/ovsdb-server
ref_dpdk_root=$build/tests/perf/ovs-ref/root
ref_vswitchd_dpdk=$ref_dpdk_root/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk

dir=`mktemp -d /tmp/dpskpf.XXXXXX`
cleanup () {
    for p in "$dir"/*/*.pid; do
        test -f "$p" && kill `cat "$p"` 2>/dev/null
    done
    sleep 0.3
    for ns in dpskpf-sw dpskpf-a dpskpf-b; do
        ip netns delete $ns 2>/dev/null || true
    done
    rm -rf "$dir"
}
trap cleanup 0 INT TERM

# run NAME VSWITCHD OVSDB_SERVER VSCTL SCHEMA [OTHER_CONFIG...]
run () {
    name=$1 vswitchd=$2 ovsdb=$3 vsctl=$4 schema=$5
    shift 5
    if test ! -x "$vswitchd"; then
        echo "$name: $vswitchd not found, skipped"
        return 0
    fi
    d=$dir/$name
    mkdir -p "$d"
    OVS_RUNDIR=$d OVS_LOGDIR=$d OVS_DBDIR=$d OVS_SYSCONFDIR=$d
    export OVS_RUNDIR OVS_LOGDIR OVS_DBDIR OVS_SYSCONFDIR

    for ns in dpskpf-sw dpskpf-a dpskpf-b; do
        ip netns add $ns
        ip netns exec $ns ip link set lo up
    done
    if test $ptype = dpdk-tap || test $ptype = tap; then
        # The switch creates the taps; they move to the namespaces below.
        set -- "$@" pmd-cpu-mask=2
        if test $ptype = dpdk-tap; then
            set -- "$@" dpdk-init=true "dpdk-extra=--no-huge --legacy-mem -m 1024 --no-pci --no-shconf --no-telemetry --file-prefix=dpskpf-$name"
            ports="-- add-port br0 dpskpfa -- set interface dpskpfa type=dpdk
                   options:dpdk-devargs=net_tap0,iface=dpskpfa $tapq
                   -- add-port br0 dpskpfb -- set interface dpskpfb type=dpdk
                   options:dpdk-devargs=net_tap1,iface=dpskpfb $tapq"
        else
            ports="-- add-port br0 dpskpfa -- set interface dpskpfa type=tap
                   -- add-port br0 dpskpfb -- set interface dpskpfb type=tap"
        fi
    else
        for x in a b; do
            ip -n dpskpf-sw link add dpskpf$x type veth peer name \
                dpskpf${x}p netns dpskpf-$x
            ip -n dpskpf-sw link set dpskpf$x up
            ip -n dpskpf-$x link set dpskpf${x}p up
        done
    fi
    if test $ptype = dpdk-tap || test $ptype = tap; then
        :
    elif test $ptype = afxdp; then
        for x in a b; do
            ip netns exec dpskpf-$x ethtool -K dpskpf${x}p tx off >/dev/null
        done
        set -- "$@" pmd-cpu-mask=1
        ports="-- add-port br0 dpskpfa -- set interface dpskpfa type=afxdp
               options:xdp-mode=$xmode
               -- add-port br0 dpskpfb -- set interface dpskpfb type=afxdp
               options:xdp-mode=$xmode"
    else
        ports="-- add-port br0 dpskpfa -- add-port br0 dpskpfb"
    fi
    if test $ptype != dpdk-tap && test $ptype != tap; then
        ip -n dpskpf-a addr add 10.93.0.1/24 dev dpskpfap
        ip -n dpskpf-b addr add 10.93.0.2/24 dev dpskpfbp
    fi

    "$build/ovsdb/ovsdb-tool" create "$d/conf.db" "$schema"
    "$ovsdb" --detach --no-chdir --pidfile="$d/ovsdb-server.pid" \
        --log-file="$d/ovsdb-server.log" --remote=punix:"$d/db.sock" \
        "$d/conf.db" 2>/dev/null
    "$vsctl" --db=unix:"$d/db.sock" --no-wait init
    for oc in "$@"; do
        "$vsctl" --db=unix:"$d/db.sock" --no-wait \
            set Open_vSwitch . other_config:"$oc"
    done
    ip netns exec dpskpf-sw "$vswitchd" unix:"$d/db.sock" --detach \
        --no-chdir --pidfile="$d/ovs-vswitchd.pid" \
        --log-file="$d/ovs-vswitchd.log" 2>/dev/null
    "$vsctl" --db=unix:"$d/db.sock" --timeout=30 \
        add-br br0 -- set bridge br0 datapath_type=netdev $ports

    result=
    sleep 1
    if test $ptype = dpdk-tap || test $ptype = tap; then
        # Each tap into its namespace (DPDK's tap PMD and Open vSwitch's
        # tap ports keep their file descriptor), 10.93.0.1 and .2.
        n=1
        for x in a b; do
            for i in 1 2 3 4 5 6 7 8 9 10; do
                ip -n dpskpf-sw link show dpskpf$x >/dev/null 2>&1 && break
                sleep 0.5
            done
            ip -n dpskpf-sw link set dpskpf$x netns dpskpf-$x || true
            ip -n dpskpf-$x addr add 10.93.0.$n/24 dev dpskpf$x || true
            ip -n dpskpf-$x link set dpskpf$x up || true
            n=2
        done
        sleep 1
    fi
    ofport=`"$vsctl" --db=unix:"$d/db.sock" get interface dpskpfa ofport`
    if test "$ofport" = -1; then
        result="port not added: `"$vsctl" --db=unix:"$d/db.sock" \
                get interface dpskpfa error`; `grep -E 'WARN|ERR' \
                "$d/ovs-vswitchd.log" | grep -v 'unixctl\|reconnect' \
                | tail -2 | cut -d'|' -f5-`"
    elif ip netns exec dpskpf-a ping -q -c 3 -i 0.2 -W 2 10.93.0.2 >/dev/null \
       || ip netns exec dpskpf-a ping -q -c 3 -i 0.5 -W 2 10.93.0.2 \
              >/dev/null; then
        ip netns exec dpskpf-b iperf3 -s -1 -D -p 5399 \
            --pidfile "$d/iperf3.pid" --logfile "$d/iperf3-server.log"
        sleep 0.5
        if ip netns exec dpskpf-a timeout $((secs + 20)) \
               iperf3 -c 10.93.0.2 -p 5399 -t "$secs" -J > "$d/iperf.json" \
               2>/dev/null; then
            bad=`ip netns exec dpskpf-b nstat -az TcpInCsumErrors \
                 | awk '/TcpInCsumErrors/ { print $2 }'`
            result=`python3 - "$d/iperf.json" "$bad" <<'EOF'
import json, sys
end = json.load(open(sys.argv[1]))["end"]
print("%.2f Gbit/s  %d retransmits  %s bad checksums" % (
    end["sum_received"]["bits_per_second"] / 1e9,
    end["sum_sent"].get("retransmits", 0), sys.argv[2]))
EOF
`
        else
            result="iperf3 failed or stalled"
        fi
    else
        result="no ping through the switch"
    fi
    printf '%-18s %s\n' "$name" "$result"

    kill `cat "$d/ovs-vswitchd.pid"` `cat "$d/ovsdb-server.pid"` \
        2>/dev/null || true
    test -f "$d/iperf3.pid" && kill `cat "$d/iperf3.pid"` 2>/dev/null || true
    sleep 0.5
    for ns in dpskpf-sw dpskpf-a dpskpf-b; do
        ip netns delete $ns
    done
}

echo "TCP through the switch, one iperf3 stream, $secs s, `nproc` CPUs"
if test $which = all || test $which = system; then
    ptype=system
    run dpswitch "$build/vswitchd/ovs-vswitchd" "$build/ovsdb/ovsdb-server" \
        "$build/utilities/ovs-vsctl" "$src/vswitchd/vswitch.ovsschema"
    run ovs-3.1 "$ref_vswitchd" "$ref_ovsdb" "$ref_vsctl" "$ref_schema"
    run ovs-3.1-tso "$ref_vswitchd" "$ref_ovsdb" "$ref_vsctl" "$ref_schema" \
        userspace-tso-enable=true
fi
if test $which = all || test $which = tap; then
    ptype=dpdk-tap
    run dpswitch-tap "$build/vswitchd/ovs-vswitchd" \
        "$build/ovsdb/ovsdb-server" "$build/utilities/ovs-vsctl" \
        "$src/vswitchd/vswitch.ovsschema"
    if test ! -x "$ref_vswitchd_dpdk"; then
        # Unpacked, never installed: no system service starts.
        mkdir -p "$ref_dpdk_root"
        (cd "$ref_dpdk_root/.." \
         && apt-get download -qq -o APT::Sandbox::User=root \
                openvswitch-switch-dpdk \
         && dpkg-deb -x openvswitch-switch-dpdk_*.deb root) >/dev/null 2>&1 \
            || true
    fi
    # Open vSwitch asks for one tx queue more than it has PMD threads and
    # does not fall back when net_tap, which wants as many rx queues as tx
    # queues, refuses the configuration: two of each.
    tapq=options:n_rxq=2
    run ovs-3.1-dpdk-tap "$ref_vswitchd_dpdk" "$ref_ovsdb" "$ref_vsctl" \
        "$ref_schema"
    ptype=tap
    run ovs-3.1-tap "$ref_vswitchd" "$ref_ovsdb" "$ref_vsctl" "$ref_schema"
fi
if test $which = all || test $which = afxdp; then
    ptype=afxdp
    for xmode in best-effort generic; do
        sfx=; test $xmode = generic && sfx=-gen
        run dpswitch-afxdp$sfx "$build/vswitchd/ovs-vswitchd" \
            "$build/ovsdb/ovsdb-server" "$build/utilities/ovs-vsctl" \
            "$src/vswitchd/vswitch.ovsschema"
        run ovs-3.1-afxdp$sfx "$ref_vswitchd" "$ref_ovsdb" "$ref_vsctl" \
            "$ref_schema"
    done
fi
