/* dpcls: the datapath's megaflow classifier.  See dpcls.h.
 *
 * Each subtable's hash table is an array of buckets of DPCLS_SLOTS slots.  A
 * rule lives in one of two buckets chosen by its hash, whichever had more
 * free slots when it was inserted, so a lookup probes at most two buckets.
 * When both are full the table is rebuilt at twice the size and the new one
 * published; readers keep using the old one until their next quiescent
 * state.  A slot is a 32-bit hash and a rule pointer.  The writer fills the
 * hash first and publishes the pointer with release order; a reader matches
 * hashes, then loads the pointer with acquire order and compares the masked
 * words, so a torn view at worst misses a rule being inserted or removed at
 * that moment.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dpcls.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_prefetch.h>
#ifdef __SSE4_2__
#include <nmmintrin.h>
#endif
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "dp-rcu.h"
#include "util.h"

#define DPCLS_SLOTS 8    /* dpcls_bucket_match() compares 8 at once. */

/* The writer stores one slot's hash at a time (32 bits); a reader loads
 * them two at a time, through 'hash_pairs', with 64-bit relaxed atomic
 * loads: four plain loads on x86 and ARM, no data race, and no store to a
 * local copy that the SIMD compare would have to reload (a store-forwarding
 * stall on every bucket probe). */
struct dpcls_bucket {
    union {
        uint32_t hashes[DPCLS_SLOTS];
        uint64_t hash_pairs[DPCLS_SLOTS / 2];
    };
    struct dpcls_rule *rules[DPCLS_SLOTS];
};

struct dpcls_table {
    uint32_t bucket_mask;               /* Number of buckets - 1. */
    struct dpcls_bucket buckets[];
};

struct dpcls_subtable {
    /* Read by lookups. */
    struct dpcls_table *table;          /* RCU-published. */
    unsigned int n_words;               /* popcount(mask.map). */
    uint64_t mask_bits[FLOW_N_WORDS];   /* 1 << index of each mask word. */
    uint64_t mask_words[FLOW_N_WORDS];  /* The mask's words. */

    /* Written by lookups (relaxed, the owning PMD only, so exact). */
    uint64_t hits;

    /* Writer only. */
    struct flow_key mask;
    size_t n_rules;
};

struct dpcls_vector {
    size_t n;
    struct dpcls_subtable *subtables[];
};

static struct dpcls_subtable *dpcls_find_subtable(const struct dpcls *,
                                                  const struct flow_key *);
static struct dpcls_subtable *dpcls_create_subtable(struct dpcls *,
                                                    const struct flow_key *);
static void dpcls_publish_vector(struct dpcls *, struct dpcls_vector *);
static struct dpcls_vector *dpcls_vector_alloc(size_t n);
static void dpcls_subtable_free(void *);
static struct dpcls_table *dpcls_table_alloc(uint32_t n_buckets);
static bool dpcls_table_add(struct dpcls_table *, struct dpcls_rule *);
static struct dpcls_rule *dpcls_table_find(const struct dpcls_table *,
                                           uint32_t hash,
                                           const uint64_t *words,
                                           unsigned int n_words);
static void dpcls_mask_key(const struct dpcls_subtable *,
                           const struct flow_key *, uint64_t *words);
static uint32_t dpcls_hash_words(const uint64_t *words, unsigned int n);
static uint32_t dpcls_other_bucket(uint32_t hash);
static uint32_t dpcls_bucket_match(const struct dpcls_bucket *,
                                   uint32_t hash);
static struct dpcls_rule *dpcls_bucket_candidate(const struct dpcls_bucket *,
                                                 uint32_t hash);

/* Initializes 'cls' as an empty classifier whose old versions of internal
 * structures are freed through 'rcu'. */
void
dpcls_init(struct dpcls *cls, struct dp_rcu *rcu)
{
    cls->vector = dpcls_vector_alloc(0);
    cls->rcu = rcu;
    cls->n_rules = 0;
}

