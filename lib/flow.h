/* Flow keys: what the datapath matches on, extracted from packets.
 *
 * 'struct flow' is the full key, laid out in FLOW_N_WORDS 64-bit words.
 * 'struct flow_key' is its compact form: a bitmap of the words that are not
 * zero and those words alone, in order.  A mask is a flow_key too (its words
 * hold the bits that matter), so a masked hash or comparison touches only
 * the words the mask uses.
 *
 * Extraction (flow_extract()) never reads past the packet, nor past the IP
 * total or payload length (link padding is ignored); it returns what it
 * could parse and what stopped it.  A header it cannot parse leaves its
 * fields, and those of every later header, zero.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef FLOW_H
#define FLOW_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct dp_packet;
struct rte_mempool;

/* Values of 'nw_frag'. */
#define FLOW_NW_FRAG_ANY   0x1  /* Any fragment, first or later. */
#define FLOW_NW_FRAG_LATER 0x2  /* Not the first fragment: no L4 header. */

/* Extension headers extraction walks through before it gives up. */
#define FLOW_MAX_IPV6_EXT 8

/* The full key.  Field order is the word layout; keep each word's fields
 * together and the size a multiple of 8. */
struct flow {
    /* Word 0: metadata. */
    uint32_t in_port;
    uint32_t recirc_id;

    /* Words 1-2: Ethernet. */
    struct eth_addr dl_dst;
    struct eth_addr dl_src;
    dps_be16 dl_type;           /* 0x05ff for 802.3 frames (no type). */
    uint8_t pad1[2];

    /* Word 3: up to two VLAN tags, outer first.  A present tag has
     * VLAN_CFI set in its TCI; an absent one is all zero. */
    dps_be16 vlan_tpid[2];
    dps_be16 vlan_tci[2];

    /* Word 4: IPv4 addresses, or ARP protocol addresses. */
    dps_be32 nw_src;
    dps_be32 nw_dst;

    /* Words 5-8: IPv6 addresses. */
    struct ipv6_addr ipv6_src;
    struct ipv6_addr ipv6_dst;

    /* Word 9. */
    dps_be32 ipv6_label;        /* Low 20 bits. */
    uint8_t nw_proto;           /* IP protocol or IPv6 last next header. */
    uint8_t nw_tos;             /* IPv4 TOS or IPv6 traffic class. */
    uint8_t nw_ttl;             /* IPv4 TTL or IPv6 hop limit. */
    uint8_t nw_frag;            /* FLOW_NW_FRAG_*. */

    /* Words 10-11: ND target. */
    struct ipv6_addr nd_target;

    /* Words 12-13: ARP hardware addresses, or ND link-layer options. */
    struct eth_addr arp_sha;    /* ND: source link-layer address. */
    struct eth_addr arp_tha;    /* ND: target link-layer address. */
    dps_be16 arp_op;
    uint8_t pad2[2];

    /* Word 14: L4. */
    dps_be16 tp_src;            /* Port, or ICMP/ICMPv6 type. */
    dps_be16 tp_dst;            /* Port, or ICMP/ICMPv6 code. */
    dps_be16 tcp_flags;         /* Low 12 bits. */
    uint8_t pad3[2];
};

/* In a mask, pad1[0] set to FLOW_MASK_META_EXACT says that the flow also
 * matches exactly the packet metadata Open vSwitch's datapath has and this
 * one does not (skb_priority, skb_mark, the conntrack state, zone, mark and
 * label, dp_hash), which is always zero here: an exact-match flow made
 * under upcall/disable-megaflows.  It changes only how the flow prints
 * (the key's pad is always zero, so the match is the same). */
#define FLOW_MASK_META_EXACT 0xff

/* In a mask, pad1[1] set to FLOW_MASK_PACKET_TYPE_WILD says that the flow
 * does not match the packet type: one "ovs-appctl dpctl/add-flow" put
 * without packet_type(), which Open vSwitch prints without it and with
 * "eth()" even when no Ethernet field is matched.  Like the flag above, it
 * changes only how the flow prints (every packet here is Ethernet). */
#define FLOW_MASK_PACKET_TYPE_WILD 0xff

static inline bool
flow_mask_meta_exact(const struct flow *mask)
{
    return mask->pad1[0] == FLOW_MASK_META_EXACT;
}

static inline bool
flow_mask_packet_type_wild(const struct flow *mask)
{
    return mask->pad1[1] == FLOW_MASK_PACKET_TYPE_WILD;
}

