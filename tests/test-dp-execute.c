/* Unit tests for lib/dp-execute.c and the set-field actions of
 * lib/dp-actions.c.
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
#include "dp-execute.h"
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "dynamic-string.h"
#include "flow.h"
#include "packets.h"
#include "util.h"

/* Output callback: keeps what it gets per port, and the egress summary of
 * the last batch each port got. */
struct sink {
    struct dp_packet *packets[8][16];
    size_t n[8];
    uint32_t n_clean[8];
};

static void
sink_output(void *sink_, uint32_t port, struct dp_packet_batch *batch)
{
    struct sink *sink = sink_;
    struct dp_packet *p;

    assert_true(port < 8);
    sink->n_clean[port] = batch->n_clean;
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        assert_true(sink->n[port] < 16);
        sink->packets[port][sink->n[port]++] = p;
    }
    dp_packet_batch_init(batch);
}

static void
sink_free(struct sink *sink)
{
    for (size_t port = 0; port < 8; port++) {
        for (size_t i = 0; i < sink->n[port]; i++) {
            dp_packet_free(sink->packets[port][i]);
        }
    }
}

/* A packet with the headers of 'f', from 'pool': linear from the standard
 * pool, else a chain with the Ethernet header split over two segments. */
static struct dp_packet *
compose(const struct flow *f, struct rte_mempool *pool)
{
    struct dp_packet *p = flow_compose(dp_test_pools.std, f, 20);
    struct flow_key key;

    assert_non_null(p);
    if (pool != dp_test_pools.std) {
        size_t size = dp_packet_size(p);
        uint8_t *buf = xmalloc(size);

        dp_packet_copy_out(p, 0, size, buf);
        dp_packet_free(p);
        p = dp_test_chain(pool, buf, size, 10, 30);
        free(buf);
        assert_non_null(p);
    }
    flow_extract_key(p, &key);
    return p;
}

static bool
packet_equals_flow(const struct dp_packet *p, const struct flow *f)
{
    struct dp_packet *e = flow_compose(dp_test_pools.std, f, 20);
    uint8_t *buf = xmalloc(dp_packet_size(e));
    bool eq;

    dp_packet_copy_out(e, 0, dp_packet_size(e), buf);
    eq = dp_test_equal(p, buf, dp_packet_size(e));
    free(buf);
    dp_packet_free(e);
    return eq;
}

/* Push then pop gives back the same bytes, on linear packets and on chains
 * whose first segment is tiny; offsets follow the headers. */
static void
test_vlan_push_pop(void **state DPS_UNUSED)
{
    struct rte_mempool *pools[] = { dp_test_pools.std, dp_test_pools.tiny };

    for (size_t i = 0; i < ARRAY_SIZE(pools); i++) {
        struct flow f, tagged;

        dp_test_ipv4_flow(&f, IPPROTO_TCP_);
        dp_test_ports(&f, 80, 1234);
        f.in_port = 0;
        tagged = f;
        tagged.vlan_tpid[0] = htons(ETH_TYPE_VLAN_8021AD);
        tagged.vlan_tci[0] = htons(VLAN_CFI | 100);

        struct dp_packet *p = compose(&f, pools[i]);
        uint16_t l3 = p->md.l3_ofs;

        assert_int_equal(dp_execute_pop_vlan(p), EINVAL);
        assert_int_equal(dp_execute_push_vlan(p, htons(ETH_TYPE_VLAN_8021AD),
                                              htons(VLAN_CFI | 100)), 0);
        assert_true(packet_equals_flow(p, &tagged));
        assert_int_equal(p->md.l2_ofs, 0);
        assert_int_equal(p->md.l3_ofs, l3 + VLAN_HEADER_LEN);
        assert_true(dp_test_chain_ok(p));

        assert_int_equal(dp_execute_pop_vlan(p), 0);
        assert_true(packet_equals_flow(p, &f));
        assert_int_equal(p->md.l2_ofs, 0);
        assert_int_equal(p->md.l3_ofs, l3);
        dp_packet_free(p);
    }
}

/* A batch through "2,push_vlan,3,set(...),4": port 2 gets the originals'
 * copies untouched, port 3 tagged copies, port 4 the packets themselves,
 * tagged and rewritten. */
