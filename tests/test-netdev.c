/* Unit tests for lib/netdev.c and lib/netdev-dummy.c: the class registry,
 * opening and reference counts, configuration errors, the transmit step
 * (checksum completion, chain linearization and its drops), receive queues,
 * capture files and the reconfiguration wake-up.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "flow.h"
#include "dynamic-string.h"
#include "netdev-dummy.h"
#include "netdev-provider.h"
#include "netdev.h"
#include "odp-util.h"
#include "packets.h"
#include "pcap-file.h"
#include "poll-loop.h"
#include "smap.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "jsonrpc.h"

#define UDP_FLOW \
    "in_port(1),eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02)," \
    "eth_type(0x0800),ipv4(src=10.0.0.1,dst=10.0.0.2,proto=17,tos=0," \
    "ttl=64,frag=no),udp(src=1,dst=2)"

static uint8_t pattern[9216];
static const struct netdev_class fake_class;

static int
setup(void **state DPS_UNUSED)
{
    for (size_t i = 0; i < sizeof pattern; i++) {
        pattern[i] = (uint8_t) (i * 13 + (i >> 8) + 5);
    }
    dp_test_init("test-netdev");
    netdev_dummy_register(NETDEV_DUMMY_OVERRIDE);
    netdev_register_class(&fake_class);
    return 0;
}

/* A class with only the slots that are not optional. */
static int fake_sent;

static struct netdev *
fake_alloc(void)
{
    return xzalloc(sizeof(struct netdev));
}

static int
fake_construct(struct netdev *netdev)
{
    return !strncmp(netdev->name, "fail", 4) ? ENODEV : 0;
}

static void
fake_destruct(struct netdev *netdev DPS_UNUSED)
{
}

static void
fake_dealloc(struct netdev *netdev)
{
    free(netdev);
}

static int
fake_send(struct netdev *netdev DPS_UNUSED, int qid,
          struct dp_packet_batch *batch, bool concurrent_txq DPS_UNUSED)
{
    assert_int_equal(qid, 0);   /* netdev_send() keeps qid < n_txq. */
    fake_sent += batch->count;
    dp_packet_batch_free(batch);
    return 0;
}

static const struct netdev_class fake_class = {
    .type = "fake",
    .alloc = fake_alloc,
    .construct = fake_construct,
    .destruct = fake_destruct,
    .dealloc = fake_dealloc,
    .send = fake_send,
};

/* Opens 'name' of 'type' and fails the test if that fails. */
static struct netdev *
open_ok(const char *name, const char *type)
{
    struct netdev *netdev;
    char *error;

    assert_int_equal(netdev_open(name, type, &netdev, &error), 0);
    assert_null(error);
    assert_non_null(netdev);
    return netdev;
}

static struct dp_packet *
udp_packet(size_t payload)
{
    struct dp_packet *p;
    char *error = odp_packet_compose(UDP_FLOW, dp_test_pools.std, payload,
                                     &p);

    assert_null(error);
    assert_non_null(p);
    return p;
}

static void
send_one(struct netdev *netdev, struct dp_packet *p)
{
    struct dp_packet_batch batch;

    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, p);
    assert_int_equal(netdev_send(netdev, 0, &batch, false), 0);
    assert_int_equal(batch.count, 0);
}

static void
test_types(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    netdev_get_types(&ds);
    assert_string_equal(ds_cstr(&ds), "dpdk dummy dummy-internal dummy-pmd "
                        "fake internal system tap");
    ds_destroy(&ds);
    assert_true(netdev_is_type_supported("dummy"));
    assert_true(netdev_is_type_supported(""));     /* "system". */
    assert_true(netdev_is_type_supported(NULL));
    assert_false(netdev_is_type_supported("vxlan"));

    /* A second registration is ignored: same types. */
    netdev_dummy_register(NETDEV_DUMMY_ON);
    ds_init(&ds);
    netdev_get_types(&ds);
    assert_string_equal(ds_cstr(&ds), "dpdk dummy dummy-internal dummy-pmd "
                        "fake internal system tap");
    ds_destroy(&ds);
}

static void
test_open_close(void **state DPS_UNUSED)
{
    struct netdev *a = open_ok("p0", "dummy");
    struct netdev *b, *c;
    char *error;

    assert_string_equal(netdev_get_name(a), "p0");
    assert_string_equal(netdev_get_type(a), "dummy");
    assert_false(netdev_is_pmd(a));
    assert_int_equal(a->ref_cnt, 1);

    /* Same name and type: the same netdev, one more reference. */
    b = open_ok("p0", "dummy");
    assert_ptr_equal(a, b);
    assert_int_equal(a->ref_cnt, 2);

    /* Same name, other type: an error that says so. */
    assert_int_equal(netdev_open("p0", "dummy-pmd", &c, &error), EEXIST);
    assert_null(c);
    assert_non_null(error);
    assert_non_null(strstr(error, "p0"));
    assert_non_null(strstr(error, "\"dummy-pmd\""));
    assert_non_null(strstr(error, "already open as type \"dummy\""));
    free(error);
    assert_int_equal(a->ref_cnt, 2);

    /* Unknown type. */
    assert_int_equal(netdev_open("q0", "vxlan", &c, &error), EAFNOSUPPORT);
    assert_null(c);
    assert_non_null(strstr(error, "unsupported type \"vxlan\""));
    free(error);

    /* Lookup by name. */
    c = netdev_from_name("p0");
    assert_ptr_equal(c, a);
    assert_int_equal(a->ref_cnt, 3);
    netdev_close(c);
    assert_null(netdev_from_name("nope"));

    netdev_close(b);
    assert_int_equal(a->ref_cnt, 1);
    netdev_close(a);
    assert_null(netdev_from_name("p0"));

    /* Reopening after the last close gives a fresh netdev, of any type. */
    c = open_ok("p0", "dummy-pmd");
    assert_true(netdev_is_pmd(c));
    assert_int_equal(netdev_n_rxq(c), 1);
    assert_true(netdev_n_txq(c) >= 1);
    netdev_close(c);
    netdev_close(NULL);
}

static void
test_override_types(void **state DPS_UNUSED)
{
    struct netdev *sys = open_ok("s0", "");
    struct netdev *dpdk = open_ok("d0", "dpdk");
    struct netdev *intl = open_ok("br0", "internal");

    assert_string_equal(netdev_get_type(sys), "system");
    assert_false(netdev_is_pmd(sys));
    assert_string_equal(netdev_get_type(dpdk), "dpdk");
    assert_true(netdev_is_pmd(dpdk));
    assert_string_equal(netdev_get_type(intl), "internal");
    assert_true(netdev_dummy_is_dummy(sys));
    assert_true(netdev_dummy_is_dummy(dpdk));
    assert_true(netdev_dummy_is_dummy(intl));

    /* Every dummy has its own aa:55:aa:55:xx:xx address. */
    struct eth_addr m1, m2, m3;
    assert_int_equal(netdev_get_etheraddr(sys, &m1), 0);
    assert_int_equal(netdev_get_etheraddr(dpdk, &m2), 0);
    assert_int_equal(netdev_get_etheraddr(intl, &m3), 0);
    assert_memory_equal(m1.ea, "\xaa\x55\xaa\x55", 4);
    assert_memory_equal(m2.ea, "\xaa\x55\xaa\x55", 4);
    assert_memory_not_equal(m1.ea, m2.ea, 6);
    assert_memory_not_equal(m2.ea, m3.ea, 6);

    struct netdev **all;
    size_t n = netdev_get_open(NULL, &all);
    assert_int_equal(n, 3);
    for (size_t i = 0; i < n; i++) {
        netdev_close(all[i]);
    }
    free(all);

    netdev_close(sys);
    netdev_close(dpdk);
    netdev_close(intl);
}

