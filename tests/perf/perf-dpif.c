/* perf-dpif: cycles per packet through the userspace datapath, and where
 * they go.
 *
 * The packets come from memory: a ring of 64-byte UDP packets whose IPv4
 * source address is rewritten, as each packet is handed out, to the next
 * flow number of the run, so that one small ring of packets carries 1, 1k,
 * 100k or 1M flows (visited in a fixed pseudo-random order) without I/O.
 * Every flow has an exact 5-tuple megaflow (in_port, dl_type, IPv4
 * addresses, protocol and ports) that outputs to port 2, as the upcall of
 * a simple policy would install.
 *
 * For each flow count, with the exact-match cache on (emc-insert-inv-prob
 * 100, the default) and off (0), it times each stage on its own over the
 * same packets and keys:
 *
 *   gen      handing out packets and stamping the flow number (the
 *            benchmark's stand-in for a receive queue);
 *   extract  flow_extract_key() and flow_key_hash() (gen subtracted);
 *   EMC      dp_emc_lookup(), and on a miss dp_emc_probabilistic_insert();
 *   dpcls    dpcls_lookup() in batches of 32, per lookup times the share of
 *            packets that missed the EMC;
 *   actions  reading the flow's actions, its statistics, batching per
 *            output port and handing the batch to the port;
 *
 * then the same stages chained in one loop, as a PMD runs them ("chained"),
 * and, when the datapath is built, the whole of dpif-netdev ("dpif-netdev"):
 * a PMD thread polling a port of a tiny in-process netdev class ("perf")
 * whose receive queue hands out those packets and whose transmit recycles
 * them, with an upcall callback that returns the exact 5-tuple megaflow.
 *
 * Usage: perf-dpif [SECONDS_PER_CELL [MAX_FLOWS]]   (defaults 0.5, 1000000)
 *        perf-dpif csum [SECONDS [ROUNDS [all|aa|rx]]] (defaults 1, 5)
 *        perf-dpif marked [SECONDS [MAX_FLOWS]]       (defaults 1, 100000)
 *        perf-dpif smc [SECONDS [MAX_FLOWS [ROUNDS [MASKS]]]]
 *                                           (defaults 1, 100000, 1, 1)
 *        perf-dpif merge [SECONDS [ROUNDS [MAX_FLOWS]]] (defaults 1, 3,
 *                                                          100000)
 *        perf-dpif simple [SECONDS [ROUNDS [MAX_FLOWS]]] (the same)
 *
 * "marked" measures the partial-offload path: the whole datapath with
 * hw-offload=true on a port whose flow API marks every packet of an
 * offloaded flow, so each packet is found by its mark (no key extraction,
 * no cache), against the same datapath without offload, EMC on and off.
 * Each cell gives the average cycles per packet and those of the PMD's
 * fastest window of 4096 packets, which a busy machine disturbs far less.
 *
 * "merge" measures what running a burst's flows that have the same actions
 * as one batch saves (lib/dpif-netdev.c): at 1, 1000 and 100000 flows, EMC
 * on, found by the caches and by mark, one run each per round during which
 * dp_netdev_no_action_merge is switched on and off at random intervals of
 * 1 to 4 ms, as "csum" switches its check.  Every flow of this benchmark
 * outputs to the same port, so with many flows a burst of 32 packets is 32
 * flows with the same actions.
 *
 * "simple" measures simple match (lib/dp-simple.h): every packet of the
 * run, whatever its IPv4 source (1, 1000 or 100000 microflows), matches
 * one megaflow that a port-to-port "in_port=1,actions=output:2" table
 * gives (in_port, eth_type, VLAN CFI, fragment bits), found by the
 * simple-match table or, while dp_netdev_no_simple_match is on, by the
 * EMC and the classifier; switched on and off at random within each run
 * as "merge" switches its merge, with the EMC on and off.
 *
 * "smc" measures the signature-match cache (smc-enable): the whole datapath
 * at each flow count with the EMC on and off, and for each the SMC off and
 * on, in that order, ROUNDS times (the order of SMC off and on alternating
 * from round to round).  Each cell gives the average cycles per packet,
 * those of the fastest window and the share of packets the EMC, the SMC
 * and the classifier found; the last columns are the SMC's gain in packets
 * per cycle over the SMC off, from the fastest windows (medians over the
 * rounds).  With MASKS (1 to 16), the flows' megaflows have that many
 * masks (flow number k the k % MASKS lowest bits of its source port
 * ignored), so that the classifier has that many subtables to search.
 *
 * "csum" measures what netdev_send()'s egress check (pending checksums,
 * TSO, chains) costs when nothing is pending and the port offloads nothing.
 * In each of ROUNDS rounds: netdev_send() alone on batches of 32 packets
 * with and without the check (netdev_send_skip_egress_check; short bursts
 * of each in turn, the fastest burst of each counts); then the whole
 * datapath (1 flow, EMC on) in one run during which the main thread
 * switches the check on and off at random intervals of 1 to 4 ms, the PMD
 * timing windows of 4096 packets and filing each under the state it ran
 * in (a window during which the state changed is dropped).  It prints the
 * fastest and the median windows of each state and their differences, the
 * medians over the rounds, and the check's cost as a share of the cycles
 * of a packet through the datapath.  Interleaving within one run cancels
 * what drifts between runs (other load, where the pools landed), which
 * blurred two separate runs by several percent.  "aa" makes the whole
 * datapath part an A/A run: the same switching of a flag nothing reads,
 * the check always on, whose differences show the method's own spread;
 * "rx" switches the receive half of the check alone (the per-packet test
 * that sets the batch's egress summary; "off" marks each batch clean
 * untested), every other instruction the same in both states.

 * Times are TSC cycles (rte_rdtsc()) per packet.  Run it alone on a quiet
 * machine: no busy-polling process on either CPU.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_cycles.h>
#include <rte_prefetch.h>
#include "dp-emc.h"
#include "dp-flow.h"
#include "dp-packet.h"
#include "dp-rcu.h"
#include "dp-test.h"
#include "dpcls.h"
#include "flow.h"
#include "netdev.h"
#include "packets.h"
#include "perf/perf-dpif-pipeline.h"
#include "util.h"

#define BATCH DP_PACKET_BATCH_SIZE
#define RING 1024                       /* Packets cycled through. */
#define OUT_PORT 2
#define IN_PORT 1
#define FRAME_PAYLOAD 18                /* 14 + 20 + 8 + 18 = 60 (+ FCS). */

