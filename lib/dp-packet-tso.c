/* Userspace TSO: software segmentation.  See dp-packet-tso.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-packet-tso.h"
#include <arpa/inet.h>
#include <string.h>
#include "coverage.h"
#include "dp-packet.h"
#include "packets.h"
#include "util.h"

/* Segments made in software, and TSO packets dropped as invalid (the names
 * are Open vSwitch's). */
COVERAGE_DEFINE(soft_seg_good);
COVERAGE_DEFINE(soft_seg_drops);

/* Where the parts of a TSO packet are. */
struct tso_geometry {
    uint32_t hdr_size;          /* Bytes up to the end of the TCP header. */
    uint32_t payload_size;      /* TCP payload (up to the IP length). */
    bool is_ipv4;
};

static bool tso_geometry(struct dp_packet *, struct tso_geometry *);
static int put_range(struct dp_packet *dst, const struct dp_packet *src,
                     uint32_t offset, uint32_t size);

/* Returns true if 'p', whose 'md.tso_segsz' is nonzero, is a TSO packet
 * that can be cut: IPv4 or IPv6 and TCP at the offsets of its metadata,
 * lengths that fit the packet, headers contiguous in the first segment
 * (made so if they were not), and an MSS from DP_TSO_MIN_MSS to
 * DP_TSO_MAX_MSS.  A packet for which this is false is dropped, counted in
 * the "soft_seg_drops" coverage counter. */
bool
dp_packet_tso_valid(struct dp_packet *p)
{
    struct tso_geometry g;

    if (!tso_geometry(p, &g)) {
        COVERAGE_INC(soft_seg_drops);
        return false;
    }
    return true;
}

/* Returns the size of the largest IP packet that cutting TSO packet 'p'
 * gives: its IP and TCP headers and at most 'md.tso_segsz' payload bytes
 * (a packet whose payload fits one segment gives just itself), or
 * UINT32_MAX if dp_packet_tso_valid() is false. */
uint32_t
dp_packet_tso_l3_seg_size(struct dp_packet *p)
{
    struct tso_geometry g;

    if (!tso_geometry(p, &g)) {
        return UINT32_MAX;
    }
    return g.hdr_size - p->md.l3_ofs + MIN(p->md.tso_segsz, g.payload_size);
}

/* Cuts TSO packet 'p' (dp_packet_tso_valid() must be true) into segments of
 * at most 'p->md.tso_segsz' payload bytes, appending them to 'segs' from
 * payload offset '*offset' (0 on the first call) until 'segs' is full or
 * the payload ends, and advancing '*offset'.  Call again, with an emptied
 * 'segs', until it returns EOF.  A packet with no more than one segment's
 * payload (even none) gives one segment.  'p' is not modified; the caller
 * frees it.
 *
 * Each segment is a copy of the headers with the IPv4 total length or IPv6
 * payload length of its size, IPv4 identifiers counting up from that of
 * 'p', sequence numbers advancing by the payload before it, FIN and PSH
 * kept for the last segment only and CWR for the first only; its IPv4
 * header and TCP checksums are partial (dp_packet_tx_prepare() completes
 * them for the egress port).
 *
 * Returns 0 if segments were added and some payload is left, EOF once the
 * last segment was added, ENOMEM if the pool ran out (what was added stays
 * in 'segs'). */
int
dp_packet_tso_segment(struct dp_packet *p, uint32_t *offset,
                      struct dp_packet_batch *segs)
{
    const struct dp_packet_md *md = &p->md;
    struct tso_geometry g;

    if (!tso_geometry(p, &g)) {
        return EINVAL;
    }

    const uint8_t *hdr = dp_packet_data(p);
    const struct ipv4_header *ip = (const void *) (hdr + md->l3_ofs);
    const struct tcp_header *tcp = (const void *) (hdr + md->l4_ofs);
    uint16_t ip_id = ntohs(ip->id);
    uint32_t seq = ntohl(tcp->seq);
    uint16_t off_flags = ntohs(tcp->off_flags);
    uint32_t mss = md->tso_segsz;

