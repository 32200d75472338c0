/* Translation through OpenFlow tables (see ofproto-xlate.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofproto/ofproto-xlate.h"

#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "match.h"
#include "packets.h"
#include "ofp-actions.h"
#include "ofp-match.h"
#include "ofp-port.h"
#include "ofp-group.h"
#include "ofproto/normal.h"
#include "ofproto/ofproto.h"
#include "ofproto/trace.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofproto_dpif_xlate);

struct xlate_ctx {
    const struct xlate_bridge *xb;
    long long now;
    struct xlate_out *out;

    struct match_flow flow;     /* The packet as OpenFlow sees it now. */
    struct match_flow wc;       /* Bits consulted. */
    dps_be16 base_tpid;         /* Outer tag the datapath packet has now. */
    dps_be16 base_tci;
    struct flow base;           /* The datapath packet's headers now (as
                                 * the set actions so far left them). */
    bool key_tagged;            /* The packet arrived with a tag. */
    mirror_mask_t mirrors_done; /* Mirrors that need not copy it again. */
    dps_be16 mirror_tci;        /* Outer tag of the packet being copied. */

    int depth;
    uint8_t table_id;           /* Table being executed. */
    const struct ofproto_rule *rule;    /* Rule being executed, or NULL. */
    bool in_group;              /* Executing a group bucket. */
    bool in_action_set;         /* Executing the action set. */
    bool stop;                  /* Pipeline ends (dec_ttl at 1, errors). */
    bool packet_out;            /* Translating a packet-out's actions. */

    /* The action set (write_actions), one action per type. */
    const struct ofpact *action_set[OFPACT_N_TYPES];

    /* Tracing: the list the next notes go to (NULL if not tracing). */
    struct trace_list *trace;

    /* The bits of the outer tag that only NORMAL's datapath flow rule put
     * into 'wc' (a tagged packet's flow matches the whole tag), which Open
     * vSwitch's Megaflow line leaves out. */
    dps_be16 normal_tci_bits;
    dps_be16 popped_tci_bits;   /* The bits of the packet's own outer tag
                                 * a pop made the megaflow match. */
    bool base_tag_pushed;       /* The datapath packet's outer tag is one
                                 * a push gave it. */
};

static void xlate_run(const struct xlate_bridge *, const struct match_flow *,
                      const struct ofpact *, size_t ofpacts_len,
                      long long now, struct xlate_out *);
static void xlate_error(struct xlate_ctx *, const char *text);
static bool too_deep(struct xlate_ctx *);
static void normal_grat_arp_mask(const struct flow *key, struct flow *mask);
static void trace_normal(struct xlate_ctx *, const struct flow *key,
                         const struct normal_xlate_out *);
static const char *trace_port_name(const struct xlate_ctx *,
                                   uint32_t ofport, char buf[16]);
static bool frag_dropped(struct xlate_ctx *);
static void do_table(struct xlate_ctx *, uint8_t table_id, bool deepens,
                     bool honor_miss);
static void do_actions(struct xlate_ctx *, const struct ofpact *,
                       size_t len);
static void do_action_set(struct xlate_ctx *);
static void do_output(struct xlate_ctx *, uint32_t ofport,
                      uint16_t max_len);
static void do_group(struct xlate_ctx *, uint32_t group_id);
static void do_bucket(struct xlate_ctx *, struct ofproto_group *,
                      size_t bucket);
static bool bucket_is_live(const struct xlate_ctx *,
                           const struct ofproto_group *,
                           const struct ofputil_bucket *, int depth);
static size_t select_bucket(struct xlate_ctx *, const struct ofproto_group *);
static void record_group_hit(struct xlate_ctx *, struct ofproto_group *,
                             size_t bucket);
static void do_normal(struct xlate_ctx *);
static void do_controller(struct xlate_ctx *, uint8_t reason,
                          enum ofproto_packet_in_miss, uint16_t max_len,
                          uint16_t controller_id, const void *userdata,
                          size_t userdata_len);
static void commit(struct xlate_ctx *);
static void set_dp_tag(struct xlate_ctx *, dps_be16 tpid, dps_be16 tci);
static void xlate_output(struct xlate_ctx *, uint32_t dp_port);
static bool xlate_mirror_input(struct xlate_ctx *, uint32_t dp_port);
static void xlate_mirror_packet(struct xlate_ctx *, uint32_t dp_port,
                                mirror_mask_t);
static mirror_output_cb xlate_mirror_output;
static const struct xlate_port *port_by_ofport(const struct xlate_bridge *,
                                               uint32_t ofport);
static const struct xlate_port *port_by_dp_port(const struct xlate_bridge *,
                                                uint32_t dp_port);
static void set_field(struct xlate_ctx *, enum match_field_id,
                      const union match_value *value,
                      const union match_value *mask);
static void reg_move(struct xlate_ctx *, const struct ofpact_reg_move *);
static void trace_move(struct xlate_ctx *, const struct ofpact_reg_move *,
                       const struct match_field *dst,
                       const union match_value *dv);
static bool value_bit(const union match_value *, unsigned int n_bytes,
                      unsigned int i);

/* Initializes 'out' for ofproto_xlate(). */
void
xlate_out_init(struct xlate_out *out)
{
    memset(out, 0, sizeof *out);
    dp_actions_init(&out->actions);
}

void
xlate_out_destroy(struct xlate_out *out)
{
    dp_actions_destroy(&out->actions);
    free(out->rules);
    free(out->group_hits);
}

/* Translates the upcall of datapath key 'key' through 'xb''s tables into
 * 'out'.  Returns 0, or ENODEV if the key's input port is not in the
 * bridge (nothing to install). */
int
ofproto_xlate(const struct xlate_bridge *xb, const struct flow *key,
              long long now, struct xlate_out *out)
{
    const struct xlate_port *in = port_by_dp_port(xb, key->in_port);
    struct match_flow flow;

    if (!in) {
        return ENODEV;
    }
    match_flow_from_dp(&flow, key, in->ofport);
    xlate_run(xb, &flow, NULL, 0, now, out);
    return 0;
}

/* Translates 'flow' (its OpenFlow in_port any number, a port of the bridge
 * or not; its datapath in_port ignored) through 'xb''s tables into 'out',
 * as for ofproto/trace. */
void
ofproto_xlate_flow(const struct xlate_bridge *xb,
                   const struct match_flow *flow, long long now,
                   struct xlate_out *out)
{
    xlate_run(xb, flow, NULL, 0, now, out);
}

/* Translates the actions 'ofpacts' of a packet-out for the packet of
 * datapath key 'key' that counts as received on OpenFlow port 'in_ofport'
 * (a port of the bridge, or OFPP_NONE, OFPP_CONTROLLER or a number no port
 * has), into 'out'.  Output to OFPP_TABLE looks the packet up in table 0;
 * NORMAL from OFPP_NONE or OFPP_CONTROLLER switches it as coming from no
 * port (see normal_xlate()).  'out->rules' gets the rules the lookups
 * found, as with 'out->record_rules', but NORMAL runs (and learns) as for
 * a real packet: leave 'record_rules' false. */
void
ofproto_xlate_actions(const struct xlate_bridge *xb, const struct flow *key,
                      uint32_t in_ofport, const struct ofpact *ofpacts,
                      size_t ofpacts_len, long long now,
                      struct xlate_out *out)
{
    struct match_flow flow;

    match_flow_from_dp(&flow, key, in_ofport);
    xlate_run(xb, &flow, ofpacts, ofpacts_len, now, out);
}

/* The translation both entries share: table 0 for an upcall ('ofpacts'
 * NULL), else the actions of a packet-out. */
static void
xlate_run(const struct xlate_bridge *xb, const struct match_flow *flow,
          const struct ofpact *ofpacts, size_t ofpacts_len, long long now,
          struct xlate_out *out)
{
    const struct flow *key = &flow->dp;
    uint32_t in_ofport = flow->in_port;
    struct xlate_ctx *ctx = xzalloc(sizeof *ctx);
    ctx->xb = xb;
    ctx->now = now;
    ctx->out = out;
    ctx->trace = out->trace;
    ctx->packet_out = ofpacts != NULL;
    ctx->flow = *flow;
    ctx->base = *key;
    ctx->base_tpid = key->vlan_tpid[0];
    ctx->base_tci = key->vlan_tci[0];
    ctx->key_tagged = (key->vlan_tci[0] & htons(VLAN_CFI)) != 0;

