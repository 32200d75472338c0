/* OpenFlow matches (see match.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "match.h"

#include <arpa/inet.h>
#include <string.h>
#include "util.h"

#define MF_OFS(FIELD) ((uint16_t) offsetof(struct match_flow, FIELD))

/* Table rows: id, name, where (offset, container size, shift, bits), host
 * order, maskable, writable, prerequisite. */
#define F(ID, NAME, FIELD, CSIZE, SHIFT, BITS, HOST, MASKABLE, WRITABLE, \
          PREREQ)                                                       \
    [ID] = { ID, NAME, MF_OFS(FIELD), CSIZE, SHIFT, BITS,               \
             (BITS + 7) / 8, HOST, MASKABLE, WRITABLE, PREREQ }
#define REG(N) F(MATCH_F_REG0 + N, "reg" #N, regs[N], 4, 0, 32,         \
                 true, true, true, MATCH_PREREQ_NONE)
#define XREG(N) F(MATCH_F_XREG0 + N, "xreg" #N, regs[2 * N], 8, 0, 64,  \
                  true, true, true, MATCH_PREREQ_NONE)

static const struct match_field fields[MATCH_N_FIELDS] = {
    F(MATCH_F_IN_PORT, "in_port", in_port, 4, 0, 16, true, false, true,
      MATCH_PREREQ_NONE),
    F(MATCH_F_METADATA, "metadata", metadata, 8, 0, 64, true, true, true,
      MATCH_PREREQ_NONE),
    REG(0), REG(1), REG(2), REG(3), REG(4), REG(5), REG(6), REG(7),
    REG(8), REG(9), REG(10), REG(11), REG(12), REG(13), REG(14), REG(15),
    XREG(0), XREG(1), XREG(2), XREG(3), XREG(4), XREG(5), XREG(6), XREG(7),
    F(MATCH_F_ETH_SRC, "eth_src", dp.dl_src, 6, 0, 48, false, true, true,
      MATCH_PREREQ_NONE),
    F(MATCH_F_ETH_DST, "eth_dst", dp.dl_dst, 6, 0, 48, false, true, true,
      MATCH_PREREQ_NONE),
    F(MATCH_F_ETH_TYPE, "eth_type", dp.dl_type, 2, 0, 16, false, false,
      false, MATCH_PREREQ_NONE),
    F(MATCH_F_VLAN_TCI, "vlan_tci", dp.vlan_tci[0], 2, 0, 16, false, true,
      true, MATCH_PREREQ_NONE),
    F(MATCH_F_DL_VLAN, "dl_vlan", dp.vlan_tci[0], 2, 0, 12, false, false,
      true, MATCH_PREREQ_NONE),
    F(MATCH_F_VLAN_VID, "vlan_vid", dp.vlan_tci[0], 2, 0, 13, false, true,
      true, MATCH_PREREQ_NONE),
    F(MATCH_F_VLAN_PCP, "vlan_pcp", dp.vlan_tci[0], 2, 13, 3, false, false,
      true, MATCH_PREREQ_VLAN),
    F(MATCH_F_IP_PROTO, "nw_proto", dp.nw_proto, 1, 0, 8, false, false,
      false, MATCH_PREREQ_IP_ANY),
    F(MATCH_F_IP_DSCP, "ip_dscp", dp.nw_tos, 1, 2, 6, false, false, true,
      MATCH_PREREQ_IP_ANY),
    F(MATCH_F_NW_TOS, "nw_tos", dp.nw_tos, 1, 0, 8, false, false, true,
      MATCH_PREREQ_IP_ANY),
    F(MATCH_F_IP_ECN, "nw_ecn", dp.nw_tos, 1, 0, 2, false, false, true,
      MATCH_PREREQ_IP_ANY),
    F(MATCH_F_NW_TTL, "nw_ttl", dp.nw_ttl, 1, 0, 8, false, false, true,
      MATCH_PREREQ_IP_ANY),
    F(MATCH_F_IP_FRAG, "ip_frag", dp.nw_frag, 1, 0, 2, false, true, false,
      MATCH_PREREQ_IP_ANY),
    F(MATCH_F_IPV4_SRC, "ip_src", dp.nw_src, 4, 0, 32, false, true, true,
      MATCH_PREREQ_IPV4),
    F(MATCH_F_IPV4_DST, "ip_dst", dp.nw_dst, 4, 0, 32, false, true, true,
      MATCH_PREREQ_IPV4),
    F(MATCH_F_IPV6_SRC, "ipv6_src", dp.ipv6_src, 16, 0, 128, false, true,
      true, MATCH_PREREQ_IPV6),
    F(MATCH_F_IPV6_DST, "ipv6_dst", dp.ipv6_dst, 16, 0, 128, false, true,
      true, MATCH_PREREQ_IPV6),
    F(MATCH_F_IPV6_LABEL, "ipv6_label", dp.ipv6_label, 4, 0, 20, false,
      true, true, MATCH_PREREQ_IPV6),
    F(MATCH_F_ARP_OP, "arp_op", dp.arp_op, 2, 0, 16, false, false, true,
      MATCH_PREREQ_ARP),
    F(MATCH_F_ARP_SPA, "arp_spa", dp.nw_src, 4, 0, 32, false, true, true,
      MATCH_PREREQ_ARP),
    F(MATCH_F_ARP_TPA, "arp_tpa", dp.nw_dst, 4, 0, 32, false, true, true,
      MATCH_PREREQ_ARP),
    F(MATCH_F_ARP_SHA, "arp_sha", dp.arp_sha, 6, 0, 48, false, true, true,
      MATCH_PREREQ_ARP),
    F(MATCH_F_ARP_THA, "arp_tha", dp.arp_tha, 6, 0, 48, false, true, true,
      MATCH_PREREQ_ARP),
    F(MATCH_F_TCP_SRC, "tcp_src", dp.tp_src, 2, 0, 16, false, true, true,
      MATCH_PREREQ_TCP),
    F(MATCH_F_TCP_DST, "tcp_dst", dp.tp_dst, 2, 0, 16, false, true, true,
      MATCH_PREREQ_TCP),
    F(MATCH_F_TCP_FLAGS, "tcp_flags", dp.tcp_flags, 2, 0, 12, false, true,
      false, MATCH_PREREQ_TCP),
    F(MATCH_F_UDP_SRC, "udp_src", dp.tp_src, 2, 0, 16, false, true, true,
      MATCH_PREREQ_UDP),
    F(MATCH_F_UDP_DST, "udp_dst", dp.tp_dst, 2, 0, 16, false, true, true,
      MATCH_PREREQ_UDP),
    F(MATCH_F_SCTP_SRC, "sctp_src", dp.tp_src, 2, 0, 16, false, true, true,
      MATCH_PREREQ_SCTP),
    F(MATCH_F_SCTP_DST, "sctp_dst", dp.tp_dst, 2, 0, 16, false, true, true,
      MATCH_PREREQ_SCTP),
    F(MATCH_F_ICMPV4_TYPE, "icmp_type", dp.tp_src, 2, 0, 8, false, false,
      true, MATCH_PREREQ_ICMPV4),
    F(MATCH_F_ICMPV4_CODE, "icmp_code", dp.tp_dst, 2, 0, 8, false, false,
      true, MATCH_PREREQ_ICMPV4),
    F(MATCH_F_ICMPV6_TYPE, "icmpv6_type", dp.tp_src, 2, 0, 8, false, false,
      true, MATCH_PREREQ_ICMPV6),
    F(MATCH_F_ICMPV6_CODE, "icmpv6_code", dp.tp_dst, 2, 0, 8, false, false,
      true, MATCH_PREREQ_ICMPV6),
    F(MATCH_F_ND_TARGET, "nd_target", dp.nd_target, 16, 0, 128, false,
      true, true, MATCH_PREREQ_ND),
    F(MATCH_F_ND_SLL, "nd_sll", dp.arp_sha, 6, 0, 48, false, true, true,
      MATCH_PREREQ_ND_SOLICIT),
    F(MATCH_F_ND_TLL, "nd_tll", dp.arp_tha, 6, 0, 48, false, true, true,
      MATCH_PREREQ_ND_ADVERT),
};

