/* The generic netdev layer: the class registry, opening by name with
 * reference counts, the reconfiguration protocol, and the transmit step
 * that finishes what a port cannot do itself.  See netdev.h and
 * netdev-provider.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "coverage.h"
#include "dp-packet-csum.h"
#include "dp-packet-tso.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "latch.h"
#include "netdev-provider.h"
#include "netdev-qos.h"
#include "poll-loop.h"
#include "smap.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev);

COVERAGE_DEFINE(netdev_sent);
COVERAGE_DEFINE(netdev_received);
COVERAGE_DEFINE(netdev_linearized);
COVERAGE_DEFINE(netdev_linearize_drops);
COVERAGE_DEFINE(netdev_tx_chain_copied);
COVERAGE_DEFINE(netdev_invalid_csum_drops);

/* Registered classes, by type.  An entry whose 'overridden' is true took
 * the place of whatever class registers that type later (tests with
 * --enable-dummy=override): such registrations are ignored. */
struct netdev_registered_class {
    const struct netdev_class *class;
    char *type;
    bool overridden;
    struct netdev_class *copy;          /* Owned copy for an override. */
};

static struct netdev_registered_class *classes;
static size_t n_classes;

/* Open netdevs, by name.  Main thread only. */
static struct netdev **netdevs;
static size_t n_netdevs, allocated_netdevs;

/* Reconfiguration requests from any thread: a counter and a latch that
 * wakes the main thread's poll_block(). */
static uint64_t reconf_seq;
static struct latch reconf_latch;
static pthread_once_t reconf_once = PTHREAD_ONCE_INIT;

static struct netdev_registered_class *find_class(const char *type);
static void netdev_destroy(struct netdev *);
static void netdev_update_tx_caps(struct netdev *);
static bool netdev_tso_fits_mtu(struct netdev *, struct dp_packet *);
static int netdev_send__(struct netdev *, int qid, struct dp_packet_batch *,
                         bool concurrent_txq);
static int netdev_send_segments(struct netdev *, int qid,
                                struct dp_packet_batch *, size_t n_ready,
                                struct dp_packet *, bool concurrent_txq);
static void netdev_add_custom_counter(struct netdev_custom_stats *,
                                      const char *key, uint64_t value,
                                      bool always);
static struct netdev_qos *netdev_qos_state(struct netdev *);
static void netdev_add_invalid_hwol_drops(const struct netdev *,
                                          struct netdev_custom_stats *);
static void reconf_init(void);

static int compare_strings(const void *a_, const void *b_);
static int netdev_update_flags(struct netdev *netdev, enum netdev_flags off,
                               enum netdev_flags on, enum netdev_flags *old);
static struct dp_packet *
netdev_tx_linearize(struct netdev *netdev, struct dp_packet *p);
static inline uint16_t netdev_tx_csum_states(const struct dp_packet *p);

/* Custom statistics. */

