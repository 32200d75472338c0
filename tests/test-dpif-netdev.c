/* Unit tests for lib/dpif-netdev.c: the datapath in this process, with
 * dummy ports, a scripted slow path and, for the PMD tests, real PMD
 * threads on a dummy NUMA topology.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "dp-flow.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "dpif-netdev-private.h"
#include "dpif-netdev.h"
#include "dynamic-string.h"
#include "flow.h"
#include "jsonrpc.h"
#include "poll-loop.h"
#include "unixctl.h"
#include "netdev-dummy.h"
#include "netdev-provider.h"
#include "netdev.h"
#include "ovs-numa.h"
#include "packets.h"
#include "smap.h"
#include "timeval.h"
#include "util.h"

/* The scripted slow path: every upcall gets 'actions' and a mask of in_port,
 * dl_type and Ethernet destination (plus the VLAN TCI word); counts. */
static struct dp_actions slow_actions;
static int slow_error;
static unsigned int n_upcalls;
static struct flow slow_extra_mask;     /* More bits for every mask. */
static bool slow_simple;                /* Masks of "in_port=N,actions=..."
                                         * flows instead: simple match. */

static int
slow_upcall(void *aux DPS_UNUSED, const struct flow *flow,
            const struct dp_packet *packet DPS_UNUSED,
            struct dp_actions *actions, struct flow *mask)
{
    __atomic_add_fetch(&n_upcalls, 1, __ATOMIC_RELAXED);
    assert_int_not_equal(flow->in_port, 0);
    if (slow_error) {
        return slow_error;
    }
    for (size_t i = 0; i < slow_actions.n_actions; i++) {
        const struct dp_action *a = &slow_actions.actions[i];
        struct dp_action *b;

        switch (a->type) {
        case DP_ACTION_OUTPUT:
            dp_actions_put_output(actions, a->port);
            break;
        default:
            /* Copy any other action as it is. */
            dp_actions_put_pop_vlan(actions);
            b = &actions->actions[actions->n_actions - 1];
            *b = *a;
            break;
        }
    }
    if (slow_simple) {
        /* What Open vSwitch's slow path (and ours) matches for a flow
         * that looks at the input port alone. */
        mask->dl_type = htons(0xffff);
        mask->vlan_tci[0] = htons(VLAN_CFI);
        if (flow->dl_type == htons(ETH_TYPE_IP)
            || flow->dl_type == htons(ETH_TYPE_IPV6)) {
            mask->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
        }
    } else {
        memset(&mask->dl_dst, 0xff, sizeof mask->dl_dst);
        mask->dl_type = htons(0xffff);
        mask->vlan_tci[0] = htons(0xffff);
    }

    const uint8_t *extra = (const uint8_t *) &slow_extra_mask;
    for (size_t i = 0; i < sizeof *mask; i++) {
        ((uint8_t *) mask)[i] |= extra[i];
    }
    return 0;
}

/* A datapath with dummy ports p1, p2, p3 (numbers 1, 2, 3), every packet
 * they send kept. */
struct fixture {
    struct dp_netdev *dp;
    struct netdev *ports[4];
};

/* The fixture in use, so that a test that failed half-way does not make
 * the following ones fail too. */
static struct fixture live_fixture;
static bool fixture_live;

static void fixture_destroy(struct fixture *);

static void
fixture_init(struct fixture *fx, const char *type, const char *other_config)
{
    if (fixture_live) {
        fixture_destroy(&live_fixture);
    }
    memset(fx, 0, sizeof *fx);
    assert_int_equal(dp_netdev_create(&fx->dp), 0);
    dp_netdev_set_upcall_cb(fx->dp, slow_upcall, NULL);

    struct smap cfg = SMAP_INITIALIZER;
    char *copy = xstrdup(other_config);
    char *save = NULL;
    for (char *kv = strtok_r(copy, " ", &save); kv;
         kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        *eq = '\0';
        smap_add(&cfg, kv, eq + 1);
    }
    free(copy);
    dp_netdev_set_config(fx->dp, &cfg, NULL);
    smap_destroy(&cfg);

    for (int i = 1; i <= 3; i++) {
        char name[8];
        char *err = NULL;
        uint32_t port_no = i;

        snprintf(name, sizeof name, "p%d", i);
        assert_int_equal(netdev_open(name, type, &fx->ports[i], &err), 0);
        assert_int_equal(dp_netdev_port_add(fx->dp, fx->ports[i], &port_no,
                                            &err), 0);
        assert_int_equal(port_no, i);
        netdev_dummy_set_keep_sent(fx->ports[i], 100000);
    }
    dp_actions_clear(&slow_actions);
    slow_error = 0;
    n_upcalls = 0;
    slow_simple = false;
    memset(&slow_extra_mask, 0, sizeof slow_extra_mask);
    live_fixture = *fx;
    fixture_live = true;
}

static void
fixture_destroy(struct fixture *fx)
{
    fixture_live = false;
    dp_netdev_destroy(fx->dp);
    for (int i = 1; i <= 3; i++) {
        struct dp_packet *p;

        while ((p = netdev_dummy_pop_sent(fx->ports[i])) != NULL) {
            dp_packet_free(p);
        }
        netdev_dummy_set_keep_sent(fx->ports[i], 0);
        netdev_close(fx->ports[i]);
    }
    dp_actions_destroy(&slow_actions);
}

static struct dp_packet *
make_packet(const struct flow *f)
{
    struct dp_packet *p = flow_compose(dp_test_pools.std, f, 18);
    assert_non_null(p);
    return p;
}

static void
sample_flow(struct flow *f, uint8_t dst_last)
{
    dp_test_ipv4_flow(f, IPPROTO_UDP_);
    dp_test_ports(f, 1000, 2000);
    f->dl_dst.ea[5] = dst_last;
}

/* Sends 'f' into port 'port' of the main-thread polled fixture. */
static void
inject(struct fixture *fx, int port, const struct flow *f)
{
    assert_int_equal(netdev_dummy_queue_packet(fx->ports[port], 0,
                                               make_packet(f)), 0);
}

/* Injects the packet of 'f' on port 'port' and runs the datapath once. */
static void
send_and_run(struct fixture *fx, int port, const struct flow *f)
{
    inject(fx, port, f);
    dp_netdev_run(fx->dp);
}

/* The set-up most tests start from: dummy ports, the datapath configured
 * with 'other_config', the slow path's actions sending to p2, '*f' the
 * sample flow towards p2, sent once from p1 (one upcall, one packet out of
 * p2, a megaflow installed). */
static void
fixture_init_forwarding(struct fixture *fx, const char *other_config,
                        struct flow *f)
{
    fixture_init(fx, "dummy", other_config);
    dp_actions_put_output(&slow_actions, 2);
    sample_flow(f, 2);
    send_and_run(fx, 1, f);
}

/* Asserts that the datapath of 'fx' has 'n' flows. */
static void
assert_n_flows(struct fixture *fx, uint64_t n)
{
    struct dp_netdev_stats ds;

    dp_netdev_get_stats(fx->dp, &ds);
    assert_int_equal(ds.n_flows, n);
}

static size_t
count_sent(struct fixture *fx, int port, const struct flow *expect)
{
    struct dp_packet *p;
    size_t n = 0;

    while ((p = netdev_dummy_pop_sent(fx->ports[port])) != NULL) {
        if (expect) {
            struct dp_packet *e = make_packet(expect);
            uint8_t *buf = xmalloc(dp_packet_size(e));

            assert_int_equal(dp_packet_copy_out(e, 0, dp_packet_size(e),
                                                buf), 0);
            assert_true(dp_test_equal(p, buf, dp_packet_size(e)));
            free(buf);
            dp_packet_free(e);
        }
        dp_packet_free(p);
        n++;
    }
    return n;
}

static void
main_stats(struct fixture *fx, uint64_t stats[PMD_N_STATS])
{
    dp_netdev_pmd_get_stats(fx->dp->main_pmd, stats);
}

/* A packet on p1 leaves on p2 with the upcall's actions; the next one of
 * the same flow hits the EMC, one of another microflow in the same
 * megaflow hits the classifier. */
static void
test_forward_and_caches(void **state DPS_UNUSED)
{
    struct fixture fx;
    uint64_t s[PMD_N_STATS];
    struct flow f;

    fixture_init_forwarding(&fx, "emc-insert-inv-prob=1", &f);
    f.in_port = 0;              /* flow_compose() ignores it. */
    assert_int_equal(count_sent(&fx, 2, &f), 1);
    assert_int_equal(count_sent(&fx, 3, NULL), 0);
    assert_int_equal(n_upcalls, 1);

    send_and_run(&fx, 1, &f);
    assert_int_equal(count_sent(&fx, 2, &f), 1);

    /* Another source: same megaflow (the mask ignores it), new microflow. */
    f.nw_src = htonl(0x0a000099);
    inject(&fx, 1, &f);
    send_and_run(&fx, 1, &f);
    assert_int_equal(count_sent(&fx, 2, &f), 2);
    assert_int_equal(n_upcalls, 1);

    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_RECV], 4);
    assert_int_equal(s[PMD_STAT_MISS], 1);
    assert_int_equal(s[PMD_STAT_LOST], 0);
    /* Second packet: EMC.  Third and fourth, in one burst: both looked up
     * in the EMC before the classifier inserted the third. */
    assert_int_equal(s[PMD_STAT_EXACT_HIT], 1);
    assert_int_equal(s[PMD_STAT_MASKED_HIT], 2);
    assert_int_equal(s[PMD_STAT_SENT_PKTS], 4);

    /* Now it is in the EMC. */
    send_and_run(&fx, 1, &f);
    assert_int_equal(count_sent(&fx, 2, &f), 1);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_EXACT_HIT], 2);

    struct dp_netdev_stats ds;
    dp_netdev_get_stats(fx.dp, &ds);
    assert_int_equal(ds.n_hit, 4);
    assert_int_equal(ds.n_missed, 1);
    assert_int_equal(ds.n_flows, 1);

    /* A different destination is another megaflow. */
    sample_flow(&f, 3);
    send_and_run(&fx, 1, &f);
    assert_int_equal(n_upcalls, 2);
    assert_n_flows(&fx, 2);

    fixture_destroy(&fx);
}