/* The flow numbers of a run, visited in a fixed pseudo-random order:
 * steps of a stride prime to the number of flows. */
struct cursor {
    uint32_t n, stride, pos;
};

static void
cursor_init(struct cursor *c, uint32_t n_flows)
{
    c->n = n_flows;
    c->stride = 611953 % n_flows;       /* Prime: coprime to any count. */
    c->pos = 0;
}

static inline uint32_t
cursor_next(struct cursor *c)
{
    uint32_t k = c->pos;

    c->pos += c->stride;
    c->pos -= c->pos >= c->n ? c->n : 0;
    return k;
}

/* The IPv4 source address that carries flow number 'k'. */
static inline dps_be32
flow_src(uint32_t k)
{
    return htonl(0x0a000000 | k);
}

struct bench {
    uint32_t n_flows;
    struct dp_rcu *rcu;
    struct dpcls cls;
    struct dp_flow **flows;             /* Indexed by flow number. */
    struct flow_key *keys;              /* Extracted key of each flow. */
    uint32_t *hashes;                   /* flow_key_hash() of each key. */
    struct flow_key mask;               /* The exact 5-tuple mask. */
    struct dp_packet *ring[RING];
    unsigned int ring_pos;
    uint32_t ip_src_ofs;                /* Offset of the IPv4 source. */
    uint64_t sink;
};

/* Writes flow number 'k' into packet 'p'. */
static inline void
stamp(const struct bench *b, struct dp_packet *p, uint32_t k)
{
    dps_be32 src = flow_src(k);

    memcpy((uint8_t *) dp_packet_data(p) + b->ip_src_ofs, &src, sizeof src);
}

/* Hands out the next BATCH packets of the ring, stamped with the next flow
 * numbers of 'c' (written to 'ks'). */
static inline void
gen_batch(struct bench *b, struct cursor *c, struct dp_packet *pkts[],
          uint32_t ks[])
{
    for (int i = 0; i < BATCH; i++) {
        struct dp_packet *p = b->ring[b->ring_pos++ % RING];

        ks[i] = cursor_next(c);
        stamp(b, p, ks[i]);
        pkts[i] = p;
    }
}

/* The actions a flow holds: one output port. */
static inline uint32_t
flow_out_port(const struct dp_flow *f)
{
    uint32_t port;

    memcpy(&port, dp_flow_get_actions(f)->data, sizeof port);
    return port;
}

/* The benchmark's own transmit: hands the packets back to the ring (they
 * are the ring's already), counting them. */
static inline void
bench_tx(struct bench *b, struct dp_packet_batch *batch)
{
    b->sink += batch->count;
    batch->count = 0;
}

static void
bench_create(struct bench *b, uint32_t n_flows)
{
    struct flow f, m;

    memset(b, 0, sizeof *b);
    b->n_flows = n_flows;
    b->rcu = dp_rcu_create(1);
    dpcls_init(&b->cls, b->rcu);

    /* The exact 5-tuple mask. */
    memset(&m, 0, sizeof m);
    m.in_port = UINT32_MAX;
    m.dl_type = htons(0xffff);
    m.nw_src = m.nw_dst = htonl(UINT32_MAX);
    m.nw_proto = 0xff;
    m.tp_src = m.tp_dst = htons(0xffff);
    flow_key_from_flow(&b->mask, &m);

    dp_test_ipv4_flow(&f, IPPROTO_UDP_);
    dp_test_ports(&f, 1024, 4789);
    f.in_port = IN_PORT;
    for (int i = 0; i < RING; i++) {
        b->ring[i] = flow_compose(dp_test_pools.std, &f, FRAME_PAYLOAD);
        if (!b->ring[i]) {
            util_fatal(0, "cannot compose packets");
        }
    }
    b->ip_src_ofs = ETH_HEADER_LEN + offsetof(struct ipv4_header, src);

    /* One megaflow per flow number, keyed on what extraction gives. */
    uint32_t port = OUT_PORT;
    b->flows = xcalloc(n_flows, sizeof *b->flows);
    b->keys = xmalloc(n_flows * sizeof *b->keys);
    b->hashes = xmalloc(n_flows * sizeof *b->hashes);
    for (uint32_t k = 0; k < n_flows; k++) {
        struct dp_packet *p = b->ring[0];

        stamp(b, p, k);
        flow_extract_key(p, &b->keys[k]);
        b->hashes[k] = flow_key_hash(&b->keys[k], 0);
        b->flows[k] = dp_flow_create(b->rcu, &b->keys[k], &b->mask,
                                     &port, sizeof port, NULL);
        if (dpcls_insert(&b->cls, &b->flows[k]->cr, &b->flows[k]->key,
                         &b->flows[k]->mask)) {
            util_fatal(0, "cannot insert megaflow %"PRIu32, k);
        }
    }
    dp_rcu_barrier(b->rcu);
    dp_rcu_register(b->rcu, 0);
}

