/* Unit tests for lib/dpcls.c, lib/dp-flow.c and lib/dp-rcu.c.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dp-flow.h"
#include "dp-rcu.h"
#include "dpcls.h"
#include "dpif-test.h"
#include "util.h"

static struct dp_flow *
rule_flow(struct dpcls_rule *rule)
{
    return rule ? CONTAINER_OF(rule, struct dp_flow, cr) : NULL;
}

/* Creates a flow for 'key' & 'mask' and inserts it; returns it, or NULL
 * (and frees it) if the classifier already had that megaflow. */
static struct dp_flow *
add_flow(struct dpcls *cls, struct dp_rcu *rcu, const struct flow_key *key,
         const struct flow_key *mask)
{
    struct dp_flow *flow = dp_flow_create(rcu, key, mask, "a", 1, NULL);

    if (dpcls_insert(cls, &flow->cr, &flow->key, &flow->mask)) {
        dp_flow_unref(flow);
        return NULL;
    }
    return flow;
}

static void
del_flow(struct dpcls *cls, struct dp_flow *flow)
{
    dpcls_remove(cls, &flow->cr);
    dp_flow_mark_dead(flow);
    dp_flow_unref(flow);
}

static bool
flow_matches(const struct dp_flow *flow, const struct flow_key *key)
{
    return flow_key_equal_masked(key, &flow->key, &flow->mask);
}

/* Looks up 'n' keys in batches of 'batch' and stores the flows. */
static void
lookup_all(const struct dpcls *cls, const struct flow_key *keys, size_t n,
           size_t batch, struct dp_flow **flows)
{
    for (size_t i = 0; i < n; i += batch) {
        size_t n_batch = MIN(batch, n - i);
        const struct flow_key *kp[DPCLS_MAX_BATCH];
        struct dpcls_rule *rules[DPCLS_MAX_BATCH];
        bool all = true;

        for (size_t j = 0; j < n_batch; j++) {
            kp[j] = &keys[i + j];
        }
        bool ret = dpcls_lookup(cls, kp, n_batch, rules, NULL);
        for (size_t j = 0; j < n_batch; j++) {
            flows[i + j] = rule_flow(rules[j]);
            all &= rules[j] != NULL;
        }
        assert_int_equal(ret, all);
    }
}

/* Random megaflows over random masks, random keys (half of them made to
 * match a megaflow): every result must match its key, and every miss must
 * be a key that no megaflow matches, checked by brute force. */
static void
test_random_vs_brute_force(void **state DPS_UNUSED)
{
    enum { N_MASKS = 24, N_FLOWS = 3000, N_KEYS = 6000 };
    struct dp_rcu *rcu = dp_rcu_create(4);
    struct flow_key masks[N_MASKS];
    struct dp_flow **flows = xcalloc(N_FLOWS, sizeof *flows);
    struct flow_key *keys = xcalloc(N_KEYS, sizeof *keys);
    struct dp_flow **found = xcalloc(N_KEYS, sizeof *found);
    struct dpcls cls;
    size_t n_flows = 0, n_hits = 0, n_dups = 0;

    dpif_test_seed(12345);
    dpcls_init(&cls, rcu);
    for (size_t i = 0; i < N_MASKS; i++) {
        dpif_test_random_mask(&masks[i], i < 4 ? 0.05 : 0.3);
    }
    for (size_t i = 0; i < N_FLOWS; i++) {
        struct flow_key key;

        dpif_test_random_key(&key, 0.3);
        /* Some flows twice: the second insertion must say EEXIST. */
        if (n_flows && i % 50 == 0) {
            struct dp_flow *old = flows[dpif_test_random() % n_flows];
            assert_null(add_flow(&cls, rcu, &old->key, &old->mask));
            n_dups++;
        }
        struct dp_flow *f = add_flow(&cls, rcu, &key,
                                     &masks[dpif_test_random() % N_MASKS]);
        if (f) {
            flows[n_flows++] = f;
        }
    }
    assert_true(n_dups > 0);
    assert_int_equal(dpcls_n_rules(&cls), n_flows);
    assert_true(dpcls_n_subtables(&cls) <= N_MASKS);

    for (size_t i = 0; i < N_KEYS; i++) {
        if (i % 2) {
            const struct dp_flow *f = flows[dpif_test_random() % n_flows];
            dpif_test_matching_key(&keys[i], &f->key, &f->mask);
        } else {
            dpif_test_random_key(&keys[i], 0.3);
        }
    }

    static const size_t batches[] = { 1, 7, 31, 32 };
    for (size_t b = 0; b < ARRAY_SIZE(batches); b++) {
        lookup_all(&cls, keys, N_KEYS, batches[b], found);
        n_hits = 0;
        for (size_t i = 0; i < N_KEYS; i++) {
            if (found[i]) {
                assert_true(flow_matches(found[i], &keys[i]));
                n_hits++;
            } else {
                for (size_t j = 0; j < n_flows; j++) {
                    assert_false(flow_matches(flows[j], &keys[i]));
                }
            }
            if (i % 2) {
                assert_non_null(found[i]);
            }
        }
        assert_true(n_hits >= N_KEYS / 2);
    }

    for (size_t i = 0; i < n_flows; i++) {
        del_flow(&cls, flows[i]);
    }
    assert_int_equal(dpcls_n_rules(&cls), 0);
    assert_int_equal(dpcls_n_subtables(&cls), 0);
    dpcls_destroy(&cls);
    dp_rcu_destroy(rcu);
    free(flows);
    free(keys);
    free(found);
}

