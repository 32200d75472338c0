/* Software ports: dummy, dummy-pmd, dummy-internal and internal.  See
 * netdev-dummy.h.
 *
 * Every dummy netdev has one mutex that guards its counters, its receive
 * queues, its capture files and the packets kept for tests.  The main
 * thread (unixctl, tests) fills receive queues and one polling thread per
 * queue empties them; senders may be several threads.  A mutex is enough
 * for ports that exist for tests and for the bridge's local port.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev-dummy.h"
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "dpdk.h"
#include "dynamic-string.h"
#include "latch.h"
#include "netdev-offload.h"
#include "netdev-provider.h"
#include "odp-util.h"
#include "packets.h"
#include "pcap-file.h"
#include "poll-loop.h"
#include "smap.h"
#include "stream.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_dummy);

/* Packets one receive queue holds at most; more are dropped. */
#define NETDEV_DUMMY_MAX_QUEUE 4096

/* Queue counts a dummy port may have. */
#define NETDEV_DUMMY_MAX_QUEUES 1024

/* Default tx queues of a "dummy-pmd" port: enough for every thread of a
 * datapath to have its own. */
#define NETDEV_DUMMY_PMD_N_TXQ 64

/* The bytes of L4 payload netdev-dummy/receive gives a TCP, UDP or SCTP
 * packet composed from a flow without --len (as Open vSwitch does). */
#define NETDEV_DUMMY_L4_PAYLOAD 64

/* A receive queue: a ring of packets and a latch for main-thread pollers. */
struct dummy_queue {
    struct dp_packet **packets;
    size_t head;                /* Index of the oldest packet. */
    size_t n;                   /* Packets held. */
    size_t allocated;
    struct latch latch;         /* Set when a packet arrives. */
};

struct netdev_dummy {
    struct netdev up;

    /* Constant after construction. */
    unsigned int number;        /* From a counter: the MAC's last bytes. */

    pthread_mutex_t mutex;      /* Guards everything below. */

    struct eth_addr mac;
    int mtu;
    enum netdev_flags flags;
    int numa_id;
    uint32_t tx_caps;           /* NETDEV_TX_*. */

    struct netdev_stats stats;

    struct dummy_queue *queues; /* 'n_queues' receive queues. */
    int n_queues;

    /* Requested by options or the datapath, applied by 'reconfigure'. */
    int requested_n_rxq;
    int requested_n_txq;
    int multiq_n_txq;           /* From netdev_set_tx_multiq(), or 0. */
    int options_n_txq;          /* From options:n_txq, or 0. */
    int reconfigure_delay_ms;   /* options:reconfigure-delay-ms: how long
                                 * 'reconfigure' takes, as a DPDK device's
                                 * start does. */

    /* Capture files (options:rxq_pcap, tx_pcap; "pcap" sets both to one
     * file, which is then shared). */
    struct pcap_file *rxq_pcap;
    struct pcap_file *tx_pcap;

    /* Last sent packets, for tests: a ring of up to 'keep_sent' packets. */
    struct dp_packet **sent;
    size_t sent_head, n_sent, keep_sent;

    struct smap options;        /* Last options applied. */

    /* The "dummy" flow API's rules (lib/netdev-offload-dummy.c), or NULL.
     * Set and cleared by the main thread while nothing polls the port. */
    struct netdev_offload_dummy_port *offload;
    int ifindex;                /* options:ifindex, or 0. */

    /* options:stream or options:pstream, or NULL: a link to other dummy
     * ports, in this process or another, that the link thread serves (see
     * "Stream links" below).  Set and cleared under 'link_mutex' and
     * 'mutex'; its streams are used under 'mutex'. */
    struct dummy_link *link;
};

struct netdev_rxq_dummy {
    struct netdev_rxq up;
};

static unsigned int next_number = 1;
static struct rte_mempool *receive_pool;    /* netdev_dummy_set_pool(). */
static bool registered;
static bool dummy_types_registered;     /* Not only "internal". */
static pthread_mutex_t number_mutex = PTHREAD_MUTEX_INITIALIZER;

static const struct netdev_class dummy_class;
static const struct netdev_class dummy_pmd_class;
static const struct netdev_class dummy_internal_class;
static const struct netdev_class internal_class;

static void netdev_dummy_register_commands(void);

struct dummy_link;
static int dummy_link_set(struct netdev_dummy *, const struct smap *options,
                          char **errp);
static void dummy_link_destroy(struct netdev_dummy *);
static void dummy_link_send(struct netdev_dummy *, const struct dp_packet *);
static const char *dummy_link_state(const struct netdev_dummy *);

static struct netdev_dummy *netdev_dummy_cast(const struct netdev *netdev);
static bool queue_push(struct dummy_queue *q, struct dp_packet *p);
static int queue_packet_locked(struct netdev_dummy *, int qid,
                               struct dp_packet *);
static int netdev_dummy_construct(struct netdev *netdev);

/* API for tests. */

/* See netdev-dummy.h. */
bool
netdev_dummy_is_dummy(const struct netdev *netdev)
{
    return netdev->netdev_class->construct == netdev_dummy_construct;
}

/* See netdev-dummy.h.  The packet is recorded in the rxq_pcap file, if
 * any, when it is queued. */
int
netdev_dummy_queue_packet(struct netdev *netdev, int qid,
                          struct dp_packet *packet)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    int error;

    if (!netdev_dummy_is_dummy(netdev)) {
        dp_packet_free(packet);
        return EINVAL;
    }

    pthread_mutex_lock(&dev->mutex);
    error = queue_packet_locked(dev, qid, packet);
    pthread_mutex_unlock(&dev->mutex);
    return error;
}

/* See netdev-dummy.h. */
void
netdev_dummy_set_keep_sent(struct netdev *netdev, size_t n)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    struct dp_packet **sent;
    size_t n_sent = 0;

    pthread_mutex_lock(&dev->mutex);
    sent = n ? xmalloc(n * sizeof *sent) : NULL;
    for (size_t i = 0; i < dev->n_sent; i++) {
        struct dp_packet *p = dev->sent[(dev->sent_head + i) % dev->keep_sent];

        /* Keep the newest 'n'. */
        if (dev->n_sent - i <= n) {
            sent[n_sent++] = p;
        } else {
            dp_packet_free(p);
        }
    }
    free(dev->sent);
    dev->sent = sent;
    dev->sent_head = 0;
    dev->n_sent = n_sent;
    dev->keep_sent = n;
    pthread_mutex_unlock(&dev->mutex);
}

/* See netdev-dummy.h. */
struct dp_packet *
netdev_dummy_pop_sent(struct netdev *netdev)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    struct dp_packet *p = NULL;

    pthread_mutex_lock(&dev->mutex);
    if (dev->n_sent) {
        p = dev->sent[dev->sent_head];
        dev->sent_head = (dev->sent_head + 1) % dev->keep_sent;
        dev->n_sent--;
    }
    pthread_mutex_unlock(&dev->mutex);
    return p;
}

