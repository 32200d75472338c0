/* OpenFlow matches: the flow as OpenFlow sees it, and a flow with a mask.
 *
 * 'struct match_flow' is what an OpenFlow table matches on: the datapath
 * key (lib/flow.h's 'struct flow', whose header fields keep their network
 * byte order) plus what only the OpenFlow pipeline carries: the OpenFlow
 * input port, the metadata field and the registers reg0 to reg15 (xreg N is
 * reg 2N in its high 32 bits and reg 2N+1 in its low ones, as in Open
 * vSwitch).  Its size is a whole number of 64-bit words, MATCH_FLOW_N_WORDS,
 * so that the classifier can hash and compare it word by word.
 *
 * In the embedded datapath key, 'dp.in_port' is the datapath port number
 * and 'dp.recirc_id' the recirculation id.  OpenFlow never matches
 * 'dp.in_port' (it matches 'in_port', the OpenFlow number); translation
 * fills both.
 *
 * Byte order: every field is in network byte order except 'in_port',
 * 'dp.in_port', 'dp.recirc_id', 'metadata' and 'regs', which are in host
 * order.  The OpenFlow input port is kept in OpenFlow 1.0's 16-bit space
 * (MATCH_OFPP_LOCAL is 0xfffe, as Open vSwitch keeps it); the wire code
 * converts OpenFlow 1.1+'s 32-bit numbers.
 *
 * 'struct match' is a flow and a mask of the same type, whose 1-bits are
 * the bits that must equal the flow's.  Every setter keeps the invariant
 * (flow & mask) == flow, so two matches are equal exactly when their bytes
 * are.  Setters do not check prerequisites (a TCP port without
 * ip,nw_proto=6); match_check_prereqs() does, as Open vSwitch does when it
 * decodes a flow_mod.
 *
 * Fields by number.  'enum match_field_id' lists every field that OpenFlow
 * can match or set, with where it lives in 'struct match_flow'
 * (match_field_info()), so that the wire code (OXM/NXM) and the actions
 * that set or move fields address them the same way.  A field's value, as
 * match_field_get() and match_field_set() take it, is 'n_bytes' bytes in
 * network byte order, right-aligned (vlan_pcp is one byte with the PCP in
 * its low 3 bits; in_port two bytes; metadata eight).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef MATCH_H
#define MATCH_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"
#include "packets.h"

struct ds;

#define MATCH_N_REGS 16
#define MATCH_N_XREGS (MATCH_N_REGS / 2)

/* Reserved OpenFlow 1.0 port numbers, the ones 'in_port' and outputs use. */
#define MATCH_OFPP_MAX        0xff00
#define MATCH_OFPP_IN_PORT    0xfff8
#define MATCH_OFPP_TABLE      0xfff9
#define MATCH_OFPP_NORMAL     0xfffa
#define MATCH_OFPP_FLOOD      0xfffb
#define MATCH_OFPP_ALL        0xfffc
#define MATCH_OFPP_CONTROLLER 0xfffd
#define MATCH_OFPP_LOCAL      0xfffe
#define MATCH_OFPP_NONE       0xffff

struct match_flow {
    struct flow dp;                     /* Words 0-14: the datapath key. */
    uint64_t metadata;                  /* Word 15. */
    uint32_t regs[MATCH_N_REGS];        /* Words 16-23. */
    uint32_t in_port;                   /* Word 24: OpenFlow input port. */
    uint32_t pad;                       /* Always zero. */
};

#define MATCH_FLOW_N_WORDS (sizeof(struct match_flow) / 8)
_Static_assert(sizeof(struct match_flow) == 25 * 8, "match_flow layout");

struct match {
    struct match_flow flow;
    struct match_flow mask;     /* 1-bits: must match 'flow'. */
};

/* Prerequisites: what a field needs the rest of the match to say
 * (Open vSwitch's rules).  "ip" is dl_type 0x0800 or 0x86dd. */