static void
bench_destroy(struct bench *b)
{
    for (uint32_t k = 0; k < b->n_flows; k++) {
        dpcls_remove(&b->cls, &b->flows[k]->cr);
        dp_flow_mark_dead(b->flows[k]);
        dp_flow_unref(b->flows[k]);
    }
    dp_rcu_unregister(b->rcu, 0);
    dpcls_destroy(&b->cls);
    dp_rcu_barrier(b->rcu);
    dp_rcu_destroy(b->rcu);
    for (int i = 0; i < RING; i++) {
        dp_packet_free(b->ring[i]);
    }
    free(b->flows);
    free(b->keys);
    free(b->hashes);
}

/* Runs one stage.  Each stage function handles BATCH packets per call and
 * returns how many it handled. */
enum stage {
    ST_GEN,
    ST_EXTRACT,                 /* gen + extract + hash. */
    ST_EMC,
    ST_DPCLS,
    ST_ACTIONS,
    ST_CHAINED,
};

struct run {
    struct bench *b;
    struct dp_emc *emc;         /* NULL: EMC off. */
    struct cursor c;
    uint64_t n_emc_hits;
    uint64_t n_packets;
};

static void
stage_gen(struct run *r)
{
    struct dp_packet *pkts[BATCH];
    uint32_t ks[BATCH];

    gen_batch(r->b, &r->c, pkts, ks);
    for (int i = 0; i < BATCH; i++) {
        r->b->sink += pkts[i]->md.in_port;
    }
}

static void
stage_extract(struct run *r)
{
    struct dp_packet *pkts[BATCH];
    struct flow_key key;
    uint32_t ks[BATCH];

    gen_batch(r->b, &r->c, pkts, ks);
    for (int i = 0; i < BATCH; i++) {
        flow_extract_key(pkts[i], &key);
        r->b->sink += flow_key_hash(&key, 0);
    }
}

static void
stage_emc(struct run *r)
{
    struct bench *b = r->b;
    uint32_t ks[BATCH];

    for (int i = 0; i < BATCH; i++) {
        ks[i] = cursor_next(&r->c);
        dp_emc_prefetch(r->emc, b->hashes[ks[i]]);
    }
    for (int i = 0; i < BATCH; i++) {
        uint32_t k = ks[i];
        struct dp_flow *f = dp_emc_lookup(r->emc, &b->keys[k],
                                          b->hashes[k]);
        if (f) {
            r->n_emc_hits++;
        } else {
            dp_emc_probabilistic_insert(r->emc, &b->keys[k], b->hashes[k],
                                        b->flows[k]);
        }
    }
}

static void
stage_dpcls(struct run *r)
{
    const struct flow_key *kp[BATCH];
    struct dpcls_rule *rules[BATCH];

    for (int i = 0; i < BATCH; i++) {
        kp[i] = &r->b->keys[cursor_next(&r->c)];
    }
    if (!dpcls_lookup(&r->b->cls, kp, BATCH, rules, NULL)) {
        util_fatal(0, "unexpected classifier miss");
    }
}

/* Output actions for 'n' packets of flows 'fl': statistics, batching per
 * port (one port here), then the port's transmit. */
static inline void
do_actions(struct bench *b, struct dp_packet *pkts[], struct dp_flow *fl[],
           int n)
{
    struct dp_packet_batch out;
    uint64_t now = rte_rdtsc();

    dp_packet_batch_init(&out);
    for (int i = 0; i < n; i++) {
        uint32_t port = flow_out_port(fl[i]);

        dp_flow_used(fl[i], 1, dp_packet_size(pkts[i]), 0, now);
        if (port == OUT_PORT) {
            dp_packet_batch_add(&out, pkts[i]);
        }
    }
    bench_tx(b, &out);
}

static void
stage_actions(struct run *r)
{
    struct bench *b = r->b;
    struct dp_packet *pkts[BATCH];
    struct dp_flow *fl[BATCH];

    for (int i = 0; i < BATCH; i++) {
        pkts[i] = b->ring[b->ring_pos++ % RING];
        fl[i] = b->flows[cursor_next(&r->c)];
    }
    do_actions(b, pkts, fl, BATCH);
}

