/* Checksums.  See csum.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "csum.h"
#include <string.h>
#include <rte_byteorder.h>
#ifdef __SSE4_2__
#include <nmmintrin.h>
#endif
#include "packets.h"
#include "util.h"

static uint64_t sum_words(uint64_t sum, const uint8_t *data, size_t size);
static uint32_t fold64(uint64_t sum);
static uint32_t pseudo_header_sum(const uint8_t *l3, uint8_t proto,
                                  uint32_t l4_size);
static bool l4_geometry(const struct dp_packet *,
                        uint8_t l3[IPV6_HEADER_LEN], uint32_t *l4_size,
                        unsigned int *csum_ofs);
static bool same_sum(uint16_t, uint16_t);
static uint32_t crc32c_packet(const struct dp_packet *, size_t offset,
                              size_t size, uint32_t crc);

/* Adds the 'size' bytes at 'data' to the one's complement sum 'partial' and
 * returns the new (unfolded) sum.  An odd last byte counts as if followed by
 * a zero byte; so 'data' must start at an even offset of the checksummed
 * range, or the caller must swap the bytes of the result (csum_packet() does
 * this across segments). */
uint32_t
csum_add(uint32_t partial, const void *data, size_t size)
{
    return fold64(sum_words(partial, data, size));
}

/* Folds 'partial' to 16 bits, without complementing it. */
uint16_t
csum_fold(uint32_t partial)
{
    partial = (partial & 0xffff) + (partial >> 16);
    partial = (partial & 0xffff) + (partial >> 16);
    return partial;
}

/* Folds and complements 'partial': the value for a checksum field. */
uint16_t
csum_finish(uint32_t partial)
{
    return ~csum_fold(partial);
}

/* Returns checksum 'csum' updated for one 16-bit word of the covered data
 * changing from 'old_word' to 'new_word' (RFC 1624, equation 3).  A wrong
 * checksum stays wrong by the same amount. */
uint16_t
csum_update16(uint16_t csum, uint16_t old_word, uint16_t new_word)
{
    uint32_t sum = (uint16_t) ~csum;

    sum += (uint16_t) ~old_word;
    sum += new_word;
    return csum_finish(sum);
}

/* Like csum_update16() for a 32-bit value (two adjacent words, as they lie in
 * memory). */
uint16_t
csum_update32(uint16_t csum, uint32_t old_word, uint32_t new_word)
{
    uint32_t sum = (uint16_t) ~csum;

    sum += (uint16_t) ~(old_word & 0xffff);
    sum += (uint16_t) ~(old_word >> 16);
    sum += new_word & 0xffff;
    sum += new_word >> 16;
    return csum_finish(sum);
}

/* Like csum_update16() for 'size' bytes (even, starting at an even offset of
 * the covered data) changing from 'old_bytes' to 'new_bytes'. */
uint16_t
csum_update_bytes(uint16_t csum, const void *old_bytes,
                  const void *new_bytes, size_t size)
{
    const uint8_t *o = old_bytes;
    const uint8_t *n = new_bytes;
    uint32_t sum = (uint16_t) ~csum;

    for (size_t i = 0; i + 1 < size; i += 2) {
        uint16_t ow, nw;

        memcpy(&ow, o + i, 2);
        memcpy(&nw, n + i, 2);
        sum += (uint16_t) ~ow;
        sum += nw;
    }
    return csum_finish(fold64(sum));
}

/* Adds the 'size' bytes of 'p' starting at 'offset' to 'partial', across
 * segments, and returns the new unfolded sum.  'offset' counts as the start
 * of the checksummed range (an even position).  The range must lie within
 * the packet. */
