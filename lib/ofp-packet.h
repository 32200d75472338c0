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

#endif /* ofp-packet.h */