/* Appends a counter 'name' with 'value' to 'stats'. */
void
netdev_custom_stats_add(struct netdev_custom_stats *stats, const char *name,
                        uint64_t value)
{
    struct netdev_custom_counter *c;

    stats->counters = xrealloc(stats->counters,
                               (stats->n + 1) * sizeof *stats->counters);
    c = &stats->counters[stats->n++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->value = value;
}

/* Frees the counters of 'stats' and leaves it empty. */
void
netdev_custom_stats_destroy(struct netdev_custom_stats *stats)
{
    if (stats) {
        free(stats->counters);
        stats->counters = NULL;
        stats->n = 0;
    }
}

/* Returns true if a class is registered for 'type' (NULL or "" meaning
 * "system", as the Interface table says). */
bool
netdev_is_type_supported(const char *type)
{
    return find_class(type && *type ? type : "system") != NULL;
}

/* Appends the registered types to 'ds', sorted and separated by spaces. */
void
netdev_get_types(struct ds *ds)
{
    const char **types = xmalloc((n_classes + 1) * sizeof *types);

    for (size_t i = 0; i < n_classes; i++) {
        types[i] = classes[i].type;
    }
    qsort(types, n_classes, sizeof *types, compare_strings);
    for (size_t i = 0; i < n_classes; i++) {
        ds_put_format(ds, "%s%s", i ? " " : "", types[i]);
    }
    free(types);
}

/* Makes type 'type' an alias of the registered type 'as_type': netdevs
 * opened as 'type' get the class of 'as_type' (with 'type' as their type).
 * A later registration of 'type' is ignored.  Netdevs already open keep
 * their class. */
void
netdev_class_override(const char *type, const char *as_type)
{
    struct netdev_registered_class *as = find_class(as_type);

    if (!as) {
        VLOG_WARN("cannot make \"%s\" ports \"%s\" ones: no such type",
                  type, as_type);
        return;
    }

    struct netdev_class *copy = xmemdup(as->class, sizeof *as->class);
    struct netdev_registered_class *rc = find_class(type);

    copy->type = NULL;
    if (!rc) {
        classes = xrealloc(classes, (n_classes + 1) * sizeof *classes);
        rc = &classes[n_classes++];
        memset(rc, 0, sizeof *rc);
        rc->type = xstrdup(type);
    }
    /* The old copy stays allocated: netdevs still open may point to it. */
    copy->type = rc->type;
    rc->class = copy;
    rc->copy = copy;
    rc->overridden = true;
}

/* Parses a set-admin-state command's state; see netdev.h. */
bool
netdev_parse_admin_state(struct unixctl_conn *conn, int argc,
                         const char *argv[], bool *up)
{
    const char *state = argv[argc - 1];

    if (!strcasecmp(state, "up")) {
        *up = true;
    } else if (!strcasecmp(state, "down")) {
        *up = false;
    } else {
        unixctl_command_reply_error(conn, "Invalid Admin State");
        return false;
    }
    return true;
}

/* Opening and closing. */

/* Opens the netdev 'name' of type 'type' (NULL or "" mean "system") and
 * stores it in '*netdevp'.  If 'name' is open already with the same type,
 * returns it with one more reference; with another type, fails with
 * EEXIST.  An unknown type fails with EAFNOSUPPORT.  On failure, stores
 * NULL in '*netdevp' and, if 'errp' is nonnull, a malloc()ed message in
 * '*errp' (else the message is logged).  On success '*errp' is NULL. */
int
netdev_open(const char *name, const char *type, struct netdev **netdevp,
            char **errp)
{
    struct netdev_registered_class *rc;
    struct netdev *netdev;
    char *error_msg = NULL;
    int error = 0;

    type = type && *type ? type : "system";
    *netdevp = NULL;

    netdev = netdev_from_name(name);
    if (netdev) {
        if (!strcmp(netdev_get_type(netdev), type)) {
            *netdevp = netdev;
        } else {
            error = EEXIST;
            error_msg = xasprintf("%s: cannot open as type \"%s\": already "
                                  "open as type \"%s\"",
                                  name, type, netdev_get_type(netdev));
            netdev_close(netdev);
        }
        goto out;
    }

    rc = find_class(type);
    if (!rc) {
        error = EAFNOSUPPORT;
        error_msg = xasprintf("%s: could not open network device: "
                              "unsupported type \"%s\"", name, type);
        goto out;
    }

    netdev = rc->class->alloc();
    if (!netdev) {
        error = ENOMEM;
        error_msg = xasprintf("%s: could not allocate network device",
                              name);
        goto out;
    }
    memset(netdev, 0, sizeof *netdev);
    netdev->name = xstrdup(name);
    netdev->netdev_class = rc->class;
    netdev->ref_cnt = 1;
    netdev->n_rxq = 1;
    netdev->n_txq = 1;
    netdev->change_seq = 1;

    error = rc->class->construct(netdev);
    if (error) {
        error_msg = xasprintf("%s: could not open network device of type "
                              "\"%s\": %s", name, type, util_strerror(error));
        free(netdev->name);
        rc->class->dealloc(netdev);
        goto out;
    }
    netdev_update_tx_caps(netdev);

    if (n_netdevs >= allocated_netdevs) {
        allocated_netdevs = allocated_netdevs ? 2 * allocated_netdevs : 16;
        netdevs = xrealloc(netdevs, allocated_netdevs * sizeof *netdevs);
    }
    netdevs[n_netdevs++] = netdev;
    *netdevp = netdev;

out:
    if (errp) {
        *errp = error_msg;
    } else if (error_msg) {
        VLOG_WARN("%s", error_msg);
        free(error_msg);
    }
    return error;
}

/* Takes one more reference to 'netdev' and returns it. */
struct netdev *
netdev_ref(struct netdev *netdev)
{
    if (netdev) {
        netdev->ref_cnt++;
    }
    return netdev;
}

/* Releases one reference to 'netdev'; the last one destroys it. */
void
netdev_close(struct netdev *netdev)
{
    if (netdev && !--netdev->ref_cnt) {
        netdev_destroy(netdev);
    }
}

/* Returns the name the netdev was opened with. */
const char *
netdev_get_name(const struct netdev *netdev)
{
    return netdev->name;
}

/* Returns the netdev's type ("dummy", "dpdk"...). */
const char *
netdev_get_type(const struct netdev *netdev)
{
    return netdev->netdev_class->type;
}

/* True if PMD threads poll the netdev's rx queues. */
bool
netdev_is_pmd(const struct netdev *netdev)
{
    return netdev->netdev_class->is_pmd;
}

/* Returns the open netdev called 'name' with one more reference (release
 * it with netdev_close()), or NULL if there is none. */
struct netdev *
netdev_from_name(const char *name)
{
    for (size_t i = 0; i < n_netdevs; i++) {
        if (!strcmp(netdevs[i]->name, name)) {
            return netdev_ref(netdevs[i]);
        }
    }
    return NULL;
}

/* Stores in '*netdevsp' every open netdev whose class is 'class' (NULL:
 * every open netdev), each with one more reference, and returns their
 * number.  The caller frees the array and closes each netdev. */
size_t
netdev_get_open(const struct netdev_class *class, struct netdev ***netdevsp)
{
    struct netdev **list = xmalloc((n_netdevs + 1) * sizeof *list);
    size_t n = 0;

    for (size_t i = 0; i < n_netdevs; i++) {
        if (!class || netdevs[i]->netdev_class == class
            || !strcmp(netdevs[i]->netdev_class->type, class->type)) {
            list[n++] = netdev_ref(netdevs[i]);
        }
    }
    *netdevsp = list;
    return n;
}

/* Configuration. */

/* Applies Interface:options 'options' (NULL: none) to 'netdev'.  Returns 0,
 * or a positive errno and, if 'errp' is nonnull, a malloc()ed message in
 * '*errp' (else it is logged). */
int
netdev_set_config(struct netdev *netdev, const struct smap *options,
                  char **errp)
{
    const struct netdev_class *class = netdev->netdev_class;
    struct smap empty = SMAP_INITIALIZER;
    char *error_msg = NULL;
    int error = 0;

    if (!options) {
        options = &empty;
    }
    if (class->set_config) {
        error = class->set_config(netdev, options, &error_msg);
        if (error && !error_msg) {
            error_msg = xasprintf("%s: could not set configuration: %s",
                                  netdev->name, util_strerror(error));
        }
        netdev_update_tx_caps(netdev);
    } else if (!smap_is_empty(options)) {
        error = EINVAL;
        error_msg = xasprintf("%s: %s interface does not support "
                              "option \"%s\"", netdev->name,
                              netdev_get_type(netdev),
                              options->nodes[0].key);
    }

    if (errp) {
        *errp = error_msg;
    } else if (error_msg) {
        VLOG_WARN("%s", error_msg);
        free(error_msg);
    }
    return error;
}

/* Replaces the contents of 'options' by the netdev's current options.
 * Returns 0, or EOPNOTSUPP if the class has none to report. */
int
netdev_get_config(const struct netdev *netdev, struct smap *options)
{
    smap_clear(options);
    if (!netdev->netdev_class->get_config) {
        return EOPNOTSUPP;
    }
    int error = netdev->netdev_class->get_config(netdev, options);

    if (error) {
        smap_clear(options);
    }
    return error;
}

/* True if the class asked for 'reconfigure' to run. */
bool
netdev_is_reconf_required(const struct netdev *netdev)
{
    return __atomic_load_n(&netdev->reconf_required, __ATOMIC_ACQUIRE);
}

/* Applies what the class requested (see "Reconfiguration" in
 * netdev-provider.h).  The caller has stopped every thread that polls or
 * transmits on 'netdev' and closed its rx queues.  Clears the request
 * first, so that one made while 'reconfigure' runs is not lost.  Returns 0
 * or a positive errno with a message in '*errp' (if 'errp' is nonnull). */
int
netdev_reconfigure(struct netdev *netdev, char **errp)
{
    const struct netdev_class *class = netdev->netdev_class;
    char *error_msg = NULL;
    int error = 0;

    __atomic_store_n(&netdev->reconf_required, false, __ATOMIC_RELEASE);
    if (class->reconfigure) {
        error = class->reconfigure(netdev, &error_msg);
        if (error && !error_msg) {
            error_msg = xasprintf("%s: reconfiguration failed: %s",
                                  netdev->name, util_strerror(error));
        }
    }
    netdev_update_tx_caps(netdev);
    netdev_change_seq_changed(netdev);

    if (errp) {
        *errp = error_msg;
    } else if (error_msg) {
        VLOG_WARN("%s", error_msg);
        free(error_msg);
    }
    return error;
}

/* Returns a number that changes whenever any netdev requests
 * reconfiguration.  Any thread. */
uint64_t
netdev_reconf_seq(void)
{
    return __atomic_load_n(&reconf_seq, __ATOMIC_SEQ_CST);
}

/* Makes the calling thread's next poll_block() return once
 * netdev_reconf_seq() differs from 'seq' (at once if it does already).
 * Meant for the main thread; only one thread should wait this way. */
void
netdev_reconf_wait(uint64_t seq)
{
    pthread_once(&reconf_once, reconf_init);

    /* Clear the latch before reading the counter: a request that comes
     * after the read sets the latch again, one before it shows in the
     * counter. */
    latch_poll(&reconf_latch);
    if (netdev_reconf_seq() != seq) {
        poll_immediate_wake();
    } else {
        latch_wait(&reconf_latch);
    }
}

/* Returns a number that changes whenever the netdev's link state, status or
 * statistics changed in a way worth writing to the database. */
uint64_t
netdev_get_change_seq(const struct netdev *netdev)
{
    return __atomic_load_n(&netdev->change_seq, __ATOMIC_ACQUIRE);
}

/* Returns the number of rx queues the netdev has now. */
int
netdev_n_rxq(const struct netdev *netdev)
{
    return netdev->n_rxq;
}

/* Returns the number of tx queues the netdev has now. */
int
netdev_n_txq(const struct netdev *netdev)
{
    return netdev->n_txq;
}

/* Returns the NUMA node of the device, or -1 for any. */
int
netdev_get_numa_id(const struct netdev *netdev)
{
    return (netdev->netdev_class->get_numa_id
            ? netdev->netdev_class->get_numa_id(netdev) : -1);
}

/* Returns the kernel's index of the device, or 0 if it has none. */
int
netdev_get_ifindex(const struct netdev *netdev)
{
    return (netdev->netdev_class->get_ifindex
            ? netdev->netdev_class->get_ifindex(netdev) : 0);
}

/* Returns a malloc()ed description of a problem of the open 'netdev' (for
 * Interface:error), or NULL if it has none. */
char *
netdev_get_error(const struct netdev *netdev)
{
    return (netdev->netdev_class->get_error
            ? netdev->netdev_class->get_error(netdev) : NULL);
}

/* Asks for 'n_txq' transmit queues: the number of threads that will send
 * on 'netdev' at once.  The class may grant fewer (the datapath then
 * passes concurrent_txq == true); it applies the change in 'reconfigure'
 * and requests one if needed.  Returns 0, or EOPNOTSUPP if the class keeps
 * its own count. */
int
netdev_set_tx_multiq(struct netdev *netdev, int n_txq)
{
    const struct netdev_class *class = netdev->netdev_class;

    return (class->set_tx_multiq
            ? class->set_tx_multiq(netdev, MAX(n_txq, 1))
            : EOPNOTSUPP);
}

/* Addresses, MTU, link. */

/* Sets the Ethernet address.  Returns 0 or a positive errno (EOPNOTSUPP if
 * the class cannot). */
int
netdev_set_etheraddr(struct netdev *netdev, const struct eth_addr *mac)
{
    return (netdev->netdev_class->set_etheraddr
            ? netdev->netdev_class->set_etheraddr(netdev, mac)
            : EOPNOTSUPP);
}

/* Stores the Ethernet address in '*mac' (all-zeros on error). */
int
netdev_get_etheraddr(const struct netdev *netdev, struct eth_addr *mac)
{
    if (!netdev->netdev_class->get_etheraddr) {
        memset(mac, 0, sizeof *mac);
        return EOPNOTSUPP;
    }
    return netdev->netdev_class->get_etheraddr(netdev, mac);
}

/* Stores the MTU in '*mtup' (0 on error). */
int
netdev_get_mtu(const struct netdev *netdev, int *mtup)
{
    if (!netdev->netdev_class->get_mtu) {
        *mtup = 0;
        return EOPNOTSUPP;
    }
    return netdev->netdev_class->get_mtu(netdev, mtup);
}

/* Sets the MTU (Interface:mtu_request).  Returns 0, EOPNOTSUPP if the class
 * cannot, or another errno with a message in '*errp' (if nonnull). */
int
netdev_set_mtu(struct netdev *netdev, int mtu, char **errp)
{
    char *error_msg = NULL;
    int error;

    if (!netdev->netdev_class->set_mtu) {
        error = EOPNOTSUPP;
    } else {
        error = netdev->netdev_class->set_mtu(netdev, mtu, &error_msg);
        if (error && !error_msg && error != EOPNOTSUPP) {
            error_msg = xasprintf("%s: cannot set MTU %d: %s", netdev->name,
                                  mtu, util_strerror(error));
        }
    }
    if (errp) {
        *errp = error_msg;
    } else if (error_msg) {
        VLOG_WARN("%s", error_msg);
        free(error_msg);
    }
    return error;
}

/* Stores the link state in '*carrier'; a class that cannot tell is up. */
int
netdev_get_carrier(const struct netdev *netdev, bool *carrier)
{
    if (!netdev->netdev_class->get_carrier) {
        *carrier = true;
        return 0;
    }
    return netdev->netdev_class->get_carrier(netdev, carrier);
}

/* Returns how many times the link went down, 0 if the class does not
 * count. */
long long int
netdev_get_carrier_resets(const struct netdev *netdev)
{
    return (netdev->netdev_class->get_carrier_resets
            ? netdev->netdev_class->get_carrier_resets(netdev) : 0);
}

/* Stores the link speed in Mb/s in '*mbps' (0 if unknown). */
int
netdev_get_speed(const struct netdev *netdev, uint32_t *mbps)
{
    if (!netdev->netdev_class->get_speed) {
        *mbps = 0;
        return EOPNOTSUPP;
    }
    return netdev->netdev_class->get_speed(netdev, mbps);
}

/* Stores the NETDEV_* flags in '*flags'. */
int
netdev_get_flags(const struct netdev *netdev, enum netdev_flags *flags)
{
    /* update_flags with nothing to change reads the flags. */
    return netdev_update_flags((struct netdev *) netdev, 0, 0,
                               flags);
}

/* Turns 'flags' on.  Returns 0 or a positive errno. */
int
netdev_turn_flags_on(struct netdev *netdev, enum netdev_flags flags)
{
    return netdev_update_flags(netdev, 0, flags, NULL);
}

/* Turns 'flags' off.  Returns 0 or a positive errno. */
int
netdev_turn_flags_off(struct netdev *netdev, enum netdev_flags flags)
{
    return netdev_update_flags(netdev, flags, 0, NULL);
}

/* Statistics and status. */

/* Stores the netdev's statistics in '*stats', UINT64_MAX for those it does
 * not keep.  tx_dropped includes the chains netdev_send() dropped. */
int
netdev_get_stats(const struct netdev *netdev, struct netdev_stats *stats)
{
    memset(stats, 0xff, sizeof *stats);
    int error = (netdev->netdev_class->get_stats
                 ? netdev->netdev_class->get_stats(netdev, stats)
                 : EOPNOTSUPP);
    uint64_t drops = __atomic_load_n(&netdev->tx_linearize_drops,
                                     __ATOMIC_RELAXED);
    const struct netdev_qos *qos = __atomic_load_n(&netdev->qos,
                                                   __ATOMIC_ACQUIRE);
    uint64_t rx_qos_drops = 0;

    if (qos) {
        uint64_t tx_qos_drops;

        netdev_qos_get_drops(qos, &tx_qos_drops, &rx_qos_drops);
        drops += tx_qos_drops;
    }
    if (!error && drops && stats->tx_dropped != UINT64_MAX) {
        stats->tx_dropped += drops;
    }
    if (!error && rx_qos_drops && stats->rx_dropped != UINT64_MAX) {
        stats->rx_dropped += rx_qos_drops;
    }
    return error;
}

/* Stores the class's extra counters in '*stats' (which the caller frees
 * with netdev_custom_stats_destroy()), followed by
 * "ovs_tx_linearize_drops" for a netdev that has custom counters or has
 * dropped chains.  The policers' drops go to the class's
 * "ovs_tx_qos_drops" and "ovs_rx_qos_drops", added if the class has none
 * and QoS or policing was ever set on the netdev.  tx_dropped and
 * rx_dropped (netdev_get_stats()) include them, as in Open vSwitch. */
int
netdev_get_custom_stats(const struct netdev *netdev,
                        struct netdev_custom_stats *stats)
{
    const struct netdev_class *class = netdev->netdev_class;
    uint64_t drops = __atomic_load_n(&netdev->tx_linearize_drops,
                                     __ATOMIC_RELAXED);
    int error = 0;

    stats->counters = NULL;
    stats->n = 0;
    if (class->get_custom_stats) {
        error = class->get_custom_stats(netdev, stats);
        if (error) {
            netdev_custom_stats_destroy(stats);
        }
    }
    if (drops || stats->n) {
        netdev_custom_stats_add(stats, "ovs_tx_linearize_drops", drops);
    }
    netdev_add_invalid_hwol_drops(netdev, stats);

    const struct netdev_qos *qos = __atomic_load_n(&netdev->qos,
                                                   __ATOMIC_ACQUIRE);
    if (qos) {
        uint64_t tx_qos_drops, rx_qos_drops;

        netdev_qos_get_drops(qos, &tx_qos_drops, &rx_qos_drops);
        netdev_add_custom_counter(stats, "ovs_rx_qos_drops", rx_qos_drops,
                                  true);
        netdev_add_custom_counter(stats, "ovs_tx_qos_drops", tx_qos_drops,
                                  true);
    }
    return error;
}

/* Adds the netdev's Interface:status keys to 'status': the class's own and
 * tx_ip_csum_offload, tx_tcp_csum_offload, tx_udp_csum_offload,
 * tx_sctp_csum_offload, tx_tcp_seg_offload and (always "false" for now)
 * tx_vxlan_tso_offload, tx_geneve_tso_offload, tx_out_ip_csum_offload,
 * tx_out_udp_csum_offload, as Open vSwitch 3.3 names them ("true" or
 * "false"). */
int
netdev_get_status(const struct netdev *netdev, struct smap *status)
{
    static const struct {
        uint32_t cap;
        const char *key;
    } keys[] = {
        { NETDEV_TX_IPV4_CSUM, "tx_ip_csum_offload" },
        { NETDEV_TX_TCP_CSUM, "tx_tcp_csum_offload" },
        { NETDEV_TX_UDP_CSUM, "tx_udp_csum_offload" },
        { NETDEV_TX_SCTP_CSUM, "tx_sctp_csum_offload" },
        { NETDEV_TX_TCP_TSO, "tx_tcp_seg_offload" },
        /* Tunnels come later: never offloaded yet. */
        { 0, "tx_vxlan_tso_offload" },
        { 0, "tx_geneve_tso_offload" },
        { 0, "tx_out_ip_csum_offload" },
        { 0, "tx_out_udp_csum_offload" },
    };
    int error = 0;

    if (netdev->netdev_class->get_status) {
        error = netdev->netdev_class->get_status(netdev, status);
        if (error == EOPNOTSUPP) {
            error = 0;
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
        smap_add(status, keys[i].key,
                 netdev->tx_caps & keys[i].cap ? "true" : "false");
    }
    return error;
}

/* NETDEV_TX_* the port can do. */
uint32_t
netdev_get_tx_caps(const struct netdev *netdev)
{
    return __atomic_load_n(&netdev->tx_caps, __ATOMIC_RELAXED);
}

/* Quality of service. */

/* True if the class of 'netdev' runs policers (its 'has_qos'). */
bool
netdev_has_qos(const struct netdev *netdev)
{
    return netdev->netdev_class->has_qos;
}

/* Sets the egress QoS of 'netdev' (see netdev_qos_set()): 'type' ("" or
 * NULL for none) with the QoS row's other_config 'details' and its
 * 'n_queues' Queue rows 'queues'.  Returns 0, EOPNOTSUPP (a class without
 * QoS, or an unknown type) or EINVAL (bad values: the port is then left
 * without egress QoS). */
int
netdev_set_qos(struct netdev *netdev, const char *type,
               const struct smap *details,
               const struct netdev_qos_queue *queues, size_t n_queues)
{
    bool wanted = type && type[0];

    if (!netdev->netdev_class->has_qos) {
        return wanted ? EOPNOTSUPP : 0;
    }
    if (!wanted && !netdev->qos) {
        return 0;
    }
    return netdev_qos_set(netdev_qos_state(netdev), type, details, queues,
                          n_queues);
}

/* Sets the ingress policing of 'netdev' from the Interface's
 * ingress_policing_rate (kbit/s), _burst (kbit), _kpkts_rate and
 * _kpkts_burst (see netdev_qos_set_policing()).  Returns 0, EOPNOTSUPP for
 * a nonzero rate on a class without QoS, or EINVAL. */
int
netdev_set_policing(struct netdev *netdev, uint32_t kbits_rate,
                    uint32_t kbits_burst, uint32_t kpkts_rate,
                    uint32_t kpkts_burst)
{
    bool wanted = kbits_rate || kpkts_rate;

    if (!netdev->netdev_class->has_qos) {
        return wanted ? EOPNOTSUPP : 0;
    }
    if (!wanted && !netdev->qos) {
        return 0;
    }
    return netdev_qos_set_policing(netdev_qos_state(netdev), kbits_rate,
                                   kbits_burst, kpkts_rate, kpkts_burst);
}

/* Appends the body of "ovs-appctl qos/show" for 'netdev' to 'ds'. */
void
netdev_format_qos(const struct netdev *netdev, struct ds *ds)
{
    netdev_qos_format(netdev->qos, netdev->name, ds);
}

/* Appends the body of "ovs-appctl qos/show-types" for 'netdev' to 'ds'. */
void
netdev_format_qos_types(const struct netdev *netdev, struct ds *ds)
{
    if (netdev->netdev_class->has_qos) {
        netdev_qos_format_types(ds);
    } else {
        ds_put_format(ds, "No QoS types supported for interface: %s\n",
                      netdev->name);
    }
}

/* Receive. */

/* Opens rx queue 'queue_id' of 'netdev' (0 <= queue_id < n_rxq) in
 * '*rxqp'.  The queue holds a reference to the netdev until
 * netdev_rxq_close(). */
int
netdev_rxq_open(struct netdev *netdev, struct netdev_rxq **rxqp, int queue_id)
{
    const struct netdev_class *class = netdev->netdev_class;
    struct netdev_rxq *rxq;
    int error;

    *rxqp = NULL;
    if (queue_id < 0 || queue_id >= netdev->n_rxq || !class->rxq_alloc) {
        return EINVAL;
    }
    rxq = class->rxq_alloc();
    if (!rxq) {
        return ENOMEM;
    }
    rxq->netdev = netdev_ref(netdev);
    rxq->queue_id = queue_id;
    error = class->rxq_construct(rxq);
    if (error) {
        class->rxq_dealloc(rxq);
        netdev_close(netdev);
        return error;
    }
    *rxqp = rxq;
    return 0;
}

/* Closes 'rxq' (NULL is allowed) and drops its netdev reference. */
void
netdev_rxq_close(struct netdev_rxq *rxq)
{
    if (rxq) {
        struct netdev *netdev = rxq->netdev;

        netdev->netdev_class->rxq_destruct(rxq);
        netdev->netdev_class->rxq_dealloc(rxq);
        netdev_close(netdev);
    }
}

/* Receives up to DP_PACKET_BATCH_SIZE packets into 'batch', which is
 * emptied first.  Returns 0 if some arrived, EAGAIN if none, another errno
 * on error.  '*qfill' (if nonnull) gets the packets still queued, or -1. */
int
netdev_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch,
                int *qfill)
{
    int error;

    dp_packet_batch_init(batch);
    error = rxq->netdev->netdev_class->rxq_recv(rxq, batch, qfill);
    if (!error) {
        struct netdev_qos *qos = __atomic_load_n(&rxq->netdev->qos,
                                                 __ATOMIC_ACQUIRE);

        COVERAGE_ADD(netdev_received, batch->count);
        if (unlikely(qos != NULL) && netdev_qos_ingress_on(qos)) {
            bool clean = batch->n_clean >= batch->count;

            if (netdev_qos_ingress(qos, batch)) {
                /* The policer keeps the order, but a partial summary no
                 * longer covers the same packets. */
                dp_packet_batch_set_clean(batch, clean);
                if (!batch->count) {
                    return EAGAIN;
                }
            }
        }
        if (DP_PACKET_ASAN) {
            /* Every class receives through here: guard zones on all. */
            for (size_t i = 0; i < batch->count; i++) {
                dp_packet_poison(batch->packets[i]);
            }
        }
    } else {
        dp_packet_batch_init(batch);
        if (qfill) {
            *qfill = 0;
        }
    }
    return error;
}

/* Makes poll_block() wake when 'rxq' has packets (main-thread-polled
 * classes; a no-op for the others). */
void
netdev_rxq_wait(struct netdev_rxq *rxq)
{
    if (rxq->netdev->netdev_class->rxq_wait) {
        rxq->netdev->netdev_class->rxq_wait(rxq);
    }
}

/* Returns the netdev of 'rxq' (no new reference). */
struct netdev *
netdev_rxq_get_netdev(const struct netdev_rxq *rxq)
{
    return rxq->netdev;
}

/* Returns the queue number of 'rxq'. */
int
netdev_rxq_get_queue_id(const struct netdev_rxq *rxq)
{
    return rxq->queue_id;
}

/* Sends the packets of 'batch' on tx queue 'qid' (taken modulo n_txq) of
 * 'netdev', which takes ownership of every packet; the batch is empty on
 * return.  First completes, packet by packet, the pending checksums the
 * port cannot offload (dropping, and counting in ovs_tx_invalid_hwol_drops,
 * those whose headers cannot hold them), cuts TSO packets (md.tso_segsz)
 * into segments for a port without NETDEV_TX_TCP_TSO and, for a port
 * without NETDEV_TX_MULTI_SEG, makes chains linear or copies them into one
 * large buffer (netdev_tx_linearize()), dropping (and counting in
 * ovs_tx_linearize_drops) only those for which no buffer can be had.
 * The packets the batch's egress summary covers ('n_clean') are not
 * tested.  Returns 0 or the class's errno. */
int
netdev_send(struct netdev *netdev, int qid, struct dp_packet_batch *batch,
            bool concurrent_txq)
{
    uint32_t caps = __atomic_load_n(&netdev->tx_caps, __ATOMIC_RELAXED);
    uint32_t csum_caps = caps & (NETDEV_TX_IPV4_CSUM | NETDEV_TX_TCP_CSUM
                                 | NETDEV_TX_UDP_CSUM | NETDEV_TX_SCTP_CSUM
                                 | NETDEV_TX_TCP_TSO);
    size_t n_drops = 0;
    size_t n_csum_drops = 0;
    size_t n = 0;
    int error = 0;

    /* Read once a batch: costs nothing per packet. */
    if (unlikely(__atomic_load_n(&netdev_send_skip_egress_check,
                                 __ATOMIC_RELAXED))) {
        return batch->count ? netdev_send__(netdev, qid, batch,
                                            concurrent_txq) : 0;
    }

    /* The packets the batch's egress summary covers need nothing (their
     * receive path tested each as it set its state; see "Egress summary" in
     * lib/dp-packet.h): the common batch, received from a port and sent on
     * by outputs only, costs this one test.  Any load from each packet
     * here costs about a cycle a packet in the datapath, although the
     * packets were touched just before (Documentation/topics/benchmarks.rst,
     * "perf-dpif csum"). */
    size_t i = MIN((size_t) batch->n_clean, (size_t) batch->count);

    if (unlikely(i < batch->count)) {
        /* The others: their checksum state bytes and segment counts are
         * or'ed together and tested once.  (Or'ing the states first may
         * see PARTIAL where one packet is GOOD and another BAD: such a
         * batch only takes the search below, which tests each packet on
         * its own.) */
        uint16_t seg_mask = caps & NETDEV_TX_MULTI_SEG ? 0 : UINT16_MAX;
        uint16_t states = 0, segs = 0;
        size_t first = i;

        for (; i < batch->count; i++) {
            const struct dp_packet *p = batch->packets[i];

            states |= netdev_tx_csum_states(p);
            segs |= p->mbuf.nb_segs;
        }
        if ((states & (states >> 1) & 0x0101) | (segs & ~1 & seg_mask)) {
            for (i = first; i < batch->count; i++) {
                const struct dp_packet *p = batch->packets[i];
                uint16_t st = netdev_tx_csum_states(p);

                if ((st & (st >> 1) & 0x0101)
                    | ((p->mbuf.nb_segs - 1) & seg_mask)) {
                    break;
                }
            }
        }
    }
    n = i;

    for (; i < batch->count; i++) {
        struct dp_packet *p = batch->packets[i];

        /* A TSO packet (always partial, so never on the quick path above):
         * dropped if its segments would not fit the port's MTU; if the port
         * cannot cut it, its segments, made here, go in its place, after
         * the packets before it. */
        if (unlikely(p->md.tso_segsz)) {
            if (!netdev_tso_fits_mtu(netdev, p)) {
                continue;
            }
            if (!(caps & NETDEV_TX_TCP_TSO)) {
                int retval = netdev_send_segments(netdev, qid, batch, n, p,
                                                  concurrent_txq);
                error = error ? error : retval;
                n = 0;
                continue;
            }
        }

        if (!(caps & NETDEV_TX_MULTI_SEG) && !dp_packet_is_linear(p)) {
            p = netdev_tx_linearize(netdev, p);
            if (!p) {
                n_drops++;
                continue;
            }
        }
        if (unlikely(!dp_packet_tx_prepare(p, csum_caps))) {
            dp_packet_free(p);
            n_csum_drops++;
            continue;
        }
        batch->packets[n++] = p;
    }
    batch->count = n;
    if (n_csum_drops) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

        VLOG_WARN_RL(&rl, "%s: dropped %zu packet(s) whose partial "
                     "checksum cannot be completed (headers that do not "
                     "hold the checksummed segment)", netdev->name,
                     n_csum_drops);
        __atomic_fetch_add(&netdev->tx_csum_drops, n_csum_drops,
                           __ATOMIC_RELAXED);
        COVERAGE_ADD(netdev_invalid_csum_drops, n_csum_drops);
    }
    if (n_drops) {
        __atomic_fetch_add(&netdev->tx_linearize_drops, n_drops,
                           __ATOMIC_RELAXED);
        COVERAGE_ADD(netdev_linearize_drops, n_drops);
    }
    if (n) {
        int retval = netdev_send__(netdev, qid, batch, concurrent_txq);
        error = error ? error : retval;
    }
    return error;
}

