/* DPDK start-up for ovs-vswitchd, DPDK's log, and the packet pools of DPDK
 * ports.  See dpdk.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#define _GNU_SOURCE 1
#include <config.h>
#include "dpdk.h"
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_version.h>
#include "dirs.h"
#include "dp-packet.h"
#include "dpdk-eal.h"
#include "dynamic-string.h"
#include "memory.h"
#include "netdev-dpdk.h"
#include "ovs-numa.h"
#include "restart-needed.h"
#include "smap.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dpdk);

#ifndef HUGETLBFS_MAGIC
#define HUGETLBFS_MAGIC 0x958458f6
#endif

/* Memory for EAL without hugepages when neither dpdk-alloc-mem nor
 * dpdk-socket-mem says how much: enough for the default pool and a few
 * shared port pools at the standard MTU. */
#define DPDK_NO_HUGE_DEFAULT_MB 512

/* Memory of the light EAL (dpdk-init=false). */
#define DPDK_LIGHT_MB 256

/* The default pool, for packets of non-DPDK ports and tools. */
#define DPDK_DEFAULT_POOL_N 16384

/* Shared port pools start with this many mbufs, as Open vSwitch's do, and
 * halve on failure down to DPDK_MP_MIN_N.  Without hugepages, where EAL's
 * memory is all reserved at start, a shared pool also starts no larger than
 * half of the free memory, so that queues, rings and other pools still
 * fit. */
#define DPDK_MP_SHARED_N 262144
#define DPDK_MP_MIN_N 4096

/* The private area of port pools' mbufs: the packet metadata, padded to a
 * cache line so that the default headroom ends on one and a frame's headers
 * start a line (with a 32-byte area they straddle two). */
#define DPDK_MP_PRIV_SIZE RTE_CACHE_LINE_ROUNDUP(DP_PACKET_PRIV_SIZE)

/* Per-port pools: what the queues can hold plus this much slack. */
#define DPDK_MP_PER_PORT_SLACK 16384

/* Bytes a frame adds to the MTU: Ethernet header, CRC, two VLAN tags. */
#define DPDK_FRAME_OVERHEAD (14 + 4 + 8)

/* Copy pools (dpdk_copy_mp_get()): room for the longest frame a DPDK port
 * takes (MTU 9702 plus DPDK_FRAME_OVERHEAD) in one mbuf, and how many such
 * mbufs a pool starts with, halving on ENOMEM down to the minimum. */
#define DPDK_COPY_FRAME_MAX 9728
#define DPDK_COPY_POOL_N 1024
#define DPDK_COPY_POOL_MIN_N 128

/* The other_config keys read only at start-up. */
static const char *const startup_keys[] = {
    "dpdk-init", "dpdk-lcore-mask", "dpdk-socket-mem", "dpdk-alloc-mem",
    "dpdk-socket-limit", "dpdk-hugepage-dir", "dpdk-extra",
    "vhost-sock-dir", "dpdk-multi-seg-mbufs", "per-port-memory",
    "userspace-tso-enable",
};

static bool initialized;        /* dpdk_init() ran. */
static bool full_eal;           /* dpdk_available(). */
static bool multi_seg_mbufs;
static bool per_port_memory;
static bool userspace_tso;
static bool restart_needed;
static char *vhost_sock_dir;
static struct smap startup_config = SMAP_INITIALIZER;
static struct rte_mempool *default_pool;
static char *runtime_dir;

struct dpdk_mp {
    struct dpdk_mp *next;       /* In 'mps'. */
    struct rte_mempool *pool;
    int socket_id;
    int mtu;
    uint16_t data_room;
    bool per_port;              /* Never shared. */
    bool copy;                  /* A copy pool (dpdk_copy_mp_get()). */
    int refcount;               /* 0: waiting for its mbufs to return. */
};

static pthread_mutex_t mp_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct dpdk_mp *mps;     /* Protected by 'mp_mutex'. */
static unsigned int mp_serial;  /* Protected by 'mp_mutex'. */

/* The pool each port got last, for netdev-dpdk/get-mempool-info.  Entries
 * go when their pool is freed.  Protected by 'mp_mutex'. */
struct dpdk_mp_user {
    char *port_name;
    struct dpdk_mp *mp;         /* Its packet pool, or NULL. */
    struct dpdk_mp *copy_mp;    /* Its copy pool, or NULL. */
};
static struct dpdk_mp_user *mp_users;
static size_t n_mp_users;

static void dpdk_init__(const struct smap *);
static int dpdk_start_full_eal(const struct smap *);
static int dpdk_start_light_eal(void);
static void dpdk_compare_config(const struct smap *);
static void dpdk_log_redirect(void);
static void dpdk_set_vhost_sock_dir(const struct smap *);
static void dpdk_remove_runtime_dir(void);

static void dpdk_mp_sweep(void);
static unsigned int
dpdk_mp_shared_start(unsigned int n, unsigned int min, int socket_id,
                     uint16_t data_room);
static struct dpdk_mp *
dpdk_mp_add(struct rte_mempool *pool, int socket_id, int mtu,
            uint16_t data_room);
static struct dpdk_mp *
dpdk_mp_get_done(const char *port_name, struct dpdk_mp *mp);
static uint64_t dpdk_mp_bytes(const struct rte_mempool *pool);
static void dpdk_mp_summary(FILE *stream, const struct dpdk_mp *mp);
static void
dpdk_mp_memory_report(struct memory_report *report, void *aux DPS_UNUSED);
static void
dpdk_unixctl_log_list(struct unixctl_conn *conn, int argc DPS_UNUSED,
                      const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED);
static void
dpdk_unixctl_lcore_list(struct unixctl_conn *conn, int argc DPS_UNUSED,
                        const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED);
static void
dpdk_unixctl_malloc_stats(struct unixctl_conn *conn, int argc DPS_UNUSED,
                          const char *argv[] DPS_UNUSED,
                          void *aux DPS_UNUSED);
static void
dpdk_unixctl_log_set(struct unixctl_conn *conn, int argc, const char *argv[],
                     void *aux DPS_UNUSED);
static size_t dpdk_mp_hold_take(void);
static void
dpdk_unixctl_hold_mbufs(struct unixctl_conn *conn, int argc DPS_UNUSED,
                        const char *argv[], void *aux DPS_UNUSED);
static void
dpdk_unixctl_release_mbufs(struct unixctl_conn *conn, int argc DPS_UNUSED,
                           const char *argv[] DPS_UNUSED,
                           void *aux DPS_UNUSED);

