/* OpenFlow 1.1+ wire forms of actions and instructions (see
 * ofp-actions-of11.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-actions-of11.h"
#include <arpa/inet.h>
#include <string.h>
#include "match.h"
#include "ofp-actions.h"
#include "ofp-match.h"
#include "ofpbuf.h"
#include "util.h"

/* OpenFlow 1.1+ action types (OFPAT11_* and OFPAT12_SET_FIELD). */
enum {
    OFPAT11_OUTPUT = 0,
    OFPAT11_COPY_TTL_OUT = 11,
    OFPAT11_COPY_TTL_IN = 12,
    OFPAT11_SET_MPLS_TTL = 15,
    OFPAT11_DEC_MPLS_TTL = 16,
    OFPAT11_PUSH_VLAN = 17,
    OFPAT11_POP_VLAN = 18,
    OFPAT11_PUSH_MPLS = 19,
    OFPAT11_POP_MPLS = 20,
    OFPAT11_SET_QUEUE = 21,
    OFPAT11_GROUP = 22,
    OFPAT11_SET_NW_TTL = 23,
    OFPAT11_DEC_NW_TTL = 24,
    OFPAT12_SET_FIELD = 25,
};

/* Instruction types (OFPIT_*). */
enum {
    OFPIT_GOTO_TABLE = 1,
    OFPIT_WRITE_METADATA = 2,
    OFPIT_WRITE_ACTIONS = 3,
    OFPIT_APPLY_ACTIONS = 4,
    OFPIT_CLEAR_ACTIONS = 5,
    OFPIT_METER = 6,
    OFPIT_EXPERIMENTER = 0xffff,
};

static void put_set_field(struct ofpbuf *, enum match_field_id,
                          const void *value, size_t size);
static void put_push_vlan(struct ofpbuf *, uint16_t ethertype);

/* Decodes the 'len'-byte OpenFlow 1.1+ action at 'a' (its length already
 * checked to be a nonzero multiple of 8 within the list) into 'ofpacts'.
 * Experimenter (Nicira) actions are the caller's.  Returns 0 or the error
 * Open vSwitch 3.1 gives. */
enum ofperr
ofpact_decode_of11(const uint8_t *a, size_t len, enum ofp_version version,
                   struct ofpbuf *ofpacts)
{
    uint16_t type = ofp_get_be16(a);

    switch (type) {
    case OFPAT11_OUTPUT: {
        ofp_port_t port;
        if (len != 16) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        if (!ofp_port_from_ofp11(ofp_get_be32(a + 4), &port)) {
            return OFPERR_OFPBAC_BAD_OUT_PORT;
        }
        return ofpact_decode_output(port, ofp_get_be16(a + 8), ofpacts);
    }

    case OFPAT11_PUSH_VLAN: {
        uint16_t ethertype = ofp_get_be16(a + 4);
        if (len != 8) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        if (ethertype != ETH_TYPE_VLAN && ethertype != ETH_TYPE_VLAN_8021AD) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        ofpact_put_PUSH_VLAN(ofpacts)->ethertype = htons(ethertype);
        return 0;
    }

    case OFPAT11_POP_VLAN:
        if (len != 8) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        ofpact_put_STRIP_VLAN(ofpacts)->ofpact.raw = OFPACT_RAW_POP_VLAN;
        return 0;

    case OFPAT11_GROUP:
        if (len != 8) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        ofpact_put_GROUP(ofpacts)->group_id = ofp_get_be32(a + 4);
        return 0;

    case OFPAT11_SET_NW_TTL:
        if (len != 8) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        ofpact_put_SET_IP_TTL(ofpacts)->ttl = a[4];
        return 0;

    case OFPAT11_DEC_NW_TTL:
        if (len != 8) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        ofpact_put_DEC_TTL(ofpacts);
        return 0;

    case OFPAT12_SET_FIELD: {
        enum match_field_id id;
        union match_value value, mask;
        enum ofperr error = oxm_pull_field(a + 4, len - 4, &id, &value,
                                           &mask);
        if (error) {
            return error;
        }
        const struct match_field *mf = match_field_info(id);
        if (!mf->writable) {
            return OFPERR_OFPBAC_BAD_SET_TYPE;
        }
        /* Masked set_field is OpenFlow 1.5's. */
        union match_value ones;
        memset(&ones, 0xff, sizeof ones);
        if (version < OFP15_VERSION && memcmp(&mask, &ones, sizeof mask)) {
            return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
        }
        if (id == MATCH_F_VLAN_VID && !(value.u8[0] & (VLAN_CFI >> 8))) {
            /* OpenFlow 1.2+ writes a VID with its "present" bit. */
            return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
        }
        struct ofpact_set_field *sf = ofpact_put_SET_FIELD(ofpacts);
        sf->field = id;
        memcpy(sf->value, &value, sizeof sf->value);
        memcpy(sf->mask, &mask, sizeof sf->mask);
        return 0;
    }

    /* MPLS, TTL copies and set_queue: dpswitch has no such actions. */
    case OFPAT11_COPY_TTL_OUT:
    case OFPAT11_COPY_TTL_IN:
    case OFPAT11_SET_MPLS_TTL:
    case OFPAT11_DEC_MPLS_TTL:
    case OFPAT11_PUSH_MPLS:
    case OFPAT11_POP_MPLS:
    case OFPAT11_SET_QUEUE:
    default:
        return OFPERR_OFPBAC_BAD_TYPE;
    }
}

