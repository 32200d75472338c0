/* Unit tests for lib/csum.c and the header rewrites of lib/packets.c:
 * arithmetic against a plain reference, across segments split at every
 * offset, every protocol, the four checksum states and egress completion.
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
#include "dp-packet-csum.h"
#include "dp-packet-tso.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "packets.h"
#include "util.h"

static int
setup(void **state DPS_UNUSED)
{
    dp_test_init("test-csum");
    srandom(42);
    return 0;
}

static void
random_bytes(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = random();
    }
}

/* RFC 1071 done the slow, obvious way: big-endian 16-bit words. */
static uint16_t
ref_csum(const uint8_t *data, size_t size)
{
    uint32_t sum = 0;

    for (size_t i = 0; i < size; i += 2) {
        sum += (data[i] << 8) | (i + 1 < size ? data[i + 1] : 0);
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return htons(~sum & 0xffff);
}

static void
test_csum_reference(void **state DPS_UNUSED)
{
    uint8_t data[1500];

    for (size_t size = 0; size < 300; size++) {
        random_bytes(data, size);
        assert_int_equal(csum_finish(csum_add(0, data, size)),
                         ref_csum(data, size));
    }
    memset(data, 0xff, sizeof data);
    assert_int_equal(csum_finish(csum_add(0, data, sizeof data)),
                     ref_csum(data, sizeof data));

    /* The IPv4 header example every textbook uses: checksum 0xb861. */
    static const uint8_t ip[] = {
        0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
        0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
    };
    assert_int_equal(ntohs(csum_finish(csum_add(0, ip, sizeof ip))), 0xb861);
}

/* Sums over chains split at every offset and starting at every offset
 * equal the sums over the same bytes in one piece. */
static void
test_csum_across_segments(void **state DPS_UNUSED)
{
    uint8_t data[257];

    random_bytes(data, sizeof data);
    for (size_t first = 1; first <= 64; first++) {
        for (size_t rest = 1; rest <= 64; rest += 9) {
            struct dp_packet *p = dp_test_chain(dp_test_pools.tiny, data,
                                                sizeof data, first, rest);
            assert_non_null(p);
            for (size_t ofs = 0; ofs < 40; ofs += 3) {
                size_t size = sizeof data - ofs - (first & 3);
                assert_int_equal(csum_finish(csum_packet(p, ofs, size, 0)),
                                 ref_csum(data + ofs, size));
            }
            dp_packet_free(p);
        }
    }
}

/* RFC 1624: incremental updates equal full recomputation, and a wrong
 * checksum stays wrong by the same amount. */
static void
test_csum_incremental(void **state DPS_UNUSED)
{
    uint8_t data[64];

    for (int i = 0; i < 10000; i++) {
        random_bytes(data, sizeof data);
        if (i % 7 == 0) {
            memset(data, 0, 8);   /* Sums near zero, where +0/-0 bite. */
        }
        uint16_t csum = csum_finish(csum_add(0, data, sizeof data));
        size_t pos = (random() % 15) * 4;
        uint32_t old32, new32 = random();
        if (i % 5 == 0) {
            new32 = 0;
        }
        memcpy(&old32, data + pos, 4);
        memcpy(data + pos, &new32, 4);
        uint16_t full = csum_finish(csum_add(0, data, sizeof data));
        assert_int_equal(csum_update32(csum, old32, new32), full);

        uint16_t bad = csum + 1;
        uint16_t bad2 = csum_update32(bad, old32, new32);
        assert_int_not_equal(bad2, full);

        uint16_t old16, new16 = random();
        pos = (random() % 32) * 2;
        memcpy(&old16, data + pos, 2);
        memcpy(data + pos, &new16, 2);
        full = csum_finish(csum_add(0, data, sizeof data));
        uint16_t upd = csum_update16(csum_update32(csum, old32, new32),
                                     old16, new16);
        /* 0x0000 and 0xffff are the same one's complement number. */
        assert_true(upd == full || (upd ^ full) == 0xffff);
    }
}

/* iSCSI's CRC32c examples (RFC 3720 appendix B.4). */
static void
test_crc32c(void **state DPS_UNUSED)
{
    uint8_t data[32];

    memset(data, 0, sizeof data);
    assert_int_equal(~csum_crc32c(0xffffffff, data, 32), 0x8a9136aa);
    memset(data, 0xff, sizeof data);
    assert_int_equal(~csum_crc32c(0xffffffff, data, 32), 0x62a8ab43);
    for (int i = 0; i < 32; i++) {
        data[i] = i;
    }
    assert_int_equal(~csum_crc32c(0xffffffff, data, 32), 0x46dd794e);
    uint32_t crc = csum_crc32c(0xffffffff, data, 13);
    assert_int_equal(~csum_crc32c(crc, data + 13, 19), 0x46dd794e);
}

/* A test packet: Ethernet, IPv4 or IPv6, then an L4 header and payload. */
struct test_pkt {
    uint8_t data[600];
    size_t size;
    uint16_t l3_ofs, l4_ofs;
    uint8_t proto;
    unsigned int csum_ofs, csum_size;
};

static void
build(struct test_pkt *t, bool ipv6, uint8_t proto, size_t payload)
{
    static const unsigned int l4_sizes[256] = {
        [IPPROTO_TCP_] = 20, [IPPROTO_UDP_] = 8, [IPPROTO_SCTP_] = 12,
        [IPPROTO_ICMP_] = 8, [IPPROTO_ICMPV6_] = 8,
    };
    size_t l4_size = l4_sizes[proto] + payload;
    uint8_t *d = t->data;

    memset(t, 0, sizeof *t);
    random_bytes(d, sizeof t->data);
    t->l3_ofs = ETH_HEADER_LEN;
    t->proto = proto;
    if (ipv6) {
        struct ipv6_header *ip6 = (void *) (d + t->l3_ofs);
        d[12] = 0x86, d[13] = 0xdd;
        ip6->ver_tc_label = htonl(0x60000000);
        ip6->payload_len = htons(l4_size);
        ip6->next = proto;
        t->l4_ofs = t->l3_ofs + IPV6_HEADER_LEN;
    } else {
        struct ipv4_header *ip = (void *) (d + t->l3_ofs);
        d[12] = 0x08, d[13] = 0x00;
        ip->ver_ihl = 0x45;
        ip->tot_len = htons(IPV4_HEADER_LEN + l4_size);
        ip->frag_off = 0;
        ip->proto = proto;
        ip->csum = 0;
        ip->csum = csum_finish(csum_add(0, ip, IPV4_HEADER_LEN));
        t->l4_ofs = t->l3_ofs + IPV4_HEADER_LEN;
    }
    if (proto == IPPROTO_UDP_) {
        struct udp_header *udp = (void *) (d + t->l4_ofs);
        udp->len = htons(l4_size);
    }
    if (proto == IPPROTO_TCP_) {
        d[t->l4_ofs + 12] = 0x50;
    }
    t->size = t->l4_ofs + l4_size;
    t->csum_ofs = (proto == IPPROTO_TCP_ ? 16 : proto == IPPROTO_UDP_ ? 6
                   : proto == IPPROTO_SCTP_ ? 8 : 2);
    t->csum_size = proto == IPPROTO_SCTP_ ? 4 : 2;
}

static struct dp_packet *
to_packet(const struct test_pkt *t, size_t first, size_t rest)
{
    struct rte_mempool *pool = (first > 64 || rest > 64
                                ? dp_test_pools.std : dp_test_pools.tiny);
    struct dp_packet *p = dp_test_chain(pool, t->data, t->size, first, rest);
    assert_non_null(p);
    p->md.l2_ofs = 0;
    p->md.l3_ofs = t->l3_ofs;
    p->md.l4_ofs = t->l4_ofs;
    p->md.l4_proto = t->proto;
    return p;
}

/* The L4 checksum by the obvious route, for the test packet 't'. */
static void
ref_l4(const struct test_pkt *t, uint8_t *field)
{
    uint8_t buf[700];
    size_t n = 0, l4_size = t->size - t->l4_ofs;

    if (t->proto == IPPROTO_SCTP_) {
        memcpy(buf, t->data + t->l4_ofs, l4_size);
        memset(buf + 8, 0, 4);
        uint32_t crc = htole32(~csum_crc32c(0xffffffff, buf, l4_size));
        memcpy(field, &crc, 4);
        return;
    }
    if (t->proto != IPPROTO_ICMP_) {
        bool v6 = t->data[12] == 0x86;
        size_t a = v6 ? 32 : 8;
        memcpy(buf, t->data + t->l3_ofs + (v6 ? 8 : 12), a);
        n = a;
        buf[n++] = 0;
        buf[n++] = t->proto;
        buf[n++] = l4_size >> 8;
        buf[n++] = l4_size;
    }
    memcpy(buf + n, t->data + t->l4_ofs, l4_size);
    memset(buf + n + t->csum_ofs, 0, 2);
    uint16_t c = ref_csum(buf, n + l4_size);
    if (t->proto == IPPROTO_UDP_ && !c) {
        c = 0xffff;
    }
    memcpy(field, &c, 2);
}

static const struct {
    bool ipv6;
    uint8_t proto;
} protos[] = {
    { false, IPPROTO_TCP_ }, { false, IPPROTO_UDP_ },
    { false, IPPROTO_SCTP_ }, { false, IPPROTO_ICMP_ },
    { true, IPPROTO_TCP_ }, { true, IPPROTO_UDP_ }, { true, IPPROTO_SCTP_ },
    { true, IPPROTO_ICMPV6_ },
};

/* Every protocol, every payload parity, chains split at every offset
 * through the headers: dp_packet_csum_l4() agrees with the reference, and
 * verification says good, then bad after one flipped bit. */
static void
test_l4_protocols(void **state DPS_UNUSED)
{
    for (size_t i = 0; i < ARRAY_SIZE(protos); i++) {
        for (size_t payload = 0; payload < 40; payload += 13) {
            struct test_pkt t;
            uint8_t expect[4];

            build(&t, protos[i].ipv6, protos[i].proto, payload);
            ref_l4(&t, expect);
            memcpy(t.data + t.l4_ofs + t.csum_ofs, expect, t.csum_size);

            for (size_t first = 1; first <= 64 && first <= t.size;
                 first++) {
                struct dp_packet *p = to_packet(&t, first, 7 + first % 5);
                uint32_t v;

                assert_true(dp_packet_csum_l4(p, &v));
                assert_memory_equal(&v, expect, t.csum_size);
                dp_packet_csum_verify(p);
                assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
                assert_int_equal(p->md.ip_csum, protos[i].ipv6
                                 ? DP_CSUM_UNKNOWN : DP_CSUM_GOOD);

                uint8_t byte;
                dp_packet_copy_out(p, t.size - 1, 1, &byte);
                byte ^= 0x10;
                dp_packet_copy_in(p, t.size - 1, 1, &byte);
                p->md.l4_csum = DP_CSUM_UNKNOWN;
                dp_packet_csum_verify(p);
                assert_int_equal(p->md.l4_csum, DP_CSUM_BAD);
                dp_packet_free(p);
            }
        }
    }
}

/* A checksum of zero: the field's own complement must be subtracted with
 * its carry, and 0x0000 and 0xffff both verify (RFC 1624 §3).  Found by
 * fuzzing. */
static void
test_zero_sum(void **state DPS_UNUSED)
{
    struct test_pkt t;
    uint32_t v;

    build(&t, false, IPPROTO_ICMP_, 0);
    uint8_t *icmp = t.data + t.l4_ofs;
    memset(icmp, 0, 4);
    memset(icmp + 4, 0xff, 4);

    for (int field = 0; field < 2; field++) {
        icmp[2] = icmp[3] = field ? 0xff : 0x00;
        struct dp_packet *p = to_packet(&t, 100, 64);
        assert_true(dp_packet_csum_l4(p, &v));
        assert_int_equal(v, 0);
        dp_packet_csum_verify(p);
        assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
        dp_packet_free(p);
    }
}

/* A good L4 checksum of a first fragment cannot be completed at egress (it
 * covers the whole datagram), so a rewrite updates it and it stays good. */
static void
test_rewrite_fragment(void **state DPS_UNUSED)
{
    struct test_pkt t;
    uint8_t field[2];

    build(&t, false, IPPROTO_UDP_, 30);
    ref_l4(&t, field);
    memcpy(t.data + t.l4_ofs + t.csum_ofs, field, 2);

    struct dp_packet *p = to_packet(&t, 40, 17);
    p->md.flags |= DP_PACKET_F_FRAG;
    p->md.l4_csum = DP_CSUM_GOOD;
    packet_set_l4_ports(p, htons(7), htons(9));
    packet_set_ipv4_addr(p, true, htonl(0x01020304));
    assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);

    /* Verified as the whole datagram it stands for, it is right. */
    p->md.flags &= ~DP_PACKET_F_FRAG;
    p->md.l4_csum = DP_CSUM_UNKNOWN;
    dp_packet_csum_verify(p);
    assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
    dp_packet_free(p);
}

