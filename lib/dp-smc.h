/* dp_smc: a PMD thread's signature-match cache.
 *
 * The second-level cache between the exact-match cache (8192 whole keys)
 * and the megaflow classifier, for other_config:smc-enable=true: far more
 * entries in the same few megabytes, because an entry is only a 16-bit
 * signature of the packet's hash and the 32-bit index of a megaflow in the
 * thread's flow index (DP_SMC_WAYS of them in a 32-byte bucket chosen by
 * the hash's low bits).  A lookup compares the signatures of one bucket,
 * then checks the key against the megaflow each matching entry names (its
 * mask and masked key, dpcls_rule_matches()): a signature is no proof, so a
 * collision costs a comparison, never a wrong flow.  A hit skips the
 * classifier's walk over its subtables, which is what grows with the number
 * of flows once the EMC no longer holds them.
 *
 * The flow index maps an index to one of the thread's megaflows; the
 * datapath gives each megaflow an index when it installs it
 * (dp_smc_flow_add()) and takes it back when it deletes it
 * (dp_smc_flow_remove()), so an entry never points at freed memory: an
 * entry whose index was freed finds NULL, one whose index was reused finds
 * another megaflow, which the key check accepts only if it matches (and
 * megaflows do not overlap, so it is then the right one).  Entries hold no
 * reference and are never cleaned up; they are overwritten.
 *
 * Threads: one cache per polling thread.  dp_smc_lookup() and
 * dp_smc_insert() are the polling thread's, which must be an online dp_rcu
 * reader of the domain the flows are freed through; dp_smc_flow_add() and
 * dp_smc_flow_remove() may be called by any thread, serialized by the
 * caller (the datapath's flow mutex).  The index is published with release
 * stores and read with acquire loads, so a lookup sees a whole flow.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_SMC_H
#define DP_SMC_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rte_prefetch.h>
#include "dp-flow.h"
#include "dpcls.h"
#include "flow.h"

#define DP_SMC_WAYS 5                   /* Entries per 32-byte bucket. */
#define DP_SMC_BUCKET_SHIFT 17
#define DP_SMC_N_BUCKETS (1u << DP_SMC_BUCKET_SHIFT)
#define DP_SMC_ENTRIES (DP_SMC_N_BUCKETS * DP_SMC_WAYS)    /* 655360 */

/* The flow index: up to DP_SMC_MAX_FLOWS - 1 megaflows per thread (index 0
 * is never used: it marks an empty entry), in pages allocated as needed. */
#define DP_SMC_PAGE_SHIFT 12
#define DP_SMC_PAGE_SIZE (1u << DP_SMC_PAGE_SHIFT)
#define DP_SMC_N_PAGES 1024
#define DP_SMC_MAX_FLOWS (DP_SMC_N_PAGES * DP_SMC_PAGE_SIZE)
#define DP_SMC_NO_INDEX 0

struct dp_smc_bucket {
    uint16_t sigs[DP_SMC_WAYS];
    uint16_t pad;
    uint32_t indexes[DP_SMC_WAYS];      /* DP_SMC_NO_INDEX: empty. */
} __attribute__((aligned(32)));

struct dp_smc {
    struct dp_smc_bucket *buckets;      /* DP_SMC_N_BUCKETS. */
    void *buckets_mem;                  /* What to free. */
    uint32_t random;                    /* xorshift32: eviction. */

    /* The flow index: pages published with release stores. */
    struct dp_flow **pages[DP_SMC_N_PAGES];

    /* Writer only. */
    uint32_t *free_indexes;             /* Indexes given back. */
    size_t n_free, free_alloc;
    uint32_t next_index;                /* Never used yet, from here. */
    size_t n_flows;
};

struct dp_smc *dp_smc_create(void);
void dp_smc_destroy(struct dp_smc *);

uint32_t dp_smc_flow_add(struct dp_smc *, struct dp_flow *);
void dp_smc_flow_remove(struct dp_smc *, uint32_t index);
size_t dp_smc_n_flows(const struct dp_smc *);

static inline void dp_smc_prefetch(const struct dp_smc *, uint32_t hash);
static inline struct dp_flow *dp_smc_lookup(const struct dp_smc *,
                                            const struct flow_key *,
                                            uint32_t hash);
size_t dp_smc_lookup_batch(const struct dp_smc *,
                           const struct flow_key *const keys[],
                           const uint32_t hashes[], size_t n,
                           struct dp_flow *flows[]);
void dp_smc_insert(struct dp_smc *, uint32_t hash, uint32_t index);
size_t dp_smc_count(const struct dp_smc *);

/* Inline implementations. */

static inline const struct dp_smc_bucket *
dp_smc_bucket(const struct dp_smc *smc, uint32_t hash)
{
    return &smc->buckets[hash & (DP_SMC_N_BUCKETS - 1)];
}

/* The signature of 'hash': its high bits, apart from the bucket's. */
static inline uint16_t
dp_smc_sig(uint32_t hash)
{
    return hash >> 16;
}

/* Returns the flow at 'index' in the flow index, or NULL. */
static inline struct dp_flow *
dp_smc_flow_at(const struct dp_smc *smc, uint32_t index)
{
    struct dp_flow **page
        = __atomic_load_n(&smc->pages[index >> DP_SMC_PAGE_SHIFT],
                          __ATOMIC_ACQUIRE);

    return (page
            ? __atomic_load_n(&page[index & (DP_SMC_PAGE_SIZE - 1)],
                              __ATOMIC_ACQUIRE)
            : NULL);
}

/* Prefetches the bucket where a key with 'hash' may be: call it for the
 * next packets of a batch while processing the current one. */
static inline void
dp_smc_prefetch(const struct dp_smc *smc, uint32_t hash)
{
    rte_prefetch0(dp_smc_bucket(smc, hash));
}

/* Returns the index that the entry for 'hash' in 'b' names, or
 * DP_SMC_NO_INDEX. */
static inline uint32_t
dp_smc_bucket_find(const struct dp_smc_bucket *b, uint32_t hash)
{
    uint16_t sig = dp_smc_sig(hash);

    /* dp_smc_insert() keeps one entry per signature in a bucket. */
    for (int w = 0; w < DP_SMC_WAYS; w++) {
        if (b->sigs[w] == sig && b->indexes[w] != DP_SMC_NO_INDEX) {
            return b->indexes[w];
        }
    }
    return DP_SMC_NO_INDEX;
}

/* Returns the live megaflow that matches 'key' (whose hash is 'hash') among
 * those the entries of its bucket with its signature name, or NULL.  The
 * flow is valid until the caller's next quiescent state. */
static inline struct dp_flow *
dp_smc_lookup(const struct dp_smc *smc, const struct flow_key *key,
              uint32_t hash)
{
    uint32_t index = dp_smc_bucket_find(dp_smc_bucket(smc, hash), hash);
    struct dp_flow *f = (index != DP_SMC_NO_INDEX
                         ? dp_smc_flow_at(smc, index) : NULL);

    return (f && !dp_flow_is_dead(f) && dpcls_rule_matches(&f->cr, key)
            ? f : NULL);
}

#endif /* dp-smc.h */
