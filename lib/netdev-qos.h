/* netdev-qos: the policers of a port, on DPDK's rte_meter.
 *
 * Egress, one of the QoS types of Open vSwitch's userspace datapath (the
 * Port's QoS row):
 *
 *   egress-policer  one single-rate token bucket: other_config "cir" (bytes
 *                   per second) and "cbs" (bytes); a packet that finds too
 *                   few tokens is dropped.
 *   trtcm-policer   RFC 4115's two-rate, three-colour marker in two levels:
 *                   each queue (Queue rows: cir, cbs, eir, ebs) marks its
 *                   packets colour-blind, then the port's meter (the QoS
 *                   row's cir, cbs, eir, ebs) marks them again, colour-aware;
 *                   red packets are dropped.  Queue 0, the default queue,
 *                   takes the port's values when it has no Queue row.
 *
 * Ingress (Interface:ingress_policing_*): a byte meter (rate in kbit/s,
 * burst in kbit, 8000 kbit if 0) and a packet meter (kpkts/s, burst in
 * kpkts, 16 kpkts if 0), each on only when its rate is nonzero; a packet
 * passes if every meter that is on lets it through.
 *
 * Sizes, as Open vSwitch counts them, leave out the 14-byte Ethernet
 * header.
 *
 * lib/netdev.c owns one 'struct netdev_qos' per netdev of a class with
 * 'qos' set, created when something is first configured, and runs
 * netdev_qos_egress() in netdev_send() and netdev_qos_ingress() in
 * netdev_rxq_recv().
 *
 * Threads.  The configuration functions belong to the main thread.  The
 * run functions may be called by several threads at once (several tx or
 * rx queues): a port's meters are shared by all its queues, so each run
 * takes the policer's spinlock for the batch.  The lock is only taken
 * while a policer is on; a port without one pays one load per batch.
 * Configuration builds the new meters aside and swaps them in under the
 * same lock, so a run sees either the old or the new policer, whole.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_QOS_H
#define NETDEV_QOS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet_batch;
struct ds;
struct smap;

/* One Queue row of a QoS setting: its queue number and other_config. */
struct netdev_qos_queue {
    uint32_t queue_id;
    const struct smap *details;
};

struct netdev_qos *netdev_qos_create(void);
void netdev_qos_destroy(struct netdev_qos *);

/* Appends the egress QoS types, one "QoS type: TYPE\n" line each. */
void netdev_qos_format_types(struct ds *);
bool netdev_qos_is_type(const char *type);

int netdev_qos_set(struct netdev_qos *, const char *type,
                   const struct smap *details,
                   const struct netdev_qos_queue *queues, size_t n_queues);
void netdev_qos_format(const struct netdev_qos *, const char *iface_name,
                       struct ds *);

int netdev_qos_set_policing(struct netdev_qos *, uint32_t kbits_rate,
                            uint32_t kbits_burst, uint32_t kpkts_rate,
                            uint32_t kpkts_burst);

/* The fast path. */
size_t netdev_qos_egress(struct netdev_qos *, struct dp_packet_batch *);
size_t netdev_qos_ingress(struct netdev_qos *, struct dp_packet_batch *);
static inline bool netdev_qos_egress_on(const struct netdev_qos *);
static inline bool netdev_qos_ingress_on(const struct netdev_qos *);

void netdev_qos_get_drops(const struct netdev_qos *, uint64_t *tx_drops,
                          uint64_t *rx_drops);

/* Implementation details. */

/* The part of 'struct netdev_qos' the fast path tests without the lock. */
struct netdev_qos_flags {
    bool egress_on;                     /* Atomic. */
    bool ingress_on;                    /* Atomic. */
};

/* True if 'qos' (nonnull) has an egress policer. */
static inline bool
netdev_qos_egress_on(const struct netdev_qos *qos)
{
    const struct netdev_qos_flags *flags = (const void *) qos;
    return __atomic_load_n(&flags->egress_on, __ATOMIC_RELAXED);
}

/* True if 'qos' (nonnull) has an ingress policer. */
static inline bool
netdev_qos_ingress_on(const struct netdev_qos *qos)
{
    const struct netdev_qos_flags *flags = (const void *) qos;
    return __atomic_load_n(&flags->ingress_on, __ATOMIC_RELAXED);
}

#endif /* netdev-qos.h */
