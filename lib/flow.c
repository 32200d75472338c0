/* Flow keys.  See flow.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "flow.h"
#include <string.h>
#ifdef __SSE4_2__
#include <nmmintrin.h>
#endif
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "util.h"

/* The bytes extraction examines: 'data' holds 'window' bytes of a packet of
 * 'size' bytes, from its start. */
struct parser {
    const uint8_t *data;
    uint32_t window;
    uint32_t size;
    uint32_t result;            /* enum flow_parse_result bits. */
    uint64_t touched;           /* Words of 'flow' written (FLOW_TOUCH). */
    struct dp_packet *packet;
    struct flow *flow;
};

/* Notes that the parser wrote struct flow member 'MEMBER' of 'PS->flow':
 * sets the bits of the words it spans in 'PS->touched', so that building
 * a compact key visits only those words. */
#define FLOW_TOUCH(PS, MEMBER)                                              \
    ((PS)->touched |= ((UINT64_C(2) << ((offsetof(struct flow, MEMBER)     \
                                         + sizeof (PS)->flow->MEMBER - 1)  \
                                        / 8))                              \
                       - (UINT64_C(1) << (offsetof(struct flow, MEMBER)    \
                                          / 8))))

static inline int parse_common(struct dp_packet *, dps_be16 *dl_type,
                               dps_be16 *tci);
static uint32_t extract(struct dp_packet *, struct flow *,
                        uint64_t *touched);
static uint32_t extract__(struct dp_packet *, struct flow *,
                          const uint8_t *data, uint32_t window,
                          uint64_t *touched);
static void parse_l3(struct parser *, uint32_t ofs, dps_be16 dl_type);
static void parse_ipv4(struct parser *, uint32_t ofs);
static void parse_ipv6(struct parser *, uint32_t ofs);
static void parse_arp(struct parser *, uint32_t ofs);
static void parse_l4(struct parser *, uint32_t ofs, uint32_t end,
                     uint8_t proto, bool is_ipv6);
static void parse_nd(struct parser *, uint32_t ofs, uint32_t end);
static const void *peek(struct parser *, uint32_t ofs, uint32_t n,
                        uint32_t end);
static inline uint32_t hash_word(uint32_t hash, uint64_t word);

/* Extracts the key of packet 'p' into 'flow', taking 'in_port' and
 * 'recirc_id' from its metadata, and records in that metadata the offsets
 * of the headers it parsed, the L4 protocol and whether 'p' is a fragment.
 * Works on chains (a first segment shorter than the headers costs a copy of
 * up to FLOW_MAX_HEADER_SIZE bytes).  Returns enum flow_parse_result bits:
 * what was parsed and what stopped it. */
uint32_t
flow_extract(struct dp_packet *p, struct flow *flow)
{
    uint64_t touched;

    return extract(p, flow, &touched);
}

/* Like flow_extract(), into compact key 'key'. */
uint32_t
flow_extract_key(struct dp_packet *p, struct flow_key *key)
{
    struct flow flow;
    uint64_t touched;
    uint32_t result = extract(p, &flow, &touched);

    /* Only the words extraction wrote can be nonzero. */
    const uint8_t *src = (const uint8_t *) &flow;
    uint64_t map = 0;
    unsigned int n = 0;
    for (; touched; touched &= touched - 1) {
        unsigned int index = __builtin_ctzll(touched);
        uint64_t word;

        memcpy(&word, src + index * 8, 8);
        if (word) {
            key->words[n++] = word;
            map |= UINT64_C(1) << index;
        }
    }
    key->map = map;
    return result;
}

/* Sets the header offsets of 'p' (md.l2_ofs, l3_ofs, l4_ofs, l4_proto and
 * the fragment flag) exactly as flow_extract() would, and returns the TCP
 * flags in host order (0 if 'p' is not TCP), without building a key: for
 * packets whose flow is already known (flow mark hits), whose actions may
 * need the offsets and whose flow statistics need the flags.  The common
 * case (Ethernet, up to two VLAN tags, IPv4 without options or fragments or
 * IPv6 without extension headers, then TCP or UDP, all in the first
 * segment) is parsed here; anything else goes through flow_extract(). */
uint16_t
flow_parse_offsets(struct dp_packet *p)
{
    dps_be16 dl_type, tci;
    int tcp_flags = parse_common(p, &dl_type, &tci);

    if (tcp_flags >= 0) {
        return tcp_flags;
    }

    struct flow flow;
    flow_extract(p, &flow);
    return ntohs(flow.tcp_flags);
}

/* Like flow_parse_offsets(), and also returns the fields a simple-match
 * flow matches, as flow_extract() would set them, packed by
 * flow_simple_pack(); stores the TCP flags in '*tcp_flags'. */
