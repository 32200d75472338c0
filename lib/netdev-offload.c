/* netdev-offload: the generic side of flow offload providers.  See
 * netdev-offload.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev-offload.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "dynamic-string.h"
#include "netdev-provider.h"
#include "restart-needed.h"
#include "smap.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_offload);

COVERAGE_DEFINE(netdev_offload_put_fail);
COVERAGE_DEFINE(netdev_offload_unsupported);
COVERAGE_DEFINE(netdev_offload_del_fail);

static bool flow_api_enabled;           /* Main thread writes; atomic. */
static unsigned int n_offload_threads = NETDEV_OFFLOAD_DEFAULT_THREADS;
static bool disable_warned;
static unsigned long long int threads_warned;

/* See netdev-offload.h. */
bool
netdev_offload_set_config(const struct smap *cfg, unsigned int *n_threads,
                          struct ds *errors)
{
    bool want = smap_get_bool(cfg, "hw-offload", false);
    const char *nt = smap_get(cfg, "n-offload-threads");
    unsigned long long int n = NETDEV_OFFLOAD_DEFAULT_THREADS;
    char *msg = NULL;

    if (nt) {
        char *end;

        errno = 0;
        n = strtoull(nt, &end, 10);
        if (errno || end == nt || *end || !n
            || n > NETDEV_OFFLOAD_MAX_THREADS) {
            msg = xasprintf("other_config:n-offload-threads: invalid value "
                            "\"%s\" (expected 1 to %d); using %d", nt,
                            NETDEV_OFFLOAD_MAX_THREADS,
                            NETDEV_OFFLOAD_DEFAULT_THREADS);
            n = NETDEV_OFFLOAD_DEFAULT_THREADS;
        }
    }
    if (msg) {
        VLOG_WARN("%s", msg);
        if (errors) {
            ds_put_format(errors, "%s\n", msg);
        }
        free(msg);
    }

    if (!flow_api_enabled) {
        if (want) {
            n_offload_threads = n;
            threads_warned = n;
            if (nt) {
                VLOG_INFO("netdev: Flow API Enabled, using %u thread%s",
                          n_offload_threads,
                          n_offload_threads > 1 ? "s" : "");
            } else {
                VLOG_INFO("netdev: Flow API Enabled");
            }
            __atomic_store_n(&flow_api_enabled, true, __ATOMIC_RELEASE);
        }
    } else {
        if (!want && !disable_warned) {
            msg = xstrdup("other_config:hw-offload=false takes effect after "
                          "a restart of ovs-vswitchd; flows stay offloaded "
                          "until then");
        } else if (want && n != n_offload_threads && n != threads_warned) {
            msg = xasprintf("other_config:n-offload-threads=%llu takes "
                            "effect after a restart of ovs-vswitchd; %u "
                            "thread%s in use", n, n_offload_threads,
                            n_offload_threads > 1 ? "s" : "");
            threads_warned = n;
        }
        disable_warned = !want;
        if (msg) {
            VLOG_WARN("%s", msg);
            if (errors) {
                ds_put_format(errors, "%s\n", msg);
            }
            free(msg);
        }
    }
    restart_needed_note("hw-offload", flow_api_enabled && !want);
    restart_needed_note("n-offload-threads",
                        flow_api_enabled && want && n != n_offload_threads);
    *n_threads = n_offload_threads;
    return flow_api_enabled;
}

/* True once other_config:hw-offload=true was seen. */
bool
netdev_offload_is_enabled(void)
{
    return __atomic_load_n(&flow_api_enabled, __ATOMIC_ACQUIRE);
}

/* Forgets that offload was enabled (the datapath that used it is gone). */
void
netdev_offload_reset(void)
{
    __atomic_store_n(&flow_api_enabled, false, __ATOMIC_RELEASE);
    n_offload_threads = NETDEV_OFFLOAD_DEFAULT_THREADS;
    disable_warned = false;
    threads_warned = 0;
    restart_needed_note("hw-offload", false);
    restart_needed_note("n-offload-threads", false);
}

/* See netdev-offload.h. */
const struct netdev_flow_api *
netdev_offload_assign(struct netdev *netdev)
{
    const struct netdev_flow_api *api = netdev->netdev_class->flow_api;

    if (api) {
        int error = api->init_flow_api(netdev);

        if (!error) {
            VLOG_INFO("%s: Assigned flow API '%s'.", netdev_get_name(netdev),
                      api->type);
            return api;
        }
        VLOG_DBG("%s: flow API '%s' is not suitable: %s",
                 netdev_get_name(netdev), api->type, util_strerror(error));
    }
    VLOG_INFO("%s: No suitable flow API found.", netdev_get_name(netdev));
    return NULL;
}

/* See netdev-offload.h. */
void
netdev_offload_release(struct netdev *netdev,
                       const struct netdev_flow_api *api)
{
    if (api && api->uninit_flow_api) {
        api->uninit_flow_api(netdev);
    }
}

/* See netdev-offload.h. */
int
netdev_offload_flow_put(const struct netdev_flow_api *api,
                        struct netdev *netdev,
                        const struct netdev_offload_match *match,
                        const struct dp_ufid *ufid,
                        const struct netdev_offload_info *info)
{
    int error = api->flow_put(netdev, match, ufid, info);

    if (error == EOPNOTSUPP) {
        COVERAGE_INC(netdev_offload_unsupported);
    } else if (error) {
        COVERAGE_INC(netdev_offload_put_fail);
    }
    return error;
}

/* See netdev-offload.h. */
int
netdev_offload_flow_del(const struct netdev_flow_api *api,
                        struct netdev *netdev, const struct dp_ufid *ufid)
{
    int error = api->flow_del(netdev, ufid);

    if (error) {
        COVERAGE_INC(netdev_offload_del_fail);
    }
    return error;
}

/* See netdev-offload.h. */
int
netdev_offload_flow_get(const struct netdev_flow_api *api,
                        struct netdev *netdev, const struct dp_ufid *ufid,
                        struct netdev_offload_flow_state *state)
{
    memset(state, 0, sizeof *state);
    return api->flow_get ? api->flow_get(netdev, ufid, state) : EOPNOTSUPP;
}

/* See netdev-offload.h. */
int
netdev_offload_flow_flush(const struct netdev_flow_api *api,
                          struct netdev *netdev)
{
    return api->flow_flush(netdev);
}

/* See netdev-offload.h. */
void
netdev_offload_match_from_flow(struct netdev_offload_match *match,
                               const struct dp_flow *flow)
{
    flow_key_to_flow(&flow->key, &match->key);
    flow_key_to_flow(&flow->mask, &match->mask);
}
