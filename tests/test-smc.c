/* Unit tests for lib/dp-smc.c, the signature-match cache.
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
#include "dp-flow.h"
#include "dp-rcu.h"
#include "dp-smc.h"
#include "dpcls.h"
#include "dpif-test.h"
#include "util.h"

static struct dp_rcu *rcu;
static struct dpcls cls;

static int
setup(void **state DPS_UNUSED)
{
    rcu = dp_rcu_create(1);
    dp_rcu_register(rcu, 0);
    dpcls_init(&cls, rcu);
    return 0;
}

static int
teardown(void **state DPS_UNUSED)
{
    dpcls_destroy(&cls);
    dp_rcu_unregister(rcu, 0);
    dp_rcu_barrier(rcu);
    dp_rcu_destroy(rcu);
    return 0;
}

/* A megaflow for 'key' under a random mask, in the classifier; 'packet' gets
 * a key that it matches but that differs from 'key' outside the mask. */
static struct dp_flow *
megaflow(const struct flow_key *key, struct flow_key *packet)
{
    struct flow_key mask, masked;

    dpif_test_random_mask(&mask, 0.5);
    flow_key_apply_mask(&masked, key, &mask);
    struct dp_flow *f = dp_flow_create(rcu, &masked, &mask, NULL, 0, NULL);
    assert_int_equal(dpcls_insert(&cls, &f->cr, &masked, &mask), 0);
    dpif_test_matching_key(packet, &masked, &mask);
    return f;
}

static void
megaflow_delete(struct dp_flow *f)
{
    if (f->cr.subtable) {
        dpcls_remove(&cls, &f->cr);
    }
    dp_flow_mark_dead(f);
    dp_flow_unref(f);
}

/* Two keys that no megaflow of the other matches. */
static void
two_keys(struct flow_key *a, struct flow_key *b)
{
    dpif_test_random_key(a, 0.2);
    *b = *a;
    for (size_t i = 0; i < flow_key_n_words(b); i++) {
        b->words[i] = ~b->words[i];
    }
}

static void
test_lookup(void **state DPS_UNUSED)
{
    struct dp_smc *smc = dp_smc_create();
    struct flow_key ka, kb, pa, pb;

    dpif_test_seed(1);
    two_keys(&ka, &kb);
    struct dp_flow *a = megaflow(&ka, &pa);
    struct dp_flow *b = megaflow(&kb, &pb);
    uint32_t ia = dp_smc_flow_add(smc, a);
    uint32_t ib = dp_smc_flow_add(smc, b);
    uint32_t h = 0x12345678;

    assert_int_not_equal(ia, DP_SMC_NO_INDEX);
    assert_int_not_equal(ib, DP_SMC_NO_INDEX);
    assert_int_not_equal(ia, ib);
    assert_int_equal(dp_smc_n_flows(smc), 2);
    assert_ptr_equal(dp_smc_flow_at(smc, ia), a);

    assert_null(dp_smc_lookup(smc, &pa, h));
    dp_smc_insert(smc, h, ia);
    dp_smc_prefetch(smc, h);
    /* A matching packet, whatever its bits outside the mask. */
    assert_ptr_equal(dp_smc_lookup(smc, &pa, h), a);
    assert_ptr_equal(dp_smc_lookup(smc, &ka, h), a);
    /* The same signature for a key of another megaflow: the key check
     * refuses it. */
    assert_null(dp_smc_lookup(smc, &pb, h));
    /* The same bucket, another signature; another bucket, the same
     * signature. */
    assert_null(dp_smc_lookup(smc, &pa, h ^ 0x100000));
    assert_null(dp_smc_lookup(smc, &pa, h ^ 1));
    assert_int_equal(dp_smc_count(smc), 1);

    /* A packet of b with the same signature takes the entry over. */
    dp_smc_insert(smc, h, ib);
    assert_int_equal(dp_smc_count(smc), 1);
    assert_ptr_equal(dp_smc_lookup(smc, &pb, h), b);
    assert_null(dp_smc_lookup(smc, &pa, h));

    /* DP_SMC_NO_INDEX (a full flow index) is never inserted. */
    dp_smc_insert(smc, h ^ 1, DP_SMC_NO_INDEX);
    assert_int_equal(dp_smc_count(smc), 1);

    dp_smc_flow_remove(smc, ia);
    dp_smc_flow_remove(smc, ib);
    dp_smc_flow_remove(smc, DP_SMC_NO_INDEX);
    assert_int_equal(dp_smc_n_flows(smc), 0);
    megaflow_delete(a);
    megaflow_delete(b);
    dp_smc_destroy(smc);
}

