/* OpenFlow matches on the wire and as text (see ofp-match.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-match.h"
#include <arpa/inet.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-port.h"
#include "ofp-types.h"
#include "ofpbuf.h"
#include "util.h"

/* OpenFlow 1.0 match offsets. */
enum {
    OM_WILDCARDS = 0, OM_IN_PORT = 4, OM_DL_SRC = 6, OM_DL_DST = 12,
    OM_DL_VLAN = 18, OM_DL_VLAN_PCP = 20, OM_DL_TYPE = 22, OM_NW_TOS = 24,
    OM_NW_PROTO = 25, OM_NW_SRC = 28, OM_NW_DST = 32, OM_TP_SRC = 36,
    OM_TP_DST = 38,
};

/* NXM and OXM headers. */
#define NXM_HEADER(CLASS, FIELD, HASMASK, LENGTH) \
    (((uint32_t) (CLASS) << 16) | ((FIELD) << 9) | ((HASMASK) << 8) \
     | (LENGTH))
#define NXM_CLASS(H) ((H) >> 16)
#define NXM_FIELD(H) (((H) >> 9) & 0x7f)
#define NXM_HASMASK(H) (((H) >> 8) & 1)
#define NXM_LENGTH(H) ((H) & 0xff)

enum {
    NXM_OF = 0x0000, NXM_NX = 0x0001, OXM_OF_BASIC = 0x8000,
    OXM_OF_PKT_REGS = 0x8001,
};

#define NXM_NX_COOKIE_FIELD 30

/* A field as NXM or OXM names it (the table nxm_fields[] below). */
struct nxm_field {
    uint16_t class;
    uint8_t field;
    uint8_t width;
    enum match_field_id id;
};

static dps_be32 wcbits_to_netmask(int n);
static int netmask_to_wcbits(dps_be32 mask);
static bool is_cidr(dps_be32 mask);
static bool mac_is_zero(const struct eth_addr *mac);
static bool mac_is_exact(const struct eth_addr *mac);
static bool ipv6_is_zero(const struct ipv6_addr *a);
static enum ofperr
nx_pull_match__(struct ofpbuf *b, unsigned int match_len, bool strict,
                struct match *match, uint64_t *cookie, uint64_t *cookie_mask);
static void nxm_put_field(struct ofpbuf *b, const struct match *match,
                          bool oxm, enum match_field_id id);
static void oxm_put_in_port(struct ofpbuf *b, ofp_port_t port);
static size_t put_field_headers(struct ofpbuf *b, bool masked,
                                bool writable);
static enum ofperr oxm_decode_entry(const uint8_t *p, size_t len,
                                   enum match_field_id *id,
                                   union match_value *value,
                                   union match_value *mask);
static void nx_put_raw(struct ofpbuf *b, const struct match *match,
                       uint64_t cookie, uint64_t cookie_mask, bool oxm,
                       bool xregs);
static void
nxm_put_u8(struct ofpbuf *b, bool oxm, enum match_field_id id,
           uint8_t value);
static void
format_eth_masked(struct ds *s, const char *name, const struct eth_addr *v,
                  const struct eth_addr *m);
static void
format_ip_netmask(struct ds *s, const char *name, dps_be32 ip, dps_be32 mask);
static void
format_ipv6_netmask(struct ds *s, const char *name,
                    const struct ipv6_addr *v, const struct ipv6_addr *m);
static void
format_be16_masked(struct ds *s, const char *name, dps_be16 v, dps_be16 m);
static void
format_u32_masked(struct ds *s, const char *name, uint32_t v, uint32_t m);
static void format_tcp_flags(struct ds *s, uint16_t flags, uint16_t mask);

static const struct nxm_field *nxm_field_by_header(uint32_t header);
static const struct nxm_field *nxm_field_by_id(enum match_field_id id);

/* Decodes OpenFlow 1.0 match 'om' into 'match' (see the header).  Does not
 * normalize: call ofputil_normalize_match() for that. */
void
ofputil_match_from_ofp10(const uint8_t om[OFP10_MATCH_LEN],
                         struct match *match)
{
    uint32_t w = ofputil_ofp10_wildcards(om);
    struct match_flow *f = &match->flow;
    struct match_flow *m = &match->mask;

    match_init_catchall(match);
    if (!(w & OFPFW10_IN_PORT)) {
        match_set_in_port(match, ofp_get_be16(om + OM_IN_PORT));
    }
    if (!(w & OFPFW10_DL_SRC)) {
        memcpy(&f->dp.dl_src, om + OM_DL_SRC, 6);
        memset(&m->dp.dl_src, 0xff, 6);
    }
    if (!(w & OFPFW10_DL_DST)) {
        memcpy(&f->dp.dl_dst, om + OM_DL_DST, 6);
        memset(&m->dp.dl_dst, 0xff, 6);
    }
    if (!(w & OFPFW10_DL_TYPE)) {
        dps_be16 type;
        memcpy(&type, om + OM_DL_TYPE, 2);
        match_set_dl_type(match, type);
    }
    if (!(w & OFPFW10_NW_TOS)) {
        match_set_nw_dscp(match, om[OM_NW_TOS]);
    }
    if (!(w & OFPFW10_NW_PROTO)) {
        if (!(w & OFPFW10_DL_TYPE)
            && ofp_get_be16(om + OM_DL_TYPE) == ETH_TYPE_ARP) {
            match_set_arp_op(match, htons(om[OM_NW_PROTO]));
        } else {
            match_set_nw_proto(match, om[OM_NW_PROTO]);
        }
    }
    dps_be32 src_mask = wcbits_to_netmask(w >> OFPFW10_NW_SRC_SHIFT);
    dps_be32 dst_mask = wcbits_to_netmask(w >> OFPFW10_NW_DST_SHIFT);
    dps_be32 ip;
    memcpy(&ip, om + OM_NW_SRC, 4);
    match_set_nw_src_masked(match, ip, src_mask);
    memcpy(&ip, om + OM_NW_DST, 4);
    match_set_nw_dst_masked(match, ip, dst_mask);
    /* ICMP's and ICMPv6's type and code are 8 bits in OpenFlow 1.0's
     * 16-bit fields: the match holds them as NXM's icmp_type and icmp_code
     * (and icmpv6_type and icmpv6_code) do. */
    uint16_t dl_type = ofp_get_be16(om + OM_DL_TYPE);
    bool icmp = (!(w & (OFPFW10_DL_TYPE | OFPFW10_NW_PROTO))
                 && ((dl_type == ETH_TYPE_IP
                      && om[OM_NW_PROTO] == IPPROTO_ICMP_)
                     || (dl_type == ETH_TYPE_IPV6
                         && om[OM_NW_PROTO] == IPPROTO_ICMPV6_)));
    uint16_t tp_bits = icmp ? 0x00ff : 0xffff;
    if (!(w & OFPFW10_TP_SRC)) {
        match_set_tp_src_masked(match,
                                htons(ofp_get_be16(om + OM_TP_SRC) & tp_bits),
                                0xffff);
    }
    if (!(w & OFPFW10_TP_DST)) {
        match_set_tp_dst_masked(match,
                                htons(ofp_get_be16(om + OM_TP_DST) & tp_bits),
                                0xffff);
    }

    /* VLAN: dl_vlan 0xffff matched means "no tag" (whatever the PCP). */
    uint16_t vlan = ofp_get_be16(om + OM_DL_VLAN);
    if (!(w & OFPFW10_DL_VLAN) && vlan == OFP10_VLAN_NONE) {
        match_set_dl_tci_masked(match, 0, 0xffff);
    } else {
        uint16_t mask = 0;
        if (!(w & OFPFW10_DL_VLAN_PCP)) {
            mask |= VLAN_PCP_MASK | VLAN_CFI;
        }
        if (!(w & OFPFW10_DL_VLAN)) {
            mask |= VLAN_VID_MASK | VLAN_CFI;
        }
        uint16_t tci = (vlan & VLAN_VID_MASK) | VLAN_CFI
                       | ((om[OM_DL_VLAN_PCP] << VLAN_PCP_SHIFT)
                          & VLAN_PCP_MASK);
        match_set_dl_tci_masked(match, htons(tci), htons(mask));
    }
}

/* Encodes 'match' as an OpenFlow 1.0 match: what OpenFlow 1.0 cannot say
 * (see ofputil_usable_protocols()) is left out. */
