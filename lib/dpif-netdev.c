/* The userspace datapath: ports, polling threads, the per-packet pipeline,
 * flows and reconfiguration.  See dpif-netdev.h and
 * Documentation/topics/dpif-netdev.rst.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dpif-netdev.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include "coverage.h"
#include "dp-emc.h"
#include "dp-simple.h"
#include "dp-smc.h"
#include "dp-execute.h"
#include "dp-flow.h"
#include "dp-packet.h"
#include "dp-rcu.h"
#include "dpcls.h"
#include "dpif-netdev-offload.h"
#include "dpif-netdev-private.h"
#include "dynamic-string.h"
#include "flow.h"
#include "netdev-offload.h"
#include "netdev.h"
#include "ovs-numa.h"
#include "poll-loop.h"
#include "smap.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dpif_netdev);

COVERAGE_DEFINE(datapath_drop_invalid_port);
COVERAGE_DEFINE(datapath_drop_lock_error);
COVERAGE_DEFINE(datapath_drop_upcall_error);
COVERAGE_DEFINE(datapath_flow_limit);

/* Most dp_rcu thread ids: the main thread and PMDs. */
#define DP_MAX_THREADS 128

/* Defaults of other_config keys. */
#define DEFAULT_MAX_IDLE 10000
#define DEFAULT_FLOW_LIMIT 200000
#define MAX_TX_FLUSH_INTERVAL 1000000
#define MAX_PMD_SLEEP 10000

/* Receive bursts the main thread takes from one non-PMD queue per run. */
#define MAIN_MAX_BURSTS 4

/* PMD housekeeping period, in iterations. */
#define PMD_HOUSEKEEPING_ITERS 1024
#define PMD_EMC_SWEEP 64

_Static_assert(DP_PACKET_BATCH_SIZE <= 64, "per-burst bitmaps are 64 bits");

static struct dp_netdev *the_dp;

bool dp_netdev_no_action_merge;
bool dp_netdev_no_simple_match;

/* Threads. */
static struct dp_netdev_pmd *pmd_create(struct dp_netdev *, int core_id);
static void pmd_destroy(struct dp_netdev_pmd *);
static void pmd_start(struct dp_netdev_pmd *);
static void *pmd_thread_main(void *);
static void pmd_flush_all(struct dp_netdev_pmd *, bool force,
                          long long int now_us);
static void pmd_flows_clear(struct dp_netdev_pmd *);
static void pmd_install_sched(struct dp_netdev_pmd *,
                              struct dp_netdev_rxq **polls, size_t n_polls);
static void sched_build_tx(const struct dp_netdev_pmd *,
                           struct dp_netdev_sched *);
static void sched_swap(struct dp_netdev_pmd *, struct dp_netdev_sched *);
static void sched_destroy(struct dp_netdev_sched *);
static void pmd_adopt_sched(struct dp_netdev_pmd *);
static inline struct dp_netdev_tx_port *pmd_lookup_tx(
    struct dp_netdev_pmd *, uint32_t port_no);

/* Pipeline. */
static void pmd_process_batch(struct dp_netdev_pmd *, struct dp_netdev_rxq *,
                              uint32_t in_port, bool emc_enabled,
                              struct dp_packet_batch *, long long int now);
static void pmd_output(void *pmd_, uint32_t port,
                       struct dp_packet_batch *);

/* Reconfiguration. */
static void dp_reconfigure(struct dp_netdev *);
static void port_open_rxqs(struct dp_netdev_port *);
static void port_close_rxqs(struct dp_netdev_port *);
static void port_destroy(struct dp_netdev_port *);
static void assign_rxqs(struct dp_netdev *);
static struct dp_netdev_rxq **polls_without_detached(
    const struct dp_netdev_pmd *, size_t *n);
static struct dp_netdev_rxq **assigned_polls(const struct dp_netdev *,
                                             const struct dp_netdev_pmd *,
                                             size_t *n);

/* Flows. */
static void flow_node_delete(struct dp_netdev_pmd *,
                             struct dp_netdev_flow_node *);
static void dp_age_flows(struct dp_netdev *, long long int now);
static void dp_rotate_intervals(struct dp_netdev *);
static int pmd_flow_put(struct dp_netdev_pmd *, const struct flow_key *key,
                        const struct flow_key *masked,
                        const struct flow_key *mkey,
                        const struct dp_actions *, const struct dp_ufid *,
                        unsigned int flags, struct dp_flow_stats *);
static int pmd_flow_install(struct dp_netdev_pmd *, const struct flow_key *key,
                            const struct flow_key *masked,
                            const struct flow_key *mkey, const void *actions,
                            size_t actions_size, const struct dp_ufid *);
static void flow_stats_add(struct dp_flow_stats *, const struct dp_flow *);
static void put_key(const struct flow *key, const struct flow *mask,
                    struct flow_key *fkey, struct flow_key *masked,
                    struct flow_key *mkey);

