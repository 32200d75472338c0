/* Checksums of packets: verification, and completion for an egress port.
 * See dp-packet-csum.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-packet-csum.h"
#include <string.h>
#include <rte_byteorder.h>
#include "coverage.h"
#include "csum.h"
#include "dp-packet-tso.h"
#include "packets.h"
#include "util.h"

static uint32_t pseudo_header_sum(const uint8_t *l3, uint8_t proto,
                                  uint32_t l4_size);
static bool l4_geometry(const struct dp_packet *,
                        uint8_t l3[IPV6_HEADER_LEN], uint32_t *l4_size,
                        unsigned int *csum_ofs);
static bool same_sum(uint16_t, uint16_t);
static bool tso_prepare(struct dp_packet *, uint32_t caps);

/* Checksums completed in software at egress, because the port could not
 * take them: where the CPU goes when offloads are missing. */
COVERAGE_DEFINE(csum_sw_ip);
COVERAGE_DEFINE(csum_sw_l4);
/* Partial checksums that could not be completed (the packet is dropped). */
COVERAGE_DEFINE(csum_invalid);

/* Returns the IPv4 header checksum of 'p', for the IPv4 header at 'l3_ofs'
 * (in any segments), computed as if the checksum field were zero, or 0 if
 * the header does not fit in the packet. */
uint16_t
dp_packet_csum_ipv4_header(const struct dp_packet *p)
{
    uint8_t buf[60];
    const struct ipv4_header *ip = dp_packet_read(p, p->md.l3_ofs,
                                                  IPV4_HEADER_LEN, buf);
    if (!ip || ipv4_header_size(ip) < IPV4_HEADER_LEN) {
        return 0;
    }

    size_t size = ipv4_header_size(ip);
    uint16_t field = ip->csum;
    ip = dp_packet_read(p, p->md.l3_ofs, size, buf);
    if (!ip) {
        return 0;
    }

    uint32_t sum = csum_add(0, ip, size);
    return csum_finish(csum_add_word(sum, (uint16_t) ~field));
}

/* Computes the L4 checksum of 'p' (TCP, UDP, SCTP, ICMP or ICMPv6, after the
 * offsets and 'l4_proto' in its metadata) as if its checksum field were
 * zero, and stores in '*value' what belongs in the field (for SCTP, the
 * 32-bit CRC as it lies in memory).  Returns false, storing 0, if 'p' has no
 * complete L4 segment with a checksum here (unknown protocol, truncated, or
 * a fragment). */
bool
dp_packet_csum_l4(const struct dp_packet *p, uint32_t *value)
{
    uint8_t l3[IPV6_HEADER_LEN];
    uint32_t l4_size;
    unsigned int csum_ofs;

    *value = 0;
    if (!l4_geometry(p, l3, &l4_size, &csum_ofs)) {
        return false;
    }

    uint16_t l4_ofs = p->md.l4_ofs;
    uint8_t proto = p->md.l4_proto;
    if (proto == IPPROTO_SCTP_) {
        static const uint8_t zeros[4];
        uint32_t crc = csum_crc32c_packet(p, l4_ofs, csum_ofs, 0xffffffff);

        crc = csum_crc32c(crc, zeros, sizeof zeros);
        crc = csum_crc32c_packet(p, l4_ofs + csum_ofs + 4,
                            l4_size - csum_ofs - 4, crc);
        *value = rte_cpu_to_le_32(~crc);
        return true;
    }

    uint16_t field;
    dp_packet_copy_out(p, l4_ofs + csum_ofs, 2, &field);

    uint32_t sum = proto == IPPROTO_ICMP_ ? 0 : pseudo_header_sum(l3, proto,
                                                                  l4_size);
    sum = csum_packet(p, l4_ofs, l4_size, sum);
    /* Take the field back out: adding its complement subtracts it.  A
     * 64-bit sum keeps the carry. */
    uint16_t csum = csum_finish(csum_add_word(sum, (uint16_t) ~field));
    if (proto == IPPROTO_UDP_ && !csum) {
        csum = 0xffff;          /* 0 means "no checksum" (RFC 768). */
    }
    *value = csum;
    return true;
}

/* Updates the SCTP CRC32c of 'p' for the 'size' bytes at 'offset' of its
 * SCTP packet (not the checksum field) changing from 'old_bytes' to
 * 'new_bytes', before they are written.  For messages of one length,
 * crc(a) ^ crc(b) is the CRC of a ^ b with no initial value and no final
 * XOR, so the change costs one pass over the bytes from 'offset' on and a
 * wrong CRC stays wrong by the same amount.  Returns false, changing
 * nothing, if 'p' has no whole SCTP packet at its L4 offset. */