/* Frees what 'cls' allocated, at once: no reader may use 'cls' any more.
 * Rules still in it are forgotten, not freed (they belong to the caller). */
void
dpcls_destroy(struct dpcls *cls)
{
    if (!cls->vector) {
        return;
    }
    for (size_t i = 0; i < cls->vector->n; i++) {
        dpcls_subtable_free(cls->vector->subtables[i]);
    }
    free(cls->vector);
    cls->vector = NULL;
    cls->n_rules = 0;
}

/* Inserts 'rule', which matches the packets whose key equals 'key' in every
 * bit of 'mask', into 'cls'.  'rule' must stay valid until a grace period
 * after its dpcls_remove().  Returns 0, or EEXIST if 'cls' already has a
 * rule with this mask and masked key ('rule' is then not inserted). */
int
dpcls_insert(struct dpcls *cls, struct dpcls_rule *rule,
             const struct flow_key *key, const struct flow_key *mask)
{
    struct dpcls_subtable *st = dpcls_find_subtable(cls, mask);
    bool created = false;

    if (!st) {
        st = dpcls_create_subtable(cls, mask);
        created = true;
    }

    rule->subtable = st;
    rule->n_words = st->n_words;
    memset(rule->words, 0, sizeof rule->words);
    dpcls_mask_key(st, key, rule->words);
    rule->hash = dpcls_hash_words(rule->words, st->n_words);

    if (!created && dpcls_table_find(st->table, rule->hash, rule->words,
                                     st->n_words)) {
        rule->subtable = NULL;
        return EEXIST;
    }

    if (!dpcls_table_add(st->table, rule)) {
        /* Both buckets full: rebuild bigger until everything fits. */
        struct dpcls_table *old = st->table, *new;
        uint32_t n_buckets = old->bucket_mask + 1;

        for (;;) {
            n_buckets *= 2;
            new = dpcls_table_alloc(n_buckets);
            bool ok = dpcls_table_add(new, rule);
            for (uint32_t b = 0; ok && b <= old->bucket_mask; b++) {
                for (int s = 0; ok && s < DPCLS_SLOTS; s++) {
                    struct dpcls_rule *r = old->buckets[b].rules[s];
                    if (r) {
                        ok = dpcls_table_add(new, r);
                    }
                }
            }
            if (ok) {
                break;
            }
            free(new);
        }
        __atomic_store_n(&st->table, new, __ATOMIC_RELEASE);
        dp_rcu_postpone(cls->rcu, free, old);
    }
    st->n_rules++;
    cls->n_rules++;

    if (created) {
        struct dpcls_vector *old = cls->vector;
        struct dpcls_vector *vec = dpcls_vector_alloc(old->n + 1);

        memcpy(vec->subtables, old->subtables,
               old->n * sizeof old->subtables[0]);
        vec->subtables[old->n] = st;
        dpcls_publish_vector(cls, vec);
    }
    return 0;
}

/* Removes 'rule', which must be in 'cls'.  Lookups already running may still
 * return it; free it only after a grace period.  A subtable left empty is
 * removed too (and freed after a grace period). */
void
dpcls_remove(struct dpcls *cls, struct dpcls_rule *rule)
{
    struct dpcls_subtable *st = rule->subtable;
    struct dpcls_table *t = st->table;
    uint32_t b1 = rule->hash & t->bucket_mask;
    uint32_t b2 = dpcls_other_bucket(rule->hash) & t->bucket_mask;
    bool found = false;

    for (int i = 0; i < 2 && !found; i++) {
        struct dpcls_bucket *bucket = &t->buckets[i ? b2 : b1];

        for (int s = 0; s < DPCLS_SLOTS; s++) {
            if (bucket->rules[s] == rule) {
                __atomic_store_n(&bucket->rules[s], NULL, __ATOMIC_RELEASE);
                found = true;
                break;
            }
        }
    }
    util_assert(found);
    __atomic_store_n(&rule->subtable, NULL, __ATOMIC_RELAXED);
    st->n_rules--;
    cls->n_rules--;

    if (!st->n_rules) {
        struct dpcls_vector *old = cls->vector;
        struct dpcls_vector *vec = dpcls_vector_alloc(old->n - 1);
        size_t n = 0;

        for (size_t i = 0; i < old->n; i++) {
            if (old->subtables[i] != st) {
                vec->subtables[n++] = old->subtables[i];
            }
        }
        dpcls_publish_vector(cls, vec);
        dp_rcu_postpone(cls->rcu, dpcls_subtable_free, st);
    }
}