/* The generic layer's answers for a class without the optional slots. */
static void
test_minimal_class(void **state DPS_UNUSED)
{
    struct smap options = SMAP_INITIALIZER;
    struct netdev_custom_stats custom;
    struct netdev_stats stats;
    struct netdev_rxq *rxq;
    struct netdev *netdev;
    struct eth_addr mac;
    enum netdev_flags flags;
    uint32_t mbps;
    bool carrier;
    char *error;
    int mtu;

    /* A failed construct: freed with dealloc alone, the error explained. */
    assert_int_equal(netdev_open("fail0", "fake", &netdev, &error), ENODEV);
    assert_null(netdev);
    assert_non_null(strstr(error, "fail0"));
    free(error);
    assert_null(netdev_from_name("fail0"));

    netdev = open_ok("f0", "fake");
    assert_int_equal(netdev_n_rxq(netdev), 1);
    assert_int_equal(netdev_n_txq(netdev), 1);
    assert_int_equal(netdev_get_numa_id(netdev), -1);
    assert_int_equal(netdev_get_tx_caps(netdev), 0);
    assert_false(netdev_has_flush(netdev));
    assert_int_equal(netdev_flush(netdev, 0, false), 0);

    /* Without set_config only empty options are accepted. */
    assert_int_equal(netdev_set_config(netdev, &options, &error), 0);
    assert_null(error);
    smap_add(&options, "x", "1");
    assert_int_equal(netdev_set_config(netdev, &options, &error), EINVAL);
    assert_non_null(strstr(error, "\"x\""));
    free(error);
    assert_int_equal(netdev_get_config(netdev, &options), EOPNOTSUPP);
    assert_true(smap_is_empty(&options));

    assert_int_equal(netdev_reconfigure(netdev, &error), 0);
    assert_null(error);
    assert_int_equal(netdev_set_tx_multiq(netdev, 4), EOPNOTSUPP);

    assert_int_equal(netdev_get_stats(netdev, &stats), EOPNOTSUPP);
    assert_true(stats.rx_packets == UINT64_MAX);
    assert_true(stats.multicast == UINT64_MAX);
    assert_int_equal(netdev_get_custom_stats(netdev, &custom), 0);
    assert_int_equal(custom.n, 0);
    assert_int_equal(netdev_get_status(netdev, &options), 0);
    assert_int_equal(smap_count(&options), 9);     /* tx_*_offload. */

    assert_int_equal(netdev_get_etheraddr(netdev, &mac), EOPNOTSUPP);
    assert_int_equal(netdev_set_etheraddr(netdev, &mac), EOPNOTSUPP);
    assert_int_equal(netdev_get_mtu(netdev, &mtu), EOPNOTSUPP);
    assert_int_equal(netdev_set_mtu(netdev, 1500, &error), EOPNOTSUPP);
    assert_null(error);
    assert_int_equal(netdev_get_carrier(netdev, &carrier), 0);
    assert_true(carrier);
    assert_int_equal(netdev_get_carrier_resets(netdev), 0);
    assert_int_equal(netdev_get_speed(netdev, &mbps), EOPNOTSUPP);
    assert_int_equal(netdev_get_flags(netdev, &flags), EOPNOTSUPP);
    assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), EINVAL);

    /* An out-of-range qid is folded into the queues the port has. */
    fake_sent = 0;
    struct dp_packet_batch batch;
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, dp_packet_alloc(dp_test_pools.std));
    dp_packet_batch_add(&batch, dp_packet_alloc(dp_test_pools.std));
    assert_int_equal(netdev_send(netdev, 7, &batch, true), 0);
    assert_int_equal(fake_sent, 2);
    assert_int_equal(batch.count, 0);

    smap_destroy(&options);
    netdev_close(netdev);
}

static void
test_link_and_flags(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p1", "dummy");
    struct eth_addr mac = { { 0x02, 1, 2, 3, 4, 5 } }, mac2;
    enum netdev_flags flags;
    uint64_t seq;
    bool carrier;
    char *error;
    int mtu;

    assert_int_equal(netdev_get_mtu(netdev, &mtu), 0);
    assert_int_equal(mtu, 1500);
    seq = netdev_get_change_seq(netdev);
    assert_int_equal(netdev_set_mtu(netdev, 9000, &error), 0);
    assert_null(error);
    assert_int_equal(netdev_get_mtu(netdev, &mtu), 0);
    assert_int_equal(mtu, 9000);
    assert_true(netdev_get_change_seq(netdev) != seq);
    assert_int_equal(netdev_set_mtu(netdev, 10, &error), EINVAL);
    assert_non_null(strstr(error, "MTU 10"));
    free(error);

    assert_int_equal(netdev_set_etheraddr(netdev, &mac), 0);
    assert_int_equal(netdev_get_etheraddr(netdev, &mac2), 0);
    assert_memory_equal(&mac, &mac2, sizeof mac);

    assert_int_equal(netdev_get_carrier(netdev, &carrier), 0);
    assert_true(carrier);

    assert_int_equal(netdev_get_flags(netdev, &flags), 0);
    assert_int_equal(flags, NETDEV_UP);
    seq = netdev_get_change_seq(netdev);
    assert_int_equal(netdev_turn_flags_off(netdev, NETDEV_UP), 0);
    assert_int_equal(netdev_get_flags(netdev, &flags), 0);
    assert_int_equal(flags, 0);
    assert_true(netdev_get_change_seq(netdev) != seq);
    assert_int_equal(netdev_turn_flags_on(netdev, NETDEV_UP), 0);
    assert_int_equal(netdev_get_flags(netdev, &flags), 0);
    assert_int_equal(flags, NETDEV_UP);

    netdev_close(netdev);
}

