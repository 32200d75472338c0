/* Unit tests for lib/flow.c: extraction of every protocol, on chains split
 * at every offset through the headers; truncated and lying headers; masks,
 * hashes and comparisons of compact keys.
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
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "flow.h"
#include "packets.h"
#include "util.h"

static int
setup(void **state DPS_UNUSED)
{
    dp_test_init("test-flow");
    srandom(7);
    return 0;
}

static void
assert_flow_equal(const struct flow *a, const struct flow *b)
{
    assert_memory_equal(a, b, sizeof *a);
}

/* Extracts 'p' and checks the flow and parse result against 'expect' and
 * 'result', then does the same for chains of the same bytes split at every
 * offset through the first 'split_limit' bytes. */
static void
check_extract(const uint8_t *data, size_t size, uint32_t in_port,
              const struct flow *expect, uint32_t result, size_t split_limit)
{
    struct flow flow;
    struct dp_packet *p = dp_packet_alloc_data(dp_test_pools.std, data, size);

    assert_non_null(p);
    p->md.in_port = in_port;
    dp_packet_poison(p);
    assert_int_equal(flow_extract(p, &flow), result);
    dp_packet_unpoison(p);
    if (expect) {
        assert_flow_equal(&flow, expect);
    }
    uint16_t l3 = p->md.l3_ofs, l4 = p->md.l4_ofs;
    dp_packet_free(p);

    for (size_t first = 1; first <= MIN(split_limit, size); first++) {
        struct flow f2;

        p = dp_test_chain(first <= 64 ? dp_test_pools.tiny
                          : dp_test_pools.std, data, size, first,
                          first % 5 + 1);
        assert_non_null(p);
        p->md.in_port = in_port;
        dp_packet_poison(p);
        assert_int_equal(flow_extract(p, &f2), result);
        dp_packet_unpoison(p);
        assert_flow_equal(&f2, &flow);
        assert_int_equal(p->md.l3_ofs, l3);
        assert_int_equal(p->md.l4_ofs, l4);
        dp_packet_free(p);
    }
}

static size_t
packet_bytes(const struct dp_packet *p, uint8_t *buf)
{
    size_t size = dp_packet_size(p);

    dp_packet_copy_out(p, 0, size, buf);
    return size;
}

static void
test_roundtrip(void **state DPS_UNUSED)
{
    struct flow flows[32];
    size_t n = dp_test_sample_flows(flows);

    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = flow_compose(dp_test_pools.std, &flows[i], 10);
        uint8_t buf[2048];

        assert_non_null(p);
        size_t size = packet_bytes(p, buf);

        /* Checksums composed right. */
        struct dp_packet *q = dp_packet_clone(p);
        struct flow f;
        flow_extract(q, &f);
        q->md.ip_csum = q->md.l4_csum = DP_CSUM_UNKNOWN;
        dp_packet_csum_verify(q);
        assert_int_not_equal(q->md.ip_csum, DP_CSUM_BAD);
        assert_int_not_equal(q->md.l4_csum, DP_CSUM_BAD);
        dp_packet_free(q);

        uint32_t result = flow_extract(p, &f);
        assert_flow_equal(&f, &flows[i]);
        assert_true(result & FLOW_PARSED_L2);
        assert_int_equal(result & ~(FLOW_PARSED_L2 | FLOW_PARSED_VLAN
                                    | FLOW_PARSED_L3 | FLOW_PARSED_L4
                                    | FLOW_PARSED_ND), 0);
        dp_packet_free(p);
        check_extract(buf, size, 3, &flows[i], result, 128);
    }
}

/* Every prefix of every packet: no read past the end, and a shorter packet
 * never parses more than the whole one. */
static void
test_truncation(void **state DPS_UNUSED)
{
    struct flow flows[32];
    size_t n = dp_test_sample_flows(flows);

    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = flow_compose(dp_test_pools.std, &flows[i], 0);
        uint8_t buf[2048];
        size_t size = packet_bytes(p, buf);
        struct flow f;
        uint32_t full = flow_extract(p, &f);

        dp_packet_free(p);
        for (size_t len = 0; len < size; len++) {
            p = dp_packet_alloc_data(dp_test_pools.std, buf, len);
            dp_packet_poison(p);
            uint32_t r = flow_extract(p, &f);
            dp_packet_unpoison(p);
            uint32_t parsed = r & 0xff;
            assert_int_equal(parsed & ~full, 0);
            if (parsed != (full & 0xff)) {
                assert_true(r & (FLOW_ERR_TRUNCATED | FLOW_ERR_BAD_L3));
            }
            dp_packet_free(p);

            p = dp_test_chain(dp_test_pools.tiny, buf, len, 1 + len % 50, 3);
            dp_packet_poison(p);
            assert_int_equal(flow_extract(p, &f), r);
            dp_packet_unpoison(p);
            dp_packet_free(p);
        }
    }
}

