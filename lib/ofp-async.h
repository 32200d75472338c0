/* OpenFlow asynchronous message configuration: which packet-in, port
 * status, flow_removed (and, for OpenFlow 1.4+, role status, table status
 * and requestforward) reasons a connection receives, for the master or
 * equal roles and for the slave role.
 *
 * Messages, as Open vSwitch 3.1 speaks them:
 *
 *   NXT_SET_ASYNC_CONFIG (any version) and OFPT_SET_ASYNC /
 *   OFPT_GET_ASYNC_REPLY in OpenFlow 1.3: six 32-bit masks, packet-in,
 *   port status and flow_removed, each master then slave;
 *
 *   OFPT_SET_ASYNC / OFPT_GET_ASYNC_REPLY in OpenFlow 1.4+ and
 *   NXT_SET_ASYNC_CONFIG2: properties (type, length 8, mask), type 2N for
 *   the slave mask of message type N and 2N+1 for its master mask; a set
 *   changes only the masks it carries, a reply carries all twelve.
 *
 * The masks here are bits of OpenFlow 1.4's reasons (enum
 * ofp_packet_in_reason for packet-ins: action_set, group and packet_out
 * refine "action", so an OpenFlow 1.3 "action" bit stands for all four).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_ASYNC_H
#define OFP_ASYNC_H 1

#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-types.h"

struct ds;
struct ofp_header;
struct ofpbuf;

enum ofputil_async_msg_type {
    OAM_PACKET_IN,
    OAM_PORT_STATUS,
    OAM_FLOW_REMOVED,
    OAM_ROLE_STATUS,
    OAM_TABLE_STATUS,
    OAM_REQUESTFORWARD,
    OAM_N_TYPES
};

struct ofputil_async_cfg {
    uint32_t master[OAM_N_TYPES];       /* Master and equal roles. */
    uint32_t slave[OAM_N_TYPES];
};

/* The configuration a connection speaking 'version' starts with, as Open
 * vSwitch's: every packet-in reason but invalid_ttl, every port status,
 * every flow_removed reason (slaves: port status only). */
struct ofputil_async_cfg ofputil_async_cfg_default(enum ofp_version);

/* Decodes set_async message 'oh' (NXT_SET_ASYNC_CONFIG,
 * NXT_SET_ASYNC_CONFIG2, OFPT_SET_ASYNC, or an OFPT_GET_ASYNC_REPLY) into
 * 'cfg', which holds the masks the message does not change on entry.
 * Returns 0, OFPERR_OFPACFC_INVALID for a mask with bits the type does not
 * have (property forms), OFPERR_OFPACFC_UNSUPPORTED for an unknown
 * property, OFPERR_OFPBRC_BAD_LEN or OFPERR_OFPBPC_BAD_LEN for lengths that
 * do not fit. */
enum ofperr ofputil_decode_set_async_config(const struct ofp_header *oh,
                                            struct ofputil_async_cfg *cfg);

/* Encodes 'cfg' as the OFPT_GET_ASYNC_REPLY to 'request'. */
struct ofpbuf *ofputil_encode_get_async_reply(
    const struct ofp_header *request, const struct ofputil_async_cfg *);

/* Appends set_async or get_async_reply 'oh' as ovs-ofctl prints it after
 * its header line (a "primary:" and a "secondary:" section).  Returns 0 or
 * the decoding error. */
enum ofperr ofp_print_async_config(struct ds *, const struct ofp_header *);

#endif /* ofp-async.h */
