/* NORMAL switching: the forwarding decision of a bridge that has no
 * OpenFlow rules, Open vSwitch's "NORMAL" action.  A learning Ethernet
 * switch with 802.1Q VLANs, per bridge.
 *
 * The upcall interface.  The datapath hands the slow path one packet's flow
 * key (lib/flow.h: in_port is the datapath port number, vlan_tci[0] the
 * outer tag with VLAN_CFI meaning "present"); normal_xlate() returns the
 * datapath actions for it and the megaflow mask: a 'struct flow' whose set
 * bits are exactly the bits of the key the decision read.  Every packet
 * whose key agrees with this one on the mask's bits gets the same actions,
 * until the bridge changes (see "Revalidation").  The datapath installs the
 * megaflow (key & mask, mask, actions) and executes the actions on the
 * packet.  The decision needs no packet bytes, so an OpenFlow layer can
 * later sit in front of it with the same shape: key in, actions and mask
 * out.
 *
 * The decision, in order:
 *   1. The input port must be in the bridge, and not a mirror's output
 *      port (else drop).  A bond's member may refuse the packet
 *      (bond_admit(): a backup member of an active-backup bond, multicast
 *      on a balance-slb bond's inactive member, a balance-slb packet whose
 *      source is learned on another port).
 *   2. The packet's VLAN comes from the input port's mode and the outer
 *      tag (Port vlan_mode, tag, trunks, as ovs-vswitchd.conf.db(5)
 *      describes them); a VLAN the port does not carry means drop.  A tag
 *      with VID 0 only carries a priority.
 *   3. A destination in the reserved ranges that Open vSwitch's
 *      other_config:forward-bpdu lists (01:80:c2:00:00:0x, Cisco and
 *      Extreme control addresses) means drop, unless forward_bpdu is set.
 *   4. Unless the VLAN is in flood_vlans, the source address is learned on
 *      the input port.
 *   5. A multicast or broadcast destination, an unknown one, or any
 *      destination in a flood_vlans VLAN floods the packet to every other
 *      port that carries the VLAN, mirrors' output ports excepted; a
 *      destination learned on another port that carries the VLAN goes
 *      there; one learned on the input port or on a mirror's output port
 *      is dropped.
 *   6. A bond sends on the member bond_choose_output() picks (none: the
 *      bond is left out).  Each output port gets the packet encoded for it: no tag on an
 *      access port or in a native-untagged port's native VLAN, a tag with
 *      the VLAN's VID otherwise; VID 0 goes out untagged unless the port's
 *      priority-tags says otherwise.  The priority (PCP) of a received tag
 *      is kept.  A flood outputs first to the ports that take the packet
 *      as it arrived, then to the others, each group in the order of the
 *      configuration's ports, so that few VLAN actions are needed.
 *
 * The mask always covers in_port, recirc_id, dl_type and the presence bit
 * of the outer tag (as every datapath flow matches them); the outer VID
 * when the VLAN depended on it; the PCP when an action copies it; dl_dst
 * (reserved, multicast and learned checks); dl_src in every VLAN that
 * learns, so that a packet from a new or moved source always reaches the
 * slow path.
 *
 * Revalidation.  normal_bridge_seqno() increases whenever a decision made
 * before could now differ: reconfiguration, and every MAC table change
 * (see mac-learning.h; learning a new address, a move, expiry, eviction,
 * flush).  The datapath revalidates its NORMAL megaflows when it changes;
 * normal_bridge_set_change_cb() reports MAC table changes one by one for a
 * finer-grained revalidation (flows whose dl_dst is the address).
 *
 * Threads.  Each bridge has a mutex; every function here takes it, so any
 * thread (PMD upcalls, the main thread's unixctl and reconfiguration) may
 * call them.  The change callback runs with the mutex held and must not
 * call back into this module.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NORMAL_H
#define NORMAL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bond.h"
#include "compiler.h"
#include "dp-actions.h"
#include "flow.h"
#include "mac-learning.h"

struct bond;
struct ds;
struct normal_bridge;

/* OpenFlow's number for the bridge's local port; fdb/show prints it as
 * "LOCAL". */
