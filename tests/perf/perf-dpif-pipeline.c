/* The whole-datapath part of perf-dpif: dpif-netdev forwarding packets
 * between two ports of a tiny in-process netdev class, "perf".
 *
 * Port "perf-in" is polled by a PMD thread; its receive queue hands out
 * 64-byte UDP packets from a stack of recycled packets (allocating new ones
 * from a template when the stack runs dry), each stamped with the next flow
 * number of the run in its IPv4 source address and its metadata reset, as
 * a device's receive would.  Port "perf-out" never receives; its transmit
 * counts the packets and pushes them back on the stack.  The upcall
 * callback answers every miss with "output to perf-out" and an exact
 * 5-tuple mask (or, with several masks, flow number k one with the k %
 * n_masks lowest bits of the source port ignored: as many subtables), so
 * each flow number becomes one megaflow.
 *
 * The PMD thread runs on CPU 1 (pmd-cpu-mask 0x2) while the main thread
 * sleeps.  Since the receive queue never runs empty, the PMD is always
 * busy, and its cycles per packet are the TSC rate over the packet rate.
 * The receive queue also times the PMD itself, from one burst to the next
 * over windows of PERF_WINDOW_BATCHES bursts: the fastest window is what a
 * packet costs when no other thread or interrupt took the CPU, a figure
 * that stays put on a busy machine where the average does not.
 *
 * Marked mode (hw-offload=true): "perf-in" has a flow API of its own that
 * plays the NIC.  Its rules are the megaflows' flow numbers (the IPv4
 * source address of their key) with their marks, and its receive queue
 * stamps the mark of the packet's flow, once the rule is there, as a NIC
 * does; so after the warm-up every packet takes the datapath's marked
 * path (flow mark -> flow, no key, no cache).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rte_cycles.h>
#include "dp-actions.h"
#include "dp-flow.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "dpif-netdev.h"
#include "dpif-netdev-private.h"
#include "dynamic-string.h"
#include "flow.h"
#include "netdev-offload.h"
#include "netdev-provider.h"
#include "netdev.h"
#include "packets.h"
#include "perf/perf-dpif-pipeline.h"
#include "smap.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

#define STACK_SIZE 4096                 /* Packets kept for recycling. */
#define POOL_SIZE 8191
#define FRAME_PAYLOAD 18                /* 60-byte frames (64 with FCS). */
#define PERF_WINDOW_BATCHES 128         /* Bursts per timing window. */

/* State shared by the two ports; only the PMD thread touches the stack
 * while the datapath runs. */
struct perf_source {
    struct rte_mempool *pool;
    uint8_t template[128];
    size_t template_size;
    uint32_t ip_src_ofs;
    struct dp_packet *stack[STACK_SIZE];
    size_t n_stack;
    uint32_t n_flows, stride, pos;      /* Flow numbers visited. */
    unsigned int n_masks;               /* Megaflow masks the upcall uses. */
    bool simple_flows;                  /* The upcall's mask: a simple-match
                                         * flow's instead. */
    uint64_t n_sent;                    /* Atomic: read by the main thread. */
    uint64_t n_alloc_fail;

    /* The PMD's own timing (perf_rxq_recv()). */
    uint64_t window_tsc;                /* Start of the current window. */
    uint32_t window_batches;            /* Full bursts in it so far. */
    uint64_t best_window;               /* Atomic: fewest cycles of one. */

    /* Check-cost mode (perf_dpif_check_cost()): the windows, in cycles,
     * sorted by the state of netdev_send_skip_egress_check, which the main
     * thread flips while the PMD runs: [1] with the check, [0] without.  A
     * window during which it flipped counts in neither. */
    bool recording;                     /* Atomic: keep windows. */
    bool window_check;                  /* The check's state at the start. */
    uint32_t *windows[2];
    size_t n_windows[2], max_windows;

    /* Marked mode: per flow number, the mark of its rule, 0 if none.  The
     * rules by UFID, to find a rule's flow number when it is deleted:
     * open addressing, deleted slots kept as tombstones. */
    uint32_t *marks;                    /* Atomic: 'n_flows' entries. */
    struct perf_rule *rules;            /* 'n_rule_slots' (a power of 2). */
    size_t n_rule_slots;
    pthread_mutex_t rules_mutex;
    uint64_t n_puts;                    /* Atomic: rules created. */
};