/* Everything in one loop, as a PMD iteration does it. */
static void
stage_chained(struct run *r)
{
    struct bench *b = r->b;
    struct dp_packet *pkts[BATCH];
    struct flow_key keys[BATCH];
    uint32_t hashes[BATCH], ks[BATCH];
    struct dp_flow *fl[BATCH];
    const struct flow_key *miss_keys[BATCH];
    struct dpcls_rule *rules[BATCH];
    int miss_idx[BATCH], n_miss = 0;

    gen_batch(b, &r->c, pkts, ks);
    for (int i = 0; i < BATCH; i++) {
        flow_extract_key(pkts[i], &keys[i]);
        hashes[i] = flow_key_hash(&keys[i], 0);
        if (r->emc) {
            dp_emc_prefetch(r->emc, hashes[i]);
        }
    }
    for (int i = 0; i < BATCH; i++) {
        fl[i] = r->emc ? dp_emc_lookup(r->emc, &keys[i], hashes[i]) : NULL;
        if (!fl[i]) {
            miss_keys[n_miss] = &keys[i];
            miss_idx[n_miss++] = i;
        }
    }
    r->n_emc_hits += BATCH - n_miss;
    if (n_miss) {
        if (!dpcls_lookup(&b->cls, miss_keys, n_miss, rules, NULL)) {
            util_fatal(0, "unexpected classifier miss");
        }
        for (int j = 0; j < n_miss; j++) {
            int i = miss_idx[j];

            fl[i] = CONTAINER_OF(rules[j], struct dp_flow, cr);
            if (r->emc) {
                dp_emc_probabilistic_insert(r->emc, &keys[i], hashes[i],
                                            fl[i]);
            }
        }
    }
    do_actions(b, pkts, fl, BATCH);
}

typedef void stage_func(struct run *);

static stage_func *const stage_funcs[] = {
    [ST_GEN] = stage_gen,
    [ST_EXTRACT] = stage_extract,
    [ST_EMC] = stage_emc,
    [ST_DPCLS] = stage_dpcls,
    [ST_ACTIONS] = stage_actions,
    [ST_CHAINED] = stage_chained,
};

struct result {
    double cycles;              /* Per packet. */
    double emc_hit;             /* Fraction of EMC lookups that hit. */
};

/* Runs 'stage' for 'seconds' after a warm-up of a tenth of that (which
 * fills the EMC to its steady state). */
static struct result
run_stage(struct bench *b, enum stage stage, bool emc_on, double seconds)
{
    uint64_t hz = rte_get_tsc_hz();
    struct result res = { 0, 0 };
    struct run r;

    memset(&r, 0, sizeof r);
    r.b = b;
    r.emc = emc_on ? dp_emc_create() : NULL;
    cursor_init(&r.c, b->n_flows);

    for (int pass = 0; pass < 2; pass++) {
        uint64_t budget = (pass ? seconds : seconds / 10) * hz;
        uint64_t start = rte_rdtsc(), now;

        r.n_packets = r.n_emc_hits = 0;
        do {
            for (int rep = 0; rep < 64; rep++) {
                stage_funcs[stage](&r);
            }
            r.n_packets += 64 * BATCH;
            dp_rcu_quiescent(b->rcu, 0);
            now = rte_rdtsc();
        } while (now - start < budget);
        res.cycles = (double) (now - start) / r.n_packets;
        res.emc_hit = (double) r.n_emc_hits / r.n_packets;
    }
    if (r.emc) {
        dp_emc_destroy(r.emc);
    }
    return res;
}

/* Warns about what would disturb the figures: other busy-polling data
 * planes and a high load average. */
static void
check_quiet(void)
{
    DIR *proc = opendir("/proc");
    int n_planes = 0;
    double load = 0;

    for (struct dirent *de; proc && (de = readdir(proc)) != NULL; ) {
        char path[300], comm[64] = "";

        if (de->d_name[0] < '0' || de->d_name[0] > '9'
            || atoi(de->d_name) == getpid()) {
            continue;
        }
        snprintf(path, sizeof path, "/proc/%s/comm", de->d_name);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fgets(comm, sizeof comm, f)
                && (!strncmp(comm, "dpdk-testpmd", 12)
                    || !strncmp(comm, "ovs-vswitchd", 12))) {
                n_planes++;
            }
            fclose(f);
        }
    }
    if (proc) {
        closedir(proc);
    }

    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1) {
            load = 0;
        }
        fclose(f);
    }
    if (n_planes || load > 1.5) {
        printf("warning: %d other data plane process%s running, load "
               "average %.1f: the figures are contended\n", n_planes,
               n_planes == 1 ? "" : "es", load);
    }
}

static int
cmp_double(const void *a_, const void *b_)
{
    const double *a = a_, *b = b_;
    return *a < *b ? -1 : *a > *b;
}

static double
median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* For 'n_cols' columns of 'rounds' values each, in pairs (column 2k "on",
 * 2k + 1 "off"): each column's median into 'm', and into 'dm' the median
 * over the rounds of each pair's difference (the rounds are paired: each
 * round measured both sides in one run).  Sorts the columns. */