/* Sends what tx queue 'qid' holds back (classes with 'flush').  Returns the
 * number of packets still held. */
int
netdev_flush(struct netdev *netdev, int qid, bool concurrent_txq)
{
    return (netdev->netdev_class->flush
            ? netdev->netdev_class->flush(netdev, qid, concurrent_txq)
            : 0);
}

/* True if the class holds packets back until netdev_flush(). */
bool
netdev_has_flush(const struct netdev *netdev)
{
    return netdev->netdev_class->flush != NULL;
}

/* Registration. */

/* Registers 'class' under its type and calls its 'init'.  Registering a
 * type twice is a programming error, logged and ignored, except for a
 * type that netdev_class_override() replaced: that registration is ignored
 * quietly, so that tests can run with real types made dummy. */
void
netdev_register_class(const struct netdev_class *class)
{
    struct netdev_registered_class *rc = find_class(class->type);

    if (rc) {
        if (!rc->overridden) {
            VLOG_WARN("netdev type \"%s\" registered twice", class->type);
        }
        return;
    }
    if (class->init) {
        int error = class->init();

        if (error) {
            VLOG_ERR("failed to initialize %s network device class: %s",
                     class->type, util_strerror(error));
            return;
        }
    }
    classes = xrealloc(classes, (n_classes + 1) * sizeof *classes);
    classes[n_classes++] = (struct netdev_registered_class) {
        .class = class,
        .type = xstrdup(class->type),
    };
}

