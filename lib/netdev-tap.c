/* Kernel tap devices: "internal" ports (the bridge's own, created with the
 * port) and "tap" ports.  See netdev-linux.h.
 *
 * The tap's file descriptor is non-blocking and carries a virtio-net header
 * with each frame (IFF_VNET_HDR); the kernel is told (TUNSETOFFLOAD) that
 * the switch takes partial checksums and TCP segmentation frames, which
 * netdev_linux_rx_finish() understands.  The main thread reads frames
 * (readv(), up to a batch per call); any thread sends (writev(), under a
 * mutex when the datapath says the queue is shared).
 *
 * Counters are the switch's view: rx_* are frames the kernel sent on the
 * device and the switch received.  Licensed under the Apache License,
 * Version 2.0 (see LICENSE). */

#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/if_tun.h>
#include "dp-packet.h"
#include "dpdk.h"
#include "netdev-linux.h"
#include "netdev-provider.h"
#include "poll-loop.h"
#include "smap.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_tap);

/* Most segments a packet may have to be sent in one writev(). */
#define TAP_MAX_IOV 64

/* How long a tap that refused a frame for being down is not written to. */
#define TAP_DOWN_RETRY_MS 100

struct netdev_tap {
    struct netdev up;

    /* Constant after construction. */
    bool is_internal;
    int fd;                     /* The tap's queue, or -1: no device. */

    /* Main thread only. */
    int ifindex;
    char *error;                /* Interface:error, or NULL. */
    bool gone;                  /* The device disappeared. */

    /* Without a device (fd < 0): what a dummy port would keep. */
    struct eth_addr mac;
    int mtu;
    enum netdev_flags flags;

    pthread_mutex_t tx_mutex;   /* For senders sharing the queue. */
    long long int down_until;   /* See netdev_tap_send().  Atomic. */

    /* Atomic. */
    uint64_t rx_packets, rx_bytes, rx_dropped, rx_errors;
    uint64_t tx_packets, tx_bytes, tx_dropped, tx_errors;
};

static const struct netdev_class tap_internal_class;
static const struct netdev_class tap_class;

/* See netdev-linux.h. */
void
netdev_tap_register(bool with_internal)
{
    if (with_internal) {
        netdev_register_class(&tap_internal_class);
    }
    netdev_register_class(&tap_class);
}

static struct netdev_tap *
netdev_tap_cast(const struct netdev *netdev)
{
    return (struct netdev_tap *) netdev;
}

static int open_tap(const char *name, int *fdp, char **errp);
static void tap_mark_gone(struct netdev_tap *, int error);

/* Life cycle. */

static struct netdev *
netdev_tap_alloc(void)
{
    struct netdev_tap *dev = xzalloc(sizeof *dev);

    return &dev->up;
}

static int
netdev_tap_construct(struct netdev *netdev)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);
    char *err = NULL;
    int error;

    dev->is_internal = netdev->netdev_class == &tap_internal_class;
    dev->fd = -1;
    dev->mtu = 1500;
    dev->flags = NETDEV_UP;
    dev->mac = (struct eth_addr) { { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00 } };
    pthread_mutex_init(&dev->tx_mutex, NULL);
    netdev->n_rxq = 1;
    netdev->n_txq = 1;

    error = open_tap(netdev->name, &dev->fd, &err);
    if (error && !dev->is_internal) {
        VLOG_WARN("%s", err);
        free(err);
        pthread_mutex_destroy(&dev->tx_mutex);
        return error;
    }
    if (error) {
        /* An internal port still works as the bridge's local port, only
         * without a kernel device. */
        dev->error = xasprintf("%s; the port has no kernel device and drops "
                               "what the switch sends to it", err);
        VLOG_WARN("%s", dev->error);
        free(err);
        return 0;
    }
    /* An internal port's device outlives a crash of the daemon, with its
     * addresses, as Open vSwitch's does: the next daemon takes it over. */
    if (dev->is_internal && ioctl(dev->fd, TUNSETPERSIST, 1) < 0) {
        VLOG_WARN("%s: TUNSETPERSIST: %s", netdev->name,
                  util_strerror(errno));
    }
    if (netdev_linux_get_ifindex(netdev->name, &dev->ifindex)) {
        dev->ifindex = 0;
    }
    VLOG_INFO("%s: tap device %s (ifindex %d)", netdev->name,
              dev->is_internal ? "created" : "opened", dev->ifindex);
    return 0;
}

