/* Unit tests for ofproto/lacp.c: the LACPDU codec against a frame Debian's
 * ovs-vswitchd 3.1 sent, malformed PDUs, and two bonds' LACP negotiating,
 * expiring, defaulting and falling back, wired to each other in memory.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ofproto/lacp.h"
#include "timeval.h"
#include "util.h"

static void test_encode_reference(void **state);
static void test_decode(void **state);
static void test_decode_malformed(void **state);
static void test_negotiate_and_expire(void **state);
static void test_fallback(void **state);
static void test_loopback(void **state);

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_reference),
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_decode_malformed),
        cmocka_unit_test(test_negotiate_and_expire),
        cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_loopback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A LACPDU Debian's ovs-vswitchd 3.1 sent from member b1 (port 2) of a
 * bond with system ID aa:00:00:00:00:0a, fast timeouts, negotiated with
 * aa:00:00:00:00:0b (captured with options:tx_pcap). */
static const char reference_hex[] =
    "0180c2000002aa55aa55000e8809"
    "0101"
    "0114fffeaa000000000a0002ffff00023f000000"
    "0214fffeaa000000000b0002ffff00023d000000"
    "03100000000000000000000000000000"
    "0000"
    "0000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000";

static void
hex_to_bytes(const char *hex, uint8_t *bytes, size_t n)
{
    assert_int_equal(strlen(hex), 2 * n);
    for (size_t i = 0; i < n; i++) {
        unsigned int b;

        assert_int_equal(sscanf(&hex[2 * i], "%2x", &b), 1);
        bytes[i] = b;
    }
}

static const struct lacp_info reference_actor = {
    .sys_priority = 65534,
    .sys_id = { { 0xaa, 0, 0, 0, 0, 0x0a } },
    .key = 2,
    .port_priority = 65535,
    .port_id = 2,
    .state = 0x3f,
};

static const struct lacp_info reference_partner = {
    .sys_priority = 65534,
    .sys_id = { { 0xaa, 0, 0, 0, 0, 0x0b } },
    .key = 2,
    .port_priority = 65535,
    .port_id = 2,
    .state = 0x3d,
};

static void
test_encode_reference(void **state DPS_UNUSED)
{
    static const struct eth_addr src = { { 0xaa, 0x55, 0xaa, 0x55, 0, 0x0e } };
    uint8_t expected[LACP_FRAME_LEN], pdu[LACP_PDU_LEN];
    uint8_t frame[LACP_FRAME_LEN];

    hex_to_bytes(reference_hex, expected, sizeof expected);
    lacp_pdu_encode(&reference_actor, &reference_partner, pdu);
    lacp_frame_compose(&src, pdu, frame);
    assert_memory_equal(frame, expected, sizeof frame);
}

static void
test_decode(void **state DPS_UNUSED)
{
    uint8_t frame[LACP_FRAME_LEN];
    struct lacp_info actor, partner;

    hex_to_bytes(reference_hex, frame, sizeof frame);
    assert_true(lacp_pdu_decode(&frame[ETH_HEADER_LEN], LACP_PDU_LEN,
                                &actor, &partner));
    assert_memory_equal(&actor, &reference_actor, sizeof actor);
    assert_memory_equal(&partner, &reference_partner, sizeof partner);

    /* Only the actor and partner TLVs are needed: a short PDU that has
     * them decodes, and a later version too. */
    assert_true(lacp_pdu_decode(&frame[ETH_HEADER_LEN], 42, &actor,
                                &partner));
    frame[ETH_HEADER_LEN + 1] = 2;
    assert_true(lacp_pdu_decode(&frame[ETH_HEADER_LEN], LACP_PDU_LEN,
                                &actor, &partner));
}

