/* OpenFlow actions and instructions: the internal list, its wire codecs,
 * and the ovs-actions(7) parser and printer.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-actions.h"
#include "ofp-actions-of11.h"
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "match.h"
#include "ofp-match.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "packets.h"
#include "socket-util.h"
#include "util.h"

static const char *const ofpact_names[OFPACT_N_TYPES] = {
#define OFPACT_NAME(ENUM, STRUCT, TAIL, NAME) [OFPACT_##ENUM] = NAME,
    OFPACTS(OFPACT_NAME)
#undef OFPACT_NAME
};

static enum ofperr
decode_ofp10(const uint8_t *a, size_t len, struct ofpbuf *ofpacts);
static void encode_ofp10(const struct ofpact *a, struct ofpbuf *msg);
static enum ofperr
decode_nicira(const uint8_t *a, size_t len, struct ofpbuf *ofpacts);
static bool output_port_ok(ofp_port_t port);
static int instruction_index(const char *key);
static char *parse_instruction(const char *key, char *arg,
                               const struct ofputil_port_map *map,
                               struct ofpbuf *ofpacts);
static void format_action(const struct ofpact *a,
                          const struct ofputil_port_map *, struct ds *s);
static char *parse_action(const char *key, char *arg,
                          const struct ofputil_port_map *,
                          struct ofpbuf *ofpacts) DPS_WARN_UNUSED_RESULT;
static const char *nxm_name(enum match_field_id);
static void format_subfield(const struct ofp_subfield *, struct ds *);
static char *parse_subfield(const char *, struct ofp_subfield *)
    DPS_WARN_UNUSED_RESULT;
static void encode_set_field_ofp10(const struct ofpact_set_field *,
                                   struct ofpbuf *msg);
static void format_set_field(const struct ofpact_set_field *, struct ds *);
static char *parse_load_or_set_field(const char *key, char *arg,
                                     struct ofpbuf *ofpacts)
    DPS_WARN_UNUSED_RESULT;
static void put_reg_load(struct ofpbuf *msg, enum match_field_id,
                         unsigned int ofs, unsigned int n_bits,
                         uint64_t value);

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

/* Decodes actions from the wire (see the header).  OpenFlow 1.0 actions
 * and the Nicira extensions are decoded; other versions' actions are not
 * yet (OFPERR_OFPBAC_BAD_TYPE). */
enum ofperr
ofpacts_pull_openflow_actions(struct ofpbuf *msg, unsigned int actions_len,
                              enum ofp_version version,
                              struct ofpbuf *ofpacts)
{
    size_t start = ofpacts->size;

    if (actions_len % 8) {
        return OFPERR_OFPBRC_BAD_LEN;
    } else if (!actions_len) {
        return 0;
    }
    const uint8_t *p = ofpbuf_try_pull(msg, actions_len);
    if (!p) {
        return OFPERR_OFPBRC_BAD_LEN;
    }

    enum ofperr error = 0;
    for (size_t ofs = 0; ofs < actions_len && !error; ) {
        size_t left = actions_len - ofs;
        size_t len = left >= 4 ? ofp_get_be16(p + ofs + 2) : 0;

        if (len < 8 || len % 8 || len > left) {
            error = OFPERR_OFPBAC_BAD_LEN;
            break;
        }
        error = (version == OFP10_VERSION
                 ? decode_ofp10(p + ofs, len, ofpacts)
                 : ofp_get_be16(p + ofs) == 0xffff     /* Experimenter. */
                 ? decode_nicira(p + ofs, len, ofpacts)
                 : ofpact_decode_of11(p + ofs, len, version, ofpacts));
        ofs += len;
    }
    if (error) {
        ofpacts->size = start;
    }
    return error;
}

/* Decodes OpenFlow 1.1+ instructions (see the header and
 * lib/ofp-actions-of11.c). */
enum ofperr
ofpacts_pull_openflow_instructions(struct ofpbuf *msg,
                                   unsigned int instructions_len,
                                   enum ofp_version version,
                                   struct ofpbuf *ofpacts)
{
    return ofpacts_decode_instructions_of11(msg, instructions_len, version,
                                            ofpacts);
}

/* Encodes 'ofpacts' as version 'version' actions (see the header): OpenFlow
 * 1.0's, or lib/ofp-actions-of11.c's, and the Nicira extensions. */
size_t
ofpacts_put_openflow_actions(const struct ofpact ofpacts[],
                             size_t ofpacts_len, struct ofpbuf *msg,
                             enum ofp_version version)
{
    size_t start = msg->size;
    const struct ofpact *a;

    OFPACT_FOR_EACH (a, ofpacts, ofpacts_len) {
        /* The Nicira extensions are the same in every version. */
        if (version == OFP10_VERSION || !ofpact_encode_of11(a, msg, version)) {
            encode_ofp10(a, msg);
        }
    }
    return msg->size - start;
}

/* Encodes 'ofpacts' as OpenFlow 1.1+ instructions (see the header). */
void
ofpacts_put_openflow_instructions(const struct ofpact ofpacts[],
                                  size_t ofpacts_len, struct ofpbuf *msg,
                                  enum ofp_version version)
{
    ofpacts_encode_instructions_of11(ofpacts, ofpacts_len, msg, version);
}

/* Instructions in the order OpenFlow 1.1+ puts them (index 1 is every
 * action: apply_actions). */
static const char *const inst_names[] = {
    NULL, "apply_actions", "clear_actions", "write_actions",
    "write_metadata", "goto_table",
};

/* Parses ovs-actions(7) text (see the header): actions and, as Open
 * vSwitch's flow syntax has them, the instructions after them. */
char *
ofpacts_parse(const char *s, struct ofpbuf *ofpacts,
              const struct ofputil_port_map *map)
{
    size_t start = ofpacts->size;
    char *copy = xstrdup(s);
    char *pos = copy;
    char *key, *arg;
    char *error = NULL;
    bool drop = false;
    size_t n = 0;
    int last = 0;               /* Index in 'inst_names' of the last one. */

    while (!error && ofp_parse_key_value(&pos, &key, &arg)) {
        int inst = instruction_index(key);

        n++;
        if (inst && inst == last && inst != 1) {
            error = xasprintf("instruction %s may be specified only once",
                              inst_names[inst]);
        } else if (inst && inst < last) {
            error = xasprintf("invalid instruction ordering: %s must appear "
                              "before %s, for OpenFlow 1.1+ compatibility",
                              inst_names[inst], inst_names[last]);
        } else if (!strcasecmp(key, "drop")) {
            drop = true;
        } else if (inst > 1) {
            error = parse_instruction(key, arg, map, ofpacts);
        } else {
            error = parse_action(key, arg, map, ofpacts);
        }
        last = MAX(last, inst);
    }
    if (!error && drop && n > 1) {
        error = xstrdup("\"drop\" must not be accompanied by any other "
                        "action or instruction");
    }
    free(copy);
    if (error) {
        ofpacts->size = start;
    }
    return error;
}

/* The same (see the header). */
char *
ofpacts_parse_instructions(const char *s, struct ofpbuf *ofpacts,
                           const struct ofputil_port_map *map)
{
    return ofpacts_parse(s, ofpacts, map);
}