enum match_prereq {
    MATCH_PREREQ_NONE,
    MATCH_PREREQ_VLAN,          /* A VLAN tag is present (vlan_tci CFI). */
    MATCH_PREREQ_ARP,           /* dl_type=0x0806. */
    MATCH_PREREQ_IPV4,          /* dl_type=0x0800. */
    MATCH_PREREQ_IPV6,          /* dl_type=0x86dd. */
    MATCH_PREREQ_IP_ANY,        /* IPv4 or IPv6. */
    MATCH_PREREQ_IPV4_ARP,      /* IPv4 or ARP (nw_src/nw_dst). */
    MATCH_PREREQ_TCP,           /* IP and nw_proto=6. */
    MATCH_PREREQ_UDP,           /* IP and nw_proto=17. */
    MATCH_PREREQ_SCTP,          /* IP and nw_proto=132. */
    MATCH_PREREQ_ICMPV4,        /* IPv4 and nw_proto=1. */
    MATCH_PREREQ_ICMPV6,        /* IPv6 and nw_proto=58. */
    MATCH_PREREQ_ND,            /* ICMPv6 and icmp_type 135 or 136. */
    MATCH_PREREQ_ND_SOLICIT,    /* ICMPv6 and icmp_type=135. */
    MATCH_PREREQ_ND_ADVERT,     /* ICMPv6 and icmp_type=136. */
};

/* Every field by number.  MATCH_F_REG0 + i is reg i, MATCH_F_XREG0 + i is
 * xreg i. */
enum match_field_id {
    MATCH_F_IN_PORT,            /* 16 bits, OpenFlow 1.0 space. */
    MATCH_F_METADATA,           /* 64 bits. */
    MATCH_F_REG0,
    MATCH_F_REG15 = MATCH_F_REG0 + MATCH_N_REGS - 1,
    MATCH_F_XREG0,
    MATCH_F_XREG7 = MATCH_F_XREG0 + MATCH_N_XREGS - 1,
    MATCH_F_ETH_SRC,            /* dl_src. */
    MATCH_F_ETH_DST,            /* dl_dst. */
    MATCH_F_ETH_TYPE,           /* dl_type. */
    MATCH_F_VLAN_TCI,           /* 16 bits: PCP, CFI (present), VID. */
    MATCH_F_DL_VLAN,            /* 12 bits: the VID (OpenFlow 1.0). */
    MATCH_F_VLAN_VID,           /* 13 bits: OFPVID_PRESENT (0x1000) | VID. */
    MATCH_F_VLAN_PCP,           /* 3 bits. */
    MATCH_F_IP_PROTO,           /* nw_proto, 8 bits. */
    MATCH_F_IP_DSCP,            /* 6 bits, as OXM (nw_tos >> 2). */
    MATCH_F_NW_TOS,             /* 8 bits: DSCP << 2, as NXM's nw_tos. */
    MATCH_F_IP_ECN,             /* 2 bits. */
    MATCH_F_NW_TTL,             /* 8 bits. */
    MATCH_F_IP_FRAG,            /* 2 bits: FLOW_NW_FRAG_*. */
    MATCH_F_IPV4_SRC,           /* nw_src. */
    MATCH_F_IPV4_DST,           /* nw_dst. */
    MATCH_F_IPV6_SRC,
    MATCH_F_IPV6_DST,
    MATCH_F_IPV6_LABEL,         /* 20 bits. */
    MATCH_F_ARP_OP,             /* 16 bits (OXM has 16). */
    MATCH_F_ARP_SPA,            /* In nw_src. */
    MATCH_F_ARP_TPA,            /* In nw_dst. */
    MATCH_F_ARP_SHA,
    MATCH_F_ARP_THA,
    MATCH_F_TCP_SRC,
    MATCH_F_TCP_DST,
    MATCH_F_TCP_FLAGS,          /* 12 bits. */
    MATCH_F_UDP_SRC,
    MATCH_F_UDP_DST,
    MATCH_F_SCTP_SRC,
    MATCH_F_SCTP_DST,
    MATCH_F_ICMPV4_TYPE,        /* 8 bits, in tp_src. */
    MATCH_F_ICMPV4_CODE,        /* 8 bits, in tp_dst. */
    MATCH_F_ICMPV6_TYPE,
    MATCH_F_ICMPV6_CODE,
    MATCH_F_ND_TARGET,
    MATCH_F_ND_SLL,             /* In arp_sha. */
    MATCH_F_ND_TLL,             /* In arp_tha. */
    MATCH_N_FIELDS
};

/* Where a field lives: 'n_bits' bits at bit 'shift' (from the least
 * significant) of the big-endian (or, for the host-order fields, host
 * integer) container of 'container_size' bytes at byte 'offset' of
 * 'struct match_flow'. */
struct match_field {
    enum match_field_id id;
    const char *name;           /* Open vSwitch's field name ("eth_src"). */
    uint16_t offset;
    uint8_t container_size;     /* 1, 2, 4, 6, 8 or 16 bytes. */
    uint8_t shift;
    uint8_t n_bits;
    uint8_t n_bytes;            /* Value size: DIV_ROUND_UP(n_bits, 8). */
    bool host_order;            /* in_port, metadata, regs. */
    bool maskable;              /* Arbitrary bitwise masks allowed. */
    bool writable;              /* set_field/load/move may write it. */
    enum match_prereq prereq;
};