void
ofputil_match_to_ofp10(const struct match *match,
                       uint8_t om[OFP10_MATCH_LEN])
{
    const struct flow *f = &match->flow.dp;
    const struct flow *m = &match->mask.dp;
    static const struct eth_addr zero_mac;
    uint32_t w = 0;
    bool arp = m->dl_type && f->dl_type == htons(ETH_TYPE_ARP);

    memset(om, 0, OFP10_MATCH_LEN);
    if (!match->mask.in_port) {
        w |= OFPFW10_IN_PORT;
    }
    if (!m->dl_type) {
        w |= OFPFW10_DL_TYPE;
    }
    if (arp ? !m->arp_op : !m->nw_proto) {
        w |= OFPFW10_NW_PROTO;
    }
    w |= netmask_to_wcbits(m->nw_src) << OFPFW10_NW_SRC_SHIFT;
    w |= netmask_to_wcbits(m->nw_dst) << OFPFW10_NW_DST_SHIFT;
    if (!(m->nw_tos & 0xfc)) {
        w |= OFPFW10_NW_TOS;
    }
    if (!m->tp_src) {
        w |= OFPFW10_TP_SRC;
    }
    if (!m->tp_dst) {
        w |= OFPFW10_TP_DST;
    }
    if (!memcmp(&m->dl_src, &zero_mac, 6)) {
        w |= OFPFW10_DL_SRC;
    }
    if (!memcmp(&m->dl_dst, &zero_mac, 6)) {
        w |= OFPFW10_DL_DST;
    }

    uint16_t tci = ntohs(f->vlan_tci[0]);
    uint16_t tci_mask = ntohs(m->vlan_tci[0]);
    if (!tci_mask) {
        w |= OFPFW10_DL_VLAN | OFPFW10_DL_VLAN_PCP;
    } else if ((tci_mask & VLAN_CFI) && !(tci & VLAN_CFI)) {
        ofp_put_be16(om + OM_DL_VLAN, OFP10_VLAN_NONE);
    } else {
        if (!(tci_mask & VLAN_VID_MASK)) {
            w |= OFPFW10_DL_VLAN;
        } else {
            ofp_put_be16(om + OM_DL_VLAN, tci & VLAN_VID_MASK);
        }
        if (!(tci_mask & VLAN_PCP_MASK)) {
            w |= OFPFW10_DL_VLAN_PCP;
        } else {
            om[OM_DL_VLAN_PCP] = tci >> VLAN_PCP_SHIFT;
        }
    }

    ofp_put_be32(om + OM_WILDCARDS, w);
    ofp_put_be16(om + OM_IN_PORT, match->flow.in_port);
    memcpy(om + OM_DL_SRC, &f->dl_src, 6);
    memcpy(om + OM_DL_DST, &f->dl_dst, 6);
    memcpy(om + OM_DL_TYPE, &f->dl_type, 2);
    om[OM_NW_TOS] = f->nw_tos & 0xfc;
    om[OM_NW_PROTO] = arp ? ntohs(f->arp_op) : f->nw_proto;
    memcpy(om + OM_NW_SRC, &f->nw_src, 4);
    memcpy(om + OM_NW_DST, &f->nw_dst, 4);
    memcpy(om + OM_TP_SRC, &f->tp_src, 2);
    memcpy(om + OM_TP_DST, &f->tp_dst, 2);
}

uint32_t
ofputil_ofp10_wildcards(const uint8_t om[OFP10_MATCH_LEN])
{
    return ofp_get_be32(om + OM_WILDCARDS) & OFPFW10_ALL;
}

/* Clears each field of 'match' whose prerequisites 'match' does not meet
 * (tp_dst without tcp or udp...), as Open vSwitch normalizes OpenFlow 1.0
 * matches.  Returns true if that changed 'match'. */
bool
ofputil_normalize_match(struct match *match)
{
    static const union match_value zero;
    bool changed = false;

    for (int i = 0; i < MATCH_N_FIELDS; i++) {
        const struct match_field *mf = match_field_info(i);
        union match_value m;

        if (mf->prereq == MATCH_PREREQ_NONE
            || mf->prereq == MATCH_PREREQ_VLAN
            || match_field_prereqs_ok(mf, match)) {
            continue;
        }
        match_field_get_mask(mf, match, &m);
        if (!memcmp(&m, &zero, sizeof m)) {
            continue;
        }

        /* The same bits may be another field whose prerequisites hold
         * (tp_src is tcp_src, udp_src and icmp_type). */
        bool other_ok = false;
        for (int j = 0; j < MATCH_N_FIELDS && !other_ok; j++) {
            const struct match_field *g = match_field_info(j);
            other_ok = (j != i && g->offset == mf->offset
                        && g->prereq != MATCH_PREREQ_NONE
                        && match_field_prereqs_ok(g, match));
        }
        if (!other_ok) {
            match_field_set(mf, &zero, &zero, match);
            changed = true;
        }
    }
    return changed;
}

/* Which flow formats can express 'match' (see the header). */
uint32_t
ofputil_usable_protocols(const struct match *match, uint64_t cookie_mask)
{
    const struct flow *m = &match->mask.dp;
    const struct flow *f = &match->flow.dp;
    struct match_flow zero_words;
    bool of10 = true;

    memset(&zero_words, 0, sizeof zero_words);
    if (cookie_mask) {
        of10 = false;
    }
    if (match->mask.metadata || memcmp(match->mask.regs, zero_words.regs,
                                       sizeof match->mask.regs)) {
        of10 = false;
    }
    if (match->mask.in_port && match->mask.in_port != UINT32_MAX) {
        of10 = false;
    }
    if ((!mac_is_zero(&m->dl_src) && !mac_is_exact(&m->dl_src))
        || (!mac_is_zero(&m->dl_dst) && !mac_is_exact(&m->dl_dst))) {
        of10 = false;
    }
    if (!is_cidr(m->nw_src) || !is_cidr(m->nw_dst)) {
        of10 = false;
    }
    if ((m->tp_src && m->tp_src != 0xffff)
        || (m->tp_dst && m->tp_dst != 0xffff)) {
        of10 = false;
    }
    if ((m->nw_tos & 0x03) || ((m->nw_tos & 0xfc) && (m->nw_tos & 0xfc)
                                                     != 0xfc)
        || m->nw_ttl || m->nw_frag || m->tcp_flags || m->ipv6_label
        || !ipv6_is_zero(&m->ipv6_src) || !ipv6_is_zero(&m->ipv6_dst)
        || !ipv6_is_zero(&m->nd_target) || !mac_is_zero(&m->arp_sha)
        || !mac_is_zero(&m->arp_tha)) {
        of10 = false;
    }
    if (m->arp_op && (m->arp_op != 0xffff || ntohs(f->arp_op) > 0xff)) {
        of10 = false;
    }
    if (m->arp_op && m->nw_proto) {
        of10 = false;
    }
    if (m->vlan_tci[1] || m->vlan_tpid[0] || m->vlan_tpid[1]) {
        of10 = false;
    }

    /* VLAN TCI: OpenFlow 1.0 has "any", "no tag", and a tag with the VID
     * and/or PCP exact. */
    uint16_t tci_mask = ntohs(m->vlan_tci[0]);
    uint16_t tci = ntohs(f->vlan_tci[0]);
    if (tci_mask) {
        uint16_t vid_mask = tci_mask & VLAN_VID_MASK;
        uint16_t pcp_mask = tci_mask & VLAN_PCP_MASK;
        bool cfi = tci_mask & VLAN_CFI;
        bool ok = false;

        if (tci_mask == 0xffff && !tci) {
            ok = true;          /* No tag. */
        } else if (cfi && (tci & VLAN_CFI)
                   && (!vid_mask || vid_mask == VLAN_VID_MASK)
                   && (!pcp_mask || pcp_mask == VLAN_PCP_MASK)
                   && (vid_mask || pcp_mask)) {
            ok = true;
        }
        if (!ok) {
            of10 = false;
        }
    }

    /* OpenFlow 1.0 matches are normalized: a field without its
     * prerequisites would be lost. */
    struct match copy = *match;
    if (ofputil_normalize_match(&copy)) {
        of10 = false;
    }

    return of10 ? OFPUTIL_P_ANY : OFPUTIL_P_NXM_OXM_ANY;
}

/* The NXM header (mask bit clear) by which OpenFlow 1.0's Nicira actions
 * (load, move) name field 'id', or 0 if it has none. */
