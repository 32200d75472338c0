/* bridge: ovs-vswitchd's configuration engine.  See bridge.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include "bridge.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compat.h"
#include "coverage.h"
#include "dp-actions.h"
#include "dirs.h"
#include "dp-execute.h"
#include "dp-packet.h"
#include "dpdk.h"
#include "dpif-netdev.h"
#include "dynamic-string.h"
#include "flow.h"
#include "latch.h"
#include "memory.h"
#include "netdev.h"
#include "netdev-dpdk.h"
#include "netdev-qos.h"
#include "netdev-vhost.h"
#include "ofp-actions.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "ofproto/bond.h"
#include "ofproto/lacp.h"
#include "ofproto/connmgr.h"
#include "ofproto/mirror.h"
#include "ofproto/normal.h"
#include "ofproto/ofproto-xlate.h"
#include "ofproto/ofproto.h"
#include "ofproto/trace.h"
#include "ovsdb-idl.h"
#include "ovsdb/uuid.h"
#include "packets.h"
#include "poll-loop.h"
#include "restart-needed.h"
#include "smap.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"
#include "vswitch-idl.h"

VLOG_DEFINE_THIS_MODULE(bridge);

COVERAGE_DEFINE(bridge_reconfigure);
COVERAGE_DEFINE(bridge_revalidate);
COVERAGE_DEFINE(bridge_late_revalidate);
COVERAGE_DEFINE(bridge_refresh);
COVERAGE_DEFINE(bridge_refresh_del);
COVERAGE_DEFINE(bridge_refresh_mod);
COVERAGE_DEFINE(bridge_packet_out);
COVERAGE_DEFINE(bridge_packet_out_drop);

/* OpenFlow port numbers: ports get 1 to OFPORT_MAX; the local port is
 * OFPORT_LOCAL.  Interface:ofport is -1 for an interface that failed. */
#define OFPORT_MAX 65279
#define OFPORT_LOCAL 65534
#define OFPORT_FAILED (-1)

/* other_config:stats-update-interval, milliseconds. */
#define STATS_INTERVAL_DEFAULT 5000
#define STATS_INTERVAL_MIN 100

/* How often link state and status are looked at between reconfigurations,
 * milliseconds. */
#define STATUS_POLL_INTERVAL 1000

/* MAC changes a bridge queues for revalidation before it gives up listing
 * them and revalidates all its flows. */
#define MAX_PENDING_MACS 1024

/* A port of a bridge: one Interface row (with its Port row).  The
 * interfaces of a Port that has several are the members of a bond (see
 * "Bonds" below). */
struct port {
    struct bridge *bridge;
    char *name;                 /* Port:name. */
    char *iface_name;           /* Interface:name, the netdev's name. */
    struct uuid iface_uuid;     /* The Interface row, for status writes. */
    bool is_local;              /* Named like the bridge: OFPORT_LOCAL. */
    bool is_bond;               /* One of several interfaces of a Port. */
    struct bond *bond;          /* Then the Port's bond, once configured. */
    bool keep;                  /* Marked while reconfiguring. */
    bool announced;             /* "added interface" logged. */

    /* Settings as last applied, to notice changes. */
    char *type;                 /* Interface:type ("" as "system"). */
    struct smap options;        /* Interface:options. */
    struct smap other_config;   /* Interface:other_config. */
    int64_t mtu_request;        /* 0 for none. */
    char *mac_request;          /* Interface:mac or Bridge hwaddr, or NULL. */
    char *qos_request;          /* Port:qos as text (port_qos_text()), or
                                 * NULL for none. */
    int64_t policing[4];        /* Interface:ingress_policing_rate, _burst,
                                 * _kpkts_rate, _kpkts_burst. */

    /* What is running. */
    struct netdev *netdev;      /* NULL if the interface could not be set
                                 * up ('open_error' says why). */
    uint32_t dp_port;           /* DP_PORT_NONE if not in the datapath. */
    int64_t ofport;             /* OFPORT_FAILED if not set up. */
    char *open_error;           /* Why the interface is not set up. */
    char *mtu_error;            /* mtu_request could not be applied. */
    char *mac_error;            /* Interface:mac (hwaddr) not applied. */
    char *oc_error;             /* other_config not (all) applied. */
    char *vlan_error;           /* What the VLAN settings had ignored. */
    char *qos_error;            /* Port:qos not applied. */
    char *policing_error;       /* Ingress policing not applied. */
    uint64_t change_seq;        /* Netdev change seq when last written. */
    uint64_t of_change_seq;     /* Netdev change seq OpenFlow last saw. */
    uint32_t of_config;         /* OpenFlow port config (OFPPC_*) but
                                 * PORT_DOWN, which is the netdev's. */
    long long int created;      /* For OpenFlow port statistics. */
    int64_t warned_request;     /* ofport_request last refused. */

    /* VLAN settings for NORMAL switching. */
    struct normal_port_config vlan;
    uint16_t *trunks;           /* vlan.trunks points here. */
};

/* A MAC address whose table entry changed, for revalidation. */
struct changed_mac {
    struct eth_addr mac;
    bool dst_only;              /* Newly learned: only flows towards it
                                 * (which flooded) are stale. */
};

/* A bonded Port of a bridge. */
struct bridge_bond {
    struct bond *bond;
    char *warning;              /* Settings problems last logged. */
    bool default_mode_warned;   /* bond_mode unset, logged. */
    bool keep;                  /* Marked while reconfiguring. */
};

/* A bridge. */
struct bridge {
    char *name;
    struct uuid uuid;           /* Bridge row. */
    bool keep;                  /* Marked while reconfiguring. */
    struct normal_bridge *nb;

    /* OpenFlow: the flow tables, the ports as translation sees them
     * (replaced under the upcall write lock), and the table version the
     * datapath's flows were last revalidated against. */
    struct ofproto *ofproto;
    struct connmgr *connmgr;    /* OpenFlow connections. */
    struct xlate_port *xports;
    size_t n_xports;
    uint64_t ofproto_version;
    unsigned int ctl_status_seqno;      /* Controller status written. */
    struct port **ports;
    size_t n_ports;
    struct bridge_bond *bonds;
    size_t n_bonds;

    /* NORMAL settings from the Bridge row. */
    uint16_t *flood_vlans;
    size_t n_flood_vlans;
    bool forward_bpdu;
    long long int mac_aging_time;
    long long int mac_table_size;
    char *config_warnings;      /* Warnings given for the Bridge row. */
    char *normal_config;        /* The NORMAL configuration last applied,
                                 * as text, to notice changes. */
    char *datapath_id_request;  /* other_config:datapath-id, if valid. */
    char *datapath_id;          /* The datapath ID last written. */

    /* Mirror rows (replaced under the upcall write lock), and the problems
     * logged for them, to log each once. */
    struct mirror_set *mirrors;
    char *mirror_warnings;

    /* MAC table changes, queued by the change callback (which runs on any
     * thread, with the NORMAL bridge's mutex held) for revalidation on the
     * main thread. */
    pthread_mutex_t changes_mutex;
    struct changed_mac *changed_macs;
    size_t n_changed_macs, allocated_changed_macs;
    bool all_changed;           /* Too many to list: revalidate all. */

    /* Main thread only: the revalidation in progress, and what the late
     * revalidation will look at again. */
    bool revalidate_all;
    struct changed_mac *reval_macs;
    size_t n_reval_macs;
    bool late_all;
    struct changed_mac *late_macs;
    size_t n_late_macs;
};

/* An entry of the upcall map: which bridge a datapath port belongs to. */
struct upcall_port {
    uint32_t dp_port;
    struct bridge *bridge;
};

/* The database. */
static struct ovsdb_idl *idl;
static unsigned int idl_seqno;
static bool lock_warned;
static struct ovsdb_idl_txn *status_txn;
static enum {
    INITIAL_WAITING,            /* No configuration applied yet. */
    INITIAL_CONFIGURED,         /* Applied; its status not written yet. */
    INITIAL_WRITING,            /* 'status_txn' writes its status. */
    INITIAL_DONE                /* bridge_initial_config_done(). */
} initial_state;
static bool status_dirty;       /* Something to write once 'status_txn' is
                                 * done. */
static bool stats_due;          /* Write statistics with the next status. */
static int64_t cfg_to_ack = -1; /* next_cfg the last reconfiguration saw. */
static int64_t last_next_cfg = -1;
static struct bridge_options options;

/* The datapath.  'dp_other_config' is the other_config it got last. */
static struct dp_netdev *dp;
static struct smap dp_other_config = SMAP_INITIALIZER;

/* Bridges, in creation order. */
static struct bridge **bridges;
static size_t n_bridges;

/* Bridge rows refused (unsupported datapath_type): name to message, so
 * that each is logged once. */
static struct smap rejected_bridges = SMAP_INITIALIZER;

/* The interfaces of refused bridges, which get the bridge's message in
 * Interface:error. */
struct rejected_iface {
    struct uuid uuid;
    char *msg;
};
static struct rejected_iface *rejected_ifaces;
static size_t n_rejected_ifaces;

/* The upcall map, sorted by datapath port.  PMD threads read it under the
 * read lock; the main thread replaces it under the write lock, and never
 * calls into the datapath while it holds that lock (the datapath may be
 * waiting for a PMD thread that waits for the lock). */
static pthread_rwlock_t upcall_rwlock = PTHREAD_RWLOCK_INITIALIZER;
static struct upcall_port *upcall_ports;
static size_t n_upcall_ports;

/* Set by the MAC change callback to wake the main thread. */
static struct latch revalidate_latch;

/* Set by an upcall that gave a bond's LACP a LACPDU worth acting on: wakes
 * the main thread to run the bonds. */
static struct latch bond_latch;

/* The members of LACP bonds by datapath port, for the upcalls that take
 * LACPDUs; a bond is taken out before it is destroyed. */
struct bond_pdu_port {
    uint32_t dp_port;
    struct bond *bond;
};
static pthread_mutex_t bond_pdu_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct bond_pdu_port *bond_pdu_ports;
static size_t n_bond_pdu_ports;

/* Re-translation of every megaflow (see bridge_refresh()), periodically. */
static long long int next_refresh = LLONG_MAX;

/* Statistics pushback (bridge_push_stats()): the datapath's counts reach
 * the OpenFlow flows this often, and before each revalidation. */
#define STATS_PUSH_MSEC 500
static long long int next_stats_push;

/* A second revalidation for the same changes, a little later (see
 * bridge_revalidate()). */
#define LATE_REVALIDATION_MSEC 200
static long long int late_revalidation = LLONG_MAX;

/* Statistics and status timing. */
static long long int stats_interval = STATS_INTERVAL_DEFAULT;
static long long int next_stats;
static long long int next_status_poll;
static char *stats_interval_warning;

/* upcall/show's view of the flow dumps (each statistics pushback dumps
 * every flow): the flows at the last one, their running average and
 * maximum, and how long it took; upcall/disable-ufid's setting. */
static unsigned int dump_n_flows, dump_avg_flows, dump_max_flows;
static long long int dump_duration_msec;
static bool ufid_enabled = true;

/* upcall/disable-megaflows: while false (atomic), each upcall's flow
 * matches every field of its packet exactly. */
static bool megaflows_enabled = true;

/* revalidator/wait requests, answered once the main loop has revalidated
 * and pushed the statistics. */
static struct unixctl_conn **reval_waiters;
static size_t n_reval_waiters;

/* other_config:flow-restore-wait holds (see flow_restore_wait_update()). */
static bool flow_restore_waiting = true;

static const struct ovsrec_open_vswitch *bridge_ovs_row(void);
static void bridge_reconfigure(const struct ovsrec_open_vswitch *ovs);
static void bridge_write_status(const struct ovsrec_open_vswitch *ovs);
static void bridge_poll_status(void);
static void bridge_revalidate(void);
static void bridge_refresh(void);
static void bridge_update_liveness(struct bridge *, const struct port *);
static bool port_may_enable(const struct port *);
static void bridge_late_revalidate(void);
static void bridge_push_stats(void);
static long long int refresh_interval(void);
static void bridge_publish(void);
static void bridge_destroy(struct bridge *);
static void clear_rejected_ifaces(void);
static bool eth_addr_is_set(const struct eth_addr *);
static bool eth_addr_same(const struct eth_addr *, const struct eth_addr *);
static struct bridge *bridge_find(const char *name);
struct port_want;
static void port_destroy(struct port *);
static void port_apply_qos(struct port *, const struct port_want *,
                           bool force);
static char *port_qos_text(const struct ovsrec_qos *);
static void port_apply_policing(struct port *, const struct port_want *,
                                bool force);
static void register_columns(void);
static void register_commands(void);
static void bridge_answer_reval_waiters(void);
static unixctl_cb_func ofproto_list_cb;
static unixctl_cb_func dpif_dump_dps_cb;
static unixctl_cb_func dpif_dump_flows_cb;
static unixctl_cb_func revalidator_wait_cb;
static unixctl_cb_func revalidator_purge_cb;
static unixctl_cb_func upcall_show_cb;
static unixctl_cb_func upcall_set_flow_limit_cb;
static unixctl_cb_func upcall_ufid_cb;
static unixctl_cb_func upcall_megaflows_cb;
static unixctl_cb_func bridge_dump_flows_cb;
static unixctl_cb_func bridge_reconnect_cb;
static void mask_exact(const struct flow *key, struct flow *mask);
static struct netdev *iface_netdev_or_reply(struct unixctl_conn *,
                                            const char *name);
static void qos_show_cb(struct unixctl_conn *, int argc, const char *argv[],
                        void *aux);
static void ofproto_trace_cb(struct unixctl_conn *, int argc,
                             const char *argv[], void *aux);
static void memory_report_cb(struct memory_report *, void *aux);
static dp_upcall_cb upcall_cb;
static void bond_pdu_index(void);
static void bond_pdu_forget(struct bond *);
static bool bond_pdu_take(const struct flow *, const struct dp_packet *);
static int bridge_xlate(struct bridge *, const struct flow *key,
                        long long int now, struct dp_actions *,
                        struct flow *mask);
static dp_revalidate_cb revalidate_cb;
static dp_revalidate_cb refresh_cb;
static dp_execute_userspace_cb bridge_userspace_cb;
static mac_learning_change_cb mac_change_cb;
static bool bridge_configure_mirrors(struct bridge *);
static void bridge_write_mirror_stats(struct ovsdb_idl_txn *,
                                      const struct bridge *,
                                      const struct ovsrec_bridge *);
static void bridge_configure_openflow(struct bridge *,
                                      const struct ovsrec_bridge *,
                                      const struct smap *oc);
struct bridge_want;
static void bridge_configure_bonds(struct bridge *,
                                   const struct bridge_want *);
static void bridge_free_stale_bonds(struct bridge *);
static void bridge_run_bonds(struct bridge *, long long int now);
static void bridge_send_bond_frame(void *aux, uint32_t dp_port,
                                   const void *frame, size_t size);
static struct eth_addr bridge_local_mac(const struct bridge *);
static void bridge_send_learning_packets(struct bridge *, struct bond *,
                                         long long int now);
static void bridge_wait_bonds(struct bridge *);
static void bridge_write_bonds(struct ovsdb_idl_txn *,
                               const struct bridge *);
static const struct connmgr_hooks bridge_connmgr_hooks;
static void flow_restore_wait_update(const struct ovsrec_open_vswitch *);
static void compat_report(const char *message);

/* ------------------------------------------------------------------------
 * Public functions.
 * ------------------------------------------------------------------------ */

/* Connects to the database at 'remote'.  See bridge.h. */
void
bridge_init(const char *remote, const struct bridge_options *opts)
{
    options = *opts;
    idl = ovsdb_idl_create(remote, "Open_vSwitch", true);
    register_columns();
    compat_register_columns(idl);
    ovsdb_idl_set_lock(idl, "ovs_vswitchd");
    ovsdb_idl_set_db_change_aware(idl, true);
    idl_seqno = ovsdb_idl_get_seqno(idl);
    latch_init(&revalidate_latch);
    latch_init(&bond_latch);
    register_commands();
    memory_register_reporter(memory_report_cb, NULL);
    dp_execute_set_userspace_cb(bridge_userspace_cb);
}

/* Processes database changes.  See bridge.h. */
void
bridge_run(void)
{
    ovsdb_idl_run(idl);

    if (ovsdb_idl_is_lock_contended(idl)) {
        if (!lock_warned) {
            lock_warned = true;
            VLOG_ERR("another ovs-vswitchd process is running, disabling "
                     "this process (pid %ld) until it goes away",
                     (long int) getpid());
        }
    } else if (ovsdb_idl_has_lock(idl) && lock_warned) {
        lock_warned = false;
        VLOG_INFO("took the database lock \"ovs_vswitchd\"");
    }

    /* Finish the transaction in flight. */
    if (status_txn) {
        enum ovsdb_idl_txn_status status = ovsdb_idl_txn_commit(status_txn);

        if (status != TXN_INCOMPLETE) {
            if (status != TXN_SUCCESS && status != TXN_UNCHANGED) {
                if (status == TXN_ERROR) {
                    static struct vlog_rate_limit rl
                        = VLOG_RATE_LIMIT_INIT(5, 5);
                    VLOG_WARN_RL(&rl, "writing status to the database "
                                 "failed: %s",
                                 ovsdb_idl_txn_get_error(status_txn));
                }
                status_dirty = true;
            }
            ovsdb_idl_txn_destroy(status_txn);
            status_txn = NULL;
            if (initial_state == INITIAL_WRITING) {
                initial_state = INITIAL_DONE;
            }
        }
    }

    const struct ovsrec_open_vswitch *ovs = bridge_ovs_row();

    if (ovs && ovsdb_idl_get_seqno(idl) != idl_seqno) {
        idl_seqno = ovsdb_idl_get_seqno(idl);
        bridge_reconfigure(ovs);
        compat_warn(idl, compat_report);
        status_dirty = true;
        if (initial_state == INITIAL_WAITING) {
            initial_state = INITIAL_CONFIGURED;
        }
    } else if (!ovs && initial_state == INITIAL_WAITING
               && ovsdb_idl_has_lock(idl) && ovsdb_idl_is_monitoring(idl)) {
        /* No Open_vSwitch row: nothing to configure or acknowledge. */
        initial_state = INITIAL_DONE;
    }

    if (dp) {
        dp_netdev_run(dp);
    }

    long long int now = time_msec();
    latch_poll(&bond_latch);
    for (size_t i = 0; i < n_bridges; i++) {
        struct bridge *br = bridges[i];

        normal_run(br->nb, now);
        bridge_run_bonds(br, now);
        for (size_t j = 0; j < br->n_ports; j++) {
            struct port *port = br->ports[j];
            if (port->netdev && netdev_get_change_seq(port->netdev)
                                != port->of_change_seq) {
                port->of_change_seq = netdev_get_change_seq(port->netdev);
                connmgr_ports_changed(br->connmgr);
                bridge_update_liveness(br, port);
            }
        }
        connmgr_run(br->connmgr);
        if (connmgr_status_seqno(br->connmgr) != br->ctl_status_seqno) {
            status_dirty = true;
        }
        ofproto_run(br->ofproto, now);
        if (ofproto_version(br->ofproto) != br->ofproto_version) {
            /* The tables changed: no megaflow of the bridge may stay. */
            br->ofproto_version = ofproto_version(br->ofproto);
            br->revalidate_all = true;
            latch_set(&revalidate_latch);
        }
    }
    if (latch_poll(&revalidate_latch)) {
        bridge_revalidate();
    }
    if (dp && now >= late_revalidation) {
        bridge_late_revalidate();
    }
    if (dp && now >= next_refresh) {
        bridge_refresh();
    }
    if (dp && now >= next_stats_push) {
        bridge_push_stats();
    }
    if (n_reval_waiters) {
        bridge_answer_reval_waiters();
    }

    if (ovs && dp) {
        if (now >= next_stats) {
            next_stats = now + stats_interval;
            stats_due = true;
            status_dirty = true;
        }
        if (now >= next_status_poll) {
            next_status_poll = now + STATUS_POLL_INTERVAL;
            bridge_poll_status();
        }
    }
    if (ovs && status_dirty && !status_txn) {
        bool initial = initial_state == INITIAL_CONFIGURED;

        status_dirty = false;
        bridge_write_status(ovs);
        if (initial) {
            initial_state = status_txn ? INITIAL_WRITING : INITIAL_DONE;
        }
    }
}

