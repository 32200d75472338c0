/* OpenFlow 1.1+ wire forms of actions and instructions: OFPAT11_*,
 * OFPAT12_SET_FIELD and OFPIT_*.  lib/ofp-actions.c calls these for
 * versions after 1.0; the Nicira extension actions, which are the same in
 * every version, stay there.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_ACTIONS_OF11_H
#define OFP_ACTIONS_OF11_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-types.h"

struct ofpact;
struct ofpbuf;

enum ofperr ofpact_decode_of11(const uint8_t *a, size_t len,
                               enum ofp_version, struct ofpbuf *ofpacts);
bool ofpact_encode_of11(const struct ofpact *, struct ofpbuf *msg,
                        enum ofp_version);
enum ofperr ofpacts_decode_instructions_of11(struct ofpbuf *msg,
                                             unsigned int instructions_len,
                                             enum ofp_version,
                                             struct ofpbuf *ofpacts);
void ofpacts_encode_instructions_of11(const struct ofpact *,
                                      size_t ofpacts_len, struct ofpbuf *msg,
                                      enum ofp_version);

/* Shared with lib/ofp-actions.c's OpenFlow 1.0 code, which defines them:
 * appending a zeroed wire action header and body; decoding an output
 * action's port (OFPERR_OFPBAC_BAD_OUT_PORT for one it cannot name). */
uint8_t *ofpact_wire_put(struct ofpbuf *msg, uint16_t type, size_t len);
enum ofperr ofpact_decode_output(ofp_port_t port, uint16_t max_len,
                                 struct ofpbuf *ofpacts);

#endif /* ofp-actions-of11.h */
