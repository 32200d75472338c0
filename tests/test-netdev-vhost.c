/* Tests of the vhost-user port types (lib/netdev-vhost.c).
 *
 * Without arguments: cmocka unit tests that need no guest (options, the
 * server socket, status and counters of a port nobody connected to,
 * MTU), run by "make check".
 *
 * "test-netdev-vhost run [--unixctl=PATH] [--log-file=FILE] [--mem=MB]
 * [--dpdk-extra=ARGS] [--multi-seg] [-vSPEC]" (--multi-seg: as
 * other_config:dpdk-multi-seg-mbufs=true):
 * a small single-threaded switch for tests/system-dpdk-vhost.at.  It starts
 * the full EAL (DPDK's memory without hugepages), then busy-polls the rx
 * queues of the ports it is told to open, forwards what it receives to
 * each port's peer through netdev_send() and flushes every tx queue at the
 * end of each iteration, as the datapath does.  It reconfigures a port when
 * the port asks (a guest connected), and is driven through unixctl:
 *
 *   vhost-test/add-port NAME TYPE [KEY=VALUE]...   open and configure
 *   vhost-test/set-config NAME [KEY=VALUE]...      set options again
 *   vhost-test/del-port NAME                       close
 *   vhost-test/connect NAME1 NAME2                 forward both ways
 *   vhost-test/set-mtu NAME MTU
 *   vhost-test/status NAME     "key=value" lines: link, n_rxq, mtu, status
 *   vhost-test/stats NAME      "key=value" lines: statistics
 *   vhost-test/set-flush on|off   "off": no flush at the end of iterations,
 *                              so only full bursts of 32 reach a guest
 *   exit
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/virtio_net.h>
#include <rte_vhost.h>
#include "dp-packet.h"
#include "dpdk.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "netdev-provider.h"
#include "netdev-vhost.h"
#include "netdev.h"
#include "smap.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

/* Unit tests. */

static char *test_dir;

static char *
sock_path(const char *name)
{
    return xasprintf("%s/%s", dpdk_get_vhost_sock_dir(), name);
}

static bool
file_exists(const char *path)
{
    struct stat st;

    return !lstat(path, &st);
}

static struct netdev *
open_port(const char *name, const char *type)
{
    struct netdev *netdev;
    char *error = NULL;

    assert_int_equal(netdev_open(name, type, &netdev, &error), 0);
    assert_null(error);
    return netdev;
}

static void
test_types(void **state DPS_UNUSED)
{
    struct ds types = DS_EMPTY_INITIALIZER;

    assert_true(netdev_is_type_supported("dpdkvhostuser"));
    assert_true(netdev_is_type_supported("dpdkvhostuserclient"));
    netdev_get_types(&types);
    assert_non_null(strstr(ds_cstr(&types), "dpdkvhostuserclient"));
    ds_destroy(&types);
}

/* A server port creates its socket, is disconnected, and removes the
 * socket when closed. */
static void
test_server_socket(void **state DPS_UNUSED)
{
    char *path = sock_path("vhu-a");
    struct netdev *netdev = open_port("vhu-a", "dpdkvhostuser");
    struct smap status = SMAP_INITIALIZER;
    bool carrier = true;

    assert_true(file_exists(path));
    assert_true(netdev_is_pmd(netdev));
    assert_int_equal(netdev_get_status(netdev, &status), 0);
    assert_string_equal(smap_get(&status, "mode"), "server");
    assert_string_equal(smap_get(&status, "status"), "disconnected");
    assert_null(smap_get(&status, "features"));
    assert_int_equal(netdev_get_carrier(netdev, &carrier), 0);
    assert_false(carrier);
    assert_int_equal(netdev_n_rxq(netdev), 1);
    assert_int_equal(netdev_n_txq(netdev), 1);
    assert_true(netdev_has_flush(netdev));
    smap_destroy(&status);

    /* What the socket offers guests: partial checksums both ways, no
     * segmentation offloads towards the switch without userspace TSO. */
    uint64_t features;
    assert_int_equal(rte_vhost_driver_get_features(path, &features), 0);
    assert_int_equal(features & ((1ULL << VIRTIO_NET_F_HOST_TSO4)
                                 | (1ULL << VIRTIO_NET_F_HOST_TSO6)
                                 | (1ULL << VIRTIO_NET_F_HOST_ECN)
                                 | (1ULL << VIRTIO_NET_F_HOST_UFO)), 0);
    assert_true(features & (1ULL << VIRTIO_NET_F_CSUM));
    assert_true(features & (1ULL << VIRTIO_NET_F_GUEST_CSUM));
    assert_true(features & (1ULL << VIRTIO_NET_F_MRG_RXBUF));

    netdev_close(netdev);
    assert_false(file_exists(path));
    free(path);
}

