/* Datapath actions.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-actions.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "util.h"

static struct dp_action *dp_actions_append(struct dp_actions *,
                                           enum dp_action_type);

static void format_set(const struct dp_action *a, struct ds *ds);

/* Initialises 'acts' as an empty list (drop). */
void
dp_actions_init(struct dp_actions *acts)
{
    acts->actions = NULL;
    acts->n_actions = 0;
    acts->allocated = 0;
}

/* Frees the memory 'acts' owns; it may be initialised again afterwards. */
void
dp_actions_destroy(struct dp_actions *acts)
{
    free(acts->actions);
    dp_actions_init(acts);
}

/* Empties 'acts', keeping its memory for reuse. */
void
dp_actions_clear(struct dp_actions *acts)
{
    acts->n_actions = 0;
}

/* Appends "send the packet, as it is now, to datapath port 'port'". */
void
dp_actions_put_output(struct dp_actions *acts, uint32_t port)
{
    dp_actions_append(acts, DP_ACTION_OUTPUT)->port = port;
}

/* Appends "push an outer VLAN tag with 'tpid' and 'tci'" (network byte
 * order; 'tci' has VLAN_CFI set, which stands for "present" and is not
 * written into the packet). */
void
dp_actions_put_push_vlan(struct dp_actions *acts, dps_be16 tpid,
                         dps_be16 tci)
{
    struct dp_action *a = dp_actions_append(acts, DP_ACTION_PUSH_VLAN);

    a->vlan.tpid = tpid;
    a->vlan.tci = tci;
}

/* Appends "remove the outer VLAN tag". */
void
dp_actions_put_pop_vlan(struct dp_actions *acts)
{
    dp_actions_append(acts, DP_ACTION_POP_VLAN);
}

/* Appends a packet-in action (see dp-actions.h). */
void
dp_actions_put_controller(struct dp_actions *acts,
                          const struct dp_action_controller *c)
{
    /* Member by member, so that the padding stays zero: the datapath
     * compares action lists byte by byte. */
    struct dp_action_controller *d
        = &dp_actions_append(acts, DP_ACTION_USERSPACE)->controller;
    d->recirc_id = c->recirc_id;
    d->controller_id = c->controller_id;
    d->max_len = c->max_len;
    d->reason = c->reason;
    d->dont_send = c->dont_send;
    d->rule_cookie = c->rule_cookie;
}

/* Appends "set the Ethernet source to '*src' and destination to '*dst'";
 * either may be NULL to leave that address alone. */
void
dp_actions_put_set_eth(struct dp_actions *acts, const struct eth_addr *src,
                       const struct eth_addr *dst)
{
    struct dp_action *a = dp_actions_append(acts, DP_ACTION_SET_ETH);

    if (src) {
        a->eth.src = *src;
        a->eth.fields |= DP_SET_ETH_SRC;
    }
    if (dst) {
        a->eth.dst = *dst;
        a->eth.fields |= DP_SET_ETH_DST;
    }
}

/* Appends "set the IPv4 fields in 'fields' (DP_SET_IPV4_*) to 'src', 'dst',
 * 'tos', 'ttl'" (addresses in network byte order). */
void
dp_actions_put_set_ipv4(struct dp_actions *acts, uint8_t fields,
                        dps_be32 src, dps_be32 dst, uint8_t tos, uint8_t ttl)
{
    dp_actions_put_set_ipv4_masked(acts, fields, src, dst, tos, 0xff, ttl);
}

/* Like dp_actions_put_set_ipv4(), writing only the TOS bits that are 1 in
 * 'tos_mask' (which must not be 0 with DP_SET_IPV4_TOS). */
void
dp_actions_put_set_ipv4_masked(struct dp_actions *acts, uint8_t fields,
                               dps_be32 src, dps_be32 dst, uint8_t tos,
                               uint8_t tos_mask, uint8_t ttl)
{
    struct dp_action *a = dp_actions_append(acts, DP_ACTION_SET_IPV4);
    bool set_tos = (fields & DP_SET_IPV4_TOS) != 0;

    a->ipv4.fields = fields;
    a->ipv4.src = fields & DP_SET_IPV4_SRC ? src : 0;
    a->ipv4.dst = fields & DP_SET_IPV4_DST ? dst : 0;
    a->ipv4.tos = set_tos ? tos & tos_mask : 0;
    a->ipv4.tos_mask = set_tos ? tos_mask : 0;
    a->ipv4.ttl = fields & DP_SET_IPV4_TTL ? ttl : 0;
}

/* Appends "set the 'proto' (TCP, UDP or SCTP) ports in 'fields'
 * (DP_SET_L4_*) to 'src' and 'dst'" (network byte order). */