uint32_t
flow_parse_simple(struct dp_packet *p, uint16_t *tcp_flags)
{
    dps_be16 dl_type, tci;
    int flags = parse_common(p, &dl_type, &tci);

    if (flags >= 0) {
        /* The common case has no fragments. */
        *tcp_flags = flags;
        return flow_simple_pack(dl_type, tci, 0);
    }

    struct flow flow;
    flow_extract(p, &flow);
    *tcp_flags = ntohs(flow.tcp_flags);
    return flow_simple_pack(flow.dl_type, flow.vlan_tci[0], flow.nw_frag);
}

/* Stores the compact form of 'flow' in 'key'. */
void
flow_key_from_flow(struct flow_key *key, const struct flow *flow)
{
    const uint8_t *src = (const uint8_t *) flow;
    uint64_t map = 0;

#ifdef __SSE4_1__
    /* Two words per comparison with zero: the map costs a handful of
     * instructions, and the copy below visits only the words present. */
    const __m128i zero = _mm_setzero_si128();
#pragma GCC unroll 8
    for (unsigned int i = 0; i + 1 < FLOW_N_WORDS; i += 2) {
        __m128i pair = _mm_loadu_si128((const __m128i *) (src + i * 8));
        int zeros = _mm_movemask_pd(_mm_castsi128_pd(
                                        _mm_cmpeq_epi64(pair, zero)));
        map |= (uint64_t) (~zeros & 3) << i;
    }
    if (FLOW_N_WORDS & 1) {
        uint64_t last;

        memcpy(&last, src + (FLOW_N_WORDS - 1) * 8, 8);
        map |= (uint64_t) (last != 0) << (FLOW_N_WORDS - 1);
    }
#else
    for (unsigned int i = 0; i < FLOW_N_WORDS; i++) {
        uint64_t word;

        memcpy(&word, src + i * 8, 8);
        map |= (uint64_t) (word != 0) << i;
    }
#endif

    unsigned int n = 0;
    for (uint64_t m = map; m; m &= m - 1) {
        memcpy(&key->words[n++], src + __builtin_ctzll(m) * 8, 8);
    }
    key->map = map;
}

/* Expands 'key' into 'flow'. */
void
flow_key_to_flow(const struct flow_key *key, struct flow *flow)
{
    uint64_t words[FLOW_N_WORDS];
    unsigned int n = 0;

    for (unsigned int i = 0; i < FLOW_N_WORDS; i++) {
        words[i] = (key->map >> i) & 1 ? key->words[n++] : 0;
    }
    memcpy(flow, words, sizeof words);
}

/* Returns word 'index' of struct flow in 'key' (0 if absent). */
uint64_t
flow_key_get_word(const struct flow_key *key, unsigned int index)
{
    if (!((key->map >> index) & 1)) {
        return 0;
    }
    return key->words[__builtin_popcountll(key->map
                                           & ((UINT64_C(1) << index) - 1))];
}

/* Returns true if 'a' and 'b' are the same key. */
bool
flow_key_equal(const struct flow_key *a, const struct flow_key *b)
{
    return (a->map == b->map
            && !memcmp(a->words, b->words,
                       flow_key_n_words(a) * sizeof a->words[0]));
}

/* Returns a hash of 'key' with 'basis'. */
uint32_t
flow_key_hash(const struct flow_key *key, uint32_t basis)
{
    uint32_t hash = hash_word(basis, key->map);
    unsigned int n = flow_key_n_words(key);

    for (unsigned int i = 0; i < n; i++) {
        hash = hash_word(hash, key->words[i]);
    }
    return hash;
}

/* Returns a hash, with 'basis', of the bits of 'key' that 'mask' selects.
 * Keys equal under 'mask' hash the same.  Touches only the words 'mask'
 * uses. */
uint32_t
flow_key_hash_masked(const struct flow_key *key, const struct flow_key *mask,
                     uint32_t basis)
{
    uint32_t hash = basis;
    unsigned int n = 0;

    for (uint64_t map = mask->map; map; map &= map - 1) {
        unsigned int index = __builtin_ctzll(map);

        hash = hash_word(hash, flow_key_get_word(key, index)
                               & mask->words[n++]);
    }
    return hash;
}

/* Returns true if 'a' and 'b' agree on every bit 'mask' selects. */
bool
flow_key_equal_masked(const struct flow_key *a, const struct flow_key *b,
                      const struct flow_key *mask)
{
    unsigned int n = 0;

    for (uint64_t map = mask->map; map; map &= map - 1) {
        unsigned int index = __builtin_ctzll(map);
        uint64_t diff = (flow_key_get_word(a, index)
                         ^ flow_key_get_word(b, index));

        if (diff & mask->words[n++]) {
            return false;
        }
    }
    return true;
}

