/* "system" ports: an existing kernel interface attached through an
 * AF_PACKET socket.  See netdev-linux.h.
 *
 * The socket is bound to the interface's index, non-blocking, with a
 * virtio-net header before each frame (PACKET_VNET_HDR), without the
 * frames it sends itself (PACKET_IGNORE_OUTGOING), bypassing the qdisc
 * (PACKET_QDISC_BYPASS) and with the interface promiscuous for as long as
 * it is open (PACKET_MR_PROMISC).  A VLAN tag the kernel took out of a
 * frame comes back from PACKET_AUXDATA and is put back in.  Frames go in
 * and out in batches: one recvmmsg() per receive call of the main thread,
 * one sendmmsg() per batch sent.
 *
 * The interface's MTU, MAC, flags and counters are the kernel's.  An
 * interface deleted under the port is noticed (its socket reports
 * ENETDOWN, or its counters cannot be read): the port then stops polling,
 * shows link_state "down" and says so in Interface:error.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include "dp-packet.h"
#include "dpdk.h"
#include "netdev-linux.h"
#include "netdev-provider.h"
#include "poll-loop.h"
#include "smap.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_afpacket);

/* Most segments a packet may have to be sent in one message. */
#define AFPACKET_MAX_IOV 64

/* Socket buffers, so that a few dozen 64 KB segmentation frames fit. */
#define AFPACKET_SOCK_BUF (4 * 1024 * 1024)

struct netdev_afpacket {
    struct netdev up;

    /* Constant after construction. */
    int fd;
    int ifindex;

    /* Main thread only. */
    char *error;                /* Interface:error, or NULL. */
    bool gone;                  /* The interface was deleted. */

    pthread_mutex_t tx_mutex;   /* For senders sharing the queue. */

    /* Counted here, on top of the kernel's counters.  Atomic. */
    uint64_t rx_dropped, rx_errors, tx_dropped, tx_errors;
};

static const struct netdev_class afpacket_class;

/* See netdev-linux.h. */
void
netdev_afpacket_register(void)
{
    netdev_register_class(&afpacket_class);
}

static struct netdev_afpacket *
netdev_afpacket_cast(const struct netdev *netdev)
{
    return (struct netdev_afpacket *) netdev;
}

static int open_socket(const char *name, int ifindex, int *fdp);
static void afpacket_check_gone(struct netdev_afpacket *);

/* Life cycle. */

static struct netdev *
netdev_afpacket_alloc(void)
{
    struct netdev_afpacket *dev = xzalloc(sizeof *dev);

    return &dev->up;
}

static int
netdev_afpacket_construct(struct netdev *netdev)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(netdev);
    int error;

    dev->fd = -1;
    error = netdev_linux_get_ifindex(netdev->name, &dev->ifindex);
    if (!error) {
        error = open_socket(netdev->name, dev->ifindex, &dev->fd);
    }
    if (error) {
        VLOG_WARN("%s: cannot attach the kernel interface (%s)",
                  netdev->name, util_strerror(error));
        return error;
    }
    pthread_mutex_init(&dev->tx_mutex, NULL);
    netdev->n_rxq = 1;
    netdev->n_txq = 1;
    VLOG_INFO("%s: kernel interface attached (ifindex %d)", netdev->name,
              dev->ifindex);
    return 0;
}

static void
netdev_afpacket_destruct(struct netdev *netdev)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(netdev);

    close(dev->fd);
    free(dev->error);
    pthread_mutex_destroy(&dev->tx_mutex);
}

static void
netdev_afpacket_dealloc(struct netdev *netdev)
{
    free(netdev_afpacket_cast(netdev));
}

/* Transmit. */