/* Initialises EAL from 'ovs_other_config' on the first call; every later
 * call compares the start-up keys with those EAL started with and, when
 * they differ, logs that a restart is needed (dpdk_restart_needed()). */
void
dpdk_init(const struct smap *ovs_other_config)
{
    if (!initialized) {
        initialized = true;
        /* EAL pins the calling thread to its main lcore: learn which cores
         * the process may use before that, so that PMD threads can go on
         * the others (dpdk-lcore-mask=0x1 with pmd-cpu-mask=0x2). */
        ovs_numa_init();
        dpdk_init__(ovs_other_config);
    } else {
        dpdk_compare_config(ovs_other_config);
    }
}

/* Returns true if the full EAL is up: DPDK port types are available. */
bool
dpdk_available(void)
{
    return full_eal;
}

/* Returns DPDK's version, "DPDK 22.11.11". */
const char *
dpdk_get_version(void)
{
    return rte_version();
}

/* Returns the directory of dpdkvhostuser sockets: <rundir>/<vhost-sock-dir>
 * (the rundir itself by default). */
const char *
dpdk_get_vhost_sock_dir(void)
{
    if (!vhost_sock_dir) {
        vhost_sock_dir = xstrdup(dirs_rundir());
    }
    return vhost_sock_dir;
}

/* Returns true if a start-up key changed after EAL started. */
bool
dpdk_restart_needed(void)
{
    return restart_needed;
}

/* Returns other_config:userspace-tso-enable as read at start-up. */
bool
dpdk_userspace_tso(void)
{
    return userspace_tso;
}

/* Returns other_config:dpdk-multi-seg-mbufs as read at start-up. */
bool
dpdk_multi_seg_mbufs(void)
{
    return multi_seg_mbufs;
}

/* Returns other_config:per-port-memory as read at start-up. */
bool
dpdk_per_port_memory(void)
{
    return per_port_memory;
}

/* Returns the pool for packets of non-DPDK ports and tools. */
struct rte_mempool *
dpdk_default_pool(void)
{
    return default_pool;
}

/* Returns a pool for port 'port_name' on NUMA node 'socket_id' (-1: 0) with
 * the data room for 'mtu', shared or per port (see dpdk.h), or NULL with a
 * message in '*errp' (if nonnull) when memory runs out. */
struct dpdk_mp *
dpdk_mp_get(const char *port_name, int socket_id, int mtu, char **errp)
{
    return dpdk_mp_get_sized(port_name, socket_id, mtu, 0, errp);
}

/* Like dpdk_mp_get(); a per-port pool holds 'n_mbufs' (what the port's
 * queues can hold at once) plus slack.  A shared pool starts at
 * DPDK_MP_SHARED_N mbufs and halves on ENOMEM down to DPDK_MP_MIN_N. */
struct dpdk_mp *
dpdk_mp_get_sized(const char *port_name, int socket_id, int mtu,
                  unsigned int n_mbufs, char **errp)
{
    uint16_t data_room = dpdk_mp_data_room(mtu);
    struct dpdk_mp *mp = NULL;

    if (socket_id < 0) {
        socket_id = 0;
    }

    pthread_mutex_lock(&mp_mutex);
    dpdk_mp_sweep();
    if (!per_port_memory) {
        for (struct dpdk_mp *p = mps; p; p = p->next) {
            if (!p->per_port && !p->copy && p->socket_id == socket_id
                && p->data_room == data_room) {
                p->refcount++;
                mp = p;
                break;
            }
        }
    }

    if (!mp) {
        unsigned int n = per_port_memory
                         ? MAX(n_mbufs, 2048u) + DPDK_MP_PER_PORT_SLACK
                         : DPDK_MP_SHARED_N;
        unsigned int min = (per_port_memory
                            ? MAX(n_mbufs, 2048u) + 1024
                            : DPDK_MP_MIN_N);
        if (!per_port_memory) {
            n = dpdk_mp_shared_start(n, min, socket_id, data_room);
        }
        struct rte_mempool *pool = NULL;
        int error = 0;

        for (;;) {
            char name[RTE_MEMPOOL_NAMESIZE];
            snprintf(name, sizeof name, "dps%c_%d_%u_%u",
                     per_port_memory ? 'p' : 's', socket_id,
                     (unsigned int) data_room, mp_serial++);
            pool = rte_pktmbuf_pool_create(name, n, MIN(256u, n / 16),
                                           DPDK_MP_PRIV_SIZE, data_room,
                                           socket_id);
            if (pool) {
                break;
            }
            error = rte_errno;
            if (n / 2 < min || error != ENOMEM) {
                break;
            }
            n /= 2;
        }

        if (!pool) {
            char *msg = xasprintf("%s: cannot allocate a mempool of %u "
                                  "mbufs of %u bytes (MTU %d) on NUMA "
                                  "node %d: %s", port_name, n, data_room,
                                  mtu, socket_id, rte_strerror(error));
            VLOG_ERR("%s", msg);
            if (errp) {
                *errp = msg;
            } else {
                free(msg);
            }
        } else {
            VLOG_INFO("%s: mempool \"%s\" of %u mbufs, %u-byte data room "
                      "(MTU %d, NUMA node %d%s)", port_name, pool->name, n,
                      data_room, mtu, socket_id,
                      per_port_memory ? ", per port" : ", shared");
            mp = dpdk_mp_add(pool, socket_id, mtu, data_room);
            mp->per_port = per_port_memory;
        }
    }
    return dpdk_mp_get_done(port_name, mp);
}

/* Returns the DPDK pool of 'mp'. */
struct rte_mempool *
dpdk_mp_pool(const struct dpdk_mp *mp)
{
    return mp->pool;
}

/* Releases one reference to 'mp' (NULL is a no-op).  An unreferenced pool
 * is freed once all of its mbufs have come back (checked now and at every
 * later dpdk_mp_get() and dpdk_mp_put()). */
void
dpdk_mp_put(struct dpdk_mp *mp)
{
    if (!mp) {
        return;
    }
    pthread_mutex_lock(&mp_mutex);
    util_assert(mp->refcount > 0);
    mp->refcount--;
    dpdk_mp_sweep();
    pthread_mutex_unlock(&mp_mutex);
}

/* Returns the copy pool of NUMA node 'socket_id' (-1: 0) for port
 * 'port_name': single mbufs with room for the longest frame a DPDK port
 * takes, created on first use and shared, or NULL with a message in '*errp'
 * (if nonnull) when memory runs out.  Release it with dpdk_mp_put(). */