/* For classes. */

/* Records that 'netdev' needs netdev_reconfigure() and wakes the thread in
 * netdev_reconf_wait().  Any thread. */
void
netdev_request_reconfigure(struct netdev *netdev)
{
    pthread_once(&reconf_once, reconf_init);
    __atomic_store_n(&netdev->reconf_required, true, __ATOMIC_RELEASE);
    __atomic_fetch_add(&reconf_seq, 1, __ATOMIC_SEQ_CST);
    latch_set(&reconf_latch);
}

/* Records that the netdev's link state, status or statistics changed.  Any
 * thread. */
void
netdev_change_seq_changed(struct netdev *netdev)
{
    __atomic_fetch_add(&netdev->change_seq, 1, __ATOMIC_RELEASE);
}

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;

    return strcmp(*a, *b);
}

static int
netdev_update_flags(struct netdev *netdev, enum netdev_flags off,
                    enum netdev_flags on, enum netdev_flags *old)
{
    enum netdev_flags dummy;

    if (!old) {
        old = &dummy;
    }
    *old = 0;
    if (!netdev->netdev_class->update_flags) {
        return EOPNOTSUPP;
    }
    int error = netdev->netdev_class->update_flags(netdev, off, on, old);

    if (!error && ((*old & ~off) | on) != *old) {
        netdev_change_seq_changed(netdev);
    }
    return error;
}

