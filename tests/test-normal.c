/* Unit tests for ofproto/normal.c and ofproto/dp-actions.c: NORMAL
 * switching decisions, their megaflow masks, and the texts of the fdb commands.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofproto/normal.h"
#include "util.h"

#define SEC 1000LL
#define LOCAL NORMAL_OFPORT_LOCAL

/* Masks of the outer TCI. */
#define M_CFI 0x1000
#define M_VID (VLAN_VID_MASK | VLAN_CFI)
#define M_ALL 0xffff

/* What a mask holds besides the TCI. */
enum { M_BASE = 0, M_DST = 1, M_SRC = 2 };

static const struct eth_addr BCAST = { { 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff } };

static struct eth_addr
mac(uint8_t n)
{
    struct eth_addr ea = { { 0x50, 0x54, 0x00, 0x00, 0x00, n } };
    return ea;
}

static struct eth_addr
mac_parse(const char *s)
{
    struct eth_addr ea;
    unsigned int b[6];

    assert_int_equal(sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2],
                            &b[3], &b[4], &b[5]), 6);
    for (int i = 0; i < 6; i++) {
        ea.ea[i] = b[i];
    }
    return ea;
}

/* A flow received on datapath port 'in_port' from 'src' to 'dst', untagged
 * if 'vid' is negative, else with an outer tag 'vid' and 'pcp'. */
static struct flow
make_flow(uint32_t in_port, struct eth_addr src, struct eth_addr dst,
          int vid, int pcp)
{
    struct flow flow;

    memset(&flow, 0, sizeof flow);
    flow.in_port = in_port;
    flow.dl_src = src;
    flow.dl_dst = dst;
    flow.dl_type = htons(ETH_TYPE_IP);
    if (vid >= 0) {
        flow.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
        flow.vlan_tci[0] = htons(vid | (pcp << VLAN_PCP_SHIFT) | VLAN_CFI);
    }
    flow.nw_proto = 17;
    flow.nw_ttl = 64;
    return flow;
}

/* The bridge most tests use.  Flood order is the array order. */
static const uint16_t trunks_10_30[] = { 10, 30 };
static const uint16_t trunks_20[] = { 20 };
static const uint16_t trunks_10[] = { 10 };

static const struct normal_port_config std_ports[] = {
    { .ofport = 1, .dp_port = 1, .vlan_mode = NORMAL_VLAN_ACCESS,
      .tag = 10 },
    { .ofport = 2, .dp_port = 2, .vlan_mode = NORMAL_VLAN_ACCESS,
      .tag = 10 },
    { .ofport = 3, .dp_port = 3, .vlan_mode = NORMAL_VLAN_ACCESS,
      .tag = 20 },
    { .ofport = 4, .dp_port = 4, .vlan_mode = NORMAL_VLAN_TRUNK },
    { .ofport = 5, .dp_port = 5, .vlan_mode = NORMAL_VLAN_TRUNK,
      .trunks = trunks_10_30, .n_trunks = 2 },
    { .ofport = 6, .dp_port = 6, .vlan_mode = NORMAL_VLAN_NATIVE_TAGGED,
      .tag = 10, .trunks = trunks_20, .n_trunks = 1 },
    { .ofport = 7, .dp_port = 7, .vlan_mode = NORMAL_VLAN_NATIVE_UNTAGGED,
      .tag = 20, .trunks = trunks_10, .n_trunks = 1 },
    { .ofport = LOCAL, .dp_port = 0, .vlan_mode = NORMAL_VLAN_TRUNK },
};

static struct normal_bridge *
std_bridge(const uint16_t *flood_vlans, size_t n_flood_vlans,
           bool forward_bpdu)
{
    struct normal_bridge *nb = normal_bridge_create();
    struct normal_bridge_config cfg = {
        .ports = std_ports,
        .n_ports = ARRAY_SIZE(std_ports),
        .flood_vlans = flood_vlans,
        .n_flood_vlans = n_flood_vlans,
        .forward_bpdu = forward_bpdu,
    };

    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), 0);
    return nb;
}

/* Runs the decision for 'flow' at time 'now' and checks its actions
 * (datapath syntax), reason and mask: the base fields, the outer TCI mask
 * 'tci_mask', and M_DST/M_SRC for the addresses. */
static void
check_xlate(struct normal_bridge *nb, const struct flow *flow, long long now,
            const char *actions, enum normal_reason reason,
            uint16_t tci_mask, int addr_mask)
{
    struct normal_xlate_out out;
    struct ds s = DS_EMPTY_INITIALIZER;
    struct flow expected;

    normal_xlate_out_init(&out);
    normal_xlate(nb, flow, now, &out);
    dp_actions_format(&out.actions, &s);
    assert_string_equal(ds_cstr(&s), actions);
    assert_string_equal(normal_reason_to_string(out.reason),
                        normal_reason_to_string(reason));

    /* A tagged frame's flow matches the whole outer tag, and an IP flow
     * whether it is a fragment, as in Open vSwitch. */
    if (flow->vlan_tci[0] & htons(VLAN_CFI) && tci_mask != VLAN_CFI) {
        tci_mask = UINT16_MAX;
    }
    memset(&expected, 0, sizeof expected);
    expected.in_port = UINT32_MAX;
    expected.recirc_id = UINT32_MAX;
    expected.dl_type = UINT16_MAX;
    expected.vlan_tci[0] = htons(tci_mask);
    if (tci_mask == UINT16_MAX) {
        expected.vlan_tpid[0] = htons(UINT16_MAX);
    }
    if (flow->dl_type == htons(ETH_TYPE_IP)
        || flow->dl_type == htons(ETH_TYPE_IPV6)) {
        expected.nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    }
    if (addr_mask & M_DST) {
        memset(&expected.dl_dst, 0xff, sizeof expected.dl_dst);
    }
    if (addr_mask & M_SRC) {
        memset(&expected.dl_src, 0xff, sizeof expected.dl_src);
    }
    assert_int_equal(ntohs(out.mask.vlan_tci[0]), tci_mask);
    assert_memory_equal(&out.mask, &expected, sizeof expected);

    ds_destroy(&s);
    normal_xlate_out_destroy(&out);
}