/* Stores in 'dst' the bits of 'key' that 'mask' selects. */
void
flow_key_apply_mask(struct flow_key *dst, const struct flow_key *key,
                    const struct flow_key *mask)
{
    uint64_t map = 0;
    unsigned int n = 0, m = 0;

    for (uint64_t mm = mask->map; mm; mm &= mm - 1) {
        unsigned int index = __builtin_ctzll(mm);
        uint64_t w = flow_key_get_word(key, index) & mask->words[m++];

        if (w) {
            dst->words[n++] = w;
            map |= UINT64_C(1) << index;
        }
    }
    dst->map = map;
}

/* Composes a packet from 'pool' whose extraction gives back 'flow' (except
 * metadata, which is copied into the packet's metadata): Ethernet, VLAN
 * tags, then IPv4, IPv6 (with a fragment header for a fragment), ARP, and
 * TCP, UDP, SCTP, ICMP, ICMPv6 or neighbor discovery as 'flow' says, with
 * 'l4_payload_size' zero bytes after the L4 header.  Checksums are filled
 * in and their states are good.  Returns NULL if the pool runs out or the
 * packet would not fit one segment. */
struct dp_packet *
flow_compose(struct rte_mempool *pool, const struct flow *flow,
             size_t l4_payload_size)
{
    struct dp_packet *p = dp_packet_alloc(pool);
    if (!p) {
        return NULL;
    }

    size_t room = dp_packet_tailroom(p);
    uint8_t *base = dp_packet_put_uninit(p, room);
    size_t n = 0;

#define COMPOSE_PUT(SIZE)                                       \
    ({ if (n + (SIZE) > room) goto error;                       \
       uint8_t *h_ = base + n; memset(h_, 0, (SIZE));           \
       n += (SIZE); (void *) h_; })

    struct eth_header *eth = COMPOSE_PUT(ETH_HEADER_LEN);
    eth->dst = flow->dl_dst;
    eth->src = flow->dl_src;
    uint8_t *type_field = (uint8_t *) eth + offsetof(struct eth_header, type);
    for (int i = 0; i < 2 && flow->vlan_tci[i]; i++) {
        struct vlan_header *vlan = COMPOSE_PUT(VLAN_HEADER_LEN);
        dps_be16 tpid = flow->vlan_tpid[i] ? flow->vlan_tpid[i]
                                           : htons(ETH_TYPE_VLAN);

        memcpy(type_field, &tpid, 2);
        vlan->tci = flow->vlan_tci[i] & ~htons(VLAN_CFI);
        type_field = (uint8_t *) vlan + offsetof(struct vlan_header,
                                                 next_type);
    }
    memcpy(type_field, &flow->dl_type, 2);

    p->md.in_port = flow->in_port;
    p->md.recirc_id = flow->recirc_id;
    p->md.l2_ofs = 0;
    p->md.l3_ofs = n;

    uint16_t dl_type = ntohs(flow->dl_type);
    uint8_t proto = flow->nw_proto;
    bool later = flow->nw_frag & FLOW_NW_FRAG_LATER;
    struct ipv4_header *ip = NULL;
    struct ipv6_header *ip6 = NULL;
    size_t l4_ofs = 0;

    if (dl_type == ETH_TYPE_IP) {
        ip = COMPOSE_PUT(IPV4_HEADER_LEN);
        ip->ver_ihl = 0x45;
        ip->tos = flow->nw_tos;
        ip->ttl = flow->nw_ttl;
        ip->proto = proto;
        ip->src = flow->nw_src;
        ip->dst = flow->nw_dst;
        ip->frag_off = htons(later ? 100
                             : flow->nw_frag & FLOW_NW_FRAG_ANY ? IPV4_MF
                             : 0);
        l4_ofs = n;
    } else if (dl_type == ETH_TYPE_IPV6) {
        ip6 = COMPOSE_PUT(IPV6_HEADER_LEN);
        ip6->ver_tc_label = htonl(0x60000000 | (flow->nw_tos << 20)
                                  | (ntohl(flow->ipv6_label)
                                     & IPV6_LABEL_MASK));
        ip6->hlimit = flow->nw_ttl;
        ip6->src = flow->ipv6_src;
        ip6->dst = flow->ipv6_dst;
        ip6->next = proto;
        if (flow->nw_frag & FLOW_NW_FRAG_ANY) {
            struct ipv6_frag_header *fh = COMPOSE_PUT(IPV6_FRAG_HEADER_LEN);

            ip6->next = IPPROTO_FRAGMENT_;
            fh->next = proto;
            fh->off_flags = htons(later ? 100 << 3 : IPV6_FRAG_MORE);
        }
        l4_ofs = n;
    } else if (dl_type == ETH_TYPE_ARP) {
        struct arp_eth_header *arp = COMPOSE_PUT(ARP_ETH_HEADER_LEN);

        arp->htype = htons(ARP_HTYPE_ETH);
        arp->ptype = htons(ETH_TYPE_IP);
        arp->hlen = ETH_ADDR_LEN;
        arp->plen = 4;
        arp->op = flow->arp_op;
        arp->sha = flow->arp_sha;
        arp->spa = flow->nw_src;
        arp->tha = flow->arp_tha;
        arp->tpa = flow->nw_dst;
    }

    if ((ip || ip6) && !later) {
        if (proto == IPPROTO_TCP_) {
            struct tcp_header *tcp = COMPOSE_PUT(TCP_HEADER_LEN);

            tcp->src = flow->tp_src;
            tcp->dst = flow->tp_dst;
            tcp->off_flags = htons(5 << 12) | (flow->tcp_flags
                                               & htons(TCP_FLAGS_MASK));
            tcp->window = htons(8192);
        } else if (proto == IPPROTO_UDP_) {
            struct udp_header *udp = COMPOSE_PUT(UDP_HEADER_LEN);

            udp->src = flow->tp_src;
            udp->dst = flow->tp_dst;
            udp->len = htons(UDP_HEADER_LEN + l4_payload_size);
        } else if (proto == IPPROTO_SCTP_) {
            struct sctp_header *sctp = COMPOSE_PUT(SCTP_HEADER_LEN);

            sctp->src = flow->tp_src;
            sctp->dst = flow->tp_dst;
        } else if (proto == IPPROTO_ICMP_ && ip) {
            struct icmp_header *icmp = COMPOSE_PUT(ICMP_HEADER_LEN);

            icmp->type = ntohs(flow->tp_src);
            icmp->code = ntohs(flow->tp_dst);
        } else if (proto == IPPROTO_ICMPV6_ && ip6) {
            uint8_t type = ntohs(flow->tp_src), code = ntohs(flow->tp_dst);
            bool nd = ((type == ND_NEIGHBOR_SOLICIT
                        || type == ND_NEIGHBOR_ADVERT) && !code);
            struct icmpv6_header *icmp6 = COMPOSE_PUT(nd ? ND_MSG_LEN
                                                      : ICMPV6_HEADER_LEN);
            icmp6->type = type;
            icmp6->code = code;
            if (nd) {
                struct nd_msg *msg = (void *) icmp6;
                static const struct eth_addr zero;

                msg->target = flow->nd_target;
                for (int i = 0; i < 2; i++) {
                    const struct eth_addr *ll = i ? &flow->arp_tha
                                                  : &flow->arp_sha;
                    if (memcmp(ll, &zero, sizeof zero)) {
                        uint8_t *opt = COMPOSE_PUT(8);

                        opt[0] = i ? ND_OPT_TARGET_LL : ND_OPT_SOURCE_LL;
                        opt[1] = 1;
                        memcpy(opt + 2, ll, ETH_ADDR_LEN);
                    }
                }
            }
        }
        if (n > l4_ofs) {
            p->md.l4_ofs = l4_ofs;
            p->md.l4_proto = proto;
        }
    }
    if ((ip || ip6) && !(proto == IPPROTO_ICMPV6_ && ip6 && !later
                         && n - l4_ofs >= ND_MSG_LEN)) {
        /* Anything after an ND message would be read as options. */
        COMPOSE_PUT(l4_payload_size);
    }
#undef COMPOSE_PUT

    dp_packet_trim(p, room - n);
    if (ip) {
        ip->tot_len = htons(n - p->md.l3_ofs);
        ip->csum = dp_packet_csum_ipv4_header(p);
        p->md.ip_csum = DP_CSUM_GOOD;
    } else if (ip6) {
        ip6->payload_len = htons(n - p->md.l3_ofs - IPV6_HEADER_LEN);
    }
    if (p->md.l4_ofs != DP_PACKET_OFS_NONE) {
        if (flow->nw_frag & FLOW_NW_FRAG_ANY) {
            p->md.flags |= DP_PACKET_F_FRAG;
        } else {
            p->md.l4_csum = DP_CSUM_PARTIAL;
            dp_packet_tx_prepare(p, 0);
        }
    }
    return p;

error:
    dp_packet_free(p);
    return NULL;
}