/* Transmit. */

/* Returns chain 'p' in one segment for 'netdev', which cannot send chains:
 * made linear in place if it fits one segment of its pool, else copied into
 * one mbuf of the port's copy pool (and 'p' freed).  A chain too long for
 * the port is returned as it is, for the class's MTU check to drop.
 * Returns NULL, with 'p' freed and the reason logged, when no buffer can be
 * had. */
static struct dp_packet *
netdev_tx_linearize(struct netdev *netdev, struct dp_packet *p)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    struct rte_mempool *pool = netdev->tx_copy_pool;
    const char *reason;

    uint32_t max = __atomic_load_n(&netdev->tx_copy_max, __ATOMIC_RELAXED);

    if (!dp_packet_linearize(p)) {
        COVERAGE_INC(netdev_linearized);
        return p;
    }
    if (max && dp_packet_size(p) > max) {
        return p;
    } else if (!pool) {
        reason = "the port has no pool for copies";
    } else {
        struct dp_packet *copy = dp_packet_copy_linear(p, pool);
        if (copy) {
            dp_packet_free(p);
            COVERAGE_INC(netdev_tx_chain_copied);
            return copy;
        }
        reason = "its copy pool is exhausted";
    }
    VLOG_WARN_RL(&rl, "%s: dropped a %"PRIu32"-byte packet of %u segments: "
                 "the port cannot send chains, it does not fit in one "
                 "segment, and %s", netdev->name, dp_packet_size(p),
                 (unsigned int) dp_packet_n_segs(p), reason);
    dp_packet_free(p);
    return NULL;
}