static void
test_access_flood_and_learn(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct flow f;

    /* Untagged from access port 1 (VLAN 10) to an unknown address: every
     * other port of VLAN 10, tagged on trunks and native-tagged ports. */
    f = make_flow(1, mac(1), mac(2), -1, 0);
    check_xlate(nb, &f, 0, "2,push_vlan(vid=10,pcp=0),4,5,6,7,0",
                NORMAL_FLOOD_UNKNOWN, M_CFI, M_DST | M_SRC);

    /* The reply, from trunk port 4 in VLAN 10, goes to port 1 alone,
     * untagged; its priority is not looked at. */
    f = make_flow(4, mac(2), mac(1), 10, 5);
    check_xlate(nb, &f, SEC, "pop_vlan,1", NORMAL_FORWARD, M_VID,
                M_DST | M_SRC);

    /* And back: now known on port 4. */
    f = make_flow(1, mac(1), mac(2), -1, 0);
    check_xlate(nb, &f, 2 * SEC, "push_vlan(vid=10,pcp=0),4", NORMAL_FORWARD,
                M_CFI, M_DST | M_SRC);

    /* Learned in VLAN 10 only. */
    f = make_flow(3, mac(3), mac(1), -1, 0);
    check_xlate(nb, &f, 2 * SEC,
                "push_vlan(vid=20,pcp=0),4,6,pop_vlan,7,push_vlan(vid=20,pcp=0),0",
                NORMAL_FLOOD_UNKNOWN, M_CFI, M_DST | M_SRC);

    /* A destination learned on the input port: drop. */
    f = make_flow(2, mac(5), mac(5), -1, 0);
    check_xlate(nb, &f, 2 * SEC, "drop", NORMAL_DROP_SAME_PORT, M_CFI,
                M_DST | M_SRC);
    normal_bridge_destroy(nb);
}

static void
test_trunk_input(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct flow f;

    /* VLAN 20 from the all-VLAN trunk: native-tagged port 6 and the local
     * port take the tag as it came (so its priority is neither read nor
     * matched); then one pop for access port 3 and native-untagged port 7
     * (native 20). */
    f = make_flow(4, mac(1), BCAST, 20, 3);
    check_xlate(nb, &f, 0, "pop_vlan,3,push_vlan(vid=20,pcp=3),6,pop_vlan,7,push_vlan(vid=20,pcp=3),0", NORMAL_FLOOD_MULTICAST,
                M_VID, M_DST | M_SRC);

    /* VLAN 30: trunk 5 only, tag kept as it is. */
    f = make_flow(4, mac(1), BCAST, 30, 3);
    check_xlate(nb, &f, 0, "5,0", NORMAL_FLOOD_MULTICAST, M_VID,
                M_DST | M_SRC);

    /* VLAN 0 (untagged) on a trunk: trunks and native ports carrying
     * VLAN 0 - here only the other all-VLAN trunk. */
    f = make_flow(4, mac(1), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "0", NORMAL_FLOOD_MULTICAST, M_CFI,
                M_DST | M_SRC);

    /* Trunk 5 carries 10 and 30 only: VLAN 20 and untagged are dropped,
     * before the addresses are looked at. */
    f = make_flow(5, mac(1), BCAST, 20, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_VLAN, M_VID, M_BASE);
    f = make_flow(5, mac(1), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_VLAN, M_CFI, M_BASE);
    f = make_flow(5, mac(1), BCAST, 10, 0);
    check_xlate(nb, &f, 0, "pop_vlan,1,2,push_vlan(vid=10,pcp=0),4,6,7,0", NORMAL_FLOOD_MULTICAST,
                M_VID, M_DST | M_SRC);
    normal_bridge_destroy(nb);
}

static void
test_access_input_tags(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct flow f;

    /* Any nonzero VID on an access port is dropped, its own included. */
    f = make_flow(1, mac(1), BCAST, 10, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_VLAN, M_VID, M_BASE);
    f = make_flow(1, mac(1), BCAST, 20, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_VLAN, M_VID, M_BASE);

    /* A priority tag (VID 0) is accepted: the packet is in the port's VLAN
     * with that priority. */
    f = make_flow(1, mac(1), BCAST, 0, 6);
    check_xlate(nb, &f, 0,
                "pop_vlan,2,push_vlan(vid=10,pcp=6),4,5,6,7,0",
                NORMAL_FLOOD_MULTICAST, M_ALL, M_DST | M_SRC);
    normal_bridge_destroy(nb);
}

