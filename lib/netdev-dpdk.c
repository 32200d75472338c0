/* The "dpdk" port type: a DPDK ethdev.  See netdev-dpdk.h.
 *
 * Life of a port.  'construct' gives a netdev with no device: it receives
 * nothing and drops what it is asked to send.  'set_config' finds the
 * device named by options:dpdk-devargs, probing (hot-plugging) it if DPDK
 * does not have it yet, and records the requested queues and descriptors;
 * 'set_mtu' records the MTU.  Both then request a reconfiguration, and
 * 'reconfigure' (no thread polls or sends meanwhile) stops the device, takes
 * a packet pool for the MTU, configures queues and offloads and starts it.
 * 'destruct' stops and closes the device and removes it from DPDK.
 *
 * Transmit queues.  The datapath asks for one tx queue per sending thread
 * ('set_tx_multiq'); the device may have fewer.  When it does, the datapath
 * passes concurrent_txq == true and 'send' takes the queue's spinlock.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev-dpdk.h"
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>
#include <rte_version.h>
#include "dp-packet.h"
#include "dpdk.h"
#include "dynamic-string.h"
#include "netdev-offload.h"
#include "netdev-provider.h"
#include "smap.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_dpdk);

#define DPDK_PORT_NONE UINT16_MAX

#define MIN3(A, B, C) MIN(MIN(A, B), C)

/* Descriptor defaults and limits (options:n_rxq_desc, n_txq_desc). */
#define NETDEV_DPDK_DESC_DEFAULT 2048
#define NETDEV_DPDK_DESC_MAX 4096

/* MTU limits (Interface:mtu_request), Open vSwitch 3.1's: the MTU plus the
 * Ethernet header, the CRC and two VLAN tags fits a 9728-byte frame. */
#define NETDEV_DPDK_MTU_MIN 68
#define NETDEV_DPDK_MTU_MAX 9702

/* The frame length that MTU 'MTU' allows, CRC included; the transmit check
 * compares packet sizes, which exclude the CRC, against it, which leaves
 * room for one VLAN tag. */
#define MTU_TO_FRAME_LEN(MTU) ((MTU) + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)

/* Counters the port keeps in software, Interface:statistics names.  The
 * QoS ones stay 0 here: lib/netdev.c adds the policers' drops to them. */
#define NETDEV_DPDK_SW_STATS                    \
    SW_STAT(ovs_rx_qos_drops)                   \
    SW_STAT(ovs_tx_failure_drops)               \
    SW_STAT(ovs_tx_invalid_hwol_drops)          \
    SW_STAT(ovs_tx_mtu_exceeded_drops)          \
    SW_STAT(ovs_tx_qos_drops)

struct netdev_dpdk_sw_stats {
#define SW_STAT(NAME) uint64_t NAME;
    NETDEV_DPDK_SW_STATS
#undef SW_STAT
    uint64_t tx_admin_down_drops;       /* Part of tx_dropped. */
};

struct netdev_dpdk {
    struct netdev up;

    /* The device the datapath uses: DPDK_PORT_NONE until the first
     * reconfiguration after set_config() found one. */
    uint16_t port_id;
    char *devargs;
    int socket_id;

    /* The device set_config() found (probing it if needed).  A change of
     * device takes effect in 'reconfigure', when no thread polls the old
     * one. */
    uint16_t requested_port_id;
    char *requested_devargs;

    /* What set_config() and set_mtu() asked for. */
    int requested_n_rxq;
    int requested_n_txq;
    int requested_rxq_size;
    int requested_txq_size;
    int requested_mtu;
    bool requested_lsc_interrupt;       /* options:dpdk-lsc-interrupt. */
    int requested_fc_mode;              /* RTE_ETH_FC_*, from options. */
    bool requested_fc_autoneg;

    /* What the device has.  'started' is false until a reconfiguration
     * succeeds, and after one fails: the port then neither receives nor
     * sends. */
    bool started;
    bool configured;                    /* rte_eth_dev_configure() done. */
    bool rx_mark_negotiated;            /* The device delivers flow marks. */
    uint16_t configured_port_id;
    int rxq_size;
    int txq_size;
    int applied_rxq_size;               /* Requested sizes applied last: */
    int applied_txq_size;               /* the device may adjust them. */
    bool applied_lsc_interrupt;         /* Requested settings applied last. */
    int applied_fc_mode;
    bool applied_fc_autoneg;
    int mtu;
    uint32_t max_frame_len;
    int txq_limit;                      /* Most tx queues the device took. */
    struct dpdk_mp *mp;
    struct dpdk_mp *copy_mp;            /* netdev_dpdk_set_tx_copy(). */
    struct eth_addr hwaddr;
    uint32_t tx_caps;                   /* NETDEV_TX_*. */
    bool rx_csum_offload;
    bool scatter;
    bool lsc_interrupt;                 /* Device has LSC interrupts on. */
    int fc_mode;                        /* Flow control applied. */
    bool fc_autoneg;
    rte_spinlock_t *tx_locks;           /* One per tx queue. */

    /* NETDEV_UP and NETDEV_PROMISC. */
    enum netdev_flags flags;

    /* Link state as last seen, for carrier resets. */
    bool link_up;
    long long int carrier_resets;

    /* Counters, updated atomically. */
    struct netdev_dpdk_sw_stats sw_stats;
};

struct netdev_rxq_dpdk {
    struct netdev_rxq up;
    uint16_t port_id;
};

/* Every "dpdk" netdev, for the unixctl commands and the check that two
 * netdevs never share a device.  Main thread only. */
static struct netdev_dpdk **dpdk_netdevs;
static size_t n_dpdk_netdevs;

static const struct netdev_class dpdk_class;

static struct netdev_dpdk *netdev_dpdk_cast(const struct netdev *);
static void netdev_dpdk_register_commands(void);
static void netdev_dpdk_set_tx_copy(struct netdev_dpdk *);
static void netdev_dpdk_chain_status(const struct netdev_dpdk *,
                                     struct smap *);
static void netdev_dpdk_release_device(struct netdev_dpdk *);
static int netdev_dpdk_check_mtu(const struct netdev_dpdk *,
                                 struct rte_eth_dev_info *, int mtu,
                                 char **errp);

/* Registers the "dpdk" port type and the netdev-dpdk commands, if the
 * full EAL is up (dpdk_available()); otherwise does nothing.  Call once,
 * after dpdk_init(). */
void
netdev_dpdk_register(void)
{
    static bool registered;

    if (registered || !dpdk_available()) {
        return;
    }
    registered = true;
    netdev_register_class(&dpdk_class);
    netdev_dpdk_register_commands();
}

/* See netdev-dpdk.h. */
bool
netdev_dpdk_is_dpdk(const struct netdev *netdev)
{
    return netdev->netdev_class == &dpdk_class;
}

/* See netdev-dpdk.h. */
int
netdev_dpdk_get_port_id(const struct netdev *netdev)
{
    if (!netdev_dpdk_is_dpdk(netdev)) {
        return -1;
    }
    const struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);
    return dev->port_id == DPDK_PORT_NONE ? -1 : dev->port_id;
}

static struct netdev_dpdk *
netdev_dpdk_cast(const struct netdev *netdev)
{
    return CONTAINER_OF(netdev, struct netdev_dpdk, up);
}

static struct netdev_rxq_dpdk *
netdev_rxq_dpdk_cast(const struct netdev_rxq *rxq)
{
    return CONTAINER_OF(rxq, struct netdev_rxq_dpdk, up);
}

/* Helpers. */

static bool
is_power_of_2(long long int x)
{
    return x > 0 && !(x & (x - 1));
}

/* Returns the device name in 'devargs': what comes before the first
 * comma.  The caller frees it. */
