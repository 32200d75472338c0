/* vhost-user ports through librte_vhost.  See netdev-vhost.h.
 *
 * Threads and state.
 *
 * Four kinds of threads touch a port: the main thread (construct, options,
 * reconfigure, status, statistics), the PMD thread that polls each rx queue,
 * the threads that send on the tx queues, and DPDK's vhost thread, which
 * runs the device callbacks (new_device, destroy_device,
 * vring_state_changed).
 *
 * The callbacks only record what happened, under 'vhost_mutex', and ask for
 * a reconfiguration or bump the change sequence.  The device id the fast
 * path uses, 'vid', is published either by the reconfiguration (when the
 * queue count, the packet pool or the offloads must change first) or
 * directly by new_device (when nothing has to change).
 *
 * Every rx and tx queue has a spinlock that its user holds across each
 * burst: uncontended on rx (one poller per queue), uncontended on tx unless
 * the datapath shares a queue between threads.  destroy_device unpublishes
 * 'vid', then takes and releases every queue's lock, so that when it
 * returns to DPDK no thread is still inside an rte_vhost call with the old
 * device, and no packet is held for it.  librte_vhost only try-locks its
 * virtqueues in the burst functions, and may call destroy_device with them
 * held, so the fast path never waits on the vhost thread and the vhost
 * thread only waits for bursts to end.  The main thread never holds
 * 'vhost_mutex' or a queue lock while it calls into librte_vhost.
 *
 * Batched transmission (DESIGN.md §4).  'send' appends packets to its tx
 * queue's 'held' array and gives them to the guest when 32 are held;
 * 'flush' gives whatever is held.  The datapath calls 'flush' at the end of
 * each polling iteration for the queues it sent to, so a packet waits at
 * most one iteration.  A burst the guest does not take in full is retried
 * while it makes progress, at most tx-retries-max times; what is left is
 * dropped and counted.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev-vhost.h"
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/virtio_net.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>
#include <rte_vhost.h>
#include "coverage.h"
#include "dirs.h"
#include "dp-packet.h"
#include "dpdk.h"
#include "dynamic-string.h"
#include "netdev-provider.h"
#include "smap.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_vhost);

COVERAGE_DEFINE(vhost_tx_contention);
COVERAGE_DEFINE(vhost_notification);

/* Queue pairs a guest may use; more are left unused (and logged). */
#define VHOST_MAX_QUEUE_PAIRS 32

/* Packets held per tx queue before they are given to the guest. */
#define VHOST_TX_BURST 32

/* options:tx-retries-max. */
#define VHOST_TX_RETRIES_DEFAULT 8
#define VHOST_TX_RETRIES_MAX 32

/* Interface:mtu_request range, as Open vSwitch's DPDK ports: a frame of at
 * most 9728 bytes with two VLAN tags. */
#define VHOST_MTU_MIN 68
#define VHOST_MTU_MAX 9702

/* Bytes a frame may have beyond the MTU: the Ethernet header and room for
 * one VLAN tag (Open vSwitch allows the same). */
#define VHOST_FRAME_OVERHEAD (14 + 4)

/* Virtio features dpswitch refuses.  Partial checksums (VIRTIO_NET_F_CSUM)
 * are taken from guests and given to those that take them (GUEST_CSUM):
 * librte_vhost, in its compliant mode, reports a packet the guest left
 * with NEEDS_CSUM as RTE_MBUF_F_RX_L4_CKSUM_NONE, our "partial".  TCP
 * segments larger than the MTU (HOST_TSO4/6) only with
 * other_config:userspace-tso-enable; ECN and UFO never. */
#define VHOST_DISABLED_FEATURES                 \
    ((1ULL << VIRTIO_NET_F_HOST_ECN)            \
     | (1ULL << VIRTIO_NET_F_HOST_UFO))
#define VHOST_TSO_FEATURES                      \
    ((1ULL << VIRTIO_NET_F_HOST_TSO4)           \
     | (1ULL << VIRTIO_NET_F_HOST_TSO6))

/* Counters of dpswitch's own (Interface:statistics), in the order they are
 * shown.  The ones without a source here stay 0 here: lib/netdev.c adds the
 * policers' drops to ovs_rx_qos_drops and ovs_tx_qos_drops and its own
 * checksum drops to ovs_tx_invalid_hwol_drops. */
#define VHOST_SW_STATS                          \
    VHOST_SW_STAT(ovs_rx_qos_drops)             \
    VHOST_SW_STAT(ovs_tx_failure_drops)         \
    VHOST_SW_STAT(ovs_tx_invalid_hwol_drops)    \
    VHOST_SW_STAT(ovs_tx_mtu_exceeded_drops)    \
    VHOST_SW_STAT(ovs_tx_qos_drops)             \
    VHOST_SW_STAT(ovs_tx_retries)

/* Per-vring counters of librte_vhost ("rx_q0_size_64_packets"...) summed
 * over the port's vrings, under Open vSwitch's names (with "rx_" or "tx_"
 * in front). */
#define VHOST_VRING_SUMS                                        \
    VHOST_VRING_SUM("size_64_packets", "1_to_64_packets")       \
    VHOST_VRING_SUM("size_65_127_packets", "65_to_127_packets") \
    VHOST_VRING_SUM("size_128_255_packets", "128_to_255_packets") \
    VHOST_VRING_SUM("size_256_511_packets", "256_to_511_packets") \
    VHOST_VRING_SUM("size_512_1023_packets", "512_to_1023_packets") \
    VHOST_VRING_SUM("size_1024_1518_packets", "1024_to_1522_packets") \
    VHOST_VRING_SUM("size_1519_max_packets", "1523_to_max_packets") \
    VHOST_VRING_SUM("broadcast_packets", "broadcast_packets")   \
    VHOST_VRING_SUM("multicast_packets", "multicast_packets")

struct vhost_vring_sum_name {
    const char *dpdk_name;
    const char *ovs_name;
};

static const struct vhost_vring_sum_name vhost_vring_sum_names[] = {
#define VHOST_VRING_SUM(DPDK_NAME, OVS_NAME) { DPDK_NAME, OVS_NAME },
    VHOST_VRING_SUMS
#undef VHOST_VRING_SUM
};
#define N_VHOST_VRING_SUMS ARRAY_SIZE(vhost_vring_sum_names)

/* A receive queue: the guest's transmit vring 2 * q + 1. */
struct vhost_rxq_state {
    rte_spinlock_t lock;                /* Held across each burst. */
    uint64_t packets;                   /* Written by the poller, under */
    uint64_t bytes;                     /* 'lock'; read atomically. */
} __rte_cache_aligned;