/* A rule of the "perf" flow API. */
struct perf_rule {
    struct dp_ufid ufid;
    uint32_t flow_no;
    bool used;                          /* Slot taken (maybe a tombstone). */
    bool live;
};

static struct perf_source src = {
    .rules_mutex = PTHREAD_MUTEX_INITIALIZER,
};

/* What perf_dpif_check_cost() switches: netdev_send_skip_egress_check, or
 * a flag of its own that nothing reads (A/A) or that only the receive half
 * of the check reads (see perf_rx_fill()); perf_dpif_merge_cost():
 * dp_netdev_no_action_merge; perf_dpif_simple_cost():
 * dp_netdev_no_simple_match. */
static bool aa_flag;
static bool rx_half_only;
static bool *switched = &netdev_send_skip_egress_check;

struct perf_netdev {
    struct netdev up;
    bool is_source;
};

struct perf_rxq {
    struct netdev_rxq up;
};

static struct perf_netdev *
perf_netdev_cast(const struct netdev *netdev)
{
    return CONTAINER_OF(netdev, struct perf_netdev, up);
}

static struct netdev *
perf_alloc(void)
{
    struct perf_netdev *p = xzalloc(sizeof *p);
    return &p->up;
}

static int
perf_construct(struct netdev *netdev)
{
    perf_netdev_cast(netdev)->is_source = !strcmp(netdev->name, "perf-in");
    netdev->n_rxq = 1;
    netdev->n_txq = 1;
    return 0;
}

static void
perf_destruct(struct netdev *netdev)
{
    (void) netdev;
}

static void
perf_dealloc(struct netdev *netdev)
{
    free(perf_netdev_cast(netdev));
}

static inline uint32_t
next_flow(void)
{
    uint32_t k = src.pos;

    src.pos += src.stride;
    src.pos -= src.pos >= src.n_flows ? src.n_flows : 0;
    return k;
}

static int
perf_send(struct netdev *netdev, int qid, struct dp_packet_batch *batch,
          bool concurrent_txq)
{
    (void) netdev;
    (void) qid;
    (void) concurrent_txq;
    for (size_t i = 0; i < batch->count; i++) {
        if (src.n_stack < STACK_SIZE) {
            src.stack[src.n_stack++] = batch->packets[i];
        } else {
            dp_packet_free(batch->packets[i]);
        }
    }
    __atomic_store_n(&src.n_sent, src.n_sent + batch->count,
                     __ATOMIC_RELAXED);
    batch->count = 0;
    return 0;
}

static struct netdev_rxq *
perf_rxq_alloc(void)
{
    struct perf_rxq *rxq = xzalloc(sizeof *rxq);
    return &rxq->up;
}

static int
perf_rxq_construct(struct netdev_rxq *rxq)
{
    (void) rxq;
    return 0;
}

static void
perf_rxq_destruct(struct netdev_rxq *rxq)
{
    (void) rxq;
}

static void
perf_rxq_dealloc(struct netdev_rxq *rxq)
{
    free(CONTAINER_OF(rxq, struct perf_rxq, up));
}

/* Times the PMD from one full burst to the next (see the top of the
 * file).  Called by the receive queue, in the PMD thread. */
static inline void
perf_time_window(void)
{
    uint64_t now = rte_rdtsc();

    if (++src.window_batches >= PERF_WINDOW_BATCHES) {
        uint64_t cycles = now - src.window_tsc;

        if (cycles < __atomic_load_n(&src.best_window, __ATOMIC_RELAXED)) {
            __atomic_store_n(&src.best_window, cycles, __ATOMIC_RELAXED);
        }
        src.window_batches = 0;
        src.window_tsc = now;

        bool check = !__atomic_load_n(switched, __ATOMIC_RELAXED);
        if (__atomic_load_n(&src.recording, __ATOMIC_ACQUIRE)
            && check == src.window_check
            && src.n_windows[check] < src.max_windows
            && cycles <= UINT32_MAX) {
            src.windows[check][src.n_windows[check]++] = cycles;
        }
        src.window_check = check;
    }
}