    /* What every datapath flow matches; an IP flow says whether the packet
     * is a fragment, as Open vSwitch's always do. */
    ctx->wc.dp.in_port = UINT32_MAX;
    ctx->wc.dp.recirc_id = UINT32_MAX;
    ctx->wc.dp.dl_type = 0xffff;
    ctx->wc.dp.vlan_tci[0] = htons(VLAN_CFI);
    if (key->dl_type == htons(ETH_TYPE_IP)
        || key->dl_type == htons(ETH_TYPE_IPV6)) {
        ctx->wc.dp.nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    }

    ofproto_rdlock(xb->ofproto);
    out->version = ofproto_version(xb->ofproto);
    const struct xlate_port *in = port_by_ofport(xb, in_ofport);
    if (ctx->packet_out) {
        if (!in || xlate_mirror_input(ctx, in->dp_port)) {
            do_actions(ctx, ofpacts, ofpacts_len);
        }
    } else if (!frag_dropped(ctx)
               && (!in || xlate_mirror_input(ctx, in->dp_port))) {
        do_table(ctx, 0, false, true);
    }
    if (!ctx->stop) {
        /* Under the lock too: a group in the action set is read now. */
        do_action_set(ctx);
    }
    ofproto_unlock(xb->ofproto);

    /* The OpenFlow in_port is the datapath one; metadata and registers
     * start at zero for every packet, so they never reach the megaflow. */
    out->mask = ctx->wc.dp;
    out->mask.in_port = UINT32_MAX;
    if ((key->dl_type == htons(ETH_TYPE_IP) && key->nw_proto == IPPROTO_ICMP_)
        || (key->dl_type == htons(ETH_TYPE_IPV6)
            && key->nw_proto == IPPROTO_ICMPV6_)) {
        /* As Open vSwitch: an ICMP type and code are 8 bits wide in the
         * datapath, whatever the actions or the tables consulted. */
        out->mask.tp_src &= htons(0xff);
        out->mask.tp_dst &= htons(0xff);
    }
    if (key->nw_frag & FLOW_NW_FRAG_LATER) {
        /* A later fragment has no ports to match. */
        out->mask.tp_src = out->mask.tp_dst = 0;
    }
    if (out->final_flow) {
        *out->final_flow = ctx->flow;
    }
    out->trace_tci_mask = ((ctx->wc.dp.vlan_tci[0] & ~ctx->normal_tci_bits)
                           | ctx->popped_tci_bits);
    if (out->error) {
        /* A translation that stopped drops; keep the flow exact so that
         * it costs no more upcalls than the packets that need it. */
        dp_actions_clear(&out->actions);
        out->mirrors = 0;
        out->bonds.n = 0;
    }
    free(ctx);
}

/* "set-frags drop": no fragment reaches the tables.  Returns true if the
 * packet is one (and stops the translation). */
static bool
frag_dropped(struct xlate_ctx *ctx)
{
    const struct flow *key = &ctx->flow.dp;
    bool is_ip = (key->dl_type == htons(ETH_TYPE_IP)
                  || key->dl_type == htons(ETH_TYPE_IPV6));

    if (is_ip && (ofproto_get_frag_handling(ctx->xb->ofproto)
                  == OFPROTO_FRAG_DROP)) {
        ctx->wc.dp.nw_frag |= FLOW_NW_FRAG_ANY;
        if (key->nw_frag & FLOW_NW_FRAG_ANY) {
            ctx->stop = true;
        }
    }
    return ctx->stop;
}

/* Looks the packet up in 'table_id' and executes the rule found.  As in
 * Open vSwitch, only a lookup that goes back to the same table or an
 * earlier one ('deepens') counts towards the depth limit (a chain of
 * lookups in ever later tables ends by itself), and the first lookup does
 * not count towards the limit of lookups. */
static void
do_table(struct xlate_ctx *ctx, uint8_t table_id, bool deepens,
         bool honor_miss)
{
    struct xlate_out *out = ctx->out;

    if (too_deep(ctx)) {
        return;
    }
    if (out->n_lookups > XLATE_MAX_RESUBMITS) {
        if (ctx->trace) {
            trace_add(ctx->trace, TRACE_ERROR, "over %d resubmit actions",
                      XLATE_MAX_RESUBMITS);
        }
        xlate_error(ctx, "Too many resubmits");
        return;
    }
    out->n_lookups++;

    struct ofproto_rule *rule = ofproto_lookup(ctx->xb->ofproto,
                                                     table_id, &ctx->flow,
                                                     &ctx->wc);
    struct trace_list *old_trace = ctx->trace;
    if (!rule) {
        /* A table miss goes to the controllers that take misses (OpenFlow
         * 1.0-1.2 ones), as Open vSwitch's internal miss flow sends it;
         * without any, it drops.  A resubmit's miss does nothing. */
        bool to_controller = (honor_miss
                              && ofproto_get_miss_to_controller(
                                  ctx->xb->ofproto));
        if (ctx->trace && to_controller) {
            /* Open vSwitch's words, its internal miss flow's action
             * printed as it prints it. */
            trace_add(trace_add(ctx->trace, TRACE_TABLE, "%2d. No match, "
                                "and a \"packet-in\" is called for.",
                                table_id),
                      TRACE_ACTION, "controller(reason=)");
        } else if (ctx->trace) {
            trace_add(trace_add(ctx->trace, TRACE_TABLE, "%2d. No match.",
                                table_id),
                      TRACE_ACTION, "drop");
        }
        if (to_controller) {
            uint8_t old_table = ctx->table_id;
            const struct ofproto_rule *old_rule = ctx->rule;
            ctx->table_id = table_id;
            ctx->rule = NULL;
            do_controller(ctx, OFPR_NO_MATCH,
                          OFPROTO_PACKET_IN_MISS_WITHOUT_FLOW, UINT16_MAX, 0,
                          NULL, 0);
            ctx->table_id = old_table;
            ctx->rule = old_rule;
        }
        return;
    }
    if (ctx->trace) {
        struct ds text = DS_EMPTY_INITIALIZER;

        ds_put_format(&text, "%2d. ", table_id);
        size_t start = text.length;
        match_format(&rule->cr.match, NULL, &text, 32768, 32768);
        ds_put_format(&text, "%spriority %d",
                      text.length > start ? ", " : "", rule->cr.priority);
        if (rule->cookie) {
            ds_put_format(&text, ", cookie %#"PRIx64, rule->cookie);
        }
        ctx->trace = trace_add(ctx->trace, TRACE_TABLE, "%s",
                               ds_cstr(&text));
        ds_destroy(&text);
        if (!rule->ofpacts_len) {
            trace_add(ctx->trace, TRACE_ACTION, "drop");
        }
    }
    if (out->record_rules || ctx->packet_out) {
        if (out->n_rules >= out->allocated_rules) {
            out->allocated_rules = MAX(4, 2 * out->allocated_rules);
            out->rules = xrealloc(out->rules, (out->allocated_rules
                                               * sizeof *out->rules));
        }
        out->rules[out->n_rules++] = rule;
    }

    uint8_t old_table = ctx->table_id;
    const struct ofproto_rule *old_rule = ctx->rule;
    ctx->depth += deepens;
    ctx->table_id = table_id;
    ctx->rule = rule;
    do_actions(ctx, rule->ofpacts, rule->ofpacts_len);
    ctx->table_id = old_table;
    ctx->rule = old_rule;
    ctx->depth -= deepens;
    ctx->trace = old_trace;
}

/* Whether nesting has reached XLATE_MAX_DEPTH (translation then stops
 * with Open vSwitch's error). */
