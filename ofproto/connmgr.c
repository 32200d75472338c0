/* connmgr: a bridge's OpenFlow connections (see connmgr.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "connmgr.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundles.h"
#include "dirs.h"
#include "ofp-actions.h"
#include "ofp-async.h"
#include "ofp-bundle.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofpbuf.h"
#include "ofproto.h"
#include "poll-loop.h"
#include "reconnect.h"
#include "smap.h"
#include "timeval.h"
#include "util.h"
#include "vconn.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(connmgr);

/* What the switch says about itself (desc stats). */
#define CONNMGR_MFR_DESC "dpswitch"
#define CONNMGR_HW_DESC "dpswitch"
#define CONNMGR_SW_DESC PACKAGE_VERSION
#define CONNMGR_SERIAL_DESC "None"
#define CONNMGR_DP_DESC "None"

/* Tables reported: Open vSwitch keeps its last table (254) hidden. */
#define CONNMGR_N_TABLES 254
#define CONNMGR_MAX_ENTRIES 1000000

/* Features reply capabilities (OFPC_*): flow, table and port statistics,
 * plus ARP_MATCH_IP in OpenFlow 1.0, group statistics in 1.1+ and bundles
 * in 1.4+.  Open vSwitch also claims queue statistics, which this switch
 * does not implement. */
#define OFPC_FLOW_STATS 0x01
#define OFPC_TABLE_STATS 0x02
#define OFPC_PORT_STATS 0x04
#define OFPC11_GROUP_STATS 0x08
#define OFPC10_ARP_MATCH_IP 0x80
#define OFPC14_BUNDLES 0x200
#define CONNMGR_CAPS_COMMON (OFPC_FLOW_STATS | OFPC_TABLE_STATS \
                             | OFPC_PORT_STATS)

/* OpenFlow 1.0 actions: output, set_vlan_vid, set_vlan_pcp, strip_vlan,
 * set_dl_src/dst, set_nw_src/dst, set_nw_tos, set_tp_src/dst, enqueue
 * (which outputs, there being no queues, as Open vSwitch without queues
 * does). */
#define CONNMGR_OF10_ACTIONS 0xfff

/* Port status reasons. */
#define OFPPR_ADD 0
#define OFPPR_DELETE 1
#define OFPPR_MODIFY 2

/* Port config bits each version can express (OFPPC_*). */
#define OFPPC10_ALL (OFPPC_PORT_DOWN | OFPPC_NO_STP | OFPPC_NO_RECV      \
                     | OFPPC_NO_RECV_STP | OFPPC_NO_FLOOD | OFPPC_NO_FWD \
                     | OFPPC_NO_PACKET_IN)
#define OFPPC11_ALL (OFPPC_PORT_DOWN | OFPPC_NO_RECV | OFPPC_NO_FWD      \
                     | OFPPC_NO_PACKET_IN)

/* Nicira flow formats (packet-in formats: lib/ofp-packet.h). */
#define NXFF_OPENFLOW10 0
#define NXFF_NXM 2

/* OFPT_SET_CONFIG flag (OpenFlow 1.0-1.2). */
#define OFPC_INVALID_TTL_TO_CONTROLLER 4

/* Multipart replies are cut into messages of at most this many bytes. */
#define MAX_MSG_SIZE 65535

/* A connection stops being read while this much of its output waits. */
#define MAX_BACKLOG (4 * 1024 * 1024)

/* Messages handled from one connection per connmgr_run(). */
#define MAX_MSGS_PER_RUN 50

/* Connections accepted per connmgr_run(). */
#define MAX_ACCEPTS_PER_RUN 10

/* Retry interval for a management socket that could not be opened. */
#define LISTEN_RETRY_MSEC 1000

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

/* One OpenFlow connection. */
/* OpenFlow 1.3+ controller roles. */
enum {
    OFPCR_ROLE_NOCHANGE = 0, OFPCR_ROLE_EQUAL = 1, OFPCR_ROLE_MASTER = 2,
    OFPCR_ROLE_SLAVE = 3,
};

struct ofcontroller;

struct ofconn {
    struct connmgr *mgr;
    struct vconn *vconn;
    struct ofcontroller *ctl;   /* Active controller's connection, or
                                 * NULL. */
    int error;                  /* Why it ended (errno, EOF), or 0. */
    char *name;                 /* "br0<->unix#3", for logs. */
    bool connected;             /* Version negotiated. */

    /* Settings the peer made. */
    uint16_t miss_send_len;
    uint32_t flow_format;       /* NXFF_*. */
    uint32_t packet_in_format;  /* NXPIF_*. */
    bool flow_mod_table_id;
    uint16_t controller_id;
    uint32_t role;              /* OFPCR_ROLE_* (OpenFlow 1.3 role). */

    /* The asynchronous messages it takes (lib/ofp-async.h): until the peer
     * sets them, its version's defaults. */
    struct ofputil_async_cfg async;
    bool async_set;
    struct bundles bundles;     /* Open bundles (OpenFlow 1.3+). */
};

/* A Controller table row (see connmgr_set_controllers()). */
struct ofcontroller {
    struct connmgr *mgr;
    char *target;
    bool passive;
    int max_backoff;            /* Milliseconds. */
    int probe_interval;         /* Milliseconds, 0 for none. */

    /* Active. */
    struct reconnect *rc;
    struct ofconn *ofconn;      /* Connecting or connected, or NULL. */
    int last_error;             /* Sticky, as Open vSwitch's. */
    long long last_admitted;    /* Creation, or the last admitted
                                 * message. */
    bool admitted;              /* Since the current connection began. */

    /* Passive. */
    struct pvconn *pvconn;      /* NULL until it could be opened. */
    long long next_listen;
};

struct connmgr {
    struct ofproto *ofproto;
    char *name;                 /* The bridge's. */
    const struct connmgr_hooks *hooks;
    void *aux;

    uint32_t versions;          /* Bitmap, never 0. */
    char *mgmt_name;            /* "punix:<rundir>/<bridge>.mgmt". */
    struct pvconn *mgmt;        /* NULL until it could be opened. */
    long long next_listen;      /* When to try opening it again. */
    unsigned int n_accepted;    /* For connection names. */

    struct ofconn **conns;
    size_t n_conns;

    /* The master generation id of OpenFlow 1.3 role requests, once a
     * master or slave request has set one. */
    uint64_t generation_id;
    bool generation_set;
    bool more_work;             /* Something was left for the next run. */

    struct ofcontroller **ctls;
    size_t n_ctls;
    bool fail_secure;           /* Bridge fail_mode is "secure". */
    unsigned int status_seqno;  /* See connmgr_status_seqno(). */

    char *dp_desc;              /* NULL: CONNMGR_DP_DESC. */
    enum connmgr_frag_handling frag;

    /* The ports as last reported, to find changes. */
    struct connmgr_port *ports;
    size_t n_ports;
    bool ports_changed;
};

static void mgmt_open(struct connmgr *);
static void mgmt_close(struct connmgr *);
static struct ofconn *ofconn_create(struct connmgr *, struct vconn *);
static void ofconn_destroy(struct ofconn *);
static bool ofconn_run(struct ofconn *);
static void ofconn_send(struct ofconn *, struct ofpbuf *);
static void ofconn_send_error(struct ofconn *, enum ofperr,
                              const struct ofp_header *request);
static void handle_msg(struct ofconn *, struct ofpbuf *);
static enum ofperr handle_decoded(struct ofconn *, enum ofptype,
                                  const struct ofp_header *);
static void update_ports(struct connmgr *, const struct ofconn *source);
static void ofcontroller_destroy(struct ofcontroller *);
static void ofcontroller_heard(struct ofcontroller *,
                               const struct ofp_header *);
static void ofcontroller_run(struct ofcontroller *, long long now);
static void ofcontroller_wait(struct ofcontroller *, long long now);
static bool has_controllers(const struct connmgr *);
static void flushed(struct connmgr *, long long now);
static void fail_open_run(struct connmgr *, long long now);
static void send_packet_ins(struct connmgr *);
static void update_miss_to_controller(struct connmgr *);
static struct ofputil_async_cfg ofconn_async(const struct ofconn *);
static bool ofconn_wants_async(const struct ofconn *,
                               enum ofputil_async_msg_type, unsigned int);
static ofproto_flow_removed_cb send_flow_removed;
static ofproto_outputs_to_cb rule_outputs_to;

/* ------------------------------------------------------------------------
 * Public functions.
 * ------------------------------------------------------------------------ */

/* Creates the connection manager of bridge 'bridge_name', whose tables are
 * 'ofproto' and which answers through 'hooks' (called with 'aux').  It
 * starts listening on the management socket with the default versions at
 * the first connmgr_run(). */
struct connmgr *
connmgr_create(struct ofproto *ofproto, const char *bridge_name,
               const struct connmgr_hooks *hooks, void *aux)
{
    struct connmgr *mgr = xzalloc(sizeof *mgr);

    mgr->ofproto = ofproto;
    mgr->name = xstrdup(bridge_name);
    mgr->hooks = hooks;
    mgr->aux = aux;
    mgr->versions = OFPUTIL_DEFAULT_VERSIONS;
    mgr->mgmt_name = xasprintf("punix:%s/%s.mgmt", dirs_rundir(),
                               bridge_name);
    mgr->frag = CONNMGR_FRAG_NORMAL;
    mgr->ports_changed = true;
    mgr->fail_secure = true;    /* Until the bridge says, as in OVS. */
    ofproto_set_flow_removed_cb(ofproto, send_flow_removed, mgr);
    ofproto_set_outputs_to_cb(ofproto, rule_outputs_to);
    return mgr;
}

/* Closes every connection and the management socket (removing its file)
 * and frees 'mgr'. */
void
connmgr_destroy(struct connmgr *mgr)
{
    if (!mgr) {
        return;
    }
    mgmt_close(mgr);
    for (size_t i = 0; i < mgr->n_ctls; i++) {
        ofcontroller_destroy(mgr->ctls[i]);
    }
    free(mgr->ctls);
    ofproto_set_flow_removed_cb(mgr->ofproto, NULL, NULL);
    free(mgr->conns);
    free(mgr->ports);
    free(mgr->dp_desc);
    free(mgr->mgmt_name);
    free(mgr->name);
    free(mgr);
}

/* Sets the OpenFlow versions the management socket offers (see the
 * header). */
void
connmgr_set_versions(struct connmgr *mgr, uint32_t versions)
{
    uint32_t usable = versions & OFPUTIL_SUPPORTED_VERSIONS;

    if (versions && !usable) {
        VLOG_WARN_RL(&rl, "bridge %s: none of the OpenFlow versions in "
                     "Bridge:protocols is supported (only OpenFlow10, 13, "
                     "14 and 15 are), using the default", mgr->name);
    }
    if (!usable) {
        usable = OFPUTIL_DEFAULT_VERSIONS;
    }
    if (usable != mgr->versions) {
        mgr->versions = usable;
        mgmt_close(mgr);
        mgr->next_listen = 0;
    }
}

/* Returns the OpenFlow versions offered (a bitmap). */
uint32_t
connmgr_get_versions(const struct connmgr *mgr)
{
    return mgr->versions;
}

/* Sets the description that desc stats replies carry as "DP Description"
 * (Bridge other_config:dp-desc), NULL for "None". */
void
connmgr_set_dp_desc(struct connmgr *mgr, const char *dp_desc)
{
    free(mgr->dp_desc);
    mgr->dp_desc = dp_desc ? xstrdup(dp_desc) : NULL;
}

/* Returns the fragment handling that controllers set (OFPT_SET_CONFIG). */
enum connmgr_frag_handling
connmgr_get_frag_handling(const struct connmgr *mgr)
{
    return mgr->frag;
}

/* Makes 'ctls' the bridge's controllers (see the header).  Targets that
 * stay keep their connections; their settings change in place. */