/* A socket file left by a killed switch does not stop a new port; one
 * that a live process serves does. */
static void
test_stale_socket(void **state DPS_UNUSED)
{
    char *path = sock_path("vhu-b");
    struct sockaddr_un sun = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *) &sun, sizeof sun), 0);
    assert_int_equal(listen(fd, 1), 0);

    struct netdev *netdev;
    char *error = NULL;
    assert_int_not_equal(netdev_open("vhu-b", "dpdkvhostuser", &netdev,
                                     &error), 0);
    assert_null(netdev);
    free(error);

    /* Nobody listens any more: stale. */
    close(fd);
    assert_true(file_exists(path));
    netdev = open_port("vhu-b", "dpdkvhostuser");
    netdev_close(netdev);
    assert_false(file_exists(path));
    free(path);
}

static void
test_bad_name(void **state DPS_UNUSED)
{
    struct netdev *netdev;
    char *error = NULL;

    assert_int_equal(netdev_open("a/b", "dpdkvhostuser", &netdev, &error),
                     EINVAL);
    assert_null(netdev);
    free(error);
}

/* Sets 'options' given as "k=v" strings, NULL-terminated; returns the
 * error and stores the message. */
static int
set_options(struct netdev *netdev, char **errp, ...)
{
    struct smap options = SMAP_INITIALIZER;
    va_list args;
    const char *kv;

    va_start(args, errp);
    while ((kv = va_arg(args, const char *))) {
        const char *eq = strchr(kv, '=');
        char *key = xmemdup0(kv, eq - kv);
        smap_add(&options, key, eq + 1);
        free(key);
    }
    va_end(args);

    *errp = NULL;
    int error = netdev_set_config(netdev, &options, errp);
    smap_destroy(&options);
    return error;
}

static void
test_options(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_port("vhu-c", "dpdkvhostuser");
    char *error;

    assert_int_equal(set_options(netdev, &error, "tx-retries-max=0", NULL),
                     0);
    assert_null(error);
    assert_int_equal(set_options(netdev, &error, "tx-retries-max=32", NULL),
                     0);
    assert_int_equal(set_options(netdev, &error, "tx-retries-max=33", NULL),
                     EINVAL);
    assert_non_null(strstr(error, "tx-retries-max"));
    free(error);
    assert_int_equal(set_options(netdev, &error, "tx-retries-max=x", NULL),
                     EINVAL);
    free(error);
    assert_int_equal(set_options(netdev, &error, "bogus=1", NULL), EINVAL);
    assert_non_null(strstr(error, "bogus"));
    free(error);
    /* Only the client takes a server path. */
    assert_int_equal(set_options(netdev, &error,
                                 "vhost-server-path=/tmp/x", NULL), EINVAL);
    free(error);
    /* Accepted and ignored, as Open vSwitch does. */
    assert_int_equal(set_options(netdev, &error, "n_rxq=4", NULL), 0);
    assert_int_equal(set_options(netdev, &error, NULL), 0);
    netdev_close(netdev);
}