/* Orders the subtables of 'cls' by the number of lookups each matched since
 * the previous sort, most first, and restarts those counts.  The datapath
 * calls it every second or so from the owning PMD. */
void
dpcls_sort_subtables(struct dpcls *cls)
{
    struct dpcls_vector *old = cls->vector;
    size_t n = old->n;
    uint64_t hits[n ? n : 1];
    struct dpcls_vector *vec = dpcls_vector_alloc(n);
    bool changed = false;

    /* Insertion sort: there are few subtables and they are nearly sorted. */
    for (size_t i = 0; i < n; i++) {
        struct dpcls_subtable *st = old->subtables[i];
        uint64_t h = __atomic_load_n(&st->hits, __ATOMIC_RELAXED);
        size_t j = i;

        while (j > 0 && hits[j - 1] < h) {
            hits[j] = hits[j - 1];
            vec->subtables[j] = vec->subtables[j - 1];
            j--;
        }
        hits[j] = h;
        vec->subtables[j] = st;
        changed |= j != i;
        __atomic_store_n(&st->hits, 0, __ATOMIC_RELAXED);
    }
    if (changed) {
        dpcls_publish_vector(cls, vec);
    } else {
        free(vec);
    }
}

/* Looks up the 'n_keys' (at most DPCLS_MAX_BATCH) 'keys' in 'cls'.  Stores in
 * 'rules'[i] the rule that matches 'keys'[i], or NULL.  Returns true if
 * every key matched.  If 'n_subtable_lookups' is nonnull, adds to it, for
 * each key that matched, the number of subtables searched to find it (the
 * datapath's "avg. subtable lookups per megaflow hit").  The caller must be
 * an online dp_rcu reader; the rules returned are valid until its next
 * quiescent state.
 *
 * Per subtable, it masks and hashes every key still unmatched and prefetches
 * its buckets, then finds hash matches and prefetches those rules, then
 * compares, so the memory accesses of a batch overlap. */
