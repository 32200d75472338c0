/* Unit tests for partial offload: the marked fast path's header parse, the
 * dummy flow API, and a stress test of the offload threads and marks with
 * two PMD threads.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "coverage.h"
#include "dp-flow.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "dpif-netdev-private.h"
#include "dpif-netdev.h"
#include "flow.h"
#include "netdev-dummy.h"
#include "netdev-offload.h"
#include "netdev-provider.h"
#include "netdev.h"
#include "ovs-numa.h"
#include "packets.h"
#include "smap.h"
#include "timeval.h"
#include "util.h"

/* flow_parse_offsets() sets exactly the offsets flow_extract() sets, and
 * returns the TCP flags, for every sample flow, with and without VLAN tags,
 * truncated, and as chains split inside the headers. */
static void
test_parse_offsets(void **state DPS_UNUSED)
{
    struct flow flows[DP_TEST_MAX_FLOWS];
    size_t n = dp_test_sample_flows(flows);
    size_t n_checked = 0;

    for (size_t i = 0; i < n; i++) {
        for (int variant = 0; variant < 4; variant++) {
            struct flow f = flows[i];

            if (variant == 1) {
                f.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
                f.vlan_tci[0] = htons(VLAN_CFI | 7);
            }
            if (f.nw_proto == IPPROTO_TCP_) {
                f.tcp_flags = htons(TCP_SYN | TCP_ACK);
            }
            struct dp_packet *p = flow_compose(dp_test_pools.std, &f, 20);
            assert_non_null(p);
            if (variant == 2 && dp_packet_size(p) > 30) {
                assert_int_equal(dp_packet_trim(p, dp_packet_size(p) - 30),
                                 0);
            }
            if (variant == 3) {
                uint8_t buf[2048];
                size_t size = dp_packet_size(p);

                dp_packet_copy_out(p, 0, size, buf);
                dp_packet_free(p);
                p = dp_test_chain(dp_test_pools.tiny, buf, size, 20, 16);
                assert_non_null(p);
            }

            struct dp_packet_md want;
            struct flow g;
            flow_extract(p, &g);
            want = p->md;

            p->md.l2_ofs = p->md.l3_ofs = p->md.l4_ofs = DP_PACKET_OFS_NONE;
            p->md.l4_proto = 0xee;
            p->md.flags |= DP_PACKET_F_FRAG;
            uint16_t flags = flow_parse_offsets(p);
            assert_int_equal(flags, ntohs(g.tcp_flags));
            assert_int_equal(p->md.l2_ofs, want.l2_ofs);
            assert_int_equal(p->md.l3_ofs, want.l3_ofs);
            assert_int_equal(p->md.l4_ofs, want.l4_ofs);
            assert_int_equal(p->md.l4_proto, want.l4_proto);
            assert_int_equal(p->md.flags & DP_PACKET_F_FRAG,
                             want.flags & DP_PACKET_F_FRAG);
            dp_packet_free(p);
            n_checked++;
        }
    }
    assert_true(n_checked >= 16);
}

/* The dummy flow API: rules are matched on received packets, modified in
 * place, deleted, flushed. */