/* See netdev-dummy.h. */
void
netdev_dummy_set_tx_caps(struct netdev *netdev, uint32_t caps)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    __atomic_store_n(&dev->tx_caps, caps, __ATOMIC_RELAXED);
    /* netdev.c reads the class's capabilities after set_config and
     * reconfigure; a test wants them now. */
    __atomic_store_n(&netdev->tx_caps, caps, __ATOMIC_RELAXED);
    netdev_change_seq_changed(netdev);
}

/* See netdev-dummy.h. */
void
netdev_dummy_set_pool(struct rte_mempool *pool)
{
    receive_pool = pool;
}

/* See netdev-dummy.h. */
bool
netdev_dummy_offload_allowed(const struct netdev *netdev)
{
    return (netdev_dummy_is_dummy(netdev)
            && (dummy_types_registered
                || netdev->netdev_class != &internal_class));
}

/* See netdev-dummy.h. */
struct netdev_offload_dummy_port *
netdev_dummy_get_offload_port(const struct netdev *netdev)
{
    return (netdev_dummy_is_dummy(netdev)
            ? netdev_dummy_cast(netdev)->offload : NULL);
}

/* See netdev-dummy.h. */
void
netdev_dummy_set_offload_port(struct netdev *netdev,
                              struct netdev_offload_dummy_port *port)
{
    if (netdev_dummy_is_dummy(netdev)) {
        netdev_dummy_cast(netdev)->offload = port;
    }
}

/* Registers the classes, unless 'mode' is NETDEV_DUMMY_OFF: "internal",
 * "dummy", "dummy-pmd" and "dummy-internal"; with
 * NETDEV_DUMMY_OVERRIDE, "system" and "tap" become "dummy" ports and
 * "dpdk" "dummy-pmd" ones.  Also registers the netdev-dummy/ commands
 * unless 'mode' is NETDEV_DUMMY_OFF.  Only the first call counts. */
void
netdev_dummy_register(enum netdev_dummy_mode mode)
{
    if (registered) {
        return;
    }
    registered = true;

    if (mode == NETDEV_DUMMY_OFF) {
        return;
    }
    netdev_register_class(&internal_class);
    dummy_types_registered = true;
    netdev_register_class(&dummy_class);
    netdev_register_class(&dummy_pmd_class);
    netdev_register_class(&dummy_internal_class);
    if (mode == NETDEV_DUMMY_OVERRIDE) {
        netdev_class_override("system", "dummy");
        netdev_class_override("tap", "dummy");
        netdev_class_override("dpdk", "dummy-pmd");
    }
    netdev_dummy_register_commands();
}

static struct netdev_dummy *
netdev_dummy_cast(const struct netdev *netdev)
{
    return (struct netdev_dummy *) netdev;
}

static void
queue_init(struct dummy_queue *q)
{
    memset(q, 0, sizeof *q);
    latch_init(&q->latch);
}

static void
queue_destroy(struct dummy_queue *q)
{
    for (size_t i = 0; i < q->n; i++) {
        dp_packet_free(q->packets[(q->head + i) % q->allocated]);
    }
    free(q->packets);
    latch_destroy(&q->latch);
}

/* Appends 'p' to 'q' and returns true, or returns false if 'q' is full. */
static bool
queue_push(struct dummy_queue *q, struct dp_packet *p)
{
    if (q->n >= NETDEV_DUMMY_MAX_QUEUE) {
        return false;
    }
    if (q->n >= q->allocated) {
        size_t new_allocated = q->allocated ? 2 * q->allocated : 32;
        struct dp_packet **packets = xmalloc(new_allocated * sizeof *packets);

        for (size_t i = 0; i < q->n; i++) {
            packets[i] = q->packets[(q->head + i) % q->allocated];
        }
        free(q->packets);
        q->packets = packets;
        q->allocated = new_allocated;
        q->head = 0;
    }
    q->packets[(q->head + q->n++) % q->allocated] = p;
    return true;
}

/* netdev_dummy_queue_packet() with 'dev''s mutex held. */
static int
queue_packet_locked(struct netdev_dummy *dev, int qid,
                    struct dp_packet *packet)
{
    if (qid < 0 || qid >= dev->n_queues) {
        dp_packet_free(packet);
        return EINVAL;
    }
    if (dev->rxq_pcap) {
        pcap_file_write(dev->rxq_pcap, packet);
    }
    if (!queue_push(&dev->queues[qid], packet)) {
        dev->stats.rx_dropped++;
        dp_packet_free(packet);
        return ENOBUFS;
    }
    latch_set(&dev->queues[qid].latch);
    return 0;
}

static struct dp_packet *
queue_pop(struct dummy_queue *q)
{
    struct dp_packet *p;

    if (!q->n) {
        return NULL;
    }
    p = q->packets[q->head];
    q->head = (q->head + 1) % q->allocated;
    q->n--;
    return p;
}

/* Sets the receive queues of 'dev' to 'n', dropping what removed queues
 * held.  Called with the mutex held. */
static void
set_n_queues(struct netdev_dummy *dev, int n)
{
    if (n < dev->n_queues) {
        for (int i = n; i < dev->n_queues; i++) {
            queue_destroy(&dev->queues[i]);
        }
    }
    dev->queues = xrealloc(dev->queues, n * sizeof *dev->queues);
    for (int i = dev->n_queues; i < n; i++) {
        queue_init(&dev->queues[i]);
    }
    dev->n_queues = n;
}

/* Life cycle. */

static struct netdev *
netdev_dummy_alloc(void)
{
    struct netdev_dummy *dev = xzalloc(sizeof *dev);

    return &dev->up;
}

static int
netdev_dummy_construct(struct netdev *netdev)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    bool is_pmd = netdev->netdev_class->is_pmd;

    pthread_mutex_lock(&number_mutex);
    dev->number = next_number++;
    pthread_mutex_unlock(&number_mutex);

    pthread_mutex_init(&dev->mutex, NULL);
    dev->mac = (struct eth_addr) { { 0xaa, 0x55, 0xaa, 0x55,
                                     (dev->number >> 8) & 0xff,
                                     dev->number & 0xff } };
    dev->mtu = 1500;
    netdev->tx_copy_max = 1500 + ETH_HEADER_LEN + VLAN_HEADER_LEN;
    dev->flags = NETDEV_UP;
    dev->numa_id = is_pmd ? 0 : -1;

    memset(&dev->stats, 0, sizeof dev->stats);

    netdev->n_rxq = 1;
    netdev->n_txq = is_pmd ? NETDEV_DUMMY_PMD_N_TXQ : 1;
    dev->requested_n_rxq = netdev->n_rxq;
    dev->requested_n_txq = netdev->n_txq;
    set_n_queues(dev, 1);
    smap_init(&dev->options);
    return 0;
}

static void
netdev_dummy_destruct(struct netdev *netdev)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    dummy_link_destroy(dev);
    set_n_queues(dev, 0);
    free(dev->queues);
    if (dev->rxq_pcap != dev->tx_pcap) {
        pcap_file_close(dev->rxq_pcap);
    }
    pcap_file_close(dev->tx_pcap);
    netdev_dummy_set_keep_sent(netdev, 0);
    if (dev->offload) {
        netdev_offload_dummy.uninit_flow_api(netdev);
    }
    smap_destroy(&dev->options);
    pthread_mutex_destroy(&dev->mutex);
}

