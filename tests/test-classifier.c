/* Unit tests for lib/classifier.c, with a randomized check against a
 * linear scan of the same rules.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "classifier.h"
#include "match-test.h"
#include "util.h"

static void
test_empty(void **state DPS_UNUSED)
{
    struct classifier cls;
    struct match_flow f = match_test_ip_flow(1, 2), wc;

    classifier_init(&cls);
    memset(&wc, 0, sizeof wc);
    assert_null(classifier_lookup(&cls, &f, &wc));
    assert_true(classifier_is_empty(&cls));
    struct match_flow zero;
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&wc, &zero, sizeof wc);
    classifier_destroy(&cls);
}

static void
test_priorities_and_wc(void **state DPS_UNUSED)
{
    struct classifier cls;
    struct cls_rule any, net, host;
    struct match catchall;

    classifier_init(&cls);
    match_init_catchall(&catchall);
    cls_rule_init(&any, &catchall, 0);
    struct match m = match_test_ip_dst(0x0a000000, 8);
    cls_rule_init(&net, &m, 100);
    m = match_test_ip_dst(0x0a000005, 32);
    cls_rule_init(&host, &m, 50);
    assert_null(classifier_insert(&cls, &any));
    assert_null(classifier_insert(&cls, &net));
    assert_null(classifier_insert(&cls, &host));
    assert_int_equal(classifier_count(&cls), 3);

    /* 10.0.0.5 matches all three; the /8 has the highest priority, and the
     * lookup stops before the lower subtables: wc has only dl_type and
     * the /8. */
    struct match_flow f = match_test_ip_flow(1, 0x0a000005), wc;
    memset(&wc, 0, sizeof wc);
    assert_ptr_equal(classifier_lookup(&cls, &f, &wc), &net);
    assert_int_equal(wc.dp.nw_dst, htonl(0xff000000));
    assert_int_equal(wc.dp.dl_type, 0xffff);
    assert_int_equal(wc.dp.nw_src, 0);

    /* 11.0.0.5 misses the /8 and the host: the catch-all, after consulting
     * all the masks. */
    f = match_test_ip_flow(1, 0x0b000005);
    memset(&wc, 0, sizeof wc);
    assert_ptr_equal(classifier_lookup(&cls, &f, &wc), &any);
    assert_int_equal(wc.dp.nw_dst, htonl(0xffffffff));

    classifier_remove(&cls, &net);
    f = match_test_ip_flow(1, 0x0a000005);
    assert_ptr_equal(classifier_lookup(&cls, &f, NULL), &host);
    classifier_remove(&cls, &host);
    classifier_remove(&cls, &any);
    assert_true(classifier_is_empty(&cls));
    classifier_destroy(&cls);
}

static void
test_same_match(void **state DPS_UNUSED)
{
    struct classifier cls;
    struct cls_rule a, b, c, d;
    struct match m = match_test_ip_dst(0x0a000000, 24);

    classifier_init(&cls);
    cls_rule_init(&a, &m, 10);
    cls_rule_init(&b, &m, 30);
    cls_rule_init(&c, &m, 20);
    cls_rule_init(&d, &m, 30);
    assert_null(classifier_insert(&cls, &a));
    assert_null(classifier_insert(&cls, &b));
    assert_null(classifier_insert(&cls, &c));
    assert_ptr_equal(classifier_insert(&cls, &d), &b);      /* Replaced. */
    assert_int_equal(classifier_count(&cls), 3);

    struct match_flow f = match_test_ip_flow(0, 0x0a000001);
    assert_ptr_equal(classifier_lookup(&cls, &f, NULL), &d);
    assert_ptr_equal(classifier_find_exactly(&cls, &m, 20), &c);
    assert_null(classifier_find_exactly(&cls, &m, 25));
    struct match other = match_test_ip_dst(0x0a000000, 16);
    assert_null(classifier_find_exactly(&cls, &other, 20));

    classifier_remove(&cls, &d);
    assert_ptr_equal(classifier_lookup(&cls, &f, NULL), &c);
    classifier_remove(&cls, &a);
    assert_ptr_equal(classifier_lookup(&cls, &f, NULL), &c);
    classifier_remove(&cls, &c);
    assert_null(classifier_lookup(&cls, &f, NULL));
    classifier_destroy(&cls);
}