static uint64_t container_get(const struct match_field *,
                              const struct match_flow *);
static void container_put(const struct match_field *, struct match_flow *,
                          uint64_t);
static uint64_t value_to_int(const struct match_field *,
                             const union match_value *);
static void int_to_value(const struct match_field *, uint64_t,
                         union match_value *);
static bool is_wide(const struct match_field *);
static uint64_t field_bits(const struct match_field *);
static bool prereq_ok(enum match_prereq, const struct match *);
static bool location_prereqs_ok(const struct match_field *,
                                const struct match *);
static void set_by_id(struct match *, enum match_field_id, const void *value,
                      const void *mask, size_t size);

/* Returns the description of field 'id'. */
const struct match_field *
match_field_info(enum match_field_id id)
{
    util_assert(id < MATCH_N_FIELDS);
    return &fields[id];
}

/* Returns the field whose Open vSwitch name is 'name', or NULL. */
const struct match_field *
match_field_by_name(const char *name)
{
    for (size_t i = 0; i < MATCH_N_FIELDS; i++) {
        if (!strcmp(fields[i].name, name)) {
            return &fields[i];
        }
    }
    return NULL;
}

/* Stores field 'mf' of 'flow' into 'value' (n_bytes bytes, big-endian;
 * the rest of 'value' zero). */
