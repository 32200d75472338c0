/* netdev-linux: port types backed by the host kernel, and what they share.
 *
 * Types, one file each:
 *
 *   - "internal" and "tap" (lib/netdev-tap.c): a tap device named after the
 *     port.  An "internal" port (a bridge's own port, "br0") creates it and
 *     the device goes away with the port; a "tap" port opens the tap of that
 *     name (created if missing, as Open vSwitch does).  Frames the kernel
 *     sends on the device arrive at the switch, frames the switch sends
 *     reach the kernel's stack.  Without /dev/net/tun or the right to create
 *     the device, an "internal" port falls back to a port with no kernel
 *     device (it drops what it is sent, as before) and says why in
 *     Interface:error.
 *   - "system" (lib/netdev-afpacket.c): an existing kernel interface (veth,
 *     physical) attached through an AF_PACKET socket, frames exchanged in
 *     batches of recvmmsg()/sendmmsg().
 *
 *   - "afxdp" (lib/netdev-afxdp.c, built when configure finds libxdp and
 *     libbpf): an existing kernel interface attached through AF_XDP
 *     sockets, one per receive queue (options:n_rxq), polled by PMD
 *     threads, in the XDP mode of options:xdp-mode.  Frames are copied
 *     between the sockets' UMEM and packets; no virtio-net header, so
 *     checksums are completed in software before they go.
 *
 * The others are polled by the main thread (not by PMD threads) and carry
 * a virtio-net header with each frame, so that the kernel's checksum and
 * segmentation state is understood: a partial checksum from the kernel is a
 * DP_CSUM_PARTIAL one here, a checksum the kernel verified is DP_CSUM_GOOD,
 * and a TCP segmentation (GSO) frame from the kernel is a TSO packet
 * (md.tso_segsz), which netdev_send() cuts for ports that cannot take it;
 * towards the kernel, a TCP or UDP checksum still to be filled in goes as
 * a partial one and a TSO packet as a GSO frame (the ports offer
 * NETDEV_TX_TCP_CSUM, NETDEV_TX_UDP_CSUM and NETDEV_TX_TCP_TSO).
 *
 * The helpers below are for those files only.  Device control (MTU, MAC,
 * flags) goes by device name through ioctl(); statistics through rtnetlink.
 * All of them belong to the main thread.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_LINUX_H
#define NETDEV_LINUX_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include "dp-packet.h"
#include "netdev-provider.h"
#include "netdev.h"

struct rte_mempool;
struct smap;

/* Registers "internal" (unless a class holds that type already: the dummy
 * one of --enable-dummy), "tap" and "system".  ovs-vswitchd calls it once
 * after netdev_dummy_register(); types that one overrode stay dummy. */
void netdev_linux_register(void);

/* Registration of each file's classes, for netdev_linux_register(). */
void netdev_tap_register(bool with_internal);
void netdev_afpacket_register(void);
void netdev_afxdp_register(void);       /* With HAVE_AF_XDP only. */

/* 'set_config' of the classes: accepts options:n_rxq and n_txq, which have
 * no effect (one queue each way, as Open vSwitch's kernel ports), and
 * refuses anything else. */
int netdev_linux_set_config(struct netdev *, const struct smap *options,
                            char **errp);

/* Device control by name.  0 or a positive errno (ENODEV once the device
 * is gone). */
int netdev_linux_get_ifindex(const char *name, int *ifindex);
int netdev_linux_get_mtu(const char *name, int *mtu);
int netdev_linux_set_mtu(const char *name, int mtu);
int netdev_linux_get_etheraddr(const char *name, struct eth_addr *);
int netdev_linux_set_etheraddr(const char *name, const struct eth_addr *);
int netdev_linux_get_carrier(const char *name, bool *carrier);
int netdev_linux_update_flags(const char *name, enum netdev_flags off,
                              enum netdev_flags on, enum netdev_flags *old);

/* Class slots for a port that is an existing kernel interface named after
 * the netdev ("system", "afxdp"): the kernel's MAC, MTU, carrier and
 * flags (NETDEV_UP and NETDEV_PROMISC only).  A MAC or MTU set bumps the
 * netdev's change sequence; an MTU refused is reported in '*errp'. */
int netdev_linux_kdev_set_etheraddr(struct netdev *, const struct eth_addr *);
int netdev_linux_kdev_get_etheraddr(const struct netdev *, struct eth_addr *);
int netdev_linux_kdev_get_mtu(const struct netdev *, int *mtu);
int netdev_linux_kdev_set_mtu(struct netdev *, int mtu, char **errp);
int netdev_linux_kdev_update_flags(struct netdev *, enum netdev_flags off,
                                   enum netdev_flags on,
                                   enum netdev_flags *old);