static void
test_execute_batch(void **state DPS_UNUSED)
{
    struct dp_actions acts = DP_ACTIONS_INITIALIZER;
    struct dp_packet_batch batch;
    struct sink sink;
    struct flow f, tagged, rewritten;

    memset(&sink, 0, sizeof sink);
    dp_test_ipv4_flow(&f, IPPROTO_UDP_);
    dp_test_ports(&f, 5, 6);
    f.in_port = 0;
    tagged = f;
    tagged.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
    tagged.vlan_tci[0] = htons(VLAN_CFI | 7);
    rewritten = tagged;
    rewritten.nw_src = htonl(0x01020304);
    rewritten.nw_tos = 0x10;
    rewritten.tp_src = htons(99);
    rewritten.dl_dst = dp_test_mac1;

    dp_actions_put_output(&acts, 2);
    dp_actions_put_push_vlan(&acts, htons(ETH_TYPE_VLAN),
                             htons(VLAN_CFI | 7));
    dp_actions_put_output(&acts, 3);
    dp_actions_put_set_ipv4(&acts, DP_SET_IPV4_SRC | DP_SET_IPV4_TOS,
                            htonl(0x01020304), 0, 0x10, 0);
    dp_actions_put_set_l4(&acts, IPPROTO_UDP_, DP_SET_L4_SRC, htons(99), 0);
    dp_actions_put_set_eth(&acts, NULL, &dp_test_mac1);
    dp_actions_put_output(&acts, 4);

    struct ds s = DS_EMPTY_INITIALIZER;
    dp_actions_format(&acts, &s);
    assert_string_equal(ds_cstr(&s),
                        "2,push_vlan(vid=7,pcp=0),3,"
                        "set(ipv4(src=1.2.3.4,tos=0x10)),set(udp(src=99)),"
                        "set(eth(dst=00:11:22:33:44:55)),4");
    ds_destroy(&s);

    dp_packet_batch_init(&batch);
    struct dp_packet *originals[3];
    for (int i = 0; i < 3; i++) {
        originals[i] = compose(&f, dp_test_pools.std);
        dp_packet_batch_add(&batch, originals[i]);
    }
    dp_execute_actions(&batch, acts.actions, acts.n_actions, sink_output,
                       &sink);
    assert_int_equal(batch.count, 0);
    assert_int_equal(sink.n[2], 3);
    assert_int_equal(sink.n[3], 3);
    assert_int_equal(sink.n[4], 3);
    for (int i = 0; i < 3; i++) {
        assert_true(packet_equals_flow(sink.packets[2][i], &f));
        assert_true(packet_equals_flow(sink.packets[3][i], &tagged));
        assert_ptr_equal(sink.packets[4][i], originals[i]);
        /* The rewrite left partial checksums: complete them to compare. */
        dp_packet_tx_prepare(sink.packets[4][i], 0);
        assert_true(packet_equals_flow(sink.packets[4][i], &rewritten));
    }
    sink_free(&sink);

    /* Drop: the empty list frees. */
    dp_actions_clear(&acts);
    dp_packet_batch_add(&batch, compose(&f, dp_test_pools.std));
    dp_execute_actions(&batch, acts.actions, acts.n_actions, sink_output,
                       &sink);
    assert_int_equal(batch.count, 0);
    dp_actions_destroy(&acts);
}

/* The egress summary of a batch whose packets need no egress work (as a
 * receive path sets it): an output that is the last action hands it on,
 * copies for an earlier output start without one, and a rewrite withdraws
 * it, since the checksums it covered are partial now. */
