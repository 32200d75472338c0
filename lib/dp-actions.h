/* Datapath actions: what the slow path tells the datapath to do with the
 * packets of one megaflow.
 *
 * A 'struct dp_actions' is an ordered list, executed left to right on one
 * packet: "output" sends a copy of the packet as it is at that point, VLAN
 * actions change the packet for the actions after them.  An empty list means
 * drop.  The list is what an upcall returns with its megaflow mask; the
 * datapath may translate it into its own executable form once, when it
 * installs the megaflow.
 *
 * dp_actions_format() prints Open vSwitch's datapath action syntax, as
 * "ovs-appctl dpctl/dump-flows" shows it after "actions:":
 *
 *     push_vlan(vid=10,pcp=0),2,pop_vlan,3
 *     set(eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02)),2
 *     set(ipv4(src=10.0.0.1,ttl=63)),set(tcp(dst=80)),2
 *     drop
 *
 * A set-field action writes only the fields it names (Open vSwitch's
 * userspace datapath uses masked sets the same way, and prints only the
 * fields they write), and the TOS only in the bits of its mask, printed
 * "tos=0x10/0xfc" unless they are all of them.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_ACTIONS_H
#define DP_ACTIONS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct ds;

enum dp_action_type {
    DP_ACTION_OUTPUT,           /* Send to datapath port 'port'. */
    DP_ACTION_PUSH_VLAN,        /* Push an outer tag 'tpid', 'tci'. */
    DP_ACTION_POP_VLAN,         /* Remove the outer tag. */
    DP_ACTION_SET_ETH,          /* Write Ethernet addresses. */
    DP_ACTION_SET_IPV4,         /* Write IPv4 addresses, TOS, TTL. */
    DP_ACTION_SET_L4,           /* Write TCP, UDP or SCTP ports. */
    DP_ACTION_USERSPACE,        /* A copy to the slow path: see below. */
};

/* DP_ACTION_USERSPACE is Open vSwitch's "userspace(pid=0,controller(...))":
 * a copy of the packet, as the actions before it left it, goes to the slow
 * path's userspace callback (dp_execute_set_userspace_cb()), which makes a
 * packet-in of it; the actions after it go on.  'recirc_id' names what the
 * slow path froze for the packet-in (table, cookie, metadata, registers,
 * userdata: ofproto_freeze_packet_in()); the other members are what Open
 * vSwitch's action cookie shows.  'dont_send' marks the action as
 * ofproto/trace prints it (the callback sends nothing for it). */

/* Which fields a set-field action writes ('fields' member). */
#define DP_SET_ETH_SRC  0x01
#define DP_SET_ETH_DST  0x02
#define DP_SET_IPV4_SRC 0x01
#define DP_SET_IPV4_DST 0x02
#define DP_SET_IPV4_TOS 0x04
#define DP_SET_IPV4_TTL 0x08
#define DP_SET_L4_SRC   0x01
#define DP_SET_L4_DST   0x02

struct dp_action {
    enum dp_action_type type;
    union {
        uint32_t port;          /* DP_ACTION_OUTPUT. */
        struct {                /* DP_ACTION_PUSH_VLAN. */
            dps_be16 tpid;      /* ETH_TYPE_VLAN or ETH_TYPE_VLAN_8021AD. */
            dps_be16 tci;       /* VID and PCP, with VLAN_CFI set. */
        } vlan;
        struct {                /* DP_ACTION_SET_ETH. */
            struct eth_addr src;
            struct eth_addr dst;
            uint8_t fields;     /* DP_SET_ETH_*. */
        } eth;
        struct {                /* DP_ACTION_SET_IPV4. */
            dps_be32 src;
            dps_be32 dst;
            uint8_t tos;
            uint8_t tos_mask;   /* The TOS bits written (0xff: all). */
            uint8_t ttl;
            uint8_t fields;     /* DP_SET_IPV4_*. */
        } ipv4;
        struct {                /* DP_ACTION_SET_L4. */
            dps_be16 src;
            dps_be16 dst;
            uint8_t proto;      /* IPPROTO_TCP_, _UDP_ or _SCTP_. */
            uint8_t fields;     /* DP_SET_L4_*. */
        } l4;
        struct dp_action_controller {   /* DP_ACTION_USERSPACE. */
            uint32_t recirc_id;
            uint16_t controller_id;
            uint16_t max_len;
            uint8_t reason;     /* Open vSwitch's number for it. */
            bool dont_send;
            uint64_t rule_cookie;
        } controller;
    };
};

struct dp_actions {
    struct dp_action *actions;
    size_t n_actions;
    size_t allocated;
};

#define DP_ACTIONS_INITIALIZER { NULL, 0, 0 }

void dp_actions_init(struct dp_actions *);
void dp_actions_destroy(struct dp_actions *);
void dp_actions_clear(struct dp_actions *);
void dp_actions_put_output(struct dp_actions *, uint32_t port);
void dp_actions_put_push_vlan(struct dp_actions *, dps_be16 tpid,
                              dps_be16 tci);
void dp_actions_put_pop_vlan(struct dp_actions *);
void dp_actions_put_controller(struct dp_actions *,
                               const struct dp_action_controller *);
void dp_actions_put_set_eth(struct dp_actions *, const struct eth_addr *src,
                            const struct eth_addr *dst);
void dp_actions_put_set_ipv4(struct dp_actions *, uint8_t fields,
                             dps_be32 src, dps_be32 dst, uint8_t tos,
                             uint8_t ttl);
void dp_actions_put_set_ipv4_masked(struct dp_actions *, uint8_t fields,
                                    dps_be32 src, dps_be32 dst, uint8_t tos,
                                    uint8_t tos_mask, uint8_t ttl);
void dp_actions_put_set_l4(struct dp_actions *, uint8_t proto,
                           uint8_t fields, dps_be16 src, dps_be16 dst);
bool dp_actions_equal(const struct dp_actions *, const struct dp_actions *);
void dp_actions_format(const struct dp_actions *, struct ds *);

/* Like dp_actions_format(), printing output ports as 'port_name' returns
 * them (NULL: the number), as "dpctl/dump-flows -m" does. */
void dp_actions_format_names(const struct dp_actions *, struct ds *,
                             const char *(*port_name)(void *aux,
                                                      uint32_t port),
                             void *aux);

#endif /* dp-actions.h */