bool netdev_send_skip_egress_check;

/* The IPv4 and L4 checksum states of 'p' (enum dp_csum), adjacent bytes
 * read at once: the packet has a checksum pending if 'x & (x >> 1) &
 * 0x0101' is nonzero for the value 'x' returned (PARTIAL is both bits). */
static inline uint16_t
netdev_tx_csum_states(const struct dp_packet *p)
{
    _Static_assert(offsetof(struct dp_packet_md, l4_csum)
                   == offsetof(struct dp_packet_md, ip_csum) + 1,
                   "the two checksum states are adjacent");
    uint16_t states;

    memcpy(&states, &p->md.ip_csum, sizeof states);
    return states;
}

/* Helpers. */

static struct netdev_registered_class *
find_class(const char *type)
{
    for (size_t i = 0; i < n_classes; i++) {
        if (!strcmp(classes[i].type, type)) {
            return &classes[i];
        }
    }
    return NULL;
}

static void
netdev_destroy(struct netdev *netdev)
{
    for (size_t i = 0; i < n_netdevs; i++) {
        if (netdevs[i] == netdev) {
            netdevs[i] = netdevs[--n_netdevs];
            break;
        }
    }
    netdev->netdev_class->destruct(netdev);
    netdev_qos_destroy(netdev->qos);
    netdev->qos = NULL;
    free(netdev->name);
    netdev->name = NULL;
    netdev->netdev_class->dealloc(netdev);
}