void
dp_actions_put_set_l4(struct dp_actions *acts, uint8_t proto,
                      uint8_t fields, dps_be16 src, dps_be16 dst)
{
    struct dp_action *a = dp_actions_append(acts, DP_ACTION_SET_L4);

    a->l4.proto = proto;
    a->l4.fields = fields;
    a->l4.src = fields & DP_SET_L4_SRC ? src : 0;
    a->l4.dst = fields & DP_SET_L4_DST ? dst : 0;
}

/* Returns true if 'a' and 'b' hold the same actions in the same order. */
bool
dp_actions_equal(const struct dp_actions *a, const struct dp_actions *b)
{
    if (a->n_actions != b->n_actions) {
        return false;
    }
    for (size_t i = 0; i < a->n_actions; i++) {
        const struct dp_action *x = &a->actions[i];
        const struct dp_action *y = &b->actions[i];

        if (x->type != y->type) {
            return false;
        }
        switch (x->type) {
        case DP_ACTION_OUTPUT:
            if (x->port != y->port) {
                return false;
            }
            break;
        case DP_ACTION_PUSH_VLAN:
            if (x->vlan.tpid != y->vlan.tpid || x->vlan.tci != y->vlan.tci) {
                return false;
            }
            break;
        case DP_ACTION_POP_VLAN:
            break;
        case DP_ACTION_USERSPACE: {
            const struct dp_action_controller *c = &x->controller;
            const struct dp_action_controller *d = &y->controller;
            if (c->recirc_id != d->recirc_id
                || c->controller_id != d->controller_id
                || c->max_len != d->max_len || c->reason != d->reason
                || c->dont_send != d->dont_send
                || c->rule_cookie != d->rule_cookie) {
                return false;
            }
            break;
        }
        case DP_ACTION_SET_ETH:
            if (x->eth.fields != y->eth.fields
                || memcmp(&x->eth.src, &y->eth.src, sizeof x->eth.src)
                || memcmp(&x->eth.dst, &y->eth.dst, sizeof x->eth.dst)) {
                return false;
            }
            break;
        case DP_ACTION_SET_IPV4:
            if (x->ipv4.fields != y->ipv4.fields
                || x->ipv4.src != y->ipv4.src || x->ipv4.dst != y->ipv4.dst
                || x->ipv4.tos != y->ipv4.tos
                || x->ipv4.tos_mask != y->ipv4.tos_mask
                || x->ipv4.ttl != y->ipv4.ttl) {
                return false;
            }
            break;
        case DP_ACTION_SET_L4:
            if (x->l4.proto != y->l4.proto || x->l4.fields != y->l4.fields
                || x->l4.src != y->l4.src || x->l4.dst != y->l4.dst) {
                return false;
            }
            break;
        }
    }
    return true;
}

/* Appends to 'ds' the actions in Open vSwitch's datapath syntax: comma
 * separated, an output as its port number, "push_vlan(vid=V,pcp=P)" (with
 * "tpid=0x88a8," first for a service tag, and ",cfi=0" if the tci lacks
 * VLAN_CFI), "pop_vlan", "set(eth(src=..,dst=..))",
 * "set(ipv4(src=..,dst=..,tos=..,ttl=..))", "set(tcp(src=..,dst=..))" (or
 * udp, sctp) with only the fields the action writes; "drop" for an empty
 * list. */
void
dp_actions_format(const struct dp_actions *acts, struct ds *ds)
{
    dp_actions_format_names(acts, ds, NULL, NULL);
}

