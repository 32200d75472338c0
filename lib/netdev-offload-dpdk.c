/* netdev-offload-dpdk: the rte_flow flow API of dpdk ports.  See
 * netdev-offload-dpdk.h.
 *
 * Rules.  Each port keeps its rules (UFID -> rte_flow handle) in a small
 * table under a mutex: offload threads may work on one port at once.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev-offload-dpdk.h"
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <rte_ethdev.h>
#include "coverage.h"
#include "dynamic-string.h"
#include "netdev-dpdk.h"
#include "netdev-offload.h"
#include "netdev-provider.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_offload_dpdk);

COVERAGE_DEFINE(netdev_offload_dpdk_unsupported);
COVERAGE_DEFINE(netdev_offload_dpdk_refused);
COVERAGE_DEFINE(netdev_offload_dpdk_queue_fallback);

#define CONSUME(REM, FIELD) memset(&(REM)->FIELD, 0, sizeof (REM)->FIELD)

static bool is_zero(const void *, size_t);
static void add_item(struct netdev_offload_dpdk_pattern *,
                     enum rte_flow_item_type, const void *spec,
                     const void *mask);
static int refuse(struct ds *reason, const char *why);
static const char *first_left(const struct flow *rem);
static int translate_l4(const struct flow *key, struct flow *rem,
                        uint8_t proto, bool is_ipv6,
                        struct netdev_offload_dpdk_pattern *,
                        struct ds *reason);
static void format_item(struct ds *, const struct rte_flow_item *);

/* See netdev-offload-dpdk.h. */
int
netdev_offload_dpdk_translate(const struct netdev_offload_match *match,
                              struct netdev_offload_dpdk_pattern *pt,
                              struct ds *reason)
{
    const struct flow *key = &match->key;
    struct flow rem = match->mask;

    memset(pt, 0, sizeof *pt);

    /* The rule lives on the input port's device. */
    CONSUME(&rem, in_port);
    if (rem.recirc_id && key->recirc_id) {
        return refuse(reason, "recirculated packets are not seen by the "
                      "device");
    }
    CONSUME(&rem, recirc_id);

    if (rem.vlan_tci[1] || rem.vlan_tpid[1]) {
        return refuse(reason, "a second VLAN tag is matched");
    }

    /* ETH: addresses; the EtherType here unless a tag is present. */
    bool vlan_matched = (rem.vlan_tci[0] & htons(VLAN_CFI)) != 0;
    bool vlan_present = vlan_matched && (key->vlan_tci[0] & htons(VLAN_CFI));
    pt->eth_spec.hdr.dst_addr = *(const struct rte_ether_addr *)
                                &key->dl_dst;
    pt->eth_mask.hdr.dst_addr = *(const struct rte_ether_addr *)
                                &rem.dl_dst;
    pt->eth_spec.hdr.src_addr = *(const struct rte_ether_addr *)
                                &key->dl_src;
    pt->eth_mask.hdr.src_addr = *(const struct rte_ether_addr *)
                                &rem.dl_src;
    CONSUME(&rem, dl_dst);
    CONSUME(&rem, dl_src);
    if (vlan_matched) {
        pt->eth_spec.has_vlan = vlan_present;
        pt->eth_mask.has_vlan = 1;
    }
    if (vlan_present) {
        if (rem.vlan_tpid[0]) {
            pt->eth_spec.hdr.ether_type = key->vlan_tpid[0];
            pt->eth_mask.hdr.ether_type = rem.vlan_tpid[0];
        }
        pt->vlan_spec.hdr.vlan_tci = key->vlan_tci[0] & ~htons(VLAN_CFI);
        pt->vlan_mask.hdr.vlan_tci = rem.vlan_tci[0] & ~htons(VLAN_CFI);
        pt->vlan_spec.hdr.eth_proto = key->dl_type;
        pt->vlan_mask.hdr.eth_proto = rem.dl_type;
    } else {
        if (!vlan_matched && rem.vlan_tci[0]) {
            return refuse(reason, "VLAN bits are matched without the "
                          "presence of the tag");
        }
        pt->eth_spec.hdr.ether_type = key->dl_type;
        pt->eth_mask.hdr.ether_type = rem.dl_type;
    }
    CONSUME(&rem, vlan_tpid);
    CONSUME(&rem, vlan_tci);
    add_item(pt, RTE_FLOW_ITEM_TYPE_ETH, &pt->eth_spec, &pt->eth_mask);
    if (vlan_present) {
        add_item(pt, RTE_FLOW_ITEM_TYPE_VLAN, &pt->vlan_spec,
                 &pt->vlan_mask);
    }