/* A transmit queue.  Normally the guest's receive vring 2 * q; 'vring' says
 * which receive vring it uses now (another one when the guest disabled its
 * own), -1 for none. */
struct vhost_txq_state {
    rte_spinlock_t lock;                /* Protects all but 'vring'. */
    int vring;                          /* Atomic; vhost thread writes. */
    uint16_t n_held;
    struct rte_mbuf *held[VHOST_TX_BURST];

    /* Written under 'lock', read atomically. */
    uint64_t packets;
    uint64_t bytes;
    uint64_t retries;
    uint64_t failure_drops;             /* Not taken by the guest, or no
                                         * guest. */
    uint64_t mtu_drops;                 /* Larger than the MTU allows. */
} __rte_cache_aligned;

struct netdev_vhost {
    struct netdev up;

    /* Constant after construct. */
    bool client;                        /* dpdkvhostuserclient? */
    struct netdev_vhost *next;          /* In 'vhost_devs', 'vhost_mutex'. */

    /* Main thread.  The callbacks read them under 'vhost_mutex', which the
     * main thread holds to change them. */
    char *socket_path;                  /* Registered with librte_vhost. */
    int mtu;
    int requested_mtu;
    struct eth_addr mac;
    struct dpdk_mp *mp;                 /* Packet pool, once a guest came. */
    struct rte_mempool *pool;           /* dpdk_mp_pool(mp). */
    int pool_mtu;
    int pool_numa;
    uint32_t tx_caps;                   /* NETDEV_TX_*, for the guest. */

    /* Read by the fast path, written by the main thread (atomic). */
    int tx_retries_max;
    uint32_t max_packet_len;
    enum netdev_flags flags;

    /* The device the fast path uses, -1 for none.  Atomic. */
    int vid;

    /* Written by the callbacks under 'vhost_mutex'; read under it, or
     * atomically for 'vrings_enabled'. */
    int new_vid;                        /* Connected device, -1 for none. */
    int guest_qp;                       /* Its queue pairs. */
    int guest_numa;
    uint64_t guest_features;
    bool vrings_enabled[2 * VHOST_MAX_QUEUE_PAIRS];
    long long int carrier_resets;       /* Atomic. */

    struct vhost_rxq_state rxqs[VHOST_MAX_QUEUE_PAIRS];
    struct vhost_txq_state txqs[VHOST_MAX_QUEUE_PAIRS];
};

/* Every vhost netdev, for the callbacks to find theirs. */
static pthread_mutex_t vhost_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct netdev_vhost *vhost_devs;

static int vhost_new_device(int vid);
static void vhost_destroy_device(int vid);
static int vhost_vring_state_changed(int vid, uint16_t queue_id, int enable);

static const struct rte_vhost_device_ops vhost_device_ops = {
    .new_device = vhost_new_device,
    .destroy_device = vhost_destroy_device,
    .vring_state_changed = vhost_vring_state_changed,
};

static const struct netdev_class vhost_server_class;
static const struct netdev_class vhost_client_class;

static struct netdev_vhost *netdev_vhost_cast(const struct netdev *);
static void vhost_list_remove(struct netdev_vhost *);
static int vhost_register_socket(struct netdev_vhost *, const char *path,
                                 char **errp);
static void vhost_unregister_socket(struct netdev_vhost *);
static int vhost_remove_stale_socket(const char *path);
static struct netdev_vhost *vhost_find_by_vid__(int vid);
static struct netdev_vhost *vhost_find_by_ifname__(int vid);
static void vhost_remap_txqs__(struct netdev_vhost *);
static bool vhost_ready_to_publish__(const struct netdev_vhost *);
static uint32_t vhost_tx_caps_from_features(uint64_t features);
static void vhost_txq_flush(struct netdev_vhost *, struct vhost_txq_state *,
                            int vid, int vring);
static void vhost_txq_drop_held(struct vhost_txq_state *);
static void vhost_append_vring_stats(int vid, struct netdev_custom_stats *);

/* Registers the two vhost-user classes.  See netdev-vhost.h. */
void
netdev_vhost_register(void)
{
    static bool registered;

    if (!registered) {
        registered = true;
        netdev_register_class(&vhost_server_class);
        netdev_register_class(&vhost_client_class);
    }
}

/* Reads an atomic int. */
static inline int
load_int(const int *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void
store_int(int *p, int value)
{
    __atomic_store_n(p, value, __ATOMIC_RELEASE);
}

static inline uint64_t
load_u64(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Releases a queue lock with a store-release: on x86, DPDK's
 * rte_spinlock_unlock() is an xchg, a full barrier the fast path pays on
 * every burst for no benefit (taking the lock already orders it). */
static inline void
queue_unlock(rte_spinlock_t *lock)
{
    __atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

/* Adds 'n' to a counter that only the lock holder writes. */
static inline void
count(uint64_t *p, uint64_t n)
{
    __atomic_store_n(p, *p + n, __ATOMIC_RELAXED);
}

static struct netdev_vhost *
netdev_vhost_cast(const struct netdev *netdev)
{
    return (struct netdev_vhost *) netdev;
}

/* Life cycle. */

static struct netdev *
netdev_vhost_alloc(void)
{
    struct netdev_vhost *dev;

    /* The queue states are cache aligned. */
    if (posix_memalign((void **) &dev, RTE_CACHE_LINE_SIZE, sizeof *dev)) {
        util_fatal(ENOMEM, "out of memory");
    }
    memset(dev, 0, sizeof *dev);
    return &dev->up;
}

static int
netdev_vhost_construct(struct netdev *netdev)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);

    dev->client = netdev->netdev_class == &vhost_client_class;
    dev->mtu = dev->requested_mtu = 1500;
    dev->max_packet_len = dev->mtu + VHOST_FRAME_OVERHEAD;
    dev->tx_retries_max = VHOST_TX_RETRIES_DEFAULT;
    dev->flags = NETDEV_UP;
    dev->vid = dev->new_vid = -1;
    dev->guest_numa = -1;
    dev->pool_numa = -1;
    dev->tx_caps = vhost_tx_caps_from_features(0);
    for (int i = 0; i < VHOST_MAX_QUEUE_PAIRS; i++) {
        rte_spinlock_init(&dev->rxqs[i].lock);
        rte_spinlock_init(&dev->txqs[i].lock);
        dev->txqs[i].vring = -1;
    }
    netdev->n_rxq = netdev->n_txq = 1;

    pthread_mutex_lock(&vhost_mutex);
    dev->next = vhost_devs;
    vhost_devs = dev;
    pthread_mutex_unlock(&vhost_mutex);

    if (dev->client) {
        /* The socket comes with options:vhost-server-path. */
        return 0;
    }

    const char *name = netdev->name;
    if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
        VLOG_ERR("%s: a dpdkvhostuser port's name is its socket's file name "
                 "and may not contain '/'", name);
        vhost_list_remove(dev);
        return EINVAL;
    }
    const char *dir = dpdk_get_vhost_sock_dir();
    char *path = xasprintf("%s/%s", dir ? dir : dirs_rundir(), name);
    char *error_msg = NULL;
    int error = vhost_register_socket(dev, path, &error_msg);
    if (error) {
        /* A failed construct is not destructed: leave no trace. */
        VLOG_ERR("%s", error_msg);
        free(error_msg);
        vhost_list_remove(dev);
    }
    free(path);
    return error;
}