static void
test_dummy_provider(void **state DPS_UNUSED)
{
    const struct netdev_flow_api *api = &netdev_offload_dummy;
    struct netdev *nd;
    char *err = NULL;

    assert_int_equal(netdev_open("ofl0", "dummy", &nd, &err), 0);
    assert_int_equal(api->init_flow_api(nd), 0);

    struct flow f;
    dp_test_ipv4_flow(&f, IPPROTO_UDP_);
    dp_test_ports(&f, 10, 20);

    struct netdev_offload_match m;
    memset(&m, 0, sizeof m);
    m.mask.nw_dst = htonl(UINT32_MAX);
    m.mask.tp_dst = htons(UINT16_MAX);
    m.mask.in_port = UINT32_MAX;
    m.key.in_port = 7;                  /* Not compared: the port's own. */
    m.key.nw_dst = f.nw_dst;
    m.key.tp_dst = f.tp_dst;
    struct dp_ufid ufid = { { 1, 2, 3, 4 } };
    struct netdev_offload_info info = { .mark = 77, .rxq_id = 0 };
    assert_int_equal(api->flow_put(nd, &m, &ufid, &info), 0);

    /* A rule with recirc_id is refused: the device cannot see it. */
    struct netdev_offload_match m2 = m;
    struct dp_ufid ufid2 = { { 5, 6, 7, 8 } };
    m2.key.recirc_id = 1;
    m2.mask.recirc_id = UINT32_MAX;
    assert_int_equal(api->flow_put(nd, &m2, &ufid2, &info), EOPNOTSUPP);

    for (int round = 0; round < 3; round++) {
        assert_int_equal(netdev_dummy_queue_packet(
                             nd, 0, flow_compose(dp_test_pools.std, &f, 8)),
                         0);
        struct flow g = f;
        g.tp_dst = htons(21);
        assert_int_equal(netdev_dummy_queue_packet(
                             nd, 0, flow_compose(dp_test_pools.std, &g, 8)),
                         0);

        struct netdev_rxq *rxq;
        struct dp_packet_batch batch;
        assert_int_equal(netdev_rxq_open(nd, &rxq, 0), 0);
        dp_packet_batch_init(&batch);
        assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), 0);
        assert_int_equal(batch.count, 2);

        uint32_t mark;
        bool marked = dp_packet_flow_mark(batch.packets[0], &mark);
        if (round < 2) {
            assert_true(marked);
            assert_int_equal(mark, round ? 78 : 77);
            /* As a NIC delivers it: no offsets. */
            assert_int_equal(batch.packets[0]->md.l3_ofs,
                             DP_PACKET_OFS_NONE);
        } else {
            assert_false(marked);
        }
        assert_false(dp_packet_flow_mark(batch.packets[1], &mark));
        dp_packet_batch_free(&batch);
        netdev_rxq_close(rxq);

        if (round == 0) {
            /* Modify: same UFID, new mark. */
            info.mark = 78;
            assert_int_equal(api->flow_put(nd, &m, &ufid, &info), 0);
        } else if (round == 1) {
            struct netdev_offload_flow_state st;

            assert_int_equal(api->flow_get(nd, &ufid, &st), 0);
            assert_true(st.offloaded);
            assert_int_equal(st.n_packets, 2);
            assert_int_equal(api->flow_del(nd, &ufid), 0);
            assert_int_equal(api->flow_del(nd, &ufid), ENOENT);
            assert_int_equal(api->flow_get(nd, &ufid, &st), ENOENT);
        }
    }
    assert_int_equal(api->flow_put(nd, &m, &ufid, &info), 0);
    assert_int_equal(api->flow_flush(nd), 0);
    assert_int_equal(api->flow_del(nd, &ufid), ENOENT);

    api->uninit_flow_api(nd);
    netdev_close(nd);
}

/* The stress test.
 *
 * N_FLOWS megaflows, one per destination address 10.0.1.i, each with
 * actions "set(udp(dst=1000+i)),output:2": a packet executed with another
 * flow's actions leaves with a port that does not match its address.  Two
 * PMD threads receive marked traffic for all of them on two queues of
 * port 1, while this thread deletes every flow, changes their actions
 * (revalidation: modify requests) or deletes some, round after round, so
 * that marks are given back and handed to other flows all the time. */
#define N_FLOWS 48
#define STRESS_ROUNDS 400
#define PACKETS_PER_ROUND 24
#define MAX_IN_FLIGHT 400

static unsigned int stress_gen;

static dps_be32
stress_addr(unsigned int i)
{
    return htonl(0x0a000100 | i);
}

static void
stress_actions(struct dp_actions *actions, uint32_t nw_dst)
{
    unsigned int i = ntohl(nw_dst) & 0xff;

    dp_actions_put_set_l4(actions, IPPROTO_UDP_, DP_SET_L4_DST, 0,
                          htons(1000 + i));
    if (__atomic_load_n(&stress_gen, __ATOMIC_RELAXED) % 2) {
        /* A different action list for the same result: a modify. */
        dp_actions_put_push_vlan(actions, htons(ETH_TYPE_VLAN),
                                 htons(VLAN_CFI | 5));
        dp_actions_put_pop_vlan(actions);
    }
    dp_actions_put_output(actions, 2);
}

static int
stress_upcall(void *aux DPS_UNUSED, const struct flow *flow,
              const struct dp_packet *packet DPS_UNUSED,
              struct dp_actions *actions, struct flow *mask)
{
    stress_actions(actions, flow->nw_dst);
    mask->dl_type = htons(0xffff);
    mask->nw_dst = htonl(UINT32_MAX);
    mask->nw_proto = 0xff;
    return 0;
}

static bool
stress_revalidate(void *aux DPS_UNUSED, const struct flow *key,
                  const struct flow *mask DPS_UNUSED,
                  const struct dp_actions *actions DPS_UNUSED,
                  struct dp_actions *new_actions)
{
    static unsigned int n;

    if (++n % 3 == 0) {
        return false;
    }
    stress_actions(new_actions, key->nw_dst);
    return true;
}

/* Checks the packets port 2 sent.  Returns how many. */
static size_t
stress_check_sent(struct netdev *p2, size_t *n_bad)
{
    struct dp_packet *p;
    size_t n = 0;

    while ((p = netdev_dummy_pop_sent(p2)) != NULL) {
        struct flow f;

        flow_extract(p, &f);
        unsigned int i = ntohl(f.nw_dst) & 0xff;
        if (ntohs(f.tp_dst) != 1000 + i || f.vlan_tci[0]) {
            (*n_bad)++;
        }
        dp_packet_free(p);
        n++;
    }
    return n;
}