/* Registers what wakes bridge_run().  See bridge.h. */
void
bridge_wait(void)
{
    ovsdb_idl_wait(idl);
    latch_wait(&revalidate_latch);
    latch_wait(&bond_latch);
    for (size_t i = 0; i < n_bridges; i++) {
        long long int when = MIN(normal_next_wakeup(bridges[i]->nb),
                                 ofproto_next_wakeup(bridges[i]->ofproto));
        if (when != LLONG_MAX) {
            poll_timer_wait_until(when);
        }
        connmgr_wait(bridges[i]->connmgr);
        bridge_wait_bonds(bridges[i]);
    }
    /* Without the row (not monitoring, reconnecting) bridge_run() writes
     * no status and keeps no statistics timers: the IDL wakes us when it
     * comes back.  (Waiting on those timers then was a busy loop.) */
    const struct ovsrec_open_vswitch *ovs = bridge_ovs_row();
    if (status_dirty && !status_txn && ovs) {
        poll_immediate_wake();
    }
    if (dp) {
        dp_netdev_wait(dp);
        poll_timer_wait_until(MIN(MIN(next_refresh, late_revalidation),
                                  next_stats_push));
        if (ovs) {
            poll_timer_wait_until(next_stats);
            poll_timer_wait_until(next_status_poll);
        }
    }
}

/* See bridge.h. */
bool
bridge_initial_config_done(void)
{
    return initial_state == INITIAL_DONE;
}

/* Tears everything down.  See bridge.h. */
void
bridge_exit(bool cleanup DPS_UNUSED)
{
    pthread_rwlock_wrlock(&upcall_rwlock);
    free(upcall_ports);
    upcall_ports = NULL;
    n_upcall_ports = 0;
    pthread_rwlock_unlock(&upcall_rwlock);

    while (n_bridges) {
        bridge_destroy(bridges[n_bridges - 1]);
    }
    free(bridges);
    bridges = NULL;

    if (dp) {
        dp_netdev_destroy(dp);
        dp = NULL;
    }
    smap_destroy(&dp_other_config);
    smap_destroy(&rejected_bridges);
    clear_rejected_ifaces();
    if (status_txn) {
        ovsdb_idl_txn_destroy(status_txn);
        status_txn = NULL;
    }
    ovsdb_idl_destroy(idl);
    idl = NULL;
    latch_destroy(&revalidate_latch);
    latch_destroy(&bond_latch);
    free(stats_interval_warning);
    stats_interval_warning = NULL;
    compat_clear();
}

/* ------------------------------------------------------------------------
 * Reading the database.
 * ------------------------------------------------------------------------ */

/* The columns ovs-vswitchd reads and writes.  Registering them (rather
 * than replicating everything) keeps the monitor small. */
/* The Open_vSwitch row to act on: NULL while the IDL lacks the lock or
 * is not monitoring (reconnecting, moving to another server). */
static const struct ovsrec_open_vswitch *
bridge_ovs_row(void)
{
    return (ovsdb_idl_has_lock(idl) && ovsdb_idl_is_monitoring(idl)
            ? ovsrec_open_vswitch_first(idl) : NULL);
}

static void
register_columns(void)
{
    static const enum ovsrec_open_vswitch_column_id ovs_cols[] = {
        OVSREC_OPEN_VSWITCH_COL_BRIDGES, OVSREC_OPEN_VSWITCH_COL_NEXT_CFG,
        OVSREC_OPEN_VSWITCH_COL_CUR_CFG, OVSREC_OPEN_VSWITCH_COL_OTHER_CONFIG,
        OVSREC_OPEN_VSWITCH_COL_OVS_VERSION,
        OVSREC_OPEN_VSWITCH_COL_IFACE_TYPES,
        OVSREC_OPEN_VSWITCH_COL_DATAPATH_TYPES,
        OVSREC_OPEN_VSWITCH_COL_DPDK_INITIALIZED,
        OVSREC_OPEN_VSWITCH_COL_DPDK_VERSION,
        OVSREC_OPEN_VSWITCH_COL_STATISTICS,
    };
    static const enum ovsrec_bridge_column_id br_cols[] = {
        OVSREC_BRIDGE_COL_NAME, OVSREC_BRIDGE_COL_DATAPATH_TYPE,
        OVSREC_BRIDGE_COL_PORTS, OVSREC_BRIDGE_COL_FLOOD_VLANS,
        OVSREC_BRIDGE_COL_OTHER_CONFIG, OVSREC_BRIDGE_COL_DATAPATH_ID,
        OVSREC_BRIDGE_COL_DATAPATH_VERSION, OVSREC_BRIDGE_COL_PROTOCOLS,
        OVSREC_BRIDGE_COL_MIRRORS, OVSREC_BRIDGE_COL_CONTROLLER,
        OVSREC_BRIDGE_COL_FAIL_MODE,
    };
    static const enum ovsrec_port_column_id port_cols[] = {
        OVSREC_PORT_COL_NAME, OVSREC_PORT_COL_INTERFACES, OVSREC_PORT_COL_TAG,
        OVSREC_PORT_COL_TRUNKS, OVSREC_PORT_COL_VLAN_MODE,
        OVSREC_PORT_COL_OTHER_CONFIG, OVSREC_PORT_COL_QOS,
        OVSREC_PORT_COL_BOND_MODE, OVSREC_PORT_COL_BOND_UPDELAY,
        OVSREC_PORT_COL_BOND_DOWNDELAY, OVSREC_PORT_COL_BOND_ACTIVE_SLAVE,
        OVSREC_PORT_COL_LACP,
    };
    static const enum ovsrec_interface_column_id iface_cols[] = {
        OVSREC_INTERFACE_COL_NAME, OVSREC_INTERFACE_COL_TYPE,
        OVSREC_INTERFACE_COL_OPTIONS, OVSREC_INTERFACE_COL_OTHER_CONFIG,
        OVSREC_INTERFACE_COL_OFPORT, OVSREC_INTERFACE_COL_OFPORT_REQUEST,
        OVSREC_INTERFACE_COL_MTU_REQUEST, OVSREC_INTERFACE_COL_MAC,
        OVSREC_INTERFACE_COL_ERROR, OVSREC_INTERFACE_COL_ADMIN_STATE,
        OVSREC_INTERFACE_COL_LINK_STATE, OVSREC_INTERFACE_COL_LINK_RESETS,
        OVSREC_INTERFACE_COL_LINK_SPEED, OVSREC_INTERFACE_COL_DUPLEX,
        OVSREC_INTERFACE_COL_MAC_IN_USE, OVSREC_INTERFACE_COL_MTU,
        OVSREC_INTERFACE_COL_IFINDEX, OVSREC_INTERFACE_COL_STATUS,
        OVSREC_INTERFACE_COL_STATISTICS, OVSREC_INTERFACE_COL_LACP_CURRENT,
        OVSREC_INTERFACE_COL_INGRESS_POLICING_RATE,
        OVSREC_INTERFACE_COL_INGRESS_POLICING_BURST,
        OVSREC_INTERFACE_COL_INGRESS_POLICING_KPKTS_RATE,
        OVSREC_INTERFACE_COL_INGRESS_POLICING_KPKTS_BURST,
    };

    ovsrec_open_vswitch_add_table(idl);
    for (size_t i = 0; i < ARRAY_SIZE(ovs_cols); i++) {
        ovsrec_open_vswitch_add_column(idl, ovs_cols[i]);
    }
    ovsrec_bridge_add_table(idl);
    for (size_t i = 0; i < ARRAY_SIZE(br_cols); i++) {
        ovsrec_bridge_add_column(idl, br_cols[i]);
    }
    ovsrec_port_add_table(idl);
    for (size_t i = 0; i < ARRAY_SIZE(port_cols); i++) {
        ovsrec_port_add_column(idl, port_cols[i]);
    }
    ovsrec_interface_add_table(idl);
    for (size_t i = 0; i < ARRAY_SIZE(iface_cols); i++) {
        ovsrec_interface_add_column(idl, iface_cols[i]);
    }
    ovsrec_qos_add_table(idl);
    ovsrec_qos_add_column(idl, OVSREC_QOS_COL_TYPE);
    ovsrec_qos_add_column(idl, OVSREC_QOS_COL_OTHER_CONFIG);
    ovsrec_qos_add_column(idl, OVSREC_QOS_COL_QUEUES);
    ovsrec_queue_add_table(idl);
    ovsrec_queue_add_column(idl, OVSREC_QUEUE_COL_OTHER_CONFIG);
    ovsrec_controller_add_table(idl);
    ovsrec_controller_add_column(idl, OVSREC_CONTROLLER_COL_TARGET);
    ovsrec_controller_add_column(idl, OVSREC_CONTROLLER_COL_MAX_BACKOFF);
    ovsrec_controller_add_column(idl, OVSREC_CONTROLLER_COL_INACTIVITY_PROBE);
    ovsrec_controller_add_column(idl, OVSREC_CONTROLLER_COL_IS_CONNECTED);
    ovsrec_controller_add_column(idl, OVSREC_CONTROLLER_COL_ROLE);
    ovsrec_controller_add_column(idl, OVSREC_CONTROLLER_COL_STATUS);
    ovsrec_mirror_add_table(idl);
    for (int c = OVSREC_MIRROR_COL_NAME; c <= OVSREC_MIRROR_COL_STATISTICS;
         c++) {
        ovsrec_mirror_add_column(idl, c);
    }
}

/* ------------------------------------------------------------------------
 * Reconfiguration.
 * ------------------------------------------------------------------------ */

/* What the database asks for one port, gathered before anything changes. */
struct port_want {
    const struct ovsrec_port *port_row;
    const struct ovsrec_interface *iface_row;
    const char *name;           /* Port name. */
    const char *iface_name;
    const char *type;           /* "" replaced by "system". */
    bool is_bond;               /* The Port has several interfaces. */
    bool is_local;              /* Named like the bridge. */
};

/* What the database asks for one bridge. */
struct bridge_want {
    const struct ovsrec_bridge *row;
    const char *name;
    struct port_want *ports;
    size_t n_ports;
};

static bool
datapath_type_is_supported(const char *type)
{
    return (!strcmp(type, "") || !strcmp(type, "netdev")
            || (options.dummy && !strcmp(type, "dummy")));
}

/* Replaces '*dst' by a copy of 'src' (which may be NULL). */
static void
set_string(char **dst, const char *src)
{
    char *copy = src ? xstrdup(src) : NULL;
    free(*dst);
    *dst = copy;
}

static bool
strings_equal(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static int
compare_port_wants(const void *a_, const void *b_)
{
    const struct port_want *a = a_, *b = b_;

    if (a->is_local != b->is_local) {
        return a->is_local ? 1 : -1;
    }
    return strcmp(a->iface_name, b->iface_name);
}

static void
clear_rejected_ifaces(void)
{
    for (size_t i = 0; i < n_rejected_ifaces; i++) {
        free(rejected_ifaces[i].msg);
    }
    free(rejected_ifaces);
    rejected_ifaces = NULL;
    n_rejected_ifaces = 0;
}

/* Records that every interface of Bridge row 'row' gets 'msg' as its
 * error. */
static void
reject_bridge_ifaces(const struct ovsrec_bridge *row, const char *msg)
{
    for (size_t i = 0; i < row->n_ports; i++) {
        const struct ovsrec_port *port_row = row->ports[i];

        for (size_t j = 0; j < port_row->n_interfaces; j++) {
            struct rejected_iface *ri;

            rejected_ifaces = xrealloc(rejected_ifaces,
                                       (n_rejected_ifaces + 1)
                                       * sizeof *rejected_ifaces);
            ri = &rejected_ifaces[n_rejected_ifaces++];
            ri->uuid = *ovsrec_interface_get_uuid(port_row->interfaces[j]);
            ri->msg = xstrdup(msg);
        }
    }
}

/* Gathers the wanted bridges and ports from the database.  Bridges with an
 * unsupported datapath type are left out (and logged once). */
static size_t
gather_bridges(const struct ovsrec_open_vswitch *ovs,
               struct bridge_want **wantsp)
{
    size_t n_br_rows = ovs->n_bridges;
    struct bridge_want *wants = xcalloc(MAX(n_br_rows, 1), sizeof *wants);
    struct smap rejected = SMAP_INITIALIZER;
    size_t n = 0;

    clear_rejected_ifaces();
    for (size_t i = 0; i < n_br_rows; i++) {
        const struct ovsrec_bridge *row = ovs->bridges[i];
        const char *name = row->name;
        const char *dp_type = row->datapath_type;

        if (!datapath_type_is_supported(dp_type)) {
            char *msg = xasprintf("bridge %s: datapath_type \"%s\" is not "
                                  "supported (every dpswitch bridge uses the "
                                  "userspace datapath: use \"netdev\")",
                                  name, dp_type);
            const char *old = smap_get(&rejected_bridges, name);
            if (!old || strcmp(old, msg)) {
                VLOG_ERR("%s", msg);
            }
            smap_add(&rejected, name, msg);
            reject_bridge_ifaces(row, msg);
            free(msg);
            continue;
        }

        struct bridge_want *bw = &wants[n++];
        bw->row = row;
        bw->name = name;

        bw->ports = NULL;
        for (size_t j = 0; j < row->n_ports; j++) {
            const struct ovsrec_port *port_row = row->ports[j];

            for (size_t k = 0; k < port_row->n_interfaces; k++) {
                const struct ovsrec_interface *if_row
                    = port_row->interfaces[k];
                struct port_want *pw;

                bw->ports = xrealloc(bw->ports, (bw->n_ports + 1)
                                     * sizeof *bw->ports);
                pw = &bw->ports[bw->n_ports++];
                pw->port_row = port_row;
                pw->iface_row = if_row;
                pw->name = port_row->name;
                pw->iface_name = if_row->name;
                pw->type = if_row->type;
                if (!pw->type[0]) {
                    pw->type = "system";
                }
                pw->is_bond = port_row->n_interfaces > 1;
                pw->is_local = !strcmp(pw->iface_name, name);
            }
        }

        /* New ports are opened, and get datapath and OpenFlow numbers, in
         * this order: by name, then the local port (as Open vSwitch's
         * numbering comes out).  The database gives them in UUID order,
         * which is random. */
        if (bw->n_ports > 1) {
            qsort(bw->ports, bw->n_ports, sizeof *bw->ports,
                  compare_port_wants);
        }
    }
    smap_swap(&rejected, &rejected_bridges);
    smap_destroy(&rejected);
    *wantsp = wants;
    return n;
}

static void
free_wants(struct bridge_want *wants, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(wants[i].ports);
    }
    free(wants);
}

static struct port *
bridge_find_port(const struct bridge *br, const char *iface_name)
{
    for (size_t i = 0; i < br->n_ports; i++) {
        if (!strcmp(br->ports[i]->iface_name, iface_name)) {
            return br->ports[i];
        }
    }
    return NULL;
}

static const struct port_want *
want_find_port(const struct bridge_want *bw, const char *iface_name)
{
    for (size_t i = 0; i < bw->n_ports; i++) {
        if (!strcmp(bw->ports[i].iface_name, iface_name)) {
            return &bw->ports[i];
        }
    }
    return NULL;
}

/* Whether 'pw' asks for the options 'port' was last given. */
static bool
port_options_equal(const struct port *port, const struct port_want *pw)
{
    return smap_equal(&pw->iface_row->options, &port->options);
}

/* Removes the bridges and ports the database no longer has, and the ports
 * that must be opened again: those whose type changed and, with
 * 'retry_failed', those that failed before. */
static void
bridge_remove_stale(const struct bridge_want *wants, size_t n_wants,
                    bool retry_failed)
{
    bool changed = false;

    for (size_t i = 0; i < n_bridges; i++) {
        struct bridge *br = bridges[i];
        const struct bridge_want *bw = NULL;

        for (size_t j = 0; j < n_wants; j++) {
            if (!strcmp(wants[j].name, br->name)) {
                bw = &wants[j];
                break;
            }
        }
        br->keep = bw != NULL;
        changed |= !br->keep;
        for (size_t j = 0; j < br->n_ports; j++) {
            struct port *port = br->ports[j];
            const struct port_want *pw = (bw
                                          ? want_find_port(bw,
                                                           port->iface_name)
                                          : NULL);
            port->keep = (pw && !strcmp(port->type, pw->type)
                          && port->is_bond == pw->is_bond
                          && (port->netdev
                              || (!retry_failed
                                  && port_options_equal(port, pw))));
            changed |= !port->keep;
        }
    }
    if (!changed) {
        return;
    }

    /* Take what goes out of the NORMAL configurations and the upcall map
     * first, so that no PMD thread can find it while it is destroyed. */
    bridge_publish();

    for (size_t i = 0; i < n_bridges; ) {
        struct bridge *br = bridges[i];

        if (!br->keep) {
            VLOG_INFO("bridge %s: deleted", br->name);
            bridge_destroy(br);
            continue;
        }
        for (size_t j = 0; j < br->n_ports; ) {
            struct port *port = br->ports[j];
            if (!port->keep) {
                if (port->netdev && port->announced) {
                    VLOG_INFO("bridge %s: deleted interface %s on port %"
                              PRId64, br->name, port->iface_name,
                              port->ofport);
                }
                port_destroy(port);
                memmove(&br->ports[j], &br->ports[j + 1],
                        (br->n_ports - j - 1) * sizeof *br->ports);
                br->n_ports--;
            } else {
                j++;
            }
        }
        i++;
    }
}

static struct bridge *
bridge_create(const char *name)
{
    struct bridge *br = xzalloc(sizeof *br);

    br->name = xstrdup(name);
    br->nb = normal_bridge_create();
    br->mirrors = mirror_set_create();
    br->ofproto = ofproto_create(name);
    br->connmgr = connmgr_create(br->ofproto, name, &bridge_connmgr_hooks,
                                 br);
    br->ofproto_version = ofproto_version(br->ofproto);
    br->keep = true;
    pthread_mutex_init(&br->changes_mutex, NULL);
    normal_bridge_set_change_cb(br->nb, mac_change_cb, br);
    bridges = xrealloc(bridges, (n_bridges + 1) * sizeof *bridges);
    bridges[n_bridges++] = br;
    VLOG_INFO("bridge %s: created", name);
    return br;
}

/* Destroys 'br' and its ports.  It must be out of the upcall map. */
static void
bridge_destroy(struct bridge *br)
{
    for (size_t i = 0; i < n_bridges; i++) {
        if (bridges[i] == br) {
            memmove(&bridges[i], &bridges[i + 1],
                    (n_bridges - i - 1) * sizeof *bridges);
            n_bridges--;
            break;
        }
    }
    for (size_t i = 0; i < br->n_ports; i++) {
        port_destroy(br->ports[i]);
    }
    free(br->ports);
    connmgr_destroy(br->connmgr);
    normal_bridge_destroy(br->nb);
    for (size_t i = 0; i < br->n_bonds; i++) {
        br->bonds[i].keep = false;
    }
    bridge_free_stale_bonds(br);
    free(br->bonds);
    mirror_set_destroy(br->mirrors);
    free(br->mirror_warnings);
    ofproto_destroy(br->ofproto);
    free(br->xports);
    pthread_mutex_destroy(&br->changes_mutex);
    free(br->changed_macs);
    free(br->reval_macs);
    free(br->late_macs);
    free(br->flood_vlans);
    free(br->config_warnings);
    free(br->normal_config);
    free(br->datapath_id_request);
    free(br->datapath_id);
    free(br->name);
    free(br);
}

static struct bridge *
bridge_find(const char *name)
{
    for (size_t i = 0; i < n_bridges; i++) {
        if (!strcmp(bridges[i]->name, name)) {
            return bridges[i];
        }
    }
    return NULL;
}

/* Takes the port out of the datapath and closes its netdev. */
static void
port_close(struct port *port)
{
    if (port->dp_port != DP_PORT_NONE) {
        int error = dp_netdev_port_del(dp, port->dp_port);
        if (error) {
            VLOG_WARN("%s: removing datapath port %"PRIu32" failed (%s)",
                      port->iface_name, port->dp_port,
                      util_strerror(error));
        }
        port->dp_port = DP_PORT_NONE;
    }
    if (port->netdev) {
        netdev_close(port->netdev);
        port->netdev = NULL;
    }
    port->ofport = OFPORT_FAILED;
}

static void
port_destroy(struct port *port)
{
    port_close(port);
    free(port->name);
    free(port->iface_name);
    free(port->type);
    smap_destroy(&port->options);
    smap_destroy(&port->other_config);
    free(port->mac_request);
    free(port->open_error);
    free(port->mtu_error);
    free(port->mac_error);
    free(port->oc_error);
    free(port->vlan_error);
    free(port->qos_request);
    free(port->qos_error);
    free(port->policing_error);
    free(port->trunks);
    free(port);
}