static void
test_set_config(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p2", "dummy-pmd");
    struct smap options = SMAP_INITIALIZER;
    struct smap config = SMAP_INITIALIZER;
    char *error;

    /* Unknown key: the error names it, nothing changes. */
    smap_add(&options, "n_rxq", "2");
    smap_add(&options, "bogus", "1");
    assert_int_equal(netdev_set_config(netdev, &options, &error), EINVAL);
    assert_non_null(strstr(error, "p2"));
    assert_non_null(strstr(error, "\"bogus\""));
    free(error);
    assert_false(netdev_is_reconf_required(netdev));

    /* Bad values. */
    smap_clear(&options);
    smap_add(&options, "n_rxq", "0");
    assert_int_equal(netdev_set_config(netdev, &options, &error), EINVAL);
    assert_non_null(strstr(error, "n_rxq"));
    free(error);
    smap_clear(&options);
    smap_add(&options, "n_rxq", "two");
    assert_int_equal(netdev_set_config(netdev, &options, &error), EINVAL);
    assert_non_null(strstr(error, "not an integer"));
    free(error);
    smap_clear(&options);
    smap_add(&options, "ol_ip_csum", "yes");
    assert_int_equal(netdev_set_config(netdev, &options, &error), EINVAL);
    assert_non_null(strstr(error, "ol_ip_csum"));
    free(error);
    smap_clear(&options);
    smap_add(&options, "tx_pcap", "/nonexistent-dir/x.pcap");
    assert_int_equal(netdev_set_config(netdev, &options, &error), ENOENT);
    assert_non_null(strstr(error, "/nonexistent-dir/x.pcap"));
    free(error);

    /* Without a message pointer the message is logged; still an error. */
    smap_clear(&options);
    smap_add(&options, "nope", "1");
    assert_int_equal(netdev_set_config(netdev, &options, NULL), EINVAL);

    /* A good one: n_rxq is requested, applied by netdev_reconfigure(). */
    smap_clear(&options);
    smap_add(&options, "n_rxq", "3");
    smap_add(&options, "n_txq", "5");
    assert_int_equal(netdev_set_config(netdev, &options, &error), 0);
    assert_null(error);
    assert_true(netdev_is_reconf_required(netdev));
    assert_int_equal(netdev_n_rxq(netdev), 1);
    assert_int_equal(netdev_get_config(netdev, &config), 0);
    assert_string_equal(smap_get(&config, "requested_rx_queues"), "3");
    assert_string_equal(smap_get(&config, "configured_rx_queues"), "1");
    assert_int_equal(netdev_reconfigure(netdev, &error), 0);
    assert_null(error);
    assert_false(netdev_is_reconf_required(netdev));
    assert_int_equal(netdev_n_rxq(netdev), 3);
    assert_int_equal(netdev_n_txq(netdev), 5);
    assert_int_equal(netdev_get_config(netdev, &config), 0);
    assert_string_equal(smap_get(&config, "configured_rx_queues"), "3");
    assert_string_equal(smap_get(&config, "configured_tx_queues"), "5");

    /* numa_id: set, then back to the default when the option goes. */
    assert_int_equal(netdev_get_numa_id(netdev), 0);
    smap_add(&options, "numa_id", "1");
    assert_int_equal(netdev_set_config(netdev, &options, &error), 0);
    assert_int_equal(netdev_get_numa_id(netdev), 1);
    smap_remove(&options, "numa_id");
    assert_int_equal(netdev_set_config(netdev, &options, &error), 0);
    assert_int_equal(netdev_get_numa_id(netdev), 0);
    assert_false(netdev_is_reconf_required(netdev));

    /* The same options again request nothing. */
    assert_int_equal(netdev_set_config(netdev, &options, &error), 0);
    assert_false(netdev_is_reconf_required(netdev));

    /* The datapath's tx queue request gives way to options:n_txq... */
    assert_int_equal(netdev_set_tx_multiq(netdev, 3), 0);
    assert_false(netdev_is_reconf_required(netdev));
    /* ...and applies without it. */
    smap_remove(&options, "n_txq");
    assert_int_equal(netdev_set_config(netdev, &options, &error), 0);
    assert_true(netdev_is_reconf_required(netdev));
    assert_int_equal(netdev_reconfigure(netdev, &error), 0);
    assert_int_equal(netdev_n_txq(netdev), 3);

    /* A "dummy" port lists no queue keys; an empty config is accepted. */
    struct netdev *plain = open_ok("p3", "dummy");
    assert_int_equal(netdev_set_config(plain, NULL, &error), 0);
    assert_int_equal(netdev_get_config(plain, &config), 0);
    assert_true(smap_is_empty(&config));

    smap_destroy(&options);
    smap_destroy(&config);
    netdev_close(plain);
    netdev_close(netdev);
}

static void
test_stats_and_status(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p4", "dummy");
    struct smap status = SMAP_INITIALIZER;
    struct netdev_custom_stats custom;
    struct netdev_stats stats;

    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.rx_packets, 0);
    assert_int_equal(stats.tx_bytes, 0);
    /* What the port does not count stays "unsupported". */
    assert_true(stats.collisions == UINT64_MAX);
    assert_true(stats.rx_crc_err == UINT64_MAX);

    assert_int_equal(netdev_get_status(netdev, &status), 0);
    assert_string_equal(smap_get(&status, "tx_ip_csum_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_tcp_csum_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_udp_csum_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_sctp_csum_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_tcp_seg_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_vxlan_tso_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_geneve_tso_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_out_ip_csum_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_out_udp_csum_offload"),
                        "false");
    assert_int_equal(smap_count(&status), 9);

    struct smap options = SMAP_INITIALIZER;
    smap_add(&options, "ol_ip_csum", "true");
    smap_add(&options, "ol_udp_csum", "true");
    assert_int_equal(netdev_set_config(netdev, &options, NULL), 0);
    assert_int_equal(netdev_get_tx_caps(netdev),
                     NETDEV_TX_IPV4_CSUM | NETDEV_TX_UDP_CSUM);
    smap_clear(&status);
    assert_int_equal(netdev_get_status(netdev, &status), 0);
    assert_string_equal(smap_get(&status, "tx_ip_csum_offload"), "true");
    assert_string_equal(smap_get(&status, "tx_tcp_csum_offload"), "false");
    assert_string_equal(smap_get(&status, "tx_udp_csum_offload"), "true");
    assert_string_equal(smap_get(&status, "tx_sctp_csum_offload"), "false");

    /* No custom counters while nothing was dropped. */
    assert_int_equal(netdev_get_custom_stats(netdev, &custom), 0);
    assert_int_equal(custom.n, 0);
    netdev_custom_stats_destroy(&custom);

    netdev_custom_stats_add(&custom, "a", 1);
    netdev_custom_stats_add(&custom, "b", 2);
    assert_int_equal(custom.n, 2);
    assert_string_equal(custom.counters[1].name, "b");
    assert_int_equal(custom.counters[1].value, 2);
    netdev_custom_stats_destroy(&custom);
    assert_int_equal(custom.n, 0);

    smap_destroy(&options);
    smap_destroy(&status);
    netdev_close(netdev);
}

/* A UDP packet whose checksums were made "partial" (fields zeroed) must
 * leave a port without offload with the right checksums, and a port with
 * offload with the fields left to the device and the mbuf flags set. */
static void
test_send_csum(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p5", "dummy");
    struct dp_packet *p, *sent;
    uint8_t good[200], bytes[200];
    size_t size;

    netdev_dummy_set_keep_sent(netdev, 4);

    for (int offload = 0; offload < 2; offload++) {
        p = udp_packet(50);
        size = dp_packet_size(p);
        assert_true(size <= sizeof good);
        assert_int_equal(dp_packet_copy_out(p, 0, size, good), 0);

        /* Zero both checksums and mark them partial. */
        uint16_t zero = 0;
        assert_int_equal(dp_packet_copy_in(p, p->md.l3_ofs + 10, 2, &zero),
                         0);
        assert_int_equal(dp_packet_copy_in(p, p->md.l4_ofs + 6, 2, &zero),
                         0);
        p->md.ip_csum = DP_CSUM_PARTIAL;
        p->md.l4_csum = DP_CSUM_PARTIAL;

        netdev_dummy_set_tx_caps(netdev, offload
                                 ? NETDEV_TX_IPV4_CSUM | NETDEV_TX_UDP_CSUM
                                 : 0);
        send_one(netdev, p);
        sent = netdev_dummy_pop_sent(netdev);
        assert_non_null(sent);
        assert_int_equal(dp_packet_size(sent), size);
        assert_int_equal(dp_packet_copy_out(sent, 0, size, bytes), 0);
        if (!offload) {
            assert_memory_equal(bytes, good, size);
            assert_int_equal(sent->md.ip_csum, DP_CSUM_GOOD);
            assert_int_equal(sent->md.l4_csum, DP_CSUM_GOOD);
        } else {
            assert_int_equal(sent->md.l4_csum, DP_CSUM_PARTIAL);
            assert_true(sent->mbuf.ol_flags & RTE_MBUF_F_TX_IP_CKSUM);
            assert_true((sent->mbuf.ol_flags & RTE_MBUF_F_TX_L4_MASK)
                        == RTE_MBUF_F_TX_UDP_CKSUM);
            /* Everything but the checksum fields is unchanged. */
            assert_memory_equal(bytes, good, p->md.l3_ofs + 10);
        }
        dp_packet_free(sent);
    }
    assert_null(netdev_dummy_pop_sent(netdev));
    netdev_close(netdev);
}

/* netdev_send() tests a batch as a whole first (lib/netdev.c): in a batch
 * of 32 packets with nothing to do but one (the packets before it covered
 * by the batch's egress summary), that one alone is completed,
 * wherever it is and whichever work it needs (a partial UDP checksum, a
 * partial IPv4 header checksum, a chain), and the others leave untouched;
 * packets whose states or'ed together look partial (one GOOD, one BAD)
 * leave as they are, the BAD checksum still wrong. */