/* Fills 'batch' from the stack, as a device's receive would; 'summary'
 * makes it also test each packet for egress work and set the batch's
 * summary, as the DPDK classes do (lib/netdev-dpdk.c, lib/netdev-vhost.c):
 * that is part of the egress check's cost, so it goes with the check.  One
 * loop for both, so that the two differ by that work only (and a branch
 * that is always predicted). */
static void
perf_rx_fill(struct dp_packet_batch *batch, bool summary)
{
    bool pending = false;

    for (int i = 0; i < DP_PACKET_BATCH_SIZE; i++) {
        struct dp_packet *p;

        if (src.n_stack) {
            p = src.stack[--src.n_stack];
            dp_packet_md_reset(p);
        } else {
            p = dp_packet_alloc_data(src.pool, src.template,
                                     src.template_size);
            if (!p) {
                src.n_alloc_fail++;
                break;
            }
        }

        uint32_t k = next_flow();
        dps_be32 ip = htonl(0x0a000000 | k);
        memcpy((uint8_t *) dp_packet_data(p) + src.ip_src_ofs, &ip,
               sizeof ip);
        if (src.marks) {
            uint32_t mark = __atomic_load_n(&src.marks[k], __ATOMIC_ACQUIRE);
            if (mark) {
                dp_packet_set_flow_mark(p, mark);
            }
        }
        if (summary) {
            pending |= dp_packet_tx_pending(p);
        }
        batch->packets[batch->count++] = p;
    }
    if (summary) {
        dp_packet_batch_set_clean(batch, !pending);
    }
}

static int
perf_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch,
              int *qfill)
{
    if (!perf_netdev_cast(rxq->netdev)->is_source) {
        return EAGAIN;
    }
    perf_time_window();
    if (rx_half_only && __atomic_load_n(&aa_flag, __ATOMIC_RELAXED)) {
        perf_rx_fill(batch, false);
        dp_packet_batch_set_clean(batch, true);
    } else {
        perf_rx_fill(batch,
                     !__atomic_load_n(&netdev_send_skip_egress_check,
                                      __ATOMIC_RELAXED));
    }
    if (batch->count < DP_PACKET_BATCH_SIZE) {
        src.window_batches = 0;         /* Not a full window. */
        src.window_tsc = rte_rdtsc();
    }
    if (qfill) {
        *qfill = -1;
    }
    return batch->count ? 0 : EAGAIN;
}

static int
perf_get_etheraddr(const struct netdev *netdev, struct eth_addr *mac)
{
    (void) netdev;
    memset(mac, 0, sizeof *mac);
    mac->ea[0] = 0x02;
    return 0;
}

static int
perf_get_mtu(const struct netdev *netdev, int *mtu)
{
    (void) netdev;
    *mtu = 1500;
    return 0;
}

static int
perf_get_carrier(const struct netdev *netdev, bool *carrier)
{
    (void) netdev;
    *carrier = true;
    return 0;
}

static int
perf_update_flags(struct netdev *netdev, enum netdev_flags off,
                  enum netdev_flags on, enum netdev_flags *old)
{
    (void) netdev;
    (void) off;
    (void) on;
    *old = NETDEV_UP;
    return 0;
}

static int
perf_get_stats(const struct netdev *netdev, struct netdev_stats *stats)
{
    (void) netdev;
    (void) stats;
    return 0;
}

/* The "perf" flow API (marked mode). */

static struct perf_rule *
perf_rule_slot(const struct dp_ufid *ufid, bool for_insert)
{
    size_t mask = src.n_rule_slots - 1;

    for (size_t i = ufid->u32[0] & mask, n = 0; n <= mask;
         i = (i + 1) & mask, n++) {
        struct perf_rule *r = &src.rules[i];

        if (!r->used) {
            return for_insert ? r : NULL;
        }
        if (dp_flow_ufid_equal(&r->ufid, ufid)) {
            return r;
        }
    }
    return NULL;
}

static int
perf_init_flow_api(struct netdev *netdev)
{
    return (perf_netdev_cast(netdev)->is_source && src.marks
            ? 0 : EOPNOTSUPP);
}