static int
netdev_afpacket_send(struct netdev *netdev, int qid DPS_UNUSED,
                     struct dp_packet_batch *batch, bool concurrent_txq)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(netdev);
    struct virtio_net_hdr hdrs[DP_PACKET_BATCH_SIZE];
    struct iovec iovs[DP_PACKET_BATCH_SIZE][AFPACKET_MAX_IOV];
    struct mmsghdr msgs[DP_PACKET_BATCH_SIZE];
    uint64_t n_dropped = 0, n_errors = 0;
    struct dp_packet *p;
    int n = 0;

    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        int n_iov = netdev_linux_tx_iov(p, &hdrs[n], iovs[n],
                                        AFPACKET_MAX_IOV);
        if (!n_iov) {
            n_dropped++;
            continue;
        }
        memset(&msgs[n], 0, sizeof msgs[n]);
        msgs[n].msg_hdr.msg_iov = iovs[n];
        msgs[n].msg_hdr.msg_iovlen = n_iov;
        n++;
    }

    if (concurrent_txq) {
        pthread_mutex_lock(&dev->tx_mutex);
    }
    for (int sent = 0; sent < n; ) {
        int retval = sendmmsg(dev->fd, &msgs[sent], n - sent, 0);

        if (retval > 0) {
            sent += retval;
        } else if (retval < 0 && errno == EINTR) {
            continue;
        } else if (retval < 0 && (errno == EMSGSIZE || errno == EINVAL)) {
            /* This one frame is refused (longer than the MTU...). */
            n_errors++;
            sent++;
        } else {
            /* Full, down or gone: the rest is dropped. */
            n_dropped += n - sent;
            break;
        }
    }
    if (concurrent_txq) {
        pthread_mutex_unlock(&dev->tx_mutex);
    }

    dp_packet_batch_free(batch);
    netdev_linux_counter_add(&dev->tx_dropped, n_dropped);
    netdev_linux_counter_add(&dev->tx_errors, n_errors);
    return 0;
}

/* Addresses, MTU, link. */

static int
netdev_afpacket_get_carrier(const struct netdev *netdev, bool *carrier)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(netdev);

    if (dev->gone) {
        *carrier = false;
        return 0;
    }
    return netdev_linux_get_carrier(netdev->name, carrier);
}

static int
netdev_afpacket_get_ifindex(const struct netdev *netdev)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(netdev);

    return dev->gone ? 0 : dev->ifindex;
}

static char *
netdev_afpacket_get_error(const struct netdev *netdev)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(netdev);

    return dev->error ? xstrdup(dev->error) : NULL;
}

/* Statistics and status. */

static int
netdev_afpacket_get_stats(const struct netdev *netdev,
                          struct netdev_stats *stats)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(netdev);
    int error;

    if (dev->gone) {
        return ENODEV;
    }
    error = netdev_linux_get_stats(dev->ifindex, stats);
    if (error) {
        afpacket_check_gone(dev);
        return error;
    }
    stats->rx_dropped += netdev_linux_counter_get(&dev->rx_dropped);
    stats->rx_errors += netdev_linux_counter_get(&dev->rx_errors);
    stats->tx_dropped += netdev_linux_counter_get(&dev->tx_dropped);
    stats->tx_errors += netdev_linux_counter_get(&dev->tx_errors);
    return 0;
}

static int
netdev_afpacket_get_status(const struct netdev *netdev, struct smap *status)
{
    netdev_linux_get_drvinfo(netdev->name, status);
    return 0;
}

static uint32_t
netdev_afpacket_get_tx_caps(const struct netdev *netdev DPS_UNUSED)
{
    return (NETDEV_TX_TCP_CSUM | NETDEV_TX_UDP_CSUM | NETDEV_TX_TCP_TSO
            | NETDEV_TX_MULTI_SEG);
}

/* Receive. */

/* The VLAN header the kernel took out of the frame of message 'msg', as
 * netdev_linux_rx_finish() takes it, or 0. */