void
connmgr_set_controllers(struct connmgr *mgr,
                        const struct connmgr_controller *ctls, size_t n)
{
    bool had_controllers = has_controllers(mgr);
    long long now = time_msec();
    struct ofcontroller **new = xcalloc(MAX(n, 1), sizeof *new);
    size_t n_new = 0;

    for (size_t i = 0; i < n; i++) {
        const struct connmgr_controller *c = &ctls[i];
        struct ofcontroller *ctl = NULL;

        for (size_t j = 0; j < n_new; j++) {
            if (!strcmp(new[j]->target, c->target)) {
                goto next;      /* A target given twice counts once. */
            }
        }
        for (size_t j = 0; j < mgr->n_ctls; j++) {
            if (mgr->ctls[j] && !strcmp(mgr->ctls[j]->target, c->target)) {
                ctl = mgr->ctls[j];
                mgr->ctls[j] = NULL;
                break;
            }
        }
        if (!ctl) {
            ctl = xzalloc(sizeof *ctl);
            ctl->mgr = mgr;
            ctl->target = xstrdup(c->target);
            ctl->passive = pvconn_verify_name(c->target) == 0;
            ctl->last_admitted = now;
            if (!ctl->passive) {
                char *name = xasprintf("%s<->%s", mgr->name, c->target);
                ctl->rc = reconnect_create(now);
                reconnect_set_name(ctl->rc, name);
                free(name);
                reconnect_enable(ctl->rc, now);
            }
            VLOG_INFO("%s: added %s controller \"%s\"", mgr->name,
                      ctl->passive ? "service" : "primary", ctl->target);
        }
        /* Open vSwitch probes no more often than every 5 s. */
        ctl->probe_interval = (c->probe_interval > 0
                               ? MAX(c->probe_interval, 5000) : 0);
        ctl->max_backoff = MAX(c->max_backoff, 1000);
        if (ctl->rc) {
            reconnect_set_backoff(ctl->rc, 1000, ctl->max_backoff);
            reconnect_set_probe_interval(ctl->rc, ctl->probe_interval);
        }
        new[n_new++] = ctl;
    next:;
    }
    for (size_t j = 0; j < mgr->n_ctls; j++) {
        if (mgr->ctls[j]) {
            VLOG_INFO("%s: removed %s controller \"%s\"", mgr->name,
                      mgr->ctls[j]->passive ? "service" : "primary",
                      mgr->ctls[j]->target);
            ofcontroller_destroy(mgr->ctls[j]);
        }
    }
    free(mgr->ctls);
    mgr->ctls = new;
    mgr->n_ctls = n_new;
    mgr->status_seqno++;

    if (had_controllers != has_controllers(mgr)) {
        ofproto_set_fail_open(mgr->ofproto, false, now);
        ofproto_flush(mgr->ofproto, now);
        flushed(mgr, now);
    }
}

/* Sets the bridge's fail mode (see the header). */
void
connmgr_set_fail_mode(struct connmgr *mgr, bool secure)
{
    if (mgr->fail_secure != secure) {
        long long now = time_msec();

        mgr->fail_secure = secure;
        if (secure) {
            ofproto_set_fail_open(mgr->ofproto, false, now);
        }
        if (!has_controllers(mgr)) {
            ofproto_flush(mgr->ofproto, now);
            flushed(mgr, now);
        }
    }
}

/* Reports the status of controller 'target' (see the header).  '*status'
 * must be initialized; the pairs are added to it. */
bool
connmgr_get_controller_status(const struct connmgr *mgr, const char *target,
                              bool *is_connected, const char **role,
                              struct smap *status)
{
    for (size_t i = 0; i < mgr->n_ctls; i++) {
        const struct ofcontroller *ctl = mgr->ctls[i];

        if (strcmp(ctl->target, target) || !ctl->rc) {
            continue;
        }

        long long now = time_msec();
        struct reconnect_stats st;
        reconnect_get_stats(ctl->rc, now, &st);
        *is_connected = st.is_connected;
        *role = NULL;
        if (st.is_connected && ctl->ofconn) {
            uint32_t r = ctl->ofconn->role;
            *role = (r == OFPCR_ROLE_MASTER ? "master"
                     : r == OFPCR_ROLE_SLAVE ? "slave" : "other");
        }
        if (ctl->last_error) {
            smap_add(status, "last_error", util_strerror(ctl->last_error));
        }
        smap_add(status, "state", (!strcmp(st.state, "RECONNECT")
                                   ? "ACTIVE" : st.state));
        if (st.last_connected != LLONG_MAX) {
            smap_add_format(status, "sec_since_connect", "%lld",
                            (now - st.last_connected) / 1000);
        }
        if (st.last_disconnected != LLONG_MAX) {
            smap_add_format(status, "sec_since_disconnect", "%lld",
                            (now - st.last_disconnected) / 1000);
        }
        return true;
    }
    return false;
}

/* Changes whenever a controller's status may have (see the header). */
unsigned int
connmgr_status_seqno(const struct connmgr *mgr)
{
    return mgr->status_seqno;
}

/* Notes that the bridge's ports may have changed (see the header). */
void
connmgr_ports_changed(struct connmgr *mgr)
{
    mgr->ports_changed = true;
}

/* Does the work that is ready (see the header). */
void
connmgr_run(struct connmgr *mgr)
{
    mgr->more_work = false;
    if (!mgr->mgmt && time_msec() >= mgr->next_listen) {
        mgmt_open(mgr);
    }
    if (mgr->mgmt) {
        for (int i = 0; i < MAX_ACCEPTS_PER_RUN; i++) {
            struct vconn *vconn;
            int error = pvconn_accept(mgr->mgmt, &vconn);

            if (error) {
                if (error != EAGAIN) {
                    VLOG_WARN_RL(&rl, "%s: accept failed (%s)",
                                 mgr->mgmt_name, util_strerror(error));
                }
                break;
            }
            ofconn_create(mgr, vconn);
            if (i == MAX_ACCEPTS_PER_RUN - 1) {
                mgr->more_work = true;
            }
        }
    }

    if (mgr->ports_changed) {
        update_ports(mgr, NULL);
    }

    long long now = time_msec();
    for (size_t i = 0; i < mgr->n_ctls; i++) {
        ofcontroller_run(mgr->ctls[i], now);
    }

    for (size_t i = 0; i < mgr->n_conns;) {
        struct ofconn *ofconn = mgr->conns[i];
        if (ofconn_run(ofconn)) {
            i++;
        } else {
            ofconn_destroy(ofconn);
        }
    }
    update_miss_to_controller(mgr);
    send_packet_ins(mgr);
    fail_open_run(mgr, now);
}

/* Makes poll_block() wake when connmgr_run() has work. */
void
connmgr_wait(struct connmgr *mgr)
{
    if (mgr->more_work) {
        poll_immediate_wake();
    }
    ofproto_packet_in_wait(mgr->ofproto);
    if (mgr->mgmt) {
        pvconn_wait(mgr->mgmt);
    } else {
        poll_timer_wait_until(mgr->next_listen);
    }
    long long now = time_msec();
    for (size_t i = 0; i < mgr->n_ctls; i++) {
        ofcontroller_wait(mgr->ctls[i], now);
    }
    if (!mgr->fail_secure && has_controllers(mgr)) {
        poll_timer_wait_until(now + 1000);      /* fail_open_run(). */
    }
    for (size_t i = 0; i < mgr->n_conns; i++) {
        struct vconn *vconn = mgr->conns[i]->vconn;

        vconn_run_wait(vconn);
        if (vconn_get_backlog(vconn) < MAX_BACKLOG) {
            vconn_recv_wait(vconn);
        }
    }
}

/* Returns the management socket's name ("punix:..."). */
const char *
connmgr_get_mgmt_name(const struct connmgr *mgr)
{
    return mgr->mgmt_name;
}

/* Returns the number of open connections. */
size_t
connmgr_n_connections(const struct connmgr *mgr)
{
    return mgr->n_conns;
}

/* Forces every active controller to reconnect (see connmgr.h). */
void
connmgr_reconnect(struct connmgr *mgr, long long now)
{
    for (size_t i = 0; i < mgr->n_ctls; i++) {
        struct ofcontroller *ctl = mgr->ctls[i];

        if (!ctl->passive) {
            reconnect_force_reconnect(ctl->rc, now);
        }
    }
}

/* ------------------------------------------------------------------------
 * The management socket and connections.
 * ------------------------------------------------------------------------ */

static void
mgmt_open(struct connmgr *mgr)
{
    int error = pvconn_open(mgr->mgmt_name, mgr->versions, &mgr->mgmt);

    if (error) {
        VLOG_WARN_RL(&rl, "bridge %s: cannot listen on %s (%s)", mgr->name,
                     mgr->mgmt_name, util_strerror(error));
        mgr->mgmt = NULL;
        mgr->next_listen = time_msec() + LISTEN_RETRY_MSEC;
    }
}

/* Closes the management socket and every connection. */
static void
mgmt_close(struct connmgr *mgr)
{
    while (mgr->n_conns) {
        ofconn_destroy(mgr->conns[mgr->n_conns - 1]);
    }
    pvconn_close(mgr->mgmt);
    mgr->mgmt = NULL;
}

static struct ofconn *
ofconn_create(struct connmgr *mgr, struct vconn *vconn)
{
    struct ofconn *ofconn = xzalloc(sizeof *ofconn);

    ofconn->mgr = mgr;
    ofconn->vconn = vconn;
    ofconn->name = xasprintf("%s<->%s#%u", mgr->name,
                             strncmp(vconn_get_name(vconn), "unix", 4)
                             ? "tcp" : "unix", mgr->n_accepted++);
    ofconn->miss_send_len = 0;  /* Service connections: 0, as OVS. */
    ofconn->role = OFPCR_ROLE_EQUAL;
    ofconn->flow_format = NXFF_OPENFLOW10;
    ofconn->packet_in_format = NXPIF_STANDARD;
    bundles_init(&ofconn->bundles);
    mgr->conns = xrealloc(mgr->conns,
                          (mgr->n_conns + 1) * sizeof *mgr->conns);
    mgr->conns[mgr->n_conns++] = ofconn;
    VLOG_DBG("%s: accepted", ofconn->name);
    return ofconn;
}

static void
ofconn_destroy(struct ofconn *ofconn)
{
    struct connmgr *mgr = ofconn->mgr;

    for (size_t i = 0; i < mgr->n_conns; i++) {
        if (mgr->conns[i] == ofconn) {
            memmove(&mgr->conns[i], &mgr->conns[i + 1],
                    (mgr->n_conns - i - 1) * sizeof *mgr->conns);
            mgr->n_conns--;
            break;
        }
    }
    VLOG_DBG("%s: closed", ofconn->name);
    if (ofconn->ctl) {
        struct ofcontroller *ctl = ofconn->ctl;
        long long now = time_msec();

        if (ofconn->connected) {
            reconnect_disconnected(ctl->rc, now, ofconn->error);
        } else {
            reconnect_connect_failed(ctl->rc, now, ofconn->error);
        }
        if (ofconn->error) {
            ctl->last_error = ofconn->error;
        }
        ctl->ofconn = NULL;
        mgr->status_seqno++;
    }
    bundles_destroy(&ofconn->bundles);
    vconn_close(ofconn->vconn);
    free(ofconn->name);
    free(ofconn);
}

/* Moves 'ofconn' along: output, negotiation, requests.  Returns false
 * once the connection has ended. */
static bool
ofconn_run(struct ofconn *ofconn)
{
    struct vconn *vconn = ofconn->vconn;

    vconn_run(vconn);
    int error = vconn_connect(vconn);
    if (error == EAGAIN) {
        return true;
    } else if (error) {
        VLOG_DBG("%s: connection ended (%s)", ofconn->name,
                 error == EOF ? "closed by peer" : util_strerror(error));
        ofconn->error = error;
        return false;
    }
    if (!ofconn->connected) {
        ofconn->connected = true;
        VLOG_DBG("%s: OpenFlow version 0x%02x", ofconn->name,
                 vconn_get_version(vconn));
        if (ofconn->ctl) {
            reconnect_connected(ofconn->ctl->rc, time_msec());
            ofconn->mgr->status_seqno++;
        }
    }

    for (int i = 0; i < MAX_MSGS_PER_RUN; i++) {
        if (vconn_get_backlog(vconn) >= MAX_BACKLOG) {
            /* Let the peer read its replies first. */
            return true;
        }

        struct ofpbuf *msg;
        error = vconn_recv(vconn, &msg);
        if (error == EAGAIN) {
            return true;
        } else if (error) {
            VLOG_DBG("%s: connection ended (%s)", ofconn->name,
                     error == EOF ? "closed by peer" : util_strerror(error));
            ofconn->error = error;
            return false;
        }
        if (ofconn->ctl) {
            ofcontroller_heard(ofconn->ctl, msg->data);
        }
        handle_msg(ofconn, msg);
        ofpbuf_delete(msg);
    }
    ofconn->mgr->more_work = true;
    return true;
}

/* Queues 'msg' (which it takes over) on 'ofconn'. */
static void
ofconn_send(struct ofconn *ofconn, struct ofpbuf *msg)
{
    int error = vconn_send(ofconn->vconn, msg);

    if (error == EAGAIN) {
        ofpbuf_delete(msg);     /* Not negotiated yet: nothing to say. */
    }
}

static void
ofconn_send_error(struct ofconn *ofconn, enum ofperr error,
                  const struct ofp_header *request)
{
    enum ofpraw raw;
    const char *what = (ofpraw_decode_partial(&raw, request,
                                              ntohs(request->length))
                        ? "invalid" : ofpraw_get_name(raw));

    VLOG_INFO_RL(&rl, "%s: sending %s error reply to %s message",
                 ofconn->name, ofperr_get_name(error), what);

    if (request->version >= OFP10_VERSION
        && request->version <= OFP15_VERSION) {
        ofconn_send(ofconn, ofperr_encode_reply(error, request));
        return;
    }

    /* A version no error can be written in: answer in the connection's
     * version, keeping the request's bytes as they came. */
    size_t len = MIN(ntohs(request->length), 64);
    uint8_t *copy = xmemdup(request, len);
    copy[0] = vconn_get_version(ofconn->vconn);
    ofp_put_be16(copy + 2, len);
    struct ofpbuf *reply = ofperr_encode_reply(error, copy);
    ((uint8_t *) reply->data)[12] = request->version;
    ofconn_send(ofconn, reply);
    free(copy);
}

