/* Unit tests for ofproto/bond.c: settings, link delays and the active
 * member, what members accept and which member sends, and a bond as a
 * NORMAL port.
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
#include "ofproto/bond.h"
#include "ofproto/normal.h"
#include "smap.h"
#include "util.h"

static void test_initial_state(void **state);
static void test_delays(void **state);
static void test_all_down(void **state);
static void test_admit(void **state);
static void test_slb_buckets(void **state);
static void test_settings(void **state);
static void test_lacp_fallback(void **state);
static void test_normal_port(void **state);

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initial_state),
        cmocka_unit_test(test_delays),
        cmocka_unit_test(test_all_down),
        cmocka_unit_test(test_admit),
        cmocka_unit_test(test_slb_buckets),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_lacp_fallback),
        cmocka_unit_test(test_normal_port),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A bond of members "m1" and "m2" on datapath ports 11 and 12, both with
 * their link up, in 'mode', with the given delays. */
static struct bond *
make_bond(enum bond_mode mode, long long int updelay,
          long long int downdelay)
{
    struct bond_settings bs;
    memset(&bs, 0, sizeof bs);
    bs.mode = mode;
    bs.updelay = updelay;
    bs.downdelay = downdelay;
    bs.rebalance_interval = 10000;

    struct bond_member_settings ms[2] = {
        { .name = "m1", .ofport = 1, .dp_port = 11, .may_enable = true },
        { .name = "m2", .ofport = 2, .dp_port = 12, .may_enable = true },
    };
    ms[0].mac.ea[5] = 1;
    ms[1].mac.ea[5] = 2;

    struct bond *bond = bond_create("bond0");
    assert_true(bond_reconfigure(bond, &bs, ms, 2));
    return bond;
}

static int
active_port(struct bond *bond)
{
    struct eth_addr mac;
    return bond_get_active_mac(bond, &mac) ? 10 + mac.ea[5] : 0;
}

static struct flow
flow_from(uint8_t src, bool multicast)
{
    struct flow flow;
    memset(&flow, 0, sizeof flow);
    flow.dl_src.ea[0] = 0x50;
    flow.dl_src.ea[5] = src;
    flow.dl_dst.ea[0] = multicast ? 0x01 : 0x50;
    flow.dl_dst.ea[5] = 0x99;
    flow.dl_type = htons(ETH_TYPE_IP);
    return flow;
}

/* Both members come up enabled at once; the first is active. */
static void
test_initial_state(void **state)
{
    (void) state;
    struct bond *bond = make_bond(BOND_ACTIVE_BACKUP, 1000, 1000);

    assert_int_equal(active_port(bond), 11);
    assert_true(bond_take_learning_packets(bond));
    assert_false(bond_take_learning_packets(bond));
    assert_true(bond_has_member(bond, 12));
    assert_false(bond_has_member(bond, 13));
    bond_destroy(bond);
}

/* The downdelay keeps a failed active member in use; a link that comes
 * back within the delay changes nothing; after it, the other member takes
 * over; the updelay holds a returning member back. */
static void
test_delays(void **state)
{
    (void) state;
    struct bond *bond = make_bond(BOND_ACTIVE_BACKUP, 300, 200);
    long long int t = 1000000;

    bond_run(bond, t);
    bond_member_set_may_enable(bond, 11, false);
    assert_false(bond_run(bond, t));
    assert_int_equal(bond_next_wakeup(bond), t + 200);
    assert_false(bond_run(bond, t + 100));
    assert_int_equal(active_port(bond), 11);

    bond_member_set_may_enable(bond, 11, true);
    assert_false(bond_run(bond, t + 150));
    assert_false(bond_run(bond, t + 1000));
    assert_int_equal(active_port(bond), 11);

    bond_member_set_may_enable(bond, 11, false);
    assert_false(bond_run(bond, t + 2000));
    assert_true(bond_run(bond, t + 2200));
    assert_int_equal(active_port(bond), 12);
    struct flow flow = flow_from(1, false);
    struct flow mask;
    memset(&mask, 0, sizeof mask);
    assert_int_equal(bond_choose_output(bond, &flow, 0, &mask, NULL), 12);
    assert_int_equal(bond_admit(bond, 11, &flow), BOND_DROP);

    bond_member_set_may_enable(bond, 11, true);
    assert_false(bond_run(bond, t + 3000));
    assert_false(bond_run(bond, t + 3299));
    assert_true(bond_run(bond, t + 3300));
    /* Enabled again, but the active member stays. */
    assert_int_equal(active_port(bond), 12);
    bond_destroy(bond);
}