static void
netdev_update_tx_caps(struct netdev *netdev)
{
    const struct netdev_class *class = netdev->netdev_class;

    /* Senders read it without a lock. */
    __atomic_store_n(&netdev->tx_caps,
                     class->get_tx_caps ? class->get_tx_caps(netdev) : 0,
                     __ATOMIC_RELAXED);
}

/* Hands the packets of 'batch' to the class of 'netdev' on tx queue 'qid'
 * (taken modulo n_txq) and empties 'batch'.  Returns the class's errno. */
static int
netdev_send__(struct netdev *netdev, int qid, struct dp_packet_batch *batch,
              bool concurrent_txq)
{
    if (netdev->n_txq > 0 && (qid < 0 || qid >= netdev->n_txq)) {
        qid = (qid < 0 ? 0 : qid) % netdev->n_txq;
    }
    struct netdev_qos *qos = __atomic_load_n(&netdev->qos, __ATOMIC_ACQUIRE);
    if (unlikely(qos != NULL) && netdev_qos_egress_on(qos)
        && netdev_qos_egress(qos, batch) && !batch->count) {
        return 0;
    }
    COVERAGE_ADD(netdev_sent, batch->count);
    if (DP_PACKET_ASAN) {
        /* The class may give the mbufs to DPDK, which writes freely. */
        for (size_t i = 0; i < batch->count; i++) {
            dp_packet_unpoison(batch->packets[i]);
        }
    }
    int error = netdev->netdev_class->send(netdev, qid, batch,
                                           concurrent_txq);
    /* The class owns the packets now, whatever it returned. */
    dp_packet_batch_init(batch);
    return error;
}