bool
dp_packet_csum_sctp_update(struct dp_packet *p, size_t offset,
                           const void *old_bytes, const void *new_bytes,
                           size_t size)
{
    static const uint8_t zeros[64];
    const uint8_t *o = old_bytes, *n = new_bytes;
    uint8_t l3[IPV6_HEADER_LEN];
    uint32_t l4_size;
    unsigned int csum_ofs;

    if (p->md.l4_proto != IPPROTO_SCTP_
        || !l4_geometry(p, l3, &l4_size, &csum_ofs)
        || offset + size > l4_size) {
        return false;
    }

    uint32_t crc = 0;
    for (size_t i = 0; i < size; i++) {
        uint8_t delta = o[i] ^ n[i];

        crc = csum_crc32c(crc, &delta, 1);
    }
    for (size_t left = l4_size - offset - size; left; ) {
        size_t chunk = MIN(left, sizeof zeros);

        crc = csum_crc32c(crc, zeros, chunk);
        left -= chunk;
    }

    uint32_t field;
    size_t field_ofs = p->md.l4_ofs + csum_ofs;
    dp_packet_copy_out(p, field_ofs, 4, &field);
    field ^= rte_cpu_to_le_32(crc);
    dp_packet_copy_in(p, field_ofs, 4, &field);
    return true;
}

/* See dp-packet-csum.h. */
void
dp_packet_csum_verify(struct dp_packet *p)
{
    struct dp_packet_md *md = &p->md;
    uint8_t l3[IPV6_HEADER_LEN];

    if (md->l3_ofs == DP_PACKET_OFS_NONE
        || dp_packet_copy_out(p, md->l3_ofs, IPV4_HEADER_LEN, l3)) {
        return;
    }

    const struct ipv4_header *ip = (const void *) l3;
    bool is_ipv4 = (l3[0] >> 4) == 4;
    if (md->ip_csum == DP_CSUM_UNKNOWN && is_ipv4
        && ipv4_header_size(ip) >= IPV4_HEADER_LEN
        && md->l3_ofs + ipv4_header_size(ip) <= dp_packet_size(p)) {
        md->ip_csum = (same_sum(dp_packet_csum_ipv4_header(p), ip->csum)
                       ? DP_CSUM_GOOD : DP_CSUM_BAD);
    }

    uint32_t expected, actual = 0;
    uint32_t l4_size;
    unsigned int csum_ofs;
    if (md->l4_csum == DP_CSUM_UNKNOWN && dp_packet_csum_l4(p, &expected)
        && l4_geometry(p, l3, &l4_size, &csum_ofs)) {
        dp_packet_copy_out(p, md->l4_ofs + csum_ofs,
                           md->l4_proto == IPPROTO_SCTP_ ? 4 : 2, &actual);
        bool good;
        if (md->l4_proto == IPPROTO_UDP_) {
            /* 0 means "no checksum", which only IPv4 allows, so 0xffff is
             * the one way to write a zero sum. */
            good = actual == expected || (!actual && is_ipv4);
        } else if (md->l4_proto == IPPROTO_SCTP_) {
            good = actual == expected;
        } else {
            good = same_sum(actual, expected);
        }
        md->l4_csum = good ? DP_CSUM_GOOD : DP_CSUM_BAD;
    }
}