/* ------------------------------------------------------------------------
 * Requests.
 * ------------------------------------------------------------------------ */

/* Handles message 'msg' from 'ofconn' (the caller frees it). */
static void
handle_msg(struct ofconn *ofconn, struct ofpbuf *msg)
{
    const struct ofp_header *oh = msg->data;
    int version = vconn_get_version(ofconn->vconn);

    /* Echo requests are answered in any version; echo replies need
     * nothing.  A hello or an error after the negotiation is a message
     * the switch does not take, whatever its version. */
    if (oh->type == 2) {
        struct ofpbuf *reply = ofpbuf_clone_data(msg->data, msg->size);
        ((struct ofp_header *) reply->data)->type = 3;
        ofconn_send(ofconn, reply);
        return;
    } else if (oh->type == 3) {
        return;
    } else if (oh->type == 0 || oh->type == 1) {
        ofconn_send_error(ofconn, OFPERR_OFPBRC_BAD_TYPE, oh);
        return;
    } else if (oh->version != version) {
        VLOG_INFO_RL(&rl, "%s: received OpenFlow version 0x%02x != "
                     "expected %02x", ofconn->name, oh->version, version);
        ofconn_send_error(ofconn, OFPERR_OFPBRC_BAD_VERSION, oh);
        return;
    }

    enum ofptype type;
    enum ofperr error = ofptype_decode(&type, oh);
    if (!error) {
        error = handle_decoded(ofconn, type, oh);
    }
    if (error) {
        ofconn_send_error(ofconn, error, oh);
    }
}

static enum ofperr handle_features_request(struct ofconn *,
                                           const struct ofp_header *);
static enum ofperr handle_get_config_request(struct ofconn *,
                                             const struct ofp_header *);
static enum ofperr handle_set_config(struct ofconn *,
                                     const struct ofp_header *);
static enum ofperr handle_set_async(struct ofconn *,
                                    const struct ofp_header *);
static enum ofperr handle_get_async_request(struct ofconn *,
                                            const struct ofp_header *);
static enum ofperr handle_port_mod(struct ofconn *,
                                   const struct ofp_header *);
static enum ofperr handle_barrier_request(struct ofconn *,
                                          const struct ofp_header *);
static enum ofperr handle_desc_stats_request(struct ofconn *,
                                             const struct ofp_header *);
static enum ofperr handle_table_stats_request(struct ofconn *,
                                              const struct ofp_header *);
static enum ofperr handle_port_stats_request(struct ofconn *,
                                             const struct ofp_header *);
static enum ofperr handle_port_desc_stats_request(struct ofconn *,
                                                  const struct ofp_header *);
static enum ofperr handle_group_stats_request(struct ofconn *,
                                              const struct ofp_header *);
static enum ofperr handle_group_desc_request(struct ofconn *,
                                             const struct ofp_header *);
static enum ofperr handle_group_features_request(struct ofconn *,
                                                 const struct ofp_header *);
static enum ofperr handle_group_mod(struct ofconn *,
                                    const struct ofp_header *);
static enum ofperr handle_table_features_request(struct ofconn *,
                                                 const struct ofp_header *);
static enum ofperr handle_role_request(struct ofconn *,
                                       const struct ofp_header *);
static enum ofperr handle_nicira_setting(struct ofconn *, enum ofptype,
                                         const struct ofp_header *);

static enum ofperr handle_flow_mod(struct ofconn *, const struct ofp_header *);
static enum ofperr handle_packet_out(struct ofconn *,
                                     const struct ofp_header *);
static enum ofperr handle_flow_stats_request(struct ofconn *,
                                             const struct ofp_header *);
static enum ofperr handle_bundle_control(struct ofconn *,
                                         const struct ofp_header *);
static enum ofperr handle_bundle_add(struct ofconn *,
                                     const struct ofp_header *);

/* Handles 'oh', a whole message of 'type' whose length its decoder has
 * checked.  Returns 0 or the error to send back. */
static enum ofperr
handle_decoded(struct ofconn *ofconn, enum ofptype type,
               const struct ofp_header *oh)
{
    switch (type) {
    case OFPTYPE_FEATURES_REQUEST:
        return handle_features_request(ofconn, oh);
    case OFPTYPE_GET_CONFIG_REQUEST:
        return handle_get_config_request(ofconn, oh);
    case OFPTYPE_SET_CONFIG:
        return handle_set_config(ofconn, oh);
    case OFPTYPE_PORT_MOD:
        return handle_port_mod(ofconn, oh);
    case OFPTYPE_BARRIER_REQUEST:
        return handle_barrier_request(ofconn, oh);
    case OFPTYPE_DESC_STATS_REQUEST:
        return handle_desc_stats_request(ofconn, oh);
    case OFPTYPE_TABLE_STATS_REQUEST:
        return handle_table_stats_request(ofconn, oh);
    case OFPTYPE_PORT_STATS_REQUEST:
        return handle_port_stats_request(ofconn, oh);
    case OFPTYPE_PORT_DESC_STATS_REQUEST:
        return handle_port_desc_stats_request(ofconn, oh);
    case OFPTYPE_GROUP_STATS_REQUEST:
        return handle_group_stats_request(ofconn, oh);
    case OFPTYPE_GROUP_DESC_STATS_REQUEST:
        return handle_group_desc_request(ofconn, oh);
    case OFPTYPE_GROUP_FEATURES_STATS_REQUEST:
        return handle_group_features_request(ofconn, oh);
    case OFPTYPE_GROUP_MOD:
        return handle_group_mod(ofconn, oh);
    case OFPTYPE_TABLE_FEATURES_STATS_REQUEST:
        return handle_table_features_request(ofconn, oh);
    case OFPTYPE_ROLE_REQUEST:
        return handle_role_request(ofconn, oh);
    case OFPTYPE_SET_FLOW_FORMAT:
    case OFPTYPE_SET_PACKET_IN_FORMAT:
    case OFPTYPE_FLOW_MOD_TABLE_ID:
    case OFPTYPE_SET_CONTROLLER_ID:
        return handle_nicira_setting(ofconn, type, oh);
    case OFPTYPE_SET_ASYNC_CONFIG:
        return handle_set_async(ofconn, oh);
    case OFPTYPE_GET_ASYNC_REQUEST:
        return handle_get_async_request(ofconn, oh);
    case OFPTYPE_FLOW_MOD:
        return handle_flow_mod(ofconn, oh);
    case OFPTYPE_FLOW_STATS_REQUEST:
    case OFPTYPE_AGGREGATE_STATS_REQUEST:
        return handle_flow_stats_request(ofconn, oh);
    case OFPTYPE_PACKET_OUT:
        return handle_packet_out(ofconn, oh);
    case OFPTYPE_BUNDLE_CONTROL:
        return handle_bundle_control(ofconn, oh);
    case OFPTYPE_BUNDLE_ADD_MESSAGE:
        return handle_bundle_add(ofconn, oh);

    /* Not implemented yet, and messages that only a switch sends. */
    case OFPTYPE_TABLE_MOD:
    case OFPTYPE_GET_ASYNC_REPLY:
    case OFPTYPE_HELLO:
    case OFPTYPE_ERROR:
    case OFPTYPE_ECHO_REQUEST:
    case OFPTYPE_ECHO_REPLY:
    case OFPTYPE_FEATURES_REPLY:
    case OFPTYPE_GET_CONFIG_REPLY:
    case OFPTYPE_PACKET_IN:
    case OFPTYPE_FLOW_REMOVED:
    case OFPTYPE_PORT_STATUS:
    case OFPTYPE_BARRIER_REPLY:
    case OFPTYPE_ROLE_REPLY:
    case OFPTYPE_DESC_STATS_REPLY:
    case OFPTYPE_FLOW_STATS_REPLY:
    case OFPTYPE_AGGREGATE_STATS_REPLY:
    case OFPTYPE_TABLE_STATS_REPLY:
    case OFPTYPE_PORT_STATS_REPLY:
    case OFPTYPE_GROUP_STATS_REPLY:
    case OFPTYPE_GROUP_DESC_STATS_REPLY:
    case OFPTYPE_GROUP_FEATURES_STATS_REPLY:
    case OFPTYPE_PORT_DESC_STATS_REPLY:
    case OFPTYPE_TABLE_FEATURES_STATS_REPLY:
    case OFPTYPE_FLOW_AGE:
    default:
        return OFPERR_OFPBRC_BAD_TYPE;
    }
}

/* Returns the body of 'oh', a message its decoder accepted. */
static const uint8_t *
msg_body(const struct ofp_header *oh)
{
    enum ofpraw raw;

    ofpraw_decode(&raw, oh);
    return (const uint8_t *) oh + ofpraw_get_hdr_size(raw);
}

static void
put_be64(void *p, uint64_t x)
{
    ofp_put_be32(p, x >> 32);
    ofp_put_be32((uint8_t *) p + 4, x);
}

/* Returns 'pp' as OpenFlow 'version' shows it (see connmgr_port). */
static struct ofputil_phy_port
port_for_version(const struct ofputil_phy_port *pp, enum ofp_version version)
{
    struct ofputil_phy_port p = *pp;

    if (version == OFP10_VERSION) {
        p.config &= OFPPC10_ALL;
        p.state &= OFPPS_LINK_DOWN | OFPPS10_STP_MASK;
    } else {
        p.config &= OFPPC11_ALL;
        p.state &= OFPPS_LINK_DOWN | OFPPS_BLOCKED | OFPPS_LIVE;
    }
    return p;
}

static void
put_port(struct ofpbuf *b, enum ofp_version version,
         const struct ofputil_phy_port *pp)
{
    struct ofputil_phy_port p = port_for_version(pp, version);

    ofputil_put_phy_port(version, &p, b);
}

static size_t
port_size(enum ofp_version version)
{
    return (version == OFP10_VERSION ? 48
            : version < OFP14_VERSION ? 64 : 72);
}

/* Brings the ports up to date (update_ports()) and returns a copy of them
 * in '*portsp', the caller to free it. */
static size_t
get_ports(struct connmgr *mgr, struct connmgr_port **portsp)
{
    update_ports(mgr, NULL);
    *portsp = (mgr->n_ports
               ? xmemdup(mgr->ports, mgr->n_ports * sizeof **portsp)
               : NULL);
    return mgr->n_ports;
}

static enum ofperr
handle_features_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct connmgr *mgr = ofconn->mgr;
    uint64_t dpid = mgr->hooks->get_datapath_id(mgr->aux);
    struct ofpbuf *b;
    uint8_t *p;

    if (oh->version == OFP10_VERSION) {
        b = ofpraw_alloc_reply(OFPRAW_OFPT10_FEATURES_REPLY, oh, 0);
        p = ofpbuf_put_zeros(b, 24);
        ofp_put_be32(p + 16, CONNMGR_CAPS_COMMON | OFPC10_ARP_MATCH_IP);
        ofp_put_be32(p + 20, CONNMGR_OF10_ACTIONS);
    } else {
        b = ofpraw_alloc_reply(OFPRAW_OFPT13_FEATURES_REPLY, oh, 0);
        p = ofpbuf_put_zeros(b, 24);
        ofp_put_be32(p + 16, (CONNMGR_CAPS_COMMON | OFPC11_GROUP_STATS
                              | (oh->version >= OFP14_VERSION
                                 ? OFPC14_BUNDLES : 0)));
    }
    put_be64(p, dpid);
    ofp_put_be32(p + 8, 0);             /* n_buffers. */
    p[12] = CONNMGR_N_TABLES;

    if (oh->version == OFP10_VERSION) {
        struct connmgr_port *ports;
        size_t n = get_ports(mgr, &ports);

        for (size_t i = 0; i < n; i++) {
            if (b->size + port_size(oh->version) > MAX_MSG_SIZE) {
                break;
            }
            put_port(b, oh->version, &ports[i].pp);
        }
        free(ports);
    }
    ofpmsg_update_length(b);
    ofconn_send(ofconn, b);
    return 0;
}

static enum ofperr
handle_get_config_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofpbuf *b = ofpraw_alloc_reply(OFPRAW_OFPT_GET_CONFIG_REPLY, oh,
                                          0);
    uint8_t *p = ofpbuf_put_zeros(b, 4);
    uint16_t flags = ofconn->mgr->frag;

    if (oh->version < OFP13_VERSION
        && (ofconn_async(ofconn).master[OAM_PACKET_IN]
            & (1u << OFPR_INVALID_TTL))) {
        flags |= OFPC_INVALID_TTL_TO_CONTROLLER;
    }
    ofp_put_be16(p, flags);
    ofp_put_be16(p + 2, ofconn->miss_send_len);
    ofpmsg_update_length(b);
    ofconn_send(ofconn, b);
    return 0;
}