void
match_field_get(const struct match_field *mf, const struct match_flow *flow,
                union match_value *value)
{
    memset(value, 0, sizeof *value);
    if (is_wide(mf)) {
        memcpy(value->u8, (const uint8_t *) flow + mf->offset, mf->n_bytes);
    } else {
        int_to_value(mf, (container_get(mf, flow) >> mf->shift)
                         & field_bits(mf), value);
    }
}

/* Writes 'value' into field 'mf' of 'flow' (what set_field does). */
void
match_field_set_flow(const struct match_field *mf,
                     const union match_value *value, struct match_flow *flow)
{
    if (is_wide(mf)) {
        memcpy((uint8_t *) flow + mf->offset, value->u8, mf->n_bytes);
    } else {
        uint64_t bits = field_bits(mf) << mf->shift;
        uint64_t c = container_get(mf, flow);
        c = (c & ~bits) | ((value_to_int(mf, value) << mf->shift) & bits);
        container_put(mf, flow, c);
    }
}

/* Makes 'match' match field 'mf' against 'value' under 'mask' (NULL for an
 * exact match), leaving its other fields alone.  Keeps the match
 * normalized. */
void
match_field_set(const struct match_field *mf, const union match_value *value,
                const union match_value *mask, struct match *match)
{
    if (is_wide(mf)) {
        uint8_t *f = (uint8_t *) &match->flow + mf->offset;
        uint8_t *m = (uint8_t *) &match->mask + mf->offset;
        for (size_t i = 0; i < mf->n_bytes; i++) {
            m[i] = mask ? mask->u8[i] : 0xff;
            f[i] = value->u8[i] & m[i];
        }
        return;
    }

    uint64_t bits = field_bits(mf);
    uint64_t v = value_to_int(mf, value) & bits;
    uint64_t m = mask ? value_to_int(mf, mask) & bits : bits;
    if (mf->id == MATCH_F_NW_TOS) {
        v &= 0xfc;              /* nw_tos carries the DSCP alone. */
        m &= 0xfc;
    }
    if (mf->id == MATCH_F_IN_PORT) {
        /* Not maskable: one exact mask whichever protocol said it, the
         * one match_set_in_port() gives. */
        match->flow.in_port = v & m;
        match->mask.in_port = m ? UINT32_MAX : 0;
        return;
    }
    uint64_t place = bits << mf->shift;
    uint64_t fc = container_get(mf, &match->flow);
    uint64_t mc = container_get(mf, &match->mask);
    mc = (mc & ~place) | (m << mf->shift);
    fc = (fc & ~place) | ((v & m) << mf->shift);
    container_put(mf, &match->mask, mc);
    container_put(mf, &match->flow, fc);
}

