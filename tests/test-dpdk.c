/* Tests of DPDK start-up (lib/dpdk.c) and the "dpdk" port type
 * (lib/netdev-dpdk.c) on software devices: net_ring (what is sent on
 * net_ringN comes back on it), net_null.
 *
 * EAL starts once, with dpdk-init=true and --no-huge in dpdk-extra, so the
 * test needs neither hugepages nor root.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include "dp-packet.h"
#include "dp-test.h"
#include "dpdk.h"
#include "netdev-dpdk.h"
#include "netdev-provider.h"
#include "netdev.h"
#include "smap.h"
#include "util.h"

static struct netdev *
open_dpdk(const char *name, const char *devargs)
{
    struct netdev *netdev = NULL;
    char *err = NULL;

    assert_int_equal(netdev_open(name, "dpdk", &netdev, &err), 0);
    assert_null(err);

    struct smap options = SMAP_INITIALIZER;
    smap_add(&options, "dpdk-devargs", devargs);
    int error = netdev_set_config(netdev, &options, &err);
    if (error) {
        fail_msg("%s", err);
    }
    smap_destroy(&options);

    assert_true(netdev_is_reconf_required(netdev));
    error = netdev_reconfigure(netdev, &err);
    if (error) {
        fail_msg("%s", err);
    }
    return netdev;
}

static struct dp_packet *
make_packet_in(struct rte_mempool *pool, size_t size, uint8_t fill)
{
    struct dp_packet *p = dp_test_eth_packet(pool, size, fill);

    assert_non_null(p);
    return p;
}

static struct dp_packet *
make_packet(size_t size, uint8_t fill)
{
    return make_packet_in(dpdk_default_pool(), size, fill);
}

static uint64_t
custom_stat(const struct netdev *netdev, const char *name)
{
    struct netdev_custom_stats stats;
    uint64_t value = UINT64_MAX;

    assert_int_equal(netdev_get_custom_stats(netdev, &stats), 0);
    for (size_t i = 0; i < stats.n; i++) {
        if (!strcmp(stats.counters[i].name, name)) {
            value = stats.counters[i].value;
        }
    }
    netdev_custom_stats_destroy(&stats);
    return value;
}

static void
test_eal(void **state DPS_UNUSED)
{
    assert_true(dpdk_available());
    assert_true(!strncmp(dpdk_get_version(), "DPDK 22.11", 10)
                || !strncmp(dpdk_get_version(), "DPDK ", 5));
    assert_non_null(dpdk_default_pool());
    assert_false(dpdk_restart_needed());
    assert_true(netdev_is_type_supported("dpdk"));
}

static void
test_restart_needed(void **state DPS_UNUSED)
{
    struct smap cfg = SMAP_INITIALIZER;
    char *extra = xasprintf("  --no-huge\t'--no-pci' "
                            "--file-prefix=\"test-dpdk-%ld\"  ",
                            (long) getpid());

    smap_add(&cfg, "dpdk-init", "true");
    smap_add(&cfg, "dpdk-alloc-mem", "256");
    smap_add(&cfg, "dpdk-extra", extra);
    dpdk_init(&cfg);
    assert_false(dpdk_restart_needed());

    smap_add(&cfg, "dpdk-lcore-mask", "0x1");
    dpdk_init(&cfg);
    assert_true(dpdk_restart_needed());

    smap_remove(&cfg, "dpdk-lcore-mask");
    smap_add(&cfg, "pmd-cpu-mask", "0x2");    /* Not a start-up key. */
    dpdk_init(&cfg);
    assert_false(dpdk_restart_needed());
    smap_destroy(&cfg);
    free(extra);
}

