/* "afxdp" ports: an existing kernel interface attached through AF_XDP
 * sockets, polled by PMD threads.  See netdev-linux.h and
 * Documentation/topics/kernel-ports.rst.
 *
 * Memory.  A port has one UMEM, an anonymous mapping registered with the
 * kernel once and shared by the sockets of all its queues (the first
 * socket owns it, the others bind with XDP_SHARED_UMEM).  The UMEM is cut
 * into AFXDP_FRAME_SIZE frames and each queue owns a contiguous share of
 * them: AFXDP_RING_SIZE frames that live in its fill ring and come back
 * through its rx ring, and as many for transmission, kept on a free stack
 * when not in the tx ring or completion ring.  A queue touches only its
 * own frames, so no lock is needed between queues.
 *
 * Packets.  dpswitch's packets are DPDK mbufs, so frames are copied: a
 * received frame into a fresh packet of the default pool, its UMEM frame
 * straight back to the fill ring; a packet to send into a free UMEM frame.
 * Receive and transmit work in batches: one peek of the rx ring, one
 * reservation of the fill ring, one of the tx ring per batch, and one
 * wakeup system call per batch when the kernel asks for it
 * (options:use-need-wakeup) or always without it.
 *
 * Modes (options:xdp-mode): "native-with-zerocopy" (XDP program in the
 * driver, frames DMAed into the UMEM), "native" (in the driver, copied),
 * "generic" (after the kernel made an skb, any device), and the default
 * "best-effort", which takes the first of those three that works.  The XDP
 * program is libxdp's default one, which redirects frames of a queue to
 * the socket bound to it; it is removed with the last socket.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include <xdp/xsk.h>
#include "coverage.h"
#include "dp-packet.h"
#include "dpdk.h"
#include "netdev-linux.h"
#include "netdev-provider.h"
#include "smap.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_afxdp);

COVERAGE_DEFINE(afxdp_fq_full);
COVERAGE_DEFINE(afxdp_tx_full);
COVERAGE_DEFINE(afxdp_cq_empty);

#define AFXDP_FRAME_SIZE XSK_UMEM__DEFAULT_FRAME_SIZE   /* 4096. */
#define AFXDP_RING_SIZE 2048
#define AFXDP_FRAMES_PER_Q (2 * AFXDP_RING_SIZE)
#define AFXDP_MAX_QUEUES 16

/* Open vSwitch's limit: a frame less the headroom it keeps. */
#define AFXDP_MAX_MTU (AFXDP_FRAME_SIZE - 128)

enum afxdp_mode {
    AFXDP_BEST_EFFORT,
    AFXDP_NATIVE_ZC,
    AFXDP_NATIVE,
    AFXDP_GENERIC,
};

static const char *const mode_names[] = {
    [AFXDP_BEST_EFFORT] = "best-effort",
    [AFXDP_NATIVE_ZC] = "native-with-zerocopy",
    [AFXDP_NATIVE] = "native",
    [AFXDP_GENERIC] = "generic",
};

/* One queue: a socket and its four rings. */
struct afxdp_queue {
    struct xsk_socket *xsk;
    struct xsk_ring_cons rx;
    struct xsk_ring_prod tx;
    struct xsk_ring_prod fq;
    struct xsk_ring_cons cq;
    uint64_t base;              /* First byte of the queue's frames. */

    /* Transmit side, under 'tx_mutex' when senders share the queue. */
    pthread_mutex_t tx_mutex;
    uint64_t *tx_free;          /* Free tx frames, a stack. */
    uint32_t n_tx_free;
};

struct netdev_afxdp {
    struct netdev up;

    /* Constant after construction. */
    int ifindex;

    /* Main thread only.  Requested by set_config(), applied by
     * reconfigure(). */
    int requested_n_rxq;
    enum afxdp_mode requested_mode;
    bool requested_need_wakeup;