static void
netdev_dummy_dealloc(struct netdev *netdev)
{
    free(netdev_dummy_cast(netdev));
}

/* Configuration. */

/* Opens capture file 'name' for 'dev', reusing an open one of that name
 * (a reconfiguration with the same options must not truncate the file). */
static int
open_pcap(struct netdev_dummy *dev, const char *name, struct pcap_file **pf,
          char **errp)
{
    struct pcap_file *others[] = { dev->rxq_pcap, dev->tx_pcap };

    for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
        if (others[i] && !strcmp(pcap_file_name(others[i]), name)) {
            *pf = others[i];
            return 0;
        }
    }

    int error = pcap_file_open_write(name, pf);
    if (error) {
        *errp = xasprintf("%s: %s: cannot open for writing: %s",
                          dev->up.name, name, util_strerror(error));
    }
    return error;
}

static int
netdev_dummy_set_config(struct netdev *netdev, const struct smap *options,
                        char **errp)
{
    static const char *const known[] = {
        "n_rxq", "n_txq", "numa_id", "pcap", "rxq_pcap", "tx_pcap",
        "ol_ip_csum", "ol_tcp_csum", "ol_udp_csum", "ol_sctp_csum",
        "ol_multi_seg", "ifindex", "stream", "pstream",
        "reconfigure-delay-ms",
    };
    static const struct {
        const char *key;
        uint32_t cap;
    } caps[] = {
        { "ol_ip_csum", NETDEV_TX_IPV4_CSUM },
        { "ol_tcp_csum", NETDEV_TX_TCP_CSUM },
        { "ol_udp_csum", NETDEV_TX_UDP_CSUM },
        { "ol_sctp_csum", NETDEV_TX_SCTP_CSUM },
        { "ol_multi_seg", NETDEV_TX_MULTI_SEG },
    };
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    const struct smap_node *node;
    long long int n_rxq = 1, n_txq = 0;
    long long int numa_id = netdev->netdev_class->is_pmd ? 0 : -1;
    uint32_t tx_caps = 0;
    char *error = NULL;

    SMAP_FOR_EACH (node, options) {
        bool found = false;

        for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
            found = found || !strcmp(node->key, known[i]);
        }
        if (!found) {
            *errp = xasprintf("%s: unknown option \"%s\" for a %s port",
                              netdev->name, node->key,
                              netdev->netdev_class->type);
            return EINVAL;
        }
    }

    error = smap_parse_int(options, "n_rxq", 1, NETDEV_DUMMY_MAX_QUEUES,
                           &n_rxq);
    if (!error) {
        error = smap_parse_int(options, "n_txq", 1, NETDEV_DUMMY_MAX_QUEUES,
                               &n_txq);
    }
    if (!error) {
        error = smap_parse_int(options, "numa_id", -1, 1023, &numa_id);
    }
    long long int ifindex = 0;
    if (!error) {
        /* Open vSwitch's tests give dummy ports an ifindex for offloads;
         * it is accepted and kept. */
        error = smap_parse_int(options, "ifindex", 0, INT_MAX, &ifindex);
    }
    long long int delay_ms = 0;
    if (!error) {
        error = smap_parse_int(options, "reconfigure-delay-ms", 0, 60000,
                               &delay_ms);
    }
    for (size_t i = 0; !error && i < ARRAY_SIZE(caps); i++) {
        bool on = false;

        error = smap_parse_bool(options, caps[i].key, &on);
        tx_caps |= on ? caps[i].cap : 0;
    }
    if (error) {
        *errp = xasprintf("%s: %s", netdev->name, error);
        free(error);
        return EINVAL;
    }

    if (dummy_link_set(dev, options, errp)) {
        return EINVAL;
    }

    const char *pcap = smap_get(options, "pcap");
    const char *rxq_name = smap_get_def(options, "rxq_pcap", pcap);
    const char *tx_name = smap_get_def(options, "tx_pcap", pcap);
    struct pcap_file *rxq_pcap = NULL, *tx_pcap = NULL;
    int retval = 0;

    pthread_mutex_lock(&dev->mutex);
    if (rxq_name) {
        retval = open_pcap(dev, rxq_name, &rxq_pcap, errp);
    }
    if (!retval && tx_name) {
        if (rxq_pcap && !strcmp(rxq_name, tx_name)) {
            tx_pcap = rxq_pcap;
        } else {
            retval = open_pcap(dev, tx_name, &tx_pcap, errp);
        }
    }
    if (retval) {
        /* Close only what was opened here. */
        if (rxq_pcap && rxq_pcap != dev->rxq_pcap
            && rxq_pcap != dev->tx_pcap) {
            pcap_file_close(rxq_pcap);
        }
        pthread_mutex_unlock(&dev->mutex);
        return retval;
    }
    /* Close the files no longer used. */
    struct pcap_file *old[] = { dev->rxq_pcap, dev->tx_pcap };
    for (size_t i = 0; i < ARRAY_SIZE(old); i++) {
        if (old[i] && old[i] != rxq_pcap && old[i] != tx_pcap
            && (i == 0 || old[1] != old[0])) {
            pcap_file_close(old[i]);
        }
    }
    dev->rxq_pcap = rxq_pcap;
    dev->tx_pcap = tx_pcap;

    dev->numa_id = numa_id;
    __atomic_store_n(&dev->ifindex, (int) ifindex, __ATOMIC_RELAXED);
    dev->tx_caps = tx_caps;
    dev->requested_n_rxq = n_rxq;
    dev->options_n_txq = n_txq;
    dev->reconfigure_delay_ms = delay_ms;
    int want_txq = (n_txq ? n_txq
                    : dev->multiq_n_txq ? dev->multiq_n_txq
                    : netdev->netdev_class->is_pmd ? NETDEV_DUMMY_PMD_N_TXQ
                    : 1);
    dev->requested_n_txq = want_txq;
    smap_destroy(&dev->options);
    smap_clone(&dev->options, options);
    bool reconf = (dev->requested_n_rxq != netdev->n_rxq
                   || dev->requested_n_txq != netdev->n_txq);
    pthread_mutex_unlock(&dev->mutex);

    if (reconf) {
        netdev_request_reconfigure(netdev);
    }
    return 0;
}

/* Reports, for "dummy-pmd", the queue counts, which dpif/show prints as Open
 * vSwitch does.  Like Open vSwitch 3.1, it does not list the capture files
 * (they are in Interface:options). */
