/* netdev: network devices as the datapath and ovs-vswitchd use them.
 *
 * A netdev is opened by name and type (the Interface's 'name' and 'type'
 * columns); opening a name that is open already returns the same netdev
 * with one more reference, provided the type matches.  Port types are
 * classes (lib/netdev-provider.h) registered at start-up; see
 * netdev_register_class() and the *_register() functions of each class.
 *
 * Transmission goes through netdev_send(), which finishes what the port
 * cannot do itself before handing the packets to the class: pending
 * checksums (DESIGN.md §3) for a port without the matching NETDEV_TX_*
 * capability, and chains (dp_packet segments) for a port without
 * NETDEV_TX_MULTI_SEG, which are made linear or, when too long for one
 * segment, copied into one large buffer of the port's copy pool; only when
 * no buffer can be had are they dropped, logged and counted
 * (ovs_tx_linearize_drops, part of tx_dropped).
 *
 * Threads: see lib/netdev-provider.h.  netdev_open() and netdev_close()
 * belong to the main thread.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_H
#define NETDEV_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "packets.h"

struct dp_packet_batch;
struct ds;
struct netdev;
struct netdev_class;
struct netdev_rxq;
struct smap;

enum netdev_flags {
    NETDEV_UP = 1 << 0,                 /* Administratively up. */
    NETDEV_PROMISC = 1 << 1,
};

/* Transmit capabilities.  The checksum bits equal DP_TX_* of
 * lib/dp-packet-csum.h, so that tx_caps can be handed to
 * dp_packet_tx_prepare() as they are. */
#define NETDEV_TX_IPV4_CSUM  0x01       /* Interface:status keys: */
#define NETDEV_TX_TCP_CSUM   0x02       /*   tx_ip_csum_offload ... */
#define NETDEV_TX_UDP_CSUM   0x04
#define NETDEV_TX_SCTP_CSUM  0x08
#define NETDEV_TX_TCP_TSO    0x10       /* tx_tcp_seg_offload: takes TCP
                                         * segments larger than the MTU
                                         * (md.tso_segsz) and cuts them
                                         * itself. */
#define NETDEV_TX_MULTI_SEG  0x100      /* Takes chained packets. */

/* Interface:statistics.  UINT64_MAX means "not supported": not written to
 * the database.  Names are the database keys. */
#define NETDEV_STATS                    \
    NETDEV_STAT(rx_packets)             \
    NETDEV_STAT(rx_bytes)               \
    NETDEV_STAT(rx_dropped)             \
    NETDEV_STAT(rx_errors)              \
    NETDEV_STAT(rx_crc_err)             \
    NETDEV_STAT(rx_frame_err)           \
    NETDEV_STAT(rx_over_err)            \
    NETDEV_STAT(rx_missed_errors)       \
    NETDEV_STAT(tx_packets)             \
    NETDEV_STAT(tx_bytes)               \
    NETDEV_STAT(tx_dropped)             \
    NETDEV_STAT(tx_errors)              \
    NETDEV_STAT(collisions)             \
    NETDEV_STAT(multicast)

struct netdev_stats {
#define NETDEV_STAT(NAME) uint64_t NAME;
    NETDEV_STATS
#undef NETDEV_STAT
};

/* Extra counters: per-queue counters, device xstats, ovs_tx_retries... */
struct netdev_custom_counter {
    char name[64];
    uint64_t value;
};

struct netdev_custom_stats {
    struct netdev_custom_counter *counters;     /* malloc()ed. */
    size_t n;
};

void netdev_custom_stats_add(struct netdev_custom_stats *, const char *name,
                             uint64_t value);
void netdev_custom_stats_destroy(struct netdev_custom_stats *);

/* Registration of the built-in classes.  ovs-vswitchd calls these before
 * it opens anything; netdev_dummy_register() takes
 * --enable-dummy[=override]: OFF registers nothing (netdev_linux_register()
 * then makes "internal" a tap device); ON registers a dummy "internal",
 * "dummy", "dummy-pmd" and "dummy-internal";
 * OVERRIDE also makes "system" and "tap" ports "dummy" ones and "dpdk"
 * ports "dummy-pmd" ones, for tests (netdev_class_override()).  See
 * lib/netdev-dummy.h. */
enum netdev_dummy_mode {
    NETDEV_DUMMY_OFF,
    NETDEV_DUMMY_ON,
    NETDEV_DUMMY_OVERRIDE,
};
void netdev_dummy_register(enum netdev_dummy_mode);
bool netdev_is_type_supported(const char *type);
void netdev_get_types(struct ds *);     /* "a b c", sorted. */
void netdev_class_override(const char *type, const char *as_type);

/* The state argument of the providers' set-admin-state commands
 * (netdev-dpdk/set-admin-state, netdev-dummy/set-admin-state [NETDEV]
 * up|down): the last of 'argv', "up" or "down" in any case.  Stores it in
 * '*up' and returns true, or replies "Invalid Admin State" to 'conn' (as
 * Open vSwitch does) and returns false. */
struct unixctl_conn;
bool netdev_parse_admin_state(struct unixctl_conn *conn, int argc,
                              const char *argv[], bool *up);