static void
test_native_ports(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct flow f;

    /* Native-tagged port 6, native VLAN 10: untagged is VLAN 10. */
    f = make_flow(6, mac(1), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "1,2,push_vlan(vid=10,pcp=0),4,5,7,0",
                NORMAL_FLOOD_MULTICAST, M_CFI, M_DST | M_SRC);

    /* Tagged 20 (trunked) is VLAN 20; priority-tagged is native. */
    f = make_flow(6, mac(1), BCAST, 20, 0);
    check_xlate(nb, &f, 0, "pop_vlan,3,push_vlan(vid=20,pcp=0),4,pop_vlan,7,push_vlan(vid=20,pcp=0),0", NORMAL_FLOOD_MULTICAST,
                M_VID, M_DST | M_SRC);
    f = make_flow(6, mac(1), BCAST, 0, 2);
    check_xlate(nb, &f, 0, "pop_vlan,1,2,push_vlan(vid=10,pcp=2),4,5,7,0",
                NORMAL_FLOOD_MULTICAST, M_ALL, M_DST | M_SRC);

    /* Tagged 30 is not carried. */
    f = make_flow(6, mac(1), BCAST, 30, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_VLAN, M_VID, M_BASE);

    /* Native-untagged port 7, native VLAN 20, trunks 10.  Untagged is VLAN
     * 20; tagged 10 is VLAN 10; tagged 30 is dropped; tagged 20 is
     * accepted as the native VLAN is always carried. */
    f = make_flow(7, mac(2), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "3,push_vlan(vid=20,pcp=0),4,6,0",
                NORMAL_FLOOD_MULTICAST, M_CFI, M_DST | M_SRC);
    f = make_flow(7, mac(2), BCAST, 10, 1);
    check_xlate(nb, &f, 0, "pop_vlan,1,2,push_vlan(vid=10,pcp=1),4,5,6,0", NORMAL_FLOOD_MULTICAST,
                M_VID, M_DST | M_SRC);
    f = make_flow(7, mac(2), BCAST, 30, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_VLAN, M_VID, M_BASE);
    f = make_flow(7, mac(2), BCAST, 20, 0);
    check_xlate(nb, &f, 0, "pop_vlan,3,push_vlan(vid=20,pcp=0),4,6,0", NORMAL_FLOOD_MULTICAST,
                M_VID, M_DST | M_SRC);

    /* Unicast to an address learned behind port 7: VLAN 20 leaves it
     * untagged, VLAN 10 tagged. */
    f = make_flow(4, mac(9), mac(2), 20, 7);
    check_xlate(nb, &f, SEC, "pop_vlan,7", NORMAL_FORWARD, M_VID,
                M_DST | M_SRC);
    f = make_flow(4, mac(9), mac(2), 10, 7);
    check_xlate(nb, &f, SEC, "7", NORMAL_FORWARD, M_VID, M_DST | M_SRC);
    normal_bridge_destroy(nb);
}

static void
test_priority_tags(void **state DPS_UNUSED)
{
    static const struct normal_port_config ports[] = {
        { .ofport = 1, .dp_port = 11, .vlan_mode = NORMAL_VLAN_TRUNK },
        { .ofport = 2, .dp_port = 12, .vlan_mode = NORMAL_VLAN_TRUNK,
          .priority_tags = NORMAL_PRIORITY_TAGS_IF_NONZERO },
        { .ofport = 3, .dp_port = 13, .vlan_mode = NORMAL_VLAN_ACCESS,
          .tag = 0, .priority_tags = NORMAL_PRIORITY_TAGS_ALWAYS },
        { .ofport = 4, .dp_port = 14, .vlan_mode = NORMAL_VLAN_TRUNK },
    };
    struct normal_bridge_config cfg = { .ports = ports, .n_ports = 4 };
    struct normal_bridge *nb = normal_bridge_create();
    struct flow f;

    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), 0);

    f = make_flow(11, mac(1), BCAST, 0, 3);
    check_xlate(nb, &f, 0, "12,13,pop_vlan,14", NORMAL_FLOOD_MULTICAST,
                M_ALL, M_DST | M_SRC);
    f = make_flow(11, mac(1), BCAST, 0, 0);
    check_xlate(nb, &f, 0, "pop_vlan,12,push_vlan(vid=0,pcp=0),13,pop_vlan,14", NORMAL_FLOOD_MULTICAST,
                M_ALL, M_DST | M_SRC);
    f = make_flow(11, mac(1), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "12,push_vlan(vid=0,pcp=0),13,pop_vlan,14",
                NORMAL_FLOOD_MULTICAST, M_CFI, M_DST | M_SRC);
    normal_bridge_destroy(nb);
}

static void
test_flood_vlans(void **state DPS_UNUSED)
{
    static const uint16_t flood_vlans[] = { 10 };
    struct normal_bridge *nb = std_bridge(flood_vlans, 1, false);
    struct normal_xlate_out out;
    struct ds s = DS_EMPTY_INITIALIZER;
    struct flow f;

    /* VLAN 10 learns nothing and always floods; the source is not part of
     * the flow. */
    f = make_flow(1, mac(1), mac(2), -1, 0);
    check_xlate(nb, &f, 0, "2,push_vlan(vid=10,pcp=0),4,5,6,7,0",
                NORMAL_FLOOD_VLAN, M_CFI, M_DST);
    f = make_flow(2, mac(2), mac(1), -1, 0);
    check_xlate(nb, &f, 0, "1,push_vlan(vid=10,pcp=0),4,5,6,7,0",
                NORMAL_FLOOD_VLAN, M_CFI, M_DST);
    normal_xlate_out_init(&out);
    normal_xlate(nb, &f, 0, &out);
    assert_int_equal(out.learn, MAC_LEARNING_REFUSED);
    assert_int_equal(out.vlan, 10);
    normal_xlate_out_destroy(&out);

    /* Reserved destinations are still dropped. */
    f = make_flow(2, mac(2), mac_parse("01:80:c2:00:00:00"), -1, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_RESERVED, M_CFI, M_DST);

    /* VLAN 20 learns as usual. */
    f = make_flow(3, mac(3), mac(4), -1, 0);
    check_xlate(nb, &f, 0,
                "push_vlan(vid=20,pcp=0),4,6,pop_vlan,7,push_vlan(vid=20,pcp=0),0",
                NORMAL_FLOOD_UNKNOWN, M_CFI, M_DST | M_SRC);
    normal_fdb_show(nb, 0, &s);
    assert_string_equal(ds_cstr(&s),
                        " port  VLAN  MAC                Age\n"
                        "    3    20  50:54:00:00:00:03    0\n");
    ds_destroy(&s);
    normal_bridge_destroy(nb);
}

