/* OpenFlow packet-out (see ofp-packet.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-packet.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-actions.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_packet);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* The fixed part of an OpenFlow 1.0 packet-out's body. */
#define PO10_BUFFER_ID 0
#define PO10_IN_PORT 4
#define PO10_ACTIONS_LEN 6
#define PO10_LEN 8
/* ofp11_packet_out (OpenFlow 1.1-1.4). */
#define PO11_BUFFER_ID 0
#define PO11_IN_PORT 4
#define PO11_ACTIONS_LEN 8
#define PO11_LEN 16
/* ofp15_packet_out: then a match (the packet's metadata: its in_port),
 * the actions and the packet. */
#define PO15_BUFFER_ID 0
#define PO15_ACTIONS_LEN 4
#define PO15_LEN 8

/* ofp_packet_in's fixed part, OpenFlow 1.0. */
#define PI10_BUFFER_ID 0
#define PI10_TOTAL_LEN 4
#define PI10_IN_PORT 6
#define PI10_REASON 8
#define PI10_LEN 10
/* OpenFlow 1.2-1.5 (the cookie from 1.3 on), before the match. */
#define PI13_BUFFER_ID 0
#define PI13_TOTAL_LEN 4
#define PI13_REASON 6
#define PI13_TABLE_ID 7
#define PI13_COOKIE 8
#define PI13_LEN 16
/* nx_packet_in, before the nx_match: the same first 16 bytes, then the
 * match's length and padding. */
#define NXPI_MATCH_LEN 16
#define NXPI_LEN 24

/* NXT_PACKET_IN2 property types. */
enum {
    NXPINT_PACKET = 0,
    NXPINT_FULL_LEN = 1,
    NXPINT_BUFFER_ID = 2,
    NXPINT_TABLE_ID = 3,
    NXPINT_COOKIE = 4,
    NXPINT_REASON = 5,
    NXPINT_METADATA = 6,
    NXPINT_USERDATA = 7,
    NXPINT_CONTINUATION = 8,
};

static ofp_packet_describe_func *packet_describer;

static bool in_port_ok(ofp_port_t);
static uint8_t reason_to_wire(uint8_t reason, enum ofp_version);
static void put_fixed(uint8_t *, const struct ofputil_packet_in *,
                      uint8_t reason);
static void pull_fixed(const uint8_t *, struct ofputil_packet_in *);
static size_t put_oxm_metadata(struct ofpbuf *, const struct match *,
                               enum ofp_version);
static size_t prop_start(struct ofpbuf *, uint16_t type);
static void prop_end(struct ofpbuf *, size_t start);
static void prop_put(struct ofpbuf *, uint16_t type, const void *,
                     size_t len);
static enum ofperr decode_packet_in2(struct ofputil_packet_in *,
                                     struct ofpbuf *);

/* See ofp-packet.h. */
enum ofperr
ofputil_decode_packet_out(struct ofputil_packet_out *po,
                          const struct ofp_header *oh,
                          struct ofpbuf *ofpacts)
{
    struct ofpbuf b;
    enum ofpraw raw;