/* With no member enabled, the first to come up skips its updelay. */
static void
test_all_down(void **state)
{
    (void) state;
    struct bond *bond = make_bond(BOND_ACTIVE_BACKUP, 5000, 0);
    struct flow flow = flow_from(1, true), mask;
    long long int t = 1000000;

    bond_member_set_may_enable(bond, 11, false);
    bond_member_set_may_enable(bond, 12, false);
    assert_true(bond_run(bond, t));
    assert_int_equal(active_port(bond), 0);
    assert_int_equal(bond_choose_output(bond, &flow, 0, &mask, NULL),
                     BOND_NO_MEMBER);
    assert_int_equal(bond_admit(bond, 11, &flow), BOND_DROP);

    bond_member_set_may_enable(bond, 12, true);
    assert_true(bond_run(bond, t + 10));
    assert_int_equal(active_port(bond), 12);
    assert_true(bond_take_learning_packets(bond));
    bond_destroy(bond);
}

/* What members accept in each mode. */
static void
test_admit(void **state)
{
    (void) state;
    struct flow uni = flow_from(1, false), multi = flow_from(1, true);

    struct bond *ab = make_bond(BOND_ACTIVE_BACKUP, 0, 0);
    assert_int_equal(bond_admit(ab, 11, &uni), BOND_ACCEPT);
    assert_int_equal(bond_admit(ab, 12, &uni), BOND_DROP);
    assert_int_equal(bond_admit(ab, 12, &multi), BOND_DROP);
    assert_int_equal(bond_admit(ab, 13, &uni), BOND_DROP);
    bond_destroy(ab);

    struct bond *slb = make_bond(BOND_BALANCE_SLB, 0, 0);
    assert_int_equal(bond_admit(slb, 11, &multi), BOND_DROP_IF_MOVED);
    assert_int_equal(bond_admit(slb, 12, &multi), BOND_DROP);
    assert_int_equal(bond_admit(slb, 12, &uni), BOND_DROP_IF_MOVED);
    bond_destroy(slb);

    struct bond *tcp = make_bond(BOND_BALANCE_TCP, 0, 0);
    assert_int_equal(bond_admit(tcp, 11, &uni), BOND_DROP);
    struct flow mask;
    assert_int_equal(bond_choose_output(tcp, &uni, 0, &mask, NULL),
                     BOND_NO_MEMBER);
    bond_destroy(tcp);
}

/* balance-slb: a new source takes the next member in turn, keeps it across
 * a reconfiguration, moves when its member is disabled; the choice matches
 * the source address. */
static void
test_slb_buckets(void **state)
{
    (void) state;
    struct bond *bond = make_bond(BOND_BALANCE_SLB, 0, 0);
    uint32_t first[8];

    for (int i = 0; i < 8; i++) {
        struct flow flow = flow_from(i, false), mask;
        memset(&mask, 0, sizeof mask);
        first[i] = bond_choose_output(bond, &flow, 0, &mask, NULL);
        assert_true(first[i] == 11 || first[i] == 12);
        assert_memory_equal(&mask.dl_src, "\xff\xff\xff\xff\xff\xff", 6);
    }

    struct bond_settings bs;
    char *msg = bond_settings_from_db(&bs, "bond0", "balance-slb", 0, 0,
                                      NULL, &(struct smap) SMAP_INITIALIZER);
    assert_null(msg);
    struct bond_member_settings ms[2] = {
        { .name = "m1", .ofport = 1, .dp_port = 11, .may_enable = true },
        { .name = "m2", .ofport = 2, .dp_port = 12, .may_enable = true },
    };
    bond_reconfigure(bond, &bs, ms, 2);
    bond_settings_destroy(&bs);
    /* (In reverse order: buckets handed out anew would come out
     * differently.) */
    for (int i = 7; i >= 0; i--) {
        struct flow flow = flow_from(i, false), mask;
        assert_int_equal(bond_choose_output(bond, &flow, 0, &mask, NULL),
                         first[i]);
    }

    bond_member_set_may_enable(bond, 11, false);
    assert_true(bond_run(bond, 1000000));
    for (int i = 0; i < 8; i++) {
        struct flow flow = flow_from(i, false), mask;
        assert_int_equal(bond_choose_output(bond, &flow, 0, &mask, NULL), 12);
    }
    bond_destroy(bond);
}

