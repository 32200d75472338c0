/* The whole-datapath part of perf-dpif: dpif-netdev's PMD thread
 * forwarding packets from an in-process netdev, with no I/O.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef PERF_DPIF_PIPELINE_H
#define PERF_DPIF_PIPELINE_H 1

#include <stdbool.h>
#include <stdint.h>

struct perf_dpif_result {
    double cycles;              /* TSC cycles of the PMD per packet. */
    double mpps;                /* Packets forwarded per second, millions. */
    double best_cycles;         /* Per packet in the PMD's fastest window. */
    double emc_share;           /* Packets found in the EMC, in the SMC and */
    double smc_share;           /* by the classifier, over those received */
    double dpcls_share;         /* (pmd-stats-show's counters). */
};

/* How the datapath is configured for a run. */
struct perf_dpif_mode {
    bool emc_on;                /* emc-insert-inv-prob 100, else 0. */
    bool smc_on;                /* smc-enable. */
    bool marked;                /* hw-offload, every flow marked. */
    unsigned int n_masks;       /* Megaflow masks (subtables), 1 to 16;
                                 * 0 is 1. */
    bool simple_flows;          /* One megaflow for every packet, as
                                 * "in_port=1,actions=output:2" gives (a
                                 * simple-match flow), not 5-tuple ones. */
};

/* Returns true if this build includes the datapath. */
bool perf_dpif_pipeline_available(void);

/* Runs the datapath with 'n_flows' 5-tuple flows, the EMC on or off, for
 * 'seconds' after a warm-up, and fills in 'res'.  With 'marked', the input
 * port offloads every flow (hw-offload=true) and marks its packets, so they
 * all take the marked path.  Returns 0 or an errno (with a message on
 * stderr). */
int perf_dpif_pipeline_run(uint32_t n_flows, bool emc_on, bool marked,
                           double seconds, struct perf_dpif_result *res);

/* The same, in 'mode'. */
int perf_dpif_pipeline_run_mode(uint32_t n_flows,
                                const struct perf_dpif_mode *mode,
                                double seconds, struct perf_dpif_result *res);

/* The cost of netdev_send()'s egress check in the whole datapath, from one
 * run (1 flow, EMC on) during which the check is switched on and off at
 * random intervals of 1 to 4 ms: the PMD's windows of 4096 packets with
 * the check ([1]) and without it ([0]), in cycles per packet.  In an A/A
 * run, the same switching of a flag that nothing reads, the check always
 * on, shows the method's own spread; switching the receive half alone
 * ("off": each batch marked clean untested, which holds in this benchmark)
 * leaves every other instruction the same in both states. */
struct perf_dpif_check_result {
    double cycles;              /* Average of the whole run, both mixed. */
    size_t n_windows[2];
    double best[2];             /* The fastest window. */
    double p10[2];              /* The 10th percentile. */
    double median[2];
};
enum perf_check_mode {
    PERF_CHECK_ALL,             /* The check, both halves. */
    PERF_CHECK_AA,              /* A flag that nothing reads. */
    PERF_CHECK_RX,              /* The receive half alone: "off" marks
                                 * each batch clean without testing. */
};
int perf_dpif_check_cost(double seconds, enum perf_check_mode,
                         struct perf_dpif_check_result *);

/* What running the flows of a burst that have the same actions as one batch
 * saves: one run with 'n_flows' exact flows (all with the same actions,
 * output to one port), EMC on, found by mark if 'marked', during which
 * dp_netdev_no_action_merge is switched at random intervals of 1 to 4 ms:
 * the PMD's windows with the batches merged ([1]) and one batch per flow
 * ([0]). */
int perf_dpif_merge_cost(double seconds, uint32_t n_flows, bool marked,
                         struct perf_dpif_check_result *);

/* What simple match saves: one run with 'n_flows' microflows of one
 * simple-match megaflow (perf_dpif_mode.simple_flows), the EMC on or off,
 * during which dp_netdev_no_simple_match is switched at random intervals
 * of 1 to 4 ms: the PMD's windows with simple match ([1]) and without
 * ([0]). */
int perf_dpif_simple_cost(double seconds, uint32_t n_flows, bool emc_on,
                          struct perf_dpif_check_result *);

/* Measures the cycles per packet of netdev_send() on a "perf" port (no
 * offloads, no chains) for batches of 32 linear 64-byte packets with
 * nothing pending, with the egress check ('*with_check') and without it
 * ('*without_check', netdev_send_skip_egress_check): bursts of 2048
 * packets of each in turn for 'seconds', the fastest burst of each.  The
 * port's transmit recycles the packets.  Returns 0 or an errno. */
int perf_dpif_send_cost(double seconds, double *with_check,
                        double *without_check);

#endif /* perf-dpif-pipeline.h */