bool
dpcls_lookup(const struct dpcls *cls, const struct flow_key *const keys[],
             size_t n_keys, struct dpcls_rule *rules[],
             unsigned int *n_subtable_lookups)
{
    const struct dpcls_vector *vec = __atomic_load_n(&cls->vector,
                                                     __ATOMIC_ACQUIRE);
    uint64_t masked[DPCLS_MAX_BATCH][FLOW_N_WORDS];
    uint32_t hashes[DPCLS_MAX_BATCH];
    struct dpcls_rule *candidates[DPCLS_MAX_BATCH];
    uint32_t keys_map, total_lookups = 0;

    util_assert(n_keys <= DPCLS_MAX_BATCH);
    keys_map = n_keys >= 32 ? UINT32_MAX : (UINT32_C(1) << n_keys) - 1;
    for (size_t i = 0; i < n_keys; i++) {
        rules[i] = NULL;
    }

    for (size_t s = 0; s < vec->n && keys_map; s++) {
        struct dpcls_subtable *st = vec->subtables[s];
        const struct dpcls_table *t = __atomic_load_n(&st->table,
                                                      __ATOMIC_ACQUIRE);
        unsigned int n_words = st->n_words;
        uint32_t found = 0;

        for (uint32_t map = keys_map; map; map &= map - 1) {
            unsigned int i = __builtin_ctz(map);
            uint32_t hash;

            dpcls_mask_key(st, keys[i], masked[i]);
            hash = hashes[i] = dpcls_hash_words(masked[i], n_words);
            rte_prefetch0(&t->buckets[hash & t->bucket_mask]);
            rte_prefetch0(&t->buckets[dpcls_other_bucket(hash)
                                      & t->bucket_mask]);
        }

        /* The first slot in either bucket with the same hash: almost
         * always the match. */
        for (uint32_t map = keys_map; map; map &= map - 1) {
            unsigned int i = __builtin_ctz(map);
            uint32_t hash = hashes[i];
            struct dpcls_rule *r;

            r = dpcls_bucket_candidate(&t->buckets[hash & t->bucket_mask],
                                       hash);
            if (!r) {
                uint32_t other = dpcls_other_bucket(hash) & t->bucket_mask;
                r = dpcls_bucket_candidate(&t->buckets[other], hash);
            }
            candidates[i] = r;
            if (r) {
                rte_prefetch0(r->words);
            }
        }

        for (uint32_t map = keys_map; map; map &= map - 1) {
            unsigned int i = __builtin_ctz(map);
            struct dpcls_rule *r = candidates[i];
            uint64_t diff = 0;

            if (!r) {
                continue;
            }
            for (unsigned int w = 0; w < n_words; w++) {
                diff |= r->words[w] ^ masked[i][w];
            }
            if (diff) {
                /* A hash collision: search every slot. */
                r = dpcls_table_find(t, hashes[i], masked[i], n_words);
                if (!r) {
                    continue;
                }
            }
            rules[i] = r;
            found |= UINT32_C(1) << i;
        }

        if (found) {
            unsigned int n_found = __builtin_popcount(found);

            __atomic_store_n(&st->hits,
                             __atomic_load_n(&st->hits, __ATOMIC_RELAXED)
                             + n_found, __ATOMIC_RELAXED);
            total_lookups += n_found * (s + 1);
            keys_map &= ~found;
        }
    }
    if (n_subtable_lookups) {
        *n_subtable_lookups += total_lookups;
    }
    return !keys_map;
}

/* Returns true if 'key' is one of the keys 'rule' matches (its masked
 * words equal the rule's), false if not or if 'rule' is not in a
 * classifier any more.  For a cache that remembers rules by hint and must
 * check them (dp_smc): the caller must be an online dp_rcu reader, and
 * 'rule' valid until its next quiescent state, as a rule dpcls_lookup()
 * returned is. */
bool
dpcls_rule_matches(const struct dpcls_rule *rule, const struct flow_key *key)
{
    const struct dpcls_subtable *st = __atomic_load_n(&rule->subtable,
                                                      __ATOMIC_RELAXED);
    uint64_t masked[FLOW_N_WORDS];
    uint64_t diff = 0;

    if (!st) {
        return false;
    }
    dpcls_mask_key(st, key, masked);
    for (unsigned int w = 0; w < st->n_words; w++) {
        diff |= rule->words[w] ^ masked[w];
    }
    return !diff;
}

/* Returns the number of rules in 'cls'.  Writer side. */
size_t
dpcls_n_rules(const struct dpcls *cls)
{
    return cls->n_rules;
}

/* Returns the number of subtables (distinct masks) in 'cls'. */
size_t
dpcls_n_subtables(const struct dpcls *cls)
{
    return __atomic_load_n(&cls->vector, __ATOMIC_ACQUIRE)->n;
}

/* Stores up to 'max' subtables' masks in 'masks' and hit counts since the
 * last sort in 'hits', in lookup order.  Returns how many it stored.  Writer
 * side (for statistics and tests). */
size_t
dpcls_get_subtables(const struct dpcls *cls, struct flow_key masks[],
                    uint64_t hits[], size_t max)
{
    const struct dpcls_vector *vec = cls->vector;
    size_t n = MIN(max, vec->n);

    for (size_t i = 0; i < n; i++) {
        masks[i] = vec->subtables[i]->mask;
        hits[i] = __atomic_load_n(&vec->subtables[i]->hits, __ATOMIC_RELAXED);
    }
    return n;
}