static char *
devargs_name(const char *devargs)
{
    return xmemdup0(devargs, strcspn(devargs, ","));
}

static struct netdev_dpdk *
netdev_dpdk_find_by_port(uint16_t port_id, const struct netdev_dpdk *except)
{
    for (size_t i = 0; i < n_dpdk_netdevs; i++) {
        struct netdev_dpdk *dev = dpdk_netdevs[i];
        if (dev != except && (dev->port_id == port_id
                              || dev->requested_port_id == port_id)) {
            return dev;
        }
    }
    return NULL;
}

static struct netdev_dpdk *
netdev_dpdk_find_by_name(const char *name)
{
    for (size_t i = 0; i < n_dpdk_netdevs; i++) {
        if (!strcmp(dpdk_netdevs[i]->up.name, name)) {
            return dpdk_netdevs[i];
        }
    }
    return NULL;
}

/* Finds or hot-plugs the ethdev for 'devargs'.  Returns its port id, or
 * DPDK_PORT_NONE with a message in '*errp'. */
static uint16_t
netdev_dpdk_attach(const char *name, const char *devargs, char **errp)
{
    char *dev_name = devargs_name(devargs);
    uint16_t port_id;

    if (rte_eth_dev_get_port_by_name(dev_name, &port_id)) {
        int retval = rte_dev_probe(devargs);
        if (retval < 0 && retval != -EEXIST) {
            /* DPDK says EINVAL, EFAULT or ENODEV for what it cannot parse
             * or has no driver for. */
            bool unknown = (retval == -EINVAL || retval == -EFAULT
                            || retval == -ENODEV || retval == -ENOENT);
            *errp = xasprintf("%s: Error attaching device '%s' to DPDK: %s",
                              name, devargs,
                              (unknown
                               ? "no such device, no driver for it, or bad "
                                 "device arguments"
                               : rte_strerror(-retval)));
            free(dev_name);
            return DPDK_PORT_NONE;
        }
        if (rte_eth_dev_get_port_by_name(dev_name, &port_id)) {
            /* A PCI device may name its port differently from the
             * address given; try a devargs match. */
            struct rte_dev_iterator iter;
            bool found = false;
            RTE_ETH_FOREACH_MATCHING_DEV (port_id, devargs, &iter) {
                found = true;
                rte_eth_iterator_cleanup(&iter);
                break;
            }
            if (!found) {
                *errp = xasprintf("%s: device '%s' was probed but has no "
                                  "ethernet port", name, devargs);
                free(dev_name);
                return DPDK_PORT_NONE;
            }
        }
        VLOG_INFO("Device '%s' attached to DPDK", devargs);
    }
    free(dev_name);
    return port_id;
}

/* Netdev life cycle. */

static struct netdev *
netdev_dpdk_alloc(void)
{
    struct netdev_dpdk *dev = xzalloc(sizeof *dev);
    return &dev->up;
}

static int
netdev_dpdk_construct(struct netdev *netdev)
{
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);

    dev->port_id = DPDK_PORT_NONE;
    dev->requested_port_id = DPDK_PORT_NONE;
    dev->configured_port_id = DPDK_PORT_NONE;
    dev->socket_id = 0;
    dev->requested_n_rxq = 1;
    dev->requested_n_txq = 1;
    dev->requested_rxq_size = NETDEV_DPDK_DESC_DEFAULT;
    dev->requested_txq_size = NETDEV_DPDK_DESC_DEFAULT;
    dev->requested_mtu = RTE_ETHER_MTU;
    dev->rxq_size = NETDEV_DPDK_DESC_DEFAULT;
    dev->txq_size = NETDEV_DPDK_DESC_DEFAULT;
    dev->mtu = RTE_ETHER_MTU;
    dev->max_frame_len = MTU_TO_FRAME_LEN(dev->mtu);
    dev->txq_limit = INT_MAX;
    dev->requested_lsc_interrupt = true;
    dev->requested_fc_mode = RTE_ETH_FC_NONE;
    dev->fc_mode = RTE_ETH_FC_NONE;
    dev->flags = NETDEV_UP | NETDEV_PROMISC;
    netdev->n_rxq = 1;
    netdev->n_txq = 1;

    dpdk_netdevs = xrealloc(dpdk_netdevs,
                            (n_dpdk_netdevs + 1) * sizeof *dpdk_netdevs);
    dpdk_netdevs[n_dpdk_netdevs++] = dev;
    return 0;
}

static void
netdev_dpdk_destruct(struct netdev *netdev)
{
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);

    for (size_t i = 0; i < n_dpdk_netdevs; i++) {
        if (dpdk_netdevs[i] == dev) {
            dpdk_netdevs[i] = dpdk_netdevs[--n_dpdk_netdevs];
            break;
        }
    }
    if (dev->requested_port_id != dev->port_id) {
        uint16_t port_id = dev->port_id;
        char *devargs = dev->devargs;
        bool started = dev->started;
        bool configured = dev->configured;

        /* Release the device requested but not yet used, too (it was
         * never configured), then the one in use. */
        dev->port_id = dev->requested_port_id;
        dev->devargs = dev->requested_devargs;
        dev->requested_devargs = NULL;
        dev->started = false;
        netdev_dpdk_release_device(dev);
        free(dev->devargs);
        dev->port_id = port_id;
        dev->devargs = devargs;
        dev->started = started;
        dev->configured = configured;
    }
    netdev_dpdk_release_device(dev);
    dpdk_mp_put(dev->mp);
    dev->mp = NULL;
    dpdk_mp_put(dev->copy_mp);
    dev->copy_mp = NULL;
    free(dev->tx_locks);
    free(dev->devargs);
    free(dev->requested_devargs);
}

static void
netdev_dpdk_dealloc(struct netdev *netdev)
{
    free(netdev_dpdk_cast(netdev));
}

/* Stops, closes and removes from DPDK the device of 'dev', unless another
 * netdev uses a port of the same DPDK device. */
static void
netdev_dpdk_release_device(struct netdev_dpdk *dev)
{
    uint16_t port_id = dev->port_id;

    if (port_id == DPDK_PORT_NONE || !rte_eth_dev_is_valid_port(port_id)) {
        dev->port_id = DPDK_PORT_NONE;
        return;
    }

    struct rte_eth_dev_info info;
    struct rte_device *rte_dev = NULL;
    if (!rte_eth_dev_info_get(port_id, &info)) {
        rte_dev = info.device;
    }

    if (dev->started) {
        rte_eth_dev_stop(port_id);
        dev->started = false;
    }
    rte_eth_dev_close(port_id);
    dev->port_id = DPDK_PORT_NONE;
    dev->configured = false;

    /* Other ports of the same device still in use keep it attached. */
    if (rte_dev) {
        uint16_t other;
        RTE_ETH_FOREACH_DEV_OF (other, rte_dev) {
            if (netdev_dpdk_find_by_port(other, dev)) {
                return;
            }
        }
        int retval = rte_dev_remove(rte_dev);
        if (retval < 0) {
            VLOG_WARN("%s: cannot detach device '%s': %s", dev->up.name,
                      dev->devargs ? dev->devargs : "", rte_strerror(-retval));
        } else {
            VLOG_INFO("Device '%s' has been removed",
                      dev->devargs ? dev->devargs : "");
        }
    }
}

/* Configuration. */