static void
netdev_vhost_destruct(struct netdev *netdev)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);

    /* Unregistering destroys a connected device (destroy_device runs on
     * this thread), which still finds 'dev'. */
    vhost_unregister_socket(dev);

    vhost_list_remove(dev);

    for (int i = 0; i < VHOST_MAX_QUEUE_PAIRS; i++) {
        vhost_txq_drop_held(&dev->txqs[i]);
    }
    if (dev->mp) {
        dpdk_mp_put(dev->mp);
    }
}

/* Removes 'dev' from 'vhost_devs': no callback finds it any more. */
static void
vhost_list_remove(struct netdev_vhost *dev)
{
    pthread_mutex_lock(&vhost_mutex);
    for (struct netdev_vhost **p = &vhost_devs; *p; p = &(*p)->next) {
        if (*p == dev) {
            *p = dev->next;
            break;
        }
    }
    pthread_mutex_unlock(&vhost_mutex);
}

static void
netdev_vhost_dealloc(struct netdev *netdev)
{
    free(netdev_vhost_cast(netdev));
}

/* Configuration. */

static int
netdev_vhost_set_config(struct netdev *netdev, const struct smap *options,
                        char **errp)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);
    const char *name = netdev->name;
    const char *server_path = NULL;
    int retries = VHOST_TX_RETRIES_DEFAULT;

    /* Not SMAP_FOR_EACH: it computes NULL + 0 on an empty map, which
     * UBSan reports. */
    for (size_t i = 0; i < options->n; i++) {
        const char *key = options->nodes[i].key;
        const char *value = options->nodes[i].value;

        if (!strcmp(key, "tx-retries-max")) {
            if (!util_str_to_int(value, 10, &retries)
                || retries < 0 || retries > VHOST_TX_RETRIES_MAX) {
                *errp = xasprintf("%s: options:tx-retries-max=%s: expected "
                                  "an integer from 0 to %d", name, value,
                                  VHOST_TX_RETRIES_MAX);
                return EINVAL;
            }
        } else if (!strcmp(key, "vhost-server-path") && dev->client) {
            server_path = value;
        } else if (!strcmp(key, "n_rxq")) {
            /* Open vSwitch accepts and ignores it on vhost ports: the guest
             * decides the number of queues. */
            VLOG_INFO_ONCE("%s: options:n_rxq has no effect on vhost-user "
                           "ports: the guest decides the number of queues",
                           name);
        } else {
            *errp = xasprintf("%s: options:%s is not supported by %s "
                              "interfaces", name, key,
                              netdev->netdev_class->type);
            return EINVAL;
        }
    }

    if (dev->client) {
        struct sockaddr_un sun;

        if (!server_path || !server_path[0]) {
            *errp = xasprintf("%s: dpdkvhostuserclient interfaces need "
                              "options:vhost-server-path", name);
            return EINVAL;
        }
        if (strlen(server_path) >= sizeof sun.sun_path) {
            *errp = xasprintf("%s: options:vhost-server-path is longer than "
                              "a socket name may be (%zu bytes)", name,
                              sizeof sun.sun_path - 1);
            return EINVAL;
        }
        if (!dev->socket_path || strcmp(dev->socket_path, server_path)) {
            vhost_unregister_socket(dev);
            int error = vhost_register_socket(dev, server_path, errp);
            if (error) {
                return error;
            }
        }
    }

    __atomic_store_n(&dev->tx_retries_max, retries, __ATOMIC_RELAXED);
    return 0;
}

static int
netdev_vhost_get_config(const struct netdev *netdev, struct smap *args)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);

    if (dev->client && dev->socket_path) {
        smap_add(args, "vhost-server-path", dev->socket_path);
    }
    if (dev->tx_retries_max != VHOST_TX_RETRIES_DEFAULT) {
        smap_add_format(args, "tx-retries-max", "%d", dev->tx_retries_max);
    }
    /* As Open vSwitch shows them in dpif/show.  The guest decides the
     * queues: requested and configured are the same. */
    smap_add_format(args, "configured_rx_queues", "%d", netdev->n_rxq);
    smap_add_format(args, "configured_tx_queues", "%d", netdev->n_txq);
    smap_add_format(args, "mtu", "%d", dev->mtu);
    smap_add_format(args, "requested_rx_queues", "%d", netdev->n_rxq);
    smap_add_format(args, "requested_tx_queues", "%d", netdev->n_txq);
    return 0;
}

/* Applies the MTU and what the guest negotiated: queue pairs, NUMA node,
 * offloads.  No thread polls or sends on 'netdev' meanwhile. */
static int
netdev_vhost_reconfigure(struct netdev *netdev, char **errp)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);

    pthread_mutex_lock(&vhost_mutex);
    int new_vid = dev->new_vid;
    int qp = dev->guest_qp;
    int numa = dev->guest_numa;
    uint64_t features = dev->guest_features;
    pthread_mutex_unlock(&vhost_mutex);

    int mtu = dev->requested_mtu;
    __atomic_store_n(&dev->max_packet_len, mtu + VHOST_FRAME_OVERHEAD,
                     __ATOMIC_RELAXED);

    /* A pool from the guest's NUMA node for its MTU, once a guest came. */
    struct dpdk_mp *old_mp = NULL;
    struct dpdk_mp *mp = NULL;
    if (new_vid >= 0
        && (!dev->mp || dev->pool_mtu != mtu || dev->pool_numa != numa)) {
        char *error_msg = NULL;

        mp = dpdk_mp_get(netdev->name, numa < 0 ? 0 : numa, mtu, &error_msg);
        if (!mp || !dpdk_mp_pool(mp)) {
            if (!error_msg) {
                error_msg = xasprintf("%s: no packet pool for MTU %d",
                                      netdev->name, mtu);
            }
            VLOG_ERR("%s", error_msg);
            if (errp) {
                *errp = error_msg;
            } else {
                free(error_msg);
            }
            if (mp) {
                dpdk_mp_put(mp);
            }
            return ENOMEM;
        }
        old_mp = dev->mp;
    }

    pthread_mutex_lock(&vhost_mutex);
    dev->mtu = mtu;
    if (mp) {
        dev->mp = mp;
        dev->pool = dpdk_mp_pool(mp);
        dev->pool_mtu = mtu;
        dev->pool_numa = numa;
    }
    if (new_vid >= 0) {
        netdev->n_rxq = netdev->n_txq = qp;
        dev->tx_caps = vhost_tx_caps_from_features(features);
    }
    pthread_mutex_unlock(&vhost_mutex);
    if (old_mp) {
        dpdk_mp_put(old_mp);
    }

    pthread_mutex_lock(&vhost_mutex);
    if (vhost_ready_to_publish__(dev)) {
        store_int(&dev->vid, dev->new_vid);
        __atomic_add_fetch(&dev->carrier_resets, 1, __ATOMIC_RELAXED);
        VLOG_INFO("%s: vhost-user device %d ready: %d queue pair(s), MTU %d",
                  netdev->name, dev->new_vid, qp, dev->mtu);
    }
    pthread_mutex_unlock(&vhost_mutex);

    netdev_change_seq_changed(netdev);
    return 0;
}

