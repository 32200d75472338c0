/* OpenFlow matches on the wire: OpenFlow 1.0's fixed 'ofp10_match' and the
 * Nicira Extended Match (NXM, "nx_match"), both to and from lib/match.h's
 * 'struct match'.
 *
 * OpenFlow 1.0 match (40 bytes): wildcard bits, then the fields; nw_src and
 * nw_dst carry how many low bits are wildcarded (32 and up: all), so only
 * CIDR masks fit.  Decoding (ofputil_match_from_ofp10()) follows Open
 * vSwitch: dl_vlan 0xffff is "no tag", ARP's opcode travels in nw_proto,
 * and ofputil_normalize_match() then drops what the match's own dl_type
 * and nw_proto rule out (a tp_dst without tcp or udp), as Open vSwitch's
 * decoder does for OpenFlow 1.0 instead of refusing it.
 *
 * NXM: a sequence of TLVs, each a 32-bit header (class:16, field:7,
 * hasmask:1, length:8), the value and, with hasmask, a mask; padded to 8
 * bytes in messages.  nx_pull_match() checks as Open vSwitch does, in
 * order: a known field (OFPBMC_BAD_FIELD), its length (OFPBMC_BAD_LEN), a
 * mask only on maskable fields (OFPBMC_BAD_MASK), no 1-bits in the value
 * outside the mask (OFPBMC_BAD_WILDCARDS), a valid value (OFPBMC_BAD_VALUE),
 * the prerequisites matched by earlier entries (OFPBMC_BAD_PREREQ) and no
 * field twice (OFPBMC_DUP_FIELD).  NXM_NX_COOKIE(_W) entries carry a flow
 * cookie filter (flow_mod, flow stats requests) rather than a field.
 * OXM_OF_* basic entries (class 0x8000) and xreg (0x8001) are accepted as
 * well.  nx_put_match() writes the fields in Open vSwitch's order, exact
 * headers for full masks, nothing for wildcarded fields.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_MATCH_H
#define OFP_MATCH_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "match.h"
#include "ofp-errors.h"
#include "ofp-types.h"

struct ds;
struct ofpbuf;
struct ofputil_port_map;

/* Flow formats ("protocols" in Open vSwitch's terms): the ways a flow_mod
 * or flow stats request can carry a match. */
enum ofputil_protocol {
    OFPUTIL_P_OF10_STD = 1 << 0,        /* OpenFlow 1.0 ofp10_match. */
    OFPUTIL_P_OF10_NXM = 1 << 1,        /* OpenFlow 1.0 + NXM. */
    OFPUTIL_P_OF13_OXM = 1 << 2,
    OFPUTIL_P_OF14_OXM = 1 << 3,
    OFPUTIL_P_OF15_OXM = 1 << 4,
};
#define OFPUTIL_P_OF10_ANY (OFPUTIL_P_OF10_STD | OFPUTIL_P_OF10_NXM)
#define OFPUTIL_P_NXM_OXM_ANY (OFPUTIL_P_OF10_NXM | OFPUTIL_P_OF13_OXM \
                               | OFPUTIL_P_OF14_OXM | OFPUTIL_P_OF15_OXM)
#define OFPUTIL_P_ANY (OFPUTIL_P_OF10_STD | OFPUTIL_P_NXM_OXM_ANY)

/* OpenFlow 1.0 match. */
/* The OpenFlow version a flow protocol speaks. */
static inline int
ofputil_protocol_to_version(enum ofputil_protocol protocol)
{
    return (protocol & OFPUTIL_P_OF15_OXM ? 0x06
            : protocol & OFPUTIL_P_OF14_OXM ? 0x05
            : protocol & OFPUTIL_P_OF13_OXM ? 0x04 : 0x01);
}