/* Records that 'port' could not be set up, because of 'msg' (taken). */
static void
port_fail(struct port *port, char *msg)
{
    port_close(port);
    if (!strings_equal(port->open_error, msg)) {
        VLOG_WARN("%s", msg);
    }
    free(port->open_error);
    port->open_error = msg;
}

/* Replaces '*slot' by 'msg' (taken; NULL for none), logging a message
 * that is new. */
static void
set_error(char **slot, char *msg)
{
    if (msg && !strings_equal(*slot, msg)) {
        VLOG_WARN("%s", msg);
    }
    free(*slot);
    *slot = msg;
}

/* Applies the settings that can change while the port runs: mtu_request,
 * MAC address and the datapath's per-port other_config, each when it
 * changed or with 'force'.  Problems are kept, one per setting, for
 * Interface:error. */
static void
port_apply_settings(struct port *port, const struct port_want *pw,
                    const struct smap *br_other_config, bool force)
{
    int64_t mtu_request = 0;
    const char *mac;
    struct smap oc;

    if (pw->iface_row->n_mtu_request) {
        mtu_request = pw->iface_row->mtu_request[0];
    }
    if (force || mtu_request != port->mtu_request) {
        char *msg = NULL;

        if (mtu_request) {
            char *err = NULL;
            int error = (mtu_request > INT_MAX
                         ? EINVAL
                         : netdev_set_mtu(port->netdev, mtu_request, &err));
            if (error) {
                msg = (err ? err
                       : xasprintf("%s: could not set MTU %"PRId64" (%s)",
                                   port->iface_name, mtu_request,
                                   util_strerror(error)));
            } else {
                free(err);
            }
        }
        set_error(&port->mtu_error, msg);
        port->mtu_request = mtu_request;
    }

    mac = pw->iface_row->mac;
    if (!mac && port->is_local) {
        mac = smap_get(br_other_config, "hwaddr");
    }
    if (force || !strings_equal(mac, port->mac_request)) {
        char *msg = NULL;

        if (mac) {
            struct eth_addr ea;
            int error;

            if (!eth_addr_parse(mac, &ea) || (ea.ea[0] & 1)) {
                msg = xasprintf("%s: \"%s\" is not a unicast Ethernet "
                                "address", port->iface_name, mac);
            } else if ((error = netdev_set_etheraddr(port->netdev, &ea))) {
                msg = xasprintf("%s: could not set MAC address %s (%s)",
                                port->iface_name, mac, util_strerror(error));
            }
        }
        set_error(&port->mac_error, msg);
        set_string(&port->mac_request, mac);
    }

    smap_clone(&oc, &pw->iface_row->other_config);
    if (force || !smap_equal(&oc, &port->other_config)) {
        char *err = NULL;
        int error = dp_netdev_port_set_config(dp, port->dp_port, &oc, &err);
        char *msg = NULL;

        if (error) {
            msg = (err ? err
                   : xasprintf("%s: other_config not applied (%s)",
                               port->iface_name, util_strerror(error)));
        } else {
            free(err);
        }
        set_error(&port->oc_error, msg);
        smap_swap(&oc, &port->other_config);
    }
    smap_destroy(&oc);

    port_apply_qos(port, pw, force);
    port_apply_policing(port, pw, force);
}

/* Applies Port:qos (egress-policer, trtcm-policer) when it changed or with
 * 'force'.  A setting the netdev refuses is logged as Open vSwitch logs it,
 * and kept for Interface:error; the port then has no egress QoS. */
static void
port_apply_qos(struct port *port, const struct port_want *pw, bool force)
{
    const struct ovsrec_qos *qos = pw->port_row->qos;
    char *text = port_qos_text(qos);

    if (!force && strings_equal(text, port->qos_request)) {
        free(text);
        return;
    }

    struct netdev_qos_queue *queues = NULL;
    size_t n_queues = 0;
    char *msg = NULL;
    if (qos) {
        queues = xcalloc(MAX(qos->n_queues, 1), sizeof *queues);
        for (size_t i = 0; i < qos->n_queues; i++) {
            queues[n_queues].queue_id = qos->key_queues[i];
            queues[n_queues].details = &qos->value_queues[i]->other_config;
            n_queues++;
        }
    }
    int error = netdev_set_qos(port->netdev, qos ? qos->type : NULL,
                               qos ? &qos->other_config : NULL,
                               queues, n_queues);
    if (error) {
        msg = xasprintf("Failed to set QoS type %s on port %s: %s",
                        qos->type, port->iface_name, util_strerror(error));
        VLOG_ERR("%s", msg);
    }
    free(queues);
    free(port->qos_error);
    port->qos_error = msg;
    free(port->qos_request);
    port->qos_request = text;
}

/* A text that changes whenever what 'qos' asks for does, or NULL for no
 * QoS: the type, other_config and each queue's number and other_config. */
static char *
port_qos_text(const struct ovsrec_qos *qos)
{
    if (!qos || !qos->type[0]) {
        return NULL;
    }

    struct ds ds = DS_EMPTY_INITIALIZER;
    ds_put_format(&ds, "%s ", qos->type);
    smap_format(&qos->other_config, &ds);
    for (size_t i = 0; i < qos->n_queues; i++) {
        ds_put_format(&ds, " %"PRId64"=", qos->key_queues[i]);
        smap_format(&qos->value_queues[i]->other_config, &ds);
    }
    return ds_steal_cstr(&ds);
}

/* Applies the Interface's ingress_policing_* columns when they changed or
 * with 'force'. */
static void
port_apply_policing(struct port *port, const struct port_want *pw,
                    bool force)
{
    const struct ovsrec_interface *row = pw->iface_row;
    int64_t want[4] = {
        row->ingress_policing_rate, row->ingress_policing_burst,
        row->ingress_policing_kpkts_rate, row->ingress_policing_kpkts_burst,
    };

    if (!force && !memcmp(want, port->policing, sizeof want)) {
        return;
    }

    uint32_t v[4];
    char *msg = NULL;
    for (size_t i = 0; i < 4; i++) {
        v[i] = MIN(want[i], UINT32_MAX);
    }
    int error = netdev_set_policing(port->netdev, v[0], v[1], v[2], v[3]);
    if (error) {
        msg = xasprintf("%s: ingress policing (rate %"PRIu32" kbps, burst "
                        "%"PRIu32" kb, %"PRIu32" kpps, burst %"PRIu32" "
                        "kpkts) not applied: %s", port->iface_name,
                        v[0], v[1], v[2], v[3], util_strerror(error));
    }
    set_error(&port->policing_error, msg);
    memcpy(port->policing, want, sizeof want);
}

/* Opens the netdev of 'port' as 'pw' asks, configures it and adds it to
 * the datapath.  On failure the reason goes to 'port->open_error'. */
static void
port_open(struct port *port, const struct port_want *pw,
          const struct smap *br_other_config)
{
    char *err = NULL;
    int error;

    smap_destroy(&port->options);
    smap_clone(&port->options, &pw->iface_row->options);

    if (port->is_local && strcmp(pw->type, "internal")) {
        port_fail(port, xasprintf("%s: a bridge's local port must have "
                                  "type \"internal\", not \"%s\"",
                                  port->iface_name, pw->type));
        return;
    }

    error = netdev_open(port->iface_name, pw->type, &port->netdev, &err);
    if (error) {
        port->netdev = NULL;
        port_fail(port, (err ? err
                         : xasprintf("%s: could not open network device "
                                     "(%s)", port->iface_name,
                                     util_strerror(error))));
        return;
    }

    error = netdev_set_config(port->netdev, &port->options, &err);
    if (error) {
        port_fail(port, (err ? err
                         : xasprintf("%s: could not configure network "
                                     "device (%s)", port->iface_name,
                                     util_strerror(error))));
        return;
    }

    port->dp_port = DP_PORT_NONE;
    error = dp_netdev_port_add(dp, port->netdev, &port->dp_port, &err);
    if (error) {
        port->dp_port = DP_PORT_NONE;
        port_fail(port, xasprintf("%s: could not add to the datapath (%s)",
                                  port->iface_name,
                                  err ? err : util_strerror(error)));
        free(err);
        return;
    }

    free(port->open_error);
    port->open_error = NULL;
    port->change_seq = 0;
    port_apply_settings(port, pw, br_other_config, true);
}

/* Brings an open port in line with 'pw' (its type is the same). */
static void
port_update(struct port *port, const struct port_want *pw,
            const struct smap *br_other_config)
{
    struct smap opts;

    if (!port->netdev) {
        return;
    }
    smap_clone(&opts, &pw->iface_row->options);
    if (!smap_equal(&opts, &port->options)) {
        char *err = NULL;
        int error = netdev_set_config(port->netdev, &opts, &err);

        smap_swap(&opts, &port->options);
        if (error) {
            port_fail(port, (err ? err
                             : xasprintf("%s: could not configure network "
                                         "device (%s)", port->iface_name,
                                         util_strerror(error))));
            smap_destroy(&opts);
            return;
        }
    }
    smap_destroy(&opts);
    port_apply_settings(port, pw, br_other_config, false);
}

/* Reads the VLAN settings of 'pw' into 'port->vlan'. */
static void
port_read_vlan(struct port *port, const struct port_want *pw)
{
    const char *vlan_mode = pw->port_row->vlan_mode;
    const int64_t *tag = pw->port_row->n_tag ? pw->port_row->tag : NULL;
    const int64_t *trunks = pw->port_row->trunks;
    size_t n_trunks = pw->port_row->n_trunks;
    const struct smap *oc = &pw->port_row->other_config;
    char *msg;

    free(port->trunks);
    port->trunks = xmalloc(MAX(n_trunks, 1) * sizeof *port->trunks);
    msg = normal_port_config_from_db(&port->vlan, vlan_mode,
                                     tag, trunks, n_trunks, port->trunks,
                                     smap_get(oc, "priority-tags"));
    if (msg) {
        char *full = xasprintf("port %s: %s", port->name, msg);
        free(msg);
        msg = full;
        if (!strings_equal(msg, port->vlan_error)) {
            VLOG_WARN("%s", msg);
        }
    }
    free(port->vlan_error);
    port->vlan_error = msg;
}

/* Parses a nonnegative integer setting 'key' of 'smap' into '*value', or
 * appends a warning to 'warnings'. */
static void
parse_int_setting(const struct smap *smap, const char *key,
                  long long int min, long long int max, long long int *value,
                  struct ds *warnings)
{
    char *msg = smap_parse_int(smap, key, min, max, value);
    if (msg) {
        ds_put_format(warnings, "%s; ", msg);
        free(msg);
    }
}

/* Reads the Bridge row's NORMAL settings into 'br'. */
static void
bridge_read_settings(struct bridge *br, const struct bridge_want *bw,
                     const struct smap *oc)
{
    struct ds warnings = DS_EMPTY_INITIALIZER;
    const int64_t *flood = bw->row->flood_vlans;
    size_t n_flood = bw->row->n_flood_vlans;
    char *msg;

    free(br->flood_vlans);
    br->flood_vlans = xmalloc(MAX(n_flood, 1) * sizeof *br->flood_vlans);
    br->n_flood_vlans = 0;
    for (size_t i = 0; i < n_flood; i++) {
        if (flood[i] >= 0 && flood[i] <= NORMAL_MAX_VLAN) {
            br->flood_vlans[br->n_flood_vlans++] = flood[i];
        }
    }

    br->forward_bpdu = false;
    msg = smap_parse_bool(oc, "forward-bpdu", &br->forward_bpdu);
    if (msg) {
        ds_put_format(&warnings, "%s; ", msg);
        free(msg);
    }
    br->mac_aging_time = 0;
    parse_int_setting(oc, "mac-aging-time", 1, INT_MAX, &br->mac_aging_time,
                      &warnings);
    br->mac_table_size = 0;
    parse_int_setting(oc, "mac-table-size", 1, INT_MAX, &br->mac_table_size,
                      &warnings);

    const char *dpid = smap_get(oc, "datapath-id");
    free(br->datapath_id_request);
    br->datapath_id_request = NULL;
    if (dpid) {
        size_t len = strlen(dpid);
        bool ok = len == 16 && strspn(dpid, "0123456789abcdefABCDEF") == 16;
        if (ok) {
            br->datapath_id_request = xstrdup(dpid);
            for (char *p = br->datapath_id_request; *p; p++) {
                if (*p >= 'A' && *p <= 'F') {
                    *p += 'a' - 'A';
                }
            }
        } else {
            ds_put_format(&warnings, "other_config:datapath-id \"%s\" is not "
                          "16 hexadecimal digits, ignored; ", dpid);
        }
    }

    if (warnings.length) {
        ds_truncate(&warnings, warnings.length - 2);
    }
    if (!strings_equal(br->config_warnings,
                       warnings.length ? ds_cstr(&warnings) : NULL)) {
        if (warnings.length) {
            VLOG_WARN("bridge %s: %s", br->name, ds_cstr(&warnings));
        }
        free(br->config_warnings);
        br->config_warnings = (warnings.length ? ds_steal_cstr(&warnings)
                               : NULL);
    }
    ds_destroy(&warnings);
}

/* Gives each port of 'br' its OpenFlow number: the local port
 * OFPORT_LOCAL; otherwise 'ofport_request' if it is free, else the number
 * the port has, else the one the database remembers (Interface:ofport,
 * which brings numbers back after a restart), else the lowest free one. */
static void
bridge_assign_ofports(struct bridge *br, const struct bridge_want *bw)
{
    uint8_t *used = xzalloc((OFPORT_MAX + 1 + 7) / 8);
    int64_t *assigned = xmalloc(MAX(br->n_ports, 1) * sizeof *assigned);
#define OFPORT_USED(N) (used[(N) / 8] & (1u << ((N) % 8)))
#define OFPORT_TAKE(N) (used[(N) / 8] |= 1u << ((N) % 8))

    for (size_t i = 0; i < br->n_ports; i++) {
        assigned[i] = 0;
    }
    used[0] |= 1;               /* 0 is not a port number. */

    /* Requests the port already satisfies, other requests, kept numbers,
     * remembered ones. */
    for (int pass = 0; pass < 4; pass++) {
        for (size_t i = 0; i < br->n_ports; i++) {
            struct port *port = br->ports[i];
            const struct port_want *pw = want_find_port(bw, port->iface_name);
            int64_t want = 0;

            if (assigned[i] || !port->netdev || port->is_local || !pw) {
                continue;
            }
            if (pass <= 1) {
                if (!pw->iface_row->n_ofport_request) {
                    continue;
                }
                want = pw->iface_row->ofport_request[0];
                if (pass == 0 && want != port->ofport) {
                    continue;
                }
            } else if (pass == 2) {
                want = port->ofport;
            } else if (!pw->iface_row->n_ofport) {
                continue;
            } else {
                want = pw->iface_row->ofport[0];
            }
            if (want >= 1 && want <= OFPORT_MAX && !OFPORT_USED(want)) {
                OFPORT_TAKE(want);
                assigned[i] = want;
            } else if (pass == 1 && port->warned_request != want) {
                port->warned_request = want;
                VLOG_WARN("bridge %s: %s: ofport_request %"PRId64" is not "
                          "available, choosing another number", br->name,
                          port->iface_name, want);
            }
        }
    }

    int64_t next = 1;
    for (size_t i = 0; i < br->n_ports; i++) {
        struct port *port = br->ports[i];

        if (!port->netdev) {
            port->ofport = OFPORT_FAILED;
            continue;
        } else if (port->is_local) {
            port->ofport = OFPORT_LOCAL;
        } else if (assigned[i]) {
            port->ofport = assigned[i];
        } else {
            while (next <= OFPORT_MAX && OFPORT_USED(next)) {
                next++;
            }
            if (next > OFPORT_MAX) {
                port_fail(port, xasprintf("bridge %s: no OpenFlow port "
                                          "number left for %s", br->name,
                                          port->iface_name));
                continue;
            }
            OFPORT_TAKE(next);
            port->ofport = next;
        }
        if (!port->announced) {
            port->announced = true;
            VLOG_INFO("bridge %s: added interface %s on port %"PRId64,
                      br->name, port->iface_name, port->ofport);
        }
    }
#undef OFPORT_USED
#undef OFPORT_TAKE
    free(assigned);
    free(used);
}

/* Without other_config:hwaddr (or Interface:mac) the local port takes, as
 * in Open vSwitch, the lowest universally administered unicast address
 * among the bridge's other ports (internal ones aside), so that the
 * bridge's address and datapath ID stay the same across restarts.  With
 * no such address the local port keeps its own. */
static void
bridge_pick_local_mac(struct bridge *br)
{
    struct port *local = NULL;
    struct eth_addr best;
    bool found = false;

    for (size_t i = 0; i < br->n_ports; i++) {
        struct port *port = br->ports[i];
        struct eth_addr ea;

        if (port->is_local) {
            local = port;
            continue;
        }
        if (!port->netdev || !strcmp(port->type, "internal")
            || netdev_get_etheraddr(port->netdev, &ea)
            || (ea.ea[0] & 0x03) || !eth_addr_is_set(&ea)) {
            /* Multicast, locally administered or zero addresses are not
             * an identity. */
            continue;
        }
        if (!found || memcmp(&ea, &best, sizeof ea) < 0) {
            best = ea;
            found = true;
        }
    }
    if (!found || !local || !local->netdev || local->mac_request) {
        return;
    }

    struct eth_addr cur;
    if (!netdev_get_etheraddr(local->netdev, &cur)
        && eth_addr_same(&cur, &best)) {
        return;
    }
    int error = netdev_set_etheraddr(local->netdev, &best);
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
        VLOG_WARN_RL(&rl, "bridge %s: could not give the local port the "
                     "address of its ports (%s)", br->name,
                     util_strerror(error));
    }
}

/* Brings the running switch in line with the database. */
static void
bridge_reconfigure(const struct ovsrec_open_vswitch *ovs)
{
    struct bridge_want *wants;
    size_t n_wants;
    struct smap oc;
    int64_t next_cfg = 0;

    COVERAGE_INC(bridge_reconfigure);

    flow_restore_wait_update(ovs);
    smap_clone(&oc, &ovs->other_config);
    if (!dp) {
        /* DPDK comes first, once, before any port is opened. */
        dpdk_init(&oc);
        /* The DPDK port types exist only with the full EAL (both calls
         * check). */
        netdev_dpdk_register();
        if (dpdk_available()) {
            netdev_vhost_register();
        }
        int error = dp_netdev_create(&dp);
        if (error) {
            VLOG_FATAL("could not create the datapath (%s)",
                       util_strerror(error));
        }
        dp_netdev_set_upcall_cb(dp, flow_restore_waiting ? NULL : upcall_cb,
                                NULL);
        dp_netdev_register_commands(dp);
        smap_clear(&dp_other_config);
        dp_netdev_set_config(dp, &oc, NULL);
        smap_clone(&dp_other_config, &oc);
        next_stats = next_status_poll = time_msec();
        next_refresh = time_msec() + refresh_interval();
    } else if (!smap_equal(&oc, &dp_other_config)) {
        dpdk_init(&oc);
        dp_netdev_set_config(dp, &oc, NULL);
        smap_destroy(&dp_other_config);
        smap_clone(&dp_other_config, &oc);
    }

    long long int interval = STATS_INTERVAL_DEFAULT;
    char *msg = smap_parse_int(&oc, "stats-update-interval",
                               STATS_INTERVAL_MIN, INT_MAX, &interval);
    if (!strings_equal(msg, stats_interval_warning)) {
        if (msg) {
            VLOG_WARN("%s; using %d ms", msg, STATS_INTERVAL_DEFAULT);
        }
        set_string(&stats_interval_warning, msg);
    }
    free(msg);
    if (interval != stats_interval) {
        stats_interval = interval;
        next_stats = time_msec();
    }
    smap_destroy(&oc);

    next_cfg = ovs->next_cfg;
    bool retry_failed = next_cfg != last_next_cfg;
    last_next_cfg = next_cfg;

    n_wants = gather_bridges(ovs, &wants);
    bridge_remove_stale(wants, n_wants, retry_failed);

    for (size_t i = 0; i < n_wants; i++) {
        const struct bridge_want *bw = &wants[i];
        struct bridge *br = bridge_find(bw->name);
        struct smap br_oc;

        if (!br) {
            br = bridge_create(bw->name);
        }
        br->uuid = *ovsrec_bridge_get_uuid(bw->row);
        smap_clone(&br_oc, &bw->row->other_config);
        bridge_read_settings(br, bw, &br_oc);

        for (size_t j = 0; j < bw->n_ports; j++) {
            const struct port_want *pw = &bw->ports[j];
            struct port *port = bridge_find_port(br, pw->iface_name);

            if (!port) {
                port = xzalloc(sizeof *port);
                port->bridge = br;
                port->iface_name = xstrdup(pw->iface_name);
                port->type = xstrdup(pw->type);
                port->is_local = !strcmp(pw->iface_name, br->name);
                port->is_bond = pw->is_bond;
                port->dp_port = DP_PORT_NONE;
                port->ofport = OFPORT_FAILED;
                port->created = time_msec();
                smap_init(&port->options);
                smap_init(&port->other_config);
                br->ports = xrealloc(br->ports,
                                     (br->n_ports + 1) * sizeof *br->ports);
                br->ports[br->n_ports++] = port;
                set_string(&port->name, pw->name);
                port_open(port, pw, &br_oc);
            } else {
                set_string(&port->name, pw->name);
                port_update(port, pw, &br_oc);
            }
            port->keep = true;
            port->iface_uuid = *ovsrec_interface_get_uuid(pw->iface_row);
            port_read_vlan(port, pw);
        }
        bridge_assign_ofports(br, bw);
        bridge_configure_bonds(br, bw);
        bridge_pick_local_mac(br);
        bridge_configure_openflow(br, bw->row, &br_oc);
        smap_destroy(&br_oc);
    }
    free_wants(wants, n_wants);

    bridge_publish();
    for (size_t i = 0; i < n_bridges; i++) {
        bridge_free_stale_bonds(bridges[i]);
    }
    if (dp) {
        /* A shorter MAC aging time takes effect at once. */
        next_refresh = MIN(next_refresh, time_msec() + refresh_interval());
    }
    cfg_to_ack = next_cfg;
}