/* Transmission. */

static int
netdev_vhost_send(struct netdev *netdev, int qid,
                  struct dp_packet_batch *batch,
                  bool concurrent_txq DPS_UNUSED)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);
    struct vhost_txq_state *txq = &dev->txqs[qid % VHOST_MAX_QUEUE_PAIRS];
    uint32_t n = batch->count;

    /* Always locked: destroy_device synchronises through the lock. */
    if (!rte_spinlock_trylock(&txq->lock)) {
        COVERAGE_INC(vhost_tx_contention);
        rte_spinlock_lock(&txq->lock);
    }

    int vid = load_int(&dev->vid);
    int vring = load_int(&txq->vring);
    if (unlikely(vid < 0 || vring < 0
                 || !(__atomic_load_n(&dev->flags, __ATOMIC_RELAXED)
                      & NETDEV_UP))) {
        for (uint32_t i = 0; i < n; i++) {
            dp_packet_free(batch->packets[i]);
        }
        count(&txq->failure_drops, n);
        queue_unlock(&txq->lock);
        batch->count = 0;
        return 0;
    }

    uint32_t max_len = __atomic_load_n(&dev->max_packet_len,
                                       __ATOMIC_RELAXED);
    uint64_t mtu_drops = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];

        /* A TSO frame (only ever sent to a guest that takes them) is cut
         * to the MTU by the guest. */
        if (unlikely(dp_packet_size(p) > max_len) && !p->md.tso_segsz) {
            dp_packet_free(p);
            mtu_drops++;
            continue;
        }
        txq->held[txq->n_held++] = &p->mbuf;
        if (txq->n_held == VHOST_TX_BURST) {
            vhost_txq_flush(dev, txq, vid, vring);
        }
    }
    if (mtu_drops) {
        count(&txq->mtu_drops, mtu_drops);
    }
    queue_unlock(&txq->lock);
    batch->count = 0;
    return 0;
}

static int
netdev_vhost_flush(struct netdev *netdev, int qid,
                   bool concurrent_txq DPS_UNUSED)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);
    struct vhost_txq_state *txq = &dev->txqs[qid % VHOST_MAX_QUEUE_PAIRS];

    if (!rte_spinlock_trylock(&txq->lock)) {
        COVERAGE_INC(vhost_tx_contention);
        rte_spinlock_lock(&txq->lock);
    }
    if (txq->n_held) {
        int vid = load_int(&dev->vid);
        int vring = load_int(&txq->vring);

        if (vid >= 0 && vring >= 0) {
            vhost_txq_flush(dev, txq, vid, vring);
        } else {
            count(&txq->failure_drops, txq->n_held);
            vhost_txq_drop_held(txq);
        }
    }
    queue_unlock(&txq->lock);
    return 0;
}

/* Gives the packets 'txq' holds to the guest's receive vring 'vring' of
 * device 'vid', retrying while the guest takes some, and frees them all
 * (librte_vhost copies): those not taken are counted as dropped.  The
 * caller holds 'txq->lock'. */
static void
vhost_txq_flush(struct netdev_vhost *dev, struct vhost_txq_state *txq,
                int vid, int vring)
{
    uint16_t n = txq->n_held;
    uint16_t sent = 0;
    int max_retries = __atomic_load_n(&dev->tx_retries_max,
                                      __ATOMIC_RELAXED);
    int retries = 0;

    for (;;) {
        uint16_t k = rte_vhost_enqueue_burst(vid, vring, txq->held + sent,
                                             n - sent);
        sent += k;
        /* Retry only when the guest made room for some: a full ring that
         * took nothing would only burn cycles. */
        if (sent == n || !k || retries >= max_retries) {
            break;
        }
        retries++;
    }

    uint64_t bytes = 0;
    for (uint16_t i = 0; i < sent; i++) {
        bytes += txq->held[i]->pkt_len;
    }
    rte_pktmbuf_free_bulk(txq->held, n);
    txq->n_held = 0;

    count(&txq->packets, sent);
    count(&txq->bytes, bytes);
    if (retries) {
        count(&txq->retries, retries);
    }
    if (sent < n) {
        count(&txq->failure_drops, n - sent);
    }
}

/* Frees the packets 'txq' holds, if any (not counted: the caller does). */
static void
vhost_txq_drop_held(struct vhost_txq_state *txq)
{
    if (txq->n_held) {
        rte_pktmbuf_free_bulk(txq->held, txq->n_held);
        txq->n_held = 0;
    }
}

/* Ethernet address, MTU, link, flags. */

static int
netdev_vhost_set_etheraddr(struct netdev *netdev, const struct eth_addr *mac)
{
    netdev_vhost_cast(netdev)->mac = *mac;
    netdev_change_seq_changed(netdev);
    return 0;
}

static int
netdev_vhost_get_etheraddr(const struct netdev *netdev, struct eth_addr *mac)
{
    *mac = netdev_vhost_cast(netdev)->mac;
    return 0;
}

static int
netdev_vhost_get_mtu(const struct netdev *netdev, int *mtu)
{
    *mtu = netdev_vhost_cast(netdev)->mtu;
    return 0;
}

static int
netdev_vhost_set_mtu(struct netdev *netdev, int mtu, char **errp)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);

    if (mtu < VHOST_MTU_MIN || mtu > VHOST_MTU_MAX) {
        /* Open vSwitch's words, which it only logs. */
        *errp = xasprintf("%s: unsupported MTU %d", netdev->name, mtu);
        return EINVAL;
    }
    if (mtu != dev->requested_mtu) {
        dev->requested_mtu = mtu;
        netdev_request_reconfigure(netdev);
    }
    return 0;
}