/* Returns true if the segments of TSO packet 'p' fit the MTU of 'netdev'
 * (or it has none); if not (an MSS larger than the MTU allows), frees 'p'
 * and counts it in ovs_tx_invalid_hwol_drops, as Open vSwitch drops an
 * "oversized TSO packet".  A packet that cannot be cut at all is left to
 * the checks that follow. */
static bool
netdev_tso_fits_mtu(struct netdev *netdev, struct dp_packet *p)
{
    uint32_t seg_size = dp_packet_tso_l3_seg_size(p);
    int mtu;

    if (seg_size == UINT32_MAX || netdev_get_mtu(netdev, &mtu) || mtu <= 0
        || seg_size <= (uint32_t) mtu) {
        return true;
    }

    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    VLOG_WARN_RL(&rl, "%s: dropped a %"PRIu32"-byte TSO packet with MSS %u: "
                 "its %"PRIu32"-byte segments exceed the MTU (%d)",
                 netdev->name, dp_packet_size(p),
                 (unsigned int) p->md.tso_segsz, seg_size, mtu);
    __atomic_fetch_add(&netdev->tx_csum_drops, 1, __ATOMIC_RELAXED);
    dp_packet_free(p);
    return false;
}

/* Userspace TSO for netdev_send(): sends the first 'n_ready' packets of
 * 'batch' (already prepared), then TSO packet 'p' cut into segments in
 * software, which netdev_send() prepares like any packet (checksums,
 * chains), and frees 'p'.  An invalid TSO packet (absurd MSS, lying
 * lengths) is dropped and counted in ovs_tx_invalid_hwol_drops.  Returns
 * 0 or the class's errno. */
static int
netdev_send_segments(struct netdev *netdev, int qid,
                     struct dp_packet_batch *batch, size_t n_ready,
                     struct dp_packet *p, bool concurrent_txq)
{
    struct dp_packet_batch segs;
    int error = 0;

    if (n_ready) {
        memcpy(segs.packets, batch->packets, n_ready * sizeof *segs.packets);
        segs.count = n_ready;
        error = netdev_send__(netdev, qid, &segs, concurrent_txq);
    }

    if (!dp_packet_tso_valid(p)) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

        VLOG_WARN_RL(&rl, "%s: dropped a %"PRIu32"-byte TSO packet with "
                     "MSS %u: not a TCP segment that can be cut",
                     netdev->name, dp_packet_size(p),
                     (unsigned int) p->md.tso_segsz);
        __atomic_fetch_add(&netdev->tx_csum_drops, 1, __ATOMIC_RELAXED);
        dp_packet_free(p);
        return error;
    }

    uint32_t offset = 0;
    int retval;
    do {
        dp_packet_batch_init(&segs);
        retval = dp_packet_tso_segment(p, &offset, &segs);
        if (segs.count) {
            int e = netdev_send(netdev, qid, &segs, concurrent_txq);
            error = error ? error : e;
        }
    } while (!retval);
    if (retval != EOF) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

        VLOG_WARN_RL(&rl, "%s: TSO packet cut short: %s", netdev->name,
                     util_strerror(retval));
        __atomic_fetch_add(&netdev->tx_csum_drops, 1, __ATOMIC_RELAXED);
    }
    dp_packet_free(p);
    return error;
}

/* Adds the packets netdev_send() dropped for a partial checksum it could
 * not complete to "ovs_tx_invalid_hwol_drops" in 'stats' (Open vSwitch's
 * counter of packets with offload requests that cannot be met). */
static void
netdev_add_invalid_hwol_drops(const struct netdev *netdev,
                              struct netdev_custom_stats *stats)
{
    netdev_add_custom_counter(stats, "ovs_tx_invalid_hwol_drops",
                              __atomic_load_n(&netdev->tx_csum_drops,
                                              __ATOMIC_RELAXED),
                              false);
}

/* Adds 'value' to the counter called 'key' in 'stats' if the class has
 * one, else appends it as a new counter if 'value' is nonzero or
 * 'always'. */
static void
netdev_add_custom_counter(struct netdev_custom_stats *stats, const char *key,
                          uint64_t value, bool always)
{
    for (size_t i = 0; i < stats->n; i++) {
        if (!strcmp(stats->counters[i].name, key)) {
            stats->counters[i].value += value;
            return;
        }
    }
    if (value || always) {
        netdev_custom_stats_add(stats, key, value);
    }
}

/* The policers of 'netdev', created on first use (main thread). */
static struct netdev_qos *
netdev_qos_state(struct netdev *netdev)
{
    if (!netdev->qos) {
        __atomic_store_n(&netdev->qos, netdev_qos_create(),
                         __ATOMIC_RELEASE);
    }
    return netdev->qos;
}

static void
reconf_init(void)
{
    latch_init(&reconf_latch);
}