static void
test_malformed_lengths(void **state DPS_UNUSED)
{
    struct test_pkt t;
    uint32_t v;

    build(&t, false, IPPROTO_TCP_, 10);
    struct ipv4_header *ip = (void *) (t.data + t.l3_ofs);
    ip->tot_len = htons(ntohs(ip->tot_len) + 1);    /* Lies: too long. */
    struct dp_packet *p = to_packet(&t, 64, 64);
    assert_false(dp_packet_csum_l4(p, &v));
    dp_packet_csum_verify(p);
    assert_int_equal(p->md.l4_csum, DP_CSUM_UNKNOWN);
    p->md.l4_csum = DP_CSUM_PARTIAL;
    assert_false(dp_packet_tx_prepare(p, 0));       /* To be dropped. */
    assert_int_equal(p->md.l4_csum, DP_CSUM_UNKNOWN);
    dp_packet_free(p);

    ip->tot_len = htons(IPV4_HEADER_LEN + 3);        /* Too short. */
    p = to_packet(&t, 64, 64);
    assert_false(dp_packet_csum_l4(p, &v));
    dp_packet_free(p);

    /* A fragment's L4 checksum covers the whole datagram. */
    build(&t, false, IPPROTO_UDP_, 10);
    p = to_packet(&t, 64, 64);
    p->md.flags |= DP_PACKET_F_FRAG;
    assert_false(dp_packet_csum_l4(p, &v));
    dp_packet_free(p);
}

