/* ovs-numa: the host's CPU cores and NUMA nodes, as PMD threads see them.
 *
 * ovs_numa_init() reads /sys/devices/system/node and
 * /sys/devices/system/cpu (falling back to "every online CPU on node 0"),
 * keeping only the cores this process may run on (sched_getaffinity()).
 * For tests, ovs_numa_set_dummy("0,0,1,1") replaces what was discovered by
 * a made-up list: core i is on the NUMA node given by the i-th number, as
 * Open vSwitch's --dummy-numa option does.  Threads are never pinned to
 * dummy cores (they may not exist).
 *
 * Threads: the main thread initialises and changes the list; any thread
 * may read it afterwards.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVS_NUMA_H
#define OVS_NUMA_H 1

#include <stdbool.h>
#include <stddef.h>

/* Core id of "no core": the main thread, as a polling thread. */
#define OVS_CORE_UNSPEC (-1)
#define OVS_NUMA_UNSPEC (-1)

void ovs_numa_init(void);
char *ovs_numa_set_dummy(const char *spec);
bool ovs_numa_is_dummy(void);

size_t ovs_numa_n_cores(void);
size_t ovs_numa_n_numas(void);
bool ovs_numa_core_exists(int core_id);
int ovs_numa_get_numa_id(int core_id);
int ovs_numa_get_core(size_t index);
int ovs_numa_lowest_core_on_numa(int numa_id);
int ovs_numa_pin_current_thread(int core_id);

#endif /* ovs-numa.h */