uint32_t
nxm_header_from_field(enum match_field_id id)
{
    const struct nxm_field *nf = nxm_field_by_id(id);
    return nf ? NXM_HEADER(nf->class, nf->field, 0, nf->width) : 0;
}

/* The field that NXM or OXM header 'header' (without a mask) names, with
 * the width it has on the wire in '*width'; false if there is none. */
bool
nxm_field_from_header(uint32_t header, enum match_field_id *id,
                      unsigned int *width)
{
    const struct nxm_field *nf = nxm_field_by_header(header);
    if (!nf || NXM_HASMASK(header) || NXM_LENGTH(header) != nf->width) {
        return false;
    }
    *id = nf->id;
    *width = nf->width;
    return true;
}

/* Pulls 'match_len' bytes of nx_match (and its padding to 8 bytes) off
 * 'b' into 'match', and the cookie filter into 'cookie' and 'cookie_mask'
 * (zero if none; both may be NULL, when a cookie entry is an error).
 * Strict: unknown fields are errors. */
enum ofperr
nx_pull_match(struct ofpbuf *b, unsigned int match_len, struct match *match,
              uint64_t *cookie, uint64_t *cookie_mask)
{
    return nx_pull_match__(b, match_len, true, match, cookie, cookie_mask);
}

/* The same, skipping unknown fields (for replies). */
enum ofperr
nx_pull_match_loose(struct ofpbuf *b, unsigned int match_len,
                    struct match *match, uint64_t *cookie,
                    uint64_t *cookie_mask)
{
    return nx_pull_match__(b, match_len, false, match, cookie, cookie_mask);
}

/* Appends 'match' (and the cookie filter, if 'cookie_mask' is nonzero) as
 * nx_match to 'b', padded to 8 bytes; returns the unpadded length. */
int
nx_put_match(struct ofpbuf *b, const struct match *match, uint64_t cookie,
             uint64_t cookie_mask)
{
    size_t start = b->size;

    nx_put_raw(b, match, cookie, cookie_mask, false, false);
    int match_len = b->size - start;
    ofpbuf_put_zeros(b, (match_len + 7) / 8 * 8 - match_len);
    return match_len;
}

/* Pulls an OpenFlow 1.1+ match (header, OXM entries, padding) off 'b'
 * into 'match'.  'strict' (requests): unknown fields are errors; replies
 * skip them.  Returns 0 or OFPERR_OFPBMC_*: BAD_TYPE for a match that is
 * not OXM (dpswitch does not take OpenFlow 1.1's standard match; one of
 * the wrong length is BAD_LEN, as in Open vSwitch), BAD_LEN for lengths
 * that do not fit. */
enum ofperr
ofputil_pull_ofp11_match(struct ofpbuf *b, bool strict, struct match *match)
{
    match_init_catchall(match);
    if (b->size < 4) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    const uint8_t *p = b->data;
    uint16_t type = ofp_get_be16(p);
    uint16_t match_len = ofp_get_be16(p + 2);
    if (type == OFPMT_STANDARD) {
        /* OpenFlow 1.1's 88-byte match, which dpswitch does not take. */
        return (match_len == OFP11_STANDARD_MATCH_LEN
                ? OFPERR_OFPBMC_BAD_TYPE : OFPERR_OFPBMC_BAD_LEN);
    } else if (type != OFPMT_OXM) {
        return OFPERR_OFPBMC_BAD_TYPE;
    }
    size_t padded = (match_len + 7u) / 8 * 8;
    if (match_len < 4 || padded > b->size) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    ofpbuf_pull(b, padded);

    /* The entries, padded on their own as nx_pull_match__() reads them
     * (the padding of the whole match may be 4 bytes short of that). */
    size_t fields_len = match_len - 4;
    uint8_t *copy = xzalloc((fields_len + 7) / 8 * 8 + 1);
    memcpy(copy, p + 4, fields_len);
    struct ofpbuf fields;
    ofpbuf_use_const(&fields, copy, (fields_len + 7) / 8 * 8);
    enum ofperr error = nx_pull_match__(&fields, fields_len, strict, match,
                                        NULL, NULL);
    free(copy);
    return error;
}

/* Appends 'match' as an OpenFlow 1.1+ OXM match: the ofp11_match_header
 * (type OFPMT_OXM), the entries, padding to 8 bytes.  Returns the bytes
 * appended, padding included. */
int
ofputil_put_ofp11_match(struct ofpbuf *b, const struct match *match)
{
    return ofputil_put_ofp11_match_version(b, match, OFP13_VERSION);
}

/* Like ofputil_put_ofp11_match(), with OpenFlow 1.5's registers (xregs,
 * oxm_put_match_of15()) when 'version' is 1.5 or later. */
int
ofputil_put_ofp11_match_version(struct ofpbuf *b, const struct match *match,
                                enum ofp_version version)
{
    size_t start = b->size;
    ofpbuf_put_zeros(b, 4);
    int fields_len = (version < OFP15_VERSION ? oxm_put_match(b, match)
                      : oxm_put_match_of15(b, match));
    uint8_t *p = (uint8_t *) b->data + start;
    ofp_put_be16(p, OFPMT_OXM);
    ofp_put_be16(p + 2, 4 + fields_len);
    ofpbuf_put_zeros(b, (4 + fields_len + 7) / 8 * 8 - (4 + fields_len));
    return b->size - start;
}

/* Appends 'match' as OXM entries (OpenFlow 1.2+ field headers where there
 * are any, Open vSwitch's order), without padding; returns their
 * length. */
int
oxm_put_match(struct ofpbuf *b, const struct match *match)
{
    size_t start = b->size;

    nx_put_raw(b, match, 0, 0, true, false);
    return b->size - start;
}

/* Like oxm_put_match(), for OpenFlow 1.5: registers go as the 64-bit
 * OXM_OF_PKT_REG fields (xreg0-7), as Open vSwitch sends them there. */
int
oxm_put_match_of15(struct ofpbuf *b, const struct match *match)
{
    size_t start = b->size;

    nx_put_raw(b, match, 0, 0, true, true);
    return b->size - start;
}

/* Appends the OXM headers of the fields dpswitch matches (see the
 * header). */
size_t
oxm_put_field_headers(struct ofpbuf *b, bool masked, bool writable)
{
    return put_field_headers(b, masked, writable);
}

/* Decodes the one OXM entry of 'len' bytes at 'p' (a set_field action's)
 * into its field, value and whether it is masked ('mask' set).  Returns 0,
 * OFPERR_OFPBAC_BAD_SET_TYPE for a field it does not know,
 * OFPERR_OFPBAC_BAD_SET_LEN for a length that does not fit the field. */
enum ofperr
oxm_pull_field(const uint8_t *p, size_t len, enum match_field_id *id,
               union match_value *value, union match_value *mask)
{
    return oxm_decode_entry(p, len, id, value, mask);
}

/* Appends field 'id' = 'value' (under 'mask', or exactly if 'mask' is
 * NULL) as one OXM entry, as a set_field action carries it. */
void
oxm_put_field(struct ofpbuf *b, enum match_field_id id,
              const union match_value *value, const union match_value *mask)
{
    struct match match;

    match_init_catchall(&match);
    match_field_set(match_field_info(id), value, mask, &match);
    if (id == MATCH_F_IN_PORT) {
        oxm_put_in_port(b, match.flow.in_port);
        return;
    }
    nxm_put_field(b, &match, true, id);
}

/* Appends 'match' in Open vSwitch's syntax (see the header). */
void
match_format(const struct match *match, const struct ofputil_port_map *map,
             struct ds *s, int priority, int default_priority)
{
    const struct flow *f = &match->flow.dp;
    const struct flow *m = &match->mask.dp;
    size_t start = s->length;
    bool skip_type = false;
    bool skip_proto = false;
    uint16_t dl_type = ntohs(f->dl_type);

    if (priority != default_priority) {
        ds_put_format(s, "priority=%d,", priority);
    }

