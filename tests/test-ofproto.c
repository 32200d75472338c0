/* Unit tests for ofproto/ofproto.c: flow_mod semantics, timeouts,
 * statistics queries.  Action lists are opaque to ofproto, so the tests
 * use short strings as actions.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "match-test.h"
#include "ofproto/ofproto.h"
#include "util.h"

struct removed {
    int n;
    enum ofproto_removed_reason reason;
    int priority;
    uint64_t cookie;
};

static void
record_removed(void *aux, const struct ofproto_rule *rule,
               enum ofproto_removed_reason reason, long long now DPS_UNUSED)
{
    struct removed *r = aux;
    r->n++;
    r->reason = reason;
    r->priority = rule->cr.priority;
    r->cookie = rule->cookie;
}

/* A rule "outputs to" port P if its action string is "output:P". */
static bool
outputs_to(const struct ofproto_rule *rule, uint32_t port,
           uint32_t group DPS_UNUSED)
{
    char want[32];
    snprintf(want, sizeof want, "output:%u", port);
    return (rule->ofpacts_len == strlen(want)
            && !memcmp(rule->ofpacts, want, rule->ofpacts_len));
}

static enum ofproto_error
flow_mod(struct ofproto *p, enum ofproto_fm_command cmd, uint8_t table,
         const struct match *m, int priority, uint64_t cookie,
         uint16_t flags, const char *actions, long long now)
{
    struct ofproto_flow_mod fm;
    ofproto_flow_mod_init(&fm, cmd);
    fm.table_id = table;
    fm.match = *m;
    fm.priority = priority;
    fm.cookie = cookie;
    fm.flags = flags;
    fm.ofpacts = actions;
    fm.ofpacts_len = actions ? strlen(actions) : 0;
    return ofproto_flow_mod(p, &fm, now);
}

static const char *
actions_of(const struct ofproto_rule *rule)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "%.*s", (int) rule->ofpacts_len,
             (const char *) rule->ofpacts);
    return buf;
}

static void
test_add_lookup_replace(void **state DPS_UNUSED)
{
    struct ofproto *p = ofproto_create("br0");
    struct match m = match_test_ip_dst(0x0a000000, 8), all;
    struct match_flow f = match_test_ip_flow(0, 0x0a000001);

    match_init_catchall(&all);
    uint64_t v0 = ofproto_version(p);
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 0, &all, 0, 0, 0,
                              "NORMAL", 0), OFPROTO_OK);
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 0, &m, 100, 1, 0,
                              "output:1", 0), OFPROTO_OK);
    assert_true(ofproto_version(p) > v0);
    assert_int_equal(ofproto_n_rules(p, 0), 2);

    struct ofproto_rule *r = ofproto_lookup(p, 0, &f, NULL);
    assert_string_equal(actions_of(r), "output:1");
    ofproto_rule_credit(r, 3, 300, 10);

    /* Same match and priority: replaced, counters kept. */
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 0, &m, 100, 2, 0,
                              "output:2", 20), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules(p, 0), 2);
    r = ofproto_lookup(p, 0, &f, NULL);
    assert_string_equal(actions_of(r), "output:2");
    assert_int_equal(r->cookie, 2);
    assert_int_equal(r->n_packets, 3);
    assert_int_equal(r->n_bytes, 300);
    assert_int_equal(r->created, 20);

    /* reset_counts clears them, and the rule keeps the flag, which Open
     * vSwitch reports in OpenFlow 1.3+ flow stats. */
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 0, &m, 100, 2,
                              OFPROTO_FF_RESET_COUNTS, "output:3", 30),
                     OFPROTO_OK);
    r = ofproto_lookup(p, 0, &f, NULL);
    assert_int_equal(r->n_packets, 0);
    assert_int_equal(r->flags, OFPROTO_FF_RESET_COUNTS);

    /* Other flows: table 0's catch-all; other tables are empty. */
    struct match_flow g = match_test_ip_flow(0, 0x0b000001);
    assert_string_equal(actions_of(ofproto_lookup(p, 0, &g, NULL)),
                        "NORMAL");
    assert_null(ofproto_lookup(p, 1, &g, NULL));

    /* OFPTT_ALL in an add (OpenFlow 1.0) means table 0; 254 is the last
     * table. */
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, OFPROTO_TABLE_ALL, &m, 5,
                              0, 0, "x", 0), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules(p, 0), 3);
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 254, &m, 5, 0, 0, "x", 0),
                     OFPROTO_OK);
    assert_int_equal(ofproto_n_rules_total(p), 4);
    ofproto_destroy(p);
}