static void
test_mempools(void **state DPS_UNUSED)
{
    char *err = NULL;

    assert_int_equal(dpdk_mp_data_room(1500), 2048 + RTE_PKTMBUF_HEADROOM);
    assert_int_equal(dpdk_mp_data_room(9000), 9216 + RTE_PKTMBUF_HEADROOM);

    struct dpdk_mp *a = dpdk_mp_get("a", 0, 1500, &err);
    struct dpdk_mp *b = dpdk_mp_get("b", 0, 1500, &err);
    struct dpdk_mp *c = dpdk_mp_get("c", 0, 9000, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_null(err);
    assert_ptr_equal(dpdk_mp_pool(a), dpdk_mp_pool(b));
    assert_ptr_not_equal(dpdk_mp_pool(a), dpdk_mp_pool(c));
    assert_int_equal(dp_packet_pool_data_room(dpdk_mp_pool(c)),
                     9216 + RTE_PKTMBUF_HEADROOM);

    /* The shared pool lives while one reference is left. */
    dpdk_mp_put(a);
    struct dp_packet *p = dp_packet_alloc(dpdk_mp_pool(b));
    assert_non_null(p);
    dp_packet_free(p);
    dpdk_mp_put(b);
    dpdk_mp_put(c);
}

static void
test_config_errors(void **state DPS_UNUSED)
{
    struct netdev *netdev;
    struct smap options = SMAP_INITIALIZER;
    char *err = NULL;

    assert_int_equal(netdev_open("bad0", "dpdk", &netdev, &err), 0);

    /* No devargs. */
    assert_int_equal(netdev_set_config(netdev, &options, &err), EINVAL);
    assert_non_null(strstr(err, "missing 'options:dpdk-devargs'"));
    free(err);
    err = NULL;

    /* A device DPDK does not know. */
    smap_add(&options, "dpdk-devargs", "net_nosuchdriver0");
    assert_int_equal(netdev_set_config(netdev, &options, &err), EINVAL);
    assert_non_null(strstr(err, "Error attaching device "
                                "'net_nosuchdriver0'"));
    free(err);
    err = NULL;

    /* Bad queue settings. */
    smap_clear(&options);
    smap_add(&options, "dpdk-devargs", "net_null9");
    smap_add(&options, "n_rxq_desc", "1000");
    assert_int_equal(netdev_set_config(netdev, &options, &err), EINVAL);
    assert_non_null(strstr(err, "powers of 2"));
    free(err);
    err = NULL;

    smap_clear(&options);
    smap_add(&options, "dpdk-devargs", "net_null9");
    smap_add(&options, "rx-flow-ctrl", "maybe");
    assert_int_equal(netdev_set_config(netdev, &options, &err), EINVAL);
    assert_non_null(strstr(err, "rx-flow-ctrl: \"maybe\" is not \"true\" "
                                "or \"false\""));
    free(err);
    err = NULL;

    smap_clear(&options);
    smap_add(&options, "dpdk-devargs", "net_null9");
    smap_add(&options, "bogus", "1");
    assert_int_equal(netdev_set_config(netdev, &options, &err), EINVAL);
    assert_non_null(strstr(err, "unknown option \"bogus\""));
    free(err);
    err = NULL;

    /* Too many rx queues for the device: reconfigure says so. */
    smap_clear(&options);
    smap_add(&options, "dpdk-devargs", "net_ring9");
    smap_add(&options, "n_rxq", "64");
    assert_int_equal(netdev_set_config(netdev, &options, &err), 0);
    assert_int_not_equal(netdev_reconfigure(netdev, &err), 0);
    assert_non_null(err);
    assert_non_null(strstr(err, "rx queues"));
    free(err);
    err = NULL;

    /* A second port on the same device. */
    struct netdev *other;
    assert_int_equal(netdev_open("bad1", "dpdk", &other, &err), 0);
    smap_clear(&options);
    smap_add(&options, "dpdk-devargs", "net_ring9");
    assert_int_equal(netdev_set_config(other, &options, &err), EADDRINUSE);
    assert_non_null(strstr(err, "already in use by 'bad0'"));
    free(err);
    err = NULL;

    netdev_close(other);
    netdev_close(netdev);
    smap_destroy(&options);

    /* Closing the port detached the device. */
    uint16_t port_id;
    assert_int_not_equal(rte_eth_dev_get_port_by_name("net_ring9", &port_id),
                         0);
}

static void
test_ring_loop(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_dpdk("ring0", "net_ring0");
    struct netdev_rxq *rxq;
    struct dp_packet_batch batch;

    assert_true(netdev_is_pmd(netdev));
    assert_int_equal(netdev_n_rxq(netdev), 1);
    assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), 0);

    /* Nothing yet. */
    dp_packet_batch_init(&batch);
    assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), EAGAIN);

    dp_packet_batch_init(&batch);
    for (int i = 0; i < 10; i++) {
        dp_packet_batch_add(&batch, make_packet(60 + i, (uint8_t) i));
    }
    assert_int_equal(netdev_send(netdev, 0, &batch, true), 0);
    assert_int_equal(batch.count, 0);

    dp_packet_batch_init(&batch);
    int qfill = 42;
    assert_int_equal(netdev_rxq_recv(rxq, &batch, &qfill), 0);
    assert_int_equal(batch.count, 10);
    assert_int_equal(qfill, 0);
    for (int i = 0; i < 10; i++) {
        struct dp_packet *p = batch.packets[i];
        uint8_t last;
        assert_int_equal(dp_packet_size(p), 60 + i);
        assert_int_equal(dp_packet_copy_out(p, dp_packet_size(p) - 1, 1,
                                            &last), 0);
        assert_int_equal(last, i);
        assert_int_equal(p->md.l2_ofs, DP_PACKET_OFS_NONE);
    }
    dp_packet_batch_free(&batch);

    struct netdev_stats stats;
    memset(&stats, 0xff, sizeof stats);
    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.tx_packets, 10);
    assert_int_equal(stats.rx_packets, 10);
    /* net_ring counts no bytes. */
    assert_int_equal(stats.tx_dropped, 0);
    assert_int_equal(custom_stat(netdev, "tx_q0_packets"), 10);
    assert_int_equal(custom_stat(netdev, "ovs_tx_mtu_exceeded_drops"), 0);

    /* Too long for MTU 1500: dropped and counted. */
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, make_packet(1600, 1));
    dp_packet_batch_add(&batch, make_packet(1514, 2));
    assert_int_equal(netdev_send(netdev, 0, &batch, false), 0);
    assert_int_equal(custom_stat(netdev, "ovs_tx_mtu_exceeded_drops"), 1);
    dp_packet_batch_init(&batch);
    assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), 0);
    assert_int_equal(batch.count, 1);
    assert_int_equal(dp_packet_size(batch.packets[0]), 1514);
    dp_packet_batch_free(&batch);

    /* Admin down: nothing received or sent. */
    assert_int_equal(netdev_turn_flags_off(netdev, NETDEV_UP), 0);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, make_packet(100, 3));
    assert_int_equal(netdev_send(netdev, 0, &batch, false), 0);
    assert_int_equal(netdev_turn_flags_on(netdev, NETDEV_UP), 0);
    dp_packet_batch_init(&batch);
    assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), EAGAIN);
    memset(&stats, 0xff, sizeof stats);
    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.tx_dropped, 2);

    netdev_rxq_close(rxq);

    /* A bigger MTU: a reconfiguration and a pool for it. */
    char *err = NULL;
    assert_int_equal(netdev_set_mtu(netdev, 9000, &err), 0);
    assert_true(netdev_is_reconf_required(netdev));
    if (netdev_reconfigure(netdev, &err)) {
        fail_msg("%s", err);
    }
    int mtu;
    assert_int_equal(netdev_get_mtu(netdev, &mtu), 0);
    assert_int_equal(mtu, 9000);
    assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), 0);
    /* One segment of the shared pool for MTU 9000, which the port uses. */
    struct dpdk_mp *mp = dpdk_mp_get("test", 0, 9000, &err);
    assert_non_null(mp);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, make_packet_in(dpdk_mp_pool(mp), 9000, 4));
    assert_int_equal(dp_packet_n_segs(batch.packets[0]), 1);
    assert_int_equal(netdev_send(netdev, 0, &batch, false), 0);
    dp_packet_batch_init(&batch);
    assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), 0);
    assert_int_equal(dp_packet_size(batch.packets[0]), 9000);
    dp_packet_batch_free(&batch);
    dpdk_mp_put(mp);
    netdev_rxq_close(rxq);

    assert_int_equal(netdev_set_mtu(netdev, 20000, &err), EINVAL);
    assert_non_null(strstr(err, "unsupported MTU"));
    free(err);

    /* Open vSwitch 3.1's range, 68 to 9702, refused in its words. */
    err = NULL;
    assert_int_equal(netdev_set_mtu(netdev, 9703, &err), EINVAL);
    assert_string_equal(err, "ring0: unsupported MTU 9703");
    free(err);
    err = NULL;
    assert_int_equal(netdev_set_mtu(netdev, 67, &err), EINVAL);
    assert_string_equal(err, "ring0: unsupported MTU 67");
    free(err);
    err = NULL;
    assert_int_equal(netdev_set_mtu(netdev, 9702, &err), 0);
    assert_null(err);
    assert_int_equal(netdev_set_mtu(netdev, 68, &err), 0);
    assert_null(err);

    netdev_close(netdev);
}

