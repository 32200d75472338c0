/* Unit tests for ofproto/mirror.c: which mirrors a packet selects, where
 * the copies go, statistics, and reconfiguration.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "ofproto/mirror.h"
#include "ofproto/normal.h"
#include "util.h"

/* Datapath ports 1 to 4: 1 access VLAN 10, 2 access VLAN 30, 3 trunk of
 * all VLANs, 4 access VLAN 30. */
static struct normal_bridge *
make_bridge(void)
{
    struct normal_port_config pcs[4];
    struct normal_bridge *nb = normal_bridge_create();

    memset(pcs, 0, sizeof pcs);
    for (int i = 0; i < 4; i++) {
        pcs[i].ofport = pcs[i].dp_port = i + 1;
        pcs[i].vlan_mode = NORMAL_VLAN_ACCESS;
    }
    pcs[0].tag = 10;
    pcs[1].tag = 30;
    pcs[2].vlan_mode = NORMAL_VLAN_TRUNK;
    pcs[3].tag = 30;

    struct normal_bridge_config cfg = { .ports = pcs, .n_ports = 4 };
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), 0);
    return nb;
}

static const uint32_t ports[] = { 1, 2, 3, 4 };

/* What the copies did: "port/vlan " each. */
static char copies[256];

static void
record_output(void *aux, uint32_t dp_port, uint16_t vlan)
{
    (void) aux;
    snprintf(copies + strlen(copies), sizeof copies - strlen(copies),
             "%u/%u ", (unsigned) dp_port, (unsigned) vlan);
}

static struct flow
flow_to(uint8_t last_dst_byte)
{
    struct flow flow;

    memset(&flow, 0, sizeof flow);
    memset(&flow.dl_dst, 0xff, sizeof flow.dl_dst);
    flow.dl_dst.ea[5] = last_dst_byte;
    return flow;
}

static mirror_mask_t
copy(const struct mirror_set *ms, struct normal_bridge *nb,
     mirror_mask_t mirrors, uint16_t vlan, const struct flow *flow,
     mirror_mask_t *done)
{
    struct flow mask;

    memset(&mask, 0, sizeof mask);
    copies[0] = '\0';
    return mirror_set_copy(ms, nb, mirrors, vlan, flow, &mask, done,
                           record_output, NULL);
}

/* Two mirrors to port 3 count as one destination: the packet goes once,
 * the first mirror counts it; a mirror that selects by VLAN passes over
 * other VLANs. */
static void
test_dups_and_vlans(void **state)
{
    (void) state;
    struct normal_bridge *nb = make_bridge();
    struct mirror_set *ms = mirror_set_create();
    static const uint32_t src1[] = { 1 };
    static const uint16_t vlan20[] = { 20 };
    struct mirror_config cfgs[] = {
        { .id = 1, .name = "a", .src_ports = src1, .n_src_ports = 1,
          .has_out_port = true, .out_port = 3, .out_port_name = "p3" },
        { .id = 2, .name = "b", .src_ports = src1, .n_src_ports = 1,
          .dst_ports = ports, .n_dst_ports = 4,
          .has_out_port = true, .out_port = 3, .out_port_name = "p3" },
        { .id = 3, .name = "c", .src_ports = src1, .n_src_ports = 1,
          .vlans = vlan20, .n_vlans = 1,
          .has_out_port = true, .out_port = 2, .out_port_name = "p2" },
    };
    struct flow flow = flow_to(1);
    mirror_mask_t done = 0;

    assert_true(mirror_set_reconfigure(ms, cfgs, 3, ports, 4));
    assert_false(mirror_set_reconfigure(ms, cfgs, 3, ports, 4));
    assert_int_equal(mirror_set_src_mirrors(ms, 1), 7);
    assert_int_equal(mirror_set_dst_mirrors(ms, 2), 2);
    assert_string_equal(mirror_set_output_name(ms, 3), "p3");
    assert_null(mirror_set_output_name(ms, 1));

    assert_int_equal(copy(ms, nb, 7, 10, &flow, &done), 1);
    assert_string_equal(copies, "3/10 ");
    assert_int_equal(done, 3);
    /* Selected again on the way out: nothing more. */
    assert_int_equal(copy(ms, nb, 2, 10, &flow, &done), 0);
    assert_string_equal(copies, "");

    done = 0;
    assert_int_equal(copy(ms, nb, 4, 20, &flow, &done), 4);
    assert_string_equal(copies, "2/20 ");

    mirror_set_credit(ms, 5, 2, 100);
    uint64_t n_packets, n_bytes;
    assert_true(mirror_set_get_stats(ms, 3, &n_packets, &n_bytes));
    assert_int_equal(n_packets, 2);
    assert_int_equal(n_bytes, 100);

    /* Statistics stay with a mirror's id; a removed one has none. */
    assert_true(mirror_set_reconfigure(ms, &cfgs[2], 1, ports, 4));
    assert_true(mirror_set_get_stats(ms, 3, &n_packets, &n_bytes));
    assert_int_equal(n_packets, 2);
    assert_false(mirror_set_get_stats(ms, 1, &n_packets, &n_bytes));
    assert_false(mirror_set_get_stats(ms, 2, &n_packets, &n_bytes));
    assert_int_equal(mirror_set_src_mirrors(ms, 1), 4);

    mirror_set_destroy(ms);
    normal_bridge_destroy(nb);
}

