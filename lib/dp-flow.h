/* dp_flow: a megaflow, as the datapath installs it.
 *
 * A megaflow is a masked key (the packets it matches), the actions the slow
 * path chose for them, a UFID naming it, statistics and, when the flow is
 * offloaded, the mark the NIC puts on its packets.  In the datapath each PMD
 * thread owns its own copy of each megaflow it uses (as in Open vSwitch), so
 * one thread writes the statistics and they need no atomic read-modify-write;
 * a dump sums the copies of all PMDs.
 *
 * Lifetime.  A flow is reference-counted; dp_flow_create() returns one
 * reference, for the datapath's flow table.  Each exact-match cache entry
 * takes its own (dp_flow_try_ref()).  To delete a flow, the datapath removes
 * it from its classifier, marks it dead (dp_flow_mark_dead(): caches treat it
 * as absent from then on) and drops its reference; when the last reference
 * goes, the memory is freed after an RCU grace period, because a lookup may
 * still hold a pointer to it without a reference.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_FLOW_H
#define DP_FLOW_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "dpcls.h"
#include "flow.h"

struct dp_rcu;

/* A 128-bit unique flow identifier, as in "ufid:" of dpctl/dump-flows. */
struct dp_ufid {
    uint32_t u32[4];
};

/* Size of the text form "ufid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", with
 * the null. */
#define DP_UFID_STRLEN 42

/* No hardware offload mark. */
#define DP_FLOW_MARK_NONE UINT32_MAX

/* Actions, opaque to this module: the datapath defines their encoding.
 * Replaced as a whole (RCU), never changed in place. */
struct dp_flow_actions {
    size_t size;
    uint8_t data[];
};

/* Statistics. */
struct dp_flow_stats {
    uint64_t n_packets;
    uint64_t n_bytes;
    long long int used;         /* Last use, in the caller's time unit. */
    uint16_t tcp_flags;         /* TCP flags seen, ORed. */
};

struct dp_flow {
    /* Fast path: the classifier rule first, then what a hit reads. */
    struct dpcls_rule cr;               /* In a dpcls. */
    bool dead;                          /* Deleted: caches ignore it. */
    uint32_t simple_mask;               /* Simple match (constant): the
                                         * flow_simple_pack() of its mask, 0
                                         * if it is not a simple flow. */
    uint64_t simple_key;                /* in_port << 32 | the packed masked
                                         * key, or in_port << 32 alone if
                                         * not simple (constant). */
    uint32_t mark;                      /* Offload mark, or none. */
    struct dp_flow *mark_next;          /* Other PMDs' copies that share
                                         * the mark (RCU list, written by
                                         * the offload thread). */
    const void *owner;                  /* The datapath's: which thread's
                                         * copy this is (set before it is
                                         * published, then constant). */
    struct dp_flow_actions *actions;    /* RCU-published. */
    struct dp_flow_stats stats;         /* Written by the owning PMD. */
    void *batch;                        /* The owner's scratch: its packets'
                                         * batch in the burst it is
                                         * grouping, NULL between bursts. */

    /* Control path. */
    struct dp_ufid ufid;
    struct flow_key key;                /* Masked: key & mask. */
    struct flow_key mask;
    uint32_t refcount;
    struct dp_rcu *rcu;
    void *aux;                          /* The datapath's, e.g. its PMD. */
    uint8_t simple_slot;                /* lib/dp-simple.c's, writer only. */
};

struct dp_flow *dp_flow_create(struct dp_rcu *, const struct flow_key *key,
                               const struct flow_key *mask,
                               const void *actions, size_t actions_size,
                               const struct dp_ufid *);
void dp_flow_ref(struct dp_flow *);
bool dp_flow_try_ref(struct dp_flow *);
void dp_flow_unref(struct dp_flow *);

bool dp_flow_is_simple_match(const struct flow_key *key,
                             const struct flow_key *mask,
                             uint64_t *simple_key, uint32_t *simple_mask);

void dp_flow_mark_dead(struct dp_flow *);
static inline bool dp_flow_is_dead(const struct dp_flow *);

static inline const struct dp_flow_actions *
dp_flow_get_actions(const struct dp_flow *);
void dp_flow_set_actions(struct dp_flow *, const void *actions, size_t size);
static inline bool dp_flow_actions_equal(const struct dp_flow_actions *,
                                         const struct dp_flow_actions *);

static inline void dp_flow_used(struct dp_flow *, uint32_t n_packets,
                                uint32_t n_bytes, uint16_t tcp_flags,
                                long long int now);
void dp_flow_get_stats(const struct dp_flow *, struct dp_flow_stats *);
void dp_flow_clear_stats(struct dp_flow *);

static inline uint32_t dp_flow_get_mark(const struct dp_flow *);
void dp_flow_set_mark(struct dp_flow *, uint32_t mark);

void dp_flow_ufid_from_key(const struct flow_key *masked_key,
                           struct dp_ufid *);
bool dp_flow_ufid_equal(const struct dp_ufid *, const struct dp_ufid *);
void dp_flow_ufid_format(const struct dp_ufid *, char s[DP_UFID_STRLEN]);
int dp_flow_ufid_parse(const char *s, struct dp_ufid *);

/* Returns true if 'flow' was deleted: a cache that finds it must act as if
 * it had not. */
static inline bool
dp_flow_is_dead(const struct dp_flow *flow)
{
    return __atomic_load_n(&flow->dead, __ATOMIC_ACQUIRE);
}

/* Returns the actions of 'flow', valid until the caller's next quiescent
 * state. */
static inline const struct dp_flow_actions *
dp_flow_get_actions(const struct dp_flow *flow)
{
    return __atomic_load_n(&flow->actions, __ATOMIC_ACQUIRE);
}

/* Returns true if 'a' and 'b' are the same actions, byte for byte: they
 * do the same to any packet. */
static inline bool
dp_flow_actions_equal(const struct dp_flow_actions *a,
                      const struct dp_flow_actions *b)
{
    return a == b || (a->size == b->size && !memcmp(a->data, b->data,
                                                    a->size));
}

/* Accounts 'n_packets' packets of 'n_bytes' bytes in all, with TCP flags
 * 'tcp_flags', to 'flow' at time 'now'.  Only the thread that owns 'flow'
 * (its PMD) may call it: plain stores, no read-modify-write. */
static inline void
dp_flow_used(struct dp_flow *flow, uint32_t n_packets, uint32_t n_bytes,
             uint16_t tcp_flags, long long int now)
{
    struct dp_flow_stats *s = &flow->stats;

    __atomic_store_n(&s->n_packets, s->n_packets + n_packets,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&s->n_bytes, s->n_bytes + n_bytes, __ATOMIC_RELAXED);
    __atomic_store_n(&s->used, now, __ATOMIC_RELAXED);
    __atomic_store_n(&s->tcp_flags, s->tcp_flags | tcp_flags,
                     __ATOMIC_RELAXED);
}

/* Returns the hardware offload mark of 'flow' or DP_FLOW_MARK_NONE. */
static inline uint32_t
dp_flow_get_mark(const struct dp_flow *flow)
{
    return __atomic_load_n(&flow->mark, __ATOMIC_ACQUIRE);
}

#endif /* dp-flow.h */