static void
paired_medians(double **v, int n_cols, int rounds, double *m, double *dm)
{
    double *d = xcalloc(rounds, sizeof *d);

    for (int c = 0; c < n_cols; c += 2) {
        for (int r = 0; r < rounds; r++) {
            d[r] = v[c][r] - v[c + 1][r];
        }
        dm[c / 2] = median(d, rounds);
    }
    free(d);
    for (int c = 0; c < n_cols; c++) {
        m[c] = median(v[c], rounds);
    }
}

/* perf-dpif csum: see the comment at the top. */
static int
run_csum(double seconds, int rounds, enum perf_check_mode mode)
{
    enum { SEND_ON, SEND_OFF, BEST_ON, BEST_OFF, MED_ON, MED_OFF, N_COLS };
    double *v[N_COLS];
    bool have_dpif = perf_dpif_pipeline_available();
    int error = 0;

    for (int c = 0; c < N_COLS; c++) {
        v[c] = xcalloc(rounds, sizeof *v[c]);
    }
    check_quiet();
    printf("netdev_send() egress check, nothing pending, a port without "
           "offloads or chains;\n64-byte UDP packets, batches of 32, "
           "TSC %.2f GHz, %.2f s per cell; cycles per packet\n\n",
           rte_get_tsc_hz() / 1e9, seconds);
    printf("%5s | %21s | %45s\n", "", "netdev_send() alone",
           (mode == PERF_CHECK_AA ? "dpif-netdev, A/A: a flag nothing reads"
            : mode == PERF_CHECK_RX ? "dpif-netdev, receive half switched"
            : "dpif-netdev, check switched on and off"));
    printf("%5s | %6s %6s %6s | %6s %6s %6s | %6s %6s %6s %7s\n", "round",
           "+check", "-check", "delta", "best+", "best-", "delta", "med+",
           "med-", "delta", "windows");
    for (int r = 0; r < rounds && !error; r++) {
        struct perf_dpif_check_result cr;

        error = perf_dpif_send_cost(seconds, &v[SEND_ON][r],
                                    &v[SEND_OFF][r]);
        if (!error && have_dpif) {
            error = perf_dpif_check_cost(seconds, mode, &cr);
            v[BEST_ON][r] = cr.best[1];
            v[BEST_OFF][r] = cr.best[0];
            v[MED_ON][r] = cr.median[1];
            v[MED_OFF][r] = cr.median[0];
        }
        if (!error) {
            printf("%5d | %6.2f %6.2f %6.2f | %6.1f %6.1f %6.2f | %6.1f "
                   "%6.1f %6.2f %3zu/%-3zu\n", r + 1,
                   v[SEND_ON][r], v[SEND_OFF][r],
                   v[SEND_ON][r] - v[SEND_OFF][r],
                   v[BEST_ON][r], v[BEST_OFF][r],
                   v[BEST_ON][r] - v[BEST_OFF][r],
                   v[MED_ON][r], v[MED_OFF][r],
                   v[MED_ON][r] - v[MED_OFF][r],
                   have_dpif ? cr.n_windows[1] : 0,
                   have_dpif ? cr.n_windows[0] : 0);
            fflush(stdout);
        }
    }
    if (!error) {
        double m[N_COLS], dm[N_COLS / 2];

        paired_medians(v, N_COLS, rounds, m, dm);
        printf("%5s | %6.2f %6.2f %6.2f | %6.1f %6.1f %6.2f | %6.1f %6.1f "
               "%6.2f\n", "med", m[SEND_ON], m[SEND_OFF], dm[0],
               m[BEST_ON], m[BEST_OFF], dm[1], m[MED_ON], m[MED_OFF], dm[2]);
        if (have_dpif && m[BEST_OFF] > 0) {
            printf("\negress check in dpif-netdev: %.2f cycles per packet in "
                   "the fastest windows\n= %.2f%% of the %.1f cycles of a "
                   "packet (median windows: %.2f = %.2f%% of %.1f);\n"
                   "netdev_send() alone: %.2f cycles = %.2f%% (target: at "
                   "most 0.5%%)\n(medians over the rounds of each round's "
                   "difference)\n", dm[1], 100.0 * dm[1] / m[BEST_OFF],
                   m[BEST_OFF], dm[2], 100.0 * dm[2] / m[MED_OFF],
                   m[MED_OFF], dm[0], 100.0 * dm[0] / m[BEST_OFF]);
        }
    }
    for (int c = 0; c < N_COLS; c++) {
        free(v[c]);
    }
    return error;
}

/* A benchmark that switches one thing on and off at random within each
 * run: "merge" and "simple". */
struct switched_bench {
    const char *title;                  /* Printed first. */
    const char *paths[2];               /* Row labels, for 'variant' 0, 1. */
    int (*cost)(double seconds, uint32_t n_flows, bool variant,
                struct perf_dpif_check_result *);
    const char *legend;                 /* Printed last. */
};

static const struct switched_bench merge_bench = {
    "flows with the same actions in a burst run as one batch, switched on "
    "and off\nat random within each run; 64-byte UDP packets, exact "
    "5-tuple megaflows,\noutput to one port, EMC on",
    { "EMC", "marked" },
    perf_dpif_merge_cost,
    "+: merged (the default), -: one batch per flow "
    "(dp_netdev_no_action_merge)",
};

