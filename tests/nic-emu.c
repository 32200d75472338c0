/* nic-emu: a NIC emulator for rte_flow MARK, test and benchmark equipment.
 *
 * No software DPDK device supports RTE_FLOW_ACTION_TYPE_MARK.  This shared
 * library, preloaded into ovs-vswitchd (LD_PRELOAD), takes the place of
 * DPDK's rte_flow_validate(), rte_flow_create(), rte_flow_destroy(),
 * rte_flow_flush() and rte_flow_query(): it interprets the very item and
 * action arrays the switch's provider builds (ETH, VLAN, IPV4, IPV6, TCP,
 * UDP, SCTP, ICMP, ICMP6 with spec and mask; MARK with RSS or QUEUE) and,
 * from an ethdev RX callback on every rx queue of the port, stamps the
 * rule's mark on each matching received mbuf as a NIC does
 * (hash.fdir.hi, RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID).  It is never
 * part of the production fast path: without the preload, DPDK's own
 * functions run.
 *
 * Environment:
 *   DPS_NICEMU_NO_RSS=1   refuse RSS actions (to exercise the switch's
 *                         MARK + QUEUE fallback).
 *   DPS_NICEMU_LOG=FILE   append one line per rule created or destroyed.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#define EMU_MAX_ITEMS 8
#define EMU_MAX_PORTS 64
#define EMU_HDR_MAX 40

struct emu_item {
    enum rte_flow_item_type type;
    uint8_t spec[EMU_HDR_MAX];
    uint8_t mask[EMU_HDR_MAX];
    bool has_flag_spec, has_flag_mask;  /* ETH has_vlan, IPv6 frag ext. */
};

struct rte_flow {
    struct rte_flow *next;
    uint16_t port_id;
    uint32_t mark;
    struct emu_item items[EMU_MAX_ITEMS];
    int n_items;
    uint64_t hits;
};

static pthread_mutex_t emu_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rte_flow *emu_rules;     /* Newest first. */
static unsigned int emu_n_rules;        /* Atomic: for the RX callback. */
static bool emu_cb_installed[EMU_MAX_PORTS][RTE_MAX_QUEUES_PER_PORT];

static void
emu_log(const char *fmt, uint16_t port, uint32_t mark)
{
    const char *file = getenv("DPS_NICEMU_LOG");
    FILE *f = file ? fopen(file, "a") : NULL;

    if (f) {
        fprintf(f, fmt, port, mark);
        fputc('\n', f);
        fclose(f);
    }
}

static int
emu_error(struct rte_flow_error *error, int code, int type, const char *msg)
{
    return rte_flow_error_set(error, code, type, NULL, msg);
}

static size_t
item_hdr_size(enum rte_flow_item_type type)
{
    switch (type) {
    case RTE_FLOW_ITEM_TYPE_ETH: return sizeof(struct rte_ether_hdr);
    case RTE_FLOW_ITEM_TYPE_VLAN: return sizeof(struct rte_vlan_hdr);
    case RTE_FLOW_ITEM_TYPE_IPV4: return sizeof(struct rte_ipv4_hdr);
    case RTE_FLOW_ITEM_TYPE_IPV6: return sizeof(struct rte_ipv6_hdr);
    case RTE_FLOW_ITEM_TYPE_TCP: return sizeof(struct rte_tcp_hdr);
    case RTE_FLOW_ITEM_TYPE_UDP: return sizeof(struct rte_udp_hdr);
    case RTE_FLOW_ITEM_TYPE_SCTP: return sizeof(struct rte_sctp_hdr);
    case RTE_FLOW_ITEM_TYPE_ICMP: return sizeof(struct rte_icmp_hdr);
    case RTE_FLOW_ITEM_TYPE_ICMP6: return 4;
    default: return 0;
    }
}