/* A batch with hits in different subtables and misses, in a known
 * pattern. */
static void
test_batch_mixed(void **state DPS_UNUSED)
{
    struct dp_rcu *rcu = dp_rcu_create(1);
    uint64_t w[FLOW_N_WORDS];
    struct flow_key mask_a, mask_b, key;
    struct dp_flow *fa[16], *fb[16];
    struct flow_key keys[DPCLS_MAX_BATCH];
    const struct flow_key *kp[DPCLS_MAX_BATCH];
    struct dpcls_rule *rules[DPCLS_MAX_BATCH];
    struct dpcls cls;

    dpcls_init(&cls, rcu);
    /* Mask A: word 0 (in_port); mask B: word 4 (IPv4 addresses). */
    memset(w, 0, sizeof w);
    w[0] = UINT64_MAX;
    dpif_test_key_from_words(&mask_a, w);
    memset(w, 0, sizeof w);
    w[4] = UINT64_MAX;
    dpif_test_key_from_words(&mask_b, w);
    for (int i = 0; i < 16; i++) {
        memset(w, 0, sizeof w);
        w[0] = i + 1;
        dpif_test_key_from_words(&key, w);
        fa[i] = add_flow(&cls, rcu, &key, &mask_a);
        memset(w, 0, sizeof w);
        w[4] = 0x0a000000 + i + 1;
        dpif_test_key_from_words(&key, w);
        fb[i] = add_flow(&cls, rcu, &key, &mask_b);
        assert_non_null(fa[i]);
        assert_non_null(fb[i]);
    }
    assert_int_equal(dpcls_n_subtables(&cls), 2);

    /* Key i: i % 3 == 0 hits A, 1 hits B, 2 misses. */
    for (int i = 0; i < DPCLS_MAX_BATCH; i++) {
        memset(w, 0, sizeof w);
        w[0] = i % 3 == 0 ? (i % 16) + 1 : 1000;
        w[4] = i % 3 == 1 ? 0x0a000000 + (i % 16) + 1 : 0x0b000000;
        w[7] = i;               /* Not in any mask. */
        dpif_test_key_from_words(&keys[i], w);
        kp[i] = &keys[i];
    }
    unsigned int n_lookups = 0;
    assert_false(dpcls_lookup(&cls, kp, DPCLS_MAX_BATCH, rules, &n_lookups));
    unsigned int expected_lookups = 0;
    for (int i = 0; i < DPCLS_MAX_BATCH; i++) {
        struct dp_flow *f = rule_flow(rules[i]);

        if (i % 3 == 0) {
            assert_ptr_equal(f, fa[i % 16]);
        } else if (i % 3 == 1) {
            assert_ptr_equal(f, fb[i % 16]);
        } else {
            assert_null(f);
        }
    }
    /* Subtable order is insertion order before any sort: A then B. */
    for (int i = 0; i < DPCLS_MAX_BATCH; i++) {
        expected_lookups += i % 3 == 0 ? 1 : i % 3 == 1 ? 2 : 0;
    }
    assert_int_equal(n_lookups, expected_lookups);

    /* All hits: returns true. */
    assert_true(dpcls_lookup(&cls, kp, 1, rules, NULL));
    /* Empty batch. */
    assert_true(dpcls_lookup(&cls, kp, 0, rules, NULL));

    for (int i = 0; i < 16; i++) {
        del_flow(&cls, fa[i]);
        del_flow(&cls, fb[i]);
    }
    dpcls_destroy(&cls);
    dp_rcu_destroy(rcu);
}

