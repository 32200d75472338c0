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
#include "csum.h"
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

static const struct eth_addr mac1 = { { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 } };
static const struct eth_addr mac2 = { { 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb } };
static const struct ipv6_addr v6a = { { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } };
static const struct ipv6_addr v6b = { { 0xfe, 0x80, [14] = 0xab, 0xcd } };

static void
base_flow(struct flow *f, uint16_t dl_type)
{
    memset(f, 0, sizeof *f);
    f->in_port = 3;
    f->dl_src = mac1;
    f->dl_dst = mac2;
    f->dl_type = htons(dl_type);
}

static void
ipv4_flow(struct flow *f, uint8_t proto)
{
    base_flow(f, ETH_TYPE_IP);
    f->nw_src = htonl(0x0a000001);
    f->nw_dst = htonl(0xc0a80102);
    f->nw_proto = proto;
    f->nw_tos = 0x2e;
    f->nw_ttl = 64;
}

static void
ipv6_flow(struct flow *f, uint8_t proto)
{
    base_flow(f, ETH_TYPE_IPV6);
    f->ipv6_src = v6a;
    f->ipv6_dst = v6b;
    f->ipv6_label = htonl(0x12345);
    f->nw_proto = proto;
    f->nw_tos = 0x71;
    f->nw_ttl = 255;
}

static void
ports(struct flow *f, uint16_t src, uint16_t dst)
{
    f->tp_src = htons(src);
    f->tp_dst = htons(dst);
}

/* Every flow the tests round-trip through compose and extract. */
static size_t
make_flows(struct flow *flows)
{
    struct flow *f = flows;

    base_flow(f++, 0x88cc);                          /* LLDP: L2 only. */
    base_flow(f, 0x88cc);
    f->vlan_tpid[0] = htons(ETH_TYPE_VLAN);
    f->vlan_tci[0] = htons(VLAN_CFI | 0xa00a);
    f++;
    ipv4_flow(f, IPPROTO_TCP_);
    ports(f, 1234, 80);
    f->tcp_flags = htons(TCP_SYN | TCP_ACK);
    f->vlan_tpid[0] = htons(ETH_TYPE_VLAN_8021AD);
    f->vlan_tci[0] = htons(VLAN_CFI | 100);
    f->vlan_tpid[1] = htons(ETH_TYPE_VLAN);
    f->vlan_tci[1] = htons(VLAN_CFI | 0x6000 | 200);
    f++;
    ipv4_flow(f, IPPROTO_TCP_);
    ports(f, 65535, 1);
    f->tcp_flags = htons(0xfff);
    f++;
    ipv4_flow(f, IPPROTO_UDP_);
    ports(f, 53, 5353);
    f++;
    ipv4_flow(f, IPPROTO_SCTP_);
    ports(f, 38412, 36412);
    f++;
    ipv4_flow(f, IPPROTO_ICMP_);
    ports(f, 8, 0);
    f++;
    ipv4_flow(f, IPPROTO_UDP_);
    ports(f, 4789, 4789);
    f->nw_frag = FLOW_NW_FRAG_ANY;
    f++;
    ipv4_flow(f, IPPROTO_UDP_);
    f->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    f++;
    ipv4_flow(f, 47);                                /* GRE: no L4 here. */
    f++;
    ipv6_flow(f, IPPROTO_TCP_);
    ports(f, 22, 40000);
    f->tcp_flags = htons(TCP_FIN);
    f++;
    ipv6_flow(f, IPPROTO_UDP_);
    ports(f, 546, 547);
    f++;
    ipv6_flow(f, IPPROTO_SCTP_);
    ports(f, 1, 2);
    f++;
    ipv6_flow(f, IPPROTO_ICMPV6_);
    ports(f, 128, 0);
    f++;
    ipv6_flow(f, IPPROTO_UDP_);
    ports(f, 7, 9);
    f->nw_frag = FLOW_NW_FRAG_ANY;
    f++;
    ipv6_flow(f, IPPROTO_TCP_);
    f->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    f++;
    ipv6_flow(f, IPPROTO_ICMPV6_);
    ports(f, ND_NEIGHBOR_SOLICIT, 0);
    f->nd_target = v6b;
    f->arp_sha = mac1;
    f++;
    ipv6_flow(f, IPPROTO_ICMPV6_);
    ports(f, ND_NEIGHBOR_ADVERT, 0);
    f->nd_target = v6a;
    f->arp_tha = mac2;
    f++;
    ipv6_flow(f, IPPROTO_ICMPV6_);
    ports(f, ND_NEIGHBOR_ADVERT, 0);
    f->nd_target = v6a;
    f->arp_sha = mac2;
    f->arp_tha = mac1;
    f++;
    base_flow(f, ETH_TYPE_ARP);
    f->arp_op = htons(ARP_OP_REQUEST);
    f->nw_src = htonl(0x0a000001);
    f->nw_dst = htonl(0x0a0000fe);
    f->arp_sha = mac1;
    f++;
    return f - flows;
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
    dp_test_poison(p);
    assert_int_equal(flow_extract(p, &flow), result);
    dp_test_unpoison(p);
    if (expect) {
        assert_flow_equal(&flow, expect);
    }
    uint16_t l3 = p->md.l3_ofs, l4 = p->md.l4_ofs;
    dp_packet_free(p);

    for (size_t first = 1; first <= MIN(split_limit, size); first++) {
        struct flow f2;

        p = dp_test_chain(dp_test_pools.tiny, data, size, MIN(first, 64),
                          first % 5 + 1);
        assert_non_null(p);
        p->md.in_port = in_port;
        dp_test_poison(p);
        assert_int_equal(flow_extract(p, &f2), result);
        dp_test_unpoison(p);
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
    size_t n = make_flows(flows);

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
        check_extract(buf, size, 3, &flows[i], result, 90);
    }
}