static void
test_execute_egress_summary(void **state DPS_UNUSED)
{
    struct dp_actions acts = DP_ACTIONS_INITIALIZER;
    struct dp_packet_batch batch;
    struct sink sink;
    struct flow f;

    dp_test_ipv4_flow(&f, IPPROTO_UDP_);
    dp_test_ports(&f, 5, 6);
    f.in_port = 0;
    dp_actions_put_output(&acts, 2);
    dp_actions_put_output(&acts, 3);
    for (int rewrite = 0; rewrite < 2; rewrite++) {
        memset(&sink, 0, sizeof sink);
        dp_packet_batch_init(&batch);
        for (int i = 0; i < 3; i++) {
            struct dp_packet *p = compose(&f, dp_test_pools.std);

            p->md.ip_csum = DP_CSUM_GOOD;
            p->md.l4_csum = DP_CSUM_GOOD;
            assert_false(dp_packet_tx_pending(p));
            dp_packet_batch_add(&batch, p);
        }
        assert_int_equal(batch.n_clean, 0);
        dp_packet_batch_set_clean(&batch, true);
        assert_int_equal(batch.n_clean, 3);

        dp_execute_actions(&batch, acts.actions, acts.n_actions,
                           sink_output, &sink);
        assert_int_equal(sink.n[2], 3);
        assert_int_equal(sink.n[3], 3);
        assert_int_equal(sink.n_clean[2], 0);
        assert_int_equal(sink.n_clean[3], rewrite ? 0 : 3);
        for (int i = 0; i < 3; i++) {
            assert_int_equal(dp_packet_tx_pending(sink.packets[3][i]),
                             rewrite);
        }
        sink_free(&sink);

        /* Then with a rewrite between the two outputs. */
        dp_actions_clear(&acts);
        dp_actions_put_output(&acts, 2);
        dp_actions_put_set_ipv4(&acts, DP_SET_IPV4_SRC, htonl(0x01020304),
                                0, 0, 0);
        dp_actions_put_output(&acts, 3);
    }
    dp_actions_destroy(&acts);
}

/* Set-field actions: equality and formatting of every field; a header the
 * packet lacks is left alone. */
static void
test_set_field_format(void **state DPS_UNUSED)
{
    struct dp_actions a = DP_ACTIONS_INITIALIZER, b = DP_ACTIONS_INITIALIZER;
    struct ds s = DS_EMPTY_INITIALIZER;

    dp_actions_put_set_eth(&a, &dp_test_mac1, &dp_test_mac2);
    dp_actions_put_set_ipv4(&a, DP_SET_IPV4_SRC | DP_SET_IPV4_DST
                            | DP_SET_IPV4_TOS | DP_SET_IPV4_TTL,
                            htonl(0x0a000001), htonl(0x0a000002), 0, 64);
    dp_actions_put_set_l4(&a, IPPROTO_TCP_, DP_SET_L4_SRC | DP_SET_L4_DST,
                          htons(1), htons(2));
    dp_actions_put_set_l4(&a, IPPROTO_SCTP_, DP_SET_L4_DST, 0, htons(9));
    dp_actions_format(&a, &s);
    assert_string_equal(ds_cstr(&s),
                        "set(eth(src=00:11:22:33:44:55,"
                        "dst=66:77:88:99:aa:bb)),"
                        "set(ipv4(src=10.0.0.1,dst=10.0.0.2,tos=0,ttl=64)),"
                        "set(tcp(src=1,dst=2)),set(sctp(dst=9))");

    dp_actions_put_set_eth(&b, &dp_test_mac1, &dp_test_mac2);
    assert_false(dp_actions_equal(&a, &b));
    dp_actions_put_set_ipv4(&b, DP_SET_IPV4_SRC | DP_SET_IPV4_DST
                            | DP_SET_IPV4_TOS | DP_SET_IPV4_TTL,
                            htonl(0x0a000001), htonl(0x0a000002), 0, 64);
    dp_actions_put_set_l4(&b, IPPROTO_TCP_, DP_SET_L4_SRC | DP_SET_L4_DST,
                          htons(1), htons(2));
    dp_actions_put_set_l4(&b, IPPROTO_SCTP_, DP_SET_L4_DST, 0, htons(8));
    assert_false(dp_actions_equal(&a, &b));
    b.actions[3].l4.dst = htons(9);
    assert_true(dp_actions_equal(&a, &b));

    /* An ARP packet has no IPv4 or L4 header to rewrite. */
    struct flow f;
    dp_test_base_flow(&f, ETH_TYPE_ARP);
    f.in_port = 0;
    f.arp_op = htons(1);
    struct dp_packet *p = compose(&f, dp_test_pools.std);
    dp_execute_set_field(p, &a.actions[1]);
    dp_execute_set_field(p, &a.actions[2]);
    assert_true(packet_equals_flow(p, &f));
    dp_packet_free(p);

    ds_destroy(&s);
    dp_actions_destroy(&a);
    dp_actions_destroy(&b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_vlan_push_pop),
        DP_TEST(test_execute_batch),
        DP_TEST(test_execute_egress_summary),
        DP_TEST(test_set_field_format),
    };

    dp_test_init("test-dp-execute");
    return cmocka_run_group_tests_name("dp-execute", tests, NULL,
                                       dp_test_teardown_group);
}