    bool type_exact = rem.dl_type == htons(0xffff);
    CONSUME(&rem, dl_type);
    uint8_t proto = key->nw_proto;
    bool proto_exact = rem.nw_proto == 0xff;
    int error = 0;

    if (type_exact && key->dl_type == htons(ETH_TYPE_IP)) {
        struct rte_ipv4_hdr *s = &pt->ipv4_spec.hdr, *m = &pt->ipv4_mask.hdr;

        s->src_addr = key->nw_src;
        m->src_addr = rem.nw_src;
        s->dst_addr = key->nw_dst;
        m->dst_addr = rem.nw_dst;
        s->next_proto_id = key->nw_proto;
        m->next_proto_id = rem.nw_proto;
        s->type_of_service = key->nw_tos;
        m->type_of_service = rem.nw_tos;
        s->time_to_live = key->nw_ttl;
        m->time_to_live = rem.nw_ttl;
        if (rem.nw_frag) {
            if ((key->nw_frag & FLOW_NW_FRAG_ANY)
                || !(rem.nw_frag & FLOW_NW_FRAG_ANY)) {
                return refuse(reason, "IP fragments are matched");
            }
            /* Not a fragment: MF and the offset are zero. */
            s->fragment_offset = 0;
            m->fragment_offset = htons(IPV4_MF | IPV4_FRAG_OFF_MASK);
        }
        CONSUME(&rem, nw_src);
        CONSUME(&rem, nw_dst);
        CONSUME(&rem, nw_proto);
        CONSUME(&rem, nw_tos);
        CONSUME(&rem, nw_ttl);
        CONSUME(&rem, nw_frag);
        add_item(pt, RTE_FLOW_ITEM_TYPE_IPV4, &pt->ipv4_spec,
                 &pt->ipv4_mask);
        if (proto_exact) {
            error = translate_l4(key, &rem, proto, false, pt, reason);
        }
    } else if (type_exact && key->dl_type == htons(ETH_TYPE_IPV6)) {
        struct rte_ipv6_hdr *s = &pt->ipv6_spec.hdr, *m = &pt->ipv6_mask.hdr;

        memcpy(s->src_addr, &key->ipv6_src, 16);
        memcpy(m->src_addr, &rem.ipv6_src, 16);
        memcpy(s->dst_addr, &key->ipv6_dst, 16);
        memcpy(m->dst_addr, &rem.ipv6_dst, 16);
        s->proto = key->nw_proto;
        m->proto = rem.nw_proto;
        s->hop_limits = key->nw_ttl;
        m->hop_limits = rem.nw_ttl;
        s->vtc_flow = htonl(((uint32_t) key->nw_tos << 20)
                            | (ntohl(key->ipv6_label) & 0xfffff));
        m->vtc_flow = htonl(((uint32_t) rem.nw_tos << 20)
                            | (ntohl(rem.ipv6_label) & 0xfffff));
        if (ntohl(rem.ipv6_label) & ~0xfffffu) {
            return refuse(reason, "bits above the IPv6 flow label");
        }
        if (rem.nw_frag) {
            if ((key->nw_frag & FLOW_NW_FRAG_ANY)
                || !(rem.nw_frag & FLOW_NW_FRAG_ANY)) {
                return refuse(reason, "IP fragments are matched");
            }
            pt->ipv6_spec.has_frag_ext = 0;
            pt->ipv6_mask.has_frag_ext = 1;
        }
        CONSUME(&rem, ipv6_src);
        CONSUME(&rem, ipv6_dst);
        CONSUME(&rem, nw_proto);
        CONSUME(&rem, nw_ttl);
        CONSUME(&rem, nw_tos);
        CONSUME(&rem, ipv6_label);
        CONSUME(&rem, nw_frag);
        add_item(pt, RTE_FLOW_ITEM_TYPE_IPV6, &pt->ipv6_spec,
                 &pt->ipv6_mask);
        if (proto_exact) {
            error = translate_l4(key, &rem, proto, true, pt, reason);
        }
    }
    if (error) {
        return error;
    }