/* An index given back finds nothing; given to another flow, it finds that
 * flow only for its own keys.  Dead and removed flows are never found. */
static void
test_remove_reuse(void **state DPS_UNUSED)
{
    struct dp_smc *smc = dp_smc_create();
    struct flow_key ka, kb, pa, pb;
    uint32_t h = 0xabcdef01;

    dpif_test_seed(2);
    two_keys(&ka, &kb);
    struct dp_flow *a = megaflow(&ka, &pa);
    struct dp_flow *b = megaflow(&kb, &pb);
    uint32_t ia = dp_smc_flow_add(smc, a);

    dp_smc_insert(smc, h, ia);
    assert_ptr_equal(dp_smc_lookup(smc, &pa, h), a);
    dp_smc_flow_remove(smc, ia);
    assert_null(dp_smc_flow_at(smc, ia));
    assert_null(dp_smc_lookup(smc, &pa, h));

    /* The freed index goes to b: the stale entry now names b. */
    uint32_t ib = dp_smc_flow_add(smc, b);
    assert_int_equal(ib, ia);
    assert_null(dp_smc_lookup(smc, &pa, h));
    assert_ptr_equal(dp_smc_lookup(smc, &pb, h), b);

    /* Out of the classifier (deletion has begun): not found. */
    dpcls_remove(&cls, &b->cr);
    assert_false(dpcls_rule_matches(&b->cr, &pb));
    assert_null(dp_smc_lookup(smc, &pb, h));

    /* Dead: not found, though still in the classifier and the index. */
    uint32_t i2 = dp_smc_flow_add(smc, a);
    dp_smc_insert(smc, h, i2);
    assert_ptr_equal(dp_smc_lookup(smc, &pa, h), a);
    assert_true(dpcls_rule_matches(&a->cr, &pa));
    dp_flow_mark_dead(a);
    assert_null(dp_smc_lookup(smc, &pa, h));

    dp_smc_flow_remove(smc, ib);
    dp_smc_flow_remove(smc, i2);
    megaflow_delete(a);
    megaflow_delete(b);
    dp_smc_destroy(smc);
}

/* A bucket holds DP_SMC_WAYS signatures; one more evicts one of them. */
static void
test_bucket(void **state DPS_UNUSED)
{
    struct dp_smc *smc = dp_smc_create();
    enum { N = DP_SMC_WAYS + 1 };
    struct flow_key keys[N], packets[N];
    struct dp_flow *flows[N];
    uint32_t indexes[N], hashes[N];

    dpif_test_seed(3);
    for (int i = 0; i < N; i++) {
        /* Keys far apart: no megaflow matches another's key. */
        dpif_test_random_key(&keys[i], 0);
        flows[i] = megaflow(&keys[i], &packets[i]);
        indexes[i] = dp_smc_flow_add(smc, flows[i]);
        hashes[i] = 0x777 | (uint32_t) (i + 1) << 20;      /* One bucket. */
    }
    for (int i = 0; i < DP_SMC_WAYS; i++) {
        dp_smc_insert(smc, hashes[i], indexes[i]);
    }
    assert_int_equal(dp_smc_count(smc), DP_SMC_WAYS);
    for (int i = 0; i < DP_SMC_WAYS; i++) {
        assert_ptr_equal(dp_smc_lookup(smc, &packets[i], hashes[i]),
                         flows[i]);
    }
    dp_smc_insert(smc, hashes[N - 1], indexes[N - 1]);
    assert_int_equal(dp_smc_count(smc), DP_SMC_WAYS);
    assert_ptr_equal(dp_smc_lookup(smc, &packets[N - 1], hashes[N - 1]),
                     flows[N - 1]);
    int n_found = 0;
    for (int i = 0; i < N; i++) {
        n_found += dp_smc_lookup(smc, &packets[i], hashes[i]) == flows[i];
    }
    assert_int_equal(n_found, DP_SMC_WAYS);

    for (int i = 0; i < N; i++) {
        dp_smc_flow_remove(smc, indexes[i]);
        megaflow_delete(flows[i]);
    }
    dp_smc_destroy(smc);
}