static void
test_reserved(void **state DPS_UNUSED)
{
    static const char *reserved[] = {
        "01:80:c2:00:00:00", "01:80:c2:00:00:01", "01:80:c2:00:00:0e",
        "01:80:c2:00:00:0f", "00:e0:2b:00:00:00", "00:e0:2b:00:00:04",
        "00:e0:2b:00:00:06", "01:00:0c:cc:cc:cc", "01:00:0c:cc:cc:cd",
        "01:00:0c:cd:cd:cd", "01:00:0c:00:00:00", "01:00:0c:cc:cc:c3",
    };
    static const char *ordinary[] = {
        "01:80:c2:00:00:10", "01:80:c2:00:00:20", "00:e0:2b:00:00:01",
        "01:00:0c:cc:cd:cc", "01:00:5e:00:00:fb", "33:33:00:00:00:01",
    };
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct normal_bridge *fwd = std_bridge(NULL, 0, true);

    for (size_t i = 0; i < ARRAY_SIZE(reserved); i++) {
        struct flow f = make_flow(1, mac(1), mac_parse(reserved[i]), -1, 0);
        const char *flood = "2,push_vlan(vid=10,pcp=0),4,5,6,7,0";

        check_xlate(nb, &f, 0, "drop", NORMAL_DROP_RESERVED, M_CFI, M_DST);
        check_xlate(fwd, &f, 0, flood,
                    (f.dl_dst.ea[0] & 1 ? NORMAL_FLOOD_MULTICAST
                     : NORMAL_FLOOD_UNKNOWN), M_CFI, M_DST | M_SRC);
    }
    for (size_t i = 0; i < ARRAY_SIZE(ordinary); i++) {
        struct flow f = make_flow(1, mac(1), mac_parse(ordinary[i]), -1, 0);

        check_xlate(nb, &f, 0, "2,push_vlan(vid=10,pcp=0),4,5,6,7,0",
                    (f.dl_dst.ea[0] & 1 ? NORMAL_FLOOD_MULTICAST
                     : NORMAL_FLOOD_UNKNOWN), M_CFI, M_DST | M_SRC);
    }
    normal_bridge_destroy(nb);
    normal_bridge_destroy(fwd);
}

static void
test_multicast_source_and_unknown_port(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct normal_xlate_out out;
    struct flow f;

    /* A multicast source is never learned, but the flow still matches the
     * source (the decision read it). */
    f = make_flow(1, BCAST, mac(2), -1, 0);
    normal_xlate_out_init(&out);
    normal_xlate(nb, &f, 0, &out);
    assert_int_equal(out.learn, MAC_LEARNING_REFUSED);
    assert_int_equal(out.reason, NORMAL_FLOOD_UNKNOWN);
    normal_xlate_out_destroy(&out);

    /* A packet from a port the bridge does not have. */
    f = make_flow(99, mac(1), mac(2), 10, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_NO_PORT, M_CFI, M_BASE);
    normal_bridge_destroy(nb);
}

/* Records MAC table changes for the revalidation tests. */
struct change_log {
    int n;
    enum mac_learning_change last;
    uint32_t old_port, new_port;
};

static void
log_change(void *aux, enum mac_learning_change why,
           uint16_t vlan DPS_UNUSED, const struct eth_addr *ea DPS_UNUSED,
           uint32_t old_port, uint32_t new_port)
{
    struct change_log *log = aux;

    log->n++;
    log->last = why;
    log->old_port = old_port;
    log->new_port = new_port;
}