    /* Set by reconfigure(), read by the polling threads after it. */
    enum afxdp_mode mode_in_use;    /* AFXDP_BEST_EFFORT: none works. */
    bool need_wakeup;
    void *area;
    size_t area_size;
    struct xsk_umem *umem;
    struct afxdp_queue *queues;
    int n_queues;               /* Sockets open, 0 on failure. */

    char *error;                /* Interface:error, or NULL. */

    /* Counted here, on top of the kernel's counters.  Atomic. */
    uint64_t rx_dropped, tx_dropped, tx_errors;
};

static const struct netdev_class afxdp_class;

static int
afxdp_libbpf_print(enum libbpf_print_level level, const char *format,
                   va_list args);
static int
afxdp_libxdp_print(enum libxdp_print_level level, const char *format,
                   va_list args);

/* See netdev-linux.h. */
void
netdev_afxdp_register(void)
{
    libbpf_set_print(afxdp_libbpf_print);
    libxdp_set_print(afxdp_libxdp_print);
    netdev_register_class(&afxdp_class);
}

static struct netdev_afxdp *
netdev_afxdp_cast(const struct netdev *netdev)
{
    return (struct netdev_afxdp *) netdev;
}

static void afxdp_close(struct netdev_afxdp *);
static int afxdp_open(struct netdev_afxdp *, enum afxdp_mode, int n_rxq,
                      bool need_wakeup);

/* libbpf and libxdp talk on stderr; their words go to the log instead. */
static int
afxdp_print(const char *level, const char *format, va_list args)
{
    char buf[512];

    vsnprintf(buf, sizeof buf, format, args);
    buf[strcspn(buf, "\n")] = '\0';
    VLOG_DBG("%s: %s", level, buf);
    return 0;
}

static int
afxdp_libbpf_print(enum libbpf_print_level level, const char *format,
                   va_list args)
{
    return afxdp_print(level == LIBBPF_WARN ? "libbpf warning" : "libbpf",
                       format, args);
}

static int
afxdp_libxdp_print(enum libxdp_print_level level, const char *format,
                   va_list args)
{
    return afxdp_print(level == LIBXDP_WARN ? "libxdp warning" : "libxdp",
                       format, args);
}

/* Life cycle. */

static struct netdev *
netdev_afxdp_alloc(void)
{
    struct netdev_afxdp *dev = xzalloc(sizeof *dev);

    return &dev->up;
}

static int
netdev_afxdp_construct(struct netdev *netdev)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);
    int error = netdev_linux_get_ifindex(netdev->name, &dev->ifindex);

    if (error) {
        VLOG_WARN("%s: cannot attach the kernel interface (%s)",
                  netdev->name, util_strerror(error));
        return error;
    }
    dev->requested_n_rxq = 1;
    dev->requested_mode = AFXDP_BEST_EFFORT;
    dev->requested_need_wakeup = true;
    netdev->n_rxq = 1;
    netdev->n_txq = 1;
    /* The sockets are opened by the first reconfiguration, which the
     * datapath does when it adds the port. */
    netdev_request_reconfigure(netdev);
    return 0;
}

static void
netdev_afxdp_destruct(struct netdev *netdev)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);

    afxdp_close(dev);
    free(dev->error);
}

static void
netdev_afxdp_dealloc(struct netdev *netdev)
{
    free(netdev_afxdp_cast(netdev));
}

/* Configuration. */