    if (m->dl_type) {
        skip_type = true;
        if (dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6) {
            bool v6 = dl_type == ETH_TYPE_IPV6;
            const char *name = v6 ? "ipv6" : "ip";
            if (m->nw_proto) {
                skip_proto = true;
                switch (f->nw_proto) {
                case IPPROTO_ICMP_:
                    name = v6 ? NULL : "icmp";
                    break;
                case IPPROTO_ICMPV6_:
                    name = v6 ? "icmp6" : NULL;
                    break;
                case 2:
                    name = v6 ? NULL : "igmp";
                    break;
                case IPPROTO_TCP_:
                    name = v6 ? "tcp6" : "tcp";
                    break;
                case IPPROTO_UDP_:
                    name = v6 ? "udp6" : "udp";
                    break;
                case IPPROTO_SCTP_:
                    name = v6 ? "sctp6" : "sctp";
                    break;
                default:
                    name = NULL;
                    break;
                }
                if (!name) {
                    name = v6 ? "ipv6" : "ip";
                    skip_proto = false;
                }
            }
            ds_put_format(s, "%s,", name);
        } else if (dl_type == 0x8035) {
            ds_put_cstr(s, "rarp,");
        } else if (dl_type == ETH_TYPE_ARP) {
            ds_put_cstr(s, "arp,");
        } else if (dl_type == 0x894f) {
            ds_put_cstr(s, "nsh,");
        } else if (dl_type == 0x8847) {
            ds_put_cstr(s, "mpls,");
        } else if (dl_type == 0x8848) {
            ds_put_cstr(s, "mplsm,");
        } else {
            skip_type = false;
        }
    }

    for (int i = 0; i < MATCH_N_REGS; i++) {
        char name[8];
        snprintf(name, sizeof name, "reg%d", i);
        format_u32_masked(s, name, match->flow.regs[i], match->mask.regs[i]);
    }
    if (match->mask.metadata) {
        ds_put_format(s, "metadata=%#"PRIx64, match->flow.metadata);
        if (match->mask.metadata != UINT64_MAX) {
            ds_put_format(s, "/%#"PRIx64, match->mask.metadata);
        }
        ds_put_char(s, ',');
    }
    if (match->mask.in_port) {
        const char *name = ofputil_port_map_get_name(map,
                                                     match->flow.in_port);
        ds_put_cstr(s, "in_port=");
        if (name) {
            ofputil_format_port_name(name, s);
        } else {
            ofputil_format_port(match->flow.in_port, s);
        }
        ds_put_char(s, ',');
    }

    /* The outer tag, then (named with a "1") the one inside it. */
    for (int i = 0; i < 2; i++) {
        const char *sfx = i ? "1" : "";
        uint16_t tci_mask = ntohs(m->vlan_tci[i]);
        uint16_t tci = ntohs(f->vlan_tci[i]);
        uint16_t vid_mask = tci_mask & VLAN_VID_MASK;
        uint16_t pcp_mask = tci_mask & VLAN_PCP_MASK;

        if (!tci_mask) {
            continue;
        }
        if ((tci_mask & VLAN_CFI) && (tci & VLAN_CFI)
            && (!vid_mask || vid_mask == VLAN_VID_MASK)
            && (!pcp_mask || pcp_mask == VLAN_PCP_MASK)
            && (vid_mask || pcp_mask)) {
            if (vid_mask) {
                ds_put_format(s, "dl_vlan%s=%d,", sfx, tci & VLAN_VID_MASK);
            }
            if (pcp_mask) {
                ds_put_format(s, "dl_vlan_pcp%s=%d,", sfx,
                              tci >> VLAN_PCP_SHIFT);
            }
        } else if (tci_mask == 0xffff) {
            ds_put_format(s, "vlan_tci%s=0x%04"PRIx16",", sfx, tci);
        } else {
            ds_put_format(s, "vlan_tci%s=0x%04"PRIx16"/0x%04"PRIx16",",
                          sfx, tci, tci_mask);
        }
    }

    format_eth_masked(s, "dl_src", &f->dl_src, &m->dl_src);
    format_eth_masked(s, "dl_dst", &f->dl_dst, &m->dl_dst);
    if (!skip_type && m->dl_type) {
        ds_put_format(s, "dl_type=0x%04"PRIx16",", dl_type);
    }

    bool arp = dl_type == ETH_TYPE_ARP || dl_type == 0x8035;
    if (dl_type == ETH_TYPE_IPV6) {
        format_ipv6_netmask(s, "ipv6_src", &f->ipv6_src, &m->ipv6_src);
        format_ipv6_netmask(s, "ipv6_dst", &f->ipv6_dst, &m->ipv6_dst);
        if (m->ipv6_label) {
            if (m->ipv6_label == htonl(IPV6_LABEL_MASK)) {
                ds_put_format(s, "ipv6_label=0x%05"PRIx32",",
                              ntohl(f->ipv6_label));
            } else {
                ds_put_format(s, "ipv6_label=0x%05"PRIx32"/0x%05"PRIx32",",
                              ntohl(f->ipv6_label), ntohl(m->ipv6_label));
            }
        }
    } else if (arp) {
        format_ip_netmask(s, "arp_spa", f->nw_src, m->nw_src);
        format_ip_netmask(s, "arp_tpa", f->nw_dst, m->nw_dst);
    } else {
        format_ip_netmask(s, "nw_src", f->nw_src, m->nw_src);
        format_ip_netmask(s, "nw_dst", f->nw_dst, m->nw_dst);
    }
    if (arp && m->arp_op) {
        ds_put_format(s, "arp_op=%"PRIu16",", ntohs(f->arp_op));
    } else if (!skip_proto && m->nw_proto) {
        ds_put_format(s, "%s=%"PRIu8",", arp ? "arp_op" : "nw_proto",
                      f->nw_proto);
    }
    if (arp) {
        format_eth_masked(s, "arp_sha", &f->arp_sha, &m->arp_sha);
        format_eth_masked(s, "arp_tha", &f->arp_tha, &m->arp_tha);
    }
    if (m->nw_tos & 0xfc) {
        ds_put_format(s, "nw_tos=%d,", f->nw_tos & 0xfc);
    }
    if (m->nw_tos & 0x03) {
        ds_put_format(s, "nw_ecn=%d,", f->nw_tos & 0x03);
    }
    if (m->nw_ttl) {
        ds_put_format(s, "nw_ttl=%d,", f->nw_ttl);
    }
    switch (m->nw_frag) {
    case FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER:
        ds_put_format(s, "nw_frag=%s,",
                      f->nw_frag & FLOW_NW_FRAG_ANY
                      ? (f->nw_frag & FLOW_NW_FRAG_LATER ? "later" : "first")
                      : (f->nw_frag & FLOW_NW_FRAG_LATER ? "<error>" : "no"));
        break;
    case FLOW_NW_FRAG_ANY:
        ds_put_format(s, "nw_frag=%s,",
                      f->nw_frag & FLOW_NW_FRAG_ANY ? "yes" : "no");
        break;
    case FLOW_NW_FRAG_LATER:
        ds_put_format(s, "nw_frag=%s,",
                      f->nw_frag & FLOW_NW_FRAG_LATER ? "later"
                                                      : "not_later");
        break;
    }
    if (dl_type == ETH_TYPE_IP && f->nw_proto == IPPROTO_ICMP_) {
        format_be16_masked(s, "icmp_type", f->tp_src, m->tp_src);
        format_be16_masked(s, "icmp_code", f->tp_dst, m->tp_dst);
    } else if (dl_type == ETH_TYPE_IP && f->nw_proto == 2) {
        format_be16_masked(s, "igmp_type", f->tp_src, m->tp_src);
        format_be16_masked(s, "igmp_code", f->tp_dst, m->tp_dst);
    } else if (dl_type == ETH_TYPE_IPV6 && f->nw_proto == IPPROTO_ICMPV6_) {
        format_be16_masked(s, "icmp_type", f->tp_src, m->tp_src);
        format_be16_masked(s, "icmp_code", f->tp_dst, m->tp_dst);
        format_ipv6_netmask(s, "nd_target", &f->nd_target, &m->nd_target);
        format_eth_masked(s, "nd_sll", &f->arp_sha, &m->arp_sha);
        format_eth_masked(s, "nd_tll", &f->arp_tha, &m->arp_tha);
    } else {
        format_be16_masked(s, "tp_src", f->tp_src, m->tp_src);
        format_be16_masked(s, "tp_dst", f->tp_dst, m->tp_dst);
    }
    if ((dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6)
        && f->nw_proto == IPPROTO_TCP_ && m->tcp_flags) {
        format_tcp_flags(s, ntohs(f->tcp_flags) & TCP_FLAGS_MASK,
                         ntohs(m->tcp_flags) & TCP_FLAGS_MASK);
    }