/* Port numbers, names and errors; deleting a port that flows output to
 * while a PMD forwards. */
static void
test_ports(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct dp_netdev *dp2;
    struct netdev *nd;
    char *err = NULL;
    uint32_t no;

    fixture_init(&fx, "dummy-pmd", "pmd-cpu-mask=1");
    assert_int_equal(dp_netdev_create(&dp2), EEXIST);
    assert_ptr_equal(dp_netdev_port_get_netdev(fx.dp, 2), fx.ports[2]);
    assert_null(dp_netdev_port_get_netdev(fx.dp, 9));
    assert_string_equal(netdev_get_name(dp_netdev_port_get_netdev(fx.dp, 0)),
                        "ovs-netdev");

    no = DP_PORT_NONE;
    assert_int_equal(dp_netdev_port_add(fx.dp, fx.ports[1], &no, &err),
                     EEXIST);
    assert_non_null(err);
    free(err);

    assert_int_equal(netdev_open("p9", "dummy", &nd, &err), 0);
    no = 2;
    assert_int_equal(dp_netdev_port_add(fx.dp, nd, &no, &err), EBUSY);
    free(err);
    /* With dummy ports enabled, the number in the name, as Open vSwitch
     * gives them in tests. */
    no = DP_PORT_NONE;
    assert_int_equal(dp_netdev_port_add(fx.dp, nd, &no, &err), 0);
    assert_int_equal(no, 9);
    no = 100;
    assert_int_equal(dp_netdev_port_del(fx.dp, 9), 0);
    assert_int_equal(dp_netdev_port_add(fx.dp, nd, &no, &err), 0);
    assert_int_equal(no, 100);
    assert_int_equal(dp_netdev_port_del(fx.dp, 100), 0);
    assert_int_equal(dp_netdev_port_del(fx.dp, 100), ENOENT);
    assert_int_equal(dp_netdev_port_del(fx.dp, 0), EINVAL);
    netdev_close(nd);

    /* Port 2 goes away under traffic: its packets are dropped, counted. */
    struct flow f;
    uint64_t s[PMD_N_STATS];
    size_t n = 0;

    dp_actions_put_output(&slow_actions, 2);
    sample_flow(&f, 2);
    for (int i = 0; i < 100; i++) {
        assert_int_equal(netdev_dummy_queue_packet(fx.ports[1], 0,
                                                   make_packet(&f)), 0);
        if (i == 50) {
            assert_int_equal(dp_netdev_port_del(fx.dp, 2), 0);
        }
    }
    long long int deadline = time_msec() + 10000;
    do {
        dp_netdev_run(fx.dp);
        usleep(1000);
        n += count_sent(&fx, 2, NULL);
        dp_netdev_pmd_get_stats(fx.dp->pmds[0], s);
    } while (n + s[PMD_STAT_DROP_NO_PORT] < 100 && time_msec() < deadline);
    assert_int_equal(s[PMD_STAT_RECV], 100);
    assert_int_equal(n + s[PMD_STAT_DROP_NO_PORT], 100);
    assert_true(s[PMD_STAT_DROP_NO_PORT] >= 49);

    /* fixture_destroy() closes what it opened: give port 2 back. */
    no = 2;
    assert_int_equal(dp_netdev_port_add(fx.dp, fx.ports[2], &no, &err), 0);
    fixture_destroy(&fx);
}

/* Failed upcalls drop the packet, install nothing and are counted;
 * output to a port that does not exist drops and counts. */
static void
test_failed_upcall_and_missing_port(void **state DPS_UNUSED)
{
    struct fixture fx;
    uint64_t s[PMD_N_STATS];
    struct flow f;

    fixture_init(&fx, "dummy", "");
    slow_error = EIO;
    sample_flow(&f, 2);
    send_and_run(&fx, 1, &f);
    assert_int_equal(count_sent(&fx, 2, NULL), 0);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_LOST], 1);
    assert_int_equal(s[PMD_STAT_MISS], 0);

    struct dp_netdev_stats ds;
    dp_netdev_get_stats(fx.dp, &ds);
    assert_int_equal(ds.n_flows, 0);
    assert_int_equal(ds.n_lost, 1);

    slow_error = 0;
    dp_actions_put_output(&slow_actions, 77);
    dp_actions_put_output(&slow_actions, 3);
    inject(&fx, 1, &f);
    send_and_run(&fx, 1, &f);
    assert_int_equal(count_sent(&fx, 3, NULL), 2);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_DROP_NO_PORT], 2);

    fixture_destroy(&fx);
}

/* VLAN push and pop and set-field actions produce exactly the bytes
 * expected; rewritten IPv4 and L4 checksums come out right. */
static void
test_vlan_and_set_field(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct flow f, out;

    fixture_init(&fx, "dummy", "");
    dp_actions_put_push_vlan(&slow_actions, htons(ETH_TYPE_VLAN),
                             htons(VLAN_CFI | 10 | (3 << VLAN_PCP_SHIFT)));
    dp_actions_put_output(&slow_actions, 2);
    dp_actions_put_pop_vlan(&slow_actions);
    struct eth_addr src = { { 0x02, 0, 0, 0, 0, 0x11 } };
    dp_actions_put_set_eth(&slow_actions, &src, NULL);
    dp_actions_put_set_ipv4(&slow_actions, DP_SET_IPV4_DST | DP_SET_IPV4_TTL,
                            0, htonl(0x0a0a0a0a), 0, 9);
    dp_actions_put_set_l4(&slow_actions, IPPROTO_UDP_, DP_SET_L4_DST, 0,
                          htons(53));
    dp_actions_put_output(&slow_actions, 3);

    struct ds s = DS_EMPTY_INITIALIZER;
    dp_actions_format(&slow_actions, &s);
    assert_string_equal(ds_cstr(&s),
                        "push_vlan(vid=10,pcp=3),2,pop_vlan,"
                        "set(eth(src=02:00:00:00:00:11)),"
                        "set(ipv4(dst=10.10.10.10,ttl=9)),"
                        "set(udp(dst=53)),3");
    ds_destroy(&s);

    sample_flow(&f, 2);
    for (int i = 0; i < 2; i++) {
        inject(&fx, 1, &f);
        dp_netdev_run(fx.dp);
    }

    /* Port 2: the packet with a tag. */
    out = f;
    out.in_port = 0;
    out.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
    out.vlan_tci[0] = htons(VLAN_CFI | 10 | (3 << VLAN_PCP_SHIFT));
    assert_int_equal(count_sent(&fx, 2, &out), 2);

    /* Port 3: untagged again, rewritten, with good checksums once the
     * partial ones are completed (flow_compose() computes them). */
    out = f;
    out.in_port = 0;
    out.dl_src = src;
    out.nw_dst = htonl(0x0a0a0a0a);
    out.nw_ttl = 9;
    out.tp_dst = htons(53);

    struct dp_packet *p;
    size_t n = 0;
    while ((p = netdev_dummy_pop_sent(fx.ports[3])) != NULL) {
        struct dp_packet *e = make_packet(&out);
        uint8_t *buf = xmalloc(dp_packet_size(e));

        dp_packet_copy_out(e, 0, dp_packet_size(e), buf);
        assert_true(dp_test_equal(p, buf, dp_packet_size(e)));
        free(buf);
        dp_packet_free(e);
        dp_packet_free(p);
        n++;
    }
    assert_int_equal(n, 2);
    fixture_destroy(&fx);
}

/* Revalidation replaces actions or deletes flows. */
static uint32_t reval_port;

static bool
reval_cb(void *aux DPS_UNUSED, const struct flow *key, const struct flow *mask,
         const struct dp_actions *actions, struct dp_actions *new_actions)
{
    assert_int_equal(mask->in_port, UINT32_MAX);
    assert_int_equal(key->in_port, 1);
    assert_int_equal(actions->n_actions, 1);
    if (!reval_port) {
        return false;
    }
    dp_actions_put_output(new_actions, reval_port);
    return true;
}

/* Keeps every flow, alternating its output between ports 2 and 3... but
 * port 3 is a port packets come in on: output to 2 always. */
static bool
reval_any_cb(void *aux DPS_UNUSED, const struct flow *key DPS_UNUSED,
             const struct flow *mask DPS_UNUSED,
             const struct dp_actions *actions DPS_UNUSED,
             struct dp_actions *new_actions)
{
    static unsigned int n;