/* The common case of flow_parse_offsets() and flow_parse_simple():
 * parses 'p' if it is Ethernet, up to two VLAN tags, IPv4 without options
 * or fragments or IPv6 without extension headers, then TCP or UDP, all in
 * the first segment, sets its offsets as flow_extract() would and returns
 * its TCP flags in host order, with the Ethernet type after the tags in
 * '*dl_type' and the outer tag's TCI with VLAN_CFI in '*tci' (0 without a
 * tag).  Returns -1, setting nothing, for any other packet. */
static inline int
parse_common(struct dp_packet *p, dps_be16 *dl_type, dps_be16 *tci)
{
    uint32_t size = dp_packet_size(p);
    uint32_t head = MIN(dp_packet_head_size(p), size);
    const uint8_t *data = dp_packet_data(p);
    struct dp_packet_md *md = &p->md;
    uint32_t ofs = ETH_HEADER_LEN;
    uint32_t end;
    uint8_t proto;

    if (head < ETH_HEADER_LEN) {
        return -1;
    }
    dps_be16 type = ((const struct eth_header *) data)->type;
    dps_be16 outer_tci = 0;
    for (int i = 0; i < 2 && (type == htons(ETH_TYPE_VLAN)
                              || type == htons(ETH_TYPE_VLAN_8021AD)); i++) {
        if (head < ofs + VLAN_HEADER_LEN) {
            return -1;
        }

        const struct vlan_header *vlan = (const void *) (data + ofs);
        if (!i) {
            outer_tci = vlan->tci | htons(VLAN_CFI);
        }
        type = vlan->next_type;
        ofs += VLAN_HEADER_LEN;
    }
    uint32_t l3 = ofs;
    if (type == htons(ETH_TYPE_IP) && head >= ofs + IPV4_HEADER_LEN) {
        const struct ipv4_header *ip = (const void *) (data + ofs);
        uint32_t tot_len = ntohs(ip->tot_len);

        if (ip->ver_ihl != 0x45 || tot_len < IPV4_HEADER_LEN
            || tot_len > size - ofs
            || ntohs(ip->frag_off) & (IPV4_MF | IPV4_FRAG_OFF_MASK)) {
            return -1;
        }
        end = ofs + tot_len;
        proto = ip->proto;
        ofs += IPV4_HEADER_LEN;
    } else if (type == htons(ETH_TYPE_IPV6)
               && head >= ofs + IPV6_HEADER_LEN) {
        const struct ipv6_header *ip6 = (const void *) (data + ofs);
        uint32_t payload_len = ntohs(ip6->payload_len);

        if ((ntohl(ip6->ver_tc_label) >> 28) != 6
            || payload_len > size - ofs - IPV6_HEADER_LEN) {
            return -1;
        }
        end = ofs + IPV6_HEADER_LEN + payload_len;
        proto = ip6->next;
        ofs += IPV6_HEADER_LEN;
    } else {
        return -1;
    }

    uint16_t tcp_flags = 0;
    if (proto == IPPROTO_TCP_) {
        if (end < ofs + TCP_HEADER_LEN || head < ofs + TCP_HEADER_LEN) {
            return -1;
        }
        const struct tcp_header *tcp = (const void *) (data + ofs);
        uint32_t doff = (ntohs(tcp->off_flags) >> 12) * 4u;
        if (doff < TCP_HEADER_LEN || doff > end - ofs) {
            return -1;
        }
        tcp_flags = ntohs(tcp->off_flags) & TCP_FLAGS_MASK;
    } else if (proto == IPPROTO_UDP_) {
        if (end < ofs + UDP_HEADER_LEN || head < ofs + UDP_HEADER_LEN) {
            return -1;
        }
    } else {
        return -1;
    }
    md->l2_ofs = 0;
    md->l3_ofs = l3;
    md->l4_ofs = ofs;
    md->l4_proto = proto;
    md->flags &= ~DP_PACKET_F_FRAG;
    *dl_type = type;
    *tci = outer_tci;
    return tcp_flags;
}