/* Subtables with more hits move to the front; the counts restart. */
static void
test_sort_subtables(void **state DPS_UNUSED)
{
    struct dp_rcu *rcu = dp_rcu_create(1);
    struct flow_key masks[3], key, got[3];
    struct dp_flow *flows[3];
    uint64_t hits[3], w[FLOW_N_WORDS];
    struct dpcls cls;

    dpcls_init(&cls, rcu);
    for (int i = 0; i < 3; i++) {
        memset(w, 0, sizeof w);
        w[i + 1] = UINT64_MAX;
        dpif_test_key_from_words(&masks[i], w);
        w[i + 1] = 42;
        dpif_test_key_from_words(&key, w);
        flows[i] = add_flow(&cls, rcu, &key, &masks[i]);
    }
    /* Hit subtable 2 ten times, subtable 1 five times, 0 never. */
    for (int i = 0; i < 15; i++) {
        const struct flow_key *kp[1] = { &flows[i < 10 ? 2 : 1]->key };
        struct dpcls_rule *rules[1];
        unsigned int n_lookups = 0;

        assert_true(dpcls_lookup(&cls, kp, 1, rules, &n_lookups));
        assert_int_equal(n_lookups, i < 10 ? 3 : 2);
    }
    assert_int_equal(dpcls_get_subtables(&cls, got, hits, 3), 3);
    assert_true(flow_key_equal(&got[0], &masks[0]));
    assert_int_equal(hits[0], 0);
    assert_int_equal(hits[1], 5);
    assert_int_equal(hits[2], 10);

    dpcls_sort_subtables(&cls);
    assert_int_equal(dpcls_get_subtables(&cls, got, hits, 3), 3);
    assert_true(flow_key_equal(&got[0], &masks[2]));
    assert_true(flow_key_equal(&got[1], &masks[1]));
    assert_true(flow_key_equal(&got[2], &masks[0]));
    for (int i = 0; i < 3; i++) {
        assert_int_equal(hits[i], 0);
    }

    /* Now the busiest subtable is searched first. */
    const struct flow_key *kp[1] = { &flows[2]->key };
    struct dpcls_rule *rules[1];
    unsigned int n_lookups = 0;
    assert_true(dpcls_lookup(&cls, kp, 1, rules, &n_lookups));
    assert_int_equal(n_lookups, 1);

    /* Sorting a sorted classifier changes nothing. */
    dpcls_sort_subtables(&cls);
    assert_int_equal(dpcls_get_subtables(&cls, got, hits, 3), 3);
    assert_true(flow_key_equal(&got[0], &masks[2]));

    for (int i = 0; i < 3; i++) {
        del_flow(&cls, flows[i]);
    }
    dpcls_destroy(&cls);
    dp_rcu_destroy(rcu);
}

/* Many rules in one subtable (the table grows several times), then removal
 * of every other one. */
