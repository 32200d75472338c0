/* OpenFlow flow messages: flow_mod, flow_removed, flow and aggregate
 * statistics, in OpenFlow 1.0 (ofp10_match) and Nicira (NXM) forms, and
 * their ovs-ofctl text.
 *
 * 'struct ofputil_flow_mod' has the fields of ofproto's 'struct
 * ofproto_flow_mod' under the same names and meanings, plus what only the
 * wire has (buffer_id, and the cookie as Open vSwitch splits it):
 *   - 'new_cookie' is the cookie the flow_mod carries for new or modified
 *     flows (UINT64_MAX: "leave it"); 'cookie'/'cookie_mask' the filter
 *     (NXM's NXM_NX_COOKIE; OpenFlow 1.0 has none: both 0).  For an add,
 *     ofputil_decode_flow_mod() also copies 'new_cookie' into 'cookie', so
 *     that 'cookie' is "the cookie" for adds, as ofproto_flow_mod says.
 *   - 'modify_cookie' is set when 'new_cookie' is not UINT64_MAX.
 *   - 'table_id' is 0xff (OFPTT_ALL) unless the flow_mod names a table
 *     (NXT_FLOW_MOD_TABLE_ID enabled: pass 'table_id_ext' true).
 *   - 'ofpacts' points into the caller's buffer.
 *
 * Decoders return 0 or the OFPERR_* Open vSwitch returns for the same
 * message; they never read past the message.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_FLOW_H
#define OFP_FLOW_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "match.h"
#include "ofp-errors.h"
#include "ofp-match.h"
#include "ofp-msgs.h"

struct ds;
struct ofpbuf;

/* flow_mod commands. */
enum {
    OFPFC_ADD = 0, OFPFC_MODIFY = 1, OFPFC_MODIFY_STRICT = 2,
    OFPFC_DELETE = 3, OFPFC_DELETE_STRICT = 4,
};

/* Flags, as ofproto's OFPROTO_FF_* (same values). */
enum {
    OFPUTIL_FF_SEND_FLOW_REM = 1 << 0,
    OFPUTIL_FF_CHECK_OVERLAP = 1 << 1,
    OFPUTIL_FF_RESET_COUNTS = 1 << 2,
    OFPUTIL_FF_NO_PKT_COUNTS = 1 << 3,
    OFPUTIL_FF_NO_BYT_COUNTS = 1 << 4,
};

#define OFP_DEFAULT_PRIORITY 0x8000
#define OFP_FLOW_PERMANENT 0

struct ofputil_flow_mod {
    int command;                /* OFPFC_*. */
    uint8_t table_id;           /* 0xff: see the header. */
    struct match match;
    int priority;
    uint64_t cookie;            /* Filter (add: the new cookie). */
    uint64_t cookie_mask;
    uint64_t new_cookie;
    bool modify_cookie;
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint16_t importance;
    uint16_t flags;             /* OFPUTIL_FF_*. */
    uint32_t out_port;          /* OFPP_NONE: no filter. */
    uint32_t out_group;         /* OFPG_ANY: no filter. */
    uint32_t buffer_id;         /* OFP_NO_BUFFER: none. */
    const struct ofpact *ofpacts;
    size_t ofpacts_len;
};

void ofputil_flow_mod_init(struct ofputil_flow_mod *);
enum ofperr ofputil_decode_flow_mod(struct ofputil_flow_mod *,
                                    const struct ofp_header *,
                                    bool table_id_ext,
                                    struct ofpbuf *ofpacts);
/* Encodes 'fm' as OFPT_FLOW_MOD (OFPUTIL_P_OF10_STD) or NXT_FLOW_MOD
 * (OFPUTIL_P_OF10_NXM; with 'table_id_ext', the table in the command's
 * high byte). */
struct ofpbuf *ofputil_encode_flow_mod(const struct ofputil_flow_mod *,
                                       enum ofputil_protocol,
                                       bool table_id_ext);

/* Flow and aggregate statistics requests. */
struct ofputil_flow_stats_request {
    bool aggregate;
    struct match match;
    uint64_t cookie;
    uint64_t cookie_mask;
    uint32_t out_port;          /* OFPP_NONE: any. */
    uint32_t out_group;         /* OFPG_ANY: any. */
    uint8_t table_id;           /* 0xff: all. */
};