/* Rewrites: good -> partial without touching the field; unknown and bad
 * updated incrementally, so right stays right and bad stays bad. */
static void
test_rewrite_states(void **state DPS_UNUSED)
{
    static const uint8_t new_addr6[16] = { 0x20, 0x01, 0x0d, 0xb8, 9, 9 };

    for (size_t i = 0; i < ARRAY_SIZE(protos); i++) {
        for (int st = 0; st < 3; st++) {
            struct test_pkt t;
            uint8_t field[4];

            build(&t, protos[i].ipv6, protos[i].proto, 21);
            ref_l4(&t, field);
            if (st == DP_CSUM_BAD) {
                field[0] ^= 0x5a;
            }
            memcpy(t.data + t.l4_ofs + t.csum_ofs, field, t.csum_size);

            struct dp_packet *p = to_packet(&t, 30 + st, 9);
            p->md.l4_csum = st;
            p->md.ip_csum = protos[i].ipv6 ? DP_CSUM_UNKNOWN : st;
            if (protos[i].ipv6) {
                packet_set_ipv6_addr(p, true, (const void *) new_addr6);
            } else {
                packet_set_ipv4_addr(p, false, htonl(0x0a000001));
                packet_set_ipv4_tos_ttl(p, 0x10, 3);
            }
            packet_set_l4_ports(p, htons(1234), htons(80));

            uint8_t after[4];
            dp_packet_copy_out(p, t.l4_ofs + t.csum_ofs, t.csum_size, after);
            bool has_ports = (protos[i].proto != IPPROTO_ICMP_
                              && protos[i].proto != IPPROTO_ICMPV6_);
            bool covered = (has_ports
                            || protos[i].proto == IPPROTO_ICMPV6_);
            if (st == DP_CSUM_GOOD) {
                assert_memory_equal(after, field, t.csum_size);
                assert_int_equal(p->md.l4_csum,
                                 covered ? DP_CSUM_PARTIAL : DP_CSUM_GOOD);
                if (!protos[i].ipv6) {
                    assert_int_equal(p->md.ip_csum, DP_CSUM_PARTIAL);
                }
                /* Egress on a port with no offload completes them. */
                dp_packet_tx_prepare(p, 0);
                assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
                assert_int_equal(p->md.ip_csum, protos[i].ipv6
                                 ? DP_CSUM_UNKNOWN : DP_CSUM_GOOD);
                assert_int_equal(p->mbuf.ol_flags, 0);
            }
            p->md.l4_csum = DP_CSUM_UNKNOWN;
            p->md.ip_csum = DP_CSUM_UNKNOWN;
            dp_packet_csum_verify(p);
            enum dp_csum expect = st == DP_CSUM_BAD ? DP_CSUM_BAD
                                                    : DP_CSUM_GOOD;
            assert_int_equal(p->md.l4_csum, expect);
            if (!protos[i].ipv6) {
                assert_int_equal(p->md.ip_csum, DP_CSUM_GOOD);
            }
            dp_packet_free(p);
        }
    }
}