static int
netdev_dummy_get_config(const struct netdev *netdev, struct smap *args)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    pthread_mutex_lock(&dev->mutex);
    if (netdev->netdev_class->is_pmd) {
        smap_add_format(args, "requested_rx_queues", "%d",
                        dev->requested_n_rxq);
        smap_add_format(args, "configured_rx_queues", "%d", netdev->n_rxq);
        smap_add_format(args, "requested_tx_queues", "%d",
                        dev->requested_n_txq);
        smap_add_format(args, "configured_tx_queues", "%d", netdev->n_txq);
    }
    pthread_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_dummy_reconfigure(struct netdev *netdev, char **errp DPS_UNUSED)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    pthread_mutex_lock(&dev->mutex);
    int delay_ms = dev->reconfigure_delay_ms;
    pthread_mutex_unlock(&dev->mutex);
    if (delay_ms) {
        struct timespec ts = { delay_ms / 1000, delay_ms % 1000 * 1000000L };

        nanosleep(&ts, NULL);
    }

    pthread_mutex_lock(&dev->mutex);
    set_n_queues(dev, dev->requested_n_rxq);
    netdev->n_rxq = dev->requested_n_rxq;
    netdev->n_txq = dev->requested_n_txq;
    pthread_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_dummy_set_tx_multiq(struct netdev *netdev, int n_txq)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    bool reconf;

    pthread_mutex_lock(&dev->mutex);
    dev->multiq_n_txq = MIN(n_txq, NETDEV_DUMMY_MAX_QUEUES);
    if (!dev->options_n_txq) {
        dev->requested_n_txq = dev->multiq_n_txq;
    }
    reconf = dev->requested_n_txq != netdev->n_txq;
    pthread_mutex_unlock(&dev->mutex);
    if (reconf) {
        netdev_request_reconfigure(netdev);
    }
    return 0;
}

/* Transmit. */

static int
netdev_dummy_send(struct netdev *netdev, int qid DPS_UNUSED,
                  struct dp_packet_batch *batch,
                  bool concurrent_txq DPS_UNUSED)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    struct dp_packet *p;

    pthread_mutex_lock(&dev->mutex);
    size_t max_size = dev->mtu + ETH_HEADER_LEN + VLAN_HEADER_LEN;
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        uint32_t size = dp_packet_size(p);

        if (size > max_size) {
            /* Too long for the MTU: a real device would refuse it. */
            VLOG_DBG("%s: dropped a %"PRIu32"-byte packet longer than "
                     "the MTU", netdev->name, size);
            dev->stats.tx_dropped++;
            dp_packet_free(p);
            continue;
        }
        dev->stats.tx_packets++;
        dev->stats.tx_bytes += size;
        if (dev->tx_pcap) {
            pcap_file_write(dev->tx_pcap, p);
        }
        if (dev->link) {
            dummy_link_send(dev, p);
        }
        if (dev->keep_sent) {
            if (dev->n_sent == dev->keep_sent) {
                dp_packet_free(dev->sent[dev->sent_head]);
                dev->sent_head = (dev->sent_head + 1) % dev->keep_sent;
                dev->n_sent--;
            }
            dev->sent[(dev->sent_head + dev->n_sent++) % dev->keep_sent] = p;
        } else {
            dp_packet_free(p);
        }
    }
    pthread_mutex_unlock(&dev->mutex);
    dp_packet_batch_init(batch);
    return 0;
}

/* Addresses, MTU, link. */

static int
netdev_dummy_set_etheraddr(struct netdev *netdev, const struct eth_addr *mac)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    pthread_mutex_lock(&dev->mutex);
    bool changed = memcmp(&dev->mac, mac, sizeof *mac) != 0;
    dev->mac = *mac;
    pthread_mutex_unlock(&dev->mutex);
    if (changed) {
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

static int
netdev_dummy_get_etheraddr(const struct netdev *netdev, struct eth_addr *mac)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    pthread_mutex_lock(&dev->mutex);
    *mac = dev->mac;
    pthread_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_dummy_get_mtu(const struct netdev *netdev, int *mtu)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    pthread_mutex_lock(&dev->mutex);
    *mtu = dev->mtu;
    pthread_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_dummy_set_mtu(struct netdev *netdev, int mtu, char **errp)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    if (mtu < 68 || mtu > 65535) {
        *errp = xasprintf("%s: MTU %d is out of range 68 to 65535",
                          netdev->name, mtu);
        return EINVAL;
    }
    pthread_mutex_lock(&dev->mutex);
    bool changed = dev->mtu != mtu;
    dev->mtu = mtu;
    /* Chains longer than this are left to the MTU check in 'send'. */
    __atomic_store_n(&netdev->tx_copy_max,
                     mtu + ETH_HEADER_LEN + VLAN_HEADER_LEN,
                     __ATOMIC_RELAXED);
    pthread_mutex_unlock(&dev->mutex);
    if (changed) {
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

static int
netdev_dummy_get_carrier(const struct netdev *netdev DPS_UNUSED,
                         bool *carrier)
{
    *carrier = true;
    return 0;
}

static int
netdev_dummy_update_flags(struct netdev *netdev, enum netdev_flags off,
                          enum netdev_flags on, enum netdev_flags *old)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    if ((off | on) & ~(NETDEV_UP | NETDEV_PROMISC)) {
        return EINVAL;
    }
    pthread_mutex_lock(&dev->mutex);
    *old = dev->flags;
    dev->flags = (dev->flags & ~off) | on;
    pthread_mutex_unlock(&dev->mutex);
    return 0;
}

/* Statistics and status. */

static int
netdev_dummy_get_stats(const struct netdev *netdev, struct netdev_stats *stats)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    pthread_mutex_lock(&dev->mutex);
    stats->rx_packets = dev->stats.rx_packets;
    stats->rx_bytes = dev->stats.rx_bytes;
    stats->rx_dropped = dev->stats.rx_dropped;
    stats->tx_packets = dev->stats.tx_packets;
    stats->tx_bytes = dev->stats.tx_bytes;
    stats->tx_dropped = dev->stats.tx_dropped;
    pthread_mutex_unlock(&dev->mutex);
    return 0;
}

static uint32_t
netdev_dummy_get_tx_caps(const struct netdev *netdev)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    return __atomic_load_n(&dev->tx_caps, __ATOMIC_RELAXED);
}

/* options:ifindex, as Interface:ifindex (0 without it). */
static int
netdev_dummy_get_ifindex(const struct netdev *netdev)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    return __atomic_load_n(&dev->ifindex, __ATOMIC_RELAXED);
}

static int
netdev_dummy_get_numa_id(const struct netdev *netdev)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    return __atomic_load_n(&dev->numa_id, __ATOMIC_RELAXED);
}

/* Receive. */

static struct netdev_rxq *
netdev_dummy_rxq_alloc(void)
{
    struct netdev_rxq_dummy *rxq = xzalloc(sizeof *rxq);

    return &rxq->up;
}

static int
netdev_dummy_rxq_construct(struct netdev_rxq *rxq DPS_UNUSED)
{
    return 0;
}

static void
netdev_dummy_rxq_destruct(struct netdev_rxq *rxq DPS_UNUSED)
{
}

static void
netdev_dummy_rxq_dealloc(struct netdev_rxq *rxq)
{
    free(rxq);
}

static int
netdev_dummy_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch,
                      int *qfill)
{
    struct netdev_dummy *dev = netdev_dummy_cast(rxq->netdev);
    struct dummy_queue *q;
    int left = 0;

    pthread_mutex_lock(&dev->mutex);
    if (rxq->queue_id < dev->n_queues) {
        q = &dev->queues[rxq->queue_id];
        while (!dp_packet_batch_is_full(batch) && q->n) {
            struct dp_packet *p = queue_pop(q);

            dev->stats.rx_packets++;
            dev->stats.rx_bytes += dp_packet_size(p);
            dp_packet_batch_add(batch, p);
        }
        left = q->n;
    }
    pthread_mutex_unlock(&dev->mutex);

    if (batch->count && dev->offload) {
        netdev_offload_dummy_mark(dev->offload, batch);
    }
    if (qfill) {
        *qfill = left;
    }
    return batch->count ? 0 : EAGAIN;
}