/* Port columns to settings. */
static void
test_settings(void **state)
{
    (void) state;
    struct smap oc = SMAP_INITIALIZER;
    struct bond_settings bs;
    char *msg;

    smap_add(&oc, "bond-primary", "m2");
    smap_add(&oc, "bond-rebalance-interval", "10");
    msg = bond_settings_from_db(&bs, "bond0", NULL, -5, 100, "off", &oc);
    assert_null(msg);
    assert_int_equal(bs.mode, BOND_ACTIVE_BACKUP);
    assert_int_equal(bs.updelay, 0);
    assert_int_equal(bs.downdelay, 100);
    assert_string_equal(bs.primary, "m2");
    assert_int_equal(bs.rebalance_interval, 1000);
    assert_false(bs.lacp);
    bond_settings_destroy(&bs);

    /* bond-primary only where active-backup can happen. */
    msg = bond_settings_from_db(&bs, "bond0", "balance-slb", 0, 0, "active",
                                &oc);
    assert_null(msg);
    assert_null(bs.primary);
    assert_true(bs.lacp);
    bond_settings_destroy(&bs);

    smap_add(&oc, "bond-hash-basis", "x");
    msg = bond_settings_from_db(&bs, "bond0", "balance-tcp", 0, 0, NULL,
                                &oc);
    assert_non_null(msg);
    assert_non_null(strstr(msg, "port bond0: "));
    assert_non_null(strstr(msg, "bond-hash-basis"));
    assert_int_equal(bs.mode, BOND_BALANCE_TCP);
    free(msg);
    bond_settings_destroy(&bs);
    smap_destroy(&oc);
}

/* lacp configured, not negotiated: nothing, unless lacp-fallback-ab. */
static void
test_lacp_fallback(void **state)
{
    (void) state;
    struct smap oc = SMAP_INITIALIZER;
    struct bond_settings bs;
    struct flow flow = flow_from(1, false), mask;
    struct bond *bond = make_bond(BOND_BALANCE_SLB, 0, 0);
    struct bond_member_settings ms[2] = {
        { .name = "m1", .ofport = 1, .dp_port = 11, .may_enable = true },
        { .name = "m2", .ofport = 2, .dp_port = 12, .may_enable = true },
    };

    assert_null(bond_settings_from_db(&bs, "bond0", "balance-slb", 0, 0,
                                      "active", &oc));
    bond_reconfigure(bond, &bs, ms, 2);
    bond_settings_destroy(&bs);
    assert_int_equal(bond_choose_output(bond, &flow, 0, &mask, NULL),
                     BOND_NO_MEMBER);
    assert_int_equal(bond_admit(bond, 11, &flow), BOND_DROP);

    smap_add(&oc, "lacp-fallback-ab", "true");
    assert_null(bond_settings_from_db(&bs, "bond0", "balance-slb", 0, 0,
                                      "active", &oc));
    bond_reconfigure(bond, &bs, ms, 2);
    bond_settings_destroy(&bs);
    assert_int_equal(bond_choose_output(bond, &flow, 0, &mask, NULL), 11);
    assert_int_equal(bond_admit(bond, 11, &flow), BOND_ACCEPT);
    assert_int_equal(bond_admit(bond, 12, &flow), BOND_DROP);
    smap_destroy(&oc);
    bond_destroy(bond);
}

/* A bond as a NORMAL port: it receives on every member, the backup's
 * packets are dropped, a flood leaves on the active member only, and the
 * source is learned on the bond's port. */
static void
test_normal_port(void **state)
{
    (void) state;
    struct bond *bond = make_bond(BOND_ACTIVE_BACKUP, 0, 0);
    struct normal_port_config pcs[2];

    memset(pcs, 0, sizeof pcs);
    pcs[0].ofport = pcs[0].dp_port = 3;
    pcs[1].ofport = 1;
    pcs[1].dp_port = 11;
    pcs[1].bond = bond;
    for (int i = 0; i < 2; i++) {
        pcs[i].vlan_mode = NORMAL_VLAN_TRUNK;
    }
    struct normal_bridge *nb = normal_bridge_create();
    struct normal_bridge_config cfg = { .ports = pcs, .n_ports = 2 };
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), 0);

    struct normal_xlate_out out;
    normal_xlate_out_init(&out);
    struct flow flow = flow_from(7, true);

    flow.in_port = 12;
    normal_xlate(nb, &flow, 0, &out);
    assert_int_equal(out.reason, NORMAL_DROP_BOND);
    assert_int_equal(out.actions.n_actions, 0);

    flow.in_port = 11;
    normal_xlate(nb, &flow, 0, &out);
    assert_int_equal(out.reason, NORMAL_FLOOD_MULTICAST);
    assert_int_equal(out.actions.n_actions, 1);

    flow = flow_from(8, true);
    flow.in_port = 3;
    normal_xlate(nb, &flow, 0, &out);
    assert_int_equal(out.actions.n_actions, 1);
    assert_int_equal(out.actions.actions[0].port, 11);

    /* To the address learned on the bond: through its active member. */
    flow = flow_from(8, false);
    flow.dl_dst = flow_from(7, false).dl_src;
    flow.in_port = 3;
    normal_xlate(nb, &flow, 0, &out);
    assert_int_equal(out.reason, NORMAL_FORWARD);
    assert_int_equal(out.actions.actions[0].port, 11);

    normal_xlate_out_destroy(&out);
    normal_bridge_destroy(nb);
    bond_destroy(bond);
}