/* output_vlan: every port of the VLAN, the input port too, but mirror
 * output ports; nothing for a packet in that VLAN or to a reserved
 * address, which still counts. */
static void
test_output_vlan(void **state)
{
    (void) state;
    struct normal_bridge *nb = make_bridge();
    struct mirror_set *ms = mirror_set_create();
    struct mirror_config cfgs[] = {
        { .id = 1, .name = "rspan", .src_ports = ports, .n_src_ports = 4,
          .out_vlan = 30 },
        { .id = 2, .name = "span", .has_out_port = true, .out_port = 4,
          .out_port_name = "p4" },
    };
    mirror_mask_t done = 0;
    struct flow flow = flow_to(0xff);

    assert_true(mirror_set_reconfigure(ms, cfgs, 2, ports, 4));
    assert_int_equal(copy(ms, nb, 1, 10, &flow, &done), 1);
    assert_string_equal(copies, "2/30 3/30 ");

    done = 0;
    assert_int_equal(copy(ms, nb, 1, 30, &flow, &done), 1);
    assert_string_equal(copies, "");

    struct flow stp = flow_to(0);
    static const struct eth_addr stp_dst = {
        { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 }
    };
    stp.dl_dst = stp_dst;
    done = 0;
    assert_int_equal(copy(ms, nb, 1, 10, &stp, &done), 1);
    assert_string_equal(copies, "");

    mirror_set_destroy(ms);
    normal_bridge_destroy(nb);
}

/* The 33rd mirror is refused; freed indexes are used again. */
static void
test_max_mirrors(void **state)
{
    (void) state;
    struct mirror_config cfgs[MIRROR_MAX + 1];
    struct mirror_set *ms = mirror_set_create();
    uint64_t n_packets, n_bytes;

    memset(cfgs, 0, sizeof cfgs);
    for (size_t i = 0; i < ARRAY_SIZE(cfgs); i++) {
        cfgs[i].id = i + 1;
        cfgs[i].name = "m";
        cfgs[i].src_ports = ports;
        cfgs[i].n_src_ports = 1;
        cfgs[i].out_vlan = 5;
    }
    assert_true(mirror_set_reconfigure(ms, cfgs, MIRROR_MAX + 1, ports, 4));
    assert_false(mirror_set_get_stats(ms, MIRROR_MAX + 1, &n_packets,
                                      &n_bytes));
    assert_int_equal(mirror_set_src_mirrors(ms, 1), UINT32_MAX);

    assert_true(mirror_set_reconfigure(ms, &cfgs[1], MIRROR_MAX, ports, 4));
    assert_true(mirror_set_get_stats(ms, MIRROR_MAX + 1, &n_packets,
                                     &n_bytes));
    mirror_set_destroy(ms);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dups_and_vlans),
        cmocka_unit_test(test_output_vlan),
        cmocka_unit_test(test_max_mirrors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