/* dp_smc_lookup_batch() finds what dp_smc_lookup() finds, hits and misses
 * mixed, in batches of every size up to 32. */
static void
test_batch(void **state DPS_UNUSED)
{
    struct dp_smc *smc = dp_smc_create();
    enum { N = DPCLS_MAX_BATCH };
    struct flow_key keys[N], packets[N];
    const struct flow_key *kp[N];
    struct dp_flow *flows[N], *found[N];
    uint32_t indexes[N], hashes[N];

    dpif_test_seed(4);
    for (int i = 0; i < N; i++) {
        dpif_test_random_key(&keys[i], 0);
        flows[i] = megaflow(&keys[i], &packets[i]);
        indexes[i] = dp_smc_flow_add(smc, flows[i]);
        hashes[i] = (uint32_t) dpif_test_random();
        kp[i] = &packets[i];
        if (i % 3) {
            dp_smc_insert(smc, hashes[i], indexes[i]);
        }
    }
    for (size_t n = 1; n <= N; n++) {
        size_t expected = 0;

        for (size_t i = 0; i < n; i++) {
            expected += i % 3 != 0;
        }
        assert_int_equal(dp_smc_lookup_batch(smc, kp, hashes, n, found),
                         expected);
        for (size_t i = 0; i < n; i++) {
            assert_ptr_equal(found[i],
                             dp_smc_lookup(smc, &packets[i], hashes[i]));
            assert_ptr_equal(found[i], i % 3 ? flows[i] : NULL);
        }
    }
    for (int i = 0; i < N; i++) {
        dp_smc_flow_remove(smc, indexes[i]);
        megaflow_delete(flows[i]);
    }
    dp_smc_destroy(smc);
}

/* The flow index grows page by page and reuses what is given back. */
static void
test_index_pages(void **state DPS_UNUSED)
{
    struct dp_smc *smc = dp_smc_create();
    enum { N = 3 * DP_SMC_PAGE_SIZE };
    uint32_t *indexes = xcalloc(N, sizeof *indexes);
    struct flow_key key, packet;

    dpif_test_seed(5);
    dpif_test_random_key(&key, 0.2);
    struct dp_flow *f = megaflow(&key, &packet);
    for (int i = 0; i < N; i++) {
        indexes[i] = dp_smc_flow_add(smc, f);
        assert_int_equal(indexes[i], i + 1);
    }
    assert_ptr_equal(dp_smc_flow_at(smc, N), f);
    assert_null(dp_smc_flow_at(smc, N + 1));
    assert_int_equal(dp_smc_n_flows(smc), N);
    dp_smc_flow_remove(smc, indexes[100]);
    dp_smc_flow_remove(smc, indexes[5000]);
    assert_int_equal(dp_smc_flow_add(smc, f), indexes[5000]);
    assert_int_equal(dp_smc_flow_add(smc, f), indexes[100]);
    assert_int_equal(dp_smc_flow_add(smc, f), N + 1);
    assert_int_equal(dp_smc_n_flows(smc), N + 1);
    free(indexes);
    megaflow_delete(f);
    dp_smc_destroy(smc);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_remove_reuse),
        cmocka_unit_test(test_bucket),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_index_pages),
    };
    return cmocka_run_group_tests_name("smc", tests, setup, teardown);
}