static bool
too_deep(struct xlate_ctx *ctx)
{
    if (ctx->depth < XLATE_MAX_DEPTH) {
        return false;
    }
    if (ctx->trace) {
        trace_add(ctx->trace, TRACE_ERROR, "over max translation depth %d",
                  XLATE_MAX_DEPTH);
    }
    xlate_error(ctx, "Recursion too deep");
    return true;
}

/* Translation stops here for 'text' (see xlate_out's 'error_text'). */
static void
xlate_error(struct xlate_ctx *ctx, const char *text)
{
    ctx->out->error = true;
    if (!ctx->out->error_text) {
        ctx->out->error_text = text;
    }
    ctx->stop = true;
}

static void
do_actions(struct xlate_ctx *ctx, const struct ofpact *ofpacts, size_t len)
{
    const struct ofpact *a;
    struct match_flow *f = &ctx->flow;

    if (!ofpacts) {
        return;
    }
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (ctx->stop) {
            return;
        }
        if (ctx->trace) {
            struct ds text = DS_EMPTY_INITIALIZER;
            ofpacts_format(a, OFPACT_ALIGN(a->len), NULL, &text);
            trace_add(ctx->trace, TRACE_ACTION, "%s", ds_cstr(&text));
            ds_destroy(&text);
        }
        switch ((enum ofpact_type) a->type) {
        case OFPACT_OUTPUT:
            do_output(ctx, ofpact_get_OUTPUT(a)->port,
                      ofpact_get_OUTPUT(a)->max_len);
            break;
        case OFPACT_ENQUEUE:
            do_output(ctx, ofpact_get_ENQUEUE(a)->port, 0);
            break;
        case OFPACT_CONTROLLER: {
            const struct ofpact_controller *c = ofpact_get_CONTROLLER(a);
            do_controller(ctx, c->reason, OFPROTO_PACKET_IN_NO_MISS,
                          c->max_len, c->controller_id, c->userdata,
                          c->userdata_len);
            break;
        }
        case OFPACT_GROUP:
            do_group(ctx, ofpact_get_GROUP(a)->group_id);
            break;
        case OFPACT_RESUBMIT: {
            const struct ofpact_resubmit *r = ofpact_get_RESUBMIT(a);
            uint32_t old_in_port = f->in_port;
            uint8_t table = (r->table_id == OFPTT_ALL ? ctx->table_id
                             : r->table_id);
            if (r->in_port != OFPP_IN_PORT) {
                f->in_port = r->in_port;
            }
            do_table(ctx, table, table <= ctx->table_id, false);
            f->in_port = old_in_port;
            break;
        }
        case OFPACT_SET_FIELD: {
            const struct ofpact_set_field *sf = ofpact_get_SET_FIELD(a);
            union match_value value, mask;
            memcpy(&value, &sf->value, sizeof value);
            memcpy(&mask, &sf->mask, sizeof mask);
            set_field(ctx, sf->field, &value, &mask);
            break;
        }
        case OFPACT_REG_MOVE:
            reg_move(ctx, ofpact_get_REG_MOVE(a));
            break;
        case OFPACT_SET_VLAN_VID: {
            const struct ofpact_vlan_vid *v = ofpact_get_SET_VLAN_VID(a);
            dps_be16 *tci = &f->dp.vlan_tci[0];
            if (*tci & htons(VLAN_CFI)) {
                /* The PCP it keeps, and (as Open vSwitch) the VID. */
                ctx->wc.dp.vlan_tci[0] = 0xffff;
                *tci = (*tci & ~htons(VLAN_VID_MASK))
                       | htons(v->vlan_vid & VLAN_VID_MASK);
            } else if (v->push_vlan_if_needed) {
                f->dp.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
                *tci = htons(VLAN_CFI | (v->vlan_vid & VLAN_VID_MASK));
            }
            break;
        }
        case OFPACT_SET_VLAN_PCP: {
            const struct ofpact_vlan_pcp *p = ofpact_get_SET_VLAN_PCP(a);
            dps_be16 *tci = &f->dp.vlan_tci[0];
            uint16_t pcp = (uint16_t) ((p->vlan_pcp & 7) << VLAN_PCP_SHIFT);
            if (*tci & htons(VLAN_CFI)) {
                ctx->wc.dp.vlan_tci[0] = 0xffff;
                *tci = (*tci & ~htons(VLAN_PCP_MASK)) | htons(pcp);
            } else if (p->push_vlan_if_needed) {
                f->dp.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
                *tci = htons(VLAN_CFI | pcp);
            }
            break;
        }
        case OFPACT_STRIP_VLAN:
            if (f->dp.vlan_tci[0] & htons(VLAN_CFI)) {
                ctx->wc.dp.vlan_tci[0] = 0xffff;    /* As Open vSwitch. */
            }
            f->dp.vlan_tpid[0] = f->dp.vlan_tpid[1];
            f->dp.vlan_tci[0] = f->dp.vlan_tci[1];
            f->dp.vlan_tpid[1] = f->dp.vlan_tci[1] = 0;
            break;
        case OFPACT_PUSH_VLAN:
            /* The new tag copies the VID and PCP of the one it covers. */
            if (f->dp.vlan_tci[0] & htons(VLAN_CFI)) {
                ctx->wc.dp.vlan_tci[0] = 0xffff;
            }
            f->dp.vlan_tpid[1] = f->dp.vlan_tpid[0];
            f->dp.vlan_tci[1] = f->dp.vlan_tci[0];
            f->dp.vlan_tpid[0] = ofpact_get_PUSH_VLAN(a)->ethertype;
            f->dp.vlan_tci[0] |= htons(VLAN_CFI);
            break;
        /* A header change makes the megaflow match the field it writes,
         * as Open vSwitch's do, so that the set action the next output
         * commits (or its absence, when the packet already held the value)
         * is right for every packet of the megaflow. */
        case OFPACT_SET_ETH_SRC:
            memset(&ctx->wc.dp.dl_src, 0xff, sizeof ctx->wc.dp.dl_src);
            f->dp.dl_src = ofpact_get_SET_ETH_SRC(a)->mac;
            break;
        case OFPACT_SET_ETH_DST:
            memset(&ctx->wc.dp.dl_dst, 0xff, sizeof ctx->wc.dp.dl_dst);
            f->dp.dl_dst = ofpact_get_SET_ETH_DST(a)->mac;
            break;
        case OFPACT_SET_IPV4_SRC:
            if (f->dp.dl_type == htons(ETH_TYPE_IP)) {
                ctx->wc.dp.nw_src = UINT32_MAX;
                f->dp.nw_src = ofpact_get_SET_IPV4_SRC(a)->ipv4;
            }
            break;
        case OFPACT_SET_IPV4_DST:
            if (f->dp.dl_type == htons(ETH_TYPE_IP)) {
                ctx->wc.dp.nw_dst = UINT32_MAX;
                f->dp.nw_dst = ofpact_get_SET_IPV4_DST(a)->ipv4;
            }
            break;
        case OFPACT_SET_IP_DSCP:
            if (f->dp.dl_type == htons(ETH_TYPE_IP)) {
                ctx->wc.dp.nw_tos |= 0xfc;
                f->dp.nw_tos = (f->dp.nw_tos & 0x03)
                               | (ofpact_get_SET_IP_DSCP(a)->dscp & 0xfc);
            }
            break;
        case OFPACT_SET_IP_ECN:
            if (f->dp.dl_type == htons(ETH_TYPE_IP)) {
                ctx->wc.dp.nw_tos |= 0x03;
                f->dp.nw_tos = (f->dp.nw_tos & 0xfc)
                               | (ofpact_get_SET_IP_ECN(a)->ecn & 0x03);
            }
            break;
        case OFPACT_SET_IP_TTL:
            if (f->dp.dl_type == htons(ETH_TYPE_IP)) {
                ctx->wc.dp.nw_ttl = 0xff;
                f->dp.nw_ttl = ofpact_get_SET_IP_TTL(a)->ttl;
            }
            break;
        case OFPACT_SET_L4_SRC_PORT:
        case OFPACT_SET_L4_DST_PORT:
            /* As Open vSwitch: any IP packet with an L4 header takes the
             * new value (an ICMP type or code too), but only TCP, UDP and
             * SCTP ports reach the datapath (commit()). */
            if ((f->dp.dl_type == htons(ETH_TYPE_IP)
                 || f->dp.dl_type == htons(ETH_TYPE_IPV6))
                && !(f->dp.nw_frag & FLOW_NW_FRAG_LATER)) {
                dps_be16 port = htons(ofpact_get_SET_L4_SRC_PORT(a)->port);
                ctx->wc.dp.nw_proto = 0xff;
                if (a->type == OFPACT_SET_L4_SRC_PORT) {
                    ctx->wc.dp.tp_src = UINT16_MAX;
                    f->dp.tp_src = port;
                } else {
                    ctx->wc.dp.tp_dst = UINT16_MAX;
                    f->dp.tp_dst = port;
                }
            }
            break;
        case OFPACT_DEC_TTL:
            if (f->dp.dl_type == htons(ETH_TYPE_IP)) {
                ctx->wc.dp.nw_ttl = 0xff;
                if (f->dp.nw_ttl <= 1) {
                    /* To the controllers of the action's ids (those that
                     * asked for invalid_ttl packet-ins get it), and the
                     * pipeline stops, as in Open vSwitch. */
                    const struct ofpact_cnt_ids *ids
                        = ofpact_get_DEC_TTL(a);
                    if (!ids->n_controllers) {
                        do_controller(ctx, OFPR_INVALID_TTL,
                                      OFPROTO_PACKET_IN_NO_MISS, UINT16_MAX,
                                      0, NULL, 0);
                    }
                    for (size_t i = 0; i < ids->n_controllers; i++) {
                        do_controller(ctx, OFPR_INVALID_TTL,
                                      OFPROTO_PACKET_IN_NO_MISS, UINT16_MAX,
                                      ids->cnt_ids[i], NULL, 0);
                    }
                    ctx->stop = true;
                    return;
                }
                f->dp.nw_ttl--;
            }
            break;
        case OFPACT_NOTE:
            break;
        case OFPACT_CLEAR_ACTIONS:
            memset(ctx->action_set, 0, sizeof ctx->action_set);
            break;
        case OFPACT_WRITE_ACTIONS: {
            const struct ofpact_nest *on = ofpact_get_WRITE_ACTIONS(a);
            const struct ofpact *b;
            OFPACT_FOR_EACH (b, ofpact_nest_get_actions(on),
                             ofpact_nest_get_action_len(on)) {
                ctx->action_set[b->type] = b;
            }
            break;
        }
        case OFPACT_WRITE_METADATA: {
            const struct ofpact_metadata *m = ofpact_get_WRITE_METADATA(a);
            uint64_t mask = be64toh(m->mask);
            f->metadata = (f->metadata & ~mask) | (be64toh(m->metadata)
                                                   & mask);
            break;
        }
        case OFPACT_GOTO_TABLE:
            do_table(ctx, ofpact_get_GOTO_TABLE(a)->table_id, false, true);
            return;
        case OFPACT_N_TYPES:
        default:
            break;
        }
    }
}