/* Appends the NORMAL configuration 'cfg' to 'ds' as text. */
static void
normal_config_format(const struct normal_bridge_config *cfg, struct ds *ds)
{
    ds_put_format(ds, "bpdu=%d aging=%u size=%zu flood=", cfg->forward_bpdu,
                  cfg->mac_aging_time, cfg->mac_table_size);
    for (size_t i = 0; i < cfg->n_flood_vlans; i++) {
        ds_put_format(ds, "%u,", cfg->flood_vlans[i]);
    }
    for (size_t i = 0; i < cfg->n_ports; i++) {
        const struct normal_port_config *pc = &cfg->ports[i];
        ds_put_format(ds, " %"PRIu32"/%"PRIu32":%d:%u:%d:%p:%d:", pc->ofport,
                      pc->dp_port, pc->vlan_mode, pc->tag, pc->priority_tags,
                      (void *) pc->bond, pc->mirror_output);
        for (size_t j = 0; j < pc->n_trunks; j++) {
            ds_put_format(ds, "%u,", pc->trunks[j]);
        }
    }
}

/* The order of a bridge's ports for NORMAL switching (which floods in this
 * order): by OpenFlow port number. */
static int
compare_ports_by_ofport(const void *a_, const void *b_)
{
    const struct port *const *a = a_;
    const struct port *const *b = b_;

    /* The local port first, then by OpenFlow port number: the order in
     * which Open vSwitch's NORMAL floods. */
    if ((*a)->is_local != (*b)->is_local) {
        return (*a)->is_local ? -1 : 1;
    }
    return ((*a)->ofport > (*b)->ofport) - ((*a)->ofport < (*b)->ofport);
}

static int
compare_upcall_ports(const void *a_, const void *b_)
{
    const struct upcall_port *a = a_, *b = b_;
    return (a->dp_port > b->dp_port) - (a->dp_port < b->dp_port);
}

/* Hands every bridge's ports (those kept, in the datapath) to its NORMAL
 * decision maker and rebuilds the upcall map.  Bridges whose NORMAL
 * configuration changed have their flows revalidated. */
static void
bridge_publish(void)
{
    struct upcall_port *map = NULL;
    size_t n_map = 0;
    bool revalidate = false;

    for (size_t i = 0; i < n_bridges; i++) {
        struct bridge *br = bridges[i];
        struct normal_port_config *pcs;
        size_t n_pcs = 0, n_normal = 0;

        if (!br->keep) {
            revalidate = true;
            continue;
        }
        if (br->n_ports > 1) {
            qsort(br->ports, br->n_ports, sizeof *br->ports,
                  compare_ports_by_ofport);
        }
        if (bridge_configure_mirrors(br)) {
            br->revalidate_all = true;
            revalidate = true;
        }
        pcs = xmalloc(MAX(br->n_ports, 1) * sizeof *pcs);
        struct xlate_port *xps = xzalloc(MAX(br->n_ports, 1) * sizeof *xps);
        for (size_t j = 0; j < br->n_ports; j++) {
            struct port *port = br->ports[j];

            if (!port->keep || port->dp_port == DP_PORT_NONE
                || port->ofport <= 0) {
                continue;
            }
            /* A bond is one NORMAL port, with the number of its first
             * member; each member is a port of its own for OpenFlow. */
            bool bond_seen = false;
            for (size_t k = 0; port->bond && k < n_normal; k++) {
                bond_seen |= pcs[k].bond == port->bond;
            }
            if (!bond_seen) {
                pcs[n_normal] = port->vlan;
                pcs[n_normal].ofport = port->ofport;
                pcs[n_normal].dp_port = port->dp_port;
                pcs[n_normal].bond = port->bond;
                pcs[n_normal].mirror_output
                    = mirror_set_output_name(br->mirrors,
                                             port->dp_port) != NULL;
                n_normal++;
            }
            xps[n_pcs].ofport = port->ofport;
            xps[n_pcs].dp_port = port->dp_port;
            xps[n_pcs].live = port_may_enable(port);
            n_pcs++;

            map = xrealloc(map, (n_map + 1) * sizeof *map);
            map[n_map].dp_port = port->dp_port;
            map[n_map].bridge = br;
            n_map++;
        }

        struct normal_bridge_config cfg = {
            .ports = pcs,
            .n_ports = n_normal,
            .flood_vlans = br->flood_vlans,
            .n_flood_vlans = br->n_flood_vlans,
            .forward_bpdu = br->forward_bpdu,
            .mac_aging_time = br->mac_aging_time,
            .mac_table_size = br->mac_table_size,
        };
        struct ds text = DS_EMPTY_INITIALIZER;
        normal_config_format(&cfg, &text);
        if (!strings_equal(ds_cstr(&text), br->normal_config)) {
            int error = normal_bridge_reconfigure(br->nb, &cfg);
            if (error) {
                VLOG_ERR("bridge %s: NORMAL switching refused the "
                         "configuration (%s)", br->name,
                         util_strerror(error));
            }
            free(br->normal_config);
            br->normal_config = ds_steal_cstr(&text);
            br->revalidate_all = true;
            revalidate = true;
        }
        ds_destroy(&text);
        free(pcs);

        if (n_pcs == br->n_xports
            && (!n_pcs || !memcmp(xps, br->xports, n_pcs * sizeof *xps))) {
            free(xps);
        } else {
            pthread_rwlock_wrlock(&upcall_rwlock);
            struct xlate_port *old = br->xports;
            br->xports = xps;
            br->n_xports = n_pcs;
            pthread_rwlock_unlock(&upcall_rwlock);
            free(old);
            br->revalidate_all = true;
            revalidate = true;
        }
    }

    if (n_map > 1) {
        qsort(map, n_map, sizeof *map, compare_upcall_ports);
    }
    if (n_map == n_upcall_ports
        && (!n_map || !memcmp(map, upcall_ports, n_map * sizeof *map))) {
        /* Unchanged (most reconfigurations change no port): leave the
         * upcalls alone. */
        free(map);
    } else {
        pthread_rwlock_wrlock(&upcall_rwlock);
        struct upcall_port *old = upcall_ports;
        upcall_ports = map;
        n_upcall_ports = n_map;
        pthread_rwlock_unlock(&upcall_rwlock);
        free(old);
    }

    if (revalidate && dp) {
        bridge_revalidate();
    }
}

/* ------------------------------------------------------------------------
 * Upcalls and revalidation.
 * ------------------------------------------------------------------------ */

/* The bridge of datapath port 'dp_port', or NULL.  The caller holds the
 * upcall lock (or is the main thread). */
static struct bridge *
upcall_lookup(uint32_t dp_port)
{
    size_t lo = 0, hi = n_upcall_ports;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (upcall_ports[mid].dp_port < dp_port) {
            lo = mid + 1;
        } else if (upcall_ports[mid].dp_port > dp_port) {
            hi = mid;
        } else {
            return upcall_ports[mid].bridge;
        }
    }
    return NULL;
}

/* Appends the actions of 'src' to 'dst'.  Actions are plain values, so
 * they are copied whole, whatever their type. */
static void
copy_actions(struct dp_actions *dst, const struct dp_actions *src)
{
    for (size_t i = 0; i < src->n_actions; i++) {
        if (dst->n_actions >= dst->allocated) {
            dst->allocated = MAX(8, 2 * dst->allocated);
            dst->actions = xrealloc(dst->actions,
                                    dst->allocated * sizeof *dst->actions);
        }
        dst->actions[dst->n_actions++] = src->actions[i];
    }
}

/* The datapath's upcall: NORMAL switching for the packet's bridge.  Runs
 * on the thread that received the packet. */
static int
upcall_cb(void *aux DPS_UNUSED, const struct flow *flow,
          const struct dp_packet *packet,
          struct dp_actions *actions, struct flow *mask)
{
    struct bridge *br;

    if (bond_is_lacp_pdu(flow) && bond_pdu_take(flow, packet)) {
        /* A LACPDU is the bond's, never switched; no flow is installed,
         * so that every one reaches the bond. */
        return EAGAIN;
    }

    pthread_rwlock_rdlock(&upcall_rwlock);
    br = upcall_lookup(flow->in_port);
    if (!br) {
        /* A port on its way in or out: drop, install nothing. */
        pthread_rwlock_unlock(&upcall_rwlock);
        return ENODEV;
    }
    int error = bridge_xlate(br, flow, time_msec(), actions, mask);
    pthread_rwlock_unlock(&upcall_rwlock);
    return error;
}

/* What translation needs of 'br'. */
static struct xlate_bridge
bridge_xlate_bridge(const struct bridge *br)
{
    struct xlate_bridge xb = {
        .ofproto = br->ofproto,
        .nb = br->nb,
        .mirrors = br->mirrors,
        .ports = br->xports,
        .n_ports = br->n_xports,
    };
    return xb;
}

/* Translates datapath key 'key' through 'br''s OpenFlow tables (whose
 * default flow hands it to NORMAL switching) into 'actions' and 'mask'
 * (exact while upcall/disable-megaflows holds, for upcalls and
 * revalidation alike).  The caller holds the upcall lock or is the main
 * thread. */
static int
bridge_xlate(struct bridge *br, const struct flow *key, long long int now,
             struct dp_actions *actions, struct flow *mask)
{
    struct xlate_bridge xb = bridge_xlate_bridge(br);
    struct xlate_out out;

    xlate_out_init(&out);
    int error = ofproto_xlate(&xb, key, now, &out);
    if (!error) {
        copy_actions(actions, &out.actions);
        *mask = out.mask;
        if (!__atomic_load_n(&megaflows_enabled, __ATOMIC_RELAXED)) {
            mask_exact(key, mask);
        }
    }
    xlate_out_destroy(&out);
    return error;
}

/* The datapath's userspace action (a controller action): a copy of
 * 'packet' as it is there becomes the packet-in frozen as 'c->recirc_id'.
 * Runs on the thread executing the actions. */
static void
bridge_userspace_cb(const struct dp_action_controller *c,
                    const struct dp_packet *packet)
{
    size_t size = dp_packet_size(packet);
    uint8_t *data = xmalloc(MAX(size, 1));

    dp_packet_copy_out(packet, 0, size, data);
    ofproto_thaw_packet_in(c->recirc_id, data, size);
}

/* MAC table change of a bridge ('aux'): queued for the main thread.  Runs
 * on any thread, with the NORMAL bridge's mutex held. */
static void
mac_change_cb(void *aux, enum mac_learning_change change,
              uint16_t vlan DPS_UNUSED, const struct eth_addr *mac,
              uint32_t old_port DPS_UNUSED, uint32_t new_port DPS_UNUSED)
{
    struct bridge *br = aux;

    pthread_mutex_lock(&br->changes_mutex);
    if (br->n_changed_macs >= MAX_PENDING_MACS) {
        br->all_changed = true;
    } else if (!br->all_changed) {
        if (br->n_changed_macs >= br->allocated_changed_macs) {
            br->allocated_changed_macs = MAX(16,
                                             2 * br->allocated_changed_macs);
            br->changed_macs = xrealloc(br->changed_macs,
                                        br->allocated_changed_macs
                                        * sizeof *br->changed_macs);
        }
        struct changed_mac *cm = &br->changed_macs[br->n_changed_macs++];
        cm->mac = *mac;
        cm->dst_only = change == MAC_LEARNING_CHANGE_ADDED;
    }
    pthread_mutex_unlock(&br->changes_mutex);
    latch_set(&revalidate_latch);
}

static bool
eth_addr_is_set(const struct eth_addr *ea)
{
    static const struct eth_addr zero;
    return memcmp(ea, &zero, sizeof zero) != 0;
}

static bool
eth_addr_same(const struct eth_addr *a, const struct eth_addr *b)
{
    return !memcmp(a, b, sizeof *a);
}

/* Decides whether a megaflow stays.  Flows that a move, an expiry or a
 * removal may have made wrong are deleted rather than translated again,
 * because translation learns: translating a stale flow from a moved address
 * would move the address back.  A newly learned address only changes the
 * decision of flows towards it (which flooded): those are translated again
 * (refresh_cb()) and kept when the decision is the same, so that a flow
 * installed just after the address was learned is not thrown away. */
static bool
revalidate_cb(void *aux, const struct flow *key,
              const struct flow *mask, const struct dp_actions *actions,
              struct dp_actions *new_actions)
{
    struct bridge *br = upcall_lookup(key->in_port);
    bool retranslate = false;

    if (!br || br->revalidate_all) {
        return false;
    }
    for (size_t i = 0; i < br->n_reval_macs; i++) {
        const struct changed_mac *cm = &br->reval_macs[i];
        bool dst_hit = (eth_addr_is_set(&mask->dl_dst)
                        && eth_addr_same(&key->dl_dst, &cm->mac));

        if (cm->dst_only) {
            retranslate |= dst_hit;
        } else if (dst_hit
                   || (eth_addr_is_set(&mask->dl_src)
                       && eth_addr_same(&key->dl_src, &cm->mac))) {
            return false;
        }
    }
    if (retranslate) {
        return refresh_cb(aux, key, mask, actions, new_actions);
    }
    copy_actions(new_actions, actions);
    return true;
}

/* A megaflow's new counts go to the OpenFlow rules its translation
 * consults now, its mirrors, and the buckets of the balanced bonds it sends
 * through (for rebalancing).  Main thread. */
static void
push_stats_cb(void *aux DPS_UNUSED, const struct flow *key,
              const struct flow *mask DPS_UNUSED, uint64_t n_packets,
              uint64_t n_bytes, long long int used)
{
    struct bridge *br = upcall_lookup(key->in_port);
    if (!br) {
        return;
    }

    struct xlate_bridge xb = bridge_xlate_bridge(br);
    struct xlate_out out;

    xlate_out_init(&out);
    out.record_rules = true;
    if (!ofproto_xlate(&xb, key, time_msec(), &out)) {
        for (size_t i = 0; i < out.n_rules; i++) {
            ofproto_rule_credit(out.rules[i], n_packets, n_bytes, used);
        }
        for (size_t i = 0; i < out.n_group_hits; i++) {
            ofproto_group_credit(out.group_hits[i].group,
                                 out.group_hits[i].bucket, n_packets,
                                 n_bytes);
        }
        mirror_set_credit(br->mirrors, out.mirrors, n_packets, n_bytes);
        bond_hits_credit(&out.bonds, n_bytes);
    }
    xlate_out_destroy(&out);
}

/* Hands the datapath's new counts to the OpenFlow flows (n_packets,
 * n_bytes, and the idle time idle_timeout and idle_age go by), as Open
 * vSwitch's revalidators do.  Counts a megaflow took after the last push
 * are lost if it is deleted before the next (datapath idle aging), and a
 * push after a table change credits the rules translation finds now. */
static void
bridge_push_stats(void)
{
    long long int start = time_msec();

    next_stats_push = start + STATS_PUSH_MSEC;
    if (dp) {
        struct dp_netdev_stats st;

        dp_netdev_push_stats(dp, push_stats_cb, NULL);
        dp_netdev_get_stats(dp, &st);
        dump_n_flows = st.n_flows;
        dump_avg_flows = (dump_avg_flows + dump_n_flows) / 2;
        dump_max_flows = MAX(dump_max_flows, dump_n_flows);
        dump_duration_msec = time_msec() - start;
    }
}

/* Answers every revalidator/wait: the changes of this main-loop iteration
 * were revalidated, the late revalidation still due is done now, and the
 * datapath's counts reached the OpenFlow flows. */
static void
bridge_answer_reval_waiters(void)
{
    if (dp) {
        if (late_revalidation != LLONG_MAX) {
            bridge_late_revalidate();
        }
        bridge_push_stats();
    }
    for (size_t i = 0; i < n_reval_waiters; i++) {
        unixctl_command_reply(reval_waiters[i], NULL);
    }
    free(reval_waiters);
    reval_waiters = NULL;
    n_reval_waiters = 0;
}

/* Remembers what the revalidation in progress looked at, for the late
 * revalidation. */
static void
bridge_stash_for_late(struct bridge *br)
{
    br->late_all |= br->revalidate_all;
    if (br->late_all
        || br->n_late_macs + br->n_reval_macs > MAX_PENDING_MACS) {
        br->late_all = true;
        free(br->late_macs);
        br->late_macs = NULL;
        br->n_late_macs = 0;
        return;
    }
    if (br->n_reval_macs) {
        br->late_macs = xrealloc(br->late_macs,
                                 (br->n_late_macs + br->n_reval_macs)
                                 * sizeof *br->late_macs);
        memcpy(&br->late_macs[br->n_late_macs], br->reval_macs,
               br->n_reval_macs * sizeof *br->reval_macs);
        br->n_late_macs += br->n_reval_macs;
    }
}

/* Revalidates the datapath's flows after MAC table or configuration
 * changes: deletes the megaflows they may have made wrong (see
 * revalidate_cb()).  An upcall that was translating while a change happened
 * may install its flow after this pass, so the same changes are looked at
 * again LATE_REVALIDATION_MSEC later (bridge_late_revalidate()). */
static void
bridge_revalidate(void)
{
    bool needed = false;

    for (size_t i = 0; i < n_bridges; i++) {
        struct bridge *br = bridges[i];

        pthread_mutex_lock(&br->changes_mutex);
        free(br->reval_macs);
        br->reval_macs = br->changed_macs;
        br->n_reval_macs = br->n_changed_macs;
        br->revalidate_all |= br->all_changed;
        br->changed_macs = NULL;
        br->n_changed_macs = br->allocated_changed_macs = 0;
        br->all_changed = false;
        pthread_mutex_unlock(&br->changes_mutex);

        needed |= br->revalidate_all || br->n_reval_macs;
    }
    for (size_t i = 0; i < n_bridges; i++) {
        needed |= !bridges[i]->keep;
    }

    if (needed && dp) {
        COVERAGE_INC(bridge_revalidate);
        bridge_push_stats();
        dp_netdev_revalidate(dp, revalidate_cb, NULL);
        for (size_t i = 0; i < n_bridges; i++) {
            bridge_stash_for_late(bridges[i]);
        }
        late_revalidation = MIN(late_revalidation,
                                time_msec() + LATE_REVALIDATION_MSEC);
    }

    for (size_t i = 0; i < n_bridges; i++) {
        struct bridge *br = bridges[i];
        free(br->reval_macs);
        br->reval_macs = NULL;
        br->n_reval_macs = 0;
        br->revalidate_all = false;
    }
}

/* The second look at changes bridge_revalidate() handled (see there).
 * Like the first, it only deletes flows, so it learns nothing and changes
 * no MAC entry's age. */