static void
netdev_tap_destruct(struct netdev *netdev)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    /* Closing the last queue of a tap that is not persistent removes the
     * device: an internal port's goes with it. */
    if (dev->fd >= 0) {
        if (dev->is_internal && ioctl(dev->fd, TUNSETPERSIST, 0) < 0) {
            VLOG_WARN("%s: TUNSETPERSIST: %s", netdev->name,
                      util_strerror(errno));
        }
        close(dev->fd);
    }
    free(dev->error);
    pthread_mutex_destroy(&dev->tx_mutex);
}

static void
netdev_tap_dealloc(struct netdev *netdev)
{
    free(netdev_tap_cast(netdev));
}

/* Transmit. */

static int
netdev_tap_send(struct netdev *netdev, int qid DPS_UNUSED,
                struct dp_packet_batch *batch, bool concurrent_txq)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);
    uint64_t n_sent = 0, n_bytes = 0, n_dropped = 0, n_errors = 0;
    struct dp_packet *p;

    if (dev->fd < 0) {
        /* No device: counted as sent, as a dummy port does. */
        DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
            n_sent++;
            n_bytes += dp_packet_size(p);
        }
        goto out;
    }

    /* A tap that is down refuses every frame (EIO): rather than one system
     * call per frame, drop whole batches until TAP_DOWN_RETRY_MS after the
     * last refusal. */
    long long int now = time_msec();
    if (now < __atomic_load_n(&dev->down_until, __ATOMIC_RELAXED)) {
        n_dropped = batch->count;
        goto out;
    }

    if (concurrent_txq) {
        pthread_mutex_lock(&dev->tx_mutex);
    }
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        struct virtio_net_hdr hdr;
        struct iovec iov[TAP_MAX_IOV];
        int n_iov = netdev_linux_tx_iov(p, &hdr, iov, TAP_MAX_IOV);
        ssize_t retval;

        if (!n_iov) {
            n_dropped++;
            continue;
        }
        do {
            retval = writev(dev->fd, iov, n_iov);
        } while (retval < 0 && errno == EINTR);
        if (retval >= 0) {
            n_sent++;
            n_bytes += dp_packet_size(p);
        } else if (errno == EIO) {
            /* Down: this frame and the rest of the batch. */
            n_dropped += batch->count - i;
            __atomic_store_n(&dev->down_until, now + TAP_DOWN_RETRY_MS,
                             __ATOMIC_RELAXED);
            break;
        } else if (errno == EAGAIN || errno == ENOBUFS) {
            n_dropped++;           /* Queue full. */
        } else {
            n_errors++;
        }
    }
    if (concurrent_txq) {
        pthread_mutex_unlock(&dev->tx_mutex);
    }

out:
    dp_packet_batch_free(batch);
    netdev_linux_counter_add(&dev->tx_packets, n_sent);
    netdev_linux_counter_add(&dev->tx_bytes, n_bytes);
    netdev_linux_counter_add(&dev->tx_dropped, n_dropped);
    netdev_linux_counter_add(&dev->tx_errors, n_errors);
    return 0;
}

/* Addresses, MTU, link. */

static int
netdev_tap_set_etheraddr(struct netdev *netdev, const struct eth_addr *mac)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);
    int error = 0;

    if (dev->fd >= 0) {
        error = netdev_linux_set_etheraddr(netdev->name, mac);
    } else {
        dev->mac = *mac;
    }
    if (!error) {
        netdev_change_seq_changed(netdev);
    }
    return error;
}

static int
netdev_tap_get_etheraddr(const struct netdev *netdev, struct eth_addr *mac)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    if (dev->fd >= 0) {
        return netdev_linux_get_etheraddr(netdev->name, mac);
    }
    *mac = dev->mac;
    return 0;
}

static int
netdev_tap_get_mtu(const struct netdev *netdev, int *mtu)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    if (dev->fd >= 0) {
        return netdev_linux_get_mtu(netdev->name, mtu);
    }
    *mtu = dev->mtu;
    return 0;
}

static int
netdev_tap_set_mtu(struct netdev *netdev, int mtu, char **errp)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);
    int error = 0;

    if (mtu < 68 || mtu > 65521) {
        *errp = xasprintf("%s: MTU %d is out of range 68 to 65521",
                          netdev->name, mtu);
        return EINVAL;
    }
    if (dev->fd >= 0) {
        error = netdev_linux_set_mtu(netdev->name, mtu);
        if (error) {
            *errp = xasprintf("%s: could not set MTU %d (%s)", netdev->name,
                              mtu, util_strerror(error));
        }
    } else {
        dev->mtu = mtu;
    }
    if (!error) {
        netdev_change_seq_changed(netdev);
    }
    return error;
}

