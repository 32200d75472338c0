/* netdev-linux: what the kernel-backed port types share.  See
 * netdev-linux.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev-linux.h"
#include <errno.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <arpa/inet.h>
#include "coverage.h"
#include "csum.h"
#include "dp-packet-csum.h"
#include "packets.h"
#include "smap.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_linux);

COVERAGE_DEFINE(netdev_linux_rx_partial_csum);
COVERAGE_DEFINE(netdev_linux_tx_partial_csum);
COVERAGE_DEFINE(netdev_linux_rx_tso);
COVERAGE_DEFINE(netdev_linux_tx_tso);

static int ioctl_sock = -1;

static int get_ioctl_sock(void);
static int do_ioctl(const char *name, unsigned long cmd, struct ifreq *);
static void rx_deliver(struct netdev_linux_rx *, struct dp_packet *,
                       uint32_t vlan, struct dp_packet_batch *);
static void tx_tso(struct dp_packet *, struct virtio_net_hdr *);

/* See netdev-linux.h. */
void
netdev_linux_register(void)
{
    netdev_tap_register(!netdev_is_type_supported("internal"));
    netdev_afpacket_register();
#ifdef HAVE_AF_XDP
    netdev_afxdp_register();
#endif
}

/* See netdev-linux.h. */
int
netdev_linux_set_config(struct netdev *netdev, const struct smap *options,
                        char **errp)
{
    const struct smap_node *node;

    SMAP_FOR_EACH (node, options) {
        if (strcmp(node->key, "n_rxq") && strcmp(node->key, "n_txq")) {
            *errp = xasprintf("%s: unknown option \"%s\" for a %s port",
                              netdev->name, node->key,
                              netdev->netdev_class->type);
            return EINVAL;
        }
    }
    return 0;
}

/* See netdev-linux.h. */
int
netdev_linux_get_ifindex(const char *name, int *ifindex)
{
    struct ifreq ifr;
    int error = do_ioctl(name, SIOCGIFINDEX, &ifr);

    *ifindex = error ? 0 : ifr.ifr_ifindex;
    return error;
}

/* See netdev-linux.h. */
int
netdev_linux_get_mtu(const char *name, int *mtu)
{
    struct ifreq ifr;
    int error = do_ioctl(name, SIOCGIFMTU, &ifr);

    *mtu = error ? 0 : ifr.ifr_mtu;
    return error;
}

/* See netdev-linux.h. */
int
netdev_linux_set_mtu(const char *name, int mtu)
{
    struct ifreq ifr;

    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_mtu = mtu;
    return do_ioctl(name, SIOCSIFMTU, &ifr);
}

/* See netdev-linux.h. */
int
netdev_linux_get_etheraddr(const char *name, struct eth_addr *mac)
{
    struct ifreq ifr;
    int error = do_ioctl(name, SIOCGIFHWADDR, &ifr);

    if (!error) {
        memcpy(mac->ea, ifr.ifr_hwaddr.sa_data, ETH_ADDR_LEN);
    }
    return error;
}

/* See netdev-linux.h. */
int
netdev_linux_set_etheraddr(const char *name, const struct eth_addr *mac)
{
    struct ifreq ifr;

    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
    memcpy(ifr.ifr_hwaddr.sa_data, mac->ea, ETH_ADDR_LEN);
    return do_ioctl(name, SIOCSIFHWADDR, &ifr);
}

/* See netdev-linux.h.  The carrier is IFF_RUNNING: a tap whose queue is
 * attached, a veth whose peer is up, a NIC with a link, once it is up. */
int
netdev_linux_get_carrier(const char *name, bool *carrier)
{
    struct ifreq ifr;
    int error = do_ioctl(name, SIOCGIFFLAGS, &ifr);

    *carrier = !error && (ifr.ifr_flags & IFF_RUNNING);
    return error;
}

/* See netdev-linux.h. */
int
netdev_linux_update_flags(const char *name, enum netdev_flags off,
                          enum netdev_flags on, enum netdev_flags *old)
{
    struct ifreq ifr;
    int error = do_ioctl(name, SIOCGIFFLAGS, &ifr);

    if (error) {
        return error;
    }
    int iff = ifr.ifr_flags;
    *old = ((iff & IFF_UP ? NETDEV_UP : 0)
            | (iff & IFF_PROMISC ? NETDEV_PROMISC : 0));