static inline uint64_t
stat_get(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void
stat_add(struct dp_netdev_pmd *pmd, enum pmd_stat_type t, uint64_t n)
{
    __atomic_store_n(&pmd->stats[t], pmd->stats[t] + n, __ATOMIC_RELAXED);
}

#define DP_FOR_EACH_THREAD(PMD, DP)                                     \
    for (size_t i__ = 0;                                                \
         i__ <= (DP)->n_pmds && ((PMD) = dp_all_threads(DP, i__), true); \
         i__++)

/* Static helpers used above their definitions. */
static struct dp_netdev_pmd *dp_all_threads(const struct dp_netdev *,
                                            size_t i);
static void config_error(struct ds *errors, const char *format, ...)
    DPS_PRINTF_FORMAT(2, 3);
static bool parse_cpu_mask(const char *mask);
static void config_uint(const struct smap *cfg, const char *key,
                        unsigned long long min, unsigned long long max,
                        unsigned long long def, unsigned long long *value,
                        struct ds *errors);
static size_t port_index(const struct dp_netdev *, uint32_t port_no,
                         bool *found);
static uint32_t choose_port_no(const struct dp_netdev *, const char *name);
static char *parse_affinity(const char *list, int n_rxq, int *cores);

/* Public functions: those of dpif-netdev.h first, in its order, then
 * those that dpif-netdev-private.h gives the other dpif-netdev files.
 * Static helpers follow, from high level to low. */

static struct dp_netdev_pmd *
dp_all_threads(const struct dp_netdev *dp, size_t i);

/* Creation. */

/* Creates the datapath with its internal port 0, "ovs-netdev", and its
 * polling threads (the default: see dp_netdev_set_config()).  Returns 0 and
 * stores it in '*dpp', or a positive errno: EEXIST if one exists. */
int
dp_netdev_create(struct dp_netdev **dpp)
{
    *dpp = NULL;
    if (the_dp) {
        return EEXIST;
    }
    ovs_numa_init();

    struct dp_netdev *dp = xzalloc(sizeof *dp);
    dp->rcu = dp_rcu_create(DP_MAX_THREADS);
    if (!dp->rcu) {
        free(dp);
        return ENOMEM;
    }
    dp->rxq_assign = DP_RXQ_ASSIGN_CYCLES;
    dp->rxq_isolate = true;
    dp->emc_insert_inv_prob = DP_EMC_DEFAULT_INSERT_INV_PROB;
    dp->max_idle = DEFAULT_MAX_IDLE;
    dp->flow_limit = DEFAULT_FLOW_LIMIT;
    dp->mark_to_flow = xcalloc(DP_MARK_N_PAGES, sizeof *dp->mark_to_flow);
    pthread_mutex_init(&dp->mark_mutex, NULL);
    dp->main_pmd = pmd_create(dp, OVS_CORE_UNSPEC);
    dp->need_reconfigure = true;
    dp->last_reconf_seq = netdev_reconf_seq();
    dp->next_aging = time_msec() + 1000;
    dp->next_interval = time_msec() + DP_RXQ_INTERVAL_MS;
    the_dp = dp;

    struct netdev *netdev;
    char *err = NULL;
    int error = netdev_open(DP_NETDEV_NAME, "internal", &netdev, &err);
    if (!error) {
        uint32_t port_no = 0;
        error = dp_netdev_port_add(dp, netdev, &port_no, &err);
        netdev_close(netdev);
    }
    if (error) {
        VLOG_ERR("%s: cannot create internal port: %s", DP_NETDEV_NAME,
                 err ? err : util_strerror(error));
        free(err);
        dp_netdev_destroy(dp);
        return error;
    }
    *dpp = dp;
    return 0;
}

/* Stops the polling threads, deletes every flow and port and frees 'dp'. */
void
dp_netdev_destroy(struct dp_netdev *dp)
{
    if (!dp) {
        return;
    }
    for (size_t i = 0; i < dp->n_pmds; i++) {
        pmd_destroy(dp->pmds[i]);
    }
    free(dp->pmds);
    dp->pmds = NULL;
    dp->n_pmds = 0;
    pmd_destroy(dp->main_pmd);
    /* The flows are gone; their offload requests are not, yet. */
    if (dp->offload) {
        dp_offload_destroy(dp->offload);
        dp->offload = NULL;
        netdev_offload_reset();
    }
    for (size_t i = 0; i < dp->n_ports; i++) {
        port_destroy(dp->ports[i]);
    }
    free(dp->ports);
    dp_rcu_barrier(dp->rcu);
    dp_rcu_destroy(dp->rcu);
    for (size_t i = 0; i < DP_MARK_N_PAGES; i++) {
        free(dp->mark_to_flow[i]);
    }
    free(dp->mark_to_flow);
    pthread_mutex_destroy(&dp->mark_mutex);
    free(dp->pmd_cpu_mask);
    if (the_dp == dp) {
        the_dp = NULL;
    }
    free(dp);
}

/* Sets the slow path's callback for packets that miss every cache (NULL:
 * none, they are dropped). */
void
dp_netdev_set_upcall_cb(struct dp_netdev *dp, dp_upcall_cb *cb, void *aux)
{
    /* The PMDs read the pair together: change it with them paused. */
    for (size_t i = 0; i < dp->n_pmds; i++) {
        dp_netdev_pmd_pause(dp->pmds[i]);
    }
    dp->upcall_aux = aux;
    dp->upcall_cb = cb;
    for (size_t i = 0; i < dp->n_pmds; i++) {
        dp_netdev_pmd_resume(dp->pmds[i]);
    }
}

/* Configuration. */

/* Applies Open_vSwitch:other_config.  See dpif-netdev.h. */
void
dp_netdev_set_config(struct dp_netdev *dp, const struct smap *cfg,
                     struct ds *errors)
{
    /* pmd-cpu-mask. */
    const char *mask = smap_get(cfg, "pmd-cpu-mask");
    if (mask && !*mask) {
        mask = NULL;
    }
    if (mask && !parse_cpu_mask(mask)) {
        config_error(errors, "other_config:pmd-cpu-mask: invalid mask "
                     "\"%s\" (expected hexadecimal digits, optionally "
                     "prefixed by 0x); keeping %s", mask,
                     dp->pmd_cpu_mask ? dp->pmd_cpu_mask : "the default");
    } else if ((mask == NULL) != (dp->pmd_cpu_mask == NULL)
               || (mask && strcmp(mask, dp->pmd_cpu_mask))) {
        free(dp->pmd_cpu_mask);
        dp->pmd_cpu_mask = mask ? xstrdup(mask) : NULL;
        dp->need_reconfigure = true;
    }

    /* pmd-rxq-assign, pmd-rxq-isolate. */
    const char *assign = smap_get_def(cfg, "pmd-rxq-assign", "cycles");
    enum dp_rxq_assign ra = dp->rxq_assign;
    if (!strcmp(assign, "cycles")) {
        ra = DP_RXQ_ASSIGN_CYCLES;
    } else if (!strcmp(assign, "roundrobin")) {
        ra = DP_RXQ_ASSIGN_ROUNDROBIN;
    } else if (!strcmp(assign, "group")) {
        ra = DP_RXQ_ASSIGN_GROUP;
    } else {
        config_error(errors, "other_config:pmd-rxq-assign: invalid value "
                     "\"%s\" (expected roundrobin, cycles or group)", assign);
    }
    if (ra != dp->rxq_assign) {
        dp->rxq_assign = ra;
        VLOG_INFO("Rxq to PMD assignment mode changed to: '%s'.", assign);
        dp->need_reconfigure = true;
    }
    bool isolate = smap_get_bool(cfg, "pmd-rxq-isolate", true);
    if (isolate != dp->rxq_isolate) {
        dp->rxq_isolate = isolate;
        dp->need_reconfigure = true;
    }

    /* Numbers. */
    unsigned long long v = dp->emc_insert_inv_prob;
    config_uint(cfg, "emc-insert-inv-prob", 0, UINT32_MAX,
                DP_EMC_DEFAULT_INSERT_INV_PROB, &v, errors);
    if (v != dp->emc_insert_inv_prob) {
        struct dp_netdev_pmd *pmd;

        dp->emc_insert_inv_prob = v;
        DP_FOR_EACH_THREAD (pmd, dp) {
            dp_emc_set_insert_inv_prob(pmd->emc, v);
        }
    }
    bool smc = smap_get_bool(cfg, "smc-enable", false);
    if (smc != dp->smc_enable) {
        __atomic_store_n(&dp->smc_enable, smc, __ATOMIC_RELAXED);
        VLOG_INFO("SMC cache is %s", smc ? "enabled" : "disabled");
    }
    v = dp->tx_flush_interval;
    config_uint(cfg, "tx-flush-interval", 0, MAX_TX_FLUSH_INTERVAL, 0, &v,
                errors);
    __atomic_store_n(&dp->tx_flush_interval, (unsigned int) v,
                     __ATOMIC_RELAXED);
    v = dp->pmd_sleep_max;
    config_uint(cfg, "pmd-sleep-max", 0, MAX_PMD_SLEEP, 0, &v, errors);
    __atomic_store_n(&dp->pmd_sleep_max, (unsigned int) v, __ATOMIC_RELAXED);
    v = dp->max_idle;
    config_uint(cfg, "max-idle", 1, INT32_MAX, DEFAULT_MAX_IDLE, &v, errors);
    if ((long long int) v != dp->max_idle) {
        dp->max_idle = v;
        dp->next_aging = time_msec();
    }
    v = dp->flow_limit;
    config_uint(cfg, "flow-limit", 0, UINT32_MAX, DEFAULT_FLOW_LIMIT, &v,
                errors);
    __atomic_store_n(&dp->flow_limit, (unsigned int) v, __ATOMIC_RELAXED);

    /* hw-offload: enabled at once, disabled only by a restart (as in Open
     * vSwitch); n-offload-threads is read when it is enabled. */
    unsigned int n_threads;
    if (netdev_offload_set_config(cfg, &n_threads, errors) && !dp->offload) {
        dp->offload = dp_offload_create(dp, n_threads);
        for (size_t i = 0; i < dp->n_ports; i++) {
            struct dp_netdev_port *port = dp->ports[i];

            __atomic_store_n(&port->flow_api,
                             netdev_offload_assign(port->netdev),
                             __ATOMIC_RELEASE);
        }
        __atomic_store_n(&dp->hw_offload, true, __ATOMIC_RELEASE);
    }
}

/* Ports. */

/* Adds 'netdev' as a port.  See dpif-netdev.h. */
int
dp_netdev_port_add(struct dp_netdev *dp, struct netdev *netdev,
                   uint32_t *port_no, char **errp)
{
    *errp = NULL;
    for (size_t i = 0; i < dp->n_ports; i++) {
        if (!strcmp(netdev_get_name(dp->ports[i]->netdev),
                    netdev_get_name(netdev))) {
            *errp = xasprintf("%s: already a port of %s",
                              netdev_get_name(netdev), DP_NETDEV_NAME);
            return EEXIST;
        }
    }

    uint32_t no = *port_no;
    if (no == DP_PORT_NONE) {
        no = choose_port_no(dp, netdev_get_name(netdev));
    } else if (dp_netdev_lookup_port(dp, no)) {
        *errp = xasprintf("%s: port number %"PRIu32" is in use",
                          netdev_get_name(netdev), no);
        return EBUSY;
    }

    struct dp_netdev_port *port = xzalloc(sizeof *port);
    port->port_no = no;
    port->netdev = netdev_ref(netdev);
    port->is_pmd = netdev_is_pmd(netdev);
    port->emc_enabled = true;
    if (dp->offload) {
        port->flow_api = netdev_offload_assign(netdev);
    }

    /* Set the port up (its tx queues, a reconfiguration, its rx queues)
     * before any thread knows of it: the threads go on polling and
     * sending meanwhile, however long a device takes. */
    port->requested_txq = dp->n_pmds + 1;
    netdev_set_tx_multiq(netdev, port->requested_txq);
    if (netdev_is_reconf_required(netdev)) {
        char *err = NULL;
        int error = netdev_reconfigure(netdev, &err);
        if (error) {
            VLOG_WARN("%s: reconfiguration failed: %s",
                      netdev_get_name(netdev),
                      err ? err : util_strerror(error));
        }
        free(err);
    }
    port_open_rxqs(port);

    bool found;
    size_t idx = port_index(dp, no, &found);
    dp->ports = xrealloc(dp->ports, (dp->n_ports + 1) * sizeof *dp->ports);
    memmove(&dp->ports[idx + 1], &dp->ports[idx],
            (dp->n_ports - idx) * sizeof *dp->ports);
    dp->ports[idx] = port;
    dp->n_ports++;
    dp->need_reconfigure = true;
    dp_reconfigure(dp);             /* Hands its queues to the threads. */

    VLOG_INFO("Datapath %s: added port %s as port %"PRIu32" (%s)",
              DP_NETDEV_NAME, netdev_get_name(netdev), no,
              netdev_get_type(netdev));
    *port_no = no;
    return 0;
}

/* Removes port 'port_no'.  Returns 0, or ENOENT if there is no such port,
 * EINVAL for port 0. */
int
dp_netdev_port_del(struct dp_netdev *dp, uint32_t port_no)
{
    bool found;
    size_t idx = port_index(dp, port_no, &found);

    if (!found) {
        return ENOENT;
    }
    if (!port_no && the_dp == dp && dp->main_pmd) {
        /* Port 0 goes only with the datapath. */
        return EINVAL;
    }

    struct dp_netdev_port *port = dp->ports[idx];
    memmove(&dp->ports[idx], &dp->ports[idx + 1],
            (dp->n_ports - idx - 1) * sizeof *dp->ports);
    dp->n_ports--;

    /* Every thread stops polling and sending to it (each between two of
     * its iterations, without a pause), then it closes. */
    for (int q = 0; q < port->n_rxq; q++) {
        port->rxqs[q].pmd = NULL;
    }
    dp->need_reconfigure = true;
    dp_reconfigure(dp);
    if (port->flow_api) {
        /* Nothing polls the port now, so no new request names it. */
        dp_offload_port_flush(dp->offload, port->netdev);
    }
    VLOG_INFO("Datapath %s: removed port %s (%"PRIu32")", DP_NETDEV_NAME,
              netdev_get_name(port->netdev), port_no);
    port_destroy(port);
    return 0;
}

/* Returns the netdev of port 'port_no' (no new reference), or NULL. */
struct netdev *
dp_netdev_port_get_netdev(const struct dp_netdev *dp, uint32_t port_no)
{
    struct dp_netdev_port *port = dp_netdev_lookup_port(dp, port_no);

    return port ? port->netdev : NULL;
}

/* Applies Interface:other_config.  See dpif-netdev.h. */
int
dp_netdev_port_set_config(struct dp_netdev *dp, uint32_t port_no,
                          const struct smap *cfg, char **errp)
{
    struct dp_netdev_port *port = dp_netdev_lookup_port(dp, port_no);
    int error = 0;

    *errp = NULL;
    if (!port) {
        *errp = xasprintf("no port %"PRIu32, port_no);
        return ENOENT;
    }

    bool emc = smap_get_bool(cfg, "emc-enable", true);
    if (emc != port->emc_enabled) {
        __atomic_store_n(&port->emc_enabled, emc, __ATOMIC_RELAXED);
    }

    const char *aff = smap_get(cfg, "pmd-rxq-affinity");
    if (aff && *aff) {
        int *cores = xcalloc(port->n_rxq ? port->n_rxq : 1, sizeof *cores);
        char *err = parse_affinity(aff, port->n_rxq, cores);
        free(cores);
        if (err) {
            VLOG_WARN("%s: %s", netdev_get_name(port->netdev), err);
            *errp = err;
            error = EINVAL;
            aff = port->rxq_affinity;       /* Keep the previous one. */
        }
    } else {
        aff = NULL;
    }
    if ((aff == NULL) != (port->rxq_affinity == NULL)
        || (aff && strcmp(aff, port->rxq_affinity))) {
        char *old = port->rxq_affinity;
        port->rxq_affinity = aff ? xstrdup(aff) : NULL;
        free(old);
        dp->need_reconfigure = true;
    }
    return error;
}

/* Main loop. */

/* See dpif-netdev.h. */
void
dp_netdev_run(struct dp_netdev *dp)
{
    struct dp_netdev_pmd *main_pmd = dp->main_pmd;
    long long int now = time_msec();

    dp_rcu_reclaim(dp->rcu);

    uint64_t seq = netdev_reconf_seq();
    if (seq != dp->last_reconf_seq) {
        dp->last_reconf_seq = seq;
        for (size_t i = 0; i < dp->n_ports; i++) {
            if (netdev_is_reconf_required(dp->ports[i]->netdev)) {
                dp->need_reconfigure = true;
            }
        }
    }
    if (dp->need_reconfigure) {
        dp_reconfigure(dp);
    }

    /* Poll the non-PMD ports. */
    dp_rcu_online(dp->rcu, main_pmd->rcu_id);
    for (size_t i = 0; i < main_pmd->n_polls; i++) {
        struct dp_netdev_rxq *rxq = main_pmd->polls[i];

        for (int b = 0; b < MAIN_MAX_BURSTS; b++) {
            struct dp_packet_batch batch;

            dp_packet_batch_init(&batch);
            if (netdev_rxq_recv(rxq->rx, &batch, NULL) || !batch.count) {
                break;
            }
            pmd_process_batch(main_pmd, rxq, rxq->port->port_no,
                              rxq->port->emc_enabled, &batch, now);
        }
    }
    pmd_flush_all(main_pmd, true, time_usec());
    dp_emc_sweep(main_pmd->emc, PMD_EMC_SWEEP);
    dp_rcu_quiescent(dp->rcu, main_pmd->rcu_id);
    dp_rcu_offline(dp->rcu, main_pmd->rcu_id);

    if (now >= dp->next_aging) {
        long long int interval = dp->max_idle < 2000 ? dp->max_idle / 2 : 1000;

        dp_age_flows(dp, now);
        dp->next_aging = now + (interval > 10 ? interval : 10);
    }
    if (now >= dp->next_interval) {
        dp_rotate_intervals(dp);
        dp->next_interval = now + DP_RXQ_INTERVAL_MS;
    }
    if (now >= main_pmd->next_sort
        && !pthread_mutex_trylock(&main_pmd->flow_mutex)) {
        dpcls_sort_subtables(&main_pmd->cls);
        pthread_mutex_unlock(&main_pmd->flow_mutex);
        main_pmd->next_sort = now + 1000;
    }
    dp_rcu_reclaim(dp->rcu);
}

/* See dpif-netdev.h. */
void
dp_netdev_wait(struct dp_netdev *dp)
{
    struct dp_netdev_pmd *main_pmd = dp->main_pmd;

    for (size_t i = 0; i < main_pmd->n_polls; i++) {
        netdev_rxq_wait(main_pmd->polls[i]->rx);
    }
    netdev_reconf_wait(dp->last_reconf_seq);
    if (dp->need_reconfigure) {
        poll_immediate_wake();
    }
    poll_timer_wait_until(dp->next_aging);
    poll_timer_wait_until(dp->next_interval);
    if (dp_rcu_n_pending(dp->rcu)) {
        poll_timer_wait(10);
    }
    if (main_pmd->n_dirty_tx) {
        /* A port still holds packets the main thread sent: ask again. */
        poll_timer_wait(1);
    }
}

/* Flows. */

/* Revalidates every flow.  See dpif-netdev.h. */
void
dp_netdev_revalidate(struct dp_netdev *dp, dp_revalidate_cb *cb, void *aux)
{
    struct dp_actions cur, new;
    struct dp_netdev_pmd *pmd;

    dp_actions_init(&new);
    DP_FOR_EACH_THREAD (pmd, dp) {
        pthread_mutex_lock(&pmd->flow_mutex);
        for (struct dp_netdev_flow_node *node = pmd->flows, *next; node;
             node = next) {
            struct dp_flow *f = node->flow;
            const struct dp_flow_actions *fa = dp_flow_get_actions(f);
            struct flow key, mask;

            next = node->next;
            flow_key_to_flow(&f->key, &key);
            flow_key_to_flow(&f->mask, &mask);
            cur.actions = (struct dp_action *) fa->data;
            cur.n_actions = fa->size / sizeof(struct dp_action);
            cur.allocated = cur.n_actions;
            dp_actions_clear(&new);
            if (!cb(aux, &key, &mask, &cur, &new)) {
                flow_node_delete(pmd, node);
            } else if (!dp_actions_equal(&cur, &new)) {
                dp_flow_set_actions(f, new.actions,
                                    new.n_actions * sizeof *new.actions);
                if (node->offload_queued) {
                    dp_offload_flow_mod(dp->offload, f);
                }
            }
        }
        pthread_mutex_unlock(&pmd->flow_mutex);
    }
    dp_actions_destroy(&new);
}

/* Hands the megaflows' new counts to 'cb' (see the header). */
void
dp_netdev_push_stats(struct dp_netdev *dp, dp_flow_stats_cb *cb, void *aux)
{
    struct dp_netdev_pmd *pmd;

    DP_FOR_EACH_THREAD (pmd, dp) {
        pthread_mutex_lock(&pmd->flow_mutex);
        for (struct dp_netdev_flow_node *node = pmd->flows; node;
             node = node->next) {
            struct dp_flow_stats stats;

            dp_flow_get_stats(node->flow, &stats);
            uint64_t n_packets = node->upcall_packets;
            uint64_t n_bytes = node->upcall_bytes;
            if (stats.n_packets >= node->pushed_packets
                && stats.n_bytes >= node->pushed_bytes) {
                n_packets += stats.n_packets - node->pushed_packets;
                n_bytes += stats.n_bytes - node->pushed_bytes;
            }
            if (n_packets) {
                struct flow key, mask;

                flow_key_to_flow(&node->flow->key, &key);
                flow_key_to_flow(&node->flow->mask, &mask);
                cb(aux, &key, &mask, n_packets, n_bytes,
                   MAX(stats.used, node->created));
            }
            /* (Counts that went down were cleared: start again.) */
            node->pushed_packets = stats.n_packets;
            node->pushed_bytes = stats.n_bytes;
            node->upcall_packets = node->upcall_bytes = 0;
        }
        pthread_mutex_unlock(&pmd->flow_mutex);
    }
}

/* Deletes every flow of every thread. */
void
dp_netdev_flush_flows(struct dp_netdev *dp)
{
    struct dp_netdev_pmd *pmd;

    DP_FOR_EACH_THREAD (pmd, dp) {
        pmd_flows_clear(pmd);
    }
}

/* Statistics. */

/* Fills 'stats' for dpif/show and dpctl/show. */
void
dp_netdev_get_stats(const struct dp_netdev *dp, struct dp_netdev_stats *stats)
{
    const struct dp_netdev_pmd *pmd;

    memset(stats, 0, sizeof *stats);
    for (size_t i = 0; i <= dp->n_pmds; i++) {
        uint64_t s[PMD_N_STATS];

        pmd = dp_all_threads(dp, i);
        for (int j = 0; j < PMD_N_STATS; j++) {
            s[j] = stat_get(&pmd->stats[j]);
        }
        stats->n_hit += (s[PMD_STAT_PHWOL_HIT] + s[PMD_STAT_SIMPLE_HIT]
                         + s[PMD_STAT_EXACT_HIT] + s[PMD_STAT_SMC_HIT]
                         + s[PMD_STAT_MASKED_HIT]);
        stats->n_missed += s[PMD_STAT_MISS];
        stats->n_lost += s[PMD_STAT_LOST];
    }
    stats->n_flows = __atomic_load_n(&dp->n_flows, __ATOMIC_RELAXED);
}

/* Commands. */

/* Registers the unixctl commands. */
void
dp_netdev_register_commands(struct dp_netdev *dp)
{
    dp_netdev_unixctl_register(dp);
}

/* The flow limit in force: other_config:flow-limit, or what
 * dp_netdev_set_flow_limit() set since. */
unsigned int
dp_netdev_get_flow_limit(const struct dp_netdev *dp)
{
    return __atomic_load_n(&dp->flow_limit, __ATOMIC_RELAXED);
}

/* Sets the flow limit (ovs-appctl upcall/set-flow-limit) until the next
 * dp_netdev_set_config(). */
void
dp_netdev_set_flow_limit(struct dp_netdev *dp, unsigned int limit)
{
    __atomic_store_n(&dp->flow_limit, limit, __ATOMIC_RELAXED);
}

/* Execution. */

/* Executes 'actions' on 'packet' from the main thread.  See
 * dpif-netdev.h. */
void
dp_netdev_execute(struct dp_netdev *dp, struct dp_packet *packet,
                  const struct dp_actions *actions)
{
    struct dp_packet_batch batch;

    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet);
    if (packet->md.l2_ofs == DP_PACKET_OFS_NONE) {
        struct flow_key key;
        flow_extract_key(packet, &key);
    }
    dp_execute_actions(&batch, actions->actions, actions->n_actions,
                       pmd_output, dp->main_pmd);
    pmd_flush_all(dp->main_pmd, true, time_usec());
}