static int
netdev_tap_get_carrier(const struct netdev *netdev, bool *carrier)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    if (dev->fd >= 0) {
        return netdev_linux_get_carrier(netdev->name, carrier);
    }
    *carrier = !dev->gone;
    return 0;
}

static int
netdev_tap_update_flags(struct netdev *netdev, enum netdev_flags off,
                        enum netdev_flags on, enum netdev_flags *old)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    if ((off | on) & ~(NETDEV_UP | NETDEV_PROMISC)) {
        return EINVAL;
    }
    if (dev->fd >= 0) {
        int error = netdev_linux_update_flags(netdev->name, off, on, old);
        if (error == ENODEV) {
            tap_mark_gone(dev, error);
        }
        return error;
    }
    *old = dev->flags;
    dev->flags = (dev->flags & ~off) | on;
    return 0;
}

static int
netdev_tap_get_ifindex(const struct netdev *netdev)
{
    return netdev_tap_cast(netdev)->ifindex;
}

static char *
netdev_tap_get_error(const struct netdev *netdev)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    return dev->error ? xstrdup(dev->error) : NULL;
}

/* Statistics and status. */

static int
netdev_tap_get_stats(const struct netdev *netdev, struct netdev_stats *stats)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    stats->rx_packets = netdev_linux_counter_get(&dev->rx_packets);
    stats->rx_bytes = netdev_linux_counter_get(&dev->rx_bytes);
    stats->rx_dropped = netdev_linux_counter_get(&dev->rx_dropped);
    stats->rx_errors = netdev_linux_counter_get(&dev->rx_errors);
    stats->tx_packets = netdev_linux_counter_get(&dev->tx_packets);
    stats->tx_bytes = netdev_linux_counter_get(&dev->tx_bytes);
    stats->tx_dropped = netdev_linux_counter_get(&dev->tx_dropped);
    stats->tx_errors = netdev_linux_counter_get(&dev->tx_errors);
    return 0;
}

static int
netdev_tap_get_status(const struct netdev *netdev, struct smap *status)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    if (dev->fd >= 0) {
        netdev_linux_get_drvinfo(netdev->name, status);
    }
    return 0;
}

static uint32_t
netdev_tap_get_tx_caps(const struct netdev *netdev)
{
    struct netdev_tap *dev = netdev_tap_cast(netdev);

    return (dev->fd >= 0
            ? (NETDEV_TX_TCP_CSUM | NETDEV_TX_UDP_CSUM | NETDEV_TX_TCP_TSO
               | NETDEV_TX_MULTI_SEG)
            : NETDEV_TX_MULTI_SEG);
}

/* Receive. */

static int
netdev_tap_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch,
                    int *qfill)
{
    struct netdev_tap *dev = netdev_tap_cast(rxq->netdev);
    struct netdev_linux_rx *rx = netdev_linux_rx_of(rxq);
    struct rte_mempool *pool = dpdk_default_pool();

    if (qfill) {
        *qfill = -1;
    }
    if (netdev_linux_rx_pending(rx, batch)) {
        return 0;
    }
    if (dev->fd < 0 || dev->gone || !pool) {
        return EAGAIN;
    }

    size_t n = netdev_linux_rx_prepare(rx, pool, NETDEV_LINUX_RX_BATCH);
    for (size_t i = 0; i < n && !rx->n_pending
                       && !dp_packet_batch_is_full(batch); i++) {
        ssize_t retval = readv(dev->fd, rx->iovs[i], 3);

        if (retval < 0) {
            if (errno != EAGAIN && errno != EINTR) {
                tap_mark_gone(dev, errno);
            }
            break;
        }
        netdev_linux_rx_finish(rx, i, retval, 0, batch);
    }

    netdev_linux_counter_add(&dev->rx_packets, rx->rx_packets);
    netdev_linux_counter_add(&dev->rx_bytes, rx->rx_bytes);
    netdev_linux_counter_add(&dev->rx_dropped, rx->rx_dropped);
    netdev_linux_counter_add(&dev->rx_errors, rx->rx_errors);
    rx->rx_packets = rx->rx_bytes = rx->rx_dropped = rx->rx_errors = 0;
    return batch->count ? 0 : EAGAIN;
}

