/* OpenFlow actions and instructions: the internal list, its wire codecs,
 * and the ovs-actions(7) parser and printer.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-actions.h"
#include <string.h>
#include "util.h"

/* Appends a zeroed action of 'type', 'len' bytes (padded), to 'ofpacts'. */
void *
ofpact_put(struct ofpbuf *ofpacts, enum ofpact_type type, size_t len)
{
    ofpbuf_padto(ofpacts, OFPACT_ALIGN(ofpacts->size));
    ofpacts->header = ofpbuf_put_zeros(ofpacts, OFPACT_ALIGN(len));

    struct ofpact *a = ofpacts->header;
    a->type = type;
    a->raw = OFPACT_RAW_DEFAULT;
    a->len = len;
    return a;
}

/* Sets the length of 'ofpact', the last action in 'ofpacts', to the end of
 * the buffer and pads the buffer. */
void *
ofpact_finish(struct ofpbuf *ofpacts, struct ofpact *ofpact)
{
    util_assert(ofpact == ofpacts->header);

    ptrdiff_t len = (char *) ofpbuf_tail(ofpacts) - (char *) ofpact;
    util_assert(len > 0 && len <= UINT16_MAX);
    ofpact->len = len;
    ofpbuf_padto(ofpacts, OFPACT_ALIGN(ofpacts->size));
    return ofpacts->header;
}

static const char *const ofpact_names[OFPACT_N_TYPES] = {
#define OFPACT_NAME(ENUM, STRUCT, TAIL, NAME) [OFPACT_##ENUM] = NAME,
    OFPACTS(OFPACT_NAME)
#undef OFPACT_NAME
};

/* Returns the ovs-actions(7) keyword of 'type'. */
const char *
ofpact_name(enum ofpact_type type)
{
    return (unsigned int) type < OFPACT_N_TYPES ? ofpact_names[type]
                                                : "<unknown>";
}

/* True if 'type' is an instruction other than apply_actions. */
bool
ofpact_is_instruction(enum ofpact_type type)
{
    return (type == OFPACT_CLEAR_ACTIONS || type == OFPACT_WRITE_ACTIONS
            || type == OFPACT_WRITE_METADATA || type == OFPACT_GOTO_TABLE);
}

/* True if the two lists are byte-for-byte the same. */
bool
ofpacts_equal(const struct ofpact a[], size_t a_len,
              const struct ofpact b[], size_t b_len)
{
    return a_len == b_len && (!a_len || !memcmp(a, b, a_len));
}

/* True if 'ofpacts' (or a write_actions in it) outputs to 'port'. */
bool
ofpacts_output_to_port(const struct ofpact ofpacts[], size_t ofpacts_len,
                       ofp_port_t port)
{
    const struct ofpact *a;

    OFPACT_FOR_EACH (a, ofpacts, ofpacts_len) {
        switch (a->type) {
        case OFPACT_OUTPUT:
            if (ofpact_get_OUTPUT(a)->port == port) {
                return true;
            }
            break;
        case OFPACT_ENQUEUE:
            if (ofpact_get_ENQUEUE(a)->port == port) {
                return true;
            }
            break;
        case OFPACT_CONTROLLER:
            if (port == OFPP_CONTROLLER) {
                return true;
            }
            break;
        case OFPACT_WRITE_ACTIONS: {
            const struct ofpact_nest *on = ofpact_get_WRITE_ACTIONS(a);
            if (ofpacts_output_to_port(ofpact_nest_get_actions(on),
                                       ofpact_nest_get_action_len(on),
                                       port)) {
                return true;
            }
            break;
        }
        default:
            break;
        }
    }
    return false;
}

/* True if 'ofpacts' (or a write_actions in it) sends to group 'group'. */
bool
ofpacts_output_to_group(const struct ofpact ofpacts[], size_t ofpacts_len,
                        uint32_t group)
{
    const struct ofpact *a;

    OFPACT_FOR_EACH (a, ofpacts, ofpacts_len) {
        if (a->type == OFPACT_GROUP
            && ofpact_get_GROUP(a)->group_id == group) {
            return true;
        }
        if (a->type == OFPACT_WRITE_ACTIONS) {
            const struct ofpact_nest *on = ofpact_get_WRITE_ACTIONS(a);
            if (ofpacts_output_to_group(ofpact_nest_get_actions(on),
                                        ofpact_nest_get_action_len(on),
                                        group)) {
                return true;
            }
        }
    }
    return false;
}