/* Interface to the rest of the datapath (dpif-netdev-private.h): threads. */

/* Asks PMD thread 'pmd' to stop polling and waits until it has: it has
 * flushed its output batches, gone offline for RCU and waits for
 * dp_netdev_pmd_resume().  Main thread only. */
void
dp_netdev_pmd_pause(struct dp_netdev_pmd *pmd)
{
    if (!pmd->thread_started) {
        return;
    }
    pthread_mutex_lock(&pmd->cond_mutex);
    __atomic_store_n(&pmd->pause_req, true, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pmd->cond);
    while (!pmd->paused) {
        pthread_cond_wait(&pmd->ack_cond, &pmd->cond_mutex);
    }
    pthread_mutex_unlock(&pmd->cond_mutex);
}

/* Lets paused PMD thread 'pmd' poll again, with whatever the main thread
 * changed meanwhile. */
void
dp_netdev_pmd_resume(struct dp_netdev_pmd *pmd)
{
    if (!pmd->thread_started) {
        return;
    }
    pthread_mutex_lock(&pmd->cond_mutex);
    __atomic_store_n(&pmd->pause_req, false, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pmd->cond);
    pthread_mutex_unlock(&pmd->cond_mutex);
}

/* Returns the statistics of 'pmd' since the last pmd-stats-clear. */
void
dp_netdev_pmd_get_stats(const struct dp_netdev_pmd *pmd,
                        uint64_t stats[PMD_N_STATS])
{
    for (int i = 0; i < PMD_N_STATS; i++) {
        uint64_t v = stat_get(&pmd->stats[i]);
        stats[i] = v > pmd->stats_zero[i] ? v - pmd->stats_zero[i] : 0;
    }
}

/* Restarts the statistics of 'pmd' from zero (pmd-stats-clear). */
void
dp_netdev_pmd_clear_stats(struct dp_netdev_pmd *pmd)
{
    for (int i = 0; i < PMD_N_STATS; i++) {
        pmd->stats_zero[i] = stat_get(&pmd->stats[i]);
    }
    pmd->stats_zero_msec = time_wall_msec();
    pmd->stats_zero_tsc = rte_rdtsc();
}

/* Interface to the rest of the datapath: ports. */

/* Returns the port numbered 'port_no', or NULL. */
struct dp_netdev_port *
dp_netdev_lookup_port(const struct dp_netdev *dp, uint32_t port_no)
{
    bool found;
    size_t i = port_index(dp, port_no, &found);

    return found ? dp->ports[i] : NULL;
}

/* Asks the next dp_netdev_run() to reassign rx queues to PMDs. */
void
dp_netdev_request_rebalance(struct dp_netdev *dp)
{
    dp->need_reconfigure = true;
    dp->need_rebalance = true;
}

/* Interface to the rest of the datapath: flow marks and offload hooks. */

/* Publishes 'flow' for packets that carry 'mark'.  See
 * dpif-netdev-private.h. */
void
dp_netdev_set_mark_to_flow(struct dp_netdev *dp, uint32_t mark,
                           struct dp_flow *flow)
{
    struct dp_flow ***pagep = &dp->mark_to_flow[mark >> DP_MARK_PAGE_SHIFT];
    struct dp_flow **page = __atomic_load_n(pagep, __ATOMIC_ACQUIRE);

    if (!page) {
        if (!flow) {
            return;
        }
        pthread_mutex_lock(&dp->mark_mutex);
        page = *pagep;
        if (!page) {
            page = xcalloc(DP_MARK_PAGE_SIZE, sizeof *page);
            __atomic_store_n(pagep, page, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&dp->mark_mutex);
    }
    __atomic_store_n(&page[mark & (DP_MARK_PAGE_SIZE - 1)], flow,
                     __ATOMIC_RELEASE);
}

/* Sets the offload hooks (see dpif-netdev-private.h), or clears them if
 * 'hooks' is NULL. */
void
dp_netdev_set_flow_hooks(struct dp_netdev *dp,
                         const struct dp_netdev_flow_hooks *hooks)
{
    for (size_t i = 0; i < dp->n_pmds; i++) {
        dp_netdev_pmd_pause(dp->pmds[i]);
    }
    if (hooks) {
        dp->hooks = *hooks;
    } else {
        memset(&dp->hooks, 0, sizeof dp->hooks);
    }
    for (size_t i = 0; i < dp->n_pmds; i++) {
        dp_netdev_pmd_resume(dp->pmds[i]);
    }
}

/* Interface to the rest of the datapath: flows put by hand (dpctl). */

/* Puts the flow 'key'/'mask' with 'acts' into every thread's table, as
 * Open vSwitch's userspace datapath does for "dpctl/add-flow".  See
 * dpif-netdev-private.h. */
int
dp_netdev_flow_put(struct dp_netdev *dp, const struct flow *key,
                   const struct flow *mask, const struct dp_actions *acts,
                   const struct dp_ufid *ufid, unsigned int flags,
                   struct dp_flow_stats *stats)
{
    struct flow_key fkey, masked, mkey;
    struct dp_netdev_pmd *pmd;
    struct dp_ufid id;
    int error = 0;

    put_key(key, mask, &fkey, &masked, &mkey);
    if (!ufid) {
        dp_flow_ufid_from_key(&masked, &id);
        ufid = &id;
    }

    memset(stats, 0, sizeof *stats);
    DP_FOR_EACH_THREAD (pmd, dp) {
        int e = pmd_flow_put(pmd, &fkey, &masked, &mkey, acts, ufid, flags,
                             stats);

        if (e) {
            error = e;
        }
    }
    return error;
}

/* Stores in 'ufid' the UFID dp_netdev_flow_put() gives the flow 'key'/'mask'
 * when it is given none. */
void
dp_netdev_flow_ufid(const struct flow *key, const struct flow *mask,
                    struct dp_ufid *ufid)
{
    struct flow_key fkey, masked, mkey;

    put_key(key, mask, &fkey, &masked, &mkey);
    dp_flow_ufid_from_key(&masked, ufid);
}

/* Deletes the flow 'ufid' from every thread's table.  See
 * dpif-netdev-private.h. */
int
dp_netdev_flow_del(struct dp_netdev *dp, const struct dp_ufid *ufid,
                   struct dp_flow_stats *stats)
{
    struct dp_netdev_pmd *pmd;
    int error = 0;

    memset(stats, 0, sizeof *stats);
    DP_FOR_EACH_THREAD (pmd, dp) {
        pthread_mutex_lock(&pmd->flow_mutex);
        struct dp_netdev_flow_node *node = dp_netdev_pmd_find_ufid(pmd, ufid);
        if (node) {
            flow_stats_add(stats, node->flow);
            flow_node_delete(pmd, node);
        } else {
            error = ENOENT;
        }
        pthread_mutex_unlock(&pmd->flow_mutex);
    }
    return error;
}

/* Returns the node of the flow of 'pmd' named 'ufid', or NULL.  The caller
 * holds the thread's flow mutex. */
struct dp_netdev_flow_node *
dp_netdev_pmd_find_ufid(struct dp_netdev_pmd *pmd, const struct dp_ufid *ufid)
{
    for (struct dp_netdev_flow_node *node = pmd->flows; node;
         node = node->next) {
        if (dp_flow_ufid_equal(&node->flow->ufid, ufid)) {
            return node;
        }
    }
    return NULL;
}

/* Static helpers. */

/* Configuration. */

static void
config_error(struct ds *errors, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    char *msg = xvasprintf(format, args);
    va_end(args);
    VLOG_WARN("%s", msg);
    if (errors) {
        ds_put_format(errors, "%s\n", msg);
    }
    free(msg);
}

/* Parses 'mask', a hexadecimal CPU mask with or without "0x".  Returns true
 * if it is one. */
static bool
parse_cpu_mask(const char *mask)
{
    const char *s = mask;

    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
    }
    if (!*s) {
        return false;
    }
    for (; *s; s++) {
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')
              || (*s >= 'A' && *s <= 'F'))) {
            return false;
        }
    }
    return true;
}

/* Reads an unsigned integer option 'key' of 'cfg' within [min, max] into
 * '*value', keeping '*value' and reporting an error if it is invalid. */
static void
config_uint(const struct smap *cfg, const char *key, unsigned long long min,
            unsigned long long max, unsigned long long def,
            unsigned long long *value, struct ds *errors)
{
    const char *s = smap_get(cfg, key);
    long long v;

    if (!s) {
        *value = def;
    } else if (!util_str_to_llong(s, 10, &v) || v < 0
               || (unsigned long long) v < min
               || (unsigned long long) v > max) {
        config_error(errors, "other_config:%s: invalid value \"%s\" "
                     "(expected an integer from %llu to %llu); keeping %llu",
                     key, s, min, max, *value);
    } else {
        *value = v;
    }
}

/* Ports. */

static size_t
port_index(const struct dp_netdev *dp, uint32_t port_no, bool *found)
{
    size_t lo = 0, hi = dp->n_ports;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (dp->ports[mid]->port_no < port_no) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *found = lo < dp->n_ports && dp->ports[lo]->port_no == port_no;
    return lo;
}

/* Returns a free port number for a port named 'name': the lowest free one,
 * or, when dummy ports are enabled (tests), the number in the name if it is
 * free ("p3" is 3, and bridges' ports from 100: "br0" is 100), as Open
 * vSwitch's datapath does with dummy ports, so that tests can predict
 * them. */
static uint32_t
choose_port_no(const struct dp_netdev *dp, const char *name)
{
    if (netdev_is_type_supported("dummy")) {
        uint32_t base = !strncmp(name, "br", 2) ? 100 : 0;

        for (const char *p = name; *p; p++) {
            if (*p >= '0' && *p <= '9') {
                unsigned long n = strtoul(p, NULL, 10);
                uint32_t no = base + n;

                if (n < 65536 && no > 0 && !dp_netdev_lookup_port(dp, no)) {
                    return no;
                }
                break;
            }
        }
    }

    uint32_t no;
    for (no = 1; dp_netdev_lookup_port(dp, no); no++) {
        continue;
    }
    return no;
}

/* Parses "q:core,q:core" for 'port'.  Returns NULL or an error message. */
static char *
parse_affinity(const char *list, int n_rxq, int *cores)
{
    char *copy = xstrdup(list);
    char *save = NULL;
    char *error = NULL;

    for (int q = 0; q < n_rxq; q++) {
        cores[q] = -1;
    }
    for (char *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        int q, core;

        while (*tok == ' ') {
            tok++;
        }
        if (!colon) {
            error = xasprintf("invalid pmd-rxq-affinity \"%s\": expected "
                              "queue:core pairs", list);
            break;
        }
        *colon = '\0';
        if (!util_str_to_int(tok, 10, &q) || q < 0
            || !util_str_to_int(colon + 1, 10, &core) || core < 0) {
            error = xasprintf("invalid pmd-rxq-affinity \"%s\"", list);
            break;
        }
        if (q < n_rxq) {
            cores[q] = core;
        }
    }
    free(copy);
    return error;
}

static void
port_open_rxqs(struct dp_netdev_port *port)
{
    int n = netdev_n_rxq(port->netdev);

    port->rxqs = xcalloc(n > 0 ? n : 1, sizeof *port->rxqs);
    port->n_rxq = 0;
    for (int q = 0; q < n; q++) {
        struct dp_netdev_rxq *rxq = &port->rxqs[port->n_rxq];
        int error = netdev_rxq_open(port->netdev, &rxq->rx, q);

        if (error) {
            VLOG_ERR("%s: cannot open rx queue %d: %s",
                     netdev_get_name(port->netdev), q, util_strerror(error));
            continue;
        }
        rxq->port = port;
        rxq->queue_id = q;
        rxq->affinity_core = -1;
        port->n_rxq++;
    }
}