enum ofperr ofputil_decode_flow_stats_request(
    struct ofputil_flow_stats_request *, const struct ofp_header *);
struct ofpbuf *ofputil_encode_flow_stats_request(
    const struct ofputil_flow_stats_request *, enum ofputil_protocol);

/* One flow in a flow stats reply. */
struct ofputil_flow_stats {
    struct match match;
    uint64_t cookie;
    uint8_t table_id;
    uint16_t priority;
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint32_t duration_sec;
    uint32_t duration_nsec;
    int idle_age;               /* Seconds since last packet, -1: unknown. */
    int hard_age;               /* Seconds since last change, -1: unknown. */
    uint64_t packet_count;      /* UINT64_MAX: unknown. */
    uint64_t byte_count;
    uint16_t flags;             /* OFPUTIL_FF_* (OpenFlow 1.3+ only). */
    uint16_t importance;
    const struct ofpact *ofpacts;
    size_t ofpacts_len;
};

/* Replies: ofputil_start_flow_stats_reply() makes the first (empty) part
 * for 'request'; ofputil_append_flow_stats_reply() adds 'fs' to the last
 * part of 'replies' (an array of *n_replies messages the caller frees),
 * starting a new part (and setting "more" on the previous one) when the
 * message would pass 64 kB. */
struct ofpbuf *ofputil_start_flow_stats_reply(const struct ofp_header *req);
void ofputil_append_flow_stats_reply(const struct ofputil_flow_stats *,
                                     struct ofpbuf ***replies,
                                     size_t *n_replies);

/* Pulls the next flow from reply part 'msg' (first call: 'msg' as
 * received, which this pulls the headers of).  Returns 0, EOF at the end
 * of the part, or an OFPERR_*.  'ofpacts' receives the actions. */
int ofputil_decode_flow_stats_reply(struct ofputil_flow_stats *,
                                    struct ofpbuf *msg,
                                    struct ofpbuf *ofpacts);

struct ofputil_aggregate_stats {
    uint64_t packet_count;
    uint64_t byte_count;
    uint32_t flow_count;
};
struct ofpbuf *ofputil_encode_aggregate_stats_reply(
    const struct ofputil_aggregate_stats *, const struct ofp_header *req);
enum ofperr ofputil_decode_aggregate_stats_reply(
    struct ofputil_aggregate_stats *, const struct ofp_header *);

/* flow_removed. */
struct ofputil_flow_removed {
    struct match match;
    uint64_t cookie;
    uint16_t priority;
    uint8_t reason;             /* OFPRR_*: 0 idle, 1 hard, 2 delete... */
    uint8_t table_id;
    uint32_t duration_sec;
    uint32_t duration_nsec;
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint64_t packet_count;
    uint64_t byte_count;
};
struct ofpbuf *ofputil_encode_flow_removed(const struct ofputil_flow_removed *,
                                           enum ofputil_protocol);
enum ofperr ofputil_decode_flow_removed(struct ofputil_flow_removed *,
                                        const struct ofp_header *);

/* NXT_SET_FLOW_FORMAT: 0 = OpenFlow 1.0, 2 = NXM. */
enum { NXFF_OPENFLOW10 = 0, NXFF_NXM = 2 };
struct ofpbuf *ofputil_encode_set_flow_format(int nxff);
struct ofpbuf *ofputil_encode_flow_mod_table_id(bool enable);

/* Text, as ovs-ofctl prints it; ports by their names in 'port_map' (may
 * be NULL), as with --names. */
struct ofputil_port_map;
void ofputil_flow_stats_format(struct ds *, const struct ofputil_flow_stats *,
                               const struct ofputil_port_map *port_map,
                               bool show_stats);
void ofputil_format_flow_flags(struct ds *, uint16_t flags);
void ofputil_format_duration(struct ds *, uint32_t sec, uint32_t nsec);
enum ofperr ofp_print_flow_mod(struct ds *, const struct ofp_header *);
enum ofperr ofp_print_flow_stats_request(struct ds *,
                                         const struct ofp_header *);
enum ofperr ofp_print_flow_stats_reply(struct ds *, const struct ofp_header *);
enum ofperr ofp_print_flow_removed(struct ds *, const struct ofp_header *);

#endif /* ofp-flow.h */