static size_t
compose_bytes(const struct flow *f, size_t payload, uint8_t *buf)
{
    struct dp_packet *p = flow_compose(dp_test_pools.std, f, payload);
    size_t size = packet_bytes(p, buf);

    dp_packet_free(p);
    return size;
}

static void
test_ipv4_malformed(void **state DPS_UNUSED)
{
    struct flow f, expect;
    uint8_t buf[256];

    dp_test_ipv4_flow(&f, IPPROTO_TCP_);
    dp_test_ports(&f, 1, 2);
    size_t size = compose_bytes(&f, 0, buf);
    uint8_t *ip = buf + ETH_HEADER_LEN;

    /* L2 only: what is expected whenever the IPv4 header is refused. */
    dp_test_base_flow(&expect, ETH_TYPE_IP);

    for (int ihl = 0; ihl < 5; ihl++) {
        ip[0] = 0x40 | ihl;
        check_extract(buf, size, 3, &expect,
                      FLOW_PARSED_L2 | FLOW_ERR_BAD_L3, 40);
    }
    ip[0] = 0x65;                                   /* Version 6. */
    check_extract(buf, size, 3, &expect, FLOW_PARSED_L2 | FLOW_ERR_BAD_L3,
                  0);
    ip[0] = 0x4f;                                   /* 60 > total length. */
    check_extract(buf, size, 3, &expect, FLOW_PARSED_L2 | FLOW_ERR_BAD_L3,
                  0);
    ip[0] = 0x45;
    ip[2] = 0, ip[3] = 41;                          /* Longer than packet. */
    check_extract(buf, size, 3, &expect, FLOW_PARSED_L2 | FLOW_ERR_BAD_L3,
                  40);
    ip[3] = 40;

    /* Total length ends inside the TCP header, padding makes up the rest:
     * the L4 header is truncated, not read from the padding. */
    uint8_t padded[80];
    memcpy(padded, buf, size);
    memset(padded + size, 0xee, sizeof padded - size);
    padded[ETH_HEADER_LEN + 2] = 0;
    padded[ETH_HEADER_LEN + 3] = 30;
    dp_test_ipv4_flow(&expect, IPPROTO_TCP_);
    check_extract(padded, sizeof padded, 3, &expect,
                  FLOW_PARSED_L2 | FLOW_PARSED_L3 | FLOW_ERR_TRUNCATED, 60);

    /* Options: IHL 6 with its 4 bytes, then TCP. */
    uint8_t opts[128];
    memcpy(opts, buf, 34);
    memset(opts + 34, 1, 4);                        /* NOP options. */
    memcpy(opts + 38, buf + 34, size - 34);
    opts[ETH_HEADER_LEN] = 0x46;
    opts[ETH_HEADER_LEN + 3] += 4;
    dp_test_ipv4_flow(&expect, IPPROTO_TCP_);
    dp_test_ports(&expect, 1, 2);
    check_extract(opts, size + 4, 3, &expect,
                  FLOW_PARSED_L2 | FLOW_PARSED_L3 | FLOW_PARSED_L4, 60);

    /* TCP data offset below 5. */
    opts[38 + 12] = 0x40;
    expect.tp_src = expect.tp_dst = 0;
    check_extract(opts, size + 4, 3, &expect,
                  FLOW_PARSED_L2 | FLOW_PARSED_L3 | FLOW_ERR_BAD_L4, 0);
}

/* Builds an IPv6 packet with 'n_ext' extension headers (cycling through
 * the kinds) before a UDP header. */