static void
port_close_rxqs(struct dp_netdev_port *port)
{
    for (int q = 0; q < port->n_rxq; q++) {
        netdev_rxq_close(port->rxqs[q].rx);
    }
    free(port->rxqs);
    port->rxqs = NULL;
    port->n_rxq = 0;
}

static void
port_destroy(struct dp_netdev_port *port)
{
    port_close_rxqs(port);
    netdev_offload_release(port->netdev, port->flow_api);
    netdev_close(port->netdev);
    free(port->rxq_affinity);
    free(port);
}

/* Reconfiguration. */

static int
pmd_cmp(const void *a_, const void *b_)
{
    const struct dp_netdev_pmd *a = *(struct dp_netdev_pmd *const *) a_;
    const struct dp_netdev_pmd *b = *(struct dp_netdev_pmd *const *) b_;

    if (a->numa_id != b->numa_id) {
        return a->numa_id < b->numa_id ? -1 : 1;
    }
    return a->core_id < b->core_id ? -1 : a->core_id > b->core_id;
}

/* Fills 'wanted' (indexed by core id, ovs_numa cores only) with the cores
 * that should run a PMD. */
static void
wanted_cores(const struct dp_netdev *dp, bool *wanted, size_t n_wanted)
{
    bool any_pmd_port = false;

    memset(wanted, 0, n_wanted * sizeof *wanted);

    /* As in Open vSwitch, PMD threads exist only while a port needs them. */
    for (size_t i = 0; i < dp->n_ports && !any_pmd_port; i++) {
        any_pmd_port = dp->ports[i]->is_pmd;
    }
    if (!any_pmd_port) {
        return;
    }
    if (!dp->pmd_cpu_mask) {
        int core = ovs_numa_lowest_core_on_numa(0);
        if (core >= 0 && (size_t) core < n_wanted) {
            wanted[core] = true;
        }
        return;
    }

    const char *s = dp->pmd_cpu_mask;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
    }

    size_t len = strlen(s);
    for (size_t i = 0; i < len; i++) {
        char c = s[len - 1 - i];
        int nibble = (c >= '0' && c <= '9' ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c - 'A' + 10);
        for (int b = 0; b < 4; b++) {
            size_t core = i * 4 + b;
            if ((nibble & (1 << b)) && core < n_wanted) {
                if (ovs_numa_core_exists(core)) {
                    wanted[core] = true;
                } else {
                    static struct vlog_rate_limit rl
                        = VLOG_RATE_LIMIT_INIT(1, 10);

                    VLOG_WARN_RL(&rl, "pmd-cpu-mask: core %zu does not "
                                 "exist or is not available; no PMD thread "
                                 "on it", core);
                }
            }
        }
    }
}

/* Brings ports, PMD threads and rx queue assignment in line with the
 * configuration.  No thread pauses but those created or destroyed: a port
 * that needs reconfiguring leaves every thread's poll list and tx ports
 * first, and a queue that moves leaves its old thread before the new one
 * polls it; each thread adopts its new lists between two iterations. */
static void
dp_reconfigure(struct dp_netdev *dp)
{
    enum { MAX_CORES = 1024 };
    bool *wanted = xcalloc(MAX_CORES, sizeof *wanted);
    int n_wanted = 0;

    dp->need_reconfigure = false;
    wanted_cores(dp, wanted, MAX_CORES);
    for (int core = 0; core < MAX_CORES; core++) {
        n_wanted += wanted[core];
    }

    /* One tx queue per sending thread (the PMDs and the main thread), if
     * the ports can have that many. */
    for (size_t i = 0; i < dp->n_ports; i++) {
        struct dp_netdev_port *port = dp->ports[i];

        if (port->requested_txq != n_wanted + 1) {
            port->requested_txq = n_wanted + 1;
            netdev_set_tx_multiq(port->netdev, n_wanted + 1);
        }
    }

    /* Ports that asked for reconfiguration: no thread polls or sends to
     * them meanwhile; the threads go on with the other ports. */
    bool any_detached = false;
    for (size_t i = 0; i < dp->n_ports; i++) {
        struct dp_netdev_port *port = dp->ports[i];

        port->detached = (netdev_is_reconf_required(port->netdev)
                          || port->need_reopen);
        any_detached |= port->detached;
    }
    if (any_detached) {
        struct dp_netdev_pmd *pmd;

        DP_FOR_EACH_THREAD (pmd, dp) {
            size_t n;
            struct dp_netdev_rxq **polls = polls_without_detached(pmd, &n);

            pmd_install_sched(pmd, polls, n);
        }
    }
    for (size_t i = 0; i < dp->n_ports; i++) {
        struct dp_netdev_port *port = dp->ports[i];

        if (port->detached) {
            char *err = NULL;

            port_close_rxqs(port);
            int error = netdev_reconfigure(port->netdev, &err);
            if (error) {
                VLOG_WARN("%s: reconfiguration failed: %s",
                          netdev_get_name(port->netdev),
                          err ? err : util_strerror(error));
            }
            free(err);
            port_open_rxqs(port);
            port->need_reopen = false;
            port->detached = false;
        }
    }

    /* PMD threads. */
    size_t n = 0;
    for (size_t i = 0; i < dp->n_pmds; i++) {
        struct dp_netdev_pmd *pmd = dp->pmds[i];

        if (wanted[pmd->core_id]) {
            wanted[pmd->core_id] = false;
            dp->pmds[n++] = pmd;
        } else {
            VLOG_INFO("PMD thread on numa_id: %d, core id: %2d destroyed.",
                      pmd->numa_id, pmd->core_id);
            for (size_t p = 0; p < dp->n_ports; p++) {
                for (int q = 0; q < dp->ports[p]->n_rxq; q++) {
                    if (dp->ports[p]->rxqs[q].pmd == pmd) {
                        dp->ports[p]->rxqs[q].pmd = NULL;
                    }
                }
            }
            pmd_destroy(pmd);
        }
    }
    dp->n_pmds = n;
    for (int core = 0; core < MAX_CORES; core++) {
        if (wanted[core]) {
            dp->pmds = xrealloc(dp->pmds, (dp->n_pmds + 1) * sizeof *dp->pmds);
            struct dp_netdev_pmd *pmd = pmd_create(dp, core);
            dp->pmds[dp->n_pmds++] = pmd;
            pmd_start(pmd);         /* Comes up paused. */
            VLOG_INFO("PMD thread on numa_id: %d, core id: %2d created.",
                      pmd->numa_id, pmd->core_id);
        }
    }
    free(wanted);
    if (dp->n_pmds) {
        qsort(dp->pmds, dp->n_pmds, sizeof *dp->pmds, pmd_cmp);
    }

    /* Static tx queue ids: 0 for the main thread, then the PMDs. */
    dp->main_pmd->static_tx_qid = 0;
    for (size_t i = 0; i < dp->n_pmds; i++) {
        dp->pmds[i]->static_tx_qid = i + 1;
    }

    assign_rxqs(dp);
    dp->need_rebalance = false;

    /* Poll lists and tx ports: first each thread gives up the queues it
     * no longer polls (another may take them next), then every thread gets
     * its new list and every port to send to. */
    struct dp_netdev_pmd *pmd;
    DP_FOR_EACH_THREAD (pmd, dp) {
        size_t n_new, n_keep = 0;
        struct dp_netdev_rxq **polls = assigned_polls(dp, pmd, &n_new);

        for (size_t i = 0; i < pmd->n_polls; i++) {
            for (size_t j = 0; j < n_new; j++) {
                if (polls[j] == pmd->polls[i]) {
                    polls[n_keep++] = pmd->polls[i];
                    break;
                }
            }
        }
        if (n_keep < pmd->n_polls) {
            pmd_install_sched(pmd, polls, n_keep);
        } else {
            free(polls);
        }
    }
    DP_FOR_EACH_THREAD (pmd, dp) {
        size_t n;
        struct dp_netdev_rxq **polls = assigned_polls(dp, pmd, &n);

        pmd_install_sched(pmd, polls, n);
    }

    /* The threads just created wait, paused, for their first lists. */
    for (size_t i = 0; i < dp->n_pmds; i++) {
        dp_netdev_pmd_resume(dp->pmds[i]);
    }
}

/* Returns the rx queues that thread 'pmd' polls now, less those of ports
 * being reconfigured, in a new array of '*n'. */
static struct dp_netdev_rxq **
polls_without_detached(const struct dp_netdev_pmd *pmd, size_t *n)
{
    struct dp_netdev_rxq **polls = xcalloc(pmd->n_polls + 1, sizeof *polls);

    *n = 0;
    for (size_t i = 0; i < pmd->n_polls; i++) {
        if (!pmd->polls[i]->port->detached) {
            polls[(*n)++] = pmd->polls[i];
        }
    }
    return polls;
}

/* Returns the rx queues assigned to thread 'pmd' (the main thread takes
 * those of non-PMD ports), in a new array of '*n', in port order. */
static struct dp_netdev_rxq **
assigned_polls(const struct dp_netdev *dp, const struct dp_netdev_pmd *pmd,
               size_t *n)
{
    struct dp_netdev_rxq **polls = NULL;
    size_t allocated = 0;

    *n = 0;
    for (size_t i = 0; i < dp->n_ports; i++) {
        struct dp_netdev_port *port = dp->ports[i];

        for (int q = 0; q < port->n_rxq; q++) {
            struct dp_netdev_rxq *rxq = &port->rxqs[q];
            const struct dp_netdev_pmd *owner = (port->is_pmd ? rxq->pmd
                                                 : dp->main_pmd);
            if (owner != pmd) {
                continue;
            }
            if (*n >= allocated) {
                allocated = allocated ? 2 * allocated : 8;
                polls = xrealloc(polls, allocated * sizeof *polls);
            }
            polls[(*n)++] = rxq;
        }
    }
    return polls ? polls : xcalloc(1, sizeof *polls);
}

static uint64_t
rxq_load(const struct dp_netdev_rxq *rxq)
{
    uint64_t sum = 0;

    for (int i = 0; i < DP_N_RXQ_INTERVALS; i++) {
        sum += rxq->intervals[i];
    }
    return sum;
}

static int
rxq_load_cmp(const void *a_, const void *b_)
{
    const struct dp_netdev_rxq *a = *(struct dp_netdev_rxq *const *) a_;
    const struct dp_netdev_rxq *b = *(struct dp_netdev_rxq *const *) b_;
    uint64_t la = rxq_load(a), lb = rxq_load(b);

    if (la != lb) {
        return la > lb ? -1 : 1;
    }
    /* Stable: port number, then queue. */
    if (a->port->port_no != b->port->port_no) {
        return a->port->port_no < b->port->port_no ? -1 : 1;
    }
    return a->queue_id < b->queue_id ? -1 : a->queue_id > b->queue_id;
}

static struct dp_netdev_pmd *
pmd_by_core(const struct dp_netdev *dp, int core)
{
    for (size_t i = 0; i < dp->n_pmds; i++) {
        if (dp->pmds[i]->core_id == core) {
            return dp->pmds[i];
        }
    }
    return NULL;
}

/* Assigns every rx queue of every PMD port to a PMD thread: pinned queues
 * (pmd-rxq-affinity) first, then the others by 'dp->rxq_assign' among the
 * PMDs that are not isolated, preferring the port's NUMA node. */
