/* Datapath actions.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-actions.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "util.h"

static struct dp_action *dp_actions_append(struct dp_actions *,
                                           enum dp_action_type);

/* Initialises 'acts' as an empty list (drop). */
void
dp_actions_init(struct dp_actions *acts)
{
    acts->actions = NULL;
    acts->n_actions = 0;
    acts->allocated = 0;
}

/* Frees the memory 'acts' owns; it may be initialised again afterwards. */
void
dp_actions_destroy(struct dp_actions *acts)
{
    free(acts->actions);
    dp_actions_init(acts);
}

/* Empties 'acts', keeping its memory for reuse. */
void
dp_actions_clear(struct dp_actions *acts)
{
    acts->n_actions = 0;
}

/* Appends "send the packet, as it is now, to datapath port 'port'". */
void
dp_actions_put_output(struct dp_actions *acts, uint32_t port)
{
    dp_actions_append(acts, DP_ACTION_OUTPUT)->port = port;
}

/* Appends "push an outer VLAN tag with 'tpid' and 'tci'" (network byte
 * order; 'tci' has VLAN_CFI set, which stands for "present" and is not
 * written into the packet). */
void
dp_actions_put_push_vlan(struct dp_actions *acts, dps_be16 tpid,
                         dps_be16 tci)
{
    struct dp_action *a = dp_actions_append(acts, DP_ACTION_PUSH_VLAN);

    a->vlan.tpid = tpid;
    a->vlan.tci = tci;
}

/* Appends "remove the outer VLAN tag". */
void
dp_actions_put_pop_vlan(struct dp_actions *acts)
{
    dp_actions_append(acts, DP_ACTION_POP_VLAN);
}

/* Returns true if 'a' and 'b' hold the same actions in the same order. */
bool
dp_actions_equal(const struct dp_actions *a, const struct dp_actions *b)
{
    if (a->n_actions != b->n_actions) {
        return false;
    }
    for (size_t i = 0; i < a->n_actions; i++) {
        const struct dp_action *x = &a->actions[i];
        const struct dp_action *y = &b->actions[i];

        if (x->type != y->type
            || (x->type == DP_ACTION_OUTPUT && x->port != y->port)
            || (x->type == DP_ACTION_PUSH_VLAN
                && (x->vlan.tpid != y->vlan.tpid
                    || x->vlan.tci != y->vlan.tci))) {
            return false;
        }
    }
    return true;
}

/* Appends to 'ds' the actions in Open vSwitch's datapath syntax: comma
 * separated, an output as its port number, "push_vlan(vid=V,pcp=P)" (with
 * "tpid=0x88a8," first for a service tag, and ",cfi=0" if the tci lacks
 * VLAN_CFI), "pop_vlan"; "drop" for an empty list. */
void
dp_actions_format(const struct dp_actions *acts, struct ds *ds)
{
    if (!acts->n_actions) {
        ds_put_cstr(ds, "drop");
        return;
    }
    for (size_t i = 0; i < acts->n_actions; i++) {
        const struct dp_action *a = &acts->actions[i];

        if (i) {
            ds_put_char(ds, ',');
        }
        switch (a->type) {
        case DP_ACTION_OUTPUT:
            ds_put_format(ds, "%"PRIu32, a->port);
            break;
        case DP_ACTION_PUSH_VLAN: {
            uint16_t tci = ntohs(a->vlan.tci);

            ds_put_cstr(ds, "push_vlan(");
            if (a->vlan.tpid != htons(ETH_TYPE_VLAN)) {
                ds_put_format(ds, "tpid=0x%04x,", ntohs(a->vlan.tpid));
            }
            ds_put_format(ds, "vid=%d,pcp=%d", tci & VLAN_VID_MASK,
                          (tci & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT);
            if (!(tci & VLAN_CFI)) {
                ds_put_cstr(ds, ",cfi=0");
            }
            ds_put_char(ds, ')');
            break;
        }
        case DP_ACTION_POP_VLAN:
            ds_put_cstr(ds, "pop_vlan");
            break;
        }
    }
}

static struct dp_action *
dp_actions_append(struct dp_actions *acts, enum dp_action_type type)
{
    if (acts->n_actions >= acts->allocated) {
        acts->allocated = acts->allocated ? 2 * acts->allocated : 8;
        acts->actions = xrealloc(acts->actions,
                                 acts->allocated * sizeof *acts->actions);
    }

    struct dp_action *a = &acts->actions[acts->n_actions++];
    memset(a, 0, sizeof *a);
    a->type = type;
    return a;
}