static enum ofperr
handle_set_config(struct ofconn *ofconn, const struct ofp_header *oh)
{
    const uint8_t *p = (const uint8_t *) (oh + 1);
    enum connmgr_frag_handling frag = ofp_get_be16(p) & 3;

    /* Reassembly is not done: the mode stays, without an error, as in
     * Open vSwitch (ovs-ofctl set-frags reads the mode back to tell). */
    if (frag != CONNMGR_FRAG_REASSEMBLE && frag != ofconn->mgr->frag) {
        VLOG_INFO("bridge %s: fragment handling set to %s",
                  ofconn->mgr->name,
                  frag == CONNMGR_FRAG_NORMAL ? "normal"
                  : frag == CONNMGR_FRAG_DROP ? "drop" : "nx-match");
        ofconn->mgr->frag = frag;
        ofproto_set_frag_handling(ofconn->mgr->ofproto,
                                  (enum ofproto_frag_handling) frag);
    }
    ofconn->miss_send_len = ofp_get_be16(p + 2);

    /* OFPC_INVALID_TTL_TO_CONTROLLER, before OpenFlow 1.3: whether
     * invalid_ttl packet-ins come (to the master or equal roles). */
    if (oh->version < OFP13_VERSION) {
        struct ofputil_async_cfg cfg = ofconn_async(ofconn);
        uint32_t bit = 1u << OFPR_INVALID_TTL;
        if (ofp_get_be16(p) & OFPC_INVALID_TTL_TO_CONTROLLER) {
            cfg.master[OAM_PACKET_IN] |= bit;
        } else {
            cfg.master[OAM_PACKET_IN] &= ~bit;
        }
        ofconn->async = cfg;
        ofconn->async_set = true;
    }
    return 0;
}

static enum ofperr port_mod_start(struct ofconn *,
                                  const struct ofputil_port_mod *);
static void port_mod_finish(struct ofconn *, const struct ofp_header *,
                            const struct ofputil_port_mod *);

static enum ofperr
handle_port_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_port_mod pm;
    enum ofperr error = ofputil_decode_port_mod(oh, &pm);

    if (!error) {
        error = port_mod_start(ofconn, &pm);
    }
    if (!error) {
        port_mod_finish(ofconn, oh, &pm);
    }
    return error;
}

/* Checks that the port 'pm' names exists with the address it says. */
static enum ofperr
port_mod_start(struct ofconn *ofconn, const struct ofputil_port_mod *pm)
{
    struct connmgr_port *ports;
    size_t n = get_ports(ofconn->mgr, &ports);
    enum ofperr error = OFPERR_OFPPMFC_BAD_PORT;

    for (size_t i = 0; i < n; i++) {
        if (ports[i].pp.port_no == pm->port_no) {
            error = (memcmp(&ports[i].pp.hw_addr, &pm->hw_addr,
                            sizeof pm->hw_addr)
                     ? OFPERR_OFPPMFC_BAD_HW_ADDR : 0);
            break;
        }
    }
    free(ports);
    return error;
}

/* Applies port_mod 'pm' (of message 'oh', which port_mod_start()
 * accepted) to its port's configuration. */
static void
port_mod_finish(struct ofconn *ofconn, const struct ofp_header *oh,
                const struct ofputil_port_mod *pm)
{
    struct connmgr *mgr = ofconn->mgr;
    struct connmgr_port *ports;
    size_t n = get_ports(mgr, &ports);

    for (size_t i = 0; i < n; i++) {
        const struct ofputil_phy_port *pp = &ports[i].pp;
        if (pp->port_no != pm->port_no) {
            continue;
        }
        uint32_t mask = pm->mask & (oh->version == OFP10_VERSION
                                    ? OFPPC10_ALL : OFPPC11_ALL);
        uint32_t config = (pp->config & ~mask) | (pm->config & mask);
        if (config != pp->config) {
            mgr->hooks->set_port_config(mgr->aux, pm->port_no, config);
            update_ports(mgr, ofconn);
        }
        break;
    }
    free(ports);
}

static enum ofperr
handle_barrier_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    /* Every earlier request has been handled in full. */
    enum ofpraw raw = (oh->version == OFP10_VERSION
                       ? OFPRAW_OFPT10_BARRIER_REPLY
                       : OFPRAW_OFPT13_BARRIER_REPLY);
    struct ofpbuf *b = ofpraw_alloc_reply(raw, oh, 0);

    ofpmsg_update_length(b);
    ofconn_send(ofconn, b);
    return 0;
}

/* Multipart replies: mp_start() begins one; mp_reserve() makes room for
 * 'size' more bytes, sending what is full with OFPSF_REPLY_MORE set and
 * starting another; mp_finish() sends the last. */
struct mp_reply {
    struct ofconn *ofconn;
    const struct ofp_header *request;
    enum ofpraw raw;
    struct ofpbuf *b;
};

static void
mp_start(struct mp_reply *mp, struct ofconn *ofconn, enum ofpraw raw,
         const struct ofp_header *request)
{
    mp->ofconn = ofconn;
    mp->request = request;
    mp->raw = raw;
    mp->b = ofpraw_alloc_reply(raw, request, 0);
}

static void *
mp_reserve(struct mp_reply *mp, size_t size)
{
    if (mp->b->size + size > MAX_MSG_SIZE) {
        uint8_t *h = mp->b->header;
        ofp_put_be16(h + 10, ofp_get_be16(h + 10) | OFPSF_REPLY_MORE);
        ofpmsg_update_length(mp->b);
        ofconn_send(mp->ofconn, mp->b);
        mp->b = ofpraw_alloc_reply(mp->raw, mp->request, 0);
    }
    return ofpbuf_put_zeros(mp->b, size);
}

/* Appends 'entry', one whole entry, to the reply and frees it. */
static void
mp_put_entry(struct mp_reply *mp, struct ofpbuf *entry)
{
    memcpy(mp_reserve(mp, entry->size), entry->data, entry->size);
    ofpbuf_uninit(entry);
}

static void
mp_finish(struct mp_reply *mp)
{
    ofpmsg_update_length(mp->b);
    ofconn_send(mp->ofconn, mp->b);
    mp->b = NULL;
}

static enum ofperr
handle_desc_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    static const struct {
        size_t ofs, size;
    } fields[] = { { 0, 256 }, { 256, 256 }, { 512, 256 }, { 768, 32 },
                   { 800, 256 } };
    const char *dp_desc = ofconn->mgr->dp_desc;
    const char *values[] = {
        CONNMGR_MFR_DESC, CONNMGR_HW_DESC, CONNMGR_SW_DESC,
        CONNMGR_SERIAL_DESC, dp_desc ? dp_desc : CONNMGR_DP_DESC,
    };
    struct mp_reply mp;

    mp_start(&mp, ofconn, (oh->version == OFP10_VERSION
                           ? OFPRAW_OFPST10_DESC_REPLY
                           : OFPRAW_OFPST13_DESC_REPLY), oh);
    uint8_t *p = mp_reserve(&mp, 1056);
    for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
        /* Each string is null-terminated within its field. */
        memcpy(p + fields[i].ofs, values[i],
               strnlen(values[i], fields[i].size - 1));
    }
    mp_finish(&mp);
    return 0;
}

static enum ofperr
handle_table_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    const struct ofproto *ofproto = ofconn->mgr->ofproto;
    struct mp_reply mp;

    if (oh->version == OFP10_VERSION) {
        mp_start(&mp, ofconn, OFPRAW_OFPST10_TABLE_REPLY, oh);
        for (int i = 0; i < CONNMGR_N_TABLES; i++) {
            uint8_t *p = mp_reserve(&mp, 64);
            p[0] = i;
            ofp_put_be32(p + 36, 0x3fffff);     /* OFPFW10_ALL. */
            ofp_put_be32(p + 40, CONNMGR_MAX_ENTRIES);
            ofp_put_be32(p + 44, ofproto_n_rules(ofproto, i));
            /* lookup_count and matched_count: not counted (zero). */
        }
    } else {
        mp_start(&mp, ofconn, OFPRAW_OFPST13_TABLE_REPLY, oh);
        for (int i = 0; i < CONNMGR_N_TABLES; i++) {
            uint8_t *p = mp_reserve(&mp, 24);
            p[0] = i;
            ofp_put_be32(p + 4, ofproto_n_rules(ofproto, i));
        }
    }
    mp_finish(&mp);
    return 0;
}

/* OpenFlow 1.3+ role request, answered as Open vSwitch answers it: every
 * connection starts "equal"; a master or slave request whose generation
 * id is older than the last one's (in serial-number order) is stale;
 * becoming master makes any other master a slave; the reply says the
 * role and the generation id (all ones before any was set).  The Nicira
 * role request is not taken.  Roles change what the reply says and which
 * connection is master; a slave is not yet refused the requests a slave
 * may not make. */
static enum ofperr
handle_role_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct connmgr *mgr = ofconn->mgr;
    enum ofpraw raw;

    ofpraw_decode(&raw, oh);
    if (raw != OFPRAW_OFPT13_ROLE_REQUEST) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const uint8_t *body = msg_body(oh);
    uint32_t role = ofp_get_be32(body);
    uint64_t generation_id = ofp_get_be64(body + 8);

    if (role > OFPCR_ROLE_SLAVE) {
        return OFPERR_OFPRRFC_BAD_ROLE;
    }
    if (role == OFPCR_ROLE_MASTER || role == OFPCR_ROLE_SLAVE) {
        if (mgr->generation_set
            && (int64_t) (generation_id - mgr->generation_id) < 0) {
            return OFPERR_OFPRRFC_STALE;
        }
        mgr->generation_id = generation_id;
        mgr->generation_set = true;
    }
    if (role == OFPCR_ROLE_MASTER) {
        for (size_t i = 0; i < mgr->n_conns; i++) {
            if (mgr->conns[i]->role == OFPCR_ROLE_MASTER) {
                mgr->conns[i]->role = OFPCR_ROLE_SLAVE;
            }
        }
    }
    if (role != OFPCR_ROLE_NOCHANGE) {
        ofconn->role = role;
    }

    struct ofpbuf *reply = ofpraw_alloc_reply(OFPRAW_OFPT13_ROLE_REPLY, oh,
                                              0);
    uint8_t *p = ofpbuf_put_zeros(reply, 16);
    ofp_put_be32(p, ofconn->role);
    put_be64(p + 8, mgr->generation_set ? mgr->generation_id : UINT64_MAX);
    ofpmsg_update_length(reply);
    ofconn_send(ofconn, reply);
    return 0;
}

/* Table features properties (OFPTFPT_*) and the action and instruction
 * ids they list. */
enum {
    TFPT_INSTRUCTIONS = 0, TFPT_NEXT_TABLES = 2, TFPT_WRITE_ACTIONS = 4,
    TFPT_APPLY_ACTIONS = 6, TFPT_MATCH = 8, TFPT_WILDCARDS = 10,
    TFPT_WRITE_SETFIELD = 12, TFPT_APPLY_SETFIELD = 14,
};

/* Starts table features property 'type' in 'b'; returns its offset for
 * tf_prop_end(). */
static size_t
tf_prop_start(struct ofpbuf *b, uint16_t type)
{
    size_t ofs = b->size;

    ofp_put_be16(ofpbuf_put_zeros(b, 4), type);
    return ofs;
}

/* Sets the length of the property at 'ofs' and pads it to 8 bytes. */
static void
tf_prop_end(struct ofpbuf *b, size_t ofs)
{
    size_t len = b->size - ofs;

    ofp_put_be16((uint8_t *) b->data + ofs + 2, len);
    ofpbuf_put_zeros(b, (len + 7) / 8 * 8 - len);
}

/* Appends to 'b' table 'table_id''s features, as dpswitch's pipeline has
 * them: every table takes the same matches, instructions (no meter: there
 * are no meters) and actions; a table may go only to later tables; the
 * miss properties are left out, which says they are the same. */