    if (++n % 5 == 0) {
        return false;
    }
    dp_actions_put_output(new_actions, 2);
    if (n % 2) {
        dp_actions_put_push_vlan(new_actions, htons(ETH_TYPE_VLAN),
                                 htons(VLAN_CFI | 1));
        dp_actions_put_pop_vlan(new_actions);
    }
    return true;
}

static void
test_revalidate(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct flow f;

    fixture_init_forwarding(&fx, "emc-insert-inv-prob=1", &f);
    assert_int_equal(count_sent(&fx, 2, NULL), 1);

    reval_port = 3;
    dp_netdev_revalidate(fx.dp, reval_cb, NULL);
    send_and_run(&fx, 1, &f);
    assert_int_equal(count_sent(&fx, 2, NULL), 0);
    assert_int_equal(count_sent(&fx, 3, NULL), 1);
    assert_int_equal(n_upcalls, 1);

    reval_port = 0;
    dp_netdev_revalidate(fx.dp, reval_cb, NULL);
    assert_n_flows(&fx, 0);
    send_and_run(&fx, 1, &f);
    assert_int_equal(n_upcalls, 2);     /* The EMC entry died too. */
    assert_int_equal(count_sent(&fx, 2, NULL), 1);

    dp_netdev_flush_flows(fx.dp);
    assert_n_flows(&fx, 0);
    fixture_destroy(&fx);
}

/* max-idle removes flows nobody used; flow-limit stops installing but not
 * forwarding. */
static void
test_aging_and_flow_limit(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct dp_netdev_stats ds;
    struct flow f;

    fixture_init_forwarding(&fx, "max-idle=50", &f);
    assert_n_flows(&fx, 1);

    long long int deadline = time_msec() + 5000;
    do {
        usleep(10000);
        dp_netdev_run(fx.dp);
        dp_netdev_get_stats(fx.dp, &ds);
    } while (ds.n_flows && time_msec() < deadline);
    assert_int_equal(ds.n_flows, 0);
    fixture_destroy(&fx);

    fixture_init(&fx, "dummy", "flow-limit=1");
    dp_actions_put_output(&slow_actions, 2);
    for (int i = 0; i < 3; i++) {
        sample_flow(&f, 2 + i);
        inject(&fx, 1, &f);
        inject(&fx, 1, &f);
    }
    dp_netdev_run(fx.dp);
    assert_int_equal(count_sent(&fx, 2, NULL), 6);
    assert_n_flows(&fx, 1);
    assert_int_equal(n_upcalls, 5);     /* One installed, four not. */
    fixture_destroy(&fx);
}

/* Configuration errors are reported and change nothing. */
static void
test_config_errors(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct ds errors = DS_EMPTY_INITIALIZER;
    struct smap cfg = SMAP_INITIALIZER;

    fixture_init(&fx, "dummy-pmd", "pmd-cpu-mask=0x1 pmd-sleep-max=1000");
    smap_add(&cfg, "pmd-cpu-mask", "0xZZ");
    smap_add(&cfg, "max-idle", "soon");
    dp_netdev_set_config(fx.dp, &cfg, &errors);
    assert_non_null(strstr(ds_cstr(&errors), "pmd-cpu-mask"));
    assert_non_null(strstr(ds_cstr(&errors), "max-idle"));
    assert_string_equal(fx.dp->pmd_cpu_mask, "0x1");
    assert_int_equal(fx.dp->max_idle, 10000);
    dp_netdev_run(fx.dp);
    assert_int_equal(fx.dp->n_pmds, 1);

    struct smap icfg = SMAP_INITIALIZER;
    char *err = NULL;
    smap_add(&icfg, "pmd-rxq-affinity", "0:x");
    assert_int_equal(dp_netdev_port_set_config(fx.dp, 1, &icfg, &err),
                     EINVAL);
    assert_non_null(err);
    free(err);
    smap_destroy(&icfg);

    ds_destroy(&errors);
    smap_destroy(&cfg);
    fixture_destroy(&fx);
}

/* PMD threads: packets on dummy-pmd ports are forwarded by PMDs; changing
 * pmd-cpu-mask, queue counts and affinity while packets flow loses none. */
static size_t
wait_sent(struct fixture *fx, int port, size_t want)
{
    long long int deadline = time_msec() + 10000;
    size_t n = 0;

    while (n < want && time_msec() < deadline) {
        dp_netdev_run(fx->dp);
        n += count_sent(fx, port, NULL);
        if (n < want) {
            usleep(1000);
        }
    }
    return n;
}

static void
test_pmd_reconfigure(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct smap cfg = SMAP_INITIALIZER;
    struct flow f;
    size_t total = 0, sent = 0;

    fixture_init(&fx, "dummy-pmd", "pmd-cpu-mask=1 pmd-sleep-max=100");
    assert_int_equal(fx.dp->n_pmds, 1);
    assert_int_equal(fx.dp->pmds[0]->core_id, 0);
    dp_actions_put_output(&slow_actions, 2);

    const char *masks[] = { "3", "0x2", "1", "3" };
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 200; i++) {
            sample_flow(&f, 2 + i % 5);
            if (!netdev_dummy_queue_packet(fx.ports[1], 0, make_packet(&f))) {
                total++;
            }
        }
        smap_clear(&cfg);
        smap_add(&cfg, "pmd-cpu-mask", masks[round]);
        smap_add(&cfg, "pmd-sleep-max", "100");
        dp_netdev_set_config(fx.dp, &cfg, NULL);
        dp_netdev_run(fx.dp);

        /* A queue count change: the netdev asks for reconfiguration. */
        struct smap opts = SMAP_INITIALIZER;
        char *err = NULL;
        smap_add_format(&opts, "n_rxq", "%d", 1 + round % 2);
        assert_int_equal(netdev_set_config(fx.ports[3], &opts, &err), 0);
        /* And on the port the packets wait in (queue 0 stays). */
        assert_int_equal(netdev_set_config(fx.ports[1], &opts, &err), 0);
        smap_destroy(&opts);
        dp_netdev_run(fx.dp);
        sent += count_sent(&fx, 2, NULL);
    }
    assert_int_equal(fx.dp->n_pmds, 2);
    sent += wait_sent(&fx, 2, total - sent);
    assert_int_equal(sent, total);

    /* Pinning port 1's queue to core 1 isolates that PMD. */
    struct smap icfg = SMAP_INITIALIZER;
    char *err = NULL;
    smap_add(&icfg, "pmd-rxq-affinity", "0:1");
    assert_int_equal(dp_netdev_port_set_config(fx.dp, 1, &icfg, &err), 0);
    smap_destroy(&icfg);
    dp_netdev_run(fx.dp);
    struct dp_netdev_port *p1 = dp_netdev_lookup_port(fx.dp, 1);
    assert_non_null(p1->rxqs[0].pmd);
    assert_int_equal(p1->rxqs[0].pmd->core_id, 1);
    assert_true(p1->rxqs[0].pmd->isolated);
    for (int i = 0; i < 50; i++) {
        sample_flow(&f, 2);
        assert_int_equal(netdev_dummy_queue_packet(fx.ports[1], 0,
                                                   make_packet(&f)), 0);
    }
    assert_int_equal(wait_sent(&fx, 2, 50), 50);

    smap_destroy(&cfg);
    fixture_destroy(&fx);
}

static char *appctl(struct fixture *, const char *command, const char *args);

/* Interface:other_config:emc-enable=false keeps that port's packets out of
 * the EMC; emc-insert-inv-prob=0 keeps every port's out. */
static void
test_emc_disable(void **state DPS_UNUSED)
{
    struct fixture fx;
    uint64_t s[PMD_N_STATS];
    struct smap icfg = SMAP_INITIALIZER;
    char *err = NULL;
    struct flow f;

    fixture_init(&fx, "dummy", "emc-insert-inv-prob=1");
    dp_actions_put_output(&slow_actions, 3);
    smap_add(&icfg, "emc-enable", "false");
    assert_int_equal(dp_netdev_port_set_config(fx.dp, 1, &icfg, &err), 0);
    sample_flow(&f, 2);
    for (int i = 0; i < 3; i++) {
        inject(&fx, 1, &f);
        dp_netdev_run(fx.dp);
    }
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_EXACT_HIT], 0);
    assert_int_equal(s[PMD_STAT_MASKED_HIT], 2);

    /* Port 2 still uses it. */
    for (int i = 0; i < 3; i++) {
        inject(&fx, 2, &f);
        dp_netdev_run(fx.dp);
    }
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_EXACT_HIT], 2);
    assert_int_equal(count_sent(&fx, 3, NULL), 6);
    smap_destroy(&icfg);
    fixture_destroy(&fx);

    fixture_init(&fx, "dummy", "emc-insert-inv-prob=0");
    dp_actions_put_output(&slow_actions, 3);
    for (int i = 0; i < 3; i++) {
        inject(&fx, 1, &f);
        dp_netdev_run(fx.dp);
    }
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_EXACT_HIT], 0);
    assert_int_equal(s[PMD_STAT_MASKED_HIT], 2);
    fixture_destroy(&fx);
}

static unsigned int n_hook_installed, n_hook_deleted;
static uint32_t hook_in_port;

static void
hook_installed(void *aux DPS_UNUSED, struct dp_flow *flow, uint32_t in_port)
{
    assert_non_null(flow);
    n_hook_installed++;
    hook_in_port = in_port;
}