static void
test_check_overlap(void **state DPS_UNUSED)
{
    struct ofproto *p = ofproto_create("br0");
    struct match a = match_test_ip_dst(0x0a000000, 8), b = match_test_ip_dst(0x0a010000, 16);
    struct match c = match_test_ip_dst(0x0b000000, 8);

    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 0, &a, 10, 0, 0, "x", 0),
                     OFPROTO_OK);
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 0, &b, 10, 0,
                              OFPROTO_FF_CHECK_OVERLAP, "y", 0),
                     OFPROTO_ERR_OVERLAP);
    assert_int_equal(ofproto_n_rules(p, 0), 1);
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 0, &b, 11, 0,
                              OFPROTO_FF_CHECK_OVERLAP, "y", 0), OFPROTO_OK);
    assert_int_equal(flow_mod(p, OFPROTO_FC_ADD, 0, &c, 10, 0,
                              OFPROTO_FF_CHECK_OVERLAP, "z", 0), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules(p, 0), 3);
    ofproto_destroy(p);
}

static void
test_modify(void **state DPS_UNUSED)
{
    struct ofproto *p = ofproto_create("br0");
    struct match a = match_test_ip_dst(0x0a000000, 8), b = match_test_ip_dst(0x0a010000, 16);
    struct match wide = match_test_ip_dst(0, 0), other = match_test_ip_dst(0x0b000000, 8);
    struct ofproto_flow_mod fm;
    struct ofproto_rule **rules;
    struct ofproto_flow_query q;

    flow_mod(p, OFPROTO_FC_ADD, 0, &a, 10, 0x11, 0, "a", 0);
    flow_mod(p, OFPROTO_FC_ADD, 0, &b, 20, 0x22, 0, "b", 0);

    /* Loose: "ip" covers both. */
    ofproto_flow_mod_init(&fm, OFPROTO_FC_MODIFY);
    fm.match = wide;
    fm.ofpacts = "m";
    fm.ofpacts_len = 1;
    assert_int_equal(ofproto_flow_mod(p, &fm, 5), OFPROTO_OK);
    ofproto_flow_query_init(&q);
    assert_int_equal(ofproto_collect(p, &q, &rules), 2);
    for (int i = 0; i < 2; i++) {
        assert_string_equal(actions_of(rules[i]), "m");
        assert_int_equal(rules[i]->modified, 5);
    }
    free(rules);

    /* Cookie filter: only 0x22. */
    fm.cookie = 0x22;
    fm.cookie_mask = UINT64_MAX;
    fm.ofpacts = "c";
    assert_int_equal(ofproto_flow_mod(p, &fm, 6), OFPROTO_OK);
    struct match_flow f = match_test_ip_flow(0, 0x0a010001), g = match_test_ip_flow(0, 0x0a020001);
    assert_string_equal(actions_of(ofproto_lookup(p, 0, &f, NULL)), "c");
    assert_string_equal(actions_of(ofproto_lookup(p, 0, &g, NULL)), "m");

    /* Strict: only the exact match and priority. */
    ofproto_flow_mod_init(&fm, OFPROTO_FC_MODIFY_STRICT);
    fm.match = a;
    fm.priority = 10;
    fm.ofpacts = "s";
    fm.ofpacts_len = 1;
    fm.modify_cookie = true;
    fm.new_cookie = 0x99;
    assert_int_equal(ofproto_flow_mod(p, &fm, 7), OFPROTO_OK);
    struct ofproto_rule *r = ofproto_lookup(p, 0, &g, NULL);
    assert_string_equal(actions_of(r), "s");
    assert_int_equal(r->cookie, 0x99);
    fm.priority = 11;           /* No such rule... */
    fm.match = other;           /* ...so OpenFlow 1.0 semantics add it. */
    assert_int_equal(ofproto_flow_mod(p, &fm, 7), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules(p, 0), 3);
    struct match_flow h = match_test_ip_flow(0, 0x0b000001);
    r = ofproto_lookup(p, 0, &h, NULL);
    assert_int_equal(r->cookie, 0x99);
    assert_int_equal(r->cr.priority, 11);

    /* Without modify_cookie (OpenFlow 1.1+), a modify that matches nothing
     * adds nothing. */
    fm.modify_cookie = false;
    fm.priority = 12;
    assert_int_equal(ofproto_flow_mod(p, &fm, 7), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules(p, 0), 3);
    ofproto_destroy(p);
}