static size_t
ipv6_with_ext(uint8_t *buf, int n_ext, bool frag_later)
{
    static const uint8_t kinds[] = {
        IPPROTO_HOPOPTS_, IPPROTO_DSTOPTS_, IPPROTO_ROUTING_, IPPROTO_AH_,
        IPPROTO_FRAGMENT_,
    };
    struct flow f;

    dp_test_ipv6_flow(&f, IPPROTO_UDP_);
    size_t size = compose_bytes(&f, 0, buf);
    uint8_t udp[UDP_HEADER_LEN];
    memcpy(udp, buf + size - UDP_HEADER_LEN, UDP_HEADER_LEN);
    size -= UDP_HEADER_LEN;

    uint8_t *next = buf + ETH_HEADER_LEN + 6;
    for (int i = 0; i < n_ext; i++) {
        uint8_t kind = kinds[i % ARRAY_SIZE(kinds)];
        uint8_t *h = buf + size;
        size_t len;

        *next = kind;
        if (kind == IPPROTO_FRAGMENT_) {
            len = 8;
            memset(h, 0, len);
            h[3] = frag_later ? 0x80 : 0x01;
        } else if (kind == IPPROTO_AH_) {
            len = 16;
            memset(h, 0, len);
            h[1] = 2;
        } else {
            len = 16;
            memset(h, 0, len);
            h[1] = 1;
        }
        next = h;
        size += len;
    }
    *next = IPPROTO_UDP_;
    memcpy(buf + size, udp, UDP_HEADER_LEN);
    size += UDP_HEADER_LEN;

    uint16_t plen = size - ETH_HEADER_LEN - IPV6_HEADER_LEN;
    buf[ETH_HEADER_LEN + 4] = plen >> 8;
    buf[ETH_HEADER_LEN + 5] = plen;
    return size;
}

static void
test_ipv6_ext(void **state DPS_UNUSED)
{
    uint8_t buf[512];
    struct flow expect;

    for (int n = 0; n <= FLOW_MAX_IPV6_EXT + 2; n++) {
        size_t size = ipv6_with_ext(buf, n, false);

        dp_test_ipv6_flow(&expect, IPPROTO_UDP_);
        expect.nw_frag = n >= 5 ? FLOW_NW_FRAG_ANY : 0;
        uint32_t result = FLOW_PARSED_L2 | FLOW_PARSED_L3;
        if (n <= FLOW_MAX_IPV6_EXT) {
            dp_test_ports(&expect, 0, 0);
            result |= FLOW_PARSED_L4;
        } else {
            expect.nw_proto = buf[0];   /* Replaced below. */
            result |= FLOW_ERR_EXT_LIMIT;
        }
        /* Recover the header kind that stopped the walk. */
        if (n > FLOW_MAX_IPV6_EXT) {
            static const uint8_t kinds[] = {
                IPPROTO_HOPOPTS_, IPPROTO_DSTOPTS_, IPPROTO_ROUTING_,
                IPPROTO_AH_, IPPROTO_FRAGMENT_,
            };
            expect.nw_proto = kinds[FLOW_MAX_IPV6_EXT % ARRAY_SIZE(kinds)];
        }
        check_extract(buf, size, 3, &expect, result, 200);

        /* Cut the payload short: the chain no longer fits. */
        if (n) {
            size_t plen = size - ETH_HEADER_LEN - IPV6_HEADER_LEN - 12;
            buf[ETH_HEADER_LEN + 4] = plen >> 8;
            buf[ETH_HEADER_LEN + 5] = plen;
            struct dp_packet *p = dp_packet_alloc_data(dp_test_pools.std,
                                                       buf, size);
            struct flow f;
            uint32_t r = flow_extract(p, &f);
            assert_false(r & FLOW_PARSED_L4);
            assert_true(r & (FLOW_ERR_TRUNCATED | FLOW_ERR_EXT_LIMIT));
            dp_packet_free(p);
        }
    }

    /* A later fragment: no L4. */
    size_t size = ipv6_with_ext(buf, 5, true);
    dp_test_ipv6_flow(&expect, IPPROTO_UDP_);
    expect.nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    check_extract(buf, size, 3, &expect, FLOW_PARSED_L2 | FLOW_PARSED_L3,
                  0);

    /* Payload length longer than the packet. */
    size = ipv6_with_ext(buf, 0, false);
    buf[ETH_HEADER_LEN + 5]++;
    dp_test_base_flow(&expect, ETH_TYPE_IPV6);
    check_extract(buf, size, 3, &expect, FLOW_PARSED_L2 | FLOW_ERR_BAD_L3, 0);
}