    int new_iff = iff;
    new_iff = (off & NETDEV_UP) ? new_iff & ~IFF_UP : new_iff;
    new_iff = (off & NETDEV_PROMISC) ? new_iff & ~IFF_PROMISC : new_iff;
    new_iff = (on & NETDEV_UP) ? new_iff | IFF_UP : new_iff;
    new_iff = (on & NETDEV_PROMISC) ? new_iff | IFF_PROMISC : new_iff;
    if (new_iff != iff) {
        ifr.ifr_flags = new_iff;
        error = do_ioctl(name, SIOCSIFFLAGS, &ifr);
    }
    return error;
}

/* Device control. */

/* See netdev-linux.h. */
int
netdev_linux_kdev_set_etheraddr(struct netdev *netdev,
                                const struct eth_addr *mac)
{
    int error = netdev_linux_set_etheraddr(netdev->name, mac);

    if (!error) {
        netdev_change_seq_changed(netdev);
    }
    return error;
}

/* See netdev-linux.h. */
int
netdev_linux_kdev_get_etheraddr(const struct netdev *netdev,
                                struct eth_addr *mac)
{
    return netdev_linux_get_etheraddr(netdev->name, mac);
}

/* See netdev-linux.h. */
int
netdev_linux_kdev_get_mtu(const struct netdev *netdev, int *mtu)
{
    return netdev_linux_get_mtu(netdev->name, mtu);
}

/* See netdev-linux.h. */
int
netdev_linux_kdev_set_mtu(struct netdev *netdev, int mtu, char **errp)
{
    int error = netdev_linux_set_mtu(netdev->name, mtu);

    if (error) {
        *errp = xasprintf("%s: could not set MTU %d (%s)", netdev->name, mtu,
                          util_strerror(error));
    } else {
        netdev_change_seq_changed(netdev);
    }
    return error;
}

/* See netdev-linux.h. */
int
netdev_linux_kdev_update_flags(struct netdev *netdev, enum netdev_flags off,
                               enum netdev_flags on, enum netdev_flags *old)
{
    if ((off | on) & ~(NETDEV_UP | NETDEV_PROMISC)) {
        return EINVAL;
    }
    return netdev_linux_update_flags(netdev->name, off, on, old);
}

/* See netdev-linux.h. */
void
netdev_linux_get_drvinfo(const char *name, struct smap *status)
{
    struct ethtool_drvinfo info;
    struct ifreq ifr;

    memset(&ifr, 0, sizeof ifr);
    memset(&info, 0, sizeof info);
    info.cmd = ETHTOOL_GDRVINFO;
    ifr.ifr_data = (void *) &info;
    if (!do_ioctl(name, SIOCETHTOOL, &ifr)) {
        smap_add(status, "driver_name", info.driver);
        smap_add(status, "driver_version", info.version);
        smap_add(status, "firmware_version", info.fw_version);
    }
}

/* See netdev-linux.h.  One RTM_GETLINK request on a socket of its own. */
int
netdev_linux_get_stats(int ifindex, struct netdev_stats *stats)
{
    struct {
        struct nlmsghdr nlh;
        struct ifinfomsg ifi;
    } req;
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    int error = 0;

    if (fd < 0) {
        return errno;
    }
    memset(&req, 0, sizeof req);
    req.nlh.nlmsg_len = sizeof req;
    req.nlh.nlmsg_type = RTM_GETLINK;
    req.nlh.nlmsg_flags = NLM_F_REQUEST;
    req.nlh.nlmsg_seq = 1;
    req.ifi.ifi_family = AF_UNSPEC;
    req.ifi.ifi_index = ifindex;

    /* The answer holds the whole link description: a few KB. */
    size_t buf_size = 32768;
    uint8_t *buf = xmalloc(buf_size);
    ssize_t n;

    if (send(fd, &req, sizeof req, 0) < 0) {
        error = errno;
        goto out;
    }
    do {
        n = recv(fd, buf, buf_size, 0);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        error = errno;
        goto out;
    }

    struct nlmsghdr *nlh = (struct nlmsghdr *) buf;
    if (!NLMSG_OK(nlh, (size_t) n)) {
        error = EPROTO;
        goto out;
    }
    if (nlh->nlmsg_type == NLMSG_ERROR) {
        const struct nlmsgerr *err = NLMSG_DATA(nlh);
        error = err->error ? -err->error : EPROTO;
        goto out;
    }
    if (nlh->nlmsg_type != RTM_NEWLINK) {
        error = EPROTO;
        goto out;
    }

    error = EOPNOTSUPP;
    struct ifinfomsg *ifi = NLMSG_DATA(nlh);
    int attrs_len = nlh->nlmsg_len - NLMSG_LENGTH(sizeof *ifi);
    for (struct rtattr *rta = IFLA_RTA(ifi); RTA_OK(rta, attrs_len);
         rta = RTA_NEXT(rta, attrs_len)) {
        struct rtnl_link_stats64 s;

        if (rta->rta_type != IFLA_STATS64
            || RTA_PAYLOAD(rta) < sizeof s) {
            continue;
        }
        memcpy(&s, RTA_DATA(rta), sizeof s);
        stats->rx_packets = s.rx_packets;
        stats->rx_bytes = s.rx_bytes;
        stats->rx_dropped = s.rx_dropped;
        stats->rx_errors = s.rx_errors;
        stats->rx_crc_err = s.rx_crc_errors;
        stats->rx_frame_err = s.rx_frame_errors;
        stats->rx_over_err = s.rx_over_errors;
        stats->rx_missed_errors = s.rx_missed_errors;
        stats->tx_packets = s.tx_packets;
        stats->tx_bytes = s.tx_bytes;
        stats->tx_dropped = s.tx_dropped;
        stats->tx_errors = s.tx_errors;
        stats->collisions = s.collisions;
        stats->multicast = s.multicast;
        error = 0;
        break;
    }

out:
    free(buf);
    close(fd);
    return error;
}