    const char *left = first_left(&rem);
    if (left) {
        if (reason) {
            ds_put_format(reason, "field %s cannot be matched by rte_flow "
                          "items", left);
        }
        return EOPNOTSUPP;
    }
    add_item(pt, RTE_FLOW_ITEM_TYPE_END, NULL, NULL);
    return 0;
}

/* See netdev-offload-dpdk.h. */
void
netdev_offload_dpdk_actions_rss(struct netdev_offload_dpdk_actions *a,
                                uint32_t mark, int n_rxq)
{
    memset(a, 0, sizeof *a);
    n_rxq = MAX(1, MIN(n_rxq, NETDEV_OFFLOAD_DPDK_MAX_QUEUES));
    for (int i = 0; i < n_rxq; i++) {
        a->queues[i] = i;
    }
    a->mark.id = mark;
    a->rss.func = RTE_ETH_HASH_FUNCTION_DEFAULT;
    a->rss.level = 0;
    a->rss.types = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP;
    a->rss.queue_num = n_rxq;
    a->rss.queue = a->queues;
    a->actions[0].type = RTE_FLOW_ACTION_TYPE_MARK;
    a->actions[0].conf = &a->mark;
    a->actions[1].type = RTE_FLOW_ACTION_TYPE_RSS;
    a->actions[1].conf = &a->rss;
    a->actions[2].type = RTE_FLOW_ACTION_TYPE_END;
}

/* See netdev-offload-dpdk.h. */
void
netdev_offload_dpdk_actions_queue(struct netdev_offload_dpdk_actions *a,
                                  uint32_t mark, int queue)
{
    memset(a, 0, sizeof *a);
    a->mark.id = mark;
    a->queue.index = queue;
    a->actions[0].type = RTE_FLOW_ACTION_TYPE_MARK;
    a->actions[0].conf = &a->mark;
    a->actions[1].type = RTE_FLOW_ACTION_TYPE_QUEUE;
    a->actions[1].conf = &a->queue;
    a->actions[2].type = RTE_FLOW_ACTION_TYPE_END;
}

/* See netdev-offload-dpdk.h. */
void
netdev_offload_dpdk_format(struct ds *ds, uint16_t port_id,
                           const struct rte_flow_item *items,
                           const struct rte_flow_action *actions)
{
    ds_put_format(ds, "flow create %"PRIu16" ingress pattern ", port_id);
    for (; items->type != RTE_FLOW_ITEM_TYPE_END; items++) {
        format_item(ds, items);
    }
    ds_put_cstr(ds, "end actions ");
    for (; actions->type != RTE_FLOW_ACTION_TYPE_END; actions++) {
        if (actions->type == RTE_FLOW_ACTION_TYPE_MARK) {
            const struct rte_flow_action_mark *m = actions->conf;
            ds_put_format(ds, "mark id %"PRIu32" / ", m->id);
        } else if (actions->type == RTE_FLOW_ACTION_TYPE_RSS) {
            const struct rte_flow_action_rss *r = actions->conf;

            ds_put_cstr(ds, "rss queues ");
            for (uint32_t i = 0; i < r->queue_num; i++) {
                ds_put_format(ds, "%"PRIu16" ", r->queue[i]);
            }
            ds_put_cstr(ds, "end / ");
        } else if (actions->type == RTE_FLOW_ACTION_TYPE_QUEUE) {
            const struct rte_flow_action_queue *q = actions->conf;
            ds_put_format(ds, "queue index %"PRIu16" / ", q->index);
        } else {
            ds_put_format(ds, "action%d / ", (int) actions->type);
        }
    }
    ds_put_cstr(ds, "end");
}

/* Translation. */

