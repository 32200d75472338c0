/* bridge: ovs-vswitchd's configuration engine.
 *
 * The bridge module keeps the switch in line with the Open_vSwitch database.
 * It reads the database through the IDL (lib/ovsdb-idl.h), holding the
 * OVSDB lock "ovs_vswitchd" so that only one ovs-vswitchd configures a
 * database, and on every change of the replica it brings the running
 * switch to the configuration found there, without a restart:
 *
 *   - DPDK and the datapath start once, after the first read of
 *     Open_vSwitch:other_config (dpdk_init(), then dp_netdev_create());
 *     other_config then goes to dp_netdev_set_config() on every change.
 *   - Each Bridge whose datapath_type is "" or "netdev" (every dpswitch
 *     bridge uses the one userspace datapath, "ovs-netdev") gets a NORMAL
 *     decision maker (ofproto/normal.h) and its ports: each Interface is
 *     opened as a netdev of its type, configured from 'options' and
 *     'mtu_request', and added to the datapath.  The interface named like
 *     the bridge is the bridge's local port, OpenFlow port 65534.
 *   - Ports get the OpenFlow number in 'ofport_request', or keep the one
 *     they had (also across a restart, through Interface:ofport), or the
 *     lowest free one.
 *
 * It then writes what it did back: Interface ofport, error (the cause in
 * words), admin_state, link_state, link_resets, link_speed, duplex,
 * mac_in_use, mtu, ifindex, status, and every
 * other_config:stats-update-interval milliseconds (default 5000) the
 * statistics; Bridge datapath_id and datapath_version; Open_vSwitch
 * ovs_version, iface_types, datapath_types, dpdk_initialized,
 * dpdk_version; and finally cur_cfg = next_cfg, which is what "ovs-vsctl"
 * waits for.  Invalid settings are logged as warnings, reported in
 * Interface:error where an interface is concerned, and never stop the
 * daemon.
 *
 * The datapath's upcall callback (run on PMD threads) maps the packet's
 * datapath input port to its bridge and returns normal_xlate()'s actions
 * and megaflow mask.  When the slow path's state changes (a MAC address
 * learned, moved, expired or flushed; a port or its VLAN settings changed)
 * the datapath's megaflows that may have become wrong are deleted through
 * dp_netdev_revalidate(), so the next packet takes a fresh decision.
 *
 * unixctl commands: fdb/show BRIDGE, fdb/flush [BRIDGE], fdb/add, fdb/del,
 * fdb/stats-show, fdb/stats-clear, dpif/show, plus the datapath's own.
 *
 * Threads: every function here belongs to the main thread.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef VSWITCHD_BRIDGE_H
#define VSWITCHD_BRIDGE_H 1

#include <stdbool.h>

/* Options from the command line that reach the bridge module. */
struct bridge_options {
    bool dummy;                 /* --enable-dummy: accept the "dummy"
                                 * datapath type as another name for
                                 * "netdev". */
    bool dummy_override;        /* --enable-dummy=override: every bridge
                                 * behaves as a "dummy" one (see
                                 * ovs-vswitchd.rst, "Tests"). */
};

/* Connects to the database at 'remote' (for example
 * "unix:/var/run/openvswitch/db.sock") and registers the unixctl commands.
 * Nothing is configured before the first bridge_run(). */
void bridge_init(const char *remote, const struct bridge_options *);

/* Processes database changes, reconfigures, writes status and statistics,
 * ages MAC tables and revalidates flows as needed.  Also runs the
 * datapath's main-thread work. */
void bridge_run(void);

/* Registers the poll-loop events that make bridge_run() have work. */
void bridge_wait(void);

/* True once the first configuration read from the database has been
 * applied and its acknowledgement (Open_vSwitch:cur_cfg and the status the
 * reconfiguration produced) committed, or found to have nothing to write
 * (no Open_vSwitch row).  Until then "ovs-vswitchd --detach" keeps its
 * caller waiting, as Open vSwitch's does: without the database, or while
 * another ovs-vswitchd holds its lock, that is indefinitely. */
bool bridge_initial_config_done(void);

/* Tears everything down: every port leaves the datapath, netdevs close,
 * the datapath and the IDL are destroyed.  'cleanup' is "exit --cleanup":
 * the userspace datapath and its ports never outlive the process, so both
 * ways release everything; the database is left as it is. */
void bridge_exit(bool cleanup);

#endif /* vswitchd/bridge.h */
