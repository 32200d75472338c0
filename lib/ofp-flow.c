/* OpenFlow flow messages (see ofp-flow.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-flow.h"
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-actions.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"

/* Body layouts (offsets after the message headers). */
enum {
    /* ofp10_flow_mod. */
    FM10_MATCH = 0, FM10_COOKIE = 40, FM10_COMMAND = 48, FM10_IDLE = 50,
    FM10_HARD = 52, FM10_PRIORITY = 54, FM10_BUFFER = 56, FM10_OUT_PORT = 60,
    FM10_FLAGS = 62, FM10_LEN = 64,

    /* nx_flow_mod. */
    NXFM_COOKIE = 0, NXFM_COMMAND = 8, NXFM_IDLE = 10, NXFM_HARD = 12,
    NXFM_PRIORITY = 14, NXFM_BUFFER = 16, NXFM_OUT_PORT = 20,
    NXFM_FLAGS = 22, NXFM_MATCH_LEN = 24, NXFM_LEN = 32,

    /* ofp10_flow_stats_request, nx_flow_stats_request. */
    FSR10_TABLE = 40, FSR10_OUT_PORT = 42, FSR10_LEN = 44,
    NXFSR_OUT_PORT = 0, NXFSR_MATCH_LEN = 2, NXFSR_TABLE = 4, NXFSR_LEN = 8,

    /* ofp10_flow_stats, nx_flow_stats. */
    FS_LENGTH = 0, FS_TABLE = 2,
    FS10_MATCH = 4, FS10_DURATION = 44, FS10_PRIORITY = 52, FS10_IDLE = 54,
    FS10_HARD = 56, FS10_COOKIE = 64, FS10_PACKETS = 72, FS10_BYTES = 80,
    FS10_LEN = 88,
    NXFS_DURATION = 4, NXFS_PRIORITY = 12, NXFS_IDLE = 14, NXFS_HARD = 16,
    NXFS_MATCH_LEN = 18, NXFS_IDLE_AGE = 20, NXFS_HARD_AGE = 22,
    NXFS_COOKIE = 24, NXFS_PACKETS = 32, NXFS_BYTES = 40, NXFS_LEN = 48,

    /* ofp10_flow_removed, nx_flow_removed. */
    FR10_MATCH = 0, FR10_COOKIE = 40, FR10_PRIORITY = 48, FR10_REASON = 50,
    FR10_DURATION = 52, FR10_IDLE = 60, FR10_PACKETS = 64, FR10_BYTES = 72,
    FR10_LEN = 80,
    NXFR_COOKIE = 0, NXFR_PRIORITY = 8, NXFR_REASON = 10, NXFR_TABLE = 11,
    NXFR_DURATION = 12, NXFR_IDLE = 20, NXFR_MATCH_LEN = 22,
    NXFR_PACKETS = 24, NXFR_BYTES = 32, NXFR_LEN = 40,
    /* ofp_flow_removed, OpenFlow 1.3-1.4 (the match follows). */
    FR13_COOKIE = 0, FR13_PRIORITY = 8, FR13_REASON = 10, FR13_TABLE = 11,
    FR13_DURATION = 12, FR13_IDLE = 20, FR13_HARD = 22, FR13_PACKETS = 24,
    FR13_BYTES = 32, FR13_LEN = 40,
    /* OpenFlow 1.5 (the match, then OXS statistics, follow). */
    FR15_TABLE = 0, FR15_REASON = 1, FR15_PRIORITY = 2, FR15_IDLE = 4,
    FR15_HARD = 6, FR15_COOKIE = 8, FR15_LEN = 16,

    /* ofp11_flow_mod (OpenFlow 1.1+; importance is 1.4's). */
    FM11_COOKIE = 0, FM11_COOKIE_MASK = 8, FM11_TABLE = 16,
    FM11_COMMAND = 17, FM11_IDLE = 18, FM11_HARD = 20, FM11_PRIORITY = 22,
    FM11_BUFFER = 24, FM11_OUT_PORT = 28, FM11_OUT_GROUP = 32,
    FM11_FLAGS = 36, FM11_IMPORTANCE = 38, FM11_LEN = 40,

    /* ofp11_flow_stats_request. */
    FSR11_TABLE = 0, FSR11_OUT_PORT = 4, FSR11_OUT_GROUP = 8,
    FSR11_COOKIE = 16, FSR11_COOKIE_MASK = 24, FSR11_LEN = 32,

    /* ofp11_flow_stats (flags: 1.3+, importance: 1.4+). */
    FS11_DURATION = 4, FS11_PRIORITY = 12, FS11_IDLE = 14, FS11_HARD = 16,
    FS11_FLAGS = 18, FS11_IMPORTANCE = 20, FS11_COOKIE = 24,
    FS11_PACKETS = 32, FS11_BYTES = 40, FS11_LEN = 48,

    /* ofp15_flow_desc: then the match, the OXS statistics, the
     * instructions. */
    FS15_TABLE = 4, FS15_PRIORITY = 6, FS15_IDLE = 8, FS15_HARD = 10,
    FS15_FLAGS = 12, FS15_IMPORTANCE = 14, FS15_COOKIE = 16, FS15_LEN = 24,
};

/* OpenFlow 1.5 statistics (OXS, OFPXSC_OPENFLOW_BASIC class) as Open
 * vSwitch sends them: the duration and idle time as seconds and
 * nanoseconds, the counts as 64 bits (the flow count as 32). */
#define OXS_CLASS_BASIC 0x8002
enum {
    OXS_DURATION = 0, OXS_IDLE_TIME = 1, OXS_FLOW_COUNT = 3,
    OXS_PACKET_COUNT = 4, OXS_BYTE_COUNT = 5,
};

/* OpenFlow 1.3+ flow_mod flags. */
enum {
    OFPFF13_SEND_FLOW_REM = 1, OFPFF13_CHECK_OVERLAP = 2,
    OFPFF13_RESET_COUNTS = 4, OFPFF13_NO_PKT_COUNTS = 8,
    OFPFF13_NO_BYT_COUNTS = 16,
};

/* OpenFlow 1.0 flow_mod flags. */
enum { OFPFF_SEND_FLOW_REM = 1, OFPFF_CHECK_OVERLAP = 2, OFPFF10_EMERG = 4 };

static void put_be64(uint8_t *p, uint64_t x);
static uint32_t port16_to_32(uint16_t port);
static uint16_t encode_flags(uint16_t flags);
static uint16_t encode_flags13(uint16_t flags);
static uint16_t decode_flags13(uint16_t raw_flags);
static uint64_t unknown_to_zero(uint64_t count);
static void put_fr15_stats(struct ofpbuf *,
                           const struct ofputil_flow_removed *);
static enum ofperr pull_fr15_stats(struct ofpbuf *,
                                   struct ofputil_flow_removed *);
static uint16_t encode_age(int age);
static enum ofperr decode_flow_mod_of11(struct ofputil_flow_mod *,
                                        const struct ofp_header *,
                                        struct ofpbuf *body,
                                        struct ofpbuf *ofpacts);
static struct ofpbuf *encode_flow_mod_of11(const struct ofputil_flow_mod *,
                                           enum ofp_version);
static enum ofperr port_from_ofp11(uint32_t port, uint32_t *out);
static void append_flow_desc15(struct ofpbuf *,
                               const struct ofputil_flow_stats *);
static enum ofperr decode_flow_desc15(struct ofputil_flow_stats *,
                                      struct ofpbuf *msg,
                                      struct ofpbuf *ofpacts);
static size_t oxs_start(struct ofpbuf *);
static void oxs_put(struct ofpbuf *, int field, uint64_t value, size_t len);
static void oxs_end(struct ofpbuf *, size_t start);
static enum ofperr oxs_pull(struct ofpbuf *, struct ofputil_flow_stats *,
                            uint32_t *flow_count);

void
ofputil_flow_mod_init(struct ofputil_flow_mod *fm)
{
    memset(fm, 0, sizeof *fm);
    match_init_catchall(&fm->match);
    fm->table_id = OFPTT_ALL;
    fm->priority = OFP_DEFAULT_PRIORITY;
    fm->new_cookie = UINT64_MAX;
    fm->out_port = OFPP_NONE;
    fm->out_group = OFPG_ANY;
    fm->buffer_id = OFP_NO_BUFFER;
}

/* Decodes the flow_mod 'oh' (OFPT_FLOW_MOD for OpenFlow 1.0, or
 * NXT_FLOW_MOD) into 'fm', its actions into 'ofpacts'.  'table_id_ext':
 * whether NXT_FLOW_MOD_TABLE_ID is on for the connection (the command's
 * high byte is then the table). */
enum ofperr
ofputil_decode_flow_mod(struct ofputil_flow_mod *fm,
                        const struct ofp_header *oh, bool table_id_ext,
                        struct ofpbuf *ofpacts)
{
    struct ofpbuf b;
    enum ofpraw raw;
    uint16_t command, raw_flags;
    enum ofperr error;

