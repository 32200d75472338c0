/* OpenFlow packet-out (see ofp-packet.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-packet.h"

#include <inttypes.h>
#include <string.h>
#include "ofp-actions.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_packet);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* The fixed part of an OpenFlow 1.0 packet-out's body. */
#define PO10_BUFFER_ID 0
#define PO10_IN_PORT 4
#define PO10_ACTIONS_LEN 6
#define PO10_LEN 8

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
    if (raw != OFPRAW_OFPT10_PACKET_OUT) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }

    const uint8_t *p = ofpbuf_pull(&b, PO10_LEN);
    po->buffer_id = ofp_get_be32(p + PO10_BUFFER_ID);
    po->in_port = ofp_get_be16(p + PO10_IN_PORT);
    error = ofpacts_pull_openflow_actions(&b,
                                          ofp_get_be16(p + PO10_ACTIONS_LEN),
                                          oh->version, ofpacts);
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
ofputil_encode_packet_out(const struct ofputil_packet_out *po)
{
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_OFPT10_PACKET_OUT, OFP10_VERSION,
                                    ofpmsg_next_xid(),
                                    PO10_LEN + po->ofpacts_len
                                    + po->packet_len);
    size_t start = b->size;

    ofpbuf_put_zeros(b, PO10_LEN);
    size_t actions_len = ofpacts_put_openflow_actions(po->ofpacts,
                                                      po->ofpacts_len, b,
                                                      OFP10_VERSION);
    uint8_t *p = (uint8_t *) b->data + start;
    ofp_put_be32(p + PO10_BUFFER_ID, po->buffer_id);
    ofp_put_be16(p + PO10_IN_PORT, po->in_port);
    ofp_put_be16(p + PO10_ACTIONS_LEN, actions_len);
    if (po->packet_len) {
        ofpbuf_put(b, po->packet, po->packet_len);
    }
    ofpmsg_update_length(b);
    return b;
}

/* A packet can come from a port, the local port, a controller or
 * nowhere. */
static bool
in_port_ok(ofp_port_t port)
{
    return (port < OFPP_MAX || port == OFPP_LOCAL || port == OFPP_NONE
            || port == OFPP_CONTROLLER);
}
