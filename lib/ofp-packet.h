/* OpenFlow packet-out: a controller hands the switch a packet and the
 * actions to run on it.
 *
 * OpenFlow 1.0's OFPT_PACKET_OUT is, after the header:
 *
 *   buffer_id    32 bits  OFP_NO_BUFFER, or a packet the switch buffered
 *   in_port      16 bits  the port the packet counts as received on
 *   actions_len  16 bits  bytes of actions that follow
 *   actions      actions_len bytes of OpenFlow 1.0 actions
 *   data         the packet (the rest of the message)
 *
 * 'in_port' may be a port number, OFPP_LOCAL, OFPP_CONTROLLER or OFPP_NONE
 * (the packet came from nowhere); ofputil_decode_packet_out() refuses the
 * other reserved ports and the numbers between OFPP_MAX and them with
 * OFPBRC_BAD_PORT, as Open vSwitch does.  Other versions' packet-outs
 * (OpenFlow 1.1+ carry actions this code does not decode yet) are
 * OFPBRC_BAD_TYPE.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_PACKET_H
#define OFP_PACKET_H 1

#include <stddef.h>
#include <stdint.h>
#include "match.h"
#include "ofp-errors.h"
#include "ofp-types.h"

struct ofp_header;
struct ofpact;
struct ofpbuf;

struct ofputil_packet_out {
    uint32_t buffer_id;         /* OFP_NO_BUFFER: the packet is 'packet'. */
    ofp_port_t in_port;         /* OFPP_NONE: none. */
    const struct ofpact *ofpacts;       /* In the caller's buffer. */
    size_t ofpacts_len;
    const void *packet;         /* Points into the message. */
    size_t packet_len;
};

/* Decodes packet-out 'oh' (whose length the framing code has checked) into
 * 'po', its actions into 'ofpacts' (cleared first).  'po->packet' points
 * into 'oh'.  Returns 0 or the OFPERR_* Open vSwitch returns for the same
 * message: OFPBRC_BAD_LEN when actions_len is not a multiple of 8 or
 * larger than what follows, the action decoder's errors, OFPBRC_BAD_PORT
 * for an in_port a packet cannot come from. */
enum ofperr ofputil_decode_packet_out(struct ofputil_packet_out *po,
                                      const struct ofp_header *oh,
                                      struct ofpbuf *ofpacts);

/* Encodes 'po' as an OFPT_PACKET_OUT for 'version' (OpenFlow 1.0, or the
 * OpenFlow 1.1-1.4 layout) with a new xid. */
struct ofpbuf *ofputil_encode_packet_out(const struct ofputil_packet_out *po,
                                         enum ofp_version);

/* Parses 'string', a packet-out in ovs-ofctl(8)'s "Packet-Out Syntax"
 * ("in_port=PORT packet=HEX actions=ACTIONS", separated by commas or white
 * space, actions last), into 'po' (buffer_id OFP_NO_BUFFER, in_port
 * OFPP_NONE unless given, as Open vSwitch's ovs-ofctl sends it), its actions into
 * 'ofpacts' and its packet into 'packet' (both cleared first; 'po' points
 * into them).  'map' names the switch's ports (may be NULL).  Returns NULL
 * or an error message, Open vSwitch's words, for the caller to free.
 * Pipeline fields (registers, metadata) are refused: OpenFlow 1.0's
 * packet-out cannot carry them. */
struct ofputil_port_map;
char *ofputil_parse_packet_out(struct ofputil_packet_out *po,
                               const char *string,
                               const struct ofputil_port_map *map,
                               struct ofpbuf *ofpacts, struct ofpbuf *packet)
    __attribute__((__warn_unused_result__));

/* Parses 'hex' as an Ethernet frame into 'packet' (cleared first), as
 * ovs-ofctl takes a packet: hex digit pairs, optionally separated by
 * white space.  Returns NULL or Open vSwitch's error message (a
 * constant string). */
const char *ofputil_packet_from_hex(const char *hex, struct ofpbuf *packet);

/* Appends packet-out 'oh' as ovs-ofctl prints it after its header line
 * (" in_port=1 actions=output:2 data_len=42"; not yet the packet's
 * description that Open vSwitch adds when verbose), ports by their names
 * in 'map' (may be NULL).  Returns 0, or the decoding error (having
 * appended nothing). */
struct ds;
enum ofperr ofp_print_packet_out(struct ds *, const struct ofp_header *,
                                 const struct ofputil_port_map *map);

