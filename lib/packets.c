/* Header rewrites that follow the checksum state rules, and address text
 * forms.  See packets.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "packets.h"
#include <stdio.h>
#include <string.h>
#include "csum.h"
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "util.h"

static uint8_t *header_at(struct dp_packet *, uint16_t ofs, size_t size);
static void l4_csum_update(struct dp_packet *, const void *old_bytes,
                           const void *new_bytes, size_t size);
static bool l4_has_ports(uint8_t proto);

/* Sets the Ethernet source and destination of 'p' to 'src' and 'dst' (either
 * may be NULL to keep it).  No checksum covers them. */
void
packet_set_eth_addrs(struct dp_packet *p, const struct eth_addr *src,
                     const struct eth_addr *dst)
{
    struct eth_header *eth = (void *) header_at(p, p->md.l2_ofs,
                                                ETH_HEADER_LEN);

    if (eth) {
        if (src) {
            eth->src = *src;
        }
        if (dst) {
            eth->dst = *dst;
        }
    }
}

/* Sets the IPv4 source (if 'is_src') or destination address of 'p' to
 * 'addr'; the IPv4 header checksum and a TCP or UDP checksum (which covers
 * the address through the pseudo-header) follow the state rules. */
void
packet_set_ipv4_addr(struct dp_packet *p, bool is_src, dps_be32 addr)
{
    struct ipv4_header *ip = (void *) header_at(p, p->md.l3_ofs,
                                                IPV4_HEADER_LEN);

    if (!ip || (ip->ver_ihl >> 4) != 4) {
        return;
    }

    dps_be32 old = is_src ? ip->src : ip->dst;
    if (p->md.ip_csum & DP_CSUM_GOOD) {
        p->md.ip_csum = DP_CSUM_PARTIAL;
    } else {
        ip->csum = csum_update32(ip->csum, old, addr);
    }
    if (p->md.l4_proto == IPPROTO_TCP_ || p->md.l4_proto == IPPROTO_UDP_) {
        l4_csum_update(p, &old, &addr, 4);
    }
    if (is_src) {
        ip->src = addr;
    } else {
        ip->dst = addr;
    }
}

/* Sets the IPv4 TOS and TTL of 'p'; the IPv4 header checksum follows the
 * state rules. */
void
packet_set_ipv4_tos_ttl(struct dp_packet *p, uint8_t tos, uint8_t ttl)
{
    struct ipv4_header *ip = (void *) header_at(p, p->md.l3_ofs,
                                                IPV4_HEADER_LEN);

    if (!ip || (ip->ver_ihl >> 4) != 4) {
        return;
    }

    /* 'tos' and 'ttl' are in different 16-bit words: update each word. */
    uint8_t old[2], new[2];
    if (p->md.ip_csum & DP_CSUM_GOOD) {
        p->md.ip_csum = DP_CSUM_PARTIAL;
    } else {
        uint16_t csum = ip->csum;

        old[0] = ip->ver_ihl, old[1] = ip->tos;
        new[0] = ip->ver_ihl, new[1] = tos;
        csum = csum_update_bytes(csum, old, new, 2);
        old[0] = ip->ttl, old[1] = ip->proto;
        new[0] = ttl, new[1] = ip->proto;
        csum = csum_update_bytes(csum, old, new, 2);
        ip->csum = csum;
    }
    ip->tos = tos;
    ip->ttl = ttl;
}

/* Sets the IPv6 source (if 'is_src') or destination address of 'p' to
 * 'addr'; a TCP, UDP or ICMPv6 checksum follows the state rules. */
void
packet_set_ipv6_addr(struct dp_packet *p, bool is_src,
                     const struct ipv6_addr *addr)
{
    struct ipv6_header *ip6 = (void *) header_at(p, p->md.l3_ofs,
                                                 IPV6_HEADER_LEN);

    if (!ip6 || (((uint8_t *) ip6)[0] >> 4) != 6) {
        return;
    }

    uint8_t *field = (uint8_t *) ip6 + (is_src
                                        ? offsetof(struct ipv6_header, src)
                                        : offsetof(struct ipv6_header, dst));
    if (l4_has_ports(p->md.l4_proto) || p->md.l4_proto == IPPROTO_ICMPV6_) {
        l4_csum_update(p, field, addr, 16);
    }
    memcpy(field, addr, 16);
}

/* Sets the source and destination ports of the TCP, UDP or SCTP header of
 * 'p'; the checksum follows the state rules (for SCTP's CRC32c, the
 * incremental update uses the linearity of CRCs). */
