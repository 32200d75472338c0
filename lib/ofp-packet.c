/* OpenFlow packet-out (see ofp-packet.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-packet.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-actions.h"
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

static bool in_port_ok(ofp_port_t);

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
    size_t fixed = of10 ? PO10_LEN : PO11_LEN;
    struct ofpbuf *b = ofpraw_alloc(of10 ? OFPRAW_OFPT10_PACKET_OUT
                                         : OFPRAW_OFPT13_PACKET_OUT,
                                    version, ofpmsg_next_xid(),
                                    fixed + po->ofpacts_len
                                    + po->packet_len);
    size_t start = b->size;

    ofpbuf_put_zeros(b, fixed);
    size_t actions_len = ofpacts_put_openflow_actions(po->ofpacts,
                                                      po->ofpacts_len, b,
                                                      version);
    uint8_t *p = (uint8_t *) b->data + start;
    if (of10) {
        ofp_put_be32(p + PO10_BUFFER_ID, po->buffer_id);
        ofp_put_be16(p + PO10_IN_PORT, po->in_port);
        ofp_put_be16(p + PO10_ACTIONS_LEN, actions_len);
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

/* A packet can come from a port, the local port, a controller or
 * nowhere. */
static bool
in_port_ok(ofp_port_t port)
{
    return (port < OFPP_MAX || port == OFPP_LOCAL || port == OFPP_NONE
            || port == OFPP_CONTROLLER);
}
