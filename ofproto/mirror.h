/* Port mirroring: a bridge's Mirror rows, as ovs-vswitchd.conf.db(5)
 * describes them, and the decisions the translation makes for them.
 *
 * A mirror selects packets by the port they enter on ('src_ports'), the
 * ports they leave on ('dst_ports'), or both (select_all gives every port
 * as both), and optionally by VLAN ('vlans').  It sends a copy of each
 * selected packet either out of one port ('out_port', which then takes no
 * part in forwarding: NORMAL neither floods to it nor sends anything it
 * received anywhere, and the translation drops what arrives on it) or to
 * every port that carries VLAN 'out_vlan' (except the mirrors' output
 * ports), each copy encoded as NORMAL switching sends that VLAN on that
 * port (ofproto/normal.h).
 *
 * The copies are datapath actions inside the translation
 * (ofproto/ofproto-xlate.c), so they belong to the megaflow like any other
 * output:
 *
 *   - when the packet enters, before the OpenFlow tables, the mirrors that
 *     select its input port copy it as it arrived;
 *   - each time an output action (OpenFlow output, FLOOD, ALL, IN_PORT, or
 *     one of NORMAL's outputs) sends it out of a port, the mirrors that
 *     select that port copy it as it left, right after that output.
 *
 * The packet's VLAN is the one the selecting port gives it (its access
 * VLAN, or the VID of its tag on a trunk); a port that does not carry the
 * packet's VLAN selects nothing.  A packet reaches each destination once:
 * mirrors with the same output port or output VLAN count as one, and a
 * mirror that copied a packet does not copy it again (Open vSwitch 3.1's
 * rules).  An output_vlan mirror copies nothing of a packet that is
 * already in that VLAN or goes to a reserved multicast address (see
 * normal_is_reserved()).
 *
 * Statistics.  'tx_packets' and 'tx_bytes' count the packets a mirror
 * copied, with their size as received (as Open vSwitch counts them); the
 * datapath's flow counts reach them through mirror_set_credit(), for the
 * mirrors the translation of each megaflow used.
 *
 * Threads.  The set is read during translation, on any thread, while the
 * caller keeps it from changing (the bridge holds its upcall lock);
 * mirror_set_reconfigure() and mirror_set_credit() run on the main thread
 * with the readers kept out (reconfiguration) or with no reader of the
 * counters (credit).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef MIRROR_H
#define MIRROR_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"

struct normal_bridge;

/* At most this many mirrors per bridge, as in Open vSwitch. */
#define MIRROR_MAX 32

/* A set of mirrors of one bridge: bit i is the mirror of index i. */
typedef uint32_t mirror_mask_t;

/* A datapath port number that is no port (an output port not in the
 * datapath). */
#define MIRROR_PORT_NONE UINT32_MAX

/* One mirror, as the bridge configures it.  mirror_set_reconfigure()
 * copies what it needs. */
struct mirror_config {
    uint64_t id;                /* Identity across reconfigurations (the
                                 * statistics stay with it). */
    const char *name;           /* For the log. */
    const uint32_t *src_ports;  /* Datapath ports, arriving packets. */
    size_t n_src_ports;
    const uint32_t *dst_ports;  /* Datapath ports, departing packets. */
    size_t n_dst_ports;
    const uint16_t *vlans;      /* Selected VLANs; none means all. */
    size_t n_vlans;
    bool has_out_port;          /* Output to 'out_port', else 'out_vlan'. */
    uint32_t out_port;          /* Datapath port, or MIRROR_PORT_NONE. */
    const char *out_port_name;  /* For the log. */
    uint16_t out_vlan;          /* 1 to 4095. */
};

/* What the translation does with a copy: send the packet out of datapath
 * port 'dp_port', encoded as NORMAL sends packets of 'vlan' there. */
typedef void mirror_output_cb(void *aux, uint32_t dp_port, uint16_t vlan);

struct mirror_set *mirror_set_create(void);
void mirror_set_destroy(struct mirror_set *);
bool mirror_set_reconfigure(struct mirror_set *,
                            const struct mirror_config *, size_t n,
                            const uint32_t *ports, size_t n_ports);
bool mirror_set_is_empty(const struct mirror_set *);

mirror_mask_t mirror_set_src_mirrors(const struct mirror_set *,
                                     uint32_t dp_port);
mirror_mask_t mirror_set_dst_mirrors(const struct mirror_set *,
                                     uint32_t dp_port);
const char *mirror_set_output_name(const struct mirror_set *,
                                   uint32_t dp_port);
mirror_mask_t mirror_set_copy(const struct mirror_set *,
                              struct normal_bridge *, mirror_mask_t mirrors,
                              uint16_t vlan, const struct flow *,
                              struct flow *mask, mirror_mask_t *done,
                              mirror_output_cb *, void *aux);

void mirror_set_credit(struct mirror_set *, mirror_mask_t,
                       uint64_t n_packets, uint64_t n_bytes);
bool mirror_set_get_stats(const struct mirror_set *, uint64_t id,
                          uint64_t *n_packets, uint64_t *n_bytes);

#endif /* mirror.h */