/* Stores the mask 'match' has for field 'mf' into 'mask'. */
void
match_field_get_mask(const struct match_field *mf, const struct match *match,
                     union match_value *mask)
{
    match_field_get(mf, &match->mask, mask);
}

/* Returns true if 'match' satisfies the prerequisites of field 'mf'. */
bool
match_field_prereqs_ok(const struct match_field *mf,
                       const struct match *match)
{
    return prereq_ok(mf->prereq, match);
}

/* Returns true if every field 'match' matches on has its prerequisites
 * met.  Otherwise returns false and, if 'bad' is nonnull, stores the first
 * field that lacks them there. */
bool
match_check_prereqs(const struct match *match, enum match_field_id *bad)
{
    for (size_t i = 0; i < MATCH_N_FIELDS; i++) {
        const struct match_field *mf = &fields[i];
        union match_value m;
        static const union match_value zero;

        if (mf->prereq == MATCH_PREREQ_NONE) {
            continue;
        }
        match_field_get(mf, &match->mask, &m);
        if (memcmp(&m, &zero, sizeof m) && !location_prereqs_ok(mf, match)) {
            if (bad) {
                *bad = mf->id;
            }
            return false;
        }
    }
    return true;
}

/* Initializes 'flow' from a datapath key, with OpenFlow input port
 * 'of_in_port'. */
void
match_flow_from_dp(struct match_flow *flow, const struct flow *dp_key,
                   uint32_t of_in_port)
{
    memset(flow, 0, sizeof *flow);
    flow->dp = *dp_key;
    flow->in_port = of_in_port;
}

/* Makes 'match' match every packet. */
void
match_init_catchall(struct match *match)
{
    memset(match, 0, sizeof *match);
}

/* Makes 'match' match exactly 'flow' (every bit but the padding and the
 * datapath port). */
void
match_init_exact(struct match *match, const struct match_flow *flow)
{
    match->flow = *flow;
    memset(&match->mask, 0xff, sizeof match->mask);
    match->mask.pad = 0;
    match->mask.dp.in_port = 0;
    memset(match->mask.dp.pad1, 0, sizeof match->mask.dp.pad1);
    memset(match->mask.dp.pad2, 0, sizeof match->mask.dp.pad2);
    memset(match->mask.dp.pad3, 0, sizeof match->mask.dp.pad3);
    match_normalize(match);
}

/* Clears the bits of 'match''s flow that its mask does not cover. */
void
match_normalize(struct match *match)
{
    uint64_t *f = match_flow_words_rw(&match->flow);
    const uint64_t *m = match_flow_words(&match->mask);
    for (size_t i = 0; i < MATCH_FLOW_N_WORDS; i++) {
        f[i] &= m[i];
    }
}

/* Matches OpenFlow input port 'ofp_port' (16-bit space). */
void
match_set_in_port(struct match *match, uint32_t ofp_port)
{
    match->flow.in_port = ofp_port;
    match->mask.in_port = UINT32_MAX;
}

/* Matches metadata 'value' under 'mask' (host order). */
void
match_set_metadata_masked(struct match *match, uint64_t value, uint64_t mask)
{
    match->mask.metadata = mask;
    match->flow.metadata = value & mask;
}

/* Matches register 'reg' (0..15) against 'value' under 'mask'. */
void
match_set_reg_masked(struct match *match, unsigned int reg, uint32_t value,
                     uint32_t mask)
{
    util_assert(reg < MATCH_N_REGS);
    match->mask.regs[reg] = mask;
    match->flow.regs[reg] = value & mask;
}

