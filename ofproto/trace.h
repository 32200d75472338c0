/* ofproto/trace: what translation did with one flow, in Open vSwitch 3.1's
 * words and layout.
 *
 * A trace is a tree of notes that translation (ofproto/ofproto-xlate.c)
 * makes as it goes when the caller asks for one ('struct xlate_out''s
 * 'trace'): a table lookup ("0. in_port=1, priority 10", or "No match."),
 * each action it executes ("output:2"), and what an action found out
 * ("-> forwarding to learned port", ">> skipping output to input port",
 * ">>>> over max translation depth 64 <<<<").  A lookup's actions are its
 * children; the tables a resubmit reaches, and an action's remarks, follow
 * the action as its siblings.
 *
 * trace_format() prints a whole trace as "ovs-appctl ofproto/trace" does:
 *
 *     Flow: <the flow>
 *
 *     bridge("br0")
 *     -------------
 *      0. in_port=1, priority 10
 *         output:2
 *
 *     Final flow: unchanged
 *     Megaflow: recirc_id=0,eth,in_port=1,dl_type=0x0000
 *     Datapath actions: 2
 *
 * Indentation: a node is printed 4 columns deeper than its level when it
 * is not the last of its list or is not a table lookup, and its children
 * go two levels deeper then (one level otherwise), so that a resubmit's
 * lookup in the middle of a list stands out while a chain of lookups, each
 * the last thing its predecessor does, stays flat, as in Open vSwitch.
 *
 * Threads: a trace belongs to its caller; nothing here locks.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFPROTO_TRACE_H
#define OFPROTO_TRACE_H 1

#include <stdbool.h>
#include <stddef.h>
#include "compiler.h"
#include "packets.h"

struct ds;
struct dp_actions;
struct match_flow;
struct flow;

enum trace_node_type {
    TRACE_TABLE,                /* A lookup: "%2d. MATCH, priority N". */
    TRACE_ACTION,               /* An action as ovs-actions(7) writes it. */
    TRACE_DETAIL,               /* " -> TEXT". */
    TRACE_WARN,                 /* " >> TEXT". */
    TRACE_ERROR,                /* " >>>> TEXT <<<<". */
};

struct trace_node;

/* A list of nodes, in the order they were added. */
struct trace_list {
    struct trace_node **nodes;
    size_t n, allocated;
};

#define TRACE_LIST_INITIALIZER { NULL, 0, 0 }

/* Appends a node of 'type' whose text is 'format' to 'list' and returns the
 * list of its children. */
struct trace_list *trace_add(struct trace_list *list, enum trace_node_type,
                             const char *format, ...)
    DPS_PRINTF_FORMAT(3, 4);
void trace_list_destroy(struct trace_list *);

/* What trace_format() prints. */
struct trace_result {
    const char *bridge;                 /* Bridge name. */
    const struct match_flow *flow;      /* The flow traced. */
    const struct match_flow *final_flow;
    const struct flow *mask;            /* Megaflow mask (datapath key). */
    dps_be16 tci_mask;                  /* Its outer tag's, as shown. */
    const struct trace_list *nodes;     /* Translation's notes. */
    const struct dp_actions *actions;
    const char *error;                  /* NULL, or why translation failed
                                         * ("Recursion too deep"). */
};

void trace_format(const struct trace_result *, struct ds *);
void trace_format_flow(const struct match_flow *, struct ds *);

#endif /* ofproto/trace.h */