static int
netdev_vhost_get_carrier(const struct netdev *netdev, bool *carrier)
{
    *carrier = load_int(&netdev_vhost_cast(netdev)->vid) >= 0;
    return 0;
}

static long long int
netdev_vhost_get_carrier_resets(const struct netdev *netdev)
{
    return __atomic_load_n(&netdev_vhost_cast(netdev)->carrier_resets,
                           __ATOMIC_RELAXED);
}

static int
netdev_vhost_update_flags(struct netdev *netdev, enum netdev_flags off,
                          enum netdev_flags on, enum netdev_flags *old)
{
    struct netdev_vhost *dev = netdev_vhost_cast(netdev);

    *old = dev->flags;
    __atomic_store_n(&dev->flags, (dev->flags & ~off) | on,
                     __ATOMIC_RELAXED);
    if (*old != dev->flags) {
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

/* Statistics and status. */

static int
netdev_vhost_get_stats(const struct netdev *netdev, struct netdev_stats *stats)
{
    const struct netdev_vhost *dev = netdev_vhost_cast(netdev);

    stats->rx_packets = stats->rx_bytes = stats->rx_dropped = 0;
    stats->tx_packets = stats->tx_bytes = stats->tx_dropped = 0;
    for (int i = 0; i < VHOST_MAX_QUEUE_PAIRS; i++) {
        const struct vhost_rxq_state *rxq = &dev->rxqs[i];
        const struct vhost_txq_state *txq = &dev->txqs[i];

        stats->rx_packets += load_u64(&rxq->packets);
        stats->rx_bytes += load_u64(&rxq->bytes);
        stats->tx_packets += load_u64(&txq->packets);
        stats->tx_bytes += load_u64(&txq->bytes);
        stats->tx_dropped += (load_u64(&txq->failure_drops)
                              + load_u64(&txq->mtu_drops));
    }
    return 0;
}

static int
netdev_vhost_get_custom_stats(const struct netdev *netdev,
                              struct netdev_custom_stats *custom)
{
    const struct netdev_vhost *dev = netdev_vhost_cast(netdev);
    uint64_t ovs_tx_failure_drops = 0;
    uint64_t ovs_tx_mtu_exceeded_drops = 0;
    uint64_t ovs_tx_retries = 0;
    uint64_t ovs_rx_qos_drops = 0;
    uint64_t ovs_tx_invalid_hwol_drops = 0;
    uint64_t ovs_tx_qos_drops = 0;

    for (int i = 0; i < VHOST_MAX_QUEUE_PAIRS; i++) {
        const struct vhost_txq_state *txq = &dev->txqs[i];

        ovs_tx_failure_drops += load_u64(&txq->failure_drops);
        ovs_tx_mtu_exceeded_drops += load_u64(&txq->mtu_drops);
        ovs_tx_retries += load_u64(&txq->retries);
    }
#define VHOST_SW_STAT(NAME) netdev_custom_stats_add(custom, #NAME, NAME);
    VHOST_SW_STATS
#undef VHOST_SW_STAT

    int vid = load_int(&dev->vid);
    if (vid >= 0) {
        vhost_append_vring_stats(vid, custom);
    }
    return 0;
}

/* Appends librte_vhost's counters of every vring of 'vid' to 'custom': first
 * the sums (rx_1_to_64_packets...), then each vring's own
 * (rx_q0_good_packets...). */
static void
vhost_append_vring_stats(int vid, struct netdev_custom_stats *custom)
{
    uint16_t n_vrings = rte_vhost_get_vring_num(vid);
    struct netdev_custom_stats per_queue = { NULL, 0 };
    uint64_t sums[2][N_VHOST_VRING_SUMS];

    memset(sums, 0, sizeof sums);
    for (uint16_t q = 0; q < n_vrings; q++) {
        int n = rte_vhost_vring_stats_get_names(vid, q, NULL, 0);
        if (n <= 0) {
            continue;
        }

        struct rte_vhost_stat_name *names = xcalloc(n, sizeof *names);
        struct rte_vhost_stat *values = xcalloc(n, sizeof *values);
        if (rte_vhost_vring_stats_get_names(vid, q, names, n) == n
            && rte_vhost_vring_stats_get(vid, q, values, n) == n) {
            for (int i = 0; i < n; i++) {
                const char *name = names[values[i].id < (uint64_t) n
                                         ? values[i].id : (uint64_t) i].name;
                int dir = !strncmp(name, "tx_", 3);
                const char *suffix = strchr(name + 3, '_');

                netdev_custom_stats_add(&per_queue, name, values[i].value);
                for (size_t j = 0; suffix && j < N_VHOST_VRING_SUMS; j++) {
                    const struct vhost_vring_sum_name *sn;

                    sn = &vhost_vring_sum_names[j];
                    if (!strcmp(suffix + 1, sn->dpdk_name)) {
                        sums[dir][j] += values[i].value;
                    }
                }
            }
        }
        free(names);
        free(values);
    }

    for (int dir = 0; dir < 2; dir++) {
        for (size_t j = 0; j < N_VHOST_VRING_SUMS; j++) {
            char name[64];

            snprintf(name, sizeof name, "%s_%s", dir ? "tx" : "rx",
                     vhost_vring_sum_names[j].ovs_name);
            netdev_custom_stats_add(custom, name, sums[dir][j]);
        }
    }
    for (size_t i = 0; i < per_queue.n; i++) {
        netdev_custom_stats_add(custom, per_queue.counters[i].name,
                                per_queue.counters[i].value);
    }
    netdev_custom_stats_destroy(&per_queue);
}

static int
netdev_vhost_get_status(const struct netdev *netdev, struct smap *args)
{
    const struct netdev_vhost *dev = netdev_vhost_cast(netdev);
    int vid = load_int(&dev->vid);

    smap_add(args, "mode", dev->client ? "client" : "server");
    if (vid < 0) {
        smap_add(args, "status", "disconnected");
        return 0;
    }
    smap_add(args, "status", "connected");

    char ifname[PATH_MAX];
    if (!rte_vhost_get_ifname(vid, ifname, sizeof ifname)) {
        smap_add(args, "socket", ifname);
    }

    uint64_t features;
    if (!rte_vhost_get_negotiated_features(vid, &features)) {
        smap_add_format(args, "features", "0x%016"PRIx64, features);
    }

    uint16_t mtu;
    if (!rte_vhost_get_mtu(vid, &mtu)) {
        smap_add_format(args, "mtu", "%d", mtu);
    }

    int numa = rte_vhost_get_numa_node(vid);
    if (numa >= 0) {
        smap_add_format(args, "numa", "%d", numa);
    }

    uint16_t n_vrings = rte_vhost_get_vring_num(vid);
    smap_add_format(args, "num_of_vrings", "%d", n_vrings);
    for (uint16_t i = 0; i < n_vrings; i++) {
        struct rte_vhost_vring vring;
        char key[32];

        if (!rte_vhost_get_vhost_vring(vid, i, &vring)) {
            snprintf(key, sizeof key, "vring_%d_size", i);
            smap_add_format(args, key, "%d", vring.size);
        }
    }
    return 0;
}

static uint32_t
netdev_vhost_get_tx_caps(const struct netdev *netdev)
{
    const struct netdev_vhost *dev = netdev_vhost_cast(netdev);

    return dev->tx_caps;
}

static int
netdev_vhost_get_numa_id(const struct netdev *netdev)
{
    return netdev_vhost_cast(netdev)->pool_numa;
}

/* Receive queues. */

static struct netdev_rxq *
netdev_vhost_rxq_alloc(void)
{
    return xzalloc(sizeof(struct netdev_rxq));
}

static int
netdev_vhost_rxq_construct(struct netdev_rxq *rxq DPS_UNUSED)
{
    return 0;
}

static void
netdev_vhost_rxq_destruct(struct netdev_rxq *rxq DPS_UNUSED)
{
}

static void
netdev_vhost_rxq_dealloc(struct netdev_rxq *rxq)
{
    free(rxq);
}

static int
netdev_vhost_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch,
                      int *qfill)
{
    struct netdev_vhost *dev = netdev_vhost_cast(rxq->netdev);
    int q = rxq->queue_id;
    struct vhost_rxq_state *state = &dev->rxqs[q % VHOST_MAX_QUEUE_PAIRS];
    struct rte_mbuf *mbufs[DP_PACKET_BATCH_SIZE];
    uint16_t vring = 2 * q + 1;

    if (qfill) {
        *qfill = 0;
    }
    /* Busy only while destroy_device synchronises: nothing to read. */
    if (!rte_spinlock_trylock(&state->lock)) {
        return EAGAIN;
    }
    int vid = load_int(&dev->vid);
    if (vid < 0 || q >= VHOST_MAX_QUEUE_PAIRS
        || !__atomic_load_n(&dev->vrings_enabled[vring], __ATOMIC_ACQUIRE)
        || !(__atomic_load_n(&dev->flags, __ATOMIC_RELAXED) & NETDEV_UP)) {
        queue_unlock(&state->lock);
        return EAGAIN;
    }

    uint16_t n = rte_vhost_dequeue_burst(vid, vring, dev->pool, mbufs,
                                         DP_PACKET_BATCH_SIZE);
    if (qfill && n == DP_PACKET_BATCH_SIZE) {
        *qfill = rte_vhost_rx_queue_count(vid, vring);
    }

    uint64_t bytes = 0;
    bool pending = false;
    for (uint16_t i = 0; i < n; i++) {
        struct dp_packet *p = dp_packet_from_mbuf(mbufs[i]);

        /* L4 "none" (the guest left the checksum for us) is partial;
         * the IP checksum is the guest's, unknown.  A TCP segment larger
         * than the MTU (HOST_TSO4/6) comes as "LRO" with its MSS. */
        dp_packet_md_reset(p);
        dp_packet_csum_from_rx_flags(p);
        if (mbufs[i]->ol_flags & RTE_MBUF_F_RX_LRO) {
            p->md.tso_segsz = mbufs[i]->tso_segsz;
        }
        pending |= dp_packet_tx_pending(p);
        bytes += dp_packet_size(p);
        batch->packets[i] = p;
    }
    batch->count = n;
    dp_packet_batch_set_clean(batch, !pending);
    if (n) {
        count(&state->packets, n);
        count(&state->bytes, bytes);
    }
    queue_unlock(&state->lock);
    return n ? 0 : EAGAIN;
}

/* librte_vhost sockets. */

/* Registers 'path' with librte_vhost for 'dev' (as a server or a client,
 * from 'dev->client') and starts it.  Returns 0 or a positive errno value
 * with a message in '*errp'. */
static int
vhost_register_socket(struct netdev_vhost *dev, const char *path, char **errp)
{
    const char *name = dev->up.name;
    uint64_t flags = (RTE_VHOST_USER_NET_COMPLIANT_OL_FLAGS
                      | RTE_VHOST_USER_NET_STATS_ENABLE);
    int error;

    if (dev->client) {
        /* Reconnection is librte_vhost's default for clients. */
        flags |= RTE_VHOST_USER_CLIENT;
    } else {
        struct sockaddr_un sun;

        if (strlen(path) >= sizeof sun.sun_path) {
            *errp = xasprintf("%s: socket name %s is too long", name, path);
            return ENAMETOOLONG;
        }
        error = vhost_remove_stale_socket(path);
        if (error) {
            *errp = xasprintf("%s: cannot create socket %s: %s", name, path,
                              error == EADDRINUSE
                              ? "another process serves it"
                              : util_strerror(error));
            return error;
        }
    }

    /* Published before the callbacks can look for it.  librte_vhost
     * would register one path twice and then confuse the two. */
    pthread_mutex_lock(&vhost_mutex);
    for (struct netdev_vhost *other = vhost_devs; other;
         other = other->next) {
        if (other->socket_path && !strcmp(other->socket_path, path)) {
            *errp = xasprintf("%s: socket %s is already used by port %s",
                              name, path, other->up.name);
            pthread_mutex_unlock(&vhost_mutex);
            return EADDRINUSE;
        }
    }
    dev->socket_path = xstrdup(path);
    pthread_mutex_unlock(&vhost_mutex);

    if (rte_vhost_driver_register(path, flags)) {
        *errp = xasprintf("%s: librte_vhost cannot register socket %s",
                          name, path);
        error = EINVAL;
        goto error;
    }
    uint64_t disabled = VHOST_DISABLED_FEATURES;
    if (!dpdk_userspace_tso()) {
        disabled |= VHOST_TSO_FEATURES;
    }
    if (rte_vhost_driver_disable_features(path, disabled)
        || rte_vhost_driver_callback_register(path, &vhost_device_ops)) {
        *errp = xasprintf("%s: librte_vhost cannot set up socket %s",
                          name, path);
        rte_vhost_driver_unregister(path);
        error = EINVAL;
        goto error;
    }
    /* In server mode librte_vhost binds the socket here, with the mode
     * 0777 less the umask, as Open vSwitch's sockets in vhost-sock-dir
     * get: the daemon's user (with --user, the one it runs as) and group
     * may connect.  Others never may, even with a umask that would allow
     * it: a guest of another user must not reach the switch.  (The umask
     * is the process's, and only ever narrowed, for the time of the bind:
     * it is read by setting the narrowest one.) */
    mode_t old_umask = umask(0777);
    umask(old_umask | S_IWOTH);
    int start_error = rte_vhost_driver_start(path);
    umask(old_umask);
    if (start_error) {
        *errp = xasprintf("%s: librte_vhost cannot start socket %s "
                          "(see the log)", name, path);
        rte_vhost_driver_unregister(path);
        error = EINVAL;
        goto error;
    }
    VLOG_INFO("%s: vhost-user %s socket %s", name,
              dev->client ? "client" : "server", path);
    return 0;

error:
    pthread_mutex_lock(&vhost_mutex);
    free(dev->socket_path);
    dev->socket_path = NULL;
    pthread_mutex_unlock(&vhost_mutex);
    return error;
}

/* Unregisters 'dev''s socket, if any: a connected guest is disconnected
 * first (destroy_device runs, on this thread). */
static void
vhost_unregister_socket(struct netdev_vhost *dev)
{
    if (!dev->socket_path) {
        return;
    }
    if (rte_vhost_driver_unregister(dev->socket_path)) {
        VLOG_WARN("%s: librte_vhost cannot unregister socket %s",
                  dev->up.name, dev->socket_path);
    }
    pthread_mutex_lock(&vhost_mutex);
    free(dev->socket_path);
    dev->socket_path = NULL;
    pthread_mutex_unlock(&vhost_mutex);
}

/* Removes the socket file at 'path' if no process listens there any more
 * (left by a switch that was killed).  Returns 0, EADDRINUSE if a process
 * listens, or another errno value. */
static int
vhost_remove_stale_socket(const char *path)
{
    struct stat st;

    if (lstat(path, &st)) {
        return errno == ENOENT ? 0 : errno;
    }
    if (!S_ISSOCK(st.st_mode)) {
        return EEXIST;
    }

    struct sockaddr_un sun = { .sun_family = AF_UNIX };
    snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return errno;
    }
    int error = connect(fd, (struct sockaddr *) &sun, sizeof sun) ? errno : 0;
    close(fd);
    if (!error) {
        return EADDRINUSE;
    }
    if (error == ECONNREFUSED) {
        VLOG_INFO("%s: removing stale socket", path);
        return unlink(path) && errno != ENOENT ? errno : 0;
    }
    return error;
}

