/* dp_simple: a polling thread's simple-match table.
 *
 * Open vSwitch 2.17+ forwards the packets of a port whose datapath flows
 * are all "simple" (dp_flow_is_simple_match(): they match the input port,
 * the Ethernet type, the outer VLAN tag's VID and CFI bits and the IP
 * fragment bits, nothing else; what a port-to-port "in_port=1,
 * actions=output:2" OpenFlow table gives) by finding the flow from those
 * few fields, without extracting the whole key or looking in the caches or
 * the classifier.  pmd-stats-show counts those packets as "simple match
 * hits".  This is dpswitch's version of it.
 *
 * The datapath tells the table of every flow it installs in or deletes
 * from its thread's classifier (dp_simple_flow_add(), dp_simple_flow_del()).
 * The table counts each input port's flows and publishes, per port, the one
 * mask its flows share, if every flow of the port is simple and they all
 * have the same mask; otherwise 0, and the port's packets take the usual
 * path.  Since the flows of such a port all have the same mask, at most one
 * of them matches a packet, the one the classifier would find.  The
 * simple flows are in a hash table keyed by dp_flow.simple_key.
 *
 * Threads: one table per polling thread.  dp_simple_port_mask() and
 * dp_simple_lookup() are that thread's, an online dp_rcu reader of the
 * domain the table and the flows are freed through; dp_simple_flow_add()
 * and dp_simple_flow_del() may be called by any thread, serialized by the
 * caller (the datapath's flow mutex).  A lookup may miss a flow being added
 * and may find a flow being deleted, which is then marked dead (the caller
 * checks), as with the classifier.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_SIMPLE_H
#define DP_SIMPLE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dp-flow.h"

struct dp_rcu;

/* Ports with numbers up to this one may take the simple path. */
#define DP_SIMPLE_MAX_PORT 0x1ffff

/* A slot whose flow was deleted. */
#define DP_SIMPLE_TOMBSTONE ((struct dp_flow *) (uintptr_t) 1)

struct dp_simple_slot {
    uint64_t key;                       /* dp_flow.simple_key. */
    struct dp_flow *flow;               /* NULL: empty, never used. */
};

/* The hash table: open addressing, linear probing, deleted slots kept as
 * tombstones until the table is rebuilt. */
struct dp_simple_table {
    uint32_t slot_mask;                 /* Number of slots - 1. */
    unsigned int shift;                 /* 64 - log2(number of slots). */
    struct dp_simple_slot slots[];
};

/* What a lookup reads for a port: its flows' mask, or 0. */
struct dp_simple_ports {
    uint32_t n;
    uint32_t masks[];
};

struct dp_simple_port_count;

struct dp_simple {
    /* Read by lookups, RCU-published. */
    struct dp_simple_table *table;
    struct dp_simple_ports *ports;

    /* Writer only. */
    struct dp_rcu *rcu;
    size_t n_live, n_tombstones;
    struct dp_simple_port_count *counts;        /* 'ports->n' of them. */
};

struct dp_simple *dp_simple_create(struct dp_rcu *);
void dp_simple_destroy(struct dp_simple *);
void dp_simple_flow_add(struct dp_simple *, struct dp_flow *);
void dp_simple_flow_del(struct dp_simple *, struct dp_flow *);
static inline uint32_t dp_simple_port_mask(const struct dp_simple *,
                                           uint32_t port_no);
static inline struct dp_flow *dp_simple_lookup(const struct dp_simple *,
                                               uint64_t key);

/* The hash of 'key' in a table of 2**(64 - 'shift') slots. */
static inline uint32_t
dp_simple_hash(uint64_t key, unsigned int shift)
{
    return (key * UINT64_C(0x9e3779b97f4a7c15)) >> shift;
}

/* Returns the mask every flow from port 'port_no' has, if they all are
 * simple-match flows with one mask, or 0: that port's packets must take the
 * usual path. */
static inline uint32_t
dp_simple_port_mask(const struct dp_simple *s, uint32_t port_no)
{
    const struct dp_simple_ports *ports = __atomic_load_n(&s->ports,
                                                          __ATOMIC_ACQUIRE);

    return (port_no < ports->n
            ? __atomic_load_n(&ports->masks[port_no], __ATOMIC_RELAXED)
            : 0);
}

/* Returns the flow whose simple_key is 'key' (in_port << 32, and the
 * packet's flow_simple_pack() ANDed with its port's mask), or NULL.  The
 * flow may be dead (being deleted). */
static inline struct dp_flow *
dp_simple_lookup(const struct dp_simple *s, uint64_t key)
{
    const struct dp_simple_table *t = __atomic_load_n(&s->table,
                                                      __ATOMIC_ACQUIRE);

    for (uint32_t i = dp_simple_hash(key, t->shift), n = 0;
         n <= t->slot_mask; i = (i + 1) & t->slot_mask, n++) {
        const struct dp_simple_slot *slot = &t->slots[i];
        struct dp_flow *f = __atomic_load_n(&slot->flow, __ATOMIC_ACQUIRE);

        if (!f) {
            break;
        }
        /* The slot's key may be newer than the flow read from it (a slot
         * reused meanwhile): the flow's own key decides. */
        if (f != DP_SIMPLE_TOMBSTONE
            && __atomic_load_n(&slot->key, __ATOMIC_RELAXED) == key
            && f->simple_key == key) {
            return f;
        }
    }
    return NULL;
}

#endif /* dp-simple.h */