static void
test_grow_and_remove(void **state DPS_UNUSED)
{
    enum { N = 50000 };
    struct dp_rcu *rcu = dp_rcu_create(1);
    struct dp_flow **flows = xcalloc(N, sizeof *flows);
    uint64_t w[FLOW_N_WORDS];
    struct flow_key mask;
    struct dpcls cls;

    dpcls_init(&cls, rcu);
    memset(w, 0, sizeof w);
    w[0] = UINT64_MAX;
    w[14] = 0xffffffff;
    dpif_test_key_from_words(&mask, w);
    for (int i = 0; i < N; i++) {
        struct flow_key key;

        w[0] = i;
        w[14] = (uint64_t) i * 7919;
        dpif_test_key_from_words(&key, w);
        flows[i] = add_flow(&cls, rcu, &key, &mask);
        assert_non_null(flows[i]);
        if (i % 1000 == 0) {
            dp_rcu_reclaim(rcu);
        }
    }
    assert_int_equal(dpcls_n_subtables(&cls), 1);
    assert_int_equal(dpcls_n_rules(&cls), N);

    for (int i = 0; i < N; i += 2) {
        del_flow(&cls, flows[i]);
    }
    assert_int_equal(dpcls_n_rules(&cls), N / 2);
    for (int i = 0; i < N; i++) {
        const struct flow_key *kp[1];
        struct dpcls_rule *rules[1];
        uint64_t k[FLOW_N_WORDS];
        struct flow_key key;

        memset(k, 0, sizeof k);
        k[0] = i;
        k[14] = (uint64_t) i * 7919;
        k[5] = 77;              /* Outside the mask. */
        dpif_test_key_from_words(&key, k);
        kp[0] = &key;
        dpcls_lookup(&cls, kp, 1, rules, NULL);
        if (i % 2) {
            assert_ptr_equal(rule_flow(rules[0]), flows[i]);
        } else {
            assert_null(rules[0]);
        }
    }
    /* Removed rules' slots are reused. */
    for (int i = 0; i < N; i += 2) {
        struct flow_key key;

        w[0] = i;
        w[14] = (uint64_t) i * 7919;
        dpif_test_key_from_words(&key, w);
        flows[i] = add_flow(&cls, rcu, &key, &mask);
        assert_non_null(flows[i]);
    }
    for (int i = 0; i < N; i++) {
        del_flow(&cls, flows[i]);
    }
    dp_rcu_barrier(rcu);
    assert_int_equal(dp_rcu_n_pending(rcu), 0);
    dpcls_destroy(&cls);
    dp_rcu_destroy(rcu);
    free(flows);
}

static int n_freed;

static void
count_free(void *p)
{
    n_freed++;
    free(p);
}

/* A postponed callback waits for every online reader's quiescent state;
 * offline readers do not hold it back. */
static void
test_rcu_grace_period(void **state DPS_UNUSED)
{
    struct dp_rcu *rcu = dp_rcu_create(2);

    n_freed = 0;
    assert_int_equal(dp_rcu_register(rcu, 0), 0);
    assert_int_equal(dp_rcu_register(rcu, 1), 0);
    assert_int_equal(dp_rcu_register(rcu, 2), EINVAL);

    dp_rcu_postpone(rcu, count_free, xmalloc(16));
    assert_int_equal(dp_rcu_n_pending(rcu), 1);
    assert_int_equal(dp_rcu_reclaim(rcu), 0);
    dp_rcu_quiescent(rcu, 0);
    assert_int_equal(dp_rcu_reclaim(rcu), 0);
    dp_rcu_quiescent(rcu, 1);
    assert_int_equal(dp_rcu_reclaim(rcu), 1);
    assert_int_equal(n_freed, 1);

    /* Reader 1 offline: only reader 0 counts. */
    dp_rcu_offline(rcu, 1);
    dp_rcu_postpone(rcu, count_free, xmalloc(16));
    dp_rcu_postpone(rcu, count_free, xmalloc(16));
    assert_int_equal(dp_rcu_reclaim(rcu), 0);
    dp_rcu_quiescent(rcu, 0);
    assert_int_equal(dp_rcu_reclaim(rcu), 2);
    assert_int_equal(n_freed, 3);

    /* Callbacks postponed after a quiescent state wait for the next. */
    dp_rcu_online(rcu, 1);
    dp_rcu_postpone(rcu, count_free, xmalloc(16));
    dp_rcu_quiescent(rcu, 0);
    dp_rcu_quiescent(rcu, 1);
    dp_rcu_postpone(rcu, count_free, xmalloc(16));
    assert_int_equal(dp_rcu_reclaim(rcu), 1);
    assert_int_equal(dp_rcu_n_pending(rcu), 1);

    dp_rcu_unregister(rcu, 0);
    dp_rcu_unregister(rcu, 1);
    dp_rcu_destroy(rcu);        /* Runs the last one. */
    assert_int_equal(n_freed, 5);
}

