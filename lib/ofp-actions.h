/* OpenFlow actions and instructions, in one internal form for every
 * OpenFlow version.
 *
 * An action list is a sequence of variable-length 'struct ofpact's packed
 * into a buffer, each starting on an OFPACT_ALIGNTO boundary, each starting
 * with a 'struct ofpact' header whose 'len' is the action's size without
 * its tail padding.  OFPACT_FOR_EACH walks a list.  Instructions are
 * actions too: the actions to apply are the top-level list itself, and
 * clear_actions, write_actions (which nests a list), write_metadata,
 * goto_table (in that order, after the actions) are the other instructions.
 *
 * Ownership: a list is plain bytes with no pointers out of it; copy it with
 * memcpy, free its buffer to free it.
 *
 * The wire codecs (ofpacts_pull_openflow_*(), ofpacts_put_openflow_*()),
 * the ovs-actions(7) parser and printer (ofpacts_parse(), ofpacts_format())
 * and the checks against a match are declared below and live in
 * lib/ofp-actions.c.  ofproto reads the list to translate it into
 * datapath actions.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_ACTIONS_H
#define OFP_ACTIONS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-types.h"
#include "ofpbuf.h"

struct ds;

/* Bits 'ofs' to 'ofs + n_bits - 1' of field 'field' (bit 0 is the least
 * significant), as load and move name them: "NXM_NX_REG0[0..15]". */
struct ofp_subfield {
    uint16_t field;             /* enum match_field_id (lib/match.h). */
    uint16_t ofs;
    uint16_t n_bits;
};

/* OFPACTS(A) calls A(ENUM, STRUCT, TAIL, NAME) once per action type:
 * OFPACT_<ENUM> is the type, 'struct STRUCT' its layout, TAIL the name of
 * its variable-length last member (or 'ofpact' if it has none) and NAME
 * its ovs-actions(7) keyword. */
#define OFPACTS(A)                                                      \
    /* Output. */                                                       \
    A(OUTPUT,          ofpact_output,      ofpact, "output")            \
    A(CONTROLLER,      ofpact_controller,  userdata, "controller")      \
    A(ENQUEUE,         ofpact_enqueue,     ofpact, "enqueue")           \
    A(GROUP,           ofpact_group,       ofpact, "group")             \
    A(RESUBMIT,        ofpact_resubmit,    ofpact, "resubmit")          \
                                                                        \
    /* Header changes. */                                               \
    A(SET_FIELD,       ofpact_set_field,   ofpact, "set_field")         \
    A(REG_MOVE,        ofpact_reg_move,    ofpact, "move")              \
    A(SET_VLAN_VID,    ofpact_vlan_vid,    ofpact, "mod_vlan_vid")      \
    A(SET_VLAN_PCP,    ofpact_vlan_pcp,    ofpact, "mod_vlan_pcp")      \
    A(STRIP_VLAN,      ofpact_null,        ofpact, "strip_vlan")        \
    A(PUSH_VLAN,       ofpact_push_vlan,   ofpact, "push_vlan")         \
    A(SET_ETH_SRC,     ofpact_mac,         ofpact, "mod_dl_src")        \
    A(SET_ETH_DST,     ofpact_mac,         ofpact, "mod_dl_dst")        \
    A(SET_IPV4_SRC,    ofpact_ipv4,        ofpact, "mod_nw_src")        \
    A(SET_IPV4_DST,    ofpact_ipv4,        ofpact, "mod_nw_dst")        \
    A(SET_IP_DSCP,     ofpact_dscp,        ofpact, "mod_nw_tos")        \
    A(SET_IP_ECN,      ofpact_ecn,         ofpact, "mod_nw_ecn")        \
    A(SET_IP_TTL,      ofpact_ip_ttl,      ofpact, "mod_nw_ttl")        \
    A(SET_L4_SRC_PORT, ofpact_l4_port,     ofpact, "mod_tp_src")        \
    A(SET_L4_DST_PORT, ofpact_l4_port,     ofpact, "mod_tp_dst")        \
    A(DEC_TTL,         ofpact_cnt_ids,     cnt_ids, "dec_ttl")          \
                                                                        \
    /* Other. */                                                        \
    A(NOTE,            ofpact_note,        data, "note")                \
                                                                        \
    /* Instructions, in the order they must appear. */                  \
    A(CLEAR_ACTIONS,   ofpact_null,        ofpact, "clear_actions")     \
    A(WRITE_ACTIONS,   ofpact_nest,        actions, "write_actions")    \
    A(WRITE_METADATA,  ofpact_metadata,    ofpact, "write_metadata")    \
    A(GOTO_TABLE,      ofpact_goto_table,  ofpact, "goto_table")

