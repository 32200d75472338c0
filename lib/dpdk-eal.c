/* A small EAL bootstrap for tests and tools.  See dpdk-eal.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dpdk-eal.h"
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include "dynamic-string.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dpdk_eal);

static bool initialized;
static char runtime_dir[PATH_MAX];

static void put_allowed_cpus(struct ds *);
static void remove_stale_runtime_dirs(const char *name);

/* Initialises EAL for a program that needs packets but no devices: one lcore
 * allowed on every CPU the process may use (it never busy-polls), 'mem_mb'
 * MB of heap memory (64 is plenty for tests), no hugepages, no PCI, no
 * telemetry, no shared configuration, and a file prefix made of 'name' and
 * the process id so that concurrent programs never collide.  Returns 0 or a
 * positive errno value (logged).  Calling it again after success is a
 * no-op. */
int
dpdk_eal_init_light(const char *name, unsigned int mem_mb)
{
    if (initialized) {
        return 0;
    }

    struct ds lcores = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&lcores, "--lcores=0@(");
    put_allowed_cpus(&lcores);
    ds_put_char(&lcores, ')');

    char *mem = xasprintf("%u", mem_mb);
    char *prefix = xasprintf("--file-prefix=%s-%ld", name, (long) getpid());
    char *argv[] = {
        (char *) name, ds_cstr(&lcores), "--no-huge", "-m", mem, "--no-pci",
        "--no-telemetry", "--no-shconf", prefix, "--log-level=*:warning",
        NULL,
    };
    int argc = ARRAY_SIZE(argv) - 1;

    int retval = rte_eal_init(argc, argv);
    int error = retval < 0 ? rte_errno : 0;
    if (error) {
        VLOG_ERR("cannot initialise EAL: %s", rte_strerror(error));
    } else {
        initialized = true;
        snprintf(runtime_dir, sizeof runtime_dir, "%s",
                 rte_eal_get_runtime_dir());
        remove_stale_runtime_dirs(name);
    }

    ds_destroy(&lcores);
    free(mem);
    free(prefix);
    return error;
}

/* Releases EAL and removes the run-time directory it left behind.  All pools
 * must be freed first.  DPDK cannot start EAL twice in one process, so this
 * is for the end of a program. */
void
dpdk_eal_fini(void)
{
    if (initialized) {
        rte_eal_cleanup();
        if (runtime_dir[0] && rmdir(runtime_dir) && errno != ENOENT) {
            VLOG_WARN("%s: cannot remove (%s)", runtime_dir,
                      util_strerror(errno));
        }
        initialized = false;
    }
}

/* Returns true if dpdk_eal_init_light() succeeded. */
bool
dpdk_eal_is_initialized(void)
{
    return initialized;
}

/* Appends the CPUs this process may run on to 's', as EAL's "a,b,c" list. */
static void
put_allowed_cpus(struct ds *s)
{
    cpu_set_t set;
    bool first = true;

    if (sched_getaffinity(0, sizeof set, &set)) {
        ds_put_char(s, '0');
        return;
    }
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &set)) {
            ds_put_format(s, first ? "%d" : ",%d", cpu);
            first = false;
        }
    }
    if (first) {
        ds_put_char(s, '0');
    }
}

/* Removes the empty run-time directories "<name>-<pid>" next to ours whose
 * process is gone: those of earlier runs of the same program that were
 * killed or crashed before dpdk_eal_fini(), so that a test run leaves
 * nothing behind in /var/run/dpdk however its predecessors ended.  Only
 * empty directories go (rmdir()), and never a live process's. */
static void
remove_stale_runtime_dirs(const char *name)
{
    char parent[PATH_MAX];
    size_t name_len = strlen(name);
    struct dirent *de;
    DIR *dir;

    snprintf(parent, sizeof parent, "%s", runtime_dir);
    dir = opendir(dirname(parent));
    if (!dir) {
        return;
    }
    while ((de = readdir(dir)) != NULL) {
        const char *p = de->d_name;
        char *end;
        long pid;

        if (strncmp(p, name, name_len) || p[name_len] != '-') {
            continue;
        }
        errno = 0;
        pid = strtol(p + name_len + 1, &end, 10);
        if (errno || *end || end == p + name_len + 1 || pid <= 0
            || pid == (long) getpid()
            || !(kill((pid_t) pid, 0) && errno == ESRCH)) {
            continue;
        }
        char *path = xasprintf("%s/%s", parent, p);
        if (rmdir(path)) {
            VLOG_DBG("%s: stale, but cannot remove (%s)", path,
                     util_strerror(errno));
        }
        free(path);
    }
    closedir(dir);
}