/* A field's value or mask: up to 16 bytes, right-aligned, big-endian. */
union match_value {
    uint8_t u8[16];
    dps_be16 be16;
    dps_be32 be32;
    struct eth_addr mac;
    struct ipv6_addr ipv6;
};

/* The field table. */
const struct match_field *match_field_info(enum match_field_id);
const struct match_field *match_field_by_name(const char *name);
void match_field_get(const struct match_field *, const struct match_flow *,
                     union match_value *);
void match_field_set_flow(const struct match_field *,
                          const union match_value *, struct match_flow *);
void match_field_set(const struct match_field *, const union match_value *,
                     const union match_value *mask, struct match *);
void match_field_get_mask(const struct match_field *, const struct match *,
                          union match_value *);
bool match_field_prereqs_ok(const struct match_field *, const struct match *);
bool match_check_prereqs(const struct match *, enum match_field_id *bad);

/* Building. */
void match_flow_from_dp(struct match_flow *, const struct flow *dp_key,
                        uint32_t of_in_port);
void match_init_catchall(struct match *);
void match_init_exact(struct match *, const struct match_flow *);
void match_normalize(struct match *);

void match_set_in_port(struct match *, uint32_t ofp_port);
void match_set_metadata_masked(struct match *, uint64_t value, uint64_t mask);
void match_set_reg_masked(struct match *, unsigned int reg,
                          uint32_t value, uint32_t mask);
void match_set_xreg_masked(struct match *, unsigned int xreg,
                           uint64_t value, uint64_t mask);
void match_set_dl_type(struct match *, dps_be16);
void match_set_dl_src_masked(struct match *, struct eth_addr,
                             struct eth_addr mask);
void match_set_dl_dst_masked(struct match *, struct eth_addr,
                             struct eth_addr mask);
void match_set_dl_tci_masked(struct match *, dps_be16 tci, dps_be16 mask);
void match_set_dl_vlan(struct match *, dps_be16 vid_or_ffff);
void match_set_vlan_vid_masked(struct match *, dps_be16 vid, dps_be16 mask);
void match_set_dl_vlan_pcp(struct match *, uint8_t pcp);
void match_set_nw_proto(struct match *, uint8_t);
void match_set_nw_dscp(struct match *, uint8_t dscp_shifted);
void match_set_nw_ecn(struct match *, uint8_t);
void match_set_nw_ttl(struct match *, uint8_t);
void match_set_nw_frag_masked(struct match *, uint8_t frag, uint8_t mask);
void match_set_nw_src_masked(struct match *, dps_be32, dps_be32 mask);
void match_set_nw_dst_masked(struct match *, dps_be32, dps_be32 mask);
void match_set_ipv6_src_masked(struct match *, const struct ipv6_addr *,
                               const struct ipv6_addr *mask);
void match_set_ipv6_dst_masked(struct match *, const struct ipv6_addr *,
                               const struct ipv6_addr *mask);
void match_set_ipv6_label_masked(struct match *, dps_be32, dps_be32 mask);
void match_set_arp_op(struct match *, dps_be16);
void match_set_arp_sha_masked(struct match *, struct eth_addr,
                              struct eth_addr mask);
void match_set_arp_tha_masked(struct match *, struct eth_addr,
                              struct eth_addr mask);
void match_set_tp_src_masked(struct match *, dps_be16, dps_be16 mask);
void match_set_tp_dst_masked(struct match *, dps_be16, dps_be16 mask);
void match_set_tcp_flags_masked(struct match *, dps_be16, dps_be16 mask);
void match_set_nd_target_masked(struct match *, const struct ipv6_addr *,
                                const struct ipv6_addr *mask);

/* Questions. */
bool match_equal(const struct match *, const struct match *);
uint32_t match_hash(const struct match *, uint32_t basis);
bool match_is_catchall(const struct match *);
bool match_matches_flow(const struct match *, const struct match_flow *);
bool match_mask_is_subset(const struct match_flow *a,
                          const struct match_flow *b);

/* Word access, for the classifier. */
static inline const uint64_t *
match_flow_words(const struct match_flow *flow)
{
    return (const uint64_t *) flow;
}

static inline uint64_t *
match_flow_words_rw(struct match_flow *flow)
{
    return (uint64_t *) flow;
}

#endif /* match.h */