enum ofpact_type {
#define OFPACT_ENUM(ENUM, STRUCT, TAIL, NAME) OFPACT_##ENUM,
    OFPACTS(OFPACT_ENUM)
#undef OFPACT_ENUM
    OFPACT_N_TYPES
};

/* Every action starts with this header. */
struct ofpact {
    uint8_t type;               /* OFPACT_*. */
    uint8_t raw;                /* OFPACT_RAW_* it came from or prints as,
                                 * 0 for "the natural one". */
    uint16_t len;               /* Bytes, without tail padding. */
};

/* Actions are aligned (and padded) to this many bytes. */
#define OFPACT_ALIGNTO 8
#define OFPACT_ALIGN(SIZE) \
    (((SIZE) + OFPACT_ALIGNTO - 1) / OFPACT_ALIGNTO * OFPACT_ALIGNTO)

/* Which syntax or encoding an action came from, where it changes how it is
 * printed or encoded ('raw' in the header). */
enum ofpact_raw {
    OFPACT_RAW_DEFAULT = 0,
    OFPACT_RAW_LOAD,            /* set_field written as load:V->F[]. */
    OFPACT_RAW_MOD_FORM,        /* set_field written as a mod_* action. */
    OFPACT_RAW_POP_VLAN,        /* strip_vlan written as pop_vlan. */
    OFPACT_RAW_SET_VLAN_VID_OF11, /* set_vlan_vid (OF1.1 action). */
    OFPACT_RAW_NICIRA,          /* The Nicira extension form (controller,
                                 * resubmit with a table). */
};

/* OFPACT_STRIP_VLAN, OFPACT_CLEAR_ACTIONS. */
struct ofpact_null {
    struct ofpact ofpact;
};

/* OFPACT_OUTPUT: to a port, or a reserved port (OFPP_IN_PORT, OFPP_TABLE,
 * OFPP_NORMAL, OFPP_FLOOD, OFPP_ALL, OFPP_LOCAL; OFPP_CONTROLLER is
 * OFPACT_CONTROLLER once parsed or decoded, unless decoded from a plain
 * output action, when 'max_len' says how much to send). */
struct ofpact_output {
    struct ofpact ofpact;
    ofp_port_t port;
    uint16_t max_len;           /* For OFPP_CONTROLLER. */
};

/* OFPACT_CONTROLLER: a packet-in to the controllers. */
struct ofpact_controller {
    struct ofpact ofpact;
    uint16_t max_len;           /* Bytes of packet to send; OFPCML_NO_BUFFER
                                 * for all. */
    uint16_t controller_id;     /* 0: every controller. */
    uint8_t reason;             /* enum ofp_packet_in_reason. */
    bool pause;                 /* Continuation (parsed, not acted on). */
    uint8_t pad[2];
    uint32_t userdata_len;
    uint8_t userdata[];
};

/* OFPACT_ENQUEUE. */
struct ofpact_enqueue {
    struct ofpact ofpact;
    ofp_port_t port;
    uint32_t queue;
};

/* OFPACT_GROUP. */
struct ofpact_group {
    struct ofpact ofpact;
    uint32_t group_id;
};

/* OFPACT_RESUBMIT: look up again in 'table_id' (OFPTT_ALL: the current
 * table) as if from 'in_port' (OFPP_IN_PORT: the current in_port). */
struct ofpact_resubmit {
    struct ofpact ofpact;
    ofp_port_t in_port;
    uint8_t table_id;
    bool with_ct_orig;
};

/* OFPACT_SET_FIELD: field &= ~mask; field |= value & mask.  A full-width
 * set_field has an all-ones mask (over the field's n_bits).  Parsed or
 * decoded load, set_field and most mod_* forms (mod_dl_src:...) end up
 * here when the version has no specific action for them; 'raw' remembers
 * the syntax. */
struct ofpact_set_field {
    struct ofpact ofpact;
    uint16_t field;             /* enum match_field_id (lib/match.h). */
    uint8_t pad[2];
    uint8_t value[16];          /* As union match_value: match_field_set() */
    uint8_t mask[16];           /* takes them cast to that type. */
};

/* OFPACT_REG_MOVE: dst = src (same n_bits). */
struct ofpact_reg_move {
    struct ofpact ofpact;
    struct ofp_subfield src;
    struct ofp_subfield dst;
};

