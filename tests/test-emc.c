/* Unit tests for lib/dp-emc.c.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "dp-emc.h"
#include "dp-flow.h"
#include "dp-rcu.h"
#include "dpif-test.h"
#include "util.h"

static struct dp_rcu *rcu;

static int
setup(void **state DPS_UNUSED)
{
    rcu = dp_rcu_create(1);
    return 0;
}

static int
teardown(void **state DPS_UNUSED)
{
    dp_rcu_destroy(rcu);
    return 0;
}

/* A flow matching exactly 'key' (an all-ones mask over its words). */
static struct dp_flow *
exact_flow(const struct flow_key *key)
{
    uint64_t ones[FLOW_N_WORDS];
    struct flow_key mask;

    for (size_t i = 0; i < FLOW_N_WORDS; i++) {
        ones[i] = UINT64_MAX;
    }
    dpif_test_key_from_words(&mask, ones);
    return dp_flow_create(rcu, key, &mask, NULL, 0, NULL);
}

static uint32_t
refcount(const struct dp_flow *flow)
{
    return __atomic_load_n(&flow->refcount, __ATOMIC_RELAXED);
}

static void
test_insert_lookup(void **state DPS_UNUSED)
{
    struct dp_emc *emc = dp_emc_create();
    struct flow_key key, other;

    dpif_test_seed(1);
    dpif_test_random_key(&key, 0.3);
    other = key;
    other.words[0] ^= 1;
    struct dp_flow *f = exact_flow(&key);
    uint32_t hash = flow_key_hash(&key, 0);

    assert_int_equal(dp_emc_get_insert_inv_prob(emc),
                     DP_EMC_DEFAULT_INSERT_INV_PROB);
    assert_null(dp_emc_lookup(emc, &key, hash));
    dp_emc_insert(emc, &key, hash, f);
    assert_int_equal(refcount(f), 2);
    dp_emc_prefetch(emc, hash);
    assert_ptr_equal(dp_emc_lookup(emc, &key, hash), f);
    /* Same hash, different key; same key, wrong hash. */
    assert_null(dp_emc_lookup(emc, &other, hash));
    assert_null(dp_emc_lookup(emc, &key, hash ^ 0x4000000));
    /* Inserting it again takes no second reference. */
    dp_emc_insert(emc, &key, hash, f);
    assert_int_equal(refcount(f), 2);
    assert_int_equal(dp_emc_count(emc), 1);

    /* Another flow for the same key replaces the entry. */
    struct dp_flow *g = exact_flow(&key);
    dp_emc_insert(emc, &key, hash, g);
    assert_ptr_equal(dp_emc_lookup(emc, &key, hash), g);
    assert_int_equal(refcount(f), 1);
    assert_int_equal(dp_emc_count(emc), 1);

    dp_emc_destroy(emc);
    assert_int_equal(refcount(g), 1);
    dp_flow_unref(f);
    dp_flow_unref(g);
}

/* Three keys whose hashes give the same two places: the third evicts one
 * of the first two, and the evicted flow's reference is released. */
static void
test_eviction(void **state DPS_UNUSED)
{
    struct dp_emc *emc = dp_emc_create();
    struct flow_key keys[3];
    struct dp_flow *flows[3];
    /* Places are hash & 8191 and (hash >> 13) & 8191: all three hashes
     * give places 5 and 7, and differ. */
    uint32_t hashes[3] = {
        5 | (7u << 13), 7 | (5u << 13), 5 | (7u << 13) | (1u << 26),
    };

    dpif_test_seed(2);
    for (int i = 0; i < 3; i++) {
        dpif_test_random_key(&keys[i], 0.3);
        flows[i] = exact_flow(&keys[i]);
        dp_emc_insert(emc, &keys[i], hashes[i], flows[i]);
    }
    int n_found = 0;
    for (int i = 0; i < 3; i++) {
        struct dp_flow *f = dp_emc_lookup(emc, &keys[i], hashes[i]);

        if (f) {
            assert_ptr_equal(f, flows[i]);
            assert_int_equal(refcount(flows[i]), 2);
            n_found++;
        } else {
            assert_int_equal(refcount(flows[i]), 1);
        }
    }
    assert_int_equal(n_found, 2);
    assert_non_null(dp_emc_lookup(emc, &keys[2], hashes[2]));
    assert_int_equal(dp_emc_count(emc), 2);

    dp_emc_clear(emc);
    assert_int_equal(dp_emc_count(emc), 0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(refcount(flows[i]), 1);
        dp_flow_unref(flows[i]);
    }
    dp_emc_destroy(emc);
}

/* A dead flow is never returned, is not inserted, its place is reused
 * first, and a sweep drops the cache's references to it. */