/* Runs the action set at the end of the pipeline, in OpenFlow's order:
 * VLAN changes, field changes, then group or output. */
static void
do_action_set(struct xlate_ctx *ctx)
{
    static const enum ofpact_type order[] = {
        OFPACT_STRIP_VLAN, OFPACT_PUSH_VLAN, OFPACT_DEC_TTL,
        OFPACT_SET_VLAN_VID, OFPACT_SET_VLAN_PCP, OFPACT_SET_ETH_SRC,
        OFPACT_SET_ETH_DST, OFPACT_SET_IPV4_SRC, OFPACT_SET_IPV4_DST,
        OFPACT_SET_IP_DSCP, OFPACT_SET_IP_ECN, OFPACT_SET_IP_TTL,
        OFPACT_SET_L4_SRC_PORT, OFPACT_SET_L4_DST_PORT, OFPACT_SET_FIELD,
        OFPACT_REG_MOVE, OFPACT_GROUP, OFPACT_OUTPUT,
    };

    ctx->in_action_set = true;
    for (size_t i = 0; i < ARRAY_SIZE(order) && !ctx->stop; i++) {
        const struct ofpact *a = ctx->action_set[order[i]];
        if (a) {
            if (a->type == OFPACT_OUTPUT && ctx->action_set[OFPACT_GROUP]) {
                continue;       /* A group takes the place of output. */
            }
            do_actions(ctx, a, OFPACT_ALIGN(a->len));
        }
    }
    ctx->in_action_set = false;
}

static void
do_output(struct xlate_ctx *ctx, uint32_t ofport, uint16_t max_len)
{
    const struct xlate_bridge *xb = ctx->xb;
    uint32_t in_port = ctx->flow.in_port;
    const struct xlate_port *p;

    switch (ofport) {
    case OFPP_IN_PORT:
        p = port_by_ofport(xb, in_port);
        if (p) {
            commit(ctx);
            xlate_output(ctx, p->dp_port);
        }
        break;
    case OFPP_NORMAL:
        do_normal(ctx);
        break;
    case OFPP_FLOOD:
    case OFPP_ALL:
        for (size_t i = 0; i < xb->n_ports; i++) {
            if (xb->ports[i].ofport != in_port) {
                commit(ctx);
                xlate_output(ctx, xb->ports[i].dp_port);
            }
        }
        break;
    case OFPP_TABLE:
        /* Only a packet-out's actions can send a packet through the
         * tables, from the packet-out's in_port. */
        if (ctx->packet_out && !frag_dropped(ctx)) {
            do_table(ctx, 0, false, true);
        }
        break;
    case OFPP_CONTROLLER: {
        /* A plain output to the controller: its reason says where it came
         * from, as Open vSwitch's do; a table-miss flow's is a miss. */
        const struct ofproto_rule *r = ctx->rule;
        bool miss_flow = (r && !r->cr.priority
                          && match_is_catchall(&r->cr.match));
        uint8_t reason = (ctx->packet_out ? OFPR_PACKET_OUT
                          : ctx->in_group ? OFPR_GROUP
                          : ctx->in_action_set ? OFPR_ACTION_SET
                          : OFPR_ACTION);
        do_controller(ctx, reason, (miss_flow ? OFPROTO_PACKET_IN_MISS_FLOW
                                    : OFPROTO_PACKET_IN_NO_MISS),
                      max_len, 0, NULL, 0);
        break;
    }
    case OFPP_NONE:
        break;
    default:
        /* OpenFlow never sends a packet back where it came from unless
         * asked with IN_PORT. */
        p = port_by_ofport(xb, ofport);
        if (p && ofport != in_port) {
            commit(ctx);
            xlate_output(ctx, p->dp_port);
        } else if (p && ctx->trace) {
            trace_add(ctx->trace, TRACE_WARN,
                      "skipping output to input port");
        }
        break;
    }
}

/* A group action: the buckets the group's type picks, each on the packet
 * as it is now (a bucket's changes do not outlast it, as if each had a
 * copy), as Open vSwitch's translation does.  A group that no longer
 * exists does nothing (its rules go with it). */
static void
do_group(struct xlate_ctx *ctx, uint32_t group_id)
{
    struct ofproto_group *g = ofproto_group_find(ctx->xb->ofproto, group_id);

    if (!g) {
        return;
    }
    if (too_deep(ctx)) {
        return;
    }
    record_group_hit(ctx, g, SIZE_MAX);

    size_t chosen = SIZE_MAX;
    switch (g->type) {
    case OFPGT11_ALL:
    case OFPGT11_INDIRECT:
        for (size_t i = 0; i < g->n_buckets && !ctx->stop; i++) {
            do_bucket(ctx, g, i);
        }
        return;
    case OFPGT11_FF:
        for (size_t i = 0; i < g->n_buckets; i++) {
            const struct ofputil_bucket *b = &g->buckets[i];
            if (bucket_is_live(ctx, g, b, 0)) {
                chosen = i;
                break;
            }
            if (ctx->trace && b->watch_port != OFPUTIL_WATCH_PORT_ANY) {
                trace_add(ctx->trace, TRACE_DETAIL, "bucket %"PRIu32": not "
                          "live due to port %"PRIu32, b->bucket_id,
                          b->watch_port);
            } else if (ctx->trace) {
                trace_add(ctx->trace, TRACE_DETAIL, "bucket %"PRIu32": not "
                          "live due to group %"PRIu32, b->bucket_id,
                          b->watch_group);
            }
        }
        break;
    case OFPGT11_SELECT:
        chosen = select_bucket(ctx, g);
        break;
    default:
        return;
    }
    if (chosen == SIZE_MAX) {
        if (ctx->trace) {
            trace_add(ctx->trace, TRACE_DETAIL, "no live bucket");
        }
        return;
    }
    if (ctx->trace) {
        trace_add(ctx->trace, TRACE_DETAIL, "using bucket %"PRIu32,
                  g->buckets[chosen].bucket_id);
    }
    do_bucket(ctx, g, chosen);
}