/* OFPACT_SET_VLAN_VID: set the VID (push a tag first if there is none and
 * 'push_vlan_if_needed', as mod_vlan_vid does; OF1.1's set_vlan_vid does
 * not push). */
struct ofpact_vlan_vid {
    struct ofpact ofpact;
    uint16_t vlan_vid;          /* 0-4095. */
    bool push_vlan_if_needed;
};

/* OFPACT_SET_VLAN_PCP, likewise. */
struct ofpact_vlan_pcp {
    struct ofpact ofpact;
    uint8_t vlan_pcp;           /* 0-7. */
    bool push_vlan_if_needed;
};

/* OFPACT_PUSH_VLAN. */
struct ofpact_push_vlan {
    struct ofpact ofpact;
    dps_be16 ethertype;         /* ETH_TYPE_VLAN or ETH_TYPE_VLAN_8021AD. */
};

/* OFPACT_SET_ETH_SRC, OFPACT_SET_ETH_DST. */
struct ofpact_mac {
    struct ofpact ofpact;
    struct eth_addr mac;
};

/* OFPACT_SET_IPV4_SRC, OFPACT_SET_IPV4_DST. */
struct ofpact_ipv4 {
    struct ofpact ofpact;
    dps_be32 ipv4;
};

/* OFPACT_SET_IP_DSCP: the DSCP bits, in their place in the TOS byte. */
struct ofpact_dscp {
    struct ofpact ofpact;
    uint8_t dscp;               /* 0-255 with the low 2 bits zero. */
};

/* OFPACT_SET_IP_ECN. */
struct ofpact_ecn {
    struct ofpact ofpact;
    uint8_t ecn;                /* 0-3. */
};

/* OFPACT_SET_IP_TTL. */
struct ofpact_ip_ttl {
    struct ofpact ofpact;
    uint8_t ttl;
};

/* OFPACT_SET_L4_SRC_PORT, OFPACT_SET_L4_DST_PORT. */
struct ofpact_l4_port {
    struct ofpact ofpact;
    uint16_t port;              /* Host byte order. */
    uint8_t flow_ip_proto;      /* IP protocol the match implies, or 0. */
};

/* OFPACT_DEC_TTL: decrement the IP TTL; at zero, a packet-in with reason
 * OFPR_INVALID_TTL to each controller id in 'cnt_ids' (empty: id 0). */
struct ofpact_cnt_ids {
    struct ofpact ofpact;
    uint16_t n_controllers;
    uint16_t cnt_ids[];
};

/* OFPACT_NOTE: opaque bytes the switch ignores. */
struct ofpact_note {
    struct ofpact ofpact;
    uint16_t length;
    uint8_t data[];
};

/* OFPACT_WRITE_ACTIONS: a nested action list (the action set to write),
 * from 'actions' to the end of the action. */
struct ofpact_nest {
    struct ofpact ofpact;
    uint8_t pad[OFPACT_ALIGN(sizeof(struct ofpact)) - sizeof(struct ofpact)];
    struct ofpact actions[];
};

/* OFPACT_WRITE_METADATA: metadata = (metadata & ~mask) | (value & mask). */
struct ofpact_metadata {
    struct ofpact ofpact;
    dps_be64 metadata;
    dps_be64 mask;
};

/* OFPACT_GOTO_TABLE. */
struct ofpact_goto_table {
    struct ofpact ofpact;
    uint8_t table_id;
};

/* Walking a list. */
static inline struct ofpact *
ofpact_next(const struct ofpact *a)
{
    return (struct ofpact *) ((uint8_t *) a + OFPACT_ALIGN(a->len));
}

static inline const struct ofpact *
ofpact_end(const struct ofpact *ofpacts, size_t ofpacts_len)
{
    return (ofpacts_len
            ? (const struct ofpact *) ((const uint8_t *) ofpacts
                                       + ofpacts_len)
            : ofpacts);
}

/* Iterates 'POS' over the 'LEN' bytes of actions at 'OFPACTS'. */
#define OFPACT_FOR_EACH(POS, OFPACTS, LEN)                              \
    for ((POS) = (OFPACTS); (POS) < ofpact_end(OFPACTS, LEN);           \
         (POS) = ofpact_next(POS))

/* The nested list of a write_actions. */
static inline const struct ofpact *
ofpact_nest_get_actions(const struct ofpact_nest *on)
{
    return on->actions;
}

static inline size_t
ofpact_nest_get_action_len(const struct ofpact_nest *on)
{
    return on->ofpact.len - offsetof(struct ofpact_nest, actions);
}