    ofputil_flow_mod_init(fm);
    ofpbuf_clear(ofpacts);
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }

    const uint8_t *p = b.data;
    if (raw == OFPRAW_OFPT13_FLOW_MOD) {
        return decode_flow_mod_of11(fm, oh, &b, ofpacts);
    } else if (raw == OFPRAW_OFPT10_FLOW_MOD) {
        ofpbuf_pull(&b, FM10_LEN);
        ofputil_match_from_ofp10(p + FM10_MATCH, &fm->match);
        ofputil_normalize_match(&fm->match);
        /* OpenFlow 1.0: exact-match flows have the highest priority. */
        fm->priority = (ofputil_ofp10_wildcards(p + FM10_MATCH)
                        ? ofp_get_be16(p + FM10_PRIORITY) : UINT16_MAX);
        command = ofp_get_be16(p + FM10_COMMAND);
        fm->new_cookie = ofp_get_be64(p + FM10_COOKIE);
        fm->idle_timeout = ofp_get_be16(p + FM10_IDLE);
        fm->hard_timeout = ofp_get_be16(p + FM10_HARD);
        fm->buffer_id = ofp_get_be32(p + FM10_BUFFER);
        fm->out_port = port16_to_32(ofp_get_be16(p + FM10_OUT_PORT));
        raw_flags = ofp_get_be16(p + FM10_FLAGS);
    } else if (raw == OFPRAW_NXT_FLOW_MOD) {
        ofpbuf_pull(&b, NXFM_LEN);
        error = nx_pull_match(&b, ofp_get_be16(p + NXFM_MATCH_LEN),
                              &fm->match, &fm->cookie, &fm->cookie_mask);
        if (error) {
            return error;
        }
        command = ofp_get_be16(p + NXFM_COMMAND);
        if ((command & 0xff) == OFPFC_ADD && fm->cookie_mask) {
            /* Adds may set a cookie, not match one. */
            return OFPERR_NXBRC_NXM_INVALID;
        }
        fm->priority = ofp_get_be16(p + NXFM_PRIORITY);
        fm->new_cookie = ofp_get_be64(p + NXFM_COOKIE);
        fm->idle_timeout = ofp_get_be16(p + NXFM_IDLE);
        fm->hard_timeout = ofp_get_be16(p + NXFM_HARD);
        fm->buffer_id = ofp_get_be32(p + NXFM_BUFFER);
        fm->out_port = port16_to_32(ofp_get_be16(p + NXFM_OUT_PORT));
        raw_flags = ofp_get_be16(p + NXFM_FLAGS);
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }

    fm->modify_cookie = fm->new_cookie != UINT64_MAX;
    if (table_id_ext) {
        fm->command = command & 0xff;
        fm->table_id = command >> 8;
    } else {
        fm->command = command;
        fm->table_id = OFPTT_ALL;
    }
    if (fm->command == OFPFC_ADD) {
        fm->cookie = fm->new_cookie;
    }

    error = ofpacts_pull_openflow_actions(&b, b.size, oh->version, ofpacts);
    if (error) {
        return error;
    }
    fm->ofpacts = ofpacts->data;
    fm->ofpacts_len = ofpacts->size;

    if (raw_flags & ~(OFPFF_SEND_FLOW_REM | OFPFF_CHECK_OVERLAP
                      | OFPFF10_EMERG)) {
        return OFPERR_OFPFMFC_BAD_FLAGS;
    }
    if (raw_flags & OFPFF10_EMERG) {
        /* No emergency flow cache (not required by OpenFlow 1.0.1). */
        return (fm->idle_timeout || fm->hard_timeout
                ? OFPERR_OFPFMFC_BAD_EMERG_TIMEOUT
                : OFPERR_OFPFMFC_TABLE_FULL);
    }
    fm->flags = ((raw_flags & OFPFF_SEND_FLOW_REM
                  ? OFPUTIL_FF_SEND_FLOW_REM : 0)
                 | (raw_flags & OFPFF_CHECK_OVERLAP
                    ? OFPUTIL_FF_CHECK_OVERLAP : 0));
    if (fm->command > OFPFC_DELETE_STRICT) {
        return OFPERR_OFPFMFC_BAD_COMMAND;
    }
    return 0;
}

/* Encodes 'fm' (see the header). */
struct ofpbuf *
ofputil_encode_flow_mod(const struct ofputil_flow_mod *fm,
                        enum ofputil_protocol protocol, bool table_id_ext)
{
    uint16_t command = fm->command;
    struct ofpbuf *b;
    uint8_t *p;

    /* The message's cookie field is the new cookie; a modify that leaves
     * cookies alone carries the filter cookie there instead (0 without
     * one), as Open vSwitch's ovs-ofctl sends it, which a switch then
     * takes as the new cookie. */
    uint64_t cookie = (fm->command == OFPFC_ADD || fm->modify_cookie
                       ? fm->new_cookie : fm->cookie);

    if (protocol & (OFPUTIL_P_OF13_OXM | OFPUTIL_P_OF14_OXM
                    | OFPUTIL_P_OF15_OXM)) {
        return encode_flow_mod_of11(fm, ofputil_protocol_to_version(
                                            protocol));
    }
    if (table_id_ext) {
        command |= fm->table_id << 8;
    }
    if (protocol == OFPUTIL_P_OF10_STD) {
        b = ofpraw_alloc(OFPRAW_OFPT10_FLOW_MOD, OFP10_VERSION,
                         ofpmsg_next_xid(), fm->ofpacts_len);
        p = ofpbuf_put_zeros(b, FM10_LEN);
        ofputil_match_to_ofp10(&fm->match, p + FM10_MATCH);
        put_be64(p + FM10_COOKIE, cookie);
        ofp_put_be16(p + FM10_COMMAND, command);
        ofp_put_be16(p + FM10_IDLE, fm->idle_timeout);
        ofp_put_be16(p + FM10_HARD, fm->hard_timeout);
        ofp_put_be16(p + FM10_PRIORITY, fm->priority);
        ofp_put_be32(p + FM10_BUFFER, fm->buffer_id);
        ofp_put_be16(p + FM10_OUT_PORT, fm->out_port);
        ofp_put_be16(p + FM10_FLAGS, encode_flags(fm->flags));
    } else {
        b = ofpraw_alloc(OFPRAW_NXT_FLOW_MOD, OFP10_VERSION,
                         ofpmsg_next_xid(), fm->ofpacts_len + 64);
        size_t ofs = b->size;
        ofpbuf_put_zeros(b, NXFM_LEN);
        int match_len = nx_put_match(b, &fm->match, fm->cookie,
                                     fm->cookie_mask);
        p = (uint8_t *) b->data + ofs;
        put_be64(p + NXFM_COOKIE, cookie);
        ofp_put_be16(p + NXFM_COMMAND, command);
        ofp_put_be16(p + NXFM_IDLE, fm->idle_timeout);
        ofp_put_be16(p + NXFM_HARD, fm->hard_timeout);
        ofp_put_be16(p + NXFM_PRIORITY, fm->priority);
        ofp_put_be32(p + NXFM_BUFFER, fm->buffer_id);
        ofp_put_be16(p + NXFM_OUT_PORT, fm->out_port);
        ofp_put_be16(p + NXFM_FLAGS, encode_flags(fm->flags));
        ofp_put_be16(p + NXFM_MATCH_LEN, match_len);
    }
    ofpacts_put_openflow_actions(fm->ofpacts, fm->ofpacts_len, b,
                                 OFP10_VERSION);
    ofpmsg_update_length(b);
    return b;
}

/* Flow stats requests. */