/* See dp_packet_tx_prepare(). */
bool
dp_packet_tx_prepare__(struct dp_packet *p, uint32_t caps)
{
    struct dp_packet_md *md = &p->md;
    struct rte_mbuf *m = &p->mbuf;
    size_t need = (md->l4_ofs != DP_PACKET_OFS_NONE
                   ? md->l4_ofs + SCTP_HEADER_LEN + 8
                   : md->l3_ofs + IPV6_HEADER_LEN);

    if (md->l3_ofs == DP_PACKET_OFS_NONE
        || !dp_packet_make_contiguous(p, MIN(need, dp_packet_size(p)))
        || md->l3_ofs + IPV4_HEADER_LEN > dp_packet_head_size(p)) {
        /* Nothing we could complete. */
        md->ip_csum = md->l4_csum = DP_CSUM_UNKNOWN;
        COVERAGE_INC(csum_invalid);
        return false;
    }

    if (md->tso_segsz) {
        return tso_prepare(p, caps);
    }

    uint8_t *l3 = dp_packet_l3(p);
    bool is_ipv4 = (l3[0] >> 4) == 4;
    uint64_t ol_flags = 0;
    bool ok = true;

    if (md->ip_csum == DP_CSUM_PARTIAL) {
        struct ipv4_header *ip = (void *) l3;

        if (!is_ipv4 || ipv4_header_size(ip) < IPV4_HEADER_LEN
            || md->l3_ofs + ipv4_header_size(ip) > dp_packet_size(p)) {
            md->ip_csum = DP_CSUM_UNKNOWN;
            ok = false;
        } else if (caps & DP_TX_IP_CSUM) {
            ip->csum = 0;
            ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
        } else {
            ip->csum = dp_packet_csum_ipv4_header(p);
            md->ip_csum = DP_CSUM_GOOD;
            COVERAGE_INC(csum_sw_ip);
        }
    }

    if (md->l4_csum == DP_CSUM_PARTIAL) {
        uint8_t l3_copy[IPV6_HEADER_LEN];
        uint32_t l4_size, value;
        unsigned int csum_ofs;
        uint64_t flag = 0;
        uint32_t cap = 0;

        switch (md->l4_proto) {
        case IPPROTO_TCP_:
            cap = DP_TX_TCP_CSUM;
            flag = RTE_MBUF_F_TX_TCP_CKSUM;
            break;
        case IPPROTO_UDP_:
            cap = DP_TX_UDP_CSUM;
            flag = RTE_MBUF_F_TX_UDP_CKSUM;
            break;
        case IPPROTO_SCTP_:
            cap = DP_TX_SCTP_CSUM;
            flag = RTE_MBUF_F_TX_SCTP_CKSUM;
            break;
        }

        if (!l4_geometry(p, l3_copy, &l4_size, &csum_ofs)
            || (md->l4_ofs + csum_ofs
                + (md->l4_proto == IPPROTO_SCTP_ ? 4 : 2)
                > dp_packet_head_size(p))) {
            md->l4_csum = DP_CSUM_UNKNOWN;
            ok = false;
        } else if (caps & cap) {
            /* The device adds the data to what is in the field: the
             * pseudo-header sum, not complemented, for TCP and UDP. */
            uint8_t *field = (uint8_t *) dp_packet_data(p) + md->l4_ofs
                             + csum_ofs;
            if (md->l4_proto == IPPROTO_SCTP_) {
                memset(field, 0, 4);
            } else {
                uint16_t phdr = csum_fold(pseudo_header_sum(l3, md->l4_proto,
                                                            l4_size));
                memcpy(field, &phdr, 2);
            }
            ol_flags |= flag | (is_ipv4 ? RTE_MBUF_F_TX_IPV4
                                : RTE_MBUF_F_TX_IPV6);
        } else if (dp_packet_csum_l4(p, &value)) {
            uint8_t *field = (uint8_t *) dp_packet_data(p) + md->l4_ofs
                             + csum_ofs;
            if (md->l4_proto == IPPROTO_SCTP_) {
                memcpy(field, &value, 4);
            } else {
                uint16_t v16 = value;
                memcpy(field, &v16, 2);
            }
            md->l4_csum = DP_CSUM_GOOD;
            COVERAGE_INC(csum_sw_l4);
        } else {
            md->l4_csum = DP_CSUM_UNKNOWN;
            ok = false;
        }
    }

    if (!ok) {
        COVERAGE_INC(csum_invalid);
        return false;
    }
    if (ol_flags) {
        m->ol_flags |= ol_flags;
        m->l2_len = md->l3_ofs;
        m->l3_len = (md->l4_ofs != DP_PACKET_OFS_NONE
                     ? md->l4_ofs - md->l3_ofs : 0);
    }
    return true;
}

/* Hands TSO packet 'p' to a port with capabilities 'caps', which must
 * include DP_TX_TCP_TSO (netdev_send() cuts it in software for any other):
 * the mbuf asks the device to cut it into segments of 'md.tso_segsz'
 * payload bytes, filling every IPv4 header and TCP checksum, with the
 * pseudo-header sum without the length in the TCP field, as DPDK wants it.
 * Returns false if 'p' is not a TSO packet that can be cut. */
static bool
tso_prepare(struct dp_packet *p, uint32_t caps)
{
    struct dp_packet_md *md = &p->md;
    struct rte_mbuf *m = &p->mbuf;

    if (!(caps & DP_TX_TCP_TSO) || !dp_packet_tso_valid(p)) {
        md->ip_csum = md->l4_csum = DP_CSUM_UNKNOWN;
        COVERAGE_INC(csum_invalid);
        return false;
    }

    uint8_t *l3 = dp_packet_l3(p);
    struct tcp_header *tcp = dp_packet_l4(p);
    uint64_t ol_flags = RTE_MBUF_F_TX_TCP_SEG;
    if ((l3[0] >> 4) == 4) {
        struct ipv4_header *ip = (void *) l3;

        ip->csum = 0;
        ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
    } else {
        ol_flags |= RTE_MBUF_F_TX_IPV6;
    }
    tcp->csum = csum_fold(pseudo_header_sum(l3, IPPROTO_TCP_, 0));

    m->ol_flags |= ol_flags;
    m->l2_len = md->l3_ofs;
    m->l3_len = md->l4_ofs - md->l3_ofs;
    m->l4_len = (ntohs(tcp->off_flags) >> 12) * 4;
    m->tso_segsz = md->tso_segsz;
    return true;
}