static void
hook_deleted(void *aux DPS_UNUSED, struct dp_flow *flow)
{
    assert_false(dp_flow_is_dead(flow));
    n_hook_deleted++;
}

/* With hw-offload, the offload thread gives a new megaflow a mark and the
 * dummy port stamps it on the flow's packets, which then skip extraction
 * and the caches; a mark that maps to no flow takes the usual path. */
static void
test_flow_mark(void **state DPS_UNUSED)
{
    struct fixture fx;
    uint64_t s[PMD_N_STATS];
    struct flow f, g;

    fixture_init_forwarding(&fx, "hw-offload=true", &f);
    assert_int_equal(count_sent(&fx, 2, NULL), 1);

    struct dp_netdev_pmd *main_pmd = fx.dp->main_pmd;
    struct dp_flow *flow = main_pmd->flows->flow;
    for (int i = 0; i < 5000 && dp_flow_get_mark(flow) == DP_FLOW_MARK_NONE;
         i++) {
        usleep(1000);
    }
    uint32_t mark = dp_flow_get_mark(flow);
    assert_int_not_equal(mark, DP_FLOW_MARK_NONE);
    assert_ptr_equal(dp_netdev_get_mark_to_flow(fx.dp, mark), flow);

    struct dp_packet *p = make_packet(&f);
    assert_int_equal(netdev_dummy_queue_packet(fx.ports[1], 0, p), 0);
    sample_flow(&g, 9);
    p = make_packet(&g);
    dp_packet_set_flow_mark(p, 123456);         /* No flow. */
    assert_int_equal(netdev_dummy_queue_packet(fx.ports[1], 0, p), 0);
    dp_netdev_run(fx.dp);
    assert_int_equal(count_sent(&fx, 2, NULL), 2);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_PHWOL_HIT], 1);
    assert_int_equal(s[PMD_STAT_MISS], 2);

    struct dp_flow_stats st;
    dp_flow_get_stats(flow, &st);
    assert_int_equal(st.n_packets, 1);

    char *out = appctl(&fx, "dpctl/dump-flows", "-m");
    assert_non_null(strstr(out, ", offloaded:partial, dp:ovs, actions:p2"));
    free(out);

    /* Deleting the flow clears its mark's entry and calls the hook. */
    struct dp_netdev_flow_hooks hooks = {
        .installed = hook_installed, .deleted = hook_deleted,
    };
    dp_netdev_set_flow_hooks(fx.dp, &hooks);
    dp_netdev_flush_flows(fx.dp);
    assert_int_equal(n_hook_deleted, 2);
    for (int i = 0; i < 5000 && dp_netdev_get_mark_to_flow(fx.dp, mark);
         i++) {
        usleep(1000);
    }
    assert_null(dp_netdev_get_mark_to_flow(fx.dp, mark));

    /* A new megaflow is handed to the 'installed' hook. */
    inject(&fx, 3, &f);
    dp_netdev_run(fx.dp);
    assert_int_equal(n_hook_installed, 1);
    assert_int_equal(hook_in_port, 3);
    dp_netdev_set_flow_hooks(fx.dp, NULL);
    fixture_destroy(&fx);
}

/* tx-flush-interval holds output batches across receive bursts. */
static void
test_tx_flush_interval(void **state DPS_UNUSED)
{
    struct fixture fx;
    uint64_t s[PMD_N_STATS];
    struct flow f;

    fixture_init(&fx, "dummy-pmd", "pmd-cpu-mask=1 tx-flush-interval=200000");
    dp_actions_put_output(&slow_actions, 2);
    sample_flow(&f, 2);

    /* Five bursts of one packet within the interval: one batch. */
    long long int start = time_usec();
    for (int i = 0; i < 5; i++) {
        inject(&fx, 1, &f);
        usleep(2000);
    }
    size_t n = wait_sent(&fx, 2, 5);
    long long int elapsed = time_usec() - start;
    assert_int_equal(n, 5);
    dp_netdev_pmd_get_stats(fx.dp->pmds[0], s);
    if (elapsed < 190000) {
        fail_msg("sent after %lld us, before the interval", elapsed);
    }
    assert_true(s[PMD_STAT_SENT_BATCHES] <= 2);
    assert_int_equal(s[PMD_STAT_SENT_PKTS], 5);
    fixture_destroy(&fx);
}

/* dp_netdev_execute() runs actions on a packet from the main thread. */
static void
test_execute(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct dp_actions acts = DP_ACTIONS_INITIALIZER;
    struct flow f, out;

    fixture_init(&fx, "dummy", "");
    sample_flow(&f, 2);
    f.in_port = 0;
    dp_actions_put_output(&acts, 3);
    dp_actions_put_push_vlan(&acts, htons(ETH_TYPE_VLAN), htons(VLAN_CFI | 9));
    dp_actions_put_output(&acts, 2);
    dp_netdev_execute(fx.dp, make_packet(&f), &acts);
    assert_int_equal(count_sent(&fx, 3, &f), 1);
    out = f;
    out.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
    out.vlan_tci[0] = htons(VLAN_CFI | 9);
    assert_int_equal(count_sent(&fx, 2, &out), 1);
    dp_actions_destroy(&acts);
    fixture_destroy(&fx);
}

/* Transmit queues: enough for every thread, each its own; too few,
 * shared with concurrent_txq. */
static void
test_txq_modes(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct smap opts = SMAP_INITIALIZER;
    char *err = NULL;

    /* Port 3 gets one queue per thread (netdev_set_tx_multiq()); port 2 is
     * configured with one. */
    fixture_init(&fx, "dummy-pmd", "pmd-cpu-mask=3 pmd-sleep-max=1000");
    smap_add(&opts, "n_txq", "1");
    assert_int_equal(netdev_set_config(fx.ports[2], &opts, &err), 0);
    smap_destroy(&opts);
    dp_netdev_run(fx.dp);
    assert_int_equal(fx.dp->n_pmds, 2);
    for (size_t i = 0; i < fx.dp->n_pmds; i++) {
        struct dp_netdev_pmd *pmd = fx.dp->pmds[i];
        const struct dp_netdev_tx_port *tx2 = NULL, *tx3 = NULL;

        for (size_t j = 0; j < pmd->n_tx_ports; j++) {
            if (pmd->tx_ports[j].port_no == 2) {
                tx2 = &pmd->tx_ports[j];
            } else if (pmd->tx_ports[j].port_no == 3) {
                tx3 = &pmd->tx_ports[j];
            }
        }
        assert_non_null(tx2);
        assert_non_null(tx3);
        assert_false(tx3->concurrent_txq);
        assert_int_equal(tx3->qid, i + 1);
        assert_true(tx2->concurrent_txq);
        assert_int_equal(tx2->qid, 0);
    }
    assert_int_equal(netdev_n_txq(fx.ports[3]), 3);
    assert_int_equal(netdev_n_txq(fx.ports[2]), 1);
    fixture_destroy(&fx);
}

/* Revalidation and flushes from the main thread while PMDs forward (run it
 * in the ASan build: nothing may be freed under a PMD), with the datapath
 * configured by 'config'. */
static void
revalidate_under_traffic(const char *config)
{
    struct fixture fx;
    struct flow f;
    size_t total = 0, sent = 0;

    fixture_init(&fx, "dummy-pmd", config);
    dp_actions_put_output(&slow_actions, 2);
    /* 500 packets in all, half of the test pool, so that PMDs that lag
     * behind (copies included) never exhaust it. */
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 25; i++) {
            sample_flow(&f, 2 + (round + i) % 7);
            if (!netdev_dummy_queue_packet(fx.ports[1 + i % 2 * 2], 0,
                                           make_packet(&f))) {
                total++;
            }
        }
        if (round % 3 == 0) {
            dp_netdev_flush_flows(fx.dp);
        } else {
            dp_netdev_revalidate(fx.dp, reval_any_cb, NULL);
        }
        dp_netdev_run(fx.dp);
        sent += count_sent(&fx, 2, NULL);
    }
    sent += wait_sent(&fx, 2, total - sent);
    assert_int_equal(sent, total);
    if (strstr(config, "smc-enable=true")) {
        uint64_t n_smc = 0;

        for (size_t i = 0; i < fx.dp->n_pmds; i++) {
            uint64_t s[PMD_N_STATS];

            dp_netdev_pmd_get_stats(fx.dp->pmds[i], s);
            n_smc += s[PMD_STAT_SMC_HIT];
        }
        assert_true(n_smc > 0);
    }
    fixture_destroy(&fx);
}

static void
test_revalidate_under_traffic(void **state DPS_UNUSED)
{
    revalidate_under_traffic("pmd-cpu-mask=3 emc-insert-inv-prob=1");
}

/* The same through the signature-match cache (the EMC off): its entries
 * name flows that the main thread deletes meanwhile, whose indexes it
 * gives back and hands to new flows. */
static void
test_revalidate_under_traffic_smc(void **state DPS_UNUSED)
{
    revalidate_under_traffic("pmd-cpu-mask=3 emc-insert-inv-prob=0 "
                             "smc-enable=true");
}

/* unixctl: a client thread sends one command while this thread runs the
 * server and the datapath. */
struct appctl_request {
    const char *path;
    const char *command;
    int argc;
    char **argv;
    char *answer;
    bool done;
};