static int
netdev_afxdp_set_config(struct netdev *netdev, const struct smap *options,
                        char **errp)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);
    const struct smap_node *node;
    long long int n_rxq = 1;
    bool need_wakeup = true;
    char *error = NULL;

    SMAP_FOR_EACH (node, options) {
        if (strcmp(node->key, "n_rxq") && strcmp(node->key, "xdp-mode")
            && strcmp(node->key, "use-need-wakeup")) {
            *errp = xasprintf("%s: unknown option \"%s\" for an afxdp port",
                              netdev->name, node->key);
            return EINVAL;
        }
    }

    error = smap_parse_int(options, "n_rxq", 1, AFXDP_MAX_QUEUES, &n_rxq);
    if (!error) {
        error = smap_parse_bool(options, "use-need-wakeup", &need_wakeup);
    }
    if (error) {
        *errp = xasprintf("%s: %s", netdev->name, error);
        free(error);
        return EINVAL;
    }

    const char *name = smap_get_def(options, "xdp-mode", "best-effort");
    enum afxdp_mode mode = AFXDP_BEST_EFFORT;
    size_t i;
    for (i = 0; i < ARRAY_SIZE(mode_names); i++) {
        if (!strcmp(name, mode_names[i])) {
            mode = i;
            break;
        }
    }
    if (i == ARRAY_SIZE(mode_names)) {
        *errp = xasprintf("%s: Incorrect xdp-mode (%s).", netdev->name,
                          name);
        return EINVAL;
    }

    if (n_rxq != dev->requested_n_rxq || mode != dev->requested_mode
        || need_wakeup != dev->requested_need_wakeup) {
        dev->requested_n_rxq = n_rxq;
        dev->requested_mode = mode;
        dev->requested_need_wakeup = need_wakeup;
        netdev_request_reconfigure(netdev);
    }
    return 0;
}

static int
netdev_afxdp_get_config(const struct netdev *netdev, struct smap *args)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);

    smap_add_format(args, "n_rxq", "%d", netdev->n_rxq);
    smap_add(args, "xdp-mode", mode_names[dev->requested_mode]);
    smap_add(args, "use-need-wakeup",
             dev->requested_need_wakeup ? "true" : "false");
    return 0;
}

static void
set_error(struct netdev_afxdp *dev, char *error)
{
    free(dev->error);
    dev->error = error;
    netdev_change_seq_changed(&dev->up);
}

/* The number of receive queues of kernel device 'name', or -1. */
static int
device_n_rxq(const char *name)
{
    char *path = xasprintf("/sys/class/net/%s/queues", name);
    DIR *dir = opendir(path);
    struct dirent *de;
    int n = 0;

    free(path);
    if (!dir) {
        return -1;
    }
    while ((de = readdir(dir))) {
        n += !strncmp(de->d_name, "rx-", 3);
    }
    closedir(dir);
    return n;
}

static int
netdev_afxdp_reconfigure(struct netdev *netdev, char **errp)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);
    enum afxdp_mode first = dev->requested_mode, last = first;
    int n_rxq = dev->requested_n_rxq;
    int error = 0;

    afxdp_close(dev);
    if (first == AFXDP_BEST_EFFORT) {
        first = AFXDP_NATIVE_ZC;
        last = AFXDP_GENERIC;
    }
    for (enum afxdp_mode mode = first; mode <= last; mode++) {
        /* The kernel lets go of the sockets just closed, and of their
         * queues, a little later: EBUSY until then. */
        for (int try = 0; try < 20; try++) {
            error = afxdp_open(dev, mode, n_rxq, dev->requested_need_wakeup);
            if (error != EBUSY) {
                break;
            }
            usleep(50 * 1000);
        }
        if (!error) {
            break;
        }
        VLOG_INFO("%s: %s XDP mode failed on %d queue(s) (%s)",
                  netdev->name, mode_names[mode], n_rxq,
                  util_strerror(error));
    }

    netdev->n_rxq = n_rxq;
    netdev->n_txq = n_rxq;
    int n_dev = error ? device_n_rxq(netdev->name) : -1;
    if (error && n_dev > 0 && n_rxq > n_dev) {
        char *msg = xasprintf("%s: cannot open %d AF_XDP socket(s) in %s "
                              "mode (the device has %d receive queue%s)",
                              netdev->name, n_rxq,
                              first == last ? mode_names[first] : "any XDP",
                              n_dev, n_dev == 1 ? "" : "s");
        *errp = xstrdup(msg);
        set_error(dev, msg);
        return error;
    } else if (error) {
        char *msg = (first == last
                     ? xasprintf("%s: cannot open %d AF_XDP socket(s) in %s "
                                 "mode (%s)", netdev->name, n_rxq,
                                 mode_names[first], util_strerror(error))
                     : xasprintf("%s: cannot open %d AF_XDP socket(s) in "
                                 "any XDP mode (%s)", netdev->name, n_rxq,
                                 util_strerror(error)));
        *errp = xstrdup(msg);
        set_error(dev, msg);
        return error;
    }
    VLOG_INFO("%s: %s XDP mode in use, %d queue(s), need_wakeup %s",
              netdev->name, mode_names[dev->mode_in_use], n_rxq,
              dev->need_wakeup ? "on" : "off");
    set_error(dev, NULL);
    return 0;
}