/* Receiving. */

/* See netdev-linux.h. */
struct netdev_rxq *
netdev_linux_rxq_alloc(void)
{
    struct netdev_linux_rxq *rxq = xzalloc(sizeof *rxq);

    return &rxq->up;
}

/* See netdev-linux.h. */
int
netdev_linux_rxq_construct(struct netdev_rxq *rxq)
{
    netdev_linux_rx_init(netdev_linux_rx_of(rxq));
    return 0;
}

/* See netdev-linux.h. */
void
netdev_linux_rxq_destruct(struct netdev_rxq *rxq)
{
    netdev_linux_rx_destroy(netdev_linux_rx_of(rxq));
}

/* See netdev-linux.h. */
void
netdev_linux_rxq_dealloc(struct netdev_rxq *rxq)
{
    free(rxq);
}

/* See netdev-linux.h. */
void
netdev_linux_rx_init(struct netdev_linux_rx *rx)
{
    memset(rx, 0, sizeof *rx);
    rx->overflow = xmalloc((size_t) NETDEV_LINUX_RX_BATCH
                           * NETDEV_LINUX_FRAME_MAX);
    rx->pending = xmalloc(NETDEV_LINUX_PENDING_MAX * sizeof *rx->pending);
}

/* See netdev-linux.h. */
void
netdev_linux_rx_destroy(struct netdev_linux_rx *rx)
{
    for (size_t i = 0; i < NETDEV_LINUX_RX_BATCH; i++) {
        dp_packet_free(rx->bufs[i]);
    }
    for (size_t i = 0; i < rx->n_pending; i++) {
        dp_packet_free(rx->pending[(rx->pending_head + i)
                                   % NETDEV_LINUX_PENDING_MAX]);
    }
    free(rx->pending);
    free(rx->overflow);
}

/* Moves segments held back from an earlier batch to the empty 'batch'.
 * Returns true if it moved any. */
bool
netdev_linux_rx_pending(struct netdev_linux_rx *rx,
                        struct dp_packet_batch *batch)
{
    while (rx->n_pending && !dp_packet_batch_is_full(batch)) {
        dp_packet_batch_add(batch, rx->pending[rx->pending_head]);
        rx->pending_head = (rx->pending_head + 1) % NETDEV_LINUX_PENDING_MAX;
        rx->n_pending--;
    }
    return batch->count > 0;
}

/* Makes buffers 0 to 'n' - 1 of 'rx' ready, with packets from 'pool', and
 * their iovecs in rx->iovs[].  Returns how many are ready (fewer than 'n'
 * when the pool runs out). */
size_t
netdev_linux_rx_prepare(struct netdev_linux_rx *rx, struct rte_mempool *pool,
                        size_t n)
{
    size_t i;

    n = MIN(n, (size_t) NETDEV_LINUX_RX_BATCH);
    for (i = 0; i < n; i++) {
        struct dp_packet *p = rx->bufs[i];

        if (!p) {
            p = rx->bufs[i] = dp_packet_alloc(pool);
            if (!p) {
                break;
            }
        }
        size_t room = dp_packet_tailroom(p);
        rx->iovs[i][0] = (struct iovec) { &rx->hdrs[i], sizeof rx->hdrs[i] };
        rx->iovs[i][1] = (struct iovec) { dp_packet_data(p), room };
        rx->iovs[i][2] = (struct iovec) {
            rx->overflow + i * (size_t) NETDEV_LINUX_FRAME_MAX,
            NETDEV_LINUX_FRAME_MAX > room ? NETDEV_LINUX_FRAME_MAX - room : 0,
        };
    }
    return i;
}