static const struct switched_bench simple_bench = {
    "simple match switched on and off at random within each run; 64-byte "
    "UDP\npackets of FLOWS microflows (IPv4 sources), one "
    "\"in_port=1,actions=output:2\"\nmegaflow (in_port, eth_type, VLAN "
    "CFI, fragment bits), EMC on and off",
    { "no EMC", "EMC" },
    perf_dpif_simple_cost,
    "+: simple match (the default), -: the usual path "
    "(dp_netdev_no_simple_match)",
};

/* perf-dpif merge and simple: see the comment at the top. */
static int
run_switched(const struct switched_bench *b, double seconds, int rounds,
             uint32_t max_flows)
{
    static const uint32_t flow_counts[] = { 1, 1000, 100000 };
    enum { BEST_ON, BEST_OFF, MED_ON, MED_OFF, N_COLS };
    int error = 0;

    if (!perf_dpif_pipeline_available()) {
        fprintf(stderr, "perf-dpif: the datapath is not built in\n");
        return 1;
    }
    check_quiet();
    printf("%s; TSC %.2f GHz, %.2f s per run; cycles per packet\n\n",
           b->title, rte_get_tsc_hz() / 1e9, seconds);
    printf("%7s %6s %5s | %6s %6s %6s | %6s %6s %6s %7s\n", "flows",
           "path", "round", "best+", "best-", "delta", "med+", "med-",
           "delta", "windows");
    for (size_t fi = 0; fi < ARRAY_SIZE(flow_counts) && !error; fi++) {
        for (int variant = 0; variant <= 1 && !error; variant++) {
            uint32_t n_flows = flow_counts[fi];
            double *v[N_COLS];

            if (n_flows > max_flows) {
                continue;
            }
            for (int c = 0; c < N_COLS; c++) {
                v[c] = xcalloc(rounds, sizeof *v[c]);
            }
            for (int r = 0; r < rounds && !error; r++) {
                struct perf_dpif_check_result cr;

                error = b->cost(seconds, n_flows, variant, &cr);
                if (error) {
                    break;
                }
                v[BEST_ON][r] = cr.best[1];
                v[BEST_OFF][r] = cr.best[0];
                v[MED_ON][r] = cr.median[1];
                v[MED_OFF][r] = cr.median[0];
                printf("%7"PRIu32" %6s %5d | %6.1f %6.1f %6.1f | %6.1f %6.1f "
                       "%6.1f %3zu/%-3zu\n", n_flows, b->paths[variant],
                       r + 1, v[BEST_ON][r], v[BEST_OFF][r],
                       v[BEST_ON][r] - v[BEST_OFF][r],
                       v[MED_ON][r], v[MED_OFF][r],
                       v[MED_ON][r] - v[MED_OFF][r],
                       cr.n_windows[1], cr.n_windows[0]);
                fflush(stdout);
            }
            if (!error && rounds > 1) {
                double m[N_COLS], dm[N_COLS / 2];

                paired_medians(v, N_COLS, rounds, m, dm);
                printf("%7"PRIu32" %6s %5s | %6.1f %6.1f %6.1f | %6.1f %6.1f "
                       "%6.1f\n", n_flows, b->paths[variant], "med",
                       m[BEST_ON], m[BEST_OFF], dm[0], m[MED_ON],
                       m[MED_OFF], dm[1]);
            }
            for (int c = 0; c < N_COLS; c++) {
                free(v[c]);
            }
        }
    }
    if (!error) {
        printf("\n%s;\nbest: the fastest window of 4096 packets, med: the "
               "median window; delta < 0: the\nfirst saves (med rows: "
               "medians over the rounds of each round's difference)\n",
               b->legend);
    }
    return error;
}

/* perf-dpif marked: see the comment at the top. */
static int
run_marked(double seconds, uint32_t max_flows)
{
    static const uint32_t flow_counts[] = { 1, 1000, 100000, 1000000 };
    static const struct {
        const char *name;
        bool emc_on, marked;
    } modes[] = {
        { "EMC off", false, false },
        { "EMC on", true, false },
        { "marked", true, true },
    };

    if (!perf_dpif_pipeline_available()) {
        fprintf(stderr, "perf-dpif: the datapath is not built in\n");
        return 1;
    }
    check_quiet();
    printf("dpif-netdev, 64-byte UDP packets, exact 5-tuple megaflows, "
           "output to one port;\nTSC %.2f GHz, %.2f s per cell; cycles per "
           "packet: average / fastest window\n\n", rte_get_tsc_hz() / 1e9,
           seconds);
    printf("%8s", "flows");
    for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
        printf(" | %17s", modes[m].name);
    }
    printf(" | %6s\n", "gain");
    for (size_t fi = 0; fi < ARRAY_SIZE(flow_counts); fi++) {
        uint32_t n_flows = flow_counts[fi];
        double best[ARRAY_SIZE(modes)];

        if (n_flows > max_flows) {
            continue;
        }
        printf("%8"PRIu32, n_flows);
        for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
            struct perf_dpif_result pr;

            if (perf_dpif_pipeline_run(n_flows, modes[m].emc_on,
                                       modes[m].marked, seconds, &pr)) {
                return 1;
            }
            best[m] = pr.best_cycles;
            printf(" | %8.1f %8.1f", pr.cycles, pr.best_cycles);
            fflush(stdout);
        }
        /* Marked against the better of the two unmarked, fastest
         * windows. */
        printf(" | %+5.0f%%\n",
               100.0 * (MIN(best[0], best[1]) / best[2] - 1));
    }
    printf("\ngain: packets per cycle of the marked path over the faster "
           "unmarked one\n(fastest windows).\n");
    return 0;
}