/* Executes bucket 'bucket' of 'g'.  A bucket's actions are an action set,
 * as in Open vSwitch: VLAN pops, pushes and dec_ttl (the last of each),
 * every field change in order, then the last group, else the last output,
 * else the last resubmit; without any of those, nothing. */
static void
do_bucket(struct xlate_ctx *ctx, struct ofproto_group *g, size_t bucket)
{
    static const enum ofpact_type firsts[] = {
        OFPACT_STRIP_VLAN, OFPACT_PUSH_VLAN, OFPACT_DEC_TTL,
    };
    static const enum ofpact_type lasts[] = {
        OFPACT_GROUP, OFPACT_OUTPUT, OFPACT_RESUBMIT,
    };
    const struct ofputil_bucket *b = &g->buckets[bucket];
    const struct ofpact *last[OFPACT_N_TYPES] = { NULL };
    const struct ofpact *a;

    OFPACT_FOR_EACH (a, b->ofpacts, b->ofpacts_len) {
        last[a->type] = a;
    }

    struct trace_list *old_trace = ctx->trace;
    if (ctx->trace) {
        ctx->trace = trace_add(ctx->trace, TRACE_ACTION, "bucket %"PRIu32,
                               b->bucket_id);
    }
    record_group_hit(ctx, g, bucket);

    struct match_flow old_flow = ctx->flow;
    bool old_in_group = ctx->in_group;
    const struct ofpact *end = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(lasts) && !end; i++) {
        end = last[lasts[i]];
    }
    ctx->depth++;
    ctx->in_group = true;
    if (end) {
        for (size_t i = 0; i < ARRAY_SIZE(firsts); i++) {
            if (last[firsts[i]]) {
                do_actions(ctx, last[firsts[i]],
                           OFPACT_ALIGN(last[firsts[i]]->len));
            }
        }
        OFPACT_FOR_EACH (a, b->ofpacts, b->ofpacts_len) {
            bool firstish = false;
            for (size_t i = 0; i < ARRAY_SIZE(firsts); i++) {
                firstish |= a->type == firsts[i];
            }
            for (size_t i = 0; i < ARRAY_SIZE(lasts); i++) {
                firstish |= a->type == lasts[i];
            }
            if (!firstish && a->type != OFPACT_CONTROLLER
                && a->type != OFPACT_ENQUEUE && a->type != OFPACT_NOTE) {
                do_actions(ctx, a, OFPACT_ALIGN(a->len));
            }
        }
        do_actions(ctx, end, OFPACT_ALIGN(end->len));
    }
    ctx->depth--;
    ctx->in_group = old_in_group;

    /* The next bucket, and what follows the group, see the packet as it
     * was; a bucket that stopped (dec_ttl at 1) stops only itself. */
    ctx->flow = old_flow;
    ctx->trace = old_trace;
    if (!ctx->out->error) {
        ctx->stop = false;
    }
}

/* Whether bucket 'b' of 'g' may be used: its watched port's link is up or
 * its watched group has a live bucket (either, when it watches both), or
 * it watches nothing; a select group's buckets of weight 0 never are. */
static bool
bucket_is_live(const struct xlate_ctx *ctx, const struct ofproto_group *g,
               const struct ofputil_bucket *b, int depth)
{
    if (depth >= 32) {
        return false;
    }
    if (g->type == OFPGT11_SELECT && !b->weight) {
        return false;
    }
    if (b->watch_port == OFPUTIL_WATCH_PORT_ANY && b->watch_group == OFPG_ANY) {
        return true;
    }
    if (b->watch_port != OFPUTIL_WATCH_PORT_ANY) {
        ofp_port_t port;
        if (ofp_port_from_ofp11(b->watch_port, &port)) {
            const struct xlate_port *p = port_by_ofport(
                ctx->xb, port == OFPP_LOCAL ? MATCH_OFPP_LOCAL : port);
            if (p && p->live) {
                return true;
            }
        }
    }
    if (b->watch_group != OFPG_ANY) {
        const struct ofproto_group *wg = ofproto_group_find(
            ctx->xb->ofproto, b->watch_group);
        for (size_t i = 0; wg && i < wg->n_buckets; i++) {
            if (bucket_is_live(ctx, wg, &wg->buckets[i], depth + 1)) {
                return true;
            }
        }
    }
    return false;
}

/* A select group's bucket for this packet: a hash of its addresses,
 * protocol and ports (which the megaflow then matches, as Open vSwitch's
 * hash selection does), scored against each live bucket's id and scaled
 * by its weight; the best score wins.  SIZE_MAX if no bucket is live. */