/* Egress: what the port can do becomes tx flags (with the pseudo-header sum
 * in the field for TCP and UDP), the rest is computed here. */
static void
test_tx_prepare(void **state DPS_UNUSED)
{
    static const uint32_t all = (DP_TX_IP_CSUM | DP_TX_TCP_CSUM
                                 | DP_TX_UDP_CSUM | DP_TX_SCTP_CSUM);

    for (size_t i = 0; i < ARRAY_SIZE(protos); i++) {
        struct test_pkt t;
        uint8_t field[4];

        build(&t, protos[i].ipv6, protos[i].proto, 33);
        ref_l4(&t, field);

        /* Nothing pending: nothing changes. */
        struct dp_packet *p = to_packet(&t, 100, 64);
        p->md.ip_csum = DP_CSUM_BAD;
        p->md.l4_csum = DP_CSUM_GOOD;
        dp_packet_tx_prepare(p, 0);
        assert_true(dp_test_equal(p, t.data, t.size));
        assert_int_equal(p->mbuf.ol_flags, 0);
        dp_packet_free(p);

        /* Offloaded. */
        p = to_packet(&t, 100, 64);
        p->md.ip_csum = protos[i].ipv6 ? DP_CSUM_UNKNOWN : DP_CSUM_PARTIAL;
        p->md.l4_csum = DP_CSUM_PARTIAL;
        dp_packet_tx_prepare(p, all);
        uint64_t fl = p->mbuf.ol_flags;
        if (protos[i].proto == IPPROTO_ICMP_
            || protos[i].proto == IPPROTO_ICMPV6_) {
            /* No device offloads ICMP: done in software. */
            assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
            uint8_t after[2];
            dp_packet_copy_out(p, t.l4_ofs + t.csum_ofs, 2, after);
            assert_memory_equal(after, field, 2);
        } else {
            assert_int_equal(p->md.l4_csum, DP_CSUM_PARTIAL);
            assert_true(fl & (protos[i].ipv6 ? RTE_MBUF_F_TX_IPV6
                              : RTE_MBUF_F_TX_IPV4));
            assert_int_not_equal(fl & RTE_MBUF_F_TX_L4_MASK, 0);
            assert_int_equal(p->mbuf.l2_len, ETH_HEADER_LEN);
            assert_int_equal(p->mbuf.l3_len, t.l4_ofs - t.l3_ofs);
        }
        if (!protos[i].ipv6) {
            assert_true(fl & RTE_MBUF_F_TX_IP_CKSUM);
        }
        dp_packet_free(p);

        /* Not offloaded: computed, byte-exact with the reference. */
        p = to_packet(&t, 50, 64);
        p->md.ip_csum = protos[i].ipv6 ? DP_CSUM_UNKNOWN : DP_CSUM_PARTIAL;
        p->md.l4_csum = DP_CSUM_PARTIAL;
        dp_packet_tx_prepare(p, 0);
        uint8_t after[4];
        dp_packet_copy_out(p, t.l4_ofs + t.csum_ofs, t.csum_size, after);
        assert_memory_equal(after, field, t.csum_size);
        assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
        assert_int_equal(p->mbuf.ol_flags, 0);
        dp_packet_free(p);
    }
}