static void
test_null_status(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_dpdk("null0", "net_null0,no-rx=1");
    struct smap status = SMAP_INITIALIZER;

    assert_int_equal(netdev_get_status(netdev, &status), 0);
    assert_string_equal(smap_get(&status, "driver_name"), "net_null");
    assert_string_equal(smap_get(&status, "if_type"), "6");
    assert_string_equal(smap_get(&status, "max_rx_pktlen"), "1518");
    assert_string_equal(smap_get(&status, "bus_info"), "bus_name=vdev");
    assert_string_equal(smap_get(&status, "link_speed"), "10Gbps");
    assert_string_equal(smap_get(&status, "numa_id"), "0");
    assert_string_equal(smap_get(&status, "n_rxq"), "1");
    assert_string_equal(smap_get(&status, "tx_ip_csum_offload"), "false");
    char *descr = xasprintf("%s net_null", dpdk_get_version());
    assert_string_equal(smap_get(&status, "if_descr"), descr);
    free(descr);
    smap_destroy(&status);

    bool carrier = false;
    uint32_t mbps = 0;
    assert_int_equal(netdev_get_carrier(netdev, &carrier), 0);
    assert_true(carrier);
    assert_int_equal(netdev_get_speed(netdev, &mbps), 0);
    assert_int_equal(mbps, 10000);

    /* More tx queues for several sending threads. */
    assert_int_equal(netdev_set_tx_multiq(netdev, 3), 0);
    assert_true(netdev_is_reconf_required(netdev));
    char *err = NULL;
    assert_int_equal(netdev_reconfigure(netdev, &err), 0);
    assert_int_equal(netdev_n_txq(netdev), 3);

    struct smap config = SMAP_INITIALIZER;
    assert_int_equal(netdev_get_config(netdev, &config), 0);
    assert_string_equal(smap_get(&config, "configured_tx_queues"), "3");
    assert_string_equal(smap_get(&config, "lsc_interrupt_mode"), "false");
    assert_string_equal(smap_get(&config, "requested_rxq_descriptors"),
                        "2048");
    smap_destroy(&config);

    struct dp_packet_batch batch;
    for (int q = 0; q < 3; q++) {
        dp_packet_batch_init(&batch);
        dp_packet_batch_add(&batch, make_packet(64, 0));
        assert_int_equal(netdev_send(netdev, q, &batch, false), 0);
    }
    assert_int_equal(custom_stat(netdev, "tx_q2_packets"), 1);
    netdev_close(netdev);
}