/* Opening and closing. */
int netdev_open(const char *name, const char *type, struct netdev **,
                char **errp) DPS_WARN_UNUSED_RESULT;
struct netdev *netdev_ref(struct netdev *);
void netdev_close(struct netdev *);
const char *netdev_get_name(const struct netdev *);
const char *netdev_get_type(const struct netdev *);
bool netdev_is_pmd(const struct netdev *);

/* Lookup: the open netdev called 'name' with one more reference, or NULL;
 * and every open netdev of 'class' (NULL: all), each with one more
 * reference, in a malloc()ed array; returns the count. */
struct netdev *netdev_from_name(const char *name);
size_t netdev_get_open(const struct netdev_class *, struct netdev ***);

/* Configuration. */
int netdev_set_config(struct netdev *, const struct smap *options,
                      char **errp) DPS_WARN_UNUSED_RESULT;
int netdev_get_config(const struct netdev *, struct smap *);
bool netdev_is_reconf_required(const struct netdev *);
int netdev_reconfigure(struct netdev *, char **errp);
uint64_t netdev_reconf_seq(void);       /* Any netdev requested. */
void netdev_reconf_wait(uint64_t seq);  /* poll_block() wakes on change. */
uint64_t netdev_get_change_seq(const struct netdev *);

int netdev_n_rxq(const struct netdev *);
int netdev_n_txq(const struct netdev *);
int netdev_get_numa_id(const struct netdev *);
int netdev_get_ifindex(const struct netdev *);
char *netdev_get_error(const struct netdev *);  /* malloc()ed or NULL. */

/* The datapath asks for 'n_txq' tx queues (the number of threads that send
 * on the netdev at once).  The class may grant fewer, after a
 * reconfiguration it requests; the datapath then passes concurrent_txq ==
 * true to netdev_send().  EOPNOTSUPP if the class keeps its own count. */
int netdev_set_tx_multiq(struct netdev *, int n_txq);

/* Addresses, MTU, link. */
int netdev_set_etheraddr(struct netdev *, const struct eth_addr *);
int netdev_get_etheraddr(const struct netdev *, struct eth_addr *);
int netdev_get_mtu(const struct netdev *, int *mtu);
int netdev_set_mtu(struct netdev *, int mtu, char **errp);
int netdev_get_carrier(const struct netdev *, bool *carrier);
long long int netdev_get_carrier_resets(const struct netdev *);
int netdev_get_speed(const struct netdev *, uint32_t *mbps);
int netdev_get_flags(const struct netdev *, enum netdev_flags *);
int netdev_turn_flags_on(struct netdev *, enum netdev_flags);
int netdev_turn_flags_off(struct netdev *, enum netdev_flags);

/* Statistics and status.  netdev_get_status() adds the class's keys and
 * the generic tx_*_csum_offload keys. */
int netdev_get_stats(const struct netdev *, struct netdev_stats *);
int netdev_get_custom_stats(const struct netdev *,
                            struct netdev_custom_stats *);
int netdev_get_status(const struct netdev *, struct smap *);
uint32_t netdev_get_tx_caps(const struct netdev *);

/* Quality of service: egress QoS and ingress policing, run by
 * netdev_send() and netdev_rxq_recv() for classes with 'has_qos' (see
 * lib/netdev-qos.h for the types and their parameters).  Without it,
 * netdev_set_qos() of a type and netdev_set_policing() of a rate give
 * EOPNOTSUPP. */
struct netdev_qos_queue;
bool netdev_has_qos(const struct netdev *);
int netdev_set_qos(struct netdev *, const char *type,
                   const struct smap *details,
                   const struct netdev_qos_queue *queues, size_t n_queues);
int netdev_set_policing(struct netdev *, uint32_t kbits_rate,
                        uint32_t kbits_burst, uint32_t kpkts_rate,
                        uint32_t kpkts_burst);
void netdev_format_qos(const struct netdev *, struct ds *);
void netdev_format_qos_types(const struct netdev *, struct ds *);

/* Receive. */
int netdev_rxq_open(struct netdev *, struct netdev_rxq **, int queue_id);
void netdev_rxq_close(struct netdev_rxq *);
int netdev_rxq_recv(struct netdev_rxq *, struct dp_packet_batch *,
                    int *qfill);
void netdev_rxq_wait(struct netdev_rxq *);
struct netdev *netdev_rxq_get_netdev(const struct netdev_rxq *);
int netdev_rxq_get_queue_id(const struct netdev_rxq *);

/* Transmit.  See the comment at the top of this file and 'send' and
 * 'flush' in lib/netdev-provider.h. */
int netdev_send(struct netdev *, int qid, struct dp_packet_batch *,
                bool concurrent_txq);
int netdev_flush(struct netdev *, int qid, bool concurrent_txq);
bool netdev_has_flush(const struct netdev *);

/* For benchmarks only (tests/perf/perf-dpif csum): while true,
 * netdev_send() hands every batch to the class as it is, without the egress
 * check for pending checksums, TSO and chains, so that the check's cost can
 * be measured.  Read (relaxed atomic) once a batch, so a benchmark may flip
 * it while a PMD thread sends.  Never set it where a packet may need that
 * work. */
extern bool netdev_send_skip_egress_check;

#endif /* netdev.h */