static int
netdev_dpdk_set_config(struct netdev *netdev, const struct smap *options,
                       char **errp)
{
    static const char *const known[] = {
        "dpdk-devargs", "n_rxq", "n_rxq_desc", "n_txq_desc",
        "dpdk-lsc-interrupt", "rx-flow-ctrl", "tx-flow-ctrl",
        "flow-ctrl-autoneg",
    };
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);
    long long int n_rxq = 1, rxq_size = NETDEV_DPDK_DESC_DEFAULT;
    long long int txq_size = NETDEV_DPDK_DESC_DEFAULT;
    char *msg;

    /* Indexes, not SMAP_FOR_EACH: an empty smap has a null array. */
    for (size_t n = 0; n < options->n; n++) {
        const struct smap_node *node = &options->nodes[n];
        bool found = false;
        for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
            found = found || !strcmp(node->key, known[i]);
        }
        if (!found) {
            *errp = xasprintf("%s: unknown option \"%s\" for a \"dpdk\" "
                              "interface", netdev->name, node->key);
            return EINVAL;
        }
    }

    if ((msg = smap_parse_int(options, "n_rxq", 1, RTE_MAX_QUEUES_PER_PORT,
                              &n_rxq))
        || (msg = smap_parse_int(options, "n_rxq_desc", 1,
                                 NETDEV_DPDK_DESC_MAX, &rxq_size))
        || (msg = smap_parse_int(options, "n_txq_desc", 1,
                                 NETDEV_DPDK_DESC_MAX, &txq_size))) {
        *errp = xasprintf("%s: %s", netdev->name, msg);
        free(msg);
        return EINVAL;
    }
    bool lsc = true, rx_fc = false, tx_fc = false, fc_autoneg = false;
    if ((msg = smap_parse_bool(options, "dpdk-lsc-interrupt", &lsc))
        || (msg = smap_parse_bool(options, "rx-flow-ctrl", &rx_fc))
        || (msg = smap_parse_bool(options, "tx-flow-ctrl", &tx_fc))
        || (msg = smap_parse_bool(options, "flow-ctrl-autoneg",
                                  &fc_autoneg))) {
        *errp = xasprintf("%s: %s", netdev->name, msg);
        free(msg);
        return EINVAL;
    }
    if (!is_power_of_2(rxq_size) || !is_power_of_2(txq_size)) {
        *errp = xasprintf("%s: n_rxq_desc and n_txq_desc must be powers of "
                          "2 between 1 and %d", netdev->name,
                          NETDEV_DPDK_DESC_MAX);
        return EINVAL;
    }

    const char *devargs = smap_get(options, "dpdk-devargs");
    if (!devargs || !devargs[0]) {
        *errp = xasprintf("'%s' is missing 'options:dpdk-devargs'. The old "
                          "'dpdk<port_num>' names are not supported",
                          netdev->name);
        return EINVAL;
    }

    if (!dev->requested_devargs || strcmp(devargs, dev->requested_devargs)
        || dev->requested_port_id == DPDK_PORT_NONE
        || !rte_eth_dev_is_valid_port(dev->requested_port_id)) {
        uint16_t port_id = netdev_dpdk_attach(netdev->name, devargs, errp);
        if (port_id == DPDK_PORT_NONE) {
            return EINVAL;
        }
        struct netdev_dpdk *other = netdev_dpdk_find_by_port(port_id, dev);
        if (other) {
            *errp = xasprintf("'%s' is trying to use device '%s' which is "
                              "already in use by '%s'", netdev->name,
                              devargs, other->up.name);
            return EADDRINUSE;
        }
        dev->requested_port_id = port_id;
        free(dev->requested_devargs);
        dev->requested_devargs = xstrdup(devargs);
        if (port_id != dev->port_id) {
            netdev_request_reconfigure(netdev);
        }
    }

    int fc_mode = (rx_fc && tx_fc ? RTE_ETH_FC_FULL
                   : rx_fc ? RTE_ETH_FC_RX_PAUSE
                   : tx_fc ? RTE_ETH_FC_TX_PAUSE
                   : RTE_ETH_FC_NONE);
    if (n_rxq != dev->requested_n_rxq || rxq_size != dev->requested_rxq_size
        || txq_size != dev->requested_txq_size
        || lsc != dev->requested_lsc_interrupt
        || fc_mode != dev->requested_fc_mode
        || fc_autoneg != dev->requested_fc_autoneg) {
        dev->requested_n_rxq = n_rxq;
        dev->requested_rxq_size = rxq_size;
        dev->requested_txq_size = txq_size;
        dev->requested_lsc_interrupt = lsc;
        dev->requested_fc_mode = fc_mode;
        dev->requested_fc_autoneg = fc_autoneg;
        netdev_request_reconfigure(netdev);
    }
    return 0;
}

static int
netdev_dpdk_get_config(const struct netdev *netdev, struct smap *args)
{
    const struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);

    smap_add_format(args, "configured_rx_queues", "%d", netdev->n_rxq);
    smap_add_format(args, "configured_rxq_descriptors", "%d", dev->rxq_size);
    smap_add_format(args, "configured_tx_queues", "%d", netdev->n_txq);
    smap_add_format(args, "configured_txq_descriptors", "%d", dev->txq_size);
    smap_add(args, "lsc_interrupt_mode",
             dev->lsc_interrupt ? "true" : "false");
    smap_add_format(args, "mtu", "%d", dev->mtu);
    smap_add_format(args, "requested_rx_queues", "%d", dev->requested_n_rxq);
    smap_add_format(args, "requested_rxq_descriptors", "%d",
                    dev->requested_rxq_size);
    smap_add_format(args, "requested_tx_queues", "%d", dev->requested_n_txq);
    smap_add_format(args, "requested_txq_descriptors", "%d",
                    dev->requested_txq_size);
    smap_add(args, "rx_csum_offload", dev->rx_csum_offload ? "true" : "false");
    smap_add(args, "tx_tso_offload", "false");
    return 0;
}

static int
netdev_dpdk_set_tx_multiq(struct netdev *netdev, int n_txq)
{
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);

    if (n_txq != dev->requested_n_txq) {
        dev->requested_n_txq = n_txq;
        netdev_request_reconfigure(netdev);
    }
    return 0;
}

/* Applies the flow control options to the started device of 'dev'.  A
 * device without flow control gets a warning when some was asked for. */
static void
netdev_dpdk_apply_flow_ctrl(struct netdev_dpdk *dev)
{
    struct rte_eth_fc_conf fc;
    int retval;

    dev->fc_mode = RTE_ETH_FC_NONE;
    dev->fc_autoneg = false;
    if (dev->requested_fc_mode == RTE_ETH_FC_NONE
        && !dev->requested_fc_autoneg) {
        return;
    }

    memset(&fc, 0, sizeof fc);
    retval = rte_eth_dev_flow_ctrl_get(dev->port_id, &fc);
    if (!retval) {
        fc.mode = dev->requested_fc_mode;
        fc.autoneg = dev->requested_fc_autoneg;
        retval = rte_eth_dev_flow_ctrl_set(dev->port_id, &fc);
    }
    if (retval) {
        VLOG_WARN("%s: device '%s' does not take the flow control settings "
                  "(rx-flow-ctrl, tx-flow-ctrl, flow-ctrl-autoneg): %s",
                  dev->up.name, dev->devargs, rte_strerror(-retval));
    } else {
        dev->fc_mode = dev->requested_fc_mode;
        dev->fc_autoneg = dev->requested_fc_autoneg;
    }
}

/* Configures and starts the device with 'n_rxq' and 'n_txq' queues.
 * Returns 0, or a negative DPDK error with a message in '*errp'. */