static void
netdev_dummy_rxq_wait(struct netdev_rxq *rxq)
{
    struct netdev_dummy *dev = netdev_dummy_cast(rxq->netdev);
    bool ready = false;

    pthread_mutex_lock(&dev->mutex);
    if (rxq->queue_id < dev->n_queues) {
        struct dummy_queue *q = &dev->queues[rxq->queue_id];

        /* Clear the latch before looking at the queue: a packet queued
         * afterwards sets it again. */
        latch_poll(&q->latch);
        ready = q->n > 0;
        if (!ready) {
            latch_wait(&q->latch);
        }
    }
    pthread_mutex_unlock(&dev->mutex);
    if (ready) {
        poll_immediate_wake();
    }
}

/* Classes. */

#define NETDEV_DUMMY_CLASS(TYPE, IS_PMD, HAS_QOS, FLOW_API)     \
    {                                                           \
        .type = TYPE,                                           \
        .is_pmd = IS_PMD,                                       \
        .has_qos = HAS_QOS,                                     \
        .alloc = netdev_dummy_alloc,                            \
        .construct = netdev_dummy_construct,                    \
        .destruct = netdev_dummy_destruct,                      \
        .dealloc = netdev_dummy_dealloc,                        \
        .set_config = netdev_dummy_set_config,                  \
        .get_config = netdev_dummy_get_config,                  \
        .reconfigure = netdev_dummy_reconfigure,                \
        .send = netdev_dummy_send,                              \
        .set_etheraddr = netdev_dummy_set_etheraddr,            \
        .get_etheraddr = netdev_dummy_get_etheraddr,            \
        .get_mtu = netdev_dummy_get_mtu,                        \
        .set_mtu = netdev_dummy_set_mtu,                        \
        .get_carrier = netdev_dummy_get_carrier,                \
        .update_flags = netdev_dummy_update_flags,              \
        .get_stats = netdev_dummy_get_stats,                    \
        .get_tx_caps = netdev_dummy_get_tx_caps,                \
        .get_numa_id = netdev_dummy_get_numa_id,                \
        .get_ifindex = netdev_dummy_get_ifindex,                \
        .rxq_alloc = netdev_dummy_rxq_alloc,                    \
        .rxq_construct = netdev_dummy_rxq_construct,            \
        .rxq_destruct = netdev_dummy_rxq_destruct,              \
        .rxq_dealloc = netdev_dummy_rxq_dealloc,                \
        .rxq_recv = netdev_dummy_rxq_recv,                      \
        .rxq_wait = netdev_dummy_rxq_wait,                      \
        .set_tx_multiq = netdev_dummy_set_tx_multiq,            \
        .flow_api = FLOW_API,                                   \
    }

static const struct netdev_class dummy_class
    = NETDEV_DUMMY_CLASS("dummy", false, true, &netdev_offload_dummy);
static const struct netdev_class dummy_pmd_class
    = NETDEV_DUMMY_CLASS("dummy-pmd", true, true, &netdev_offload_dummy);
static const struct netdev_class dummy_internal_class
    = NETDEV_DUMMY_CLASS("dummy-internal", false, false,
                         &netdev_offload_dummy);

/* The bridge's local port in tests (--enable-dummy): a dummy port, as in
 * Open vSwitch's test datapath.  Without --enable-dummy, "internal" ports
 * are tap devices (lib/netdev-tap.c). */
static const struct netdev_class internal_class
    = NETDEV_DUMMY_CLASS("internal", false, false, &netdev_offload_dummy);

/* Stream links.
 *
 * options:pstream=punix:PATH makes a dummy port listen on a Unix domain
 * socket, options:stream=unix:PATH connects it to one (retrying, 1 s, 2 s,
 * 4 s, then every 8 s, and again after the peer closes), as Open vSwitch's
 * netdev-dummy does, so that dummy ports of different processes, or of
 * Open vSwitch's ovs-vswitchd and ours, exchange frames.  On the socket each
 * frame is its length as a 2-byte big-endian number followed by its bytes.
 * A frame sent on the port goes to every connected stream; a frame read
 * from one arrives on rx queue 0.  A passive port accepts any number of
 * connections.  As in Open vSwitch 3.1, the carrier stays up whatever the
 * connection does; netdev-dummy/conn-state tells how an active link is.
 *
 * One thread ("dummy_link") serves every link: it accepts, connects, reads
 * and flushes what senders could not write at once.  It takes 'link_mutex'
 * and then each port's mutex; senders take only the port's. */

/* Bytes a stream may have waiting to be sent; frames past that are
 * dropped (and counted in tx_dropped). */
#define DUMMY_LINK_MAX_TX (1024 * 1024)

/* The longest wait between two connection attempts, in ms. */
#define DUMMY_LINK_MAX_BACKOFF 8000

struct dummy_link_stream {
    struct stream *stream;
    uint8_t rx[2 + UINT16_MAX];    /* A frame being read, length first. */
    size_t rx_len;
    uint8_t *tx;                   /* Bytes still to be written. */
    size_t tx_len, tx_allocated;
};

struct dummy_link {
    char *name;                    /* "punix:..." or "unix:...". */
    bool passive;
    struct pstream *pstream;       /* Passive. */
    struct dummy_link_stream **streams;
    size_t n_streams;
    /* Active: the one stream, once open, and whether it has connected. */
    bool connected;
    long long int next_attempt;    /* When to open again, if no stream. */
    int backoff;                   /* ms, the wait after a failure. */
};

static pthread_mutex_t link_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct netdev_dummy **link_devs;     /* Ports with a link. */
static size_t n_link_devs;
static struct latch link_latch;             /* Wakes the link thread. */
static bool link_thread_started;

static void *dummy_link_thread_main(void *);
static void dummy_link_run(struct netdev_dummy *, long long int now);
static void dummy_link_wait(struct netdev_dummy *);
static void dummy_link_close_stream(struct netdev_dummy *, size_t i);
static bool dummy_link_flush(struct dummy_link_stream *);
static struct dummy_link *dummy_link_create(const char *name, bool passive,
                                            char **errp, const char *dev);
static void dummy_link_free(struct dummy_link *);

/* Applies options:stream and options:pstream of 'options' to 'dev'.
 * Returns 0, or EINVAL with a message in '*errp'. */