/* Matches xreg 'xreg' (0..7) against 'value' under 'mask'. */
void
match_set_xreg_masked(struct match *match, unsigned int xreg, uint64_t value,
                      uint64_t mask)
{
    util_assert(xreg < MATCH_N_XREGS);
    match_set_reg_masked(match, 2 * xreg, value >> 32, mask >> 32);
    match_set_reg_masked(match, 2 * xreg + 1, value, mask);
}

void
match_set_dl_type(struct match *match, dps_be16 dl_type)
{
    match->flow.dp.dl_type = dl_type;
    match->mask.dp.dl_type = 0xffff;
}

void
match_set_dl_src_masked(struct match *match, struct eth_addr value,
                        struct eth_addr mask)
{
    set_by_id(match, MATCH_F_ETH_SRC, &value, &mask, sizeof value);
}

void
match_set_dl_dst_masked(struct match *match, struct eth_addr value,
                        struct eth_addr mask)
{
    set_by_id(match, MATCH_F_ETH_DST, &value, &mask, sizeof value);
}

/* Matches the outer 802.1Q TCI (with VLAN_CFI meaning "present") against
 * 'tci' under 'mask'. */
void
match_set_dl_tci_masked(struct match *match, dps_be16 tci, dps_be16 mask)
{
    match->mask.dp.vlan_tci[0] = mask;
    match->flow.dp.vlan_tci[0] = tci & mask;
}

/* OpenFlow 1.0's dl_vlan: 'vid' in network order, or htons(0xffff) for
 * "no tag".  A VID also requires a tag; the PCP match, if any, stays. */
void
match_set_dl_vlan(struct match *match, dps_be16 vid)
{
    dps_be16 *f = &match->flow.dp.vlan_tci[0];
    dps_be16 *m = &match->mask.dp.vlan_tci[0];
    if (vid == htons(0xffff)) {
        *f = 0;
        *m = 0xffff;
    } else {
        *f = (*f & htons(VLAN_PCP_MASK)) | htons(VLAN_CFI)
             | (vid & htons(VLAN_VID_MASK));
        *m |= htons(VLAN_CFI | VLAN_VID_MASK);
    }
}

/* OpenFlow 1.2+'s vlan_vid: 'vid' and 'mask' with OFPVID_PRESENT (0x1000,
 * the same bit as VLAN_CFI) in network order. */
void
match_set_vlan_vid_masked(struct match *match, dps_be16 vid, dps_be16 mask)
{
    dps_be16 bits = htons(VLAN_CFI | VLAN_VID_MASK);
    dps_be16 *f = &match->flow.dp.vlan_tci[0];
    dps_be16 *m = &match->mask.dp.vlan_tci[0];
    *m = (*m & ~bits) | (mask & bits);
    *f = (*f & ~bits) | (vid & mask & bits);
}

/* dl_vlan_pcp: a tag with PCP 'pcp' (0..7) must be present. */
void
match_set_dl_vlan_pcp(struct match *match, uint8_t pcp)
{
    dps_be16 *f = &match->flow.dp.vlan_tci[0];
    dps_be16 *m = &match->mask.dp.vlan_tci[0];
    *f = (*f & ~htons(VLAN_PCP_MASK)) | htons(VLAN_CFI)
         | htons((uint16_t) ((pcp & 7) << VLAN_PCP_SHIFT));
    *m |= htons(VLAN_CFI | VLAN_PCP_MASK);
}

void
match_set_nw_proto(struct match *match, uint8_t proto)
{
    match->flow.dp.nw_proto = proto;
    match->mask.dp.nw_proto = 0xff;
}

/* Matches the DSCP bits of the TOS byte: 'dscp_shifted' is the TOS byte's
 * value (DSCP << 2), as nw_tos takes it. */
void
match_set_nw_dscp(struct match *match, uint8_t dscp_shifted)
{
    match->mask.dp.nw_tos |= 0xfc;
    match->flow.dp.nw_tos = (match->flow.dp.nw_tos & 0x03)
                            | (dscp_shifted & 0xfc);
}