static void
test_nd_malformed(void **state DPS_UNUSED)
{
    struct flow f, expect;
    uint8_t buf[256];

    dp_test_ipv6_flow(&f, IPPROTO_ICMPV6_);
    dp_test_ports(&f, ND_NEIGHBOR_SOLICIT, 0);
    f.nd_target = dp_test_v6b;
    f.arp_sha = dp_test_mac1;
    size_t size = compose_bytes(&f, 0, buf);
    size_t opt = size - 8;

    expect = f;
    memset(&expect.nd_target, 0, sizeof expect.nd_target);
    memset(&expect.arp_sha, 0, sizeof expect.arp_sha);
    uint32_t bad = (FLOW_PARSED_L2 | FLOW_PARSED_L3 | FLOW_PARSED_L4
                    | FLOW_ERR_BAD_L4);

    buf[opt + 1] = 0;                               /* Length 0. */
    check_extract(buf, size, 3, &expect, bad, 80);
    buf[opt + 1] = 2;                               /* Past the end. */
    check_extract(buf, size, 3, &expect, bad | FLOW_ERR_TRUNCATED, 0);

    /* The same option twice. */
    buf[opt + 1] = 1;
    memcpy(buf + size, buf + opt, 8);
    buf[ETH_HEADER_LEN + 5] += 8;
    check_extract(buf, size + 8, 3, &expect, bad, 0);

    /* An unknown option is skipped. */
    buf[size] = 14;
    check_extract(buf, size + 8, 3, &f,
                  (bad & ~FLOW_ERR_BAD_L4) | FLOW_PARSED_ND, 0);
}

static void
test_vlan_and_llc(void **state DPS_UNUSED)
{
    struct flow expect;
    uint8_t buf[64] = { 0 };

    memcpy(buf, &dp_test_mac2, 6);
    memcpy(buf + 6, &dp_test_mac1, 6);
    /* Three tags: the third stays unparsed and is the type. */
    for (int i = 0; i < 3; i++) {
        buf[12 + 4 * i] = 0x81;
        buf[13 + 4 * i] = 0x00;
        buf[15 + 4 * i] = i + 1;
    }
    buf[24] = 0x08;
    dp_test_base_flow(&expect, ETH_TYPE_VLAN);
    for (int i = 0; i < 2; i++) {
        expect.vlan_tpid[i] = htons(ETH_TYPE_VLAN);
        expect.vlan_tci[i] = htons(VLAN_CFI | (i + 1));
    }
    expect.in_port = 3;
    check_extract(buf, 60, 3, &expect, FLOW_PARSED_L2 | FLOW_PARSED_VLAN, 30);

    /* A truncated tag. */
    dp_test_base_flow(&expect, ETH_TYPE_VLAN);
    check_extract(buf, 15, 3, &expect, FLOW_PARSED_L2 | FLOW_ERR_TRUNCATED,
                  15);

    /* 802.3: a length, not a type. */
    buf[12] = 0x00;
    buf[13] = 0x2e;
    dp_test_base_flow(&expect, ETH_TYPE_MIN - 1);
    check_extract(buf, 60, 3, &expect, FLOW_PARSED_L2, 20);

    /* Runt. */
    check_extract(buf, 13, 3, NULL, FLOW_ERR_TRUNCATED, 13);
}