static void
test_client(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_port("vhuc-a", "dpdkvhostuserclient");
    struct smap status = SMAP_INITIALIZER;
    struct smap config = SMAP_INITIALIZER;
    char *error;

    assert_int_equal(set_options(netdev, &error, NULL), EINVAL);
    assert_non_null(strstr(error, "vhost-server-path"));
    free(error);

    /* Nobody serves it yet: the port waits (and retries). */
    char *path = xasprintf("%s/guest.sock", test_dir);
    char *kv = xasprintf("vhost-server-path=%s", path);
    assert_int_equal(set_options(netdev, &error, kv, NULL), 0);
    assert_null(error);
    assert_int_equal(netdev_get_status(netdev, &status), 0);
    assert_string_equal(smap_get(&status, "mode"), "client");
    assert_string_equal(smap_get(&status, "status"), "disconnected");
    assert_int_equal(netdev_get_config(netdev, &config), 0);
    assert_string_equal(smap_get(&config, "vhost-server-path"), path);
    assert_false(file_exists(path));

    /* Another path. */
    free(kv);
    kv = xasprintf("vhost-server-path=%s/other.sock", test_dir);
    assert_int_equal(set_options(netdev, &error, kv, NULL), 0);
    assert_int_equal(netdev_get_config(netdev, &config), 0);
    assert_string_equal(smap_get(&config, "vhost-server-path") + strlen(
                            test_dir), "/other.sock");

    smap_destroy(&status);
    smap_destroy(&config);
    free(kv);
    free(path);
    netdev_close(netdev);
}

static uint64_t
custom_stat(const struct netdev_custom_stats *custom, const char *name)
{
    for (size_t i = 0; i < custom->n; i++) {
        if (!strcmp(custom->counters[i].name, name)) {
            return custom->counters[i].value;
        }
    }
    fail_msg("no counter %s", name);
    return 0;
}

/* Packets sent to a port without a guest are dropped and counted, as in
 * Open vSwitch: tx_dropped and ovs_tx_failure_drops. */
static void
test_send_disconnected(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_port("vhu-d", "dpdkvhostuser");
    struct rte_mempool *pool = dpdk_default_pool();
    unsigned int avail = rte_mempool_avail_count(pool);
    struct dp_packet_batch batch;
    struct netdev_stats stats;
    struct netdev_custom_stats custom = { NULL, 0 };

    dp_packet_batch_init(&batch);
    assert_int_equal(dp_packet_batch_alloc(pool, &batch, 5), 5);
    for (size_t i = 0; i < 5; i++) {
        uint8_t frame[60] = { [12] = 0x08 };
        assert_int_equal(dp_packet_put(batch.packets[i], frame,
                                       sizeof frame), 0);
    }
    assert_int_equal(netdev_send(netdev, 0, &batch, false), 0);
    assert_int_equal(batch.count, 0);
    assert_int_equal(netdev_flush(netdev, 0, false), 0);
    assert_int_equal(rte_mempool_avail_count(pool), avail);

    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.tx_packets, 0);
    assert_int_equal(stats.tx_dropped, 5);
    assert_int_equal(stats.rx_packets, 0);
    assert_int_equal(netdev_get_custom_stats(netdev, &custom), 0);
    assert_int_equal(custom_stat(&custom, "ovs_tx_failure_drops"), 5);
    assert_int_equal(custom_stat(&custom, "ovs_tx_retries"), 0);
    assert_int_equal(custom_stat(&custom, "ovs_tx_mtu_exceeded_drops"), 0);
    assert_int_equal(custom_stat(&custom, "ovs_tx_qos_drops"), 0);
    assert_int_equal(custom_stat(&custom, "ovs_rx_qos_drops"), 0);
    assert_int_equal(custom_stat(&custom, "ovs_tx_invalid_hwol_drops"), 0);
    /* No guest: no per-vring counters. */
    for (size_t i = 0; i < custom.n; i++) {
        assert_false(!strncmp(custom.counters[i].name, "rx_", 3)
                     || !strncmp(custom.counters[i].name, "tx_", 3));
    }
    netdev_custom_stats_destroy(&custom);
    netdev_close(netdev);
}