static bool
is_zero(const void *p_, size_t n)
{
    const uint8_t *p = p_;

    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

static void
add_item(struct netdev_offload_dpdk_pattern *pt, enum rte_flow_item_type type,
         const void *spec, const void *mask)
{
    struct rte_flow_item *item = &pt->items[pt->n_items++];

    item->type = type;
    item->spec = spec;
    item->mask = mask;
    item->last = NULL;
}

static int
refuse(struct ds *reason, const char *why)
{
    if (reason) {
        ds_put_cstr(reason, why);
    }
    return EOPNOTSUPP;
}

/* Names the first field of 'rem' (a mask) with bits left. */
static const char *
first_left(const struct flow *rem)
{
#define LEFT(FIELD) if (!is_zero(&rem->FIELD, sizeof rem->FIELD)) return #FIELD
    LEFT(recirc_id);
    LEFT(dl_dst);
    LEFT(dl_src);
    LEFT(dl_type);
    LEFT(vlan_tpid);
    LEFT(vlan_tci);
    LEFT(nw_src);
    LEFT(nw_dst);
    LEFT(ipv6_src);
    LEFT(ipv6_dst);
    LEFT(ipv6_label);
    LEFT(nw_proto);
    LEFT(nw_tos);
    LEFT(nw_ttl);
    LEFT(nw_frag);
    LEFT(nd_target);
    LEFT(arp_sha);
    LEFT(arp_tha);
    LEFT(arp_op);
    LEFT(tp_src);
    LEFT(tp_dst);
    LEFT(tcp_flags);
#undef LEFT
    return NULL;
}

static int
translate_l4(const struct flow *key, struct flow *rem, uint8_t proto,
             bool is_ipv6, struct netdev_offload_dpdk_pattern *pt,
             struct ds *reason)
{
    dps_be16 src_m = rem->tp_src, dst_m = rem->tp_dst;

    if (!src_m && !dst_m && !rem->tcp_flags) {
        return 0;
    }
    switch (proto) {
    case IPPROTO_TCP_: {
        uint16_t flags_m = ntohs(rem->tcp_flags);

        if (flags_m & ~0xff) {
            return refuse(reason, "TCP flags above the low 8 bits are "
                          "matched");
        }
        pt->l4_spec.tcp.hdr.src_port = key->tp_src;
        pt->l4_spec.tcp.hdr.dst_port = key->tp_dst;
        pt->l4_spec.tcp.hdr.tcp_flags = ntohs(key->tcp_flags) & 0xff;
        pt->l4_mask.tcp.hdr.src_port = src_m;
        pt->l4_mask.tcp.hdr.dst_port = dst_m;
        pt->l4_mask.tcp.hdr.tcp_flags = flags_m;
        CONSUME(rem, tcp_flags);
        add_item(pt, RTE_FLOW_ITEM_TYPE_TCP, &pt->l4_spec.tcp,
                 &pt->l4_mask.tcp);
        break;
    }
    case IPPROTO_UDP_:
        pt->l4_spec.udp.hdr.src_port = key->tp_src;
        pt->l4_spec.udp.hdr.dst_port = key->tp_dst;
        pt->l4_mask.udp.hdr.src_port = src_m;
        pt->l4_mask.udp.hdr.dst_port = dst_m;
        add_item(pt, RTE_FLOW_ITEM_TYPE_UDP, &pt->l4_spec.udp,
                 &pt->l4_mask.udp);
        break;
    case IPPROTO_SCTP_:
        pt->l4_spec.sctp.hdr.src_port = key->tp_src;
        pt->l4_spec.sctp.hdr.dst_port = key->tp_dst;
        pt->l4_mask.sctp.hdr.src_port = src_m;
        pt->l4_mask.sctp.hdr.dst_port = dst_m;
        add_item(pt, RTE_FLOW_ITEM_TYPE_SCTP, &pt->l4_spec.sctp,
                 &pt->l4_mask.sctp);
        break;
    case IPPROTO_ICMP_:
    case IPPROTO_ICMPV6_: {
        /* Type and code are 8-bit values kept in 16-bit fields: the high
         * bytes are always zero. */
        uint8_t type = ntohs(key->tp_src), code = ntohs(key->tp_dst);
        uint8_t type_m = ntohs(src_m), code_m = ntohs(dst_m);

        if ((proto == IPPROTO_ICMP_) == is_ipv6) {
            return refuse(reason, "ICMP in IPv6 or ICMPv6 in IPv4");
        }
        if (proto == IPPROTO_ICMP_) {
            pt->l4_spec.icmp.hdr.icmp_type = type;
            pt->l4_spec.icmp.hdr.icmp_code = code;
            pt->l4_mask.icmp.hdr.icmp_type = type_m;
            pt->l4_mask.icmp.hdr.icmp_code = code_m;
            add_item(pt, RTE_FLOW_ITEM_TYPE_ICMP, &pt->l4_spec.icmp,
                     &pt->l4_mask.icmp);
        } else {
            pt->l4_spec.icmp6.type = type;
            pt->l4_spec.icmp6.code = code;
            pt->l4_mask.icmp6.type = type_m;
            pt->l4_mask.icmp6.code = code_m;
            add_item(pt, RTE_FLOW_ITEM_TYPE_ICMP6, &pt->l4_spec.icmp6,
                     &pt->l4_mask.icmp6);
        }
        break;
    }
    default:
        return refuse(reason, "L4 fields of an IP protocol without an "
                      "rte_flow item");
    }
    CONSUME(rem, tp_src);
    CONSUME(rem, tp_dst);
    return 0;
}

/* Formatting in testpmd's syntax. */

static void
put_mac(struct ds *ds, const char *name, const struct rte_ether_addr *spec,
        const struct rte_ether_addr *mask)
{
    if (!is_zero(mask, sizeof *mask)) {
        const uint8_t *s = spec->addr_bytes, *m = mask->addr_bytes;

        ds_put_format(ds, "%s spec %02x:%02x:%02x:%02x:%02x:%02x %s mask "
                      "%02x:%02x:%02x:%02x:%02x:%02x ", name, s[0], s[1],
                      s[2], s[3], s[4], s[5], name, m[0], m[1], m[2], m[3],
                      m[4], m[5]);
    }
}

static void
put_num(struct ds *ds, const char *name, uint32_t spec, uint32_t mask)
{
    if (mask) {
        ds_put_format(ds, "%s spec 0x%"PRIx32" %s mask 0x%"PRIx32" ", name,
                      spec, name, mask);
    }
}

static void
put_ip4(struct ds *ds, const char *name, dps_be32 spec, dps_be32 mask)
{
    if (mask) {
        uint32_t s = ntohl(spec), m = ntohl(mask);

        ds_put_format(ds, "%s spec %u.%u.%u.%u %s mask %u.%u.%u.%u ", name,
                      s >> 24, (s >> 16) & 0xff, (s >> 8) & 0xff, s & 0xff,
                      name, m >> 24, (m >> 16) & 0xff, (m >> 8) & 0xff,
                      m & 0xff);
    }
}

static void
put_ip6_addr(struct ds *ds, const uint8_t a[16])
{
    for (int i = 0; i < 16; i += 2) {
        ds_put_format(ds, "%s%x", i ? ":" : "", (a[i] << 8) | a[i + 1]);
    }
}

static void
put_ip6(struct ds *ds, const char *name, const uint8_t spec[16],
        const uint8_t mask[16])
{
    if (!is_zero(mask, 16)) {
        ds_put_format(ds, "%s spec ", name);
        put_ip6_addr(ds, spec);
        ds_put_format(ds, " %s mask ", name);
        put_ip6_addr(ds, mask);
        ds_put_char(ds, ' ');
    }
}

static void
format_item(struct ds *ds, const struct rte_flow_item *item)
{
    const void *s_ = item->spec, *m_ = item->mask;

    switch (item->type) {
    case RTE_FLOW_ITEM_TYPE_ETH: {
        const struct rte_flow_item_eth *s = s_, *m = m_;

        ds_put_cstr(ds, "eth ");
        put_mac(ds, "src", &s->hdr.src_addr, &m->hdr.src_addr);
        put_mac(ds, "dst", &s->hdr.dst_addr, &m->hdr.dst_addr);
        put_num(ds, "type", ntohs(s->hdr.ether_type),
                ntohs(m->hdr.ether_type));
        put_num(ds, "has_vlan", s->has_vlan, m->has_vlan);
        break;
    }
    case RTE_FLOW_ITEM_TYPE_VLAN: {
        const struct rte_flow_item_vlan *s = s_, *m = m_;

        ds_put_cstr(ds, "vlan ");
        put_num(ds, "tci", ntohs(s->hdr.vlan_tci), ntohs(m->hdr.vlan_tci));
        put_num(ds, "inner_type", ntohs(s->hdr.eth_proto),
                ntohs(m->hdr.eth_proto));
        break;
    }
    case RTE_FLOW_ITEM_TYPE_IPV4: {
        const struct rte_ipv4_hdr *s = &((const struct rte_flow_item_ipv4 *)
                                         s_)->hdr;
        const struct rte_ipv4_hdr *m = &((const struct rte_flow_item_ipv4 *)
                                         m_)->hdr;

        ds_put_cstr(ds, "ipv4 ");
        put_ip4(ds, "src", s->src_addr, m->src_addr);
        put_ip4(ds, "dst", s->dst_addr, m->dst_addr);
        put_num(ds, "proto", s->next_proto_id, m->next_proto_id);
        put_num(ds, "tos", s->type_of_service, m->type_of_service);
        put_num(ds, "ttl", s->time_to_live, m->time_to_live);
        put_num(ds, "fragment_offset", ntohs(s->fragment_offset),
                ntohs(m->fragment_offset));
        break;
    }
    case RTE_FLOW_ITEM_TYPE_IPV6: {
        const struct rte_flow_item_ipv6 *s = s_, *m = m_;
        uint32_t sv = ntohl(s->hdr.vtc_flow), mv = ntohl(m->hdr.vtc_flow);

        ds_put_cstr(ds, "ipv6 ");
        put_ip6(ds, "src", s->hdr.src_addr, m->hdr.src_addr);
        put_ip6(ds, "dst", s->hdr.dst_addr, m->hdr.dst_addr);
        put_num(ds, "proto", s->hdr.proto, m->hdr.proto);
        put_num(ds, "tc", (sv >> 20) & 0xff, (mv >> 20) & 0xff);
        put_num(ds, "flow", sv & 0xfffff, mv & 0xfffff);
        put_num(ds, "hop", s->hdr.hop_limits, m->hdr.hop_limits);
        put_num(ds, "has_frag_ext", s->has_frag_ext, m->has_frag_ext);
        break;
    }
    case RTE_FLOW_ITEM_TYPE_TCP: {
        const struct rte_flow_item_tcp *s = s_, *m = m_;

        ds_put_cstr(ds, "tcp ");
        put_num(ds, "src", ntohs(s->hdr.src_port), ntohs(m->hdr.src_port));
        put_num(ds, "dst", ntohs(s->hdr.dst_port), ntohs(m->hdr.dst_port));
        put_num(ds, "flags", s->hdr.tcp_flags, m->hdr.tcp_flags);
        break;
    }
    case RTE_FLOW_ITEM_TYPE_UDP: {
        const struct rte_flow_item_udp *s = s_, *m = m_;

        ds_put_cstr(ds, "udp ");
        put_num(ds, "src", ntohs(s->hdr.src_port), ntohs(m->hdr.src_port));
        put_num(ds, "dst", ntohs(s->hdr.dst_port), ntohs(m->hdr.dst_port));
        break;
    }
    case RTE_FLOW_ITEM_TYPE_SCTP: {
        const struct rte_flow_item_sctp *s = s_, *m = m_;

        ds_put_cstr(ds, "sctp ");
        put_num(ds, "src", ntohs(s->hdr.src_port), ntohs(m->hdr.src_port));
        put_num(ds, "dst", ntohs(s->hdr.dst_port), ntohs(m->hdr.dst_port));
        break;
    }
    case RTE_FLOW_ITEM_TYPE_ICMP: {
        const struct rte_flow_item_icmp *s = s_, *m = m_;

        ds_put_cstr(ds, "icmp ");
        put_num(ds, "type", s->hdr.icmp_type, m->hdr.icmp_type);
        put_num(ds, "code", s->hdr.icmp_code, m->hdr.icmp_code);
        break;
    }
    case RTE_FLOW_ITEM_TYPE_ICMP6: {
        const struct rte_flow_item_icmp6 *s = s_, *m = m_;

        ds_put_cstr(ds, "icmp6 ");
        put_num(ds, "type", s->type, m->type);
        put_num(ds, "code", s->code, m->code);
        break;
    }
    default:
        ds_put_format(ds, "item%d ", (int) item->type);
        break;
    }
    ds_put_cstr(ds, "/ ");
}

/* The provider. */

struct dpdk_rule {
    struct dp_ufid ufid;
    struct rte_flow *flow;
    uint16_t port_id;
};

struct dpdk_offload_port {
    struct netdev *netdev;
    pthread_mutex_t mutex;
    struct dpdk_rule *rules;
    size_t n_rules, allocated;
};

static pthread_mutex_t ports_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct dpdk_offload_port **ports;
static size_t n_ports;

static struct dpdk_offload_port *
port_find(const struct netdev *netdev)
{
    struct dpdk_offload_port *port = NULL;

    pthread_mutex_lock(&ports_mutex);
    for (size_t i = 0; i < n_ports; i++) {
        if (ports[i]->netdev == netdev) {
            port = ports[i];
            break;
        }
    }
    pthread_mutex_unlock(&ports_mutex);
    return port;
}

static int
dpdk_flow_flush(struct netdev *netdev)
{
    struct dpdk_offload_port *port = port_find(netdev);
    int port_id = netdev_dpdk_get_port_id(netdev);

    if (port) {
        pthread_mutex_lock(&port->mutex);
        for (size_t i = 0; i < port->n_rules; i++) {
            struct rte_flow_error err;
            rte_flow_destroy(port->rules[i].port_id, port->rules[i].flow,
                             &err);
        }
        port->n_rules = 0;
        pthread_mutex_unlock(&port->mutex);
    }
    if (port_id >= 0) {
        struct rte_flow_error err;
        rte_flow_flush(port_id, &err);
    }
    return 0;
}

static int
dpdk_init_flow_api(struct netdev *netdev)
{
    /* A port may have no device yet (it comes with the first
     * reconfiguration): rules use the device the port has when they are
     * created. */
    if (!netdev_dpdk_is_dpdk(netdev)) {
        return EOPNOTSUPP;
    }
    if (!port_find(netdev)) {
        struct dpdk_offload_port *port = xzalloc(sizeof *port);

        port->netdev = netdev;
        pthread_mutex_init(&port->mutex, NULL);
        pthread_mutex_lock(&ports_mutex);
        ports = xrealloc(ports, (n_ports + 1) * sizeof *ports);
        ports[n_ports++] = port;
        pthread_mutex_unlock(&ports_mutex);
    }
    /* Start from an empty device. */
    dpdk_flow_flush(netdev);
    return 0;
}

static void
dpdk_uninit_flow_api(struct netdev *netdev)
{
    dpdk_flow_flush(netdev);
    pthread_mutex_lock(&ports_mutex);
    for (size_t i = 0; i < n_ports; i++) {
        if (ports[i]->netdev == netdev) {
            struct dpdk_offload_port *port = ports[i];

            ports[i] = ports[--n_ports];
            pthread_mutex_destroy(&port->mutex);
            free(port->rules);
            free(port);
            break;
        }
    }
    pthread_mutex_unlock(&ports_mutex);
}

static struct dpdk_rule *
rule_find(struct dpdk_offload_port *port, const struct dp_ufid *ufid)
{
    for (size_t i = 0; i < port->n_rules; i++) {
        if (dp_flow_ufid_equal(&port->rules[i].ufid, ufid)) {
            return &port->rules[i];
        }
    }
    return NULL;
}

static void
rule_remove(struct dpdk_offload_port *port, struct dpdk_rule *r)
{
    struct rte_flow_error err;

    rte_flow_destroy(r->port_id, r->flow, &err);
    *r = port->rules[--port->n_rules];
}

static int
dpdk_flow_put(struct netdev *netdev, const struct netdev_offload_match *m,
              const struct dp_ufid *ufid,
              const struct netdev_offload_info *info)
{
    struct dpdk_offload_port *port = port_find(netdev);
    int port_id = netdev_dpdk_get_port_id(netdev);
    struct netdev_offload_dpdk_pattern pattern;
    struct netdev_offload_dpdk_actions actions;
    struct ds reason = DS_EMPTY_INITIALIZER;

    if (!port || port_id < 0) {
        return ENODEV;
    }
    if (netdev_offload_dpdk_translate(m, &pattern, &reason)) {
        char s[DP_UFID_STRLEN];

        dp_flow_ufid_format(ufid, s);
        VLOG_DBG("%s: %s not offloaded: %s", netdev_get_name(netdev), s,
                 ds_cstr(&reason));
        ds_destroy(&reason);
        COVERAGE_INC(netdev_offload_dpdk_unsupported);
        return EOPNOTSUPP;
    }
    ds_destroy(&reason);

    /* Modify: the old rule goes first (the mark stays the same). */
    pthread_mutex_lock(&port->mutex);
    struct dpdk_rule *old = rule_find(port, ufid);
    if (old) {
        rule_remove(port, old);
    }
    pthread_mutex_unlock(&port->mutex);

    const struct rte_flow_attr attr = { .ingress = 1 };
    struct rte_flow_error err;
    memset(&err, 0, sizeof err);
    netdev_offload_dpdk_actions_rss(&actions, info->mark,
                                    netdev_n_rxq(netdev));
    struct rte_flow *flow = rte_flow_create(port_id, &attr, pattern.items,
                                            actions.actions, &err);
    if (!flow) {
        COVERAGE_INC(netdev_offload_dpdk_queue_fallback);
        netdev_offload_dpdk_actions_queue(&actions, info->mark,
                                          info->rxq_id);
        memset(&err, 0, sizeof err);
        flow = rte_flow_create(port_id, &attr, pattern.items,
                               actions.actions, &err);
    }
    if (!flow) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
        struct ds rule = DS_EMPTY_INITIALIZER;

        COVERAGE_INC(netdev_offload_dpdk_refused);
        netdev_offload_dpdk_format(&rule, port_id, pattern.items,
                                   actions.actions);
        VLOG_WARN_RL(&rl, "%s: rte_flow creation failed: %d (%s).  Rule: "
                     "%s", netdev_get_name(netdev), (int) err.type,
                     err.message ? err.message : "(no stated reason)",
                     ds_cstr(&rule));
        ds_destroy(&rule);
        return EINVAL;
    }

    if (VLOG_IS_DBG_ENABLED()) {
        struct ds rule = DS_EMPTY_INITIALIZER;

        netdev_offload_dpdk_format(&rule, port_id, pattern.items,
                                   actions.actions);
        VLOG_DBG("%s: rte_flow created: %s", netdev_get_name(netdev),
                 ds_cstr(&rule));
        ds_destroy(&rule);
    }

    pthread_mutex_lock(&port->mutex);
    if (port->n_rules >= port->allocated) {
        port->allocated = port->allocated ? 2 * port->allocated : 16;
        port->rules = xrealloc(port->rules,
                               port->allocated * sizeof *port->rules);
    }
    port->rules[port->n_rules++] = (struct dpdk_rule) {
        .ufid = *ufid, .flow = flow, .port_id = port_id,
    };
    pthread_mutex_unlock(&port->mutex);
    return 0;
}