static void
test_dead_flow(void **state DPS_UNUSED)
{
    struct dp_emc *emc = dp_emc_create();
    struct flow_key key, key2;

    dp_rcu_barrier(rcu);        /* Nothing pending from other tests. */
    dpif_test_seed(3);
    dpif_test_random_key(&key, 0.3);
    dpif_test_random_key(&key2, 0.3);
    struct dp_flow *f = exact_flow(&key);
    struct dp_flow *g = exact_flow(&key2);
    uint32_t hash = flow_key_hash(&key, 0);

    dp_emc_insert(emc, &key, hash, f);
    assert_ptr_equal(dp_emc_lookup(emc, &key, hash), f);
    dp_flow_mark_dead(f);
    assert_null(dp_emc_lookup(emc, &key, hash));
    assert_int_equal(refcount(f), 2);

    /* The datapath drops its reference; the cache still holds one, so the
     * memory stays until the sweep. */
    dp_flow_unref(f);
    assert_int_equal(dp_emc_sweep(emc, DP_EMC_ENTRIES), 1);
    assert_int_equal(dp_emc_count(emc), 0);
    assert_int_equal(dp_rcu_n_pending(rcu), 1);
    dp_rcu_barrier(rcu);

    /* A dead flow is not inserted. */
    dp_flow_mark_dead(g);
    dp_emc_insert(emc, &key2, 77, g);
    assert_int_equal(dp_emc_count(emc), 0);
    assert_int_equal(refcount(g), 1);

    /* A dead entry is the first victim: live flow h for a key sharing
     * both places goes in where the dead one was. */
    struct dp_flow *h = exact_flow(&key);
    struct dp_flow *i = exact_flow(&key2);
    uint32_t ha = 9 | (11u << 13), hb = 11 | (9u << 13);
    dp_emc_insert(emc, &key, ha, h);
    dp_emc_insert(emc, &key2, hb, i);
    dp_flow_mark_dead(i);
    struct flow_key key3;
    dpif_test_random_key(&key3, 0.3);
    struct dp_flow *j = exact_flow(&key3);
    dp_emc_insert(emc, &key3, ha | (1u << 26), j);
    assert_ptr_equal(dp_emc_lookup(emc, &key, ha), h);
    assert_ptr_equal(dp_emc_lookup(emc, &key3, ha | (1u << 26)), j);
    assert_int_equal(refcount(i), 1);

    dp_flow_unref(g);
    dp_flow_unref(h);
    dp_flow_unref(i);
    dp_flow_unref(j);
    dp_emc_destroy(emc);
}

/* Returns how many of 'n' misses with distinct keys were inserted with
 * emc-insert-inv-prob 'inv_prob'. */
static size_t
count_inserts(unsigned int inv_prob, size_t n)
{
    struct dp_emc *emc = dp_emc_create();
    uint64_t w[FLOW_N_WORDS];
    struct dp_flow *flow;
    struct flow_key key;
    size_t n_inserted = 0;

    memset(w, 0, sizeof w);
    dpif_test_key_from_words(&key, w);
    flow = exact_flow(&key);
    dp_emc_set_insert_inv_prob(emc, inv_prob);
    assert_int_equal(dp_emc_get_insert_inv_prob(emc), inv_prob);
    for (size_t i = 0; i < n; i++) {
        w[0] = i + 1;
        dpif_test_key_from_words(&key, w);
        uint32_t hash = flow_key_hash(&key, 0);

        dp_emc_probabilistic_insert(emc, &key, hash, flow);
        n_inserted += dp_emc_lookup(emc, &key, hash) != NULL;
    }
    dp_emc_destroy(emc);
    dp_flow_unref(flow);
    return n_inserted;
}

static void
test_insert_probability(void **state DPS_UNUSED)
{
    enum { N = 100000 };

    assert_int_equal(count_inserts(0, N), 0);
    assert_int_equal(count_inserts(1, N), N);

    /* Binomial(100000, 1/100): mean 1000, sigma 31.5; 6 sigma. */
    size_t n = count_inserts(100, N);
    print_message("inv_prob 100: %zu of %d inserted\n", n, N);
    assert_true(n > 810 && n < 1190);

    /* Binomial(100000, 1/10): mean 10000, sigma 95. */
    n = count_inserts(10, N);
    assert_true(n > 9430 && n < 10570);
}

/* Many flows: the cache keeps at most DP_EMC_ENTRIES, hits stay exact, and
 * the reference counts balance. */
static void
test_fill(void **state DPS_UNUSED)
{
    enum { N = 3 * DP_EMC_ENTRIES };
    struct dp_emc *emc = dp_emc_create();
    struct flow_key *keys = xcalloc(N, sizeof *keys);
    struct dp_flow **flows = xcalloc(N, sizeof *flows);

    dpif_test_seed(4);
    for (int i = 0; i < N; i++) {
        dpif_test_random_key(&keys[i], 0.3);
        flows[i] = exact_flow(&keys[i]);
        dp_emc_insert(emc, &keys[i], flow_key_hash(&keys[i], 0), flows[i]);
    }
    assert_true(dp_emc_count(emc) <= DP_EMC_ENTRIES);
    assert_true(dp_emc_count(emc) > DP_EMC_ENTRIES / 2);
    size_t n_hits = 0;
    for (int i = 0; i < N; i++) {
        struct dp_flow *f = dp_emc_lookup(emc, &keys[i],
                                          flow_key_hash(&keys[i], 0));
        if (f) {
            assert_ptr_equal(f, flows[i]);
            n_hits++;
        }
    }
    assert_int_equal(n_hits, dp_emc_count(emc));
    dp_emc_destroy(emc);
    for (int i = 0; i < N; i++) {
        assert_int_equal(refcount(flows[i]), 1);
        dp_flow_unref(flows[i]);
    }
    free(keys);
    free(flows);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_lookup),
        cmocka_unit_test(test_eviction),
        cmocka_unit_test(test_dead_flow),
        cmocka_unit_test(test_insert_probability),
        cmocka_unit_test(test_fill),
    };
    return cmocka_run_group_tests_name("emc", tests, setup, teardown);
}