static void
put_table_features(struct ofpbuf *b, uint8_t table_id)
{
    static const uint16_t instructions[] = { 1, 2, 3, 4, 5 };
    /* output, push_vlan, pop_vlan, set_nw_ttl, dec_nw_ttl, set_field. */
    static const uint16_t actions[] = { 0, 17, 18, 23, 24, 25 };
    size_t start = b->size;
    size_t ofs;

    uint8_t *p = ofpbuf_put_zeros(b, 64);
    p[2] = table_id;
    memset(p + 40, 0xff, 16);                   /* Metadata match, write. */
    ofp_put_be32(p + 60, CONNMGR_MAX_ENTRIES);

    ofs = tf_prop_start(b, TFPT_INSTRUCTIONS);
    for (size_t i = 0; i < ARRAY_SIZE(instructions); i++) {
        if (instructions[i] != 1 || table_id < CONNMGR_N_TABLES - 1) {
            uint8_t *id = ofpbuf_put_zeros(b, 4);
            ofp_put_be16(id, instructions[i]);
            ofp_put_be16(id + 2, 4);
        }
    }
    tf_prop_end(b, ofs);

    ofs = tf_prop_start(b, TFPT_NEXT_TABLES);
    for (int t = table_id + 1; t < CONNMGR_N_TABLES; t++) {
        *(uint8_t *) ofpbuf_put_zeros(b, 1) = t;
    }
    tf_prop_end(b, ofs);

    for (int type = TFPT_WRITE_ACTIONS; type <= TFPT_APPLY_ACTIONS;
         type += 2) {
        ofs = tf_prop_start(b, type);
        for (size_t i = 0; i < ARRAY_SIZE(actions); i++) {
            uint8_t *id = ofpbuf_put_zeros(b, 4);
            ofp_put_be16(id, actions[i]);
            ofp_put_be16(id + 2, 4);
        }
        tf_prop_end(b, ofs);
    }

    ofs = tf_prop_start(b, TFPT_MATCH);
    oxm_put_field_headers(b, true, false);
    tf_prop_end(b, ofs);
    ofs = tf_prop_start(b, TFPT_WILDCARDS);
    oxm_put_field_headers(b, false, false);
    tf_prop_end(b, ofs);
    for (int type = TFPT_WRITE_SETFIELD; type <= TFPT_APPLY_SETFIELD;
         type += 2) {
        ofs = tf_prop_start(b, type);
        oxm_put_field_headers(b, false, true);
        tf_prop_end(b, ofs);
    }

    ofp_put_be16((uint8_t *) b->data + start, b->size - start);
}

/* OpenFlow 1.3+ table features: a request without a body gets every
 * table's features; one with a body would reconfigure the tables, which
 * dpswitch does not do. */
static enum ofperr
handle_table_features_request(struct ofconn *ofconn,
                              const struct ofp_header *oh)
{
    if (ntohs(oh->length) > 16) {
        return OFPERR_OFPBRC_EPERM;
    }

    struct mp_reply mp;
    struct ofpbuf tf;

    mp_start(&mp, ofconn, OFPRAW_OFPST13_TABLE_FEATURES_REPLY, oh);
    ofpbuf_init(&tf, 2048);
    for (int i = 0; i < CONNMGR_N_TABLES; i++) {
        ofpbuf_clear(&tf);
        put_table_features(&tf, i);
        memcpy(mp_reserve(&mp, tf.size), tf.data, tf.size);
    }
    ofpbuf_uninit(&tf);
    mp_finish(&mp);
    return 0;
}

/* Seconds and nanoseconds from 'then' to 'now' (milliseconds). */
static void
msec_to_duration(long long then, long long now, uint32_t *sec,
                 uint32_t *nsec)
{
    long long age = MAX(now - then, 0);

    *sec = age / 1000;
    *nsec = (age % 1000) * 1000000;
}

/* Appends port 'port''s statistics for OpenFlow 'version' to 'mp'. */
static void
put_port_stats(struct mp_reply *mp, enum ofp_version version,
               const struct connmgr_port *port,
               const struct connmgr_port_stats *s, long long now)
{
    uint32_t sec, nsec;
    uint8_t *p;

    msec_to_duration(port->created, now, &sec, &nsec);

    if (version == OFP10_VERSION || version == OFP13_VERSION) {
        if (version == OFP10_VERSION) {
            p = mp_reserve(mp, 104);
            ofp_put_be16(p, port->pp.port_no);
        } else {
            p = mp_reserve(mp, 112);
            ofp_put_be32(p, ofp_port_to_ofp11(port->pp.port_no));
            ofp_put_be32(p + 104, sec);
            ofp_put_be32(p + 108, nsec);
        }
        const uint64_t counters[] = {
            s->rx_packets, s->tx_packets, s->rx_bytes, s->tx_bytes,
            s->rx_dropped, s->tx_dropped, s->rx_errors, s->tx_errors,
            s->rx_frame_err, s->rx_over_err, s->rx_crc_err, s->collisions,
        };
        for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
            put_be64(p + 8 + 8 * i, counters[i]);
        }
        return;
    }

    /* OpenFlow 1.4+: the fixed part, then the Ethernet property. */
    p = mp_reserve(mp, 120);
    ofp_put_be16(p, 120);
    ofp_put_be32(p + 4, ofp_port_to_ofp11(port->pp.port_no));
    ofp_put_be32(p + 8, sec);
    ofp_put_be32(p + 12, nsec);
    const uint64_t counters[] = {
        s->rx_packets, s->tx_packets, s->rx_bytes, s->tx_bytes,
        s->rx_dropped, s->tx_dropped, s->rx_errors, s->tx_errors,
    };
    for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
        put_be64(p + 16 + 8 * i, counters[i]);
    }
    uint8_t *prop = p + 80;
    ofp_put_be16(prop, 0);              /* OFPPSPT14_ETHERNET. */
    ofp_put_be16(prop + 2, 40);
    put_be64(prop + 8, s->rx_frame_err);
    put_be64(prop + 16, s->rx_over_err);
    put_be64(prop + 24, s->rx_crc_err);
    put_be64(prop + 32, s->collisions);
}

static enum ofperr
handle_port_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct connmgr *mgr = ofconn->mgr;
    const uint8_t *body = msg_body(oh);
    ofp_port_t port_no;

    if (oh->version == OFP10_VERSION) {
        port_no = ofp_get_be16(body);
    } else if (!ofp_port_from_ofp11(ofp_get_be32(body), &port_no)) {
        return OFPERR_OFPBRC_BAD_PORT;
    }

    struct mp_reply mp;
    mp_start(&mp, ofconn, (oh->version == OFP10_VERSION
                           ? OFPRAW_OFPST10_PORT_REPLY
                           : oh->version == OFP13_VERSION
                           ? OFPRAW_OFPST13_PORT_REPLY
                           : OFPRAW_OFPST14_PORT_REPLY), oh);

    struct connmgr_port *ports;
    size_t n = get_ports(mgr, &ports);
    long long now = time_msec();
    for (size_t i = 0; i < n; i++) {
        struct connmgr_port_stats stats;

        if ((port_no == OFPP_ANY || port_no == ports[i].pp.port_no)
            && mgr->hooks->get_port_stats(mgr->aux, ports[i].pp.port_no,
                                          &stats)) {
            put_port_stats(&mp, oh->version, &ports[i], &stats, now);
        }
    }
    free(ports);
    mp_finish(&mp);
    return 0;
}

static enum ofperr
handle_port_desc_stats_request(struct ofconn *ofconn,
                               const struct ofp_header *oh)
{
    struct connmgr *mgr = ofconn->mgr;
    ofp_port_t port_no = OFPP_ANY;

    if (oh->version >= OFP15_VERSION
        && !ofp_port_from_ofp11(ofp_get_be32(msg_body(oh)),
                                &port_no)) {
        return OFPERR_OFPBRC_BAD_PORT;
    }

    struct mp_reply mp;
    mp_start(&mp, ofconn, (oh->version == OFP10_VERSION
                           ? OFPRAW_OFPST10_PORT_DESC_REPLY
                           : oh->version == OFP13_VERSION
                           ? OFPRAW_OFPST13_PORT_DESC_REPLY
                           : OFPRAW_OFPST14_PORT_DESC_REPLY), oh);

    struct connmgr_port *ports;
    size_t n = get_ports(mgr, &ports);
    for (size_t i = 0; i < n; i++) {
        if (port_no == OFPP_ANY || port_no == ports[i].pp.port_no) {
            struct ofputil_phy_port p = port_for_version(&ports[i].pp,
                                                         oh->version);
            struct ofpbuf tmp;

            ofpbuf_init(&tmp, port_size(oh->version));
            ofputil_put_phy_port(oh->version, &p, &tmp);
            mp_put_entry(&mp, &tmp);
        }
    }
    free(ports);
    mp_finish(&mp);
    return 0;
}

/* ------------------------------------------------------------------------
 * Groups.
 * ------------------------------------------------------------------------ */

/* The flows whose actions send to group 'group_id' (a group's ref_count,
 * as Open vSwitch counts it). */
static uint32_t
group_ref_count(const struct ofproto *ofproto, uint32_t group_id)
{
    struct ofproto_flow_query q;
    struct ofproto_rule **rules;

    ofproto_flow_query_init(&q);
    q.table_id = OFPROTO_TABLE_ALL;
    q.out_group = group_id;
    size_t n = ofproto_collect(ofproto, &q, &rules);
    free(rules);
    return n;
}

static enum ofperr
handle_group_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    const struct ofproto *ofproto = ofconn->mgr->ofproto;
    uint32_t group_id = ofputil_decode_group_request(oh);
    long long now = time_msec();
    struct mp_reply mp;

    mp_start(&mp, ofconn, (oh->version == OFP10_VERSION
                           ? OFPRAW_NXST_GROUP_REPLY
                           : oh->version < OFP13_VERSION
                           ? OFPRAW_OFPST11_GROUP_REPLY
                           : OFPRAW_OFPST13_GROUP_REPLY), oh);

    const struct ofproto_group **groups;
    size_t n = ofproto_groups(ofproto, &groups);
    for (size_t i = 0; i < n; i++) {
        const struct ofproto_group *g = groups[i];
        if (group_id != OFPG_ALL && group_id != g->group_id) {
            continue;
        }

        long long age = now - g->created;
        struct ofputil_group_stats gs = {
            .group_id = g->group_id,
            .ref_count = group_ref_count(ofproto, g->group_id),
            .packet_count = g->packet_count,
            .byte_count = g->byte_count,
            .duration_sec = age / 1000,
            .duration_nsec = (age % 1000) * 1000000,
            .n_buckets = g->n_buckets,
            .bucket_packets = g->bucket_packets,
            .bucket_bytes = g->bucket_bytes,
        };
        struct ofpbuf tmp;
        ofpbuf_init(&tmp, 64);
        ofputil_append_group_stats(&tmp, oh->version, &gs);
        mp_put_entry(&mp, &tmp);
    }
    free(groups);
    mp_finish(&mp);
    return 0;
}

static enum ofperr
handle_group_desc_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    uint32_t group_id = ofputil_decode_group_request(oh);
    struct mp_reply mp;

    mp_start(&mp, ofconn, (oh->version == OFP10_VERSION
                           ? OFPRAW_NXST_GROUP_DESC_REPLY
                           : OFPRAW_OFPST11_GROUP_DESC_REPLY), oh);

    const struct ofproto_group **groups;
    size_t n = ofproto_groups(ofconn->mgr->ofproto, &groups);
    for (size_t i = 0; i < n; i++) {
        const struct ofproto_group *g = groups[i];
        if (group_id == OFPG_ALL || group_id == g->group_id) {
            struct ofpbuf tmp;
            ofpbuf_init(&tmp, 128);
            ofputil_append_group_desc(&tmp, oh->version, g->group_id,
                                      g->type, g->buckets, g->n_buckets,
                                      &g->props);
            mp_put_entry(&mp, &tmp);
        }
    }
    free(groups);
    mp_finish(&mp);
    return 0;
}

static enum ofperr
handle_group_features_request(struct ofconn *ofconn,
                              const struct ofp_header *oh)
{
    struct mp_reply mp;

    mp_start(&mp, ofconn, (oh->version == OFP10_VERSION
                           ? OFPRAW_NXST_GROUP_FEATURES_REPLY
                           : OFPRAW_OFPST12_GROUP_FEATURES_REPLY), oh);
    ofputil_put_group_features(mp.b, oh->version);
    mp_finish(&mp);
    return 0;
}

static enum ofperr
handle_group_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_group_mod gm;
    enum ofperr error = ofputil_decode_group_mod(oh, &gm);

    if (!error) {
        error = ofproto_group_mod(ofconn->mgr->ofproto, &gm, time_msec());
        ofputil_group_mod_uninit(&gm);
    }
    return error;
}

/* The Nicira extension messages that change a connection's settings. */
static enum ofperr
handle_nicira_setting(struct ofconn *ofconn, enum ofptype type,
                      const struct ofp_header *oh)
{
    const uint8_t *body = msg_body(oh);

    switch (type) {
    case OFPTYPE_SET_FLOW_FORMAT: {
        uint32_t format = ofp_get_be32(body);
        if (format != NXFF_OPENFLOW10 && format != NXFF_NXM) {
            return OFPERR_OFPBRC_EPERM;
        }
        ofconn->flow_format = format;
        return 0;
    }
    case OFPTYPE_SET_PACKET_IN_FORMAT: {
        uint32_t format = ofp_get_be32(body);
        if (format > NXPIF_NXT_PACKET_IN2) {
            return OFPERR_OFPBRC_EPERM;
        }
        ofconn->packet_in_format = format;
        return 0;
    }
    case OFPTYPE_FLOW_MOD_TABLE_ID:
        ofconn->flow_mod_table_id = body[0] != 0;
        return 0;
    case OFPTYPE_SET_CONTROLLER_ID:
        ofconn->controller_id = ofp_get_be16(body + 6);
        return 0;
    default:
        return OFPERR_OFPBRC_BAD_TYPE;
    }
}