/* Userspace TSO. */

/* A TCP segment for the TSO tests: Ethernet, IPv4 (id 0xfffe, so that the
 * ids wrap) or IPv6, TCP with 12 bytes of options and flags CWR, PSH, FIN
 * and ACK, sequence number 0xfffff000 (it wraps too), and 'payload' bytes
 * of a pattern. */
struct tso_pkt {
    uint8_t data[65600];
    size_t size;
    size_t l3_ofs, l4_ofs, hdr_size;
    bool ipv6;
};

static void
tso_build(struct tso_pkt *t, bool ipv6, size_t payload)
{
    uint8_t *d = t->data;
    size_t tcp_size = TCP_HEADER_LEN + 12;

    memset(d, 0, 14);
    d[0] = 0x02;
    d[11] = 0x01;
    d[12] = ipv6 ? 0x86 : 0x08;
    d[13] = ipv6 ? 0xdd : 0x00;
    t->ipv6 = ipv6;
    t->l3_ofs = 14;
    if (ipv6) {
        struct ipv6_header *ip6 = (void *) (d + 14);

        memset(ip6, 0, sizeof *ip6);
        ip6->ver_tc_label = htonl(0x60000000);
        ip6->payload_len = htons(tcp_size + payload);
        ip6->next = IPPROTO_TCP_;
        ip6->hlimit = 64;
        ip6->src.s6[0] = 0x20;
        ip6->dst.s6[0] = 0x20;
        ip6->dst.s6[15] = 2;
        t->l4_ofs = 14 + IPV6_HEADER_LEN;
    } else {
        struct ipv4_header *ip = (void *) (d + 14);

        memset(ip, 0, sizeof *ip);
        ip->ver_ihl = 0x45;
        ip->tot_len = htons(IPV4_HEADER_LEN + tcp_size + payload);
        ip->id = htons(0xfffe);
        ip->frag_off = htons(0x4000);       /* DF. */
        ip->ttl = 64;
        ip->proto = IPPROTO_TCP_;
        ip->src = htonl(0x0a000001);
        ip->dst = htonl(0x0a000002);
        t->l4_ofs = 14 + IPV4_HEADER_LEN;
    }
    struct tcp_header *tcp = (void *) (d + t->l4_ofs);
    memset(tcp, 0, tcp_size);
    tcp->src = htons(40000);
    tcp->dst = htons(5201);
    tcp->seq = htonl(0xfffff000);
    tcp->ack = htonl(77);
    tcp->off_flags = htons((tcp_size / 4) << 12 | TCP_CWR | TCP_PSH | TCP_FIN
                           | 0x010);
    tcp->window = htons(512);
    memset((uint8_t *) tcp + TCP_HEADER_LEN, 1, 12);    /* NOPs. */
    t->hdr_size = t->l4_ofs + tcp_size;
    for (size_t i = 0; i < payload; i++) {
        d[t->hdr_size + i] = (i * 7 + i / 251) & 0xff;
    }
    t->size = t->hdr_size + payload;
}

/* 't' as a chain of 'first'-byte and then 'rest'-byte segments, partial,
 * to be cut at 'mss'. */
static struct dp_packet *
tso_packet(const struct tso_pkt *t, struct rte_mempool *pool, size_t first,
           size_t rest, uint16_t mss)
{
    struct dp_packet *p = dp_test_chain(pool, t->data, t->size, first, rest);

    assert_non_null(p);
    p->md.l2_ofs = 0;
    p->md.l3_ofs = t->l3_ofs;
    p->md.l4_ofs = t->l4_ofs;
    p->md.l4_proto = IPPROTO_TCP_;
    p->md.l4_csum = DP_CSUM_PARTIAL;
    p->md.tso_segsz = mss;
    return p;
}

/* Segments are MSS-sized but the last, carry the payload in order, with
 * lengths, ids, sequence numbers, flags and checksums right, whatever the
 * segments of the original. */