/* Transmit. */

/* Takes back the frames the kernel has sent on 'q'. */
static void
reap_completions(struct afxdp_queue *q)
{
    uint32_t idx;
    uint32_t n = xsk_ring_cons__peek(&q->cq, AFXDP_RING_SIZE, &idx);

    for (uint32_t i = 0; i < n; i++) {
        q->tx_free[q->n_tx_free++] = *xsk_ring_cons__comp_addr(&q->cq,
                                                              idx + i);
    }
    if (n) {
        xsk_ring_cons__release(&q->cq, n);
    }
}

static void
kick_tx(struct netdev_afxdp *dev, struct afxdp_queue *q)
{
    if (!dev->need_wakeup || xsk_ring_prod__needs_wakeup(&q->tx)) {
        int retval = sendto(xsk_socket__fd(q->xsk), NULL, 0, MSG_DONTWAIT,
                            NULL, 0);

        if (retval < 0 && errno != EAGAIN && errno != EBUSY
            && errno != ENOBUFS && errno != EINTR) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

            VLOG_WARN_RL(&rl, "%s: error sending AF_XDP packets: %s",
                         dev->up.name, util_strerror(errno));
        }
    }
}

static int
netdev_afxdp_send(struct netdev *netdev, int qid,
                  struct dp_packet_batch *batch, bool concurrent_txq)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);
    uint64_t n_dropped = 0, n_errors = 0;

    if (!dev->n_queues) {
        netdev_linux_counter_add(&dev->tx_dropped, batch->count);
        dp_packet_batch_free(batch);
        return 0;
    }

    struct afxdp_queue *q = &dev->queues[qid % dev->n_queues];
    if (concurrent_txq) {
        pthread_mutex_lock(&q->tx_mutex);
    }

    reap_completions(q);
    if (q->n_tx_free < batch->count) {
        COVERAGE_INC(afxdp_cq_empty);
        kick_tx(dev, q);
        reap_completions(q);
    }

    struct dp_packet *p;
    uint32_t fit = 0;
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        fit += dp_packet_size(p) <= AFXDP_FRAME_SIZE;
    }

    uint32_t want = MIN(fit, q->n_tx_free), idx = 0;
    uint32_t n = want ? xsk_ring_prod__reserve(&q->tx, want, &idx) : 0;
    uint32_t used = 0;

    if (n < fit) {
        COVERAGE_INC(afxdp_tx_full);
    }
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        uint32_t size = dp_packet_size(p);

        if (size > AFXDP_FRAME_SIZE) {
            n_errors++;         /* Longer than any MTU the port takes. */
        } else if (used >= n) {
            n_dropped++;        /* No frame or no room in the tx ring. */
        } else {
            struct xdp_desc *desc = xsk_ring_prod__tx_desc(&q->tx,
                                                           idx + used);
            uint64_t addr = q->tx_free[--q->n_tx_free];

            dp_packet_copy_out(p, 0, size, xsk_umem__get_data(dev->area,
                                                              addr));
            desc->addr = addr;
            desc->len = size;
            desc->options = 0;
            used++;
        }
    }
    if (used) {
        xsk_ring_prod__submit(&q->tx, used);
        kick_tx(dev, q);
    }

    if (concurrent_txq) {
        pthread_mutex_unlock(&q->tx_mutex);
    }
    dp_packet_batch_free(batch);
    netdev_linux_counter_add(&dev->tx_dropped, n_dropped);
    netdev_linux_counter_add(&dev->tx_errors, n_errors);
    return 0;
}