/* perf-dpif smc: see the comment at the top. */
static int
run_smc(double seconds, uint32_t max_flows, int rounds, unsigned int masks)
{
    static const uint32_t flow_counts[] = { 1, 1000, 100000, 1000000 };

    if (!perf_dpif_pipeline_available()) {
        fprintf(stderr, "perf-dpif: the datapath is not built in\n");
        return 1;
    }
    check_quiet();
    printf("dpif-netdev, 64-byte UDP packets, exact 5-tuple megaflows, "
           "%u mask%s, output to one port;\nTSC %.2f GHz, %.2f s per cell, "
           "%d round%s; cycles per packet: average / fastest\nwindow, then "
           "the shares of packets found in the EMC / SMC / classifier\n\n",
           masks, masks == 1 ? "" : "s", rte_get_tsc_hz() / 1e9, seconds,
           rounds, rounds == 1 ? "" : "s");
    printf("%8s %4s %5s | %8s %8s | %5s %5s %5s\n", "flows", "EMC", "SMC",
           "average", "fastest", "emc%", "smc%", "cls%");
    for (size_t fi = 0; fi < ARRAY_SIZE(flow_counts); fi++) {
        uint32_t n_flows = flow_counts[fi];

        if (n_flows > max_flows) {
            continue;
        }
        for (int emc_on = 1; emc_on >= 0; emc_on--) {
            double *best[2];

            for (int smc = 0; smc < 2; smc++) {
                best[smc] = xcalloc(rounds, sizeof *best[smc]);
            }
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    int smc = (r + k) % 2;
                    struct perf_dpif_mode mode = {
                        .emc_on = emc_on, .smc_on = smc, .n_masks = masks,
                    };
                    struct perf_dpif_result pr;

                    if (perf_dpif_pipeline_run_mode(n_flows, &mode, seconds,
                                                    &pr)) {
                        return 1;
                    }
                    best[smc][r] = pr.best_cycles;
                    printf("%8"PRIu32" %4s %5s | %8.1f %8.1f | %5.1f %5.1f "
                           "%5.1f\n", n_flows, emc_on ? "on" : "off",
                           smc ? "on" : "off", pr.cycles, pr.best_cycles,
                           100 * pr.emc_share, 100 * pr.smc_share,
                           100 * pr.dpcls_share);
                    fflush(stdout);
                }
            }
            double off = median(best[0], rounds), on = median(best[1], rounds);
            printf("%8"PRIu32" %4s  gain | fastest windows, median: SMC off "
                   "%.1f, on %.1f: %+.0f%%\n", n_flows,
                   emc_on ? "on" : "off", off, on, 100.0 * (off / on - 1));
            free(best[0]);
            free(best[1]);
        }
    }
    return 0;
}