/* A device change waits for 'reconfigure'; closing the port before then
 * releases both devices. */
static void
test_devargs_change(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_dpdk("chg0", "net_ring7");
    struct smap options = SMAP_INITIALIZER;
    struct smap status = SMAP_INITIALIZER;
    char *err = NULL;
    uint16_t port_id;

    smap_add(&options, "dpdk-devargs", "net_null17,no-rx=1");
    assert_int_equal(netdev_set_config(netdev, &options, &err), 0);
    assert_true(netdev_is_reconf_required(netdev));
    assert_int_equal(rte_eth_dev_get_port_by_name("net_null17", &port_id), 0);

    /* Still the old device until the reconfiguration. */
    assert_int_equal(netdev_get_status(netdev, &status), 0);
    assert_string_equal(smap_get(&status, "driver_name"), "net_ring");
    smap_clear(&status);

    if (netdev_reconfigure(netdev, &err)) {
        fail_msg("%s", err);
    }
    assert_int_equal(netdev_get_status(netdev, &status), 0);
    assert_string_equal(smap_get(&status, "driver_name"), "net_null");
    assert_int_not_equal(rte_eth_dev_get_port_by_name("net_ring7", &port_id),
                         0);

    /* Requested, never used, then closed. */
    smap_clear(&options);
    smap_add(&options, "dpdk-devargs", "net_ring8");
    assert_int_equal(netdev_set_config(netdev, &options, &err), 0);
    assert_int_equal(rte_eth_dev_get_port_by_name("net_ring8", &port_id), 0);
    netdev_close(netdev);
    assert_int_not_equal(rte_eth_dev_get_port_by_name("net_ring8", &port_id),
                         0);
    assert_int_not_equal(rte_eth_dev_get_port_by_name("net_null17",
                                                      &port_id), 0);
    smap_destroy(&options);
    smap_destroy(&status);
}

int
main(int argc DPS_UNUSED, char *argv[])
{
    struct smap cfg = SMAP_INITIALIZER;
    /* Quotes, as a shell would take them: EAL refuses what they would leave
     * behind if dpdk-extra were split naively. */
    char *extra = xasprintf("  --no-huge\t'--no-pci' "
                            "--file-prefix=\"test-dpdk-%ld\"  ",
                            (long) getpid());

    util_set_program_name(argv[0]);
    smap_add(&cfg, "dpdk-init", "true");
    smap_add(&cfg, "dpdk-alloc-mem", "256");
    smap_add(&cfg, "dpdk-extra", extra);
    dpdk_init(&cfg);
    netdev_dpdk_register();
    smap_destroy(&cfg);
    free(extra);

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eal),
        cmocka_unit_test(test_restart_needed),
        cmocka_unit_test(test_mempools),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_ring_loop),
        cmocka_unit_test(test_null_status),
        cmocka_unit_test(test_devargs_change),
    };
    return cmocka_run_group_tests_name("dpdk", tests, NULL, NULL);
}