/* Addresses, MTU, link: the kernel's. */

static int
netdev_afxdp_set_mtu(struct netdev *netdev, int mtu, char **errp)
{
    if (mtu > AFXDP_MAX_MTU) {
        *errp = xasprintf("%s: could not set MTU %d (an afxdp port takes "
                          "at most %d)", netdev->name, mtu, AFXDP_MAX_MTU);
        return EINVAL;
    }
    return netdev_linux_kdev_set_mtu(netdev, mtu, errp);
}

static int
netdev_afxdp_get_carrier(const struct netdev *netdev, bool *carrier)
{
    return netdev_linux_get_carrier(netdev->name, carrier);
}

static int
netdev_afxdp_get_ifindex(const struct netdev *netdev)
{
    return netdev_afxdp_cast(netdev)->ifindex;
}

static char *
netdev_afxdp_get_error(const struct netdev *netdev)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);

    return dev->error ? xstrdup(dev->error) : NULL;
}

/* Statistics and status. */

static int
netdev_afxdp_get_stats(const struct netdev *netdev,
                       struct netdev_stats *stats)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);
    int error = netdev_linux_get_stats(dev->ifindex, stats);

    if (error) {
        return error;
    }
    uint64_t rx_dropped = netdev_linux_counter_get(&dev->rx_dropped);
    for (int i = 0; i < dev->n_queues; i++) {
        struct xdp_statistics xs;
        socklen_t len = sizeof xs;

        if (!getsockopt(xsk_socket__fd(dev->queues[i].xsk), SOL_XDP,
                        XDP_STATISTICS, &xs, &len)) {
            rx_dropped += xs.rx_dropped + xs.rx_ring_full;
        }
    }
    stats->rx_dropped += rx_dropped;
    stats->tx_dropped += netdev_linux_counter_get(&dev->tx_dropped);
    stats->tx_errors += netdev_linux_counter_get(&dev->tx_errors);
    return 0;
}

static int
netdev_afxdp_get_custom_stats(const struct netdev *netdev,
                              struct netdev_custom_stats *custom)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);

    for (int i = 0; i < dev->n_queues; i++) {
        struct xdp_statistics xs;
        socklen_t len = sizeof xs;
        char name[64];

        if (getsockopt(xsk_socket__fd(dev->queues[i].xsk), SOL_XDP,
                       XDP_STATISTICS, &xs, &len)) {
            continue;
        }
        snprintf(name, sizeof name, "xsk_queue_%d_rx_dropped", i);
        netdev_custom_stats_add(custom, name, xs.rx_dropped);
        snprintf(name, sizeof name, "xsk_queue_%d_rx_invalid_descs", i);
        netdev_custom_stats_add(custom, name, xs.rx_invalid_descs);
        snprintf(name, sizeof name, "xsk_queue_%d_tx_invalid_descs", i);
        netdev_custom_stats_add(custom, name, xs.tx_invalid_descs);
    }
    return 0;
}

static int
netdev_afxdp_get_status(const struct netdev *netdev, struct smap *status)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(netdev);

    netdev_linux_get_drvinfo(netdev->name, status);
    if (dev->n_queues) {
        smap_add(status, "xdp-mode-in-use", mode_names[dev->mode_in_use]);
    }
    return 0;
}

/* Receive. */

static int
netdev_afxdp_rxq_construct(struct netdev_rxq *rxq DPS_UNUSED)
{
    return 0;
}

static struct netdev_rxq *
netdev_afxdp_rxq_alloc(void)
{
    return xzalloc(sizeof(struct netdev_rxq));
}

static void
netdev_afxdp_rxq_destruct(struct netdev_rxq *rxq DPS_UNUSED)
{
}

static void
netdev_afxdp_rxq_dealloc(struct netdev_rxq *rxq)
{
    free(rxq);
}