/* Does the work of flow_extract() and stores in '*touched' the words of
 * 'flow' that may be nonzero. */
static uint32_t
extract(struct dp_packet *p, struct flow *flow, uint64_t *touched)
{
    uint32_t size = dp_packet_size(p);
    uint32_t head = MIN(dp_packet_head_size(p), size);

    /* First look in the first segment alone: that is where the headers
     * are, almost always.  Only if they run past it, look again at a copy
     * of the first FLOW_MAX_HEADER_SIZE bytes. */
    uint32_t result = extract__(p, flow, dp_packet_data(p), head, touched);
    if ((result & FLOW_ERR_HDR_LIMIT) && head < size
        && head < FLOW_MAX_HEADER_SIZE) {
        uint8_t buf[FLOW_MAX_HEADER_SIZE];
        uint32_t window = MIN(size, FLOW_MAX_HEADER_SIZE);

        dp_packet_copy_out(p, 0, window, buf);
        result = extract__(p, flow, buf, window, touched);
    }
    return result;
}

/* Extracts 'p' into 'flow' looking only at the 'window' bytes at 'data',
 * the start of the packet, and stores in '*touched' the words of 'flow' it
 * wrote. */
static uint32_t
extract__(struct dp_packet *p, struct flow *flow, const uint8_t *data,
          uint32_t window, uint64_t *touched)
{
    struct dp_packet_md *md = &p->md;
    struct parser ps = {
        .data = data,
        .window = window,
        .size = dp_packet_size(p),
        .touched = 1,           /* Word 0: 'in_port' and 'recirc_id'. */
        .packet = p,
        .flow = flow,
    };

    /* An assignment rather than memset(): the compiler writes the words
     * inline instead of calling the library. */
    *flow = (struct flow) {
        .in_port = md->in_port,
        .recirc_id = md->recirc_id,
    };
    md->l2_ofs = md->l3_ofs = md->l4_ofs = DP_PACKET_OFS_NONE;
    md->l4_proto = 0;
    md->flags &= ~DP_PACKET_F_FRAG;

    const struct eth_header *eth = peek(&ps, 0, ETH_HEADER_LEN, ps.size);
    if (!eth) {
        *touched = ps.touched;
        return ps.result;
    }
    ps.result |= FLOW_PARSED_L2;
    md->l2_ofs = 0;
    flow->dl_dst = eth->dst;
    flow->dl_src = eth->src;
    FLOW_TOUCH(&ps, dl_dst);
    FLOW_TOUCH(&ps, dl_src);

    dps_be16 type = eth->type;
    uint32_t ofs = ETH_HEADER_LEN;
    for (int i = 0; i < 2; i++) {
        if (type != htons(ETH_TYPE_VLAN)
            && type != htons(ETH_TYPE_VLAN_8021AD)) {
            break;
        }

        const struct vlan_header *vlan = peek(&ps, ofs, VLAN_HEADER_LEN,
                                              ps.size);
        if (!vlan) {
            flow->dl_type = type;
            FLOW_TOUCH(&ps, dl_type);
            *touched = ps.touched;
            return ps.result;
        }
        ps.result |= FLOW_PARSED_VLAN;
        flow->vlan_tpid[i] = type;
        flow->vlan_tci[i] = vlan->tci | htons(VLAN_CFI);
        FLOW_TOUCH(&ps, vlan_tpid);
        FLOW_TOUCH(&ps, vlan_tci);
        type = vlan->next_type;
        ofs += VLAN_HEADER_LEN;
    }
    if (ntohs(type) < ETH_TYPE_MIN) {
        type = htons(ETH_TYPE_MIN - 1);
    }
    flow->dl_type = type;
    FLOW_TOUCH(&ps, dl_type);
    parse_l3(&ps, ofs, type);
    *touched = ps.touched;
    return ps.result;
}

