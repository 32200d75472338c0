/* DPDK start-up for ovs-vswitchd.  See dpdk.h.
 *
 * This first version gives every configuration the light EAL; the full EAL
 * from the dpdk-* keys replaces it (issue 7).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dpdk.h"
#include <stdlib.h>
#include <string.h>
#include <rte_version.h>
#include "dp-packet.h"
#include "dpdk-eal.h"
#include "smap.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dpdk);

static bool initialized;
static struct rte_mempool *default_pool;

void
dpdk_init(const struct smap *ovs_other_config)
{
    if (initialized) {
        return;
    }
    initialized = true;

    const char *init = smap_get_def(ovs_other_config, "dpdk-init", "false");
    if (strcmp(init, "false")) {
        VLOG_WARN("dpdk-init=%s: DPDK ports are not supported yet, "
                  "starting without them", init);
    }
    if (dpdk_eal_init_light("ovs-vswitchd", 256)) {
        util_fatal(0, "cannot initialise DPDK's EAL");
    }
    default_pool = dp_packet_pool_create("dps-default", 16384, 2048);
    if (!default_pool) {
        util_fatal(0, "cannot create the default packet pool");
    }
}

bool
dpdk_available(void)
{
    return false;
}

const char *
dpdk_get_version(void)
{
    return rte_version();
}

const char *
dpdk_get_vhost_sock_dir(void)
{
    return NULL;
}

bool
dpdk_restart_needed(void)
{
    return false;
}

bool
dpdk_multi_seg_mbufs(void)
{
    return false;
}

bool
dpdk_per_port_memory(void)
{
    return false;
}

struct rte_mempool *
dpdk_default_pool(void)
{
    return default_pool;
}

/* Until DPDK ports exist, every port shares the default pool. */
struct dpdk_mp {
    int refcount;
};

struct dpdk_mp *
dpdk_mp_get(const char *port_name DPS_UNUSED, int socket_id DPS_UNUSED,
            int mtu DPS_UNUSED, char **errp DPS_UNUSED)
{
    struct dpdk_mp *mp = xzalloc(sizeof *mp);

    mp->refcount = 1;
    return mp;
}

struct rte_mempool *
dpdk_mp_pool(const struct dpdk_mp *mp DPS_UNUSED)
{
    return default_pool;
}

void
dpdk_mp_put(struct dpdk_mp *mp)
{
    free(mp);
}

void
dpdk_register_commands(void)
{
}
