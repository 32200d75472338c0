/* A small EAL bootstrap for tests and tools: no hugepages, no PCI probing,
 * no telemetry, no shared configuration, a file prefix of its own.
 *
 * The daemon builds its EAL arguments from the database (DESIGN.md §5);
 * this is for programs that only need mbufs from heap-backed pools.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DPDK_EAL_H
#define DPDK_EAL_H 1

#include <stdbool.h>

int dpdk_eal_init_light(const char *name, unsigned int mem_mb);
void dpdk_eal_fini(void);
bool dpdk_eal_is_initialized(void);

#endif /* dpdk-eal.h */