    if (*offset >= g.payload_size && *offset) {
        return EOF;
    }
    while (!dp_packet_batch_is_full(segs)) {
        uint32_t size = MIN(mss, g.payload_size - *offset);
        bool first = *offset == 0;
        bool last = *offset + size == g.payload_size;
        struct dp_packet *seg = dp_packet_alloc(p->mbuf.pool);

        if (!seg || dp_packet_put(seg, hdr, g.hdr_size)
            || put_range(seg, p, g.hdr_size + *offset, size)
            || !dp_packet_make_contiguous(seg, g.hdr_size)) {
            dp_packet_free(seg);
            return ENOMEM;
        }

        uint8_t *h = dp_packet_data(seg);
        uint32_t l3_size = g.hdr_size - md->l3_ofs + size;
        if (g.is_ipv4) {
            struct ipv4_header *sip = (void *) (h + md->l3_ofs);
            uint16_t k = *offset / mss;

            sip->tot_len = htons(l3_size);
            sip->id = htons((uint16_t) (ip_id + k));
        } else {
            struct ipv6_header *sip6 = (void *) (h + md->l3_ofs);

            sip6->payload_len = htons(l3_size - IPV6_HEADER_LEN);
        }

        struct tcp_header *stcp = (void *) (h + md->l4_ofs);
        uint16_t flags = off_flags;
        if (!last) {
            flags &= ~(TCP_FIN | TCP_PSH);
        }
        if (!first) {
            flags &= ~TCP_CWR;
        }
        stcp->seq = htonl(seq + *offset);
        stcp->off_flags = htons(flags);

        seg->md = *md;
        seg->md.tso_segsz = 0;
        seg->md.ip_csum = g.is_ipv4 ? DP_CSUM_PARTIAL : DP_CSUM_UNKNOWN;
        seg->md.l4_csum = DP_CSUM_PARTIAL;
        seg->mbuf.port = p->mbuf.port;
        dp_packet_batch_add(segs, seg);
        COVERAGE_INC(soft_seg_good);
        *offset += size;
        if (last) {
            return EOF;
        }
    }
    return 0;
}

/* Fills in '*g' for TSO packet 'p' and returns true, or returns false if
 * 'p' is not one dp_packet_tso_segment() can cut.  Makes the headers
 * contiguous. */
static bool
tso_geometry(struct dp_packet *p, struct tso_geometry *g)
{
    const struct dp_packet_md *md = &p->md;
    uint32_t size = dp_packet_size(p);
    uint32_t mss = md->tso_segsz;

    if (md->l3_ofs == DP_PACKET_OFS_NONE || md->l4_ofs == DP_PACKET_OFS_NONE
        || md->l4_proto != IPPROTO_TCP_ || (md->flags & DP_PACKET_F_FRAG)
        || mss < DP_TSO_MIN_MSS || mss > DP_TSO_MAX_MSS
        || md->l4_ofs < md->l3_ofs + IPV4_HEADER_LEN
        || (uint32_t) md->l4_ofs + TCP_HEADER_LEN > size
        || !dp_packet_make_contiguous(p, md->l4_ofs + TCP_HEADER_LEN)) {
        return false;
    }

    const uint8_t *l3 = (const uint8_t *) dp_packet_data(p) + md->l3_ofs;
    uint32_t l3_end;
    g->is_ipv4 = (l3[0] >> 4) == 4;
    if (g->is_ipv4) {
        const struct ipv4_header *ip = (const void *) l3;

        if (ipv4_header_size(ip) < IPV4_HEADER_LEN
            || md->l3_ofs + ipv4_header_size(ip) > md->l4_ofs) {
            return false;
        }
        l3_end = md->l3_ofs + ntohs(ip->tot_len);
    } else if ((l3[0] >> 4) == 6 && md->l4_ofs >= md->l3_ofs + IPV6_HEADER_LEN) {
        const struct ipv6_header *ip6 = (const void *) l3;

        l3_end = md->l3_ofs + IPV6_HEADER_LEN + ntohs(ip6->payload_len);
    } else {
        return false;
    }

    const struct tcp_header *tcp = (const void *) ((const uint8_t *)
                                                   dp_packet_data(p)
                                                   + md->l4_ofs);
    uint32_t tcp_size = (ntohs(tcp->off_flags) >> 12) * 4;
    g->hdr_size = md->l4_ofs + tcp_size;
    if (tcp_size < TCP_HEADER_LEN || l3_end > size || g->hdr_size > l3_end
        || !dp_packet_make_contiguous(p, g->hdr_size)) {
        return false;
    }
    g->payload_size = l3_end - g->hdr_size;

    /* An IP packet of one segment must fit its length field. */
    if (g->hdr_size - md->l3_ofs + MIN(mss, g->payload_size) > UINT16_MAX) {
        return false;
    }
    return true;
}

/* Appends the 'size' bytes of 'src' from 'offset' on (in any segments) to
 * 'dst'.  Returns 0 or ENOMEM. */
static int
put_range(struct dp_packet *dst, const struct dp_packet *src,
          uint32_t offset, uint32_t size)
{
    const struct rte_mbuf *m = &src->mbuf;

    while (m && offset >= m->data_len) {
        offset -= m->data_len;
        m = m->next;
    }
    for (; m && size; m = m->next) {
        uint32_t chunk = MIN(size, (uint32_t) m->data_len - offset);

        if (dp_packet_put(dst, rte_pktmbuf_mtod_offset(m, const char *,
                                                       offset), chunk)) {
            return ENOMEM;
        }
        size -= chunk;
        offset = 0;
    }
    return size ? ENOMEM : 0;
}