struct dpdk_mp *
dpdk_copy_mp_get(const char *port_name, int socket_id, char **errp)
{
    uint16_t data_room = (RTE_ALIGN_CEIL(DPDK_COPY_FRAME_MAX, 1024u)
                          + RTE_PKTMBUF_HEADROOM);
    struct dpdk_mp *mp = NULL;

    if (socket_id < 0) {
        socket_id = 0;
    }

    pthread_mutex_lock(&mp_mutex);
    dpdk_mp_sweep();
    for (struct dpdk_mp *p = mps; p; p = p->next) {
        if (p->copy && p->socket_id == socket_id) {
            p->refcount++;
            mp = p;
            break;
        }
    }
    if (!mp) {
        unsigned int n = DPDK_COPY_POOL_N;
        struct rte_mempool *pool;
        int error;

        for (;;) {
            char name[RTE_MEMPOOL_NAMESIZE];
            snprintf(name, sizeof name, "dpsc_%d_%u_%u", socket_id,
                     (unsigned int) data_room, mp_serial++);
            pool = rte_pktmbuf_pool_create(name, n, MIN(64u, n / 16),
                                           DPDK_MP_PRIV_SIZE, data_room,
                                           socket_id);
            error = pool ? 0 : rte_errno;
            if (pool || n / 2 < DPDK_COPY_POOL_MIN_N || error != ENOMEM) {
                break;
            }
            n /= 2;
        }
        if (!pool) {
            char *msg = xasprintf("%s: cannot allocate a copy pool of %u "
                                  "mbufs of %u bytes on NUMA node %d for "
                                  "chains the port cannot send: %s",
                                  port_name, n, data_room, socket_id,
                                  rte_strerror(error));
            VLOG_ERR("%s", msg);
            if (errp) {
                *errp = msg;
            } else {
                free(msg);
            }
        } else {
            VLOG_INFO("%s: copy pool \"%s\" of %u mbufs, %u-byte data room, "
                      "for chains the port cannot send (NUMA node %d)",
                      port_name, pool->name, n, data_room, socket_id);
            mp = dpdk_mp_add(pool, socket_id,
                             DPDK_COPY_FRAME_MAX - DPDK_FRAME_OVERHEAD,
                             data_room);
            mp->copy = true;
        }
    }
    return dpdk_mp_get_done(port_name, mp);
}

/* Writes to 'stream' DPDK's dump of the pool that port 'port_name' got
 * last from dpdk_mp_get(), then that of its copy pool if it has one, then a
 * summary line per pool ("pools: N, ... bytes"), and returns true, or
 * returns false if it has no pool (it never asked, or its pool is gone). */
bool
dpdk_mp_dump_port(const char *port_name, FILE *stream)
{
    bool found = false;

    pthread_mutex_lock(&mp_mutex);
    for (size_t i = 0; i < n_mp_users; i++) {
        const struct dpdk_mp_user *user = &mp_users[i];
        const struct dpdk_mp *mps_of[2] = { user->mp, user->copy_mp };

        if (strcmp(user->port_name, port_name)
            || !user->mp || user->mp->refcount <= 0) {
            continue;
        }
        found = true;
        uint64_t bytes = 0;
        int n = 0;
        for (int j = 0; j < 2; j++) {
            if (mps_of[j] && mps_of[j]->refcount > 0) {
                rte_mempool_dump(stream, mps_of[j]->pool);
            }
        }
        for (int j = 0; j < 2; j++) {
            if (mps_of[j] && mps_of[j]->refcount > 0) {
                dpdk_mp_summary(stream, mps_of[j]);
                bytes += dpdk_mp_bytes(mps_of[j]->pool);
                n++;
            }
        }
        fprintf(stream, "pools: %d, %"PRIu64" bytes\n", n, bytes);
        break;
    }
    pthread_mutex_unlock(&mp_mutex);
    return found;
}

/* Writes a summary line for every pool of DPDK ports to 'stream', then
 * their total. */
void
dpdk_mp_dump_all(FILE *stream)
{
    uint64_t bytes = 0;
    int n = 0;

    pthread_mutex_lock(&mp_mutex);
    for (const struct dpdk_mp *mp = mps; mp; mp = mp->next) {
        dpdk_mp_summary(stream, mp);
        bytes += dpdk_mp_bytes(mp->pool);
        n++;
    }
    pthread_mutex_unlock(&mp_mutex);
    fprintf(stream, "pools: %d, %"PRIu64" bytes\n", n, bytes);
}

/* Returns the data room (headroom included) of port pools for 'mtu'. */
uint16_t
dpdk_mp_data_room(int mtu)
{
    if (multi_seg_mbufs) {
        return RTE_MBUF_DEFAULT_BUF_SIZE;
    }
    unsigned int frame = mtu + DPDK_FRAME_OVERHEAD;
    unsigned int room = RTE_ALIGN_CEIL(frame, 1024u) + RTE_PKTMBUF_HEADROOM;
    return MIN(room, UINT16_MAX);
}

/* Registers dpdk/log-list, dpdk/log-set, dpdk/lcore-list,
 * dpdk/get-malloc-stats and the test hooks dpdk/hold-mbufs and
 * dpdk/release-mbufs, once (later calls do nothing).  dpdk_init() calls
 * it. */
void
dpdk_register_commands(void)
{
    static bool registered;

    if (registered) {
        return;
    }
    registered = true;
    unixctl_command_register("dpdk/log-list", "", 0, 0,
                             dpdk_unixctl_log_list, NULL);
    unixctl_command_register("dpdk/log-set", "{level | pattern:level}", 0,
                             INT_MAX, dpdk_unixctl_log_set, NULL);
    unixctl_command_register("dpdk/lcore-list", "", 0, 0,
                             dpdk_unixctl_lcore_list, NULL);
    unixctl_command_register("dpdk/get-malloc-stats", "", 0, 0,
                             dpdk_unixctl_malloc_stats, NULL);
    unixctl_command_register("dpdk/hold-mbufs", "netdev", 1, 1,
                             dpdk_unixctl_hold_mbufs, NULL);
    unixctl_command_register("dpdk/release-mbufs", "", 0, 0,
                             dpdk_unixctl_release_mbufs, NULL);
    memory_register_reporter(dpdk_mp_memory_report, NULL);
}

void
dpdk_mp_hold_poll__(void)
{
    dpdk_mp_hold_take();
}

/* Start-up. */