/* Callbacks from librte_vhost's thread. */

/* Returns the device whose socket 'vid' came through.  The caller holds
 * 'vhost_mutex'. */
static struct netdev_vhost *
vhost_find_by_ifname__(int vid)
{
    char ifname[PATH_MAX];

    if (rte_vhost_get_ifname(vid, ifname, sizeof ifname)) {
        return NULL;
    }
    for (struct netdev_vhost *dev = vhost_devs; dev; dev = dev->next) {
        if (dev->socket_path && !strcmp(dev->socket_path, ifname)) {
            return dev;
        }
    }
    return NULL;
}

/* Returns the device that uses 'vid'.  The caller holds 'vhost_mutex'. */
static struct netdev_vhost *
vhost_find_by_vid__(int vid)
{
    for (struct netdev_vhost *dev = vhost_devs; dev; dev = dev->next) {
        if (dev->new_vid == vid) {
            return dev;
        }
    }
    return NULL;
}

/* True if 'dev' has a connected device that the fast path can use as the
 * port is configured now.  The caller holds 'vhost_mutex'. */
static bool
vhost_ready_to_publish__(const struct netdev_vhost *dev)
{
    return (dev->new_vid >= 0
            && dev->vid != dev->new_vid
            && dev->pool
            && dev->pool_mtu == dev->mtu
            && dev->pool_numa == dev->guest_numa
            && dev->up.n_rxq == dev->guest_qp
            && dev->tx_caps == vhost_tx_caps_from_features(
                   dev->guest_features));
}