static void
test_delete(void **state DPS_UNUSED)
{
    struct ofproto *p = ofproto_create("br0");
    struct removed rem = { 0 };
    struct match a = match_test_ip_dst(0x0a000000, 8), b = match_test_ip_dst(0x0a010000, 16);
    struct match all;
    struct ofproto_flow_mod fm;

    ofproto_set_flow_removed_cb(p, record_removed, &rem);
    ofproto_set_outputs_to_cb(p, outputs_to);
    match_init_catchall(&all);
    flow_mod(p, OFPROTO_FC_ADD, 0, &all, 0, 0, 0, "NORMAL", 0);
    flow_mod(p, OFPROTO_FC_ADD, 0, &a, 10, 1, OFPROTO_FF_SEND_FLOW_REM,
             "output:1", 0);
    flow_mod(p, OFPROTO_FC_ADD, 0, &b, 20, 2, 0, "output:2", 0);
    flow_mod(p, OFPROTO_FC_ADD, 3, &b, 20, 2, 0, "output:2", 0);

    /* Strict with the wrong priority: nothing. */
    assert_int_equal(flow_mod(p, OFPROTO_FC_DELETE_STRICT, 0, &a, 11, 0, 0,
                              NULL, 0), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules_total(p), 4);

    /* out_port filter: only the rule that outputs to 1. */
    ofproto_flow_mod_init(&fm, OFPROTO_FC_DELETE);
    fm.table_id = OFPROTO_TABLE_ALL;
    fm.out_port = 1;
    assert_int_equal(ofproto_flow_mod(p, &fm, 9), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules_total(p), 3);
    assert_int_equal(rem.n, 1);
    assert_int_equal(rem.reason, OFPROTO_RR_DELETE);
    assert_int_equal(rem.priority, 10);

    /* Loose "ip" in all tables: both /16s, not the catch-all (it is less
     * specific); no send_flow_rem on them. */
    ofproto_flow_mod_init(&fm, OFPROTO_FC_DELETE);
    fm.table_id = OFPROTO_TABLE_ALL;
    fm.match = match_test_ip_dst(0, 0);
    assert_int_equal(ofproto_flow_mod(p, &fm, 9), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules_total(p), 1);
    assert_int_equal(rem.n, 1);

    /* Catch-all delete in table 0. */
    fm.match = all;
    fm.table_id = 0;
    assert_int_equal(ofproto_flow_mod(p, &fm, 9), OFPROTO_OK);
    assert_int_equal(ofproto_n_rules_total(p), 0);

    /* A command OpenFlow does not have. */
    fm.command = 9;
    assert_int_equal(ofproto_flow_mod(p, &fm, 9), OFPROTO_ERR_BAD_COMMAND);
    ofproto_destroy(p);
}