/* Parses the header that follows the Ethernet header and VLAN tags. */
static void
parse_l3(struct parser *ps, uint32_t ofs, dps_be16 dl_type)
{
    if (dl_type == htons(ETH_TYPE_IP) || dl_type == htons(ETH_TYPE_IPV6)
        || dl_type == htons(ETH_TYPE_ARP)) {
        ps->packet->md.l3_ofs = ofs;
    }
    if (dl_type == htons(ETH_TYPE_IP)) {
        parse_ipv4(ps, ofs);
    } else if (dl_type == htons(ETH_TYPE_IPV6)) {
        parse_ipv6(ps, ofs);
    } else if (dl_type == htons(ETH_TYPE_ARP)) {
        parse_arp(ps, ofs);
    }
}

static void
parse_ipv4(struct parser *ps, uint32_t ofs)
{
    const struct ipv4_header *ip = peek(ps, ofs, IPV4_HEADER_LEN, ps->size);
    struct flow *flow = ps->flow;

    if (!ip) {
        return;
    }

    uint32_t ihl = ipv4_header_size(ip);
    uint32_t tot_len = ntohs(ip->tot_len);
    if ((ip->ver_ihl >> 4) != 4 || ihl < IPV4_HEADER_LEN || tot_len < ihl
        || tot_len > ps->size - ofs) {
        ps->result |= FLOW_ERR_BAD_L3;
        return;
    }

    /* Options, if any, must be there too; beyond 'end' is link padding. */
    uint32_t end = ofs + tot_len;
    if (!peek(ps, ofs, ihl, end)) {
        return;
    }

    ps->result |= FLOW_PARSED_L3;
    flow->nw_src = ip->src;
    flow->nw_dst = ip->dst;
    flow->nw_proto = ip->proto;
    flow->nw_tos = ip->tos;
    flow->nw_ttl = ip->ttl;
    FLOW_TOUCH(ps, nw_src);
    FLOW_TOUCH(ps, nw_dst);
    FLOW_TOUCH(ps, nw_proto);   /* The same word as 'nw_tos', 'nw_ttl' and
                                 * 'nw_frag'. */

    uint16_t frag_off = ntohs(ip->frag_off);
    if (frag_off & (IPV4_MF | IPV4_FRAG_OFF_MASK)) {
        flow->nw_frag = FLOW_NW_FRAG_ANY;
        ps->packet->md.flags |= DP_PACKET_F_FRAG;
        if (frag_off & IPV4_FRAG_OFF_MASK) {
            flow->nw_frag |= FLOW_NW_FRAG_LATER;
            return;
        }
    }
    parse_l4(ps, ofs + ihl, end, ip->proto, false);
}