static void
test_send_batch_one_with_work(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p5b", "dummy");
    struct dp_packet_batch batch;
    uint8_t good[200], bytes[200];

    netdev_dummy_set_keep_sent(netdev, DP_PACKET_BATCH_SIZE);
    for (int kind = 0; kind < 4; kind++) {
        for (int pos = 0; pos < DP_PACKET_BATCH_SIZE; pos += 15) {
            size_t size = 0;

            dp_packet_batch_init(&batch);
            for (int i = 0; i < DP_PACKET_BATCH_SIZE; i++) {
                struct dp_packet *p = udp_packet(50);
                uint16_t zero = 0, bad = htons(0x1234);

                size = dp_packet_size(p);
                assert_true(size <= sizeof good);
                assert_int_equal(dp_packet_copy_out(p, 0, size, good), 0);
                if (kind == 3) {
                    /* GOOD everywhere, one BAD L4 checksum. */
                    p->md.ip_csum = DP_CSUM_GOOD;
                    p->md.l4_csum = DP_CSUM_GOOD;
                    if (i == pos) {
                        assert_int_equal(dp_packet_copy_in(
                                             p, p->md.l4_ofs + 6, 2, &bad),
                                         0);
                        p->md.l4_csum = DP_CSUM_BAD;
                    }
                } else if (i == pos && kind == 0) {
                    assert_int_equal(dp_packet_copy_in(
                                         p, p->md.l4_ofs + 6, 2, &zero), 0);
                    p->md.l4_csum = DP_CSUM_PARTIAL;
                } else if (i == pos && kind == 1) {
                    assert_int_equal(dp_packet_copy_in(
                                         p, p->md.l3_ofs + 10, 2, &zero), 0);
                    p->md.ip_csum = DP_CSUM_PARTIAL;
                } else if (i == pos && kind == 2) {
                    dp_packet_free(p);
                    p = dp_test_chain(dp_test_pools.std, good, size, 20, 30);
                    assert_non_null(p);
                    assert_true(dp_packet_n_segs(p) > 1);
                }
                dp_packet_batch_add(&batch, p);
            }
            /* The egress summary covers the packets before the one with
             * work (none at 0): they are not tested, the others are. */
            batch.n_clean = pos;
            assert_int_equal(netdev_send(netdev, 0, &batch, false), 0);
            assert_int_equal(batch.count, 0);
            for (int i = 0; i < DP_PACKET_BATCH_SIZE; i++) {
                struct dp_packet *sent = netdev_dummy_pop_sent(netdev);

                assert_non_null(sent);
                assert_true(dp_packet_is_linear(sent));
                assert_int_equal(dp_packet_size(sent), size);
                assert_int_equal(dp_packet_copy_out(sent, 0, size, bytes),
                                 0);
                if (kind == 3 && i == pos) {
                    assert_int_equal(sent->md.l4_csum, DP_CSUM_BAD);
                    assert_memory_not_equal(bytes, good, size);
                } else {
                    assert_memory_equal(bytes, good, size);
                }
                if (i == pos && kind < 2) {
                    assert_int_equal(kind ? sent->md.ip_csum
                                     : sent->md.l4_csum, DP_CSUM_GOOD);
                }
                dp_packet_free(sent);
            }
            assert_null(netdev_dummy_pop_sent(netdev));
        }
    }
    netdev_close(netdev);
}

/* A chain sent on a port without NETDEV_TX_MULTI_SEG arrives linear with
 * the same bytes; one that cannot fit one segment is dropped and counted;
 * a port with the capability gets the chain as it is. */
static void
test_send_chains(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p6", "dummy");
    struct netdev_custom_stats custom;
    struct netdev_stats stats;
    struct dp_packet_batch batch;
    struct dp_packet *p;

    netdev_dummy_set_keep_sent(netdev, 8);

    /* Three chains of different shapes in one batch. */
    static const size_t sizes[][3] = {
        { 300, 100, 50 }, { 1400, 1, 700 }, { 64, 14, 20 },
    };
    dp_packet_batch_init(&batch);
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        p = dp_test_chain(dp_test_pools.std, pattern, sizes[i][0],
                          sizes[i][1], sizes[i][2]);
        assert_non_null(p);
        assert_true(dp_packet_n_segs(p) > 1);
        dp_packet_batch_add(&batch, p);
    }
    assert_int_equal(netdev_send(netdev, 0, &batch, false), 0);
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        p = netdev_dummy_pop_sent(netdev);
        assert_non_null(p);
        assert_true(dp_packet_is_linear(p));
        assert_true(dp_test_equal(p, pattern, sizes[i][0]));
        dp_packet_free(p);
    }

    /* Too long for one 64-byte segment: dropped and counted. */
    p = dp_test_chain(dp_test_pools.tiny, pattern, 300, 64, 64);
    assert_non_null(p);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, p);
    dp_packet_batch_add(&batch, dp_packet_alloc_data(dp_test_pools.std,
                                                     pattern, 60));
    assert_int_equal(netdev_send(netdev, 0, &batch, false), 0);
    assert_int_equal(batch.count, 0);
    assert_int_equal(netdev->tx_linearize_drops, 1);
    p = netdev_dummy_pop_sent(netdev);
    assert_non_null(p);
    assert_true(dp_test_equal(p, pattern, 60));
    dp_packet_free(p);
    assert_null(netdev_dummy_pop_sent(netdev));

    assert_int_equal(netdev_get_custom_stats(netdev, &custom), 0);
    assert_int_equal(custom.n, 1);
    assert_string_equal(custom.counters[0].name, "ovs_tx_linearize_drops");
    assert_int_equal(custom.counters[0].value, 1);
    netdev_custom_stats_destroy(&custom);

    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.tx_packets, 4);
    assert_int_equal(stats.tx_bytes, 300 + 1400 + 64 + 60);

    /* With NETDEV_TX_MULTI_SEG the chain goes as it is. */
    netdev_dummy_set_tx_caps(netdev, NETDEV_TX_MULTI_SEG);
    p = dp_test_chain(dp_test_pools.tiny, pattern, 300, 64, 64);
    send_one(netdev, p);
    p = netdev_dummy_pop_sent(netdev);
    assert_non_null(p);
    assert_true(dp_packet_n_segs(p) > 1);
    assert_true(dp_test_equal(p, pattern, 300));
    dp_packet_free(p);
    assert_int_equal(netdev->tx_linearize_drops, 1);

    netdev_close(netdev);
}

/* A port whose class gives a copy pool (as "dpdk" ports without
 * MULTI_SEGS do) gets chains too long for one segment of their own pool
 * copied into one mbuf of it, byte for byte; chains longer than the port
 * takes pass on for its MTU check to drop; when the copy pool is empty the
 * chain is dropped and counted in ovs_tx_linearize_drops and tx_dropped. */
