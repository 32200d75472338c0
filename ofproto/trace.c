/* ofproto/trace: translation's notes and their layout (see trace.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofproto/trace.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "dp-actions.h"
#include "dynamic-string.h"
#include "match.h"
#include "ofp-match.h"
#include "util.h"

struct trace_node {
    enum trace_node_type type;
    char *text;
    struct trace_list subs;
};

static void trace_list_print(const struct trace_list *, int level,
                             struct ds *);
static void flow_relevant_mask(const struct match_flow *,
                               struct match_flow *mask);

struct trace_list *
trace_add(struct trace_list *list, enum trace_node_type type,
          const char *format, ...)
{
    struct trace_node *node = xzalloc(sizeof *node);
    va_list args;

    va_start(args, format);
    node->text = xvasprintf(format, args);
    va_end(args);
    node->type = type;

    if (list->n >= list->allocated) {
        list->allocated = MAX(4, 2 * list->allocated);
        list->nodes = xrealloc(list->nodes,
                               list->allocated * sizeof *list->nodes);
    }
    list->nodes[list->n++] = node;
    return &node->subs;
}

/* Frees the nodes of 'list' (not 'list' itself) and empties it. */
void
trace_list_destroy(struct trace_list *list)
{
    for (size_t i = 0; i < list->n; i++) {
        trace_list_destroy(&list->nodes[i]->subs);
        free(list->nodes[i]->text);
        free(list->nodes[i]);
    }
    free(list->nodes);
    memset(list, 0, sizeof *list);
}

/* Appends the reply of "ofproto/trace" for 'r' to 's'. */
void
trace_format(const struct trace_result *r, struct ds *s)
{
    ds_put_cstr(s, "Flow: ");
    trace_format_flow(r->flow, s);
    ds_put_format(s, "\n\nbridge(\"%s\")\n", r->bridge);
    for (size_t i = strlen(r->bridge) + 10; i > 0; i--) {
        ds_put_char(s, '-');
    }
    ds_put_char(s, '\n');
    trace_list_print(r->nodes, 0, s);

    ds_put_cstr(s, "\nFinal flow: ");
    if (!memcmp(r->flow, r->final_flow, sizeof *r->flow)) {
        ds_put_cstr(s, "unchanged");
    } else {
        trace_format_flow(r->final_flow, s);
    }

    /* The megaflow as the translation's mask says, less what every
     * datapath flow matches and Open vSwitch leaves out of this line (the
     * datapath port, which in_port stands for, and the presence bit of the
     * outer tag). */
    struct match m;
    memset(&m, 0, sizeof m);
    m.mask.dp = *r->mask;
    m.mask.dp.in_port = 0;
    m.mask.dp.recirc_id = 0;
    m.mask.dp.vlan_tci[0] = r->tci_mask;
    if (m.mask.dp.vlan_tci[0] == htons(VLAN_CFI)) {
        m.mask.dp.vlan_tci[0] = 0;
    }
    m.mask.dp.vlan_tpid[0] = m.mask.dp.vlan_tpid[1] = 0;
    m.mask.in_port = UINT16_MAX;
    const uint64_t *f = match_flow_words(r->flow);
    const uint64_t *mw = match_flow_words(&m.mask);
    uint64_t *w = match_flow_words_rw(&m.flow);
    for (size_t i = 0; i < MATCH_FLOW_N_WORDS; i++) {
        w[i] = f[i] & mw[i];
    }
    ds_put_format(s, "\nMegaflow: recirc_id=%"PRIu32",eth,",
                  r->flow->dp.recirc_id);
    match_format(&m, NULL, s, 32768, 32768);

    ds_put_cstr(s, "\nDatapath actions: ");
    dp_actions_format(r->actions, s);
    ds_put_char(s, '\n');
    if (r->error) {
        ds_put_format(s, "Translation failed (%s), packet is dropped.\n",
                      r->error);
    }
}

/* Appends 'flow' as the "Flow:" line shows a packet: every field its
 * headers have, with metadata and registers only when not zero. */
void
trace_format_flow(const struct match_flow *flow, struct ds *s)
{
    struct match m;

    m.flow = *flow;
    flow_relevant_mask(flow, &m.mask);
    match_format(&m, NULL, s, 32768, 32768);
}