static void
test_move_and_revalidation(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct change_log log = { 0 };
    struct normal_xlate_out out;
    struct flow f;

    normal_bridge_set_change_cb(nb, log_change, &log);
    normal_xlate_out_init(&out);

    f = make_flow(1, mac(1), mac(2), -1, 0);
    normal_xlate(nb, &f, 0, &out);
    assert_int_equal(out.learn, MAC_LEARNING_ADDED);
    assert_int_equal(log.n, 1);

    /* The same packet again: nothing changes, so flows stay valid. */
    uint64_t seqno = normal_bridge_seqno(nb);
    normal_xlate(nb, &f, SEC, &out);
    assert_int_equal(out.learn, MAC_LEARNING_REFRESHED);
    assert_true(normal_bridge_seqno(nb) == seqno);

    f = make_flow(4, mac(2), mac(1), 10, 0);
    check_xlate(nb, &f, SEC, "pop_vlan,1", NORMAL_FORWARD, M_VID,
                M_DST | M_SRC);

    /* mac(1) moves to port 2: reported, the seqno moves, and traffic to it
     * follows. */
    seqno = normal_bridge_seqno(nb);
    f = make_flow(2, mac(1), mac(2), -1, 0);
    normal_xlate(nb, &f, 2 * SEC, &out);
    assert_int_equal(out.learn, MAC_LEARNING_MOVED);
    assert_int_equal(log.last, MAC_LEARNING_CHANGE_MOVED);
    assert_int_equal(log.old_port, 1);
    assert_int_equal(log.new_port, 2);
    assert_true(normal_bridge_seqno(nb) > seqno);
    f = make_flow(4, mac(2), mac(1), 10, 0);
    check_xlate(nb, &f, 2 * SEC, "pop_vlan,2", NORMAL_FORWARD, M_VID,
                M_DST | M_SRC);

    /* Aging: both addresses, last seen at 2 s, expire at 302 s. */
    normal_run(nb, 302 * SEC - 1);
    assert_true(normal_next_wakeup(nb) == 302 * SEC);
    int n_changes = log.n;
    normal_run(nb, 302 * SEC);
    assert_int_equal(log.n, n_changes + 2);
    assert_int_equal(log.last, MAC_LEARNING_CHANGE_EXPIRED);
    assert_true(normal_next_wakeup(nb) == LLONG_MAX);
    f = make_flow(4, mac(2), mac(1), 10, 0);
    check_xlate(nb, &f, 302 * SEC, "pop_vlan,1,2,push_vlan(vid=10,pcp=0),5,6,7,0",
                NORMAL_FLOOD_UNKNOWN, M_VID, M_DST | M_SRC);

    normal_xlate_out_destroy(&out);
    normal_bridge_destroy(nb);
}

static void
test_reconfigure(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct normal_port_config ports[ARRAY_SIZE(std_ports)];
    struct normal_bridge_config cfg = { .ports = ports };
    struct ds s = DS_EMPTY_INITIALIZER;
    struct flow f;

    /* Learn one address on each of ports 1, 2 and 4. */
    f = make_flow(1, mac(1), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "2,push_vlan(vid=10,pcp=0),4,5,6,7,0",
                NORMAL_FLOOD_MULTICAST, M_CFI, M_DST | M_SRC);
    f = make_flow(2, mac(2), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "1,push_vlan(vid=10,pcp=0),4,5,6,7,0",
                NORMAL_FLOOD_MULTICAST, M_CFI, M_DST | M_SRC);
    f = make_flow(4, mac(4), BCAST, 10, 0);
    check_xlate(nb, &f, 0, "pop_vlan,1,2,push_vlan(vid=10,pcp=0),5,6,7,0", NORMAL_FLOOD_MULTICAST,
                M_VID, M_DST | M_SRC);

    /* Duplicate port numbers and out-of-range VLANs are refused, and change
     * nothing. */
    memcpy(ports, std_ports, sizeof ports);
    cfg.n_ports = ARRAY_SIZE(ports);
    ports[1].dp_port = 1;
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), EINVAL);
    memcpy(ports, std_ports, sizeof ports);
    ports[1].ofport = 1;
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), EINVAL);
    memcpy(ports, std_ports, sizeof ports);
    ports[1].tag = 4096;
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), EINVAL);
    memcpy(ports, std_ports, sizeof ports);
    ports[1].ofport = MAC_LEARNING_PORT_NONE;
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), EINVAL);
    memcpy(ports, std_ports, sizeof ports);
    ports[1].vlan_mode = NORMAL_VLAN_NATIVE_UNTAGGED + 1;
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), EINVAL);
    static const uint16_t bad_trunks[] = { 10, 5000 };
    memcpy(ports, std_ports, sizeof ports);
    ports[4].trunks = bad_trunks;
    ports[4].n_trunks = 2;
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), EINVAL);
    static const uint16_t bad_vlans[] = { 4096 };
    memcpy(ports, std_ports, sizeof ports);
    cfg.flood_vlans = bad_vlans;
    cfg.n_flood_vlans = 1;
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), EINVAL);
    cfg.flood_vlans = NULL;
    cfg.n_flood_vlans = 0;

    /* Port 2 leaves, port 4 becomes an access port: their entries go, and
     * the seqno says the flows must be revalidated. */
    uint64_t seqno = normal_bridge_seqno(nb);
    memcpy(ports, std_ports, sizeof ports);
    ports[1] = ports[7];
    ports[3].vlan_mode = NORMAL_VLAN_ACCESS;
    ports[3].tag = 10;
    cfg.n_ports = 7;
    assert_int_equal(normal_bridge_reconfigure(nb, &cfg), 0);
    assert_true(normal_bridge_seqno(nb) > seqno);
    normal_fdb_show(nb, 0, &s);
    assert_string_equal(ds_cstr(&s),
                        " port  VLAN  MAC                Age\n"
                        "    1    10  50:54:00:00:00:01    0\n");

    f = make_flow(2, mac(2), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "drop", NORMAL_DROP_NO_PORT, M_CFI, M_BASE);
    f = make_flow(1, mac(1), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "push_vlan(vid=10,pcp=0),0,pop_vlan,4,push_vlan(vid=10,pcp=0),5,6,7",
                NORMAL_FLOOD_MULTICAST, M_CFI, M_DST | M_SRC);
    ds_destroy(&s);
    normal_bridge_destroy(nb);
}