static void
test_mtu(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_port("vhu-e", "dpdkvhostuser");
    char *error = NULL;
    int mtu;

    assert_int_equal(netdev_get_mtu(netdev, &mtu), 0);
    assert_int_equal(mtu, 1500);
    assert_int_equal(netdev_set_mtu(netdev, 9703, &error), EINVAL);
    assert_non_null(error);
    free(error);
    assert_int_equal(netdev_set_mtu(netdev, 67, &error), EINVAL);
    free(error);
    assert_false(netdev_is_reconf_required(netdev));
    assert_int_equal(netdev_set_mtu(netdev, 9000, &error), 0);
    assert_true(netdev_is_reconf_required(netdev));
    assert_int_equal(netdev_reconfigure(netdev, &error), 0);
    assert_null(error);
    assert_false(netdev_is_reconf_required(netdev));
    assert_int_equal(netdev_get_mtu(netdev, &mtu), 0);
    assert_int_equal(mtu, 9000);
    netdev_close(netdev);
}

static int
run_unit_tests(void)
{
    char template[] = "/tmp/test-netdev-vhost.XXXXXX";
    test_dir = mkdtemp(template);
    if (!test_dir) {
        util_fatal(errno, "mkdtemp");
    }
    setenv("OVS_RUNDIR", test_dir, 1);

    struct smap cfg = SMAP_INITIALIZER;
    smap_add(&cfg, "dpdk-init", "true");
    smap_add(&cfg, "dpdk-alloc-mem", "128");
    smap_add(&cfg, "dpdk-extra", "--no-pci --log-level=*:warning");
    dpdk_init(&cfg);
    smap_destroy(&cfg);
    if (!dpdk_available()) {
        util_fatal(0, "cannot start DPDK");
    }
    netdev_vhost_register();

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_server_socket),
        cmocka_unit_test(test_stale_socket),
        cmocka_unit_test(test_bad_name),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_client),
        cmocka_unit_test(test_send_disconnected),
        cmocka_unit_test(test_mtu),
    };
    int failures = cmocka_run_group_tests_name("netdev-vhost", tests,
                                               NULL, NULL);
    rmdir(test_dir);
    return failures;
}

/* The "run" mode: a one-thread switch between vhost-user ports. */

#define MAX_PORTS 8
#define MAX_RXQS 32

struct tport {
    char *name;
    struct netdev *netdev;
    struct netdev_rxq *rxqs[MAX_RXQS];
    int n_rxqs;
    char *peer_name;
    struct tport *peer;                 /* Resolved from 'peer_name'. */
    bool sent;                          /* Sent to since the last flush. */
};

static struct tport ports[MAX_PORTS];
static int n_ports;
static bool exiting;
static bool flushing = true;    /* vhost-test/set-flush. */

static struct tport *
find_port(const char *name)
{
    for (int i = 0; i < n_ports; i++) {
        if (!strcmp(ports[i].name, name)) {
            return &ports[i];
        }
    }
    return NULL;
}

static void
resolve_peers(void)
{
    for (int i = 0; i < n_ports; i++) {
        ports[i].peer = (ports[i].peer_name
                         ? find_port(ports[i].peer_name) : NULL);
    }
}

static void
close_rxqs(struct tport *p)
{
    for (int i = 0; i < p->n_rxqs; i++) {
        netdev_rxq_close(p->rxqs[i]);
    }
    p->n_rxqs = 0;
}

static void
open_rxqs(struct tport *p)
{
    int n = MIN(netdev_n_rxq(p->netdev), MAX_RXQS);

    for (int i = 0; i < n; i++) {
        if (netdev_rxq_open(p->netdev, &p->rxqs[i], i)) {
            fprintf(stderr, "%s: cannot open rx queue %d\n", p->name, i);
            break;
        }
        p->n_rxqs++;
    }
}

