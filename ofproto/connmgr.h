/* connmgr: a bridge's OpenFlow connections and the messages they carry.
 *
 * Each bridge has one connection manager.  It listens on the bridge's
 * management socket, punix:<rundir>/<bridge>.mgmt, as Open vSwitch does
 * (always, whatever the Controller table says; the socket goes away with
 * the bridge), accepts any number of connections there, negotiates the
 * OpenFlow version with each (the versions of Bridge:protocols, see
 * connmgr_set_versions()) and answers their requests:
 *
 *   hello, echo, error       (lib/vconn does the hello exchange; echo
 *                            requests are answered in their own version)
 *   features                 datapath ID, n_buffers 0, 254 tables, the
 *                            capabilities and (OpenFlow 1.0) the ports
 *   get_config, set_config   fragment handling (normal, drop, nx-match;
 *                            reassemble is refused silently, as OVS) and
 *                            the connection's miss_send_len
 *   desc                     manufacturer, hardware, software, serial
 *                            ("None") and DP description (Bridge
 *                            other_config:dp-desc, else "None")
 *   port desc, port stats    from the bridge's ports (connmgr_hooks)
 *   table stats              254 tables
 *   port_mod                 through connmgr_hooks.set_port_config
 *   packet_out               OpenFlow 1.0, through connmgr_hooks.packet_out
 *                            (a buffer id other than OFP_NO_BUFFER is
 *                            OFPBRC_BUFFER_UNKNOWN: there are no buffers)
 *   barrier                  every earlier request is done by then
 *   Nicira set_flow_format, set_packet_in_format, flow_mod_table_id,
 *   set_async_config, set_controller_id
 *   group_mod                ofproto_group_mod() (lib/ofp-group.h decodes)
 *   group stats, desc,       the bridge's groups; Open vSwitch's features
 *   features
 *
 * and any other message with the error Open vSwitch 3.1 gives for it:
 * OFPBRC_BAD_VERSION for a version other than the negotiated one,
 * OFPBRC_BAD_TYPE/BAD_STAT/BAD_VENDOR/BAD_SUBTYPE/BAD_LEN for what the
 * decoder does not know or finds malformed (lib/ofp-msgs.h), and
 * OFPBRC_BAD_TYPE for messages this switch does not implement yet.  A
 * message whose header lies about its length ends the connection (lib/vconn
 * cannot find the next message); nothing else does.
 *
 * Asynchronous messages (packet-ins, port status, flow_removed) follow
 * Open vSwitch's rules: a service connection (the management socket, a
 * passive target) gets none until it sets a nonzero miss_send_len
 * (OFPT_SET_CONFIG) or sends a set_async message; then each connection
 * gets what the masks of its role say (lib/ofp-async.h: the version's
 * defaults until OFPT_SET_ASYNC, NXT_SET_ASYNC_CONFIG or
 * NXT_SET_ASYNC_CONFIG2 change them; OFPT_GET_ASYNC_REQUEST reports them).
 * Packet-ins come from translation (ofproto_take_packet_ins()), each to
 * the connections with the controller id it names, in the connection's
 * version and packet-in format (lib/ofp-packet.h); table misses only to
 * OpenFlow 1.0-1.2 connections (connmgr_run() tells the tables whether
 * there are any: ofproto_set_miss_to_controller()).
 *
 * Threads: main thread only.  Non-blocking: connmgr_run() does what is
 * ready and connmgr_wait() arranges the wake-ups.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef CONNMGR_H
#define CONNMGR_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-port.h"

struct smap;

struct connmgr;
struct ofproto;
struct ofputil_packet_out;

/* A port as the bridge describes it.  'pp.config' holds OFPPC_* in
 * OpenFlow 1.0 positions (PORT_DOWN mirrors the interface's administrative
 * state), 'pp.state' OFPPS_LINK_DOWN when the link is down; the
 * connection manager adds OFPPS_LIVE for OpenFlow 1.1+ and drops what a
 * version cannot express. */
struct connmgr_port {
    struct ofputil_phy_port pp;
    long long created;          /* time_msec() when the port was added. */
};

/* Port counters, UINT64_MAX for those the port does not keep. */
struct connmgr_port_stats {
    uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
    uint64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
    uint64_t rx_frame_err, rx_over_err, rx_crc_err, collisions;
};

/* What the connection manager asks of its bridge.  Each is called on the
 * main thread from within connmgr_run(), with 'aux' as given to
 * connmgr_create(). */
struct connmgr_hooks {
    /* Returns the datapath ID, 0 if there is none yet. */
    uint64_t (*get_datapath_id)(void *aux);

    /* Stores the bridge's ports in a malloc()ed array in '*portsp' (the
     * local port first, then the others by port number), returns how
     * many. */
    size_t (*get_ports)(void *aux, struct connmgr_port **portsp);

    /* Fills '*stats' for port 'port_no'; returns false if there is no such
     * port. */
    bool (*get_port_stats)(void *aux, ofp_port_t port_no,
                           struct connmgr_port_stats *stats);