static void *
appctl_thread(void *req_)
{
    struct appctl_request *req = req_;
    struct jsonrpc *client;
    char *result = NULL, *error = NULL;

    if (unixctl_client_create(req->path, &client)) {
        req->answer = xstrdup("ERROR: connect");
    } else {
        if (unixctl_client_transact(client, req->command, req->argc,
                                    req->argv, &result, &error)) {
            req->answer = xstrdup("ERROR: transact");
        } else {
            req->answer = result ? result : xasprintf("ERROR: %s", error);
            free(error);
        }
        jsonrpc_close(client);
    }
    __atomic_store_n(&req->done, true, __ATOMIC_RELEASE);
    return NULL;
}

static struct unixctl_server *appctl_server;
static char appctl_path[64];

/* Runs "ovs-appctl COMMAND ARGS..." against 'fx' (arguments separated by
 * spaces) and returns the answer, which the caller frees. */
static char *
appctl(struct fixture *fx, const char *command, const char *args)
{
    char *copy = xstrdup(args);
    char *argv[8];
    int argc = 0;
    char *save = NULL;

    if (!appctl_server) {
        snprintf(appctl_path, sizeof appctl_path, "/tmp/test-dpif-%ld.ctl",
                 (long int) getpid());
        assert_int_equal(unixctl_server_create(appctl_path, &appctl_server),
                         0);
    }
    dp_netdev_register_commands(fx->dp);    /* This test's datapath. */
    for (char *a = strtok_r(copy, " ", &save); a && argc < 8;
         a = strtok_r(NULL, " ", &save)) {
        argv[argc++] = a;
    }

    struct appctl_request req = {
        .path = appctl_path, .command = command, .argc = argc, .argv = argv,
    };
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, appctl_thread, &req), 0);
    while (!__atomic_load_n(&req.done, __ATOMIC_ACQUIRE)) {
        unixctl_server_run(appctl_server);
        dp_netdev_run(fx->dp);
        unixctl_server_wait(appctl_server);
        poll_timer_wait(5);
        poll_block();
    }
    pthread_join(thread, NULL);
    free(copy);
    return req.answer;
}

static void
check_appctl(struct fixture *fx, const char *command, const char *args,
             const char *expected)
{
    char *answer = appctl(fx, command, args);

    assert_string_equal(answer, expected);
    free(answer);
}

/* The last byte of the destination MAC of each packet port 'port' sent,
 * in order, into 's' (as many as fit, NUL-terminated as a string of
 * digits); the packets are freed. */
static void
sent_dst_bytes(struct fixture *fx, int port, char *s, size_t size)
{
    struct dp_packet *p;
    size_t n = 0;

    while ((p = netdev_dummy_pop_sent(fx->ports[port])) != NULL) {
        const uint8_t *eth = dp_packet_data(p);

        if (n + 1 < size) {
            s[n++] = '0' + eth[5];
        }
        dp_packet_free(p);
    }
    s[n] = '\0';
}

/* The packet count dpctl/dump-flows gives the flow towards destination MAC
 * ...:0N, or -1. */
static long
flow_packets(struct fixture *fx, int dst_last)
{
    char *out = appctl(fx, "dpctl/dump-flows", "");
    char dst[32];
    long n = -1;

    snprintf(dst, sizeof dst, ":%02x", dst_last);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        const char *pk = strstr(line, "packets:");
        const char *d = strstr(line, "dst=");
        if (pk && d && strlen(d) > 21 && !strncmp(d + 18, dst, 3)) {
            n = strtol(pk + strlen("packets:"), NULL, 10);
        }
    }
    free(out);
    return n;
}

/* Flows of one burst whose actions are the same bytes run as one batch:
 * each flow still counts its own packets, every packet leaves where its
 * flow sends it, and each flow's packets keep their order.  The same with
 * the merge switched off (dp_netdev_no_action_merge). */
static void
test_same_actions_merged(void **state DPS_UNUSED)
{
    for (int off = 0; off <= 1; off++) {
        struct fixture fx;
        struct flow a, b, c;
        char out2[16], out3[16];

        dp_netdev_no_action_merge = off;
        fixture_init_forwarding(&fx, "emc-insert-inv-prob=1", &a);
        dp_actions_clear(&slow_actions);
        dp_actions_put_output(&slow_actions, 3);
        sample_flow(&b, 3);
        send_and_run(&fx, 1, &b);
        dp_actions_clear(&slow_actions);
        dp_actions_put_output(&slow_actions, 2);
        sample_flow(&c, 4);
        send_and_run(&fx, 1, &c);
        assert_int_equal(n_upcalls, 3);
        sent_dst_bytes(&fx, 2, out2, sizeof out2);
        assert_string_equal(out2, "24");
        sent_dst_bytes(&fx, 3, out3, sizeof out3);
        assert_string_equal(out3, "3");

        /* One burst: a b c a c, then another packet of a's flow whose
         * source differs (a classifier hit, not the EMC). */
        inject(&fx, 1, &a);
        inject(&fx, 1, &b);
        inject(&fx, 1, &c);
        inject(&fx, 1, &a);
        inject(&fx, 1, &c);
        a.nw_src = htonl(0x0a000077);
        inject(&fx, 1, &a);
        dp_netdev_run(fx.dp);
        assert_int_equal(n_upcalls, 3);
        sent_dst_bytes(&fx, 2, out2, sizeof out2);
        assert_string_equal(out2, "22244");
        sent_dst_bytes(&fx, 3, out3, sizeof out3);
        assert_string_equal(out3, "3");
        /* The packets of the upcalls do not count, as in Open vSwitch. */
        assert_int_equal(flow_packets(&fx, 2), 3);
        assert_int_equal(flow_packets(&fx, 3), 1);
        assert_int_equal(flow_packets(&fx, 4), 2);

        fixture_destroy(&fx);
        dp_netdev_no_action_merge = false;
    }
}

/* The last byte of the IPv4 source address of each packet port 'port'
 * sent, in order, as characters into 's' (as many as fit); the packets are
 * freed. */
static void
sent_src_last_bytes(struct fixture *fx, int port, char *s, size_t size)
{
    struct dp_packet *p;
    size_t n = 0;

    while ((p = netdev_dummy_pop_sent(fx->ports[port])) != NULL) {
        uint8_t b = 0;

        dp_packet_copy_out(p, ETH_HEADER_LEN + 15, 1, &b);
        if (n + 1 < size) {
            s[n++] = b;
        }
        dp_packet_free(p);
    }
    s[n] = '\0';
}

/* Revalidation callback of test_simple_match(): deletes the flows that
 * match an Ethernet destination. */
static bool
reval_keep_simple_cb(void *aux DPS_UNUSED, const struct flow *key DPS_UNUSED,
                     const struct flow *mask,
                     const struct dp_actions *actions,
                     struct dp_actions *new_actions)
{
    static const struct eth_addr zero;

    dp_actions_clear(new_actions);
    for (size_t i = 0; i < actions->n_actions; i++) {
        dp_actions_put_output(new_actions, actions->actions[i].port);
    }
    return !memcmp(&mask->dl_dst, &zero, sizeof zero);
}

/* Simple match: while every flow from a port matches only the input port,
 * the Ethernet type, whether there is a VLAN tag and the fragment bits
 * ("in_port=1,actions=output:2"), its packets are found by those fields
 * ("simple match hits"), the caches and the classifier untouched, and
 * leave as they came; per packet type and tag, one flow.  A flow from the
 * port that matches more (an Ethernet destination) takes the port off the
 * simple path, and only that port, without a packet going astray; once
 * it is deleted, the port is back on it.  dp_netdev_no_simple_match keeps
 * every port off. */