/* Checks 'attr', 'pattern' and 'actions'; fills 'rule' if nonnull. */
static int
emu_parse(uint16_t port_id, const struct rte_flow_attr *attr,
          const struct rte_flow_item pattern[],
          const struct rte_flow_action actions[], struct rte_flow *rule,
          struct rte_flow_error *error)
{
    struct rte_flow r;

    memset(&r, 0, sizeof r);
    r.port_id = port_id;
    if (!rte_eth_dev_is_valid_port(port_id) || port_id >= EMU_MAX_PORTS) {
        return emu_error(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
                         "no such port");
    }
    if (!attr || !attr->ingress || attr->egress || attr->transfer
        || attr->group) {
        return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR,
                         "only ingress rules in group 0");
    }
    for (const struct rte_flow_item *it = pattern;
         it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
        size_t size = item_hdr_size(it->type);

        if (!size || r.n_items >= EMU_MAX_ITEMS) {
            return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM,
                             "item not supported");
        }
        if (it->last) {
            return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST,
                             "ranges not supported");
        }
        struct emu_item *ei = &r.items[r.n_items++];
        ei->type = it->type;
        if (it->spec) {
            memcpy(ei->spec, it->spec, size);
        }
        if (it->mask) {
            memcpy(ei->mask, it->mask, size);
        } else if (it->spec) {
            memset(ei->mask, 0xff, size);
        }
        if (it->type == RTE_FLOW_ITEM_TYPE_ETH) {
            const struct rte_flow_item_eth *s = it->spec, *m = it->mask;
            ei->has_flag_spec = s && s->has_vlan;
            ei->has_flag_mask = m && m->has_vlan;
        } else if (it->type == RTE_FLOW_ITEM_TYPE_IPV6) {
            const struct rte_flow_item_ipv6 *s = it->spec, *m = it->mask;
            ei->has_flag_spec = s && s->has_frag_ext;
            ei->has_flag_mask = m && m->has_frag_ext;
        }
    }

    bool mark = false, fate = false;
    for (const struct rte_flow_action *a = actions;
         a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
        if (a->type == RTE_FLOW_ACTION_TYPE_MARK) {
            r.mark = ((const struct rte_flow_action_mark *) a->conf)->id;
            mark = true;
        } else if (a->type == RTE_FLOW_ACTION_TYPE_RSS) {
            const struct rte_flow_action_rss *rss = a->conf;
            const char *no_rss = getenv("DPS_NICEMU_NO_RSS");

            if (no_rss && !strcmp(no_rss, "1")) {
                return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
                                 "RSS action refused (DPS_NICEMU_NO_RSS)");
            }
            struct rte_eth_dev_info info;
            if (rte_eth_dev_info_get(port_id, &info)) {
                return emu_error(error, ENODEV,
                                 RTE_FLOW_ERROR_TYPE_UNSPECIFIED, "no info");
            }
            for (uint32_t i = 0; i < rss->queue_num; i++) {
                if (rss->queue[i] >= info.nb_rx_queues) {
                    return emu_error(error, EINVAL,
                                     RTE_FLOW_ERROR_TYPE_ACTION_CONF,
                                     "RSS queue out of range");
                }
            }
            fate = true;
        } else if (a->type == RTE_FLOW_ACTION_TYPE_QUEUE) {
            fate = true;
        } else {
            return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
                             "action not supported");
        }
    }
    if (!mark || !fate) {
        return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
                         "MARK with RSS or QUEUE expected");
    }
    if (rule) {
        *rule = r;
    }
    return 0;
}

static bool
masked_equal(const uint8_t *pkt, const struct emu_item *ei, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        if ((pkt[i] & ei->mask[i]) != (ei->spec[i] & ei->mask[i])) {
            return false;
        }
    }
    return true;
}