static void
test_decode_malformed(void **state DPS_UNUSED)
{
    static const struct {
        size_t offset;          /* In the PDU; SIZE_MAX: truncate. */
        uint8_t value;
    } breaks[] = {
        { 0, LACP_MARKER_SUBTYPE },     /* A marker PDU. */
        { 0, 0 },
        { 1, 0 },                       /* Version 0. */
        { 2, 2 },                       /* Actor TLV type. */
        { 3, 19 },                      /* Actor TLV length. */
        { 22, 1 },                      /* Partner TLV type. */
        { 23, 21 },                     /* Partner TLV length. */
        { SIZE_MAX, 41 },               /* Truncated in the partner TLV. */
        { SIZE_MAX, 0 },
    };

    for (size_t i = 0; i < ARRAY_SIZE(breaks); i++) {
        uint8_t frame[LACP_FRAME_LEN];
        struct lacp_info actor, partner;
        size_t size = LACP_PDU_LEN;

        hex_to_bytes(reference_hex, frame, sizeof frame);
        if (breaks[i].offset == SIZE_MAX) {
            size = breaks[i].value;
        } else {
            frame[ETH_HEADER_LEN + breaks[i].offset] = breaks[i].value;
        }
        assert_false(lacp_pdu_decode(&frame[ETH_HEADER_LEN], size, &actor,
                                     &partner));
    }
}

/* Two bonds' LACP, 'a' and 'b', with members 1 and 2 each, member N of
 * one linked to member N of the other; 'cut' links carry nothing. */
struct wire {
    struct lacp *lacps[2];
    bool cut[3];
    uint8_t queue[16][LACP_PDU_LEN];
    uint32_t queue_member[16];
    int queue_to[16];
    size_t n_queued;
    int sender;
};

static void
wire_send(void *aux, uint32_t member, const uint8_t pdu[LACP_PDU_LEN])
{
    struct wire *w = aux;

    assert_true(w->n_queued < ARRAY_SIZE(w->queue));
    if (!w->cut[member]) {
        memcpy(w->queue[w->n_queued], pdu, LACP_PDU_LEN);
        w->queue_member[w->n_queued] = member;
        w->queue_to[w->n_queued] = !w->sender;
        w->n_queued++;
    }
}

/* Runs both sides at 'now' a few times, delivering what they send. */
static void
wire_run(struct wire *w, long long int now)
{
    for (int round = 0; round < 4; round++) {
        for (int side = 0; side < 2; side++) {
            w->sender = side;
            lacp_run(w->lacps[side], now, wire_send, w);
        }
        for (size_t i = 0; i < w->n_queued; i++) {
            lacp_process_packet(w->lacps[w->queue_to[i]], w->queue_member[i],
                                w->queue[i], LACP_PDU_LEN, now);
        }
        w->n_queued = 0;
    }
}

static void
wire_init(struct wire *w, const struct lacp_settings *sa,
          const struct lacp_settings *sb)
{
    const struct lacp_settings *s[2] = { sa, sb };

    memset(w, 0, sizeof *w);
    for (int side = 0; side < 2; side++) {
        w->lacps[side] = lacp_create(side ? "bond-b" : "bond-a");
        lacp_configure(w->lacps[side], s[side]);
        for (uint32_t m = 1; m <= 2; m++) {
            struct lacp_member_settings ms = {
                .name = m == 1 ? "m1" : "m2",
                .port_id = m,
                .port_priority = 65535,
            };
            lacp_member_register(w->lacps[side], m, &ms);
        }
    }
}

static void
wire_destroy(struct wire *w)
{
    lacp_destroy(w->lacps[0]);
    lacp_destroy(w->lacps[1]);
}