void
match_set_nw_ecn(struct match *match, uint8_t ecn)
{
    match->mask.dp.nw_tos |= 0x03;
    match->flow.dp.nw_tos = (match->flow.dp.nw_tos & 0xfc) | (ecn & 0x03);
}

void
match_set_nw_ttl(struct match *match, uint8_t ttl)
{
    match->flow.dp.nw_ttl = ttl;
    match->mask.dp.nw_ttl = 0xff;
}

void
match_set_nw_frag_masked(struct match *match, uint8_t frag, uint8_t mask)
{
    mask &= FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    match->mask.dp.nw_frag = mask;
    match->flow.dp.nw_frag = frag & mask;
}

void
match_set_nw_src_masked(struct match *match, dps_be32 value, dps_be32 mask)
{
    match->mask.dp.nw_src = mask;
    match->flow.dp.nw_src = value & mask;
}

void
match_set_nw_dst_masked(struct match *match, dps_be32 value, dps_be32 mask)
{
    match->mask.dp.nw_dst = mask;
    match->flow.dp.nw_dst = value & mask;
}

void
match_set_ipv6_src_masked(struct match *match, const struct ipv6_addr *value,
                          const struct ipv6_addr *mask)
{
    set_by_id(match, MATCH_F_IPV6_SRC, value, mask, sizeof *value);
}

void
match_set_ipv6_dst_masked(struct match *match, const struct ipv6_addr *value,
                          const struct ipv6_addr *mask)
{
    set_by_id(match, MATCH_F_IPV6_DST, value, mask, sizeof *value);
}

void
match_set_ipv6_label_masked(struct match *match, dps_be32 value,
                            dps_be32 mask)
{
    mask &= htonl(IPV6_LABEL_MASK);
    match->mask.dp.ipv6_label = mask;
    match->flow.dp.ipv6_label = value & mask;
}

void
match_set_arp_op(struct match *match, dps_be16 op)
{
    match->flow.dp.arp_op = op;
    match->mask.dp.arp_op = 0xffff;
}

void
match_set_arp_sha_masked(struct match *match, struct eth_addr value,
                         struct eth_addr mask)
{
    set_by_id(match, MATCH_F_ARP_SHA, &value, &mask, sizeof value);
}

void
match_set_arp_tha_masked(struct match *match, struct eth_addr value,
                         struct eth_addr mask)
{
    set_by_id(match, MATCH_F_ARP_THA, &value, &mask, sizeof value);
}

/* L4 source port, or ICMP type (htons(type)). */
void
match_set_tp_src_masked(struct match *match, dps_be16 value, dps_be16 mask)
{
    match->mask.dp.tp_src = mask;
    match->flow.dp.tp_src = value & mask;
}

/* L4 destination port, or ICMP code (htons(code)). */
void
match_set_tp_dst_masked(struct match *match, dps_be16 value, dps_be16 mask)
{
    match->mask.dp.tp_dst = mask;
    match->flow.dp.tp_dst = value & mask;
}

void
match_set_tcp_flags_masked(struct match *match, dps_be16 value, dps_be16 mask)
{
    mask &= htons(TCP_FLAGS_MASK);
    match->mask.dp.tcp_flags = mask;
    match->flow.dp.tcp_flags = value & mask;
}

void
match_set_nd_target_masked(struct match *match, const struct ipv6_addr *value,
                           const struct ipv6_addr *mask)
{
    set_by_id(match, MATCH_F_ND_TARGET, value, mask, sizeof *value);
}

/* Returns true if 'a' and 'b' match the same packets (both normalized). */
bool
match_equal(const struct match *a, const struct match *b)
{
    return !memcmp(a, b, sizeof *a);
}

/* Returns a hash of 'match'. */
uint32_t
match_hash(const struct match *match, uint32_t basis)
{
    const uint64_t *w = (const uint64_t *) match;
    uint64_t h = basis ^ 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < 2 * MATCH_FLOW_N_WORDS; i++) {
        h = (h ^ w[i]) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return (uint32_t) h;
}