static void
assign_rxqs(struct dp_netdev *dp)
{
    struct dp_netdev_rxq **rxqs = NULL;
    size_t n_rxqs = 0;
    uint64_t *loads = xcalloc(dp->n_pmds + 1, sizeof *loads);
    size_t *counts = xcalloc(dp->n_pmds + 1, sizeof *counts);

    for (size_t i = 0; i < dp->n_pmds; i++) {
        dp->pmds[i]->isolated = false;
    }

    /* Pinned queues. */
    for (size_t i = 0; i < dp->n_ports; i++) {
        struct dp_netdev_port *port = dp->ports[i];
        int *cores = xcalloc(port->n_rxq ? port->n_rxq : 1, sizeof *cores);

        for (int q = 0; q < port->n_rxq; q++) {
            cores[q] = -1;
        }
        if (port->rxq_affinity) {
            char *err = parse_affinity(port->rxq_affinity, port->n_rxq,
                                       cores);
            free(err);
        }
        for (int q = 0; q < port->n_rxq; q++) {
            struct dp_netdev_rxq *rxq = &port->rxqs[q];

            rxq->pmd = NULL;
            rxq->affinity_core = port->is_pmd ? cores[q] : -1;
            if (!port->is_pmd) {
                continue;
            }
            if (rxq->affinity_core >= 0) {
                struct dp_netdev_pmd *pmd = pmd_by_core(dp,
                                                        rxq->affinity_core);
                if (pmd) {
                    rxq->pmd = pmd;
                    if (dp->rxq_isolate) {
                        pmd->isolated = true;
                    }
                    continue;
                }
                VLOG_WARN("Core %d cannot be pinned with port \'%s\' rx "
                          "queue %d. Use pmd-cpu-mask to enable a pmd on "
                          "core %d. An alternative core will be assigned.",
                          rxq->affinity_core, netdev_get_name(port->netdev),
                          q, rxq->affinity_core);
            }
            rxqs = xrealloc(rxqs, (n_rxqs + 1) * sizeof *rxqs);
            rxqs[n_rxqs++] = rxq;
        }
        free(cores);
    }
    for (size_t i = 0; i < dp->n_pmds; i++) {
        for (size_t p = 0; p < dp->n_ports; p++) {
            for (int q = 0; q < dp->ports[p]->n_rxq; q++) {
                if (dp->ports[p]->rxqs[q].pmd == dp->pmds[i]) {
                    loads[i] += rxq_load(&dp->ports[p]->rxqs[q]);
                    counts[i]++;
                }
            }
        }
    }

    if (dp->rxq_assign != DP_RXQ_ASSIGN_ROUNDROBIN && n_rxqs) {
        qsort(rxqs, n_rxqs, sizeof *rxqs, rxq_load_cmp);
    }

    /* Unpinned queues. */
    size_t rr = 0;
    bool up = true;
    for (size_t r = 0; r < n_rxqs; r++) {
        struct dp_netdev_rxq *rxq = rxqs[r];
        int numa = netdev_get_numa_id(rxq->port->netdev);
        size_t *cands = xcalloc(dp->n_pmds + 1, sizeof *cands);
        size_t n_cands = 0;

        for (int pass = 0; pass < 2 && !n_cands; pass++) {
            for (size_t i = 0; i < dp->n_pmds; i++) {
                if (!dp->pmds[i]->isolated
                    && (pass || numa < 0 || dp->pmds[i]->numa_id == numa)) {
                    cands[n_cands++] = i;
                }
            }
            if (!pass && !n_cands && numa >= 0 && dp->n_pmds) {
                VLOG_WARN("There's no available (non-isolated) pmd thread "
                          "on numa node %d. Port \'%s\' rx queue %d will be "
                          "assigned to a pmd on another numa node.", numa,
                          netdev_get_name(rxq->port->netdev), rxq->queue_id);
            }
        }
        if (!n_cands) {
            VLOG_WARN("There is no available (non-isolated) pmd thread for "
                      "port \'%s\' queue %d. This queue will not be polled. "
                      "Is pmd-cpu-mask set to zero? Or are all PMDs isolated "
                      "to other queues?", netdev_get_name(rxq->port->netdev),
                      rxq->queue_id);
            free(cands);
            continue;
        }

        size_t pick;
        if (dp->rxq_assign == DP_RXQ_ASSIGN_GROUP) {
            pick = cands[0];
            for (size_t c = 1; c < n_cands; c++) {
                size_t i = cands[c];
                if (loads[i] < loads[pick]
                    || (loads[i] == loads[pick] && counts[i] < counts[pick])) {
                    pick = i;
                }
            }
        } else if (dp->rxq_assign == DP_RXQ_ASSIGN_CYCLES) {
            /* Deal in alternating directions, so the busiest queues spread
             * evenly. */
            size_t pos = rr % n_cands;
            pick = cands[up ? pos : n_cands - 1 - pos];
            rr++;
            if (rr % n_cands == 0) {
                up = !up;
            }
        } else {
            pick = cands[rr++ % n_cands];
        }
        rxq->pmd = dp->pmds[pick];
        loads[pick] += rxq_load(rxq);
        counts[pick]++;
        free(cands);
        VLOG_INFO("Core %2d on numa node %d assigned port \'%s\' rx queue %d "
                  "(measured processing cycles %"PRIu64").",
                  rxq->pmd->core_id, rxq->pmd->numa_id,
                  netdev_get_name(rxq->port->netdev), rxq->queue_id,
                  rxq_load(rxq));
    }
    free(rxqs);
    free(loads);
    free(counts);
}

/* Threads. */

static struct dp_netdev_pmd *
dp_all_threads(const struct dp_netdev *dp, size_t i)
{
    return i < dp->n_pmds ? dp->pmds[i] : dp->main_pmd;
}

static unsigned int
rcu_id_alloc(struct dp_netdev *dp)
{
    for (unsigned int i = 0; i < DP_MAX_THREADS; i++) {
        if (!(dp->rcu_ids_used[i / 64] & (UINT64_C(1) << (i % 64)))) {
            dp->rcu_ids_used[i / 64] |= UINT64_C(1) << (i % 64);
            return i;
        }
    }
    VLOG_FATAL("more than %d polling threads", DP_MAX_THREADS);
}

static void
rcu_id_free(struct dp_netdev *dp, unsigned int id)
{
    dp->rcu_ids_used[id / 64] &= ~(UINT64_C(1) << (id % 64));
}

static struct dp_netdev_pmd *
pmd_create(struct dp_netdev *dp, int core_id)
{
    struct dp_netdev_pmd *pmd = xzalloc(sizeof *pmd);

    pmd->dp = dp;
    pmd->core_id = core_id;
    pmd->numa_id = (core_id == OVS_CORE_UNSPEC ? OVS_NUMA_UNSPEC
                    : ovs_numa_get_numa_id(core_id));
    pmd->rcu_id = rcu_id_alloc(dp);
    pthread_mutex_init(&pmd->cond_mutex, NULL);
    pthread_cond_init(&pmd->cond, NULL);
    pthread_cond_init(&pmd->ack_cond, NULL);
    pthread_mutex_init(&pmd->flow_mutex, NULL);
    pmd->emc = dp_emc_create();
    dp_emc_set_insert_inv_prob(pmd->emc, dp->emc_insert_inv_prob);
    pmd->smc = dp_smc_create();
    dpcls_init(&pmd->cls, dp->rcu);
    pmd->simple = dp_simple_create(dp->rcu);
    dp_actions_init(&pmd->upcall_actions);
    pmd->stats_zero_msec = time_wall_msec();
    pmd->stats_zero_tsc = rte_rdtsc();
    if (core_id == OVS_CORE_UNSPEC) {
        /* The main thread reads the caches between online and offline in
         * dp_netdev_run(). */
        dp_rcu_register(dp->rcu, pmd->rcu_id);
        dp_rcu_offline(dp->rcu, pmd->rcu_id);
    }
    return pmd;
}

static void
pmd_start(struct dp_netdev_pmd *pmd)
{
    pmd->pause_req = true;
    int error = pthread_create(&pmd->thread, NULL, pmd_thread_main, pmd);
    if (error) {
        VLOG_FATAL("cannot create PMD thread: %s", util_strerror(error));
    }
    pmd->thread_started = true;
    dp_netdev_pmd_pause(pmd);       /* Waits until it is up and paused. */
}

static void
pmd_destroy(struct dp_netdev_pmd *pmd)
{
    struct dp_netdev *dp = pmd->dp;

    if (pmd->thread_started) {
        pthread_mutex_lock(&pmd->cond_mutex);
        /* Atomic: the PMD's main loop reads it without the mutex (with
         * acquire; release here pairs with it).  The waits that read it
         * under the mutex see it through the mutex. */
        __atomic_store_n(&pmd->exit_req, true, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&pmd->cond);
        pthread_mutex_unlock(&pmd->cond_mutex);
        pthread_join(pmd->thread, NULL);
    } else if (pmd->core_id == OVS_CORE_UNSPEC) {
        pmd_flush_all(pmd, true, time_usec());
        dp_rcu_unregister(dp->rcu, pmd->rcu_id);
    }
    pmd_flows_clear(pmd);
    dp_emc_destroy(pmd->emc);
    dp_smc_destroy(pmd->smc);
    dpcls_destroy(&pmd->cls);
    dp_simple_destroy(pmd->simple);
    dp_actions_destroy(&pmd->upcall_actions);
    for (size_t i = 0; i < pmd->n_tx_ports; i++) {
        dp_packet_batch_free(&pmd->tx_ports[i].batch);
    }
    free(pmd->tx_ports);
    free(pmd->tx_index);
    free(pmd->dirty_tx);
    free(pmd->polls);
    pthread_mutex_destroy(&pmd->cond_mutex);
    pthread_cond_destroy(&pmd->cond);
    pthread_cond_destroy(&pmd->ack_cond);
    pthread_mutex_destroy(&pmd->flow_mutex);
    rcu_id_free(dp, pmd->rcu_id);
    free(pmd);
}

/* Gives thread 'pmd' the poll list 'polls' (of 'n_polls', taken over) and
 * a tx port for every port of the datapath that is not detached, and frees
 * what it had.  A running PMD adopts them between two of its iterations,
 * going on polling meanwhile; this waits until it has.  Main thread only. */
static void
pmd_install_sched(struct dp_netdev_pmd *pmd, struct dp_netdev_rxq **polls,
                  size_t n_polls)
{
    struct dp_netdev_sched sched = { .polls = polls, .n_polls = n_polls };

    sched_build_tx(pmd, &sched);
    if (!pmd->thread_started || pmd->pause_req) {
        /* The main thread itself, or a PMD that is paused. */
        pmd_flush_all(pmd, true, time_usec());
        sched_swap(pmd, &sched);
    } else {
        pthread_mutex_lock(&pmd->cond_mutex);
        __atomic_store_n(&pmd->sched_req, &sched, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&pmd->cond);     /* If it blocks, idle. */
        while (__atomic_load_n(&pmd->sched_req, __ATOMIC_ACQUIRE)) {
            pthread_cond_wait(&pmd->ack_cond, &pmd->cond_mutex);
        }
        pthread_mutex_unlock(&pmd->cond_mutex);
    }
    sched_destroy(&sched);
}

/* Fills the tx ports of 'sched' for thread 'pmd': one for each port of
 * the datapath that is not detached, with the thread's queue on it. */
static void
sched_build_tx(const struct dp_netdev_pmd *pmd,
               struct dp_netdev_sched *sched)
{
    struct dp_netdev *dp = pmd->dp;
    size_t n_threads = dp->n_pmds + 1;

    sched->tx_ports = xcalloc(dp->n_ports ? dp->n_ports : 1,
                              sizeof *sched->tx_ports);
    sched->dirty_tx = xcalloc(dp->n_ports ? dp->n_ports : 1,
                              sizeof *sched->dirty_tx);
    sched->n_tx_ports = 0;

    uint32_t max_no = 0;
    for (size_t i = 0; i < dp->n_ports; i++) {
        struct dp_netdev_port *port = dp->ports[i];

        if (port->detached) {
            continue;
        }

        struct dp_netdev_tx_port *tx = &sched->tx_ports[sched->n_tx_ports++];
        int n_txq = netdev_n_txq(port->netdev);

        tx->port_no = port->port_no;
        tx->netdev = port->netdev;
        if (n_txq <= 0) {
            n_txq = 1;
        }
        if ((size_t) n_txq >= n_threads) {
            tx->qid = pmd->static_tx_qid;
            tx->concurrent_txq = false;
        } else {
            tx->qid = pmd->static_tx_qid % n_txq;
            tx->concurrent_txq = true;
        }
        tx->has_flush = netdev_has_flush(port->netdev);
        dp_packet_batch_init(&tx->batch);
        if (port->port_no > max_no) {
            max_no = port->port_no;
        }
    }

    /* Direct index by port number when numbers are small, which they are
     * unless requested otherwise. */
    sched->tx_index_size = max_no < 4096 ? max_no + 1 : 0;
    sched->tx_index = xcalloc(sched->tx_index_size ? sched->tx_index_size : 1,
                              sizeof *sched->tx_index);
    for (size_t i = 0; i < sched->n_tx_ports && sched->tx_index_size; i++) {
        sched->tx_index[sched->tx_ports[i].port_no] = i + 1;
    }
}

/* Exchanges the poll list and tx ports of 'pmd' with those of 'sched'.
 * Called by the thread itself (or for it, while it is paused) with its
 * output batches sent: a port that still holds packets back is asked
 * again through its new tx port. */
static void
sched_swap(struct dp_netdev_pmd *pmd, struct dp_netdev_sched *sched)
{
    struct dp_netdev_sched old = {
        .polls = pmd->polls, .n_polls = pmd->n_polls,
        .tx_ports = pmd->tx_ports, .n_tx_ports = pmd->n_tx_ports,
        .tx_index = pmd->tx_index, .tx_index_size = pmd->tx_index_size,
        .dirty_tx = pmd->dirty_tx,
    };
    size_t n_old_dirty = pmd->n_dirty_tx;

    pmd->polls = sched->polls;
    pmd->n_polls = sched->n_polls;
    pmd->tx_ports = sched->tx_ports;
    pmd->n_tx_ports = sched->n_tx_ports;
    pmd->tx_index = sched->tx_index;
    pmd->tx_index_size = sched->tx_index_size;
    pmd->dirty_tx = sched->dirty_tx;
    pmd->n_dirty_tx = 0;
    for (size_t i = 0; i < n_old_dirty; i++) {
        const struct dp_netdev_tx_port *was = &old.tx_ports[old.dirty_tx[i]];
        struct dp_netdev_tx_port *tx = pmd_lookup_tx(pmd, was->port_no);

        if (was->flush_pending && tx && !tx->dirty) {
            tx->flush_pending = tx->dirty = true;
            pmd->dirty_tx[pmd->n_dirty_tx++] = tx - pmd->tx_ports;
        }
    }
    *sched = old;
}

/* Frees what 'sched' holds. */
static void
sched_destroy(struct dp_netdev_sched *sched)
{
    for (size_t i = 0; i < sched->n_tx_ports; i++) {
        dp_packet_batch_free(&sched->tx_ports[i].batch);
    }
    free(sched->tx_ports);
    free(sched->tx_index);
    free(sched->dirty_tx);
    free(sched->polls);
}

/* Adopts the poll list and tx ports the main thread left in 'sched_req'
 * (PMD thread, between two iterations), and tells it so. */
static void
pmd_adopt_sched(struct dp_netdev_pmd *pmd)
{
    struct dp_netdev_sched *sched = __atomic_load_n(&pmd->sched_req,
                                                    __ATOMIC_ACQUIRE);

    pmd_flush_all(pmd, true, 0);
    sched_swap(pmd, sched);
    pthread_mutex_lock(&pmd->cond_mutex);
    __atomic_store_n(&pmd->sched_req, NULL, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pmd->ack_cond);
    pthread_mutex_unlock(&pmd->cond_mutex);
}