static void
parse_ipv6(struct parser *ps, uint32_t ofs)
{
    const struct ipv6_header *ip6 = peek(ps, ofs, IPV6_HEADER_LEN, ps->size);
    struct flow *flow = ps->flow;

    if (!ip6) {
        return;
    }

    uint32_t vtl = ntohl(ip6->ver_tc_label);
    uint32_t payload_len = ntohs(ip6->payload_len);
    if ((vtl >> 28) != 6 || payload_len > ps->size - ofs - IPV6_HEADER_LEN) {
        ps->result |= FLOW_ERR_BAD_L3;
        return;
    }

    ps->result |= FLOW_PARSED_L3;
    flow->ipv6_src = ip6->src;
    flow->ipv6_dst = ip6->dst;
    flow->ipv6_label = htonl(vtl & IPV6_LABEL_MASK);
    flow->nw_tos = vtl >> 20;
    flow->nw_ttl = ip6->hlimit;
    FLOW_TOUCH(ps, ipv6_src);
    FLOW_TOUCH(ps, ipv6_dst);
    FLOW_TOUCH(ps, ipv6_label); /* With 'nw_proto', 'nw_tos', 'nw_ttl' and
                                 * 'nw_frag'. */

    /* Walk the extension headers.  'nw_proto' ends up as the first header
     * not walked through: the L4 protocol when all goes well. */
    uint32_t end = ofs + IPV6_HEADER_LEN + payload_len;
    uint8_t next = ip6->next;
    ofs += IPV6_HEADER_LEN;
    for (int n_ext = 0; ; n_ext++) {
        flow->nw_proto = next;
        if (next != IPPROTO_HOPOPTS_ && next != IPPROTO_ROUTING_
            && next != IPPROTO_DSTOPTS_ && next != IPPROTO_AH_
            && next != IPPROTO_FRAGMENT_) {
            break;
        }
        if (n_ext >= FLOW_MAX_IPV6_EXT) {
            ps->result |= FLOW_ERR_EXT_LIMIT;
            return;
        }

        const struct ipv6_ext_header *ext = peek(ps, ofs, 2, end);
        if (!ext) {
            return;
        }
        if (next == IPPROTO_FRAGMENT_) {
            const struct ipv6_frag_header *fh;

            fh = peek(ps, ofs, IPV6_FRAG_HEADER_LEN, end);
            if (!fh) {
                return;
            }
            flow->nw_frag = FLOW_NW_FRAG_ANY;
            ps->packet->md.flags |= DP_PACKET_F_FRAG;
            next = fh->next;
            ofs += IPV6_FRAG_HEADER_LEN;
            if (ntohs(fh->off_flags) & IPV6_FRAG_OFF_MASK) {
                flow->nw_frag |= FLOW_NW_FRAG_LATER;
                flow->nw_proto = next;
                return;
            }
        } else {
            uint32_t len = (next == IPPROTO_AH_
                            ? (ext->len + 2u) * 4u : (ext->len + 1u) * 8u);
            if (!peek(ps, ofs, len, end)) {
                return;
            }
            next = ext->next;
            ofs += len;
        }
    }
    parse_l4(ps, ofs, end, next, true);
}

static void
parse_arp(struct parser *ps, uint32_t ofs)
{
    const struct arp_eth_header *arp = peek(ps, ofs, ARP_ETH_HEADER_LEN,
                                            ps->size);
    struct flow *flow = ps->flow;

    if (arp && arp->htype == htons(ARP_HTYPE_ETH)
        && arp->ptype == htons(ETH_TYPE_IP)
        && arp->hlen == ETH_ADDR_LEN && arp->plen == 4) {
        ps->result |= FLOW_PARSED_L3;
        flow->arp_op = arp->op;
        flow->nw_src = arp->spa;
        flow->nw_dst = arp->tpa;
        flow->arp_sha = arp->sha;
        flow->arp_tha = arp->tha;
        FLOW_TOUCH(ps, arp_op);
        FLOW_TOUCH(ps, nw_src);
        FLOW_TOUCH(ps, nw_dst);
        FLOW_TOUCH(ps, arp_sha);
        FLOW_TOUCH(ps, arp_tha);
    }
}

/* Parses the L4 header of protocol 'proto' at 'ofs', which must end by
 * 'end' (the end of the IP payload). */