static int
perf_flow_put(struct netdev *netdev, const struct netdev_offload_match *m,
              const struct dp_ufid *ufid,
              const struct netdev_offload_info *info)
{
    uint32_t k = ntohl(m->key.nw_src) & 0xffffff;

    (void) netdev;
    if (m->mask.nw_src != htonl(UINT32_MAX) || k >= src.n_flows) {
        return EOPNOTSUPP;
    }
    pthread_mutex_lock(&src.rules_mutex);
    struct perf_rule *r = perf_rule_slot(ufid, true);
    if (r) {
        r->used = r->live = true;
        r->ufid = *ufid;
        r->flow_no = k;
        __atomic_store_n(&src.marks[k], info->mark, __ATOMIC_RELEASE);
        __atomic_add_fetch(&src.n_puts, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&src.rules_mutex);
    return r ? 0 : ENOSPC;
}

static int
perf_flow_del(struct netdev *netdev, const struct dp_ufid *ufid)
{
    (void) netdev;
    pthread_mutex_lock(&src.rules_mutex);
    struct perf_rule *r = perf_rule_slot(ufid, false);
    bool found = r && r->live;
    if (found) {
        r->live = false;
        __atomic_store_n(&src.marks[r->flow_no], 0, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&src.rules_mutex);
    return found ? 0 : ENOENT;
}

static int
perf_flow_flush(struct netdev *netdev)
{
    (void) netdev;
    pthread_mutex_lock(&src.rules_mutex);
    for (size_t i = 0; i < src.n_rule_slots; i++) {
        if (src.rules[i].live) {
            src.rules[i].live = false;
            __atomic_store_n(&src.marks[src.rules[i].flow_no], 0,
                             __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&src.rules_mutex);
    return 0;
}

static const struct netdev_flow_api perf_flow_api = {
    .type = "perf_flow_api",
    .init_flow_api = perf_init_flow_api,
    .flow_put = perf_flow_put,
    .flow_del = perf_flow_del,
    .flow_flush = perf_flow_flush,
};

static const struct netdev_class perf_class = {
    .type = "perf",
    .is_pmd = true,
    .alloc = perf_alloc,
    .construct = perf_construct,
    .destruct = perf_destruct,
    .dealloc = perf_dealloc,
    .send = perf_send,
    .get_etheraddr = perf_get_etheraddr,
    .get_mtu = perf_get_mtu,
    .get_carrier = perf_get_carrier,
    .update_flags = perf_update_flags,
    .get_stats = perf_get_stats,
    .rxq_alloc = perf_rxq_alloc,
    .rxq_construct = perf_rxq_construct,
    .rxq_destruct = perf_rxq_destruct,
    .rxq_dealloc = perf_rxq_dealloc,
    .rxq_recv = perf_rxq_recv,
    .flow_api = &perf_flow_api,
};

/* The upcall: output to 'aux' (the port number of perf-out) with an exact
 * 5-tuple mask. */
static int
perf_upcall(void *aux, const struct flow *flow,
            const struct dp_packet *packet, struct dp_actions *actions,
            struct flow *mask)
{
    (void) packet;
    dp_actions_put_output(actions, *(const uint32_t *) aux);
    memset(mask, 0, sizeof *mask);
    mask->in_port = UINT32_MAX;
    mask->recirc_id = UINT32_MAX;
    mask->dl_type = htons(0xffff);
    if (src.simple_flows) {
        /* What "in_port=1,actions=output:2" matches. */
        mask->vlan_tci[0] = htons(VLAN_CFI);
        mask->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
        return 0;
    }
    mask->nw_src = mask->nw_dst = htonl(UINT32_MAX);
    mask->nw_proto = 0xff;
    mask->tp_src = mask->tp_dst = htons(0xffff);
    if (src.n_masks > 1) {
        /* Flow number k gets mask k % n_masks: fewer bits of the source
         * port.  The megaflows never overlap (every mask has the whole
         * IPv4 source, which is the flow number). */
        unsigned int j = (ntohl(flow->nw_src) & 0xffffff) % src.n_masks;

        mask->tp_src = htons((0xffff << j) & 0xffff);
    }
    return 0;
}

bool
perf_dpif_pipeline_available(void)
{
    return true;
}

static uint64_t
n_sent(void)
{
    return __atomic_load_n(&src.n_sent, __ATOMIC_RELAXED);
}

/* Lets the main thread run the datapath's housekeeping for 'seconds'. */
static void
run_for(struct dp_netdev *dp, double seconds)
{
    long long int end = time_msec() + (long long int) (seconds * 1000);

    while (time_msec() < end) {
        dp_netdev_run(dp);
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
}

static void
source_init(uint32_t n_flows, bool marked)
{
    static bool registered;
    struct flow f;

    if (!registered) {
        vlog_set_levels_from_string_assert("console:warn");
        netdev_dummy_register(NETDEV_DUMMY_ON);
        netdev_register_class(&perf_class);
        src.pool = dp_packet_pool_create("perf-dpif-pipe", POOL_SIZE,
                                         RTE_MBUF_DEFAULT_BUF_SIZE);
        if (!src.pool) {
            util_fatal(0, "cannot create the packet pool");
        }
        registered = true;
    }

    dp_test_ipv4_flow(&f, IPPROTO_UDP_);
    dp_test_ports(&f, 1024, 4789);
    struct dp_packet *p = flow_compose(src.pool, &f, FRAME_PAYLOAD);
    if (!p) {
        util_fatal(0, "cannot compose the template packet");
    }
    src.template_size = dp_packet_size(p);
    memcpy(src.template, dp_packet_data(p), src.template_size);
    dp_packet_free(p);

    src.ip_src_ofs = ETH_HEADER_LEN + offsetof(struct ipv4_header, src);
    src.n_flows = n_flows;
    src.stride = 611953 % n_flows;
    src.pos = 0;
    src.n_sent = 0;
    src.n_alloc_fail = 0;
    src.window_batches = 0;
    src.best_window = UINT64_MAX;
    src.n_puts = 0;
    if (marked) {
        src.marks = xcalloc(n_flows, sizeof *src.marks);
        src.n_rule_slots = 16;
        while (src.n_rule_slots < 2 * (size_t) n_flows + 16) {
            src.n_rule_slots *= 2;
        }
        src.rules = xcalloc(src.n_rule_slots, sizeof *src.rules);
    }
}

static void
source_fini(void)
{
    while (src.n_stack) {
        dp_packet_free(src.stack[--src.n_stack]);
    }
    free(src.marks);
    src.marks = NULL;
    free(src.rules);
    src.rules = NULL;
    src.n_rule_slots = 0;
}

/* Flips '*switched' at random intervals of 1 to 4 ms
 * for 'seconds', the PMD recording its windows, with the datapath's
 * housekeeping every 20 ms or so. */
static void
run_toggling(struct dp_netdev *dp, double seconds)
{
    uint64_t end = rte_rdtsc() + seconds * rte_get_tsc_hz();
    uint64_t next_run = 0;
    uint32_t x = 2463534242u;           /* xorshift32. */

    __atomic_store_n(&src.recording, true, __ATOMIC_RELEASE);
    while (rte_rdtsc() < end) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        struct timespec ts = { 0, (1000 + x % 3000) * 1000 };
        nanosleep(&ts, NULL);
        __atomic_store_n(switched, !__atomic_load_n(switched,
                                                    __ATOMIC_RELAXED),
                         __ATOMIC_RELAXED);
        if (rte_rdtsc() >= next_run) {
            dp_netdev_run(dp);
            next_run = rte_rdtsc() + rte_get_tsc_hz() / 50;
        }
    }
    __atomic_store_n(&src.recording, false, __ATOMIC_RELEASE);
    __atomic_store_n(switched, false, __ATOMIC_RELAXED);
}

static int pipeline_run(uint32_t n_flows, const struct perf_dpif_mode *,
                        bool toggle, double seconds,
                        struct perf_dpif_result *res);
static int toggled_run(double seconds, uint32_t n_flows,
                       const struct perf_dpif_mode *,
                       struct perf_dpif_check_result *);

int
perf_dpif_pipeline_run(uint32_t n_flows, bool emc_on, bool marked,
                       double seconds, struct perf_dpif_result *res)
{
    struct perf_dpif_mode mode = { .emc_on = emc_on, .marked = marked };

    return perf_dpif_pipeline_run_mode(n_flows, &mode, seconds, res);
}

/* Adds up the counters of every polling thread of 'dp'. */
static void
sum_pmd_stats(const struct dp_netdev *dp, uint64_t stats[PMD_N_STATS])
{
    memset(stats, 0, PMD_N_STATS * sizeof stats[0]);
    for (size_t i = 0; i < dp->n_pmds; i++) {
        uint64_t s[PMD_N_STATS];

        dp_netdev_pmd_get_stats(dp->pmds[i], s);
        for (int j = 0; j < PMD_N_STATS; j++) {
            stats[j] += s[j];
        }
    }
}

int
perf_dpif_pipeline_run_mode(uint32_t n_flows,
                            const struct perf_dpif_mode *mode,
                            double seconds, struct perf_dpif_result *res)
{
    return pipeline_run(n_flows, mode, false, seconds, res);
}

static int
cmp_u32(const void *a_, const void *b_)
{
    const uint32_t *a = a_, *b = b_;
    return *a < *b ? -1 : *a > *b;
}

/* The fastest window of 'n' in 'w' (sorted here) and the one at quantile
 * 'q', in cycles per packet. */
static double
window_quantile(uint32_t *w, size_t n, double q)
{
    size_t i = q * (n - 1) + 0.5;

    return (double) w[MIN(i, n - 1)] / (PERF_WINDOW_BATCHES
                                        * DP_PACKET_BATCH_SIZE);
}

int
perf_dpif_check_cost(double seconds, enum perf_check_mode mode,
                     struct perf_dpif_check_result *res)
{
    struct perf_dpif_mode dpmode = { .emc_on = true };

    switched = (mode == PERF_CHECK_ALL ? &netdev_send_skip_egress_check
                : &aa_flag);
    rx_half_only = mode == PERF_CHECK_RX;
    return toggled_run(seconds, 1, &dpmode, res);
}

int
perf_dpif_merge_cost(double seconds, uint32_t n_flows, bool marked,
                     struct perf_dpif_check_result *res)
{
    struct perf_dpif_mode dpmode = { .emc_on = true, .marked = marked };

    switched = &dp_netdev_no_action_merge;
    return toggled_run(seconds, n_flows, &dpmode, res);
}

int
perf_dpif_simple_cost(double seconds, uint32_t n_flows, bool emc_on,
                      struct perf_dpif_check_result *res)
{
    struct perf_dpif_mode dpmode = { .emc_on = emc_on, .simple_flows = true };

    switched = &dp_netdev_no_simple_match;
    return toggled_run(seconds, n_flows, &dpmode, res);
}

/* One run of the datapath in 'dpmode' with 'n_flows' flows, during which
 * '*switched' is flipped at random intervals: the PMD's windows filed
 * under the flag's state, into 'res'.  Puts 'switched' back. */
static int
toggled_run(double seconds, uint32_t n_flows,
            const struct perf_dpif_mode *dpmode,
            struct perf_dpif_check_result *res)
{
    struct perf_dpif_result pr;

    memset(res, 0, sizeof *res);
    /* A window is 4096 packets of about 100 to 300 cycles: 10 000 a second
     * is more than can be. */
    src.max_windows = 10000 * seconds + 1000;
    for (int i = 0; i < 2; i++) {
        src.windows[i] = xcalloc(src.max_windows, sizeof *src.windows[i]);
        src.n_windows[i] = 0;
    }
    int error = pipeline_run(n_flows, dpmode, true, seconds, &pr);
    for (int i = 0; !error && i < 2; i++) {
        size_t n = src.n_windows[i];

        if (n < 10) {
            fprintf(stderr, "perf-dpif: only %zu windows with the switch "
                    "%s\n", n, i ? "off" : "on");
            error = EIO;
            break;
        }
        qsort(src.windows[i], n, sizeof *src.windows[i], cmp_u32);
        res->n_windows[i] = n;
        res->best[i] = window_quantile(src.windows[i], n, 0);
        res->p10[i] = window_quantile(src.windows[i], n, 0.1);
        res->median[i] = window_quantile(src.windows[i], n, 0.5);
    }
    res->cycles = pr.cycles;
    for (int i = 0; i < 2; i++) {
        free(src.windows[i]);
        src.windows[i] = NULL;
        src.n_windows[i] = 0;
    }
    src.max_windows = 0;
    switched = &netdev_send_skip_egress_check;
    rx_half_only = false;
    return error;
}

static int
pipeline_run(uint32_t n_flows, const struct perf_dpif_mode *mode,
             bool toggle, double seconds, struct perf_dpif_result *res)
{
    bool emc_on = mode->emc_on, marked = mode->marked;
    struct netdev *in = NULL, *out = NULL;
    struct dp_netdev *dp = NULL;
    uint32_t in_no = DP_PORT_NONE, out_no = DP_PORT_NONE;
    char *err = NULL;
    int error;

    memset(res, 0, sizeof *res);
    source_init(n_flows, marked);
    src.n_masks = MIN(MAX(mode->n_masks, 1), 16);
    src.simple_flows = mode->simple_flows;

    error = dp_netdev_create(&dp);
    if (error) {
        fprintf(stderr, "perf-dpif: cannot create the datapath: %s\n",
                util_strerror(error));
        goto out;
    }

    struct smap cfg = SMAP_INITIALIZER;
    char limit[32];
    snprintf(limit, sizeof limit, "%"PRIu32, 2 * n_flows + 1000);
    smap_add(&cfg, "pmd-cpu-mask", "0x2");
    smap_add(&cfg, "emc-insert-inv-prob", emc_on ? "100" : "0");
    smap_add(&cfg, "smc-enable", mode->smc_on ? "true" : "false");
    smap_add(&cfg, "flow-limit", limit);
    smap_add(&cfg, "max-idle", "60000");
    if (marked) {
        smap_add(&cfg, "hw-offload", "true");
    }
    struct ds errors = DS_EMPTY_INITIALIZER;
    dp_netdev_set_config(dp, &cfg, &errors);
    smap_destroy(&cfg);
    if (errors.length) {
        fprintf(stderr, "perf-dpif: %s\n", ds_cstr(&errors));
    }
    ds_destroy(&errors);

    if ((error = netdev_open("perf-in", "perf", &in, &err))
        || (error = netdev_open("perf-out", "perf", &out, &err))
        || (error = dp_netdev_port_add(dp, out, &out_no, &err))) {
        goto out;
    }
    dp_netdev_set_upcall_cb(dp, perf_upcall, &out_no);
    if ((error = dp_netdev_port_add(dp, in, &in_no, &err))) {
        goto out;
    }

    /* Warm up until every flow went through the slow path and back at
     * least twice, then a little more. */
    run_for(dp, 0.1);
    long long int deadline = time_msec() + 120 * 1000;
    while ((n_sent() < 2ULL * n_flows + 100000
            || (marked && __atomic_load_n(&src.n_puts, __ATOMIC_RELAXED)
                          < n_flows))
           && time_msec() < deadline) {
        run_for(dp, 0.05);
    }
    if (marked && __atomic_load_n(&src.n_puts, __ATOMIC_RELAXED) < n_flows) {
        fprintf(stderr, "perf-dpif: only %"PRIu64" of %"PRIu32" flows "
                "offloaded\n", src.n_puts, n_flows);
        error = EIO;
        goto out;
    }
    run_for(dp, seconds / 5);

    uint64_t st0[PMD_N_STATS], st1[PMD_N_STATS];
    sum_pmd_stats(dp, st0);
    __atomic_store_n(&src.best_window, UINT64_MAX, __ATOMIC_RELAXED);
    uint64_t c0 = n_sent(), t0 = rte_rdtsc();
    if (toggle) {
        run_toggling(dp, seconds);
    } else {
        run_for(dp, seconds);
    }
    uint64_t c1 = n_sent(), t1 = rte_rdtsc();
    sum_pmd_stats(dp, st1);
    uint64_t best = __atomic_load_n(&src.best_window, __ATOMIC_RELAXED);

    if (c1 <= c0) {
        fprintf(stderr, "perf-dpif: the datapath forwarded nothing\n");
        error = EIO;
        goto out;
    }
    res->cycles = (double) (t1 - t0) / (c1 - c0);
    res->mpps = (c1 - c0) / ((double) (t1 - t0) / rte_get_tsc_hz()) / 1e6;
    res->best_cycles = (best == UINT64_MAX ? res->cycles
                        : (double) best / (PERF_WINDOW_BATCHES
                                           * DP_PACKET_BATCH_SIZE));

    double n_recv = st1[PMD_STAT_RECV] - st0[PMD_STAT_RECV];
    if (n_recv > 0) {
        res->emc_share = (st1[PMD_STAT_EXACT_HIT]
                          - st0[PMD_STAT_EXACT_HIT]) / n_recv;
        res->smc_share = (st1[PMD_STAT_SMC_HIT]
                          - st0[PMD_STAT_SMC_HIT]) / n_recv;
        res->dpcls_share = (st1[PMD_STAT_MASKED_HIT]
                            - st0[PMD_STAT_MASKED_HIT]) / n_recv;
    }

out:
    if (err) {
        fprintf(stderr, "perf-dpif: %s\n", err);
        free(err);
    }
    if (dp) {
        if (in_no != DP_PORT_NONE) {
            (void) dp_netdev_port_del(dp, in_no);
        }
        dp_netdev_destroy(dp);
    }
    netdev_close(in);
    netdev_close(out);
    source_fini();
    if (marked) {
        netdev_offload_reset();
    }
    return error;
}

/* Runs 'n_batches' batches through netdev_send() on 'nd' and returns the
 * TSC cycles they took.  Each packet's metadata is reset and its size read
 * first, as receive and flow extraction leave them in the datapath: the
 * cache lines netdev_send() reads are warm, in both variants.  With the
 * check, each packet is also tested for egress work and the batch's
 * summary set, as a receive path does (perf_rx_fill(), and one loop for
 * both in the same way). */
static uint64_t
send_batches(struct netdev *nd, int n_batches, bool check)
{
    struct dp_packet_batch batch;
    uint64_t start = rte_rdtsc();

    for (int rep = 0; rep < n_batches; rep++) {
        bool pending = false;

        /* perf_send() pushed them back on the stack. */
        dp_packet_batch_init(&batch);
        for (int i = 0; i < DP_PACKET_BATCH_SIZE; i++) {
            struct dp_packet *p = src.stack[--src.n_stack];

            dp_packet_md_reset(p);
            src.n_alloc_fail += dp_packet_size(p) == 0;
            if (check) {
                pending |= dp_packet_tx_pending(p);
            }
            batch.packets[batch.count++] = p;
        }
        if (check) {
            dp_packet_batch_set_clean(&batch, !pending);
        }
        netdev_send(nd, 0, &batch, false);
    }
    return rte_rdtsc() - start;
}


int
perf_dpif_send_cost(double seconds, double *with_check,
                    double *without_check)
{
    struct netdev *nd = NULL;
    char *err = NULL;

    source_init(1, false);
    if (netdev_open("perf-send", "perf", &nd, &err)) {
        fprintf(stderr, "perf-dpif: %s\n", err);
        free(err);
        return EIO;
    }
    for (int i = 0; i < DP_PACKET_BATCH_SIZE; i++) {
        struct dp_packet *p = dp_packet_alloc_data(src.pool, src.template,
                                                   src.template_size);
        if (!p) {
            fprintf(stderr, "perf-dpif: cannot allocate packets\n");
            netdev_close(nd);
            source_fini();
            return ENOMEM;
        }
        src.stack[src.n_stack++] = p;
    }

    /* Short bursts, the two variants taking turns; the fastest burst of
     * each is the one no other thread or interrupt disturbed. */
    enum { BURST = 64 };
    uint64_t best[2] = { UINT64_MAX, UINT64_MAX };
    uint64_t budget = seconds * rte_get_tsc_hz();
    uint64_t start = rte_rdtsc();
    do {
        for (int check = 0; check < 2; check++) {
            netdev_send_skip_egress_check = !check;
            uint64_t c = send_batches(nd, BURST, check);
            best[check] = MIN(best[check], c);
        }
    } while (rte_rdtsc() - start < budget);
    netdev_send_skip_egress_check = false;

    *with_check = (double) best[1] / (BURST * DP_PACKET_BATCH_SIZE);
    *without_check = (double) best[0] / (BURST * DP_PACKET_BATCH_SIZE);
    netdev_close(nd);
    source_fini();
    return 0;
}