static inline struct dp_netdev_tx_port *
pmd_lookup_tx(struct dp_netdev_pmd *pmd, uint32_t port_no)
{
    if (port_no < pmd->tx_index_size) {
        uint16_t idx = pmd->tx_index[port_no];
        return idx ? &pmd->tx_ports[idx - 1] : NULL;
    }
    for (size_t i = 0; i < pmd->n_tx_ports; i++) {
        if (pmd->tx_ports[i].port_no == port_no) {
            return &pmd->tx_ports[i];
        }
    }
    return NULL;
}

static void
pmd_flush_tx(struct dp_netdev_pmd *pmd, struct dp_netdev_tx_port *tx)
{
    uint32_t n = tx->batch.count;

    if (n) {
        netdev_send(tx->netdev, tx->qid, &tx->batch, tx->concurrent_txq);
        dp_packet_batch_init(&tx->batch);
        stat_add(pmd, PMD_STAT_SENT_PKTS, n);
        stat_add(pmd, PMD_STAT_SENT_BATCHES, 1);
        tx->flush_pending = tx->has_flush;
    }
}

/* Sends the output batches of 'pmd': all of them if 'force', else those
 * whose tx-flush-interval deadline passed at 'now_us'.  Then lets ports
 * that hold packets back send them.  Looks only at the ports sent to since
 * they were last idle. */
static void
pmd_flush_all(struct dp_netdev_pmd *pmd, bool force, long long int now_us)
{
    size_t keep = 0;

    for (size_t i = 0; i < pmd->n_dirty_tx; i++) {
        uint16_t idx = pmd->dirty_tx[i];
        struct dp_netdev_tx_port *tx = &pmd->tx_ports[idx];

        if (tx->batch.count && (force || now_us >= tx->flush_deadline)) {
            pmd_flush_tx(pmd, tx);
        }
        if (tx->flush_pending && !tx->batch.count) {
            /* A port that still holds packets is asked again next time. */
            tx->flush_pending = netdev_flush(tx->netdev, tx->qid,
                                             tx->concurrent_txq) > 0;
        }
        if (tx->batch.count || tx->flush_pending) {
            pmd->dirty_tx[keep++] = idx;
        } else {
            tx->dirty = false;
        }
    }
    pmd->n_dirty_tx = keep;
}

/* Waits, paused, until the main thread resumes or stops 'pmd'. */
static void
pmd_handle_pause(struct dp_netdev_pmd *pmd)
{
    struct dp_netdev *dp = pmd->dp;

    pmd_flush_all(pmd, true, 0);
    dp_rcu_offline(dp->rcu, pmd->rcu_id);
    pthread_mutex_lock(&pmd->cond_mutex);
    pmd->paused = true;
    pthread_cond_broadcast(&pmd->ack_cond);
    while (pmd->pause_req && !pmd->exit_req) {
        pthread_cond_wait(&pmd->cond, &pmd->cond_mutex);
    }
    pmd->paused = false;
    pthread_mutex_unlock(&pmd->cond_mutex);
    dp_rcu_online(dp->rcu, pmd->rcu_id);
}

/* A PMD without queues blocks (it would only spin) until it is given a new
 * poll list, paused or stopped. */
static void
pmd_block_idle(struct dp_netdev_pmd *pmd)
{
    struct dp_netdev *dp = pmd->dp;

    dp_emc_sweep(pmd->emc, DP_EMC_ENTRIES);
    dp_rcu_offline(dp->rcu, pmd->rcu_id);
    pthread_mutex_lock(&pmd->cond_mutex);
    while (!pmd->pause_req && !pmd->exit_req && !pmd->sched_req) {
        pthread_cond_wait(&pmd->cond, &pmd->cond_mutex);
    }
    pthread_mutex_unlock(&pmd->cond_mutex);
    dp_rcu_online(dp->rcu, pmd->rcu_id);
}

static void *
pmd_thread_main(void *pmd_)
{
    struct dp_netdev_pmd *pmd = pmd_;
    struct dp_netdev *dp = pmd->dp;
    char name[16];

    snprintf(name, sizeof name, "pmd-c%02d/id:%u", pmd->core_id,
             pmd->rcu_id);
    pthread_setname_np(pthread_self(), name);
    vlog_set_thread_name(name);

    int error = ovs_numa_pin_current_thread(pmd->core_id);
    if (error) {
        VLOG_INFO("PMD thread on core %d runs unpinned: %s", pmd->core_id,
                  (error == EOPNOTSUPP ? "dummy NUMA topology"
                   : util_strerror(error)));
    }
    /* An EAL thread id gives the thread its own mempool caches. */
    bool eal_registered = !rte_thread_register();
    if (!eal_registered) {
        VLOG_WARN("PMD thread on core %d: cannot register with EAL "
                  "(mempool caches unused)", pmd->core_id);
    }
    dp_rcu_register(dp->rcu, pmd->rcu_id);

    uint64_t iter = 0;
    unsigned int sleep_us = 0;
    long long int now_ms = time_msec();
    uint64_t tsc_prev = rte_rdtsc();

    /* The clock, from the TSC between readings of CLOCK_MONOTONIC every
     * 1/16 s: a vDSO clock_gettime() per iteration costs more than polling
     * an empty queue.  'us_mult' is microseconds per cycle in 32.32 fixed
     * point; without a known TSC rate (no EAL), or while time/stop holds
     * the clock, every iteration reads the clock. */
    uint64_t tsc_hz = rte_get_tsc_hz();
    uint64_t us_mult = tsc_hz ? (UINT64_C(1000000) << 32) / tsc_hz : 0;
    uint64_t clock_resync = tsc_hz / 16;
    uint64_t clock_tsc = tsc_prev;
    long long int clock_us = time_usec();

    for (;;) {
        if (__atomic_load_n(&pmd->pause_req, __ATOMIC_ACQUIRE)) {
            pmd_handle_pause(pmd);
            tsc_prev = rte_rdtsc();
        }
        if (__atomic_load_n(&pmd->exit_req, __ATOMIC_ACQUIRE)) {
            break;
        }
        if (__atomic_load_n(&pmd->sched_req, __ATOMIC_ACQUIRE)) {
            pmd_adopt_sched(pmd);
        }
        if (!pmd->n_polls) {
            pmd_block_idle(pmd);
            tsc_prev = rte_rdtsc();
            continue;
        }

        long long int now_us;
        uint64_t clock_delta = rte_rdtsc() - clock_tsc;
        if (us_mult && clock_delta < clock_resync && !time_is_stopped()) {
            now_us = clock_us + (long long int) ((clock_delta * us_mult)
                                                 >> 32);
        } else {
            now_us = clock_us = time_usec();
            clock_tsc += clock_delta;
        }
        unsigned int n_rx = 0;
        bool busy_queue = false;

        now_ms = now_us / 1000;
        for (size_t i = 0; i < pmd->n_polls; i++) {
            struct dp_netdev_rxq *rxq = pmd->polls[i];
            struct dp_packet_batch batch;
            uint64_t t0 = rte_rdtsc();

            dp_packet_batch_init(&batch);
            if (!netdev_rxq_recv(rxq->rx, &batch, NULL) && batch.count) {
                n_rx += batch.count;
                busy_queue = busy_queue
                             || batch.count >= DP_PACKET_BATCH_SIZE / 2;
                pmd_process_batch(pmd, rxq, rxq->port->port_no,
                                  __atomic_load_n(&rxq->port->emc_enabled,
                                                  __ATOMIC_RELAXED),
                                  &batch, now_ms);
                __atomic_store_n(&rxq->proc_cycles,
                                 rxq->proc_cycles + (rte_rdtsc() - t0),
                                 __ATOMIC_RELAXED);
            }
        }
        pmd_flush_all(pmd, !__atomic_load_n(&dp->tx_flush_interval,
                                             __ATOMIC_RELAXED), now_us);

        uint64_t tsc = rte_rdtsc();
        stat_add(pmd, PMD_STAT_ITER, 1);
        if (n_rx) {
            stat_add(pmd, PMD_STAT_CYCLES_BUSY, tsc - tsc_prev);
            stat_add(pmd, PMD_STAT_ITER_BUSY, 1);
        } else {
            stat_add(pmd, PMD_STAT_CYCLES_IDLE, tsc - tsc_prev);
            stat_add(pmd, PMD_STAT_ITER_IDLE, 1);
        }
        tsc_prev = tsc;

        if (++iter % PMD_HOUSEKEEPING_ITERS == 0) {
            dp_emc_sweep(pmd->emc, PMD_EMC_SWEEP);
            if (now_ms >= pmd->next_sort
                && !pthread_mutex_trylock(&pmd->flow_mutex)) {
                dpcls_sort_subtables(&pmd->cls);
                pthread_mutex_unlock(&pmd->flow_mutex);
                pmd->next_sort = now_ms + 1000;
            }
        }
        dp_rcu_quiescent(dp->rcu, pmd->rcu_id);

        /* Load-based sleep (pmd-sleep-max): one more microsecond per idle
         * iteration up to the maximum, none once a queue is busy. */
        unsigned int max_sleep = __atomic_load_n(&dp->pmd_sleep_max,
                                                 __ATOMIC_RELAXED);
        if (max_sleep && !busy_queue) {
            if (sleep_us < max_sleep) {
                sleep_us++;
            }
            pmd_flush_all(pmd, true, now_us);
            dp_rcu_offline(dp->rcu, pmd->rcu_id);

            struct timespec ts = { 0, sleep_us * 1000L };
            nanosleep(&ts, NULL);
            dp_rcu_online(dp->rcu, pmd->rcu_id);

            uint64_t t = rte_rdtsc();
            stat_add(pmd, PMD_STAT_ITER_SLEEP, 1);
            stat_add(pmd, PMD_STAT_SLEEP_US, sleep_us);
            stat_add(pmd, PMD_STAT_CYCLES_IDLE, t - tsc_prev);
            tsc_prev = t;
        } else {
            sleep_us = 0;
        }
    }

    pmd_flush_all(pmd, true, 0);
    dp_rcu_unregister(dp->rcu, pmd->rcu_id);
    if (eal_registered) {
        rte_thread_unregister();
    }
    return NULL;
}

/* The pipeline. */

/* Packets of one flow within a burst. */
struct flow_batch {
    struct dp_flow *flow;
    struct dp_packet_batch batch;
    uint32_t n_packets;                 /* Counted in the flow's stats. */
    uint32_t n_bytes;
    uint16_t tcp_flags;
};

static uint16_t
key_tcp_flags(const struct flow_key *key)
{
    enum { TP_WORD = offsetof(struct flow, tp_src) / 8 };
    uint64_t w = flow_key_get_word(key, TP_WORD);
    struct flow f;

    memcpy((char *) &f + TP_WORD * 8, &w, sizeof w);
    return ntohs(f.tcp_flags);
}

static void
flow_batch_add(struct flow_batch *fbs, size_t *n_fbs, struct dp_flow *flow,
               struct dp_packet *p, uint16_t tcp_flags, bool counted)
{
    /* 'flow' is this thread's own copy, so its scratch pointer is ours:
     * one load finds the flow's batch, however many flows the burst has.
     * The caller clears it once the burst is grouped. */
    struct flow_batch *fb = flow->batch;

    if (!fb) {
        fb = &fbs[(*n_fbs)++];
        flow->batch = fb;
        fb->flow = flow;
        fb->n_packets = 0;
        fb->n_bytes = 0;
        fb->tcp_flags = 0;
        dp_packet_batch_init(&fb->batch);
    }
    if (counted) {
        fb->n_packets++;
        fb->n_bytes += dp_packet_size(p);
        fb->tcp_flags |= tcp_flags;
    }
    dp_packet_batch_add(&fb->batch, p);
}

static void
execute_actions(struct dp_netdev_pmd *pmd, struct dp_packet_batch *batch,
                const struct dp_flow_actions *acts)
{
    dp_execute_actions(batch, (const struct dp_action *) acts->data,
                       acts->size / sizeof(struct dp_action), pmd_output,
                       pmd);
}

/* Makes the signature-match cache of 'pmd' name 'f', this thread's own
 * flow, for packets with 'hash'. */
static inline void
pmd_smc_insert(struct dp_netdev_pmd *pmd, struct dp_flow *f, uint32_t hash)
{
    /* A flow being deleted has lost its node (and its index) already. */
    const struct dp_netdev_flow_node *node = __atomic_load_n(&f->aux,
                                                             __ATOMIC_ACQUIRE);
    if (node) {
        dp_smc_insert(pmd->smc, hash, node->smc_index);
    }
}

static struct dp_flow *
pmd_find_flow(struct dp_netdev_pmd *pmd, const struct flow_key *key)
{
    const struct flow_key *keys[1] = { key };
    struct dpcls_rule *rules[1] = { NULL };

    if (dpcls_lookup(&pmd->cls, keys, 1, rules, NULL)) {
        return CONTAINER_OF(rules[0], struct dp_flow, cr);
    }
    return NULL;
}

/* Handles a packet that missed every cache: asks the slow path and installs
 * the megaflow it returns.  Returns the flow to execute 'p' with, or NULL if
 * 'p' was consumed here (dropped after a failed upcall, or executed alone
 * because the flow table is full). */