static void
dpdk_init__(const struct smap *cfg)
{
    for (size_t i = 0; i < ARRAY_SIZE(startup_keys); i++) {
        const char *value = smap_get(cfg, startup_keys[i]);
        if (value) {
            smap_add(&startup_config, startup_keys[i], value);
        }
    }

    multi_seg_mbufs = smap_get_bool(cfg, "dpdk-multi-seg-mbufs", false);
    per_port_memory = smap_get_bool(cfg, "per-port-memory", false);
    userspace_tso = smap_get_bool(cfg, "userspace-tso-enable", false);
    if (userspace_tso) {
        VLOG_INFO("Userspace TCP Segmentation Offloading support enabled");
    }
    dpdk_set_vhost_sock_dir(cfg);

    /* DPDK logs from rte_eal_init() on, so redirect first. */
    dpdk_log_redirect();

    const char *init = smap_get_def(cfg, "dpdk-init", "false");
    bool try = !strcmp(init, "try");
    if (!strcmp(init, "true") || try) {
        VLOG_INFO("Using %s", rte_version());
        VLOG_INFO("DPDK Enabled - initializing...");
        int error = dpdk_start_full_eal(cfg);
        if (!error) {
            full_eal = true;
            VLOG_INFO("DPDK Enabled - initialized");
        } else if (!try) {
            util_fatal(0, "Unable to initialize DPDK: %s",
                       rte_strerror(error));
        } else {
            VLOG_ERR("Unable to initialize DPDK: %s; continuing without "
                     "DPDK ports (dpdk-init=try)", rte_strerror(error));
        }
    } else {
        if (strcmp(init, "false")) {
            VLOG_WARN("other_config:dpdk-init=%s: expected true, try or "
                      "false; DPDK ports are disabled", init);
        }
        VLOG_INFO("DPDK Disabled - Use other_config:dpdk-init to enable");
    }

    if (!full_eal && dpdk_start_light_eal()) {
        util_fatal(0, "cannot initialise DPDK's EAL for packet memory");
    }

    default_pool = dp_packet_pool_create("dps-default", DPDK_DEFAULT_POOL_N,
                                         RTE_MBUF_DEFAULT_BUF_SIZE);
    if (!default_pool) {
        util_fatal(0, "cannot create the default packet pool");
    }

    /* Both are idempotent: ovs-vswitchd may call them too. */
    dpdk_register_commands();
    netdev_dpdk_register();
}

/* Splits 's' into words at white space, honouring single and double quotes
 * and backslashes as a shell does, and appends them to 'argv' ('*argc'
 * words, room for '*allocated'). */
static void
split_words(const char *s, char ***argv, int *argc, int *allocated)
{
    struct ds word = DS_EMPTY_INITIALIZER;
    bool in_word = false;
    char quote = 0;

    for (const char *p = s; ; p++) {
        char c = *p;
        if (!c || (!quote && (c == ' ' || c == '\t' || c == '\n'))) {
            if (in_word) {
                if (*argc + 2 > *allocated) {
                    *allocated = *allocated * 2 + 8;
                    *argv = xrealloc(*argv, *allocated * sizeof **argv);
                }
                (*argv)[(*argc)++] = ds_steal_cstr(&word);
                in_word = false;
            }
            if (!c) {
                break;
            }
        } else if (quote && c == quote) {
            quote = 0;
        } else if (!quote && (c == '\'' || c == '"')) {
            quote = c;
            in_word = true;
        } else if (c == '\\' && quote != '\'' && p[1]) {
            ds_put_char(&word, *++p);
            in_word = true;
        } else {
            ds_put_char(&word, c);
            in_word = true;
        }
    }
    ds_destroy(&word);
}

/* The EAL argument vector under construction. */
struct eal_args {
    char **argv;
    int argc;
    int allocated;
};

static void
eal_args_add(struct eal_args *args, const char *arg)
{
    if (args->argc + 2 > args->allocated) {
        args->allocated = args->allocated * 2 + 8;
        args->argv = xrealloc(args->argv, args->allocated * sizeof *args->argv);
    }
    args->argv[args->argc++] = xstrdup(arg);
    args->argv[args->argc] = NULL;
}

/* Returns true if 'args' has one of the options in the NULL-terminated
 * 'names', alone or as "name=value". */
static bool
eal_args_has(const struct eal_args *args, const char *const *names)
{
    for (int i = 1; i < args->argc; i++) {
        for (const char *const *name = names; *name; name++) {
            size_t len = strlen(*name);
            if (!strncmp(args->argv[i], *name, len)
                && (args->argv[i][len] == '\0'
                    || args->argv[i][len] == '=')) {
                return true;
            }
        }
    }
    return false;
}

static bool
eal_args_has1(const struct eal_args *args, const char *name)
{
    const char *names[] = { name, NULL };
    return eal_args_has(args, names);
}

static void
eal_args_destroy(struct eal_args *args)
{
    for (int i = 0; i < args->argc; i++) {
        free(args->argv[i]);
    }
    free(args->argv);
}

/* Returns true if 'dir' is a mounted hugetlbfs. */
static bool
is_hugetlbfs(const char *dir)
{
    struct statfs st;
    return !statfs(dir, &st) && st.f_type == HUGETLBFS_MAGIC;
}

/* Returns true if the host has hugepages EAL can use: a nonzero
 * HugePages_Total and a hugetlbfs mount ('hugepage_dir' when configured,
 * otherwise any). */
static bool
host_has_hugepages(const char *hugepage_dir)
{
    long long total = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "HugePages_Total: %lld", &total) == 1) {
                break;
            }
        }
        fclose(f);
    }
    if (total <= 0) {
        return false;
    }
    if (hugepage_dir) {
        return is_hugetlbfs(hugepage_dir);
    }

    bool found = false;
    f = fopen("/proc/mounts", "r");
    if (f) {
        char line[1024];
        while (!found && fgets(line, sizeof line, f)) {
            char dev[256], dir[512], type[64];
            if (sscanf(line, "%255s %511s %63s", dev, dir, type) == 3
                && !strcmp(type, "hugetlbfs")) {
                found = true;
            }
        }
        fclose(f);
    }
    return found;
}

/* Returns the total of a "MB,MB,..." list, or 0 if 'list' is not one. */
static unsigned int
sum_mb_list(const char *list)
{
    unsigned long long total = 0;
    char *copy = xstrdup(list);
    char *save = NULL;

    for (char *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        unsigned int mb;
        if (!util_str_to_uint(tok, 10, &mb)) {
            total = 0;
            break;
        }
        total += mb;
    }
    free(copy);
    return total > UINT_MAX ? 0 : total;
}

/* Converts hex CPU mask 'mask' ("0x3", "3") to EAL's "--lcores=0@a,1@b"
 * form, lcore i on the i-th CPU of the mask, into 's'.  Returns false if
 * 'mask' is not a nonempty hex mask. */