/* Open vSwitch's layout (see trace.h): 'level' is the depth of 'list'. */
static void
trace_list_print(const struct trace_list *list, int level, struct ds *s)
{
    for (size_t i = 0; i < list->n; i++) {
        const struct trace_node *node = list->nodes[i];
        int more = i + 1 < list->n || node->type != TRACE_TABLE;

        ds_put_char_multiple(s, ' ', (level + more) * 4);
        switch (node->type) {
        case TRACE_TABLE:
        case TRACE_ACTION:
            ds_put_format(s, "%s\n", node->text);
            break;
        case TRACE_DETAIL:
            ds_put_format(s, " -> %s\n", node->text);
            break;
        case TRACE_WARN:
            ds_put_format(s, " >> %s\n", node->text);
            break;
        case TRACE_ERROR:
            ds_put_format(s, " >>>> %s <<<<\n", node->text);
            break;
        }
        trace_list_print(&node->subs, level + 2 * more, s);
    }
}

/* Sets 'mask' to the fields a packet of 'flow' has (its Ethernet header,
 * its outer tag and the one inside a tagged frame, and the L3 and L4
 * fields its types imply), and the metadata and registers that are not
 * zero. */
static void
flow_relevant_mask(const struct match_flow *flow, struct match_flow *mask)
{
    const struct flow *f = &flow->dp;
    struct flow *m = &mask->dp;
    uint16_t dl_type = ntohs(f->dl_type);

    memset(mask, 0, sizeof *mask);
    mask->in_port = UINT16_MAX;
    mask->metadata = flow->metadata ? UINT64_MAX : 0;
    for (int i = 0; i < MATCH_N_REGS; i++) {
        mask->regs[i] = flow->regs[i] ? UINT32_MAX : 0;
    }
    memset(&m->dl_src, 0xff, sizeof m->dl_src);
    memset(&m->dl_dst, 0xff, sizeof m->dl_dst);
    m->dl_type = UINT16_MAX;
    m->vlan_tci[0] = UINT16_MAX;
    if (f->vlan_tci[0] & htons(VLAN_CFI)) {
        m->vlan_tci[1] = UINT16_MAX;
    }

    if (dl_type == ETH_TYPE_ARP || dl_type == 0x8035) {
        m->nw_src = m->nw_dst = UINT32_MAX;
        m->arp_op = UINT16_MAX;
        memset(&m->arp_sha, 0xff, sizeof m->arp_sha);
        memset(&m->arp_tha, 0xff, sizeof m->arp_tha);
        return;
    }
    if (dl_type != ETH_TYPE_IP && dl_type != ETH_TYPE_IPV6) {
        return;
    }
    if (dl_type == ETH_TYPE_IP) {
        m->nw_src = m->nw_dst = UINT32_MAX;
    } else {
        memset(&m->ipv6_src, 0xff, sizeof m->ipv6_src);
        memset(&m->ipv6_dst, 0xff, sizeof m->ipv6_dst);
        m->ipv6_label = htonl(IPV6_LABEL_MASK);
    }
    m->nw_proto = 0xff;
    m->nw_tos = 0xff;
    m->nw_ttl = 0xff;
    m->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;

    switch (f->nw_proto) {
    case IPPROTO_TCP_:
        m->tcp_flags = htons(TCP_FLAGS_MASK);
        /* Fall through. */
    case IPPROTO_UDP_:
    case IPPROTO_SCTP_:
        m->tp_src = m->tp_dst = UINT16_MAX;
        break;
    case IPPROTO_ICMP_:
    case 2:                     /* IGMP. */
        if (dl_type == ETH_TYPE_IP) {
            m->tp_src = m->tp_dst = UINT16_MAX;
        }
        break;
    case IPPROTO_ICMPV6_:
        if (dl_type == ETH_TYPE_IPV6) {
            m->tp_src = m->tp_dst = UINT16_MAX;
            uint16_t type = ntohs(f->tp_src);
            if (type == ND_NEIGHBOR_SOLICIT || type == ND_NEIGHBOR_ADVERT) {
                memset(&m->nd_target, 0xff, sizeof m->nd_target);
                memset(&m->arp_sha, 0xff, sizeof m->arp_sha);
                memset(&m->arp_tha, 0xff, sizeof m->arp_tha);
            }
        }
        break;
    default:
        break;
    }
}