static int
options_from_args(int argc, const char *argv[], struct smap *options,
                  struct unixctl_conn *conn)
{
    for (int i = 0; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq) {
            unixctl_command_reply_error(conn, "options are KEY=VALUE");
            return EINVAL;
        }
        char *key = xmemdup0(argv[i], eq - argv[i]);
        smap_add(options, key, eq + 1);
        free(key);
    }
    return 0;
}

static void
cmd_add_port(struct unixctl_conn *conn, int argc, const char *argv[],
             void *aux DPS_UNUSED)
{
    struct smap options = SMAP_INITIALIZER;
    struct netdev *netdev;
    char *error = NULL;

    if (n_ports >= MAX_PORTS || find_port(argv[1])) {
        unixctl_command_reply_error(conn, "too many ports or name in use");
        return;
    }
    if (options_from_args(argc - 3, argv + 3, &options, conn)) {
        smap_destroy(&options);
        return;
    }
    if (netdev_open(argv[1], argv[2], &netdev, &error)
        || netdev_set_config(netdev, &options, &error)) {
        if (netdev) {
            netdev_close(netdev);
        }
        unixctl_command_reply_error(conn, error ? error : "failed");
        free(error);
        smap_destroy(&options);
        return;
    }
    smap_destroy(&options);

    struct tport *p = &ports[n_ports++];
    memset(p, 0, sizeof *p);
    p->name = xstrdup(argv[1]);
    p->netdev = netdev;
    netdev_turn_flags_on(netdev, NETDEV_UP);
    open_rxqs(p);
    resolve_peers();
    unixctl_command_reply(conn, NULL);
}

static void
cmd_set_config(struct unixctl_conn *conn, int argc, const char *argv[],
               void *aux DPS_UNUSED)
{
    struct smap options = SMAP_INITIALIZER;
    struct tport *p = find_port(argv[1]);
    char *error = NULL;

    if (!p) {
        unixctl_command_reply_error(conn, "no such port");
    } else if (!options_from_args(argc - 2, argv + 2, &options, conn)) {
        if (netdev_set_config(p->netdev, &options, &error)) {
            unixctl_command_reply_error(conn, error);
        } else {
            unixctl_command_reply(conn, NULL);
        }
        free(error);
    }
    smap_destroy(&options);
}

static void
cmd_del_port(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[], void *aux DPS_UNUSED)
{
    struct tport *p = find_port(argv[1]);

    if (!p) {
        unixctl_command_reply_error(conn, "no such port");
        return;
    }
    close_rxqs(p);
    netdev_close(p->netdev);
    free(p->name);
    free(p->peer_name);
    *p = ports[--n_ports];
    resolve_peers();
    unixctl_command_reply(conn, NULL);
}

static void
cmd_connect(struct unixctl_conn *conn, int argc DPS_UNUSED,
            const char *argv[], void *aux DPS_UNUSED)
{
    struct tport *a = find_port(argv[1]);
    struct tport *b = find_port(argv[2]);

    if (!a || !b) {
        unixctl_command_reply_error(conn, "no such port");
        return;
    }
    free(a->peer_name);
    free(b->peer_name);
    a->peer_name = xstrdup(b->name);
    b->peer_name = xstrdup(a->name);
    resolve_peers();
    unixctl_command_reply(conn, NULL);
}

static void
cmd_set_mtu(struct unixctl_conn *conn, int argc DPS_UNUSED,
            const char *argv[], void *aux DPS_UNUSED)
{
    struct tport *p = find_port(argv[1]);
    char *error = NULL;

    if (!p) {
        unixctl_command_reply_error(conn, "no such port");
    } else if (netdev_set_mtu(p->netdev, atoi(argv[2]), &error)) {
        unixctl_command_reply_error(conn, error ? error : "failed");
    } else {
        unixctl_command_reply(conn, NULL);
    }
    free(error);
}

static void
put_smap_sorted(struct ds *ds, const struct smap *smap)
{
    for (size_t i = 0; i < smap->n; i++) {
        ds_put_format(ds, "%s=%s\n", smap->nodes[i].key,
                      smap->nodes[i].value);
    }
}