static void
test_simple_match(void **state DPS_UNUSED)
{
    uint64_t s[PMD_N_STATS];
    struct fixture fx;
    struct flow f, v, f6;

    fixture_init(&fx, "dummy", "emc-insert-inv-prob=1");
    slow_simple = true;
    dp_actions_put_output(&slow_actions, 2);
    sample_flow(&f, 2);
    send_and_run(&fx, 1, &f);
    assert_int_equal(n_upcalls, 1);
    assert_int_equal(count_sent(&fx, 2, &f), 1);

    /* One burst of three packets of other microflows. */
    for (int i = 0; i < 3; i++) {
        f.nw_src = htonl(0x0a000050 + i);
        f.tp_src = htons(4000 + i);
        inject(&fx, 1, &f);
    }
    dp_netdev_run(fx.dp);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 3);
    assert_int_equal(s[PMD_STAT_EXACT_HIT], 0);
    assert_int_equal(s[PMD_STAT_MASKED_HIT], 0);
    assert_int_equal(n_upcalls, 1);
    char src_bytes[16];
    sent_src_last_bytes(&fx, 2, src_bytes, sizeof src_bytes);
    assert_string_equal(src_bytes, "PQR");

    /* A tagged packet is another flow; then it hits too, with its bytes
     * (tag and priority) kept. */
    v = f;
    v.vlan_tpid[0] = htons(ETH_TYPE_VLAN);
    v.vlan_tci[0] = htons(VLAN_CFI | 0x6000 | 42);
    send_and_run(&fx, 1, &v);
    assert_int_equal(n_upcalls, 2);
    send_and_run(&fx, 1, &v);
    assert_int_equal(n_upcalls, 2);
    assert_int_equal(count_sent(&fx, 2, &v), 2);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 4);

    /* Statistics: the flows counted their packets (not the upcalls'). */
    char *out = appctl(&fx, "dpctl/dump-flows", "");
    assert_non_null(strstr(out, "eth_type(0x0800),ipv4(frag=no), "
                           "packets:3, bytes:180,"));
    free(out);

    /* Port 2 stays on the simple path whatever port 1's flows are. */
    send_and_run(&fx, 2, &f);
    send_and_run(&fx, 2, &f);
    assert_int_equal(n_upcalls, 3);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 5);
    assert_int_equal(count_sent(&fx, 2, &f), 2);

    /* An IPv6 flow from port 1 that matches its destination, to p3. */
    memset(&slow_extra_mask.dl_dst, 0xff, sizeof slow_extra_mask.dl_dst);
    dp_actions_clear(&slow_actions);
    dp_actions_put_output(&slow_actions, 3);
    dp_test_ipv6_flow(&f6, IPPROTO_UDP_);
    send_and_run(&fx, 1, &f6);
    assert_int_equal(n_upcalls, 4);
    assert_int_equal(count_sent(&fx, 3, &f6), 1);
    memset(&slow_extra_mask, 0, sizeof slow_extra_mask);

    /* Port 1 is off the simple path: the same packets, through the EMC and
     * the classifier, still to p2; IPv6 to p3.  Port 2 is still on it. */
    inject(&fx, 1, &f);
    inject(&fx, 1, &v);
    inject(&fx, 1, &f6);
    f.nw_src = htonl(0x0a000077);
    inject(&fx, 1, &f);
    dp_netdev_run(fx.dp);
    send_and_run(&fx, 2, &f);
    assert_int_equal(n_upcalls, 4);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 6);
    assert_int_equal(s[PMD_STAT_EXACT_HIT] + s[PMD_STAT_MASKED_HIT], 4);
    assert_int_equal(count_sent(&fx, 2, NULL), 4);
    assert_int_equal(count_sent(&fx, 3, &f6), 1);

    /* Without the IPv6 flow, port 1 is back on it. */
    dp_netdev_revalidate(fx.dp, reval_keep_simple_cb, NULL);
    assert_n_flows(&fx, 3);
    inject(&fx, 1, &f);
    inject(&fx, 1, &v);
    dp_netdev_run(fx.dp);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 8);
    assert_int_equal(count_sent(&fx, 2, NULL), 2);

    /* Off for benchmarks. */
    dp_netdev_no_simple_match = true;
    send_and_run(&fx, 1, &f);
    dp_netdev_no_simple_match = false;
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 8);
    assert_int_equal(count_sent(&fx, 2, &f), 1);

    out = appctl(&fx, "dpif-netdev/pmd-stats-show", "");
    assert_non_null(strstr(out, "  simple match hits: 8\n"));
    free(out);
    fixture_destroy(&fx);
}

/* A flow put by hand (dpctl/add-flow) counts as the slow path's do: one
 * that is not simple takes its port off the simple path, and deleting it
 * puts the port back. */
static void
test_simple_match_flow_put(void **state DPS_UNUSED)
{
    uint64_t s[PMD_N_STATS];
    struct fixture fx;
    struct flow f, f6, mask;
    struct dp_flow_stats st;
    struct dp_actions acts;
    struct dp_ufid ufid;

    fixture_init(&fx, "dummy", "emc-insert-inv-prob=0");
    slow_simple = true;
    dp_actions_put_output(&slow_actions, 2);
    sample_flow(&f, 2);
    send_and_run(&fx, 1, &f);
    send_and_run(&fx, 1, &f);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 1);

    dp_test_ipv6_flow(&f6, IPPROTO_UDP_);
    f6.in_port = 1;
    memset(&mask, 0, sizeof mask);
    mask.dl_type = htons(0xffff);
    memset(&mask.dl_dst, 0xff, sizeof mask.dl_dst);
    dp_actions_init(&acts);
    dp_actions_put_output(&acts, 3);
    dp_netdev_flow_ufid(&f6, &mask, &ufid);
    assert_int_equal(dp_netdev_flow_put(fx.dp, &f6, &mask, &acts, &ufid,
                                        DP_NETDEV_PUT_CREATE, &st), 0);
    dp_actions_destroy(&acts);
    send_and_run(&fx, 1, &f);
    send_and_run(&fx, 1, &f6);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 1);
    assert_int_equal(s[PMD_STAT_MASKED_HIT], 2);
    assert_int_equal(count_sent(&fx, 2, NULL), 3);
    assert_int_equal(count_sent(&fx, 3, NULL), 1);

    assert_int_equal(dp_netdev_flow_del(fx.dp, &ufid, &st), 0);
    send_and_run(&fx, 1, &f);
    main_stats(&fx, s);
    assert_int_equal(s[PMD_STAT_SIMPLE_HIT], 2);
    assert_int_equal(count_sent(&fx, 2, NULL), 1);
    fixture_destroy(&fx);
}

/* Simple match on a PMD thread: the counter pmd-stats-show prints for it
 * and the packets that leave. */
static void
test_simple_match_pmd(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct flow f;

    fixture_init(&fx, "dummy-pmd", "pmd-cpu-mask=1");
    slow_simple = true;
    dp_actions_put_output(&slow_actions, 2);
    sample_flow(&f, 2);
    inject(&fx, 1, &f);
    assert_int_equal(wait_sent(&fx, 2, 1), 1);
    for (int i = 0; i < 10; i++) {
        f.nw_src = htonl(0x0a000100 + i);
        inject(&fx, 1, &f);
    }
    assert_int_equal(wait_sent(&fx, 2, 10), 10);

    uint64_t st[PMD_N_STATS];
    dp_netdev_pmd_get_stats(fx.dp->pmds[0], st);
    assert_int_equal(st[PMD_STAT_SIMPLE_HIT], 10);
    assert_int_equal(st[PMD_STAT_MISS], 1);
    char *out = appctl(&fx, "dpif-netdev/pmd-stats-show", "");
    assert_non_null(strstr(out, "pmd thread numa_id 0 core_id 0:\n"));
    assert_non_null(strstr(out, "  simple match hits: 10\n"));
    free(out);
    fixture_destroy(&fx);
}