enum ofperr
ofputil_decode_flow_stats_request(struct ofputil_flow_stats_request *fsr,
                                  const struct ofp_header *oh)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error;

    memset(fsr, 0, sizeof *fsr);
    fsr->out_group = OFPG_ANY;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    const uint8_t *p = b.data;
    switch (raw) {
    case OFPRAW_OFPST10_FLOW_REQUEST:
    case OFPRAW_OFPST10_AGGREGATE_REQUEST:
        fsr->aggregate = raw == OFPRAW_OFPST10_AGGREGATE_REQUEST;
        ofputil_match_from_ofp10(p, &fsr->match);
        fsr->out_port = ofp_get_be16(p + FSR10_OUT_PORT);
        fsr->table_id = p[FSR10_TABLE];
        return 0;

    case OFPRAW_OFPST13_FLOW_REQUEST:
    case OFPRAW_OFPST13_AGGREGATE_REQUEST:
        fsr->aggregate = raw == OFPRAW_OFPST13_AGGREGATE_REQUEST;
        ofpbuf_pull(&b, FSR11_LEN);
        fsr->table_id = p[FSR11_TABLE];
        error = port_from_ofp11(ofp_get_be32(p + FSR11_OUT_PORT),
                                &fsr->out_port);
        if (error) {
            return error;
        }
        fsr->out_group = ofp_get_be32(p + FSR11_OUT_GROUP);
        fsr->cookie = ofp_get_be64(p + FSR11_COOKIE);
        fsr->cookie_mask = ofp_get_be64(p + FSR11_COOKIE_MASK);
        error = ofputil_pull_ofp11_match(&b, true, &fsr->match);
        if (!error && b.size) {
            error = OFPERR_OFPBRC_BAD_LEN;
        }
        return error;

    case OFPRAW_NXST_FLOW_REQUEST:
    case OFPRAW_NXST_AGGREGATE_REQUEST:
        fsr->aggregate = raw == OFPRAW_NXST_AGGREGATE_REQUEST;
        ofpbuf_pull(&b, NXFSR_LEN);
        error = nx_pull_match(&b, ofp_get_be16(p + NXFSR_MATCH_LEN),
                              &fsr->match, &fsr->cookie, &fsr->cookie_mask);
        if (error) {
            return error;
        }
        if (b.size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        fsr->out_port = ofp_get_be16(p + NXFSR_OUT_PORT);
        fsr->table_id = p[NXFSR_TABLE];
        return 0;

    default:
        return OFPERR_OFPBRC_BAD_TYPE;
    }
}

struct ofpbuf *
ofputil_encode_flow_stats_request(const struct ofputil_flow_stats_request *fsr,
                                  enum ofputil_protocol protocol)
{
    struct ofpbuf *b;
    uint8_t *p;

    if (protocol & (OFPUTIL_P_OF13_OXM | OFPUTIL_P_OF14_OXM
                    | OFPUTIL_P_OF15_OXM)) {
        b = ofpraw_alloc(fsr->aggregate ? OFPRAW_OFPST13_AGGREGATE_REQUEST
                                        : OFPRAW_OFPST13_FLOW_REQUEST,
                         ofputil_protocol_to_version(protocol),
                         ofpmsg_next_xid(), 64);
        p = ofpbuf_put_zeros(b, FSR11_LEN);
        p[FSR11_TABLE] = fsr->table_id;
        ofp_put_be32(p + FSR11_OUT_PORT, ofp_port_to_ofp11(fsr->out_port));
        ofp_put_be32(p + FSR11_OUT_GROUP, fsr->out_group);
        put_be64(p + FSR11_COOKIE, fsr->cookie);
        put_be64(p + FSR11_COOKIE_MASK, fsr->cookie_mask);
        ofputil_put_ofp11_match(b, &fsr->match);
    } else if (protocol == OFPUTIL_P_OF10_STD) {
        b = ofpraw_alloc(fsr->aggregate ? OFPRAW_OFPST10_AGGREGATE_REQUEST
                                        : OFPRAW_OFPST10_FLOW_REQUEST,
                         OFP10_VERSION, ofpmsg_next_xid(), 0);
        p = ofpbuf_put_zeros(b, FSR10_LEN);
        ofputil_match_to_ofp10(&fsr->match, p);
        p[FSR10_TABLE] = fsr->table_id;
        ofp_put_be16(p + FSR10_OUT_PORT, fsr->out_port);
    } else {
        b = ofpraw_alloc(fsr->aggregate ? OFPRAW_NXST_AGGREGATE_REQUEST
                                        : OFPRAW_NXST_FLOW_REQUEST,
                         OFP10_VERSION, ofpmsg_next_xid(), 64);
        size_t ofs = b->size;
        ofpbuf_put_zeros(b, NXFSR_LEN);
        int match_len = nx_put_match(b, &fsr->match, fsr->cookie,
                                     fsr->cookie_mask);
        p = (uint8_t *) b->data + ofs;
        ofp_put_be16(p + NXFSR_OUT_PORT, fsr->out_port);
        ofp_put_be16(p + NXFSR_MATCH_LEN, match_len);
        p[NXFSR_TABLE] = fsr->table_id;
    }
    ofpmsg_update_length(b);
    return b;
}

/* Flow stats replies. */

struct ofpbuf *
ofputil_start_flow_stats_reply(const struct ofp_header *request)
{
    enum ofpraw raw;

    if (ofpraw_decode(&raw, request)) {
        raw = OFPRAW_OFPST10_FLOW_REQUEST;
    }
    return ofpraw_alloc_reply(raw == OFPRAW_NXST_FLOW_REQUEST
                              ? OFPRAW_NXST_FLOW_REPLY
                              : raw != OFPRAW_OFPST13_FLOW_REQUEST
                              ? OFPRAW_OFPST10_FLOW_REPLY
                              : request->version >= OFP15_VERSION
                              ? OFPRAW_OFPST15_FLOW_REPLY
                              : OFPRAW_OFPST13_FLOW_REPLY, request, 0);
}

void
ofputil_append_flow_stats_reply(const struct ofputil_flow_stats *fs,
                                struct ofpbuf ***replies, size_t *n_replies)
{
    struct ofpbuf *reply = (*replies)[*n_replies - 1];
    enum ofpraw raw;
    size_t start = reply->size;
    uint8_t *p;

    /* The header moves as the reply grows: read what it says first. */
    ofpraw_decode_partial(&raw, reply->header, reply->size);
    const uint8_t version = ((const struct ofp_header *) reply->header)
                            ->version;
    if (raw == OFPRAW_OFPST15_FLOW_REPLY) {
        append_flow_desc15(reply, fs);
        p = (uint8_t *) reply->data + start;
    } else if (raw == OFPRAW_OFPST13_FLOW_REPLY) {
        ofpbuf_put_zeros(reply, FS11_LEN);
        ofputil_put_ofp11_match(reply, &fs->match);
        ofpacts_put_openflow_instructions(fs->ofpacts, fs->ofpacts_len, reply,
                                          version);
        p = (uint8_t *) reply->data + start;
        p[FS_TABLE] = fs->table_id;
        ofp_put_be32(p + FS11_DURATION, fs->duration_sec);
        ofp_put_be32(p + FS11_DURATION + 4, fs->duration_nsec);
        ofp_put_be16(p + FS11_PRIORITY, fs->priority);
        ofp_put_be16(p + FS11_IDLE, fs->idle_timeout);
        ofp_put_be16(p + FS11_HARD, fs->hard_timeout);
        ofp_put_be16(p + FS11_FLAGS, encode_flags13(fs->flags));
        if (version >= OFP14_VERSION) {
            ofp_put_be16(p + FS11_IMPORTANCE, fs->importance);
        }
        put_be64(p + FS11_COOKIE, fs->cookie);
        put_be64(p + FS11_PACKETS, unknown_to_zero(fs->packet_count));
        put_be64(p + FS11_BYTES, unknown_to_zero(fs->byte_count));
    } else if (raw == OFPRAW_NXST_FLOW_REPLY) {
        ofpbuf_put_zeros(reply, NXFS_LEN);
        int match_len = nx_put_match(reply, &fs->match, 0, 0);
        ofpacts_put_openflow_actions(fs->ofpacts, fs->ofpacts_len, reply,
                                     OFP10_VERSION);
        p = (uint8_t *) reply->data + start;
        p[FS_TABLE] = fs->table_id;
        ofp_put_be32(p + NXFS_DURATION, fs->duration_sec);
        ofp_put_be32(p + NXFS_DURATION + 4, fs->duration_nsec);
        ofp_put_be16(p + NXFS_PRIORITY, fs->priority);
        ofp_put_be16(p + NXFS_IDLE, fs->idle_timeout);
        ofp_put_be16(p + NXFS_HARD, fs->hard_timeout);
        ofp_put_be16(p + NXFS_MATCH_LEN, match_len);
        ofp_put_be16(p + NXFS_IDLE_AGE, encode_age(fs->idle_age));
        ofp_put_be16(p + NXFS_HARD_AGE, encode_age(fs->hard_age));
        put_be64(p + NXFS_COOKIE, fs->cookie);
        put_be64(p + NXFS_PACKETS, unknown_to_zero(fs->packet_count));
        put_be64(p + NXFS_BYTES, unknown_to_zero(fs->byte_count));
    } else {
        ofpbuf_put_zeros(reply, FS10_LEN);
        ofpacts_put_openflow_actions(fs->ofpacts, fs->ofpacts_len, reply,
                                     OFP10_VERSION);
        p = (uint8_t *) reply->data + start;
        p[FS_TABLE] = fs->table_id;
        ofputil_match_to_ofp10(&fs->match, p + FS10_MATCH);
        ofp_put_be32(p + FS10_DURATION, fs->duration_sec);
        ofp_put_be32(p + FS10_DURATION + 4, fs->duration_nsec);
        ofp_put_be16(p + FS10_PRIORITY, fs->priority);
        ofp_put_be16(p + FS10_IDLE, fs->idle_timeout);
        ofp_put_be16(p + FS10_HARD, fs->hard_timeout);
        put_be64(p + FS10_COOKIE, fs->cookie);
        put_be64(p + FS10_PACKETS, unknown_to_zero(fs->packet_count));
        put_be64(p + FS10_BYTES, unknown_to_zero(fs->byte_count));
    }
    ofp_put_be16(p + FS_LENGTH, reply->size - start);

