/* Unit tests for simple match: flow_parse_simple() (lib/flow.c),
 * dp_flow_is_simple_match() (lib/dp-flow.c) and the per-thread table
 * (lib/dp-simple.c).
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
#include "dp-packet.h"
#include "dp-rcu.h"
#include "dp-simple.h"
#include "dp-test.h"
#include "flow.h"
#include "packets.h"
#include "util.h"

static struct dp_rcu *rcu;

/* The mask Open vSwitch's slow path (and ours) gives an "in_port=N,
 * actions=output:M" flow: the input port, the recirculation id, the
 * Ethernet type, "is there a VLAN tag" and, for IP, the fragment bits. */
static void
port_mask(struct flow *m, bool ip)
{
    memset(m, 0, sizeof *m);
    m->in_port = UINT32_MAX;
    m->recirc_id = UINT32_MAX;
    m->dl_type = htons(UINT16_MAX);
    m->vlan_tci[0] = htons(VLAN_CFI);
    m->nw_frag = ip ? FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER : 0;
}

/* A flow of 'key' (masked here) under 'mask'. */
static struct dp_flow *
make_flow(const struct flow *key, const struct flow *mask)
{
    struct flow_key k, m, masked;

    flow_key_from_flow(&k, key);
    flow_key_from_flow(&m, mask);
    flow_key_apply_mask(&masked, &k, &m);
    return dp_flow_create(rcu, &masked, &m, NULL, 0, NULL);
}

static void
free_flow(struct dp_flow *f)
{
    dp_flow_mark_dead(f);
    dp_flow_unref(f);
}

/* The packed fields of a packet of 'f' on port 'port', as the datapath
 * looks them up under 'mask'. */
static uint64_t
packet_key(uint32_t port, const struct flow *f, uint32_t mask)
{
    return ((uint64_t) port << 32
            | (flow_simple_pack(f->dl_type, f->vlan_tci[0], f->nw_frag)
               & mask));
}

/* flow_parse_simple() returns the fields flow_extract() finds and sets the
 * offsets it sets, for every sample flow, untagged, with one tag (priority
 * bits set), with two, truncated, and as a chain split inside the
 * headers; and the TCP flags. */
static void
test_parse_simple(void **state DPS_UNUSED)
{
    struct flow flows[DP_TEST_MAX_FLOWS];
    size_t n = dp_test_sample_flows(flows);
    size_t n_checked = 0;

    for (size_t i = 0; i < n; i++) {
        for (int variant = 0; variant < 5; variant++) {
            struct flow f = flows[i];

            if (variant == 1 || variant == 2) {
                f.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
                f.vlan_tci[0] = htons(VLAN_CFI | 0xa000 | 7);
            }
            if (variant == 2) {
                f.vlan_tpid[0] = htons(ETH_TYPE_VLAN_8021AD);
                f.vlan_tpid[1] = htons(ETH_TYPE_VLAN);
                f.vlan_tci[1] = htons(VLAN_CFI | 300);
            }
            struct dp_packet *p
                = dp_test_shaped_packet(&f, (variant == 3 ? DP_TEST_SHAPE_CUT
                                             : variant == 4
                                             ? DP_TEST_SHAPE_CHAIN
                                             : DP_TEST_SHAPE_WHOLE));
            assert_non_null(p);

            struct flow g;
            flow_extract(p, &g);
            struct dp_packet_md want = p->md;

            p->md.l2_ofs = p->md.l3_ofs = p->md.l4_ofs = DP_PACKET_OFS_NONE;
            p->md.l4_proto = 0xee;
            p->md.flags |= DP_PACKET_F_FRAG;
            uint16_t tcp_flags = 0xffff;
            uint32_t fields = flow_parse_simple(p, &tcp_flags);
            assert_int_equal(fields, flow_simple_pack(g.dl_type,
                                                      g.vlan_tci[0],
                                                      g.nw_frag));
            assert_int_equal(tcp_flags, ntohs(g.tcp_flags));
            assert_int_equal(p->md.l2_ofs, want.l2_ofs);
            assert_int_equal(p->md.l3_ofs, want.l3_ofs);
            assert_int_equal(p->md.l4_ofs, want.l4_ofs);
            assert_int_equal(p->md.l4_proto, want.l4_proto);
            assert_int_equal(p->md.flags & DP_PACKET_F_FRAG,
                             want.flags & DP_PACKET_F_FRAG);
            dp_packet_free(p);
            n_checked++;
        }
    }
    assert_true(n_checked >= 40);

    /* The packing: priority bits left out, VID and CFI kept. */
    assert_int_equal(flow_simple_pack(htons(0x0800), htons(0xf123), 3),
                     0x08000000 | (0x1123 << 2) | 3);
}