static struct dp_flow *
pmd_upcall(struct dp_netdev_pmd *pmd, struct dp_netdev_rxq *rxq,
           struct dp_packet *p, const struct flow_key *key, uint32_t hash,
           bool emc_enabled, bool smc_enabled, long long int now)
{
    struct dp_netdev *dp = pmd->dp;
    struct dp_actions *acts = &pmd->upcall_actions;
    dp_upcall_cb *cb = dp->upcall_cb;
    uint64_t t0 = rte_rdtsc();
    struct flow flow, mask;
    int error;

    flow_key_to_flow(key, &flow);
    memset(&mask, 0, sizeof mask);
    dp_actions_clear(acts);
    error = cb ? cb(dp->upcall_aux, &flow, p, acts, &mask) : ENODEV;
    if (error) {
        /* Without a callback upcalls are off (flow-restore-wait): Open
         * vSwitch counts such drops as failing to take its upcall lock. */
        if (cb) {
            COVERAGE_INC(datapath_drop_upcall_error);
        } else {
            COVERAGE_INC(datapath_drop_lock_error);
        }
        stat_add(pmd, PMD_STAT_LOST, 1);
        dp_packet_free(p);
        stat_add(pmd, PMD_STAT_CYCLES_UPCALL, rte_rdtsc() - t0);
        return NULL;
    }
    stat_add(pmd, PMD_STAT_MISS, 1);

    /* The datapath always matches the input port and recirculation id.
     * Everything else is the slow path's to decide (Open vSwitch's slow path
     * also matches VLAN tags whole and IP fragments; revalidation compares
     * masks, so the datapath adds nothing more). */
    mask.in_port = UINT32_MAX;
    mask.recirc_id = UINT32_MAX;

    struct flow_key mkey, masked;
    flow_key_from_flow(&mkey, &mask);
    flow_key_apply_mask(&masked, key, &mkey);

    struct dp_flow *f = NULL;
    if (__atomic_load_n(&dp->n_flows, __ATOMIC_RELAXED)
        >= __atomic_load_n(&dp->flow_limit, __ATOMIC_RELAXED)) {
        COVERAGE_INC(datapath_flow_limit);
        stat_add(pmd, PMD_STAT_DROP_NO_FLOW, 1);
    } else {
        struct dp_ufid ufid;
        dp_flow_ufid_from_key(&masked, &ufid);
        f = dp_flow_create(dp->rcu, &masked, &mkey, acts->actions,
                           acts->n_actions * sizeof *acts->actions, &ufid);
    }

    bool installed = false;
    if (f) {
        f->owner = pmd;                 /* Before any PMD can see it. */
        pthread_mutex_lock(&pmd->flow_mutex);
        error = dpcls_insert(&pmd->cls, &f->cr, &masked, &mkey);
        if (error) {
            /* Installed meanwhile (an earlier packet of this burst with an
             * overlapping mask): use what is there. */
            dp_flow_unref(f);
            f = pmd_find_flow(pmd, key);
        } else {
            struct dp_netdev_flow_node *node = xzalloc(sizeof *node);

            node->pmd = pmd;
            node->flow = f;
            node->next = pmd->flows;
            if (pmd->flows) {
                pmd->flows->prev = node;
            }
            pmd->flows = node;
            pmd->n_flows++;
            dp_simple_flow_add(pmd->simple, f);
            node->created = now;
            node->first_key = *key;
            node->upcall_packets = 1;
            node->upcall_bytes = dp_packet_size(p);
            node->smc_index = dp_smc_flow_add(pmd->smc, f);
            f->aux = node;
            __atomic_add_fetch(&dp->n_flows, 1, __ATOMIC_RELAXED);
            installed = true;

            /* Under the flow mutex, so that a deletion's request cannot
             * overtake this one. */
            const struct netdev_flow_api *api
                = (rxq && __atomic_load_n(&dp->hw_offload, __ATOMIC_ACQUIRE)
                   ? __atomic_load_n(&rxq->port->flow_api, __ATOMIC_ACQUIRE)
                   : NULL);
            if (api) {
                node->offload_queued = true;
                dp_offload_flow_put(dp->offload, f, rxq->port->netdev, api,
                                    rxq->queue_id);
            }
        }
        pthread_mutex_unlock(&pmd->flow_mutex);
    }

    if (f) {
        if (emc_enabled) {
            dp_emc_probabilistic_insert(pmd->emc, key, hash, f);
        }
        if (smc_enabled) {
            pmd_smc_insert(pmd, f, hash);
        }
        if (installed && dp->hooks.installed
            && __atomic_load_n(&dp->hw_offload, __ATOMIC_RELAXED)) {
            dp->hooks.installed(dp->hooks.aux, f, flow.in_port);
        }
    } else {
        /* No flow: execute this packet alone with the upcall's actions. */
        struct dp_packet_batch one;

        dp_packet_batch_init(&one);
        dp_packet_batch_add(&one, p);
        dp_execute_actions(&one, acts->actions, acts->n_actions, pmd_output,
                           pmd);
    }
    stat_add(pmd, PMD_STAT_CYCLES_UPCALL, rte_rdtsc() - t0);
    return f;
}

/* Runs the packets of 'batch', received on port 'in_port', through the
 * pipeline: mark, simple match, EMC, SMC, classifier, upcall; then executes
 * them flow by flow.  Consumes the packets. */
static void
pmd_process_batch(struct dp_netdev_pmd *pmd, struct dp_netdev_rxq *rxq,
                  uint32_t in_port, bool emc_enabled,
                  struct dp_packet_batch *batch, long long int now)
{
    struct dp_netdev *dp = pmd->dp;
    size_t n = batch->count;
    struct flow_key keys[DP_PACKET_BATCH_SIZE];
    uint32_t hashes[DP_PACKET_BATCH_SIZE];
    struct dp_flow *flows[DP_PACKET_BATCH_SIZE];
    const struct flow_key *miss_keys[DP_PACKET_BATCH_SIZE];
    struct dpcls_rule *rules[DP_PACKET_BATCH_SIZE];
    size_t miss_idx[DP_PACKET_BATCH_SIZE];
    size_t n_miss = 0;
    uint16_t parsed_tcp_flags[DP_PACKET_BATCH_SIZE];
    unsigned int n_emc = 0, n_phwol = 0, n_simple = 0;
    uint64_t uncounted = 0;
    bool hw_offload = __atomic_load_n(&dp->hw_offload, __ATOMIC_RELAXED);
    struct dp_flow *marked[DP_PACKET_BATCH_SIZE];

    /* emc-insert-inv-prob=0: nothing enters the EMC, so nothing is looked
     * up in it either. */
    emc_enabled = emc_enabled && dp_emc_is_enabled(pmd->emc);
    bool smc_enabled = __atomic_load_n(&dp->smc_enable, __ATOMIC_RELAXED);

    stat_add(pmd, PMD_STAT_RECV, n);

    /* The packets were written by another core (the NIC, a guest): start
     * the misses on their headers for the whole batch at once. */
    for (size_t i = 0; i < n; i++) {
        rte_prefetch0(dp_packet_data(batch->packets[i]));
    }

    /* Marked packets: look the marks up for the whole batch first and
     * prefetch the flows, so that those misses overlap too.  A run of
     * packets with the same mark (a flow's packets come in trains) looks
     * it up once. */
    if (hw_offload) {
        uint32_t last_mark = DP_FLOW_MARK_NONE;
        struct dp_flow *last = NULL;

        for (size_t i = 0; i < n; i++) {
            uint32_t mark;

            if (!dp_packet_flow_mark(batch->packets[i], &mark)) {
                marked[i] = NULL;
                continue;
            }
            if (mark != last_mark) {
                last_mark = mark;
                last = dp_netdev_get_mark_to_flow(dp, mark);
                if (last) {
                    rte_prefetch0(&last->dead);
                    rte_prefetch0(&last->stats);
                }
            }
            marked[i] = last;
        }
    }

    /* Simple match: when every flow from this port is a simple-match flow
     * with one mask (lib/dp-simple.h), a packet's flow is found from its
     * Ethernet type, VLAN tag and fragment bits; a miss takes the usual
     * path. */
    uint32_t simple_mask = (__atomic_load_n(&dp_netdev_no_simple_match,
                                            __ATOMIC_RELAXED)
                            ? 0 : dp_simple_port_mask(pmd->simple, in_port));
    uint64_t simple_port = (uint64_t) in_port << 32;

    /* The flow a run of packets with the same mark resolved to: this
     * thread's live copy, or NULL. */
    const struct dp_flow *last_marked = NULL;
    struct dp_flow *last_own = NULL;
    uint32_t last_hash = 0;

    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];

        p->md.in_port = in_port;
        p->md.recirc_id = 0;
        flows[i] = NULL;

        if (hw_offload && marked[i]) {
            /* The mark's list holds one copy of the megaflow per thread:
             * take ours.  The key is not needed, but the actions may need
             * the header offsets, and the statistics the TCP flags. */
            if (marked[i] != last_marked) {
                struct dp_flow *f = marked[i];

                while (f && f->owner != pmd) {
                    f = __atomic_load_n(&f->mark_next, __ATOMIC_ACQUIRE);
                }
                last_marked = marked[i];
                last_own = f && !dp_flow_is_dead(f) ? f : NULL;
            }
            if (last_own) {
                flows[i] = last_own;
                keys[i].map = 0;
                parsed_tcp_flags[i] = flow_parse_offsets(p);
                n_phwol++;
                continue;
            }
        }

        if (simple_mask) {
            /* As for a marked packet, no key: the offsets and the TCP
             * flags. */
            uint16_t tcp_flags;
            uint32_t fields = flow_parse_simple(p, &tcp_flags);
            struct dp_flow *f = dp_simple_lookup(pmd->simple,
                                                 simple_port
                                                 | (fields & simple_mask));
            if (f && !dp_flow_is_dead(f)) {
                flows[i] = f;
                keys[i].map = 0;
                parsed_tcp_flags[i] = tcp_flags;
                n_simple++;
                continue;
            }
        }

        flow_extract_key(p, &keys[i]);
        if (!dp_packet_rss_hash(p, &hashes[i])) {
            hashes[i] = flow_key_hash(&keys[i], 0);
        }
        if (emc_enabled && hashes[i] != last_hash) {
            /* A train of one flow's packets needs its entries once. */
            dp_emc_prefetch(pmd->emc, hashes[i]);
            last_hash = hashes[i];
        }
        miss_idx[n_miss++] = i;
    }

    /* The EMC, once the whole burst's entries are on their way. */
    if (emc_enabled) {
        size_t n_left = 0;

        for (size_t m = 0; m < n_miss; m++) {
            size_t i = miss_idx[m];
            struct dp_flow *f = dp_emc_lookup(pmd->emc, &keys[i], hashes[i]);

            if (f) {
                flows[i] = f;
            } else {
                miss_idx[n_left++] = i;
            }
        }
        n_emc = n_miss - n_left;
        n_miss = n_left;
    }
    for (size_t m = 0; m < n_miss; m++) {
        miss_keys[m] = &keys[miss_idx[m]];
    }
    stat_add(pmd, PMD_STAT_PHWOL_HIT, n_phwol);
    stat_add(pmd, PMD_STAT_SIMPLE_HIT, n_simple);
    stat_add(pmd, PMD_STAT_EXACT_HIT, n_emc);

    /* The signature-match cache, for the EMC's misses; what it finds goes
     * into the EMC as a classifier hit would. */
    if (smc_enabled && n_miss) {
        uint32_t miss_hashes[DP_PACKET_BATCH_SIZE];
        struct dp_flow *smc_flows[DP_PACKET_BATCH_SIZE];
        size_t n_left = 0;

        for (size_t m = 0; m < n_miss; m++) {
            miss_hashes[m] = hashes[miss_idx[m]];
        }
        size_t n_smc = dp_smc_lookup_batch(pmd->smc, miss_keys, miss_hashes,
                                           n_miss, smc_flows);
        for (size_t m = 0; n_smc && m < n_miss; m++) {
            size_t i = miss_idx[m];
            struct dp_flow *f = smc_flows[m];

            if (f) {
                flows[i] = f;
                if (emc_enabled) {
                    dp_emc_probabilistic_insert(pmd->emc, &keys[i],
                                                hashes[i], f);
                }
            } else {
                miss_keys[n_left] = &keys[i];
                miss_idx[n_left++] = i;
            }
        }
        if (n_smc) {
            n_miss = n_left;
        }
        stat_add(pmd, PMD_STAT_SMC_HIT, n_smc);
    }

    if (n_miss) {
        unsigned int n_lookups = 0;
        unsigned int n_hits = 0;

        memset(rules, 0, n_miss * sizeof rules[0]);
        dpcls_lookup(&pmd->cls, miss_keys, n_miss, rules, &n_lookups);
        for (size_t m = 0; m < n_miss; m++) {
            size_t i = miss_idx[m];

            if (rules[m]) {
                struct dp_flow *f = CONTAINER_OF(rules[m], struct dp_flow,
                                                 cr);
                flows[i] = f;
                n_hits++;
                if (emc_enabled) {
                    dp_emc_probabilistic_insert(pmd->emc, &keys[i],
                                                hashes[i], f);
                }
                if (smc_enabled) {
                    pmd_smc_insert(pmd, f, hashes[i]);
                }
            }
        }
        stat_add(pmd, PMD_STAT_MASKED_HIT, n_hits);
        stat_add(pmd, PMD_STAT_MASKED_LOOKUP, n_lookups);

        /* Upcalls, one packet at a time; a packet may find the flow an
         * earlier one of this burst installed. */
        for (size_t m = 0; m < n_miss; m++) {
            size_t i = miss_idx[m];

            if (flows[i]) {
                continue;
            }

            struct dp_flow *f = pmd_find_flow(pmd, &keys[i]);
            if (f) {
                flows[i] = f;
                stat_add(pmd, PMD_STAT_MASKED_HIT, 1);
                stat_add(pmd, PMD_STAT_MASKED_LOOKUP, 1);
                if (smc_enabled) {
                    pmd_smc_insert(pmd, f, hashes[i]);
                }
                continue;
            }
            flows[i] = pmd_upcall(pmd, rxq, batch->packets[i], &keys[i],
                                  hashes[i], emc_enabled, smc_enabled, now);
            if (!flows[i]) {
                batch->packets[i] = NULL;       /* Consumed. */
            } else {
                /* As in Open vSwitch, the packet that caused the upcall
                 * does not count in its flow's statistics. */
                uncounted |= UINT64_C(1) << i;
            }
        }
    }

    /* A burst of one flow (a single stream, or a train of one): execute it
     * as it is, without grouping or copying it. */
    struct dp_flow *flow0 = flows[0];
    size_t n_same = 0;
    if (flow0 && batch->packets[0]) {
        while (n_same < n && flows[n_same] == flow0
               && batch->packets[n_same]) {
            n_same++;
        }
    }
    if (n_same == n) {
        uint32_t n_bytes = 0;
        uint16_t tcp_flags = 0;

        for (size_t i = 0; i < n; i++) {
            if (!(uncounted & (UINT64_C(1) << i))) {
                n_bytes += dp_packet_size(batch->packets[i]);
                tcp_flags |= (keys[i].map ? key_tcp_flags(&keys[i])
                              : parsed_tcp_flags[i]);
            }
        }
        size_t n_counted = n - __builtin_popcountll(uncounted);
        if (n_counted) {
            dp_flow_used(flow0, n_counted, n_bytes, tcp_flags, now);
        }
        execute_actions(pmd, batch, dp_flow_get_actions(flow0));
        return;
    }

    /* Execute, flow by flow, in order of first appearance. */
    struct flow_batch fbs[DP_PACKET_BATCH_SIZE];
    size_t n_fbs = 0;
    for (size_t i = 0; i < n; i++) {
        if (batch->packets[i] && flows[i]) {
            flow_batch_add(fbs, &n_fbs, flows[i], batch->packets[i],
                           (keys[i].map ? key_tcp_flags(&keys[i])
                            : parsed_tcp_flags[i]),
                           !(uncounted & (UINT64_C(1) << i)));
        }
    }
    for (size_t b = 0; b < n_fbs; b++) {
        fbs[b].flow->batch = NULL;
        if (batch->n_clean >= n) {
            /* The port tested every packet: lib/dp-packet.h. */
            dp_packet_batch_set_clean(&fbs[b].batch, true);
        }
    }
    dp_packet_batch_init(batch);

    /* Flows whose actions are the same bytes run as one batch: NORMAL's
     * megaflows towards one port, or many exact flows of one policy, then
     * cost one pass through the actions and one hand-off to the port per
     * burst, not one per flow.  Only the last few distinct action lists
     * are compared, so that a burst of many different ones stays cheap. */
    enum { MERGE_WINDOW = 4 };
    struct dp_packet_batch *runs[DP_PACKET_BATCH_SIZE];
    const struct dp_flow_actions *run_acts[DP_PACKET_BATCH_SIZE];
    size_t n_runs = 0;
    bool merge = !__atomic_load_n(&dp_netdev_no_action_merge,
                                  __ATOMIC_RELAXED);
    for (size_t b = 0; b < n_fbs; b++) {
        struct flow_batch *fb = &fbs[b];
        const struct dp_flow_actions *acts = dp_flow_get_actions(fb->flow);
        size_t r = n_runs;

        if (fb->n_packets) {
            dp_flow_used(fb->flow, fb->n_packets, fb->n_bytes,
                         fb->tcp_flags, now);
        }
        if (merge) {
            for (r = n_runs > MERGE_WINDOW ? n_runs - MERGE_WINDOW : 0;
                 r < n_runs && !dp_flow_actions_equal(run_acts[r], acts);
                 r++) {
                continue;
            }
        }
        if (r < n_runs) {
            /* A burst has at most DP_PACKET_BATCH_SIZE packets: it fits. */
            dp_packet_batch_append(runs[r], &fb->batch, 0);
        } else {
            runs[n_runs] = &fb->batch;
            run_acts[n_runs++] = acts;
        }
    }
    for (size_t r = 0; r < n_runs; r++) {
        execute_actions(pmd, runs[r], run_acts[r]);
    }
}