/* True if the packet at 'data' ('len' bytes) matches 'r'. */
static bool
emu_match(const struct rte_flow *r, const uint8_t *data, uint32_t len)
{
    uint32_t ofs = 0;
    uint16_t type = 0;
    uint8_t proto = 0;
    bool is_vlan_outer = false;

    if (len < sizeof(struct rte_ether_hdr)) {
        return false;
    }
    type = (data[12] << 8) | data[13];
    is_vlan_outer = type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ;
    for (int i = 0; i < r->n_items; i++) {
        const struct emu_item *ei = &r->items[i];
        size_t size = item_hdr_size(ei->type);

        switch (ei->type) {
        case RTE_FLOW_ITEM_TYPE_ETH:
            if (!masked_equal(data, ei, size)
                || (ei->has_flag_mask
                    && is_vlan_outer != ei->has_flag_spec)) {
                return false;
            }
            ofs = sizeof(struct rte_ether_hdr);
            continue;
        case RTE_FLOW_ITEM_TYPE_VLAN:
            if (type != RTE_ETHER_TYPE_VLAN && type != RTE_ETHER_TYPE_QINQ) {
                return false;
            }
            if (ofs + size > len || !masked_equal(data + ofs, ei, size)) {
                return false;
            }
            type = (data[ofs + 2] << 8) | data[ofs + 3];
            ofs += size;
            continue;
        default:
            break;
        }

        /* L3 and L4 items: past any tag the rule did not name. */
        while ((type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ)
               && ofs + 4 <= len) {
            type = (data[ofs + 2] << 8) | data[ofs + 3];
            ofs += 4;
        }
        if (ofs + size > len) {
            return false;
        }
        const uint8_t *h = data + ofs;
        switch (ei->type) {
        case RTE_FLOW_ITEM_TYPE_IPV4:
            if (type != RTE_ETHER_TYPE_IPV4 || (h[0] >> 4) != 4
                || !masked_equal(h, ei, size)) {
                return false;
            }
            proto = h[9];
            ofs += (h[0] & 0xf) * 4;
            type = 0;
            break;
        case RTE_FLOW_ITEM_TYPE_IPV6:
            if (type != RTE_ETHER_TYPE_IPV6 || (h[0] >> 4) != 6
                || !masked_equal(h, ei, size)
                || (ei->has_flag_mask
                    && (h[6] == IPPROTO_FRAGMENT) != ei->has_flag_spec)) {
                return false;
            }
            proto = h[6];
            ofs += size;
            type = 0;
            break;
        case RTE_FLOW_ITEM_TYPE_TCP:
        case RTE_FLOW_ITEM_TYPE_UDP:
        case RTE_FLOW_ITEM_TYPE_SCTP:
        case RTE_FLOW_ITEM_TYPE_ICMP:
        case RTE_FLOW_ITEM_TYPE_ICMP6: {
            static const uint8_t protos[] = {
                [RTE_FLOW_ITEM_TYPE_TCP] = IPPROTO_TCP,
                [RTE_FLOW_ITEM_TYPE_UDP] = IPPROTO_UDP,
                [RTE_FLOW_ITEM_TYPE_SCTP] = IPPROTO_SCTP,
                [RTE_FLOW_ITEM_TYPE_ICMP] = IPPROTO_ICMP,
                [RTE_FLOW_ITEM_TYPE_ICMP6] = IPPROTO_ICMPV6,
            };
            if (proto != protos[ei->type] || !masked_equal(h, ei, size)) {
                return false;
            }
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

static uint16_t
emu_rx_cb(uint16_t port_id, uint16_t queue, struct rte_mbuf *pkts[],
          uint16_t nb_pkts, uint16_t max_pkts, void *aux)
{
    (void) queue;
    (void) max_pkts;
    (void) aux;
    if (!nb_pkts || !__atomic_load_n(&emu_n_rules, __ATOMIC_ACQUIRE)) {
        return nb_pkts;
    }
    pthread_mutex_lock(&emu_mutex);
    for (uint16_t i = 0; i < nb_pkts; i++) {
        struct rte_mbuf *m = pkts[i];
        const uint8_t *data = rte_pktmbuf_mtod(m, const uint8_t *);

        for (struct rte_flow *r = emu_rules; r; r = r->next) {
            if (r->port_id == port_id && emu_match(r, data, m->data_len)) {
                m->hash.fdir.hi = r->mark;
                m->ol_flags |= RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID;
                r->hits++;
                break;
            }
        }
    }
    pthread_mutex_unlock(&emu_mutex);
    return nb_pkts;
}

/* Installs the RX callback on every rx queue of 'port_id' that does not
 * have it yet.  Caller holds emu_mutex. */
static void
emu_install_callbacks(uint16_t port_id)
{
    struct rte_eth_dev_info info;

    if (rte_eth_dev_info_get(port_id, &info)) {
        return;
    }
    for (uint16_t q = 0; q < info.nb_rx_queues
                         && q < RTE_MAX_QUEUES_PER_PORT; q++) {
        if (!emu_cb_installed[port_id][q]
            && rte_eth_add_rx_callback(port_id, q, emu_rx_cb, NULL)) {
            emu_cb_installed[port_id][q] = true;
        }
    }
}

int
rte_flow_validate(uint16_t port_id, const struct rte_flow_attr *attr,
                  const struct rte_flow_item pattern[],
                  const struct rte_flow_action actions[],
                  struct rte_flow_error *error)
{
    return emu_parse(port_id, attr, pattern, actions, NULL, error);
}

struct rte_flow *
rte_flow_create(uint16_t port_id, const struct rte_flow_attr *attr,
                const struct rte_flow_item pattern[],
                const struct rte_flow_action actions[],
                struct rte_flow_error *error)
{
    struct rte_flow *r = calloc(1, sizeof *r);

    if (!r) {
        emu_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_HANDLE, "no memory");
        return NULL;
    }
    if (emu_parse(port_id, attr, pattern, actions, r, error)) {
        free(r);
        return NULL;
    }
    pthread_mutex_lock(&emu_mutex);
    emu_install_callbacks(port_id);
    r->next = emu_rules;
    emu_rules = r;
    __atomic_add_fetch(&emu_n_rules, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&emu_mutex);
    emu_log("create port %u mark %u", port_id, r->mark);
    return r;
}

int
rte_flow_destroy(uint16_t port_id, struct rte_flow *flow,
                 struct rte_flow_error *error)
{
    pthread_mutex_lock(&emu_mutex);
    for (struct rte_flow **p = &emu_rules; *p; p = &(*p)->next) {
        if (*p == flow && flow->port_id == port_id) {
            *p = flow->next;
            __atomic_sub_fetch(&emu_n_rules, 1, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&emu_mutex);
            emu_log("destroy port %u mark %u", port_id, flow->mark);
            free(flow);
            return 0;
        }
    }
    pthread_mutex_unlock(&emu_mutex);
    return emu_error(error, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE,
                     "no such rule");
}

int
rte_flow_flush(uint16_t port_id, struct rte_flow_error *error)
{
    (void) error;
    pthread_mutex_lock(&emu_mutex);
    for (struct rte_flow **p = &emu_rules; *p; ) {
        struct rte_flow *r = *p;

        if (r->port_id == port_id) {
            *p = r->next;
            __atomic_sub_fetch(&emu_n_rules, 1, __ATOMIC_RELEASE);
            free(r);
        } else {
            p = &r->next;
        }
    }
    pthread_mutex_unlock(&emu_mutex);
    return 0;
}

int
rte_flow_query(uint16_t port_id, struct rte_flow *flow,
               const struct rte_flow_action *action, void *data,
               struct rte_flow_error *error)
{
    (void) port_id;
    if (action->type == RTE_FLOW_ACTION_TYPE_COUNT && data) {
        struct rte_flow_query_count *c = data;

        pthread_mutex_lock(&emu_mutex);
        c->hits_set = 1;
        c->hits = flow->hits;
        c->bytes_set = 0;
        pthread_mutex_unlock(&emu_mutex);
        return 0;
    }
    return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
                     "only COUNT queries");
}