#define FLOW_N_WORDS (sizeof(struct flow) / 8)
_Static_assert(sizeof(struct flow) == 15 * 8, "struct flow layout");
_Static_assert(FLOW_N_WORDS <= 64, "flow_key map is 64 bits");

/* The compact key: 'map' bit i says word i of struct flow is present (not
 * zero), and 'words' holds the present words in order.  Only the first
 * popcount(map) words of 'words' mean anything. */
struct flow_key {
    uint64_t map;
    uint64_t words[FLOW_N_WORDS];
};

/* What extraction parsed (FLOW_PARSED_*) and what stopped it (FLOW_ERR_*),
 * as a bit set. */
enum flow_parse_result {
    FLOW_PARSED_L2 = 1 << 0,        /* Ethernet header. */
    FLOW_PARSED_VLAN = 1 << 1,      /* At least one VLAN tag. */
    FLOW_PARSED_L3 = 1 << 2,        /* IPv4, IPv6 or ARP header. */
    FLOW_PARSED_L4 = 1 << 3,        /* TCP, UDP, SCTP, ICMP or ICMPv6. */
    FLOW_PARSED_ND = 1 << 4,        /* Neighbor discovery message. */
    FLOW_ERR_TRUNCATED = 1 << 8,    /* A header ends past the packet. */
    FLOW_ERR_BAD_L3 = 1 << 9,       /* IHL < 5, lengths that lie, version. */
    FLOW_ERR_BAD_L4 = 1 << 10,      /* TCP offset < 5, bad ND options. */
    FLOW_ERR_EXT_LIMIT = 1 << 11,   /* Over FLOW_MAX_IPV6_EXT headers. */
    FLOW_ERR_HDR_LIMIT = 1 << 12,   /* Headers past what is examined. */
};

/* Bytes of a chained packet whose headers run past its first segment that
 * extraction copies to examine.  Otherwise it examines the first segment in
 * place. */
#define FLOW_MAX_HEADER_SIZE 512

uint32_t flow_extract(struct dp_packet *, struct flow *);
uint32_t flow_extract_key(struct dp_packet *, struct flow_key *);
uint16_t flow_parse_offsets(struct dp_packet *);
uint32_t flow_parse_simple(struct dp_packet *, uint16_t *tcp_flags);
static inline uint32_t flow_simple_pack(dps_be16 dl_type, dps_be16 vlan_tci,
                                        uint8_t nw_frag);

/* Compact keys. */
void flow_key_from_flow(struct flow_key *, const struct flow *);
void flow_key_to_flow(const struct flow_key *, struct flow *);
uint64_t flow_key_get_word(const struct flow_key *, unsigned int index);
bool flow_key_equal(const struct flow_key *, const struct flow_key *);
uint32_t flow_key_hash(const struct flow_key *, uint32_t basis);
uint32_t flow_key_hash_masked(const struct flow_key *,
                              const struct flow_key *mask, uint32_t basis);
bool flow_key_equal_masked(const struct flow_key *, const struct flow_key *,
                           const struct flow_key *mask);
void flow_key_apply_mask(struct flow_key *dst, const struct flow_key *,
                         const struct flow_key *mask);
static inline unsigned int flow_key_n_words(const struct flow_key *);

/* Packets from keys. */
struct dp_packet *flow_compose(struct rte_mempool *, const struct flow *,
                               size_t l4_payload_size);

/* The bits of the outer VLAN TCI a simple-match flow may match. */
#define FLOW_SIMPLE_TCI_BITS (VLAN_VID_MASK | VLAN_CFI)

/* Packs the fields a simple-match datapath flow matches (Open vSwitch's
 * "simple match": the Ethernet type, the outer VLAN tag's VID and CFI bits
 * and the IP fragment bits; the input port apart) into 32 bits, the same
 * way for a packet's values and for a mask's, so that a packet matches a
 * flow when its packed values ANDed with the flow's packed mask equal the
 * flow's packed values.  The VLAN priority bits are left out. */
static inline uint32_t
flow_simple_pack(dps_be16 dl_type, dps_be16 vlan_tci, uint8_t nw_frag)
{
    return ((uint32_t) ntohs(dl_type) << 16
            | (uint32_t) (ntohs(vlan_tci) & FLOW_SIMPLE_TCI_BITS) << 2
            | (nw_frag & (FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER)));
}

static inline unsigned int
flow_key_n_words(const struct flow_key *key)
{
    return __builtin_popcountll(key->map);
}

#endif /* flow.h */