/* Which masks make a simple-match flow, and the packed key and mask. */
static void
test_is_simple(void **state DPS_UNUSED)
{
    struct flow key, m;
    struct flow_key k, mk;
    uint64_t skey;
    uint32_t smask;

    dp_test_ipv4_flow(&key, IPPROTO_UDP_);
    key.in_port = 7;

    /* in_port=7,actions=output:2 on IPv4. */
    port_mask(&m, true);
    flow_key_from_flow(&k, &key);
    flow_key_from_flow(&mk, &m);
    assert_true(dp_flow_is_simple_match(&k, &mk, &skey, &smask));
    assert_int_equal(smask, flow_simple_pack(htons(0xffff), htons(VLAN_CFI),
                                             3));
    assert_int_equal(skey, (UINT64_C(7) << 32) | (0x0800 << 16));

    /* ARP without the fragment bits: the same mask as IP's. */
    struct flow arp = key;
    arp.dl_type = htons(ETH_TYPE_ARP);
    port_mask(&m, false);
    flow_key_from_flow(&k, &arp);
    flow_key_from_flow(&mk, &m);
    uint32_t arp_mask;
    assert_true(dp_flow_is_simple_match(&k, &mk, &skey, &arp_mask));
    assert_int_equal(arp_mask, smask);

    /* A VLAN's VID matched: simple, with another mask. */
    port_mask(&m, true);
    m.vlan_tci[0] = htons(VLAN_CFI | VLAN_VID_MASK);
    key.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
    key.vlan_tci[0] = htons(VLAN_CFI | 0x4000 | 10);
    flow_key_from_flow(&k, &key);
    flow_key_from_flow(&mk, &m);
    assert_true(dp_flow_is_simple_match(&k, &mk, &skey, &smask));
    assert_int_equal(skey & 0xffffffff,
                     (0x0800 << 16) | ((VLAN_CFI | 10) << 2));
    key.vlan_tpid[0] = key.vlan_tci[0] = 0;

    /* Anything more is not simple: the priority bits, the TPID, a second
     * tag, addresses, ports, TTL, the exact-match flag, an input port not
     * matched exactly, a recirculation id, the Ethernet type wildcarded. */
    for (int i = 0; i < 10; i++) {
        struct flow kk = key;

        port_mask(&m, true);
        switch (i) {
        case 0: m.vlan_tci[0] |= htons(VLAN_PCP_MASK); break;
        case 1: m.vlan_tpid[0] = htons(0xffff); break;
        case 2: m.vlan_tci[1] = htons(VLAN_CFI); break;
        case 3: m.dl_dst.ea[5] = 0xff; break;
        case 4: m.tp_dst = htons(0xffff); break;
        case 5: m.nw_ttl = 0xff; break;
        case 6: m.pad1[0] = FLOW_MASK_META_EXACT; break;
        case 7: m.in_port = 0xffff; break;
        case 8: kk.recirc_id = 5; break;
        case 9: m.dl_type = 0; break;
        }
        flow_key_from_flow(&k, &kk);
        flow_key_from_flow(&mk, &m);
        assert_false(dp_flow_is_simple_match(&k, &mk, &skey, &smask));
        assert_int_equal(smask, 0);
    }

    /* dp_flow_create() fills the flow's fields in. */
    port_mask(&m, true);
    struct dp_flow *f = make_flow(&key, &m);
    assert_int_not_equal(f->simple_mask, 0);
    assert_int_equal(f->simple_key >> 32, 7);
    free_flow(f);
    m.tp_src = htons(0xffff);
    f = make_flow(&key, &m);
    assert_int_equal(f->simple_mask, 0);
    assert_int_equal(f->simple_key, UINT64_C(7) << 32);
    free_flow(f);
}