/* Appends the OpenFlow 1.1+ form of 'a' to 'msg' if it has a standard one
 * and returns true; returns false for an action whose only form is a
 * Nicira extension (the caller encodes it). */
bool
ofpact_encode_of11(const struct ofpact *a, struct ofpbuf *msg,
                   enum ofp_version version DPS_UNUSED)
{
    uint8_t *p;

    switch ((enum ofpact_type) a->type) {
    case OFPACT_OUTPUT:
        p = ofpact_wire_put(msg, OFPAT11_OUTPUT, 16);
        ofp_put_be32(p + 4, ofp_port_to_ofp11(ofpact_get_OUTPUT(a)->port));
        ofp_put_be16(p + 8, ofpact_get_OUTPUT(a)->max_len);
        return true;

    case OFPACT_CONTROLLER: {
        const struct ofpact_controller *c = ofpact_get_CONTROLLER(a);
        if (c->reason != OFPR_ACTION || c->controller_id
            || c->userdata_len || c->pause || a->raw == OFPACT_RAW_NICIRA) {
            return false;
        }
        p = ofpact_wire_put(msg, OFPAT11_OUTPUT, 16);
        ofp_put_be32(p + 4, ofp_port_to_ofp11(OFPP_CONTROLLER));
        ofp_put_be16(p + 8, c->max_len);
        return true;
    }

    case OFPACT_ENQUEUE:
        p = ofpact_wire_put(msg, OFPAT11_SET_QUEUE, 8);
        ofp_put_be32(p + 4, ofpact_get_ENQUEUE(a)->queue);
        p = ofpact_wire_put(msg, OFPAT11_OUTPUT, 16);
        ofp_put_be32(p + 4, ofp_port_to_ofp11(ofpact_get_ENQUEUE(a)->port));
        return true;

    case OFPACT_GROUP:
        p = ofpact_wire_put(msg, OFPAT11_GROUP, 8);
        ofp_put_be32(p + 4, ofpact_get_GROUP(a)->group_id);
        return true;

    case OFPACT_SET_FIELD: {
        const struct ofpact_set_field *sf = ofpact_get_SET_FIELD(a);
        const struct match_field *mf = match_field_info(sf->field);
        size_t start = msg->size;
        /* A load, or a set_field of some bits only, goes as Nicira loads
         * (lib/ofp-actions.c), as Open vSwitch sends them: OpenFlow's
         * set_field has no mask. */
        if (sf->ofpact.raw == OFPACT_RAW_LOAD) {
            return false;
        }
        for (unsigned int i = 0; i < mf->n_bits; i++) {
            if (!(sf->mask[mf->n_bytes - 1 - i / 8] & (1u << (i % 8)))) {
                return false;
            }
        }
        ofpact_wire_put(msg, OFPAT12_SET_FIELD, 4);
        oxm_put_field(msg, sf->field, (const union match_value *) sf->value,
                      (const union match_value *) sf->mask);
        ofpbuf_put_zeros(msg, (msg->size - start + 7) / 8 * 8
                              - (msg->size - start));
        ofp_put_be16((uint8_t *) msg->data + start + 2, msg->size - start);
        return true;
    }

    case OFPACT_SET_VLAN_VID: {
        const struct ofpact_vlan_vid *v = ofpact_get_SET_VLAN_VID(a);
        if (v->push_vlan_if_needed) {
            put_push_vlan(msg, ETH_TYPE_VLAN);
        }
        uint8_t vid[2];
        ofp_put_be16(vid, v->vlan_vid | VLAN_CFI);
        put_set_field(msg, MATCH_F_VLAN_VID, vid, 2);
        return true;
    }

    case OFPACT_SET_VLAN_PCP: {
        const struct ofpact_vlan_pcp *v = ofpact_get_SET_VLAN_PCP(a);
        if (v->push_vlan_if_needed) {
            put_push_vlan(msg, ETH_TYPE_VLAN);
        }
        put_set_field(msg, MATCH_F_VLAN_PCP, &v->vlan_pcp, 1);
        return true;
    }

    case OFPACT_STRIP_VLAN:
        ofpact_wire_put(msg, OFPAT11_POP_VLAN, 8);
        return true;

    case OFPACT_PUSH_VLAN:
        put_push_vlan(msg, ntohs(ofpact_get_PUSH_VLAN(a)->ethertype));
        return true;

    case OFPACT_SET_ETH_SRC:
    case OFPACT_SET_ETH_DST:
        put_set_field(msg, (a->type == OFPACT_SET_ETH_SRC
                            ? MATCH_F_ETH_SRC : MATCH_F_ETH_DST),
                      &ofpact_get_SET_ETH_SRC(a)->mac, 6);
        return true;

    case OFPACT_SET_IPV4_SRC:
    case OFPACT_SET_IPV4_DST:
        put_set_field(msg, (a->type == OFPACT_SET_IPV4_SRC
                            ? MATCH_F_IPV4_SRC : MATCH_F_IPV4_DST),
                      &ofpact_get_SET_IPV4_SRC(a)->ipv4, 4);
        return true;

    case OFPACT_SET_IP_DSCP: {
        uint8_t dscp = ofpact_get_SET_IP_DSCP(a)->dscp >> 2;
        put_set_field(msg, MATCH_F_IP_DSCP, &dscp, 1);
        return true;
    }

    case OFPACT_SET_IP_ECN:
        put_set_field(msg, MATCH_F_IP_ECN, &ofpact_get_SET_IP_ECN(a)->ecn, 1);
        return true;

    case OFPACT_SET_IP_TTL:
        p = ofpact_wire_put(msg, OFPAT11_SET_NW_TTL, 8);
        p[4] = ofpact_get_SET_IP_TTL(a)->ttl;
        return true;

    case OFPACT_SET_L4_SRC_PORT:
    case OFPACT_SET_L4_DST_PORT: {
        const struct ofpact_l4_port *l4 = ofpact_get_SET_L4_SRC_PORT(a);
        bool src = a->type == OFPACT_SET_L4_SRC_PORT;
        enum match_field_id id;
        uint8_t port[2];

        switch (l4->flow_ip_proto) {
        case IPPROTO_UDP_:
            id = src ? MATCH_F_UDP_SRC : MATCH_F_UDP_DST;
            break;
        case IPPROTO_SCTP_:
            id = src ? MATCH_F_SCTP_SRC : MATCH_F_SCTP_DST;
            break;
        default:
            id = src ? MATCH_F_TCP_SRC : MATCH_F_TCP_DST;
            break;
        }
        ofp_put_be16(port, l4->port);
        put_set_field(msg, id, port, 2);
        return true;
    }

    case OFPACT_DEC_TTL: {
        const struct ofpact_cnt_ids *ids = ofpact_get_DEC_TTL(a);
        if (ids->n_controllers > 1
            || (ids->n_controllers == 1 && ids->cnt_ids[0])) {
            return false;
        }
        ofpact_wire_put(msg, OFPAT11_DEC_NW_TTL, 8);
        return true;
    }

    case OFPACT_RESUBMIT:
    case OFPACT_REG_MOVE:
    case OFPACT_NOTE:
    case OFPACT_CLEAR_ACTIONS:
    case OFPACT_WRITE_ACTIONS:
    case OFPACT_WRITE_METADATA:
    case OFPACT_GOTO_TABLE:
    case OFPACT_N_TYPES:
    default:
        return false;
    }
}