static void
test_timeouts(void **state DPS_UNUSED)
{
    struct ofproto *p = ofproto_create("br0");
    struct removed rem = { 0 };
    struct ofproto_flow_mod fm;
    struct match a = match_test_ip_dst(0x0a000000, 8), b = match_test_ip_dst(0x0b000000, 8);

    ofproto_set_flow_removed_cb(p, record_removed, &rem);
    assert_int_equal(ofproto_next_wakeup(p), LLONG_MAX);

    ofproto_flow_mod_init(&fm, OFPROTO_FC_ADD);
    fm.match = a;
    fm.idle_timeout = 10;
    fm.flags = OFPROTO_FF_SEND_FLOW_REM;
    fm.cookie = 0xa;
    ofproto_flow_mod(p, &fm, 1000);
    fm.match = b;
    fm.idle_timeout = 0;
    fm.hard_timeout = 30;
    fm.cookie = 0xb;
    ofproto_flow_mod(p, &fm, 1000);
    assert_int_equal(ofproto_next_wakeup(p), 11000);

    /* Traffic keeps the idle one alive. */
    struct match_flow f = match_test_ip_flow(0, 0x0a000001);
    ofproto_rule_credit(ofproto_lookup(p, 0, &f, NULL), 1, 64, 9000);
    ofproto_run(p, 11000);
    assert_int_equal(ofproto_n_rules(p, 0), 2);
    assert_int_equal(ofproto_next_wakeup(p), 19000);
    ofproto_run(p, 19000);
    assert_int_equal(ofproto_n_rules(p, 0), 1);
    assert_int_equal(rem.n, 1);
    assert_int_equal(rem.reason, OFPROTO_RR_IDLE_TIMEOUT);
    assert_int_equal(rem.cookie, 0xa);

    /* The hard timeout counts from the last modification. */
    ofproto_flow_mod_init(&fm, OFPROTO_FC_MODIFY_STRICT);
    fm.match = b;
    ofproto_flow_mod(p, &fm, 20000);
    ofproto_run(p, 31000);
    assert_int_equal(ofproto_n_rules(p, 0), 1);
    ofproto_run(p, 50000);
    assert_int_equal(ofproto_n_rules(p, 0), 0);
    assert_int_equal(rem.n, 2);
    assert_int_equal(rem.reason, OFPROTO_RR_HARD_TIMEOUT);
    assert_int_equal(ofproto_next_wakeup(p), LLONG_MAX);

    /* Replacing a timed rule with an untimed one leaves nothing to wait
     * for. */
    ofproto_flow_mod_init(&fm, OFPROTO_FC_ADD);
    fm.match = a;
    fm.hard_timeout = 5;
    ofproto_flow_mod(p, &fm, 60000);
    assert_int_equal(ofproto_next_wakeup(p), 65000);
    fm.hard_timeout = 0;
    ofproto_flow_mod(p, &fm, 60000);
    assert_int_equal(ofproto_next_wakeup(p), LLONG_MAX);
    ofproto_destroy(p);
}

static void
test_collect(void **state DPS_UNUSED)
{
    struct ofproto *p = ofproto_create("br0");
    struct match a = match_test_ip_dst(0x0a000000, 8), b = match_test_ip_dst(0x0a010000, 16);
    struct ofproto_flow_query q;
    struct ofproto_rule **rules;

    flow_mod(p, OFPROTO_FC_ADD, 0, &a, 10, 0x100, 0, "a", 0);
    flow_mod(p, OFPROTO_FC_ADD, 1, &b, 20, 0x200, 0, "b", 0);
    flow_mod(p, OFPROTO_FC_ADD, 2, &b, 30, 0x201, 0, "c", 0);

    ofproto_flow_query_init(&q);
    assert_int_equal(ofproto_collect(p, &q, &rules), 3);
    /* Table order. */
    assert_int_equal(rules[0]->table_id, 0);
    assert_int_equal(rules[1]->table_id, 1);
    assert_int_equal(rules[2]->table_id, 2);
    free(rules);

    q.cookie = 0x200;
    q.cookie_mask = 0xf00;
    assert_int_equal(ofproto_collect(p, &q, &rules), 2);
    free(rules);

    ofproto_flow_query_init(&q);
    q.table_id = 2;
    assert_int_equal(ofproto_collect(p, &q, &rules), 1);
    free(rules);

    ofproto_flow_query_init(&q);
    q.match = b;
    q.strict = true;
    q.priority = 20;
    assert_int_equal(ofproto_collect(p, &q, &rules), 1);
    assert_int_equal(rules[0]->table_id, 1);
    free(rules);

    /* An out_port filter without the callback matches nothing. */
    ofproto_flow_query_init(&q);
    q.out_port = 1;
    assert_int_equal(ofproto_collect(p, &q, &rules), 0);
    free(rules);
    ofproto_destroy(p);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_lookup_replace),
        cmocka_unit_test(test_check_overlap),
        cmocka_unit_test(test_modify),
        cmocka_unit_test(test_delete),
        cmocka_unit_test(test_timeouts),
        cmocka_unit_test(test_collect),
    };
    return cmocka_run_group_tests_name("ofproto", tests, NULL, NULL);
}