static void
netdev_tap_rxq_wait(struct netdev_rxq *rxq)
{
    struct netdev_tap *dev = netdev_tap_cast(rxq->netdev);

    if (netdev_linux_rx_of(rxq)->n_pending) {
        poll_immediate_wake();
    } else if (dev->fd >= 0 && !dev->gone) {
        poll_fd_wait(dev->fd, POLLIN);
    }
}

/* Classes. */

#define NETDEV_TAP_CLASS(TYPE)                                  \
    {                                                           \
        .type = TYPE,                                           \
        .is_pmd = false,                                        \
        .alloc = netdev_tap_alloc,                              \
        .construct = netdev_tap_construct,                      \
        .destruct = netdev_tap_destruct,                        \
        .dealloc = netdev_tap_dealloc,                          \
        .set_config = netdev_linux_set_config,                    \
        .send = netdev_tap_send,                                \
        .set_etheraddr = netdev_tap_set_etheraddr,              \
        .get_etheraddr = netdev_tap_get_etheraddr,              \
        .get_mtu = netdev_tap_get_mtu,                          \
        .set_mtu = netdev_tap_set_mtu,                          \
        .get_carrier = netdev_tap_get_carrier,                  \
        .update_flags = netdev_tap_update_flags,                \
        .get_ifindex = netdev_tap_get_ifindex,                  \
        .get_error = netdev_tap_get_error,                      \
        .get_stats = netdev_tap_get_stats,                      \
        .get_status = netdev_tap_get_status,                    \
        .get_tx_caps = netdev_tap_get_tx_caps,                  \
        .rxq_alloc = netdev_linux_rxq_alloc,                      \
        .rxq_construct = netdev_linux_rxq_construct,              \
        .rxq_destruct = netdev_linux_rxq_destruct,                \
        .rxq_dealloc = netdev_linux_rxq_dealloc,                  \
        .rxq_recv = netdev_tap_rxq_recv,                        \
        .rxq_wait = netdev_tap_rxq_wait,                        \
    }

static const struct netdev_class tap_internal_class
    = NETDEV_TAP_CLASS("internal");
static const struct netdev_class tap_class = NETDEV_TAP_CLASS("tap");

/* Helpers. */

/* Opens (creating it if needed) the tap device 'name' as a non-blocking
 * queue with virtio-net headers and stores its descriptor in '*fdp'.  On
 * failure returns a positive errno and a message in '*errp'. */
static int
open_tap(const char *name, int *fdp, char **errp)
{
    static const char tun_dev[] = "/dev/net/tun";
    struct ifreq ifr;
    int error;
    int fd;

    *fdp = -1;
    memset(&ifr, 0, sizeof ifr);
    error = netdev_linux_ifname(ifr.ifr_name, name);
    if (error) {
        *errp = xasprintf("%s: cannot create a tap device: the name is "
                          "longer than %d bytes", name, IFNAMSIZ - 1);
        return error;
    }
    fd = open(tun_dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        error = errno;
        *errp = xasprintf("%s: cannot create a tap device: %s: %s", name,
                          tun_dev, util_strerror(error));
        return error;
    }
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_VNET_HDR;
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        error = errno;
        *errp = xasprintf("%s: cannot create a tap device: %s", name,
                          util_strerror(error));
        close(fd);
        return error;
    }

    /* The switch takes partial checksums and TCP segmentation frames. */
    unsigned int offloads = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6;
    if (ioctl(fd, TUNSETOFFLOAD, offloads) < 0
        && ioctl(fd, TUNSETOFFLOAD, TUN_F_CSUM) < 0) {
        VLOG_INFO("%s: the kernel computes the checksums of what it sends "
                  "(TUNSETOFFLOAD: %s)", name, util_strerror(errno));
    }
    *fdp = fd;
    return 0;
}

/* Records that the device of 'dev' is gone (or unusable because of
 * 'error'): the port stops polling it and says so in Interface:error. */
static void
tap_mark_gone(struct netdev_tap *dev, int error)
{
    if (!dev->gone) {
        dev->gone = true;
        free(dev->error);
        dev->error = xasprintf("%s: the tap device went away (%s)",
                               dev->up.name, util_strerror(error));
        VLOG_WARN("%s", dev->error);
        netdev_change_seq_changed(&dev->up);
    }
}