/* The commands' output layouts, as Open vSwitch 3.1 prints them. */
static void
test_unixctl(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct flow f;

    fixture_init(&fx, "dummy", "emc-insert-inv-prob=1 pmd-sleep-max=1000");
    dp_actions_put_output(&slow_actions, 2);
    dp_test_ipv4_flow(&f, IPPROTO_TCP_);
    dp_test_ports(&f, 80, 8080);
    f.tcp_flags = htons(TCP_SYN);
    for (int i = 0; i < 3; i++) {
        inject(&fx, 1, &f);
    }
    dp_netdev_run(fx.dp);
    assert_int_equal(count_sent(&fx, 2, NULL), 3);

    check_appctl(&fx, "dpctl/show", "",
                 "netdev@ovs-netdev:\n"
                 "  lookups: hit:2 missed:1 lost:0\n"
                 "  flows: 1\n"
                 "  port 0: ovs-netdev (dummy-internal)\n"
                 "  port 1: p1 (dummy)\n"
                 "  port 2: p2 (dummy)\n"
                 "  port 3: p3 (dummy)\n");

    check_appctl(&fx, "dpctl/dump-dps", "", "netdev@ovs-netdev\n");
    char *s = appctl(&fx, "dpctl/show", "-s");
    assert_non_null(strstr(s, "  port 1: p1 (dummy)\n"
                           "    RX packets:3 errors:"));
    assert_non_null(strstr(s, "    collisions:"));
    free(s);

    /* The upcall's packet does not count in the flow's statistics.  The
     * other two, in the same burst, missed the EMC before the upcall filled
     * it and found the new megaflow. */
    s = appctl(&fx, "dpctl/dump-flows", "");
    const char *expect = "flow-dump from the main thread:\n"
        "recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
        "eth(dst=66:77:88:99:aa:bb),eth_type(0x0800), packets:2, bytes:";
    assert_memory_equal(s, expect, strlen(expect));
    assert_non_null(strstr(s, "s, flags:S, actions:2\n"));
    free(s);

    s = appctl(&fx, "dpctl/dump-flows", "-m");
    assert_non_null(strstr(s, "ufid:"));
    assert_non_null(strstr(s, ", skb_priority(0/0),skb_mark(0/0),"
                           "ct_state(0/0),ct_zone(0/0),ct_mark(0/0),"
                           "ct_label(0/0),recirc_id(0),dp_hash(0/0),"
                           "in_port(p1),packet_type(ns=0,id=0),"
                           "eth(src=00:11:22:33:44:55/00:00:00:00:00:00,"
                           "dst=66:77:88:99:aa:bb),eth_type(0x0800),"
                           "ipv4(src=10.0.0.1/0.0.0.0,"
                           "dst=192.168.1.2/0.0.0.0,proto=6/0,tos=0x2e/0,"
                           "ttl=64/0),tcp(src=80/0,dst=8080/0),"
                           "tcp_flags(0/0), packets:2"));
    assert_non_null(strstr(s, ", dp:ovs, actions:p2, dp-extra-info:"));
    free(s);

    /* Without a port that needs polling there is no PMD thread, as in
     * Open vSwitch: the main thread alone. */
    assert_int_equal(fx.dp->n_pmds, 0);
    check_appctl(&fx, "dpif-netdev/pmd-stats-show", "",
                 "main thread:\n"
                 "  packets received: 3\n"
                 "  packet recirculations: 0\n"
                 "  avg. datapath passes per packet: 1.00\n"
                 "  phwol hits: 0\n"
                 "  mfex opt hits: 0\n"
                 "  simple match hits: 0\n"
                 "  emc hits: 0\n"
                 "  smc hits: 0\n"
                 "  megaflow hits: 2\n"
                 "  avg. subtable lookups per megaflow hit: 1.00\n"
                 "  miss with success upcall: 1\n"
                 "  miss with failed upcall: 0\n"
                 "  avg. packets per output batch: 3.00\n");
    check_appctl(&fx, "dpif-netdev/pmd-rxq-show", "",
                 "Displaying last 60 seconds pmd usage %\n");
    check_appctl(&fx, "dpif-netdev/pmd-perf-show", "", "");
    check_appctl(&fx, "dpif-netdev/pmd-stats-clear", "", "");
    s = appctl(&fx, "dpif-netdev/pmd-stats-show", "");
    assert_non_null(strstr(s, "main thread:\n  packets received: 0\n"));
    free(s);

    /* A dummy-pmd port brings a PMD thread (core 0, the lowest of NUMA node
     * 0), listed before the main thread. */
    struct netdev *p4;
    char *err = NULL;
    uint32_t no4 = 4;
    assert_int_equal(netdev_open("p4", "dummy-pmd", &p4, &err), 0);
    assert_int_equal(dp_netdev_port_add(fx.dp, p4, &no4, &err), 0);
    assert_int_equal(fx.dp->n_pmds, 1);
    s = appctl(&fx, "dpif-netdev/pmd-stats-show", "-pmd 0");
    expect = "pmd thread numa_id 0 core_id 0:\n"
             "  packets received: 0\n"
             "  packet recirculations: 0\n"
             "  avg. datapath passes per packet: 0.00\n"
             "  phwol hits: 0\n"
             "  mfex opt hits: 0\n"
             "  simple match hits: 0\n"
             "  emc hits: 0\n"
             "  smc hits: 0\n"
             "  megaflow hits: 0\n"
             "  avg. subtable lookups per megaflow hit: 0.00\n"
             "  miss with success upcall: 0\n"
             "  miss with failed upcall: 0\n"
             "  avg. packets per output batch: 0.00\n";
    assert_memory_equal(s, expect, strlen(expect));
    assert_null(strstr(s, "main thread"));
    free(s);
    s = appctl(&fx, "dpif-netdev/pmd-stats-show", "");
    assert_true(strstr(s, "pmd thread") < strstr(s, "main thread"));
    free(s);
    check_appctl(&fx, "dpif-netdev/pmd-rxq-show", "",
                 "Displaying last 60 seconds pmd usage %\n"
                 "pmd thread numa_id 0 core_id 0:\n"
                 "  isolated : false\n"
                 "  port: p4                queue-id:  0 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  overhead: NOT AVAIL\n");
    s = appctl(&fx, "dpif-netdev/pmd-perf-show", "");
    assert_non_null(strstr(s, "\npmd thread numa_id 0 core_id 0:\n\n"
                           "  Iterations:"));
    assert_non_null(strstr(s, "Measurement duration: "));
    free(s);
    assert_int_equal(dp_netdev_port_del(fx.dp, 4), 0);
    netdev_close(p4);
    assert_int_equal(fx.dp->n_pmds, 0);
    check_appctl(&fx, "dpif-netdev/pmd-rxq-rebalance", "",
                 "pmd rxq rebalance requested.\n");
    check_appctl(&fx, "dpif-netdev/pmd-stats-show", "-pmd x",
                 "ERROR: Invalid pmd core: x\n");

    /* filter= and type=. */
    s = appctl(&fx, "dpctl/dump-flows", "filter=in_port(1),eth_type(0x0800)");
    assert_non_null(strstr(s, "in_port(1)"));
    free(s);
    check_appctl(&fx, "dpctl/dump-flows", "filter=in_port(2)", "");
    check_appctl(&fx, "dpctl/dump-flows", "type=offloaded", "");
    s = appctl(&fx, "dpctl/dump-flows", "type=ovs");
    assert_non_null(strstr(s, "in_port(1)"));
    free(s);
    s = appctl(&fx, "dpctl/dump-flows", "filter=bogus(");
    assert_memory_equal(s, "ERROR: Failed to parse filter", 29);
    free(s);

    check_appctl(&fx, "dpctl/del-flows", "", "");
    check_appctl(&fx, "dpctl/dump-flows", "", "");
    fixture_destroy(&fx);
}

/* A port type that holds what it is sent until netdev_flush(), which sends
 * at most 10 packets per call, like a guest ring with little room. */
struct hold_netdev {
    struct netdev up;
    struct dp_packet_batch held[8];
    size_t n_held;
};
static unsigned int n_hold_flushes, n_hold_delivered;

static struct netdev *
hold_alloc(void)
{
    return xzalloc(sizeof(struct hold_netdev));
}

static int
hold_construct(struct netdev *nd)
{
    nd->n_rxq = nd->n_txq = 1;
    return 0;
}

static void
hold_destruct(struct netdev *nd DPS_UNUSED)
{
}

static void
hold_dealloc(struct netdev *nd)
{
    free(nd);
}

static struct netdev_rxq *
hold_rxq_alloc(void)
{
    return xzalloc(sizeof(struct netdev_rxq));
}

static int
hold_rxq_construct(struct netdev_rxq *rxq DPS_UNUSED)
{
    return 0;
}

static void
hold_rxq_destruct(struct netdev_rxq *rxq DPS_UNUSED)
{
}

static void
hold_rxq_dealloc(struct netdev_rxq *rxq)
{
    free(rxq);
}

static void
hold_rxq_wait(struct netdev_rxq *rxq DPS_UNUSED)
{
}

static int
hold_rxq_recv(struct netdev_rxq *rxq DPS_UNUSED,
              struct dp_packet_batch *batch DPS_UNUSED, int *qfill DPS_UNUSED)
{
    return EAGAIN;
}

static int
hold_send(struct netdev *nd, int qid DPS_UNUSED, struct dp_packet_batch *b,
          bool concurrent_txq DPS_UNUSED)
{
    struct hold_netdev *h = (struct hold_netdev *) nd;
    struct dp_packet *p;

    DP_PACKET_BATCH_FOR_EACH (i, p, b) {
        struct dp_packet_batch *tail = &h->held[h->n_held / 32];
        if (h->n_held < 8 * 32) {
            if (!(h->n_held % 32)) {
                dp_packet_batch_init(tail);
            }
            dp_packet_batch_add(tail, p);
            h->n_held++;
        } else {
            dp_packet_free(p);
        }
    }
    dp_packet_batch_init(b);
    return 0;
}

static int
hold_flush(struct netdev *nd, int qid DPS_UNUSED, bool concurrent DPS_UNUSED)
{
    struct hold_netdev *h = (struct hold_netdev *) nd;

    n_hold_flushes++;
    for (int i = 0; i < 10 && h->n_held; i++) {
        h->n_held--;
        dp_packet_free(h->held[h->n_held / 32].packets[h->n_held % 32]);
        n_hold_delivered++;
    }
    return h->n_held;
}

static const struct netdev_class hold_class = {
    .type = "test-hold",
    .alloc = hold_alloc,
    .construct = hold_construct,
    .destruct = hold_destruct,
    .dealloc = hold_dealloc,
    .send = hold_send,
    .flush = hold_flush,
    .rxq_alloc = hold_rxq_alloc,
    .rxq_construct = hold_rxq_construct,
    .rxq_destruct = hold_rxq_destruct,
    .rxq_dealloc = hold_rxq_dealloc,
    .rxq_recv = hold_rxq_recv,
    .rxq_wait = hold_rxq_wait,
};

/* Ports that hold packets back are flushed after the burst, and again as
 * long as they still hold some. */
static void
test_netdev_flush(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct netdev *nd;
    char *err = NULL;
    uint32_t no = 4;
    struct flow f;

    fixture_init(&fx, "dummy", "");
    assert_int_equal(netdev_open("hold0", "test-hold", &nd, &err), 0);
    assert_int_equal(dp_netdev_port_add(fx.dp, nd, &no, &err), 0);
    dp_actions_put_output(&slow_actions, 4);
    sample_flow(&f, 2);
    for (int i = 0; i < 25; i++) {
        inject(&fx, 1, &f);
    }
    n_hold_flushes = n_hold_delivered = 0;
    dp_netdev_run(fx.dp);
    assert_int_equal(n_hold_flushes, 1);
    assert_int_equal(n_hold_delivered, 10);
    dp_netdev_run(fx.dp);
    dp_netdev_run(fx.dp);
    assert_int_equal(n_hold_delivered, 25);
    assert_int_equal(n_hold_flushes, 3);
    dp_netdev_run(fx.dp);
    assert_int_equal(n_hold_flushes, 3);        /* Nothing held: no call. */

    assert_int_equal(dp_netdev_port_del(fx.dp, 4), 0);
    netdev_close(nd);
    fixture_destroy(&fx);
}

/* Masks that name IP fields, partly or wholly, as dump-flows prints them
 * with and without -m. */