static void
test_send_chain_copies(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p9", "dummy");
    struct netdev_stats stats;
    struct dp_packet *p;

    assert_int_equal(netdev_set_mtu(netdev, 9000, NULL), 0);
    netdev_dummy_set_keep_sent(netdev, 8);
    netdev->tx_copy_pool = dp_test_pools.jumbo;
    netdev->tx_copy_max = 9000 + 18;

    /* Chains of 2 to 6 segments of 2 KB (made linear in place when they
     * fit one, headroom given up), and one of 64-byte segments. */
    static const size_t shapes[][3] = {
        { 9000, 2000, 2000 }, { 9000, 1, 2047 }, { 9018, 2048, 2048 },
        { 2100, 2000, 100 }, { 9000, 64, 64 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
        p = dp_test_chain(shapes[i][2] == 64 ? dp_test_pools.tiny
                          : dp_test_pools.std, pattern, shapes[i][0],
                          shapes[i][1], shapes[i][2]);
        assert_non_null(p);
        assert_true(dp_packet_n_segs(p) > 1);
        p->md.in_port = 7;
        send_one(netdev, p);
        p = netdev_dummy_pop_sent(netdev);
        assert_non_null(p);
        assert_true(dp_packet_is_linear(p));
        assert_ptr_equal(p->mbuf.pool, shapes[i][0] > 2176
                         ? dp_test_pools.jumbo : dp_test_pools.std);
        assert_int_equal(p->md.in_port, 7);
        assert_true(dp_test_equal(p, pattern, shapes[i][0]));
        dp_packet_free(p);
    }
    assert_int_equal(netdev->tx_linearize_drops, 0);

    /* Longer than the port takes: its MTU check drops it. */
    p = dp_test_chain(dp_test_pools.std, pattern, 9000, 2000, 2000);
    assert_int_equal(dp_packet_put(p, pattern, 19), 0);
    send_one(netdev, p);
    assert_null(netdev_dummy_pop_sent(netdev));
    assert_int_equal(netdev->tx_linearize_drops, 0);
    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.tx_dropped, 1);

    /* No buffer left in the copy pool: dropped and counted. */
    struct rte_mempool *small = dp_packet_pool_create("test-copy1", 1,
                                                      9216);
    assert_non_null(small);
    struct dp_packet *hold = dp_packet_alloc(small);
    assert_non_null(hold);
    netdev->tx_copy_pool = small;
    p = dp_test_chain(dp_test_pools.std, pattern, 9000, 2000, 2000);
    send_one(netdev, p);
    assert_null(netdev_dummy_pop_sent(netdev));
    assert_int_equal(netdev->tx_linearize_drops, 1);
    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.tx_dropped, 2);
    assert_int_equal(stats.tx_packets, 5);

    /* And the next one, once a buffer is back, is sent. */
    dp_packet_free(hold);
    p = dp_test_chain(dp_test_pools.std, pattern, 9000, 2000, 2000);
    send_one(netdev, p);
    p = netdev_dummy_pop_sent(netdev);
    assert_non_null(p);
    assert_true(dp_test_equal(p, pattern, 9000));
    dp_packet_free(p);
    assert_int_equal(netdev->tx_linearize_drops, 1);

    netdev->tx_copy_pool = NULL;
    netdev_close(netdev);
    dp_packet_pool_destroy(small);
}

/* Frames longer than MTU + Ethernet + VLAN headers are dropped. */
static void
test_send_mtu(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p7", "dummy");
    struct netdev_stats stats;

    netdev_dummy_set_keep_sent(netdev, 2);
    send_one(netdev, dp_packet_alloc_data(dp_test_pools.std, pattern, 1518));
    send_one(netdev, dp_packet_alloc_data(dp_test_pools.std, pattern, 1519));
    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.tx_packets, 1);
    assert_int_equal(stats.tx_dropped, 1);
    netdev_close(netdev);       /* Frees the kept packet. */
}

static void
test_receive(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p8", "dummy-pmd");
    struct smap options = SMAP_INITIALIZER;
    struct netdev_rxq *rxq0, *rxq1, *bad;
    struct dp_packet_batch batch;
    struct netdev_stats stats;
    int qfill;

    smap_add(&options, "n_rxq", "2");
    assert_int_equal(netdev_set_config(netdev, &options, NULL), 0);
    assert_int_equal(netdev_reconfigure(netdev, NULL), 0);
    assert_int_equal(netdev_n_rxq(netdev), 2);

    assert_int_equal(netdev_rxq_open(netdev, &rxq0, 0), 0);
    assert_int_equal(netdev_rxq_open(netdev, &rxq1, 1), 0);
    assert_int_equal(netdev_rxq_open(netdev, &bad, 2), EINVAL);
    assert_null(bad);
    assert_int_equal(netdev->ref_cnt, 3);
    assert_ptr_equal(netdev_rxq_get_netdev(rxq1), netdev);
    assert_int_equal(netdev_rxq_get_queue_id(rxq1), 1);

    /* 40 packets on queue 1: a burst of 32, then 8. */
    for (int i = 0; i < 40; i++) {
        struct dp_packet *p = dp_packet_alloc_data(dp_test_pools.std,
                                                   pattern, 60 + i);
        p->md.l4_csum = DP_CSUM_BAD;    /* Kept as given. */
        assert_int_equal(netdev_dummy_queue_packet(netdev, 1, p), 0);
    }
    assert_int_equal(netdev_dummy_queue_packet(
                         netdev, 2, dp_packet_alloc(dp_test_pools.std)),
                     EINVAL);

    assert_int_equal(netdev_rxq_recv(rxq0, &batch, &qfill), EAGAIN);
    assert_int_equal(batch.count, 0);
    assert_int_equal(netdev_rxq_recv(rxq1, &batch, &qfill), 0);
    assert_int_equal(batch.count, 32);
    assert_int_equal(qfill, 8);
    for (size_t i = 0; i < batch.count; i++) {
        assert_true(dp_test_equal(batch.packets[i], pattern, 60 + i));
        assert_int_equal(batch.packets[i]->md.l4_csum, DP_CSUM_BAD);
    }
    dp_packet_batch_free(&batch);
    assert_int_equal(netdev_rxq_recv(rxq1, &batch, NULL), 0);
    assert_int_equal(batch.count, 8);
    assert_true(dp_test_equal(batch.packets[7], pattern, 60 + 39));
    dp_packet_batch_free(&batch);
    assert_int_equal(netdev_rxq_recv(rxq1, &batch, &qfill), EAGAIN);
    assert_int_equal(qfill, 0);

    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.rx_packets, 40);
    assert_int_equal(stats.rx_bytes, 40 * 60 + 39 * 40 / 2);

    /* Packets still queued when the netdev goes away are freed. */
    netdev_dummy_queue_packet(netdev, 0, dp_packet_alloc(dp_test_pools.std));
    netdev_rxq_close(rxq0);
    netdev_rxq_close(rxq1);
    netdev_rxq_close(NULL);
    assert_int_equal(netdev->ref_cnt, 1);
    smap_destroy(&options);
    netdev_close(netdev);
}

struct delayed {
    struct netdev *netdev;
    int what;                   /* 0: reconfigure request, 1: packet. */
};

static void *
delayed_thread(void *d_)
{
    struct delayed *d = d_;

    usleep(100 * 1000);
    if (d->what == 0) {
        netdev_request_reconfigure(d->netdev);
    } else {
        netdev_dummy_queue_packet(d->netdev, 0,
                                  dp_packet_alloc(dp_test_pools.std));
    }
    return NULL;
}

/* Blocks in poll_block() with a 'timeout_ms' timer and returns how long it
 * took. */
static long long int
timed_poll_block(long long int timeout_ms)
{
    long long int start = time_msec();

    poll_timer_wait(timeout_ms);
    poll_block();
    return time_msec() - start;
}