static void
test_keys_and_masks(void **state DPS_UNUSED)
{
    struct flow flows[32];
    size_t n = dp_test_sample_flows(flows);
    struct flow_key keys[32];

    for (size_t i = 0; i < n; i++) {
        struct flow back;

        flow_key_from_flow(&keys[i], &flows[i]);
        flow_key_to_flow(&keys[i], &back);
        assert_flow_equal(&back, &flows[i]);
        assert_true(flow_key_n_words(&keys[i]) < FLOW_N_WORDS);
        for (size_t j = 0; j < i; j++) {
            assert_false(flow_key_equal(&keys[i], &keys[j]));
        }

        const uint64_t *w = (const uint64_t *) (const void *) &flows[i];
        for (unsigned int k = 0; k < FLOW_N_WORDS; k++) {
            assert_true(flow_key_get_word(&keys[i], k) == w[k]);
        }
    }

    /* Mask: in_port, dl_type and the IPv4 destination's top 24 bits. */
    struct flow mflow;
    memset(&mflow, 0, sizeof mflow);
    mflow.in_port = UINT32_MAX;
    mflow.dl_type = UINT16_MAX;
    mflow.nw_dst = htonl(0xffffff00);
    struct flow_key mask;
    flow_key_from_flow(&mask, &mflow);
    assert_int_equal(flow_key_n_words(&mask), 3);

    struct flow a, b;
    dp_test_ipv4_flow(&a, IPPROTO_TCP_);
    dp_test_ports(&a, 1, 2);
    b = a;
    b.nw_dst = htonl(0xc0a80177);
    b.tp_src = htons(999);
    b.dl_src.ea[0] = 0x42;
    b.recirc_id = 5;
    struct flow_key ka, kb, ma, mb;
    flow_key_from_flow(&ka, &a);
    flow_key_from_flow(&kb, &b);
    assert_false(flow_key_equal(&ka, &kb));
    assert_true(flow_key_equal_masked(&ka, &kb, &mask));
    assert_int_equal(flow_key_hash_masked(&ka, &mask, 17),
                     flow_key_hash_masked(&kb, &mask, 17));
    flow_key_apply_mask(&ma, &ka, &mask);
    flow_key_apply_mask(&mb, &kb, &mask);
    assert_true(flow_key_equal(&ma, &mb));
    assert_int_equal(flow_key_hash(&ma, 1), flow_key_hash(&mb, 1));

    b.nw_dst = htonl(0xc0a80277);
    flow_key_from_flow(&kb, &b);
    assert_false(flow_key_equal_masked(&ka, &kb, &mask));
    assert_int_not_equal(flow_key_hash_masked(&ka, &mask, 17),
                         flow_key_hash_masked(&kb, &mask, 17));

    /* A key missing a word the mask uses reads it as zero. */
    struct flow z;
    dp_test_base_flow(&z, ETH_TYPE_IP);
    struct flow_key kz;
    flow_key_from_flow(&kz, &z);
    z.nw_dst = htonl(0x000000ff);
    struct flow_key kz2;
    flow_key_from_flow(&kz2, &z);
    assert_true(flow_key_equal_masked(&kz, &kz2, &mask));
    assert_int_equal(flow_key_hash_masked(&kz, &mask, 0),
                     flow_key_hash_masked(&kz2, &mask, 0));

    /* Extraction into a compact key matches the expanded flow. */
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = flow_compose(dp_test_pools.std, &flows[i], 3);
        struct flow_key kp;

        flow_extract_key(p, &kp);
        assert_true(flow_key_equal(&kp, &keys[i]));
        dp_packet_free(p);
    }
}

/* Random bytes after a valid Ethernet/IP start: never a crash, never a read
 * outside the packet (ASan watches the segments' room). */
static void
test_random_garbage(void **state DPS_UNUSED)
{
    static const uint16_t types[] = {
        ETH_TYPE_IP, ETH_TYPE_IPV6, ETH_TYPE_ARP, ETH_TYPE_VLAN,
        ETH_TYPE_VLAN_8021AD,
    };
    uint8_t buf[300];

    for (int i = 0; i < 20000; i++) {
        size_t size = random() % sizeof buf;
        for (size_t j = 0; j < size; j++) {
            buf[j] = random();
        }
        if (size > 14) {
            uint16_t t = types[random() % ARRAY_SIZE(types)];
            buf[12] = t >> 8;
            buf[13] = t;
            if (size > 15 && t == ETH_TYPE_IP) {
                buf[14] = 0x45;
            } else if (size > 15 && t == ETH_TYPE_IPV6) {
                buf[14] = 0x60;
            }
        }

        struct dp_packet *p = dp_test_chain(dp_test_pools.tiny, buf, size,
                                            1 + random() % 64,
                                            1 + random() % 64);
        struct flow_key k1, k2;
        struct flow f;
        dp_packet_poison(p);
        uint32_t r = flow_extract(p, &f);
        assert_int_equal(flow_extract_key(p, &k2), r);
        dp_packet_unpoison(p);
        assert_int_equal(r & FLOW_ERR_HDR_LIMIT, 0);
        flow_key_from_flow(&k1, &f);
        assert_true(flow_key_equal(&k1, &k2));
        dp_packet_free(p);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_roundtrip),
        DP_TEST(test_truncation),
        DP_TEST(test_ipv4_malformed),
        DP_TEST(test_ipv6_ext),
        DP_TEST(test_nd_malformed),
        DP_TEST(test_vlan_and_llc),
        DP_TEST(test_keys_and_masks),
        DP_TEST(test_random_garbage),
    };
    return cmocka_run_group_tests_name("flow", tests, setup,
                                       dp_test_teardown_group);
}
