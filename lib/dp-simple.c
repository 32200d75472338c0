/* dp_simple: a polling thread's simple-match table.  See dp-simple.h.
 *
 * Per port, the writer counts the port's flows and, among its simple flows,
 * those of up to DP_SIMPLE_N_MASKS different masks (each flow remembers in
 * dp_flow.simple_slot where it was counted).  A port is published with a
 * mask when all its flows were counted under that one mask.  Two slots are
 * enough for the usual change of a port's flows from one mask to another
 * (old flows going while new ones come); a flow with a third mask counts
 * as a flow that is not simple.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-simple.h"
#include <stdlib.h>
#include <string.h>
#include "dp-rcu.h"
#include "util.h"

#define DP_SIMPLE_N_MASKS 2
#define DP_SIMPLE_SLOT_OTHER DP_SIMPLE_N_MASKS  /* Not simple, or no slot. */
#define DP_SIMPLE_MIN_SLOTS 16

struct dp_simple_port_count {
    uint32_t n_flows;
    uint32_t masks[DP_SIMPLE_N_MASKS];
    uint32_t n_masked[DP_SIMPLE_N_MASKS];
};

static struct dp_simple_table *dp_simple_table_alloc(size_t n_slots);
static void dp_simple_table_put(struct dp_simple_table *, struct dp_flow *);
static void dp_simple_rebuild(struct dp_simple *, size_t n_slots);
static struct dp_simple_ports *dp_simple_ports_alloc(uint32_t n);
static void dp_simple_grow_ports(struct dp_simple *, uint32_t port_no);
static void dp_simple_publish_port(struct dp_simple *, uint32_t port_no);

/* Returns a new, empty table whose old versions are freed through 'rcu'. */
struct dp_simple *
dp_simple_create(struct dp_rcu *rcu)
{
    struct dp_simple *s = xzalloc(sizeof *s);

    s->rcu = rcu;
    s->table = dp_simple_table_alloc(DP_SIMPLE_MIN_SLOTS);
    s->ports = dp_simple_ports_alloc(0);
    return s;
}

/* Frees 's' at once: no reader may use it any more.  The flows are the
 * caller's. */
void
dp_simple_destroy(struct dp_simple *s)
{
    if (s) {
        free(s->table);
        free(s->ports);
        free(s->counts);
        free(s);
    }
}

/* Counts 'flow', just installed in the thread's classifier, in its input
 * port's flows, and makes lookups find it if it is a simple-match flow. */
void
dp_simple_flow_add(struct dp_simple *s, struct dp_flow *flow)
{
    uint32_t port_no = flow->simple_key >> 32;

    flow->simple_slot = DP_SIMPLE_SLOT_OTHER;
    if (port_no > DP_SIMPLE_MAX_PORT) {
        return;
    }
    dp_simple_grow_ports(s, port_no);

    struct dp_simple_port_count *c = &s->counts[port_no];
    c->n_flows++;
    if (flow->simple_mask) {
        int free_slot = -1;

        for (int i = 0; i < DP_SIMPLE_N_MASKS; i++) {
            if (c->n_masked[i] && c->masks[i] == flow->simple_mask) {
                flow->simple_slot = i;
                break;
            }
            if (!c->n_masked[i] && free_slot < 0) {
                free_slot = i;
            }
        }
        if (flow->simple_slot == DP_SIMPLE_SLOT_OTHER && free_slot >= 0) {
            flow->simple_slot = free_slot;
            c->masks[free_slot] = flow->simple_mask;
        }
        if (flow->simple_slot != DP_SIMPLE_SLOT_OTHER) {
            c->n_masked[flow->simple_slot]++;
            if (2 * (s->n_live + s->n_tombstones + 1)
                > (size_t) s->table->slot_mask + 1) {
                dp_simple_rebuild(s, 4 * (s->n_live + 1));
            }
            dp_simple_table_put(s->table, flow);
            s->n_live++;
        }
    }
    dp_simple_publish_port(s, port_no);
}

/* Undoes dp_simple_flow_add() for 'flow', being deleted from the thread's
 * classifier (before it is marked dead). */