    if (s->length > start) {
        ds_chomp(s, ',');
    }
}

/* Returns 'match' as text (the caller frees it). */
char *
match_to_string(const struct match *match, int priority)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    match_format(match, NULL, &s, priority, 32768);
    return ds_steal_cstr(&s);
}

static dps_be32
wcbits_to_netmask(int n)
{
    n &= 0x3f;
    return n < 32 ? htonl(~((UINT32_C(1) << n) - 1)) : 0;
}

/* Returns the number of wildcarded low bits of CIDR mask 'mask' (32 for
 * none matched); for a non-CIDR mask, that of its longest CIDR prefix. */
static int
netmask_to_wcbits(dps_be32 mask)
{
    uint32_t m = ntohl(mask);
    int n = 0;

    while (n < 32 && (m & (UINT32_C(1) << (31 - n)))) {
        n++;
    }
    return 32 - n;
}

static bool
is_cidr(dps_be32 mask)
{
    uint32_t x = ~ntohl(mask);
    return !(x & (x + 1));
}

static bool
mac_is_zero(const struct eth_addr *mac)
{
    static const struct eth_addr zero;
    return !memcmp(mac, &zero, sizeof zero);
}

static bool
mac_is_exact(const struct eth_addr *mac)
{
    static const struct eth_addr ones = { { 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff } };
    return !memcmp(mac, &ones, sizeof ones);
}

static bool
ipv6_is_zero(const struct ipv6_addr *a)
{
    static const struct ipv6_addr zero;
    return !memcmp(a, &zero, sizeof zero);
}

/* NXM. */

/* One wire form of a field: class and field number, and its length on the
 * wire (which may exceed the field's n_bytes: ipv6_label is 3 bytes of
 * value in 4). */
#define NX(FIELD, WIDTH, ID) { NXM_OF, FIELD, WIDTH, ID }
#define NX1(FIELD, WIDTH, ID) { NXM_NX, FIELD, WIDTH, ID }
#define OXM(FIELD, WIDTH, ID) { OXM_OF_BASIC, FIELD, WIDTH, ID }

/* NXM forms first: encoding for OpenFlow 1.0 picks the first entry of a
 * field. */
static const struct nxm_field nxm_fields[] = {
    NX(0, 2, MATCH_F_IN_PORT),
    NX(1, 6, MATCH_F_ETH_DST),
    NX(2, 6, MATCH_F_ETH_SRC),
    NX(3, 2, MATCH_F_ETH_TYPE),
    NX(4, 2, MATCH_F_VLAN_TCI),
    NX(5, 1, MATCH_F_NW_TOS),
    NX(6, 1, MATCH_F_IP_PROTO),
    NX(7, 4, MATCH_F_IPV4_SRC),
    NX(8, 4, MATCH_F_IPV4_DST),
    NX(9, 2, MATCH_F_TCP_SRC),
    NX(10, 2, MATCH_F_TCP_DST),
    NX(11, 2, MATCH_F_UDP_SRC),
    NX(12, 2, MATCH_F_UDP_DST),
    NX(13, 1, MATCH_F_ICMPV4_TYPE),
    NX(14, 1, MATCH_F_ICMPV4_CODE),
    NX(15, 2, MATCH_F_ARP_OP),
    NX(16, 4, MATCH_F_ARP_SPA),
    NX(17, 4, MATCH_F_ARP_TPA),
    NX1(0, 4, MATCH_F_REG0 + 0), NX1(1, 4, MATCH_F_REG0 + 1),
    NX1(2, 4, MATCH_F_REG0 + 2), NX1(3, 4, MATCH_F_REG0 + 3),
    NX1(4, 4, MATCH_F_REG0 + 4), NX1(5, 4, MATCH_F_REG0 + 5),
    NX1(6, 4, MATCH_F_REG0 + 6), NX1(7, 4, MATCH_F_REG0 + 7),
    NX1(8, 4, MATCH_F_REG0 + 8), NX1(9, 4, MATCH_F_REG0 + 9),
    NX1(10, 4, MATCH_F_REG0 + 10), NX1(11, 4, MATCH_F_REG0 + 11),
    NX1(12, 4, MATCH_F_REG0 + 12), NX1(13, 4, MATCH_F_REG0 + 13),
    NX1(14, 4, MATCH_F_REG0 + 14), NX1(15, 4, MATCH_F_REG0 + 15),
    NX1(17, 6, MATCH_F_ARP_SHA),
    NX1(18, 6, MATCH_F_ARP_THA),
    NX1(19, 16, MATCH_F_IPV6_SRC),
    NX1(20, 16, MATCH_F_IPV6_DST),
    NX1(21, 1, MATCH_F_ICMPV6_TYPE),
    NX1(22, 1, MATCH_F_ICMPV6_CODE),
    NX1(23, 16, MATCH_F_ND_TARGET),
    NX1(24, 6, MATCH_F_ND_SLL),
    NX1(25, 6, MATCH_F_ND_TLL),
    NX1(26, 1, MATCH_F_IP_FRAG),
    NX1(27, 4, MATCH_F_IPV6_LABEL),
    NX1(28, 1, MATCH_F_IP_ECN),
    NX1(29, 1, MATCH_F_NW_TTL),
    NX1(34, 2, MATCH_F_TCP_FLAGS),
    OXM(2, 8, MATCH_F_METADATA),
    OXM(17, 2, MATCH_F_SCTP_SRC),
    OXM(18, 2, MATCH_F_SCTP_DST),
    { OXM_OF_PKT_REGS, 0, 8, MATCH_F_XREG0 + 0 },
    { OXM_OF_PKT_REGS, 1, 8, MATCH_F_XREG0 + 1 },
    { OXM_OF_PKT_REGS, 2, 8, MATCH_F_XREG0 + 2 },
    { OXM_OF_PKT_REGS, 3, 8, MATCH_F_XREG0 + 3 },
    { OXM_OF_PKT_REGS, 4, 8, MATCH_F_XREG0 + 4 },
    { OXM_OF_PKT_REGS, 5, 8, MATCH_F_XREG0 + 5 },
    { OXM_OF_PKT_REGS, 6, 8, MATCH_F_XREG0 + 6 },
    { OXM_OF_PKT_REGS, 7, 8, MATCH_F_XREG0 + 7 },
    /* OXM basic forms of the rest (OpenFlow 1.2+ and NXM alike). */
    OXM(0, 4, MATCH_F_IN_PORT),
    OXM(3, 6, MATCH_F_ETH_DST),
    OXM(4, 6, MATCH_F_ETH_SRC),
    OXM(5, 2, MATCH_F_ETH_TYPE),
    OXM(6, 2, MATCH_F_VLAN_VID),
    OXM(7, 1, MATCH_F_VLAN_PCP),
    OXM(8, 1, MATCH_F_IP_DSCP),
    OXM(9, 1, MATCH_F_IP_ECN),
    OXM(10, 1, MATCH_F_IP_PROTO),
    OXM(11, 4, MATCH_F_IPV4_SRC),
    OXM(12, 4, MATCH_F_IPV4_DST),
    OXM(13, 2, MATCH_F_TCP_SRC),
    OXM(14, 2, MATCH_F_TCP_DST),
    OXM(15, 2, MATCH_F_UDP_SRC),
    OXM(16, 2, MATCH_F_UDP_DST),
    OXM(19, 1, MATCH_F_ICMPV4_TYPE),
    OXM(20, 1, MATCH_F_ICMPV4_CODE),
    OXM(21, 2, MATCH_F_ARP_OP),
    OXM(22, 4, MATCH_F_ARP_SPA),
    OXM(23, 4, MATCH_F_ARP_TPA),
    OXM(24, 6, MATCH_F_ARP_SHA),
    OXM(25, 6, MATCH_F_ARP_THA),
    OXM(26, 16, MATCH_F_IPV6_SRC),
    OXM(27, 16, MATCH_F_IPV6_DST),
    OXM(28, 4, MATCH_F_IPV6_LABEL),
    OXM(29, 1, MATCH_F_ICMPV6_TYPE),
    OXM(30, 1, MATCH_F_ICMPV6_CODE),
    OXM(31, 16, MATCH_F_ND_TARGET),
    OXM(32, 6, MATCH_F_ND_SLL),
    OXM(33, 6, MATCH_F_ND_TLL),
};