/* Output callback of dp_execute_actions(): appends to the thread's output
 * batch for 'port', sending it first if it is full. */
static void
pmd_output(void *pmd_, uint32_t port, struct dp_packet_batch *batch)
{
    struct dp_netdev_pmd *pmd = pmd_;
    struct dp_netdev_tx_port *tx = pmd_lookup_tx(pmd, port);

    if (!tx) {
        COVERAGE_ADD(datapath_drop_invalid_port, batch->count);
        stat_add(pmd, PMD_STAT_DROP_NO_PORT, batch->count);
        dp_packet_batch_free(batch);
        return;
    }
    if (!tx->batch.count) {
        unsigned int interval = __atomic_load_n(&pmd->dp->tx_flush_interval,
                                                __ATOMIC_RELAXED);
        tx->flush_deadline = interval ? time_usec() + interval : 0;
    }
    for (size_t i = 0; i < batch->count; ) {
        if (dp_packet_batch_is_full(&tx->batch)) {
            pmd_flush_tx(pmd, tx);
        }
        i += dp_packet_batch_append(&tx->batch, batch, i);
    }
    dp_packet_batch_init(batch);
    if (!tx->dirty) {
        tx->dirty = true;
        pmd->dirty_tx[pmd->n_dirty_tx++] = tx - pmd->tx_ports;
    }
}

/* Flows. */

static void
free_node(void *node)
{
    free(node);
}

/* Deletes the flow of 'node' from 'pmd'.  Caller holds the flow mutex. */
static void
flow_node_delete(struct dp_netdev_pmd *pmd, struct dp_netdev_flow_node *node)
{
    struct dp_netdev *dp = pmd->dp;
    struct dp_flow *f = node->flow;
    uint32_t mark = dp_flow_get_mark(f);

    dpcls_remove(&pmd->cls, &f->cr);
    dp_simple_flow_del(pmd->simple, f);
    dp_smc_flow_remove(pmd->smc, node->smc_index);
    if (node->prev) {
        node->prev->next = node->next;
    } else {
        pmd->flows = node->next;
    }
    if (node->next) {
        node->next->prev = node->prev;
    }
    pmd->n_flows--;
    __atomic_sub_fetch(&dp->n_flows, 1, __ATOMIC_RELAXED);
    if (node->offload_queued) {
        /* The offload thread unlinks it from its mark and removes the rule
         * with the last copy; until then the mark finds it dead. */
        dp_offload_flow_del(dp->offload, f);
    } else if (mark != DP_FLOW_MARK_NONE
               && dp_netdev_get_mark_to_flow(dp, mark) == f) {
        /* Published by hand (tests). */
        dp_netdev_set_mark_to_flow(dp, mark, f->mark_next);
    }
    if (dp->hooks.deleted) {
        dp->hooks.deleted(dp->hooks.aux, f);
    }
    dp_flow_mark_dead(f);
    /* The flow may outlive its node (a mark's list holds it until the
     * offload thread unlinks it): unpublish the node first.  A PMD may
     * still read it through 'aux' until the grace period ends. */
    __atomic_store_n(&f->aux, NULL, __ATOMIC_RELEASE);
    dp_flow_unref(f);
    dp_rcu_postpone(dp->rcu, free_node, node);
}

static void
pmd_flows_clear(struct dp_netdev_pmd *pmd)
{
    pthread_mutex_lock(&pmd->flow_mutex);
    while (pmd->flows) {
        flow_node_delete(pmd, pmd->flows);
    }
    pthread_mutex_unlock(&pmd->flow_mutex);
}

/* Deletes flows idle for max-idle milliseconds or more. */
static void
dp_age_flows(struct dp_netdev *dp, long long int now)
{
    struct dp_netdev_pmd *pmd;

    DP_FOR_EACH_THREAD (pmd, dp) {
        pthread_mutex_lock(&pmd->flow_mutex);
        for (struct dp_netdev_flow_node *node = pmd->flows, *next; node;
             node = next) {
            struct dp_flow_stats st;

            next = node->next;
            dp_flow_get_stats(node->flow, &st);
            if (now - (st.used ? st.used : node->created) >= dp->max_idle) {
                flow_node_delete(pmd, node);
            }
        }
        pthread_mutex_unlock(&pmd->flow_mutex);
    }
}

/* Ends a load-history interval of every rx queue and PMD. */
static void
dp_rotate_intervals(struct dp_netdev *dp)
{
    for (size_t i = 0; i < dp->n_ports; i++) {
        struct dp_netdev_port *port = dp->ports[i];

        for (int q = 0; q < port->n_rxq; q++) {
            struct dp_netdev_rxq *rxq = &port->rxqs[q];
            uint64_t c = __atomic_load_n(&rxq->proc_cycles, __ATOMIC_RELAXED);

            rxq->intervals[rxq->interval_idx] = c - rxq->proc_cycles_prev;
            rxq->interval_idx = (rxq->interval_idx + 1) % DP_N_RXQ_INTERVALS;
            rxq->proc_cycles_prev = c;
        }
    }
    for (size_t i = 0; i < dp->n_pmds; i++) {
        struct dp_netdev_pmd *pmd = dp->pmds[i];
        uint64_t busy = stat_get(&pmd->stats[PMD_STAT_CYCLES_BUSY]);
        uint64_t total = busy + stat_get(&pmd->stats[PMD_STAT_CYCLES_IDLE]);

        pmd->intervals_busy[pmd->interval_idx] = busy - pmd->busy_prev;
        pmd->intervals_total[pmd->interval_idx] = total - pmd->total_prev;
        pmd->interval_idx = (pmd->interval_idx + 1) % DP_N_RXQ_INTERVALS;
        pmd->busy_prev = busy;
        pmd->total_prev = total;
    }
}

/* Flows put by hand. */

/* Most flows a thread takes from dp_netdev_flow_put(), as in Open
 * vSwitch. */
#define DP_NETDEV_MAX_PUT_FLOWS 65536

/* Makes the compact key 'fkey', mask 'mkey' and masked key 'masked' of the
 * flow 'key'/'mask' put by hand: as for upcalls, the input port and
 * recirculation id are always matched exactly. */
static void
put_key(const struct flow *key, const struct flow *mask,
        struct flow_key *fkey, struct flow_key *masked, struct flow_key *mkey)
{
    struct flow m = *mask;

    m.in_port = UINT32_MAX;
    m.recirc_id = UINT32_MAX;
    flow_key_from_flow(mkey, &m);
    flow_key_from_flow(fkey, key);
    flow_key_apply_mask(masked, fkey, mkey);
}

/* dp_netdev_flow_put() on one thread: 'key' is the key as given, 'masked'
 * the key under 'mkey'. */
static int
pmd_flow_put(struct dp_netdev_pmd *pmd, const struct flow_key *key,
             const struct flow_key *masked,
             const struct flow_key *mkey, const struct dp_actions *acts,
             const struct dp_ufid *ufid, unsigned int flags,
             struct dp_flow_stats *stats)
{
    /* Never NULL, even for no actions (drop). */
    const void *data = acts->n_actions ? (const void *) acts->actions : "";
    size_t size = acts->n_actions * sizeof *acts->actions;
    struct dp_netdev_flow_node *node;
    int error = 0;

    pthread_mutex_lock(&pmd->flow_mutex);
    /* Open vSwitch looks the new key up as a packet: a flow that matches
     * it is the one to modify, or makes the new one a duplicate. */
    for (node = pmd->flows; node; node = node->next) {
        if (dpcls_rule_matches(&node->flow->cr, masked)) {
            break;
        }
    }
    if (!node) {
        if (!(flags & DP_NETDEV_PUT_CREATE)) {
            error = ENOENT;
        } else if (pmd->n_flows >= DP_NETDEV_MAX_PUT_FLOWS) {
            error = EFBIG;
        } else {
            error = pmd_flow_install(pmd, key, masked, mkey, data, size,
                                     ufid);
        }
    } else if (flags & DP_NETDEV_PUT_MODIFY) {
        struct dp_flow *f = node->flow;

        flow_stats_add(stats, f);
        const struct dp_flow_actions *fa = dp_flow_get_actions(f);
        if (fa->size != size || memcmp(fa->data, data, size)) {
            dp_flow_set_actions(f, data, size);
            if (node->offload_queued) {
                dp_offload_flow_mod(pmd->dp->offload, f);
            }
        }
        if (flags & DP_NETDEV_PUT_ZERO_STATS) {
            /* Each thread writes its own flows' counters: like Open
             * vSwitch's, this datapath cannot clear them from here. */
            error = EOPNOTSUPP;
        }
    } else {
        error = EEXIST;
    }
    pthread_mutex_unlock(&pmd->flow_mutex);
    return error;
}

/* Installs a new flow in 'pmd', whose flow mutex the caller holds. */
static int
pmd_flow_install(struct dp_netdev_pmd *pmd, const struct flow_key *key,
                 const struct flow_key *masked,
                 const struct flow_key *mkey, const void *actions,
                 size_t actions_size, const struct dp_ufid *ufid)
{
    struct dp_netdev *dp = pmd->dp;
    struct dp_flow *f = dp_flow_create(dp->rcu, masked, mkey, actions,
                                       actions_size, ufid);

    f->owner = pmd;
    int error = dpcls_insert(&pmd->cls, &f->cr, masked, mkey);
    if (error) {
        dp_flow_unref(f);
        return error;
    }

    struct dp_netdev_flow_node *node = xzalloc(sizeof *node);
    node->pmd = pmd;
    node->flow = f;
    node->created = time_msec();
    node->first_key = *key;
    node->by_hand = true;
    node->smc_index = dp_smc_flow_add(pmd->smc, f);
    node->next = pmd->flows;
    if (pmd->flows) {
        pmd->flows->prev = node;
    }
    pmd->flows = node;
    pmd->n_flows++;
    dp_simple_flow_add(pmd->simple, f);
    __atomic_store_n(&f->aux, node, __ATOMIC_RELEASE);
    __atomic_add_fetch(&dp->n_flows, 1, __ATOMIC_RELAXED);
    return 0;
}

/* Adds the statistics of 'flow' to 'stats'. */
static void
flow_stats_add(struct dp_flow_stats *stats, const struct dp_flow *flow)
{
    struct dp_flow_stats st;

    dp_flow_get_stats(flow, &st);
    stats->n_packets += st.n_packets;
    stats->n_bytes += st.n_bytes;
    stats->used = MAX(stats->used, st.used);
    stats->tcp_flags |= st.tcp_flags;
}