#define NORMAL_OFPORT_LOCAL 0xfffe

#define NORMAL_MAX_VLAN 4095

/* The datapath port of "no port": normal_xlate() switches a packet with
 * this in_port (an OpenFlow packet-out from OFPP_NONE or OFPP_CONTROLLER)
 * as received on a port outside the bridge that trunks every VLAN, and
 * learns nothing from it, as Open vSwitch does. */
#define NORMAL_DP_PORT_NONE UINT32_MAX

/* Port vlan_mode.  (dot1q-tunnel is not supported yet.) */
enum normal_vlan_mode {
    NORMAL_VLAN_ACCESS,
    NORMAL_VLAN_TRUNK,
    NORMAL_VLAN_NATIVE_TAGGED,
    NORMAL_VLAN_NATIVE_UNTAGGED,
};

/* Port other_config:priority-tags. */
enum normal_priority_tags {
    NORMAL_PRIORITY_TAGS_NEVER,         /* Default. */
    NORMAL_PRIORITY_TAGS_IF_NONZERO,
    NORMAL_PRIORITY_TAGS_ALWAYS,
};

/* One port of the bridge, as the caller configures it.  normal_bridge_
 * reconfigure() copies what it needs. */
struct normal_port_config {
    uint32_t ofport;            /* OpenFlow port number (fdb/show, fdb/add);
                                 * NORMAL_OFPORT_LOCAL for the local port. */
    uint32_t dp_port;           /* Datapath port: flow in_port, output. */
    enum normal_vlan_mode vlan_mode;
    uint16_t tag;               /* Access VLAN or native VLAN. */
    const uint16_t *trunks;     /* Trunked VLANs; none means all. */
    size_t n_trunks;
    enum normal_priority_tags priority_tags;
    struct bond *bond;          /* NULL, or the port's bond (ofproto/bond.h):
                                 * 'ofport' and 'dp_port' are then one
                                 * member's, the port receives on every
                                 * member and the bond picks the member
                                 * that sends. */
    bool mirror_output;         /* A mirror's output port (ofproto/mirror.h):
                                 * takes no part in switching. */
};

/* The bridge. */
struct normal_bridge_config {
    const struct normal_port_config *ports;     /* Output order. */
    size_t n_ports;
    const uint16_t *flood_vlans;
    size_t n_flood_vlans;
    bool forward_bpdu;                  /* other_config:forward-bpdu. */
    unsigned int mac_aging_time;        /* Seconds; 0 for the default. */
    size_t mac_table_size;              /* 0 for the default. */
};

/* Why normal_xlate() decided what it did (for tests and tracing). */
#define NORMAL_REASONS                                                  \
    NORMAL_REASON(FORWARD, "forwarded to the learned port")             \
    NORMAL_REASON(FLOOD_UNKNOWN, "flooded: unknown destination")        \
    NORMAL_REASON(FLOOD_MULTICAST, "flooded: multicast destination")    \
    NORMAL_REASON(FLOOD_VLAN, "flooded: VLAN in flood_vlans")           \
    NORMAL_REASON(DROP_NO_PORT, "dropped: input port not in bridge")    \
    NORMAL_REASON(DROP_VLAN, "dropped: VLAN not allowed on input port") \
    NORMAL_REASON(DROP_RESERVED, "dropped: reserved destination")       \
    NORMAL_REASON(DROP_SAME_PORT,                                       \
                  "dropped: destination learned on input port")         \
    NORMAL_REASON(DROP_BOND, "dropped: refused by the input bond")      \
    NORMAL_REASON(DROP_MIRROR_INPUT,                                    \
                  "dropped: input port is a mirror output port")        \
    NORMAL_REASON(DROP_MIRROR_LEARNED,                                  \
                  "dropped: learned port is a mirror output port")