static const struct nxm_field *
nxm_field_by_header(uint32_t header)
{
    for (size_t i = 0; i < ARRAY_SIZE(nxm_fields); i++) {
        const struct nxm_field *nf = &nxm_fields[i];
        if (nf->class == NXM_CLASS(header)
            && nf->field == NXM_FIELD(header)) {
            return nf;
        }
    }
    return NULL;
}

static const struct nxm_field *nxm_field_by_id(enum match_field_id id);

/* The OXM form of 'id' if it has one (OpenFlow 1.2+ encoding), else its
 * NXM form. */
static const struct nxm_field *
oxm_field_by_id(enum match_field_id id)
{
    for (size_t i = 0; i < ARRAY_SIZE(nxm_fields); i++) {
        if (nxm_fields[i].id == id
            && (nxm_fields[i].class == OXM_OF_BASIC
                || nxm_fields[i].class == OXM_OF_PKT_REGS)) {
            return &nxm_fields[i];
        }
    }
    return nxm_field_by_id(id);
}

static const struct nxm_field *
nxm_field_by_id(enum match_field_id id)
{
    for (size_t i = 0; i < ARRAY_SIZE(nxm_fields); i++) {
        if (nxm_fields[i].id == id) {
            return &nxm_fields[i];
        }
    }
    return NULL;
}

/* Converts 'width' wire bytes at 'p' into field 'mf''s value layout;
 * returns false if the extra leading wire bytes are not zero. */
static bool
wire_to_value(const struct match_field *mf, const uint8_t *p, int width,
              union match_value *v)
{
    int extra = width - mf->n_bytes;

    memset(v, 0, sizeof *v);
    if (extra < 0) {
        memcpy(v->u8 - extra, p, width);
        return true;
    }
    for (int i = 0; i < extra; i++) {
        if (p[i]) {
            return false;
        }
    }
    memcpy(v->u8, p + extra, mf->n_bytes);
    return true;
}

static bool
value_is_zero(const union match_value *v)
{
    static const union match_value zero;
    return !memcmp(v, &zero, sizeof zero);
}

/* Whether 'v' is a valid value of 'mf' (no bits beyond its width, and the
 * field-specific rules Open vSwitch applies). */
static bool
value_is_valid(const struct match_field *mf, const union match_value *v)
{
    uint64_t x = 0;

    if (mf->n_bytes <= 8) {
        for (int i = 0; i < mf->n_bytes; i++) {
            x = (x << 8) | v->u8[i];
        }
        if (mf->n_bits < 64 && (x >> mf->n_bits)) {
            return false;
        }
    }
    switch (mf->id) {
    case MATCH_F_NW_TOS:
        return !(x & 0x03);
    case MATCH_F_ARP_OP:
        return x <= 0xff;
    case MATCH_F_IP_FRAG:
        return x <= (FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER);
    default:
        return true;
    }
}

/* Applies a decoded entry for 'mf' to 'match' with Open vSwitch's
 * meaning of each field. */
static void
apply_field(const struct match_field *mf, const union match_value *v,
            const union match_value *mask, struct match *match)
{
    switch (mf->id) {
    case MATCH_F_ICMPV4_TYPE:
    case MATCH_F_ICMPV6_TYPE:
        match_set_tp_src_masked(match, htons(v->u8[0]), 0xffff);
        break;
    case MATCH_F_ICMPV4_CODE:
    case MATCH_F_ICMPV6_CODE:
        match_set_tp_dst_masked(match, htons(v->u8[0]), 0xffff);
        break;
    case MATCH_F_VLAN_PCP:
        match_set_dl_vlan_pcp(match, v->u8[0]);
        break;
    default:
        match_field_set(mf, v, mask, match);
        break;
    }
}

/* Whether 'match' already matches some bit of 'mf'. */
static bool
field_is_set(const struct match_field *mf, const struct match *match)
{
    union match_value m;

    if (mf->id == MATCH_F_ICMPV4_TYPE || mf->id == MATCH_F_ICMPV6_TYPE) {
        return match->mask.dp.tp_src != 0;
    } else if (mf->id == MATCH_F_ICMPV4_CODE
               || mf->id == MATCH_F_ICMPV6_CODE) {
        return match->mask.dp.tp_dst != 0;
    }
    match_field_get_mask(mf, match, &m);
    return !value_is_zero(&m);
}

static enum ofperr
nx_pull_match__(struct ofpbuf *b, unsigned int match_len, bool strict,
                struct match *match, uint64_t *cookie, uint64_t *cookie_mask)
{
    const uint8_t *p;

    match_init_catchall(match);
    if (cookie) {
        *cookie = *cookie_mask = 0;
    }
    if (!match_len) {
        return 0;
    }
    p = ofpbuf_try_pull(b, (match_len + 7) / 8 * 8);
    if (!p) {
        return OFPERR_OFPBMC_BAD_LEN;
    }

    while (match_len) {
        if (match_len < 4) {
            return OFPERR_OFPBMC_BAD_LEN;
        }
        uint32_t header = ofp_get_be32(p);
        unsigned int len = NXM_LENGTH(header);
        bool masked = NXM_HASMASK(header);

        if (!len || len + 4 > match_len) {
            return OFPERR_OFPBMC_BAD_LEN;
        }
        if (NXM_CLASS(header) == 0xffff) {
            /* Experimenter OXM: not supported. */
            if (strict) {
                return OFPERR_OFPBMC_BAD_FIELD;
            }
            goto next;
        }

        const uint8_t *payload = p + 4;
        if (NXM_CLASS(header) == NXM_NX
            && NXM_FIELD(header) == NXM_NX_COOKIE_FIELD) {
            if (len != (masked ? 16u : 8u)) {
                return OFPERR_OFPBMC_BAD_LEN;
            }
            if (!cookie) {
                return OFPERR_OFPBMC_BAD_FIELD;
            }
            if (*cookie_mask) {
                return OFPERR_OFPBMC_DUP_FIELD;
            }
            *cookie = ofp_get_be64(payload);
            *cookie_mask = masked ? ofp_get_be64(payload + 8) : UINT64_MAX;
            if (*cookie & ~*cookie_mask) {
                return OFPERR_OFPBMC_BAD_WILDCARDS;
            }
            goto next;
        }

        const struct nxm_field *nf = nxm_field_by_header(header);
        if (!nf) {
            if (strict) {
                return OFPERR_OFPBMC_BAD_FIELD;
            }
            goto next;
        }
        if (len != (masked ? 2u : 1u) * nf->width) {
            /* NXM names a field by its whole header, length included. */
            if (strict) {
                return OFPERR_OFPBMC_BAD_FIELD;
            }
            goto next;
        }

        const struct match_field *mf = match_field_info(nf->id);
        union match_value v, m;
        if (nf->class == OXM_OF_BASIC && nf->id == MATCH_F_IN_PORT) {
            /* OXM's 32-bit in_port. */
            ofp_port_t port;
            if (masked) {
                return OFPERR_OFPBMC_BAD_MASK;
            }
            if (!ofp_port_from_ofp11(ofp_get_be32(payload), &port)) {
                return OFPERR_OFPBMC_BAD_VALUE;
            }
            memset(&v, 0, sizeof v);
            ofp_put_be16(v.u8, port);
        } else if (!wire_to_value(mf, payload, nf->width, &v)) {
            return OFPERR_OFPBMC_BAD_VALUE;
        }
        if (masked) {
            if (!wire_to_value(mf, payload + nf->width, nf->width, &m)) {
                return OFPERR_OFPBMC_BAD_MASK;
            }
            if (!mf->maskable) {
                /* Only "exact" and "any" masks for these. */
                bool ones = true, zeros = true;
                for (int i = 0; i < nf->width; i++) {
                    ones = ones && payload[nf->width + i] == 0xff;
                    zeros = zeros && !payload[nf->width + i];
                }
                if (!ones && !zeros) {
                    return OFPERR_OFPBMC_BAD_MASK;
                }
                masked = zeros;
            }
            for (size_t i = 0; i < sizeof v.u8; i++) {
                if (v.u8[i] & ~m.u8[i]) {
                    return OFPERR_OFPBMC_BAD_WILDCARDS;
                }
            }
        } else {
            memset(&m, 0xff, sizeof m);
        }
        if (!value_is_valid(mf, &v)) {
            return OFPERR_OFPBMC_BAD_VALUE;
        }
        if (!match_field_prereqs_ok(mf, match)) {
            return OFPERR_OFPBMC_BAD_PREREQ;
        }
        if (field_is_set(mf, match)) {
            return OFPERR_OFPBMC_DUP_FIELD;
        }
        if (!masked || !value_is_zero(&m)) {
            apply_field(mf, &v, masked ? &m : NULL, match);
        }

    next:
        p += 4 + len;
        match_len -= 4 + len;
    }
    return 0;
}