static int
dummy_link_set(struct netdev_dummy *dev, const struct smap *options,
               char **errp)
{
    const char *active = smap_get(options, "stream");
    const char *passive = smap_get(options, "pstream");
    const char *name = passive ? passive : active;
    struct dummy_link *link = NULL;

    if (active && passive) {
        *errp = xasprintf("%s: options stream and pstream exclude each "
                          "other", dev->up.name);
        return EINVAL;
    }

    pthread_mutex_lock(&link_mutex);
    pthread_mutex_lock(&dev->mutex);
    bool same = (dev->link ? name && dev->link->passive == (passive != NULL)
                 && !strcmp(dev->link->name, name) : !name);
    pthread_mutex_unlock(&dev->mutex);
    if (same) {
        pthread_mutex_unlock(&link_mutex);
        return 0;
    }
    if (name) {
        link = dummy_link_create(name, passive != NULL, errp, dev->up.name);
        if (!link) {
            pthread_mutex_unlock(&link_mutex);
            return EINVAL;
        }
    }

    pthread_mutex_lock(&dev->mutex);
    struct dummy_link *old = dev->link;
    dev->link = link;
    pthread_mutex_unlock(&dev->mutex);
    dummy_link_free(old);

    size_t i;
    for (i = 0; i < n_link_devs && link_devs[i] != dev; i++) {
        continue;
    }
    if (link && i == n_link_devs) {
        link_devs = xrealloc(link_devs, (n_link_devs + 1) * sizeof *link_devs);
        link_devs[n_link_devs++] = dev;
    } else if (!link && i < n_link_devs) {
        link_devs[i] = link_devs[--n_link_devs];
    }
    if (link && !link_thread_started) {
        pthread_t thread;

        latch_init(&link_latch);
        if (pthread_create(&thread, NULL, dummy_link_thread_main, NULL)) {
            util_fatal(0, "netdev-dummy: cannot start the link thread");
        }
        pthread_detach(thread);
        link_thread_started = true;
    }
    if (link_thread_started) {
        latch_set(&link_latch);
    }
    pthread_mutex_unlock(&link_mutex);
    return 0;
}

/* Takes 'dev''s link away (the streams close).  The link thread no longer
 * sees 'dev' once this returns. */
static void
dummy_link_destroy(struct netdev_dummy *dev)
{
    struct smap none = SMAP_INITIALIZER;
    char *error = NULL;

    dummy_link_set(dev, &none, &error);
    free(error);
}

/* Queues 'p' on every connected stream of 'dev''s link and writes what the
 * socket takes now.  Called with 'dev''s mutex held. */
static void
dummy_link_send(struct netdev_dummy *dev, const struct dp_packet *p)
{
    struct dummy_link *link = dev->link;
    uint32_t size = dp_packet_size(p);
    bool pending = false;

    if (size > UINT16_MAX) {
        dev->stats.tx_dropped++;
        return;
    }
    for (size_t i = 0; i < link->n_streams; i++) {
        struct dummy_link_stream *ls = link->streams[i];

        if (!link->passive && !link->connected) {
            continue;
        }
        if (ls->tx_len + 2 + size > DUMMY_LINK_MAX_TX) {
            dev->stats.tx_dropped++;
            continue;
        }
        if (ls->tx_len + 2 + size > ls->tx_allocated) {
            ls->tx_allocated = MAX(2 * ls->tx_allocated,
                                   ls->tx_len + 2 + size);
            ls->tx = xrealloc(ls->tx, ls->tx_allocated);
        }
        ls->tx[ls->tx_len] = size >> 8;
        ls->tx[ls->tx_len + 1] = size & 0xff;
        dp_packet_copy_out(p, 0, size, &ls->tx[ls->tx_len + 2]);
        ls->tx_len += 2 + size;
        pending |= !dummy_link_flush(ls);
    }
    if (pending) {
        latch_set(&link_latch);
    }
}

/* "connected" or "disconnected" for an active link, "unknown" otherwise
 * (as Open vSwitch's netdev-dummy/conn-state).  With 'dev''s mutex held. */
static const char *
dummy_link_state(const struct netdev_dummy *dev)
{
    if (!dev->link || dev->link->passive) {
        return "unknown";
    }
    return dev->link->connected ? "connected" : "disconnected";
}

static struct dummy_link *
dummy_link_create(const char *name, bool passive, char **errp,
                  const char *dev_name)
{
    struct dummy_link *link = xzalloc(sizeof *link);
    int error;

    link->name = xstrdup(name);
    link->passive = passive;
    link->backoff = 1000;
    if (passive) {
        error = pstream_verify_name(name);
        if (!error) {
            error = pstream_open(name, &link->pstream);
        }
    } else {
        error = stream_verify_name(name);
    }
    if (error) {
        *errp = xasprintf("%s: %s \"%s\": %s", dev_name,
                          passive ? "cannot listen on" : "bad stream",
                          name, util_strerror(error));
        dummy_link_free(link);
        return NULL;
    }
    return link;
}

static void
dummy_link_free(struct dummy_link *link)
{
    if (!link) {
        return;
    }
    for (size_t i = 0; i < link->n_streams; i++) {
        stream_close(link->streams[i]->stream);
        free(link->streams[i]->tx);
        free(link->streams[i]);
    }
    free(link->streams);
    pstream_close(link->pstream);
    free(link->name);
    free(link);
}

static void *
dummy_link_thread_main(void *aux DPS_UNUSED)
{
    vlog_set_thread_name("dummy_link");
    for (;;) {
        pthread_mutex_lock(&link_mutex);
        latch_poll(&link_latch);
        long long int now = time_msec();
        for (size_t i = 0; i < n_link_devs; i++) {
            struct netdev_dummy *dev = link_devs[i];

            pthread_mutex_lock(&dev->mutex);
            dummy_link_run(dev, now);
            dummy_link_wait(dev);
            pthread_mutex_unlock(&dev->mutex);
        }
        latch_wait(&link_latch);
        pthread_mutex_unlock(&link_mutex);
        poll_block();
    }
    return NULL;
}

static void
dummy_link_add_stream(struct dummy_link *link, struct stream *stream)
{
    struct dummy_link_stream *ls = xzalloc(sizeof *ls);

    ls->stream = stream;
    link->streams = xrealloc(link->streams,
                             (link->n_streams + 1) * sizeof *link->streams);
    link->streams[link->n_streams++] = ls;
}

/* Reads what stream 'ls' has and queues each complete frame on 'dev'.
 * Returns false once the stream is closed or broken. */
static bool
dummy_link_recv(struct netdev_dummy *dev, struct dummy_link_stream *ls)
{
    for (;;) {
        size_t want = 2;

        if (ls->rx_len >= 2) {
            want += ls->rx[0] << 8 | ls->rx[1];
        }
        if (ls->rx_len == want && want > 2) {
            struct rte_mempool *pool = (receive_pool ? receive_pool
                                        : dpdk_default_pool());
            struct dp_packet *p = (pool
                                   ? dp_packet_alloc_data(pool, &ls->rx[2],
                                                          want - 2)
                                   : NULL);
            if (p) {
                dp_packet_md_reset(p);
                queue_packet_locked(dev, 0, p);
            } else {
                dev->stats.rx_dropped++;
            }
            ls->rx_len = 0;
            continue;
        } else if (ls->rx_len == want) {
            /* A frame of length 0: nothing to deliver. */
            ls->rx_len = 0;
            continue;
        }

        ssize_t n = stream_recv(ls->stream, &ls->rx[ls->rx_len],
                                want - ls->rx_len);
        if (n == -EAGAIN) {
            return true;
        } else if (n <= 0) {
            return false;
        }
        ls->rx_len += n;
    }
}

/* Writes what 'ls' can take of its pending bytes.  Returns true if nothing
 * is left (or the stream broke: the reader then finds out). */