static void
bridge_late_revalidate(void)
{
    bool needed = false;

    late_revalidation = LLONG_MAX;
    for (size_t i = 0; i < n_bridges; i++) {
        struct bridge *br = bridges[i];

        free(br->reval_macs);
        br->reval_macs = br->late_macs;
        br->n_reval_macs = br->n_late_macs;
        br->revalidate_all = br->late_all;
        br->late_macs = NULL;
        br->n_late_macs = 0;
        br->late_all = false;
        needed |= br->revalidate_all || br->n_reval_macs;
    }
    if (needed) {
        COVERAGE_INC(bridge_late_revalidate);
        bridge_push_stats();
        dp_netdev_revalidate(dp, revalidate_cb, NULL);
    }
    for (size_t i = 0; i < n_bridges; i++) {
        struct bridge *br = bridges[i];
        free(br->reval_macs);
        br->reval_macs = NULL;
        br->n_reval_macs = 0;
        br->revalidate_all = false;
    }
}

/* Re-translates a megaflow: NORMAL switching decides again for its key
 * (whose bits outside the mask do not matter to the decision).  A flow
 * whose mask would now differ is deleted; one whose actions differ gets
 * the new ones.  The translation refreshes the MAC table entry of the
 * flow's source: the datapath deletes flows idle for max-idle, so a flow
 * that exists carries traffic from that source on that port, and without
 * this the entry would age out while its traffic only hit megaflows.
 * Stale flows never reach here: a moved or expired address has had its
 * flows deleted by bridge_revalidate() first.  (Translating refreshes the
 * age of every source that has a flow, which is why only this periodic
 * pass translates; revalidation after changes only deletes.) */
static bool
refresh_cb(void *aux DPS_UNUSED, const struct flow *key,
           const struct flow *mask, const struct dp_actions *actions,
           struct dp_actions *new_actions)
{
    struct bridge *br = upcall_lookup(key->in_port);
    struct dp_actions acts = DP_ACTIONS_INITIALIZER;
    struct flow new_mask;
    bool keep;

    if (!br || bridge_xlate(br, key, time_msec(), &acts, &new_mask)) {
        COVERAGE_INC(bridge_refresh_del);
        dp_actions_destroy(&acts);
        return false;
    }

    /* The datapath matches all of in_port and recirc_id whatever the mask
     * said. */
    new_mask.in_port = mask->in_port;
    new_mask.recirc_id = mask->recirc_id;
    keep = !memcmp(&new_mask, mask, sizeof *mask);
    if (keep) {
        copy_actions(new_actions, &acts);
        if (!dp_actions_equal(actions, new_actions)) {
            COVERAGE_INC(bridge_refresh_mod);
        }
    } else {
        COVERAGE_INC(bridge_refresh_del);
    }
    dp_actions_destroy(&acts);
    return keep;
}

/* How often every megaflow is translated again: a third of the shortest
 * MAC aging time, so that entries whose traffic hits megaflows are
 * refreshed well before they expire. */
static long long int
refresh_interval(void)
{
    long long int aging = MAC_LEARNING_MAX_IDLE_TIME;

    for (size_t i = 0; i < n_bridges; i++) {
        long long int a = bridges[i]->mac_aging_time;
        if (!a) {
            a = MAC_LEARNING_DEFAULT_IDLE_TIME;
        }
        aging = MIN(aging, MAX(a, MAC_LEARNING_MIN_IDLE_TIME));
    }
    return aging * 1000 / 3;
}

/* Translates every megaflow again (see refresh_cb()), after handling the
 * MAC changes queued so far. */
static void
bridge_refresh(void)
{
    bridge_revalidate();
    COVERAGE_INC(bridge_refresh);
    dp_netdev_revalidate(dp, refresh_cb, NULL);
    next_refresh = time_msec() + refresh_interval();
}

/* ------------------------------------------------------------------------
 * Bonds: the decisions are ofproto/bond.c's; here they meet the database
 * and the netdevs.
 * ------------------------------------------------------------------------ */

static struct bridge_bond *
bridge_find_bond(struct bridge *br, const char *name)
{
    for (size_t i = 0; i < br->n_bonds; i++) {
        if (!strcmp(bond_name(br->bonds[i].bond), name)) {
            return &br->bonds[i];
        }
    }
    return NULL;
}

/* 'port''s link may have gone up or down: fast_failover groups that watch
 * it choose again (its xlate_port's 'live', and every megaflow of 'br'). */
static void
bridge_update_liveness(struct bridge *br, const struct port *port)
{
    bool live = port_may_enable(port);

    for (size_t i = 0; i < br->n_xports; i++) {
        struct xlate_port *xp = &br->xports[i];
        if (xp->ofport == (uint32_t) port->ofport && xp->live != live) {
            pthread_rwlock_wrlock(&upcall_rwlock);
            xp->live = live;
            pthread_rwlock_unlock(&upcall_rwlock);
            br->revalidate_all = true;
            latch_set(&revalidate_latch);
        }
    }
}

/* Whether 'port''s link is up: administratively up with carrier, as Open
 * vSwitch's bonds judge it. */
static bool
port_may_enable(const struct port *port)
{
    enum netdev_flags flags = 0;
    bool carrier = false;

    return (port->netdev && !netdev_get_flags(port->netdev, &flags)
            && (flags & NETDEV_UP)
            && !netdev_get_carrier(port->netdev, &carrier) && carrier);
}

/* Configures a bond for each Port of 'bw' with several interfaces, with
 * the members that are set up; bonds no longer wanted lose their 'keep'
 * mark (bridge_free_stale_bonds() frees them once NORMAL switching no
 * longer uses them). */
static void
bridge_configure_bonds(struct bridge *br, const struct bridge_want *bw)
{
    for (size_t i = 0; i < br->n_bonds; i++) {
        br->bonds[i].keep = false;
    }
    for (size_t i = 0; i < br->n_ports; i++) {
        br->ports[i]->bond = NULL;
    }

    for (size_t i = 0; i < bw->row->n_ports; i++) {
        const struct ovsrec_port *row = bw->row->ports[i];
        if (row->n_interfaces < 2) {
            continue;
        }

        struct bridge_bond *bb = bridge_find_bond(br, row->name);
        if (!bb) {
            br->bonds = xrealloc(br->bonds,
                                 (br->n_bonds + 1) * sizeof *br->bonds);
            bb = &br->bonds[br->n_bonds++];
            memset(bb, 0, sizeof *bb);
            bb->bond = bond_create(row->name);
        }
        bb->keep = true;

        struct bond_settings bs;
        char *msg = bond_settings_from_db(&bs, row->name, row->bond_mode,
                                          row->bond_updelay,
                                          row->bond_downdelay, row->lacp,
                                          &row->other_config);
        if (!bs.lacp_has_sys_id) {
            bs.lacp_sys_id = bridge_local_mac(br);
        }
        bool default_mode = !row->bond_mode || !row->bond_mode[0];
        if (default_mode && !bb->default_mode_warned) {
            VLOG_WARN("port %s: Using the default bond_mode active-backup. "
                      "Note that in previous versions, the default "
                      "bond_mode was balance-slb", row->name);
        }
        bb->default_mode_warned = default_mode;

        struct bond_member_settings *ms
            = xcalloc(br->n_ports, sizeof *ms);
        size_t n_ms = 0;
        for (size_t j = 0; j < br->n_ports; j++) {
            struct port *port = br->ports[j];

            if (!port->is_bond || strcmp(port->name, row->name)) {
                continue;
            }
            port->bond = bb->bond;
            if (!port->netdev || port->ofport <= 0
                || port->dp_port == DP_PORT_NONE) {
                continue;
            }
            ms[n_ms].name = port->iface_name;
            ms[n_ms].ofport = port->ofport;
            ms[n_ms].dp_port = port->dp_port;
            netdev_get_etheraddr(port->netdev, &ms[n_ms].mac);
            ms[n_ms].may_enable = port_may_enable(port);
            char *lacp_msg = bond_member_lacp_from_db(&ms[n_ms],
                                                      &port->other_config);
            if (lacp_msg) {
                char *both = (msg ? xasprintf("%s; %s", msg, lacp_msg)
                              : xstrdup(lacp_msg));
                free(msg);
                free(lacp_msg);
                msg = both;
            }
            n_ms++;
        }
        if (msg && !strings_equal(msg, bb->warning)) {
            VLOG_WARN("%s", msg);
        }
        free(bb->warning);
        bb->warning = msg;
        if (bond_reconfigure(bb->bond, &bs, ms, n_ms)) {
            br->revalidate_all = true;
        }
        free(ms);
        bond_settings_destroy(&bs);
    }
    bond_pdu_index();
}

/* The bridge's Ethernet address (its local port's), the LACP system ID of
 * its bonds without lacp-system-id. */
static struct eth_addr
bridge_local_mac(const struct bridge *br)
{
    struct eth_addr ea = { { 0 } };

    for (size_t i = 0; i < br->n_ports; i++) {
        if (br->ports[i]->is_local && br->ports[i]->netdev) {
            netdev_get_etheraddr(br->ports[i]->netdev, &ea);
        }
    }
    return ea;
}

/* Rebuilds the index of LACP bond members from every bridge's ports. */
static void
bond_pdu_index(void)
{
    struct bond_pdu_port *index = NULL;
    size_t n = 0;

    for (size_t i = 0; i < n_bridges; i++) {
        const struct bridge *br = bridges[i];

        for (size_t j = 0; j < br->n_ports; j++) {
            const struct port *port = br->ports[j];

            if (port->bond && port->dp_port != DP_PORT_NONE) {
                index = xrealloc(index, (n + 1) * sizeof *index);
                index[n].dp_port = port->dp_port;
                index[n].bond = port->bond;
                n++;
            }
        }
    }
    pthread_mutex_lock(&bond_pdu_mutex);
    free(bond_pdu_ports);
    bond_pdu_ports = index;
    n_bond_pdu_ports = n;
    pthread_mutex_unlock(&bond_pdu_mutex);
}

/* Takes 'bond' out of the index, before it is destroyed. */
static void
bond_pdu_forget(struct bond *bond)
{
    pthread_mutex_lock(&bond_pdu_mutex);
    size_t n = 0;
    for (size_t i = 0; i < n_bond_pdu_ports; i++) {
        if (bond_pdu_ports[i].bond != bond) {
            bond_pdu_ports[n++] = bond_pdu_ports[i];
        }
    }
    n_bond_pdu_ports = n;
    pthread_mutex_unlock(&bond_pdu_mutex);
}

/* Hands LACPDU 'packet' (key 'flow') to the LACP bond of its input port.
 * Returns true if the bond took it.  Any thread. */
static bool
bond_pdu_take(const struct flow *flow, const struct dp_packet *packet)
{
    uint8_t frame[LACP_FRAME_LEN + 64];
    size_t size = MIN(dp_packet_size(packet), sizeof frame);
    bool taken = false, changed = false;

    if (dp_packet_copy_out(packet, 0, size, frame)) {
        return false;
    }
    pthread_mutex_lock(&bond_pdu_mutex);
    for (size_t i = 0; i < n_bond_pdu_ports; i++) {
        if (bond_pdu_ports[i].dp_port == flow->in_port) {
            taken = bond_lacp_process(bond_pdu_ports[i].bond, flow->in_port,
                                      frame, size, &changed);
            break;
        }
    }
    pthread_mutex_unlock(&bond_pdu_mutex);
    if (changed) {
        latch_set(&bond_latch);
    }
    return taken;
}

/* Frees the bonds of 'br' that lost their 'keep' mark.  NORMAL switching
 * must no longer know them. */
static void
bridge_free_stale_bonds(struct bridge *br)
{
    size_t n = 0;

    for (size_t i = 0; i < br->n_bonds; i++) {
        struct bridge_bond *bb = &br->bonds[i];

        if (bb->keep) {
            br->bonds[n++] = *bb;
        } else {
            bond_pdu_forget(bb->bond);
            bond_destroy(bb->bond);
            free(bb->warning);
        }
    }
    br->n_bonds = n;
}

/* Tells each bond its members' link state and runs it.  A change of what
 * the bonds decide revalidates the bridge's flows and rewrites
 * bond_active_slave. */
static void
bridge_run_bonds(struct bridge *br, long long int now)
{
    if (!br->n_bonds) {
        return;
    }
    for (size_t i = 0; i < br->n_ports; i++) {
        struct port *port = br->ports[i];

        if (port->bond && port->dp_port != DP_PORT_NONE) {
            bond_member_set_may_enable(port->bond, port->dp_port,
                                       port_may_enable(port));
        }
    }
    for (size_t i = 0; i < br->n_bonds; i++) {
        struct bond *bond = br->bonds[i].bond;

        bond_lacp_run(bond, now, bridge_send_bond_frame, NULL);
        if (bond_run(bond, now)) {
            br->revalidate_all = true;
            status_dirty = true;
            latch_set(&revalidate_latch);
        }
        if (bond_take_learning_packets(bond)) {
            bridge_send_learning_packets(br, bond, now);
        }
    }
}

/* Sends the 'size'-byte 'frame' from the slow path on datapath port
 * 'dp_port'.  Returns false if there was no buffer for it. */
static bool
bridge_send_frame(uint32_t dp_port, const void *frame, size_t size)
{
    struct dp_packet *packet = (dp ? dp_packet_alloc_data(dpdk_default_pool(),
                                                          frame, size)
                                : NULL);

    if (!packet) {
        return false;
    }
    packet->md.in_port = DP_PORT_NONE;
    struct dp_actions actions = DP_ACTIONS_INITIALIZER;
    dp_actions_put_output(&actions, dp_port);
    dp_netdev_execute(dp, packet, &actions);
    dp_actions_destroy(&actions);
    return true;
}

/* Sends a bond's LACPDU 'frame' on datapath port 'dp_port'. */
static void
bridge_send_bond_frame(void *aux DPS_UNUSED, uint32_t dp_port,
                       const void *frame, size_t size)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

    if (!bridge_send_frame(dp_port, frame, size)) {
        VLOG_WARN_RL(&rl, "no buffer for a LACP PDU");
    }
}

/* After a failover, sends through 'bond', for every address the bridge
 * learned on another port, an RARP from that address (tagged with its
 * VLAN, if any), so that the upstream switch learns the path through the
 * member that now carries it; as Open vSwitch does. */
static void
bridge_send_learning_packets(struct bridge *br, struct bond *bond,
                             long long int now)
{
    /* NORMAL knows the bond by its first member's OpenFlow number. */
    int64_t bond_ofport = INT64_MAX;
    for (size_t i = 0; i < br->n_ports; i++) {
        const struct port *port = br->ports[i];
        if (port->bond == bond && port->dp_port != DP_PORT_NONE
            && port->ofport > 0) {
            bond_ofport = MIN(bond_ofport, port->ofport);
        }
    }

    struct mac_learning_entry *entries;
    size_t n = normal_fdb_get_entries(br->nb, now, &entries);
    for (size_t i = 0; dp && i < n; i++) {
        const struct mac_learning_entry *e = &entries[i];
        if (e->port == bond_ofport) {
            continue;
        }

        struct flow flow, mask;
        memset(&flow, 0, sizeof flow);
        flow.dl_src = e->mac;
        uint32_t member = bond_choose_output(bond, &flow, e->vlan, &mask,
                                             NULL);
        if (member == BOND_NO_MEMBER) {
            continue;
        }

        uint8_t frame[46];
        size_t len = 0;
        memset(frame, 0xff, 6);
        memcpy(&frame[6], e->mac.ea, 6);
        len = 12;
        if (e->vlan) {
            frame[len++] = ETH_TYPE_VLAN >> 8;
            frame[len++] = ETH_TYPE_VLAN & 0xff;
            frame[len++] = e->vlan >> 8;
            frame[len++] = e->vlan & 0xff;
        }
        /* RARP: Ethernet/IPv4, "reverse request", with the address as
         * sender and target hardware address and no protocol addresses. */
        static const uint8_t rarp[] = { 0x80, 0x35, 0x00, 0x01, 0x08, 0x00,
                                        0x06, 0x04, 0x00, 0x03 };
        memcpy(&frame[len], rarp, sizeof rarp);
        len += sizeof rarp;
        memcpy(&frame[len], e->mac.ea, 6);
        memset(&frame[len + 6], 0, 4);
        memcpy(&frame[len + 10], e->mac.ea, 6);
        memset(&frame[len + 16], 0, 4);
        len += 20;

        if (!bridge_send_frame(member, frame, len)) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            VLOG_WARN_RL(&rl, "bond %s: no buffer for a learning packet",
                         bond_name(bond));
            break;
        }
    }
    free(entries);
}

static void
bridge_wait_bonds(struct bridge *br)
{
    for (size_t i = 0; i < br->n_bonds; i++) {
        long long int when = bond_next_wakeup(br->bonds[i].bond);
        if (when != LLONG_MAX) {
            poll_timer_wait_until(when);
        }
    }
}

/* Writes each bond's bond_active_slave: the active member's address, all
 * zeros with none, as Open vSwitch does. */
static void
bridge_write_bonds(struct ovsdb_idl_txn *txn, const struct bridge *br)
{
    if (!br->n_bonds) {
        return;
    }

    const struct ovsrec_bridge *row = ovsrec_bridge_get_for_uuid(idl,
                                                                 &br->uuid);
    for (size_t i = 0; row && i < row->n_ports; i++) {
        const struct ovsrec_port *prow = row->ports[i];
        struct bridge_bond *bb = bridge_find_bond((struct bridge *) br,
                                                  prow->name);
        struct eth_addr mac = { { 0 } };
        char text[18];

        if (!bb) {
            continue;
        }
        bond_get_active_mac(bb->bond, &mac);
        snprintf(text, sizeof text, "%02x:%02x:%02x:%02x:%02x:%02x",
                 mac.ea[0], mac.ea[1], mac.ea[2], mac.ea[3], mac.ea[4],
                 mac.ea[5]);
        if (!strings_equal(prow->bond_active_slave, text)) {
            ovsrec_port_set_bond_active_slave(txn, prow, text);
        }
    }
}

/* ------------------------------------------------------------------------
 * Mirrors.
 * ------------------------------------------------------------------------ */

/* Whether 'port' is in the datapath and NORMAL switching (see
 * bridge_publish()). */
static bool
port_is_published(const struct port *port)
{
    return port->keep && port->dp_port != DP_PORT_NONE && port->ofport > 0;
}

/* A Mirror row's identity for its statistics: half its UUID. */
static uint64_t
mirror_row_id(const struct ovsrec_mirror *row)
{
    const struct uuid *uuid = ovsrec_mirror_get_uuid(row);
    return ((uint64_t) uuid->parts[0] << 32) | uuid->parts[1];
}

/* Appends to '*ports' the datapath ports of 'br''s ports (the interfaces)
 * of Port row 'row'.  Returns false if 'row' is not a port of 'br'. */
static bool
mirror_add_port(const struct bridge *br, const struct ovsrec_port *row,
                uint32_t **ports, size_t *n_ports)
{
    bool found = false;

    for (size_t i = 0; i < br->n_ports; i++) {
        const struct port *port = br->ports[i];

        if (port->keep && !strcmp(port->name, row->name)) {
            found = true;
            if (port_is_published(port)) {
                *ports = xrealloc(*ports, (*n_ports + 1) * sizeof **ports);
                (*ports)[(*n_ports)++] = port->dp_port;
            }
        }
    }
    return found;
}

/* Logs 'level' message 'msg' (which it frees) for the bridge's mirrors, by
 * adding it to 'log'; bridge_configure_mirrors() logs the lot when it
 * differs from what it logged last. */
static void
mirror_complain(struct ds *log, char level, char *msg)
{
    ds_put_format(log, "%c%s\n", level, msg);
    free(msg);
}

/* Reads 'br''s Mirror rows into its mirror set, as Open vSwitch does, with
 * its log messages for rows it cannot use (each logged once).  Returns true
 * if the mirrors changed (the bridge's megaflows need revalidation).  Called
 * with the bridge's ports sorted in flood order. */