static void
test_loose_and_overlap(void **state DPS_UNUSED)
{
    struct classifier cls;
    struct cls_rule r1, r2, r3;
    struct match m;

    classifier_init(&cls);
    m = match_test_ip_dst(0x0a000000, 24);
    cls_rule_init(&r1, &m, 5);
    m = match_test_ip_dst(0x0a000001, 32);
    cls_rule_init(&r2, &m, 5);
    m = match_test_ip_dst(0x0b000001, 32);
    cls_rule_init(&r3, &m, 7);
    classifier_insert(&cls, &r1);
    classifier_insert(&cls, &r2);
    classifier_insert(&cls, &r3);

    /* ip,nw_dst=10.0.0.0/8 loosely matches r1 and r2. */
    struct cls_rule **rules;
    m = match_test_ip_dst(0x0a000000, 8);
    size_t n = classifier_collect(&cls, &m, &rules);
    assert_int_equal(n, 2);
    assert_true((rules[0] == &r1 && rules[1] == &r2)
                || (rules[0] == &r2 && rules[1] == &r1));
    free(rules);

    /* A catch-all target collects everything. */
    struct match all;
    match_init_catchall(&all);
    n = classifier_collect(&cls, &all, &rules);
    assert_int_equal(n, 3);
    free(rules);

    /* tcp is more specific than ip: r1 does not loosely match it. */
    m = match_test_ip_dst(0x0a000000, 8);
    match_set_nw_proto(&m, 6);
    assert_false(cls_rule_is_loose_match(&r1, &m));

    /* Overlap: same priority and some packet matches both. */
    m = match_test_ip_dst(0x0a000001, 32);
    assert_true(classifier_overlaps(&cls, &m, 5));
    assert_false(classifier_overlaps(&cls, &m, 7));
    m = match_test_ip_dst(0x0c000000, 8);
    assert_false(classifier_overlaps(&cls, &m, 5));
    assert_true(classifier_overlaps(&cls, &all, 7));
    classifier_destroy(&cls);
}

/* The randomized check.  Rules match a few small-domain fields so that
 * lookups hit; priorities are distinct so that the answer is unique. */
struct ref_rule {
    struct cls_rule rule;
    bool in;
};

static uint32_t rng_state = 12345;

static uint32_t
rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void
random_flow(struct match_flow *f)
{
    memset(f, 0, sizeof *f);
    f->in_port = rnd() % 3;
    f->dp.dl_type = htons(rnd() % 2 ? ETH_TYPE_IP : ETH_TYPE_ARP);
    f->dp.nw_src = htonl(0x0a000000 | (rnd() % 4) << 8 | rnd() % 4);
    f->dp.nw_dst = htonl(0x0a000000 | (rnd() % 4));
    f->dp.tp_dst = htons(rnd() % 4);
    f->regs[0] = rnd() % 3;
    f->metadata = rnd() % 2;
}

static void
random_match(struct match *m)
{
    struct match_flow f;
    random_flow(&f);
    match_init_catchall(m);
    if (rnd() % 2) {
        match_set_in_port(m, f.in_port);
    }
    if (rnd() % 2) {
        match_set_dl_type(m, f.dp.dl_type);
    }
    if (rnd() % 2) {
        static const uint32_t masks[] = { 0xffffffff, 0xffffff00, 0xff };
        match_set_nw_src_masked(m, f.dp.nw_src, htonl(masks[rnd() % 3]));
    }
    if (rnd() % 3 == 0) {
        match_set_nw_dst_masked(m, f.dp.nw_dst, htonl(0xffffffff));
    }
    if (rnd() % 3 == 0) {
        match_set_tp_dst_masked(m, f.dp.tp_dst, htons(rnd() % 2 ? 3 : 1));
    }
    if (rnd() % 3 == 0) {
        match_set_reg_masked(m, 0, f.regs[0], UINT32_MAX);
    }
    if (rnd() % 4 == 0) {
        match_set_metadata_masked(m, f.metadata, 1);
    }
}

static const struct cls_rule *
linear_lookup(const struct ref_rule *rules, size_t n,
              const struct match_flow *f)
{
    const struct cls_rule *best = NULL;
    for (size_t i = 0; i < n; i++) {
        if (rules[i].in && match_matches_flow(&rules[i].rule.match, f)
            && (!best || rules[i].rule.priority > best->priority)) {
            best = &rules[i].rule;
        }
    }
    return best;
}

/* A flow that agrees with 'f' on the bits of 'wc' and is random elsewhere. */
static void
perturb(const struct match_flow *f, const struct match_flow *wc,
        struct match_flow *out)
{
    struct match_flow r;
    random_flow(&r);
    const uint64_t *wf = match_flow_words(f), *ww = match_flow_words(wc);
    const uint64_t *wr = match_flow_words(&r);
    uint64_t *wo = match_flow_words_rw(out);
    for (size_t k = 0; k < MATCH_FLOW_N_WORDS; k++) {
        wo[k] = (wf[k] & ww[k]) | (wr[k] & ~ww[k]);
    }
}

