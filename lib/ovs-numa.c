/* CPU cores and NUMA nodes.  See ovs-numa.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovs-numa.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovs_numa);

struct ovs_numa_core {
    int core_id;
    int numa_id;
};

static struct ovs_numa_core *cores;     /* Sorted by core id. */
static size_t n_cores;
static bool initialized;
static bool dummy;

static void numa_add_core(int core_id, int numa_id);
static int numa_core_cmp(const void *, const void *);
static bool numa_discover_nodes(const cpu_set_t *);

static const struct ovs_numa_core *numa_find_core(int core_id);

/* Discovers the cores this process may use and their NUMA nodes, once.
 * Does nothing after ovs_numa_set_dummy(). */
void
ovs_numa_init(void)
{
    if (initialized) {
        return;
    }
    initialized = true;

    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed)) {
        for (int i = 0; i < CPU_SETSIZE; i++) {
            CPU_SET(i, &allowed);
        }
    }
    if (!numa_discover_nodes(&allowed)) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        for (long i = 0; i < n && i < CPU_SETSIZE; i++) {
            if (CPU_ISSET(i, &allowed)) {
                numa_add_core(i, 0);
            }
        }
    }
    qsort(cores, n_cores, sizeof *cores, numa_core_cmp);
    VLOG_INFO("Discovered %zu CPU cores on %zu NUMA nodes", n_cores,
              ovs_numa_n_numas());
}

/* Replaces the discovered topology by 'spec', a comma-separated list of
 * NUMA node ids, one per core (core ids 0, 1, 2...).  Returns NULL, or an
 * error message (to free) if 'spec' is not such a list, in which case
 * nothing changes. */
char *
ovs_numa_set_dummy(const char *spec)
{
    struct ovs_numa_core *new = NULL;
    size_t n = 0;
    const char *s = spec;

    while (*s) {
        char *end;
        long numa = strtol(s, &end, 10);

        if (end == s || numa < 0 || numa > 1023
            || (*end && *end != ',')) {
            free(new);
            return xasprintf("%s: invalid dummy NUMA list (expected "
                             "comma-separated NUMA node ids)", spec);
        }
        new = xrealloc(new, (n + 1) * sizeof *new);
        new[n].core_id = n;
        new[n].numa_id = numa;
        n++;
        s = *end ? end + 1 : end;
    }
    if (!n) {
        return xasprintf("%s: empty dummy NUMA list", spec);
    }
    free(cores);
    cores = new;
    n_cores = n;
    initialized = true;
    dummy = true;
    VLOG_INFO("Dummy NUMA: %zu CPU cores on %zu NUMA nodes", n_cores,
              ovs_numa_n_numas());
    return NULL;
}

/* Returns true if the topology is made up (ovs_numa_set_dummy()). */
bool
ovs_numa_is_dummy(void)
{
    return dummy;
}

/* Returns the number of usable cores. */
size_t
ovs_numa_n_cores(void)
{
    ovs_numa_init();
    return n_cores;
}

/* Returns the number of distinct NUMA nodes with usable cores. */
size_t
ovs_numa_n_numas(void)
{
    size_t n = 0;

    for (size_t i = 0; i < n_cores; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++) {
            seen = seen || cores[j].numa_id == cores[i].numa_id;
        }
        n += !seen;
    }
    return n;
}

/* Returns true if 'core_id' is a usable core. */
bool
ovs_numa_core_exists(int core_id)
{
    return numa_find_core(core_id) != NULL;
}

/* Returns the NUMA node of 'core_id', or OVS_NUMA_UNSPEC if there is no
 * such core. */
int
ovs_numa_get_numa_id(int core_id)
{
    const struct ovs_numa_core *c = numa_find_core(core_id);

    return c ? c->numa_id : OVS_NUMA_UNSPEC;
}

/* Returns the id of the 'index'th core in ascending order, or
 * OVS_CORE_UNSPEC past the end. */
int
ovs_numa_get_core(size_t index)
{
    ovs_numa_init();
    return index < n_cores ? cores[index].core_id : OVS_CORE_UNSPEC;
}

/* Returns the lowest-numbered core on 'numa_id', or, if it has none, the
 * lowest-numbered core of all; OVS_CORE_UNSPEC if there are no cores. */
int
ovs_numa_lowest_core_on_numa(int numa_id)
{
    ovs_numa_init();
    for (size_t i = 0; i < n_cores; i++) {
        if (cores[i].numa_id == numa_id) {
            return cores[i].core_id;
        }
    }
    return n_cores ? cores[0].core_id : OVS_CORE_UNSPEC;
}

/* Pins the calling thread to 'core_id'.  Returns 0, or a positive errno:
 * EOPNOTSUPP with a dummy topology (the core may not exist), ENODEV if the
 * core is unknown, or the error of pthread_setaffinity_np(). */
int
ovs_numa_pin_current_thread(int core_id)
{
    if (dummy) {
        return EOPNOTSUPP;
    }
    if (!ovs_numa_core_exists(core_id) || core_id >= CPU_SETSIZE) {
        return ENODEV;
    }

    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core_id, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static const struct ovs_numa_core *
numa_find_core(int core_id)
{
    ovs_numa_init();
    for (size_t i = 0; i < n_cores; i++) {
        if (cores[i].core_id == core_id) {
            return &cores[i];
        }
    }
    return NULL;
}

static void
numa_add_core(int core_id, int numa_id)
{
    cores = xrealloc(cores, (n_cores + 1) * sizeof *cores);
    cores[n_cores].core_id = core_id;
    cores[n_cores].numa_id = numa_id;
    n_cores++;
}

static int
numa_core_cmp(const void *a_, const void *b_)
{
    const struct ovs_numa_core *a = a_, *b = b_;

    return a->core_id < b->core_id ? -1 : a->core_id > b->core_id;
}

/* Adds the allowed cores of every node under /sys/devices/system/node.
 * Returns false if that directory cannot be read or lists no core. */
static bool
numa_discover_nodes(const cpu_set_t *allowed)
{
    DIR *nodes = opendir("/sys/devices/system/node");
    struct dirent *de;

    if (!nodes) {
        return false;
    }
    while ((de = readdir(nodes)) != NULL) {
        if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)
                                                       de->d_name[4])) {
            continue;
        }

        int numa_id = atoi(de->d_name + 4);
        char path[300];
        snprintf(path, sizeof path, "/sys/devices/system/node/%s",
                 de->d_name);

        DIR *node = opendir(path);
        struct dirent *ce;
        if (!node) {
            continue;
        }
        while ((ce = readdir(node)) != NULL) {
            if (!strncmp(ce->d_name, "cpu", 3)
                && isdigit((unsigned char) ce->d_name[3])) {
                int core_id = atoi(ce->d_name + 3);
                if (core_id < CPU_SETSIZE && CPU_ISSET(core_id, allowed)) {
                    numa_add_core(core_id, numa_id);
                }
            }
        }
        closedir(node);
    }
    closedir(nodes);
    return n_cores > 0;
}