static int
netdev_dpdk_start_device(struct netdev_dpdk *dev,
                         const struct rte_eth_dev_info *info,
                         int n_rxq, int n_txq, char **errp)
{
    const char *name = dev->up.name;
    uint16_t port_id = dev->port_id;
    struct rte_eth_conf conf;
    int retval;

    memset(&conf, 0, sizeof conf);
    conf.rxmode.mtu = dev->requested_mtu;
    /* Link state interrupts where the device has them; the link is polled
     * anyway. */
    dev->lsc_interrupt = (dev->requested_lsc_interrupt
                          && info->dev_flags
                          && (*info->dev_flags & RTE_ETH_DEV_INTR_LSC));
    conf.intr_conf.lsc = dev->lsc_interrupt;
    if (dev->scatter) {
        conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
    }
    if (dev->rx_csum_offload) {
        conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_CHECKSUM;
    }
    uint64_t tx_capa = info->tx_offload_capa;
    if (dev->tx_caps & NETDEV_TX_IPV4_CSUM) {
        conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
    }
    if (dev->tx_caps & NETDEV_TX_TCP_CSUM) {
        conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
    }
    if (dev->tx_caps & NETDEV_TX_UDP_CSUM) {
        conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
    }
    if (dev->tx_caps & NETDEV_TX_SCTP_CSUM) {
        conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_SCTP_CKSUM;
    }
    if (dev->tx_caps & NETDEV_TX_MULTI_SEG) {
        conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
    }
    if (dev->tx_caps & NETDEV_TX_TCP_TSO) {
        conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_TCP_TSO;
    }
    conf.txmode.offloads &= tx_capa;

    /* Ask for flow marks on received packets (partial offload), before
     * the device is first configured (DPDK refuses it later); devices
     * without it say ENOTSUP. */
    if (!dev->configured || dev->configured_port_id != port_id) {
        uint64_t rx_metadata = RTE_ETH_RX_METADATA_USER_MARK
                               | RTE_ETH_RX_METADATA_USER_FLAG;

        retval = rte_eth_rx_metadata_negotiate(port_id, &rx_metadata);
        dev->rx_mark_negotiated = (!retval
                                   && (rx_metadata
                                       & RTE_ETH_RX_METADATA_USER_MARK));
        if (retval && retval != -ENOTSUP) {
            VLOG_DBG("%s: rx metadata negotiation failed (%s)", name,
                     rte_strerror(-retval));
        }
    }

    /* Fewer tx queues may still work where many do not (net_tap wants as
     * many as rx queues). */
    int n_txq_wanted = n_txq;
    for (;;) {
        retval = rte_eth_dev_configure(port_id, n_rxq, n_txq, &conf);
        if (!retval || n_txq <= 1) {
            break;
        }
        VLOG_INFO("%s: device refused %d tx queues (%s), trying %d", name,
                  n_txq, rte_strerror(-retval), n_txq / 2);
        n_txq /= 2;
    }
    if (retval) {
        *errp = xasprintf("%s: cannot configure device '%s' with %d rx and "
                          "%d tx queues, MTU %d: %s", name, dev->devargs,
                          n_rxq, n_txq, dev->requested_mtu,
                          rte_strerror(-retval));
        return retval;
    }
    dev->configured = true;
    dev->configured_port_id = port_id;

    retval = rte_eth_dev_set_mtu(port_id, dev->requested_mtu);
    if (retval == -ENOTSUP) {
        uint16_t dev_mtu = 0;
        rte_eth_dev_get_mtu(port_id, &dev_mtu);
        VLOG_DBG("%s: device does not set its MTU (it has %u); MTU %d "
                 "applies in software", name, dev_mtu, dev->requested_mtu);
    } else if (retval) {
        *errp = xasprintf("%s: device '%s' refused MTU %d: %s", name,
                          dev->devargs, dev->requested_mtu,
                          rte_strerror(-retval));
        return retval;
    }

    uint16_t rxd = dev->requested_rxq_size, txd = dev->requested_txq_size;
    rte_eth_dev_adjust_nb_rx_tx_desc(port_id, &rxd, &txd);

    struct rte_mempool *pool = dpdk_mp_pool(dev->mp);
    for (int q = 0; q < n_rxq; q++) {
        retval = rte_eth_rx_queue_setup(port_id, q, rxd, dev->socket_id,
                                        NULL, pool);
        if (retval) {
            *errp = xasprintf("%s: cannot set up rx queue %d with %u "
                              "descriptors: %s", name, q, rxd,
                              rte_strerror(-retval));
            return retval;
        }
    }
    for (int q = 0; q < n_txq; q++) {
        retval = rte_eth_tx_queue_setup(port_id, q, txd, dev->socket_id,
                                        NULL);
        if (retval) {
            *errp = xasprintf("%s: cannot set up tx queue %d with %u "
                              "descriptors: %s", name, q, txd,
                              rte_strerror(-retval));
            return retval;
        }
    }

    retval = rte_eth_dev_start(port_id);
    if (retval) {
        *errp = xasprintf("%s: cannot start device '%s': %s", name,
                          dev->devargs, rte_strerror(-retval));
        return retval;
    }

    netdev_dpdk_apply_flow_ctrl(dev);
    if (dev->flags & NETDEV_PROMISC) {
        rte_eth_promiscuous_enable(port_id);
    }
    if (!(dev->flags & NETDEV_UP)) {
        rte_eth_dev_set_link_down(port_id);
    }

    struct rte_ether_addr mac;
    if (!rte_eth_macaddr_get(port_id, &mac)) {
        memcpy(&dev->hwaddr, &mac, sizeof dev->hwaddr);
    }

    if (n_txq < n_txq_wanted) {
        /* Remember, so that the next reconfiguration starts there. */
        dev->txq_limit = n_txq;
    }
    dev->up.n_rxq = n_rxq;
    dev->up.n_txq = n_txq;
    dev->rxq_size = rxd;
    dev->txq_size = txd;
    return 0;
}

