/* netdev-dpdk: the "dpdk" port type, a DPDK ethdev chosen by
 * options:dpdk-devargs (a PCI address or a virtual device string such as
 * "net_null0", "net_ring0", "net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap",
 * "net_tap0,iface=tap0", "net_af_packet0,iface=veth0").
 *
 * ovs-vswitchd calls netdev_dpdk_register() once, after dpdk_init() and
 * before it opens any port.  It registers the "dpdk" class only when the full
 * EAL is up (dpdk_available()); otherwise it does nothing, and a "dpdk"
 * Interface then gets the generic "unsupported type" error.  It also
 * registers the unixctl commands netdev-dpdk/detach,
 * netdev-dpdk/set-admin-state and netdev-dpdk/get-mempool-info.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_DPDK_H
#define NETDEV_DPDK_H 1

#include <stdbool.h>

struct netdev;

void netdev_dpdk_register(void);

/* For the rte_flow flow API (lib/netdev-offload-dpdk.c): true if 'netdev'
 * is a "dpdk" port; its DPDK port id, or -1 if it has no device yet. */
bool netdev_dpdk_is_dpdk(const struct netdev *);
int netdev_dpdk_get_port_id(const struct netdev *);

#endif /* netdev-dpdk.h */