/* Pulls 'instructions_len' bytes of OpenFlow 1.1+ instructions off 'msg'
 * into 'ofpacts', in dpswitch's order whatever the wire's: the applied
 * actions, clear_actions, write_actions, write_metadata, goto_table.
 * Returns 0 or Open vSwitch's error (OFPBIC_*, or the actions' own);
 * 'ofpacts' is left as it was on error. */
enum ofperr
ofpacts_decode_instructions_of11(struct ofpbuf *msg,
                                 unsigned int instructions_len,
                                 enum ofp_version version,
                                 struct ofpbuf *ofpacts)
{
    const uint8_t *insts[OFPIT_METER + 1] = { NULL };
    size_t start = ofpacts->size;

    if (instructions_len % 8) {
        return OFPERR_OFPBIC_BAD_LEN;
    }
    const uint8_t *p = ofpbuf_try_pull(msg, instructions_len);
    if (!p && instructions_len) {
        return OFPERR_OFPBIC_BAD_LEN;
    }
    for (size_t ofs = 0; ofs < instructions_len; ) {
        size_t left = instructions_len - ofs;
        uint16_t type = ofp_get_be16(p + ofs);
        uint16_t len = ofp_get_be16(p + ofs + 2);

        if (len < 8 || len % 8 || len > left) {
            return OFPERR_OFPBIC_BAD_LEN;
        }
        if (type == OFPIT_EXPERIMENTER) {
            return OFPERR_OFPBIC_BAD_EXPERIMENTER;
        } else if (type < OFPIT_GOTO_TABLE || type > OFPIT_METER) {
            return OFPERR_OFPBIC_UNKNOWN_INST;
        } else if (insts[type]) {
            return OFPERR_OFPBIC_DUP_INST;
        }
        if ((type == OFPIT_GOTO_TABLE || type == OFPIT_CLEAR_ACTIONS
             || type == OFPIT_METER) && len != 8) {
            return OFPERR_OFPBIC_BAD_LEN;
        } else if (type == OFPIT_WRITE_METADATA && len != 24) {
            return OFPERR_OFPBIC_BAD_LEN;
        }
        insts[type] = p + ofs;
        ofs += len;
    }