static bool
dummy_link_flush(struct dummy_link_stream *ls)
{
    while (ls->tx_len) {
        ssize_t n = stream_send(ls->stream, ls->tx, ls->tx_len);

        if (n == -EAGAIN) {
            return false;
        } else if (n < 0) {
            ls->tx_len = 0;
            break;
        }
        memmove(ls->tx, ls->tx + n, ls->tx_len - n);
        ls->tx_len -= n;
    }
    return true;
}

static void
dummy_link_run(struct netdev_dummy *dev, long long int now)
{
    struct dummy_link *link = dev->link;

    if (link->passive) {
        struct stream *stream;

        while (!pstream_accept(link->pstream, &stream)) {
            VLOG_INFO("%s: accepted a connection on %s", dev->up.name,
                      link->name);
            dummy_link_add_stream(link, stream);
        }
    } else if (!link->n_streams && now >= link->next_attempt) {
        struct stream *stream;
        int error = stream_open(link->name, &stream);

        if (error) {
            VLOG_INFO("%s: %s: connection attempt failed (%s)",
                      dev->up.name, link->name, util_strerror(error));
            link->next_attempt = now + link->backoff;
            link->backoff = MIN(2 * link->backoff, DUMMY_LINK_MAX_BACKOFF);
        } else {
            dummy_link_add_stream(link, stream);
        }
    }
    if (!link->passive && link->n_streams && !link->connected) {
        int error = stream_connect(link->streams[0]->stream);

        if (!error) {
            VLOG_INFO("%s: %s: connected", dev->up.name, link->name);
            link->connected = true;
            link->backoff = 1000;
        } else if (error != EAGAIN) {
            VLOG_INFO("%s: %s: connection attempt failed (%s)",
                      dev->up.name, link->name, util_strerror(error));
            dummy_link_close_stream(dev, 0);
            link->next_attempt = now + link->backoff;
            link->backoff = MIN(2 * link->backoff, DUMMY_LINK_MAX_BACKOFF);
            return;
        } else {
            return;
        }
    }

    for (size_t i = 0; i < link->n_streams; ) {
        struct dummy_link_stream *ls = link->streams[i];

        if (dummy_link_recv(dev, ls)) {
            dummy_link_flush(ls);
            i++;
        } else {
            VLOG_INFO("%s: %s: connection closed", dev->up.name,
                      link->name);
            dummy_link_close_stream(dev, i);
            if (!link->passive) {
                link->next_attempt = now + link->backoff;
            }
        }
    }
}

static void
dummy_link_wait(struct netdev_dummy *dev)
{
    struct dummy_link *link = dev->link;

    if (link->passive) {
        pstream_wait(link->pstream);
    } else if (!link->n_streams) {
        poll_timer_wait_until(link->next_attempt);
    } else if (!link->connected) {
        stream_connect_wait(link->streams[0]->stream);
        return;
    }
    for (size_t i = 0; i < link->n_streams; i++) {
        stream_recv_wait(link->streams[i]->stream);
        if (link->streams[i]->tx_len) {
            stream_send_wait(link->streams[i]->stream);
        }
    }
}

static void
dummy_link_close_stream(struct netdev_dummy *dev, size_t i)
{
    struct dummy_link *link = dev->link;
    struct dummy_link_stream *ls = link->streams[i];

    stream_close(ls->stream);
    free(ls->tx);
    free(ls);
    link->streams[i] = link->streams[--link->n_streams];
    if (!link->passive) {
        link->connected = false;
    }
}

/* unixctl commands. */

static int
hex_digit(char c)
{
    return (c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
            : -1);
}

/* Parses 's' as a frame in hex (at least an Ethernet header's worth, no
 * spaces).  Returns the packet, or NULL if 's' is not one. */
static struct dp_packet *
packet_from_hex(const char *s, struct rte_mempool *pool)
{
    size_t len = strlen(s);

    if (len % 2 || len < 2 * ETH_HEADER_LEN) {
        return NULL;
    }

    uint8_t *bytes = xmalloc(len / 2);
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hex_digit(s[2 * i]);
        int lo = hex_digit(s[2 * i + 1]);

        if (hi < 0 || lo < 0) {
            free(bytes);
            return NULL;
        }
        bytes[i] = hi << 4 | lo;
    }

    struct dp_packet *p = dp_packet_alloc_data(pool, bytes, len / 2);
    free(bytes);
    return p;
}

/* Appends 'n' zero bytes to 'p', in more segments if needed.  Returns 0 or
 * ENOBUFS. */
static int
pad_with_zeros(struct dp_packet *p, size_t n)
{
    static const uint8_t zeros[1024];

    while (n) {
        size_t chunk = MIN(n, sizeof zeros);

        if (dp_packet_put(p, zeros, chunk)) {
            return ENOBUFS;
        }
        n -= chunk;
    }
    return 0;
}

/* After 'p' grew at its end, sets the IPv4 total length, IPv6 payload length
 * and UDP length to match and completes the checksums again. */
static void
fix_lengths(struct dp_packet *p)
{
    uint32_t size = dp_packet_size(p);
    uint8_t *l3 = dp_packet_l3(p);

    if (!l3) {
        return;
    }
    if (l3[0] >> 4 == 4) {
        struct ipv4_header *ip = (struct ipv4_header *) l3;

        ip->tot_len = htons(size - p->md.l3_ofs);
        p->md.ip_csum = DP_CSUM_PARTIAL;
    } else if (l3[0] >> 4 == 6) {
        struct ipv6_header *ip6 = (struct ipv6_header *) l3;

        ip6->payload_len = htons(size - p->md.l3_ofs - IPV6_HEADER_LEN);
    }
    if (p->md.l4_ofs != DP_PACKET_OFS_NONE) {
        if (p->md.l4_proto == IPPROTO_UDP) {
            uint16_t len = htons(size - p->md.l4_ofs);

            dp_packet_copy_in(p, p->md.l4_ofs + 4, 2, &len);
        }
        p->md.l4_csum = DP_CSUM_PARTIAL;
    }
    dp_packet_tx_prepare(p, 0);
}

/* Composes a packet from datapath flow 'flow_s', 'size' bytes long if
 * 'size' is nonzero (a chain if it does not fit one segment).  Returns NULL
 * and an error message in '*errorp' on failure. */