/* Appends 'match' as NXM ('oxm' false) or OXM entries to 'b', in Open
 * vSwitch's order, without padding. */
static void
nx_put_raw(struct ofpbuf *b, const struct match *match, uint64_t cookie,
           uint64_t cookie_mask, bool oxm, bool xregs)
{
    const struct flow *f = &match->flow.dp;
    const struct flow *m = &match->mask.dp;

    if (oxm && match->mask.in_port) {
        oxm_put_in_port(b, match->flow.in_port);
    } else {
        nxm_put_field(b, match, oxm, MATCH_F_IN_PORT);
    }
    nxm_put_field(b, match, oxm, MATCH_F_ETH_SRC);
    nxm_put_field(b, match, oxm, MATCH_F_ETH_DST);
    nxm_put_field(b, match, oxm, MATCH_F_ETH_TYPE);
    if (!oxm) {
        nxm_put_field(b, match, oxm, MATCH_F_VLAN_TCI);
    } else {
        /* OXM: the VID with its "present" bit, then the PCP, only for a
         * match on a tagged VID. */
        nxm_put_field(b, match, oxm, MATCH_F_VLAN_VID);
        dps_be16 present = htons(VLAN_CFI);
        if (f->vlan_tci[0] & m->vlan_tci[0] & present
            && m->vlan_tci[0] & htons(VLAN_PCP_MASK)) {
            nxm_put_field(b, match, oxm, MATCH_F_VLAN_PCP);
        }
    }

    bool typed = m->dl_type == 0xffff;
    uint16_t type = ntohs(f->dl_type);
    if (typed && (type == ETH_TYPE_IP || type == ETH_TYPE_IPV6)) {
        if (type == ETH_TYPE_IP) {
            nxm_put_field(b, match, oxm, MATCH_F_IPV4_SRC);
            nxm_put_field(b, match, oxm, MATCH_F_IPV4_DST);
        } else {
            nxm_put_field(b, match, oxm, MATCH_F_IPV6_SRC);
            nxm_put_field(b, match, oxm, MATCH_F_IPV6_DST);
        }
        nxm_put_field(b, match, oxm, MATCH_F_IP_FRAG);
        nxm_put_field(b, match, oxm, oxm ? MATCH_F_IP_DSCP : MATCH_F_NW_TOS);
        nxm_put_field(b, match, oxm, MATCH_F_IP_ECN);
        nxm_put_field(b, match, oxm, MATCH_F_NW_TTL);
        nxm_put_field(b, match, oxm, MATCH_F_IPV6_LABEL);
        if (m->nw_proto) {
            nxm_put_field(b, match, oxm, MATCH_F_IP_PROTO);
            switch (f->nw_proto) {
            case IPPROTO_TCP_:
                nxm_put_field(b, match, oxm, MATCH_F_TCP_SRC);
                nxm_put_field(b, match, oxm, MATCH_F_TCP_DST);
                nxm_put_field(b, match, oxm, MATCH_F_TCP_FLAGS);
                break;
            case IPPROTO_UDP_:
                nxm_put_field(b, match, oxm, MATCH_F_UDP_SRC);
                nxm_put_field(b, match, oxm, MATCH_F_UDP_DST);
                break;
            case IPPROTO_SCTP_:
                nxm_put_field(b, match, oxm, MATCH_F_SCTP_SRC);
                nxm_put_field(b, match, oxm, MATCH_F_SCTP_DST);
                break;
            case IPPROTO_ICMP_:
            case IPPROTO_ICMPV6_: {
                bool v4 = f->nw_proto == IPPROTO_ICMP_;
                if (v4 != (type == ETH_TYPE_IP)) {
                    break;
                }
                if (m->tp_src) {
                    nxm_put_u8(b, oxm, v4 ? MATCH_F_ICMPV4_TYPE
                                     : MATCH_F_ICMPV6_TYPE,
                               ntohs(f->tp_src));
                }
                if (m->tp_dst) {
                    nxm_put_u8(b, oxm, v4 ? MATCH_F_ICMPV4_CODE
                                     : MATCH_F_ICMPV6_CODE,
                               ntohs(f->tp_dst));
                }
                if (!v4 && m->tp_src == 0xffff
                    && (ntohs(f->tp_src) == ND_NEIGHBOR_SOLICIT
                        || ntohs(f->tp_src) == ND_NEIGHBOR_ADVERT)) {
                    nxm_put_field(b, match, oxm, MATCH_F_ND_TARGET);
                    nxm_put_field(b, match, oxm,
                                  ntohs(f->tp_src) == ND_NEIGHBOR_SOLICIT
                                  ? MATCH_F_ND_SLL : MATCH_F_ND_TLL);
                }
                break;
            }
            default:
                break;
            }
        }
    } else if (typed && type == ETH_TYPE_ARP) {
        nxm_put_field(b, match, oxm, MATCH_F_ARP_OP);
        nxm_put_field(b, match, oxm, MATCH_F_ARP_SPA);
        nxm_put_field(b, match, oxm, MATCH_F_ARP_TPA);
        nxm_put_field(b, match, oxm, MATCH_F_ARP_SHA);
        nxm_put_field(b, match, oxm, MATCH_F_ARP_THA);
    }

    if (xregs) {
        for (int i = 0; i < MATCH_N_REGS / 2; i++) {
            nxm_put_field(b, match, oxm, MATCH_F_XREG0 + i);
        }
    } else {
        for (int i = 0; i < MATCH_N_REGS; i++) {
            nxm_put_field(b, match, oxm, MATCH_F_REG0 + i);
        }
    }
    nxm_put_field(b, match, oxm, MATCH_F_METADATA);

    if (cookie_mask) {
        bool masked = cookie_mask != UINT64_MAX;
        uint8_t *p = ofpbuf_put_zeros(b, 4 + (masked ? 16 : 8));
        ofp_put_be32(p, NXM_HEADER(NXM_NX, NXM_NX_COOKIE_FIELD, masked,
                                   masked ? 16 : 8));
        ofp_put_be32(p + 4, (cookie & cookie_mask) >> 32);
        ofp_put_be32(p + 8, cookie & cookie_mask);
        if (masked) {
            ofp_put_be32(p + 12, cookie_mask >> 32);
            ofp_put_be32(p + 16, cookie_mask);
        }
    }

}

static enum ofperr
oxm_decode_entry(const uint8_t *p, size_t len, enum match_field_id *id,
                 union match_value *value, union match_value *mask)
{
    if (len < 4) {
        return OFPERR_OFPBAC_BAD_SET_LEN;
    }
    uint32_t header = ofp_get_be32(p);
    const struct nxm_field *nf = nxm_field_by_header(header);
    if (!nf) {
        return OFPERR_OFPBAC_BAD_SET_TYPE;
    }
    bool masked = NXM_HASMASK(header);
    unsigned int width = NXM_LENGTH(header);
    if (width != (masked ? 2u : 1u) * nf->width || 4 + width > len) {
        return OFPERR_OFPBAC_BAD_SET_LEN;
    }
    const struct match_field *mf = match_field_info(nf->id);
    *id = nf->id;
    if (nf->class == OXM_OF_BASIC && nf->id == MATCH_F_IN_PORT) {
        ofp_port_t port;
        if (masked || !ofp_port_from_ofp11(ofp_get_be32(p + 4), &port)) {
            return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
        }
        memset(value, 0, sizeof *value);
        ofp_put_be16(value->u8, port);
    } else if (!wire_to_value(mf, p + 4, nf->width, value)) {
        return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
    }
    if (masked) {
        if (!wire_to_value(mf, p + 4 + nf->width, nf->width, mask)) {
            return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
        }
    } else {
        memset(mask, 0xff, sizeof *mask);
    }
    if (!value_is_valid(mf, value)) {
        return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
    }
    return 0;
}

