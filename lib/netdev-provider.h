/* netdev-provider: the interface every port type implements.
 *
 * A port type ("dummy", "dummy-pmd", "internal", "dpdk", "dpdkvhostuser",
 * "dpdkvhostuserclient") is a 'struct netdev_class', registered once with
 * netdev_register_class().  Each type's code lives in one file
 * (lib/netdev-dummy.c, lib/netdev-dpdk.c, lib/netdev-vhost.c) and reaches
 * the rest of dpswitch only through this interface and lib/netdev.h.
 *
 * Objects.  A class allocates its own object that embeds 'struct netdev'
 * first ('alloc' / 'construct' / 'destruct' / 'dealloc', the same for
 * 'struct netdev_rxq').  lib/netdev.c owns the generic fields.
 *
 * Reconfiguration.  Settings that change queues or memory (n_rxq, n_txq,
 * MTU, a vhost device appearing) are not applied by 'set_config' directly:
 * the class records them as requested and calls netdev_request_reconfigure().
 * The datapath notices (netdev_is_reconf_required()), stops every thread
 * that polls or transmits on the netdev, closes its rx queues, calls
 * 'reconfigure', reopens the queues and resumes.  'reconfigure' therefore
 * runs with no concurrent 'rxq_recv' or 'send' on the netdev.
 *
 * Threads.  'rxq_recv' is called by the one thread that polls the queue.
 * 'send' may be called by several threads: on distinct 'qid's without
 * locking when the datapath passes concurrent_txq == false, on a shared
 * 'qid' (the class must lock) when it passes true.  Every other slot is
 * called from the main thread only, unless its comment says otherwise.
 * Callbacks from DPDK threads (vhost) may only call
 * netdev_request_reconfigure() and netdev_change_seq_changed().
 *
 * Errors are positive errno values; 'char **errp' slots return a
 * malloc()ed message for Interface:error in the same call.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_PROVIDER_H
#define NETDEV_PROVIDER_H 1

#include <stdbool.h>
#include <stdint.h>
#include "netdev.h"

struct dp_packet_batch;
struct smap;

/* Generic part of every netdev.  Classes read these; lib/netdev.c writes
 * them unless a comment says otherwise. */
struct netdev {
    char *name;
    const struct netdev_class *netdev_class;
    int ref_cnt;

    /* Queue counts the netdev has now.  The class sets them in 'construct'
     * and 'reconfigure'. */
    int n_rxq;
    int n_txq;

    /* Set by netdev_request_reconfigure(), cleared by netdev_reconfigure(). */
    bool reconf_required;               /* Atomic. */

    /* Bumped (netdev_change_seq_changed()) when link state, status or
     * statistics worth writing to the database changed. */
    uint64_t change_seq;                /* Atomic. */

    /* Transmit-side policy, decided by lib/netdev.c from the class's
     * 'get_tx_caps' (NETDEV_TX_*) after 'construct', 'set_config' and
     * 'reconfigure', and applied by netdev_send().  Atomic. */
    uint32_t tx_caps;

    /* Counted by netdev_send() for packets it had to drop before the class
     * saw them (a chain the port cannot take and for which no single buffer
     * could be had).  Reported as Interface:statistics:
     * ovs_tx_linearize_drops, and part of tx_dropped. */
    uint64_t tx_linearize_drops;        /* Atomic. */

    /* Chains for a port without NETDEV_TX_MULTI_SEG that do not fit in one
     * segment of their own pool: netdev_send() passes those longer than
     * 'tx_copy_max' (if nonzero) on unchanged, for the class to drop as
     * longer than its MTU allows (it must), and copies the others into one
     * mbuf of 'tx_copy_pool'; with no pool it drops and counts them.  The
     * class sets 'tx_copy_pool' in 'construct' or 'reconfigure', and
     * 'tx_copy_max' there or (atomically) when its MTU changes. */
    struct rte_mempool *tx_copy_pool;
    uint32_t tx_copy_max;               /* Atomic. */

    /* Packets netdev_send() dropped because a partial checksum could not
     * be completed (lib/dp-packet-csum.h).  Reported as
     * Interface:statistics:ovs_tx_invalid_hwol_drops. */
    uint64_t tx_csum_drops;             /* Atomic. */

    /* The port's policers (lib/netdev-qos.h), for a class with 'has_qos':
     * created by lib/netdev.c when QoS or ingress policing is first set,
     * freed with the netdev.  NULL until then.  Atomic pointer. */
    struct netdev_qos *qos;
};

struct netdev_rxq {
    struct netdev *netdev;
    int queue_id;
};

struct netdev_class {
    /* The Interface:type value, e.g. "dummy-pmd". */
    const char *type;

    /* True if this type's receive queues are polled by PMD threads; false
     * if the main thread polls them (and 'rxq_wait' must then be
     * implemented). */
    bool is_pmd;

    /* True if lib/netdev.c is to run the policers of lib/netdev-qos.h on
     * this class's ports (Port:qos of type egress-policer or trtcm-policer,
     * Interface:ingress_policing_*): in netdev_send(), before 'send', and
     * in netdev_rxq_recv(), after 'rxq_recv'.  The class only reports the
     * drops, which netdev_get_custom_stats() adds to its
     * ovs_tx_qos_drops and ovs_rx_qos_drops (or adds those counters). */
    bool has_qos;

    /* Optional.  Called once, on registration. */
    int (*init)(void);

    /* Life cycle.  'construct' may fail (the netdev is then freed with
     * 'dealloc' alone); it must leave at least one rx and one tx queue. */
    struct netdev *(*alloc)(void);
    int (*construct)(struct netdev *);
    void (*destruct)(struct netdev *);
    void (*dealloc)(struct netdev *);