    /* Too big for one part: move this flow into a new part. */
    if (ofpbuf_header_size(reply) > UINT16_MAX && reply->size - start
        < UINT16_MAX - 24) {
        const struct ofp_header *first = (*replies)[0]->header;
        struct ofpbuf *next = ofpraw_alloc_reply(raw, first, 0);
        ofpbuf_put(next, (uint8_t *) reply->data + start,
                   reply->size - start);
        reply->size = start;
        ofpmsg_update_length(reply);
        uint8_t *flags = (uint8_t *) reply->header + 10;
        ofp_put_be16(flags, ofp_get_be16(flags) | OFPSF_REPLY_MORE);
        *replies = xrealloc(*replies, (*n_replies + 1) * sizeof **replies);
        (*replies)[(*n_replies)++] = next;
        reply = next;
    }
    ofpmsg_update_length(reply);
}

int
ofputil_decode_flow_stats_reply(struct ofputil_flow_stats *fs,
                                struct ofpbuf *msg, struct ofpbuf *ofpacts)
{
    enum ofpraw raw;
    enum ofperr error;

    if (!msg->header) {
        error = ofpraw_pull(&raw, msg);
        if (error) {
            return error;
        }
    } else if (ofpraw_decode(&raw, msg->header)) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    if (!msg->size) {
        return EOF;
    }

    const struct ofp_header *oh = msg->header;
    memset(fs, 0, sizeof *fs);
    fs->idle_age = fs->hard_age = -1;
    ofpbuf_clear(ofpacts);

    if (msg->size < 4) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const uint8_t *p = msg->data;
    size_t length = ofp_get_be16(p + FS_LENGTH);
    if (length > msg->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }

    size_t actions_len;
    if (raw == OFPRAW_OFPST15_FLOW_REPLY) {
        return decode_flow_desc15(fs, msg, ofpacts);
    } else if (raw == OFPRAW_OFPST13_FLOW_REPLY) {
        if (length < FS11_LEN) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        struct ofpbuf entry;
        ofpbuf_use_const(&entry, p, length);
        ofpbuf_pull(&entry, FS11_LEN);
        error = ofputil_pull_ofp11_match(&entry, false, &fs->match);
        if (error) {
            return error;
        }
        ofpbuf_pull(msg, length - entry.size);
        fs->table_id = p[FS_TABLE];
        fs->duration_sec = ofp_get_be32(p + FS11_DURATION);
        fs->duration_nsec = ofp_get_be32(p + FS11_DURATION + 4);
        fs->priority = ofp_get_be16(p + FS11_PRIORITY);
        fs->idle_timeout = ofp_get_be16(p + FS11_IDLE);
        fs->hard_timeout = ofp_get_be16(p + FS11_HARD);
        fs->flags = decode_flags13(ofp_get_be16(p + FS11_FLAGS));
        if (oh->version >= OFP14_VERSION) {
            fs->importance = ofp_get_be16(p + FS11_IMPORTANCE);
        }
        fs->cookie = ofp_get_be64(p + FS11_COOKIE);
        fs->packet_count = ofp_get_be64(p + FS11_PACKETS);
        fs->byte_count = ofp_get_be64(p + FS11_BYTES);
        error = ofpacts_pull_openflow_instructions(msg, entry.size,
                                                   oh->version, ofpacts);
        if (error) {
            return error;
        }
        fs->ofpacts = ofpacts->data;
        fs->ofpacts_len = ofpacts->size;
        return 0;
    } else if (raw == OFPRAW_NXST_FLOW_REPLY) {
        if (length < NXFS_LEN) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        unsigned int match_len = ofp_get_be16(p + NXFS_MATCH_LEN);
        size_t padded = (match_len + 7) / 8 * 8;
        if (length < NXFS_LEN + padded) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        ofpbuf_pull(msg, NXFS_LEN);
        error = nx_pull_match_loose(msg, match_len, &fs->match, NULL, NULL);
        if (error) {
            return error;
        }
        actions_len = length - NXFS_LEN - padded;
        fs->duration_sec = ofp_get_be32(p + NXFS_DURATION);
        fs->duration_nsec = ofp_get_be32(p + NXFS_DURATION + 4);
        fs->priority = ofp_get_be16(p + NXFS_PRIORITY);
        fs->idle_timeout = ofp_get_be16(p + NXFS_IDLE);
        fs->hard_timeout = ofp_get_be16(p + NXFS_HARD);
        if (ofp_get_be16(p + NXFS_IDLE_AGE)) {
            fs->idle_age = ofp_get_be16(p + NXFS_IDLE_AGE) - 1;
        }
        if (ofp_get_be16(p + NXFS_HARD_AGE)) {
            fs->hard_age = ofp_get_be16(p + NXFS_HARD_AGE) - 1;
        }
        fs->cookie = ofp_get_be64(p + NXFS_COOKIE);
        fs->packet_count = ofp_get_be64(p + NXFS_PACKETS);
        fs->byte_count = ofp_get_be64(p + NXFS_BYTES);
    } else if (raw == OFPRAW_OFPST10_FLOW_REPLY) {
        if (length < FS10_LEN) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        ofpbuf_pull(msg, FS10_LEN);
        ofputil_match_from_ofp10(p + FS10_MATCH, &fs->match);
        actions_len = length - FS10_LEN;
        fs->duration_sec = ofp_get_be32(p + FS10_DURATION);
        fs->duration_nsec = ofp_get_be32(p + FS10_DURATION + 4);
        fs->priority = ofp_get_be16(p + FS10_PRIORITY);
        fs->idle_timeout = ofp_get_be16(p + FS10_IDLE);
        fs->hard_timeout = ofp_get_be16(p + FS10_HARD);
        fs->cookie = ofp_get_be64(p + FS10_COOKIE);
        fs->packet_count = ofp_get_be64(p + FS10_PACKETS);
        fs->byte_count = ofp_get_be64(p + FS10_BYTES);
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    fs->table_id = p[FS_TABLE];

    error = ofpacts_pull_openflow_actions(msg, actions_len, oh->version,
                                          ofpacts);
    if (error) {
        return error;
    }
    fs->ofpacts = ofpacts->data;
    fs->ofpacts_len = ofpacts->size;
    return 0;
}

/* Aggregate. */

struct ofpbuf *
ofputil_encode_aggregate_stats_reply(const struct ofputil_aggregate_stats *as,
                                     const struct ofp_header *request)
{
    enum ofpraw raw;

    if (ofpraw_decode(&raw, request)) {
        raw = OFPRAW_OFPST10_AGGREGATE_REQUEST;
    }
    if (raw == OFPRAW_OFPST13_AGGREGATE_REQUEST
        && request->version >= OFP15_VERSION) {
        struct ofpbuf *b = ofpraw_alloc_reply(OFPRAW_OFPST15_AGGREGATE_REPLY,
                                              request, 40);
        size_t start = oxs_start(b);
        oxs_put(b, OXS_PACKET_COUNT, unknown_to_zero(as->packet_count), 8);
        oxs_put(b, OXS_BYTE_COUNT, unknown_to_zero(as->byte_count), 8);
        oxs_put(b, OXS_FLOW_COUNT, as->flow_count, 4);
        oxs_end(b, start);
        ofpmsg_update_length(b);
        return b;
    }
    struct ofpbuf *b = ofpraw_alloc_reply(
        (raw == OFPRAW_NXST_AGGREGATE_REQUEST ? OFPRAW_NXST_AGGREGATE_REPLY
         : raw == OFPRAW_OFPST13_AGGREGATE_REQUEST
         ? OFPRAW_OFPST13_AGGREGATE_REPLY : OFPRAW_OFPST10_AGGREGATE_REPLY),
        request, 0);
    uint8_t *p = ofpbuf_put_zeros(b, 24);
    put_be64(p, unknown_to_zero(as->packet_count));
    put_be64(p + 8, unknown_to_zero(as->byte_count));
    ofp_put_be32(p + 16, as->flow_count);
    ofpmsg_update_length(b);
    return b;
}

enum ofperr
ofputil_decode_aggregate_stats_reply(struct ofputil_aggregate_stats *as,
                                     const struct ofp_header *oh)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error;

    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (ofptype_from_ofpraw(raw) != OFPTYPE_AGGREGATE_STATS_REPLY) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    if (raw == OFPRAW_OFPST15_AGGREGATE_REPLY) {
        struct ofputil_flow_stats fs;

        memset(&fs, 0, sizeof fs);
        as->flow_count = 0;
        error = oxs_pull(&b, &fs, &as->flow_count);
        as->packet_count = fs.packet_count;
        as->byte_count = fs.byte_count;
        return error;
    }
    const uint8_t *p = b.data;
    as->packet_count = ofp_get_be64(p);
    as->byte_count = ofp_get_be64(p + 8);
    as->flow_count = ofp_get_be32(p + 16);
    return 0;
}