#define OFP10_MATCH_LEN 40
enum {
    OFPFW10_IN_PORT = 1 << 0,
    OFPFW10_DL_VLAN = 1 << 1,
    OFPFW10_DL_SRC = 1 << 2,
    OFPFW10_DL_DST = 1 << 3,
    OFPFW10_DL_TYPE = 1 << 4,
    OFPFW10_NW_PROTO = 1 << 5,
    OFPFW10_TP_SRC = 1 << 6,
    OFPFW10_TP_DST = 1 << 7,
    OFPFW10_NW_SRC_SHIFT = 8,
    OFPFW10_NW_DST_SHIFT = 14,
    OFPFW10_DL_VLAN_PCP = 1 << 20,
    OFPFW10_NW_TOS = 1 << 21,
    OFPFW10_ALL = (1 << 22) - 1,
};
#define OFP10_VLAN_NONE 0xffff

void ofputil_match_from_ofp10(const uint8_t om[OFP10_MATCH_LEN],
                              struct match *);
void ofputil_match_to_ofp10(const struct match *, uint8_t om[OFP10_MATCH_LEN]);
uint32_t ofputil_ofp10_wildcards(const uint8_t om[OFP10_MATCH_LEN]);
bool ofputil_normalize_match(struct match *);

/* Which flow formats can express 'match' (and a cookie mask, if
 * 'cookie_mask' is nonzero). */
uint32_t ofputil_usable_protocols(const struct match *, uint64_t cookie_mask);

/* NXM. */
/* Field names in Nicira actions (NXAST_REG_LOAD, NXAST_REG_MOVE). */
uint32_t nxm_header_from_field(enum match_field_id);
bool nxm_field_from_header(uint32_t header, enum match_field_id *,
                           unsigned int *width);
enum ofperr nx_pull_match(struct ofpbuf *, unsigned int match_len,
                          struct match *, uint64_t *cookie,
                          uint64_t *cookie_mask);
enum ofperr nx_pull_match_loose(struct ofpbuf *, unsigned int match_len,
                                struct match *, uint64_t *cookie,
                                uint64_t *cookie_mask);
int nx_put_match(struct ofpbuf *, const struct match *, uint64_t cookie,
                 uint64_t cookie_mask);

/* Open vSwitch's textual match ("ip,in_port=1,nw_src=10.0.0.0/8"), as
 * ovs-ofctl dump-flows prints it: "priority=N," first unless 'priority' is
 * 'default_priority' (pass INT_MIN to leave it out), then the shorthand
 * (ip, tcp, arp...), then the fields in Open vSwitch's order. */
/* OpenFlow 1.1+ matches: an ofp11_match_header (type, length) and, for
 * OFPMT_OXM, OXM entries, padded to 8 bytes. */
#define OFPMT_STANDARD 0
#define OFPMT_OXM 1
#define OFP11_STANDARD_MATCH_LEN 88
enum ofperr ofputil_pull_ofp11_match(struct ofpbuf *, bool strict,
                                     struct match *);
int ofputil_put_ofp11_match(struct ofpbuf *, const struct match *);
int ofputil_put_ofp11_match_version(struct ofpbuf *, const struct match *,
                                    enum ofp_version);
int oxm_put_match(struct ofpbuf *, const struct match *);
int oxm_put_match_of15(struct ofpbuf *, const struct match *);

/* Appends the 4-byte OXM header of each field dpswitch matches (OpenFlow
 * 1.3 forms; NXM ones for fields without an OXM form), for a table
 * features property: 'masked' sets the has-mask bit of those that take
 * arbitrary masks; 'writable' lists only the fields set_field can write.
 * Returns the bytes appended. */
size_t oxm_put_field_headers(struct ofpbuf *, bool masked, bool writable);

/* One OXM entry, as a set_field action carries it. */
enum ofperr oxm_pull_field(const uint8_t *, size_t len,
                           enum match_field_id *, union match_value *value,
                           union match_value *mask);
void oxm_put_field(struct ofpbuf *, enum match_field_id,
                   const union match_value *value,
                   const union match_value *mask);

void match_format(const struct match *, const struct ofputil_port_map *,
                  struct ds *, int priority, int default_priority);
char *match_to_string(const struct match *, int priority);

#endif /* ofp-match.h */