    /* Applies Interface:options.  Unknown keys and bad values are errors:
     * return EINVAL and a message in '*errp'.  Queue and memory changes are
     * requested, not applied (see "Reconfiguration" above).  Optional: a
     * class without it accepts only empty options. */
    int (*set_config)(struct netdev *, const struct smap *options,
                      char **errp);

    /* Optional.  Current options (for dpif/show), e.g. "n_rxq" for a
     * multiqueue port. */
    int (*get_config)(const struct netdev *, struct smap *);

    /* Applies what was requested.  See "Reconfiguration" above.  Optional
     * for classes that never request it. */
    int (*reconfigure)(struct netdev *, char **errp);

    /* Transmits the packets of 'batch' on tx queue 'qid' (0 <= qid <
     * n_txq), taking ownership of every packet: sent or freed, and the
     * drops counted in the netdev's statistics.  The batch is empty on
     * return.  netdev_send() has already completed checksums the port
     * cannot offload and made chains linear for a port without
     * NETDEV_TX_MULTI_SEG. */
    int (*send)(struct netdev *, int qid, struct dp_packet_batch *,
                bool concurrent_txq);

    /* Optional.  For classes that hold packets back to send them in bursts
     * (vhost-user): sends what queue 'qid' holds.  The datapath calls it at
     * the end of each polling iteration for queues it sent to, and when
     * other_config:tx-flush-interval expires.  Returns the number of
     * packets still held. */
    int (*flush)(struct netdev *, int qid, bool concurrent_txq);

    /* Ethernet address, MTU, link. */
    int (*set_etheraddr)(struct netdev *, const struct eth_addr *);
    int (*get_etheraddr)(const struct netdev *, struct eth_addr *);
    int (*get_mtu)(const struct netdev *, int *mtu);
    int (*set_mtu)(struct netdev *, int mtu, char **errp);  /* Optional. */
    int (*get_carrier)(const struct netdev *, bool *carrier);
    long long int (*get_carrier_resets)(const struct netdev *); /* Opt. */
    int (*get_speed)(const struct netdev *, uint32_t *mbps); /* Optional. */

    /* Administrative state (NETDEV_UP): turns 'off' then 'on' and returns
     * the previous flags in '*old'. */
    int (*update_flags)(struct netdev *, enum netdev_flags off,
                        enum netdev_flags on, enum netdev_flags *old);

    /* Statistics.  'stats' arrives with every member UINT64_MAX
     * ("unsupported"); set those the port has.  Called from the main
     * thread while other threads send and receive: read counters
     * atomically. */
    int (*get_stats)(const struct netdev *, struct netdev_stats *);

    /* Optional.  More counters (per-queue, xstats, ovs_tx_retries...), in
     * the order they should be shown. */
    int (*get_custom_stats)(const struct netdev *,
                            struct netdev_custom_stats *);

    /* Optional.  Interface:status keys. */
    int (*get_status)(const struct netdev *, struct smap *);

    /* Optional.  NETDEV_TX_* the port can do; 0 without it. */
    uint32_t (*get_tx_caps)(const struct netdev *);

    /* Optional.  NUMA node of the device, -1 (the default) for any. */
    int (*get_numa_id)(const struct netdev *);

    /* Optional.  The kernel's index of the device (Interface:ifindex), 0
     * (the default) for a port with no kernel device. */
    int (*get_ifindex)(const struct netdev *);

    /* Optional.  A malloc()ed description of a problem the port has while
     * open (a kernel device that went away, a fallback), for
     * Interface:error, or NULL.  Call netdev_change_seq_changed() when it
     * changes. */
    char *(*get_error)(const struct netdev *);

    /* Receive queues. */
    struct netdev_rxq *(*rxq_alloc)(void);
    int (*rxq_construct)(struct netdev_rxq *);
    void (*rxq_destruct)(struct netdev_rxq *);
    void (*rxq_dealloc)(struct netdev_rxq *);

    /* Receives up to DP_PACKET_BATCH_SIZE packets into the empty 'batch'.
     * Returns 0 if it received at least one, EAGAIN if there was none,
     * another errno on error.  Sets each packet's checksum states from the
     * device's report (unknown when it has none) and, if 'qfill' is
     * nonnull, '*qfill' to the packets still queued or -1 if unknown. */
    int (*rxq_recv)(struct netdev_rxq *, struct dp_packet_batch *,
                    int *qfill);

    /* For classes polled by the main thread: arranges for poll_block() to
     * wake up when 'rxq_recv' would receive something. */
    void (*rxq_wait)(struct netdev_rxq *);

    /* Optional hardware offload (rte_flow) interface; NULL if the port
     * has no flow API.  See lib/netdev-offload.h. */
    const struct netdev_flow_api *flow_api;

    /* Optional.  The datapath asks for 'n_txq' (>= 1) tx queues, one per
     * thread that sends on the netdev.  The class records the request and,
     * if its queue count must change, calls netdev_request_reconfigure();
     * 'reconfigure' then sets n_txq (possibly lower: the datapath passes
     * concurrent_txq == true to 'send' when n_txq is lower than the number
     * of its sending threads).  Without it the class keeps its count. */
    int (*set_tx_multiq)(struct netdev *, int n_txq);
};

/* For classes. */
void netdev_register_class(const struct netdev_class *);
void netdev_request_reconfigure(struct netdev *);
void netdev_change_seq_changed(struct netdev *);

#endif /* netdev-provider.h */
