/* dp_emc: a PMD thread's exact-match cache.
 *
 * DP_EMC_ENTRIES entries map a whole flow key (not masked) to the megaflow
 * that matched it.  An entry may sit in one of two places, chosen from the
 * key's hash (its low DP_EMC_SHIFT bits, and the next DP_EMC_SHIFT bits), so
 * a lookup compares at most two entries.  Inserting is probabilistic: with
 * emc-insert-inv-prob N, one miss in N on average is inserted (N = 1: every
 * miss; N = 0: none, the cache is off), so that short flows do not evict the
 * long ones that hit.
 *
 * Each entry holds a reference to its flow.  A flow deleted from the
 * datapath is marked dead; a lookup never returns a dead flow, and
 * dp_emc_sweep() releases the references dead entries hold so the flows can
 * be freed.
 *
 * Threads: one cache per PMD thread, used only by that thread, except
 * dp_emc_set_insert_inv_prob(), which any thread may call.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_EMC_H
#define DP_EMC_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <rte_prefetch.h>
#include "dp-flow.h"
#include "flow.h"

#define DP_EMC_SHIFT 13
#define DP_EMC_ENTRIES (1u << DP_EMC_SHIFT)
#define DP_EMC_MASK (DP_EMC_ENTRIES - 1)

/* Default of other_config:emc-insert-inv-prob. */
#define DP_EMC_DEFAULT_INSERT_INV_PROB 100

struct dp_emc_entry {
    struct dp_flow *flow;               /* NULL: empty. */
    uint32_t hash;
    struct flow_key key;                /* Only the used words are set. */
};

struct dp_emc {
    uint32_t insert_min;                /* Insert if random <= this... */
    bool insert_enabled;                /* ...and this is true. */
    uint32_t random;                    /* xorshift32 state. */
    unsigned int sweep_pos;             /* Next entry dp_emc_sweep() sees. */
    struct dp_emc_entry entries[DP_EMC_ENTRIES];
};

struct dp_emc *dp_emc_create(void);
void dp_emc_destroy(struct dp_emc *);
void dp_emc_set_insert_inv_prob(struct dp_emc *, unsigned int inv_prob);
unsigned int dp_emc_get_insert_inv_prob(const struct dp_emc *);

static inline bool dp_emc_is_enabled(const struct dp_emc *);
static inline void dp_emc_prefetch(const struct dp_emc *, uint32_t hash);
static inline struct dp_flow *dp_emc_lookup(const struct dp_emc *,
                                            const struct flow_key *,
                                            uint32_t hash);
void dp_emc_insert(struct dp_emc *, const struct flow_key *, uint32_t hash,
                   struct dp_flow *);
static inline void dp_emc_probabilistic_insert(struct dp_emc *,
                                               const struct flow_key *,
                                               uint32_t hash,
                                               struct dp_flow *);
size_t dp_emc_sweep(struct dp_emc *, unsigned int n_entries);
void dp_emc_clear(struct dp_emc *);
size_t dp_emc_count(const struct dp_emc *);

/* Inline implementations. */

static inline bool
dp_emc_entry_matches(const struct dp_emc_entry *e, const struct flow_key *key,
                     uint32_t hash)
{
    return (e->flow && e->hash == hash && e->key.map == key->map
            && !memcmp(e->key.words, key->words,
                       flow_key_n_words(key) * sizeof key->words[0]));
}

/* Returns false if emc-insert-inv-prob is 0: nothing is inserted any more,
 * so the datapath skips the lookup too (as Open vSwitch does). */
static inline bool
dp_emc_is_enabled(const struct dp_emc *emc)
{
    return __atomic_load_n(&emc->insert_enabled, __ATOMIC_RELAXED);
}

/* Prefetches the two entries where a key with 'hash' may be: call it for
 * the next packets of a batch while processing the current one. */
static inline void
dp_emc_prefetch(const struct dp_emc *emc, uint32_t hash)
{
    rte_prefetch0(&emc->entries[hash & DP_EMC_MASK]);
    rte_prefetch0(&emc->entries[(hash >> DP_EMC_SHIFT) & DP_EMC_MASK]);
}

/* Returns the live flow cached for exactly 'key' (whose hash is 'hash'), or
 * NULL.  The flow is valid until the caller's next quiescent state. */
static inline struct dp_flow *
dp_emc_lookup(const struct dp_emc *emc, const struct flow_key *key,
              uint32_t hash)
{
    const struct dp_emc_entry *e = &emc->entries[hash & DP_EMC_MASK];

    if (!dp_emc_entry_matches(e, key, hash)) {
        e = &emc->entries[(hash >> DP_EMC_SHIFT) & DP_EMC_MASK];
        if (!dp_emc_entry_matches(e, key, hash)) {
            return NULL;
        }
    }
    return dp_flow_is_dead(e->flow) ? NULL : e->flow;
}

/* After a cache miss that the classifier resolved to 'flow', inserts 'key'
 * -> 'flow' with probability 1/emc-insert-inv-prob. */
static inline void
dp_emc_probabilistic_insert(struct dp_emc *emc, const struct flow_key *key,
                            uint32_t hash, struct dp_flow *flow)
{
    uint32_t x = emc->random;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    emc->random = x;
    if (__atomic_load_n(&emc->insert_enabled, __ATOMIC_RELAXED)
        && x <= __atomic_load_n(&emc->insert_min, __ATOMIC_RELAXED)) {
        dp_emc_insert(emc, key, hash, flow);
    }
}

#endif /* dp-emc.h */