/* Appends a zeroed action of 'type' and 'len' bytes to 'ofpacts' and
 * returns it; its header is filled in.  Variable-length actions grow with
 * ofpbuf_put_*() and end with ofpact_finish(). */
void *ofpact_put(struct ofpbuf *ofpacts, enum ofpact_type, size_t len);

/* Sets 'ofpact->len' to span to the end of 'ofpacts' and pads 'ofpacts' to
 * OFPACT_ALIGNTO.  Returns 'ofpact' (which may have moved). */
void *ofpact_finish(struct ofpbuf *ofpacts, struct ofpact *ofpact);

/* ofpact_put_<ENUM>(ofpacts) appends a zeroed OFPACT_<ENUM> (for one with
 * a variable part, only its fixed part: append the rest, then call
 * ofpact_finish());
 * ofpact_get_<ENUM>(a) casts 'a' (asserting its type). */
#define OFPACT_ACCESSORS(ENUM, STRUCT, TAIL, NAME)                      \
    static inline struct STRUCT *                                       \
    ofpact_put_##ENUM(struct ofpbuf *ofpacts)                           \
    {                                                                   \
        size_t tail = offsetof(struct STRUCT, TAIL);                    \
        struct STRUCT *a = ofpact_put(ofpacts, OFPACT_##ENUM,           \
                                      tail ? tail                       \
                                      : sizeof(struct STRUCT));         \
        if (tail) {                                                     \
            /* The variable part goes right after the fixed one. */     \
            ofpacts->size -= OFPACT_ALIGN(tail) - tail;                 \
        }                                                               \
        return a;                                                       \
    }                                                                   \
    static inline struct STRUCT *                                       \
    ofpact_get_##ENUM(const struct ofpact *a)                           \
    {                                                                   \
        return (struct STRUCT *) a;                                     \
    }
OFPACTS(OFPACT_ACCESSORS)
#undef OFPACT_ACCESSORS

const char *ofpact_name(enum ofpact_type);
bool ofpact_is_instruction(enum ofpact_type);

/* Decoding from the wire.  Each pulls 'actions_len' bytes of version
 * 'version' actions (or instructions) off the front of 'msg' and appends
 * their internal form to 'ofpacts'.  Returns 0 or an OFPERR_* (OVS's error
 * for the problem: bad length, unknown type, bad argument...), leaving
 * 'ofpacts' empty on error. */
enum ofperr ofpacts_pull_openflow_actions(struct ofpbuf *msg,
                                          unsigned int actions_len,
                                          enum ofp_version version,
                                          struct ofpbuf *ofpacts);
enum ofperr ofpacts_pull_openflow_instructions(struct ofpbuf *msg,
                                               unsigned int instructions_len,
                                               enum ofp_version version,
                                               struct ofpbuf *ofpacts);

/* Encoding to the wire: appends 'ofpacts' as version 'version' actions (or
 * instructions, for OpenFlow 1.1+) to 'msg'; returns the bytes added. */
size_t ofpacts_put_openflow_actions(const struct ofpact[], size_t ofpacts_len,
                                    struct ofpbuf *msg, enum ofp_version);
void ofpacts_put_openflow_instructions(const struct ofpact[],
                                       size_t ofpacts_len,
                                       struct ofpbuf *msg, enum ofp_version);

/* Port names for parsing and printing ("output:eth0"); may be NULL. */
struct ofputil_port_map;

/* Parses ovs-actions(7) text 's' (the part after "actions=") into
 * 'ofpacts'.  Returns NULL, or an error message the caller frees; on error
 * 'ofpacts' is left as it was. */
char *ofpacts_parse(const char *s, struct ofpbuf *ofpacts,
                    const struct ofputil_port_map *)
    __attribute__((__warn_unused_result__));
/* Same, for instructions (goto_table, write_actions...) allowed too. */
char *ofpacts_parse_instructions(const char *s, struct ofpbuf *ofpacts,
                                 const struct ofputil_port_map *)
    __attribute__((__warn_unused_result__));

/* Appends 'ofpacts' in ovs-actions(7) syntax, as ovs-ofctl dump-flows
 * prints them ("drop" for an empty list). */
void ofpacts_format(const struct ofpact[], size_t ofpacts_len,
                    const struct ofputil_port_map *, struct ds *);

/* Properties of a list. */
bool ofpacts_equal(const struct ofpact[], size_t,
                   const struct ofpact[], size_t);
bool ofpacts_output_to_port(const struct ofpact[], size_t, ofp_port_t);
bool ofpacts_output_to_group(const struct ofpact[], size_t, uint32_t group);

#endif /* ofp-actions.h */