static void
test_tso_segment(void **state DPS_UNUSED)
{
    static struct tso_pkt t;
    static const size_t payloads[] = { 0, 1, 535, 536, 537, 1609, 4000,
                                       65000 };
    static const uint16_t msss[] = { 536, 1448, 8948 };

    for (int v6 = 0; v6 < 2; v6++) {
        for (size_t pi = 0; pi < ARRAY_SIZE(payloads); pi++) {
            for (size_t mi = 0; mi < ARRAY_SIZE(msss); mi++) {
                size_t payload = payloads[pi];
                uint16_t mss = msss[mi];

                if (v6 && payload > 65000 - 40) {
                    payload = 65000 - 40;
                }
                tso_build(&t, v6, payload);
                struct dp_packet *p = tso_packet(&t, dp_test_pools.std,
                                                 t.hdr_size + 3, 700, mss);
                assert_true(dp_packet_tso_valid(p));

                struct dp_packet_batch segs;
                uint32_t offset = 0;
                size_t k = 0, done = 0;
                int retval;
                do {
                    dp_packet_batch_init(&segs);
                    retval = dp_packet_tso_segment(p, &offset, &segs);
                    assert_true(retval == 0 || retval == EOF);
                    for (size_t i = 0; i < segs.count; i++, k++) {
                        struct dp_packet *seg = segs.packets[i];
                        size_t size = MIN(mss, payload - done);
                        bool last = done + size == payload;

                        assert_true(dp_test_chain_ok(seg));
                        assert_int_equal(dp_packet_size(seg),
                                         t.hdr_size + size);
                        assert_int_equal(seg->md.tso_segsz, 0);
                        assert_true(dp_packet_tx_prepare(seg, 0));

                        uint8_t h[128];
                        assert_int_equal(dp_packet_copy_out(seg, 0,
                                                            t.hdr_size, h),
                                         0);
                        if (v6) {
                            struct ipv6_header *ip6 = (void *) (h + 14);
                            assert_int_equal(ntohs(ip6->payload_len),
                                             t.hdr_size - t.l4_ofs + size);
                        } else {
                            struct ipv4_header *ip = (void *) (h + 14);
                            assert_int_equal(ntohs(ip->tot_len),
                                             t.hdr_size - 14 + size);
                            assert_int_equal(ntohs(ip->id),
                                             (uint16_t) (0xfffe + k));
                            assert_int_equal(ntohs(ip->frag_off), 0x4000);
                        }
                        struct tcp_header *tcp = (void *) (h + t.l4_ofs);
                        assert_int_equal(ntohl(tcp->seq),
                                         (uint32_t) (0xfffff000 + done));
                        uint16_t flags = ntohs(tcp->off_flags) & 0x1ff;
                        uint16_t want = 0x010;
                        want |= k == 0 ? TCP_CWR : 0;
                        want |= last ? TCP_PSH | TCP_FIN : 0;
                        assert_int_equal(flags, want);
                        assert_int_equal(ntohs(tcp->off_flags) >> 12, 8);

                        /* The payload, in order. */
                        uint8_t *buf = xmalloc(size + 1);
                        assert_int_equal(dp_packet_copy_out(seg, t.hdr_size,
                                                            size, buf), 0);
                        assert_memory_equal(buf, t.data + t.hdr_size + done,
                                            size);
                        free(buf);

                        /* Checksums verify from scratch. */
                        seg->md.ip_csum = DP_CSUM_UNKNOWN;
                        seg->md.l4_csum = DP_CSUM_UNKNOWN;
                        dp_packet_csum_verify(seg);
                        assert_int_equal(seg->md.l4_csum, DP_CSUM_GOOD);
                        assert_int_equal(seg->md.ip_csum, v6
                                         ? DP_CSUM_UNKNOWN : DP_CSUM_GOOD);
                        done += size;
                        dp_packet_free(seg);
                    }
                } while (!retval);
                assert_int_equal(done, payload);
                assert_int_equal(k, payload ? (payload + mss - 1) / mss : 1);
                dp_packet_free(p);
            }
        }
    }
}

/* Headers split over small segments are pulled forward, and the payload
 * is gathered from many. */
static void
test_tso_segment_tiny_chain(void **state DPS_UNUSED)
{
    static struct tso_pkt t;

    tso_build(&t, false, 3000);
    struct dp_packet *p = tso_packet(&t, dp_test_pools.std, 20, 64, 1000);
    assert_true(dp_packet_n_segs(p) > 40);
    assert_true(dp_packet_tso_valid(p));

    struct dp_packet_batch segs;
    uint32_t offset = 0;
    dp_packet_batch_init(&segs);
    assert_int_equal(dp_packet_tso_segment(p, &offset, &segs), EOF);
    assert_int_equal(segs.count, 3);
    for (size_t i = 0; i < segs.count; i++) {
        struct dp_packet *seg = segs.packets[i];

        assert_true(dp_test_chain_ok(seg));
        assert_int_equal(dp_packet_size(seg), t.hdr_size + 1000);
        assert_true(dp_packet_tx_prepare(seg, 0));
        seg->md.ip_csum = seg->md.l4_csum = DP_CSUM_UNKNOWN;
        dp_packet_csum_verify(seg);
        assert_int_equal(seg->md.ip_csum, DP_CSUM_GOOD);
        assert_int_equal(seg->md.l4_csum, DP_CSUM_GOOD);
    }
    dp_packet_batch_free(&segs);
    dp_packet_free(p);
}