uint32_t
csum_packet(const struct dp_packet *p, size_t offset, size_t size,
            uint32_t partial)
{
    const struct rte_mbuf *seg = &p->mbuf;
    uint64_t sum = partial;
    bool odd = false;

    while (seg && offset >= seg->data_len) {
        offset -= seg->data_len;
        seg = seg->next;
    }
    for (; seg && size; seg = seg->next) {
        size_t n = MIN(size, seg->data_len - offset);
        uint32_t s = fold64(sum_words(0, rte_pktmbuf_mtod_offset(
                                          seg, const uint8_t *, offset), n));

        if (odd) {
            /* This piece starts at an odd position of the range: its bytes
             * pair up the other way round (RFC 1071 §2(B)). */
            s = csum_fold(s);
            s = ((s & 0xff) << 8) | (s >> 8);
        }
        sum += s;
        odd ^= n & 1;
        size -= n;
        offset = 0;
    }
    return fold64(sum);
}

/* Continues CRC32c (Castagnoli, reflected polynomial 0x82f63b78) 'crc' over
 * the 'size' bytes at 'data' and returns it.  Start with 0xffffffff and
 * complement the end result. */
uint32_t
crc32c(uint32_t crc, const void *data_, size_t size)
{
    const uint8_t *data = data_;

#ifdef __SSE4_2__
    for (; size >= 8; size -= 8, data += 8) {
        uint64_t w;

        memcpy(&w, data, 8);
        crc = (uint32_t) _mm_crc32_u64(crc, w);
    }
    for (; size; size--, data++) {
        crc = _mm_crc32_u8(crc, *data);
    }
#else
    for (; size; size--, data++) {
        crc ^= *data;
        for (int bit = 0; bit < 8; bit++) {
            crc = (crc >> 1) ^ (0x82f63b78u & -(crc & 1u));
        }
    }
#endif
    return crc;
}

/* Returns the IPv4 header checksum of 'p', for the IPv4 header at 'l3_ofs'
 * (in any segments), computed as if the checksum field were zero, or 0 if
 * the header does not fit in the packet. */
uint16_t
csum_ipv4_header(const struct dp_packet *p)
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
    return csum_finish(fold64((uint64_t) sum + (uint16_t) ~field));
}

/* Computes the L4 checksum of 'p' (TCP, UDP, SCTP, ICMP or ICMPv6, after the
 * offsets and 'l4_proto' in its metadata) as if its checksum field were
 * zero, and stores in '*value' what belongs in the field (for SCTP, the
 * 32-bit CRC as it lies in memory).  Returns false, storing 0, if 'p' has no
 * complete L4 segment with a checksum here (unknown protocol, truncated, or
 * a fragment). */
bool
csum_l4(const struct dp_packet *p, uint32_t *value)
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
        uint32_t crc = crc32c_packet(p, l4_ofs, csum_ofs, 0xffffffff);

        crc = crc32c(crc, zeros, sizeof zeros);
        crc = crc32c_packet(p, l4_ofs + csum_ofs + 4,
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
    uint16_t csum = csum_finish(fold64((uint64_t) sum + (uint16_t) ~field));
    if (proto == IPPROTO_UDP_ && !csum) {
        csum = 0xffff;          /* 0 means "no checksum" (RFC 768). */
    }
    *value = csum;
    return true;
}