    enum ofperr error = 0;
    if (insts[OFPIT_APPLY_ACTIONS]) {
        const uint8_t *in = insts[OFPIT_APPLY_ACTIONS];
        struct ofpbuf b;
        ofpbuf_use_const(&b, in + 8, ofp_get_be16(in + 2) - 8);
        error = ofpacts_pull_openflow_actions(&b, b.size, version, ofpacts);
    }
    if (!error && insts[OFPIT_CLEAR_ACTIONS]) {
        ofpact_put_CLEAR_ACTIONS(ofpacts);
    }
    if (!error && insts[OFPIT_WRITE_ACTIONS]) {
        const uint8_t *in = insts[OFPIT_WRITE_ACTIONS];
        size_t ofs = ofpacts->size;
        struct ofpbuf b;

        ofpact_put_WRITE_ACTIONS(ofpacts);
        ofpbuf_use_const(&b, in + 8, ofp_get_be16(in + 2) - 8);
        error = ofpacts_pull_openflow_actions(&b, b.size, version, ofpacts);
        if (!error) {
            /* The nested actions moved the list's "current action". */
            ofpacts->header = (uint8_t *) ofpacts->data + ofs;
            ofpact_finish(ofpacts, ofpacts->header);
        }
    }
    if (!error && insts[OFPIT_WRITE_METADATA]) {
        const uint8_t *in = insts[OFPIT_WRITE_METADATA];
        uint64_t value = ofp_get_be64(in + 8);
        uint64_t mask = ofp_get_be64(in + 16);
        if (value & ~mask) {
            error = OFPERR_OFPBIC_UNSUP_METADATA;
        } else {
            struct ofpact_metadata *md = ofpact_put_WRITE_METADATA(ofpacts);
            memcpy(&md->metadata, in + 8, 8);
            memcpy(&md->mask, in + 16, 8);
        }
    }
    if (!error && insts[OFPIT_GOTO_TABLE]) {
        ofpact_put_GOTO_TABLE(ofpacts)->table_id
            = insts[OFPIT_GOTO_TABLE][4];
    }
    if (!error && insts[OFPIT_METER]) {
        /* There are no meters, so a meter instruction names one that does
         * not exist (Open vSwitch's answer once the rest decodes). */
        error = OFPERR_OFPMMFC_UNKNOWN_METER;
    }
    if (error) {
        ofpacts->size = start;
    }
    return error;
}