/* Packet-in: a packet the switch sends to its controllers.
 *
 * Four encodings, as Open vSwitch 3.1 sends them:
 *
 *   OFPT_PACKET_IN, OpenFlow 1.0: buffer_id, total_len, in_port (16
 *   bits), reason, pad, data.
 *
 *   OFPT_PACKET_IN, OpenFlow 1.2-1.5: buffer_id, total_len, reason,
 *   table_id, cookie (1.3+), an OXM match with the packet's metadata
 *   (in_port always; metadata, registers when not zero), 2 bytes of
 *   padding, data.
 *
 *   NXT_PACKET_IN (NXPIF_NXT_PACKET_IN): buffer_id, total_len, reason,
 *   table_id, cookie, match_len, 6 bytes of padding, the metadata as
 *   nx_match padded to 8 bytes, 2 bytes of padding, data.
 *
 *   NXT_PACKET_IN2 (NXPIF_NXT_PACKET_IN2): properties (type, length,
 *   value, padded to 8): packet (0), full_len (1, only when the data is
 *   cut short), buffer_id (2, only when buffered), table_id (3), cookie
 *   (4, only when not all ones; 4 bytes of padding before the value),
 *   reason (5), metadata (6, OXM entries), userdata (7, when any).
 *
 * Reasons are Open vSwitch's (enum ofp_packet_in_reason); before OpenFlow
 * 1.4 the action_set, group and packet_out reasons go on the wire as
 * "action".  The cookie is UINT64_MAX when there is none (OpenFlow 1.0's
 * packet-in carries none; a table miss has none in NXT_PACKET_IN2). */
enum nx_packet_in_format {
    NXPIF_STANDARD = 0,         /* The connection's OpenFlow version's. */
    NXPIF_NXT_PACKET_IN = 1,
    NXPIF_NXT_PACKET_IN2 = 2,
};

struct ofputil_packet_in {
    const void *packet;         /* The data sent (perhaps cut short). */
    size_t packet_len;
    size_t total_len;           /* The whole packet's length. */
    struct match flow_metadata; /* in_port, metadata, registers. */
    uint8_t reason;             /* enum ofp_packet_in_reason. */
    uint8_t table_id;
    uint64_t cookie;            /* UINT64_MAX: none. */
    uint32_t buffer_id;         /* OFP_NO_BUFFER: unbuffered. */
    const void *userdata;       /* NXT_PACKET_IN2 only. */
    size_t userdata_len;
};

/* Encodes 'pin' for a connection speaking 'version' with 'format' (an
 * OpenFlow 1.1+ connection asking for NXPIF_NXT_PACKET_IN gets it too, as
 * Open vSwitch 3.1 sends it).  xid 0. */
struct ofpbuf *ofputil_encode_packet_in(const struct ofputil_packet_in *,
                                        enum ofp_version,
                                        enum nx_packet_in_format);

/* Decodes packet-in 'oh' (any of the encodings) into 'pin', which points
 * into 'oh'.  Returns 0 or OFPERR_OFPBRC_BAD_LEN (or a match or property
 * decoding error) for a malformed message. */
enum ofperr ofputil_decode_packet_in(struct ofputil_packet_in *pin,
                                     const struct ofp_header *oh);

/* The reason's name as ovs-ofctl prints it ("no_match", "action",
 * "invalid_ttl", "action_set", "group", "packet_out"), or its number in
 * 'buf'. */
const char *ofputil_packet_in_reason_to_string(unsigned int reason,
                                               char *buf, size_t bufsize);

/* Appends packet-in 'oh' as ovs-ofctl prints it after its header line
 * (" total_len=60 in_port=1 (via action) data_len=60 (unbuffered)\n").
 * When 'verbosity' is positive, a program that registered a packet
 * describer (ofp_set_packet_describer()) gets the packet's description
 * line appended after it.  Returns 0 or the decoding error. */
enum ofperr ofp_print_packet_in(struct ds *, const struct ofp_header *,
                                int verbosity,
                                const struct ofputil_port_map *map);

/* A packet's one-line description, as Open vSwitch's ovs-ofctl prints it
 * under a packet-in ("tcp,vlan_tci=0x0000,...,tcp_flags=syn
 * tcp_csum:2e7e\n").  Describing a packet takes the packet parser of the
 * datapath library, which not every program links: those that do register
 * it here. */
typedef void ofp_packet_describe_func(struct ds *, const void *data,
                                      size_t len);
void ofp_set_packet_describer(ofp_packet_describe_func *);

#endif /* ofp-packet.h */