static uint32_t
rx_vlan(struct msghdr *msg)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
        struct tpacket_auxdata aux;

        if (c->cmsg_level != SOL_PACKET || c->cmsg_type != PACKET_AUXDATA
            || c->cmsg_len < CMSG_LEN(sizeof aux)) {
            continue;
        }
        memcpy(&aux, CMSG_DATA(c), sizeof aux);
        if (aux.tp_status & TP_STATUS_VLAN_VALID) {
            uint16_t tpid = ((aux.tp_status & TP_STATUS_VLAN_TPID_VALID)
                             && aux.tp_vlan_tpid
                             ? aux.tp_vlan_tpid : ETH_P_8021Q);
            return (uint32_t) tpid << 16 | aux.tp_vlan_tci;
        }
    }
    return 0;
}

static int
netdev_afpacket_rxq_recv(struct netdev_rxq *rxq,
                         struct dp_packet_batch *batch, int *qfill)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(rxq->netdev);
    struct netdev_linux_rx *rx = netdev_linux_rx_of(rxq);
    struct rte_mempool *pool = dpdk_default_pool();

    if (qfill) {
        *qfill = -1;
    }
    if (netdev_linux_rx_pending(rx, batch)) {
        return 0;
    }
    if (dev->gone || !pool) {
        return EAGAIN;
    }

    size_t n = netdev_linux_rx_prepare(rx, pool, NETDEV_LINUX_RX_BATCH);
    for (size_t i = 0; i < n; i++) {
        struct msghdr *m = &rx->msgs[i].msg_hdr;

        memset(m, 0, sizeof *m);
        m->msg_name = &rx->addrs[i];
        m->msg_namelen = sizeof rx->addrs[i];
        m->msg_iov = rx->iovs[i];
        m->msg_iovlen = 3;
        m->msg_control = rx->cmsgs[i].buf;
        m->msg_controllen = sizeof rx->cmsgs[i].buf;
    }
    int retval = n ? recvmmsg(dev->fd, rx->msgs, n, MSG_DONTWAIT, NULL) : 0;
    if (retval < 0) {
        if (errno == ENETDOWN || errno == ENXIO || errno == ENODEV) {
            afpacket_check_gone(dev);
        } else if (errno != EAGAIN && errno != EINTR) {
            netdev_linux_counter_add(&dev->rx_errors, 1);
        }
        return EAGAIN;
    }

    for (int i = 0; i < retval; i++) {
        struct msghdr *m = &rx->msgs[i].msg_hdr;

        if (rx->addrs[i].sll_pkttype == PACKET_OUTGOING) {
            continue;           /* Without PACKET_IGNORE_OUTGOING. */
        }
        if (m->msg_flags & MSG_TRUNC) {
            rx->rx_errors++;
            continue;
        }
        netdev_linux_rx_finish(rx, i, rx->msgs[i].msg_len, rx_vlan(m),
                               batch);
    }
    netdev_linux_counter_add(&dev->rx_dropped, rx->rx_dropped);
    netdev_linux_counter_add(&dev->rx_errors, rx->rx_errors);
    rx->rx_packets = rx->rx_bytes = rx->rx_dropped = rx->rx_errors = 0;
    return batch->count ? 0 : EAGAIN;
}

static void
netdev_afpacket_rxq_wait(struct netdev_rxq *rxq)
{
    struct netdev_afpacket *dev = netdev_afpacket_cast(rxq->netdev);

    if (netdev_linux_rx_of(rxq)->n_pending) {
        poll_immediate_wake();
    } else if (!dev->gone) {
        poll_fd_wait(dev->fd, POLLIN);
    }
}

/* The class. */