    memset(po, 0, sizeof *po);
    ofpbuf_clear(ofpacts);
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    const uint8_t *p;
    if (raw == OFPRAW_OFPT10_PACKET_OUT) {
        p = ofpbuf_pull(&b, PO10_LEN);
        po->buffer_id = ofp_get_be32(p + PO10_BUFFER_ID);
        po->in_port = ofp_get_be16(p + PO10_IN_PORT);
        error = ofpacts_pull_openflow_actions(
            &b, ofp_get_be16(p + PO10_ACTIONS_LEN), oh->version, ofpacts);
    } else if (raw == OFPRAW_OFPT13_PACKET_OUT) {
        p = ofpbuf_pull(&b, PO11_LEN);
        po->buffer_id = ofp_get_be32(p + PO11_BUFFER_ID);
        if (!ofp_port_from_ofp11(ofp_get_be32(p + PO11_IN_PORT),
                                 &po->in_port)) {
            return OFPERR_OFPBAC_BAD_OUT_PORT;
        }
        error = ofpacts_pull_openflow_actions(
            &b, ofp_get_be16(p + PO11_ACTIONS_LEN), oh->version, ofpacts);
    } else if (raw == OFPRAW_OFPT15_PACKET_OUT) {
        struct match metadata;

        p = ofpbuf_pull(&b, PO15_LEN);
        po->buffer_id = ofp_get_be32(p + PO15_BUFFER_ID);
        error = ofputil_pull_ofp11_match(&b, false, &metadata);
        if (error) {
            return error;
        }
        po->in_port = (metadata.mask.in_port ? metadata.flow.in_port
                       : OFPP_NONE);
        error = ofpacts_pull_openflow_actions(
            &b, ofp_get_be16(p + PO15_ACTIONS_LEN), oh->version, ofpacts);
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    if (error) {
        return error;
    }
    po->ofpacts = ofpacts->data;
    po->ofpacts_len = ofpacts->size;
    po->packet = b.data;
    po->packet_len = b.size;

    if (!in_port_ok(po->in_port)) {
        VLOG_WARN_RL(&rl, "packet-out has bad input port %#"PRIx16,
                     po->in_port);
        return OFPERR_OFPBRC_BAD_PORT;
    }
    return 0;
}

/* See ofp-packet.h. */
struct ofpbuf *
ofputil_encode_packet_out(const struct ofputil_packet_out *po,
                          enum ofp_version version)
{
    bool of10 = version == OFP10_VERSION;
    bool of15 = version >= OFP15_VERSION;
    size_t fixed = of10 ? PO10_LEN : of15 ? PO15_LEN : PO11_LEN;
    struct ofpbuf *b = ofpraw_alloc(of10 ? OFPRAW_OFPT10_PACKET_OUT
                                    : of15 ? OFPRAW_OFPT15_PACKET_OUT
                                    : OFPRAW_OFPT13_PACKET_OUT,
                                    version, ofpmsg_next_xid(),
                                    fixed + 16 + po->ofpacts_len
                                    + po->packet_len);
    size_t start = b->size;

    ofpbuf_put_zeros(b, fixed);
    if (of15) {
        struct match metadata;

        match_init_catchall(&metadata);
        if (po->in_port != OFPP_NONE) {
            match_set_in_port(&metadata, po->in_port);
        }
        ofputil_put_ofp11_match(b, &metadata);
    }
    size_t actions_len = ofpacts_put_openflow_actions(po->ofpacts,
                                                      po->ofpacts_len, b,
                                                      version);
    uint8_t *p = (uint8_t *) b->data + start;
    if (of10) {
        ofp_put_be32(p + PO10_BUFFER_ID, po->buffer_id);
        ofp_put_be16(p + PO10_IN_PORT, po->in_port);
        ofp_put_be16(p + PO10_ACTIONS_LEN, actions_len);
    } else if (of15) {
        ofp_put_be32(p + PO15_BUFFER_ID, po->buffer_id);
        ofp_put_be16(p + PO15_ACTIONS_LEN, actions_len);
    } else {
        ofp_put_be32(p + PO11_BUFFER_ID, po->buffer_id);
        ofp_put_be32(p + PO11_IN_PORT, ofp_port_to_ofp11(po->in_port));
        ofp_put_be16(p + PO11_ACTIONS_LEN, actions_len);
    }
    if (po->packet_len) {
        ofpbuf_put(b, po->packet, po->packet_len);
    }
    ofpmsg_update_length(b);
    return b;
}

/* See ofp-packet.h. */
char *
ofputil_parse_packet_out(struct ofputil_packet_out *po, const char *string,
                         const struct ofputil_port_map *map,
                         struct ofpbuf *ofpacts, struct ofpbuf *packet)
{
    char *copy = xstrdup(string);
    char *actions = NULL;
    char *error = NULL;

    memset(po, 0, sizeof *po);
    po->buffer_id = OFP_NO_BUFFER;
    po->in_port = OFPP_NONE;
    ofpbuf_clear(ofpacts);
    ofpbuf_clear(packet);

    /* Everything from "action" on is the actions (Open vSwitch's rule:
     * the text stops there even without an '='). */
    char *act = strstr(copy, "action");
    if (act) {
        *act = '\0';
        char *eq = strchr(act + 1, '=');
        actions = eq ? eq + 1 : NULL;
    }

