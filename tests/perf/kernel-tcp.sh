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
# WHICH (default all) picks the rows: "system" or "afxdp".  dpswitch's
# afxdp rows need a build with libxdp (configure says so); without it they
# print "port not added" and the reason.
#
# Prints one line per switch: name, Gbit/s received, retransmits.  Every
# namespace and interface it creates is deleted at exit.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

set -e
build=${1:?usage: $0 BUILD_DIR [SECONDS [WHICH]]}
secs=${2:-5}
which=${3:-all}
# Port type and XDP mode of the next run (see "run").
ptype=system xmode=
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
    for x in a b; do
        ip -n dpskpf-sw link add dpskpf$x type veth peer name dpskpf${x}p \
            netns dpskpf-$x
        ip -n dpskpf-sw link set dpskpf$x up
        ip -n dpskpf-$x link set dpskpf${x}p up
    done
    if test $ptype = afxdp; then
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
    ip -n dpskpf-a addr add 10.93.0.1/24 dev dpskpfap
    ip -n dpskpf-b addr add 10.93.0.2/24 dev dpskpfbp

    "$build/ovsdb/ovsdb-tool" create "$d/conf.db" "$schema"
    "$ovsdb" --detach --no-chdir --pidfile="$d/ovsdb-server.pid" \
        --log-file="$d/ovsdb-server.log" --remote=punix:"$d/db.sock" \
        "$d/conf.db" 2>/dev/null
    "$vsctl" --db=unix:"$d/db.sock" --no-wait init
    for oc in "$@"; do
        "$vsctl" --db=unix:"$d/db.sock" --no-wait \
            set Open_vSwitch . other_config:$oc
    done
    ip netns exec dpskpf-sw "$vswitchd" unix:"$d/db.sock" --detach \
        --no-chdir --pidfile="$d/ovs-vswitchd.pid" \
        --log-file="$d/ovs-vswitchd.log" 2>/dev/null
    "$vsctl" --db=unix:"$d/db.sock" --timeout=30 \
        add-br br0 -- set bridge br0 datapath_type=netdev $ports

    result=
    sleep 1
    ofport=`"$vsctl" --db=unix:"$d/db.sock" get interface dpskpfa ofport`
    if test "$ofport" = -1; then
        result="port not added: `"$vsctl" --db=unix:"$d/db.sock" \
                get interface dpskpfa error`"
    elif ip netns exec dpskpf-a ping -q -c 3 -i 0.2 -W 2 10.93.0.2 >/dev/null \
       || ip netns exec dpskpf-a ping -q -c 3 -i 0.5 -W 2 10.93.0.2 \
              >/dev/null; then
        ip netns exec dpskpf-b iperf3 -s -1 -D -p 5399 \
            --pidfile "$d/iperf3.pid" --logfile "$d/iperf3-server.log"
        sleep 0.5
        if ip netns exec dpskpf-a timeout $((secs + 20)) \
               iperf3 -c 10.93.0.2 -p 5399 -t "$secs" -J > "$d/iperf.json" \
               2>/dev/null; then
            result=`python3 - "$d/iperf.json" <<'EOF'
import json, sys
end = json.load(open(sys.argv[1]))["end"]
print("%.2f Gbit/s  %d retransmits" % (
    end["sum_received"]["bits_per_second"] / 1e9,
    end["sum_sent"].get("retransmits", 0)))
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
if test $which != afxdp; then
    ptype=system
    run dpswitch "$build/vswitchd/ovs-vswitchd" "$build/ovsdb/ovsdb-server" \
        "$build/utilities/ovs-vsctl" "$src/vswitchd/vswitch.ovsschema"
    run ovs-3.1 "$ref_vswitchd" "$ref_ovsdb" "$ref_vsctl" "$ref_schema"
    run ovs-3.1-tso "$ref_vswitchd" "$ref_ovsdb" "$ref_vsctl" "$ref_schema" \
        userspace-tso-enable=true
fi
if test $which != system; then
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