/* See csum.h. */
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
        md->ip_csum = (same_sum(csum_ipv4_header(p), ip->csum)
                       ? DP_CSUM_GOOD : DP_CSUM_BAD);
    }

    uint32_t expected, actual = 0;
    uint32_t l4_size;
    unsigned int csum_ofs;
    if (md->l4_csum == DP_CSUM_UNKNOWN && csum_l4(p, &expected)
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
void
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
        /* Nothing we could complete: forget the request. */
        md->ip_csum = md->l4_csum = DP_CSUM_UNKNOWN;
        return;
    }

    uint8_t *l3 = dp_packet_l3(p);
    bool is_ipv4 = (l3[0] >> 4) == 4;
    uint64_t ol_flags = 0;

    if (md->ip_csum == DP_CSUM_PARTIAL) {
        struct ipv4_header *ip = (void *) l3;

        if (!is_ipv4 || ipv4_header_size(ip) < IPV4_HEADER_LEN
            || md->l3_ofs + ipv4_header_size(ip) > dp_packet_size(p)) {
            md->ip_csum = DP_CSUM_UNKNOWN;
        } else if (caps & DP_TX_IP_CSUM) {
            ip->csum = 0;
            ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
        } else {
            ip->csum = csum_ipv4_header(p);
            md->ip_csum = DP_CSUM_GOOD;
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

        if (!l4_geometry(p, l3_copy, &l4_size, &csum_ofs)) {
            md->l4_csum = DP_CSUM_UNKNOWN;
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
        } else if (csum_l4(p, &value)) {
            uint8_t *field = (uint8_t *) dp_packet_data(p) + md->l4_ofs
                             + csum_ofs;
            if (md->l4_proto == IPPROTO_SCTP_) {
                memcpy(field, &value, 4);
            } else {
                uint16_t v16 = value;
                memcpy(field, &v16, 2);
            }
            md->l4_csum = DP_CSUM_GOOD;
        } else {
            md->l4_csum = DP_CSUM_UNKNOWN;
        }
    }

    if (ol_flags) {
        m->ol_flags |= ol_flags;
        m->l2_len = md->l3_ofs;
        m->l3_len = (md->l4_ofs != DP_PACKET_OFS_NONE
                     ? md->l4_ofs - md->l3_ofs : 0);
    }
}

/* Adds 'size' bytes at 'data' to 'sum', 32 bits at a time. */
static uint64_t
sum_words(uint64_t sum, const uint8_t *data, size_t size)
{
    for (; size >= 4; size -= 4, data += 4) {
        uint32_t w;

        memcpy(&w, data, 4);
        sum += w;
    }
    if (size >= 2) {
        uint16_t w;

        memcpy(&w, data, 2);
        sum += w;
        data += 2;
        size -= 2;
    }
    if (size) {
        uint8_t last[2] = { data[0], 0 };
        uint16_t w;

        memcpy(&w, last, 2);
        sum += w;
    }
    return sum;
}

/* Folds 64-bit sum 'sum' into 32 bits without losing carries. */
static uint32_t
fold64(uint64_t sum)
{
    sum = (sum & 0xffffffff) + (sum >> 32);
    sum = (sum & 0xffffffff) + (sum >> 32);
    return sum;
}

/* Returns the sum of the pseudo-header of the IPv4 or IPv6 header at 'l3'
 * for an L4 segment of 'l4_size' bytes of protocol 'proto'. */
static uint32_t
pseudo_header_sum(const uint8_t *l3, uint8_t proto, uint32_t l4_size)
{
    uint64_t sum;

    if ((l3[0] >> 4) == 4) {
        sum = sum_words(0, l3 + offsetof(struct ipv4_header, src), 8);
    } else {
        sum = sum_words(0, l3 + offsetof(struct ipv6_header, src), 32);
    }
    sum += htons(proto);
    sum += htons(l4_size & 0xffff) + htons(l4_size >> 16);
    return fold64(sum);
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

/* Continues CRC32c 'crc' over 'size' bytes of 'p' at 'offset', across
 * segments. */
static uint32_t
crc32c_packet(const struct dp_packet *p, size_t offset, size_t size,
              uint32_t crc)
{
    const struct rte_mbuf *seg = &p->mbuf;

    while (seg && offset >= seg->data_len) {
        offset -= seg->data_len;
        seg = seg->next;
    }
    for (; seg && size; seg = seg->next) {
        size_t n = MIN(size, seg->data_len - offset);

        crc = crc32c(crc, rte_pktmbuf_mtod_offset(seg, const uint8_t *,
                                                   offset), n);
        size -= n;
        offset = 0;
    }
    return crc;
}

/* Returns true if checksum fields 'a' and 'b' hold the same one's
 * complement number: 0x0000 and 0xffff are both zero (RFC 1624 §3), and an
 * incremental update may produce either. */
static bool
same_sum(uint16_t a, uint16_t b)
{
    return a == b || ((uint16_t) (a ^ b) == 0xffff && (a == 0 || b == 0));
}
