/* The whole-datapath part of perf-dpif, until lib/dpif-netdev.c is built:
 * reports that it is missing.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <errno.h>
#include "perf/perf-dpif-pipeline.h"

bool
perf_dpif_pipeline_available(void)
{
    return false;
}

int
perf_dpif_pipeline_run(uint32_t n_flows, bool emc_on, double seconds,
                       struct perf_dpif_result *res)
{
    (void) n_flows;
    (void) emc_on;
    (void) seconds;
    res->cycles = res->mpps = 0;
    return EOPNOTSUPP;
}