/* Returns true if 'match' matches every packet. */
bool
match_is_catchall(const struct match *match)
{
    const uint64_t *m = match_flow_words(&match->mask);
    for (size_t i = 0; i < MATCH_FLOW_N_WORDS; i++) {
        if (m[i]) {
            return false;
        }
    }
    return true;
}

/* Returns true if 'flow' is one of the flows 'match' matches. */
bool
match_matches_flow(const struct match *match, const struct match_flow *flow)
{
    const uint64_t *f = match_flow_words(flow);
    const uint64_t *mf = match_flow_words(&match->flow);
    const uint64_t *mm = match_flow_words(&match->mask);
    for (size_t i = 0; i < MATCH_FLOW_N_WORDS; i++) {
        if ((f[i] & mm[i]) != mf[i]) {
            return false;
        }
    }
    return true;
}

/* Returns true if every bit set in mask 'a' is set in mask 'b'. */
bool
match_mask_is_subset(const struct match_flow *a, const struct match_flow *b)
{
    const uint64_t *wa = match_flow_words(a);
    const uint64_t *wb = match_flow_words(b);
    for (size_t i = 0; i < MATCH_FLOW_N_WORDS; i++) {
        if (wa[i] & ~wb[i]) {
            return false;
        }
    }
    return true;
}

/* Fields copied byte for byte: MAC and IPv6 addresses. */
static void
set_by_id(struct match *match, enum match_field_id id, const void *value,
          const void *mask, size_t size)
{
    union match_value v, m;
    memset(&v, 0, sizeof v);
    memset(&m, 0, sizeof m);
    memcpy(v.u8, value, size);
    memcpy(m.u8, mask, size);
    match_field_set(match_field_info(id), &v, &m, match);
}

static bool
is_wide(const struct match_field *mf)
{
    return mf->container_size == 6 || mf->container_size == 16;
}

static uint64_t
field_bits(const struct match_field *mf)
{
    return mf->n_bits == 64 ? UINT64_MAX : (UINT64_C(1) << mf->n_bits) - 1;
}

/* Reads the container of 'mf' in 'flow' as an integer. */
static uint64_t
container_get(const struct match_field *mf, const struct match_flow *flow)
{
    const uint8_t *p = (const uint8_t *) flow + mf->offset;

    if (mf->id >= MATCH_F_XREG0 && mf->id <= MATCH_F_XREG7) {
        const uint32_t *r = (const uint32_t *) p;
        return ((uint64_t) r[0] << 32) | r[1];
    } else if (mf->host_order) {
        if (mf->container_size == 8) {
            uint64_t v;
            memcpy(&v, p, 8);
            return v;
        } else {
            uint32_t v;
            memcpy(&v, p, 4);
            return v;
        }
    } else {
        uint64_t v = 0;
        for (size_t i = 0; i < mf->container_size; i++) {
            v = (v << 8) | p[i];
        }
        return v;
    }
}

static void
container_put(const struct match_field *mf, struct match_flow *flow,
              uint64_t v)
{
    uint8_t *p = (uint8_t *) flow + mf->offset;

    if (mf->id >= MATCH_F_XREG0 && mf->id <= MATCH_F_XREG7) {
        uint32_t *r = (uint32_t *) p;
        r[0] = v >> 32;
        r[1] = v;
    } else if (mf->host_order) {
        if (mf->container_size == 8) {
            memcpy(p, &v, 8);
        } else {
            uint32_t v32 = v;
            memcpy(p, &v32, 4);
        }
    } else {
        for (size_t i = mf->container_size; i-- > 0;) {
            p[i] = v;
            v >>= 8;
        }
    }
}

static uint64_t
value_to_int(const struct match_field *mf, const union match_value *value)
{
    uint64_t v = 0;
    for (size_t i = 0; i < mf->n_bytes; i++) {
        v = (v << 8) | value->u8[i];
    }
    return v;
}

