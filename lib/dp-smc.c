/* dp_smc: a PMD thread's signature-match cache.  See dp-smc.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-smc.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util.h"

/* Returns a new, empty cache with an empty flow index.  The buckets are
 * 4 MB of zeroes from calloc(), which the kernel gives as untouched pages:
 * a thread that never enables the cache never pays for them. */
struct dp_smc *
dp_smc_create(void)
{
    struct dp_smc *smc = xzalloc(sizeof *smc);
    size_t align = __alignof__(struct dp_smc_bucket);
    struct timespec ts;

    smc->buckets_mem = xcalloc(1, DP_SMC_N_BUCKETS * sizeof *smc->buckets
                                  + align);
    smc->buckets = (void *) (((uintptr_t) smc->buckets_mem + align - 1)
                             & ~(uintptr_t) (align - 1));
    smc->next_index = 1;                /* 0 is DP_SMC_NO_INDEX. */
    clock_gettime(CLOCK_MONOTONIC, &ts);
    smc->random = (uint32_t) (ts.tv_nsec ^ (uintptr_t) smc) | 1;
    return smc;
}

/* Frees 'smc'.  No thread may use it any more. */
void
dp_smc_destroy(struct dp_smc *smc)
{
    if (smc) {
        for (size_t i = 0; i < DP_SMC_N_PAGES; i++) {
            free(smc->pages[i]);
        }
        free(smc->free_indexes);
        free(smc->buckets_mem);
        free(smc);
    }
}

/* Gives 'flow' an index in the flow index of 'smc' and returns it, or
 * DP_SMC_NO_INDEX if the index is full (the flow then never enters the
 * cache).  'flow' must stay valid until a grace period after
 * dp_smc_flow_remove().  Callers serialize with dp_smc_flow_remove(). */
uint32_t
dp_smc_flow_add(struct dp_smc *smc, struct dp_flow *flow)
{
    uint32_t index;

    if (smc->n_free) {
        index = smc->free_indexes[--smc->n_free];
    } else if (smc->next_index < DP_SMC_MAX_FLOWS) {
        index = smc->next_index++;
    } else {
        return DP_SMC_NO_INDEX;
    }

    struct dp_flow ***pagep = &smc->pages[index >> DP_SMC_PAGE_SHIFT];
    struct dp_flow **page = *pagep;
    if (!page) {
        page = xcalloc(DP_SMC_PAGE_SIZE, sizeof *page);
        __atomic_store_n(pagep, page, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&page[index & (DP_SMC_PAGE_SIZE - 1)], flow,
                     __ATOMIC_RELEASE);
    smc->n_flows++;
    return index;
}

/* Takes back 'index' (from dp_smc_flow_add(); DP_SMC_NO_INDEX is ignored):
 * lookups stop finding its flow through it.  Callers serialize with
 * dp_smc_flow_add(). */
void
dp_smc_flow_remove(struct dp_smc *smc, uint32_t index)
{
    if (index == DP_SMC_NO_INDEX) {
        return;
    }

    struct dp_flow **page = smc->pages[index >> DP_SMC_PAGE_SHIFT];
    util_assert(page && page[index & (DP_SMC_PAGE_SIZE - 1)]);
    __atomic_store_n(&page[index & (DP_SMC_PAGE_SIZE - 1)], NULL,
                     __ATOMIC_RELEASE);
    if (smc->n_free >= smc->free_alloc) {
        smc->free_alloc = smc->free_alloc ? 2 * smc->free_alloc : 64;
        smc->free_indexes = xrealloc(smc->free_indexes,
                                     smc->free_alloc
                                     * sizeof *smc->free_indexes);
    }
    smc->free_indexes[smc->n_free++] = index;
    smc->n_flows--;
}

/* Returns the number of flows in the flow index.  Writer side. */
size_t
dp_smc_n_flows(const struct dp_smc *smc)
{
    return smc->n_flows;
}

/* Looks up the 'n' 'keys' (at most DPCLS_MAX_BATCH), whose hashes are
 * 'hashes', as dp_smc_lookup() does, and stores in 'flows'[i] the flow
 * found for 'keys'[i] or NULL.  Returns the number found.  The loads of a
 * batch overlap: every bucket first (the caller may have prefetched them
 * with dp_smc_prefetch()), then every flow index slot, then every flow,
 * each stage prefetching what the next one reads. */
size_t
dp_smc_lookup_batch(const struct dp_smc *smc,
                    const struct flow_key *const keys[],
                    const uint32_t hashes[], size_t n,
                    struct dp_flow *flows[])
{
    uint32_t indexes[DPCLS_MAX_BATCH];
    size_t n_found = 0;

    util_assert(n <= DPCLS_MAX_BATCH);
    for (size_t i = 0; i < n; i++) {
        dp_smc_prefetch(smc, hashes[i]);
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t index = dp_smc_bucket_find(dp_smc_bucket(smc, hashes[i]),
                                            hashes[i]);
        struct dp_flow **page = (index != DP_SMC_NO_INDEX
                                 ? __atomic_load_n(
                                       &smc->pages[index >> DP_SMC_PAGE_SHIFT],
                                       __ATOMIC_ACQUIRE)
                                 : NULL);

        indexes[i] = index;
        if (page) {
            rte_prefetch0(&page[index & (DP_SMC_PAGE_SIZE - 1)]);
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct dp_flow *f = (indexes[i] != DP_SMC_NO_INDEX
                             ? dp_smc_flow_at(smc, indexes[i]) : NULL);

        flows[i] = f;
        if (f) {
            rte_prefetch0(&f->cr);
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct dp_flow *f = flows[i];

        if (f && !dp_flow_is_dead(f) && dpcls_rule_matches(&f->cr, keys[i])) {
            n_found++;
        } else {
            flows[i] = NULL;
        }
    }
    return n_found;
}

/* After a packet with 'hash' was found to belong to the megaflow at
 * 'index' (DP_SMC_NO_INDEX is ignored), makes its bucket name that index
 * under its signature: in place of an entry with the same signature, else
 * in an empty entry, else in place of one chosen at random.  The polling
 * thread only. */
void
dp_smc_insert(struct dp_smc *smc, uint32_t hash, uint32_t index)
{
    struct dp_smc_bucket *b = &smc->buckets[hash & (DP_SMC_N_BUCKETS - 1)];
    uint16_t sig = dp_smc_sig(hash);
    int empty = -1;

    if (index == DP_SMC_NO_INDEX) {
        return;
    }
    for (int w = 0; w < DP_SMC_WAYS; w++) {
        if (b->indexes[w] == DP_SMC_NO_INDEX) {
            if (empty < 0) {
                empty = w;
            }
        } else if (b->sigs[w] == sig) {
            /* One signature, one entry: a packet of another flow with the
             * same signature takes it over. */
            b->indexes[w] = index;
            return;
        }
    }
    if (empty < 0) {
        uint32_t x = smc->random;

        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        smc->random = x;
        empty = x % DP_SMC_WAYS;
    }
    b->sigs[empty] = sig;
    b->indexes[empty] = index;
}

/* Returns the number of entries in use (maybe naming flows gone since). */
size_t
dp_smc_count(const struct dp_smc *smc)
{
    size_t n = 0;

    for (size_t i = 0; i < DP_SMC_N_BUCKETS; i++) {
        for (int w = 0; w < DP_SMC_WAYS; w++) {
            n += smc->buckets[i].indexes[w] != DP_SMC_NO_INDEX;
        }
    }
    return n;
}