static int
vhost_new_device(int vid)
{
    pthread_mutex_lock(&vhost_mutex);
    struct netdev_vhost *dev = vhost_find_by_ifname__(vid);
    if (!dev) {
        pthread_mutex_unlock(&vhost_mutex);
        VLOG_INFO("vhost-user device %d: no port for its socket", vid);
        return 0;
    }

    int n_vrings = rte_vhost_get_vring_num(vid);
    int qp = n_vrings / 2;
    if (qp > VHOST_MAX_QUEUE_PAIRS) {
        VLOG_WARN("%s: the guest has %d queue pairs, only the first %d are "
                  "used", dev->up.name, qp, VHOST_MAX_QUEUE_PAIRS);
        qp = VHOST_MAX_QUEUE_PAIRS;
    }
    if (qp < 1) {
        qp = 1;
    }
    /* PMDs poll: the guest need not kick. */
    for (int i = 0; i < n_vrings; i++) {
        rte_vhost_enable_guest_notification(vid, i, 0);
    }

    uint64_t features = 0;
    rte_vhost_get_negotiated_features(vid, &features);
    int numa = rte_vhost_get_numa_node(vid);

    dev->new_vid = vid;
    dev->guest_qp = qp;
    dev->guest_numa = numa < 0 ? 0 : numa;
    dev->guest_features = features;
    vhost_remap_txqs__(dev);

    bool published = vhost_ready_to_publish__(dev);
    if (published) {
        store_int(&dev->vid, vid);
        __atomic_add_fetch(&dev->carrier_resets, 1, __ATOMIC_RELAXED);
    }
    VLOG_INFO("%s: vhost-user device %d connected: %d queue pair(s), "
              "features 0x%016"PRIx64"%s", dev->up.name, vid, qp, features,
              published ? "" : ", reconfiguring");
    if (published) {
        netdev_change_seq_changed(&dev->up);
    } else {
        netdev_request_reconfigure(&dev->up);
    }
    pthread_mutex_unlock(&vhost_mutex);
    return 0;
}