static void
test_stress_marks(void **state DPS_UNUSED)
{
    struct dp_netdev *dp;
    struct netdev *ports[3];
    char *err = NULL;

    assert_int_equal(dp_netdev_create(&dp), 0);
    dp_netdev_set_upcall_cb(dp, stress_upcall, NULL);

    struct smap cfg = SMAP_INITIALIZER;
    smap_add(&cfg, "pmd-cpu-mask", "3");
    smap_add(&cfg, "hw-offload", "true");
    smap_add(&cfg, "n-offload-threads", "2");
    smap_add(&cfg, "emc-insert-inv-prob", "1");
    dp_netdev_set_config(dp, &cfg, NULL);
    smap_destroy(&cfg);

    for (int i = 1; i <= 2; i++) {
        char name[8];
        uint32_t port_no = i;

        snprintf(name, sizeof name, "s%d", i);
        assert_int_equal(netdev_open(name, "dummy-pmd", &ports[i], &err), 0);
        if (i == 1) {
            struct smap opts = SMAP_INITIALIZER;

            smap_add(&opts, "n_rxq", "2");
            assert_int_equal(netdev_set_config(ports[i], &opts, &err), 0);
            smap_destroy(&opts);
        }
        assert_int_equal(dp_netdev_port_add(dp, ports[i], &port_no, &err),
                         0);
        netdev_dummy_set_keep_sent(ports[i], 100000);
    }
    for (int i = 0; i < 200 && dp->n_pmds < 2; i++) {
        dp_netdev_run(dp);
        usleep(1000);
    }
    assert_int_equal(dp->n_pmds, 2);

    unsigned long long int puts_before = 0, puts_after = 0;
    coverage_read("dpif_offload_put", &puts_before);

    size_t n_queued = 0, n_sent = 0, n_bad = 0;
    unsigned int seed = 12345;
    for (int round = 0; round < STRESS_ROUNDS; round++) {
        for (int k = 0; k < PACKETS_PER_ROUND
                        && n_queued - n_sent < MAX_IN_FLIGHT; k++) {
            struct flow f;
            unsigned int i;

            seed = seed * 1103515245 + 12345;
            i = 1 + (seed >> 16) % N_FLOWS;
            dp_test_ipv4_flow(&f, IPPROTO_UDP_);
            dp_test_ports(&f, 7, 9);
            f.nw_dst = stress_addr(i);
            struct dp_packet *p = flow_compose(dp_test_pools.std, &f, 8);
            if (!p) {
                break;
            }
            if (!netdev_dummy_queue_packet(ports[1], k % 2, p)) {
                n_queued++;
            }
        }
        switch (round % 8) {
        case 0:
            dp_netdev_flush_flows(dp);
            break;
        case 3:
            __atomic_add_fetch(&stress_gen, 1, __ATOMIC_RELAXED);
            dp_netdev_revalidate(dp, stress_revalidate, NULL);
            break;
        case 6:
            dp_netdev_revalidate(dp, stress_revalidate, NULL);
            break;
        default:
            break;
        }
        dp_netdev_run(dp);
        n_sent += stress_check_sent(ports[2], &n_bad);
        usleep(200);
    }
    long long int deadline = time_msec() + 10000;
    while (n_sent < n_queued && time_msec() < deadline) {
        dp_netdev_run(dp);
        n_sent += stress_check_sent(ports[2], &n_bad);
        usleep(1000);
    }
    coverage_read("dpif_offload_put", &puts_after);

    uint64_t phwol = 0;
    for (size_t i = 0; i < dp->n_pmds; i++) {
        uint64_t s[PMD_N_STATS];

        dp_netdev_pmd_get_stats(dp->pmds[i], s);
        phwol += s[PMD_STAT_PHWOL_HIT];
    }
    print_message("stress: %zu packets, %"PRIu64" found by mark, %llu "
                  "offloads, %zu misdirected\n", n_sent, phwol,
                  puts_after - puts_before, n_bad);

    assert_int_equal(n_bad, 0);
    assert_int_equal(n_sent, n_queued);
    /* The test means something only if marks were used and reused. */
    assert_true(phwol > n_sent / 10);
    assert_true(puts_after - puts_before > 2 * N_FLOWS);

    dp_netdev_destroy(dp);
    for (int i = 1; i <= 2; i++) {
        stress_check_sent(ports[i], &n_bad);
        netdev_dummy_set_keep_sent(ports[i], 0);
        netdev_close(ports[i]);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_parse_offsets),
        DP_TEST(test_dummy_provider),
        DP_TEST(test_stress_marks),
    };

    dp_test_init("test-offload");
    netdev_dummy_register(NETDEV_DUMMY_ON);
    char *err = ovs_numa_set_dummy("0,0");
    assert_null(err);
    return cmocka_run_group_tests_name("offload", tests, NULL,
                                       dp_test_teardown_group);
}