static void
test_fdb_show(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct ds s = DS_EMPTY_INITIALIZER;
    struct flow f;
    struct eth_addr st = mac_parse("00:00:00:00:00:aa");
    struct eth_addr mcast = mac_parse("01:00:00:00:00:aa");

    normal_fdb_show(nb, 0, &s);
    assert_string_equal(ds_cstr(&s), " port  VLAN  MAC                Age\n");
    ds_clear(&s);

    f = make_flow(1, mac(1), BCAST, -1, 0);
    check_xlate(nb, &f, 0, "2,push_vlan(vid=10,pcp=0),4,5,6,7,0",
                NORMAL_FLOOD_MULTICAST, M_CFI, M_DST | M_SRC);
    f = make_flow(0, mac_parse("aa:55:aa:55:00:01"), BCAST, -1, 0);
    check_xlate(nb, &f, 3 * SEC, "4", NORMAL_FLOOD_MULTICAST, M_CFI,
                M_DST | M_SRC);
    f = make_flow(4, mac(0xfe), BCAST, 4094, 0);
    check_xlate(nb, &f, 5 * SEC, "0", NORMAL_FLOOD_MULTICAST, M_VID,
                M_DST | M_SRC);
    assert_int_equal(normal_fdb_add(nb, 4, 20, &st), 0);
    assert_int_equal(normal_fdb_add(nb, 42, 20, &st), ENOENT);
    assert_int_equal(normal_fdb_add(nb, 4, 4096, &st), EINVAL);
    assert_int_equal(normal_fdb_add(nb, 4, 20, &mcast), EINVAL);

    normal_fdb_show(nb, 1234 * SEC + 500, &s);
    assert_string_equal(ds_cstr(&s),
                        " port  VLAN  MAC                Age\n"
                        "    1    10  50:54:00:00:00:01  1234\n"
                        "LOCAL     0  aa:55:aa:55:00:01  1231\n"
                        "    4  4094  50:54:00:00:00:fe  1229\n"
                        "    4    20  00:00:00:00:00:aa  static\n");
    ds_clear(&s);
    normal_fdb_show(nb, 65 * SEC + 999, &s);
    assert_string_equal(ds_cstr(&s),
                        " port  VLAN  MAC                Age\n"
                        "    1    10  50:54:00:00:00:01   65\n"
                        "LOCAL     0  aa:55:aa:55:00:01   62\n"
                        "    4  4094  50:54:00:00:00:fe   60\n"
                        "    4    20  00:00:00:00:00:aa  static\n");
    ds_clear(&s);

    /* The static entry forwards; mac(7) learned on port 4 moves to 3. */
    f = make_flow(4, mac(7), st, 20, 0);
    check_xlate(nb, &f, 6 * SEC, "drop", NORMAL_DROP_SAME_PORT, M_VID,
                M_DST | M_SRC);
    f = make_flow(3, mac(7), st, -1, 0);
    check_xlate(nb, &f, 6 * SEC, "push_vlan(vid=20,pcp=0),4", NORMAL_FORWARD,
                M_CFI, M_DST | M_SRC);

    struct mac_learning_stats stats;
    size_t n, max;
    normal_fdb_get_stats(nb, &stats, &n, &max);
    assert_int_equal(n, 5);
    assert_int_equal(max, 8192);
    assert_int_equal(stats.n_learned, 4);
    assert_int_equal(stats.n_moved, 1);
    normal_fdb_clear_stats(nb);
    normal_fdb_get_stats(nb, &stats, &n, &max);
    assert_int_equal(stats.n_learned, 0);

    assert_true(normal_fdb_del(nb, 20, &st));
    assert_false(normal_fdb_del(nb, 20, &st));
    normal_fdb_flush(nb);
    assert_string_equal(NORMAL_FDB_FLUSH_REPLY, "table successfully flushed\n");
    normal_fdb_show(nb, 0, &s);
    assert_string_equal(ds_cstr(&s), " port  VLAN  MAC                Age\n");
    ds_destroy(&s);
    normal_bridge_destroy(nb);
}

static void
test_config_strings(void **state DPS_UNUSED)
{
    enum normal_vlan_mode mode;
    enum normal_priority_tags pt;

    assert_true(normal_vlan_mode_from_string(NULL, true, &mode));
    assert_int_equal(mode, NORMAL_VLAN_ACCESS);
    assert_true(normal_vlan_mode_from_string("", false, &mode));
    assert_int_equal(mode, NORMAL_VLAN_TRUNK);
    assert_true(normal_vlan_mode_from_string("access", false, &mode));
    assert_int_equal(mode, NORMAL_VLAN_ACCESS);
    assert_true(normal_vlan_mode_from_string("trunk", true, &mode));
    assert_int_equal(mode, NORMAL_VLAN_TRUNK);
    assert_true(normal_vlan_mode_from_string("native-tagged", true, &mode));
    assert_int_equal(mode, NORMAL_VLAN_NATIVE_TAGGED);
    assert_true(normal_vlan_mode_from_string("native-untagged", true,
                                             &mode));
    assert_int_equal(mode, NORMAL_VLAN_NATIVE_UNTAGGED);
    assert_false(normal_vlan_mode_from_string("dot1q-tunnel", true, &mode));
    assert_false(normal_vlan_mode_from_string("Access", true, &mode));

    assert_true(normal_priority_tags_from_string(NULL, &pt));
    assert_int_equal(pt, NORMAL_PRIORITY_TAGS_NEVER);
    assert_true(normal_priority_tags_from_string("if-nonzero", &pt));
    assert_int_equal(pt, NORMAL_PRIORITY_TAGS_IF_NONZERO);
    assert_true(normal_priority_tags_from_string("true", &pt));
    assert_int_equal(pt, NORMAL_PRIORITY_TAGS_IF_NONZERO);
    assert_true(normal_priority_tags_from_string("always", &pt));
    assert_int_equal(pt, NORMAL_PRIORITY_TAGS_ALWAYS);
    assert_true(normal_priority_tags_from_string("never", &pt));
    assert_int_equal(pt, NORMAL_PRIORITY_TAGS_NEVER);
    assert_false(normal_priority_tags_from_string("sometimes", &pt));
}