enum normal_reason {
#define NORMAL_REASON(ENUM, TEXT) NORMAL_##ENUM,
    NORMAL_REASONS
#undef NORMAL_REASON
};

/* What normal_xlate() returns.  The caller may set 'peek' after
 * normal_xlate_out_init(): the decision is then made without learning (to
 * translate a megaflow again for its statistics). */
struct normal_xlate_out {
    bool peek;                  /* Set by the caller: learn nothing. */
    struct dp_actions actions;  /* Empty: drop. */
    struct flow mask;           /* Megaflow mask. */
    enum normal_reason reason;
    int vlan;                   /* The packet's VLAN, -1 if not found. */
    enum mac_learning_result learn; /* MAC_LEARNING_REFUSED if not learned. */
    struct bond_hits bonds;     /* The balanced bonds' buckets it sent
                                 * through. */

    /* NORMAL_DROP_VLAN: the VLAN the input port refused, and the port's
     * access VLAN (-1 if it is not an access port). */
    int in_vlan;
    int access_vlan;
};

struct normal_bridge *normal_bridge_create(void);
void normal_bridge_destroy(struct normal_bridge *);
int normal_bridge_reconfigure(struct normal_bridge *,
                              const struct normal_bridge_config *);
uint64_t normal_bridge_seqno(struct normal_bridge *);
void normal_bridge_set_change_cb(struct normal_bridge *,
                                 mac_learning_change_cb *, void *aux);

void normal_xlate_out_init(struct normal_xlate_out *);
void normal_xlate_out_destroy(struct normal_xlate_out *);
void normal_xlate(struct normal_bridge *, const struct flow *, long long now,
                  struct normal_xlate_out *);
const char *normal_reason_to_string(enum normal_reason);

/* The VLAN rules of one port, for mirrors (ofproto/mirror.h), which copy
 * packets as NORMAL would send them. */
bool normal_port_vlan(struct normal_bridge *, uint32_t dp_port,
                      dps_be16 tci, uint16_t *vlan);
bool normal_port_encode(struct normal_bridge *, uint32_t dp_port,
                        uint16_t vlan, const struct flow *, dps_be16 tci,
                        struct flow *mask, dps_be16 *out_tci,
                        uint32_t *out_port);
bool normal_port_carries_vlan(struct normal_bridge *, uint32_t dp_port,
                              uint16_t vlan);
bool normal_is_reserved(const struct eth_addr *);

void normal_run(struct normal_bridge *, long long now);
long long normal_next_wakeup(struct normal_bridge *);

/* fdb/show, fdb/flush, fdb/add, fdb/del. */
#define NORMAL_FDB_FLUSH_REPLY "table successfully flushed\n"
void normal_fdb_show(struct normal_bridge *, long long now, struct ds *);
void normal_fdb_flush(struct normal_bridge *);
size_t normal_fdb_get_entries(struct normal_bridge *, long long now,
                              struct mac_learning_entry **);
int normal_fdb_add(struct normal_bridge *, uint32_t ofport, uint16_t vlan,
                   const struct eth_addr *);
bool normal_fdb_del(struct normal_bridge *, uint16_t vlan,
                    const struct eth_addr *);
void normal_fdb_get_stats(struct normal_bridge *,
                          struct mac_learning_stats *, size_t *n_entries,
                          size_t *max_entries);
void normal_fdb_clear_stats(struct normal_bridge *);

char *normal_port_config_from_db(struct normal_port_config *,
                                 const char *vlan_mode, const int64_t *tag,
                                 const int64_t *trunks, size_t n_trunks,
                                 uint16_t *trunks_buf,
                                 const char *priority_tags)
    DPS_WARN_UNUSED_RESULT;
bool normal_vlan_mode_from_string(const char *, bool has_tag,
                                  enum normal_vlan_mode *);
bool normal_priority_tags_from_string(const char *,
                                      enum normal_priority_tags *);

#endif /* normal.h */