static void
test_random(void **state DPS_UNUSED)
{
    enum { N_RULES = 200, N_ROUNDS = 3000 };
    struct ref_rule *rules = xcalloc(N_RULES, sizeof *rules);
    struct classifier cls;
    size_t n_in = 0;

    classifier_init(&cls);
    for (size_t i = 0; i < N_RULES; i++) {
        struct match m;
        random_match(&m);
        /* Distinct priorities, in random order. */
        cls_rule_init(&rules[i].rule, &m, (int) ((i * 7919) % 1009));
    }

    for (int round = 0; round < N_ROUNDS; round++) {
        struct ref_rule *r = &rules[rnd() % N_RULES];
        if (r->in) {
            classifier_remove(&cls, &r->rule);
            r->in = false;
            n_in--;
        } else if (rnd() % 4) {
            assert_null(classifier_insert(&cls, &r->rule));
            r->in = true;
            n_in++;
        }
        assert_int_equal(classifier_count(&cls), n_in);

        for (int j = 0; j < 4; j++) {
            struct match_flow f, wc, g;
            random_flow(&f);
            memset(&wc, 0, sizeof wc);
            const struct cls_rule *got = classifier_lookup(&cls, &f, &wc);
            const struct cls_rule *want = linear_lookup(rules, N_RULES, &f);
            assert_ptr_equal(got, want);

            /* The un-wildcarded bits decide: any flow that agrees on them
             * gets the same rule. */
            for (int k = 0; k < 4; k++) {
                perturb(&f, &wc, &g);
                assert_ptr_equal(linear_lookup(rules, N_RULES, &g), want);
            }
        }

        /* Strict lookup finds each rule that is in. */
        if (r->in) {
            assert_ptr_equal(classifier_find_exactly(&cls, &r->rule.match,
                                                     r->rule.priority),
                             &r->rule);
        }
    }

    for (size_t i = 0; i < N_RULES; i++) {
        if (rules[i].in) {
            classifier_remove(&cls, &rules[i].rule);
        }
    }
    assert_true(classifier_is_empty(&cls));
    classifier_destroy(&cls);
    free(rules);
}

/* Staged lookup: a subtable whose in_port differs adds only in_port to
 * 'wc'; one whose L2 differs adds in_port and the Ethernet bits, not its
 * L3 and L4 ones; emptied and refilled stage indexes still answer. */
static void
test_staged(void **state DPS_UNUSED)
{
    struct classifier cls;
    struct cls_rule a, b;
    struct match m;

    classifier_init(&cls);
    match_init_catchall(&m);
    match_set_in_port(&m, 3);
    match_set_dl_type(&m, htons(0x0800));
    match_set_nw_proto(&m, 17);
    match_set_tp_dst_masked(&m, htons(53), htons(0xffff));
    cls_rule_init(&a, &m, 10);
    assert_null(classifier_insert(&cls, &a));

    struct match_flow f = match_test_ip_flow(1, 2), wc;
    f.in_port = 1;
    memset(&wc, 0, sizeof wc);
    assert_null(classifier_lookup(&cls, &f, &wc));
    assert_true(wc.in_port != 0);
    assert_int_equal(wc.dp.dl_type, 0);
    assert_int_equal(wc.dp.nw_proto, 0);
    assert_int_equal(wc.dp.tp_dst, 0);

    f.in_port = 3;
    f.dp.dl_type = htons(0x86dd);
    memset(&wc, 0, sizeof wc);
    assert_null(classifier_lookup(&cls, &f, &wc));
    assert_int_equal(wc.dp.dl_type, 0xffff);
    assert_int_equal(wc.dp.nw_proto, 0);

    f.dp.dl_type = htons(0x0800);
    f.dp.nw_proto = 17;
    f.dp.tp_dst = htons(53);
    memset(&wc, 0, sizeof wc);
    assert_ptr_equal(classifier_lookup(&cls, &f, &wc), &a);
    assert_int_equal(wc.dp.tp_dst, 0xffff);

    /* Same mask, another in_port; then the first goes. */
    match_set_in_port(&m, 4);
    cls_rule_init(&b, &m, 10);
    assert_null(classifier_insert(&cls, &b));
    classifier_remove(&cls, &a);
    assert_null(classifier_lookup(&cls, &f, NULL));
    f.in_port = 4;
    assert_ptr_equal(classifier_lookup(&cls, &f, NULL), &b);
    classifier_remove(&cls, &b);
    assert_true(classifier_is_empty(&cls));
    classifier_destroy(&cls);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_priorities_and_wc),
        cmocka_unit_test(test_same_match),
        cmocka_unit_test(test_loose_and_overlap),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_staged),
    };
    return cmocka_run_group_tests_name("classifier", tests, NULL, NULL);
}