/* flow_removed. */

struct ofpbuf *
ofputil_encode_flow_removed(const struct ofputil_flow_removed *fr,
                            enum ofputil_protocol protocol)
{
    struct ofpbuf *b;
    uint8_t *p;

    if (protocol == OFPUTIL_P_OF10_STD) {
        b = ofpraw_alloc(OFPRAW_OFPT10_FLOW_REMOVED, OFP10_VERSION, 0, 0);
        p = ofpbuf_put_zeros(b, FR10_LEN);
        ofputil_match_to_ofp10(&fr->match, p + FR10_MATCH);
        put_be64(p + FR10_COOKIE, fr->cookie);
        ofp_put_be16(p + FR10_PRIORITY, fr->priority);
        p[FR10_REASON] = fr->reason;
        ofp_put_be32(p + FR10_DURATION, fr->duration_sec);
        ofp_put_be32(p + FR10_DURATION + 4, fr->duration_nsec);
        ofp_put_be16(p + FR10_IDLE, fr->idle_timeout);
        put_be64(p + FR10_PACKETS, unknown_to_zero(fr->packet_count));
        put_be64(p + FR10_BYTES, unknown_to_zero(fr->byte_count));
    } else if (protocol & (OFPUTIL_P_OF13_OXM | OFPUTIL_P_OF14_OXM)) {
        enum ofp_version version = ofputil_protocol_to_version(protocol);
        b = ofpraw_alloc(OFPRAW_OFPT13_FLOW_REMOVED, version, 0, 64);
        size_t ofs = b->size;
        ofpbuf_put_zeros(b, FR13_LEN);
        ofputil_put_ofp11_match(b, &fr->match);
        p = (uint8_t *) b->data + ofs;
        put_be64(p + FR13_COOKIE, fr->cookie);
        ofp_put_be16(p + FR13_PRIORITY, fr->priority);
        p[FR13_REASON] = fr->reason;
        p[FR13_TABLE] = fr->table_id;
        ofp_put_be32(p + FR13_DURATION, fr->duration_sec);
        ofp_put_be32(p + FR13_DURATION + 4, fr->duration_nsec);
        ofp_put_be16(p + FR13_IDLE, fr->idle_timeout);
        ofp_put_be16(p + FR13_HARD, fr->hard_timeout);
        put_be64(p + FR13_PACKETS, unknown_to_zero(fr->packet_count));
        put_be64(p + FR13_BYTES, unknown_to_zero(fr->byte_count));
    } else if (protocol & OFPUTIL_P_OF15_OXM) {
        b = ofpraw_alloc(OFPRAW_OFPT15_FLOW_REMOVED, OFP15_VERSION, 0, 96);
        size_t ofs = b->size;
        ofpbuf_put_zeros(b, FR15_LEN);
        ofputil_put_ofp11_match_version(b, &fr->match, OFP15_VERSION);
        p = (uint8_t *) b->data + ofs;
        p[FR15_TABLE] = fr->table_id;
        p[FR15_REASON] = fr->reason;
        ofp_put_be16(p + FR15_PRIORITY, fr->priority);
        ofp_put_be16(p + FR15_IDLE, fr->idle_timeout);
        ofp_put_be16(p + FR15_HARD, fr->hard_timeout);
        put_be64(p + FR15_COOKIE, fr->cookie);
        put_fr15_stats(b, fr);
    } else {
        b = ofpraw_alloc(OFPRAW_NXT_FLOW_REMOVED, OFP10_VERSION, 0, 64);
        size_t ofs = b->size;
        ofpbuf_put_zeros(b, NXFR_LEN);
        int match_len = nx_put_match(b, &fr->match, 0, 0);
        p = (uint8_t *) b->data + ofs;
        put_be64(p + NXFR_COOKIE, fr->cookie);
        ofp_put_be16(p + NXFR_PRIORITY, fr->priority);
        p[NXFR_REASON] = fr->reason;
        p[NXFR_TABLE] = fr->table_id + 1;
        ofp_put_be32(p + NXFR_DURATION, fr->duration_sec);
        ofp_put_be32(p + NXFR_DURATION + 4, fr->duration_nsec);
        ofp_put_be16(p + NXFR_IDLE, fr->idle_timeout);
        ofp_put_be16(p + NXFR_MATCH_LEN, match_len);
        put_be64(p + NXFR_PACKETS, unknown_to_zero(fr->packet_count));
        put_be64(p + NXFR_BYTES, unknown_to_zero(fr->byte_count));
    }
    ofpmsg_update_length(b);
    return b;
}

enum ofperr
ofputil_decode_flow_removed(struct ofputil_flow_removed *fr,
                            const struct ofp_header *oh)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error;

    memset(fr, 0, sizeof *fr);
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    const uint8_t *p = b.data;
    if (raw == OFPRAW_OFPT10_FLOW_REMOVED) {
        ofputil_match_from_ofp10(p + FR10_MATCH, &fr->match);
        fr->cookie = ofp_get_be64(p + FR10_COOKIE);
        fr->priority = ofp_get_be16(p + FR10_PRIORITY);
        fr->reason = p[FR10_REASON];
        fr->table_id = 255;
        fr->duration_sec = ofp_get_be32(p + FR10_DURATION);
        fr->duration_nsec = ofp_get_be32(p + FR10_DURATION + 4);
        fr->idle_timeout = ofp_get_be16(p + FR10_IDLE);
        fr->packet_count = ofp_get_be64(p + FR10_PACKETS);
        fr->byte_count = ofp_get_be64(p + FR10_BYTES);
        return 0;
    } else if (raw == OFPRAW_NXT_FLOW_REMOVED) {
        ofpbuf_pull(&b, NXFR_LEN);
        error = nx_pull_match(&b, ofp_get_be16(p + NXFR_MATCH_LEN),
                              &fr->match, NULL, NULL);
        if (error) {
            return error;
        }
        if (b.size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        fr->cookie = ofp_get_be64(p + NXFR_COOKIE);
        fr->priority = ofp_get_be16(p + NXFR_PRIORITY);
        fr->reason = p[NXFR_REASON];
        fr->table_id = p[NXFR_TABLE] ? p[NXFR_TABLE] - 1 : 255;
        fr->duration_sec = ofp_get_be32(p + NXFR_DURATION);
        fr->duration_nsec = ofp_get_be32(p + NXFR_DURATION + 4);
        fr->idle_timeout = ofp_get_be16(p + NXFR_IDLE);
        fr->packet_count = ofp_get_be64(p + NXFR_PACKETS);
        fr->byte_count = ofp_get_be64(p + NXFR_BYTES);
        return 0;
    } else if (raw == OFPRAW_OFPT13_FLOW_REMOVED) {
        ofpbuf_pull(&b, FR13_LEN);
        error = ofputil_pull_ofp11_match(&b, false, &fr->match);
        if (error) {
            return error;
        }
        fr->cookie = ofp_get_be64(p + FR13_COOKIE);
        fr->priority = ofp_get_be16(p + FR13_PRIORITY);
        fr->reason = p[FR13_REASON];
        fr->table_id = p[FR13_TABLE];
        fr->duration_sec = ofp_get_be32(p + FR13_DURATION);
        fr->duration_nsec = ofp_get_be32(p + FR13_DURATION + 4);
        fr->idle_timeout = ofp_get_be16(p + FR13_IDLE);
        fr->hard_timeout = ofp_get_be16(p + FR13_HARD);
        fr->packet_count = ofp_get_be64(p + FR13_PACKETS);
        fr->byte_count = ofp_get_be64(p + FR13_BYTES);
        return 0;
    } else if (raw == OFPRAW_OFPT15_FLOW_REMOVED) {
        ofpbuf_pull(&b, FR15_LEN);
        error = ofputil_pull_ofp11_match(&b, false, &fr->match);
        if (error) {
            return error;
        }
        fr->table_id = p[FR15_TABLE];
        fr->reason = p[FR15_REASON];
        fr->priority = ofp_get_be16(p + FR15_PRIORITY);
        fr->idle_timeout = ofp_get_be16(p + FR15_IDLE);
        fr->hard_timeout = ofp_get_be16(p + FR15_HARD);
        fr->cookie = ofp_get_be64(p + FR15_COOKIE);
        return pull_fr15_stats(&b, fr);
    }
    return OFPERR_OFPBRC_BAD_TYPE;
}


