/* OpenFlow bundle messages (see ofp-bundle.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-bundle.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_bundle);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* Bodies: ofp14_bundle_ctrl_msg (bundle_id, type, flags) and
 * ofp14_bundle_add_msg (bundle_id, pad, flags, then the message). */
#define BUNDLE_ID 0
#define BUNDLE_CTRL_TYPE 4
#define BUNDLE_FLAGS 6
#define BUNDLE_BODY_LEN 8

static enum ofperr pull_body(const struct ofp_header *, enum ofptype,
                             struct ofpbuf *b, enum ofpraw *);
static bool is_bundlable(enum ofptype);
static const char *ctrl_type_name(uint16_t type);
static void put_flags(struct ds *, uint16_t flags);

/* See ofp-bundle.h. */
enum ofperr
ofputil_decode_bundle_ctrl(const struct ofp_header *oh,
                           struct ofputil_bundle_ctrl *bc)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = pull_body(oh, OFPTYPE_BUNDLE_CONTROL, &b, &raw);

    if (error) {
        return error;
    }
    const uint8_t *p = b.data;
    bc->bundle_id = ofp_get_be32(p + BUNDLE_ID);
    bc->type = ofp_get_be16(p + BUNDLE_CTRL_TYPE);
    bc->flags = ofp_get_be16(p + BUNDLE_FLAGS);
    return 0;
}

/* See ofp-bundle.h. */
struct ofpbuf *
ofputil_encode_bundle_ctrl_reply(const struct ofp_header *request,
                                 uint16_t type)
{
    enum ofpraw raw;

    ofpraw_decode(&raw, request);
    struct ofpbuf *b = ofpraw_alloc_reply(raw, request, BUNDLE_BODY_LEN);
    uint8_t *p = ofpbuf_put_zeros(b, BUNDLE_BODY_LEN);
    const uint8_t *body = (const uint8_t *) request
                          + ofpraw_get_hdr_size(raw);

    ofp_put_be32(p + BUNDLE_ID, ofp_get_be32(body + BUNDLE_ID));
    ofp_put_be16(p + BUNDLE_CTRL_TYPE, type);
    ofpmsg_update_length(b);
    return b;
}

/* See ofp-bundle.h. */
struct ofpbuf *
ofputil_encode_bundle_ctrl_request(enum ofp_version version,
                                   const struct ofputil_bundle_ctrl *bc)
{
    struct ofpbuf *b = ofpraw_alloc(version == OFP13_VERSION
                                    ? OFPRAW_ONFT13_BUNDLE_CONTROL
                                    : OFPRAW_OFPT14_BUNDLE_CONTROL,
                                    version, ofpmsg_next_xid(),
                                    BUNDLE_BODY_LEN);
    uint8_t *p = ofpbuf_put_zeros(b, BUNDLE_BODY_LEN);

    ofp_put_be32(p + BUNDLE_ID, bc->bundle_id);
    ofp_put_be16(p + BUNDLE_CTRL_TYPE, bc->type);
    ofp_put_be16(p + BUNDLE_FLAGS, bc->flags);
    ofpmsg_update_length(b);
    return b;
}

/* See ofp-bundle.h. */
enum ofperr
ofputil_decode_bundle_add(const struct ofp_header *oh,
                          struct ofputil_bundle_add *add, enum ofptype *type)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = pull_body(oh, OFPTYPE_BUNDLE_ADD_MESSAGE, &b, &raw);

    if (error) {
        return error;
    }
    const uint8_t *p = ofpbuf_pull(&b, BUNDLE_BODY_LEN);
    add->bundle_id = ofp_get_be32(p + BUNDLE_ID);
    add->flags = ofp_get_be16(p + BUNDLE_FLAGS);

    const struct ofp_header *msg = b.data;
    add->msg = msg;
    if (b.size < sizeof *msg || ntohs(msg->length) < sizeof *msg
        || ntohs(msg->length) > b.size) {
        return OFPERR_OFPBFC_MSG_BAD_LEN;
    }
    if (msg->version != oh->version) {
        return OFPERR_OFPBFC_BAD_VERSION;
    }
    if (msg->xid != oh->xid) {
        return OFPERR_OFPBFC_MSG_BAD_XID;
    }
    if (ofptype_decode(type, msg)) {
        VLOG_WARN_RL(&rl, "%s contains a message it cannot decode",
                     ofpraw_get_name(raw));
        return OFPERR_OFPBFC_MSG_UNSUP;
    }
    if (!is_bundlable(*type)) {
        enum ofpraw inner;
        ofpraw_decode(&inner, msg);
        VLOG_WARN_RL(&rl, "%s message not allowed inside "
                     "OFPT14_BUNDLE_ADD_MESSAGE", ofpraw_get_name(inner));
        return OFPERR_OFPBFC_MSG_UNSUP;
    }
    return 0;
}