static int
netdev_dpdk_reconfigure(struct netdev *netdev, char **errp)
{
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);
    const char *name = netdev->name;
    struct rte_eth_dev_info info;
    int retval;

    /* Nothing to do if nothing changed: stopping a device is not free
     * (a pcap device replays its file, a tap device loses its link). */
    if (dev->started && dev->requested_port_id == dev->port_id
        && dev->requested_n_rxq == netdev->n_rxq
        && dev->requested_rxq_size == dev->applied_rxq_size
        && dev->requested_txq_size == dev->applied_txq_size
        && dev->requested_mtu == dev->mtu
        && dev->requested_lsc_interrupt == dev->applied_lsc_interrupt
        && dev->requested_fc_mode == dev->applied_fc_mode
        && dev->requested_fc_autoneg == dev->applied_fc_autoneg
        && !rte_eth_dev_info_get(dev->port_id, &info)
        && MAX(MIN3(dev->requested_n_txq, (int) info.max_tx_queues,
                    dev->txq_limit), 1) == netdev->n_txq) {
        return 0;
    }

    if (dev->started) {
        rte_eth_dev_stop(dev->port_id);
        dev->started = false;
    }

    /* Move to the device set_config() found: nobody polls the old one. */
    if (dev->requested_port_id != dev->port_id) {
        netdev_dpdk_release_device(dev);
        dev->port_id = dev->requested_port_id;
        dev->txq_limit = INT_MAX;
    }
    if (dev->requested_devargs
        && (!dev->devargs || strcmp(dev->devargs, dev->requested_devargs))) {
        free(dev->devargs);
        dev->devargs = xstrdup(dev->requested_devargs);
    }
    if (dev->port_id == DPDK_PORT_NONE
        || !rte_eth_dev_is_valid_port(dev->port_id)) {
        *errp = xasprintf("%s: no DPDK device (options:dpdk-devargs)", name);
        return ENODEV;
    }
    int socket_id = rte_eth_dev_socket_id(dev->port_id);
    dev->socket_id = socket_id < 0 ? 0 : socket_id;

    retval = rte_eth_dev_info_get(dev->port_id, &info);
    if (retval) {
        *errp = xasprintf("%s: cannot get information on device '%s': %s",
                          name, dev->devargs, rte_strerror(-retval));
        return -retval;
    }

    /* What the device can do, given the configuration. */
    int mtu = dev->requested_mtu;
    retval = netdev_dpdk_check_mtu(dev, &info, mtu, errp);
    if (retval) {
        return retval;
    }
    bool multi_seg = dpdk_multi_seg_mbufs();
    dev->scatter = multi_seg
                   && (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER);
    dev->rx_csum_offload = ((info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_CHECKSUM)
                            == RTE_ETH_RX_OFFLOAD_CHECKSUM);
    uint32_t caps = 0;
    if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM) {
        caps |= NETDEV_TX_IPV4_CSUM;
    }
    if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_CKSUM) {
        caps |= NETDEV_TX_TCP_CSUM;
    }
    if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM) {
        caps |= NETDEV_TX_UDP_CSUM;
    }
    if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_SCTP_CKSUM) {
        caps |= NETDEV_TX_SCTP_CSUM;
    }
    if (multi_seg && (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)) {
        caps |= NETDEV_TX_MULTI_SEG;
    }
    /* TSO packets are chains: with userspace TSO, a device that cuts TCP
     * segments and sends chains takes them as they are. */
    uint64_t tso_capa = (RTE_ETH_TX_OFFLOAD_TCP_TSO
                         | RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
    if (dpdk_userspace_tso() && (info.tx_offload_capa & tso_capa) == tso_capa) {
        caps |= NETDEV_TX_TCP_TSO | NETDEV_TX_MULTI_SEG;
    }
    dev->tx_caps = caps;
    if (multi_seg && !dev->scatter
        && MTU_TO_FRAME_LEN(mtu) + RTE_PKTMBUF_HEADROOM
           > dpdk_mp_data_room(mtu)) {
        VLOG_WARN("%s: device '%s' cannot receive into chained mbufs; "
                  "frames longer than %u bytes may be dropped on receive",
                  name, dev->devargs,
                  dpdk_mp_data_room(mtu) - RTE_PKTMBUF_HEADROOM);
    }

    int n_rxq = dev->requested_n_rxq;
    if (n_rxq > info.max_rx_queues) {
        *errp = xasprintf("%s: device '%s' has at most %u rx queues, %d "
                          "requested (options:n_rxq)", name, dev->devargs,
                          info.max_rx_queues, n_rxq);
        return EINVAL;
    }
    int n_txq = MIN3(dev->requested_n_txq, (int) info.max_tx_queues,
                     dev->txq_limit);
    n_txq = MAX(n_txq, 1);

    /* A pool for the MTU, before the device needs it. */
    if (!dev->mp || mtu != dev->mtu
        || dpdk_mp_pool(dev->mp)->socket_id != dev->socket_id) {
        unsigned int n_mbufs = n_rxq * dev->requested_rxq_size
                               + n_txq * dev->requested_txq_size
                               + MIN(RTE_MAX_LCORE, n_rxq) * 32;
        struct dpdk_mp *mp = dpdk_mp_get_sized(name, dev->socket_id, mtu,
                                               n_mbufs, errp);
        if (!mp) {
            return ENOMEM;
        }
        dpdk_mp_put(dev->mp);
        dev->mp = mp;
    }

    retval = netdev_dpdk_start_device(dev, &info, n_rxq, n_txq, errp);
    if (retval) {
        VLOG_ERR("%s", *errp);
        return retval < 0 ? -retval : retval;
    }

    dev->mtu = mtu;
    dev->max_frame_len = MTU_TO_FRAME_LEN(mtu);
    netdev_dpdk_set_tx_copy(dev);
    dev->applied_rxq_size = dev->requested_rxq_size;
    dev->applied_txq_size = dev->requested_txq_size;
    dev->applied_lsc_interrupt = dev->requested_lsc_interrupt;
    dev->applied_fc_mode = dev->requested_fc_mode;
    dev->applied_fc_autoneg = dev->requested_fc_autoneg;
    n_txq = netdev->n_txq;      /* The device may have taken fewer. */
    free(dev->tx_locks);
    dev->tx_locks = xcalloc(n_txq, sizeof *dev->tx_locks);
    for (int q = 0; q < n_txq; q++) {
        rte_spinlock_init(&dev->tx_locks[q]);
    }
    dev->started = true;

    struct rte_eth_link link;
    if (!rte_eth_link_get_nowait(dev->port_id, &link)) {
        dev->link_up = link.link_status == RTE_ETH_LINK_UP;
    }
    VLOG_INFO("%s: device '%s' (port %u, %s) started: %d rx queues, %d tx "
              "queues, MTU %d, %u/%u descriptors", name, dev->devargs,
              dev->port_id, info.driver_name, n_rxq, n_txq, mtu,
              dev->rxq_size, dev->txq_size);
    netdev_change_seq_changed(netdev);
    return 0;
}

/* Transmit and receive. */

/* Chains for a device that cannot send them (no MULTI_SEGS) are copied by
 * netdev_send() into one mbuf (lib/netdev-provider.h): of the port's own
 * pool when its data room holds the longest frame the MTU allows (always,
 * without dpdk-multi-seg-mbufs), else of the shared copy pool, taken here
 * when the port first needs it.  Without any, such chains are dropped and
 * counted. */
static void
netdev_dpdk_set_tx_copy(struct netdev_dpdk *dev)
{
    struct rte_mempool *own = dpdk_mp_pool(dev->mp);
    bool own_fits = (dev->max_frame_len + RTE_PKTMBUF_HEADROOM
                     <= dp_packet_pool_data_room(own));
    bool need_copy_pool = !(dev->tx_caps & NETDEV_TX_MULTI_SEG) && !own_fits;

    if (need_copy_pool && !dev->copy_mp) {
        dev->copy_mp = dpdk_copy_mp_get(dev->up.name, dev->socket_id, NULL);
    } else if (!need_copy_pool && dev->copy_mp) {
        dpdk_mp_put(dev->copy_mp);
        dev->copy_mp = NULL;
    }
    dev->up.tx_copy_pool = (own_fits ? own
                            : dev->copy_mp ? dpdk_mp_pool(dev->copy_mp)
                            : NULL);
    dev->up.tx_copy_max = dev->max_frame_len;
}

static int
netdev_dpdk_send(struct netdev *netdev, int qid, struct dp_packet_batch *batch,
                 bool concurrent_txq)
{
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);
    struct rte_mbuf *mbufs[DP_PACKET_BATCH_SIZE];
    uint32_t n = 0;
    uint32_t n_mtu_drops = 0;

    if (unlikely(!dev->started || !(dev->flags & NETDEV_UP))) {
        __atomic_fetch_add(&dev->sw_stats.tx_admin_down_drops, batch->count,
                           __ATOMIC_RELAXED);
        dp_packet_batch_free(batch);
        return 0;
    }

    uint32_t max_size = dev->max_frame_len;
    for (uint32_t i = 0; i < batch->count; i++) {
        struct dp_packet *p = batch->packets[i];
        /* A TSO packet is cut to the MTU by the device. */
        if (unlikely(dp_packet_size(p) > max_size) && !p->md.tso_segsz) {
            dp_packet_free(p);
            n_mtu_drops++;
        } else {
            mbufs[n++] = &p->mbuf;
        }
    }
    batch->count = 0;

    if (concurrent_txq) {
        qid %= netdev->n_txq;
        rte_spinlock_lock(&dev->tx_locks[qid]);
    }
    uint32_t sent = 0;
    while (sent < n) {
        uint16_t k = rte_eth_tx_burst(dev->port_id, qid, mbufs + sent,
                                      n - sent);
        if (!k) {
            break;
        }
        sent += k;
    }
    if (concurrent_txq) {
        rte_spinlock_unlock(&dev->tx_locks[qid]);
    }

    if (unlikely(sent < n)) {
        rte_pktmbuf_free_bulk(mbufs + sent, n - sent);
        __atomic_fetch_add(&dev->sw_stats.ovs_tx_failure_drops, n - sent,
                           __ATOMIC_RELAXED);
    }
    if (unlikely(n_mtu_drops)) {
        __atomic_fetch_add(&dev->sw_stats.ovs_tx_mtu_exceeded_drops,
                           n_mtu_drops, __ATOMIC_RELAXED);
    }
    return 0;
}