static int
netdev_afxdp_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch,
                      int *qfill)
{
    struct netdev_afxdp *dev = netdev_afxdp_cast(rxq->netdev);
    struct rte_mempool *pool = dpdk_default_pool();
    uint32_t idx_rx = 0, idx_fq = 0;

    if (qfill) {
        *qfill = -1;
    }
    if (rxq->queue_id >= dev->n_queues || !pool) {
        return EAGAIN;
    }

    struct afxdp_queue *q = &dev->queues[rxq->queue_id];
    uint32_t n = xsk_ring_cons__peek(&q->rx, DP_PACKET_BATCH_SIZE, &idx_rx);
    if (!n) {
        if (dev->need_wakeup && xsk_ring_prod__needs_wakeup(&q->fq)) {
            recvfrom(xsk_socket__fd(q->xsk), NULL, 0, MSG_DONTWAIT, NULL,
                     NULL);
        }
        return EAGAIN;
    }

    /* Every frame received goes back to the fill ring at once. */
    while (xsk_ring_prod__reserve(&q->fq, n, &idx_fq) != n) {
        COVERAGE_INC(afxdp_fq_full);
    }

    uint64_t n_dropped = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct xdp_desc *desc = xsk_ring_cons__rx_desc(&q->rx,
                                                             idx_rx + i);
        uint64_t addr = xsk_umem__add_offset_to_addr(desc->addr);
        struct dp_packet *p = dp_packet_alloc(pool);

        if (p && !dp_packet_put(p, xsk_umem__get_data(dev->area, addr),
                                desc->len)) {
            dp_packet_batch_add(batch, p);
        } else {
            dp_packet_free(p);
            n_dropped++;
        }
        *xsk_ring_prod__fill_addr(&q->fq, idx_fq + i)
            = xsk_umem__extract_addr(desc->addr);
    }
    xsk_ring_prod__submit(&q->fq, n);
    xsk_ring_cons__release(&q->rx, n);

    netdev_linux_counter_add(&dev->rx_dropped, n_dropped);
    return batch->count ? 0 : EAGAIN;
}

/* The class. */

static const struct netdev_class afxdp_class = {
    .type = "afxdp",
    .is_pmd = true,
    .alloc = netdev_afxdp_alloc,
    .construct = netdev_afxdp_construct,
    .destruct = netdev_afxdp_destruct,
    .dealloc = netdev_afxdp_dealloc,
    .set_config = netdev_afxdp_set_config,
    .get_config = netdev_afxdp_get_config,
    .reconfigure = netdev_afxdp_reconfigure,
    .send = netdev_afxdp_send,
    .set_etheraddr = netdev_linux_kdev_set_etheraddr,
    .get_etheraddr = netdev_linux_kdev_get_etheraddr,
    .get_mtu = netdev_linux_kdev_get_mtu,
    .set_mtu = netdev_afxdp_set_mtu,
    .get_carrier = netdev_afxdp_get_carrier,
    .update_flags = netdev_linux_kdev_update_flags,
    .get_ifindex = netdev_afxdp_get_ifindex,
    .get_error = netdev_afxdp_get_error,
    .get_stats = netdev_afxdp_get_stats,
    .get_custom_stats = netdev_afxdp_get_custom_stats,
    .get_status = netdev_afxdp_get_status,
    .rxq_alloc = netdev_afxdp_rxq_alloc,
    .rxq_construct = netdev_afxdp_rxq_construct,
    .rxq_destruct = netdev_afxdp_rxq_destruct,
    .rxq_dealloc = netdev_afxdp_rxq_dealloc,
    .rxq_recv = netdev_afxdp_rxq_recv,
};

/* Sockets. */

/* Closes every socket of 'dev' (the XDP program goes with the last one)
 * and unmaps its UMEM.  No other thread uses them now. */