/* The table: a port is on the simple path while every flow from it is
 * simple with one mask; lookups find the flow of a packet's fields. */
static void
test_table(void **state DPS_UNUSED)
{
    struct dp_simple *s = dp_simple_create(rcu);
    struct flow ip4, ip6, arp, m, m6, marp;

    dp_test_ipv4_flow(&ip4, IPPROTO_UDP_);
    dp_test_ipv6_flow(&ip6, IPPROTO_TCP_);
    dp_test_base_flow(&arp, ETH_TYPE_ARP);
    ip4.in_port = ip6.in_port = arp.in_port = 1;
    port_mask(&m, true);
    port_mask(&m6, true);
    port_mask(&marp, false);

    assert_int_equal(dp_simple_port_mask(s, 1), 0);
    struct dp_flow *f4 = make_flow(&ip4, &m);
    struct dp_flow *f6 = make_flow(&ip6, &m6);
    struct dp_flow *fa = make_flow(&arp, &marp);
    dp_simple_flow_add(s, f4);
    uint32_t mask = dp_simple_port_mask(s, 1);
    assert_int_equal(mask, f4->simple_mask);
    dp_simple_flow_add(s, f6);
    dp_simple_flow_add(s, fa);
    assert_int_equal(dp_simple_port_mask(s, 1), mask);
    assert_int_equal(dp_simple_port_mask(s, 2), 0);
    assert_int_equal(dp_simple_port_mask(s, 100000), 0);

    assert_ptr_equal(dp_simple_lookup(s, packet_key(1, &ip4, mask)), f4);
    assert_ptr_equal(dp_simple_lookup(s, packet_key(1, &ip6, mask)), f6);
    assert_ptr_equal(dp_simple_lookup(s, packet_key(1, &arp, mask)), fa);
    /* Another port, a tagged packet, a fragment: no flow. */
    assert_null(dp_simple_lookup(s, packet_key(2, &ip4, mask)));
    struct flow tagged = ip4;
    tagged.vlan_tci[0] = htons(VLAN_CFI | 0xe000 | 5);
    assert_null(dp_simple_lookup(s, packet_key(1, &tagged, mask)));
    struct flow frag = ip4;
    frag.nw_frag = FLOW_NW_FRAG_ANY;
    assert_null(dp_simple_lookup(s, packet_key(1, &frag, mask)));

    /* A flow of the port that is not simple takes the port off the simple
     * path, and only that port; deleting it puts it back. */
    struct flow m2 = m, ip4b = ip4;
    m2.dl_dst = (struct eth_addr) { { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
    ip4b.in_port = 2;
    struct dp_flow *other = make_flow(&ip4, &m2);
    struct dp_flow *f4b = make_flow(&ip4b, &m);
    dp_simple_flow_add(s, f4b);
    dp_simple_flow_add(s, other);
    assert_int_equal(dp_simple_port_mask(s, 1), 0);
    assert_int_equal(dp_simple_port_mask(s, 2), mask);
    assert_ptr_equal(dp_simple_lookup(s, packet_key(2, &ip4, mask)), f4b);
    dp_simple_flow_del(s, other);
    free_flow(other);
    assert_int_equal(dp_simple_port_mask(s, 1), mask);

    /* A simple flow with another mask (the VID too) also does, while it
     * is there; a third mask as well. */
    struct flow mvid = m, mvid2 = m;
    mvid.vlan_tci[0] = htons(VLAN_CFI | VLAN_VID_MASK);
    mvid2.vlan_tci[0] = htons(VLAN_CFI | 0xff);
    struct dp_flow *fv = make_flow(&tagged, &mvid);
    struct dp_flow *fv2 = make_flow(&tagged, &mvid2);
    dp_simple_flow_add(s, fv);
    assert_int_equal(dp_simple_port_mask(s, 1), 0);
    dp_simple_flow_add(s, fv2);
    assert_int_equal(dp_simple_port_mask(s, 1), 0);
    dp_simple_flow_del(s, f4);
    dp_simple_flow_del(s, f6);
    dp_simple_flow_del(s, fa);
    assert_int_equal(dp_simple_port_mask(s, 1), 0);
    dp_simple_flow_del(s, fv2);
    free_flow(fv2);
    /* Only the VID flow is left: its mask. */
    assert_int_equal(dp_simple_port_mask(s, 1), fv->simple_mask);
    assert_ptr_equal(dp_simple_lookup(s, packet_key(1, &tagged,
                                                    fv->simple_mask)), fv);
    assert_null(dp_simple_lookup(s, packet_key(1, &tagged, mask)));
    dp_simple_flow_del(s, fv);
    dp_simple_flow_del(s, f4b);
    assert_int_equal(dp_simple_port_mask(s, 1), 0);
    assert_int_equal(dp_simple_port_mask(s, 2), 0);
    assert_null(dp_simple_lookup(s, packet_key(1, &ip4, mask)));
    free_flow(f4);
    free_flow(f6);
    free_flow(fa);
    free_flow(fv);
    free_flow(f4b);

    /* Many flows (a VLAN each, on many ports), deleted in part and added
     * again: the table grows and drops its tombstones, and every live flow
     * is found, no deleted one. */
    enum { N = 3000 };
    struct dp_flow **fs = xcalloc(N, sizeof *fs);
    uint32_t vid_mask = flow_simple_pack(htons(UINT16_MAX), mvid.vlan_tci[0],
                                         FLOW_NW_FRAG_ANY
                                         | FLOW_NW_FRAG_LATER);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++) {
            if (!fs[i]) {
                struct flow t = ip4;

                t.in_port = 1 + i % 50;
                t.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
                t.vlan_tci[0] = htons(VLAN_CFI | (i / 50));
                fs[i] = make_flow(&t, &mvid);
                dp_simple_flow_add(s, fs[i]);
            }
        }
        for (int i = round; i < N; i += 3) {
            dp_simple_flow_del(s, fs[i]);
            free_flow(fs[i]);
            fs[i] = NULL;
        }
        dp_rcu_quiescent(rcu, 0);
        dp_rcu_reclaim(rcu);
        for (int i = 0; i < N; i++) {
            struct flow t = ip4;

            t.in_port = 1 + i % 50;
            t.vlan_tci[0] = htons(VLAN_CFI | (i / 50));
            uint32_t pm = dp_simple_port_mask(s, t.in_port);
            assert_int_equal(pm, vid_mask);
            struct dp_flow *got = dp_simple_lookup(s, packet_key(t.in_port,
                                                                 &t, pm));
            assert_ptr_equal(got, fs[i]);
        }
    }
    for (int i = 0; i < N; i++) {
        if (fs[i]) {
            dp_simple_flow_del(s, fs[i]);
            free_flow(fs[i]);
        }
    }
    for (uint32_t port = 1; port <= 50; port++) {
        assert_int_equal(dp_simple_port_mask(s, port), 0);
    }
    free(fs);
    dp_simple_destroy(s);
}

static int
setup(void **state DPS_UNUSED)
{
    rcu = dp_rcu_create(1);
    dp_rcu_register(rcu, 0);
    return 0;
}

static int
teardown(void **state DPS_UNUSED)
{
    dp_rcu_unregister(rcu, 0);
    dp_rcu_barrier(rcu);
    dp_rcu_destroy(rcu);
    return dp_test_teardown_group(state);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_parse_simple),
        DP_TEST(test_is_simple),
        DP_TEST(test_table),
    };

    dp_test_init("test-dp-simple");
    return cmocka_run_group_tests_name("dp-simple", tests, setup, teardown);
}