static struct netdev_rxq *
netdev_dpdk_rxq_alloc(void)
{
    struct netdev_rxq_dpdk *rxq = xzalloc(sizeof *rxq);
    return &rxq->up;
}

static int
netdev_dpdk_rxq_construct(struct netdev_rxq *rxq_)
{
    struct netdev_rxq_dpdk *rxq = netdev_rxq_dpdk_cast(rxq_);
    struct netdev_dpdk *dev = netdev_dpdk_cast(rxq_->netdev);

    rxq->port_id = dev->port_id;
    return 0;
}

static void
netdev_dpdk_rxq_destruct(struct netdev_rxq *rxq DPS_UNUSED)
{
}

static void
netdev_dpdk_rxq_dealloc(struct netdev_rxq *rxq)
{
    free(netdev_rxq_dpdk_cast(rxq));
}

static int
netdev_dpdk_rxq_recv(struct netdev_rxq *rxq_, struct dp_packet_batch *batch,
                     int *qfill)
{
    struct netdev_rxq_dpdk *rxq = netdev_rxq_dpdk_cast(rxq_);
    struct netdev_dpdk *dev = netdev_dpdk_cast(rxq_->netdev);

    if (unlikely(!dev->started || !(dev->flags & NETDEV_UP)
                 || rxq->port_id != dev->port_id)) {
        return EAGAIN;
    }

    dpdk_mp_hold_poll();
    uint16_t n = rte_eth_rx_burst(rxq->port_id, rxq_->queue_id,
                                  (struct rte_mbuf **) batch->packets,
                                  DP_PACKET_BATCH_SIZE);
    if (!n) {
        return EAGAIN;
    }
    /* The mbufs come from another core (or the NIC's DMA): start the misses
     * on their receive flags and metadata for the whole burst at once. */
    for (uint16_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];
        rte_prefetch0(&p->mbuf.ol_flags);
        rte_prefetch0(&p->md);
    }
    bool pending = false;
    for (uint16_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];
        dp_packet_md_reset(p);
        dp_packet_csum_from_rx_flags(p);
        pending |= dp_packet_tx_pending(p);
    }
    batch->count = n;
    dp_packet_batch_set_clean(batch, !pending);

    if (qfill) {
        if (n == DP_PACKET_BATCH_SIZE) {
            int count = rte_eth_rx_queue_count(rxq->port_id,
                                               rxq_->queue_id);
            *qfill = count < 0 ? -1 : count;
        } else {
            *qfill = 0;
        }
    }
    return 0;
}

/* Addresses, MTU, link, flags. */

static int
netdev_dpdk_set_etheraddr(struct netdev *netdev, const struct eth_addr *mac)
{
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);

    if (dev->port_id != DPDK_PORT_NONE && dev->configured) {
        struct rte_ether_addr addr;
        memcpy(&addr, mac, sizeof addr);
        int retval = rte_eth_dev_default_mac_addr_set(dev->port_id, &addr);
        if (retval && retval != -ENOTSUP) {
            return -retval;
        }
    }
    dev->hwaddr = *mac;
    netdev_change_seq_changed(netdev);
    return 0;
}

static int
netdev_dpdk_get_etheraddr(const struct netdev *netdev, struct eth_addr *mac)
{
    *mac = netdev_dpdk_cast(netdev)->hwaddr;
    return 0;
}

static int
netdev_dpdk_get_mtu(const struct netdev *netdev, int *mtu)
{
    *mtu = netdev_dpdk_cast(netdev)->mtu;
    return 0;
}

/* Returns 0 if the device of 'dev' can take MTU 'mtu', otherwise EINVAL
 * and a message in '*errp'.  Fills in '*info'. */
static int
netdev_dpdk_check_mtu(const struct netdev_dpdk *dev,
                      struct rte_eth_dev_info *info, int mtu, char **errp)
{
    const char *devargs = dev->devargs ? dev->devargs : "";

    if (rte_eth_dev_info_get(dev->port_id, info)) {
        return 0;               /* Configuring will tell. */
    }
    if (info->max_mtu && mtu > info->max_mtu) {
        *errp = xasprintf("%s: unsupported MTU %d: device '%s' allows at "
                          "most %u", dev->up.name, mtu, devargs,
                          info->max_mtu);
        return EINVAL;
    }
    if (info->max_rx_pktlen
        && (uint32_t) MTU_TO_FRAME_LEN(mtu) > info->max_rx_pktlen) {
        *errp = xasprintf("%s: unsupported MTU %d: device '%s' takes frames "
                          "of at most %"PRIu32" bytes", dev->up.name, mtu,
                          devargs, info->max_rx_pktlen);
        return EINVAL;
    }
    return 0;
}

static int
netdev_dpdk_set_mtu(struct netdev *netdev, int mtu, char **errp)
{
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);

    if (mtu < NETDEV_DPDK_MTU_MIN || mtu > NETDEV_DPDK_MTU_MAX) {
        /* Open vSwitch's words, which it only logs. */
        *errp = xasprintf("%s: unsupported MTU %d", netdev->name, mtu);
        return EINVAL;
    }
    if (dev->port_id != DPDK_PORT_NONE
        && rte_eth_dev_is_valid_port(dev->port_id)) {
        struct rte_eth_dev_info info;
        int error = netdev_dpdk_check_mtu(dev, &info, mtu, errp);
        if (error) {
            return error;
        }
    }
    if (mtu != dev->requested_mtu) {
        dev->requested_mtu = mtu;
        netdev_request_reconfigure(netdev);
    }
    return 0;
}

/* Updates the link state of 'dev' and counts changes. */
static bool
netdev_dpdk_poll_link(const struct netdev_dpdk *dev_,
                      struct rte_eth_link *link)
{
    struct netdev_dpdk *dev = (struct netdev_dpdk *) dev_;

    memset(link, 0, sizeof *link);
    if (!dev->started
        || rte_eth_link_get_nowait(dev->port_id, link)) {
        memset(link, 0, sizeof *link);
    }
    bool up = link->link_status == RTE_ETH_LINK_UP;
    if (up != dev->link_up) {
        dev->link_up = up;
        dev->carrier_resets++;
        netdev_change_seq_changed(&dev->up);
    }
    return up;
}

static int
netdev_dpdk_get_carrier(const struct netdev *netdev, bool *carrier)
{
    struct rte_eth_link link;
    *carrier = netdev_dpdk_poll_link(netdev_dpdk_cast(netdev), &link);
    return 0;
}

static long long int
netdev_dpdk_get_carrier_resets(const struct netdev *netdev)
{
    struct rte_eth_link link;
    netdev_dpdk_poll_link(netdev_dpdk_cast(netdev), &link);
    return netdev_dpdk_cast(netdev)->carrier_resets;
}

static int
netdev_dpdk_get_speed(const struct netdev *netdev, uint32_t *mbps)
{
    struct rte_eth_link link;
    netdev_dpdk_poll_link(netdev_dpdk_cast(netdev), &link);
    *mbps = (link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN
             ? 0 : link.link_speed);
    return 0;
}

