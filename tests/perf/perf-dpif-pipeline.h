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
};

/* Returns true if this build includes the datapath. */
bool perf_dpif_pipeline_available(void);

/* Runs the datapath with 'n_flows' 5-tuple flows, the EMC on or off, for
 * 'seconds' after a warm-up, and fills in 'res'.  Returns 0 or an errno
 * (with a message on stderr). */
int perf_dpif_pipeline_run(uint32_t n_flows, bool emc_on, double seconds,
                           struct perf_dpif_result *res);

#endif /* perf-dpif-pipeline.h */