/* Absurd segment sizes and lying headers: refused, never cut. */
static void
test_tso_invalid(void **state DPS_UNUSED)
{
    static struct tso_pkt t;
    static const uint16_t bad_msss[] = { 1, 10, DP_TSO_MIN_MSS - 1,
                                         DP_TSO_MAX_MSS + 1, 65535 };
    const uint32_t caps = DP_TX_TCP_TSO | DP_TX_TCP_CSUM | DP_TX_IP_CSUM;

    tso_build(&t, false, 5000);
    for (size_t i = 0; i < ARRAY_SIZE(bad_msss); i++) {
        struct dp_packet *p = tso_packet(&t, dp_test_pools.std, 1000, 1000,
                                         bad_msss[i]);
        assert_false(dp_packet_tso_valid(p));
        /* Nor handed to a port that would cut it. */
        assert_false(dp_packet_tx_prepare(p, caps));
        assert_int_equal(p->mbuf.ol_flags & RTE_MBUF_F_TX_TCP_SEG, 0);
        dp_packet_free(p);
    }

    /* An IP length beyond the packet. */
    struct ipv4_header *ip = (void *) (t.data + 14);
    ip->tot_len = htons(ntohs(ip->tot_len) + 1);
    struct dp_packet *p = tso_packet(&t, dp_test_pools.std, 1000, 1000, 1000);
    assert_false(dp_packet_tso_valid(p));
    dp_packet_free(p);

    /* A TCP data offset below 5 words, or beyond the IP length. */
    tso_build(&t, false, 5000);
    struct tcp_header *tcp = (void *) (t.data + t.l4_ofs);
    tcp->off_flags = htons(4 << 12);
    p = tso_packet(&t, dp_test_pools.std, 1000, 1000, 1000);
    assert_false(dp_packet_tso_valid(p));
    dp_packet_free(p);
    tso_build(&t, false, 10);
    tcp->off_flags = htons(15 << 12);
    p = tso_packet(&t, dp_test_pools.std, 1000, 1000, 1000);
    assert_false(dp_packet_tso_valid(p));
    dp_packet_free(p);

    /* Not TCP, or no L4 offset. */
    tso_build(&t, true, 5000);
    p = tso_packet(&t, dp_test_pools.std, 1000, 1000, 1000);
    p->md.l4_proto = IPPROTO_UDP_;
    assert_false(dp_packet_tso_valid(p));
    p->md.l4_proto = IPPROTO_TCP_;
    p->md.l4_ofs = DP_PACKET_OFS_NONE;
    assert_false(dp_packet_tso_valid(p));
    dp_packet_free(p);
}

/* What netdev_send() compares with the MTU: the largest IP packet of the
 * segments, which is the packet itself when its payload fits one. */
static void
test_tso_seg_size(void **state DPS_UNUSED)
{
    static struct tso_pkt t;

    for (int v6 = 0; v6 < 2; v6++) {
        uint32_t hdr = (v6 ? IPV6_HEADER_LEN : IPV4_HEADER_LEN)
                       + TCP_HEADER_LEN + 12;

        tso_build(&t, v6, 5000);
        struct dp_packet *p = tso_packet(&t, dp_test_pools.std, 1000, 1000,
                                         1448);
        assert_int_equal(dp_packet_tso_l3_seg_size(p), hdr + 1448);
        p->md.tso_segsz = 9000;
        assert_int_equal(dp_packet_tso_l3_seg_size(p), hdr + 5000);
        p->md.tso_segsz = 1;
        assert_int_equal(dp_packet_tso_l3_seg_size(p), UINT32_MAX);
        dp_packet_free(p);
    }
}

/* A guest's VIRTIO_NET_HDR_F_NEEDS_CSUM as librte_vhost hands it over in
 * its compliant mode (RTE_VHOST_USER_NET_COMPLIANT_OL_FLAGS, DPDK 22.11
 * vhost_dequeue_offload()), the only mode dpswitch uses.  csum_start and
 * csum_offset never reach the switch: either csum_start lies within the
 * headers DPDK parsed and the protocol is TCP, UDP or SCTP, and the mbuf
 * says RX_L4_CKSUM_NONE (partial), which the switch completes at the L4
 * offset of its own parse, whatever csum_offset claimed; or it does not
 * (beyond the headers, beyond the packet), and librte_vhost sums the bytes
 * itself, or leaves them, and the mbuf says only RX_IP_CKSUM_UNKNOWN (no
 * L4 state): the packet is the guest's bytes, forwarded as they are, never
 * "completed" at an offset the guest chose. */