static int
dpdk_flow_del(struct netdev *netdev, const struct dp_ufid *ufid)
{
    struct dpdk_offload_port *port = port_find(netdev);
    int error = ENOENT;

    if (!port) {
        return ENODEV;
    }
    pthread_mutex_lock(&port->mutex);
    struct dpdk_rule *r = rule_find(port, ufid);
    if (r) {
        rule_remove(port, r);
        error = 0;
    }
    pthread_mutex_unlock(&port->mutex);
    return error;
}

static int
dpdk_flow_get(struct netdev *netdev, const struct dp_ufid *ufid,
              struct netdev_offload_flow_state *state)
{
    struct dpdk_offload_port *port = port_find(netdev);
    int error = ENOENT;

    if (!port) {
        return ENODEV;
    }
    pthread_mutex_lock(&port->mutex);
    if (rule_find(port, ufid)) {
        state->offloaded = true;
        state->n_packets = state->n_bytes = UINT64_MAX;
        error = 0;
    }
    pthread_mutex_unlock(&port->mutex);
    return error;
}

const struct netdev_flow_api netdev_offload_dpdk = {
    .type = "dpdk_flow_api",
    .init_flow_api = dpdk_init_flow_api,
    .uninit_flow_api = dpdk_uninit_flow_api,
    .flow_put = dpdk_flow_put,
    .flow_del = dpdk_flow_del,
    .flow_get = dpdk_flow_get,
    .flow_flush = dpdk_flow_flush,
};