static bool
bridge_configure_mirrors(struct bridge *br)
{
    const struct ovsrec_bridge *row = ovsrec_bridge_get_for_uuid(idl,
                                                                 &br->uuid);
    size_t n_rows = row ? row->n_mirrors : 0;
    struct mirror_config *cfgs = xcalloc(MAX(n_rows, 1), sizeof *cfgs);
    uint32_t **lists = xcalloc(MAX(n_rows, 1) * 2, sizeof *lists);
    uint16_t **vlans = xcalloc(MAX(n_rows, 1), sizeof *vlans);
    uint32_t *ports = xmalloc(MAX(br->n_ports, 1) * sizeof *ports);
    uint32_t *all = xmalloc(MAX(br->n_ports, 1) * sizeof *all);
    struct ds log = DS_EMPTY_INITIALIZER;
    size_t n_ports = 0, n_all = 0, n = 0;

    /* The ports in flood order, a bond once (as NORMAL has them). */
    for (size_t i = 0; i < br->n_ports; i++) {
        const struct port *port = br->ports[i];
        bool seen = false;

        for (size_t j = 0; port->bond && j < i; j++) {
            seen |= (br->ports[j]->bond == port->bond
                     && port_is_published(br->ports[j]));
        }
        if (port_is_published(port)) {
            all[n_all++] = port->dp_port;
            if (!seen) {
                ports[n_ports++] = port->dp_port;
            }
        }
    }

    for (size_t i = 0; i < n_rows; i++) {
        const struct ovsrec_mirror *m = row->mirrors[i];
        struct mirror_config *cfg = &cfgs[n];
        uint32_t *srcs = NULL, *dsts = NULL, *out = NULL;
        size_t n_out = 0;

        memset(cfg, 0, sizeof *cfg);
        cfg->id = mirror_row_id(m);
        cfg->name = m->name;
        if (m->output_port) {
            if (!mirror_add_port(br, m->output_port, &out, &n_out)) {
                mirror_complain(&log, 'E', xasprintf(
                                    "bridge %s: mirror %s outputs to port "
                                    "not on bridge", br->name, m->name));
                continue;
            }
            cfg->has_out_port = true;
            cfg->out_port = n_out ? out[0] : MIRROR_PORT_NONE;
            cfg->out_port_name = m->output_port->name;
            free(out);
            if (m->n_output_vlan) {
                mirror_complain(&log, 'E', xasprintf(
                                    "bridge %s: mirror %s specifies both "
                                    "output port and output vlan; ignoring "
                                    "output vlan", br->name, m->name));
            }
        } else if (m->n_output_vlan) {
            cfg->out_vlan = *m->output_vlan;
        } else {
            mirror_complain(&log, 'E', xasprintf(
                                "bridge %s: mirror %s does not specify "
                                "output; ignoring", br->name, m->name));
            continue;
        }
        /* (snaplen is compat="yes": vswitchd/compat.c warns of it.) */

        if (m->select_all) {
            srcs = xmemdup(all, MAX(n_all, 1) * sizeof *all);
            dsts = xmemdup(all, MAX(n_all, 1) * sizeof *all);
            cfg->n_src_ports = cfg->n_dst_ports = n_all;
        } else {
            struct ovsrec_port **sets[2] = { m->select_src_port,
                                             m->select_dst_port };
            size_t n_sets[2] = { m->n_select_src_port,
                                 m->n_select_dst_port };
            uint32_t **lists_of[2] = { &srcs, &dsts };
            size_t *n_lists_of[2] = { &cfg->n_src_ports, &cfg->n_dst_ports };

            for (size_t s = 0; s < 2; s++) {
                for (size_t j = 0; j < n_sets[s]; j++) {
                    if (!mirror_add_port(br, sets[s][j], lists_of[s],
                                         n_lists_of[s])) {
                        mirror_complain(&log, 'W', xasprintf(
                                            "bridge %s: mirror %s cannot "
                                            "match on nonexistent port %s",
                                            br->name, m->name,
                                            sets[s][j]->name));
                    }
                }
            }
        }
        cfg->src_ports = lists[2 * n] = srcs;
        cfg->dst_ports = lists[2 * n + 1] = dsts;

        vlans[n] = xmalloc(MAX(m->n_select_vlan, 1) * sizeof *vlans[n]);
        for (size_t j = 0; j < m->n_select_vlan; j++) {
            vlans[n][j] = m->select_vlan[j];
        }
        cfg->vlans = vlans[n];
        cfg->n_vlans = m->n_select_vlan;
        n++;
    }

    if (!strings_equal(ds_cstr(&log), br->mirror_warnings)) {
        set_string(&br->mirror_warnings, ds_cstr(&log));
        char *save = NULL;
        for (char *line = strtok_r(ds_cstr(&log), "\n", &save); line;
             line = strtok_r(NULL, "\n", &save)) {
            if (line[0] == 'E') {
                VLOG_ERR("%s", line + 1);
            } else {
                VLOG_WARN("%s", line + 1);
            }
        }
    }

    if (n || !mirror_set_is_empty(br->mirrors)) {
        /* Counts so far belong to the mirrors as they were. */
        bridge_push_stats();
    }
    pthread_rwlock_wrlock(&upcall_rwlock);
    bool changed = mirror_set_reconfigure(br->mirrors, cfgs, n, ports,
                                          n_ports);
    pthread_rwlock_unlock(&upcall_rwlock);

    for (size_t i = 0; i < n; i++) {
        free(lists[2 * i]);
        free(lists[2 * i + 1]);
        free(vlans[i]);
    }
    free(lists);
    free(vlans);
    free(cfgs);
    free(ports);
    free(all);
    ds_destroy(&log);
    return changed;
}

/* Writes the statistics of the Mirror rows of 'br' (Bridge row 'row'):
 * tx_packets and tx_bytes of each mirror in use, none for a row that was
 * refused, as Open vSwitch does. */
static void
bridge_write_mirror_stats(struct ovsdb_idl_txn *txn, const struct bridge *br,
                          const struct ovsrec_bridge *row)
{
    for (size_t i = 0; i < row->n_mirrors; i++) {
        const struct ovsrec_mirror *m = row->mirrors[i];
        static const char *keys[2] = { "tx_packets", "tx_bytes" };
        uint64_t n_packets, n_bytes;

        if (mirror_set_get_stats(br->mirrors, mirror_row_id(m), &n_packets,
                                 &n_bytes)) {
            int64_t values[2] = {
                n_packets > INT64_MAX ? INT64_MAX : (int64_t) n_packets,
                n_bytes > INT64_MAX ? INT64_MAX : (int64_t) n_bytes,
            };
            ovsrec_mirror_set_statistics(txn, m, keys, values, 2);
        } else {
            ovsrec_mirror_set_statistics(txn, m, NULL, NULL, 0);
        }
    }
}

/* ------------------------------------------------------------------------
 * Writing status.
 * ------------------------------------------------------------------------ */

/* Writes the words of 'words' (separated by spaces) to string-set column
 * 'set' (ovsrec_open_vswitch_set_iface_types() and the like), which drops
 * repeated words. */
static void
write_words(struct ovsdb_idl_txn *txn, const struct ovsrec_open_vswitch *ovs,
            void (*set)(struct ovsdb_idl_txn *,
                        const struct ovsrec_open_vswitch *,
                        const char *const *, size_t),
            const char *words)
{
    char *copy = xstrdup(words), *save = NULL;
    const char **list = xmalloc((strlen(words) / 2 + 1) * sizeof *list);
    size_t n = 0;

    for (char *w = strtok_r(copy, " ", &save); w;
         w = strtok_r(NULL, " ", &save)) {
        list[n++] = w;
    }
    set(txn, ovs, list, n);
    free(list);
    free(copy);
}

/* Statistics for Interface:statistics, in the order they are gathered;
 * a repeated name keeps its first value (as the setter does). */
struct stats_list {
    const char **names;
    int64_t *values;
    size_t n, allocated;
};

static void
stats_add(struct stats_list *list, const char *name, uint64_t value)
{
    if (list->n >= list->allocated) {
        list->allocated = 2 * list->allocated + 16;
        list->names = xrealloc(list->names,
                               list->allocated * sizeof *list->names);
        list->values = xrealloc(list->values,
                                list->allocated * sizeof *list->values);
    }
    list->names[list->n] = name;
    list->values[list->n] = value > INT64_MAX ? INT64_MAX : (int64_t) value;
    list->n++;
}