static int
netdev_dpdk_update_flags(struct netdev *netdev, enum netdev_flags off,
                         enum netdev_flags on, enum netdev_flags *old)
{
    struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);
    enum netdev_flags flags = (dev->flags & ~off) | on;

    *old = dev->flags;
    if (flags == dev->flags) {
        return 0;
    }
    dev->flags = flags;

    if (dev->started) {
        if ((flags ^ *old) & NETDEV_UP) {
            int retval = (flags & NETDEV_UP
                          ? rte_eth_dev_set_link_up(dev->port_id)
                          : rte_eth_dev_set_link_down(dev->port_id));
            if (retval && retval != -ENOTSUP) {
                VLOG_WARN("%s: cannot set link %s: %s", netdev->name,
                          flags & NETDEV_UP ? "up" : "down",
                          rte_strerror(-retval));
            }
        }
        if ((flags ^ *old) & NETDEV_PROMISC) {
            if (flags & NETDEV_PROMISC) {
                rte_eth_promiscuous_enable(dev->port_id);
            } else {
                rte_eth_promiscuous_disable(dev->port_id);
            }
        }
    }
    netdev_change_seq_changed(netdev);
    return 0;
}

/* Statistics and status. */

static int
netdev_dpdk_get_stats(const struct netdev *netdev, struct netdev_stats *stats)
{
    const struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);
    struct rte_eth_stats rte;

    memset(&rte, 0, sizeof rte);
    if (dev->port_id != DPDK_PORT_NONE && dev->configured) {
        rte_eth_stats_get(dev->port_id, &rte);
    }

    uint64_t sw_tx_drops =
        __atomic_load_n(&dev->sw_stats.ovs_tx_failure_drops,
                        __ATOMIC_RELAXED)
        + __atomic_load_n(&dev->sw_stats.ovs_tx_mtu_exceeded_drops,
                          __ATOMIC_RELAXED)
        + __atomic_load_n(&dev->sw_stats.tx_admin_down_drops,
                          __ATOMIC_RELAXED);

    stats->rx_packets = rte.ipackets;
    stats->rx_bytes = rte.ibytes;
    stats->rx_errors = rte.ierrors;
    stats->rx_missed_errors = rte.imissed;
    /* As Open vSwitch counts them: what the NIC missed and what the driver
     * could not receive for want of a free mbuf (rx_nombuf, the xstat
     * rx_mbuf_allocation_errors) are both receive drops. */
    stats->rx_dropped = rte.imissed + rte.rx_nombuf;
    stats->tx_packets = rte.opackets;
    stats->tx_bytes = rte.obytes;
    stats->tx_errors = rte.oerrors;
    stats->tx_dropped = sw_tx_drops;
    return 0;
}

/* Standard counters that xstats repeat under the same or another name. */
static bool
xstat_is_redundant(const char *name)
{
    static const char *const names[] = {
        "rx_good_packets", "tx_good_packets", "rx_good_bytes",
        "tx_good_bytes", "rx_errors", "tx_errors", "rx_missed_errors",
    };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (!strcmp(name, names[i])) {
            return true;
        }
    }
    return false;
}

static int
netdev_dpdk_get_custom_stats(const struct netdev *netdev,
                             struct netdev_custom_stats *custom)
{
    const struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);

    if (dev->port_id != DPDK_PORT_NONE && dev->configured) {
        int n = rte_eth_xstats_get_names(dev->port_id, NULL, 0);
        if (n > 0) {
            struct rte_eth_xstat_name *names = xcalloc(n, sizeof *names);
            struct rte_eth_xstat *values = xcalloc(n, sizeof *values);
            int n_names = rte_eth_xstats_get_names(dev->port_id, names, n);
            int n_values = rte_eth_xstats_get(dev->port_id, values, n);
            if (n_names == n && n_values == n) {
                for (int i = 0; i < n; i++) {
                    uint64_t id = values[i].id;
                    if (id < (uint64_t) n
                        && !xstat_is_redundant(names[id].name)) {
                        netdev_custom_stats_add(custom, names[id].name,
                                                values[i].value);
                    }
                }
            }
            free(names);
            free(values);
        }
    }

#define SW_STAT(NAME)                                                   \
    netdev_custom_stats_add(custom, #NAME,                              \
                            __atomic_load_n(&dev->sw_stats.NAME,        \
                                            __ATOMIC_RELAXED));
    NETDEV_DPDK_SW_STATS
#undef SW_STAT
    return 0;
}

/* Returns OVS's name for link speed 'speed' (Mbps). */
static const char *
link_speed_to_str(uint32_t speed)
{
    switch (speed) {
    case RTE_ETH_SPEED_NUM_10M: return "10Mbps";
    case RTE_ETH_SPEED_NUM_100M: return "100Mbps";
    case RTE_ETH_SPEED_NUM_1G: return "1Gbps";
    case RTE_ETH_SPEED_NUM_2_5G: return "2.5Gbps";
    case RTE_ETH_SPEED_NUM_5G: return "5Gbps";
    case RTE_ETH_SPEED_NUM_10G: return "10Gbps";
    case RTE_ETH_SPEED_NUM_20G: return "20Gbps";
    case RTE_ETH_SPEED_NUM_25G: return "25Gbps";
    case RTE_ETH_SPEED_NUM_40G: return "40Gbps";
    case RTE_ETH_SPEED_NUM_50G: return "50Gbps";
    case RTE_ETH_SPEED_NUM_56G: return "56Gbps";
    case RTE_ETH_SPEED_NUM_100G: return "100Gbps";
    case RTE_ETH_SPEED_NUM_200G: return "200Gbps";
    default: return "Not Defined";
    }
}

static int
netdev_dpdk_get_status(const struct netdev *netdev, struct smap *status)
{
    const struct netdev_dpdk *dev = netdev_dpdk_cast(netdev);
    struct rte_eth_dev_info info;

    if (dev->port_id == DPDK_PORT_NONE
        || rte_eth_dev_info_get(dev->port_id, &info)) {
        return ENODEV;
    }

    smap_add_format(status, "port_no", "%u", dev->port_id);
    smap_add_format(status, "numa_id", "%d", dev->socket_id);
    smap_add(status, "driver_name", info.driver_name);
    smap_add_format(status, "min_rx_bufsize", "%"PRIu32, info.min_rx_bufsize);
    smap_add_format(status, "max_rx_pktlen", "%"PRIu32, dev->max_frame_len);
    smap_add_format(status, "max_rx_queues", "%u", info.max_rx_queues);
    smap_add_format(status, "max_tx_queues", "%u", info.max_tx_queues);
    smap_add_format(status, "max_mac_addrs", "%"PRIu32, info.max_mac_addrs);
    smap_add_format(status, "max_hash_mac_addrs", "%"PRIu32,
                    info.max_hash_mac_addrs);
    smap_add_format(status, "max_vfs", "%u", info.max_vfs);
    smap_add_format(status, "max_vmdq_pools", "%u", info.max_vmdq_pools);
    smap_add(status, "if_type", "6");
    smap_add_format(status, "if_descr", "%s %s", rte_version(),
                    info.driver_name);

    if (info.device) {
        const struct rte_bus *bus = rte_dev_bus(info.device);
        const char *bus_info = rte_dev_bus_info(info.device);
        smap_add_format(status, "bus_info", "bus_name=%s%s%s",
                        bus ? rte_bus_name(bus) : "",
                        bus_info ? ", " : "", bus_info ? bus_info : "");
    }

    struct rte_eth_link link;
    netdev_dpdk_poll_link(dev, &link);
    smap_add(status, "link_speed", link_speed_to_str(link.link_speed));

    smap_add_format(status, "n_rxq", "%d", netdev->n_rxq);
    smap_add_format(status, "n_txq", "%d", netdev->n_txq);
    smap_add(status, "rx_csum_offload",
             dev->rx_csum_offload ? "true" : "false");
    netdev_dpdk_chain_status(dev, status);
    return 0;
}

/* Interface:status keys on chains (dpdk-multi-seg-mbufs): "rx_scatter"
 * (the device receives frames longer than a segment as chains),
 * "tx_multi_seg" (it sends chains; if not, they are copied into one
 * buffer first), and "tx_copy_pool" (the pool those copies come from, when
 * it is not the port's own). */