static size_t
select_bucket(struct xlate_ctx *ctx, const struct ofproto_group *g)
{
    const struct flow *f = &ctx->flow.dp;
    struct flow *wc = &ctx->wc.dp;
    uint32_t basis = 2166136261u;

#define MIX(FIELD)                                                      \
    do {                                                                \
        const uint8_t *p_ = (const uint8_t *) &f->FIELD;                \
        for (size_t i_ = 0; i_ < sizeof f->FIELD; i_++) {               \
            basis = (basis ^ p_[i_]) * 16777619u;                       \
        }                                                               \
        memset(&wc->FIELD, 0xff, sizeof wc->FIELD);                     \
    } while (0)
    MIX(dl_src);
    MIX(dl_dst);
    MIX(dl_type);
    if (f->dl_type == htons(ETH_TYPE_IP)) {
        MIX(nw_src);
        MIX(nw_dst);
        MIX(nw_proto);
    } else if (f->dl_type == htons(ETH_TYPE_IPV6)) {
        MIX(ipv6_src);
        MIX(ipv6_dst);
        MIX(nw_proto);
    }
    if ((f->dl_type == htons(ETH_TYPE_IP) || f->dl_type == htons(ETH_TYPE_IPV6))
        && (f->nw_proto == IPPROTO_TCP_ || f->nw_proto == IPPROTO_UDP_
            || f->nw_proto == IPPROTO_SCTP_)
        && !(f->nw_frag & FLOW_NW_FRAG_LATER)) {
        MIX(tp_src);
        MIX(tp_dst);
    }
#undef MIX

    size_t best = SIZE_MAX;
    uint64_t best_score = 0;
    for (size_t i = 0; i < g->n_buckets; i++) {
        const struct ofputil_bucket *b = &g->buckets[i];
        if (!bucket_is_live(ctx, g, b, 0)) {
            continue;
        }
        uint32_t h = (basis ^ b->bucket_id) * 2654435761u;
        h ^= h >> 15;
        uint64_t score = (uint64_t) ((h & 0xffff) + 1) * b->weight;
        if (best == SIZE_MAX || score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* Notes that the packet went through 'g' ('bucket', or SIZE_MAX for the
 * group itself) for the caller's statistics. */
static void
record_group_hit(struct xlate_ctx *ctx, struct ofproto_group *g,
                 size_t bucket)
{
    struct xlate_out *out = ctx->out;

    if (!out->record_rules && !ctx->packet_out) {
        return;
    }
    if (out->n_group_hits >= out->allocated_group_hits) {
        out->allocated_group_hits = MAX(4, 2 * out->allocated_group_hits);
        out->group_hits = xrealloc(out->group_hits,
                                   (out->allocated_group_hits
                                    * sizeof *out->group_hits));
    }
    out->group_hits[out->n_group_hits].group = g;
    out->group_hits[out->n_group_hits].bucket = bucket;
    out->n_group_hits++;
}

/* The NORMAL action: NORMAL switching of the packet as it is now.  Its
 * actions are replayed rather than copied: each output goes out with the
 * tag NORMAL gives it, whatever mirror copies did to the packet in
 * between. */
static void
do_normal(struct xlate_ctx *ctx)
{
    struct normal_xlate_out nout;
    struct flow key = ctx->flow.dp;
    uint32_t in_port = ctx->flow.in_port;
    const struct xlate_port *in = port_by_ofport(ctx->xb, in_port);
    bool from_nowhere = (ctx->packet_out && (in_port == OFPP_NONE
                                             || in_port == OFPP_CONTROLLER));

    if ((!in && !from_nowhere) || !ctx->xb->nb) {
        /* Open vSwitch's NORMAL reads the addresses before the port. */
        memset(&ctx->wc.dp.dl_src, 0xff, sizeof ctx->wc.dp.dl_src);
        memset(&ctx->wc.dp.dl_dst, 0xff, sizeof ctx->wc.dp.dl_dst);
        if (ctx->trace) {
            trace_add(ctx->trace, TRACE_ERROR, "received packet on unknown "
                      "port %"PRIu32, in_port);
            trace_add(ctx->trace, TRACE_WARN, "no input bundle, dropping");
        }
        return;
    }
    commit(ctx);
    /* Open vSwitch's NORMAL reads both addresses whatever it decides. */
    memset(&ctx->wc.dp.dl_src, 0xff, sizeof ctx->wc.dp.dl_src);
    memset(&ctx->wc.dp.dl_dst, 0xff, sizeof ctx->wc.dp.dl_dst);
    key.in_port = in ? in->dp_port : NORMAL_DP_PORT_NONE;
    normal_xlate_out_init(&nout);
    /* Translating for statistics, or tracing without a packet: NORMAL must
     * not learn from the megaflow's key. */
    nout.peek = ctx->out->record_rules || ctx->out->no_learn;
    normal_xlate(ctx->xb->nb, &key, ctx->now, &nout);
    bond_hits_merge(&ctx->out->bonds, &nout.bonds);
    if (ctx->trace) {
        trace_normal(ctx, &key, &nout);
    }
    if (nout.learn != MAC_LEARNING_REFUSED || nout.reason == NORMAL_FORWARD
        || nout.reason == NORMAL_FLOOD_UNKNOWN
        || nout.reason == NORMAL_FLOOD_MULTICAST
        || nout.reason == NORMAL_DROP_SAME_PORT) {
        normal_grat_arp_mask(&key, &ctx->wc.dp);
    }

    ctx->normal_tci_bits |= (nout.mask.vlan_tci[0] & ~ctx->wc.dp.vlan_tci[0]
                             & ~htons(VLAN_VID_MASK | VLAN_CFI));
    const uint64_t *m = (const uint64_t *) &nout.mask;
    uint64_t *w = (uint64_t *) &ctx->wc.dp;
    for (size_t i = 0; i < FLOW_N_WORDS; i++) {
        w[i] |= m[i];
    }

    /* The tag NORMAL's actions have given the packet so far. */
    dps_be16 tpid = key.vlan_tpid[0];
    dps_be16 tci = key.vlan_tci[0];
    for (size_t i = 0; i < nout.actions.n_actions; i++) {
        const struct dp_action *a = &nout.actions.actions[i];

        switch (a->type) {
        case DP_ACTION_OUTPUT:
            set_dp_tag(ctx, tpid, tci);
            xlate_output(ctx, a->port);
            break;
        case DP_ACTION_PUSH_VLAN:
            tpid = a->vlan.tpid;
            tci = a->vlan.tci;
            break;
        case DP_ACTION_POP_VLAN:
            tpid = tci = 0;
            break;
        case DP_ACTION_SET_ETH:
        case DP_ACTION_SET_IPV4:
        case DP_ACTION_SET_L4:
        case DP_ACTION_USERSPACE:
            break;              /* NORMAL does not rewrite headers. */
        }
    }
    normal_xlate_out_destroy(&nout);
}

/* What Open vSwitch's NORMAL reads of a broadcast ARP packet 'key' as it
 * learns (whether it is a gratuitous ARP), into 'mask': the operation, and
 * of a request the protocol addresses. */
static void
normal_grat_arp_mask(const struct flow *key, struct flow *mask)
{
    static const struct eth_addr bcast = { { 0xff, 0xff, 0xff, 0xff, 0xff,
                                             0xff } };

    if (key->dl_type != htons(ETH_TYPE_ARP)
        || memcmp(&key->dl_dst, &bcast, sizeof bcast)) {
        return;
    }
    mask->arp_op = UINT16_MAX;
    if (key->arp_op == htons(1)) {
        mask->nw_src = mask->nw_dst = UINT32_MAX;
    }
}

/* NORMAL's decision 'nout' for 'key', as Open vSwitch explains its own. */
static void
trace_normal(struct xlate_ctx *ctx, const struct flow *key,
             const struct normal_xlate_out *nout)
{
    struct trace_list *t = ctx->trace;
    uint32_t in_port = ctx->flow.in_port;
    char buf[16];

    if (nout->learn == MAC_LEARNING_ADDED
        || nout->learn == MAC_LEARNING_MOVED) {
        const uint8_t *ea = key->dl_src.ea;
        trace_add(t, TRACE_DETAIL, "learned that %02x:%02x:%02x:%02x:%02x:"
                  "%02x is on port %s in VLAN %d", ea[0], ea[1], ea[2],
                  ea[3], ea[4], ea[5], trace_port_name(ctx, in_port, buf),
                  nout->vlan);
    }

    uint16_t tci = ntohs(key->vlan_tci[0]);
    switch (nout->reason) {
    case NORMAL_FORWARD:
        trace_add(t, TRACE_DETAIL, "forwarding to learned port");
        break;
    case NORMAL_FLOOD_UNKNOWN:
    case NORMAL_FLOOD_MULTICAST:
        trace_add(t, TRACE_DETAIL,
                  "no learned MAC for destination, flooding");
        break;
    case NORMAL_FLOOD_VLAN:
        break;
    case NORMAL_DROP_NO_PORT:
        trace_add(t, TRACE_ERROR, "received packet on unknown port %"PRIu32,
                  in_port);
        trace_add(t, TRACE_WARN, "no input bundle, dropping");
        break;
    case NORMAL_DROP_VLAN:
        if (nout->access_vlan >= 0) {
            trace_add(t, TRACE_ERROR, "dropping VLAN %d tagged packet "
                      "received on port %s configured as VLAN %d access "
                      "port", tci & VLAN_VID_MASK,
                      trace_port_name(ctx, in_port, buf), nout->access_vlan);
        } else {
            int vlan = nout->in_vlan;
            trace_add(t, TRACE_ERROR, "dropping VLAN %d packet received on "
                      "port %s not configured for trunking VLAN %d", vlan,
                      trace_port_name(ctx, in_port, buf), vlan);
        }
        trace_add(t, TRACE_WARN,
                  "disallowed VLAN VID for this input port, dropping");
        break;
    case NORMAL_DROP_RESERVED:
        trace_add(t, TRACE_DETAIL,
                  "packet has reserved destination MAC, dropping");
        break;
    case NORMAL_DROP_SAME_PORT:
        trace_add(t, TRACE_DETAIL, "learned port is input port, dropping");
        break;
    case NORMAL_DROP_BOND:
        trace_add(t, TRACE_DETAIL, "bonding refused admissibility, dropping");
        break;
    case NORMAL_DROP_MIRROR_INPUT:
        trace_add(t, TRACE_DETAIL,
                  "input port is mirror output port, dropping");
        break;
    case NORMAL_DROP_MIRROR_LEARNED:
        trace_add(t, TRACE_DETAIL, "learned port is a mirror port, dropping");
        break;
    }
}

/* The name of the port that has OpenFlow port 'ofport', or its number
 * (in 'buf'). */
static const char *
trace_port_name(const struct xlate_ctx *ctx, uint32_t ofport, char buf[16])
{
    const char *name = ofputil_port_map_get_name(ctx->xb->port_names,
                                                 ofport);
    if (name) {
        return name;
    }
    snprintf(buf, 16, "%"PRIu32, ofport);
    return buf;
}

/* Brings the datapath packet up to date with the OpenFlow view, in Open
 * vSwitch's order: Ethernet addresses, IPv4, L4 ports, then the tag.  A set
 * action writes only the fields that differ from what the packet holds
 * (the megaflow matches them: see the set actions), and the TOS only in
 * the bits translation consulted (mod_nw_tos keeps the ECN bits), as Open
 * vSwitch's masked set actions do.  An IP packet with protocol 0 gets no
 * IPv4 set action, as in Open vSwitch, which takes it for one without an
 * IP header. */
/* A packet-in of the packet as it is now, for 'reason', to the
 * connections with 'controller_id', as Open vSwitch 3.1 makes it: the
 * datapath packet is brought up to date and a userspace action hands a
 * copy to the slow path (lib/dp-actions.h), which finds the table, cookie,
 * metadata and registers frozen here by the action's recirc_id.  The
 * actions after it go on in the datapath.  'max_len' is the action's
 * (UINT16_MAX for a miss); the packet goes whole, there being no buffers. */
static void
do_controller(struct xlate_ctx *ctx, uint8_t reason,
              enum ofproto_packet_in_miss miss, uint16_t max_len,
              uint16_t controller_id, const void *userdata,
              size_t userdata_len)
{
    struct ofproto_packet_in pin;

    commit(ctx);
    memset(&pin, 0, sizeof pin);
    pin.flow = ctx->flow;
    pin.reason = reason;
    pin.table_id = ctx->table_id;
    pin.miss = miss;
    pin.cookie = (ctx->rule ? ctx->rule->cookie
                  : miss == OFPROTO_PACKET_IN_MISS_WITHOUT_FLOW ? 0
                  : UINT64_MAX);
    pin.max_len = max_len;
    pin.controller_id = controller_id;
    pin.userdata = (uint8_t *) userdata;   /* Copied when frozen. */
    pin.userdata_len = userdata_len;

    uint32_t id = ofproto_freeze_packet_in(ctx->xb->ofproto, &pin);
    if (!id) {
        return;                 /* Logged there. */
    }

    /* Open vSwitch's numbers for the reasons of misses. */
    struct dp_action_controller c = {
        .recirc_id = id,
        .controller_id = controller_id,
        .max_len = max_len,
        .reason = (miss == OFPROTO_PACKET_IN_MISS_WITHOUT_FLOW ? 7
                   : miss == OFPROTO_PACKET_IN_MISS_FLOW ? 6 : reason),
        .dont_send = ctx->out->trace != NULL,
        .rule_cookie = pin.cookie,
    };
    dp_actions_put_controller(&ctx->out->actions, &c);
}

static void
commit(struct xlate_ctx *ctx)
{
    struct dp_actions *acts = &ctx->out->actions;
    const struct flow *f = &ctx->flow.dp;
    struct flow *b = &ctx->base;

    bool src = memcmp(&f->dl_src, &b->dl_src, sizeof f->dl_src) != 0;
    bool dst = memcmp(&f->dl_dst, &b->dl_dst, sizeof f->dl_dst) != 0;
    if (src || dst) {
        dp_actions_put_set_eth(acts, src ? &f->dl_src : NULL,
                               dst ? &f->dl_dst : NULL);
    }

    if (f->dl_type == htons(ETH_TYPE_IP)) {
        uint8_t ip = ((f->nw_src != b->nw_src ? DP_SET_IPV4_SRC : 0)
                      | (f->nw_dst != b->nw_dst ? DP_SET_IPV4_DST : 0)
                      | (f->nw_tos != b->nw_tos ? DP_SET_IPV4_TOS : 0)
                      | (f->nw_ttl != b->nw_ttl ? DP_SET_IPV4_TTL : 0));
        if (ip) {
            ctx->wc.dp.nw_proto = 0xff;     /* Protocol 0: no header. */
        }
        if (ip && f->nw_proto) {
            uint8_t tos_mask = ctx->wc.dp.nw_tos ? ctx->wc.dp.nw_tos : 0xff;
            dp_actions_put_set_ipv4_masked(acts, ip, f->nw_src, f->nw_dst,
                                           f->nw_tos, tos_mask, f->nw_ttl);
        }

    }
    if (f->dl_type == htons(ETH_TYPE_IP)
        || f->dl_type == htons(ETH_TYPE_IPV6)) {
        uint8_t l4 = ((f->tp_src != b->tp_src ? DP_SET_L4_SRC : 0)
                      | (f->tp_dst != b->tp_dst ? DP_SET_L4_DST : 0));
        if (l4 && (f->nw_proto == IPPROTO_TCP_ || f->nw_proto == IPPROTO_UDP_
                   || f->nw_proto == IPPROTO_SCTP_)) {
            dp_actions_put_set_l4(acts, f->nw_proto, l4, f->tp_src,
                                  f->tp_dst);
        }
    }
    *b = *f;

    set_dp_tag(ctx, f->vlan_tpid[0], f->vlan_tci[0]);
}

/* Gives the datapath packet outer tag 'tpid', 'tci' (no tag if 'tci' lacks
 * VLAN_CFI). */
static void
set_dp_tag(struct xlate_ctx *ctx, dps_be16 tpid, dps_be16 tci)
{
    struct dp_actions *acts = &ctx->out->actions;

    if (tci != ctx->base_tci || tpid != ctx->base_tpid) {
        if (ctx->base_tci & htons(VLAN_CFI)) {
            dp_actions_put_pop_vlan(acts);
            if (!ctx->base_tag_pushed) {
                /* As Open vSwitch: popping the packet's own tag makes the
                 * megaflow match all of it. */
                ctx->wc.dp.vlan_tci[0] = 0xffff;
                ctx->popped_tci_bits = 0xffff;
            }
        }
        ctx->base_tag_pushed = (tci & htons(VLAN_CFI)) != 0;
        if (tci & htons(VLAN_CFI)) {
            dp_actions_put_push_vlan(acts, tpid, tci);
        }
        ctx->base_tci = tci;
        ctx->base_tpid = tpid;
    }
}

/* Sends the datapath packet, as it is now, out of 'dp_port'; then the
 * mirrors that select that port copy it. */
static void
xlate_output(struct xlate_ctx *ctx, uint32_t dp_port)
{
    dp_actions_put_output(&ctx->out->actions, dp_port);
    xlate_mirror_packet(ctx, dp_port,
                        mirror_set_dst_mirrors(ctx->xb->mirrors, dp_port));
}

/* A packet that arrives on 'dp_port': returns false if it goes nowhere
 * (the port is a mirror's output port), otherwise copies it to the mirrors
 * that select the port and returns true. */
static bool
xlate_mirror_input(struct xlate_ctx *ctx, uint32_t dp_port)
{
    const struct mirror_set *ms = ctx->xb->mirrors;

    if (mirror_set_is_empty(ms)) {
        return true;
    }

    const char *name = mirror_set_output_name(ms, dp_port);
    if (name) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

        VLOG_WARN_RL(&rl, "dropping packet received on port %s, which is "
                     "reserved exclusively for mirroring on bridge %s",
                     name, ofproto_name(ctx->xb->ofproto));
        ctx->stop = true;
        if (ctx->flow.dp.dl_type == htons(ETH_TYPE_IP)
            || ctx->flow.dp.dl_type == htons(ETH_TYPE_IPV6)) {
            /* As NORMAL's flows, and Open vSwitch's. */
            ctx->wc.dp.nw_frag |= FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
        }
        return false;
    }
    xlate_mirror_packet(ctx, dp_port, mirror_set_src_mirrors(ms, dp_port));
    return true;
}

/* Copies the datapath packet, as it is now, to those of 'mirrors' that
 * want it, for port 'dp_port' (which it arrives on or just left). */
static void
xlate_mirror_packet(struct xlate_ctx *ctx, uint32_t dp_port,
                    mirror_mask_t mirrors)
{
    const struct xlate_bridge *xb = ctx->xb;
    uint16_t vlan;

    mirrors &= ~ctx->mirrors_done;
    if (!mirrors || !xb->nb
        || !normal_port_vlan(xb->nb, dp_port, ctx->base_tci, &vlan)) {
        return;
    }
    if (ctx->key_tagged) {
        /* The VLAN selects, and copies keep or change the tag. */
        ctx->wc.dp.vlan_tpid[0] = htons(UINT16_MAX);
        ctx->wc.dp.vlan_tci[0] = htons(UINT16_MAX);
    }
    /* Every copy keeps this packet's priority, whatever the copies before
     * it did to the tag. */
    dps_be16 old_tci = ctx->mirror_tci;
    ctx->mirror_tci = ctx->base_tci;
    ctx->out->mirrors |= mirror_set_copy(xb->mirrors, xb->nb, mirrors, vlan,
                                         &ctx->flow.dp, &ctx->wc.dp,
                                         &ctx->mirrors_done,
                                         xlate_mirror_output, ctx);
    ctx->mirror_tci = old_tci;
}

/* A mirror's copy: out of 'dp_port' as NORMAL sends 'vlan' there. */
static void
xlate_mirror_output(void *ctx_, uint32_t dp_port, uint16_t vlan)
{
    struct xlate_ctx *ctx = ctx_;
    uint32_t out_port;
    dps_be16 tci;

    if (normal_port_encode(ctx->xb->nb, dp_port, vlan, &ctx->flow.dp,
                           ctx->mirror_tci, &ctx->wc.dp, &tci, &out_port)) {
        set_dp_tag(ctx, tci ? htons(ETH_TYPE_VLAN) : 0, tci);
        xlate_output(ctx, out_port);
    }
}

/* set_field: the bits of field 'id' under 'mask' take 'value''s. */
static void
set_field(struct xlate_ctx *ctx, enum match_field_id id,
          const union match_value *value, const union match_value *mask)
{
    const struct match_field *mf = match_field_info(id);
    union match_value v;

    match_field_get(mf, &ctx->flow, &v);
    for (size_t i = 0; i < sizeof v.u8; i++) {
        v.u8[i] = (v.u8[i] & ~mask->u8[i]) | (value->u8[i] & mask->u8[i]);
    }
    if (mf->id == MATCH_F_VLAN_VID || mf->id == MATCH_F_VLAN_PCP
        || mf->id == MATCH_F_DL_VLAN || mf->id == MATCH_F_VLAN_TCI) {
        /* Kept bits of the tag come from the packet. */
        ctx->wc.dp.vlan_tci[0] = 0xffff;
    }
    match_field_set_flow(mf, &v, &ctx->flow);

    if (mf->id == MATCH_F_IP_DSCP || mf->id == MATCH_F_NW_TOS
        || mf->id == MATCH_F_IP_ECN) {
        /* The TOS bits it writes (committed as a masked write). */
        union match_value m;
        memset(&m, 0, sizeof m);
        match_field_get(mf, &ctx->wc, &m);
        for (size_t i = 0; i < mf->n_bytes; i++) {
            m.u8[i] |= mask->u8[i];
        }
        match_field_set_flow(mf, &m, &ctx->wc);
    } else if (mf->id != MATCH_F_VLAN_VID && mf->id != MATCH_F_VLAN_PCP
               && mf->id != MATCH_F_DL_VLAN && mf->id != MATCH_F_VLAN_TCI) {
        /* The whole field it writes: committed whole, when it differs
         * from the packet's (see commit()). */
        union match_value ones;
        memset(&ones, 0xff, sizeof ones);
        match_field_set_flow(mf, &ones, &ctx->wc);
    }
}

/* Open vSwitch's note on what a move's destination 'move->dst' (of field
 * 'dst', whose whole value is now 'dv') holds: the whole field in its own
 * syntax (as set_field writes it), or part of one in hex. */
static void
trace_move(struct xlate_ctx *ctx, const struct ofpact_reg_move *move,
           const struct match_field *dst, const union match_value *dv)
{
    struct ds text = DS_EMPTY_INITIALIZER;
    struct ofpbuf acts;

    ofpbuf_init(&acts, 0);
    *ofpact_put_REG_MOVE(&acts) = *move;
    bool whole = !move->dst.ofs && move->dst.n_bits == dst->n_bits;
    if (whole) {
        struct ofpact_set_field *sf = ofpact_put_SET_FIELD(&acts);
        sf->field = dst->id;
        memcpy(sf->value, dv, sizeof sf->value);
        memset(sf->mask, 0xff, sizeof sf->mask);
    }
    /* "move:SRC->DST" and, for a whole field, "set_field:VALUE->FIELD". */
    ofpacts_format(acts.data, acts.size, NULL, &text);
    ofpbuf_uninit(&acts);

    const char *dst_name = strstr(ds_cstr(&text), "->") + 2;
    char *comma = strchr(dst_name, ',');
    if (comma) {
        *comma = '\0';
    }
    if (whole) {
        const char *value = comma + 1 + strlen("set_field:");
        *strstr(value, "->") = '\0';
        trace_add(ctx->trace, TRACE_DETAIL, "%s is now %s", dst_name, value);
    } else {
        uint64_t now = 0;
        for (unsigned int i = move->dst.n_bits; i-- > 0;) {
            now = (now << 1) | value_bit(dv, dst->n_bytes, move->dst.ofs + i);
        }
        trace_add(ctx->trace, TRACE_DETAIL, "%s is now %#"PRIx64, dst_name,
                  now);
    }
    ds_destroy(&text);
}

/* Bit 'i' (0: least significant) of an 'n_bytes' big-endian value. */
static bool
value_bit(const union match_value *v, unsigned int n_bytes, unsigned int i)
{
    return (v->u8[n_bytes - 1 - i / 8] >> (i % 8)) & 1;
}

static void
value_set_bit(union match_value *v, unsigned int n_bytes, unsigned int i,
              bool bit)
{
    uint8_t *byte = &v->u8[n_bytes - 1 - i / 8];
    *byte = (uint8_t) ((*byte & ~(1u << (i % 8))) | ((unsigned) bit
                                                     << (i % 8)));
}

/* move: dst[] = src[], and the megaflow depends on the source bits. */
static void
reg_move(struct xlate_ctx *ctx, const struct ofpact_reg_move *move)
{
    const struct match_field *src = match_field_info(move->src.field);
    const struct match_field *dst = match_field_info(move->dst.field);
    union match_value sv, dv, wv;

    match_field_get(src, &ctx->flow, &sv);
    match_field_get(dst, &ctx->flow, &dv);
    match_field_get(src, &ctx->wc, &wv);
    for (unsigned int i = 0; i < move->src.n_bits; i++) {
        value_set_bit(&dv, dst->n_bytes, move->dst.ofs + i,
                      value_bit(&sv, src->n_bytes, move->src.ofs + i));
        value_set_bit(&wv, src->n_bytes, move->src.ofs + i, true);
    }
    match_field_set_flow(src, &wv, &ctx->wc);

    union match_value dmask;
    memset(&dmask, 0, sizeof dmask);
    for (unsigned int i = 0; i < move->dst.n_bits; i++) {
        value_set_bit(&dmask, dst->n_bytes, move->dst.ofs + i, true);
    }
    set_field(ctx, dst->id, &dv, &dmask);

    if (ctx->trace) {
        trace_move(ctx, move, dst, &dv);
    }
}

static const struct xlate_port *
port_by_ofport(const struct xlate_bridge *xb, uint32_t ofport)
{
    for (size_t i = 0; i < xb->n_ports; i++) {
        if (xb->ports[i].ofport == ofport) {
            return &xb->ports[i];
        }
    }
    return NULL;
}

static const struct xlate_port *
port_by_dp_port(const struct xlate_bridge *xb, uint32_t dp_port)
{
    for (size_t i = 0; i < xb->n_ports; i++) {
        if (xb->ports[i].dp_port == dp_port) {
            return &xb->ports[i];
        }
    }
    return NULL;
}