static const struct netdev_class afpacket_class = {
    .type = "system",
    .is_pmd = false,
    .alloc = netdev_afpacket_alloc,
    .construct = netdev_afpacket_construct,
    .destruct = netdev_afpacket_destruct,
    .dealloc = netdev_afpacket_dealloc,
    .set_config = netdev_linux_set_config,
    .send = netdev_afpacket_send,
    .set_etheraddr = netdev_linux_kdev_set_etheraddr,
    .get_etheraddr = netdev_linux_kdev_get_etheraddr,
    .get_mtu = netdev_linux_kdev_get_mtu,
    .set_mtu = netdev_linux_kdev_set_mtu,
    .get_carrier = netdev_afpacket_get_carrier,
    .update_flags = netdev_linux_kdev_update_flags,
    .get_ifindex = netdev_afpacket_get_ifindex,
    .get_error = netdev_afpacket_get_error,
    .get_stats = netdev_afpacket_get_stats,
    .get_status = netdev_afpacket_get_status,
    .get_tx_caps = netdev_afpacket_get_tx_caps,
    .rxq_alloc = netdev_linux_rxq_alloc,
    .rxq_construct = netdev_linux_rxq_construct,
    .rxq_destruct = netdev_linux_rxq_destruct,
    .rxq_dealloc = netdev_linux_rxq_dealloc,
    .rxq_recv = netdev_afpacket_rxq_recv,
    .rxq_wait = netdev_afpacket_rxq_wait,
};

/* Helpers. */

static int
set_int_opt(int fd, int level, int name, int value)
{
    return setsockopt(fd, level, name, &value, sizeof value) ? errno : 0;
}

/* Opens an AF_PACKET socket on interface 'name' (index 'ifindex'), as the
 * comment at the top of the file says, and stores it in '*fdp'. */
static int
open_socket(const char *name, int ifindex, int *fdp)
{
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int error;

    if (fd < 0) {
        return errno;
    }
    error = set_int_opt(fd, SOL_PACKET, PACKET_VNET_HDR, 1);
    if (!error) {
        error = set_int_opt(fd, SOL_PACKET, PACKET_AUXDATA, 1);
    }
    if (error) {
        goto error;
    }
    /* Optional ones: without them, outgoing frames are skipped by type and
     * frames go through the qdisc. */
    set_int_opt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, 1);
    set_int_opt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, 1);
    if (set_int_opt(fd, SOL_SOCKET, SO_RCVBUFFORCE, AFPACKET_SOCK_BUF)) {
        set_int_opt(fd, SOL_SOCKET, SO_RCVBUF, AFPACKET_SOCK_BUF);
    }
    if (set_int_opt(fd, SOL_SOCKET, SO_SNDBUFFORCE, AFPACKET_SOCK_BUF)) {
        set_int_opt(fd, SOL_SOCKET, SO_SNDBUF, AFPACKET_SOCK_BUF);
    }

    struct sockaddr_ll sll;
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(ETH_P_ALL);
    sll.sll_ifindex = ifindex;
    if (bind(fd, (struct sockaddr *) &sll, sizeof sll)) {
        error = errno;
        goto error;
    }

    struct packet_mreq mreq;
    memset(&mreq, 0, sizeof mreq);
    mreq.mr_ifindex = ifindex;
    mreq.mr_type = PACKET_MR_PROMISC;
    if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mreq,
                   sizeof mreq)) {
        VLOG_WARN("%s: cannot make the interface promiscuous (%s)", name,
                  util_strerror(errno));
    }
    *fdp = fd;
    return 0;

error:
    close(fd);
    return error;
}

/* Checks whether the interface of 'dev' still exists (by name, with the
 * same index); if not, the port stops polling and reports it. */
static void
afpacket_check_gone(struct netdev_afpacket *dev)
{
    int ifindex;

    if (dev->gone) {
        return;
    }
    int error = netdev_linux_get_ifindex(dev->up.name, &ifindex);
    if (error == ENODEV || (!error && ifindex != dev->ifindex)) {
        dev->gone = true;
        free(dev->error);
        dev->error = xasprintf("%s: the kernel interface went away",
                               dev->up.name);
        VLOG_WARN("%s", dev->error);
        netdev_change_seq_changed(&dev->up);
    }
}