/* Flow objects: UFIDs, actions replaced under RCU, statistics, references. */
static void
test_flow_object(void **state DPS_UNUSED)
{
    struct dp_rcu *rcu = dp_rcu_create(1);
    struct flow_key key, key2, mask;
    struct dp_flow_stats stats;
    char s[DP_UFID_STRLEN];

    dpif_test_seed(7);
    dpif_test_random_key(&key, 0.2);
    dpif_test_random_mask(&mask, 0.5);
    dpif_test_matching_key(&key2, &key, &mask);

    struct dp_flow *a = dp_flow_create(rcu, &key, &mask, "xyz", 3, NULL);
    struct dp_flow *b = dp_flow_create(rcu, &key2, &mask, NULL, 0, NULL);
    assert_true(dp_flow_ufid_equal(&a->ufid, &b->ufid));
    assert_true(flow_key_equal(&a->key, &b->key));
    assert_int_equal(dp_flow_get_mark(a), DP_FLOW_MARK_NONE);
    dp_flow_set_mark(a, 5);
    assert_int_equal(dp_flow_get_mark(a), 5);

    struct dp_ufid given = { { 1, 0x20003, 0x40005, 6 } };
    struct dp_flow *c = dp_flow_create(rcu, &key, &mask, NULL, 0, &given);
    assert_true(dp_flow_ufid_equal(&c->ufid, &given));
    dp_flow_ufid_format(&given, s);
    assert_string_equal(s, "ufid:00000001-0002-0003-0004-000500000006");

    dpif_test_random_key(&key2, 0.2);
    struct dp_flow *d = dp_flow_create(rcu, &key2, &mask, NULL, 0, NULL);
    if (!flow_key_equal(&d->key, &a->key)) {
        assert_false(dp_flow_ufid_equal(&a->ufid, &d->ufid));
    }

    const struct dp_flow_actions *acts = dp_flow_get_actions(a);
    assert_int_equal(acts->size, 3);
    assert_memory_equal(acts->data, "xyz", 3);
    dp_flow_set_actions(a, "hello", 5);
    assert_int_equal(dp_flow_get_actions(a)->size, 5);
    assert_int_equal(dp_rcu_n_pending(rcu), 1);

    dp_flow_used(a, 2, 128, 0x12, 1000);
    dp_flow_used(a, 1, 64, 0x01, 2000);
    dp_flow_get_stats(a, &stats);
    assert_int_equal(stats.n_packets, 3);
    assert_int_equal(stats.n_bytes, 192);
    assert_int_equal(stats.used, 2000);
    assert_int_equal(stats.tcp_flags, 0x13);
    dp_flow_clear_stats(a);
    dp_flow_get_stats(a, &stats);
    assert_int_equal(stats.n_packets, 0);

    dp_flow_ref(a);
    dp_flow_unref(a);
    assert_true(dp_flow_try_ref(a));
    dp_flow_unref(a);
    dp_flow_unref(a);           /* The last: freed after a grace period. */
    assert_false(dp_flow_try_ref(a));   /* Still readable until then. */
    dp_flow_unref(b);
    dp_flow_unref(c);
    dp_flow_unref(d);
    dp_flow_unref(NULL);
    dp_rcu_destroy(rcu);
}

/* A reader thread loops over batch lookups, as a PMD would, while this
 * thread inserts and removes flows and reclaims memory.  Every flow the
 * reader sees must match its key and still be readable (ASan checks that
 * nothing is freed under it). */
struct reader_args {
    struct dpcls *cls;
    struct dp_rcu *rcu;
    const struct flow_key *keys;
    size_t n_keys;
    bool stop;
    uint64_t n_hits, n_lookups, n_errors;
};

static void *
reader_main(void *args_)
{
    struct reader_args *args = args_;
    size_t pos = 0;

    dp_rcu_register(args->rcu, 0);
    while (!__atomic_load_n(&args->stop, __ATOMIC_ACQUIRE)) {
        const struct flow_key *kp[DPCLS_MAX_BATCH];
        struct dpcls_rule *rules[DPCLS_MAX_BATCH];

        for (int i = 0; i < DPCLS_MAX_BATCH; i++) {
            kp[i] = &args->keys[pos++ % args->n_keys];
        }
        dpcls_lookup(args->cls, kp, DPCLS_MAX_BATCH, rules, NULL);
        for (int i = 0; i < DPCLS_MAX_BATCH; i++) {
            struct dp_flow *f = rule_flow(rules[i]);

            if (f) {
                const struct dp_flow_actions *a = dp_flow_get_actions(f);

                args->n_hits++;
                if (!flow_matches(f, kp[i]) || a->size != 1
                    || a->data[0] != 'a') {
                    args->n_errors++;
                }
            }
        }
        args->n_lookups += DPCLS_MAX_BATCH;
        dp_rcu_quiescent(args->rcu, 0);
    }
    dp_rcu_unregister(args->rcu, 0);
    return NULL;
}