/* See ofp-bundle.h. */
struct ofpbuf *
ofputil_encode_bundle_add(uint32_t bundle_id, uint16_t flags,
                          const struct ofp_header *msg)
{
    size_t msg_len = ntohs(msg->length);
    struct ofpbuf *b = ofpraw_alloc(msg->version == OFP13_VERSION
                                    ? OFPRAW_ONFT13_BUNDLE_ADD_MESSAGE
                                    : OFPRAW_OFPT14_BUNDLE_ADD_MESSAGE,
                                    msg->version, ntohl(msg->xid),
                                    BUNDLE_BODY_LEN + msg_len + 7);
    uint8_t *p = ofpbuf_put_zeros(b, BUNDLE_BODY_LEN);

    ofp_put_be32(p + BUNDLE_ID, bundle_id);
    ofp_put_be16(p + BUNDLE_FLAGS, flags);
    ofpbuf_put(b, msg, msg_len);
    ofpmsg_update_length(b);
    return b;
}

/* See ofp-bundle.h. */
enum ofperr
ofp_print_bundle_ctrl(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_bundle_ctrl bc;
    enum ofperr error = ofputil_decode_bundle_ctrl(oh, &bc);

    if (error) {
        return error;
    }
    ds_put_format(s, "\n bundle_id=%#"PRIx32" type=", bc.bundle_id);
    const char *name = ctrl_type_name(bc.type);
    if (name) {
        ds_put_cstr(s, name);
    }
    put_flags(s, bc.flags);
    return 0;
}

/* See ofp-bundle.h. */
enum ofperr
ofp_print_bundle_add(struct ds *s, const struct ofp_header *oh,
                     int verbosity)
{
    struct ofputil_bundle_add add;
    enum ofptype type;
    enum ofperr error = ofputil_decode_bundle_add(oh, &add, &type);

    if (error) {
        return error;
    }
    ds_put_format(s, "\n bundle_id=%#"PRIx32, add.bundle_id);
    put_flags(s, add.flags);
    char *inner = ofp_to_string(add.msg, ntohs(add.msg->length),
                                verbosity);
    ds_put_cstr(s, inner);
    free(inner);
    return 0;
}

/* Points 'b' at the body of 'oh', which must be a message of 'type'. */
static enum ofperr
pull_body(const struct ofp_header *oh, enum ofptype type, struct ofpbuf *b,
          enum ofpraw *raw)
{
    ofpbuf_use_const(b, oh, ntohs(oh->length));
    enum ofperr error = ofpraw_pull(raw, b);
    if (!error && ofptype_from_ofpraw(*raw) != type) {
        error = OFPERR_OFPBRC_BAD_TYPE;
    }
    return error;
}

/* The messages a bundle may carry, as in Open vSwitch. */
static bool
is_bundlable(enum ofptype type)
{
    return (type == OFPTYPE_FLOW_MOD || type == OFPTYPE_GROUP_MOD
            || type == OFPTYPE_PORT_MOD || type == OFPTYPE_PACKET_OUT);
}

static const char *
ctrl_type_name(uint16_t type)
{
    static const char *const names[] = {
        "OPEN_REQUEST", "OPEN_REPLY", "CLOSE_REQUEST", "CLOSE_REPLY",
        "COMMIT_REQUEST", "COMMIT_REPLY", "DISCARD_REQUEST",
        "DISCARD_REPLY",
    };

    return type < ARRAY_SIZE(names) ? names[type] : NULL;
}

/* " flags=atomic ordered" (unknown bits in hex, "0" for none) and a new
 * line. */
static void
put_flags(struct ds *s, uint16_t flags)
{
    ds_put_cstr(s, " flags=");
    if (!flags) {
        ds_put_char(s, '0');
    }
    if (flags & OFPBF_ATOMIC) {
        ds_put_cstr(s, "atomic ");
    }
    if (flags & OFPBF_ORDERED) {
        ds_put_cstr(s, "ordered ");
    }
    if (flags & ~(OFPBF_ATOMIC | OFPBF_ORDERED)) {
        ds_put_format(s, "%#"PRIx16, flags & ~(OFPBF_ATOMIC | OFPBF_ORDERED));
    }
    ds_chomp(s, ' ');
    ds_put_char(s, '\n');
}