/* Returns the sum of the pseudo-header of the IPv4 or IPv6 header at 'l3'
 * for an L4 segment of 'l4_size' bytes of protocol 'proto'. */
static uint32_t
pseudo_header_sum(const uint8_t *l3, uint8_t proto, uint32_t l4_size)
{
    uint32_t sum;

    if ((l3[0] >> 4) == 4) {
        sum = csum_add(0, l3 + offsetof(struct ipv4_header, src), 8);
    } else {
        sum = csum_add(0, l3 + offsetof(struct ipv6_header, src), 32);
    }
    sum = csum_add_word(sum, htons(proto));
    sum = csum_add_word(sum, htons(l4_size & 0xffff));
    return csum_add_word(sum, htons(l4_size >> 16));
}

/* Finds where the L4 segment of 'p' is and where its checksum field lies:
 * copies the start of the L3 header (enough for the pseudo-header) to 'l3'
 * and stores the L4 size and the field's offset in the L4 header.  Returns
 * false if 'p' has no whole L4 segment with a checksum: offsets or protocol
 * unknown, a fragment, lengths that do not fit the packet.  Works whatever
 * the segments. */
static bool
l4_geometry(const struct dp_packet *p, uint8_t l3[IPV6_HEADER_LEN],
            uint32_t *l4_size, unsigned int *csum_ofs)
{
    const struct dp_packet_md *md = &p->md;
    uint32_t size = dp_packet_size(p);
    uint32_t l3_end;
    unsigned int min_size;

    if (md->l3_ofs == DP_PACKET_OFS_NONE || md->l4_ofs == DP_PACKET_OFS_NONE
        || md->l4_ofs < md->l3_ofs + IPV4_HEADER_LEN
        || (md->flags & DP_PACKET_F_FRAG)
        || dp_packet_copy_out(p, md->l3_ofs, IPV4_HEADER_LEN, l3)) {
        return false;
    }
    if ((l3[0] >> 4) == 4) {
        const struct ipv4_header *ip = (const void *) l3;

        l3_end = md->l3_ofs + ntohs(ip->tot_len);
        if (md->l4_proto == IPPROTO_ICMPV6_) {
            return false;
        }
    } else if ((l3[0] >> 4) == 6
               && md->l4_ofs >= md->l3_ofs + IPV6_HEADER_LEN
               && !dp_packet_copy_out(p, md->l3_ofs, IPV6_HEADER_LEN, l3)) {
        const struct ipv6_header *ip6 = (const void *) l3;

        l3_end = md->l3_ofs + IPV6_HEADER_LEN + ntohs(ip6->payload_len);
        if (md->l4_proto == IPPROTO_ICMP_) {
            return false;
        }
    } else {
        return false;
    }

    switch (md->l4_proto) {
    case IPPROTO_TCP_:
        *csum_ofs = offsetof(struct tcp_header, csum);
        min_size = TCP_HEADER_LEN;
        break;
    case IPPROTO_UDP_:
        *csum_ofs = offsetof(struct udp_header, csum);
        min_size = UDP_HEADER_LEN;
        break;
    case IPPROTO_SCTP_:
        *csum_ofs = offsetof(struct sctp_header, csum);
        min_size = SCTP_HEADER_LEN;
        break;
    case IPPROTO_ICMP_:
        *csum_ofs = offsetof(struct icmp_header, csum);
        min_size = ICMP_HEADER_LEN;
        break;
    case IPPROTO_ICMPV6_:
        *csum_ofs = offsetof(struct icmpv6_header, csum);
        min_size = ICMPV6_HEADER_LEN;
        break;
    default:
        return false;
    }
    if (l3_end > size || l3_end < md->l4_ofs + min_size) {
        return false;
    }
    *l4_size = l3_end - md->l4_ofs;
    return true;
}

/* Returns true if checksum fields 'a' and 'b' hold the same one's
 * complement number: 0x0000 and 0xffff are both zero (RFC 1624 §3), and an
 * incremental update may produce either. */
static bool
same_sum(uint16_t a, uint16_t b)
{
    return a == b || ((uint16_t) (a ^ b) == 0xffff && (a == 0 || b == 0));
}
