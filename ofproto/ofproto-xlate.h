/* Translation: an upcall's flow through a bridge's OpenFlow tables into
 * datapath actions and a megaflow mask.
 *
 * ofproto_xlate() looks the packet up in table 0, executes the rule's
 * actions (lib/ofp-actions.h) on an OpenFlow view of the packet, and
 * follows resubmit and goto_table into other tables.  Header changes are
 * emitted as datapath set actions just before the output that needs them,
 * for the fields actions wrote (whatever the packet held before, so that
 * the decision to write does not depend on the packet's value); VLAN
 * changes as pop_vlan/push_vlan.  The NORMAL action hands the packet, as
 * it is at that point, to NORMAL switching (ofproto/normal.c) and appends
 * its actions.
 *
 * Mirrors (ofproto/mirror.h): a packet that arrives on a mirror's output
 * port is dropped before the tables; otherwise the mirrors that select its
 * input port copy it first, and those that select a port it goes out of
 * (by any output action, NORMAL's included) copy it right after that
 * output.  'out->mirrors' says which mirrors copied it.  A megaflow with
 * copies matches the packet's whole outer tag.
 *
 * The megaflow mask ('out->mask') covers in_port, recirc_id, dl_type and
 * the outer tag's presence bit (as every datapath flow does), the bits of
 * every classifier subtable the lookups probed, NORMAL's mask, and what
 * actions read from the packet (the PCP that mod_vlan_vid keeps, the TTL
 * that dec_ttl checks, the sources of move).
 *
 * ofproto_xlate_flow() translates a flow given as OpenFlow sees it (its
 * OpenFlow in_port need not be a port of the bridge), for ofproto/trace.
 *
 * ofproto_xlate_actions() translates a packet-out's actions instead of
 * table 0's rule (see there); its megaflow mask means nothing.
 *
 * 'out->version' is ofproto_version() as the lookups saw it: the actions
 * are right until the tables change after that version.
 *
 * Threads: any; ofproto_xlate() takes the ofproto's read lock itself.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFPROTO_XLATE_H
#define OFPROTO_XLATE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dp-actions.h"
#include "flow.h"
#include "ofproto/bond.h"
#include "ofproto/mirror.h"

struct match_flow;
struct normal_bridge;
struct ofpact;
struct ofputil_port_map;
struct ofproto;
struct ofproto_group;
struct ofproto_rule;
struct trace_list;

/* A port of the bridge: its OpenFlow and datapath numbers. */
struct xlate_port {
    uint32_t ofport;            /* MATCH_OFPP_LOCAL for the local port. */
    uint32_t dp_port;
    bool live;                  /* Link up (administratively and carrier):
                                 * what a fast_failover bucket's
                                 * watch_port asks. */
};

/* What translation needs of a bridge.  The caller keeps it unchanged for
 * the duration of the call. */
struct xlate_bridge {
    struct ofproto *ofproto;
    struct normal_bridge *nb;   /* For the NORMAL action and mirrors. */
    const struct mirror_set *mirrors;   /* NULL or empty: none. */
    const struct xlate_port *ports;     /* In flood order. */
    size_t n_ports;
    const struct ofputil_port_map *port_names; /* Port names by OpenFlow
                                                * port, for traces; may be
                                                * NULL. */
};

/* Limits, as Open vSwitch's: nesting of resubmit and goto_table, and
 * lookups in all. */
#define XLATE_MAX_DEPTH 64
#define XLATE_MAX_RESUBMITS 4096

struct xlate_out {
    struct dp_actions actions;  /* Empty: drop. */
    struct flow mask;           /* Megaflow mask. */
    uint64_t version;           /* ofproto_version() the lookups saw. */
    unsigned int n_lookups;     /* Table lookups made. */
    bool error;                 /* Translation stopped (limit reached). */
    const char *error_text;     /* Then why, as Open vSwitch says it
                                 * ("Recursion too deep"). */
    mirror_mask_t mirrors;      /* The mirrors that copied the packet. */
    struct bond_hits bonds;     /* The balanced bonds' buckets NORMAL sent
                                 * it through (bond_hits_credit()). */

    /* With 'record_rules' set by the caller, the rules the lookups found,
     * in order (valid on the main thread until the tables change), for
     * crediting them with datapath statistics; the NORMAL action then
     * decides without learning (normal_xlate_out's 'peek'). */
    bool record_rules;
    struct ofproto_rule **rules;
    size_t n_rules, allocated_rules;

    /* Likewise the groups the packet went through, each with the bucket it
     * took (SIZE_MAX: the group itself, counted once per pass). */
    struct xlate_group_hit {
        struct ofproto_group *group;
        size_t bucket;
    } *group_hits;
    size_t n_group_hits, allocated_group_hits;

    /* Set by the caller for ofproto/trace (ofproto/trace.h): 'trace' gets
     * translation's notes, 'final_flow' the flow as the actions left it;
     * with 'no_learn' the NORMAL action learns nothing (a trace without a
     * packet has no side effects). */
    struct trace_list *trace;
    struct match_flow *final_flow;
    bool no_learn;
    dps_be16 trace_tci_mask;    /* The outer tag's bits of 'mask' as Open
                                 * vSwitch's Megaflow line shows them. */
};

void xlate_out_init(struct xlate_out *);
void xlate_out_destroy(struct xlate_out *);

int ofproto_xlate(const struct xlate_bridge *, const struct flow *key,
                  long long now, struct xlate_out *);
void ofproto_xlate_flow(const struct xlate_bridge *,
                        const struct match_flow *, long long now,
                        struct xlate_out *);
void ofproto_xlate_actions(const struct xlate_bridge *,
                           const struct flow *key, uint32_t in_ofport,
                           const struct ofpact *, size_t ofpacts_len,
                           long long now, struct xlate_out *);

#endif /* ofproto-xlate.h */