/* ------------------------------------------------------------------------
 * Flow tables.
 * ------------------------------------------------------------------------ */

/* Table 254 is Open vSwitch's hidden, read-only table. */
#define CONNMGR_HIDDEN_TABLE (CONNMGR_N_TABLES)

/* Checks 'ofpacts' of a flow for table 'table_id' as Open vSwitch does
 * before it adds or modifies flows: a goto_table must go to a later table,
 * and (if 'groups') a group action must name a group of 'ofproto'.  (In a
 * bundle, Open vSwitch checks the tables when the flow_mod is added and
 * the groups when the bundle is committed.) */
static enum ofperr
check_instructions(const struct ofproto *ofproto, const struct ofpact *ofpacts,
                   size_t ofpacts_len, uint8_t table_id, bool groups)
{
    const struct ofpact *a;

    OFPACT_FOR_EACH (a, ofpacts, ofpacts_len) {
        if (a->type == OFPACT_GOTO_TABLE) {
            uint8_t next = ofpact_get_GOTO_TABLE(a)->table_id;
            /* Open vSwitch counts its hidden table 254 among its
             * tables here. */
            if (next <= table_id || next > CONNMGR_HIDDEN_TABLE) {
                return OFPERR_OFPBIC_BAD_TABLE_ID;
            }
        } else if (a->type == OFPACT_GROUP && groups) {
            if (!ofproto_group_exists(ofproto,
                                      ofpact_get_GROUP(a)->group_id)) {
                return OFPERR_OFPBAC_BAD_OUT_GROUP;
            }
        } else if (a->type == OFPACT_WRITE_ACTIONS) {
            const struct ofpact_nest *on = ofpact_get_WRITE_ACTIONS(a);
            enum ofperr error = check_instructions(
                ofproto, ofpact_nest_get_actions(on), ofpact_nest_get_action_len(on),
                table_id, groups);
            if (error) {
                return error;
            }
        }
    }
    return 0;
}

static enum ofperr flow_mod_decode(struct ofconn *, const struct ofp_header *,
                                   struct ofputil_flow_mod *,
                                   struct ofpbuf *ofpacts);
static enum ofperr flow_mod_apply(struct ofconn *,
                                  const struct ofputil_flow_mod *);
static enum ofperr packet_out_decode(const struct ofp_header *,
                                     struct ofputil_packet_out *,
                                     struct ofpbuf *ofpacts);