    char *pos = copy;
    char *name, *value;
    while (!error && ofp_parse_key_value(&pos, &name, &value)) {
        if (!*value) {
            error = xasprintf("field %s missing value", name);
        } else if (!strcmp(name, "in_port")) {
            ofp_port_t port;
            if (!ofputil_port_parse(value, map, &port)) {
                error = xasprintf("%s is not a valid OpenFlow port", value);
            } else if (port > OFPP_MAX && !in_port_ok(port)) {
                error = xasprintf("%s is not a valid OpenFlow port for "
                                  "PACKET_OUT", value);
            } else {
                po->in_port = port;
            }
        } else if (!strcmp(name, "packet")) {
            const char *msg = ofputil_packet_from_hex(value, packet);
            if (msg) {
                error = xasprintf("%s: %s", name, msg);
            }
        } else if (!ofp_parse_field_name(name)) {
            error = xasprintf("unknown keyword %s", name);
        } else {
            error = xasprintf("%s is not a valid pipeline field for "
                              "PACKET_OUT", name);
        }
    }
    if (!error && !packet->size) {
        error = xstrdup("must specify packet");
    }
    if (!error && actions) {
        error = ofpacts_parse(actions, ofpacts, map);
    }
    free(copy);
    if (error) {
        return error;
    }
    po->ofpacts = ofpacts->data;
    po->ofpacts_len = ofpacts->size;
    po->packet = packet->data;
    po->packet_len = packet->size;
    return NULL;
}

/* See ofp-packet.h. */
const char *
ofputil_packet_from_hex(const char *hex, struct ofpbuf *packet)
{
    const char *end;

    /* ofpbuf_put_hex() also skips periods, which ovs-ofctl takes for
     * garbage in a packet. */
    ofpbuf_clear(packet);
    ofpbuf_put_hex(packet, hex, &end);
    if (*end || strchr(hex, '.')) {
        ofpbuf_clear(packet);
        return "Trailing garbage in packet data";
    } else if (packet->size < ETH_HEADER_LEN) {
        ofpbuf_clear(packet);
        return "Packet data too short for Ethernet";
    }
    return NULL;
}

/* See ofp-packet.h. */
enum ofperr
ofp_print_packet_out(struct ds *s, const struct ofp_header *oh,
                     const struct ofputil_port_map *map)
{
    struct ofputil_packet_out po;
    struct ofpbuf ofpacts;

    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = ofputil_decode_packet_out(&po, oh, &ofpacts);
    if (!error) {
        ds_put_cstr(s, " in_port=");
        ofputil_format_port(po.in_port, s);
        ds_put_cstr(s, " actions=");
        ofpacts_format(po.ofpacts, po.ofpacts_len, map, s);
        if (po.buffer_id == OFP_NO_BUFFER) {
            ds_put_format(s, " data_len=%zu\n", po.packet_len);
        } else {
            ds_put_format(s, " buffer=0x%08"PRIx32"\n", po.buffer_id);
        }
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

/* See ofp-packet.h. */
struct ofpbuf *
ofputil_encode_packet_in(const struct ofputil_packet_in *pin,
                         enum ofp_version version,
                         enum nx_packet_in_format format)
{
    uint8_t reason = reason_to_wire(pin->reason, version);
    struct ofpbuf *b;
    uint8_t *p;

    if (format == NXPIF_NXT_PACKET_IN2) {
        uint8_t u8[1];
        uint8_t be32[4];
        uint8_t be64[12] = { 0 };

        b = ofpraw_alloc(OFPRAW_NXT_PACKET_IN2, version, 0,
                         pin->packet_len + 64);
        prop_put(b, NXPINT_PACKET, pin->packet, pin->packet_len);
        if (pin->packet_len < pin->total_len) {
            ofp_put_be32(be32, pin->total_len);
            prop_put(b, NXPINT_FULL_LEN, be32, 4);
        }
        if (pin->buffer_id != OFP_NO_BUFFER) {
            ofp_put_be32(be32, pin->buffer_id);
            prop_put(b, NXPINT_BUFFER_ID, be32, 4);
        }
        u8[0] = pin->table_id;
        prop_put(b, NXPINT_TABLE_ID, u8, 1);
        if (pin->cookie != UINT64_MAX) {
            /* The value starts 8-byte aligned, after 4 bytes of padding. */
            ofp_put_be64(be64 + 4, pin->cookie);
            prop_put(b, NXPINT_COOKIE, be64, 12);
        }
        u8[0] = reason;
        prop_put(b, NXPINT_REASON, u8, 1);
        size_t start = prop_start(b, NXPINT_METADATA);
        put_oxm_metadata(b, &pin->flow_metadata, version);
        prop_end(b, start);
        if (pin->userdata_len) {
            prop_put(b, NXPINT_USERDATA, pin->userdata, pin->userdata_len);
        }
    } else if (format == NXPIF_NXT_PACKET_IN) {
        b = ofpraw_alloc(OFPRAW_NXT_PACKET_IN, version, 0,
                         pin->packet_len + 64);
        size_t ofs = b->size;
        ofpbuf_put_zeros(b, NXPI_LEN);
        int match_len = nx_put_match(b, &pin->flow_metadata, 0, 0);
        ofpbuf_put_zeros(b, 2);
        ofpbuf_put(b, pin->packet, pin->packet_len);
        p = (uint8_t *) b->data + ofs;
        put_fixed(p, pin, reason);
        ofp_put_be16(p + NXPI_MATCH_LEN, match_len);
    } else if (version == OFP10_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPT10_PACKET_IN, version, 0,
                         pin->packet_len);
        p = ofpbuf_put_zeros(b, PI10_LEN);
        ofp_put_be32(p + PI10_BUFFER_ID, pin->buffer_id);
        ofp_put_be16(p + PI10_TOTAL_LEN, pin->total_len);
        ofp_put_be16(p + PI10_IN_PORT, pin->flow_metadata.flow.in_port);
        p[PI10_REASON] = reason;
        ofpbuf_put(b, pin->packet, pin->packet_len);
    } else {
        b = ofpraw_alloc(OFPRAW_OFPT13_PACKET_IN, version, 0,
                         pin->packet_len + 64);
        size_t ofs = b->size;
        ofpbuf_put_zeros(b, PI13_LEN);
        ofputil_put_ofp11_match_version(b, &pin->flow_metadata, version);
        ofpbuf_put_zeros(b, 2);
        ofpbuf_put(b, pin->packet, pin->packet_len);
        put_fixed((uint8_t *) b->data + ofs, pin, reason);
    }
    ofpmsg_update_length(b);
    return b;
}

/* See ofp-packet.h. */
enum ofperr
ofputil_decode_packet_in(struct ofputil_packet_in *pin,
                         const struct ofp_header *oh)
{
    struct ofpbuf b;
    enum ofpraw raw;
    const uint8_t *p;

    memset(pin, 0, sizeof *pin);
    match_init_catchall(&pin->flow_metadata);
    pin->cookie = UINT64_MAX;
    pin->buffer_id = OFP_NO_BUFFER;
    pin->reason = OFPR_ACTION;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }

    switch (raw) {
    case OFPRAW_OFPT10_PACKET_IN:
        p = ofpbuf_pull(&b, PI10_LEN);
        pin->buffer_id = ofp_get_be32(p + PI10_BUFFER_ID);
        pin->total_len = ofp_get_be16(p + PI10_TOTAL_LEN);
        match_set_in_port(&pin->flow_metadata,
                          ofp_get_be16(p + PI10_IN_PORT));
        pin->reason = p[PI10_REASON];
        break;
    case OFPRAW_OFPT13_PACKET_IN:
        pull_fixed(ofpbuf_pull(&b, PI13_LEN), pin);
        error = ofputil_pull_ofp11_match(&b, false, &pin->flow_metadata);
        if (error) {
            return error;
        }
        if (!ofpbuf_try_pull(&b, 2)) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        break;
    case OFPRAW_NXT_PACKET_IN: {
        p = ofpbuf_pull(&b, NXPI_LEN);
        pull_fixed(p, pin);
        error = nx_pull_match_loose(&b, ofp_get_be16(p + NXPI_MATCH_LEN),
                                    &pin->flow_metadata, NULL, NULL);
        if (error) {
            return error;
        }
        if (!ofpbuf_try_pull(&b, 2)) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        break;
    }
    case OFPRAW_NXT_PACKET_IN2:
        return decode_packet_in2(pin, &b);
    default:
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    pin->packet = b.data;
    pin->packet_len = b.size;
    return 0;
}

/* See ofp-packet.h. */
const char *
ofputil_packet_in_reason_to_string(unsigned int reason, char *buf,
                                   size_t bufsize)
{
    static const char *const names[] = {
        [OFPR_NO_MATCH] = "no_match",
        [OFPR_ACTION] = "action",
        [OFPR_INVALID_TTL] = "invalid_ttl",
        [OFPR_ACTION_SET] = "action_set",
        [OFPR_GROUP] = "group",
        [OFPR_PACKET_OUT] = "packet_out",
    };

    if (reason < ARRAY_SIZE(names)) {
        return names[reason];
    }
    snprintf(buf, bufsize, "%u", reason);
    return buf;
}

/* See ofp-packet.h. */
enum ofperr
ofp_print_packet_in(struct ds *s, const struct ofp_header *oh,
                    int verbosity, const struct ofputil_port_map *map)
{
    struct ofputil_packet_in pin;
    char reasonbuf[16];

    enum ofperr error = ofputil_decode_packet_in(&pin, oh);
    if (error) {
        return error;
    }
    if (pin.table_id) {
        ds_put_format(s, " table_id=%"PRIu8, pin.table_id);
    }
    if (pin.cookie != UINT64_MAX) {
        ds_put_format(s, " cookie=0x%"PRIx64, pin.cookie);
    }
    ds_put_format(s, " total_len=%zu ", pin.total_len);
    match_format(&pin.flow_metadata, map, s, INT_MIN, INT_MIN);
    ds_put_format(s, " (via %s)",
                  ofputil_packet_in_reason_to_string(pin.reason, reasonbuf,
                                                     sizeof reasonbuf));
    ds_put_format(s, " data_len=%zu", pin.packet_len);
    if (pin.buffer_id == OFP_NO_BUFFER) {
        ds_put_cstr(s, " (unbuffered)");
    } else {
        ds_put_format(s, " buffer=0x%08"PRIx32, pin.buffer_id);
    }
    ds_put_char(s, '\n');
    if (pin.userdata_len) {
        ds_put_cstr(s, " userdata=");
        for (size_t i = 0; i < pin.userdata_len; i++) {
            ds_put_format(s, "%s%02"PRIx8, i ? "." : "",
                          ((const uint8_t *) pin.userdata)[i]);
        }
        ds_put_char(s, '\n');
    }
    if (verbosity > 0 && packet_describer) {
        packet_describer(s, pin.packet, pin.packet_len);
    }
    return 0;
}

/* See ofp-packet.h. */
void
ofp_set_packet_describer(ofp_packet_describe_func *func)
{
    packet_describer = func;
}

/* A packet can come from a port, the local port, a controller or
 * nowhere. */
static bool
in_port_ok(ofp_port_t port)
{
    return (port < OFPP_MAX || port == OFPP_LOCAL || port == OFPP_NONE
            || port == OFPP_CONTROLLER);
}

/* The reason OpenFlow 'version' puts on the wire for 'reason': the
 * reasons OpenFlow 1.4 added are "action" before it. */
static uint8_t
reason_to_wire(uint8_t reason, enum ofp_version version)
{
    if (version < OFP14_VERSION
        && (reason == OFPR_ACTION_SET || reason == OFPR_GROUP
            || reason == OFPR_PACKET_OUT)) {
        return OFPR_ACTION;
    }
    return reason;
}

/* Writes the fields OpenFlow 1.2+ and Nicira packet-ins have at the same
 * places (buffer_id, total_len, reason, table_id, cookie) into 'p'. */
static void
put_fixed(uint8_t *p, const struct ofputil_packet_in *pin, uint8_t reason)
{
    ofp_put_be32(p + PI13_BUFFER_ID, pin->buffer_id);
    ofp_put_be16(p + PI13_TOTAL_LEN, pin->total_len);
    p[PI13_REASON] = reason;
    p[PI13_TABLE_ID] = pin->table_id;
    ofp_put_be64(p + PI13_COOKIE, pin->cookie);
}

static void
pull_fixed(const uint8_t *p, struct ofputil_packet_in *pin)
{
    pin->buffer_id = ofp_get_be32(p + PI13_BUFFER_ID);
    pin->total_len = ofp_get_be16(p + PI13_TOTAL_LEN);
    pin->reason = p[PI13_REASON];
    pin->table_id = p[PI13_TABLE_ID];
    pin->cookie = ofp_get_be64(p + PI13_COOKIE);
}

/* Appends the packet-in metadata 'match' as OXM entries for 'version'
 * (registers as xregs from OpenFlow 1.5 on), without padding; returns
 * their length. */
static size_t
put_oxm_metadata(struct ofpbuf *b, const struct match *match,
                 enum ofp_version version)
{
    return (version >= OFP15_VERSION ? oxm_put_match_of15(b, match)
            : oxm_put_match(b, match));
}

/* Starts an NXT_PACKET_IN2 property of 'type' at the end of 'b'; returns
 * its offset for prop_end(). */
static size_t
prop_start(struct ofpbuf *b, uint16_t type)
{
    size_t start = b->size;
    uint8_t *p = ofpbuf_put_zeros(b, 4);

    ofp_put_be16(p, type);
    return start;
}

/* Sets the length of the property that starts at 'start' and pads it to 8
 * bytes. */
static void
prop_end(struct ofpbuf *b, size_t start)
{
    size_t len = b->size - start;

    ofp_put_be16((uint8_t *) b->data + start + 2, len);
    ofpbuf_put_zeros(b, (len + 7) / 8 * 8 - len);
}

static void
prop_put(struct ofpbuf *b, uint16_t type, const void *value, size_t len)
{
    size_t start = prop_start(b, type);

    ofpbuf_put(b, value, len);
    prop_end(b, start);
}

/* Decodes the properties of an NXT_PACKET_IN2 (the rest of 'b'). */
static enum ofperr
decode_packet_in2(struct ofputil_packet_in *pin, struct ofpbuf *b)
{
    bool has_full_len = false;

    while (b->size) {
        if (b->size < 4) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        const uint8_t *p = b->data;
        uint16_t type = ofp_get_be16(p);
        uint16_t len = ofp_get_be16(p + 2);
        size_t padded = (len + 7u) / 8 * 8;
        if (len < 4 || padded > b->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        const uint8_t *v = p + 4;
        size_t vlen = len - 4;
        enum ofperr error = 0;

        switch (type) {
        case NXPINT_PACKET:
            pin->packet = v;
            pin->packet_len = vlen;
            break;
        case NXPINT_FULL_LEN:
            if (vlen != 4) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            pin->total_len = ofp_get_be32(v);
            has_full_len = true;
            break;
        case NXPINT_BUFFER_ID:
            if (vlen != 4) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            pin->buffer_id = ofp_get_be32(v);
            break;
        case NXPINT_TABLE_ID:
        case NXPINT_REASON:
            if (vlen != 1) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            if (type == NXPINT_TABLE_ID) {
                pin->table_id = v[0];
            } else {
                pin->reason = v[0];
            }
            break;
        case NXPINT_COOKIE:
            if (vlen != 12) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            pin->cookie = ofp_get_be64(v + 4);
            break;
        case NXPINT_METADATA: {
            /* The entries, padded to 8 on their own, as the match
             * decoder reads them. */
            struct ofpbuf m;
            ofpbuf_init(&m, vlen + 8);
            ofpbuf_put(&m, v, vlen);
            ofpbuf_put_zeros(&m, 8);
            error = nx_pull_match_loose(&m, vlen, &pin->flow_metadata, NULL,
                                        NULL);
            ofpbuf_uninit(&m);
            break;
        }
        case NXPINT_USERDATA:
            pin->userdata = v;
            pin->userdata_len = vlen;
            break;
        case NXPINT_CONTINUATION:
        default:
            /* Unknown properties are skipped, as Open vSwitch's decoder
             * does for a packet-in it only prints. */
            break;
        }
        if (error) {
            return error;
        }
        ofpbuf_pull(b, padded);
    }
    if (!has_full_len) {
        pin->total_len = pin->packet_len;
    }
    return 0;
}