static void
int_to_value(const struct match_field *mf, uint64_t v,
             union match_value *value)
{
    for (size_t i = mf->n_bytes; i-- > 0;) {
        value->u8[i] = v;
        v >>= 8;
    }
}

static bool
dl_type_is(const struct match *match, uint16_t type)
{
    return match->mask.dp.dl_type == 0xffff
           && match->flow.dp.dl_type == htons(type);
}

static bool
nw_proto_is(const struct match *match, uint8_t proto)
{
    return match->mask.dp.nw_proto == 0xff
           && match->flow.dp.nw_proto == proto;
}

static bool
is_ip_any(const struct match *match)
{
    return dl_type_is(match, ETH_TYPE_IP) || dl_type_is(match, ETH_TYPE_IPV6);
}

static bool
icmp_type_is(const struct match *match, uint16_t type)
{
    return (match->mask.dp.tp_src & htons(0xff)) == htons(0xff)
           && match->flow.dp.tp_src == htons(type);
}

/* The same bits are several fields (tcp_src, udp_src, icmp_type in
 * 'tp_src'; ip_src and arp_spa in 'nw_src'): matching them is fine if the
 * prerequisites of any of those fields hold. */
static bool
location_prereqs_ok(const struct match_field *mf, const struct match *match)
{
    if (prereq_ok(mf->prereq, match)) {
        return true;
    }
    for (size_t i = 0; i < MATCH_N_FIELDS; i++) {
        if (fields[i].offset == mf->offset
            && fields[i].prereq != MATCH_PREREQ_NONE
            && prereq_ok(fields[i].prereq, match)) {
            return true;
        }
    }
    return false;
}

static bool
prereq_ok(enum match_prereq prereq, const struct match *match)
{
    bool icmpv6 = dl_type_is(match, ETH_TYPE_IPV6)
                  && nw_proto_is(match, IPPROTO_ICMPV6_);

    switch (prereq) {
    case MATCH_PREREQ_NONE:
        return true;
    case MATCH_PREREQ_VLAN:
        return (match->mask.dp.vlan_tci[0] & htons(VLAN_CFI))
               && (match->flow.dp.vlan_tci[0] & htons(VLAN_CFI));
    case MATCH_PREREQ_ARP:
        return dl_type_is(match, ETH_TYPE_ARP);
    case MATCH_PREREQ_IPV4:
        return dl_type_is(match, ETH_TYPE_IP);
    case MATCH_PREREQ_IPV6:
        return dl_type_is(match, ETH_TYPE_IPV6);
    case MATCH_PREREQ_IP_ANY:
        return is_ip_any(match);
    case MATCH_PREREQ_IPV4_ARP:
        return dl_type_is(match, ETH_TYPE_IP)
               || dl_type_is(match, ETH_TYPE_ARP);
    case MATCH_PREREQ_TCP:
        return is_ip_any(match) && nw_proto_is(match, IPPROTO_TCP_);
    case MATCH_PREREQ_UDP:
        return is_ip_any(match) && nw_proto_is(match, IPPROTO_UDP_);
    case MATCH_PREREQ_SCTP:
        return is_ip_any(match) && nw_proto_is(match, IPPROTO_SCTP_);
    case MATCH_PREREQ_ICMPV4:
        return dl_type_is(match, ETH_TYPE_IP)
               && nw_proto_is(match, IPPROTO_ICMP_);
    case MATCH_PREREQ_ICMPV6:
        return icmpv6;
    case MATCH_PREREQ_ND:
        return icmpv6 && (icmp_type_is(match, ND_NEIGHBOR_SOLICIT)
                          || icmp_type_is(match, ND_NEIGHBOR_ADVERT));
    case MATCH_PREREQ_ND_SOLICIT:
        return icmpv6 && icmp_type_is(match, ND_NEIGHBOR_SOLICIT);
    case MATCH_PREREQ_ND_ADVERT:
        return icmpv6 && icmp_type_is(match, ND_NEIGHBOR_ADVERT);
    }
    return false;
}