static bool
lcore_mask_to_lcores(const char *mask, struct ds *s)
{
    const char *p = mask;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
    }
    size_t len = strlen(p);
    if (!len) {
        return false;
    }

    int lcore = 0;
    ds_put_cstr(s, "--lcores=");
    for (size_t i = 0; i < len; i++) {
        char c = p[len - 1 - i];
        int v;
        if (c >= '0' && c <= '9') {
            v = c - '0';
        } else if (c >= 'a' && c <= 'f') {
            v = c - 'a' + 10;
        } else if (c >= 'A' && c <= 'F') {
            v = c - 'A' + 10;
        } else {
            return false;
        }
        for (int bit = 0; bit < 4; bit++) {
            if (v & (1 << bit)) {
                ds_put_format(s, "%s%d@%zu", lcore ? "," : "", lcore,
                              i * 4 + bit);
                lcore++;
            }
        }
    }
    return lcore > 0;
}

/* Appends "--lcores=0@(cpus)" to 's': one lcore that may run on every CPU
 * the process may use, so that EAL pins nothing. */
static void
put_default_lcores(struct ds *s)
{
    cpu_set_t set;
    bool first = true;

    ds_put_cstr(s, "--lcores=0@(");
    if (!sched_getaffinity(0, sizeof set, &set)) {
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
            if (CPU_ISSET(cpu, &set)) {
                ds_put_format(s, first ? "%d" : ",%d", cpu);
                first = false;
            }
        }
    }
    if (first) {
        ds_put_char(s, '0');
    }
    ds_put_char(s, ')');
}

/* Builds the EAL arguments from 'cfg' and starts EAL.  Returns 0 or a
 * positive errno value (DPDK's rte_errno). */
static int
dpdk_start_full_eal(const struct smap *cfg)
{
    struct eal_args args = { NULL, 0, 0 };
    eal_args_add(&args, util_program_name() ? util_program_name()
                                            : "ovs-vswitchd");

    /* dpdk-extra first: what it says overrides the keys below. */
    const char *extra = smap_get(cfg, "dpdk-extra");
    if (extra) {
        split_words(extra, &args.argv, &args.argc, &args.allocated);
        args.argv[args.argc] = NULL;
    }

    /* Cores. */
    static const char *const lcore_opts[] = {
        "-c", "-l", "--lcores", "--coremask", NULL
    };
    if (!eal_args_has(&args, lcore_opts)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        const char *mask = smap_get(cfg, "dpdk-lcore-mask");
        if (mask && !lcore_mask_to_lcores(mask, &s)) {
            VLOG_WARN("other_config:dpdk-lcore-mask=%s is not a CPU mask; "
                      "ignoring it", mask);
            mask = NULL;
            ds_clear(&s);
        }
        if (!mask) {
            put_default_lcores(&s);
        }
        eal_args_add(&args, ds_cstr(&s));
        ds_destroy(&s);
    }

    /* Memory. */
    const char *hugepage_dir = smap_get(cfg, "dpdk-hugepage-dir");
    const char *socket_mem = smap_get(cfg, "dpdk-socket-mem");
    const char *socket_limit = smap_get(cfg, "dpdk-socket-limit");
    const char *alloc_mem = smap_get(cfg, "dpdk-alloc-mem");
    bool user_no_huge = eal_args_has1(&args, "--no-huge");
    bool no_huge = user_no_huge || !host_has_hugepages(hugepage_dir);

    if (no_huge) {
        unsigned int mb = 0;
        if (alloc_mem && !util_str_to_uint(alloc_mem, 10, &mb)) {
            VLOG_WARN("other_config:dpdk-alloc-mem=%s is not a number of "
                      "MB; ignoring it", alloc_mem);
        }
        if (!mb && socket_mem) {
            mb = sum_mb_list(socket_mem);
        }
        if (!mb) {
            mb = DPDK_NO_HUGE_DEFAULT_MB;
        }
        bool user_m = eal_args_has1(&args, "-m");
        if (!user_no_huge) {
            if (user_m) {
                VLOG_INFO("No hugepages on this host%s%s: starting EAL with "
                          "--no-huge and the -m of dpdk-extra (packet "
                          "memory from the ordinary heap)",
                          hugepage_dir ? " in " : "",
                          hugepage_dir ? hugepage_dir : "");
            } else {
                VLOG_INFO("No hugepages on this host%s%s: starting EAL with "
                          "--no-huge -m %u (packet memory from the ordinary "
                          "heap)", hugepage_dir ? " in " : "",
                          hugepage_dir ? hugepage_dir : "", mb);
            }
            eal_args_add(&args, "--no-huge");
        }
        if (!user_m) {
            char *m = xasprintf("%u", mb);
            eal_args_add(&args, "-m");
            eal_args_add(&args, m);
            free(m);
        }
        if (socket_mem || socket_limit || hugepage_dir) {
            VLOG_WARN("without hugepages, dpdk-socket-mem, "
                      "dpdk-socket-limit and dpdk-hugepage-dir do not "
                      "apply");
        }
        /* --in-memory implies hugepage options 22.11 refuses with
         * --no-huge; --no-shconf gives the same "no shared files". */
        if (!eal_args_has1(&args, "--no-shconf")
            && !eal_args_has1(&args, "--in-memory")) {
            eal_args_add(&args, "--no-shconf");
        }
    } else {
        if (hugepage_dir && !eal_args_has1(&args, "--huge-dir")) {
            eal_args_add(&args, "--huge-dir");
            eal_args_add(&args, hugepage_dir);
        }
        if (socket_mem && !eal_args_has1(&args, "--socket-mem")
            && !eal_args_has1(&args, "-m")) {
            eal_args_add(&args, "--socket-mem");
            eal_args_add(&args, socket_mem);
        } else if (alloc_mem && !eal_args_has1(&args, "-m")
                   && !eal_args_has1(&args, "--socket-mem")) {
            eal_args_add(&args, "-m");
            eal_args_add(&args, alloc_mem);
        }
        if (socket_limit && !eal_args_has1(&args, "--socket-limit")) {
            eal_args_add(&args, "--socket-limit");
            eal_args_add(&args, socket_limit);
        }
        if (!eal_args_has1(&args, "--legacy-mem")
            && !eal_args_has1(&args, "--in-memory")
            && !eal_args_has1(&args, "--no-shconf")) {
            eal_args_add(&args, "--in-memory");
        }
    }

    /* Telemetry would open a socket and a thread nobody asked for. */
    if (!eal_args_has1(&args, "--telemetry")
        && !eal_args_has1(&args, "--no-telemetry")) {
        eal_args_add(&args, "--no-telemetry");
    }
    if (!eal_args_has1(&args, "--file-prefix")) {
        char *prefix = xasprintf("--file-prefix=ovs-vswitchd-%ld",
                                 (long) getpid());
        eal_args_add(&args, prefix);
        free(prefix);
    }

    struct ds line = DS_EMPTY_INITIALIZER;
    for (int i = 0; i < args.argc; i++) {
        ds_put_format(&line, "%s%s", i ? " " : "", args.argv[i]);
    }
    VLOG_INFO("EAL ARGS: %s", ds_cstr(&line));
    ds_destroy(&line);

    /* rte_eal_init() may permute and keep pointers into its argv: hand it a
     * copy and keep ours for freeing. */
    char **argv_copy = xmemdup(args.argv, (args.argc + 1) * sizeof *args.argv);

    /* EAL pins this thread to the main lcore's CPUs; every thread created
     * later would inherit that, so restore the affinity afterwards. */
    cpu_set_t saved;
    bool have_saved = !pthread_getaffinity_np(pthread_self(), sizeof saved,
                                              &saved);

    int error = 0;
    if (rte_eal_init(args.argc, argv_copy) < 0) {
        error = rte_errno ? rte_errno : EINVAL;
    } else {
        if (have_saved && !smap_get(cfg, "dpdk-lcore-mask")) {
            pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
        }
        runtime_dir = xstrdup(rte_eal_get_runtime_dir());
        atexit(dpdk_remove_runtime_dir);
        dpdk_remove_runtime_dir();
    }
    free(argv_copy);
    /* EAL copies what it keeps (eal_save_args(), devargs). */
    eal_args_destroy(&args);
    return error;
}