static size_t
put_field_headers(struct ofpbuf *b, bool masked, bool writable)
{
    size_t start = b->size;

    for (size_t i = 0; i < ARRAY_SIZE(nxm_fields); i++) {
        const struct nxm_field *nf = &nxm_fields[i];
        const struct match_field *mf = match_field_info(nf->id);

        /* One header per field (its OpenFlow 1.3 form); no xregs before
         * OpenFlow 1.5; the VLAN TCI and ToS are OXM's vlan_vid/pcp and
         * ip_dscp. */
        if (oxm_field_by_id(nf->id) != nf
            || nf->class == OXM_OF_PKT_REGS
            || nf->id == MATCH_F_VLAN_TCI || nf->id == MATCH_F_NW_TOS
            || (writable && !mf->writable)) {
            continue;
        }
        bool hasmask = masked && mf->maskable;
        ofp_put_be32(ofpbuf_put_zeros(b, 4),
                     NXM_HEADER(nf->class, nf->field, hasmask,
                                nf->width * (hasmask ? 2 : 1)));
    }
    return b->size - start;
}

/* Appends the NXM entry for field 'id' of 'match' to 'b', if 'match'
 * matches it at all. */
static void
nxm_put_field(struct ofpbuf *b, const struct match *match, bool oxm,
              enum match_field_id id)
{
    const struct match_field *mf = match_field_info(id);
    const struct nxm_field *nf = (oxm ? oxm_field_by_id(id)
                                      : nxm_field_by_id(id));
    union match_value v, m, full;

    match_field_get(mf, &match->flow, &v);
    match_field_get_mask(mf, match, &m);
    if (value_is_zero(&m)) {
        return;
    }
    memset(&full, 0, sizeof full);
    uint64_t bits = mf->n_bits >= 64 ? UINT64_MAX
                                     : (UINT64_C(1) << mf->n_bits) - 1;
    if (mf->n_bytes <= 8) {
        for (int i = mf->n_bytes; i-- > 0; bits >>= 8) {
            full.u8[i] = bits;
        }
    } else {
        memset(full.u8, 0xff, mf->n_bytes);
    }
    if (id == MATCH_F_NW_TOS) {
        full.u8[0] = 0xfc;
    }
    bool masked = memcmp(&m, &full, sizeof m) != 0;
    int extra = nf->width - mf->n_bytes;

    uint8_t *p = ofpbuf_put_zeros(b, 4 + nf->width * (masked ? 2 : 1));
    ofp_put_be32(p, NXM_HEADER(nf->class, nf->field, masked,
                               nf->width * (masked ? 2 : 1)));
    memcpy(p + 4 + extra, v.u8, mf->n_bytes);
    if (masked) {
        memcpy(p + 4 + nf->width + extra, m.u8, mf->n_bytes);
    }
}

/* An 8-bit NXM entry from a 16-bit flow field (ICMP type and code). */
static void
nxm_put_u8(struct ofpbuf *b, bool oxm, enum match_field_id id, uint8_t value)
{
    const struct nxm_field *nf = (oxm ? oxm_field_by_id(id)
                                      : nxm_field_by_id(id));
    uint8_t *p = ofpbuf_put_zeros(b, 5);

    ofp_put_be32(p, NXM_HEADER(nf->class, nf->field, 0, 1));
    p[4] = value;
}

/* OXM's in_port: 32 bits, reserved ports in their OpenFlow 1.1+ numbers. */
static void
oxm_put_in_port(struct ofpbuf *b, ofp_port_t port)
{
    uint8_t *p = ofpbuf_put_zeros(b, 8);

    ofp_put_be32(p, NXM_HEADER(OXM_OF_BASIC, 0, 0, 4));
    ofp_put_be32(p + 4, ofp_port_to_ofp11(port));
}
/* Text. */

static void
format_mac(struct ds *s, const struct eth_addr *mac)
{
    const uint8_t *a = mac->ea;
    ds_put_format(s, "%02x:%02x:%02x:%02x:%02x:%02x",
                  a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void
format_eth_masked(struct ds *s, const char *name, const struct eth_addr *v,
                  const struct eth_addr *m)
{
    if (mac_is_zero(m)) {
        return;
    }
    ds_put_format(s, "%s=", name);
    format_mac(s, v);
    if (!mac_is_exact(m)) {
        ds_put_char(s, '/');
        format_mac(s, m);
    }
    ds_put_char(s, ',');
}

static void
format_ip(struct ds *s, dps_be32 ip)
{
    const uint8_t *a = (const uint8_t *) &ip;
    ds_put_format(s, "%d.%d.%d.%d", a[0], a[1], a[2], a[3]);
}

static void
format_ip_netmask(struct ds *s, const char *name, dps_be32 ip, dps_be32 mask)
{
    if (!mask) {
        return;
    }
    ds_put_format(s, "%s=", name);
    format_ip(s, ip);
    if (mask != 0xffffffff) {
        if (is_cidr(mask)) {
            ds_put_format(s, "/%d", 32 - netmask_to_wcbits(mask));
        } else {
            ds_put_char(s, '/');
            format_ip(s, mask);
        }
    }
    ds_put_char(s, ',');
}

/* Returns the prefix length of 'mask' if it is a CIDR mask, otherwise
 * -1. */
static int
ipv6_cidr_len(const struct ipv6_addr *mask)
{
    const uint8_t *p = (const uint8_t *) mask;
    int n = 0;
    int i;

    for (i = 0; i < 16 && p[i] == 0xff; i++) {
        n += 8;
    }
    if (i < 16) {
        uint8_t x = p[i];
        while (x & 0x80) {
            n++;
            x <<= 1;
        }
        if (x) {
            return -1;
        }
        for (i++; i < 16; i++) {
            if (p[i]) {
                return -1;
            }
        }
    }
    return n;
}

static void
format_ipv6(struct ds *s, const struct ipv6_addr *a)
{
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, a, buf, sizeof buf);
    ds_put_cstr(s, buf);
}

static void
format_ipv6_netmask(struct ds *s, const char *name,
                    const struct ipv6_addr *v, const struct ipv6_addr *m)
{
    if (ipv6_is_zero(m)) {
        return;
    }
    ds_put_format(s, "%s=", name);
    format_ipv6(s, v);
    int n = ipv6_cidr_len(m);
    if (n != 128) {
        if (n >= 0) {
            ds_put_format(s, "/%d", n);
        } else {
            ds_put_char(s, '/');
            format_ipv6(s, m);
        }
    }
    ds_put_char(s, ',');
}

static void
format_be16_masked(struct ds *s, const char *name, dps_be16 v, dps_be16 m)
{
    if (!m) {
        return;
    }
    ds_put_format(s, "%s=", name);
    if (m == 0xffff) {
        ds_put_format(s, "%"PRIu16, ntohs(v));
    } else {
        ds_put_format(s, "0x%"PRIx16"/0x%"PRIx16, ntohs(v), ntohs(m));
    }
    ds_put_char(s, ',');
}

static void
format_u32_masked(struct ds *s, const char *name, uint32_t v, uint32_t m)
{
    if (!m) {
        return;
    }
    ds_put_format(s, "%s=%#"PRIx32, name, v);
    if (m != UINT32_MAX) {
        ds_put_format(s, "/%#"PRIx32, m);
    }
    ds_put_char(s, ',');
}

static const char *
tcp_flag_name(uint32_t bit)
{
    static const char *const names[12] = {
        "fin", "syn", "rst", "psh", "ack", "urg", "ece", "cwr", "ns",
        "[200]", "[400]", "[800]",
    };
    for (int i = 0; i < 12; i++) {
        if (bit == UINT32_C(1) << i) {
            return names[i];
        }
    }
    return NULL;
}

static void
format_tcp_flags(struct ds *s, uint16_t flags, uint16_t mask)
{
    ds_put_cstr(s, "tcp_flags=");
    if (mask == TCP_FLAGS_MASK) {
        if (!flags) {
            ds_put_char(s, '0');
        }
        for (uint16_t f = flags; f; f &= f - 1) {
            ds_put_format(s, "%s%s", tcp_flag_name(f & -f),
                          (f & (f - 1)) ? "|" : "");
        }
    } else {
        for (uint16_t m = mask; m; m &= m - 1) {
            uint16_t bit = m & -m;
            ds_put_format(s, "%c%s", flags & bit ? '+' : '-',
                          tcp_flag_name(bit));
        }
    }
    ds_put_char(s, ',');
}