static void
test_reconf_wait(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p9", "dummy-pmd");
    struct delayed d = { netdev, 0 };
    uint64_t seq = netdev_reconf_seq();
    pthread_t thread;

    /* Nothing requested: the wait does not wake early. */
    netdev_reconf_wait(seq);
    assert_true(timed_poll_block(150) >= 100);

    /* A request in this thread: the sequence moved, wake at once. */
    netdev_request_reconfigure(netdev);
    assert_true(netdev_reconf_seq() != seq);
    assert_true(netdev_is_reconf_required(netdev));
    netdev_reconf_wait(seq);
    assert_true(timed_poll_block(5000) < 1000);

    /* Waiting on the current sequence while another thread requests. */
    seq = netdev_reconf_seq();
    netdev_reconf_wait(seq);
    netdev_reconf_wait(seq);    /* Twice is harmless. */
    pthread_create(&thread, NULL, delayed_thread, &d);
    long long int elapsed = timed_poll_block(5000);
    pthread_join(thread, NULL);
    assert_true(elapsed < 2500);
    assert_true(netdev_reconf_seq() != seq);

    assert_int_equal(netdev_reconfigure(netdev, NULL), 0);
    assert_false(netdev_is_reconf_required(netdev));

    /* The latch was consumed: waiting on the new sequence sleeps. */
    netdev_reconf_wait(netdev_reconf_seq());
    assert_true(timed_poll_block(150) >= 100);
    netdev_close(netdev);
}

static void
test_rxq_wait(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p10", "dummy");
    struct delayed d = { netdev, 1 };
    struct dp_packet_batch batch;
    struct netdev_rxq *rxq;
    pthread_t thread;

    assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), 0);

    /* Empty: sleeps. */
    netdev_rxq_wait(rxq);
    assert_true(timed_poll_block(150) >= 100);

    /* A packet from another thread wakes the poller. */
    netdev_rxq_wait(rxq);
    pthread_create(&thread, NULL, delayed_thread, &d);
    long long int elapsed = timed_poll_block(5000);
    pthread_join(thread, NULL);
    assert_true(elapsed < 2500);

    /* Queued already: wakes at once. */
    netdev_rxq_wait(rxq);
    assert_true(timed_poll_block(5000) < 1000);
    assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), 0);
    assert_int_equal(batch.count, 1);
    dp_packet_batch_free(&batch);

    netdev_rxq_close(rxq);
    netdev_close(netdev);
}

/* Reads every record of 'file_name' into 'sizes' and checks each against
 * 'pattern'.  Returns the number of records. */
static size_t
read_pcap(const char *file_name, size_t *sizes, size_t max)
{
    struct pcap_file *pf;
    size_t n = 0;
    size_t size;
    void *data;
    int error;

    assert_int_equal(pcap_file_open_read(file_name, &pf), 0);
    while (!(error = pcap_file_read_data(pf, &data, &size, NULL))) {
        assert_true(n < max);
        assert_memory_equal(data, pattern, size);
        sizes[n++] = size;
        free(data);
    }
    assert_int_equal(error, EOF);
    pcap_file_close(pf);
    return n;
}

static void
test_pcap_options(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p11", "dummy");
    struct smap options = SMAP_INITIALIZER;
    struct smap config = SMAP_INITIALIZER;
    char tx_name[] = "/tmp/test-netdev-tx-XXXXXX";
    char rx_name[] = "/tmp/test-netdev-rx-XXXXXX";
    struct dp_packet_batch batch;
    struct netdev_rxq *rxq;
    size_t sizes[8];

    close(mkstemp(tx_name));
    close(mkstemp(rx_name));
    smap_add(&options, "tx_pcap", tx_name);
    smap_add(&options, "rxq_pcap", rx_name);
    assert_int_equal(netdev_set_config(netdev, &options, NULL), 0);
    /* Like Open vSwitch's, the configuration dpif/show prints leaves the
     * capture files out. */
    assert_int_equal(netdev_get_config(netdev, &config), 0);
    assert_true(smap_is_empty(&config));

    /* A chain is recorded whole, even on a port that linearizes it. */
    send_one(netdev, dp_test_chain(dp_test_pools.std, pattern, 500, 100,
                                   100));
    netdev_dummy_set_tx_caps(netdev, NETDEV_TX_MULTI_SEG);
    send_one(netdev, dp_test_chain(dp_test_pools.tiny, pattern, 1000, 64,
                                   64));
    assert_int_equal(netdev_dummy_queue_packet(
                         netdev, 0, dp_packet_alloc_data(dp_test_pools.std,
                                                         pattern, 77)), 0);

    /* Readable while open: each record is flushed. */
    assert_int_equal(read_pcap(tx_name, sizes, 8), 2);
    assert_int_equal(sizes[0], 500);
    assert_int_equal(sizes[1], 1000);
    assert_int_equal(read_pcap(rx_name, sizes, 8), 1);
    assert_int_equal(sizes[0], 77);

    /* The same options again do not truncate the files. */
    assert_int_equal(netdev_set_config(netdev, &options, NULL), 0);
    assert_int_equal(read_pcap(tx_name, sizes, 8), 2);

    assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), 0);
    assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), 0);
    dp_packet_batch_free(&batch);
    netdev_rxq_close(rxq);

    /* "pcap" sets both to one file. */
    smap_clear(&options);
    smap_add(&options, "pcap", tx_name);
    assert_int_equal(netdev_set_config(netdev, &options, NULL), 0);
    assert_int_equal(netdev_get_config(netdev, &config), 0);
    assert_true(smap_is_empty(&config));
    assert_int_equal(read_pcap(tx_name, sizes, 8), 2);  /* Kept open. */
    assert_int_equal(netdev_dummy_queue_packet(
                         netdev, 0, dp_packet_alloc_data(dp_test_pools.std,
                                                         pattern, 99)), 0);
    send_one(netdev, dp_packet_alloc_data(dp_test_pools.std, pattern, 98));
    assert_int_equal(read_pcap(tx_name, sizes, 8), 4);
    assert_int_equal(sizes[2], 99);
    assert_int_equal(sizes[3], 98);

    /* No options: files closed, nothing more recorded. */
    assert_int_equal(netdev_set_config(netdev, NULL, NULL), 0);
    assert_int_equal(netdev_get_config(netdev, &config), 0);
    assert_true(smap_is_empty(&config));
    send_one(netdev, dp_packet_alloc_data(dp_test_pools.std, pattern, 97));
    assert_int_equal(read_pcap(tx_name, sizes, 8), 4);

    unlink(tx_name);
    unlink(rx_name);
    smap_destroy(&options);
    smap_destroy(&config);
    netdev_close(netdev);
}

/* One thread queues while another receives, as the main thread and a PMD
 * do; two threads send on one shared tx queue.  Nothing is lost, nothing
 * is reordered, every counter adds up (and ASan sees no race on freed
 * memory). */
#define N_STRESS 5000

static void *
stress_producer(void *netdev_)
{
    struct netdev *netdev = netdev_;

    for (int i = 0; i < N_STRESS; i++) {
        struct dp_packet *p = dp_packet_alloc_data(dp_test_pools.std,
                                                   &i, sizeof i);

        while (!p) {
            usleep(100);
            p = dp_packet_alloc_data(dp_test_pools.std, &i, sizeof i);
        }
        while (netdev_dummy_queue_packet(netdev, 0, p) == ENOBUFS) {
            usleep(100);
            p = dp_packet_alloc_data(dp_test_pools.std, &i, sizeof i);
        }
    }
    return NULL;
}

static void *
stress_sender(void *netdev_)
{
    struct netdev *netdev = netdev_;

    for (int i = 0; i < N_STRESS / 10; i++) {
        struct dp_packet_batch batch;

        /* No cmocka assertions in this thread: the main one checks. */
        dp_packet_batch_init(&batch);
        while (!dp_packet_batch_alloc(dp_test_pools.std, &batch, 10)) {
            usleep(100);        /* The pool is busy with the producer's. */
        }
        for (size_t j = 0; j < batch.count; j++) {
            dp_packet_put(batch.packets[j], pattern, 60);
        }
        netdev_send(netdev, 0, &batch, true);
    }
    return NULL;
}

