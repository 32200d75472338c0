/* OpenFlow bundles: OFPT_BUNDLE_CONTROL and OFPT_BUNDLE_ADD_MESSAGE
 * (OpenFlow 1.4+) and the ONF extension that carries them in OpenFlow 1.3
 * (ONFT_BUNDLE_CONTROL, ONFT_BUNDLE_ADD_MESSAGE), as Open vSwitch 3.1
 * reads and writes them.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_BUNDLE_H
#define OFP_BUNDLE_H 1

#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-msgs.h"

struct ds;
struct ofpbuf;

/* Bundle control types. */
enum ofputil_bundle_ctrl_type {
    OFPBCT_OPEN_REQUEST = 0,
    OFPBCT_OPEN_REPLY = 1,
    OFPBCT_CLOSE_REQUEST = 2,
    OFPBCT_CLOSE_REPLY = 3,
    OFPBCT_COMMIT_REQUEST = 4,
    OFPBCT_COMMIT_REPLY = 5,
    OFPBCT_DISCARD_REQUEST = 6,
    OFPBCT_DISCARD_REPLY = 7,
};

/* Bundle flags. */
#define OFPBF_ATOMIC 1
#define OFPBF_ORDERED 2

struct ofputil_bundle_ctrl {
    uint32_t bundle_id;
    uint16_t type;              /* OFPBCT_*, or any other number. */
    uint16_t flags;             /* OFPBF_*, and any other bits. */
};

/* One OFPT_BUNDLE_ADD_MESSAGE: 'msg' points into the decoded message. */
struct ofputil_bundle_add {
    uint32_t bundle_id;
    uint16_t flags;
    const struct ofp_header *msg;
};

/* Decodes bundle control 'oh' (the properties are not read, as in Open
 * vSwitch).  Returns 0 or OFPERR_OFPBRC_BAD_LEN. */
enum ofperr ofputil_decode_bundle_ctrl(const struct ofp_header *oh,
                                       struct ofputil_bundle_ctrl *);

/* The reply to bundle control 'request': its bundle id, 'type' and no
 * flags. */
struct ofpbuf *ofputil_encode_bundle_ctrl_reply(
    const struct ofp_header *request, uint16_t type);

/* A bundle control request for 'version' (1.3: the ONF form). */
struct ofpbuf *ofputil_encode_bundle_ctrl_request(
    enum ofp_version, const struct ofputil_bundle_ctrl *);

/* Decodes bundle add 'oh' into 'add' and the type of the message it
 * carries into '*type', with Open vSwitch's checks and errors: the
 * message must fit (OFPBFC_MSG_BAD_LEN), be of the bundle's version
 * (OFPBFC_BAD_VERSION) and transaction id (OFPBFC_MSG_BAD_XID), and be a
 * flow_mod, group_mod, port_mod or packet_out (OFPBFC_MSG_UNSUP).  Bytes
 * after the message (properties) are not read. */
enum ofperr ofputil_decode_bundle_add(const struct ofp_header *oh,
                                      struct ofputil_bundle_add *,
                                      enum ofptype *type);

/* A bundle add message carrying 'msg' (whose version and xid it takes). */
struct ofpbuf *ofputil_encode_bundle_add(uint32_t bundle_id, uint16_t flags,
                                         const struct ofp_header *msg);

/* ovs-ofctl's text for a bundle control or add message (after the
 * header line). */
enum ofperr ofp_print_bundle_ctrl(struct ds *, const struct ofp_header *);
enum ofperr ofp_print_bundle_add(struct ds *, const struct ofp_header *,
                                 int verbosity);

#endif /* ofp-bundle.h */