static void
port_write_stats(struct ovsdb_idl_txn *txn,
                 const struct ovsrec_interface *row, const struct port *port)
{
    struct netdev_custom_stats custom = { NULL, 0 };
    struct stats_list list = { NULL, NULL, 0, 0 };
    struct netdev_stats stats;

    if (!netdev_get_stats(port->netdev, &stats)) {
#define NETDEV_STAT(NAME)                               \
        if (stats.NAME != UINT64_MAX) {                 \
            stats_add(&list, #NAME, stats.NAME);        \
        }
        NETDEV_STATS
#undef NETDEV_STAT
    }
    if (!netdev_get_custom_stats(port->netdev, &custom)) {
        for (size_t i = 0; i < custom.n; i++) {
            stats_add(&list, custom.counters[i].name,
                      custom.counters[i].value);
        }
    }
    ovsrec_interface_set_statistics(txn, row, list.names, list.values,
                                    list.n);
    netdev_custom_stats_destroy(&custom);
    free(list.names);
    free(list.values);
}

/* The text of Interface:error for 'port', or NULL. */
static char *
port_error_text(const struct port *port)
{
    if (port->open_error) {
        return xstrdup(port->open_error);
    }

    char *netdev_error = port->netdev ? netdev_get_error(port->netdev) : NULL;
    const char *msgs[] = {
        netdev_error, port->mtu_error, port->mac_error, port->oc_error,
        port->vlan_error, port->qos_error, port->policing_error,
    };
    struct ds ds = DS_EMPTY_INITIALIZER;
    for (size_t i = 0; i < ARRAY_SIZE(msgs); i++) {
        if (msgs[i]) {
            ds_put_format(&ds, "%s%s", ds.length ? "; " : "", msgs[i]);
        }
    }
    free(netdev_error);
    return ds.length ? ds_steal_cstr(&ds) : NULL;
}

static void
port_write_status(struct ovsdb_idl_txn *txn,
                  const struct ovsrec_interface *row, struct port *port,
                  bool with_stats)
{
    char *error = port_error_text(port);
    ovsrec_interface_set_error(txn, row, error);
    free(error);

    if (!port->netdev) {
        int64_t failed = OFPORT_FAILED;
        struct smap empty = SMAP_INITIALIZER;

        ovsrec_interface_set_ofport(txn, row, &failed, 1);
        ovsrec_interface_set_admin_state(txn, row, NULL);
        ovsrec_interface_set_link_state(txn, row, NULL);
        ovsrec_interface_set_link_resets(txn, row, NULL, 0);
        ovsrec_interface_set_link_speed(txn, row, NULL, 0);
        ovsrec_interface_set_duplex(txn, row, NULL);
        ovsrec_interface_set_mac_in_use(txn, row, NULL);
        ovsrec_interface_set_mtu(txn, row, NULL, 0);
        ovsrec_interface_set_ifindex(txn, row, NULL, 0);
        ovsrec_interface_set_status(txn, row, &empty);
        ovsrec_interface_set_statistics(txn, row, NULL, NULL, 0);
        ovsrec_interface_set_lacp_current(txn, row, NULL, 0);
        return;
    }

    port->change_seq = netdev_get_change_seq(port->netdev);
    int64_t ofport = port->ofport;
    ovsrec_interface_set_ofport(txn, row, &ofport, 1);

    enum netdev_flags flags = 0;
    if (!netdev_get_flags(port->netdev, &flags)) {
        ovsrec_interface_set_admin_state(txn, row,
                                         flags & NETDEV_UP ? "up" : "down");
    } else {
        ovsrec_interface_set_admin_state(txn, row, NULL);
    }

    bool carrier;
    if (!netdev_get_carrier(port->netdev, &carrier)) {
        ovsrec_interface_set_link_state(txn, row, carrier ? "up" : "down");
    } else {
        ovsrec_interface_set_link_state(txn, row, NULL);
    }
    /* A member of a LACP bond: whether it hears its partner. */
    int lacp_current = (port->bond && port->dp_port != DP_PORT_NONE
                        ? bond_member_lacp_current(port->bond, port->dp_port)
                        : -1);
    bool current = lacp_current > 0;
    ovsrec_interface_set_lacp_current(txn, row, &current,
                                      lacp_current >= 0);

    long long int resets = netdev_get_carrier_resets(port->netdev);
    int64_t link_resets = resets >= 0 ? resets : 0;
    ovsrec_interface_set_link_resets(txn, row, &link_resets, 1);

    uint32_t mbps;
    if (!netdev_get_speed(port->netdev, &mbps) && mbps) {
        int64_t bps = (int64_t) mbps * 1000000;
        ovsrec_interface_set_link_speed(txn, row, &bps, 1);
        ovsrec_interface_set_duplex(txn, row, "full");
    } else {
        ovsrec_interface_set_link_speed(txn, row, NULL, 0);
        ovsrec_interface_set_duplex(txn, row, NULL);
    }

    struct eth_addr ea;
    if (!netdev_get_etheraddr(port->netdev, &ea)) {
        char s[18];
        eth_addr_format(&ea, s);
        ovsrec_interface_set_mac_in_use(txn, row, s);
    } else {
        ovsrec_interface_set_mac_in_use(txn, row, NULL);
    }

    int mtu;
    if (!netdev_get_mtu(port->netdev, &mtu)) {
        int64_t mtu64 = mtu;
        ovsrec_interface_set_mtu(txn, row, &mtu64, 1);
    } else {
        ovsrec_interface_set_mtu(txn, row, NULL, 0);
    }
    int64_t ifindex = netdev_get_ifindex(port->netdev);
    ovsrec_interface_set_ifindex(txn, row, &ifindex, 1);

    struct smap status = SMAP_INITIALIZER;
    netdev_get_status(port->netdev, &status);
    ovsrec_interface_set_status(txn, row, &status);
    smap_destroy(&status);

    if (with_stats) {
        port_write_stats(txn, row, port);
    }
}

/* The datapath ID of 'br': other_config:datapath-id, or made from the
 * local port's Ethernet address. */
static char *
bridge_datapath_id(const struct bridge *br)
{
    struct eth_addr ea;

    if (br->datapath_id_request) {
        return xstrdup(br->datapath_id_request);
    }
    for (size_t i = 0; i < br->n_ports; i++) {
        const struct port *port = br->ports[i];
        if (port->is_local && port->netdev
            && !netdev_get_etheraddr(port->netdev, &ea)) {
            return xasprintf("0000%02x%02x%02x%02x%02x%02x", ea.ea[0],
                             ea.ea[1], ea.ea[2], ea.ea[3], ea.ea[4],
                             ea.ea[5]);
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------------
 * OpenFlow: what the connection manager (ofproto/connmgr.h) asks of a
 * bridge.
 * ------------------------------------------------------------------------ */

/* Whether Controller 'target' may be used by bridge 'br': as in Open
 * vSwitch, a "unix:" path must be in the run directory and a "punix:" one
 * must be <rundir>/<bridge>.<name>, so that a database client cannot make
 * the switch connect to or overwrite any file. */
static bool
controller_target_allowed(const struct bridge *br, const char *target)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    bool ok = true;
    char *allowed;

    if (!strncmp(target, "unix:", 5)) {
        allowed = xasprintf("unix:%s/", dirs_rundir());
        ok = (!strchr(target, '/')
              || !strncmp(target, allowed, strlen(allowed)));
        if (!ok) {
            VLOG_ERR_RL(&rl, "bridge %s: not connecting to socket controller "
                        "\"%s\": the socket must be in \"%s\" (or use "
                        "\"unix:%s/%s.mgmt\", always there)", br->name,
                        target, allowed, dirs_rundir(), br->name);
        }
    } else if (!strncmp(target, "punix:", 6)) {
        allowed = xasprintf("punix:%s/%s.", dirs_rundir(), br->name);
        ok = (!strncmp(target, allowed, strlen(allowed))
              && !strchr(target + strlen(allowed), '/'));
        if (!ok) {
            VLOG_ERR_RL(&rl, "bridge %s: not adding Unix domain socket "
                        "controller \"%s\", which could overwrite a local "
                        "file: its path must be \"%s*\" (or connect to "
                        "\"unix:%s/%s.mgmt\", always there)", br->name,
                        target, allowed, dirs_rundir(), br->name);
        }
    } else {
        return true;
    }
    free(allowed);
    return ok;
}

/* Applies the Bridge row's controllers (Controller table) and fail_mode
 * to the connection manager. */
static void
bridge_configure_controllers(struct bridge *br,
                             const struct ovsrec_bridge *row)
{
    struct connmgr_controller *ctls = xcalloc(MAX(row->n_controller, 1),
                                              sizeof *ctls);
    size_t n = 0;

    for (size_t i = 0; i < row->n_controller; i++) {
        const struct ovsrec_controller *c = row->controller[i];

        if (!controller_target_allowed(br, c->target)) {
            continue;
        }
        ctls[n++] = (struct connmgr_controller) {
            .target = c->target,
            /* Open vSwitch keeps these in whole seconds. */
            .max_backoff = (c->n_max_backoff
                            ? *c->max_backoff / 1000 * 1000 : 8000),
            .probe_interval = (c->n_inactivity_probe
                               ? *c->inactivity_probe / 1000 * 1000 : 5000),
        };
    }
    connmgr_set_controllers(br->connmgr, ctls, n);
    free(ctls);
    connmgr_set_fail_mode(br->connmgr, (row->fail_mode
                                        && !strcmp(row->fail_mode,
                                                   "secure")));
}

/* Writes each Controller row's is_connected, role and status. */
static void
bridge_write_controllers(struct ovsdb_idl_txn *txn, struct bridge *br,
                         const struct ovsrec_bridge *row)
{
    br->ctl_status_seqno = connmgr_status_seqno(br->connmgr);
    for (size_t i = 0; i < row->n_controller; i++) {
        const struct ovsrec_controller *c = row->controller[i];
        struct smap status = SMAP_INITIALIZER;
        const char *role = NULL;
        bool connected = false;

        connmgr_get_controller_status(br->connmgr, c->target, &connected,
                                      &role, &status);
        ovsrec_controller_set_is_connected(txn, c, connected);
        ovsrec_controller_set_role(txn, c, role);
        ovsrec_controller_set_status(txn, c, &status);
        smap_destroy(&status);
    }
}

/* Applies the Bridge row's OpenFlow settings: protocols (the versions the
 * management socket offers) and other_config:dp-desc. */
static void
bridge_configure_openflow(struct bridge *br, const struct ovsrec_bridge *row,
                          const struct smap *oc)
{
    uint32_t versions = 0;

    for (size_t i = 0; i < row->n_protocols; i++) {
        int v = ofputil_version_from_string(row->protocols[i]);
        if (v) {
            versions |= 1u << v;
        }
    }
    connmgr_set_versions(br->connmgr, versions);
    connmgr_set_dp_desc(br->connmgr, smap_get(oc, "dp-desc"));
    bridge_configure_controllers(br, row);
    connmgr_ports_changed(br->connmgr);
}

static uint64_t
bridge_of_datapath_id(void *br_)
{
    char *s = bridge_datapath_id(br_);
    uint64_t dpid = s ? strtoull(s, NULL, 16) : 0;

    free(s);
    return dpid;
}

/* The OpenFlow number of 'port', or OFPP_NONE if it has none. */
static ofp_port_t
port_ofp_port(const struct port *port)
{
    return (!port->keep || !port->netdev || port->ofport <= 0
            ? OFPP_NONE
            : port->is_local ? OFPP_LOCAL : (ofp_port_t) port->ofport);
}

static struct port *
bridge_find_ofp_port(const struct bridge *br, ofp_port_t port_no)
{
    for (size_t i = 0; i < br->n_ports; i++) {
        if (port_ofp_port(br->ports[i]) == port_no) {
            return br->ports[i];
        }
    }
    return NULL;
}

/* OpenFlow 1.1 feature bits for a link of 'mbps'. */
static uint32_t
speed_to_features(uint32_t mbps)
{
    return (mbps == 10 ? NETDEV_F_10MB_FD
            : mbps == 100 ? NETDEV_F_100MB_FD
            : mbps == 1000 ? NETDEV_F_1GB_FD
            : mbps == 10000 ? NETDEV_F_10GB_FD
            : mbps == 40000 ? NETDEV_F_40GB_FD
            : mbps == 100000 ? NETDEV_F_100GB_FD
            : mbps == 1000000 ? NETDEV_F_1TB_FD
            : mbps ? NETDEV_F_OTHER : 0);
}

static int
compare_connmgr_ports(const void *a_, const void *b_)
{
    const struct connmgr_port *a = a_, *b = b_;
    bool a_local = a->pp.port_no == OFPP_LOCAL;
    bool b_local = b->pp.port_no == OFPP_LOCAL;

    if (a_local != b_local) {
        return a_local ? -1 : 1;
    }
    return a->pp.port_no < b->pp.port_no ? -1 : a->pp.port_no > b->pp.port_no;
}

static size_t
bridge_of_get_ports(void *br_, struct connmgr_port **portsp)
{
    const struct bridge *br = br_;
    struct connmgr_port *ports = xcalloc(MAX(br->n_ports, 1), sizeof *ports);
    size_t n = 0;

    for (size_t i = 0; i < br->n_ports; i++) {
        const struct port *port = br->ports[i];
        ofp_port_t port_no = port_ofp_port(port);
        if (port_no == OFPP_NONE) {
            continue;
        }

        struct connmgr_port *cp = &ports[n++];
        struct ofputil_phy_port *pp = &cp->pp;
        enum netdev_flags flags = 0;
        bool carrier = false;
        uint32_t mbps = 0;

        pp->port_no = port_no;
        netdev_get_etheraddr(port->netdev, &pp->hw_addr);
        snprintf(pp->name, sizeof pp->name, "%s", port->iface_name);
        netdev_get_flags(port->netdev, &flags);
        netdev_get_carrier(port->netdev, &carrier);
        pp->config = port->of_config & ~OFPPC_PORT_DOWN;
        if (!(flags & NETDEV_UP)) {
            pp->config |= OFPPC_PORT_DOWN;
        }
        if (!carrier || !(flags & NETDEV_UP)) {
            pp->state |= OFPPS_LINK_DOWN;
        }
        if (!netdev_get_speed(port->netdev, &mbps) && mbps) {
            pp->curr = pp->supported = speed_to_features(mbps);
            pp->curr_speed = pp->max_speed = mbps * 1000;
        }
        cp->created = port->created;
    }
    qsort(ports, n, sizeof *ports, compare_connmgr_ports);
    *portsp = ports;
    return n;
}

static bool
bridge_of_get_port_stats(void *br_, ofp_port_t port_no,
                         struct connmgr_port_stats *s)
{
    const struct port *port = bridge_find_ofp_port(br_, port_no);
    struct netdev_stats ns;

    if (!port) {
        return false;
    }
    memset(&ns, 0xff, sizeof ns);
    netdev_get_stats(port->netdev, &ns);
    *s = (struct connmgr_port_stats) {
        .rx_packets = ns.rx_packets, .tx_packets = ns.tx_packets,
        .rx_bytes = ns.rx_bytes, .tx_bytes = ns.tx_bytes,
        .rx_dropped = ns.rx_dropped, .tx_dropped = ns.tx_dropped,
        .rx_errors = ns.rx_errors, .tx_errors = ns.tx_errors,
        .rx_frame_err = ns.rx_frame_err, .rx_over_err = ns.rx_over_err,
        .rx_crc_err = ns.rx_crc_err, .collisions = ns.collisions,
    };
    return true;
}

static void
bridge_of_set_port_config(void *br_, ofp_port_t port_no, uint32_t config)
{
    struct port *port = bridge_find_ofp_port(br_, port_no);
    enum netdev_flags flags = 0;

    if (!port) {
        return;
    }
    port->of_config = config & ~OFPPC_PORT_DOWN;
    netdev_get_flags(port->netdev, &flags);
    if ((config & OFPPC_PORT_DOWN) && (flags & NETDEV_UP)) {
        netdev_turn_flags_off(port->netdev, NETDEV_UP);
    } else if (!(config & OFPPC_PORT_DOWN) && !(flags & NETDEV_UP)) {
        netdev_turn_flags_on(port->netdev, NETDEV_UP);
    }
}

/* Runs packet-out 'po' on 'br_': its packet, in a buffer of the pool the
 * datapath's injected packets come from, translated from its in_port
 * through its actions, is executed on the datapath; the rules its
 * output:TABLE hit count it.  A packet that goes nowhere, is shorter than
 * an Ethernet header (Open vSwitch's datapath refuses those) or finds no
 * packet memory is counted as bridge_packet_out_drop. */
static enum ofperr
bridge_of_packet_out(void *br_, const struct ofputil_packet_out *po)
{
    struct bridge *br = br_;
    struct rte_mempool *pool = dpdk_default_pool();
    struct dp_packet *packet = (pool && dp
                                ? dp_packet_alloc_data(pool, po->packet,
                                                       po->packet_len)
                                : NULL);

    COVERAGE_INC(bridge_packet_out);
    if (!packet) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
        VLOG_WARN_RL(&rl, "%s: packet-out of %zu bytes dropped: no packet "
                     "memory", br->name, po->packet_len);
        COVERAGE_INC(bridge_packet_out_drop);
        return 0;
    }

    const struct port *in = bridge_find_ofp_port(br, po->in_port);
    struct flow key;
    packet->md.in_port = in ? in->dp_port : DP_PORT_NONE;
    flow_extract(packet, &key);

    struct xlate_bridge xb = bridge_xlate_bridge(br);
    struct xlate_out out;
    long long int now = time_msec();
    xlate_out_init(&out);
    ofproto_xlate_actions(&xb, &key, po->in_port, po->ofpacts,
                          po->ofpacts_len, now, &out);
    for (size_t i = 0; i < out.n_rules; i++) {
        ofproto_rule_credit(out.rules[i], 1, po->packet_len, now);
    }
    for (size_t i = 0; i < out.n_group_hits; i++) {
        ofproto_group_credit(out.group_hits[i].group,
                             out.group_hits[i].bucket, 1, po->packet_len);
    }
    mirror_set_credit(br->mirrors, out.mirrors, 1, po->packet_len);
    if (out.actions.n_actions && po->packet_len >= ETH_HEADER_LEN) {
        dp_netdev_execute(dp, packet, &out.actions);
    } else {
        COVERAGE_INC(bridge_packet_out_drop);
        dp_packet_free(packet);
    }
    xlate_out_destroy(&out);
    return 0;
}

static const struct connmgr_hooks bridge_connmgr_hooks = {
    .get_datapath_id = bridge_of_datapath_id,
    .get_ports = bridge_of_get_ports,
    .get_port_stats = bridge_of_get_port_stats,
    .set_port_config = bridge_of_set_port_config,
    .packet_out = bridge_of_packet_out,
};

/* Publishes the other_config keys that wait for a restart
 * (restart-needed.h) as Open_vSwitch:statistics:restart_needed, leaving the
 * column's other keys alone; writes only when that changes it. */
static void
write_restart_needed(struct ovsdb_idl_txn *txn,
                     const struct ovsrec_open_vswitch *ovs)
{
    char *keys = restart_needed_keys();

    if (!strings_equal(keys, smap_get(&ovs->statistics, "restart_needed"))) {
        struct smap stats;

        smap_clone(&stats, &ovs->statistics);
        if (keys) {
            smap_add(&stats, "restart_needed", keys);
        } else {
            smap_remove(&stats, "restart_needed");
        }
        ovsrec_open_vswitch_set_statistics(txn, ovs, &stats);
        smap_destroy(&stats);
    }
    free(keys);
}

/* Writes everything ovs-vswitchd reports to the database, and cur_cfg. */
static void
bridge_write_status(const struct ovsrec_open_vswitch *ovs)
{
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(idl);
    bool with_stats = stats_due;
    struct ds types = DS_EMPTY_INITIALIZER;

    stats_due = false;
    ovsdb_idl_txn_add_comment(txn, "ovs-vswitchd: status");

    ovsrec_open_vswitch_set_ovs_version(txn, ovs, PACKAGE_VERSION);
    netdev_get_types(&types);
    write_words(txn, ovs, ovsrec_open_vswitch_set_iface_types,
                ds_cstr(&types));
    ds_destroy(&types);
    write_words(txn, ovs, ovsrec_open_vswitch_set_datapath_types,
                options.dummy ? "dummy netdev" : "netdev");
    if (dp) {
        ovsrec_open_vswitch_set_dpdk_initialized(txn, ovs, dpdk_available());
        ovsrec_open_vswitch_set_dpdk_version(txn, ovs, dpdk_get_version());
    }
    write_restart_needed(txn, ovs);

    for (size_t i = 0; i < n_bridges; i++) {
        struct bridge *br = bridges[i];
        const struct ovsrec_bridge *row
            = ovsrec_bridge_get_for_uuid(idl, &br->uuid);
        if (row) {
            char *dpid = bridge_datapath_id(br);
            if (dpid && !strings_equal(dpid, br->datapath_id)) {
                VLOG_INFO("bridge %s: using datapath ID %s", br->name, dpid);
                set_string(&br->datapath_id, dpid);
            }
            ovsrec_bridge_set_datapath_id(txn, row, dpid);
            ovsrec_bridge_set_datapath_version(txn, row, "<built-in>");
            free(dpid);
        }
        for (size_t j = 0; j < br->n_ports; j++) {
            struct port *port = br->ports[j];
            const struct ovsrec_interface *irow
                = ovsrec_interface_get_for_uuid(idl, &port->iface_uuid);
            if (irow) {
                port_write_status(txn, irow, port, with_stats);
            }
        }
        if (row && with_stats) {
            bridge_write_mirror_stats(txn, br, row);
        }
        if (row) {
            bridge_write_controllers(txn, br, row);
        }
    bridge_write_bonds(txn, br);
    }

    for (size_t i = 0; i < n_rejected_ifaces; i++) {
        const struct ovsrec_interface *irow
            = ovsrec_interface_get_for_uuid(idl, &rejected_ifaces[i].uuid);
        if (irow) {
            int64_t failed = OFPORT_FAILED;

            ovsrec_interface_set_error(txn, irow, rejected_ifaces[i].msg);
            ovsrec_interface_set_ofport(txn, irow, &failed, 1);
        }
    }

    if (cfg_to_ack >= 0 && cfg_to_ack != ovs->cur_cfg) {
        ovsrec_open_vswitch_set_cur_cfg(txn, ovs, cfg_to_ack);
    }

    enum ovsdb_idl_txn_status status = ovsdb_idl_txn_commit(txn);
    if (status == TXN_INCOMPLETE) {
        status_txn = txn;
    } else {
        if (status != TXN_SUCCESS && status != TXN_UNCHANGED) {
            status_dirty = true;
        }
        ovsdb_idl_txn_destroy(txn);
    }
}

/* Notices netdevs whose status changed since it was last written. */
static void
bridge_poll_status(void)
{
    for (size_t i = 0; i < n_bridges; i++) {
        const struct bridge *br = bridges[i];
        for (size_t j = 0; j < br->n_ports; j++) {
            const struct port *port = br->ports[j];
            if (port->netdev
                && netdev_get_change_seq(port->netdev) != port->change_seq) {
                status_dirty = true;
                return;
            }
        }
    }
}

/* ------------------------------------------------------------------------
 * unixctl commands.
 * ------------------------------------------------------------------------ */

static struct bridge *
bridge_lookup_or_reply(struct unixctl_conn *conn, const char *name)
{
    struct bridge *br = bridge_find(name);
    if (!br) {
        unixctl_command_reply_error(conn, "no such bridge");
    }
    return br;
}

static void
fdb_show_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
            const char *argv[], void *aux DPS_UNUSED)
{
    struct bridge *br = bridge_lookup_or_reply(conn, argv[1]);
    if (br) {
        struct ds ds = DS_EMPTY_INITIALIZER;
        normal_fdb_show(br->nb, time_msec(), &ds);
        unixctl_command_reply(conn, ds_cstr(&ds));
        ds_destroy(&ds);
    }
}

/* Applies 'fn' to the NORMAL state of the bridge named by argv[1], or of
 * every bridge without it, then replies 'reply'.  (fdb/flush,
 * fdb/stats-clear.) */
static void
for_named_or_all_bridges(struct unixctl_conn *conn, int argc,
                         const char *argv[],
                         void (*fn)(struct normal_bridge *),
                         const char *reply)
{
    if (argc > 1) {
        struct bridge *br = bridge_lookup_or_reply(conn, argv[1]);
        if (!br) {
            return;
        }
        fn(br->nb);
    } else {
        for (size_t i = 0; i < n_bridges; i++) {
            fn(bridges[i]->nb);
        }
    }
    unixctl_command_reply(conn, reply);
}

static void
fdb_flush_cb(struct unixctl_conn *conn, int argc, const char *argv[],
             void *aux DPS_UNUSED)
{
    for_named_or_all_bridges(conn, argc, argv, normal_fdb_flush,
                             NORMAL_FDB_FLUSH_REPLY);
}

static bool
parse_vlan(const char *s, uint16_t *vlan)
{
    int v;
    if (util_str_to_int(s, 10, &v) && v >= 0 && v <= NORMAL_MAX_VLAN) {
        *vlan = v;
        return true;
    }
    return false;
}

static void
fdb_add_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
           const char *argv[], void *aux DPS_UNUSED)
{
    struct bridge *br = bridge_lookup_or_reply(conn, argv[1]);
    struct eth_addr mac;
    uint16_t vlan;
    struct port *port = NULL;

    if (!br) {
        return;
    }
    for (size_t i = 0; i < br->n_ports; i++) {
        if (!strcmp(br->ports[i]->name, argv[2]) && br->ports[i]->netdev) {
            port = br->ports[i];
            break;
        }
    }
    if (!port) {
        unixctl_command_reply_error(conn, "no such port");
    } else if (!parse_vlan(argv[3], &vlan)) {
        unixctl_command_reply_error(conn, "bad VLAN (0 to 4095)");
    } else if (!eth_addr_parse(argv[4], &mac)) {
        unixctl_command_reply_error(conn, "bad MAC address");
    } else {
        int error = normal_fdb_add(br->nb, port->ofport, vlan, &mac);
        if (error) {
            unixctl_command_reply_error(conn, "could not add static mac "
                                        "entry");
        } else {
            unixctl_command_reply(conn, NULL);
        }
    }
}

static void
fdb_del_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
           const char *argv[], void *aux DPS_UNUSED)
{
    struct bridge *br = bridge_lookup_or_reply(conn, argv[1]);
    struct eth_addr mac;
    uint16_t vlan;

    if (!br) {
        return;
    }
    if (!parse_vlan(argv[2], &vlan)) {
        unixctl_command_reply_error(conn, "bad VLAN (0 to 4095)");
    } else if (!eth_addr_parse(argv[3], &mac)) {
        unixctl_command_reply_error(conn, "bad MAC address");
    } else if (!normal_fdb_del(br->nb, vlan, &mac)) {
        unixctl_command_reply_error(conn, "could not find static mac entry");
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

/* Counts the static entries of the MAC table of 'br' (the lines of
 * fdb/show that end in "static"). */
static size_t
bridge_count_static_macs(struct bridge *br)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    size_t n = 0;

    normal_fdb_show(br->nb, time_msec(), &ds);
    for (const char *p = ds_cstr(&ds); (p = strstr(p, " static\n")); p++) {
        n++;
    }
    ds_destroy(&ds);
    return n;
}

static void
fdb_stats_show_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                  const char *argv[], void *aux DPS_UNUSED)
{
    struct bridge *br = bridge_lookup_or_reply(conn, argv[1]);
    struct mac_learning_stats stats;
    size_t n_entries, max_entries;
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (!br) {
        return;
    }
    normal_fdb_get_stats(br->nb, &stats, &n_entries, &max_entries);
    ds_put_format(&ds, "Statistics for bridge \"%s\":\n", br->name);
    ds_put_format(&ds, "  Current/maximum MAC entries in the table: "
                  "%zu/%zu\n", n_entries, max_entries);
    ds_put_format(&ds, "  Current static MAC entries in the table : "
                  "%zu\n", bridge_count_static_macs(br));
    ds_put_format(&ds, "  Total number of learned MAC entries     : "
                  "%"PRIu64"\n", stats.n_learned);
    ds_put_format(&ds, "  Total number of expired MAC entries     : "
                  "%"PRIu64"\n", stats.n_expired);
    ds_put_format(&ds, "  Total number of evicted MAC entries     : "
                  "%"PRIu64"\n", stats.n_evicted);
    ds_put_format(&ds, "  Total number of port moved MAC entries  : "
                  "%"PRIu64"\n", stats.n_moved);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
fdb_stats_clear_cb(struct unixctl_conn *conn, int argc, const char *argv[],
                   void *aux DPS_UNUSED)
{
    for_named_or_all_bridges(conn, argc, argv, normal_fdb_clear_stats,
                             "statistics successfully cleared");
}

static int
compare_bridges_by_name(const void *a_, const void *b_)
{
    const struct bridge *const *a = a_;
    const struct bridge *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

static int
compare_ports_by_name(const void *a_, const void *b_)
{
    const struct port *const *a = a_;
    const struct port *const *b = b_;
    return strcmp((*a)->iface_name, (*b)->iface_name);
}

/* The type dpif/show prints: Open vSwitch shows internal ports of the
 * userspace datapath as the tap devices they are there (and as
 * "dummy-internal" with --enable-dummy=override). */
static const char *
port_show_type(const struct port *port)
{
    const char *type = netdev_get_type(port->netdev);

    if (strcmp(type, "internal")) {
        return type;
    }
    /* Open vSwitch's test datapath shows its internal ports as
     * "dummy-internal". */
    return options.dummy_override ? "dummy-internal" : "tap";
}

static void
dpif_show_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct dp_netdev_stats stats = { 0, 0, 0, 0 };
    struct bridge **sorted;

    if (!n_bridges) {
        /* Open vSwitch shows a datapath only while a bridge uses it. */
        unixctl_command_reply(conn, "");
        return;
    }
    if (dp) {
        dp_netdev_get_stats(dp, &stats);
    }
    ds_put_format(&ds, "netdev@%s: hit:%"PRIu64" missed:%"PRIu64"\n",
                  DP_NETDEV_NAME, stats.n_hit, stats.n_missed);

    sorted = xmalloc(MAX(n_bridges, 1) * sizeof *sorted);
    if (n_bridges) {
        memcpy(sorted, bridges, n_bridges * sizeof *sorted);
    }
    if (n_bridges > 1) {
        qsort(sorted, n_bridges, sizeof *sorted, compare_bridges_by_name);
    }
    for (size_t i = 0; i < n_bridges; i++) {
        const struct bridge *br = sorted[i];
        struct port **ports = xmalloc(MAX(br->n_ports, 1) * sizeof *ports);

        if (br->n_ports) {
            memcpy(ports, br->ports, br->n_ports * sizeof *ports);
        }

        ds_put_format(&ds, "  %s:\n", br->name);
        if (br->n_ports > 1) {
            qsort(ports, br->n_ports, sizeof *ports, compare_ports_by_name);
        }
        for (size_t j = 0; j < br->n_ports; j++) {
            const struct port *port = ports[j];
            struct smap config = SMAP_INITIALIZER;

            if (!port->netdev || port->dp_port == DP_PORT_NONE) {
                continue;
            }
            ds_put_format(&ds, "    %s %"PRId64"/%"PRIu32": (%s",
                          port->iface_name, port->ofport, port->dp_port,
                          port_show_type(port));
            if (!netdev_get_config(port->netdev, &config)
                && !smap_is_empty(&config)) {
                ds_put_cstr(&ds, ": ");
                smap_format(&config, &ds);
            }
            ds_put_cstr(&ds, ")\n");
            smap_destroy(&config);
        }
        free(ports);
    }
    free(sorted);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* The port names of 'br' by OpenFlow port: its interfaces' ('ifaces') or
 * its Ports' ('ports'), as ofproto/trace reads and writes them. */
static void
bridge_port_maps(const struct bridge *br, struct ofputil_port_map *ifaces,
                 struct ofputil_port_map *ports)
{
    for (size_t i = 0; i < br->n_ports; i++) {
        const struct port *port = br->ports[i];
        ofp_port_t ofport = port_ofp_port(port);
        if (ofport != OFPP_NONE) {
            ofputil_port_map_add(ifaces, ofport, port->iface_name);
            ofputil_port_map_add(ports, ofport, port->name);
        }
    }
}

/* The OpenFlow port of datapath port 'dp_port' in 'br', or OFPP_NONE. */
static ofp_port_t
bridge_dp_to_ofp_port(const struct bridge *br, uint32_t dp_port)
{
    for (size_t i = 0; i < br->n_xports; i++) {
        if (br->xports[i].dp_port == dp_port) {
            return br->xports[i].ofport;
        }
    }
    return OFPP_NONE;
}

/* The datapath port of OpenFlow port 'ofport' in 'br', or DP_PORT_NONE. */
static uint32_t
bridge_ofp_to_dp_port(const struct bridge *br, ofp_port_t ofport)
{
    for (size_t i = 0; i < br->n_xports; i++) {
        if (br->xports[i].ofport == ofport) {
            return br->xports[i].dp_port;
        }
    }
    return DP_PORT_NONE;
}

/* Parses the arguments of ofproto/trace ("[dp_name] odp_flow" or "bridge
 * br_flow") into '*brp' and 'flow', as Open vSwitch reads them.  Returns
 * NULL or an error message (the caller frees it). */
static char *
ofproto_trace_parse(int argc, const char *argv[], struct bridge **brp,
                    struct match_flow *flow)
{
    struct flow key, mask;
    char *error;

    memset(flow, 0, sizeof *flow);

    /* The datapath syntax, with or without the datapath's name. */
    int odp_arg = -1;
    for (int i = 0; i < argc && i < 2 && odp_arg < 0; i++) {
        error = odp_flow_parse(argv[i], &key, &mask);
        if (!error) {
            odp_arg = i;
        }
        free(error);
    }
    if (odp_arg >= 0) {
        /* The datapath by its name or its type, as Open vSwitch's. */
        if (odp_arg == 1 && strcmp(argv[0], DP_NETDEV_NAME)
            && strcmp(argv[0], "netdev")) {
            return xstrdup("Cannot find the datapath");
        }
        struct bridge *br = upcall_lookup(key.in_port);
        ofp_port_t ofport = br ? bridge_dp_to_ofp_port(br, key.in_port)
                               : OFPP_NONE;
        if (ofport == OFPP_NONE) {
            return xasprintf("no OpenFlow port for datapath port %"PRIu32,
                             key.in_port);
        }
        if (!mask.dl_type) {
            key.dl_type = htons(0x05ff);        /* No Ethernet type. */
        }
        match_flow_from_dp(flow, &key, ofport);
        *brp = br;
        return NULL;
    }

    /* The OpenFlow syntax. */
    if (argc < 2) {
        return xasprintf("syntax error at %s (or the bridge name was "
                         "omitted)", argv[0]);
    }
    struct bridge *br = bridge_find(argv[0]);
    if (!br) {
        return xasprintf("%s: unknown bridge", argv[0]);
    }

    struct ofputil_port_map ifaces = OFPUTIL_PORT_MAP_INITIALIZER;
    struct ofputil_port_map ports = OFPUTIL_PORT_MAP_INITIALIZER;

    bridge_port_maps(br, &ifaces, &ports);
    error = ofp_parse_exact_flow(argv[1], &ifaces, flow);
    ofputil_port_map_destroy(&ifaces);
    ofputil_port_map_destroy(&ports);
    if (error) {
        char *msg = xasprintf("Bad openflow flow syntax: %s", error);
        free(error);
        return msg;
    }
    if ((flow->dp.vlan_tci[0] & htons(VLAN_CFI)) && !flow->dp.vlan_tpid[0]) {
        flow->dp.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
    }
    flow->dp.in_port = bridge_ofp_to_dp_port(br, flow->in_port);
    *brp = br;
    return NULL;
}

/* "ofproto/trace [-generate] {[dp_name] odp_flow | bridge br_flow}
 * [-generate]": translates the flow as an upcall would, without
 * installing anything, and says how, in Open vSwitch's layout (see
 * ofproto/trace.h).  Only with -generate does the NORMAL action learn.
 * With 'aux' nonnull, "ofproto/trace-packet-out ... ACTIONS": translates
 * the actions as a packet-out's, for the flow. */
static void
ofproto_trace_cb(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *aux DPS_UNUSED)
{
    const char **args = xmalloc(argc * sizeof *args);
    bool packet_out = aux != NULL;
    bool generate = false;
    int n_args = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-generate") || !strcmp(argv[i], "--generate")) {
            generate = true;
        } else {
            args[n_args++] = argv[i];
        }
    }

    /* trace-packet-out: the actions come last. */
    const char *actions = packet_out && n_args ? args[--n_args] : NULL;
    struct bridge *br = NULL;
    struct match_flow flow;
    char *error = (n_args ? ofproto_trace_parse(n_args, args, &br, &flow)
                   : xstrdup("syntax error"));
    free(args);

    struct ofputil_port_map ifaces = OFPUTIL_PORT_MAP_INITIALIZER;
    struct ofputil_port_map ports = OFPUTIL_PORT_MAP_INITIALIZER;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    if (!error) {
        bridge_port_maps(br, &ifaces, &ports);
        if (packet_out) {
            error = ofpacts_parse(actions, &ofpacts, &ifaces);
        }
    }
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        ofpbuf_uninit(&ofpacts);
        ofputil_port_map_destroy(&ifaces);
        ofputil_port_map_destroy(&ports);
        return;
    }

    struct xlate_bridge xb = bridge_xlate_bridge(br);
    struct trace_list nodes = TRACE_LIST_INITIALIZER;
    struct match_flow final_flow;
    struct xlate_out out;

    xb.port_names = &ports;
    xlate_out_init(&out);
    out.trace = &nodes;
    out.final_flow = &final_flow;
    out.no_learn = !generate;
    if (packet_out) {
        ofproto_xlate_actions(&xb, &flow.dp, flow.in_port, ofpacts.data,
                              ofpacts.size, time_msec(), &out);
    } else {
        ofproto_xlate_flow(&xb, &flow, time_msec(), &out);
    }
    ofpbuf_uninit(&ofpacts);

    struct trace_result r = {
        .bridge = br->name,
        .flow = &flow,
        .final_flow = &final_flow,
        .mask = &out.mask,
        .tci_mask = out.trace_tci_mask,
        .nodes = &nodes,
        .actions = &out.actions,
        .error = out.error_text,
    };
    struct ds s = DS_EMPTY_INITIALIZER;
    trace_format(&r, &s);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
    trace_list_destroy(&nodes);
    xlate_out_destroy(&out);
    ofputil_port_map_destroy(&ifaces);
    ofputil_port_map_destroy(&ports);
}