static void
test_threads(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p30", "dummy-pmd");
    struct dp_packet_batch batch;
    struct netdev_stats stats;
    struct netdev_rxq *rxq;
    pthread_t producer, senders[2];
    int next = 0;

    assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), 0);
    pthread_create(&producer, NULL, stress_producer, netdev);
    for (size_t i = 0; i < ARRAY_SIZE(senders); i++) {
        pthread_create(&senders[i], NULL, stress_sender, netdev);
    }

    long long int deadline = time_msec() + 60000;
    while (next < N_STRESS && time_msec() < deadline) {
        if (!netdev_rxq_recv(rxq, &batch, NULL)) {
            for (size_t i = 0; i < batch.count; i++) {
                int value;

                assert_int_equal(dp_packet_size(batch.packets[i]),
                                 sizeof value);
                dp_packet_copy_out(batch.packets[i], 0, sizeof value,
                                   &value);
                assert_int_equal(value, next);
                next++;
            }
            dp_packet_batch_free(&batch);
        }
    }
    pthread_join(producer, NULL);
    for (size_t i = 0; i < ARRAY_SIZE(senders); i++) {
        pthread_join(senders[i], NULL);
    }
    assert_int_equal(next, N_STRESS);

    assert_int_equal(netdev_get_stats(netdev, &stats), 0);
    assert_int_equal(stats.rx_packets, N_STRESS);
    assert_int_equal(stats.tx_packets, 2 * N_STRESS / 10 * 10);
    assert_int_equal(stats.tx_bytes, 2 * N_STRESS / 10 * 10 * 60);
    netdev_rxq_close(rxq);
    netdev_close(netdev);
}

/* Fewer queues: what the removed ones held is freed (the leak check after
 * each test would notice otherwise); the others keep their packets. */
static void
test_shrink_queues(void **state DPS_UNUSED)
{
    struct netdev *netdev = open_ok("p31", "dummy-pmd");
    struct smap options = SMAP_INITIALIZER;
    struct dp_packet_batch batch;
    struct netdev_rxq *rxq;

    smap_add(&options, "n_rxq", "3");
    assert_int_equal(netdev_set_config(netdev, &options, NULL), 0);
    assert_int_equal(netdev_reconfigure(netdev, NULL), 0);
    for (int q = 0; q < 3; q++) {
        for (int i = 0; i < 5; i++) {
            assert_int_equal(netdev_dummy_queue_packet(
                                 netdev, q, dp_packet_alloc_data(
                                     dp_test_pools.std, pattern, 60 + q)),
                             0);
        }
    }
    smap_add(&options, "n_rxq", "1");
    assert_int_equal(netdev_set_config(netdev, &options, NULL), 0);
    assert_true(netdev_is_reconf_required(netdev));
    assert_int_equal(netdev_reconfigure(netdev, NULL), 0);
    assert_int_equal(netdev_n_rxq(netdev), 1);
    assert_int_equal(netdev_dummy_queue_packet(
                         netdev, 1, dp_packet_alloc(dp_test_pools.std)),
                     EINVAL);
    assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), 0);
    assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), 0);
    assert_int_equal(batch.count, 5);
    assert_true(dp_test_equal(batch.packets[4], pattern, 60));
    dp_packet_batch_free(&batch);
    netdev_rxq_close(rxq);
    smap_destroy(&options);
    netdev_close(netdev);
}

/* unixctl: a client thread sends one command while this thread serves. */
struct appctl {
    const char *path;
    char **argv;
    int argc;
    char *result, *error;
    int retval;
    bool done;
};

static void *
appctl_thread(void *a_)
{
    struct appctl *a = a_;
    struct jsonrpc *client;

    a->retval = unixctl_client_create(a->path, &client);
    if (!a->retval) {
        a->retval = unixctl_client_transact(client, a->argv[0], a->argc - 1,
                                            a->argv + 1, &a->result,
                                            &a->error);
        jsonrpc_close(client);
    }
    __atomic_store_n(&a->done, true, __ATOMIC_RELEASE);
    return NULL;
}

/* Runs the command in 'args' (words separated by single spaces) against
 * 'server'.  Returns its error text (malloc()ed), or NULL on success, with
 * the result in '*resultp' if nonnull. */
static char *
appctl(struct unixctl_server *server, const char *args, char **resultp)
{
    struct appctl a = { .path = unixctl_server_get_path(server) };
    char *copy = xstrdup(args), *save = NULL;
    pthread_t thread;

    a.argv = xmalloc((strlen(args) + 1) * sizeof *a.argv);
    for (char *w = strtok_r(copy, " ", &save); w;
         w = strtok_r(NULL, " ", &save)) {
        a.argv[a.argc++] = w;
    }
    pthread_create(&thread, NULL, appctl_thread, &a);
    while (!__atomic_load_n(&a.done, __ATOMIC_ACQUIRE)) {
        unixctl_server_run(server);
        unixctl_server_wait(server);
        poll_timer_wait(10);
        poll_block();
    }
    pthread_join(thread, NULL);
    assert_int_equal(a.retval, 0);
    free(a.argv);
    free(copy);
    if (resultp) {
        *resultp = a.result;
    } else {
        free(a.result);
    }
    return a.error;
}

/* Runs 'args', which must fail with 'expected' as its error. */
static void
appctl_error(struct unixctl_server *server, const char *args,
             const char *expected)
{
    char *error = appctl(server, args, NULL);

    if (!error) {
        fail_msg("\"%s\" succeeded", args);
    }
    if (!strstr(error, expected)) {
        fail_msg("\"%s\": error \"%s\" lacks \"%s\"", args, error,
                 expected);
    }
    free(error);
}

static void
appctl_ok(struct unixctl_server *server, const char *args,
          const char *expected)
{
    char *result = NULL;
    char *error = appctl(server, args, &result);

    if (error) {
        fail_msg("\"%s\" failed: %s", args, error);
    }
    if (expected) {
        assert_string_equal(result ? result : "", expected);
    }
    free(result);
}

/* Receives exactly 'n' packets from 'rxq' into 'batch'. */
static void
recv_n(struct netdev_rxq *rxq, struct dp_packet_batch *batch, size_t n)
{
    int error = netdev_rxq_recv(rxq, batch, NULL);

    if (!n) {
        assert_int_equal(error, EAGAIN);
    } else {
        assert_int_equal(error, 0);
        assert_int_equal(batch->count, n);
    }
}