static void
test_negotiate_and_expire(void **state DPS_UNUSED)
{
    struct lacp_settings sa = {
        .sys_id = { { 0xaa, 0, 0, 0, 0, 0x0a } },
        .sys_priority = 65534, .active = true, .fast = true,
    };
    struct lacp_settings sb = sa;
    sb.sys_id.ea[5] = 0x0b;
    sb.active = false;          /* Passive: answers only. */
    struct wire w;

    wire_init(&w, &sa, &sb);
    /* Before anything is delivered: the active side's members are expired
     * (and so attached: "negotiated", as Open vSwitch says), the passive
     * side's defaulted; nobody may carry traffic. */
    long long int now = time_msec();
    w.cut[1] = w.cut[2] = true;
    wire_run(&w, now);
    w.cut[1] = w.cut[2] = false;
    assert_true(lacp_negotiated(w.lacps[0]));
    assert_false(lacp_negotiated(w.lacps[1]));
    for (int side = 0; side < 2; side++) {
        for (uint32_t m = 1; m <= 2; m++) {
            assert_false(lacp_member_may_enable(w.lacps[side], m));
        }
    }

    /* A second later the active side says it again, and now it is
     * heard. */
    now += 1000;
    wire_run(&w, now);
    for (int side = 0; side < 2; side++) {
        assert_true(lacp_negotiated(w.lacps[side]));
        for (uint32_t m = 1; m <= 2; m++) {
            assert_true(lacp_member_may_enable(w.lacps[side], m));
        }
    }

    /* Link 1 goes quiet: 3 s (fast) later member 1 is expired on both
     * sides and may not carry traffic; member 2, still hearing its
     * partner, goes on. */
    w.cut[1] = true;
    wire_run(&w, now + 3500);
    for (int side = 0; side < 2; side++) {
        assert_false(lacp_member_may_enable(w.lacps[side], 1));
        assert_true(lacp_member_may_enable(w.lacps[side], 2));
        assert_true(lacp_negotiated(w.lacps[side]));
    }
    /* And back: negotiated again once the next PDU (a second later, as
     * the partner now looks fast) is heard. */
    w.cut[1] = false;
    wire_run(&w, now + 4500);
    for (int side = 0; side < 2; side++) {
        assert_true(lacp_member_may_enable(w.lacps[side], 1));
    }

    /* A member whose carrier is down sends nothing and may not carry
     * traffic. */
    lacp_member_set_carrier(w.lacps[0], 2, false);
    wire_run(&w, now + 4600);
    assert_false(lacp_member_may_enable(w.lacps[0], 2));
    lacp_member_set_carrier(w.lacps[0], 2, true);
    wire_run(&w, now + 4700);
    assert_true(lacp_member_may_enable(w.lacps[0], 2));
    wire_destroy(&w);
}

static void
test_fallback(void **state DPS_UNUSED)
{
    struct lacp_settings s = {
        .sys_id = { { 0xaa, 0, 0, 0, 0, 0x0a } },
        .sys_priority = 65534, .active = true, .fallback_ab = true,
    };
    struct lacp *lacp = lacp_create("bond");
    struct lacp_member_settings ms = { .name = "m1", .port_id = 1,
                                       .port_priority = 65535 };
    uint8_t sent[LACP_PDU_LEN];
    struct wire w;

    memset(&w, 0, sizeof w);
    lacp_configure(lacp, &s);
    lacp_member_register(lacp, 1, &ms);
    assert_false(lacp_member_may_enable(lacp, 1));

    /* No partner: expired, then defaulted 3 s later; with
     * lacp-fallback-ab the member may then carry traffic and the bond
     * has not negotiated. */
    long long int now = time_msec();
    w.sender = 0;
    lacp_run(lacp, now + 3500, wire_send, &w);
    assert_false(lacp_negotiated(lacp));
    assert_true(lacp_member_may_enable(lacp, 1));

    /* What it says while defaulted: activity, aggregation off (one
     * member), synchronized (fallback attaches it), collecting,
     * distributing, defaulted. */
    assert_true(w.n_queued > 0);
    memcpy(sent, w.queue[w.n_queued - 1], sizeof sent);
    struct lacp_info actor, partner;
    assert_true(lacp_pdu_decode(sent, sizeof sent, &actor, &partner));
    assert_int_equal(actor.state, LACP_STATE_ACTIVITY | LACP_STATE_SYNC
                     | LACP_STATE_COLLECTING | LACP_STATE_DISTRIBUTING
                     | LACP_STATE_DEFAULTED);
    assert_int_equal(actor.key, 1);
    lacp_destroy(lacp);
}

static void
test_loopback(void **state DPS_UNUSED)
{
    struct lacp_settings s = {
        .sys_id = { { 0xaa, 0, 0, 0, 0, 0x0a } },
        .sys_priority = 65534, .active = true, .fast = true,
    };
    struct wire w;

    /* Both sides with one system ID: a bond connected to itself never
     * attaches its members. */
    wire_init(&w, &s, &s);
    wire_run(&w, time_msec());
    for (int side = 0; side < 2; side++) {
        assert_false(lacp_negotiated(w.lacps[side]));
        assert_false(lacp_member_may_enable(w.lacps[side], 1));
    }
    wire_destroy(&w);
}