static void
afxdp_close(struct netdev_afxdp *dev)
{
    for (int i = dev->n_queues - 1; i >= 0; i--) {
        struct afxdp_queue *q = &dev->queues[i];

        if (q->xsk) {
            xsk_socket__delete(q->xsk);
        }
        pthread_mutex_destroy(&q->tx_mutex);
        free(q->tx_free);
    }
    free(dev->queues);
    dev->queues = NULL;
    dev->n_queues = 0;
    if (dev->umem) {
        xsk_umem__delete(dev->umem);
        dev->umem = NULL;
    }
    if (dev->area) {
        munmap(dev->area, dev->area_size);
        dev->area = NULL;
    }
    dev->mode_in_use = AFXDP_BEST_EFFORT;
}

/* Opens 'n_rxq' sockets on 'dev' in 'mode' (not best-effort) sharing one
 * UMEM, as the comment at the top of the file says. */
static int
afxdp_open(struct netdev_afxdp *dev, enum afxdp_mode mode, int n_rxq,
           bool need_wakeup)
{
    size_t q_size = (size_t) AFXDP_FRAMES_PER_Q * AFXDP_FRAME_SIZE;
    struct xsk_umem_config ucfg = {
        .fill_size = AFXDP_RING_SIZE,
        .comp_size = AFXDP_RING_SIZE,
        .frame_size = AFXDP_FRAME_SIZE,
        .frame_headroom = 0,
        .flags = 0,
    };
    int error;

    dev->area_size = q_size * n_rxq;
    dev->area = mmap(NULL, dev->area_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (dev->area == MAP_FAILED) {
        dev->area = NULL;
        return errno;
    }
    dev->queues = xcalloc(n_rxq, sizeof *dev->queues);
    for (int i = 0; i < n_rxq; i++) {
        struct afxdp_queue *q = &dev->queues[i];

        pthread_mutex_init(&q->tx_mutex, NULL);
        q->base = q_size * i;
        q->tx_free = xmalloc(AFXDP_FRAMES_PER_Q * sizeof *q->tx_free);
        for (uint32_t f = 0; f < AFXDP_RING_SIZE; f++) {
            q->tx_free[q->n_tx_free++] = (q->base + (uint64_t) (AFXDP_RING_SIZE
                                                                + f)
                                          * AFXDP_FRAME_SIZE);
        }
    }
    dev->n_queues = n_rxq;

    error = -xsk_umem__create(&dev->umem, dev->area, dev->area_size,
                              &dev->queues[0].fq, &dev->queues[0].cq, &ucfg);
    if (error) {
        dev->umem = NULL;
        goto fail;
    }

    for (int i = 0; i < n_rxq; i++) {
        struct afxdp_queue *q = &dev->queues[i];
        struct xsk_socket_config cfg = {
            .rx_size = AFXDP_RING_SIZE,
            .tx_size = AFXDP_RING_SIZE,
            .libxdp_flags = 0,
            .xdp_flags = (mode == AFXDP_GENERIC ? XDP_FLAGS_SKB_MODE
                          : XDP_FLAGS_DRV_MODE),
            .bind_flags = ((mode == AFXDP_NATIVE_ZC ? XDP_ZEROCOPY : XDP_COPY)
                           | (need_wakeup ? XDP_USE_NEED_WAKEUP : 0)),
        };
        uint32_t idx;

        error = -xsk_socket__create_shared(&q->xsk, dev->up.name, i,
                                           dev->umem, &q->rx, &q->tx, &q->fq,
                                           &q->cq, &cfg);
        if (error) {
            q->xsk = NULL;
            goto fail;
        }
        if (xsk_ring_prod__reserve(&q->fq, AFXDP_RING_SIZE, &idx)
            != AFXDP_RING_SIZE) {
            error = ENOBUFS;
            goto fail;
        }
        for (uint32_t f = 0; f < AFXDP_RING_SIZE; f++) {
            *xsk_ring_prod__fill_addr(&q->fq, idx + f)
                = q->base + (uint64_t) f * AFXDP_FRAME_SIZE;
        }
        xsk_ring_prod__submit(&q->fq, AFXDP_RING_SIZE);
    }
    dev->mode_in_use = mode;
    dev->need_wakeup = need_wakeup;
    return 0;

fail:
    afxdp_close(dev);
    return error;
}