static void
test_rcu_threads(void **state DPS_UNUSED)
{
    enum { N_FLOWS = 2000, N_MASKS = 6 };
    struct dp_rcu *rcu = dp_rcu_create(1);
    struct dp_flow **flows = xcalloc(N_FLOWS, sizeof *flows);
    struct flow_key *keys = xcalloc(N_FLOWS, sizeof *keys);
    struct flow_key masks[N_MASKS], base[N_FLOWS];
    struct reader_args args;
    struct dpcls cls;
    pthread_t reader;

    dpif_test_seed(99);
    dpcls_init(&cls, rcu);
    for (int i = 0; i < N_MASKS; i++) {
        dpif_test_random_mask(&masks[i], 0.4);
    }
    for (int i = 0; i < N_FLOWS; i++) {
        dpif_test_random_key(&base[i], 0.3);
        flows[i] = add_flow(&cls, rcu, &base[i], &masks[i % N_MASKS]);
        if (flows[i]) {
            dpif_test_matching_key(&keys[i], &flows[i]->key,
                                   &flows[i]->mask);
        } else {
            keys[i] = base[i];
        }
    }

    memset(&args, 0, sizeof args);
    args.cls = &cls;
    args.rcu = rcu;
    args.keys = keys;
    args.n_keys = N_FLOWS;
    assert_int_equal(pthread_create(&reader, NULL, reader_main, &args), 0);

    /* Churn for about half a second: remove and re-add flows, sort. */
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    size_t n_churn = 0;
    do {
        for (int k = 0; k < 200; k++) {
            size_t i = dpif_test_random() % N_FLOWS;

            if (flows[i]) {
                del_flow(&cls, flows[i]);
                flows[i] = NULL;
            } else {
                flows[i] = add_flow(&cls, rcu, &base[i],
                                    &masks[i % N_MASKS]);
            }
            n_churn++;
        }
        dpcls_sort_subtables(&cls);
        dp_rcu_reclaim(rcu);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000LL
             + (now.tv_nsec - start.tv_nsec) < 500000000LL);

    /* Grow one subtable from nothing to 20000 rules (its hash table is
     * rebuilt and republished a dozen times) and empty it again, under the
     * reader. */
    enum { N_GROW = 20000 };
    struct dp_flow **grown = xcalloc(N_GROW, sizeof *grown);
    uint64_t w[FLOW_N_WORDS];
    struct flow_key grow_mask, grow_key;

    memset(w, 0, sizeof w);
    w[12] = UINT64_MAX;
    dpif_test_key_from_words(&grow_mask, w);
    for (int i = 0; i < N_GROW; i++) {
        w[12] = i + 1;
        dpif_test_key_from_words(&grow_key, w);
        grown[i] = add_flow(&cls, rcu, &grow_key, &grow_mask);
        assert_non_null(grown[i]);
        if (i % 500 == 0) {
            dp_rcu_reclaim(rcu);
        }
    }
    for (int i = 0; i < N_GROW; i++) {
        del_flow(&cls, grown[i]);
        if (i % 500 == 0) {
            dp_rcu_reclaim(rcu);
        }
    }
    free(grown);

    __atomic_store_n(&args.stop, true, __ATOMIC_RELEASE);
    pthread_join(reader, NULL);
    print_message("%zu changes, %llu lookups, %llu hits\n", n_churn,
                  (unsigned long long) args.n_lookups,
                  (unsigned long long) args.n_hits);
    assert_int_equal(args.n_errors, 0);
    assert_true(args.n_lookups > 0);
    assert_true(args.n_hits > 0);

    for (int i = 0; i < N_FLOWS; i++) {
        if (flows[i]) {
            del_flow(&cls, flows[i]);
        }
    }
    dpcls_destroy(&cls);
    dp_rcu_destroy(rcu);
    free(flows);
    free(keys);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_vs_brute_force),
        cmocka_unit_test(test_batch_mixed),
        cmocka_unit_test(test_sort_subtables),
        cmocka_unit_test(test_grow_and_remove),
        cmocka_unit_test(test_rcu_grace_period),
        cmocka_unit_test(test_flow_object),
        cmocka_unit_test(test_rcu_threads),
    };
    return cmocka_run_group_tests_name("dpcls", tests, NULL, NULL);
}