/* Starts the light EAL: packets from heap memory, no devices. */
static int
dpdk_start_light_eal(void)
{
    int error = dpdk_eal_init_light("ovs-vswitchd", DPDK_LIGHT_MB);
    if (!error) {
        runtime_dir = xstrdup(rte_eal_get_runtime_dir());
        atexit(dpdk_remove_runtime_dir);
        dpdk_remove_runtime_dir();
    }
    return error;
}

/* EAL leaves its run-time directory behind, even when it is empty (with
 * --no-shconf or --in-memory nothing is ever put there).  Removing it right
 * after start-up means a killed daemon leaves nothing either; a directory
 * that holds files (shared configuration, telemetry) stays. */
static void
dpdk_remove_runtime_dir(void)
{
    if (runtime_dir) {
        rmdir(runtime_dir);
    }
}

/* Logs, once per change, that a start-up key in 'cfg' differs from the
 * value EAL started with. */
static void
dpdk_compare_config(const struct smap *cfg)
{
    static struct smap last_warned = SMAP_INITIALIZER;
    struct smap now = SMAP_INITIALIZER;

    for (size_t i = 0; i < ARRAY_SIZE(startup_keys); i++) {
        const char *value = smap_get(cfg, startup_keys[i]);
        if (value) {
            smap_add(&now, startup_keys[i], value);
        }
    }

    bool differs = !smap_equal(&now, &startup_config);
    bool warn = differs && !smap_equal(&now, &last_warned);
    for (size_t i = 0; i < ARRAY_SIZE(startup_keys); i++) {
        const char *old = smap_get(&startup_config, startup_keys[i]);
        const char *new = smap_get(&now, startup_keys[i]);
        bool changed = (old == NULL) != (new == NULL)
                       || (old && strcmp(old, new));

        restart_needed_note(startup_keys[i], changed);
        if (changed && warn) {
            VLOG_WARN("other_config:%s changed from %s%s%s to %s%s%s: "
                      "this takes effect only when ovs-vswitchd "
                      "restarts", startup_keys[i],
                      old ? "\"" : "", old ? old : "(unset)",
                      old ? "\"" : "",
                      new ? "\"" : "", new ? new : "(unset)",
                      new ? "\"" : "");
        }
    }
    restart_needed = differs;
    smap_swap(&last_warned, &now);
    smap_destroy(&now);
}

static void
dpdk_set_vhost_sock_dir(const struct smap *cfg)
{
    const char *sub = smap_get(cfg, "vhost-sock-dir");
    const char *rundir = dirs_rundir();

    free(vhost_sock_dir);
    if (!sub || !sub[0]) {
        vhost_sock_dir = xstrdup(rundir);
        return;
    }
    if (sub[0] == '/' || strstr(sub, "..")) {
        VLOG_ERR("other_config:vhost-sock-dir=%s must be a directory "
                 "below the run directory; using %s", sub, rundir);
        vhost_sock_dir = xstrdup(rundir);
        return;
    }
    vhost_sock_dir = xasprintf("%s/%s", rundir, sub);

    struct stat st;
    if (stat(vhost_sock_dir, &st) || !S_ISDIR(st.st_mode)) {
        VLOG_ERR("other_config:vhost-sock-dir: %s is not a directory; "
                 "vhost-user sockets cannot be created there",
                 vhost_sock_dir);
    }
}

/* DPDK's log, into the "dpdk" module. */

static ssize_t
dpdk_log_write(void *cookie DPS_UNUSED, const char *buf, size_t size)
{
    size_t len = size;
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) {
        len--;
    }
    if (!len) {
        return size;
    }

    enum vlog_level level;
    switch (rte_log_cur_msg_loglevel()) {
    case RTE_LOG_DEBUG:
        level = VLL_DBG;
        break;
    case RTE_LOG_INFO:
    case RTE_LOG_NOTICE:
        level = VLL_INFO;
        break;
    case RTE_LOG_WARNING:
        level = VLL_WARN;
        break;
    case RTE_LOG_ERR:
        level = VLL_ERR;
        break;
    case RTE_LOG_CRIT:
    case RTE_LOG_ALERT:
    case RTE_LOG_EMERG:
        level = VLL_EMER;
        break;
    default:
        level = VLL_INFO;
        break;
    }
    vlog(&this_module, level, "%.*s", (int) len, buf);
    return size;
}

static void
dpdk_log_redirect(void)
{
    static const cookie_io_functions_t functions = {
        .write = dpdk_log_write,
    };
    FILE *stream = fopencookie(NULL, "w+", functions);
    if (!stream) {
        VLOG_ERR("cannot route DPDK's log to the \"dpdk\" module: %s",
                 util_strerror(errno));
        return;
    }
    /* Line buffered: DPDK flushes after each message anyway. */
    setvbuf(stream, NULL, _IOLBF, 0);
    rte_openlog_stream(stream);
}