static void
test_unixctl(void **state DPS_UNUSED)
{
    struct netdev *p20 = open_ok("p20", "dummy");
    struct netdev *p21 = open_ok("p21", "dummy-pmd");
    struct netdev *not_dummy;
    struct smap options = SMAP_INITIALIZER;
    char path[] = "/tmp/test-netdev-ctl-XXXXXX";
    struct unixctl_server *server;
    struct dp_packet_batch batch;
    struct netdev_rxq *rx20, *rx21;
    enum netdev_flags flags;
    struct ds cmd = DS_EMPTY_INITIALIZER;

    smap_add(&options, "n_rxq", "2");
    assert_int_equal(netdev_set_config(p21, &options, NULL), 0);
    assert_int_equal(netdev_reconfigure(p21, NULL), 0);
    assert_int_equal(netdev_rxq_open(p20, &rx20, 0), 0);
    assert_int_equal(netdev_rxq_open(p21, &rx21, 1), 0);

    close(mkstemp(path));
    unlink(path);
    assert_int_equal(unixctl_server_create(path, &server), 0);
    netdev_dummy_set_pool(dp_test_pools.std);

    /* Hex frames, two in one command, in order. */
    ds_put_cstr(&cmd, "netdev-dummy/receive p20 ");
    ds_put_hex(&cmd, pattern, 60);
    ds_put_char(&cmd, ' ');
    ds_put_hex(&cmd, pattern, 14);
    appctl_ok(server, ds_cstr(&cmd), "");
    recv_n(rx20, &batch, 2);
    assert_true(dp_test_equal(batch.packets[0], pattern, 60));
    assert_true(dp_test_equal(batch.packets[1], pattern, 14));
    /* Checksum states: unknown, as from a device that reports none. */
    assert_int_equal(batch.packets[0]->md.l4_csum, DP_CSUM_UNKNOWN);
    dp_packet_batch_free(&batch);

    /* A flow without --len: a UDP packet with 64 bytes of counting
     * payload, byte for byte what Open vSwitch 3.1 composes. */
    appctl_ok(server, "netdev-dummy/receive p21 --qid 1 " UDP_FLOW, "");
    recv_n(rx21, &batch, 1);
    uint8_t expected[106];
    static const uint8_t headers[42] = {
        0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0x08, 0x00,
        0x45, 0x00, 0x00, 0x5c, 0, 0, 0, 0, 0x40, 0x11, 0x66, 0x8f,
        10, 0, 0, 1, 10, 0, 0, 2,
        0x00, 0x01, 0x00, 0x02, 0x00, 0x48, 0x07, 0x55,
    };
    memcpy(expected, headers, sizeof headers);
    for (int i = 0; i < 64; i++) {
        expected[42 + i] = i;
    }
    assert_int_equal(dp_packet_size(batch.packets[0]), sizeof expected);
    assert_true(dp_test_equal(batch.packets[0], expected, sizeof expected));
    dp_packet_batch_free(&batch);

    /* --len sets the frame length, padding with zeros. */
    appctl_ok(server, "netdev-dummy/receive p20 " UDP_FLOW " --len 1000 "
              UDP_FLOW " --len 60", "");
    recv_n(rx20, &batch, 2);
    assert_int_equal(dp_packet_size(batch.packets[0]), 1000);
    assert_int_equal(dp_packet_size(batch.packets[1]), 60);
    uint8_t tail[958] = { 0 }, got[958];
    assert_int_equal(dp_packet_copy_out(batch.packets[0], 42, 958, got), 0);
    assert_memory_equal(got, tail, sizeof tail);
    dp_packet_batch_free(&batch);

    /* A jumbo frame from a flow arrives as a chain, lengths and checksums
     * right across its segments; so does one with no L4 header. */
    appctl_ok(server, "netdev-dummy/receive p20 " UDP_FLOW " --len 9000 "
              "eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02),"
              "eth_type(0x0800),ipv4(src=10.0.0.1,dst=10.0.0.2,proto=47) "
              "--len 3000", "");
    recv_n(rx20, &batch, 2);
    for (int i = 0; i < 2; i++) {
        struct dp_packet *p = batch.packets[i];
        uint32_t size = i ? 3000 : 9000;
        struct ipv4_header ip;
        struct flow flow;

        assert_int_equal(dp_packet_size(p), size);
        assert_true(dp_packet_n_segs(p) > 1);
        assert_true(dp_test_chain_ok(p));
        flow_extract(p, &flow);
        dp_packet_csum_verify(p);
        assert_int_equal(p->md.ip_csum, DP_CSUM_GOOD);
        assert_int_equal(dp_packet_copy_out(p, 14, sizeof ip, &ip), 0);
        assert_int_equal(ntohs(ip.tot_len), size - 14);
        if (!i) {
            uint16_t udp_len;

            assert_int_equal(p->md.l4_csum, DP_CSUM_GOOD);
            assert_int_equal(dp_packet_copy_out(p, 34 + 4, 2, &udp_len), 0);
            assert_int_equal(ntohs(udp_len), size - 34);
        }
    }
    dp_packet_batch_free(&batch);

    /* Errors, in Open vSwitch's words where it has them.  Nothing is
     * queued by a command that fails. */
    appctl_error(server, "netdev-dummy/receive nope 00", "no such dummy "
                 "netdev");
    appctl_error(server, "netdev-dummy/receive p20 zz", "zz");
    appctl_error(server, "netdev-dummy/receive p20 001122", "001122");
    ds_clear(&cmd);
    ds_put_cstr(&cmd, "netdev-dummy/receive p20 ");
    ds_put_hex(&cmd, pattern, 60);
    ds_put_cstr(&cmd, " eth(junk)");
    appctl_error(server, ds_cstr(&cmd), "eth(junk)");
    appctl_error(server, "netdev-dummy/receive p20 --qid 1 0011",
                 "bad rx queue id.");
    appctl_error(server, "netdev-dummy/receive p21 --qid x 0011",
                 "bad rx queue id.");
    appctl_error(server, "netdev-dummy/receive p20 in_port(1) --len 10",
                 "too small packet len");
    appctl_error(server, "netdev-dummy/receive p20 in_port(1) --len",
                 "too small packet len");
    appctl_error(server, "netdev-dummy/receive p20 eth_type(0x86dd),"
                 "ipv6(src=::1,dst=::2,proto=6),tcp(src=1,dst=2) --len 73",
                 "shorter than the 74 bytes");
    appctl_error(server, "netdev-dummy/receive p20",
                 "requires at least 2 arguments");
    recv_n(rx20, &batch, 0);
    recv_n(rx21, &batch, 0);

    /* A port that is not a dummy one. */
    not_dummy = open_ok("f20", "fake");
    appctl_error(server, "netdev-dummy/receive f20 0011",
                 "no such dummy netdev");
    appctl_error(server, "netdev-dummy/set-admin-state f20 up",
                 "Unknown Dummy Interface");
    netdev_close(not_dummy);

    /* set-admin-state. */
    appctl_ok(server, "netdev-dummy/set-admin-state p20 down", "OK\n");
    assert_int_equal(netdev_get_flags(p20, &flags), 0);
    assert_int_equal(flags, 0);
    assert_int_equal(netdev_get_flags(p21, &flags), 0);
    assert_int_equal(flags, NETDEV_UP);
    appctl_ok(server, "netdev-dummy/set-admin-state DOWN", "OK\n");
    assert_int_equal(netdev_get_flags(p21, &flags), 0);
    assert_int_equal(flags, 0);
    appctl_ok(server, "netdev-dummy/set-admin-state up", "OK\n");
    assert_int_equal(netdev_get_flags(p20, &flags), 0);
    assert_int_equal(flags, NETDEV_UP);
    assert_int_equal(netdev_get_flags(p21, &flags), 0);
    assert_int_equal(flags, NETDEV_UP);
    appctl_error(server, "netdev-dummy/set-admin-state p20 sideways",
                 "Invalid Admin State");
    appctl_error(server, "netdev-dummy/set-admin-state nope up",
                 "Unknown Dummy Interface");
    appctl_error(server, "netdev-dummy/set-admin-state a b c",
                 "at most 2 arguments");

    netdev_dummy_set_pool(NULL);
    unixctl_server_destroy(server);
    ds_destroy(&cmd);
    smap_destroy(&options);
    netdev_rxq_close(rx20);
    netdev_rxq_close(rx21);
    netdev_close(p20);
    netdev_close(p21);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_types),
        DP_TEST(test_open_close),
        DP_TEST(test_override_types),
        DP_TEST(test_minimal_class),
        DP_TEST(test_link_and_flags),
        DP_TEST(test_set_config),
        DP_TEST(test_stats_and_status),
        DP_TEST(test_send_csum),
        DP_TEST(test_send_batch_one_with_work),
        DP_TEST(test_send_chains),
        DP_TEST(test_send_chain_copies),
        DP_TEST(test_send_mtu),
        DP_TEST(test_receive),
        DP_TEST(test_reconf_wait),
        DP_TEST(test_rxq_wait),
        DP_TEST(test_pcap_options),
        DP_TEST(test_unixctl),
        DP_TEST(test_threads),
        DP_TEST(test_shrink_queues),
    };

    util_set_program_name("test-netdev");
    return cmocka_run_group_tests(tests, setup, dp_test_teardown_group);
}