static void
test_port_config_from_db(void **state DPS_UNUSED)
{
    struct normal_port_config pc = { .ofport = 3, .dp_port = 7 };
    uint16_t buf[4];
    int64_t tag = 10, bad_tag = 4096;
    const int64_t trunks[] = { 20, 30 }, bad_trunks[] = { 20, -1, 5000 };
    char *msg;

    /* Defaults: a tag makes an access port, none a trunk. */
    assert_null(normal_port_config_from_db(&pc, NULL, &tag, NULL, 0, buf,
                                           NULL));
    assert_int_equal(pc.vlan_mode, NORMAL_VLAN_ACCESS);
    assert_int_equal(pc.tag, 10);
    assert_int_equal(pc.n_trunks, 0);
    assert_int_equal(pc.ofport, 3);
    assert_int_equal(pc.dp_port, 7);
    assert_null(normal_port_config_from_db(&pc, NULL, NULL, trunks, 2, buf,
                                           "if-nonzero"));
    assert_int_equal(pc.vlan_mode, NORMAL_VLAN_TRUNK);
    assert_int_equal(pc.n_trunks, 2);
    assert_int_equal(pc.trunks[1], 30);
    assert_int_equal(pc.priority_tags, NORMAL_PRIORITY_TAGS_IF_NONZERO);
    assert_null(normal_port_config_from_db(&pc, "native-untagged", &tag,
                                           trunks, 2, buf, NULL));
    assert_int_equal(pc.vlan_mode, NORMAL_VLAN_NATIVE_UNTAGGED);
    assert_int_equal(pc.tag, 10);
    assert_int_equal(pc.n_trunks, 2);

    /* What a mode does not use is ignored, and said. */
    msg = normal_port_config_from_db(&pc, NULL, &tag, trunks, 2, buf, NULL);
    assert_string_equal(msg, "an access port carries only its tag, trunks "
                        "ignored");
    assert_int_equal(pc.n_trunks, 0);
    free(msg);
    msg = normal_port_config_from_db(&pc, "trunk", &tag, NULL, 0, buf, NULL);
    assert_string_equal(msg, "a trunk port has no tag, tag ignored");
    assert_int_equal(pc.tag, 0);
    free(msg);

    /* Bad values. */
    msg = normal_port_config_from_db(&pc, "dot1q-tunnel", &bad_tag,
                                     bad_trunks, 3, buf, "maybe");
    assert_string_equal(msg, "tag 4096 is not a VLAN (0 to 4095), ignored; "
                        "vlan_mode dot1q-tunnel is not supported, the port "
                        "is an access port; an access port carries only its "
                        "tag, trunks ignored; other_config:priority-tags "
                        "maybe is not never, if-nonzero or always, using "
                        "never");
    assert_int_equal(pc.vlan_mode, NORMAL_VLAN_ACCESS);
    assert_int_equal(pc.tag, 0);
    assert_int_equal(pc.priority_tags, NORMAL_PRIORITY_TAGS_NEVER);
    free(msg);
    msg = normal_port_config_from_db(&pc, "native-tagged", &tag, bad_trunks,
                                     3, buf, NULL);
    assert_string_equal(msg, "trunk -1 is not a VLAN, ignored; "
                        "trunk 5000 is not a VLAN, ignored");
    assert_int_equal(pc.n_trunks, 1);
    assert_int_equal(pc.trunks[0], 20);
    free(msg);
}

static void
test_dp_actions(void **state DPS_UNUSED)
{
    struct dp_actions a = DP_ACTIONS_INITIALIZER;
    struct dp_actions b;
    struct ds s = DS_EMPTY_INITIALIZER;

    dp_actions_format(&a, &s);
    assert_string_equal(ds_cstr(&s), "drop");
    ds_clear(&s);

    dp_actions_put_push_vlan(&a, htons(ETH_TYPE_VLAN),
                             htons(10 | VLAN_CFI));
    dp_actions_put_output(&a, 2);
    dp_actions_put_pop_vlan(&a);
    dp_actions_put_output(&a, 3);
    dp_actions_put_push_vlan(&a, htons(ETH_TYPE_VLAN_8021AD),
                             htons(4095 | (7 << VLAN_PCP_SHIFT) | VLAN_CFI));
    dp_actions_put_push_vlan(&a, htons(ETH_TYPE_VLAN), htons(5));
    for (uint32_t i = 0; i < 20; i++) {
        dp_actions_put_output(&a, 100 + i);
    }
    dp_actions_format(&a, &s);
    assert_true(util_str_has_prefix(ds_cstr(&s),
                                    "push_vlan(vid=10,pcp=0),2,pop_vlan,3,"
                                    "push_vlan(tpid=0x88a8,vid=4095,pcp=7),"
                                    "push_vlan(vid=5,pcp=0,cfi=0),100,101,"));
    assert_true(util_str_has_suffix(ds_cstr(&s), ",118,119"));

    dp_actions_init(&b);
    assert_false(dp_actions_equal(&a, &b));
    dp_actions_put_push_vlan(&b, htons(ETH_TYPE_VLAN),
                             htons(10 | VLAN_CFI));
    dp_actions_put_output(&b, 2);
    dp_actions_put_pop_vlan(&b);
    dp_actions_put_output(&b, 3);
    dp_actions_put_push_vlan(&b, htons(ETH_TYPE_VLAN_8021AD),
                             htons(4095 | (7 << VLAN_PCP_SHIFT) | VLAN_CFI));
    dp_actions_put_push_vlan(&b, htons(ETH_TYPE_VLAN), htons(5));
    for (uint32_t i = 0; i < 20; i++) {
        dp_actions_put_output(&b, 100 + i);
    }
    assert_true(dp_actions_equal(&a, &b));
    b.actions[4].vlan.tpid = htons(ETH_TYPE_VLAN);
    assert_false(dp_actions_equal(&a, &b));

    dp_actions_clear(&a);
    ds_clear(&s);
    dp_actions_format(&a, &s);
    assert_string_equal(ds_cstr(&s), "drop");
    dp_actions_destroy(&a);
    dp_actions_destroy(&b);
    ds_destroy(&s);
}