void
packet_set_l4_ports(struct dp_packet *p, dps_be16 src, dps_be16 dst)
{
    if (!l4_has_ports(p->md.l4_proto)) {
        return;
    }

    uint8_t *l4 = header_at(p, p->md.l4_ofs, 4);
    if (!l4) {
        return;
    }

    dps_be16 new[2] = { src, dst };
    if (p->md.l4_proto == IPPROTO_SCTP_) {
        if (p->md.l4_csum & DP_CSUM_GOOD) {
            p->md.l4_csum = DP_CSUM_PARTIAL;
        } else {
            dp_packet_csum_sctp_update(p, 0, l4, new, 4);
        }
        memcpy(l4, new, 4);
        return;
    }
    l4_csum_update(p, l4, new, 4);
    memcpy(l4, new, 4);
}

/* Formats 'ea' as "xx:xx:xx:xx:xx:xx" into 's'. */
void
eth_addr_format(const struct eth_addr *ea, char s[18])
{
    snprintf(s, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
             ea->ea[0], ea->ea[1], ea->ea[2], ea->ea[3], ea->ea[4], ea->ea[5]);
}

/* Parses "xx:xx:xx:xx:xx:xx" (hex digits, one or two per byte) from 's'
 * into '*ea'.  Returns false if 's' is anything else. */
bool
eth_addr_parse(const char *s, struct eth_addr *ea)
{
    unsigned int b[6];
    int n = 0;

    if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%n",
               &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &n) != 6
        || s[n] != '\0' || strchr(s, ' ') || strchr(s, '+')
        || strchr(s, '-')) {
        return false;
    }
    for (int i = 0; i < 6; i++) {
        ea->ea[i] = b[i];
    }
    return true;
}

/* Returns the 'size' bytes of 'p' at 'ofs', made contiguous in the first
 * segment if needed, or NULL if 'ofs' is unset or the packet is too short. */
static uint8_t *
header_at(struct dp_packet *p, uint16_t ofs, size_t size)
{
    if (ofs == DP_PACKET_OFS_NONE
        || (size_t) ofs + size > dp_packet_size(p)) {
        return NULL;
    }

    /* Every call for a packet asks for the same span (all its headers), so
     * only the first may move data and pointers from earlier calls stay
     * valid. */
    const struct dp_packet_md *md = &p->md;
    size_t span = (md->l4_ofs != DP_PACKET_OFS_NONE
                   ? (size_t) md->l4_ofs + TCP_HEADER_LEN
                   : md->l3_ofs != DP_PACKET_OFS_NONE
                   ? (size_t) md->l3_ofs + IPV6_HEADER_LEN
                   : ETH_HEADER_LEN);
    span = MIN(MAX(span, (size_t) ofs + size), dp_packet_size(p));

    uint8_t *data = dp_packet_make_contiguous(p, span);
    return data ? data + ofs : NULL;
}

/* Applies the state rules to the L4 checksum of 'p' for 'size' bytes
 * (even, at an even offset) of what it covers, in the pseudo-header or in
 * the L4 header itself, changing from 'old_bytes' to 'new_bytes'. */
static void
l4_csum_update(struct dp_packet *p, const void *old_bytes,
               const void *new_bytes, size_t size)
{
    struct dp_packet_md *md = &p->md;
    unsigned int csum_ofs;

    if (md->l4_csum == DP_CSUM_PARTIAL) {
        return;
    } else if (md->l4_csum == DP_CSUM_GOOD) {
        if (!(md->flags & DP_PACKET_F_FRAG)) {
            md->l4_csum = DP_CSUM_PARTIAL;
            return;
        }
        /* A fragment's L4 checksum covers the whole datagram, so it can
         * never be completed later: update it now, and it stays good. */
    }
    switch (md->l4_proto) {
    case IPPROTO_TCP_:
        csum_ofs = offsetof(struct tcp_header, csum);
        break;
    case IPPROTO_UDP_:
        csum_ofs = offsetof(struct udp_header, csum);
        break;
    case IPPROTO_ICMPV6_:
        csum_ofs = offsetof(struct icmpv6_header, csum);
        break;
    default:
        return;
    }

    uint8_t *l4 = header_at(p, md->l4_ofs, csum_ofs + 2);
    if (!l4) {
        return;
    }

    uint16_t csum;
    memcpy(&csum, l4 + csum_ofs, 2);
    if (md->l4_proto == IPPROTO_UDP_ && !csum) {
        return;                 /* No UDP checksum stays none. */
    }
    csum = csum_update_bytes(csum, old_bytes, new_bytes, size);
    if (md->l4_proto == IPPROTO_UDP_ && !csum) {
        csum = 0xffff;
    }
    memcpy(l4 + csum_ofs, &csum, 2);
}

static bool
l4_has_ports(uint8_t proto)
{
    return (proto == IPPROTO_TCP_ || proto == IPPROTO_UDP_
            || proto == IPPROTO_SCTP_);
}
