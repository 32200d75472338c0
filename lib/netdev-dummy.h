/* netdev-dummy: software ports for tests and for the bridge's local port.
 *
 * Types (registered by netdev_dummy_register(), see lib/netdev.h):
 *
 *   "dummy", "dummy-internal"  rx queues polled by the main thread.
 *   "dummy-pmd"                rx queues polled by PMD threads;
 *                              options:n_rxq (default 1), options:n_txq.
 *   "internal"                 the bridge's local port.  In dpswitch it has
 *                              no kernel device: it behaves as "dummy".
 *
 * With NETDEV_DUMMY_OVERRIDE, "system", "tap" and "dpdk" ports become
 * dummy ones too ("dpdk" as "dummy-pmd"), for tests.
 *
 * Each port has the Ethernet address aa:55:aa:55:XX:YY (XX:YY a counter),
 * MTU 1500 (settable), carrier up, admin state up, rx/tx packet, byte and
 * drop counters, and per-queue receive queues that any thread may fill and
 * the polling thread empties.  Options: n_rxq, n_txq, numa_id, pcap (both
 * directions), rxq_pcap, tx_pcap, and the transmit capabilities
 * ol_ip_csum, ol_tcp_csum, ol_udp_csum, ol_sctp_csum, ol_multi_seg
 * (booleans, default false), ifindex (accepted, as Open vSwitch's tests
 * set it for offloads), and pstream=punix:PATH or stream=unix:PATH, which
 * link the port to other dummy ports over a Unix domain socket, Open
 * vSwitch's among them (see "Stream links" in netdev-dummy.c).  Unknown
 * options are errors.
 *
 * Flow API: "dummy" (lib/netdev-offload-dummy.c) on every type ("internal"
 * only when the dummy types are registered, for tests): with
 * hw-offload=true the port marks received packets that match an offloaded
 * flow, as a NIC would.
 *
 * unixctl: netdev-dummy/receive, netdev-dummy/set-admin-state,
 * netdev-dummy/conn-state (see
 * Documentation/topics/netdev.rst).
 *
 * The functions below are for tests in the same process.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_DUMMY_H
#define NETDEV_DUMMY_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;
struct netdev;

/* True if 'netdev' is one of the dummy classes (overrides included). */
bool netdev_dummy_is_dummy(const struct netdev *);

/* Queues 'packet' on rx queue 'qid' of dummy 'netdev', taking ownership.
 * The packet arrives as given, metadata and checksum states included (a
 * test may so play a device that reports checksums).  Returns 0; EINVAL if
 * 'netdev' is not a dummy or 'qid' is out of range, ENOBUFS if the queue is
 * full (the packet is then freed and counted in rx_dropped).  Any thread. */
int netdev_dummy_queue_packet(struct netdev *, int qid, struct dp_packet *);

/* Keeps the last 'n' packets sent on 'netdev' in memory (0, the default,
 * keeps none and frees what was kept).  Older ones are freed. */
void netdev_dummy_set_keep_sent(struct netdev *, size_t n);

/* Removes and returns the oldest packet kept by netdev_dummy_set_keep_sent()
 * (the caller owns it), or NULL if there is none.  Any thread. */
struct dp_packet *netdev_dummy_pop_sent(struct netdev *);

/* Sets the NETDEV_TX_* capabilities of dummy 'netdev' at once, as the
 * ol_* options would. */
void netdev_dummy_set_tx_caps(struct netdev *, uint32_t caps);

/* Makes netdev-dummy/receive build its packets from 'pool' (NULL: from
 * dpdk_default_pool(), the default), for tests that run without
 * dpdk_init(). */
struct rte_mempool;
void netdev_dummy_set_pool(struct rte_mempool *);

/* True if the "dummy" flow API may serve 'netdev'. */
bool netdev_dummy_offload_allowed(const struct netdev *);

/* The "dummy" flow API's state for 'netdev' (NULL if none, or if 'netdev'
 * is not a dummy), and its setter.  For lib/netdev-offload-dummy.c. */
struct netdev_offload_dummy_port;
struct netdev_offload_dummy_port *netdev_dummy_get_offload_port(
    const struct netdev *);
void netdev_dummy_set_offload_port(struct netdev *,
                                   struct netdev_offload_dummy_port *);

#endif /* netdev-dummy.h */