static void
test_rx_from_compliant_vhost(void **state DPS_UNUSED)
{
    for (int v6 = 0; v6 < 2; v6++) {
        for (int proto = 0; proto < 2; proto++) {
            struct test_pkt t;
            uint8_t field[4], out[4];

            build(&t, v6, proto ? IPPROTO_UDP_ : IPPROTO_TCP_, 101);
            ref_l4(&t, field);

            /* Offsets within the headers: partial, completed by us. */
            struct dp_packet *p = to_packet(&t, 100, 64);
            p->mbuf.ol_flags = (RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN
                                | RTE_MBUF_F_RX_L4_CKSUM_NONE);
            dp_packet_csum_from_rx_flags(p);
            assert_int_equal(p->md.ip_csum, DP_CSUM_UNKNOWN);
            assert_int_equal(p->md.l4_csum, DP_CSUM_PARTIAL);
            p->mbuf.ol_flags = 0;
            assert_true(dp_packet_tx_prepare(p, 0));
            assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
            assert_int_equal(dp_packet_copy_out(p, t.l4_ofs + t.csum_ofs, 2,
                                                out), 0);
            assert_memory_equal(out, field, 2);
            dp_packet_free(p);

            /* Offsets beyond: no L4 state, the bytes leave untouched. */
            p = to_packet(&t, 100, 64);
            p->mbuf.ol_flags = RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN;
            dp_packet_csum_from_rx_flags(p);
            assert_int_equal(p->md.ip_csum, DP_CSUM_UNKNOWN);
            assert_int_equal(p->md.l4_csum, DP_CSUM_UNKNOWN);
            assert_true(dp_packet_tx_prepare(p, 0));
            assert_true(dp_test_equal(p, t.data, t.size));
            dp_packet_free(p);
        }
    }
}

/* A port that cuts segments gets the request: flags, lengths, MSS, and the
 * pseudo-header sum without the length in the TCP checksum field. */
static void
test_tso_offload(void **state DPS_UNUSED)
{
    static struct tso_pkt t;
    const uint32_t caps = DP_TX_TCP_TSO | DP_TX_TCP_CSUM | DP_TX_IP_CSUM;

    for (int v6 = 0; v6 < 2; v6++) {
        tso_build(&t, v6, 20000);
        struct dp_packet *p = tso_packet(&t, dp_test_pools.std, 1000, 2000,
                                         1448);
        assert_true(dp_packet_tx_prepare(p, caps));
        struct rte_mbuf *m = &p->mbuf;
        assert_true(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
        assert_true(m->ol_flags & (v6 ? RTE_MBUF_F_TX_IPV6
                                   : RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM));
        assert_int_equal(m->tso_segsz, 1448);
        assert_int_equal(m->l2_len, 14);
        assert_int_equal(m->l3_len, t.l4_ofs - 14);
        assert_int_equal(m->l4_len, 32);
        assert_int_equal(dp_packet_size(p), t.size);

        /* The field holds the pseudo-header sum of addresses and protocol
         * only. */
        const uint8_t *l3 = t.data + 14;
        uint32_t sum = 0;
        size_t ofs = v6 ? 8 : 12, n = v6 ? 32 : 8;
        for (size_t i = 0; i < n; i += 2) {
            sum += (l3[ofs + i] << 8) | l3[ofs + i + 1];
        }
        sum += IPPROTO_TCP_;
        while (sum >> 16) {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        uint8_t field[2];
        dp_packet_copy_out(p, t.l4_ofs + 16, 2, field);
        assert_int_equal((field[0] << 8) | field[1], sum);
        dp_packet_free(p);
    }
}

/* A partial checksum with no L4 header to put it in: refused. */
static void
test_tx_prepare_unfinishable(void **state DPS_UNUSED)
{
    static struct tso_pkt t;

    tso_build(&t, false, 100);
    struct dp_packet *p = tso_packet(&t, dp_test_pools.std, 60, 100, 0);
    p->md.l4_ofs = DP_PACKET_OFS_NONE;
    assert_false(dp_packet_tx_prepare(p, 0));
    assert_int_equal(p->md.l4_csum, DP_CSUM_UNKNOWN);
    dp_packet_free(p);

    /* The same packet with its offsets is completed on the chain. */
    p = tso_packet(&t, dp_test_pools.tiny, 30, 40, 0);
    assert_true(dp_packet_n_segs(p) > 3);
    assert_true(dp_packet_tx_prepare(p, 0));
    assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
    p->md.l4_csum = DP_CSUM_UNKNOWN;
    dp_packet_csum_verify(p);
    assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
    dp_packet_free(p);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_csum_reference),
        DP_TEST(test_csum_across_segments),
        DP_TEST(test_csum_incremental),
        DP_TEST(test_crc32c),
        DP_TEST(test_l4_protocols),
        DP_TEST(test_zero_sum),
        DP_TEST(test_rewrite_fragment),
        DP_TEST(test_malformed_lengths),
        DP_TEST(test_rewrite_states),
        DP_TEST(test_tx_prepare),
        DP_TEST(test_tso_segment),
        DP_TEST(test_tso_segment_tiny_chain),
        DP_TEST(test_tso_invalid),
        DP_TEST(test_tso_seg_size),
        DP_TEST(test_rx_from_compliant_vhost),
        DP_TEST(test_tso_offload),
        DP_TEST(test_tx_prepare_unfinishable),
    };
    return cmocka_run_group_tests_name("csum", tests, setup,
                                       dp_test_teardown_group);
}