static void
cmd_status(struct unixctl_conn *conn, int argc DPS_UNUSED,
           const char *argv[], void *aux DPS_UNUSED)
{
    struct tport *p = find_port(argv[1]);
    struct smap status = SMAP_INITIALIZER;
    struct ds ds = DS_EMPTY_INITIALIZER;
    bool carrier = false;
    int mtu = 0;

    if (!p) {
        unixctl_command_reply_error(conn, "no such port");
        return;
    }
    netdev_get_carrier(p->netdev, &carrier);
    netdev_get_mtu(p->netdev, &mtu);
    ds_put_format(&ds, "link_state=%s\nn_rxq=%d\nn_txq=%d\nmtu=%d\n"
                  "link_resets=%lld\n", carrier ? "up" : "down",
                  netdev_n_rxq(p->netdev), netdev_n_txq(p->netdev), mtu,
                  netdev_get_carrier_resets(p->netdev));
    netdev_get_status(p->netdev, &status);
    ds_put_cstr(&ds, "status:\n");
    put_smap_sorted(&ds, &status);
    unixctl_command_reply(conn, ds_cstr(&ds));
    smap_destroy(&status);
    ds_destroy(&ds);
}

static void
cmd_stats(struct unixctl_conn *conn, int argc DPS_UNUSED,
          const char *argv[], void *aux DPS_UNUSED)
{
    struct tport *p = find_port(argv[1]);
    struct netdev_custom_stats custom = { NULL, 0 };
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct netdev_stats stats;

    if (!p) {
        unixctl_command_reply_error(conn, "no such port");
        return;
    }
    netdev_get_stats(p->netdev, &stats);
#define NETDEV_STAT(NAME)                                               \
    if (stats.NAME != UINT64_MAX) {                                     \
        ds_put_format(&ds, "%s=%"PRIu64"\n", #NAME, stats.NAME);       \
    }
    NETDEV_STATS
#undef NETDEV_STAT
    netdev_get_custom_stats(p->netdev, &custom);
    for (size_t i = 0; i < custom.n; i++) {
        ds_put_format(&ds, "%s=%"PRIu64"\n", custom.counters[i].name,
                      custom.counters[i].value);
    }
    netdev_custom_stats_destroy(&custom);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
cmd_set_flush(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[], void *aux DPS_UNUSED)
{
    flushing = !strcmp(argv[1], "on");
    unixctl_command_reply(conn, NULL);
}

static void
cmd_exit(struct unixctl_conn *conn, int argc DPS_UNUSED,
         const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    exiting = true;
    unixctl_command_reply(conn, NULL);
}

/* One polling iteration over every port: receive, forward, flush. */
static void
poll_ports(void)
{
    for (int i = 0; i < n_ports; i++) {
        struct tport *p = &ports[i];

        for (int q = 0; q < p->n_rxqs; q++) {
            struct dp_packet_batch batch;

            dp_packet_batch_init(&batch);
            if (netdev_rxq_recv(p->rxqs[q], &batch, NULL)) {
                continue;
            }
            if (p->peer) {
                netdev_send(p->peer->netdev, q, &batch, false);
                p->peer->sent = true;
            } else {
                dp_packet_batch_free(&batch);
            }
        }
    }
    for (int i = 0; i < n_ports && flushing; i++) {
        struct tport *p = &ports[i];

        if (p->sent) {
            for (int q = 0; q < netdev_n_txq(p->netdev); q++) {
                netdev_flush(p->netdev, q, false);
            }
            p->sent = false;
        }
    }
}

static void
reconfigure_ports(void)
{
    for (int i = 0; i < n_ports; i++) {
        struct tport *p = &ports[i];

        if (netdev_is_reconf_required(p->netdev)) {
            char *error = NULL;

            close_rxqs(p);
            if (netdev_reconfigure(p->netdev, &error)) {
                fprintf(stderr, "%s\n", error ? error : "reconfigure failed");
            }
            free(error);
            open_rxqs(p);
        }
    }
}

static int
run_switch(int argc, char *argv[])
{
    const char *unixctl_path = NULL;
    const char *log_file = NULL;
    const char *extra = "--no-pci --log-level=*:notice";
    const char *mem = "256";
    bool multi_seg = false;

    static const struct option long_options[] = {
        { "unixctl", required_argument, NULL, 'u' },
        { "log-file", required_argument, NULL, 'l' },
        { "dpdk-extra", required_argument, NULL, 'e' },
        { "mem", required_argument, NULL, 'm' },
        { "multi-seg", no_argument, NULL, 's' },
        { "verbose", optional_argument, NULL, 'v' },
        { NULL, 0, NULL, 0 },
    };
    for (;;) {
        int c = getopt_long(argc, argv, "v::", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'u':
            unixctl_path = optarg;
            break;
        case 'l':
            log_file = optarg;
            break;
        case 'e':
            extra = optarg;
            break;
        case 'm':
            mem = optarg;
            break;
        case 's':
            multi_seg = true;
            break;
        case 'v':
            vlog_set_verbosity(optarg);
            break;
        default:
            return 2;
        }
    }
    if (log_file && vlog_set_log_file(log_file)) {
        util_fatal(0, "cannot open %s", log_file);
    }

    struct smap cfg = SMAP_INITIALIZER;
    smap_add(&cfg, "dpdk-init", "true");
    smap_add(&cfg, "dpdk-alloc-mem", mem);
    smap_add(&cfg, "dpdk-extra", extra);
    if (multi_seg) {
        smap_add(&cfg, "dpdk-multi-seg-mbufs", "true");
    }
    dpdk_init(&cfg);
    smap_destroy(&cfg);
    if (!dpdk_available()) {
        util_fatal(0, "cannot start DPDK");
    }
    netdev_vhost_register();

    unixctl_command_register("vhost-test/add-port", "NAME TYPE [K=V]...",
                             2, 20, cmd_add_port, NULL);
    unixctl_command_register("vhost-test/set-config", "NAME [K=V]...",
                             1, 20, cmd_set_config, NULL);
    unixctl_command_register("vhost-test/del-port", "NAME", 1, 1,
                             cmd_del_port, NULL);
    unixctl_command_register("vhost-test/connect", "NAME1 NAME2", 2, 2,
                             cmd_connect, NULL);
    unixctl_command_register("vhost-test/set-mtu", "NAME MTU", 2, 2,
                             cmd_set_mtu, NULL);
    unixctl_command_register("vhost-test/status", "NAME", 1, 1, cmd_status,
                             NULL);
    unixctl_command_register("vhost-test/stats", "NAME", 1, 1, cmd_stats,
                             NULL);
    unixctl_command_register("vhost-test/set-flush", "on|off", 1, 1,
                             cmd_set_flush, NULL);
    unixctl_command_register("exit", "", 0, 0, cmd_exit, NULL);

    struct unixctl_server *server;
    int error = unixctl_server_create(unixctl_path, &server);
    if (error) {
        util_fatal(error, "cannot create the control socket");
    }

    long long int next_control = 0;
    while (!exiting) {
        poll_ports();
        long long int now = time_msec();
        if (now >= next_control) {
            /* SIGTERM and the like: exit at once, cleaning up. */
            fatal_signal_run();
            unixctl_server_run(server);
            reconfigure_ports();
            next_control = now + 5;
        }
    }

    while (n_ports > 0) {
        struct tport *p = &ports[n_ports - 1];
        close_rxqs(p);
        netdev_close(p->netdev);
        free(p->name);
        free(p->peer_name);
        n_ports--;
    }
    unixctl_server_destroy(server);
    return 0;
}

int
main(int argc, char *argv[])
{
    util_set_program_name(argv[0]);
    if (argc > 1 && !strcmp(argv[1], "run")) {
        return run_switch(argc - 1, argv + 1);
    }
    return run_unit_tests();
}