static void
netdev_dpdk_chain_status(const struct netdev_dpdk *dev, struct smap *status)
{
    smap_add(status, "rx_scatter", dev->scatter ? "true" : "false");
    smap_add(status, "tx_multi_seg",
             dev->tx_caps & NETDEV_TX_MULTI_SEG ? "true" : "false");
    if (dev->copy_mp && dev->up.tx_copy_pool) {
        smap_add(status, "tx_copy_pool", dev->up.tx_copy_pool->name);
    }
}

static uint32_t
netdev_dpdk_get_tx_caps(const struct netdev *netdev)
{
    return netdev_dpdk_cast(netdev)->tx_caps;
}

static int
netdev_dpdk_get_numa_id(const struct netdev *netdev)
{
    return netdev_dpdk_cast(netdev)->socket_id;
}

static const struct netdev_class dpdk_class = {
    .type = "dpdk",
    .is_pmd = true,
    .has_qos = true,
    .flow_api = &netdev_offload_dpdk,
    .alloc = netdev_dpdk_alloc,
    .construct = netdev_dpdk_construct,
    .destruct = netdev_dpdk_destruct,
    .dealloc = netdev_dpdk_dealloc,
    .set_config = netdev_dpdk_set_config,
    .get_config = netdev_dpdk_get_config,
    .reconfigure = netdev_dpdk_reconfigure,
    .send = netdev_dpdk_send,
    .set_etheraddr = netdev_dpdk_set_etheraddr,
    .get_etheraddr = netdev_dpdk_get_etheraddr,
    .get_mtu = netdev_dpdk_get_mtu,
    .set_mtu = netdev_dpdk_set_mtu,
    .get_carrier = netdev_dpdk_get_carrier,
    .get_carrier_resets = netdev_dpdk_get_carrier_resets,
    .get_speed = netdev_dpdk_get_speed,
    .update_flags = netdev_dpdk_update_flags,
    .get_stats = netdev_dpdk_get_stats,
    .get_custom_stats = netdev_dpdk_get_custom_stats,
    .get_status = netdev_dpdk_get_status,
    .get_tx_caps = netdev_dpdk_get_tx_caps,
    .get_numa_id = netdev_dpdk_get_numa_id,
    .rxq_alloc = netdev_dpdk_rxq_alloc,
    .rxq_construct = netdev_dpdk_rxq_construct,
    .rxq_destruct = netdev_dpdk_rxq_destruct,
    .rxq_dealloc = netdev_dpdk_rxq_dealloc,
    .rxq_recv = netdev_dpdk_rxq_recv,
    .set_tx_multiq = netdev_dpdk_set_tx_multiq,
};

/* unixctl commands. */

/* netdev-dpdk/detach DEVARGS: removes a device no port uses. */
static void
netdev_dpdk_unixctl_detach(struct unixctl_conn *conn, int argc DPS_UNUSED,
                           const char *argv[], void *aux DPS_UNUSED)
{
    const char *devargs = argv[1];
    char *name = devargs_name(devargs);
    char *reply = NULL;
    uint16_t port_id;

    if (rte_eth_dev_get_port_by_name(name, &port_id)) {
        reply = xasprintf("Device '%s' not found in DPDK", devargs);
        goto error;
    }

    struct rte_eth_dev_info info;
    if (rte_eth_dev_info_get(port_id, &info) || !info.device) {
        reply = xasprintf("Device '%s' not found in DPDK", devargs);
        goto error;
    }

    uint16_t other;
    struct ds users = DS_EMPTY_INITIALIZER;
    RTE_ETH_FOREACH_DEV_OF (other, info.device) {
        struct netdev_dpdk *dev = netdev_dpdk_find_by_port(other, NULL);
        if (dev) {
            ds_put_format(&users, "%s%s", users.length ? ", " : "",
                          dev->up.name);
        }
    }
    if (users.length) {
        reply = xasprintf("Device '%s' is being used by interface %s. "
                          "Remove it before detaching", devargs,
                          ds_cstr(&users));
        ds_destroy(&users);
        goto error;
    }
    ds_destroy(&users);

    RTE_ETH_FOREACH_DEV_OF (other, info.device) {
        rte_eth_dev_close(other);
    }
    int retval = rte_dev_remove(info.device);
    if (retval < 0) {
        reply = xasprintf("Device '%s' can not be detached: %s", devargs,
                          rte_strerror(-retval));
        goto error;
    }

    reply = xasprintf("Device '%s' has been detached", devargs);
    VLOG_INFO("%s", reply);
    unixctl_command_reply(conn, reply);
    free(reply);
    free(name);
    return;

error:
    unixctl_command_reply_error(conn, reply);
    free(reply);
    free(name);
}

/* netdev-dpdk/set-admin-state [NETDEV] up|down. */
static void
netdev_dpdk_unixctl_set_admin_state(struct unixctl_conn *conn, int argc,
                                    const char *argv[], void *aux DPS_UNUSED)
{
    bool up;

    if (!netdev_parse_admin_state(conn, argc, argv, &up)) {
        return;
    }

    if (argc > 2) {
        struct netdev_dpdk *dev = netdev_dpdk_find_by_name(argv[1]);
        if (!dev) {
            unixctl_command_reply_error(conn, "Not a DPDK Interface");
            return;
        }
        enum netdev_flags old;
        netdev_dpdk_update_flags(&dev->up, up ? 0 : NETDEV_UP,
                                 up ? NETDEV_UP : 0, &old);
    } else {
        for (size_t i = 0; i < n_dpdk_netdevs; i++) {
            enum netdev_flags old;
            netdev_dpdk_update_flags(&dpdk_netdevs[i]->up,
                                     up ? 0 : NETDEV_UP, up ? NETDEV_UP : 0,
                                     &old);
        }
    }
    unixctl_command_reply(conn, "OK");
}

/* netdev-dpdk/get-mempool-info [NETDEV]. */
static void
netdev_dpdk_unixctl_mempool_info(struct unixctl_conn *conn, int argc,
                                 const char *argv[], void *aux DPS_UNUSED)
{
    const char *name = argc == 2 ? argv[1] : NULL;

    /* Any DPDK port type: "dpdk" here, "dpdkvhostuser*" in netdev-vhost.c,
     * whose pools come from dpdk_mp_get() too. */
    if (name) {
        struct netdev *netdev = netdev_from_name(name);
        bool is_dpdk = (netdev
                        && !strncmp(netdev_get_type(netdev), "dpdk", 4));
        if (netdev) {
            netdev_close(netdev);
        }
        if (!is_dpdk) {
            unixctl_command_reply_error(conn, "Not a DPDK Interface");
            return;
        }
    }

    char *buf = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&buf, &size);
    if (!stream) {
        unixctl_command_reply_error(conn, "Unable to open memstream");
        return;
    }
    bool found = true;
    if (name) {
        found = dpdk_mp_dump_port(name, stream);
    } else {
        rte_mempool_list_dump(stream);
        dpdk_mp_dump_all(stream);
    }
    fclose(stream);
    if (found) {
        unixctl_command_reply(conn, buf);
    } else {
        unixctl_command_reply_error(conn, "Not allocated");
    }
    free(buf);
}

static void
netdev_dpdk_register_commands(void)
{
    unixctl_command_register("netdev-dpdk/detach", "pci address of device",
                             1, 1, netdev_dpdk_unixctl_detach, NULL);
    unixctl_command_register("netdev-dpdk/set-admin-state",
                             "[netdev] up|down", 1, 2,
                             netdev_dpdk_unixctl_set_admin_state, NULL);
    unixctl_command_register("netdev-dpdk/get-mempool-info", "[netdev]", 0,
                             1, netdev_dpdk_unixctl_mempool_info, NULL);
}
