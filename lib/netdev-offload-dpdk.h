/* netdev-offload-dpdk: the "dpdk_flow_api" flow API of dpdk ports (rte_flow).
 *
 * A megaflow becomes one rte_flow rule on the device of its input port:
 * pattern ETH [/ VLAN] [/ IPV4 | IPV6 [/ TCP | UDP | SCTP | ICMP | ICMP6]]
 * with exact specs and masks, actions MARK + RSS over the port's rx queues
 * or, when the device refuses RSS, MARK + QUEUE (the queue that received
 * the packet that caused the upcall).  A masked bit that no item can
 * express (ARP and ND fields, a second VLAN tag, IP fragments other than
 * "not a fragment", recirculation...) means the flow is not offloaded: the
 * translation says why.  When the device refuses a rule, the rule is
 * logged in testpmd's "flow create" syntax so that an operator can replay
 * it.
 *
 * The translation is pure and public for the golden tests.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_OFFLOAD_DPDK_H
#define NETDEV_OFFLOAD_DPDK_H 1

#include <stdint.h>
#include <rte_flow.h>

struct ds;
struct netdev_offload_match;

#define NETDEV_OFFLOAD_DPDK_MAX_ITEMS 6
#define NETDEV_OFFLOAD_DPDK_MAX_QUEUES 128

/* A pattern with the storage of its specs and masks. */
struct netdev_offload_dpdk_pattern {
    struct rte_flow_item items[NETDEV_OFFLOAD_DPDK_MAX_ITEMS];
    size_t n_items;                     /* END included. */
    struct rte_flow_item_eth eth_spec, eth_mask;
    struct rte_flow_item_vlan vlan_spec, vlan_mask;
    struct rte_flow_item_ipv4 ipv4_spec, ipv4_mask;
    struct rte_flow_item_ipv6 ipv6_spec, ipv6_mask;
    union {
        struct rte_flow_item_tcp tcp;
        struct rte_flow_item_udp udp;
        struct rte_flow_item_sctp sctp;
        struct rte_flow_item_icmp icmp;
        struct rte_flow_item_icmp6 icmp6;
    } l4_spec, l4_mask;
};

/* Actions with their configurations. */
struct netdev_offload_dpdk_actions {
    struct rte_flow_action actions[3];
    struct rte_flow_action_mark mark;
    struct rte_flow_action_rss rss;
    struct rte_flow_action_queue queue;
    uint16_t queues[NETDEV_OFFLOAD_DPDK_MAX_QUEUES];
};

/* Translates 'match' into 'pattern'.  Returns 0, or EOPNOTSUPP with the
 * reason appended to 'reason' (if nonnull). */
int netdev_offload_dpdk_translate(const struct netdev_offload_match *,
                                  struct netdev_offload_dpdk_pattern *,
                                  struct ds *reason);

/* MARK 'mark' + RSS over queues 0 .. 'n_rxq' - 1 (default hash, IP, TCP
 * and UDP types), or MARK + QUEUE 'queue'. */
void netdev_offload_dpdk_actions_rss(struct netdev_offload_dpdk_actions *,
                                     uint32_t mark, int n_rxq);
void netdev_offload_dpdk_actions_queue(struct netdev_offload_dpdk_actions *,
                                       uint32_t mark, int queue);

/* Appends the rule as testpmd's "flow create PORT ingress pattern ... / end
 * actions ... / end". */
void netdev_offload_dpdk_format(struct ds *, uint16_t port_id,
                                const struct rte_flow_item *,
                                const struct rte_flow_action *);

#endif /* netdev-offload-dpdk.h */