/* Packet pools for DPDK ports. */

static struct dpdk_mp *dpdk_mp_add(struct rte_mempool *, int socket_id,
                                   int mtu, uint16_t data_room);
static struct dpdk_mp *dpdk_mp_get_done(const char *port_name,
                                        struct dpdk_mp *);

static void
dpdk_mp_user_set(const char *port_name, struct dpdk_mp *mp)
{
    struct dpdk_mp_user *user = NULL;

    for (size_t i = 0; i < n_mp_users; i++) {
        if (!strcmp(mp_users[i].port_name, port_name)) {
            user = &mp_users[i];
            break;
        }
    }
    if (!user) {
        mp_users = xrealloc(mp_users, (n_mp_users + 1) * sizeof *mp_users);
        user = &mp_users[n_mp_users++];
        user->port_name = xstrdup(port_name);
        user->mp = user->copy_mp = NULL;
    }
    if (mp->copy) {
        user->copy_mp = mp;
    } else {
        user->mp = mp;
    }
}

static void
dpdk_mp_users_forget(const struct dpdk_mp *mp)
{
    for (size_t i = 0; i < n_mp_users; ) {
        struct dpdk_mp_user *user = &mp_users[i];

        if (user->mp == mp) {
            user->mp = NULL;
        }
        if (user->copy_mp == mp) {
            user->copy_mp = NULL;
        }
        if (!user->mp && !user->copy_mp) {
            free(user->port_name);
            *user = mp_users[--n_mp_users];
        } else {
            i++;
        }
    }
}

/* Frees the unreferenced pools whose mbufs have all come back. */
static void
dpdk_mp_sweep(void)
{
    struct dpdk_mp **prevp = &mps;
    while (*prevp) {
        struct dpdk_mp *mp = *prevp;
        if (!mp->refcount && rte_mempool_full(mp->pool)) {
            VLOG_DBG("freeing mempool \"%s\"", mp->pool->name);
            dpdk_mp_users_forget(mp);
            *prevp = mp->next;
            dp_packet_pool_destroy(mp->pool);
            free(mp);
        } else {
            prevp = &mp->next;
        }
    }
}

/* Returns how many mbufs of 'data_room' bytes a shared pool on NUMA node
 * 'socket_id' starts with: 'n', halved (down to 'min') while the pool would
 * take more than half of the socket's free EAL memory, when EAL runs
 * without hugepages.  With hugepages EAL may grow its memory on demand, so
 * only a failed allocation halves the pool. */
static unsigned int
dpdk_mp_shared_start(unsigned int n, unsigned int min, int socket_id,
                     uint16_t data_room)
{
    struct rte_malloc_socket_stats stats;

    if (rte_eal_has_hugepages()
        || rte_malloc_get_socket_stats(socket_id, &stats)
        || !stats.heap_freesz_bytes) {
        return n;
    }

    struct rte_mempool_objsz objsz;
    uint32_t elt_size = (sizeof(struct rte_mbuf) + DPDK_MP_PRIV_SIZE
                         + data_room);
    uint64_t obj_size = rte_mempool_calc_obj_size(elt_size, 0, &objsz);
    while (n / 2 >= min
           && (uint64_t) n * obj_size > stats.heap_freesz_bytes / 2) {
        n /= 2;
    }
    return n;
}

/* Makes and lists (in 'mps', with one reference) a struct dpdk_mp for
 * 'pool'.  Called with 'mp_mutex' held. */
static struct dpdk_mp *
dpdk_mp_add(struct rte_mempool *pool, int socket_id, int mtu,
            uint16_t data_room)
{
    struct dpdk_mp *mp = xzalloc(sizeof *mp);

    mp->pool = pool;
    mp->socket_id = socket_id;
    mp->mtu = mtu;
    mp->data_room = data_room;
    mp->refcount = 1;
    mp->next = mps;
    mps = mp;
    return mp;
}

/* Records 'mp' (if nonnull) as the pool of 'port_name', releases
 * 'mp_mutex' and returns 'mp'. */
static struct dpdk_mp *
dpdk_mp_get_done(const char *port_name, struct dpdk_mp *mp)
{
    if (mp) {
        dpdk_mp_user_set(port_name, mp);
    }
    pthread_mutex_unlock(&mp_mutex);
    return mp;
}

/* Returns the bytes of memory that 'pool' takes: its objects (mbuf, private
 * area, data room, and DPDK's header and trailer) and its ring. */
static uint64_t
dpdk_mp_bytes(const struct rte_mempool *pool)
{
    return (uint64_t) pool->size * (pool->header_size + pool->elt_size
                                    + pool->trailer_size);
}

/* Writes one summary line for 'mp' to 'stream'. */
static void
dpdk_mp_summary(FILE *stream, const struct dpdk_mp *mp)
{
    const struct rte_mempool *pool = mp->pool;

    fprintf(stream, "%s: %s pool, %u mbufs of %u bytes (%u-byte data room), "
            "%"PRIu64" bytes, %u in use\n", pool->name,
            mp->copy ? "copy" : mp->per_port ? "per-port" : "shared",
            pool->size, pool->header_size + pool->elt_size
            + pool->trailer_size, (unsigned int) mp->data_room,
            dpdk_mp_bytes(pool), rte_mempool_in_use_count(pool));
}

/* memory/show: "dpdk_mempools:N dpdk_mempool_mbufs:M
 * dpdk_mempool_bytes:B", every pool of DPDK ports (copy pools included)
 * that still exists. */
static void
dpdk_mp_memory_report(struct memory_report *report, void *aux DPS_UNUSED)
{
    unsigned long long int n = 0, mbufs = 0, bytes = 0;

    pthread_mutex_lock(&mp_mutex);
    for (const struct dpdk_mp *mp = mps; mp; mp = mp->next) {
        n++;
        mbufs += mp->pool->size;
        bytes += dpdk_mp_bytes(mp->pool);
    }
    pthread_mutex_unlock(&mp_mutex);
    if (n) {
        memory_report_add(report, "dpdk_mempools", n);
        memory_report_add(report, "dpdk_mempool_mbufs", mbufs);
        memory_report_add(report, "dpdk_mempool_bytes", bytes);
    }
}

/* unixctl commands. */

/* Runs 'dump' on a memory stream and replies with what it wrote. */
static void
reply_with_dump(struct unixctl_conn *conn, void (*dump)(FILE *, void *),
                void *aux)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&buf, &size);
    if (!stream) {
        unixctl_command_reply_error(conn, "cannot open memory stream");
        return;
    }
    dump(stream, aux);
    fclose(stream);
    unixctl_command_reply(conn, buf);
    free(buf);
}