/* Turns buffer 'i' of 'rx', into which 'size' bytes (virtio-net header
 * included) were read, into packets added to 'batch' (segments that do not
 * fit are held for the next call of netdev_linux_rx_pending()).  'vlan' is
 * a VLAN header the kernel took out of the frame (TPID << 16 | TCI), put
 * back after the MAC addresses, or 0.  A frame too short or that cannot be
 * made into packets is dropped and counted. */
void
netdev_linux_rx_finish(struct netdev_linux_rx *rx, size_t i, size_t size,
                       uint32_t vlan, struct dp_packet_batch *batch)
{
    const struct virtio_net_hdr *h = &rx->hdrs[i];
    struct dp_packet *p = rx->bufs[i];

    if (size < sizeof *h + ETH_HEADER_LEN) {
        rx->rx_errors++;
        return;                 /* The buffer stays for the next frame. */
    }
    size -= sizeof *h;

    unsigned int gso = h->gso_type & ~VIRTIO_NET_HDR_GSO_ECN;
    bool is_tso = ((gso == VIRTIO_NET_HDR_GSO_TCPV4
                    || gso == VIRTIO_NET_HDR_GSO_TCPV6)
                   && (h->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM)
                   && h->gso_size);
    if (gso != VIRTIO_NET_HDR_GSO_NONE && !is_tso) {
        /* UDP segmentation (the switch does not offer it) or a frame that
         * does not say where its TCP header is. */
        rx->rx_dropped++;
        return;                 /* The buffer stays for the next frame. */
    }

    size_t room = rx->iovs[i][1].iov_len;
    rx->bufs[i] = NULL;
    dp_packet_put_uninit(p, MIN(size, room));
    if (size > room && dp_packet_put(p, rx->iovs[i][2].iov_base,
                                     size - room)) {
        dp_packet_free(p);
        rx->rx_dropped++;
        return;
    }

    if (is_tso) {
        /* A TSO packet: netdev_send() cuts it for ports that cannot. */
        p->md.l4_csum = DP_CSUM_PARTIAL;
        p->md.tso_segsz = h->gso_size;
        COVERAGE_INC(netdev_linux_rx_tso);
    } else if (h->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) {
        unsigned int start = h->csum_start, ofs = h->csum_offset;

        if (ofs == offsetof(struct tcp_header, csum)
            || ofs == offsetof(struct udp_header, csum)) {
            /* TCP or UDP: the datapath completes it at egress, or the next
             * port does. */
            p->md.l4_csum = DP_CSUM_PARTIAL;
            COVERAGE_INC(netdev_linux_rx_partial_csum);
        } else if (start + ofs + 2 <= size) {
            /* Anything else is completed now: the field already holds the
             * sum of what precedes the covered data. */
            uint16_t value = csum_finish(csum_packet(p, start, size - start,
                                                     0));
            dp_packet_copy_in(p, start + ofs, 2, &value);
        }
    } else if (h->flags & VIRTIO_NET_HDR_F_DATA_VALID) {
        p->md.l4_csum = DP_CSUM_GOOD;
    }
    rx_deliver(rx, p, vlan, batch);
}

/* Transmitting. */

/* See netdev-linux.h.  netdev_send() left a TCP or UDP checksum partial
 * (the ports offer those) with the pseudo-header sum in the field and the
 * mbuf's l2_len and l3_len set, which is what the kernel's partial
 * checksums are. */
int
netdev_linux_tx_iov(struct dp_packet *p, struct virtio_net_hdr *hdr,
                    struct iovec *iov, int max_iov)
{
    const struct rte_mbuf *m = &p->mbuf;
    uint64_t l4 = m->ol_flags & RTE_MBUF_F_TX_L4_MASK;
    int n = 0;

    memset(hdr, 0, sizeof *hdr);
    if (m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) {
        tx_tso(p, hdr);
    } else if (l4 == RTE_MBUF_F_TX_TCP_CKSUM
               || l4 == RTE_MBUF_F_TX_UDP_CKSUM) {
        hdr->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
        COVERAGE_INC(netdev_linux_tx_partial_csum);
        hdr->csum_start = m->l2_len + m->l3_len;
        hdr->csum_offset = (l4 == RTE_MBUF_F_TX_TCP_CKSUM
                            ? offsetof(struct tcp_header, csum)
                            : offsetof(struct udp_header, csum));
    }
    iov[n++] = (struct iovec) { hdr, sizeof *hdr };
    for (; m; m = m->next) {
        if (n >= max_iov) {
            return 0;
        }
        iov[n++] = (struct iovec) { rte_pktmbuf_mtod(m, void *),
                                    m->data_len };
    }
    return n;
}