static void
register_commands(void)
{
    unixctl_command_register("fdb/show", "bridge", 1, 1, fdb_show_cb, NULL);
    unixctl_command_register("fdb/flush", "[bridge]", 0, 1, fdb_flush_cb,
                             NULL);
    unixctl_command_register("fdb/add", "bridge port vlan mac", 4, 4,
                             fdb_add_cb, NULL);
    unixctl_command_register("fdb/del", "bridge vlan mac", 3, 3,
                             fdb_del_cb, NULL);
    unixctl_command_register("fdb/stats-show", "bridge", 1, 1,
                             fdb_stats_show_cb, NULL);
    unixctl_command_register("fdb/stats-clear", "[bridge]", 0, 1,
                             fdb_stats_clear_cb, NULL);
    unixctl_command_register("dpif/show", "", 0, 0, dpif_show_cb, NULL);
    unixctl_command_register("dpif/dump-dps", "", 0, 0, dpif_dump_dps_cb,
                             NULL);
    unixctl_command_register("dpif/dump-flows",
                             "[-m] [--names | --no-names] bridge", 1, INT_MAX,
                             dpif_dump_flows_cb, NULL);
    unixctl_command_register("ofproto/list", "", 0, 0, ofproto_list_cb,
                             NULL);
    unixctl_command_register("revalidator/wait", "", 0, 0,
                             revalidator_wait_cb, NULL);
    unixctl_command_register("revalidator/purge", "", 0, 0,
                             revalidator_purge_cb, NULL);
    unixctl_command_register("upcall/show", "", 0, 0, upcall_show_cb, NULL);
    unixctl_command_register("upcall/set-flow-limit", "flow-limit-number",
                             1, 1, upcall_set_flow_limit_cb, NULL);
    unixctl_command_register("upcall/disable-ufid", "", 0, 0,
                             upcall_ufid_cb, (void *) "disable");
    unixctl_command_register("upcall/enable-ufid", "", 0, 0,
                             upcall_ufid_cb, (void *) "enable");
    unixctl_command_register("upcall/disable-megaflows", "", 0, 0,
                             upcall_megaflows_cb, (void *) "disable");
    unixctl_command_register("upcall/enable-megaflows", "", 0, 0,
                             upcall_megaflows_cb, (void *) "enable");
    unixctl_command_register("qos/show-types", "interface", 1, 1,
                             qos_show_cb, netdev_format_qos_types);
    unixctl_command_register("qos/show", "interface", 1, 1, qos_show_cb,
                             netdev_format_qos);
    unixctl_command_register("ofproto/trace",
                             "{[dp_name] odp_flow | bridge br_flow} "
                             "[OPTIONS...] [-generate|packet]", 1, INT_MAX,
                             ofproto_trace_cb, NULL);
    unixctl_command_register("bridge/dump-flows", "[--offload-stats] bridge",
                             1, 2, bridge_dump_flows_cb, NULL);
    unixctl_command_register("bridge/reconnect", "[bridge]", 0, 1,
                             bridge_reconnect_cb, NULL);
    unixctl_command_register("ofproto/trace-packet-out",
                             "[-consistent] {[dp_name] odp_flow | bridge "
                             "br_flow} [OPTIONS...] [-generate|packet] "
                             "actions", 2, INT_MAX, ofproto_trace_cb,
                             (void *) "packet-out");
    bond_register_commands();
}

/* bridge/dump-flows [--offload-stats] BRIDGE: every OpenFlow rule, the
 * hidden ones too, as Open vSwitch prints them.  As there, the bridge is
 * the last argument and a first one other than --offload-stats is
 * ignored. */
static void
bridge_dump_flows_cb(struct unixctl_conn *conn, int argc, const char *argv[],
                     void *aux DPS_UNUSED)
{
    bool offload_stats = argc > 2 && !strcmp(argv[1], "--offload-stats");
    struct bridge *br = bridge_find(argv[argc - 1]);

    if (!br) {
        unixctl_command_reply_error(conn, "Unknown bridge");
        return;
    }
    struct ds ds = DS_EMPTY_INITIALIZER;
    ofproto_format_flows(br->ofproto, offload_stats, time_msec(), &ds);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* bridge/reconnect [BRIDGE]: the bridge's (or every bridge's) controller
 * connections drop and connect again. */
static void
bridge_reconnect_cb(struct unixctl_conn *conn, int argc, const char *argv[],
                    void *aux DPS_UNUSED)
{
    long long now = time_msec();

    if (argc > 1) {
        struct bridge *br = bridge_find(argv[1]);

        if (!br) {
            unixctl_command_reply_error(conn, "Unknown bridge");
            return;
        }
        connmgr_reconnect(br->connmgr, now);
    } else {
        for (size_t i = 0; i < n_bridges; i++) {
            connmgr_reconnect(bridges[i]->connmgr, now);
        }
    }
    unixctl_command_reply(conn, "");
}

/* The netdev of the interface called 'name' in any bridge, or NULL after
 * replying "no such interface" to 'conn'. */
static struct netdev *
iface_netdev_or_reply(struct unixctl_conn *conn, const char *name)
{
    for (size_t i = 0; i < n_bridges; i++) {
        struct port *port = bridge_find_port(bridges[i], name);
        if (port && port->netdev) {
            return port->netdev;
        }
    }
    unixctl_command_reply_error(conn, "no such interface");
    return NULL;
}

/* qos/show and qos/show-types: 'aux' is the netdev function that writes
 * the reply. */
static void
qos_show_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
            const char *argv[], void *aux)
{
    void (*format)(const struct netdev *, struct ds *) = aux;
    struct netdev *netdev = iface_netdev_or_reply(conn, argv[1]);

    if (netdev) {
        struct ds ds = DS_EMPTY_INITIALIZER;

        format(netdev, &ds);
        unixctl_command_reply(conn, ds_cstr(&ds));
        ds_destroy(&ds);
    }
}

static void
memory_report_cb(struct memory_report *report, void *aux DPS_UNUSED)
{
    size_t n_ports = 0;

    for (size_t i = 0; i < n_bridges; i++) {
        n_ports += bridges[i]->n_ports;
    }
    memory_report_add(report, "bridges", n_bridges);
    memory_report_add(report, "ports", n_ports);
}

/* ------------------------------------------------------------------------
 * other_config:flow-restore-wait.
 *
 * A restart ("ovs-ctl restart") sets it to true before ovs-vswitchd starts,
 * restores the saved OpenFlow flows through the management sockets, then
 * removes it.  Until then the datapath has no upcall callback: a packet
 * that no datapath flow matches is dropped and counted (as Open vSwitch 3.1
 * counts it: lookups "lost" in dpctl/show, coverage
 * datapath_drop_lock_error), so that nothing is forwarded by a half-restored
 * flow table.  The datapath is not flushed, and OpenFlow requests are
 * served as usual.  As in Open vSwitch, the key counts only from start-up:
 * once it has been read as false (or absent), it is not looked at again.
 * ------------------------------------------------------------------------ */

/* Reads other_config:flow-restore-wait from 'ovs' while it may still hold,
 * and gives the datapath its upcall callback when it stops holding. */
static void
flow_restore_wait_update(const struct ovsrec_open_vswitch *ovs)
{
    static bool announced;

    if (!flow_restore_waiting) {
        return;
    }
    if (smap_get_bool(&ovs->other_config, "flow-restore-wait", false)) {
        if (!announced) {
            announced = true;
            VLOG_INFO("other_config:flow-restore-wait is true: packets that "
                      "need the slow path are dropped until it is not");
        }
        return;
    }
    flow_restore_waiting = false;
    if (dp) {
        dp_netdev_set_upcall_cb(dp, upcall_cb, NULL);
    }
    if (announced) {
        VLOG_INFO("flow restore complete: handling packets");
    }
}

/* ------------------------------------------------------------------------
 * Settings accepted for compatibility (compat.h).
 * ------------------------------------------------------------------------ */

/* Logs what compat_warn() reports about a setting not acted on yet. */
static void
compat_report(const char *message)
{
    VLOG_WARN("%s", message);
}

/* The bridges, sorted by name (the caller frees the array, whose size is
 * n_bridges). */
static struct bridge **
sorted_bridges(void)
{
    struct bridge **sorted = xmalloc(MAX(n_bridges, 1) * sizeof *sorted);

    if (n_bridges) {
        memcpy(sorted, bridges, n_bridges * sizeof *sorted);
        qsort(sorted, n_bridges, sizeof *sorted, compare_bridges_by_name);
    }
    return sorted;
}

/* ofproto/list: the bridges' names, one a line. */
static void
ofproto_list_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    struct bridge **sorted = sorted_bridges();
    struct ds ds = DS_EMPTY_INITIALIZER;

    for (size_t i = 0; i < n_bridges; i++) {
        ds_put_format(&ds, "%s\n", sorted[i]->name);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
    free(sorted);
}

/* dpif/dump-dps: each bridge's datapath, as TYPE@BRIDGE. */
static void
dpif_dump_dps_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                 const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    struct bridge **sorted = sorted_bridges();
    struct ds ds = DS_EMPTY_INITIALIZER;

    for (size_t i = 0; i < n_bridges; i++) {
        ds_put_format(&ds, "netdev@%s\n", sorted[i]->name);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
    free(sorted);
}

static bool
port_is_bridges(uint32_t in_port, void *br)
{
    return upcall_lookup(in_port) == br;
}

/* dpif/dump-flows [-m] [--names | --no-names] BRIDGE: the datapath flows
 * whose input port is one of BRIDGE's, as dpctl/dump-flows prints them
 * without its per-thread headers.  The main thread is the only writer of
 * the port index, so it reads it unlocked. */
static void
dpif_dump_flows_cb(struct unixctl_conn *conn, int argc, const char *argv[],
                   void *aux DPS_UNUSED)
{
    bool verbose = false;
    int names = -1;

    for (int i = 1; i < argc - 1; i++) {
        dp_netdev_parse_dump_option(argv[i], &verbose, &names);
    }

    struct bridge *br = bridge_find(argv[argc - 1]);
    if (!br) {
        unixctl_command_reply_error(conn, "no such bridge");
        return;
    }

    struct ds ds = DS_EMPTY_INITIALIZER;
    if (dp) {
        dp_netdev_dump_flows_of(dp, &ds, verbose,
                                names < 0 ? verbose : names,
                                port_is_bridges, br);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* revalidator/wait: answered by bridge_answer_reval_waiters(). */
static void
revalidator_wait_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                    const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    reval_waiters = xrealloc(reval_waiters,
                             (n_reval_waiters + 1) * sizeof *reval_waiters);
    reval_waiters[n_reval_waiters++] = conn;
    poll_immediate_wake();
}

/* revalidator/purge: every datapath flow goes, its counts first pushed to
 * the OpenFlow flows. */
static void
revalidator_purge_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                     const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    if (dp) {
        bridge_push_stats();
        dp_netdev_flush_flows(dp);
    }
    unixctl_command_reply(conn, NULL);
}

/* upcall/show, in Open vSwitch 3.1's layout.  The flow dumps are the
 * statistics pushbacks of the main thread, which is the only revalidator:
 * one "keys" line, numbered 1.  The limit is the one the datapath
 * enforces. */
static void
upcall_show_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
               const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (dp && n_bridges) {
        struct dp_netdev_stats st;

        dp_netdev_get_stats(dp, &st);
        ds_put_format(&ds, "netdev@%s:\n", DP_NETDEV_NAME);
        ds_put_format(&ds, "  flows         : (current %u) (avg %u) "
                      "(max %u) (limit %u)\n", dump_n_flows, dump_avg_flows,
                      dump_max_flows, dp_netdev_get_flow_limit(dp));
        ds_put_format(&ds, "  dump duration : %lldms\n",
                      MAX(dump_duration_msec, 1));
        ds_put_format(&ds, "  ufid enabled : %s\n",
                      ufid_enabled ? "true" : "false");
        ds_put_format(&ds, "\n  1: (keys %"PRIu64")\n", st.n_flows);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* upcall/set-flow-limit N: the datapath's flow limit until the database's
 * other_config next changes. */
static void
upcall_set_flow_limit_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                         const char *argv[], void *aux DPS_UNUSED)
{
    unsigned int limit = strtoul(argv[1], NULL, 10);
    char *msg = xasprintf("set flow_limit to %u", limit);

    if (dp) {
        dp_netdev_set_flow_limit(dp, limit);
    }
    unixctl_command_reply(conn, msg);
    free(msg);
}

/* upcall/disable-ufid and upcall/enable-ufid: the userspace datapath
 * always dumps by UFID, so only upcall/show's line follows them, as in
 * Open vSwitch with this datapath. */
static void
upcall_ufid_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
               const char *argv[] DPS_UNUSED, void *what)
{
    ufid_enabled = !strcmp(what, "enable");
    unixctl_command_reply(conn, (ufid_enabled
                                 ? "Datapath dumping tersely using UFID "
                                   "enabled for supported datapaths"
                                 : "Datapath dumping tersely using UFID "
                                   "disabled"));
}

/* upcall/disable-megaflows and upcall/enable-megaflows: from now on each
 * upcall installs an exact-match flow, or a megaflow again; the datapath's
 * flows go, as in Open vSwitch, so that the next packets make the new
 * kind. */
static void
upcall_megaflows_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                    const char *argv[] DPS_UNUSED, void *what)
{
    bool enable = !strcmp(what, "enable");

    __atomic_store_n(&megaflows_enabled, enable, __ATOMIC_RELAXED);
    if (dp) {
        bridge_push_stats();
        dp_netdev_flush_flows(dp);
    }
    unixctl_command_reply(conn, enable ? "megaflows enabled"
                                       : "megaflows disabled");
}

/* Makes 'mask' match every field of 'key' exactly: the fields a packet
 * does not have are zero in its key, so this is an exact match on the
 * packet, as Open vSwitch's flows are with megaflows disabled.  ICMP's type
 * and code are 8 bits. */
static void
mask_exact(const struct flow *key, struct flow *mask)
{
    memset(mask, 0xff, sizeof *mask);
    memset(mask->pad1, 0, sizeof mask->pad1);
    memset(mask->pad2, 0, sizeof mask->pad2);
    memset(mask->pad3, 0, sizeof mask->pad3);
    mask->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    mask->tcp_flags = htons(TCP_FLAGS_MASK);
    mask->ipv6_label = htonl(0xfffff);
    mask->pad1[0] = FLOW_MASK_META_EXACT;
    if (key->nw_proto == IPPROTO_ICMP_ || key->nw_proto == IPPROTO_ICMPV6_) {
        mask->tp_src = mask->tp_dst = htons(0xff);
    }
}
