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
 *     drop
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
};

struct dp_action {
    enum dp_action_type type;
    union {
        uint32_t port;          /* DP_ACTION_OUTPUT. */
        struct {                /* DP_ACTION_PUSH_VLAN. */
            dps_be16 tpid;      /* ETH_TYPE_VLAN or ETH_TYPE_VLAN_8021AD. */
            dps_be16 tci;       /* VID and PCP, with VLAN_CFI set. */
        } vlan;
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
bool dp_actions_equal(const struct dp_actions *, const struct dp_actions *);
void dp_actions_format(const struct dp_actions *, struct ds *);

#endif /* dp-actions.h */