/* See netdev-linux.h. */
int
netdev_linux_ifname(char dst[], const char *name)
{
    if (strlen(name) >= IFNAMSIZ || !*name) {
        return ENAMETOOLONG;
    }
    memset(dst, 0, IFNAMSIZ);
    memcpy(dst, name, strlen(name));
    return 0;
}

/* Adds 'p', with VLAN header 'vlan' (see netdev_linux_rx_finish()) put
 * back in, to 'batch', or to the pending segments if 'batch' is full (or
 * frees it if those are full too). */
static void
rx_deliver(struct netdev_linux_rx *rx, struct dp_packet *p, uint32_t vlan,
           struct dp_packet_batch *batch)
{
    if (vlan) {
        uint8_t *d = dp_packet_push(p, VLAN_HEADER_LEN);
        dps_be16 tag[2] = { htons(vlan >> 16), htons(vlan & 0xffff) };

        if (!d) {
            dp_packet_free(p);
            rx->rx_dropped++;
            return;
        }
        memmove(d, d + VLAN_HEADER_LEN, 2 * ETH_ADDR_LEN);
        memcpy(d + 2 * ETH_ADDR_LEN, tag, sizeof tag);
    }

    uint32_t size = dp_packet_size(p);

    if (!dp_packet_batch_is_full(batch)) {
        dp_packet_batch_add(batch, p);
    } else if (rx->n_pending < NETDEV_LINUX_PENDING_MAX) {
        rx->pending[(rx->pending_head + rx->n_pending++)
                    % NETDEV_LINUX_PENDING_MAX] = p;
    } else {
        dp_packet_free(p);
        rx->rx_dropped++;
        return;
    }
    rx->rx_packets++;
    rx->rx_bytes += size;
}

/* Fills 'hdr' for TSO packet 'p', which netdev_send() prepared for a device
 * (lib/dp-packet-csum.c): the kernel cuts it, or passes it on whole.  The
 * kernel wants what DPDK does not: a TCP field that holds the
 * pseudo-header sum with the length of the whole segment, and the IPv4
 * header checksum filled in. */
static void
tx_tso(struct dp_packet *p, struct virtio_net_hdr *hdr)
{
    struct rte_mbuf *m = &p->mbuf;
    uint8_t *d = dp_packet_data(p);
    unsigned int l4_ofs = m->l2_len + m->l3_len;
    uint32_t l4_size = dp_packet_size(p) - l4_ofs;
    struct tcp_header *tcp = (void *) (d + l4_ofs);

    tcp->csum = csum_fold(csum_add_word(tcp->csum, htons(l4_size)));
    if (m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM) {
        struct ipv4_header *ip = (void *) (d + m->l2_len);

        ip->csum = 0;
        ip->csum = csum_finish(csum_add(0, ip, m->l3_len));
    }
    hdr->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
    hdr->gso_type = (m->ol_flags & RTE_MBUF_F_TX_IPV6
                     ? VIRTIO_NET_HDR_GSO_TCPV6 : VIRTIO_NET_HDR_GSO_TCPV4);
    hdr->gso_size = m->tso_segsz;
    hdr->hdr_len = l4_ofs + m->l4_len;
    hdr->csum_start = l4_ofs;
    hdr->csum_offset = offsetof(struct tcp_header, csum);
    COVERAGE_INC(netdev_linux_tx_tso);
}

/* Helpers. */

static int
get_ioctl_sock(void)
{
    if (ioctl_sock < 0) {
        ioctl_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (ioctl_sock < 0) {
            int error = errno;
            VLOG_ERR("cannot create a socket for device control (%s)",
                     util_strerror(error));
            return -error;
        }
    }
    return ioctl_sock;
}

/* Runs ioctl 'cmd' on device 'name' with 'ifr' (whose name it sets). */
static int
do_ioctl(const char *name, unsigned long cmd, struct ifreq *ifr)
{
    int fd = get_ioctl_sock();

    if (fd < 0) {
        return -fd;
    }
    if (cmd != SIOCSIFMTU && cmd != SIOCSIFHWADDR && cmd != SIOCSIFFLAGS
        && cmd != SIOCETHTOOL) {
        memset(ifr, 0, sizeof *ifr);
    }
    int error = netdev_linux_ifname(ifr->ifr_name, name);
    if (error) {
        return error;
    }
    return ioctl(fd, cmd, ifr) < 0 ? errno : 0;
}