struct ofpbuf *
ofputil_encode_set_flow_format(int nxff)
{
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_NXT_SET_FLOW_FORMAT,
                                    OFP10_VERSION, ofpmsg_next_xid(), 0);
    uint8_t *p = ofpbuf_put_zeros(b, 4);
    ofp_put_be32(p, nxff);
    ofpmsg_update_length(b);
    return b;
}

struct ofpbuf *
ofputil_encode_flow_mod_table_id(bool enable)
{
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_NXT_FLOW_MOD_TABLE_ID,
                                    OFP10_VERSION, ofpmsg_next_xid(), 0);
    uint8_t *p = ofpbuf_put_zeros(b, 8);
    p[0] = enable;
    ofpmsg_update_length(b);
    return b;
}

/* One flow as dump-flows prints it (without the leading space). */
void
ofputil_flow_stats_format(struct ds *s, const struct ofputil_flow_stats *fs,
                          const struct ofputil_port_map *port_map,
                          bool show_stats)
{
    if (show_stats || fs->cookie) {
        ds_put_format(s, "cookie=0x%"PRIx64", ", fs->cookie);
    }
    if (show_stats) {
        ds_put_cstr(s, "duration=");
        ofputil_format_duration(s, fs->duration_sec, fs->duration_nsec);
        ds_put_cstr(s, ", ");
    }
    if (show_stats || fs->table_id) {
        ds_put_format(s, "table=%"PRIu8", ", fs->table_id);
    }
    if (show_stats) {
        ds_put_format(s, "n_packets=%"PRIu64", ", fs->packet_count);
        ds_put_format(s, "n_bytes=%"PRIu64", ", fs->byte_count);
    }
    if (fs->idle_timeout != OFP_FLOW_PERMANENT) {
        ds_put_format(s, "idle_timeout=%"PRIu16", ", fs->idle_timeout);
    }
    if (fs->hard_timeout != OFP_FLOW_PERMANENT) {
        ds_put_format(s, "hard_timeout=%"PRIu16", ", fs->hard_timeout);
    }
    if (fs->flags) {
        ofputil_format_flow_flags(s, fs->flags);
    }
    if (fs->importance) {
        ds_put_format(s, "importance=%"PRIu16", ", fs->importance);
    }
    if (show_stats && fs->idle_age >= 0) {
        ds_put_format(s, "idle_age=%d, ", fs->idle_age);
    }
    if (show_stats && fs->hard_age >= 0
        && (uint32_t) fs->hard_age != fs->duration_sec) {
        ds_put_format(s, "hard_age=%d, ", fs->hard_age);
    }

    size_t length = s->length;
    match_format(&fs->match, port_map, s, fs->priority,
                 OFP_DEFAULT_PRIORITY);
    if (s->length != length) {
        ds_put_char(s, ' ');
    }
    ds_put_cstr(s, "actions=");
    ofpacts_format(fs->ofpacts, fs->ofpacts_len, port_map, s);
}

void
ofputil_format_flow_flags(struct ds *s, uint16_t flags)
{
    if (flags & OFPUTIL_FF_SEND_FLOW_REM) {
        ds_put_cstr(s, "send_flow_rem ");
    }
    if (flags & OFPUTIL_FF_CHECK_OVERLAP) {
        ds_put_cstr(s, "check_overlap ");
    }
    if (flags & OFPUTIL_FF_RESET_COUNTS) {
        ds_put_cstr(s, "reset_counts ");
    }
    if (flags & OFPUTIL_FF_NO_PKT_COUNTS) {
        ds_put_cstr(s, "no_packet_counts ");
    }
    if (flags & OFPUTIL_FF_NO_BYT_COUNTS) {
        ds_put_cstr(s, "no_byte_counts ");
    }
}

/* Text. */

void
ofputil_format_duration(struct ds *s, uint32_t sec, uint32_t nsec)
{
    ds_put_format(s, "%"PRIu32, sec);
    if (nsec > 0) {
        if (!(nsec % 1000000)) {
            ds_put_format(s, ".%03"PRIu32, nsec / 1000000);
        } else if (!(nsec % 1000)) {
            ds_put_format(s, ".%06"PRIu32, nsec / 1000);
        } else {
            ds_put_format(s, ".%09"PRIu32, nsec);
        }
    }
    ds_put_char(s, 's');
}

enum ofperr
ofp_print_flow_mod(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    enum ofperr error;

    /* As Open vSwitch prints it: the command's high byte as the table
     * (NXT_FLOW_MOD_TABLE_ID), shown unless it is 0. */
    ofpbuf_init(&ofpacts, 64);
    error = ofputil_decode_flow_mod(&fm, oh, true, &ofpacts);
    if (error) {
        ofpbuf_uninit(&ofpacts);
        return error;
    }

    static const char *const commands[] = {
        "ADD", "MOD", "MOD_STRICT", "DEL", "DEL_STRICT",
    };
    ds_put_char(s, ' ');
    if (fm.command >= 0 && fm.command < 5) {
        ds_put_cstr(s, commands[fm.command]);
    } else {
        ds_put_format(s, "cmd:%d", fm.command);
    }
    ds_put_char(s, ' ');
    if (fm.table_id) {
        ds_put_format(s, "table:%"PRIu8" ", fm.table_id);
    }

    size_t length = s->length;
    match_format(&fm.match, NULL, s, fm.priority, OFP_DEFAULT_PRIORITY);
    if (s->length > length) {
        ds_put_char(s, ' ');
    }
    if (fm.new_cookie && fm.new_cookie != UINT64_MAX) {
        ds_put_format(s, "cookie:0x%"PRIx64" ", fm.new_cookie);
    }
    if (fm.cookie_mask) {
        ds_put_format(s, "cookie:0x%"PRIx64"/0x%"PRIx64" ",
                      fm.cookie, fm.cookie_mask);
    }
    if (fm.idle_timeout != OFP_FLOW_PERMANENT) {
        ds_put_format(s, "idle:%"PRIu16" ", fm.idle_timeout);
    }
    if (fm.hard_timeout != OFP_FLOW_PERMANENT) {
        ds_put_format(s, "hard:%"PRIu16" ", fm.hard_timeout);
    }
    if (fm.buffer_id != OFP_NO_BUFFER) {
        ds_put_format(s, "buf:0x%"PRIx32" ", fm.buffer_id);
    }
    if (fm.out_port != OFPP_NONE) {
        ds_put_cstr(s, "out_port:");
        ofputil_format_port(fm.out_port, s);
        ds_put_char(s, ' ');
    }
    ofputil_format_flow_flags(s, fm.flags);
    ds_put_cstr(s, "actions=");
    ofpacts_format(fm.ofpacts, fm.ofpacts_len, NULL, s);
    ds_put_char(s, '\n');
    ofpbuf_uninit(&ofpacts);
    return 0;
}

enum ofperr
ofp_print_flow_stats_request(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_flow_stats_request fsr;
    enum ofperr error = ofputil_decode_flow_stats_request(&fsr, oh);

    if (error) {
        return error;
    }
    if (fsr.table_id != 0xff) {
        ds_put_format(s, " table=%"PRIu8, fsr.table_id);
    }
    if (fsr.out_port != OFPP_NONE) {
        ds_put_cstr(s, " out_port=");
        ofputil_format_port(fsr.out_port, s);
    }
    ds_put_char(s, ' ');
    match_format(&fsr.match, NULL, s, OFP_DEFAULT_PRIORITY,
                 OFP_DEFAULT_PRIORITY);
    ds_chomp(s, ' ');
    ds_put_char(s, '\n');
    return 0;
}

enum ofperr
ofp_print_flow_stats_reply(struct ds *s, const struct ofp_header *oh)
{
    struct ofpbuf b, ofpacts;

    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    ofpbuf_init(&ofpacts, 64);
    for (;;) {
        struct ofputil_flow_stats fs;
        int retval = ofputil_decode_flow_stats_reply(&fs, &b, &ofpacts);
        if (retval) {
            if (retval != EOF) {
                ds_put_cstr(s, " ***parse error***");
            }
            break;
        }
        ds_put_cstr(s, "\n ");
        ofputil_flow_stats_format(s, &fs, NULL, true);
    }
    ds_put_char(s, '\n');
    ofpbuf_uninit(&ofpacts);
    return 0;
}

enum ofperr
ofp_print_flow_removed(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_flow_removed fr;
    enum ofperr error = ofputil_decode_flow_removed(&fr, oh);
    static const char *const reasons[] = {
        "idle", "hard", "delete", "group_delete", "meter_delete",
        "eviction",
    };

    if (error) {
        return error;
    }
    ds_put_char(s, ' ');
    match_format(&fr.match, NULL, s, fr.priority, OFP_DEFAULT_PRIORITY);
    ds_put_format(s, " reason=%s", fr.reason < 6 ? reasons[fr.reason]
                                                : "<unknown>");
    if (fr.table_id != 255) {
        ds_put_format(s, " table_id=%"PRIu8, fr.table_id);
    }
    if (fr.cookie) {
        ds_put_format(s, " cookie:0x%"PRIx64, fr.cookie);
    }
    ds_put_cstr(s, " duration");
    ofputil_format_duration(s, fr.duration_sec, fr.duration_nsec);
    ds_put_format(s, " idle%"PRIu16, fr.idle_timeout);
    if (fr.hard_timeout) {
        ds_put_format(s, " hard%"PRIu16, fr.hard_timeout);
    }
    ds_put_format(s, " pkts%"PRIu64" bytes%"PRIu64"\n",
                  fr.packet_count, fr.byte_count);
    return 0;
}