/* Appends 'ofpacts' in ovs-actions(7) syntax (see the header). */
void
ofpacts_format(const struct ofpact ofpacts[], size_t ofpacts_len,
               const struct ofputil_port_map *port_map, struct ds *s)
{
    const struct ofpact *a;

    if (!ofpacts_len) {
        ds_put_cstr(s, "drop");
        return;
    }
    OFPACT_FOR_EACH (a, ofpacts, ofpacts_len) {
        if (a != ofpacts) {
            ds_put_char(s, ',');
        }
        format_action(a, port_map, s);
    }
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

/* Appends a zeroed 'len'-byte wire action (or instruction, whose header is
 * the same) of 'type' to 'msg' and returns it (see ofp-actions-of11.h). */
uint8_t *
ofpact_wire_put(struct ofpbuf *msg, uint16_t type, size_t len)
{
    uint8_t *a = ofpbuf_put_zeros(msg, len);

    ofp_put_be16(a, type);
    ofp_put_be16(a + 2, len);
    return a;
}

/* Appends output to 'port' (16-bit numbering) with 'max_len' to 'ofpacts',
 * or returns OFPERR_OFPBAC_BAD_OUT_PORT for a port no output can name
 * (see ofp-actions-of11.h). */
enum ofperr
ofpact_decode_output(ofp_port_t port, uint16_t max_len,
                     struct ofpbuf *ofpacts)
{
    if (!output_port_ok(port)) {
        return OFPERR_OFPBAC_BAD_OUT_PORT;
    }
    struct ofpact_output *o = ofpact_put_OUTPUT(ofpacts);
    o->port = port;
    o->max_len = max_len;
    return 0;
}

/* OpenFlow 1.0 action types. */
enum {
    OFPAT10_OUTPUT, OFPAT10_SET_VLAN_VID, OFPAT10_SET_VLAN_PCP,
    OFPAT10_STRIP_VLAN, OFPAT10_SET_DL_SRC, OFPAT10_SET_DL_DST,
    OFPAT10_SET_NW_SRC, OFPAT10_SET_NW_DST, OFPAT10_SET_NW_TOS,
    OFPAT10_SET_TP_SRC, OFPAT10_SET_TP_DST, OFPAT10_ENQUEUE,
    OFPAT_VENDOR = 0xffff
};

/* Nicira action subtypes. */
enum {
    NXAST_RESUBMIT = 1,
    NXAST_REG_MOVE = 6,
    NXAST_REG_LOAD = 7,
    NXAST_NOTE = 8,
    NXAST_RESUBMIT_TABLE = 14,
    NXAST_DEC_TTL = 18,
    NXAST_CONTROLLER = 20,
    NXAST_CONTROLLER2 = 37,
    NXAST_GROUP = 40,
};

static bool
output_port_ok(ofp_port_t port)
{
    return port < OFPP_MAX || (port >= OFPP_IN_PORT && port < OFPP_NONE);
}

/* NXAST_CONTROLLER2 properties. */
enum {
    NXAC2PT_MAX_LEN = 0,        /* be16. */
    NXAC2PT_CONTROLLER_ID = 1,  /* be16. */
    NXAC2PT_REASON = 2,         /* u8. */
    NXAC2PT_USERDATA = 3,       /* Bytes. */
    NXAC2PT_PAUSE = 4,          /* Flag. */
};

/* NXAST_CONTROLLER2 ('len' bytes at 'a'): a 16-byte header, then
 * properties (type, length, value, each padded to 8). */
static enum ofperr
decode_controller2(const uint8_t *a, size_t len, struct ofpbuf *ofpacts)
{
    struct ofpact_controller *c = ofpact_put_CONTROLLER(ofpacts);
    size_t ofs = (uint8_t *) c - (uint8_t *) ofpacts->data;

    c->max_len = UINT16_MAX;
    c->reason = OFPR_ACTION;
    for (size_t i = 16; i < len;) {
        if (i + 4 > len) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        uint16_t type = ofp_get_be16(a + i);
        uint16_t plen = ofp_get_be16(a + i + 2);
        size_t padded = (plen + 7u) / 8 * 8;
        if (plen < 4 || i + padded > len) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        const uint8_t *v = a + i + 4;
        size_t vlen = plen - 4;

        c = (struct ofpact_controller *) ((uint8_t *) ofpacts->data + ofs);
        switch (type) {
        case NXAC2PT_MAX_LEN:
        case NXAC2PT_CONTROLLER_ID:
            /* Open vSwitch sends the 16-bit value with 2 bytes of padding
             * counted in the property's length. */
            if (vlen != 2 && vlen != 4) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            if (type == NXAC2PT_MAX_LEN) {
                c->max_len = ofp_get_be16(v);
            } else {
                c->controller_id = ofp_get_be16(v);
            }
            break;
        case NXAC2PT_REASON:
            if (vlen != 1) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            c->reason = v[0];
            break;
        case NXAC2PT_USERDATA:
            c->userdata_len = vlen;
            ofpbuf_put(ofpacts, v, vlen);
            break;
        case NXAC2PT_PAUSE:
            c->pause = true;
            break;
        default:
            return OFPERR_OFPBPC_BAD_TYPE;
        }
        i += padded;
    }
    c = (struct ofpact_controller *) ((uint8_t *) ofpacts->data + ofs);
    c->ofpact.raw = OFPACT_RAW_NICIRA;
    ofpact_finish(ofpacts, &c->ofpact);
    return 0;
}

static enum ofperr
decode_nicira(const uint8_t *a, size_t len, struct ofpbuf *ofpacts)
{
    if (len < 16) {
        return OFPERR_OFPBAC_BAD_LEN;
    }
    if (ofp_get_be32(a + 4) != 0x00002320) {
        return OFPERR_OFPBAC_BAD_VENDOR;
    }

    uint16_t subtype = ofp_get_be16(a + 8);
    switch (subtype) {
    case NXAST_RESUBMIT:
    case NXAST_RESUBMIT_TABLE: {
        if (len != 16) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        struct ofpact_resubmit *r = ofpact_put_RESUBMIT(ofpacts);
        r->in_port = ofp_get_be16(a + 10);
        r->table_id = subtype == NXAST_RESUBMIT ? OFPTT_ALL : a[12];
        r->ofpact.raw = (subtype == NXAST_RESUBMIT_TABLE
                         ? OFPACT_RAW_NICIRA : OFPACT_RAW_DEFAULT);
        return 0;
    }

    case NXAST_NOTE: {
        struct ofpact_note *note = ofpact_put_NOTE(ofpacts);
        note->length = len - 10;
        ofpbuf_put(ofpacts, a + 10, len - 10);
        ofpact_finish(ofpacts, ofpacts->header);
        return 0;
    }

    case NXAST_DEC_TTL:
        if (len != 16) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        ofpact_put_DEC_TTL(ofpacts);
        return 0;

    case NXAST_GROUP:
        if (len != 16) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        ofpact_put_GROUP(ofpacts)->group_id = ofp_get_be32(a + 12);
        return 0;

    case NXAST_REG_MOVE: {
        /* n_bits, src_ofs, dst_ofs, then the two fields' NXM headers. */
        enum match_field_id src, dst;
        unsigned int src_width, dst_width;
        if (len != 24) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        unsigned int n_bits = ofp_get_be16(a + 10);
        unsigned int src_ofs = ofp_get_be16(a + 12);
        unsigned int dst_ofs = ofp_get_be16(a + 14);
        if (!nxm_field_from_header(ofp_get_be32(a + 16), &src, &src_width)
            || !nxm_field_from_header(ofp_get_be32(a + 20), &dst,
                                      &dst_width)) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        const struct match_field *smf = match_field_info(src);
        const struct match_field *dmf = match_field_info(dst);
        if (!n_bits || src_ofs + n_bits > smf->n_bits
            || dst_ofs + n_bits > dmf->n_bits || !dmf->writable) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        struct ofpact_reg_move *m = ofpact_put_REG_MOVE(ofpacts);
        m->src = (struct ofp_subfield) { src, src_ofs, n_bits };
        m->dst = (struct ofp_subfield) { dst, dst_ofs, n_bits };
        return 0;
    }

    case NXAST_REG_LOAD: {
        /* ofs_nbits (ofs << 6 | n_bits - 1), the field, a 64-bit value. */
        enum match_field_id dst;
        unsigned int width;
        if (len != 24) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        unsigned int ofs = ofp_get_be16(a + 10) >> 6;
        unsigned int n_bits = (ofp_get_be16(a + 10) & 0x3f) + 1;
        uint64_t value = ofp_get_be64(a + 16);
        if (!nxm_field_from_header(ofp_get_be32(a + 12), &dst, &width)) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        const struct match_field *mf = match_field_info(dst);
        if (ofs + n_bits > mf->n_bits || !mf->writable
            || (n_bits < 64 && value >> n_bits)) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        struct ofpact_set_field *sf = ofpact_put_SET_FIELD(ofpacts);
        sf->ofpact.raw = OFPACT_RAW_LOAD;
        sf->field = dst;
        for (unsigned int i = 0; i < n_bits; i++) {
            unsigned int bit = ofs + i;
            uint8_t *v = &sf->value[mf->n_bytes - 1 - bit / 8];
            uint8_t *m = &sf->mask[mf->n_bytes - 1 - bit / 8];
            *m |= 1u << (bit % 8);
            if ((value >> i) & 1) {
                *v |= 1u << (bit % 8);
            }
        }
        return 0;
    }

    case NXAST_CONTROLLER: {
        if (len != 16) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        struct ofpact_controller *c = ofpact_put_CONTROLLER(ofpacts);
        c->max_len = ofp_get_be16(a + 10);
        c->controller_id = ofp_get_be16(a + 12);
        c->reason = a[14];
        c->ofpact.raw = OFPACT_RAW_NICIRA;
        return 0;
    }

    case NXAST_CONTROLLER2:
        return decode_controller2(a, len, ofpacts);

    default:
        return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
    }
}

static enum ofperr
decode_ofp10(const uint8_t *a, size_t len, struct ofpbuf *ofpacts)
{
    uint16_t type = ofp_get_be16(a);
    size_t want = 8;

    if (type == OFPAT10_SET_DL_SRC || type == OFPAT10_SET_DL_DST
        || type == OFPAT10_ENQUEUE) {
        want = 16;
    }
    if (type != OFPAT_VENDOR && type <= OFPAT10_ENQUEUE && len != want) {
        return OFPERR_OFPBAC_BAD_LEN;
    }

    switch (type) {
    case OFPAT10_OUTPUT:
        return ofpact_decode_output(ofp_get_be16(a + 4), ofp_get_be16(a + 6),
                                    ofpacts);
    case OFPAT10_SET_VLAN_VID: {
        uint16_t vid = ofp_get_be16(a + 4);
        if (vid > VLAN_VID_MASK) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        struct ofpact_vlan_vid *v = ofpact_put_SET_VLAN_VID(ofpacts);
        v->vlan_vid = vid;
        v->push_vlan_if_needed = true;
        return 0;
    }
    case OFPAT10_SET_VLAN_PCP: {
        if (a[4] > 7) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        struct ofpact_vlan_pcp *v = ofpact_put_SET_VLAN_PCP(ofpacts);
        v->vlan_pcp = a[4];
        v->push_vlan_if_needed = true;
        return 0;
    }
    case OFPAT10_STRIP_VLAN:
        ofpact_put_STRIP_VLAN(ofpacts);
        return 0;
    case OFPAT10_SET_DL_SRC:
    case OFPAT10_SET_DL_DST: {
        struct ofpact_mac *m = (type == OFPAT10_SET_DL_SRC
                                ? ofpact_put_SET_ETH_SRC(ofpacts)
                                : ofpact_put_SET_ETH_DST(ofpacts));
        memcpy(&m->mac, a + 4, 6);
        return 0;
    }
    case OFPAT10_SET_NW_SRC:
    case OFPAT10_SET_NW_DST: {
        struct ofpact_ipv4 *ip = (type == OFPAT10_SET_NW_SRC
                                  ? ofpact_put_SET_IPV4_SRC(ofpacts)
                                  : ofpact_put_SET_IPV4_DST(ofpacts));
        memcpy(&ip->ipv4, a + 4, 4);
        return 0;
    }
    case OFPAT10_SET_NW_TOS:
        if (a[4] & 3) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        ofpact_put_SET_IP_DSCP(ofpacts)->dscp = a[4];
        return 0;
    case OFPAT10_SET_TP_SRC:
    case OFPAT10_SET_TP_DST: {
        struct ofpact_l4_port *p = (type == OFPAT10_SET_TP_SRC
                                    ? ofpact_put_SET_L4_SRC_PORT(ofpacts)
                                    : ofpact_put_SET_L4_DST_PORT(ofpacts));
        p->port = ofp_get_be16(a + 4);
        return 0;
    }
    case OFPAT10_ENQUEUE: {
        ofp_port_t port = ofp_get_be16(a + 4);
        if (port >= OFPP_MAX && port != OFPP_IN_PORT && port != OFPP_LOCAL) {
            return OFPERR_OFPBAC_BAD_OUT_PORT;
        }
        struct ofpact_enqueue *e = ofpact_put_ENQUEUE(ofpacts);
        e->port = port;
        e->queue = ofp_get_be32(a + 12);
        return 0;
    }
    case OFPAT_VENDOR:
        return decode_nicira(a, len, ofpacts);
    default:
        return OFPERR_OFPBAC_BAD_TYPE;
    }
}

static uint8_t *
put_action(struct ofpbuf *msg, uint16_t type, size_t len)
{
    return ofpact_wire_put(msg, type, len);
}

static uint8_t *
put_nicira(struct ofpbuf *msg, uint16_t subtype, size_t len)
{
    uint8_t *a = put_action(msg, OFPAT_VENDOR, len);

    ofp_put_be32(a + 4, 0x00002320);
    ofp_put_be16(a + 8, subtype);
    return a;
}

/* Appends a property of NXAST_CONTROLLER2, padded to 8 bytes. */
static void
put_controller2_prop(struct ofpbuf *msg, uint16_t type, const void *value,
                     size_t len)
{
    uint8_t *p = ofpbuf_put_zeros(msg, (4 + len + 7) / 8 * 8);

    ofp_put_be16(p, type);
    ofp_put_be16(p + 2, 4 + len);
    memcpy(p + 4, value, len);
}

/* Appends 'c' as NXAST_CONTROLLER2, with the properties Open vSwitch puts
 * (those that differ from the defaults). */
static void
put_controller2(struct ofpbuf *msg, const struct ofpact_controller *c)
{
    size_t start = msg->size;
    uint8_t be16[4] = { 0 };

    /* 16-bit values go with 2 bytes of padding inside the property, as
     * Open vSwitch puts them. */
    put_nicira(msg, NXAST_CONTROLLER2, 16);
    if (c->max_len != UINT16_MAX) {
        ofp_put_be16(be16, c->max_len);
        put_controller2_prop(msg, NXAC2PT_MAX_LEN, be16, 4);
    }
    if (c->controller_id) {
        ofp_put_be16(be16, c->controller_id);
        put_controller2_prop(msg, NXAC2PT_CONTROLLER_ID, be16, 4);
    }
    if (c->reason != OFPR_ACTION) {
        put_controller2_prop(msg, NXAC2PT_REASON, &c->reason, 1);
    }
    if (c->userdata_len) {
        put_controller2_prop(msg, NXAC2PT_USERDATA, c->userdata,
                             c->userdata_len);
    }
    if (c->pause) {
        put_controller2_prop(msg, NXAC2PT_PAUSE, NULL, 0);
    }
    ofp_put_be16((uint8_t *) msg->data + start + 2, msg->size - start);
}

static void
encode_ofp10(const struct ofpact *a, struct ofpbuf *msg)
{
    uint8_t *p;

    switch ((enum ofpact_type) a->type) {
    case OFPACT_OUTPUT:
        p = put_action(msg, OFPAT10_OUTPUT, 8);
        ofp_put_be16(p + 4, ofpact_get_OUTPUT(a)->port);
        ofp_put_be16(p + 6, ofpact_get_OUTPUT(a)->max_len);
        break;
    case OFPACT_CONTROLLER: {
        const struct ofpact_controller *c = ofpact_get_CONTROLLER(a);
        if (c->reason == OFPR_ACTION && !c->controller_id
            && a->raw != OFPACT_RAW_NICIRA) {
            p = put_action(msg, OFPAT10_OUTPUT, 8);
            ofp_put_be16(p + 4, OFPP_CONTROLLER);
            ofp_put_be16(p + 6, c->max_len);
        } else if (c->userdata_len || c->pause) {
            put_controller2(msg, c);
        } else {
            p = put_nicira(msg, NXAST_CONTROLLER, 16);
            ofp_put_be16(p + 10, c->max_len);
            ofp_put_be16(p + 12, c->controller_id);
            p[14] = c->reason;
        }
        break;
    }
    case OFPACT_ENQUEUE:
        p = put_action(msg, OFPAT10_ENQUEUE, 16);
        ofp_put_be16(p + 4, ofpact_get_ENQUEUE(a)->port);
        ofp_put_be32(p + 12, ofpact_get_ENQUEUE(a)->queue);
        break;
    case OFPACT_RESUBMIT: {
        const struct ofpact_resubmit *r = ofpact_get_RESUBMIT(a);
        bool table = r->table_id != OFPTT_ALL || a->raw;
        p = put_nicira(msg, table ? NXAST_RESUBMIT_TABLE : NXAST_RESUBMIT,
                       16);
        ofp_put_be16(p + 10, r->in_port);
        if (table) {
            p[12] = r->table_id;
        }
        break;
    }
    case OFPACT_SET_VLAN_VID:
        p = put_action(msg, OFPAT10_SET_VLAN_VID, 8);
        ofp_put_be16(p + 4, ofpact_get_SET_VLAN_VID(a)->vlan_vid);
        break;
    case OFPACT_SET_VLAN_PCP:
        p = put_action(msg, OFPAT10_SET_VLAN_PCP, 8);
        p[4] = ofpact_get_SET_VLAN_PCP(a)->vlan_pcp;
        break;
    case OFPACT_STRIP_VLAN:
        put_action(msg, OFPAT10_STRIP_VLAN, 8);
        break;
    case OFPACT_SET_ETH_SRC:
    case OFPACT_SET_ETH_DST:
        p = put_action(msg, (a->type == OFPACT_SET_ETH_SRC
                             ? OFPAT10_SET_DL_SRC : OFPAT10_SET_DL_DST), 16);
        memcpy(p + 4, &ofpact_get_SET_ETH_SRC(a)->mac, 6);
        break;
    case OFPACT_SET_IPV4_SRC:
    case OFPACT_SET_IPV4_DST:
        p = put_action(msg, (a->type == OFPACT_SET_IPV4_SRC
                             ? OFPAT10_SET_NW_SRC : OFPAT10_SET_NW_DST), 8);
        memcpy(p + 4, &ofpact_get_SET_IPV4_SRC(a)->ipv4, 4);
        break;
    case OFPACT_SET_IP_DSCP:
        p = put_action(msg, OFPAT10_SET_NW_TOS, 8);
        p[4] = ofpact_get_SET_IP_DSCP(a)->dscp;
        break;
    case OFPACT_SET_L4_SRC_PORT:
    case OFPACT_SET_L4_DST_PORT:
        p = put_action(msg, (a->type == OFPACT_SET_L4_SRC_PORT
                             ? OFPAT10_SET_TP_SRC : OFPAT10_SET_TP_DST), 8);
        ofp_put_be16(p + 4, ofpact_get_SET_L4_SRC_PORT(a)->port);
        break;
    case OFPACT_DEC_TTL:
        put_nicira(msg, NXAST_DEC_TTL, 16);
        break;
    case OFPACT_NOTE: {
        const struct ofpact_note *note = ofpact_get_NOTE(a);
        size_t len = (10 + note->length + 7) / 8 * 8;
        if (len < 16) {
            len = 16;
        }
        p = put_nicira(msg, NXAST_NOTE, len);
        memcpy(p + 10, note->data, note->length);
        break;
    }
    case OFPACT_SET_FIELD:
        encode_set_field_ofp10(ofpact_get_SET_FIELD(a), msg);
        break;
    case OFPACT_REG_MOVE: {
        const struct ofpact_reg_move *m = ofpact_get_REG_MOVE(a);
        p = put_nicira(msg, NXAST_REG_MOVE, 24);
        ofp_put_be16(p + 10, m->src.n_bits);
        ofp_put_be16(p + 12, m->src.ofs);
        ofp_put_be16(p + 14, m->dst.ofs);
        ofp_put_be32(p + 16, nxm_header_from_field(m->src.field));
        ofp_put_be32(p + 20, nxm_header_from_field(m->dst.field));
        break;
    }
    case OFPACT_SET_IP_ECN:
        /* No OpenFlow 1.0 action: a load, as Open vSwitch encodes it. */
        put_reg_load(msg, MATCH_F_IP_ECN, 0, 2, ofpact_get_SET_IP_ECN(a)->ecn);
        break;
    case OFPACT_SET_IP_TTL:
        put_reg_load(msg, MATCH_F_NW_TTL, 0, 8, ofpact_get_SET_IP_TTL(a)->ttl);
        break;
    case OFPACT_GROUP:
        /* Open vSwitch's extension. */
        p = put_nicira(msg, NXAST_GROUP, 16);
        ofp_put_be32(p + 12, ofpact_get_GROUP(a)->group_id);
        break;
    case OFPACT_PUSH_VLAN:
    case OFPACT_CLEAR_ACTIONS:
    case OFPACT_WRITE_ACTIONS:
    case OFPACT_WRITE_METADATA:
    case OFPACT_GOTO_TABLE:
    case OFPACT_N_TYPES:
        /* Not expressible in OpenFlow 1.0 (or not yet encoded). */
        break;
    }
}

/* Appends an NXAST_REG_LOAD of 'value' into bits 'ofs' to 'ofs + n_bits -
 * 1' of field 'id'. */
static void
put_reg_load(struct ofpbuf *msg, enum match_field_id id, unsigned int ofs,
             unsigned int n_bits, uint64_t value)
{
    uint8_t *p = put_nicira(msg, NXAST_REG_LOAD, 24);

    ofp_put_be16(p + 10, (ofs << 6) | (n_bits - 1));
    ofp_put_be32(p + 12, nxm_header_from_field(id));
    ofp_put_be64(p + 16, value);
}

/* The bits of 'v' (an 'n_bytes' big-endian value) from 'ofs', 'n_bits' of
 * them (at most 64). */
static uint64_t
value_bits(const uint8_t *v, unsigned int n_bytes, unsigned int ofs,
           unsigned int n_bits)
{
    uint64_t x = 0;

    for (unsigned int i = n_bits; i-- > 0;) {
        unsigned int bit = ofs + i;
        x = (x << 1) | ((v[n_bytes - 1 - bit / 8] >> (bit % 8)) & 1);
    }
    return x;
}

/* Calls 'cb' for each run of consecutive 1-bits of 'sf''s mask, at most 64
 * bits long, lowest first. */
static void
set_field_runs(const struct ofpact_set_field *sf,
               void (*cb)(const struct ofpact_set_field *, unsigned int ofs,
                          unsigned int n_bits, void *aux),
               void *aux)
{
    const struct match_field *mf = match_field_info(sf->field);
    unsigned int n = mf->n_bits;

    for (unsigned int i = 0; i < n;) {
        if (!value_bits(sf->mask, mf->n_bytes, i, 1)) {
            i++;
            continue;
        }
        unsigned int start = i;
        while (i < n && i - start < 64
               && value_bits(sf->mask, mf->n_bytes, i, 1)) {
            i++;
        }
        cb(sf, start, i - start, aux);
    }
}

static void
encode_load_run(const struct ofpact_set_field *sf, unsigned int ofs,
                unsigned int n_bits, void *msg)
{
    const struct match_field *mf = match_field_info(sf->field);
    put_reg_load(msg, sf->field, ofs, n_bits,
                 value_bits(sf->value, mf->n_bytes, ofs, n_bits));
}

/* A set_field in OpenFlow 1.0, as Open vSwitch encodes it: the OpenFlow
 * 1.0 action for the field where there is one and the whole field is set
 * (and the action did not come as a load), else a load per run of bits. */
static void
encode_set_field_ofp10(const struct ofpact_set_field *sf, struct ofpbuf *msg)
{
    const struct match_field *mf = match_field_info(sf->field);
    bool whole = true;
    uint8_t *p;

    for (unsigned int i = 0; i < mf->n_bits; i++) {
        whole &= value_bits(sf->mask, mf->n_bytes, i, 1);
    }
    if (whole && sf->ofpact.raw != OFPACT_RAW_LOAD) {
        uint64_t v = value_bits(sf->value, mf->n_bytes, 0,
                                MIN(mf->n_bits, 64));
        switch (sf->field) {
        case MATCH_F_ETH_SRC:
        case MATCH_F_ETH_DST:
            p = put_action(msg, (sf->field == MATCH_F_ETH_SRC
                                 ? OFPAT10_SET_DL_SRC : OFPAT10_SET_DL_DST),
                           16);
            memcpy(p + 4, sf->value, 6);
            return;
        case MATCH_F_IPV4_SRC:
        case MATCH_F_IPV4_DST:
            p = put_action(msg, (sf->field == MATCH_F_IPV4_SRC
                                 ? OFPAT10_SET_NW_SRC : OFPAT10_SET_NW_DST),
                           8);
            memcpy(p + 4, sf->value, 4);
            return;
        case MATCH_F_IP_DSCP:
        case MATCH_F_NW_TOS:
            p = put_action(msg, OFPAT10_SET_NW_TOS, 8);
            p[4] = sf->field == MATCH_F_IP_DSCP ? v << 2 : v;
            return;
        case MATCH_F_TCP_SRC: case MATCH_F_UDP_SRC: case MATCH_F_SCTP_SRC:
        case MATCH_F_TCP_DST: case MATCH_F_UDP_DST: case MATCH_F_SCTP_DST: {
            bool src = (sf->field == MATCH_F_TCP_SRC
                        || sf->field == MATCH_F_UDP_SRC
                        || sf->field == MATCH_F_SCTP_SRC);
            p = put_action(msg, src ? OFPAT10_SET_TP_SRC : OFPAT10_SET_TP_DST,
                           8);
            ofp_put_be16(p + 4, v);
            return;
        }
        case MATCH_F_VLAN_PCP:
            p = put_action(msg, OFPAT10_SET_VLAN_PCP, 8);
            p[4] = v;
            return;
        default:
            break;
        }
    }
    set_field_runs(sf, encode_load_run, msg);
}

static const char *const reason_names[OFPR_N_REASONS] = {
    "no_match", "action", "invalid_ttl", "action_set", "group",
    "packet_out",
};

static void
format_controller(const struct ofpact_controller *c, struct ds *s)
{
    if (c->reason == OFPR_ACTION && !c->controller_id && !c->userdata_len
        && !c->pause) {
        ds_put_format(s, "CONTROLLER:%"PRIu16, c->max_len);
        return;
    }

    ds_put_cstr(s, "controller(");
    if (c->reason != OFPR_ACTION) {
        if (c->reason < OFPR_N_REASONS) {
            ds_put_format(s, "reason=%s,", reason_names[c->reason]);
        } else {
            ds_put_format(s, "reason=%d,", c->reason);
        }
    }
    if (c->max_len != UINT16_MAX) {
        ds_put_format(s, "max_len=%"PRIu16",", c->max_len);
    }
    if (c->controller_id) {
        ds_put_format(s, "id=%"PRIu16",", c->controller_id);
    }
    if (c->userdata_len) {
        ds_put_cstr(s, "userdata=");
        for (size_t i = 0; i < c->userdata_len; i++) {
            ds_put_format(s, "%s%02"PRIx8, i ? "." : "", c->userdata[i]);
        }
        ds_put_char(s, ',');
    }
    if (c->pause) {
        ds_put_cstr(s, "pause,");
    }
    ds_chomp(s, ',');
    ds_put_char(s, ')');
}

/* A port by its reserved name, its name in 'port_map' or its number. */
static void
format_port(ofp_port_t port, const struct ofputil_port_map *port_map,
            struct ds *s)
{
    static const char *const names[] = {
        "IN_PORT", "TABLE", "NORMAL", "FLOOD", "ALL", "CONTROLLER",
        "LOCAL", "ANY",
    };

    const char *name = ofputil_port_map_get_name(port_map, port);

    if (port >= OFPP_IN_PORT) {
        ds_put_cstr(s, names[port - OFPP_IN_PORT]);
    } else if (name) {
        ofputil_format_port_name(name, s);
    } else {
        ds_put_format(s, "%"PRIu16, port);
    }
}

static void
format_mac(const struct eth_addr *mac, struct ds *s)
{
    const uint8_t *a = (const uint8_t *) mac;

    ds_put_format(s, "%02x:%02x:%02x:%02x:%02x:%02x",
                  a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void
format_ipv4(dps_be32 ip, struct ds *s)
{
    const uint8_t *a = (const uint8_t *) &ip;

    ds_put_format(s, "%d.%d.%d.%d", a[0], a[1], a[2], a[3]);
}

/* Open vSwitch's NXM (or OXM) name for field 'id', as load and move
 * print it, or NULL. */
static const char *
nxm_name(enum match_field_id id)
{
    static const char *const names[MATCH_N_FIELDS] = {
        [MATCH_F_IN_PORT] = "NXM_OF_IN_PORT",
        [MATCH_F_METADATA] = "OXM_OF_METADATA",
        [MATCH_F_ETH_SRC] = "NXM_OF_ETH_SRC",
        [MATCH_F_ETH_DST] = "NXM_OF_ETH_DST",
        [MATCH_F_ETH_TYPE] = "NXM_OF_ETH_TYPE",
        [MATCH_F_VLAN_TCI] = "NXM_OF_VLAN_TCI",
        [MATCH_F_VLAN_VID] = "OXM_OF_VLAN_VID",
        [MATCH_F_VLAN_PCP] = "OXM_OF_VLAN_PCP",
        [MATCH_F_IP_PROTO] = "NXM_OF_IP_PROTO",
        [MATCH_F_IP_DSCP] = "OXM_OF_IP_DSCP",
        [MATCH_F_NW_TOS] = "NXM_OF_IP_TOS",
        [MATCH_F_IP_ECN] = "NXM_NX_IP_ECN",
        [MATCH_F_NW_TTL] = "NXM_NX_IP_TTL",
        [MATCH_F_IP_FRAG] = "NXM_NX_IP_FRAG",
        [MATCH_F_IPV4_SRC] = "NXM_OF_IP_SRC",
        [MATCH_F_IPV4_DST] = "NXM_OF_IP_DST",
        [MATCH_F_IPV6_SRC] = "NXM_NX_IPV6_SRC",
        [MATCH_F_IPV6_DST] = "NXM_NX_IPV6_DST",
        [MATCH_F_IPV6_LABEL] = "NXM_NX_IPV6_LABEL",
        [MATCH_F_ARP_OP] = "NXM_OF_ARP_OP",
        [MATCH_F_ARP_SPA] = "NXM_OF_ARP_SPA",
        [MATCH_F_ARP_TPA] = "NXM_OF_ARP_TPA",
        [MATCH_F_ARP_SHA] = "NXM_NX_ARP_SHA",
        [MATCH_F_ARP_THA] = "NXM_NX_ARP_THA",
        [MATCH_F_TCP_SRC] = "NXM_OF_TCP_SRC",
        [MATCH_F_TCP_DST] = "NXM_OF_TCP_DST",
        [MATCH_F_TCP_FLAGS] = "NXM_NX_TCP_FLAGS",
        [MATCH_F_UDP_SRC] = "NXM_OF_UDP_SRC",
        [MATCH_F_UDP_DST] = "NXM_OF_UDP_DST",
        [MATCH_F_SCTP_SRC] = "OXM_OF_SCTP_SRC",
        [MATCH_F_SCTP_DST] = "OXM_OF_SCTP_DST",
        [MATCH_F_ICMPV4_TYPE] = "NXM_OF_ICMP_TYPE",
        [MATCH_F_ICMPV4_CODE] = "NXM_OF_ICMP_CODE",
        [MATCH_F_ICMPV6_TYPE] = "NXM_NX_ICMPV6_TYPE",
        [MATCH_F_ICMPV6_CODE] = "NXM_NX_ICMPV6_CODE",
        [MATCH_F_ND_TARGET] = "NXM_NX_ND_TARGET",
        [MATCH_F_ND_SLL] = "NXM_NX_ND_SLL",
        [MATCH_F_ND_TLL] = "NXM_NX_ND_TLL",
    };
    static char regs[MATCH_N_REGS][16], xregs[MATCH_N_XREGS][20];

    if (id >= MATCH_F_REG0 && id <= MATCH_F_REG15) {
        char *name = regs[id - MATCH_F_REG0];
        snprintf(name, sizeof regs[0], "NXM_NX_REG%d", id - MATCH_F_REG0);
        return name;
    }
    if (id >= MATCH_F_XREG0 && id <= MATCH_F_XREG7) {
        char *name = xregs[id - MATCH_F_XREG0];
        snprintf(name, sizeof xregs[0], "OXM_OF_PKT_REG%d",
                 id - MATCH_F_XREG0);
        return name;
    }
    return id < MATCH_N_FIELDS ? names[id] : NULL;
}

/* "NAME[]", "NAME[BIT]" or "NAME[FIRST..LAST]", as Open vSwitch writes a
 * subfield (by its NXM name where it has one). */
static void
format_subfield(const struct ofp_subfield *sf, struct ds *s)
{
    const struct match_field *mf = match_field_info(sf->field);
    const char *name = nxm_name(sf->field);

    ds_put_cstr(s, name ? name : mf->name);
    if (!sf->ofs && sf->n_bits == mf->n_bits) {
        ds_put_cstr(s, "[]");
    } else if (sf->n_bits == 1) {
        ds_put_format(s, "[%d]", sf->ofs);
    } else {
        ds_put_format(s, "[%d..%d]", sf->ofs, sf->ofs + sf->n_bits - 1);
    }
}

static void
format_load_run(const struct ofpact_set_field *sf, unsigned int ofs,
                unsigned int n_bits, void *s_)
{
    const struct match_field *mf = match_field_info(sf->field);
    struct ofp_subfield dst = { sf->field, ofs, n_bits };
    struct ds *s = s_;

    ds_put_format(s, "load:%#"PRIx64"->",
                  value_bits(sf->value, mf->n_bytes, ofs, n_bits));
    format_subfield(&dst, s);
    ds_put_char(s, ',');
}

/* A set_field as it was written: "load:VALUE->FIELD[...]" (one per run of
 * bits) for a load, else "set_field:VALUE[/MASK]->FIELD". */
static void
format_set_field(const struct ofpact_set_field *sf, struct ds *s)
{
    const struct match_field *mf = match_field_info(sf->field);

    if (sf->ofpact.raw == OFPACT_RAW_LOAD) {
        struct ds loads = DS_EMPTY_INITIALIZER;
        set_field_runs(sf, format_load_run, &loads);
        ds_chomp(&loads, ',');
        ds_put_cstr(s, ds_cstr(&loads));
        ds_destroy(&loads);
        return;
    }

    bool whole = true;
    for (unsigned int i = 0; i < mf->n_bits; i++) {
        whole &= value_bits(sf->mask, mf->n_bytes, i, 1);
    }
    ds_put_cstr(s, "set_field:");
    for (int part = 0; part < (whole ? 1 : 2); part++) {
        const uint8_t *v = part ? sf->mask : sf->value;
        if (part) {
            ds_put_char(s, '/');
        }
        if (mf->n_bytes == 6) {
            format_mac((const struct eth_addr *) v, s);
        } else if (mf->n_bytes == 4 && mf->n_bits == 32 && !mf->host_order
                   && mf->id != MATCH_F_IPV6_LABEL) {
            dps_be32 ip;
            memcpy(&ip, v, 4);
            format_ipv4(ip, s);
        } else if (mf->n_bytes == 16) {
            char buf[INET6_ADDRSTRLEN];
            inet_ntop(AF_INET6, v, buf, sizeof buf);
            ds_put_cstr(s, buf);
        } else if (mf->host_order || mf->n_bytes == 8) {
            ds_put_format(s, "%#"PRIx64,
                          value_bits(v, mf->n_bytes, 0, mf->n_bits));
        } else {
            ds_put_format(s, "%"PRIu64,
                          value_bits(v, mf->n_bytes, 0, mf->n_bits));
        }
    }
    ds_put_format(s, "->%s", mf->name);
}

static void
format_action(const struct ofpact *a, const struct ofputil_port_map *port_map,
              struct ds *s)
{
    switch ((enum ofpact_type) a->type) {
    case OFPACT_OUTPUT: {
        const struct ofpact_output *o = ofpact_get_OUTPUT(a);
        if (o->port == OFPP_CONTROLLER) {
            ds_put_format(s, "CONTROLLER:%"PRIu16, o->max_len);
        } else if (o->port >= OFPP_MAX) {
            format_port(o->port, port_map, s);
        } else {
            ds_put_cstr(s, "output:");
            format_port(o->port, port_map, s);
        }
        break;
    }
    case OFPACT_CONTROLLER:
        format_controller(ofpact_get_CONTROLLER(a), s);
        break;
    case OFPACT_ENQUEUE:
        ds_put_cstr(s, "enqueue:");
        format_port(ofpact_get_ENQUEUE(a)->port, port_map, s);
        ds_put_format(s, ":%"PRIu32, ofpact_get_ENQUEUE(a)->queue);
        break;
    case OFPACT_GROUP:
        ds_put_format(s, "group:%"PRIu32, ofpact_get_GROUP(a)->group_id);
        break;
    case OFPACT_RESUBMIT: {
        const struct ofpact_resubmit *r = ofpact_get_RESUBMIT(a);
        if (r->in_port != OFPP_IN_PORT && r->table_id == OFPTT_ALL
            && !r->with_ct_orig) {
            ds_put_cstr(s, "resubmit:");
            format_port(r->in_port, port_map, s);
        } else {
            ds_put_cstr(s, "resubmit(");
            if (r->in_port != OFPP_IN_PORT) {
                format_port(r->in_port, port_map, s);
            }
            ds_put_char(s, ',');
            if (r->table_id != OFPTT_ALL) {
                ds_put_format(s, "%d", r->table_id);
            }
            if (r->with_ct_orig) {
                ds_put_cstr(s, ",ct");
            }
            ds_put_char(s, ')');
        }
        break;
    }
    case OFPACT_SET_VLAN_VID:
        ds_put_format(s, "%s:%"PRIu16,
                      ofpact_get_SET_VLAN_VID(a)->push_vlan_if_needed
                      ? "mod_vlan_vid" : "set_vlan_vid",
                      ofpact_get_SET_VLAN_VID(a)->vlan_vid);
        break;
    case OFPACT_SET_VLAN_PCP:
        ds_put_format(s, "%s:%d",
                      ofpact_get_SET_VLAN_PCP(a)->push_vlan_if_needed
                      ? "mod_vlan_pcp" : "set_vlan_pcp",
                      ofpact_get_SET_VLAN_PCP(a)->vlan_pcp);
        break;
    case OFPACT_STRIP_VLAN:
        ds_put_cstr(s, a->raw == OFPACT_RAW_POP_VLAN ? "pop_vlan"
                                                     : "strip_vlan");
        break;
    case OFPACT_PUSH_VLAN:
        ds_put_format(s, "push_vlan:0x%04"PRIx16,
                      ntohs(ofpact_get_PUSH_VLAN(a)->ethertype));
        break;
    case OFPACT_SET_ETH_SRC:
    case OFPACT_SET_ETH_DST:
        ds_put_cstr(s, a->type == OFPACT_SET_ETH_SRC ? "mod_dl_src:"
                                                     : "mod_dl_dst:");
        format_mac(&ofpact_get_SET_ETH_SRC(a)->mac, s);
        break;
    case OFPACT_SET_IPV4_SRC:
    case OFPACT_SET_IPV4_DST:
        ds_put_cstr(s, a->type == OFPACT_SET_IPV4_SRC ? "mod_nw_src:"
                                                      : "mod_nw_dst:");
        format_ipv4(ofpact_get_SET_IPV4_SRC(a)->ipv4, s);
        break;
    case OFPACT_SET_IP_DSCP:
        ds_put_format(s, "mod_nw_tos:%d", ofpact_get_SET_IP_DSCP(a)->dscp);
        break;
    case OFPACT_SET_IP_ECN:
        ds_put_format(s, "mod_nw_ecn:%d", ofpact_get_SET_IP_ECN(a)->ecn);
        break;
    case OFPACT_SET_IP_TTL:
        ds_put_format(s, "mod_nw_ttl:%d", ofpact_get_SET_IP_TTL(a)->ttl);
        break;
    case OFPACT_SET_L4_SRC_PORT:
    case OFPACT_SET_L4_DST_PORT:
        ds_put_format(s, "%s:%"PRIu16,
                      a->type == OFPACT_SET_L4_SRC_PORT ? "mod_tp_src"
                                                        : "mod_tp_dst",
                      ofpact_get_SET_L4_SRC_PORT(a)->port);
        break;
    case OFPACT_DEC_TTL: {
        const struct ofpact_cnt_ids *ids = ofpact_get_DEC_TTL(a);
        ds_put_cstr(s, "dec_ttl");
        if (ids->n_controllers) {
            ds_put_char(s, '(');
            for (size_t i = 0; i < ids->n_controllers; i++) {
                ds_put_format(s, "%s%"PRIu16, i ? "," : "", ids->cnt_ids[i]);
            }
            ds_put_char(s, ')');
        }
        break;
    }
    case OFPACT_NOTE: {
        const struct ofpact_note *note = ofpact_get_NOTE(a);
        ds_put_cstr(s, "note:");
        for (size_t i = 0; i < note->length; i++) {
            ds_put_format(s, "%s%02x", i ? "." : "", note->data[i]);
        }
        break;
    }
    case OFPACT_CLEAR_ACTIONS:
        ds_put_cstr(s, "clear_actions");
        break;
    case OFPACT_WRITE_ACTIONS: {
        const struct ofpact_nest *on = ofpact_get_WRITE_ACTIONS(a);
        ds_put_cstr(s, "write_actions(");
        ofpacts_format(ofpact_nest_get_actions(on),
                       ofpact_nest_get_action_len(on), port_map, s);
        ds_put_char(s, ')');
        break;
    }
    case OFPACT_WRITE_METADATA: {
        const struct ofpact_metadata *m = ofpact_get_WRITE_METADATA(a);
        uint64_t value = ofp_get_be64(&m->metadata);
        uint64_t mask = ofp_get_be64(&m->mask);
        ds_put_format(s, "write_metadata:%#"PRIx64, value);
        if (mask != UINT64_MAX) {
            ds_put_format(s, "/%#"PRIx64, mask);
        }
        break;
    }
    case OFPACT_GOTO_TABLE:
        ds_put_format(s, "goto_table:%d", ofpact_get_GOTO_TABLE(a)->table_id);
        break;
    case OFPACT_SET_FIELD:
        format_set_field(ofpact_get_SET_FIELD(a), s);
        break;
    case OFPACT_REG_MOVE:
        ds_put_cstr(s, "move:");
        format_subfield(&ofpact_get_REG_MOVE(a)->src, s);
        ds_put_cstr(s, "->");
        format_subfield(&ofpact_get_REG_MOVE(a)->dst, s);
        break;
    case OFPACT_N_TYPES:
        ds_put_format(s, "<%s>", ofpact_name(a->type));
        break;
    }
}

/* Parses 's' as an unsigned number of at most 'max' (decimal, or hex with
 * "0x").  Returns false if it is not one. */
static bool
parse_uint(const char *s, unsigned long max, unsigned long *value)
{
    uint64_t n;

    if (!ofp_parse_u64(s, &n) || n > max) {
        return false;
    }
    *value = n;
    return true;
}

static char * DPS_WARN_UNUSED_RESULT
parse_output(const char *arg, const struct ofputil_port_map *map,
             struct ofpbuf *ofpacts)
{
    ofp_port_t port;

    if (!ofputil_port_parse(arg, map, &port)) {
        return xasprintf("%s: output to unknown port", arg);
    }
    struct ofpact_output *o = ofpact_put_OUTPUT(ofpacts);
    o->port = port;
    o->max_len = port == OFPP_CONTROLLER ? UINT16_MAX : 0;
    return NULL;
}

static char * DPS_WARN_UNUSED_RESULT
parse_controller(const char *arg, struct ofpbuf *ofpacts)
{
    unsigned long max_len = UINT16_MAX;

    if (*arg && !parse_uint(arg, UINT16_MAX, &max_len)) {
        return xasprintf("invalid controller max_len \"%s\"", arg);
    }
    struct ofpact_controller *c = ofpact_put_CONTROLLER(ofpacts);
    c->max_len = max_len;
    c->reason = OFPR_ACTION;
    ofpact_finish(ofpacts, &c->ofpact);
    return NULL;
}

/* The field called 'name': by Open vSwitch's field name, its other name
 * ("dl_src") or its NXM name ("NXM_OF_ETH_SRC"); NULL if none. */
static const struct match_field *
field_by_any_name(const char *name)
{
    const struct match_field *mf = ofp_parse_field_name(name);

    for (int id = 0; !mf && id < MATCH_N_FIELDS; id++) {
        const char *nxm = nxm_name(id);
        if (nxm && !strcmp(nxm, name)) {
            mf = match_field_info(id);
        }
    }
    return mf;
}

/* Parses 's', "FIELD[]", "FIELD[BIT]", "FIELD[FIRST..LAST]" or "FIELD" (the
 * whole field), into 'sf'. */
static char *
parse_subfield(const char *s, struct ofp_subfield *sf)
{
    char *name = xstrdup(s);
    char *bracket = strchr(name, '[');
    unsigned int first = 0, last = 0;
    bool whole = true;

    if (bracket) {
        int n = 0;
        *bracket = '\0';
        if (!strcmp(bracket + 1, "]")) {
            whole = true;
        } else if (sscanf(bracket + 1, "%u..%u]%n", &first, &last, &n) == 2
                   && bracket[1 + n] == '\0') {
            whole = false;
        } else if (n = 0, sscanf(bracket + 1, "%u]%n", &first, &n) == 1
                   && bracket[1 + n] == '\0') {
            last = first;
            whole = false;
        } else {
            char *error = xasprintf("%s: syntax error expecting [] or [<bit>] "
                                    "or [<start>..<end>]", s);
            free(name);
            return error;
        }
    }
    const struct match_field *mf = field_by_any_name(name);
    if (!mf) {
        char *error = xasprintf("%s: unknown field `%s'", s, name);
        free(name);
        return error;
    }
    free(name);
    if (whole) {
        first = 0;
        last = mf->n_bits - 1;
    }
    if (first > last || last >= mf->n_bits) {
        return xasprintf("%s: starting bit %u is after ending bit %u", s,
                         first, last);
    }
    sf->field = mf->id;
    sf->ofs = first;
    sf->n_bits = last - first + 1;
    return NULL;
}

/* "load:VALUE->DST[...]" and "set_field:VALUE[/MASK]->FIELD": both end up
 * as OFPACT_SET_FIELD, a load with OFPACT_RAW_LOAD. */
static char *
parse_load_or_set_field(const char *key, char *arg, struct ofpbuf *ofpacts)
{
    char *arrow = strstr(arg, "->");
    bool load = !strcmp(key, "load");
    char *error;

    if (!arrow) {
        return xasprintf("%s: missing `->'", arg);
    }
    *arrow = '\0';

    struct ofp_subfield dst;
    if (load) {
        error = parse_subfield(arrow + 2, &dst);
    } else {
        const struct match_field *mf = field_by_any_name(arrow + 2);
        error = (mf ? NULL
                 : xasprintf("%s is not a valid OXM field name", arrow + 2));
        if (mf) {
            dst = (struct ofp_subfield) { mf->id, 0, mf->n_bits };
        }
    }
    if (error) {
        return error;
    }
    const struct match_field *mf = match_field_info(dst.field);
    if (!mf->writable) {
        return xasprintf("%s is read-only", mf->name);
    }

    struct ofpact_set_field *sf = ofpact_put_SET_FIELD(ofpacts);
    sf->field = dst.field;
    if (load) {
        uint64_t value;
        if (!ofp_parse_u64(arg, &value)
            || (dst.n_bits < 64 && value >> dst.n_bits)) {
            ofpacts->size -= OFPACT_ALIGN(sizeof *sf);
            return xasprintf("%s: value does not fit in %d bits", arg,
                             dst.n_bits);
        }
        sf->ofpact.raw = OFPACT_RAW_LOAD;
        for (unsigned int i = 0; i < dst.n_bits; i++) {
            unsigned int bit = dst.ofs + i;
            sf->mask[mf->n_bytes - 1 - bit / 8] |= 1u << (bit % 8);
            if ((value >> i) & 1) {
                sf->value[mf->n_bytes - 1 - bit / 8] |= 1u << (bit % 8);
            }
        }
        return NULL;
    }

    /* The value (and mask) in the field's own syntax, as a flow has it. */
    union match_value v, mask;
    error = ofp_parse_field_value(mf, arg, &v, &mask);
    if (error) {
        ofpacts->size -= OFPACT_ALIGN(sizeof *sf);
        return error;
    }
    for (size_t i = 0; i < mf->n_bytes; i++) {
        sf->value[i] = v.u8[i] & mask.u8[i];
        sf->mask[i] = mask.u8[i];
    }
    return NULL;
}

/* One action 'key' with argument 'arg' ("" if none). */
static char * DPS_WARN_UNUSED_RESULT
parse_action(const char *key, char *arg, const struct ofputil_port_map *map,
             struct ofpbuf *ofpacts)
{
    unsigned long n;
    ofp_port_t port;

    if (!strcasecmp(key, "output")) {
        return parse_output(arg, map, ofpacts);
    } else if (!strcasecmp(key, "group")) {
        if (!parse_uint(arg, OFPG_MAX, &n)) {
            return xasprintf("%s: invalid group id", arg);
        }
        ofpact_put_GROUP(ofpacts)->group_id = n;
        return NULL;
    } else if (!strcasecmp(key, "controller")) {
        return parse_controller(arg, ofpacts);
    } else if (!*arg && ofputil_port_parse(key, map, &port)) {
        return parse_output(key, map, ofpacts);
    } else if (!strcmp(key, "enqueue")) {
        char *colon = strchr(arg, ':');
        if (!colon) {
            colon = strchr(arg, ',');
        }
        if (!colon) {
            return xstrdup("\"enqueue\" syntax is \"enqueue:PORT:QUEUE\" "
                           "or \"enqueue(PORT,QUEUE)\"");
        }
        *colon = '\0';
        if (!ofputil_port_parse(arg, map, &port)) {
            return xasprintf("%s: enqueue to unknown port", arg);
        }
        if (!parse_uint(colon + 1, UINT32_MAX, &n)) {
            return xasprintf("%s: invalid queue", colon + 1);
        }
        struct ofpact_enqueue *e = ofpact_put_ENQUEUE(ofpacts);
        e->port = port;
        e->queue = n;
    } else if (!strcmp(key, "resubmit")) {
        char *comma = strchr(arg, ',');
        struct ofpact_resubmit *r;
        ofp_port_t in_port = OFPP_IN_PORT;
        unsigned long table = OFPTT_ALL;

        if (comma) {
            *comma = '\0';
        }
        if (*arg && !ofputil_port_parse(arg, map, &in_port)) {
            return xasprintf("%s: resubmit to unknown port", arg);
        }
        if (comma && comma[1] && !parse_uint(comma + 1, 254, &table)) {
            return xasprintf("%s: resubmit to unknown table", comma + 1);
        }
        r = ofpact_put_RESUBMIT(ofpacts);
        r->in_port = in_port;
        r->table_id = table;
        r->ofpact.raw = comma ? OFPACT_RAW_NICIRA : OFPACT_RAW_DEFAULT;
    } else if (!strcmp(key, "mod_vlan_vid") || !strcmp(key, "set_vlan_vid")) {
        if (!parse_uint(arg, VLAN_VID_MASK, &n)) {
            return xasprintf("%s: not a valid VLAN VID", arg);
        }
        struct ofpact_vlan_vid *v = ofpact_put_SET_VLAN_VID(ofpacts);
        v->vlan_vid = n;
        v->push_vlan_if_needed = key[0] == 'm';
    } else if (!strcmp(key, "mod_vlan_pcp") || !strcmp(key, "set_vlan_pcp")) {
        if (!parse_uint(arg, 7, &n)) {
            return xasprintf("%s: not a valid VLAN PCP", arg);
        }
        struct ofpact_vlan_pcp *v = ofpact_put_SET_VLAN_PCP(ofpacts);
        v->vlan_pcp = n;
        v->push_vlan_if_needed = key[0] == 'm';
    } else if (!strcmp(key, "strip_vlan") || !strcmp(key, "pop_vlan")) {
        ofpact_put_STRIP_VLAN(ofpacts)->ofpact.raw
            = key[0] == 'p' ? OFPACT_RAW_POP_VLAN : OFPACT_RAW_DEFAULT;
    } else if (!strcmp(key, "mod_dl_src") || !strcmp(key, "mod_dl_dst")) {
        struct eth_addr mac;
        if (!ofp_parse_mac(arg, &mac)) {
            return xasprintf("invalid mac address %s", arg);
        }
        struct ofpact_mac *m = (!strcmp(key, "mod_dl_src")
                                ? ofpact_put_SET_ETH_SRC(ofpacts)
                                : ofpact_put_SET_ETH_DST(ofpacts));
        m->mac = mac;
    } else if (!strcmp(key, "mod_nw_src") || !strcmp(key, "mod_nw_dst")) {
        uint32_t ip;
        if (!sock_parse_ipv4(arg, &ip)) {
            return xasprintf("%s: could not convert to IP address", arg);
        }
        struct ofpact_ipv4 *a = (!strcmp(key, "mod_nw_src")
                                 ? ofpact_put_SET_IPV4_SRC(ofpacts)
                                 : ofpact_put_SET_IPV4_DST(ofpacts));
        a->ipv4 = ip;
    } else if (!strcmp(key, "mod_nw_tos")) {
        if (!parse_uint(arg, 255, &n) || n & 3) {
            return xasprintf("%s: not a valid TOS", arg);
        }
        ofpact_put_SET_IP_DSCP(ofpacts)->dscp = n;
    } else if (!strcmp(key, "mod_tp_src") || !strcmp(key, "mod_tp_dst")) {
        bool src = !strcmp(key, "mod_tp_src");
        if (!parse_uint(arg, UINT16_MAX, &n)) {
            return xasprintf("invalid %s port \"%s\"",
                             src ? "source" : "destination", arg);
        }
        struct ofpact_l4_port *l4 = (src ? ofpact_put_SET_L4_SRC_PORT(ofpacts)
                                     : ofpact_put_SET_L4_DST_PORT(ofpacts));
        l4->port = n;
    } else if (!strcmp(key, "mod_nw_ecn")) {
        if (!parse_uint(arg, 3, &n)) {
            return xasprintf("%s: not a valid ECN", arg);
        }
        ofpact_put_SET_IP_ECN(ofpacts)->ecn = n;
    } else if (!strcmp(key, "mod_nw_ttl")) {
        if (!parse_uint(arg, 255, &n)) {
            return xasprintf("invalid TTL \"%s\"", arg);
        }
        ofpact_put_SET_IP_TTL(ofpacts)->ttl = n;
    } else if (!strcmp(key, "push_vlan")) {
        if (!parse_uint(arg, UINT16_MAX, &n)) {
            return xasprintf("%s: invalid ethertype", arg);
        }
        if (n != ETH_TYPE_VLAN && n != ETH_TYPE_VLAN_8021AD) {
            return xasprintf("%s: not a valid VLAN ethertype", arg);
        }
        ofpact_put_PUSH_VLAN(ofpacts)->ethertype = htons(n);
    } else if (!strcmp(key, "load") || !strcmp(key, "set_field")) {
        return parse_load_or_set_field(key, arg, ofpacts);
    } else if (!strcmp(key, "move")) {
        char *arrow = strstr(arg, "->");
        struct ofp_subfield src, dst;
        if (!arrow) {
            return xasprintf("%s: missing `->'", arg);
        }
        *arrow = '\0';
        char *error = parse_subfield(arg, &src);
        if (!error) {
            error = parse_subfield(arrow + 2, &dst);
        }
        if (error) {
            return error;
        }
        if (src.n_bits != dst.n_bits) {
            return xasprintf("source field is %d bits wide but destination "
                             "is %d bits wide", src.n_bits, dst.n_bits);
        }
        if (!match_field_info(dst.field)->writable) {
            return xasprintf("destination field %s is not writable",
                             match_field_info(dst.field)->name);
        }
        struct ofpact_reg_move *m = ofpact_put_REG_MOVE(ofpacts);
        m->src = src;
        m->dst = dst;
    } else if (!strcmp(key, "dec_ttl") && !*arg) {
        ofpact_put_DEC_TTL(ofpacts);
        ofpact_finish(ofpacts, ofpacts->header);
    } else if (!strcmp(key, "note")) {
        struct ofpact_note *note = ofpact_put_NOTE(ofpacts);
        size_t start = ofpacts->size;
        for (const char *p = arg; *p; ) {
            unsigned int byte;
            int len;
            if (*p == '.') {
                p++;
                continue;
            }
            if (sscanf(p, "%2x%n", &byte, &len) != 1 || len != 2) {
                return xstrdup("bad hex digit in `note' argument");
            }
            uint8_t b = byte;
            ofpbuf_put(ofpacts, &b, 1);
            p += len;
        }
        note = ofpacts->header;
        note->length = ofpacts->size - start;
        ofpact_finish(ofpacts, ofpacts->header);
    } else {
        return xasprintf("unknown action %s", key);
    }
    return NULL;
}


/* The index in 'inst_names' of 'key' (1 for an action, 0 for "drop"). */
static int
instruction_index(const char *key)
{
    if (!strcasecmp(key, "drop")) {
        return 0;
    }
    for (size_t i = 2; i < ARRAY_SIZE(inst_names); i++) {
        if (!strcasecmp(key, inst_names[i])) {
            return i;
        }
    }
    return 1;
}

/* Parses instruction 'key' with argument 'arg' into 'ofpacts'. */
static char *
parse_instruction(const char *key, char *arg,
                  const struct ofputil_port_map *map, struct ofpbuf *ofpacts)
{
    unsigned long n;

    if (!strcasecmp(key, "clear_actions")) {
        ofpact_put_CLEAR_ACTIONS(ofpacts);
    } else if (!strcasecmp(key, "goto_table")) {
        if (!parse_uint(arg, OFPTT_MAX, &n)) {
            return xasprintf("%s: invalid table id", arg);
        }
        ofpact_put_GOTO_TABLE(ofpacts)->table_id = n;
    } else if (!strcasecmp(key, "write_metadata")) {
        char *slash = strchr(arg, '/');
        char *end;
        uint64_t value, mask = UINT64_MAX;

        if (slash) {
            *slash = '\0';
        }
        value = strtoull(arg, &end, 0);
        if (!*arg || *end) {
            return xasprintf("%s: invalid metadata", arg);
        }
        if (slash) {
            mask = strtoull(slash + 1, &end, 0);
            if (!slash[1] || *end) {
                return xasprintf("%s: invalid metadata mask", slash + 1);
            }
        }
        struct ofpact_metadata *md = ofpact_put_WRITE_METADATA(ofpacts);
        uint8_t be[16];
        ofp_put_be32(be, value >> 32);
        ofp_put_be32(be + 4, value);
        ofp_put_be32(be + 8, mask >> 32);
        ofp_put_be32(be + 12, mask);
        memcpy(&md->metadata, be, 8);
        memcpy(&md->mask, be + 8, 8);
    } else {
        /* write_actions(ACTIONS): a nested list, closed after it. */
        size_t ofs = ofpacts->size;
        ofpact_put_WRITE_ACTIONS(ofpacts);
        char *error = ofpacts_parse(arg, ofpacts, map);
        if (error) {
            ofpacts->size = ofs;
            return error;
        }
        ofpacts->header = (uint8_t *) ofpacts->data + ofs;
        ofpact_finish(ofpacts, ofpacts->header);
    }
    return NULL;
}