static void
test_double_tagged(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct flow f;

    /* Only the outer tag decides and changes; the inner one (and a service
     * TPID) is neither read nor matched. */
    f = make_flow(4, mac(1), BCAST, 10, 2);
    f.vlan_tpid[0] = htons(ETH_TYPE_VLAN_8021AD);
    f.vlan_tpid[1] = htons(ETH_TYPE_VLAN);
    f.vlan_tci[1] = htons(99 | VLAN_CFI);
    check_xlate(nb, &f, 0, "pop_vlan,1,2,push_vlan(vid=10,pcp=2),5,6,7,0", NORMAL_FLOOD_MULTICAST,
                M_VID, M_DST | M_SRC);

    /* Inner tag 10 behind an outer priority tag on an access port. */
    f = make_flow(2, mac(2), mac(1), 0, 0);
    f.vlan_tpid[1] = htons(ETH_TYPE_VLAN);
    f.vlan_tci[1] = htons(10 | VLAN_CFI);
    check_xlate(nb, &f, 0, "pop_vlan,push_vlan(vid=10,pcp=0),4",
                NORMAL_FORWARD, M_ALL, M_DST | M_SRC);
    normal_bridge_destroy(nb);
}

/* Upcalls from several threads while another flushes and shows. */
struct upcall_thread {
    struct normal_bridge *nb;
    uint32_t in_port;
    int n_forwarded;
};

static void *
upcall_main(void *aux_)
{
    struct upcall_thread *aux = aux_;
    struct normal_xlate_out out;

    normal_xlate_out_init(&out);
    for (int i = 0; i < 2000; i++) {
        struct flow f = make_flow(aux->in_port, mac(aux->in_port),
                                  mac(aux->in_port ^ 3), -1, 0);

        normal_xlate(aux->nb, &f, i, &out);
        assert_true(out.reason == NORMAL_FORWARD
                    || out.reason == NORMAL_FLOOD_UNKNOWN);
        aux->n_forwarded += out.reason == NORMAL_FORWARD;
    }
    normal_xlate_out_destroy(&out);
    return NULL;
}

static void
test_threads(void **state DPS_UNUSED)
{
    struct normal_bridge *nb = std_bridge(NULL, 0, false);
    struct upcall_thread threads[2] = { { nb, 1, 0 }, { nb, 2, 0 } };
    pthread_t ids[2];
    struct ds s = DS_EMPTY_INITIALIZER;

    for (int i = 0; i < 2; i++) {
        assert_int_equal(pthread_create(&ids[i], NULL, upcall_main,
                                        &threads[i]), 0);
    }
    for (int i = 0; i < 200; i++) {
        ds_clear(&s);
        normal_fdb_show(nb, i, &s);
        if (i % 10 == 0) {
            normal_fdb_flush(nb);
        }
        normal_run(nb, i * SEC);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(ids[i], NULL);
    }

    /* Whatever the interleaving, the table is consistent afterwards. */
    normal_fdb_flush(nb);
    struct flow f = make_flow(1, mac(1), mac(2), -1, 0);
    check_xlate(nb, &f, 2000, "2,push_vlan(vid=10,pcp=0),4,5,6,7,0",
                NORMAL_FLOOD_UNKNOWN, M_CFI, M_DST | M_SRC);
    f = make_flow(2, mac(2), mac(1), -1, 0);
    check_xlate(nb, &f, 2000, "1", NORMAL_FORWARD, M_CFI, M_DST | M_SRC);
    ds_clear(&s);
    normal_fdb_show(nb, 2000, &s);
    assert_string_equal(ds_cstr(&s),
                        " port  VLAN  MAC                Age\n"
                        "    1    10  50:54:00:00:00:01    0\n"
                        "    2    10  50:54:00:00:00:02    0\n");
    ds_destroy(&s);
    normal_bridge_destroy(nb);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_access_flood_and_learn),
        cmocka_unit_test(test_trunk_input),
        cmocka_unit_test(test_access_input_tags),
        cmocka_unit_test(test_native_ports),
        cmocka_unit_test(test_priority_tags),
        cmocka_unit_test(test_flood_vlans),
        cmocka_unit_test(test_reserved),
        cmocka_unit_test(test_multicast_source_and_unknown_port),
        cmocka_unit_test(test_move_and_revalidation),
        cmocka_unit_test(test_reconfigure),
        cmocka_unit_test(test_fdb_show),
        cmocka_unit_test(test_config_strings),
        cmocka_unit_test(test_port_config_from_db),
        cmocka_unit_test(test_dp_actions),
        cmocka_unit_test(test_double_tagged),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests_name("normal", tests, NULL, NULL);
}