static void
put_be64(uint8_t *p, uint64_t x)
{
    ofp_put_be32(p, x >> 32);
    ofp_put_be32(p + 4, x);
}

static uint32_t
port16_to_32(uint16_t port)
{
    return port;
}

static uint16_t
encode_flags(uint16_t flags)
{
    return ((flags & OFPUTIL_FF_SEND_FLOW_REM ? OFPFF_SEND_FLOW_REM : 0)
            | (flags & OFPUTIL_FF_CHECK_OVERLAP ? OFPFF_CHECK_OVERLAP : 0));
}

static uint64_t
unknown_to_zero(uint64_t count)
{
    return count == UINT64_MAX ? 0 : count;
}

static uint16_t
encode_age(int age)
{
    return age < 0 ? 0 : age < UINT16_MAX ? age + 1 : UINT16_MAX;
}

/* Decodes the body 'b' of OpenFlow 1.1+ flow_mod 'oh' (see
 * ofputil_decode_flow_mod()), as Open vSwitch 3.1 reads it: an add takes
 * the cookie field as the new cookie; a modify never changes cookies and,
 * like a delete, filters on cookie and cookie_mask; table 255 is only for
 * deletes; out_group filters only deletes. */
static enum ofperr
decode_flow_mod_of11(struct ofputil_flow_mod *fm, const struct ofp_header *oh,
                     struct ofpbuf *b, struct ofpbuf *ofpacts)
{
    const uint8_t *p = b->data;
    enum ofperr error;

    ofpbuf_pull(b, FM11_LEN);
    error = ofputil_pull_ofp11_match(b, true, &fm->match);
    if (error) {
        return error;
    }
    fm->command = p[FM11_COMMAND];
    fm->priority = ofp_get_be16(p + FM11_PRIORITY);
    if (fm->command == OFPFC_ADD) {
        fm->new_cookie = fm->cookie = ofp_get_be64(p + FM11_COOKIE);
        fm->cookie_mask = 0;
    } else {
        fm->cookie = ofp_get_be64(p + FM11_COOKIE);
        fm->cookie_mask = ofp_get_be64(p + FM11_COOKIE_MASK);
        fm->new_cookie = UINT64_MAX;
    }
    fm->modify_cookie = false;
    fm->table_id = p[FM11_TABLE];
    if (fm->table_id == OFPTT_ALL && fm->command != OFPFC_DELETE
        && fm->command != OFPFC_DELETE_STRICT) {
        return OFPERR_OFPFMFC_BAD_TABLE_ID;
    }
    fm->idle_timeout = ofp_get_be16(p + FM11_IDLE);
    fm->hard_timeout = ofp_get_be16(p + FM11_HARD);
    fm->importance = (oh->version >= OFP14_VERSION && fm->command == OFPFC_ADD
                      ? ofp_get_be16(p + FM11_IMPORTANCE) : 0);
    fm->buffer_id = ofp_get_be32(p + FM11_BUFFER);
    error = port_from_ofp11(ofp_get_be32(p + FM11_OUT_PORT), &fm->out_port);
    if (error) {
        return error;
    }
    fm->out_group = (fm->command == OFPFC_DELETE
                     || fm->command == OFPFC_DELETE_STRICT
                     ? ofp_get_be32(p + FM11_OUT_GROUP) : OFPG_ANY);

    uint16_t raw_flags = ofp_get_be16(p + FM11_FLAGS);
    uint16_t known = (OFPFF13_SEND_FLOW_REM | OFPFF13_CHECK_OVERLAP
                      | OFPFF13_RESET_COUNTS | OFPFF13_NO_PKT_COUNTS
                      | OFPFF13_NO_BYT_COUNTS);
    if (raw_flags & ~known) {
        return OFPERR_OFPFMFC_BAD_FLAGS;
    }
    fm->flags = decode_flags13(raw_flags);
    if (fm->command > OFPFC_DELETE_STRICT) {
        return OFPERR_OFPFMFC_BAD_COMMAND;
    }

    error = ofpacts_pull_openflow_instructions(b, b->size, oh->version,
                                               ofpacts);
    if (error) {
        return error;
    }
    fm->ofpacts = ofpacts->data;
    fm->ofpacts_len = ofpacts->size;
    return 0;
}

/* Encodes 'fm' as an OpenFlow 1.1+ flow_mod for 'version', as Open
 * vSwitch's ovs-ofctl does. */
static struct ofpbuf *
encode_flow_mod_of11(const struct ofputil_flow_mod *fm,
                     enum ofp_version version)
{
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_OFPT13_FLOW_MOD, version,
                                    ofpmsg_next_xid(),
                                    fm->ofpacts_len + 64);
    size_t ofs = b->size;
    ofpbuf_put_zeros(b, FM11_LEN);
    ofputil_put_ofp11_match(b, &fm->match);
    uint8_t *p = (uint8_t *) b->data + ofs;

    bool add = fm->command == OFPFC_ADD;
    put_be64(p + FM11_COOKIE, add ? fm->new_cookie : fm->cookie);
    put_be64(p + FM11_COOKIE_MASK, add ? 0 : fm->cookie_mask);
    p[FM11_TABLE] = (fm->table_id == OFPTT_ALL && fm->command != OFPFC_DELETE
                     && fm->command != OFPFC_DELETE_STRICT
                     ? 0 : fm->table_id);
    p[FM11_COMMAND] = fm->command;
    ofp_put_be16(p + FM11_IDLE, fm->idle_timeout);
    ofp_put_be16(p + FM11_HARD, fm->hard_timeout);
    ofp_put_be16(p + FM11_PRIORITY, fm->priority);
    ofp_put_be32(p + FM11_BUFFER, fm->buffer_id);
    ofp_put_be32(p + FM11_OUT_PORT, ofp_port_to_ofp11(fm->out_port));
    ofp_put_be32(p + FM11_OUT_GROUP, fm->out_group);
    ofp_put_be16(p + FM11_FLAGS, encode_flags13(fm->flags));
    if (version >= OFP14_VERSION) {
        ofp_put_be16(p + FM11_IMPORTANCE, fm->importance);
    }
    ofpacts_put_openflow_instructions(fm->ofpacts, fm->ofpacts_len, b,
                                      version);
    ofpmsg_update_length(b);
    return b;
}

/* Converts OpenFlow 1.1+ port 'port' to the 16-bit numbering kept in a
 * uint32_t filter (OFPP_NONE for OFPP_ANY). */
static enum ofperr
port_from_ofp11(uint32_t port, uint32_t *out)
{
    ofp_port_t p16;

    if (!ofp_port_from_ofp11(port, &p16)) {
        return OFPERR_OFPBAC_BAD_OUT_PORT;
    }
    *out = p16;
    return 0;
}

static uint16_t
encode_flags13(uint16_t flags)
{
    return ((flags & OFPUTIL_FF_SEND_FLOW_REM ? OFPFF13_SEND_FLOW_REM : 0)
            | (flags & OFPUTIL_FF_CHECK_OVERLAP ? OFPFF13_CHECK_OVERLAP : 0)
            | (flags & OFPUTIL_FF_RESET_COUNTS ? OFPFF13_RESET_COUNTS : 0)
            | (flags & OFPUTIL_FF_NO_PKT_COUNTS ? OFPFF13_NO_PKT_COUNTS : 0)
            | (flags & OFPUTIL_FF_NO_BYT_COUNTS ? OFPFF13_NO_BYT_COUNTS : 0));
}

static uint16_t
decode_flags13(uint16_t raw_flags)
{
    return ((raw_flags & OFPFF13_SEND_FLOW_REM ? OFPUTIL_FF_SEND_FLOW_REM : 0)
            | (raw_flags & OFPFF13_CHECK_OVERLAP
               ? OFPUTIL_FF_CHECK_OVERLAP : 0)
            | (raw_flags & OFPFF13_RESET_COUNTS
               ? OFPUTIL_FF_RESET_COUNTS : 0)
            | (raw_flags & OFPFF13_NO_PKT_COUNTS
               ? OFPUTIL_FF_NO_PKT_COUNTS : 0)
            | (raw_flags & OFPFF13_NO_BYT_COUNTS
               ? OFPUTIL_FF_NO_BYT_COUNTS : 0));
}

/* OXS statistics (OpenFlow 1.5's ofp_stats): class OFPXSC_OPENFLOW_BASIC,
 * the fields flow_removed carries. */