    /* Makes 'config' (OFPPC_* in OpenFlow 1.0 positions) port 'port_no''s
     * configuration: PORT_DOWN turns the interface down, the other bits are
     * kept for forwarding decisions. */
    void (*set_port_config)(void *aux, ofp_port_t port_no, uint32_t config);

    /* Runs packet-out 'po' (decoded, its in_port one a packet may come
     * from, no buffer id): translates its actions for its packet and sends
     * the packet where they say.  'po' and what it points to belong to the
     * caller.  Returns 0 or the error to send back. */
    enum ofperr (*packet_out)(void *aux, const struct ofputil_packet_out *);
};

/* Fragment handling (OFPC_FRAG_*). */
enum connmgr_frag_handling {
    CONNMGR_FRAG_NORMAL = 0,    /* Fragments pass; no L4 ports. */
    CONNMGR_FRAG_DROP = 1,      /* Fragments are dropped. */
    CONNMGR_FRAG_REASSEMBLE = 2,        /* Not supported (as in OVS). */
    CONNMGR_FRAG_NX_MATCH = 3,  /* ip_frag can be matched. */
};

struct connmgr *connmgr_create(struct ofproto *, const char *bridge_name,
                               const struct connmgr_hooks *, void *aux);
void connmgr_destroy(struct connmgr *);

/* Bridge settings.  connmgr_set_versions() takes a bitmap of OpenFlow
 * versions (1 << OFP1x_VERSION), 0 for the default (OpenFlow 1.0 and
 * 1.3-1.5); versions this switch does not speak are ignored.  Changing
 * them reopens the management socket and closes its connections, as Open
 * vSwitch does.  connmgr_set_dp_desc() takes NULL for "None". */
void connmgr_set_versions(struct connmgr *, uint32_t versions);
uint32_t connmgr_get_versions(const struct connmgr *);
void connmgr_set_dp_desc(struct connmgr *, const char *dp_desc);
enum connmgr_frag_handling connmgr_get_frag_handling(const struct connmgr *);

/* The bridge's controllers: the rows of its Controller table.  An active
 * target ("tcp:", "unix:", "ssl:") is connected to, and connected again
 * after a failure with back-off doubling from 1 s up to 'max_backoff'
 * milliseconds; the connection is probed with an echo request after
 * 'probe_interval' milliseconds of silence (0: never) and dropped after a
 * second silent interval.  Such a connection is a primary controller:
 * miss_send_len 128 and every asynchronous message, as Open vSwitch's.  A
 * passive target ("ptcp:", "punix:", "pssl:") listens; what connects
 * there is a service connection, as on the management socket ("punix:"
 * only under <rundir>/<bridge>.*, as Open vSwitch requires).
 *
 * Whenever the bridge goes from no primary controller to some, or back,
 * every flow is deleted; without controllers, fail mode standalone then
 * adds "priority=0 actions=NORMAL" to table 0 (connmgr_set_fail_mode()
 * does the same when the mode changes while there is no controller).  With
 * controllers in standalone mode, once none has been connected (and has
 * sent something besides hello, echo, features and config messages) for
 * three times the longest probe interval, the bridge "fails open": every
 * flow is deleted and ofproto's hidden fail-open rule sends every packet
 * to NORMAL until a controller is back. */
struct connmgr_controller {
    const char *target;
    int max_backoff;            /* Milliseconds. */
    int probe_interval;         /* Milliseconds, 0 for none. */
};
void connmgr_set_controllers(struct connmgr *,
                             const struct connmgr_controller *, size_t n);
void connmgr_set_fail_mode(struct connmgr *, bool secure);

/* What Open vSwitch writes in the Controller row of 'target': whether it
 * is connected, its role ("master", "slave", "other" or NULL) and its
 * status (state, last_error, sec_since_connect, sec_since_disconnect).
 * Returns false if 'target' has nothing to report (a passive target, or
 * one not configured).  connmgr_status_seqno() changes whenever any of
 * these may have. */
bool connmgr_get_controller_status(const struct connmgr *,
                                   const char *target, bool *is_connected,
                                   const char **role, struct smap *status);
unsigned int connmgr_status_seqno(const struct connmgr *);

/* The bridge's ports may have changed: the next connmgr_run() compares
 * them with what it last reported and sends port status messages. */
void connmgr_ports_changed(struct connmgr *);

/* Does the work that is ready: accepts connections, answers requests,
 * sends queued output, drops closed connections. */
void connmgr_run(struct connmgr *);
void connmgr_wait(struct connmgr *);

/* For tests and ovs-appctl: the management socket's name and the number
 * of open connections. */
const char *connmgr_get_mgmt_name(const struct connmgr *);
size_t connmgr_n_connections(const struct connmgr *);

/* "ovs-appctl bridge/reconnect": makes every active controller connection
 * drop and connect again at once (not waiting out its back-off). */
void connmgr_reconnect(struct connmgr *, long long now);

#endif /* connmgr.h */