/* Every prefix of every packet: no read past the end, and a shorter packet
 * never parses more than the whole one. */
static void
test_truncation(void **state DPS_UNUSED)
{
    struct flow flows[32];
    size_t n = make_flows(flows);

    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = flow_compose(dp_test_pools.std, &flows[i], 0);
        uint8_t buf[2048];
        size_t size = packet_bytes(p, buf);
        struct flow f;
        uint32_t full = flow_extract(p, &f);

        dp_packet_free(p);
        for (size_t len = 0; len < size; len++) {
            p = dp_packet_alloc_data(dp_test_pools.std, buf, len);
            dp_test_poison(p);
            uint32_t r = flow_extract(p, &f);
            dp_test_unpoison(p);
            uint32_t parsed = r & 0xff;
            assert_int_equal(parsed & ~full, 0);
            if (parsed != (full & 0xff)) {
                assert_true(r & (FLOW_ERR_TRUNCATED | FLOW_ERR_BAD_L3));
            }
            dp_packet_free(p);

            p = dp_test_chain(dp_test_pools.tiny, buf, len, 1 + len % 50, 3);
            dp_test_poison(p);
            assert_int_equal(flow_extract(p, &f), r);
            dp_test_unpoison(p);
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

    ipv4_flow(&f, IPPROTO_TCP_);
    ports(&f, 1, 2);
    size_t size = compose_bytes(&f, 0, buf);
    uint8_t *ip = buf + ETH_HEADER_LEN;

    /* L2 only: what is expected whenever the IPv4 header is refused. */
    base_flow(&expect, ETH_TYPE_IP);

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
    ipv4_flow(&expect, IPPROTO_TCP_);
    check_extract(padded, sizeof padded, 3, &expect,
                  FLOW_PARSED_L2 | FLOW_PARSED_L3 | FLOW_ERR_TRUNCATED, 60);

    /* Options: IHL 6 with its 4 bytes, then TCP. */
    uint8_t opts[128];
    memcpy(opts, buf, 34);
    memset(opts + 34, 1, 4);                        /* NOP options. */
    memcpy(opts + 38, buf + 34, size - 34);
    opts[ETH_HEADER_LEN] = 0x46;
    opts[ETH_HEADER_LEN + 3] += 4;
    ipv4_flow(&expect, IPPROTO_TCP_);
    ports(&expect, 1, 2);
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

    ipv6_flow(&f, IPPROTO_UDP_);
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

        ipv6_flow(&expect, IPPROTO_UDP_);
        expect.nw_frag = n >= 5 ? FLOW_NW_FRAG_ANY : 0;
        uint32_t result = FLOW_PARSED_L2 | FLOW_PARSED_L3;
        if (n <= FLOW_MAX_IPV6_EXT) {
            ports(&expect, 0, 0);
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
    ipv6_flow(&expect, IPPROTO_UDP_);
    expect.nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    check_extract(buf, size, 3, &expect, FLOW_PARSED_L2 | FLOW_PARSED_L3,
                  0);

    /* Payload length longer than the packet. */
    size = ipv6_with_ext(buf, 0, false);
    buf[ETH_HEADER_LEN + 5]++;
    base_flow(&expect, ETH_TYPE_IPV6);
    check_extract(buf, size, 3, &expect, FLOW_PARSED_L2 | FLOW_ERR_BAD_L3, 0);
}

static void
test_nd_malformed(void **state DPS_UNUSED)
{
    struct flow f, expect;
    uint8_t buf[256];

    ipv6_flow(&f, IPPROTO_ICMPV6_);
    ports(&f, ND_NEIGHBOR_SOLICIT, 0);
    f.nd_target = v6b;
    f.arp_sha = mac1;
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

    memcpy(buf, &mac2, 6);
    memcpy(buf + 6, &mac1, 6);
    /* Three tags: the third stays unparsed and is the type. */
    for (int i = 0; i < 3; i++) {
        buf[12 + 4 * i] = 0x81;
        buf[13 + 4 * i] = 0x00;
        buf[15 + 4 * i] = i + 1;
    }
    buf[24] = 0x08;
    base_flow(&expect, ETH_TYPE_VLAN);
    for (int i = 0; i < 2; i++) {
        expect.vlan_tpid[i] = htons(ETH_TYPE_VLAN);
        expect.vlan_tci[i] = htons(VLAN_CFI | (i + 1));
    }
    expect.in_port = 3;
    check_extract(buf, 60, 3, &expect, FLOW_PARSED_L2 | FLOW_PARSED_VLAN, 30);

    /* A truncated tag. */
    base_flow(&expect, ETH_TYPE_VLAN);
    check_extract(buf, 15, 3, &expect, FLOW_PARSED_L2 | FLOW_ERR_TRUNCATED,
                  15);

    /* 802.3: a length, not a type. */
    buf[12] = 0x00;
    buf[13] = 0x2e;
    base_flow(&expect, ETH_TYPE_MIN - 1);
    check_extract(buf, 60, 3, &expect, FLOW_PARSED_L2, 20);

    /* Runt. */
    check_extract(buf, 13, 3, NULL, FLOW_ERR_TRUNCATED, 13);
}

static void
test_keys_and_masks(void **state DPS_UNUSED)
{
    struct flow flows[32];
    size_t n = make_flows(flows);
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
    ipv4_flow(&a, IPPROTO_TCP_);
    ports(&a, 1, 2);
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
    base_flow(&z, ETH_TYPE_IP);
    struct flow_key kz;
    flow_key_from_flow(&kz, &z);
    z.nw_dst = htonl(0x000000ff);
    struct flow_key kz2;
    flow_key_from_flow(&kz2, &z);
    assert_true(flow_key_equal_masked(&kz, &kz2, &mask));
    assert_int_equal(flow_key_hash_masked(&kz, &mask, 0),
                     flow_key_hash_masked(&kz2, &mask, 0));

    /* Extraction into a compact key matches the expanded flow. */
    struct dp_packet *p = flow_compose(dp_test_pools.std, &flows[2], 0);
    struct flow_key kp;
    flow_extract_key(p, &kp);
    assert_true(flow_key_equal(&kp, &keys[2]));
    dp_packet_free(p);
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
        struct flow f;
        dp_test_poison(p);
        uint32_t r = flow_extract(p, &f);
        dp_test_unpoison(p);
        assert_int_equal(r & FLOW_ERR_HDR_LIMIT, 0);
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