/* Appends 'ofpacts' to 'msg' as OpenFlow 1.1+ instructions: the actions
 * before the first instruction as apply_actions, then each instruction. */
void
ofpacts_encode_instructions_of11(const struct ofpact *ofpacts,
                                 size_t ofpacts_len, struct ofpbuf *msg,
                                 enum ofp_version version)
{
    const struct ofpact *end = ofpact_end(ofpacts, ofpacts_len);
    const struct ofpact *a = ofpacts;

    if (a < end && !ofpact_is_instruction(a->type)) {
        size_t start = msg->size;
        const struct ofpact *first = a;

        ofpact_wire_put(msg, OFPIT_APPLY_ACTIONS, 8);
        while (a < end && !ofpact_is_instruction(a->type)) {
            a = ofpact_next(a);
        }
        ofpacts_put_openflow_actions(first, (const uint8_t *) a
                                            - (const uint8_t *) first,
                                     msg, version);
        ofp_put_be16((uint8_t *) msg->data + start + 2, msg->size - start);
    }
    for (; a < end; a = ofpact_next(a)) {
        uint8_t *p;

        switch (a->type) {
        case OFPACT_CLEAR_ACTIONS:
            ofpact_wire_put(msg, OFPIT_CLEAR_ACTIONS, 8);
            break;
        case OFPACT_WRITE_ACTIONS: {
            const struct ofpact_nest *on = ofpact_get_WRITE_ACTIONS(a);
            size_t start = msg->size;
            ofpact_wire_put(msg, OFPIT_WRITE_ACTIONS, 8);
            ofpacts_put_openflow_actions(ofpact_nest_get_actions(on),
                                         ofpact_nest_get_action_len(on),
                                         msg, version);
            ofp_put_be16((uint8_t *) msg->data + start + 2,
                         msg->size - start);
            break;
        }
        case OFPACT_WRITE_METADATA: {
            const struct ofpact_metadata *md = ofpact_get_WRITE_METADATA(a);
            p = ofpact_wire_put(msg, OFPIT_WRITE_METADATA, 24);
            memcpy(p + 8, &md->metadata, 8);
            memcpy(p + 16, &md->mask, 8);
            break;
        }
        case OFPACT_GOTO_TABLE:
            p = ofpact_wire_put(msg, OFPIT_GOTO_TABLE, 8);
            p[4] = ofpact_get_GOTO_TABLE(a)->table_id;
            break;
        default:
            /* An action after an instruction: not in dpswitch's order. */
            break;
        }
    }
}


/* Appends a set_field of field 'id' to the 'size' bytes at 'value' (the
 * field's own size, big-endian). */
static void
put_set_field(struct ofpbuf *msg, enum match_field_id id, const void *value,
              size_t size)
{
    struct ofpact_set_field sf;
    struct ofpact *a = &sf.ofpact;

    memset(&sf, 0, sizeof sf);
    a->type = OFPACT_SET_FIELD;
    a->len = sizeof sf;
    sf.field = id;
    memcpy(sf.value, value, MIN(size, sizeof sf.value));
    memset(sf.mask, 0xff, sizeof sf.mask);
    ofpact_encode_of11(a, msg, OFP13_VERSION);
}

static void
put_push_vlan(struct ofpbuf *msg, uint16_t ethertype)
{
    uint8_t *p = ofpact_wire_put(msg, OFPAT11_PUSH_VLAN, 8);

    ofp_put_be16(p + 4, ethertype);
}