/* See dp-actions.h. */
void
dp_actions_format_names(const struct dp_actions *acts, struct ds *ds,
                        const char *(*port_name)(void *aux, uint32_t port),
                        void *aux)
{
    if (!acts->n_actions) {
        ds_put_cstr(ds, "drop");
        return;
    }
    for (size_t i = 0; i < acts->n_actions; i++) {
        const struct dp_action *a = &acts->actions[i];

        if (i) {
            ds_put_char(ds, ',');
        }
        switch (a->type) {
        case DP_ACTION_OUTPUT: {
            const char *name = port_name ? port_name(aux, a->port) : NULL;

            if (name) {
                ds_put_cstr(ds, name);
            } else {
                ds_put_format(ds, "%"PRIu32, a->port);
            }
            break;
        }
        case DP_ACTION_PUSH_VLAN: {
            uint16_t tci = ntohs(a->vlan.tci);

            ds_put_cstr(ds, "push_vlan(");
            if (a->vlan.tpid != htons(ETH_TYPE_VLAN)) {
                ds_put_format(ds, "tpid=0x%04x,", ntohs(a->vlan.tpid));
            }
            ds_put_format(ds, "vid=%d,pcp=%d", tci & VLAN_VID_MASK,
                          (tci & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT);
            if (!(tci & VLAN_CFI)) {
                ds_put_cstr(ds, ",cfi=0");
            }
            ds_put_char(ds, ')');
            break;
        }
        case DP_ACTION_POP_VLAN:
            ds_put_cstr(ds, "pop_vlan");
            break;
        case DP_ACTION_USERSPACE: {
            const struct dp_action_controller *c = &a->controller;
            ds_put_format(ds, "userspace(pid=0,controller(reason=%u,"
                          "dont_send=%d,continuation=0,recirc_id=%"PRIu32
                          ",rule_cookie=%#"PRIx64",controller_id=%u,"
                          "max_len=%u))", c->reason, c->dont_send,
                          c->recirc_id, c->rule_cookie, c->controller_id,
                          c->max_len);
            break;
        }
        case DP_ACTION_SET_ETH:
        case DP_ACTION_SET_IPV4:
        case DP_ACTION_SET_L4:
            format_set(a, ds);
            break;
        }
    }
}

static void
format_sep(struct ds *ds, bool *first)
{
    if (!*first) {
        ds_put_char(ds, ',');
    }
    *first = false;
}

static void
format_ipv4(struct ds *ds, dps_be32 addr)
{
    const uint8_t *b = (const uint8_t *) &addr;

    ds_put_format(ds, "%d.%d.%d.%d", b[0], b[1], b[2], b[3]);
}

/* lib/packets.c is not in this library: format MACs here. */
static void
format_mac(struct ds *ds, const char *name, const struct eth_addr *ea)
{
    const uint8_t *b = ea->ea;

    ds_put_format(ds, "%s=%02x:%02x:%02x:%02x:%02x:%02x", name,
                  b[0], b[1], b[2], b[3], b[4], b[5]);
}

static void
format_set(const struct dp_action *a, struct ds *ds)
{
    bool first = true;

    ds_put_cstr(ds, "set(");
    switch (a->type) {
    case DP_ACTION_SET_ETH:
        ds_put_cstr(ds, "eth(");
        if (a->eth.fields & DP_SET_ETH_SRC) {
            format_sep(ds, &first);
            format_mac(ds, "src", &a->eth.src);
        }
        if (a->eth.fields & DP_SET_ETH_DST) {
            format_sep(ds, &first);
            format_mac(ds, "dst", &a->eth.dst);
        }
        break;
    case DP_ACTION_SET_IPV4:
        ds_put_cstr(ds, "ipv4(");
        if (a->ipv4.fields & DP_SET_IPV4_SRC) {
            format_sep(ds, &first);
            ds_put_cstr(ds, "src=");
            format_ipv4(ds, a->ipv4.src);
        }
        if (a->ipv4.fields & DP_SET_IPV4_DST) {
            format_sep(ds, &first);
            ds_put_cstr(ds, "dst=");
            format_ipv4(ds, a->ipv4.dst);
        }
        if (a->ipv4.fields & DP_SET_IPV4_TOS) {
            format_sep(ds, &first);
            ds_put_format(ds, "tos=%#x", a->ipv4.tos);
            if (a->ipv4.tos_mask != 0xff) {
                ds_put_format(ds, "/%#x", a->ipv4.tos_mask);
            }
        }
        if (a->ipv4.fields & DP_SET_IPV4_TTL) {
            format_sep(ds, &first);
            ds_put_format(ds, "ttl=%d", a->ipv4.ttl);
        }
        break;
    case DP_ACTION_SET_L4:
        ds_put_cstr(ds, (a->l4.proto == IPPROTO_UDP_ ? "udp("
                         : a->l4.proto == IPPROTO_SCTP_ ? "sctp(" : "tcp("));
        if (a->l4.fields & DP_SET_L4_SRC) {
            format_sep(ds, &first);
            ds_put_format(ds, "src=%d", ntohs(a->l4.src));
        }
        if (a->l4.fields & DP_SET_L4_DST) {
            format_sep(ds, &first);
            ds_put_format(ds, "dst=%d", ntohs(a->l4.dst));
        }
        break;
    case DP_ACTION_OUTPUT:
    case DP_ACTION_PUSH_VLAN:
    case DP_ACTION_POP_VLAN:
    case DP_ACTION_USERSPACE:
        break;
    }
    ds_put_cstr(ds, "))");
}

static struct dp_action *
dp_actions_append(struct dp_actions *acts, enum dp_action_type type)
{
    if (acts->n_actions >= acts->allocated) {
        acts->allocated = acts->allocated ? 2 * acts->allocated : 8;
        acts->actions = xrealloc(acts->actions,
                                 acts->allocated * sizeof *acts->actions);
    }

    struct dp_action *a = &acts->actions[acts->n_actions++];
    memset(a, 0, sizeof *a);
    a->type = type;
    return a;
}