void
dp_simple_flow_del(struct dp_simple *s, struct dp_flow *flow)
{
    uint32_t port_no = flow->simple_key >> 32;

    if (port_no > DP_SIMPLE_MAX_PORT || port_no >= s->ports->n) {
        return;
    }

    struct dp_simple_port_count *c = &s->counts[port_no];
    c->n_flows--;
    if (flow->simple_slot != DP_SIMPLE_SLOT_OTHER) {
        struct dp_simple_table *t = s->table;

        c->n_masked[flow->simple_slot]--;
        for (uint32_t i = dp_simple_hash(flow->simple_key, t->shift), n = 0;
             n <= t->slot_mask; i = (i + 1) & t->slot_mask, n++) {
            struct dp_simple_slot *slot = &t->slots[i];

            if (!slot->flow) {
                break;
            }
            if (slot->flow == flow) {
                __atomic_store_n(&slot->flow, DP_SIMPLE_TOMBSTONE,
                                 __ATOMIC_RELEASE);
                s->n_live--;
                s->n_tombstones++;
                break;
            }
        }
    }
    dp_simple_publish_port(s, port_no);
}

/* Static helpers. */

static struct dp_simple_table *
dp_simple_table_alloc(size_t n_slots)
{
    struct dp_simple_table *t = xzalloc(sizeof *t
                                        + n_slots * sizeof t->slots[0]);

    t->slot_mask = n_slots - 1;
    t->shift = 64 - __builtin_ctzll(n_slots);
    return t;
}

/* Puts 'flow' in the first free slot (empty or a tombstone) of its probe
 * sequence: the key first, then the flow with a release store. */
static void
dp_simple_table_put(struct dp_simple_table *t, struct dp_flow *flow)
{
    for (uint32_t i = dp_simple_hash(flow->simple_key, t->shift);;
         i = (i + 1) & t->slot_mask) {
        struct dp_simple_slot *slot = &t->slots[i];

        if (!slot->flow || slot->flow == DP_SIMPLE_TOMBSTONE) {
            __atomic_store_n(&slot->key, flow->simple_key, __ATOMIC_RELAXED);
            __atomic_store_n(&slot->flow, flow, __ATOMIC_RELEASE);
            return;
        }
    }
}

/* Publishes a table of at least 'n_slots' slots (a power of 2) with the
 * live flows of the current one, which readers may go on using until their
 * next quiescent state. */
static void
dp_simple_rebuild(struct dp_simple *s, size_t n_slots)
{
    struct dp_simple_table *old = s->table;
    size_t n = DP_SIMPLE_MIN_SLOTS;

    while (n < n_slots) {
        n *= 2;
    }

    struct dp_simple_table *t = dp_simple_table_alloc(n);
    for (uint32_t i = 0; i <= old->slot_mask; i++) {
        struct dp_flow *f = old->slots[i].flow;

        if (f && f != DP_SIMPLE_TOMBSTONE) {
            dp_simple_table_put(t, f);
        }
    }
    __atomic_store_n(&s->table, t, __ATOMIC_RELEASE);
    s->n_tombstones = 0;
    dp_rcu_postpone(s->rcu, free, old);
}

static struct dp_simple_ports *
dp_simple_ports_alloc(uint32_t n)
{
    struct dp_simple_ports *p = xzalloc(sizeof *p + n * sizeof p->masks[0]);

    p->n = n;
    return p;
}

/* Makes room for 'port_no' in the per-port arrays. */
static void
dp_simple_grow_ports(struct dp_simple *s, uint32_t port_no)
{
    struct dp_simple_ports *old = s->ports;

    if (port_no < old->n) {
        return;
    }

    uint32_t n = MAX(16, old->n);
    while (n <= port_no) {
        n *= 2;
    }
    struct dp_simple_ports *p = dp_simple_ports_alloc(n);
    memcpy(p->masks, old->masks, old->n * sizeof old->masks[0]);
    s->counts = xrealloc(s->counts, n * sizeof *s->counts);
    memset(&s->counts[old->n], 0, (n - old->n) * sizeof *s->counts);
    __atomic_store_n(&s->ports, p, __ATOMIC_RELEASE);
    dp_rcu_postpone(s->rcu, free, old);
}

/* Publishes the mask of 'port_no': the one mask of its flows if they are
 * all simple and counted under it, otherwise 0. */
static void
dp_simple_publish_port(struct dp_simple *s, uint32_t port_no)
{
    const struct dp_simple_port_count *c = &s->counts[port_no];
    uint32_t mask = 0;

    for (int i = 0; i < DP_SIMPLE_N_MASKS; i++) {
        if (c->n_flows && c->n_masked[i] == c->n_flows) {
            mask = c->masks[i];
        }
    }
    __atomic_store_n(&s->ports->masks[port_no], mask, __ATOMIC_RELAXED);
}