static enum ofperr
handle_flow_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;

    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = flow_mod_decode(ofconn, oh, &fm, &ofpacts);
    if (!error) {
        error = flow_mod_apply(ofconn, &fm);
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

/* Decodes flow_mod 'oh' into 'fm' (its actions into 'ofpacts') and makes
 * the checks Open vSwitch makes before it looks at the tables: not the
 * hidden table, no packet buffer. */
static enum ofperr
flow_mod_decode(struct ofconn *ofconn, const struct ofp_header *oh,
                struct ofputil_flow_mod *fm, struct ofpbuf *ofpacts)
{
    enum ofperr error = ofputil_decode_flow_mod(fm, oh,
                                                ofconn->flow_mod_table_id,
                                                ofpacts);
    if (error) {
        return error;
    }

    bool adds = fm->command == OFPFC_ADD || fm->command == OFPFC_MODIFY
                || fm->command == OFPFC_MODIFY_STRICT;
    if (fm->table_id == CONNMGR_HIDDEN_TABLE && adds) {
        return OFPERR_OFPBRC_EPERM;
    }
    if (fm->buffer_id != OFP_NO_BUFFER) {
        /* There are no packet buffers (features say n_buffers 0): Open
         * vSwitch refuses the whole flow_mod. */
        return OFPERR_OFPBRC_BUFFER_UNKNOWN;
    }
    return 0;
}

/* Carries out 'fm', which flow_mod_decode() accepted. */
static enum ofperr
flow_mod_apply(struct ofconn *ofconn, const struct ofputil_flow_mod *fm)
{
    bool adds = fm->command == OFPFC_ADD || fm->command == OFPFC_MODIFY
                || fm->command == OFPFC_MODIFY_STRICT;
    if (adds) {
        enum ofperr error = check_instructions(
            ofconn->mgr->ofproto, fm->ofpacts, fm->ofpacts_len,
            fm->table_id == OFPTT_ALL ? 0 : fm->table_id, true);
        if (error) {
            return error;
        }
    }

    struct ofproto_flow_mod ofm;
    ofproto_flow_mod_init(&ofm, fm->command);
    ofm.table_id = fm->table_id;
    ofm.match = fm->match;
    ofm.priority = fm->priority;
    ofm.cookie = fm->cookie;
    ofm.cookie_mask = fm->cookie_mask;
    ofm.new_cookie = fm->new_cookie;
    ofm.modify_cookie = fm->modify_cookie;
    ofm.idle_timeout = fm->idle_timeout;
    ofm.hard_timeout = fm->hard_timeout;
    ofm.importance = fm->importance;
    ofm.flags = fm->flags;      /* OFPUTIL_FF_* are OFPROTO_FF_*. */
    ofm.out_port = fm->out_port;
    ofm.out_group = fm->out_group;
    ofm.ofpacts = fm->ofpacts;
    ofm.ofpacts_len = fm->ofpacts_len;

    switch (ofproto_flow_mod(ofconn->mgr->ofproto, &ofm, time_msec())) {
    case OFPROTO_OK:
        return 0;
    case OFPROTO_ERR_OVERLAP:
        return OFPERR_OFPFMFC_OVERLAP;
    case OFPROTO_ERR_BAD_COMMAND:
    default:
        return OFPERR_OFPFMFC_BAD_COMMAND;
    }
}

static enum ofperr
handle_packet_out(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct connmgr *mgr = ofconn->mgr;
    struct ofputil_packet_out po;
    struct ofpbuf ofpacts;

    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = packet_out_decode(oh, &po, &ofpacts);
    if (!error) {
        error = mgr->hooks->packet_out(mgr->aux, &po);
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

/* Decodes packet-out 'oh' into 'po' (its actions into 'ofpacts'). */
static enum ofperr
packet_out_decode(const struct ofp_header *oh, struct ofputil_packet_out *po,
                  struct ofpbuf *ofpacts)
{
    enum ofperr error = ofputil_decode_packet_out(po, oh, ofpacts);

    if (!error && po->buffer_id != OFP_NO_BUFFER) {
        /* No packet is ever buffered (n_buffers 0), as in Open vSwitch. */
        error = OFPERR_OFPBRC_BUFFER_UNKNOWN;
    }
    return error;
}

static enum ofperr
handle_flow_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_flow_stats_request fsr;
    enum ofperr error = ofputil_decode_flow_stats_request(&fsr, oh);

    if (error) {
        return error;
    }

    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    q.table_id = fsr.table_id;
    q.match = fsr.match;
    match_normalize(&q.match);
    q.cookie = fsr.cookie;
    q.cookie_mask = fsr.cookie_mask;
    q.out_port = fsr.out_port;
    q.out_group = fsr.out_group;

    struct ofproto_rule **rules;
    size_t n = ofproto_collect(ofconn->mgr->ofproto, &q, &rules);
    long long now = time_msec();

    if (fsr.aggregate) {
        struct ofputil_aggregate_stats as = { 0, 0, 0 };
        for (size_t i = 0; i < n; i++) {
            if (rules[i]->table_id == CONNMGR_HIDDEN_TABLE
                && fsr.table_id == OFPTT_ALL) {
                continue;
            }
            as.packet_count += rules[i]->n_packets;
            as.byte_count += rules[i]->n_bytes;
            as.flow_count++;
        }
        ofconn_send(ofconn, ofputil_encode_aggregate_stats_reply(&as, oh));
        free(rules);
        return 0;
    }

    struct ofpbuf **replies = xmalloc(sizeof *replies);
    size_t n_replies = 1;
    replies[0] = ofputil_start_flow_stats_reply(oh);
    for (size_t i = 0; i < n; i++) {
        const struct ofproto_rule *rule = rules[i];
        struct ofputil_flow_stats fs;

        if (rule->table_id == CONNMGR_HIDDEN_TABLE
            && fsr.table_id == OFPTT_ALL) {
            continue;
        }
        memset(&fs, 0, sizeof fs);
        fs.match = rule->cr.match;
        fs.cookie = rule->cookie;
        fs.table_id = rule->table_id;
        fs.priority = rule->cr.priority;
        fs.idle_timeout = rule->idle_timeout;
        fs.hard_timeout = rule->hard_timeout;
        msec_to_duration(rule->created, now, &fs.duration_sec,
                         &fs.duration_nsec);
        fs.idle_age = MAX(now - rule->used, 0) / 1000;
        fs.hard_age = MAX(now - rule->modified, 0) / 1000;
        fs.packet_count = rule->n_packets;
        fs.byte_count = rule->n_bytes;
        fs.flags = rule->flags;
        fs.importance = rule->importance;
        fs.ofpacts = rule->ofpacts;
        fs.ofpacts_len = rule->ofpacts_len;
        ofputil_append_flow_stats_reply(&fs, &replies, &n_replies);
    }
    for (size_t i = 0; i < n_replies; i++) {
        ofconn_send(ofconn, replies[i]);
    }
    free(replies);
    free(rules);
    return 0;
}

/* Whether 'ofconn' takes flow_removed messages for 'reason'
 * (ofconn_wants_async()). */
static bool
ofconn_wants_flow_removed(const struct ofconn *ofconn, uint8_t reason)
{
    return ofconn_wants_async(ofconn, OAM_FLOW_REMOVED, reason);
}

/* ofproto's report of a removed rule: a flow_removed to each connection
 * that wants it, in its flow format. */
static void
send_flow_removed(void *mgr_, const struct ofproto_rule *rule,
                  enum ofproto_removed_reason reason, long long now)
{
    struct connmgr *mgr = mgr_;
    struct ofputil_flow_removed fr;

    memset(&fr, 0, sizeof fr);
    fr.match = rule->cr.match;
    fr.cookie = rule->cookie;
    fr.priority = rule->cr.priority;
    fr.reason = reason;
    fr.table_id = rule->table_id;
    msec_to_duration(rule->created, now, &fr.duration_sec,
                     &fr.duration_nsec);
    fr.idle_timeout = rule->idle_timeout;
    fr.hard_timeout = rule->hard_timeout;
    fr.packet_count = rule->n_packets;
    fr.byte_count = rule->n_bytes;

    for (size_t i = 0; i < mgr->n_conns; i++) {
        struct ofconn *ofconn = mgr->conns[i];
        int version = vconn_get_version(ofconn->vconn);

        if (version > 0 && ofconn_wants_flow_removed(ofconn, reason)) {
            enum ofputil_protocol protocol
                = (version == OFP13_VERSION ? OFPUTIL_P_OF13_OXM
                   : version == OFP14_VERSION ? OFPUTIL_P_OF14_OXM
                   : version == OFP15_VERSION ? OFPUTIL_P_OF15_OXM
                   : ofconn->flow_format == NXFF_NXM ? OFPUTIL_P_OF10_NXM
                   : OFPUTIL_P_OF10_STD);
            ofconn_send(ofconn, ofputil_encode_flow_removed(&fr, protocol));
        }
    }
}

/* The out_port and out_group filters of delete and flow statistics. */
static bool
rule_outputs_to(const struct ofproto_rule *rule, uint32_t port,
                uint32_t group)
{
    return ((port == OFPROTO_OFPP_ANY
             || ofpacts_output_to_port(rule->ofpacts, rule->ofpacts_len,
                                       port))
            && (group == OFPROTO_OFPG_ANY
                || ofpacts_output_to_group(rule->ofpacts, rule->ofpacts_len,
                                           group)));
}

/* ------------------------------------------------------------------------
 * Packet-ins.
 * ------------------------------------------------------------------------ */

/* 'ofconn''s asynchronous message configuration. */
static struct ofputil_async_cfg
ofconn_async(const struct ofconn *ofconn)
{
    return (ofconn->async_set ? ofconn->async
            : ofputil_async_cfg_default(vconn_get_version(ofconn->vconn)));
}

/* Whether 'ofconn' takes asynchronous messages of 'type' for 'reason', by
 * Open vSwitch's rules: a service connection none until it set a nonzero
 * miss_send_len; then the mask of its role says. */
static bool
ofconn_wants_async(const struct ofconn *ofconn,
                   enum ofputil_async_msg_type type, unsigned int reason)
{
    if (!ofconn->connected || (!ofconn->ctl && !ofconn->miss_send_len)
        || reason >= 32) {
        return false;
    }

    struct ofputil_async_cfg cfg = ofconn_async(ofconn);
    const uint32_t *masks = (ofconn->role == OFPCR_ROLE_SLAVE ? cfg.slave
                             : cfg.master);
    return (masks[type] & (1u << reason)) != 0;
}

/* OFPT_SET_ASYNC, NXT_SET_ASYNC_CONFIG and NXT_SET_ASYNC_CONFIG2.  As in
 * Open vSwitch, a service connection that had miss_send_len 0 gets
 * OFP_DEFAULT_MISS_SEND_LEN, so that what it asked for arrives. */
static enum ofperr
handle_set_async(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_async_cfg cfg = ofconn_async(ofconn);
    enum ofperr error = ofputil_decode_set_async_config(oh, &cfg);

    if (error) {
        return error;
    }
    ofconn->async = cfg;
    ofconn->async_set = true;
    if (!ofconn->ctl && !ofconn->miss_send_len) {
        ofconn->miss_send_len = 128;
    }
    return 0;
}

static enum ofperr
handle_get_async_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_async_cfg cfg = ofconn_async(ofconn);

    ofconn_send(ofconn, ofputil_encode_get_async_reply(oh, &cfg));
    return 0;
}

/* Whether 'ofconn' takes 'pin', by Open vSwitch's rules: the controller id
 * must be the one the action names and the connection take the reason
 * (ofconn_wants_async()).  A miss without a flow goes only to OpenFlow
 * 1.0-1.2 connections (OpenFlow 1.3 drops table misses), as "no_match"; a
 * table-miss flow's packet-in is "no_match" from OpenFlow 1.3 on, and
 * "action" before. */
static bool
ofconn_wants_packet_in(const struct ofconn *ofconn,
                       const struct ofproto_packet_in *pin)
{
    int version = vconn_get_version(ofconn->vconn);
    unsigned int reason = pin->reason;

    if (ofconn->controller_id != pin->controller_id) {
        return false;
    }
    if (pin->miss == OFPROTO_PACKET_IN_MISS_WITHOUT_FLOW) {
        if (version >= OFP13_VERSION) {
            return false;
        }
        reason = OFPR_NO_MATCH;
    } else if (pin->miss == OFPROTO_PACKET_IN_MISS_FLOW
               && version >= OFP13_VERSION) {
        reason = OFPR_NO_MATCH;
    }
    return ofconn_wants_async(ofconn, OAM_PACKET_IN, reason);
}

/* The packet-in metadata of 'flow' as Open vSwitch reports it: in_port,
 * and metadata and registers that are not zero. */
static void
packet_in_metadata(const struct match_flow *flow, struct match *match)
{
    match_init_catchall(match);
    match_set_in_port(match, flow->in_port);
    if (flow->metadata) {
        match_set_metadata_masked(match, flow->metadata, UINT64_MAX);
    }
    for (unsigned int i = 0; i < MATCH_N_REGS; i++) {
        if (flow->regs[i]) {
            match_set_reg_masked(match, i, flow->regs[i], UINT32_MAX);
        }
    }
}

/* Sends the packets translation queued for the controllers to each
 * connection that wants them, in its version and packet-in format. */
static void
send_packet_ins(struct connmgr *mgr)
{
    struct ofproto_packet_in **pins;
    size_t n = ofproto_take_packet_ins(mgr->ofproto, &pins);

    for (size_t i = 0; i < n; i++) {
        const struct ofproto_packet_in *pin = pins[i];
        struct ofputil_packet_in opi = {
            .packet = pin->packet,
            .packet_len = pin->packet_len,
            .total_len = pin->packet_len,
            .table_id = pin->table_id,
            .cookie = pin->cookie,
            .buffer_id = OFP_NO_BUFFER,
            .userdata = pin->userdata,
            .userdata_len = pin->userdata_len,
        };
        packet_in_metadata(&pin->flow, &opi.flow_metadata);

        for (size_t j = 0; j < mgr->n_conns; j++) {
            struct ofconn *ofconn = mgr->conns[j];
            if (!ofconn_wants_packet_in(ofconn, pin)) {
                continue;
            }

            int version = vconn_get_version(ofconn->vconn);
            opi.reason = (pin->miss == OFPROTO_PACKET_IN_MISS_FLOW
                          && version >= OFP13_VERSION
                          ? OFPR_NO_MATCH : pin->reason);
            ofconn_send(ofconn, ofputil_encode_packet_in(
                            &opi, version, ofconn->packet_in_format));
        }
        ofproto_packet_in_destroy(pins[i]);
    }
    free(pins);
}

/* Tells the tables whether a table miss goes to the controllers: whether
 * some connection with controller id 0 speaks OpenFlow 1.0-1.2 or has not
 * negotiated yet (a configured controller counts even while it is not
 * connected), as Open vSwitch decides. */
static void
update_miss_to_controller(struct connmgr *mgr)
{
    bool wanted = false;

    for (size_t i = 0; i < mgr->n_ctls && !wanted; i++) {
        const struct ofcontroller *ctl = mgr->ctls[i];
        wanted = !ctl->passive && (!ctl->ofconn || !ctl->ofconn->connected);
    }
    for (size_t i = 0; i < mgr->n_conns && !wanted; i++) {
        const struct ofconn *ofconn = mgr->conns[i];
        wanted = (!ofconn->controller_id
                  && (!ofconn->connected
                      || vconn_get_version(ofconn->vconn) < OFP13_VERSION));
    }
    ofproto_set_miss_to_controller(mgr->ofproto, wanted);
}

/* ------------------------------------------------------------------------
 * Bundles (OpenFlow 1.4, and ONF's extension for 1.3), as Open vSwitch 3.1
 * carries them out.  A message added to a bundle is decoded and checked
 * as far as it can be without the tables (errors then go back at once);
 * at the commit, the flow_mods and group_mods are applied in order inside
 * an ofproto transaction and the port_mods checked: the first failure
 * sends its error (quoting the bundle add message), undoes every change
 * and fails the commit with OFPBFC_MSG_FAILED.  Only a commit that
 * succeeds applies the port_mods and sends the packet-outs, in order, and
 * reports the flows it removed.  Port_mods are not atomic: an atomic
 * bundle with one fails.  Ordered bundles are carried out in order like
 * any other.
 * ------------------------------------------------------------------------ */

static enum ofperr bundle_check_msg(struct ofconn *, enum ofptype,
                                    const struct ofp_header *);
static enum ofperr bundle_commit(struct ofconn *, uint32_t id,
                                 uint16_t flags);
static enum ofperr bundle_start_msg(struct ofconn *, const struct bundle_msg *,
                                    uint16_t flags);
static void bundle_finish_msg(struct ofconn *, const struct bundle_msg *);

static enum ofperr
handle_bundle_control(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_bundle_ctrl bc;
    enum ofperr error = ofputil_decode_bundle_ctrl(oh, &bc);
    uint16_t reply;

    if (error) {
        return error;
    }
    switch (bc.type) {
    case OFPBCT_OPEN_REQUEST:
        error = bundles_open(&ofconn->bundles, bc.bundle_id, bc.flags);
        reply = OFPBCT_OPEN_REPLY;
        break;
    case OFPBCT_CLOSE_REQUEST:
        error = bundles_close(&ofconn->bundles, bc.bundle_id, bc.flags);
        reply = OFPBCT_CLOSE_REPLY;
        break;
    case OFPBCT_COMMIT_REQUEST:
        error = bundle_commit(ofconn, bc.bundle_id, bc.flags);
        reply = OFPBCT_COMMIT_REPLY;
        break;
    case OFPBCT_DISCARD_REQUEST:
        error = bundles_discard(&ofconn->bundles, bc.bundle_id);
        reply = OFPBCT_DISCARD_REPLY;
        break;
    case OFPBCT_OPEN_REPLY:
    case OFPBCT_CLOSE_REPLY:
    case OFPBCT_COMMIT_REPLY:
    case OFPBCT_DISCARD_REPLY:
        return OFPERR_OFPBFC_BAD_TYPE;
    default:
        /* Open vSwitch 3.1 answers a type it does not know, doing
         * nothing, with a reply of type 0. */
        reply = 0;
        break;
    }
    if (!error) {
        ofconn_send(ofconn, ofputil_encode_bundle_ctrl_reply(oh, reply));
    }
    return error;
}

static enum ofperr
handle_bundle_add(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_bundle_add add;
    enum ofptype type;
    enum ofperr error = ofputil_decode_bundle_add(oh, &add, &type);

    if (!error) {
        error = bundle_check_msg(ofconn, type, add.msg);
    }
    if (!error) {
        error = bundles_add(&ofconn->bundles, add.bundle_id, add.flags, type,
                            oh);
    }
    return error;
}

/* Decodes 'msg', of 'type', to be added to a bundle, with the checks that
 * need no table. */
static enum ofperr
bundle_check_msg(struct ofconn *ofconn, enum ofptype type,
                 const struct ofp_header *msg)
{
    struct ofpbuf ofpacts;
    enum ofperr error;

    ofpbuf_init(&ofpacts, 64);
    if (type == OFPTYPE_FLOW_MOD) {
        struct ofputil_flow_mod fm;
        error = flow_mod_decode(ofconn, msg, &fm, &ofpacts);
        if (!error && (fm.command == OFPFC_ADD || fm.command == OFPFC_MODIFY
                       || fm.command == OFPFC_MODIFY_STRICT)) {
            error = check_instructions(ofconn->mgr->ofproto, fm.ofpacts,
                                       fm.ofpacts_len,
                                       (fm.table_id == OFPTT_ALL ? 0
                                        : fm.table_id), false);
        }
    } else if (type == OFPTYPE_GROUP_MOD) {
        struct ofputil_group_mod gm;
        error = ofputil_decode_group_mod(msg, &gm);
        if (!error) {
            ofputil_group_mod_uninit(&gm);
        }
    } else if (type == OFPTYPE_PORT_MOD) {
        struct ofputil_port_mod pm;
        error = ofputil_decode_port_mod(msg, &pm);
    } else {
        struct ofputil_packet_out po;
        error = packet_out_decode(msg, &po, &ofpacts);
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

/* Commits bundle 'id' of 'ofconn' (see the section's comment); the bundle
 * is gone afterward, whatever the outcome. */
static enum ofperr
bundle_commit(struct ofconn *ofconn, uint32_t id, uint16_t flags)
{
    struct ofproto *ofproto = ofconn->mgr->ofproto;
    struct bundle *bundle = bundles_take(&ofconn->bundles, id);
    enum ofperr error = 0;
    size_t i;

    if (!bundle) {
        return OFPERR_OFPBFC_BAD_ID;
    }
    if (bundle->flags != flags) {
        bundle_free(bundle);
        return OFPERR_OFPBFC_BAD_FLAGS;
    }

    ofproto_txn_begin(ofproto);
    for (i = 0; i < bundle->n_msgs; i++) {
        error = bundle_start_msg(ofconn, &bundle->msgs[i], flags);
        if (error) {
            break;
        }
    }
    if (error) {
        ofproto_txn_abort(ofproto);
        ofconn_send_error(ofconn, error, bundle->msgs[i].add);
        error = OFPERR_OFPBFC_MSG_FAILED;
    } else {
        ofproto_txn_commit(ofproto);
        for (i = 0; i < bundle->n_msgs; i++) {
            bundle_finish_msg(ofconn, &bundle->msgs[i]);
        }
    }
    bundle_free(bundle);
    return error;
}

/* The first phase of committing 'msg', inside the ofproto transaction:
 * flow_mods and group_mods are carried out, port_mods checked. */
static enum ofperr
bundle_start_msg(struct ofconn *ofconn, const struct bundle_msg *msg,
                 uint16_t flags)
{
    const struct ofp_header *oh = bundle_msg_inner(msg);
    struct ofpbuf ofpacts;
    enum ofperr error = 0;

    ofpbuf_init(&ofpacts, 64);
    if (msg->type == OFPTYPE_FLOW_MOD) {
        struct ofputil_flow_mod fm;
        error = flow_mod_decode(ofconn, oh, &fm, &ofpacts);
        if (!error) {
            error = flow_mod_apply(ofconn, &fm);
        }
    } else if (msg->type == OFPTYPE_GROUP_MOD) {
        error = handle_group_mod(ofconn, oh);
    } else if (msg->type == OFPTYPE_PORT_MOD) {
        struct ofputil_port_mod pm;
        error = (flags & OFPBF_ATOMIC ? OFPERR_OFPBFC_MSG_FAILED
                 : ofputil_decode_port_mod(oh, &pm));
        if (!error) {
            error = port_mod_start(ofconn, &pm);
        }
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

/* The last phase of committing 'msg', once the tables have their new
 * contents: port_mods are applied, packet-outs sent. */
static void
bundle_finish_msg(struct ofconn *ofconn, const struct bundle_msg *msg)
{
    const struct ofp_header *oh = bundle_msg_inner(msg);
    struct connmgr *mgr = ofconn->mgr;

    if (msg->type == OFPTYPE_PORT_MOD) {
        struct ofputil_port_mod pm;
        if (!ofputil_decode_port_mod(oh, &pm)) {
            port_mod_finish(ofconn, oh, &pm);
        }
    } else if (msg->type == OFPTYPE_PACKET_OUT) {
        struct ofputil_packet_out po;
        struct ofpbuf ofpacts;

        ofpbuf_init(&ofpacts, 64);
        if (!packet_out_decode(oh, &po, &ofpacts)) {
            mgr->hooks->packet_out(mgr->aux, &po);
        }
        ofpbuf_uninit(&ofpacts);
    }
}

/* ------------------------------------------------------------------------
 * Port status.
 * ------------------------------------------------------------------------ */

static bool
phy_port_equal(const struct ofputil_phy_port *a,
               const struct ofputil_phy_port *b)
{
    return (a->port_no == b->port_no
            && !memcmp(&a->hw_addr, &b->hw_addr, sizeof a->hw_addr)
            && !strncmp(a->name, b->name, sizeof a->name)
            && a->config == b->config && a->state == b->state
            && a->curr == b->curr && a->advertised == b->advertised
            && a->supported == b->supported && a->peer == b->peer
            && a->curr_speed == b->curr_speed
            && a->max_speed == b->max_speed);
}

/* Sends port status 'reason' for 'pp' to every connection that asked for
 * it, except 'source' (the connection whose port_mod made the change)
 * before OpenFlow 1.5, as Open vSwitch does.  For a modification, 'old' is
 * the port as it was. */
static void
send_port_status(struct connmgr *mgr, const struct ofconn *source,
                 const struct ofputil_phy_port *old,
                 const struct ofputil_phy_port *pp, uint8_t reason)
{
    for (size_t i = 0; i < mgr->n_conns; i++) {
        struct ofconn *ofconn = mgr->conns[i];
        int version = vconn_get_version(ofconn->vconn);

        if (version < 0 || !ofconn_wants_async(ofconn, OAM_PORT_STATUS,
                                               reason)
            || (ofconn == source && version < OFP15_VERSION)) {
            continue;
        }
        if (old) {
            /* Nothing this version shows changed (OFPPS_LIVE, in 1.0). */
            struct ofputil_phy_port a = port_for_version(old, version);
            struct ofputil_phy_port b = port_for_version(pp, version);
            if (phy_port_equal(&a, &b)) {
                continue;
            }
        }

        enum ofpraw raw = (version == OFP10_VERSION
                           ? OFPRAW_OFPT10_PORT_STATUS
                           : version == OFP13_VERSION
                           ? OFPRAW_OFPT13_PORT_STATUS
                           : OFPRAW_OFPT14_PORT_STATUS);
        struct ofpbuf *b = ofpraw_alloc(raw, version, 0, 0);
        uint8_t *p = ofpbuf_put_zeros(b, 8);
        p[0] = reason;
        put_port(b, version, pp);
        ofpmsg_update_length(b);
        ofconn_send(ofconn, b);
    }
}

static const struct connmgr_port *
find_port(const struct connmgr_port *ports, size_t n, ofp_port_t port_no)
{
    for (size_t i = 0; i < n; i++) {
        if (ports[i].pp.port_no == port_no) {
            return &ports[i];
        }
    }
    return NULL;
}

/* Reads the bridge's ports and reports what changed since the last time:
 * deleted, then added or modified ports.
 *
 * OFPPS_LIVE, as Open vSwitch sets it and reports it in OpenFlow 1.1+: a
 * new port is added without it and gains it at the next update (which this
 * one schedules), with a port status of its own; a live port whose link
 * goes down first loses it (a port status of its own), then gets its new
 * state; a port whose link comes back is live at once. */
static void
update_ports(struct connmgr *mgr, const struct ofconn *source)
{
    struct connmgr_port *ports;
    size_t n = mgr->hooks->get_ports(mgr->aux, &ports);

    mgr->ports_changed = false;
    for (size_t i = 0; i < mgr->n_ports; i++) {
        const struct connmgr_port *old = &mgr->ports[i];
        if (!find_port(ports, n, old->pp.port_no)) {
            send_port_status(mgr, source, NULL, &old->pp, OFPPR_DELETE);
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct ofputil_phy_port *pp = &ports[i].pp;
        const struct connmgr_port *old = find_port(mgr->ports, mgr->n_ports,
                                                   pp->port_no);
        bool up = !(pp->state & (OFPPS_LINK_DOWN | OFPPS_BLOCKED));

        pp->state &= ~OFPPS_LIVE;
        if (up && old) {
            pp->state |= OFPPS_LIVE;
        } else if (up) {
            mgr->ports_changed = true;
            mgr->more_work = true;
        } else if (old && old->pp.state & OFPPS_LIVE) {
            struct ofputil_phy_port dead = old->pp;
            dead.state &= ~OFPPS_LIVE;
            send_port_status(mgr, source, &old->pp, &dead, OFPPR_MODIFY);
            if (!phy_port_equal(&dead, pp)) {
                send_port_status(mgr, source, &dead, pp, OFPPR_MODIFY);
            }
            continue;
        }
        if (!old) {
            send_port_status(mgr, source, NULL, pp, OFPPR_ADD);
        } else if (!phy_port_equal(&old->pp, pp)) {
            send_port_status(mgr, source, &old->pp, pp, OFPPR_MODIFY);
        }
    }
    free(mgr->ports);
    mgr->ports = ports;
    mgr->n_ports = n;
}

/* ------------------------------------------------------------------------
 * Controllers and fail mode.
 * ------------------------------------------------------------------------ */

static void
ofcontroller_destroy(struct ofcontroller *ctl)
{
    if (ctl->ofconn) {
        ofconn_destroy(ctl->ofconn);
    }
    pvconn_close(ctl->pvconn);
    reconnect_destroy(ctl->rc);
    free(ctl->target);
    free(ctl);
}

/* Whether a message of 'type' from a controller shows that it has taken
 * charge (Open vSwitch's "admitted"): anything but the messages of the
 * handshake. */
static bool
is_admitted_type(uint8_t type)
{
    enum { HELLO, ERROR, ECHO_REQUEST, ECHO_REPLY, EXPERIMENTER,
           FEATURES_REQUEST, FEATURES_REPLY, GET_CONFIG_REQUEST,
           GET_CONFIG_REPLY, SET_CONFIG };

    return type > SET_CONFIG || type == EXPERIMENTER;
}

/* 'ctl''s connection received 'oh'. */
static void
ofcontroller_heard(struct ofcontroller *ctl, const struct ofp_header *oh)
{
    long long now = time_msec();

    reconnect_activity(ctl->rc, now);
    if (is_admitted_type(oh->type)) {
        ctl->admitted = true;
        ctl->last_admitted = now;
    }
}

/* Starts a connection to active controller 'ctl'. */
static void
ofcontroller_connect(struct ofcontroller *ctl, long long now)
{
    struct connmgr *mgr = ctl->mgr;
    struct vconn *vconn;

    int error = vconn_open(ctl->target, mgr->versions, &vconn);
    if (error) {
        reconnect_connect_failed(ctl->rc, now, error);
        ctl->last_error = error;
        mgr->status_seqno++;
        return;
    }
    reconnect_connecting(ctl->rc, now);

    struct ofconn *ofconn = ofconn_create(mgr, vconn);
    free(ofconn->name);
    ofconn->name = xstrdup(reconnect_get_name(ctl->rc));
    ofconn->ctl = ctl;
    ofconn->miss_send_len = 128;        /* OFP_DEFAULT_MISS_SEND_LEN. */
    ctl->ofconn = ofconn;
    ctl->admitted = false;
    mgr->status_seqno++;
}

static void
ofcontroller_run(struct ofcontroller *ctl, long long now)
{
    struct connmgr *mgr = ctl->mgr;

    if (ctl->passive) {
        if (!ctl->pvconn && now >= ctl->next_listen) {
            int error = pvconn_open(ctl->target, mgr->versions,
                                    &ctl->pvconn);
            if (error) {
                VLOG_WARN_RL(&rl, "%s: %s: listen failed (%s)", mgr->name,
                             ctl->target, util_strerror(error));
                ctl->pvconn = NULL;
                ctl->next_listen = now + LISTEN_RETRY_MSEC;
            }
        }
        for (int i = 0; ctl->pvconn && i < MAX_ACCEPTS_PER_RUN; i++) {
            struct vconn *vconn;
            int error = pvconn_accept(ctl->pvconn, &vconn);

            if (error) {
                if (error != EAGAIN) {
                    VLOG_WARN_RL(&rl, "%s: accept failed (%s)", ctl->target,
                                 util_strerror(error));
                }
                break;
            }
            ofconn_create(mgr, vconn);
            if (i == MAX_ACCEPTS_PER_RUN - 1) {
                mgr->more_work = true;
            }
        }
        return;
    }

    switch (reconnect_run(ctl->rc, now)) {
    case RECONNECT_CONNECT:
        if (!ctl->ofconn) {
            ofcontroller_connect(ctl, now);
        }
        break;
    case RECONNECT_DISCONNECT:
        if (ctl->ofconn) {
            ctl->ofconn->error = ctl->ofconn->connected ? 0 : ETIMEDOUT;
            ofconn_destroy(ctl->ofconn);
        } else {
            reconnect_disconnected(ctl->rc, now, 0);
        }
        break;
    case RECONNECT_PROBE:
        if (ctl->ofconn && ctl->ofconn->connected) {
            struct ofpbuf *echo = ofpraw_alloc(OFPRAW_OFPT_ECHO_REQUEST,
                                               vconn_get_version(
                                                   ctl->ofconn->vconn), 0,
                                               0);
            ofconn_send(ctl->ofconn, echo);
        }
        break;
    case RECONNECT_NONE:
    default:
        break;
    }
}

static void
ofcontroller_wait(struct ofcontroller *ctl, long long now)
{
    if (ctl->rc) {
        reconnect_wait(ctl->rc, now);
    } else if (ctl->pvconn) {
        pvconn_wait(ctl->pvconn);
    } else {
        poll_timer_wait_until(ctl->next_listen);
    }
}

/* Whether the bridge has primary (active) controllers. */
static bool
has_controllers(const struct connmgr *mgr)
{
    for (size_t i = 0; i < mgr->n_ctls; i++) {
        if (!mgr->ctls[i]->passive) {
            return true;
        }
    }
    return false;
}

/* After a flush: without controllers, fail mode standalone gets the
 * default flow back. */
static void
flushed(struct connmgr *mgr, long long now)
{
    if (!has_controllers(mgr) && !mgr->fail_secure) {
        struct ofpbuf ofpacts;
        struct match match;

        ofpbuf_init(&ofpacts, 0);
        ofpact_put_OUTPUT(&ofpacts)->port = OFPP_NORMAL;
        match_init_catchall(&match);
        ofproto_add_flow(mgr->ofproto, 0, &match, 0, ofpacts.data,
                         ofpacts.size, now);
        ofpbuf_uninit(&ofpacts);
    }
}

/* Seconds since some primary controller was last connected and admitted
 * (0 if one is now), as Open vSwitch measures a failure. */
static long long
failure_duration(const struct connmgr *mgr, long long now)
{
    long long min = LLONG_MAX;

    for (size_t i = 0; i < mgr->n_ctls; i++) {
        const struct ofcontroller *ctl = mgr->ctls[i];

        if (!ctl->passive) {
            bool up = (ctl->ofconn && ctl->ofconn->connected
                       && ctl->admitted);
            min = MIN(min, up ? 0 : (now - ctl->last_admitted) / 1000);
        }
    }
    return min;
}

/* Fail mode standalone with controllers: fails open after three of the
 * longest probe intervals without an admitted controller, and recovers
 * once one is admitted. */
static void
fail_open_run(struct connmgr *mgr, long long now)
{
    if (mgr->fail_secure || !has_controllers(mgr)) {
        return;
    }

    long long trigger = 0;
    for (size_t i = 0; i < mgr->n_ctls; i++) {
        trigger = MAX(trigger, mgr->ctls[i]->probe_interval / 1000 * 3);
    }
    long long failed = failure_duration(mgr, now);
    bool is_open = ofproto_is_fail_open(mgr->ofproto);

    if (failed && failed >= trigger && !is_open) {
        VLOG_WARN("Could not connect to controller (or switch failed "
                  "controller's post-connection admission control policy) "
                  "for %lld seconds, failing open", failed);
        ofproto_flush(mgr->ofproto, now);
        ofproto_set_fail_open(mgr->ofproto, true, now);
    } else if (!failed && is_open) {
        VLOG_WARN("No longer in fail-open mode");
        ofproto_set_fail_open(mgr->ofproto, false, now);
    }
}