static void
dump_log(FILE *stream, void *aux DPS_UNUSED)
{
    rte_log_dump(stream);
}

static void
dump_lcores(FILE *stream, void *aux DPS_UNUSED)
{
    rte_lcore_dump(stream);
}

static void
dump_malloc(FILE *stream, void *aux DPS_UNUSED)
{
    rte_malloc_dump_stats(stream, NULL);
}

static void
dpdk_unixctl_log_list(struct unixctl_conn *conn, int argc DPS_UNUSED,
                      const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    reply_with_dump(conn, dump_log, NULL);
}

static void
dpdk_unixctl_lcore_list(struct unixctl_conn *conn, int argc DPS_UNUSED,
                        const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    reply_with_dump(conn, dump_lcores, NULL);
}

static void
dpdk_unixctl_malloc_stats(struct unixctl_conn *conn, int argc DPS_UNUSED,
                          const char *argv[] DPS_UNUSED,
                          void *aux DPS_UNUSED)
{
    reply_with_dump(conn, dump_malloc, NULL);
}

/* Returns the RTE_LOG_* level named 's' (DPDK's names, or a number 1 to 8),
 * or -1. */
static int
dpdk_parse_log_level(const char *s)
{
    static const char *const names[] = {
        [RTE_LOG_EMERG] = "emergency", [RTE_LOG_ALERT] = "alert",
        [RTE_LOG_CRIT] = "critical", [RTE_LOG_ERR] = "error",
        [RTE_LOG_WARNING] = "warning", [RTE_LOG_NOTICE] = "notice",
        [RTE_LOG_INFO] = "info", [RTE_LOG_DEBUG] = "debug",
    };
    for (int i = (int) RTE_LOG_EMERG; i <= (int) RTE_LOG_DEBUG; i++) {
        if (!strcasecmp(s, names[i])) {
            return i;
        }
    }
    int level;
    if (util_str_to_int(s, 10, &level) && level >= (int) RTE_LOG_EMERG
        && level <= (int) RTE_LOG_DEBUG) {
        return level;
    }
    return -1;
}

static void
dpdk_unixctl_log_set(struct unixctl_conn *conn, int argc, const char *argv[],
                     void *aux DPS_UNUSED)
{
    if (argc == 1) {
        rte_log_set_level_pattern("*", RTE_LOG_DEBUG);
    }
    for (int i = 1; i < argc; i++) {
        char *s = xstrdup(argv[i]);
        char *colon = strrchr(s, ':');
        const char *pattern = "*";
        const char *level_name = s;
        if (colon) {
            *colon = '\0';
            pattern = s;
            level_name = colon + 1;
        }

        char *error = NULL;
        int level = dpdk_parse_log_level(level_name);
        if (level < 0) {
            error = xasprintf("invalid log level: '%s'", level_name);
        } else if (rte_log_set_level_pattern(pattern, (uint32_t) level) < 0) {
            error = xasprintf("cannot set log level for '%s'", argv[i]);
        }
        free(s);
        if (error) {
            unixctl_command_reply_error(conn, error);
            free(error);
            return;
        }
    }
    unixctl_command_reply(conn, NULL);
}

/* dpdk/hold-mbufs NETDEV and dpdk/release-mbufs, a hook for tests: the
 * first takes every free mbuf of the packet pool of DPDK port NETDEV and
 * keeps it, as a peer that never gives buffers back would, so that the
 * ports receiving from that pool run out; the second gives them all back.
 * See dpdk_mp_hold_poll(). */
struct rte_mempool *dpdk_mp_held__;     /* Atomic; the pool held, if any. */
static pthread_mutex_t hold_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rte_mbuf **held_mbufs;    /* Protected by 'hold_mutex'. */
static size_t n_held_mbufs, allocated_held_mbufs;

/* Takes every mbuf the calling thread can get from the held pool.  Returns
 * how many it took. */
static size_t
dpdk_mp_hold_take(void)
{
    size_t n = 0;

    pthread_mutex_lock(&hold_mutex);
    struct rte_mempool *pool = __atomic_load_n(&dpdk_mp_held__,
                                               __ATOMIC_RELAXED);
    while (pool) {
        if (n_held_mbufs == allocated_held_mbufs) {
            allocated_held_mbufs = MAX(2 * allocated_held_mbufs, 1024);
            held_mbufs = xrealloc(held_mbufs, (allocated_held_mbufs
                                               * sizeof *held_mbufs));
        }
        struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
        if (!m) {
            break;
        }
        held_mbufs[n_held_mbufs++] = m;
        n++;
    }
    pthread_mutex_unlock(&hold_mutex);
    return n;
}

static void
dpdk_unixctl_hold_mbufs(struct unixctl_conn *conn, int argc DPS_UNUSED,
                        const char *argv[], void *aux DPS_UNUSED)
{
    struct rte_mempool *pool = NULL;

    pthread_mutex_lock(&mp_mutex);
    for (size_t i = 0; i < n_mp_users; i++) {
        if (!strcmp(mp_users[i].port_name, argv[1]) && mp_users[i].mp) {
            pool = mp_users[i].mp->pool;
            break;
        }
    }
    pthread_mutex_unlock(&mp_mutex);
    if (!pool) {
        unixctl_command_reply_error(conn, "no DPDK port with a pool");
        return;
    }
    if (__atomic_load_n(&dpdk_mp_held__, __ATOMIC_RELAXED)) {
        unixctl_command_reply_error(conn, "already holding a pool");
        return;
    }

    __atomic_store_n(&dpdk_mp_held__, pool, __ATOMIC_RELAXED);
    char *reply = xasprintf("holding %zu mbufs of %s", dpdk_mp_hold_take(),
                            pool->name);
    unixctl_command_reply(conn, reply);
    free(reply);
}

static void
dpdk_unixctl_release_mbufs(struct unixctl_conn *conn, int argc DPS_UNUSED,
                           const char *argv[] DPS_UNUSED,
                           void *aux DPS_UNUSED)
{
    __atomic_store_n(&dpdk_mp_held__, NULL, __ATOMIC_RELAXED);
    pthread_mutex_lock(&hold_mutex);
    char *reply = xasprintf("released %zu mbufs", n_held_mbufs);
    for (size_t i = 0; i < n_held_mbufs; i++) {
        rte_pktmbuf_free(held_mbufs[i]);
    }
    n_held_mbufs = 0;
    pthread_mutex_unlock(&hold_mutex);
    unixctl_command_reply(conn, reply);
    free(reply);
}
