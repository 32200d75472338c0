/* dp_emc: a PMD thread's exact-match cache.  See dp-emc.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-emc.h"
#include <stdlib.h>
#include <time.h>
#include "util.h"

static void dp_emc_entry_clear(struct dp_emc_entry *);

/* Returns a new, empty cache with the default insertion probability. */
struct dp_emc *
dp_emc_create(void)
{
    /* aligned_alloc() wants a multiple of the alignment. */
    size_t size = (sizeof(struct dp_emc) + 63) & ~(size_t) 63;
    struct dp_emc *emc = aligned_alloc(64, size);
    struct timespec ts;

    util_assert(emc);
    memset(emc, 0, sizeof *emc);
    dp_emc_set_insert_inv_prob(emc, DP_EMC_DEFAULT_INSERT_INV_PROB);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    emc->random = (uint32_t) (ts.tv_nsec ^ (uintptr_t) emc) | 1;
    return emc;
}

/* Releases every flow 'emc' references and frees it. */
void
dp_emc_destroy(struct dp_emc *emc)
{
    if (emc) {
        dp_emc_clear(emc);
        free(emc);
    }
}

/* Sets the insertion probability to 1/'inv_prob' (other_config:
 * emc-insert-inv-prob): 0 disables insertion, 1 inserts every miss.  Any
 * thread may call it. */
void
dp_emc_set_insert_inv_prob(struct dp_emc *emc, unsigned int inv_prob)
{
    __atomic_store_n(&emc->insert_min,
                     inv_prob ? UINT32_MAX / inv_prob : 0, __ATOMIC_RELAXED);
    __atomic_store_n(&emc->insert_enabled, inv_prob != 0, __ATOMIC_RELAXED);
}

/* Returns the emc-insert-inv-prob in effect (0: insertion disabled). */
unsigned int
dp_emc_get_insert_inv_prob(const struct dp_emc *emc)
{
    uint32_t min = __atomic_load_n(&emc->insert_min, __ATOMIC_RELAXED);

    if (!__atomic_load_n(&emc->insert_enabled, __ATOMIC_RELAXED)) {
        return 0;
    }
    return min ? UINT32_MAX / min : UINT32_MAX;
}

/* Caches 'key' (whose hash is 'hash') -> 'flow', unless 'flow' is dead or
 * already being freed.  Replaces the entry for the same key if there is one,
 * else takes an empty or dead place of the two, else evicts one of the two
 * (the one with the smaller hash: as good as random, and no state). */
void
dp_emc_insert(struct dp_emc *emc, const struct flow_key *key, uint32_t hash,
              struct dp_flow *flow)
{
    struct dp_emc_entry *a = &emc->entries[hash & DP_EMC_MASK];
    struct dp_emc_entry *b = &emc->entries[(hash >> DP_EMC_SHIFT)
                                           & DP_EMC_MASK];
    struct dp_emc_entry *victim = (dp_emc_entry_matches(a, key, hash) ? a
                                   : dp_emc_entry_matches(b, key, hash) ? b
                                   : NULL);

    if (victim) {
        if (victim->flow == flow) {
            return;             /* Already there. */
        }
    } else if (!a->flow || dp_flow_is_dead(a->flow)) {
        victim = a;
    } else if (!b->flow || dp_flow_is_dead(b->flow)) {
        victim = b;
    } else {
        victim = a->hash < b->hash ? a : b;
    }

    if (dp_flow_is_dead(flow) || !dp_flow_try_ref(flow)) {
        return;
    }
    dp_emc_entry_clear(victim);
    victim->flow = flow;
    victim->hash = hash;
    victim->key.map = key->map;
    memcpy(victim->key.words, key->words,
           flow_key_n_words(key) * sizeof key->words[0]);
}

/* Looks at the next 'n_entries' entries of 'emc' (round robin) and empties
 * those whose flow is dead, releasing their references.  The PMD calls it a
 * few entries at a time so that deleted flows get freed.  Returns the number
 * emptied. */
size_t
dp_emc_sweep(struct dp_emc *emc, unsigned int n_entries)
{
    size_t n = 0;

    for (unsigned int i = 0; i < n_entries; i++) {
        struct dp_emc_entry *e = &emc->entries[emc->sweep_pos];

        emc->sweep_pos = (emc->sweep_pos + 1) & DP_EMC_MASK;
        if (e->flow && dp_flow_is_dead(e->flow)) {
            dp_emc_entry_clear(e);
            n++;
        }
    }
    return n;
}

/* Empties 'emc', releasing every reference it holds. */
void
dp_emc_clear(struct dp_emc *emc)
{
    for (size_t i = 0; i < DP_EMC_ENTRIES; i++) {
        dp_emc_entry_clear(&emc->entries[i]);
    }
}

/* Returns the number of entries in use (live or dead). */
size_t
dp_emc_count(const struct dp_emc *emc)
{
    size_t n = 0;

    for (size_t i = 0; i < DP_EMC_ENTRIES; i++) {
        n += emc->entries[i].flow != NULL;
    }
    return n;
}

static void
dp_emc_entry_clear(struct dp_emc_entry *e)
{
    if (e->flow) {
        dp_flow_unref(e->flow);
        e->flow = NULL;
    }
}