/* Writer-side helpers. */

static struct dpcls_subtable *
dpcls_find_subtable(const struct dpcls *cls, const struct flow_key *mask)
{
    for (size_t i = 0; i < cls->vector->n; i++) {
        struct dpcls_subtable *st = cls->vector->subtables[i];

        if (flow_key_equal(&st->mask, mask)) {
            return st;
        }
    }
    return NULL;
}

static struct dpcls_subtable *
dpcls_create_subtable(struct dpcls *cls DPS_UNUSED,
                      const struct flow_key *mask)
{
    struct dpcls_subtable *st = xzalloc(sizeof *st);
    unsigned int n = 0;

    st->mask.map = mask->map;
    for (uint64_t map = mask->map; map; map &= map - 1) {
        st->mask_bits[n] = map & -map;
        st->mask_words[n] = mask->words[n];
        st->mask.words[n] = mask->words[n];
        n++;
    }
    st->n_words = n;
    st->table = dpcls_table_alloc(1);
    return st;
}

static void
dpcls_publish_vector(struct dpcls *cls, struct dpcls_vector *vec)
{
    struct dpcls_vector *old = cls->vector;

    __atomic_store_n(&cls->vector, vec, __ATOMIC_RELEASE);
    dp_rcu_postpone(cls->rcu, free, old);
}

static struct dpcls_vector *
dpcls_vector_alloc(size_t n)
{
    struct dpcls_vector *vec = xmalloc(sizeof *vec
                                       + n * sizeof vec->subtables[0]);
    vec->n = n;
    return vec;
}

static void
dpcls_subtable_free(void *st_)
{
    struct dpcls_subtable *st = st_;

    free(st->table);
    free(st);
}

static struct dpcls_table *
dpcls_table_alloc(uint32_t n_buckets)
{
    size_t size = sizeof(struct dpcls_table)
                  + n_buckets * sizeof(struct dpcls_bucket);
    struct dpcls_table *t = aligned_alloc(64, (size + 63) & ~(size_t) 63);

    util_assert(t);
    memset(t, 0, size);
    t->bucket_mask = n_buckets - 1;
    return t;
}

/* Puts 'rule' in the emptier of its two buckets in 't'.  Returns false if
 * both are full. */
static bool
dpcls_table_add(struct dpcls_table *t, struct dpcls_rule *rule)
{
    struct dpcls_bucket *buckets[2] = {
        &t->buckets[rule->hash & t->bucket_mask],
        &t->buckets[dpcls_other_bucket(rule->hash) & t->bucket_mask],
    };
    int free_slot[2] = { -1, -1 }, n_free[2] = { 0, 0 };

    for (int i = 0; i < 2; i++) {
        for (int s = DPCLS_SLOTS - 1; s >= 0; s--) {
            if (!buckets[i]->rules[s]) {
                free_slot[i] = s;
                n_free[i]++;
            }
        }
    }
    int i = n_free[1] > n_free[0];
    if (!n_free[i]) {
        return false;
    }
    struct dpcls_bucket *b = buckets[i];
    int s = free_slot[i];
    __atomic_store_n(&b->hashes[s], rule->hash, __ATOMIC_RELAXED);
    __atomic_store_n(&b->rules[s], rule, __ATOMIC_RELEASE);
    return true;
}

/* Reader and writer helpers. */

/* Returns the rule in 't' whose masked words are the 'n_words' 'words', if
 * any. */
static struct dpcls_rule *
dpcls_table_find(const struct dpcls_table *t, uint32_t hash,
                 const uint64_t *words, unsigned int n_words)
{
    for (int i = 0; i < 2; i++) {
        uint32_t bi = i ? dpcls_other_bucket(hash) : hash;
        const struct dpcls_bucket *b = &t->buckets[bi & t->bucket_mask];

        for (uint32_t m = dpcls_bucket_match(b, hash); m; m &= m - 1) {
            unsigned int slot = __builtin_ctz(m);
            struct dpcls_rule *r = __atomic_load_n(&b->rules[slot],
                                                   __ATOMIC_ACQUIRE);
            if (r && !memcmp(r->words, words, n_words * sizeof words[0])) {
                return r;
            }
        }
    }
    return NULL;
}