static struct dp_packet *
packet_from_flow(const char *flow_s, size_t size, struct rte_mempool *pool,
                 char **errorp)
{
    struct dp_packet *p;
    char *error;

    error = odp_packet_compose(flow_s, pool, 0, &p);
    if (error) {
        *errorp = error;
        return NULL;
    }

    bool has_l4 = p->md.l4_ofs != DP_PACKET_OFS_NONE;
    if (!size) {
        if (p->md.l4_proto != IPPROTO_TCP && p->md.l4_proto != IPPROTO_UDP
            && p->md.l4_proto != IPPROTO_SCTP) {
            return p;
        }

        /* A recognisable payload, as Open vSwitch composes, with the L4
         * checksum completed again. */
        dp_packet_free(p);
        error = odp_packet_compose(flow_s, pool, NETDEV_DUMMY_L4_PAYLOAD,
                                   &p);
        if (error) {
            *errorp = error;
            return NULL;
        }
        size_t start = dp_packet_size(p) - NETDEV_DUMMY_L4_PAYLOAD;
        for (size_t i = 0; i < NETDEV_DUMMY_L4_PAYLOAD; i++) {
            uint8_t b = i;

            dp_packet_copy_in(p, start + i, 1, &b);
        }
        p->md.l4_csum = DP_CSUM_PARTIAL;
        dp_packet_tx_prepare(p, 0);
        return p;
    }

    if (size < dp_packet_size(p)) {
        *errorp = xasprintf("--len %zu is shorter than the %"PRIu32
                            " bytes of headers of \"%s\"",
                            size, dp_packet_size(p), flow_s);
        dp_packet_free(p);
        return NULL;
    }
    size_t payload = size - dp_packet_size(p);
    if (!payload) {
        return p;
    }

    if (has_l4) {
        /* Let the L4 header carry the payload: compose again.  That works
         * while the packet fits one segment. */
        struct dp_packet *q;

        error = odp_packet_compose(flow_s, pool, payload, &q);
        if (!error) {
            dp_packet_free(p);
            return q;
        }
        free(error);
    }

    /* Longer than a segment, or no L4 header: zeros at the end, and the
     * lengths and checksums made right again. */
    if (pad_with_zeros(p, payload)) {
        *errorp = xasprintf("cannot make a %zu-byte packet: out of packet "
                            "memory", size);
        dp_packet_free(p);
        return NULL;
    }
    fix_lengths(p);
    return p;
}

static void
netdev_dummy_receive_cmd(struct unixctl_conn *conn, int argc,
                         const char *argv[], void *aux DPS_UNUSED)
{
    struct rte_mempool *pool = (receive_pool ? receive_pool
                                : dpdk_default_pool());
    struct netdev *netdev;
    int qid = 0;
    int i = 2;

    netdev = netdev_from_name(argv[1]);
    if (!netdev || !netdev_dummy_is_dummy(netdev)) {
        unixctl_command_reply_error(conn, "no such dummy netdev");
        netdev_close(netdev);
        return;
    }
    if (!pool) {
        unixctl_command_reply_error(conn, "no packet memory: DPDK's EAL is "
                                    "not initialized");
        netdev_close(netdev);
        return;
    }

    if (argc > 3 && !strcmp(argv[2], "--qid")) {
        if (!util_str_to_int(argv[3], 10, &qid)
            || qid < 0 || qid >= netdev_n_rxq(netdev)) {
            unixctl_command_reply_error(conn, "bad rx queue id.");
            netdev_close(netdev);
            return;
        }
        i = 4;
    }

    /* Parse every packet before queuing any: an error queues nothing. */
    struct dp_packet **list = xmalloc(argc * sizeof *list);
    size_t n = 0;
    char *error = NULL;

    for (; i < argc; i++) {
        struct dp_packet *p = packet_from_hex(argv[i], pool);

        if (!p) {
            const char *flow_s = argv[i];
            int size = 0;

            if (i + 1 < argc && !strcmp(argv[i + 1], "--len")) {
                if (i + 2 >= argc || !util_str_to_int(argv[i + 2], 10, &size)
                    || size < 60) {
                    error = xstrdup("too small packet len");
                    break;
                }
                i += 2;
            }
            p = packet_from_flow(flow_s, size, pool, &error);
            if (!p) {
                char *e = xasprintf("%s: bad packet or flow syntax: %s",
                                    flow_s, error);
                free(error);
                error = e;
                break;
            }
        }
        /* What a device without checksum offload reports: nothing. */
        dp_packet_md_reset(p);
        list[n++] = p;
    }

    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        for (size_t j = 0; j < n; j++) {
            dp_packet_free(list[j]);
        }
    } else {
        int retval = 0;

        for (size_t j = 0; j < n; j++) {
            int e = netdev_dummy_queue_packet(netdev, qid, list[j]);

            retval = retval ? retval : e;
        }
        if (retval) {
            unixctl_command_reply_error(conn, "receive queue is full: "
                                        "packets dropped");
        } else {
            unixctl_command_reply(conn, NULL);
        }
    }
    free(list);
    netdev_close(netdev);
}

static void
set_admin_state(struct netdev *netdev, bool up)
{
    if (up) {
        netdev_turn_flags_on(netdev, NETDEV_UP);
    } else {
        netdev_turn_flags_off(netdev, NETDEV_UP);
    }
}

/* netdev-dummy/set-admin-state [NETDEV] up|down: every dummy netdev, or
 * the one named. */
static void
netdev_dummy_set_admin_state_cmd(struct unixctl_conn *conn, int argc,
                                 const char *argv[], void *aux DPS_UNUSED)
{
    const char *name = argc > 2 ? argv[1] : NULL;
    struct netdev **all;
    bool found = !name;
    size_t n;
    bool up;

    if (!netdev_parse_admin_state(conn, argc, argv, &up)) {
        return;
    }
    n = netdev_get_open(NULL, &all);
    for (size_t i = 0; i < n; i++) {
        if (netdev_dummy_is_dummy(all[i])
            && (!name || !strcmp(netdev_get_name(all[i]), name))) {
            set_admin_state(all[i], up);
            found = true;
        }
        netdev_close(all[i]);
    }
    free(all);
    if (found) {
        unixctl_command_reply(conn, "OK");
    } else {
        unixctl_command_reply_error(conn, "Unknown Dummy Interface");
    }
}

/* netdev-dummy/conn-state [NETDEV]: "NAME: STATE" for the port named (any
 * name: "unknown" if it is not a dummy with an active link), or for every
 * dummy port with an active link, as Open vSwitch prints it. */
static void
netdev_dummy_conn_state_cmd(struct unixctl_conn *conn, int argc,
                            const char *argv[], void *aux DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct netdev **all;
    size_t n = netdev_get_open(NULL, &all);
    bool found = false;

    for (size_t i = 0; i < n; i++) {
        struct netdev *netdev = all[i];

        if (netdev_dummy_is_dummy(netdev)
            && (argc < 2 || !strcmp(netdev_get_name(netdev), argv[1]))) {
            struct netdev_dummy *dev = netdev_dummy_cast(netdev);

            pthread_mutex_lock(&dev->mutex);
            const char *state = dummy_link_state(dev);
            if (argc > 1 || strcmp(state, "unknown")) {
                ds_put_format(&ds, "%s: %s\n", netdev_get_name(netdev),
                              state);
                found = true;
            }
            pthread_mutex_unlock(&dev->mutex);
        }
        netdev_close(netdev);
    }
    free(all);
    if (argc > 1 && !found) {
        ds_put_format(&ds, "%s: unknown\n", argv[1]);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
netdev_dummy_register_commands(void)
{
    unixctl_command_register("netdev-dummy/conn-state", "[netdev]", 0, 1,
                             netdev_dummy_conn_state_cmd, NULL);
    unixctl_command_register("netdev-dummy/receive",
                             "name [--qid queue_id] packet|flow "
                             "[--len packet_len]",
                             2, INT_MAX, netdev_dummy_receive_cmd, NULL);
    unixctl_command_register("netdev-dummy/set-admin-state",
                             "[netdev] up|down", 1, 2,
                             netdev_dummy_set_admin_state_cmd, NULL);
}