static void
vhost_destroy_device(int vid)
{
    pthread_mutex_lock(&vhost_mutex);
    struct netdev_vhost *dev = vhost_find_by_vid__(vid);
    if (!dev) {
        pthread_mutex_unlock(&vhost_mutex);
        return;
    }

    bool was_published = load_int(&dev->vid) == vid;
    dev->new_vid = -1;
    store_int(&dev->vid, -1);
    for (int i = 0; i < 2 * VHOST_MAX_QUEUE_PAIRS; i++) {
        __atomic_store_n(&dev->vrings_enabled[i], false, __ATOMIC_RELEASE);
    }
    vhost_remap_txqs__(dev);

    /* Wait for bursts that may still use 'vid', and drop what is held for
     * it. */
    for (int i = 0; i < VHOST_MAX_QUEUE_PAIRS; i++) {
        struct vhost_rxq_state *rxq = &dev->rxqs[i];
        struct vhost_txq_state *txq = &dev->txqs[i];

        rte_spinlock_lock(&rxq->lock);
        queue_unlock(&rxq->lock);

        rte_spinlock_lock(&txq->lock);
        if (txq->n_held) {
            count(&txq->failure_drops, txq->n_held);
            vhost_txq_drop_held(txq);
        }
        queue_unlock(&txq->lock);
    }
    if (was_published) {
        __atomic_add_fetch(&dev->carrier_resets, 1, __ATOMIC_RELAXED);
    }
    VLOG_INFO("%s: vhost-user device %d disconnected", dev->up.name, vid);
    netdev_change_seq_changed(&dev->up);
    pthread_mutex_unlock(&vhost_mutex);
}

static int
vhost_vring_state_changed(int vid, uint16_t queue_id, int enable)
{
    pthread_mutex_lock(&vhost_mutex);
    struct netdev_vhost *dev = vhost_find_by_ifname__(vid);
    if (dev && queue_id < 2 * VHOST_MAX_QUEUE_PAIRS) {
        __atomic_store_n(&dev->vrings_enabled[queue_id], enable != 0,
                         __ATOMIC_RELEASE);
        vhost_remap_txqs__(dev);

        /* A guest may set up more queue pairs after the device started
         * (QEMU does): take them in a reconfiguration. */
        int qp = queue_id / 2 + 1;
        if (enable && dev->new_vid == vid && qp > dev->guest_qp) {
            VLOG_INFO("%s: the guest enabled queue pair %d", dev->up.name,
                      qp - 1);
            dev->guest_qp = qp;
            netdev_request_reconfigure(&dev->up);
        }
        VLOG_DBG("%s: vring %d %s", dev->up.name, queue_id,
                 enable ? "enabled" : "disabled");
        COVERAGE_INC(vhost_notification);
        netdev_change_seq_changed(&dev->up);
    }
    pthread_mutex_unlock(&vhost_mutex);
    return 0;
}

/* Points each tx queue at an enabled receive vring of the guest: its own
 * (2 * q) if enabled, else one of the enabled ones, else none.  The caller
 * holds 'vhost_mutex'. */
static void
vhost_remap_txqs__(struct netdev_vhost *dev)
{
    int enabled[VHOST_MAX_QUEUE_PAIRS];
    int n_enabled = 0;

    for (int q = 0; q < VHOST_MAX_QUEUE_PAIRS; q++) {
        if (__atomic_load_n(&dev->vrings_enabled[2 * q], __ATOMIC_RELAXED)) {
            enabled[n_enabled++] = 2 * q;
        }
    }
    for (int q = 0; q < VHOST_MAX_QUEUE_PAIRS; q++) {
        int vring = -1;

        if (__atomic_load_n(&dev->vrings_enabled[2 * q], __ATOMIC_RELAXED)) {
            vring = 2 * q;
        } else if (n_enabled) {
            vring = enabled[q % n_enabled];
        }
        store_int(&dev->txqs[q].vring, vring);
    }
}

/* The NETDEV_TX_* a guest with virtio 'features' can do.  With
 * VIRTIO_NET_F_GUEST_CSUM the guest takes partial TCP and UDP checksums,
 * and librte_vhost fills IPv4 header checksums itself.  (Not SCTP: a
 * virtio partial checksum is a ones' complement sum, never a CRC.)  With
 * GUEST_TSO4 and GUEST_TSO6 as well, and userspace TSO enabled, it takes
 * whole TCP segments of up to 64 KB. */
static uint32_t
vhost_tx_caps_from_features(uint64_t features)
{
    static const uint64_t tso = ((1ULL << VIRTIO_NET_F_GUEST_CSUM)
                                 | (1ULL << VIRTIO_NET_F_GUEST_TSO4)
                                 | (1ULL << VIRTIO_NET_F_GUEST_TSO6));
    uint32_t caps = NETDEV_TX_MULTI_SEG;

    if (features & (1ULL << VIRTIO_NET_F_GUEST_CSUM)) {
        caps |= NETDEV_TX_IPV4_CSUM | NETDEV_TX_TCP_CSUM | NETDEV_TX_UDP_CSUM;
    }
    if ((features & tso) == tso && dpdk_userspace_tso()) {
        caps |= NETDEV_TX_TCP_TSO;
    }
    return caps;
}

/* The classes. */

#define VHOST_CLASS(TYPE)                                       \
    .type = TYPE,                                               \
    .is_pmd = true,                                             \
    .has_qos = true,                                            \
    .alloc = netdev_vhost_alloc,                                \
    .construct = netdev_vhost_construct,                        \
    .destruct = netdev_vhost_destruct,                          \
    .dealloc = netdev_vhost_dealloc,                            \
    .set_config = netdev_vhost_set_config,                      \
    .get_config = netdev_vhost_get_config,                      \
    .reconfigure = netdev_vhost_reconfigure,                    \
    .send = netdev_vhost_send,                                  \
    .flush = netdev_vhost_flush,                                \
    .set_etheraddr = netdev_vhost_set_etheraddr,                \
    .get_etheraddr = netdev_vhost_get_etheraddr,                \
    .get_mtu = netdev_vhost_get_mtu,                            \
    .set_mtu = netdev_vhost_set_mtu,                            \
    .get_carrier = netdev_vhost_get_carrier,                    \
    .get_carrier_resets = netdev_vhost_get_carrier_resets,      \
    .update_flags = netdev_vhost_update_flags,                  \
    .get_stats = netdev_vhost_get_stats,                        \
    .get_custom_stats = netdev_vhost_get_custom_stats,          \
    .get_status = netdev_vhost_get_status,                      \
    .get_tx_caps = netdev_vhost_get_tx_caps,                    \
    .get_numa_id = netdev_vhost_get_numa_id,                    \
    .rxq_alloc = netdev_vhost_rxq_alloc,                        \
    .rxq_construct = netdev_vhost_rxq_construct,                \
    .rxq_destruct = netdev_vhost_rxq_destruct,                  \
    .rxq_dealloc = netdev_vhost_rxq_dealloc,                    \
    .rxq_recv = netdev_vhost_rxq_recv

static const struct netdev_class vhost_server_class = {
    VHOST_CLASS("dpdkvhostuser"),
};

static const struct netdev_class vhost_client_class = {
    VHOST_CLASS("dpdkvhostuserclient"),
};