/* Returns a bitmap of the slots of 'b' whose hash is 'hash'. */
static inline uint32_t
dpcls_bucket_match(const struct dpcls_bucket *b, uint32_t hash)
{
    /* dpcls_table_add() may store into a free slot while a PMD reads the
     * bucket: the hashes are read with relaxed atomic loads, 64 bits at a
     * time (see struct dpcls_bucket), and the rule behind a match is then
     * read with acquire, which pairs with the writer's release. */
    uint64_t p0 = __atomic_load_n(&b->hash_pairs[0], __ATOMIC_RELAXED);
    uint64_t p1 = __atomic_load_n(&b->hash_pairs[1], __ATOMIC_RELAXED);
    uint64_t p2 = __atomic_load_n(&b->hash_pairs[2], __ATOMIC_RELAXED);
    uint64_t p3 = __atomic_load_n(&b->hash_pairs[3], __ATOMIC_RELAXED);
#ifdef __SSE2__
    __m128i h = _mm_set1_epi32(hash);
    __m128i lo = _mm_set_epi64x((long long) p1, (long long) p0);
    __m128i hi = _mm_set_epi64x((long long) p3, (long long) p2);

    return (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(lo, h)))
            | _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(hi, h))) << 4);
#else
    uint64_t pairs[DPCLS_SLOTS / 2] = { p0, p1, p2, p3 };
    uint32_t map = 0;

    for (int s = 0; s < DPCLS_SLOTS; s++) {
        /* hashes[s] is the low half of its pair on a little-endian CPU. */
        unsigned int shift = (s % 2) * 32;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        shift = 32 - shift;
#endif
        map |= (uint32_t) ((uint32_t) (pairs[s / 2] >> shift) == hash) << s;
    }
    return map;
#endif
}

/* Returns the first rule in 'b' with 'hash', or NULL. */
static inline struct dpcls_rule *
dpcls_bucket_candidate(const struct dpcls_bucket *b, uint32_t hash)
{
    for (uint32_t m = dpcls_bucket_match(b, hash); m; m &= m - 1) {
        struct dpcls_rule *r = __atomic_load_n(&b->rules[__builtin_ctz(m)],
                                               __ATOMIC_ACQUIRE);
        if (r) {
            return r;
        }
    }
    return NULL;
}

/* Stores in 'words' the words of 'key' that the mask of 'st' selects, ANDed
 * with the mask, one per mask word. */
static inline void
dpcls_mask_key(const struct dpcls_subtable *st, const struct flow_key *key,
               uint64_t *words)
{
    uint64_t map = key->map;

    for (unsigned int j = 0; j < st->n_words; j++) {
        uint64_t bit = st->mask_bits[j];
        uint64_t w = 0;

        if (map & bit) {
            w = key->words[__builtin_popcountll(map & (bit - 1))];
        }
        words[j] = w & st->mask_words[j];
    }
}

static inline uint32_t
dpcls_hash_words(const uint64_t *words, unsigned int n)
{
    uint64_t hash = 0x5bd1e995;

    for (unsigned int i = 0; i < n; i++) {
#ifdef __SSE4_2__
        hash = _mm_crc32_u64(hash, words[i]);
#else
        hash = (hash ^ words[i]) * UINT64_C(0x9e3779b97f4a7c15);
        hash ^= hash >> 29;
#endif
    }
    return (uint32_t) hash;
}

/* The second bucket of a rule with 'hash' (before masking by the table
 * size): different bits of the hash, so that two rules that share one
 * bucket rarely share the other. */
static inline uint32_t
dpcls_other_bucket(uint32_t hash)
{
    return hash ^ ((hash >> 16 | hash << 16) * 0x9e3779b1u) ^ 1;
}