#define OXS_CLASS 0x8002u
#define OXS_HEADER(FIELD, LEN) ((OXS_CLASS << 16) | ((FIELD) << 9) | (LEN))

/* Appends 'fr''s duration and counters as OpenFlow 1.5 OXS statistics, as
 * Open vSwitch sends them in a flow_removed. */
static void
put_fr15_stats(struct ofpbuf *b, const struct ofputil_flow_removed *fr)
{
    size_t start = b->size;
    uint8_t *p = ofpbuf_put_zeros(b, 4 + 3 * 12);

    ofp_put_be16(p + 2, 4 + 3 * 12);
    p += 4;
    ofp_put_be32(p, OXS_HEADER(OXS_DURATION, 8));
    ofp_put_be32(p + 4, fr->duration_sec);
    ofp_put_be32(p + 8, fr->duration_nsec);
    ofp_put_be32(p + 12, OXS_HEADER(OXS_PACKET_COUNT, 8));
    put_be64(p + 16, unknown_to_zero(fr->packet_count));
    ofp_put_be32(p + 24, OXS_HEADER(OXS_BYTE_COUNT, 8));
    put_be64(p + 28, unknown_to_zero(fr->byte_count));
    size_t len = b->size - start;
    ofpbuf_put_zeros(b, (len + 7) / 8 * 8 - len);
}

/* Pulls OpenFlow 1.5 OXS statistics (what is left of 'b') into 'fr':
 * duration and counters; other fields are skipped. */
static enum ofperr
pull_fr15_stats(struct ofpbuf *b, struct ofputil_flow_removed *fr)
{
    if (b->size < 4) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const uint8_t *p = b->data;
    size_t len = ofp_get_be16(p + 2);
    if (len < 4 || (len + 7) / 8 * 8 != b->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    for (size_t ofs = 4; ofs < len;) {
        if (ofs + 4 > len) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        uint32_t header = ofp_get_be32(p + ofs);
        size_t flen = header & 0xff;
        const uint8_t *v = p + ofs + 4;
        if (ofs + 4 + flen > len) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        if (header >> 16 == OXS_CLASS && flen == 8) {
            switch ((header >> 9) & 0x7f) {
            case OXS_DURATION:
                fr->duration_sec = ofp_get_be32(v);
                fr->duration_nsec = ofp_get_be32(v + 4);
                break;
            case OXS_PACKET_COUNT:
                fr->packet_count = ofp_get_be64(v);
                break;
            case OXS_BYTE_COUNT:
                fr->byte_count = ofp_get_be64(v);
                break;
            default:
                break;
            }
        }
        ofs += 4 + flen;
    }
    return 0;
}

/* Appends 'fs' to 'reply' as an OpenFlow 1.5 flow description (its
 * length left for the caller to set). */
static void
append_flow_desc15(struct ofpbuf *reply, const struct ofputil_flow_stats *fs)
{
    const uint8_t version = ((const struct ofp_header *) reply->header)
                            ->version;
    uint8_t *p = ofpbuf_put_zeros(reply, FS15_LEN);

    p[FS15_TABLE] = fs->table_id;
    ofp_put_be16(p + FS15_PRIORITY, fs->priority);
    ofp_put_be16(p + FS15_IDLE, fs->idle_timeout);
    ofp_put_be16(p + FS15_HARD, fs->hard_timeout);
    ofp_put_be16(p + FS15_FLAGS, encode_flags13(fs->flags));
    ofp_put_be16(p + FS15_IMPORTANCE, fs->importance);
    put_be64(p + FS15_COOKIE, fs->cookie);
    ofputil_put_ofp11_match(reply, &fs->match);

    size_t stats = oxs_start(reply);
    oxs_put(reply, OXS_DURATION, ((uint64_t) fs->duration_sec << 32
                                  | fs->duration_nsec), 8);
    oxs_put(reply, OXS_IDLE_TIME,
            (uint64_t) (fs->idle_age < 0 ? 0 : fs->idle_age) << 32, 8);
    oxs_put(reply, OXS_PACKET_COUNT, unknown_to_zero(fs->packet_count), 8);
    oxs_put(reply, OXS_BYTE_COUNT, unknown_to_zero(fs->byte_count), 8);
    oxs_end(reply, stats);

    ofpacts_put_openflow_instructions(fs->ofpacts, fs->ofpacts_len, reply,
                                      version);
}

/* Pulls one OpenFlow 1.5 flow description from 'msg' into 'fs'. */
static enum ofperr
decode_flow_desc15(struct ofputil_flow_stats *fs, struct ofpbuf *msg,
                   struct ofpbuf *ofpacts)
{
    const struct ofp_header *oh = msg->header;
    const uint8_t *p = msg->data;
    size_t length = ofp_get_be16(p + FS_LENGTH);
    struct ofpbuf entry;
    enum ofperr error;

    if (length < FS15_LEN) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    ofpbuf_use_const(&entry, p, length);
    ofpbuf_pull(&entry, FS15_LEN);
    error = ofputil_pull_ofp11_match(&entry, false, &fs->match);
    if (!error) {
        error = oxs_pull(&entry, fs, NULL);
    }
    if (error) {
        return error;
    }
    fs->table_id = p[FS15_TABLE];
    fs->priority = ofp_get_be16(p + FS15_PRIORITY);
    fs->idle_timeout = ofp_get_be16(p + FS15_IDLE);
    fs->hard_timeout = ofp_get_be16(p + FS15_HARD);
    fs->flags = decode_flags13(ofp_get_be16(p + FS15_FLAGS));
    fs->importance = ofp_get_be16(p + FS15_IMPORTANCE);
    fs->cookie = ofp_get_be64(p + FS15_COOKIE);
    ofpbuf_pull(msg, length - entry.size);
    error = ofpacts_pull_openflow_instructions(msg, entry.size, oh->version,
                                               ofpacts);
    if (error) {
        return error;
    }
    fs->ofpacts = ofpacts->data;
    fs->ofpacts_len = ofpacts->size;
    return 0;
}

/* Starts an ofp_oxs_stat in 'b' (reserved, length); returns its offset for
 * oxs_end(). */
static size_t
oxs_start(struct ofpbuf *b)
{
    size_t start = b->size;

    ofpbuf_put_zeros(b, 4);
    return start;
}

/* Appends OXS field 'field' of 'len' bytes (4 or 8) with 'value'. */
static void
oxs_put(struct ofpbuf *b, int field, uint64_t value, size_t len)
{
    uint8_t *p = ofpbuf_put_zeros(b, 4 + len);

    ofp_put_be16(p, OXS_CLASS_BASIC);
    p[2] = field << 1;
    p[3] = len;
    if (len == 8) {
        put_be64(p + 4, value);
    } else {
        ofp_put_be32(p + 4, value);
    }
}

/* Sets the length of the ofp_oxs_stat at 'start' and pads it to 8 bytes. */
static void
oxs_end(struct ofpbuf *b, size_t start)
{
    size_t len = b->size - start;

    ofp_put_be16((uint8_t *) b->data + start + 2, len);
    ofpbuf_put_zeros(b, (len + 7) / 8 * 8 - len);
}

/* Pulls an ofp_oxs_stat (and its padding) from 'b' into the duration, idle
 * age and counts of 'fs' and, if 'flow_count' is nonnull, '*flow_count'.
 * Fields this does not know are skipped. */
static enum ofperr
oxs_pull(struct ofpbuf *b, struct ofputil_flow_stats *fs,
         uint32_t *flow_count)
{
    if (b->size < 4) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const uint8_t *p = b->data;
    size_t len = ofp_get_be16(p + 2);
    size_t padded = (len + 7) / 8 * 8;
    if (len < 4 || padded > b->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }

    for (size_t ofs = 4; ofs < len; ) {
        if (len - ofs < 4) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        const uint8_t *f = p + ofs;
        size_t f_len = f[3];
        if (f_len > len - ofs - 4) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        uint64_t value = (f_len == 8 ? ofp_get_be64(f + 4)
                          : f_len == 4 ? ofp_get_be32(f + 4) : 0);
        if (ofp_get_be16(f) == OXS_CLASS_BASIC) {
            switch (f[2] >> 1) {
            case OXS_DURATION:
                fs->duration_sec = value >> 32;
                fs->duration_nsec = value;
                break;
            case OXS_IDLE_TIME:
                fs->idle_age = value >> 32;
                break;
            case OXS_FLOW_COUNT:
                if (flow_count) {
                    *flow_count = value;
                }
                break;
            case OXS_PACKET_COUNT:
                fs->packet_count = value;
                break;
            case OXS_BYTE_COUNT:
                fs->byte_count = value;
                break;
            default:
                break;
            }
        }
        ofs += 4 + f_len;
    }
    ofpbuf_pull(b, padded);
    return 0;
}