int
main(int argc, char *argv[])
{
    if (argc > 1 && !strcmp(argv[1], "smc")) {
        double seconds = argc > 2 ? strtod(argv[2], NULL) : 1.0;
        uint32_t max_flows = argc > 3 ? strtoul(argv[3], NULL, 0) : 100000;
        int rounds = argc > 4 ? atoi(argv[4]) : 1;
        int masks = argc > 5 ? atoi(argv[5]) : 1;

        util_set_program_name(argv[0]);
        if (seconds <= 0 || !max_flows || rounds <= 0 || masks < 1
            || masks > 16) {
            util_fatal(0, "usage: %s smc [SECONDS [MAX_FLOWS [ROUNDS "
                       "[MASKS]]]]", argv[0]);
        }
        dp_test_init("perf-dpif");
        int error = run_smc(seconds, max_flows, rounds, masks);
        dp_test_fini();
        return error;
    }
    if (argc > 1 && !strcmp(argv[1], "marked")) {
        double seconds = argc > 2 ? strtod(argv[2], NULL) : 1.0;
        uint32_t max_flows = argc > 3 ? strtoul(argv[3], NULL, 0) : 100000;

        util_set_program_name(argv[0]);
        if (seconds <= 0 || !max_flows) {
            util_fatal(0, "usage: %s marked [SECONDS [MAX_FLOWS]]", argv[0]);
        }
        dp_test_init("perf-dpif");
        int error = run_marked(seconds, max_flows);
        dp_test_fini();
        return error;
    }
    if (argc > 1 && (!strcmp(argv[1], "merge")
                     || !strcmp(argv[1], "simple"))) {
        double seconds = argc > 2 ? strtod(argv[2], NULL) : 1.0;
        int rounds = argc > 3 ? atoi(argv[3]) : 3;
        uint32_t max_flows = argc > 4 ? strtoul(argv[4], NULL, 0) : 100000;

        util_set_program_name(argv[0]);
        if (seconds <= 0 || rounds <= 0 || !max_flows) {
            util_fatal(0, "usage: %s %s [SECONDS [ROUNDS [MAX_FLOWS]]]",
                       argv[0], argv[1]);
        }
        dp_test_init("perf-dpif");
        int error = run_switched(!strcmp(argv[1], "merge") ? &merge_bench
                                 : &simple_bench, seconds, rounds, max_flows);
        dp_test_fini();
        return error ? 1 : 0;
    }
    if (argc > 1 && !strcmp(argv[1], "csum")) {
        double seconds = argc > 2 ? strtod(argv[2], NULL) : 1.0;
        int rounds = argc > 3 ? atoi(argv[3]) : 5;
        const char *m = argc > 4 ? argv[4] : "all";
        enum perf_check_mode mode = (!strcmp(m, "aa") ? PERF_CHECK_AA
                                     : !strcmp(m, "rx") ? PERF_CHECK_RX
                                     : PERF_CHECK_ALL);

        util_set_program_name(argv[0]);
        if (seconds <= 0 || rounds <= 0
            || (mode == PERF_CHECK_ALL && strcmp(m, "all"))) {
            util_fatal(0, "usage: %s csum [SECONDS [ROUNDS [all|aa|rx]]]",
                       argv[0]);
        }
        dp_test_init("perf-dpif");
        int error = run_csum(seconds, rounds, mode);
        dp_test_fini();
        return error ? 1 : 0;
    }

    double seconds = argc > 1 ? strtod(argv[1], NULL) : 0.5;
    uint32_t max_flows = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000000;
    static const uint32_t flow_counts[] = { 1, 1000, 100000, 1000000 };

    util_set_program_name(argv[0]);
    if (seconds <= 0 || !max_flows) {
        util_fatal(0, "usage: %s [SECONDS_PER_CELL [MAX_FLOWS]]", argv[0]);
    }
    dp_test_init("perf-dpif");
    double ghz = rte_get_tsc_hz() / 1e9;
    bool have_dpif = perf_dpif_pipeline_available();

    check_quiet();
    printf("userspace datapath, 64-byte UDP packets, exact 5-tuple "
           "megaflows, output to one port\n"
           "TSC %.2f GHz, %.2f s per cell; cycles per packet\n\n",
           ghz, seconds);
    printf("%8s %4s | %5s %7s %6s %5s %6s %7s | %6s | %7s %6s | %7s %6s\n",
           "", "", "", "", "", "EMC", "", "", "sum of",
           "chained", "", "dpif-", "");
    printf("%8s %4s | %5s %7s %6s %5s %6s %7s | %6s | %7s %6s | %7s %6s\n",
           "flows", "EMC", "gen", "extract", "EMC", "hit%", "dpcls",
           "actions", "stages", "stages", "Mpps", "netdev", "Mpps");

    for (size_t fi = 0; fi < ARRAY_SIZE(flow_counts); fi++) {
        uint32_t n_flows = flow_counts[fi];
        struct bench b;

        if (n_flows > max_flows) {
            continue;
        }
        bench_create(&b, n_flows);
        for (int emc_on = 1; emc_on >= 0; emc_on--) {
            struct result gen = run_stage(&b, ST_GEN, emc_on, seconds);
            struct result ext = run_stage(&b, ST_EXTRACT, emc_on, seconds);
            struct result emc = { 0, 0 };
            if (emc_on) {
                emc = run_stage(&b, ST_EMC, true, seconds);
            }
            struct result cls = run_stage(&b, ST_DPCLS, emc_on, seconds);
            struct result act = run_stage(&b, ST_ACTIONS, emc_on, seconds);
            struct result all = run_stage(&b, ST_CHAINED, emc_on, seconds);

            double extract = ext.cycles - gen.cycles;
            double dpcls = cls.cycles * (1.0 - emc.emc_hit);
            double sum = gen.cycles + extract + emc.cycles + dpcls
                         + act.cycles;

            printf("%8"PRIu32" %4s | %5.1f %7.1f ", n_flows,
                   emc_on ? "on" : "off", gen.cycles, extract);
            if (emc_on) {
                printf("%6.1f %5.1f ", emc.cycles, 100.0 * emc.emc_hit);
            } else {
                printf("%6s %5s ", "-", "-");
            }
            printf("%6.1f %7.1f | %6.1f | %7.1f %6.2f | ", dpcls, act.cycles,
                   sum, all.cycles, ghz * 1e3 / all.cycles);

            struct perf_dpif_result pr;
            if (have_dpif
                && !perf_dpif_pipeline_run(n_flows, emc_on, false, seconds,
                                           &pr)) {
                printf("%7.1f %6.2f\n", pr.cycles, pr.mpps);
            } else {
                printf("%7s %6s\n", "n/a", "n/a");
            }
            fflush(stdout);
        }
        bench_destroy(&b);
    }

    printf("\ngen: the in-memory packet source; extract: flow_extract_key()"
           " + flow_key_hash();\nEMC: lookup + probabilistic insert (1/100);"
           " dpcls: one lookup in a batch of 32,\ntimes the EMC miss share;"
           " actions: flow statistics, per-port batching, transmit.\n"
           "chained: the stages in one loop as a PMD runs them (no I/O);\n"
           "dpif-netdev: the datapath's PMD thread on a netdev whose queues"
           " hand out and\nrecycle the same packets (%s).\n",
           have_dpif ? "measured" : "not built into this binary yet");
    dp_test_fini();
    return 0;
}