static void
test_dump_masks(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct flow f;

    fixture_init(&fx, "dummy", "");
    dp_actions_put_output(&slow_actions, 2);
    slow_extra_mask.nw_src = htonl(0xffffff00);
    slow_extra_mask.nw_proto = 0xff;
    slow_extra_mask.nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    slow_extra_mask.tp_dst = htons(0xffff);
    slow_extra_mask.tcp_flags = htons(TCP_SYN | TCP_ACK);
    dp_test_ipv4_flow(&f, IPPROTO_TCP_);
    dp_test_ports(&f, 80, 8080);
    f.tcp_flags = htons(TCP_SYN);
    send_and_run(&fx, 1, &f);

    char *s = appctl(&fx, "dpctl/dump-flows", "");
    const char *expect = "flow-dump from the main thread:\n"
        "recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
        "eth(dst=66:77:88:99:aa:bb),eth_type(0x0800),"
        "ipv4(src=10.0.0.0/255.255.255.0,proto=6,frag=no),tcp(dst=8080),"
        "tcp_flags(+syn-ack), packets:0, bytes:0, used:never, actions:2\n";
    assert_string_equal(s, expect);
    free(s);

    s = appctl(&fx, "dpctl/dump-flows", "-m");
    assert_non_null(strstr(s, ",eth_type(0x0800),"
                           "ipv4(src=10.0.0.1/255.255.255.0,"
                           "dst=192.168.1.2/0.0.0.0,proto=6,tos=0x2e/0,"
                           "ttl=64/0,frag=no),tcp(src=80/0,dst=8080),"
                           "tcp_flags(+syn-ack), packets:0, bytes:0, "
                           "used:never, dp:ovs, actions:p2, "));
    free(s);
    fixture_destroy(&fx);
}

/* pmd-rxq-assign=cycles and group use the measured load; pmd-rxq-show
 * shows it. */
static void
set_load(struct dp_netdev_port *port, int q, uint64_t cycles)
{
    memset(port->rxqs[q].intervals, 0, sizeof port->rxqs[q].intervals);
    port->rxqs[q].intervals[0] = cycles;
}

static int
core_of(struct dp_netdev_port *port, int q)
{
    return port->rxqs[q].pmd ? port->rxqs[q].pmd->core_id : -1;
}

static void
test_rxq_assign_by_load(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct smap opts = SMAP_INITIALIZER;
    struct smap cfg = SMAP_INITIALIZER;
    char *err = NULL;

    fixture_init(&fx, "dummy-pmd", "pmd-cpu-mask=3 pmd-sleep-max=1000");
    smap_add(&opts, "n_rxq", "4");
    assert_int_equal(netdev_set_config(fx.ports[1], &opts, &err), 0);
    smap_destroy(&opts);
    dp_netdev_run(fx.dp);

    struct dp_netdev_port *p1 = dp_netdev_lookup_port(fx.dp, 1);
    assert_int_equal(p1->n_rxq, 4);
    set_load(p1, 0, 100);
    set_load(p1, 1, 10);
    set_load(p1, 2, 50);
    set_load(p1, 3, 40);

    /* cycles: 100, 50, 40, 10 dealt to cores 0, 1, 1, 0. */
    dp_netdev_request_rebalance(fx.dp);
    dp_netdev_run(fx.dp);
    assert_int_equal(core_of(p1, 0), 0);
    assert_int_equal(core_of(p1, 2), 1);
    assert_int_equal(core_of(p1, 3), 1);
    assert_int_equal(core_of(p1, 1), 0);

    /* group: each to the least loaded so far: 100 -> 0, 50 -> 1,
     * 40 -> 1 (90), 10 -> 1 (100). */
    smap_add(&cfg, "pmd-cpu-mask", "3");
    smap_add(&cfg, "pmd-sleep-max", "1000");
    smap_add(&cfg, "pmd-rxq-assign", "group");
    dp_netdev_set_config(fx.dp, &cfg, NULL);
    dp_netdev_run(fx.dp);
    assert_int_equal(core_of(p1, 0), 0);
    assert_int_equal(core_of(p1, 2), 1);
    assert_int_equal(core_of(p1, 3), 1);
    assert_int_equal(core_of(p1, 1), 1);

    /* Usage: each queue's share of its PMD's cycles, and the overhead. */
    struct dp_netdev_pmd *pmd0 = fx.dp->pmds[0];
    assert_int_equal(pmd0->core_id, 0);
    memset(pmd0->intervals_total, 0, sizeof pmd0->intervals_total);
    memset(pmd0->intervals_busy, 0, sizeof pmd0->intervals_busy);
    pmd0->intervals_total[0] = 400;
    pmd0->intervals_busy[0] = 120;
    set_load(dp_netdev_lookup_port(fx.dp, 2), 0, 0);
    set_load(dp_netdev_lookup_port(fx.dp, 3), 0, 0);
    char *s = appctl(&fx, "dpif-netdev/pmd-rxq-show", "-pmd 0");
    assert_non_null(strstr(s,
                           "  port: p1                queue-id:  0 (enabled)   "
                           "pmd usage: 25 %\n"));
    assert_non_null(strstr(s, "  overhead:  5 %\n"));
    free(s);

    smap_destroy(&cfg);
    fixture_destroy(&fx);
}

/* pmd-rxq-show for several masks and affinities, on dummy-pmd ports. */
static void
test_unixctl_rxq_show(void **state DPS_UNUSED)
{
    struct fixture fx;
    struct smap icfg = SMAP_INITIALIZER;
    char *err = NULL;

    fixture_init(&fx, "dummy-pmd", "pmd-cpu-mask=0x3 pmd-rxq-assign=roundrobin "
                 "pmd-sleep-max=1000");
    struct smap opts = SMAP_INITIALIZER;
    smap_add(&opts, "n_rxq", "3");
    assert_int_equal(netdev_set_config(fx.ports[1], &opts, &err), 0);
    smap_destroy(&opts);
    dp_netdev_run(fx.dp);

    check_appctl(&fx, "dpif-netdev/pmd-rxq-show", "",
                 "Displaying last 60 seconds pmd usage %\n"
                 "pmd thread numa_id 0 core_id 0:\n"
                 "  isolated : false\n"
                 "  port: p1                queue-id:  0 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  port: p1                queue-id:  2 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  port: p3                queue-id:  0 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  overhead: NOT AVAIL\n"
                 "pmd thread numa_id 0 core_id 1:\n"
                 "  isolated : false\n"
                 "  port: p1                queue-id:  1 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  port: p2                queue-id:  0 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  overhead: NOT AVAIL\n");

    smap_add(&icfg, "pmd-rxq-affinity", "0:1,2:1");
    assert_int_equal(dp_netdev_port_set_config(fx.dp, 1, &icfg, &err), 0);
    dp_netdev_run(fx.dp);
    check_appctl(&fx, "dpif-netdev/pmd-rxq-show", "-pmd 1",
                 "Displaying last 60 seconds pmd usage %\n"
                 "pmd thread numa_id 0 core_id 1:\n"
                 "  isolated : true\n"
                 "  port: p1                queue-id:  0 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  port: p1                queue-id:  2 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  overhead: NOT AVAIL\n");
    check_appctl(&fx, "dpif-netdev/pmd-rxq-show", "-pmd 0",
                 "Displaying last 60 seconds pmd usage %\n"
                 "pmd thread numa_id 0 core_id 0:\n"
                 "  isolated : false\n"
                 "  port: p1                queue-id:  1 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  port: p2                queue-id:  0 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  port: p3                queue-id:  0 (enabled)   "
                 "pmd usage: NOT AVAIL\n"
                 "  overhead: NOT AVAIL\n");
    smap_destroy(&icfg);
    fixture_destroy(&fx);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_forward_and_caches),
        DP_TEST(test_same_actions_merged),
        DP_TEST(test_simple_match),
        DP_TEST(test_simple_match_flow_put),
        DP_TEST(test_simple_match_pmd),
        DP_TEST(test_ports),
        DP_TEST(test_failed_upcall_and_missing_port),
        DP_TEST(test_vlan_and_set_field),
        DP_TEST(test_revalidate),
        DP_TEST(test_aging_and_flow_limit),
        DP_TEST(test_config_errors),
        DP_TEST(test_pmd_reconfigure),
        DP_TEST(test_emc_disable),
        DP_TEST(test_flow_mark),
        DP_TEST(test_tx_flush_interval),
        DP_TEST(test_execute),
        DP_TEST(test_txq_modes),
        DP_TEST(test_revalidate_under_traffic),
        DP_TEST(test_revalidate_under_traffic_smc),
        DP_TEST(test_unixctl),
        DP_TEST(test_unixctl_rxq_show),
        DP_TEST(test_rxq_assign_by_load),
        DP_TEST(test_dump_masks),
        DP_TEST(test_netdev_flush),
    };

    dp_test_init("test-dpif-netdev");
    netdev_dummy_register(NETDEV_DUMMY_ON);
    netdev_register_class(&hold_class);
    char *err = ovs_numa_set_dummy("0,0");
    assert_null(err);
    int status = cmocka_run_group_tests_name("dpif-netdev", tests, NULL,
                                             dp_test_teardown_group);
    if (appctl_server) {
        unixctl_server_destroy(appctl_server);
    }
    return status;
}