/* Adds the driver_name, driver_version and firmware_version that ethtool
 * reports for device 'name' to 'status' (nothing if it reports none). */
void netdev_linux_get_drvinfo(const char *name, struct smap *status);

/* The kernel's counters of interface 'ifindex' (IFLA_STATS64), as the
 * device sees them. */
int netdev_linux_get_stats(int ifindex, struct netdev_stats *);

/* Receiving.  A 'struct netdev_linux_rx' holds, for one receive queue, one
 * batch of buffers: for each frame a virtio-net header, a fresh packet for
 * the first bytes and an overflow area for the rest (jumbo and GSO frames,
 * which become chains), as three iovecs; and packets that did not fit in
 * the batch, handed out first by the next call.  Users:
 *
 *     if (!netdev_linux_rx_pending(rx, batch)) {
 *         n = netdev_linux_rx_prepare(rx, pool, max);
 *         ... read up to 'n' frames into rx->iovs[i], sizes in size[i] ...
 *         for each frame i:
 *             netdev_linux_rx_finish(rx, i, size[i], vlan[i], batch);
 *     }
 */
#define NETDEV_LINUX_RX_BATCH DP_PACKET_BATCH_SIZE
#define NETDEV_LINUX_FRAME_MAX (65535 + 18)     /* IP maximum + L2. */
#define NETDEV_LINUX_PENDING_MAX 2048

struct netdev_linux_rx {
    struct virtio_net_hdr hdrs[NETDEV_LINUX_RX_BATCH];
    struct dp_packet *bufs[NETDEV_LINUX_RX_BATCH];
    struct iovec iovs[NETDEV_LINUX_RX_BATCH][3];
    uint8_t *overflow;          /* NETDEV_LINUX_RX_BATCH areas. */

    /* Segments waiting for the next batch, a ring. */
    struct dp_packet **pending;
    size_t pending_head, n_pending;

    /* Counted by netdev_linux_rx_finish(), main thread only. */
    uint64_t rx_packets, rx_bytes, rx_dropped, rx_errors;

    /* For recvmmsg() (AF_PACKET): addresses, PACKET_AUXDATA, headers. */
    struct sockaddr_ll addrs[NETDEV_LINUX_RX_BATCH];
    union {
        struct cmsghdr align;
        uint8_t buf[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
    } cmsgs[NETDEV_LINUX_RX_BATCH];
    struct mmsghdr msgs[NETDEV_LINUX_RX_BATCH];
};

/* The receive queue of the classes, and its slots. */
struct netdev_linux_rxq {
    struct netdev_rxq up;
    struct netdev_linux_rx rx;
};

struct netdev_rxq *netdev_linux_rxq_alloc(void);
int netdev_linux_rxq_construct(struct netdev_rxq *);
void netdev_linux_rxq_destruct(struct netdev_rxq *);
void netdev_linux_rxq_dealloc(struct netdev_rxq *);

static inline struct netdev_linux_rx *
netdev_linux_rx_of(struct netdev_rxq *rxq)
{
    return &((struct netdev_linux_rxq *) rxq)->rx;
}

void netdev_linux_rx_init(struct netdev_linux_rx *);
void netdev_linux_rx_destroy(struct netdev_linux_rx *);
bool netdev_linux_rx_pending(struct netdev_linux_rx *,
                             struct dp_packet_batch *);
size_t netdev_linux_rx_prepare(struct netdev_linux_rx *,
                               struct rte_mempool *, size_t n);
void netdev_linux_rx_finish(struct netdev_linux_rx *, size_t i, size_t size,
                            uint32_t vlan, struct dp_packet_batch *);

/* Transmitting: fills 'iov' with a virtio-net header for 'p' (in '*hdr')
 * and the packet's segments; returns the number of iovecs used, or 0 if
 * 'p' has more than 'max_iov' - 1 segments. */
int netdev_linux_tx_iov(struct dp_packet *p, struct virtio_net_hdr *hdr,
                        struct iovec *iov, int max_iov);

/* Counters shared between threads. */
static inline void
netdev_linux_counter_add(uint64_t *counter, uint64_t n)
{
    if (n) {
        __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
    }
}

static inline uint64_t
netdev_linux_counter_get(const uint64_t *counter)
{
    return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

/* Copies device name 'name' into 'dst' (an ifr_name), or returns
 * ENAMETOOLONG. */
int netdev_linux_ifname(char dst[], const char *name);

#endif /* netdev-linux.h */