static void
parse_l4(struct parser *ps, uint32_t ofs, uint32_t end, uint8_t proto,
         bool is_ipv6)
{
    struct flow *flow = ps->flow;

    switch (proto) {
    case IPPROTO_TCP_: {
        const struct tcp_header *tcp = peek(ps, ofs, TCP_HEADER_LEN, end);
        if (!tcp) {
            return;
        }

        uint32_t doff = (ntohs(tcp->off_flags) >> 12) * 4u;
        if (doff < TCP_HEADER_LEN || doff > end - ofs) {
            ps->result |= FLOW_ERR_BAD_L4;
            return;
        }
        flow->tp_src = tcp->src;
        flow->tp_dst = tcp->dst;
        flow->tcp_flags = tcp->off_flags & htons(TCP_FLAGS_MASK);
        break;
    }
    case IPPROTO_UDP_: {
        const struct udp_header *udp = peek(ps, ofs, UDP_HEADER_LEN, end);
        if (!udp) {
            return;
        }
        flow->tp_src = udp->src;
        flow->tp_dst = udp->dst;
        break;
    }
    case IPPROTO_SCTP_: {
        const struct sctp_header *sctp = peek(ps, ofs, SCTP_HEADER_LEN, end);
        if (!sctp) {
            return;
        }
        flow->tp_src = sctp->src;
        flow->tp_dst = sctp->dst;
        break;
    }
    case IPPROTO_ICMP_: {
        const struct icmp_header *icmp;

        if (is_ipv6 || !(icmp = peek(ps, ofs, ICMP_HEADER_LEN, end))) {
            return;
        }
        flow->tp_src = htons(icmp->type);
        flow->tp_dst = htons(icmp->code);
        break;
    }
    case IPPROTO_ICMPV6_: {
        const struct icmpv6_header *icmp6;

        if (!is_ipv6 || !(icmp6 = peek(ps, ofs, ICMPV6_HEADER_LEN, end))) {
            return;
        }
        flow->tp_src = htons(icmp6->type);
        flow->tp_dst = htons(icmp6->code);
        if ((icmp6->type == ND_NEIGHBOR_SOLICIT
             || icmp6->type == ND_NEIGHBOR_ADVERT) && !icmp6->code) {
            parse_nd(ps, ofs, end);
        }
        break;
    }
    default:
        return;
    }

    ps->result |= FLOW_PARSED_L4;
    FLOW_TOUCH(ps, tp_src);     /* With 'tp_dst' and 'tcp_flags'. */
    ps->packet->md.l4_ofs = ofs;
    ps->packet->md.l4_proto = proto;
}

/* Parses a neighbor solicitation or advertisement at 'ofs': the target and
 * the link-layer address options.  A malformed message (an option of length
 * 0 or past the end, a link-layer option twice) leaves no ND field set. */
static void
parse_nd(struct parser *ps, uint32_t ofs, uint32_t end)
{
    const struct nd_msg *msg = peek(ps, ofs, ND_MSG_LEN, end);
    struct flow *flow = ps->flow;

    if (!msg) {
        return;
    }
    flow->nd_target = msg->target;
    FLOW_TOUCH(ps, nd_target);
    FLOW_TOUCH(ps, arp_sha);
    FLOW_TOUCH(ps, arp_tha);
    for (ofs += ND_MSG_LEN; ofs < end; ) {
        const struct nd_opt_header *opt = peek(ps, ofs, 2, end);
        uint32_t len = opt ? opt->len * 8u : 0;

        if (!len || !peek(ps, ofs, len, end)) {
            goto invalid;
        }
        if (len == 8 && (opt->type == ND_OPT_SOURCE_LL
                         || opt->type == ND_OPT_TARGET_LL)) {
            struct eth_addr *ll = (opt->type == ND_OPT_SOURCE_LL
                                   ? &flow->arp_sha : &flow->arp_tha);
            static const struct eth_addr zero;

            if (memcmp(ll, &zero, sizeof zero)) {
                goto invalid;
            }
            memcpy(ll, (const uint8_t *) opt + 2, ETH_ADDR_LEN);
        }
        ofs += len;
    }
    ps->result |= FLOW_PARSED_ND;
    return;

invalid:
    ps->result |= FLOW_ERR_BAD_L4;
    memset(&flow->nd_target, 0, sizeof flow->nd_target);
    memset(&flow->arp_sha, 0, sizeof flow->arp_sha);
    memset(&flow->arp_tha, 0, sizeof flow->arp_tha);
}

/* Returns the 'n' bytes at 'ofs', which must end by 'end', or NULL, noting
 * why, if they are not all there. */
static const void *
peek(struct parser *ps, uint32_t ofs, uint32_t n, uint32_t end)
{
    if (ofs <= end && n <= end - ofs) {
        if (ofs <= ps->window && n <= ps->window - ofs) {
            return ps->data + ofs;
        }
        ps->result |= FLOW_ERR_HDR_LIMIT;
        return NULL;
    }
    ps->result |= FLOW_ERR_TRUNCATED;
    return NULL;
}

/* Mixes 'word' into 'hash'. */
static inline uint32_t
hash_word(uint32_t hash, uint64_t word)
{
#ifdef __SSE4_2__
    return (uint32_t) _mm_crc32_u64(hash, word);
#else
    uint64_t x = (word ^ hash) * UINT64_C(0x9e3779b97f4a7c15);
    return (uint32_t) (x >> 32) ^ (uint32_t) x;
#endif
}
