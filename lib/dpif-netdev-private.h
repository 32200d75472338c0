/* dpif-netdev internals shared by lib/dpif-netdev.c (threads, pipeline,
 * reconfiguration) and lib/dpif-netdev-unixctl.c (commands).  Not for other
 * modules: their interface is lib/dpif-netdev.h.
 *
 * Threads.  The main thread owns everything here except what a comment
 * gives to a polling thread ("PMD writes").  A running PMD's poll list and
 * tx ports change without a pause: the main thread builds new ones (a
 * struct dp_netdev_sched) and the PMD adopts them between two iterations,
 * so that adding, removing or reconfiguring a port never stops the
 * threads that go on polling other queues.  A PMD that is paused (one just
 * created) gets them directly.
 * Counters a PMD writes are plain relaxed atomic stores by their one
 * writer; readers load them atomically.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DPIF_NETDEV_PRIVATE_H
#define DPIF_NETDEV_PRIVATE_H 1

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "dp-actions.h"
#include "dp-packet.h"
#include "dpcls.h"
#include "dpif-netdev.h"

struct dp_emc;
struct dp_flow;
struct dp_simple;
struct dp_smc;
struct dp_offload;
struct dp_rcu;
struct netdev_flow_api;
struct netdev_rxq;

/* Per-thread statistics: the enum name, the label pmd-stats-show prints
 * the counter under and the one pmd-perf-show does (NULL: that command has
 * no line for the counter itself).  Both commands take their labels from
 * here (lib/dpif-netdev-unixctl.c) and print them in Open vSwitch's layout.
 *
 * RECIRC and MFEX_OPT_HIT are in that layout but nothing increments them:
 * they are true zeros, printed only because Open vSwitch 3.1's output has
 * those lines.  dpswitch has no recirculation (no action sends a packet
 * through the datapath again) and no optimised miniflow extract; whatever
 * adds one must increment its counter here.  SIMPLE_HIT counts the packets
 * the simple-match table found (lib/dp-simple.h), SMC_HIT the
 * signature-match cache's hits (other_config:smc-enable=true). */
#define PMD_STATS                                                       \
    PMD_STAT(RECV,          "packets received",  "Rx packets")          \
    PMD_STAT(RECIRC,        "packet recirculations", NULL)              \
    PMD_STAT(PHWOL_HIT,     "phwol hits",        "- PHWOL hits")        \
    PMD_STAT(MFEX_OPT_HIT,  "mfex opt hits",     "- MFEX Opt hits")     \
    PMD_STAT(SIMPLE_HIT,    "simple match hits", "- Simple Match hits") \
    PMD_STAT(EXACT_HIT,     "emc hits",          "- EMC hits")          \
    PMD_STAT(SMC_HIT,       "smc hits",          "- SMC hits")          \
    PMD_STAT(MASKED_HIT,    "megaflow hits",     "- Megaflow hits")     \
    PMD_STAT(MASKED_LOOKUP, NULL,                NULL)                  \
    PMD_STAT(MISS,          "miss with success upcall", "- Upcalls")    \
    PMD_STAT(LOST,          "miss with failed upcall", "- Lost upcalls") \
    PMD_STAT(SENT_PKTS,     NULL,                "Tx packets")          \
    PMD_STAT(SENT_BATCHES,  NULL,                "Tx batches")          \
    PMD_STAT(DROP_NO_PORT,  NULL,                NULL)                  \
    PMD_STAT(DROP_NO_FLOW,  NULL,                NULL)                  \
    PMD_STAT(CYCLES_IDLE,   "idle cycles",       NULL)                  \
    PMD_STAT(CYCLES_BUSY,   "processing cycles", NULL)                  \
    PMD_STAT(CYCLES_UPCALL, NULL,                NULL)                  \
    PMD_STAT(ITER,          NULL,                "Iterations")          \
    PMD_STAT(ITER_IDLE,     NULL,                "- idle iterations")   \
    PMD_STAT(ITER_BUSY,     NULL,                "- busy iterations")   \
    PMD_STAT(ITER_SLEEP,    NULL,                "- sleep iterations")  \
    PMD_STAT(SLEEP_US,      NULL,                "Sleep time (us)")

enum pmd_stat_type {
#define PMD_STAT(ENUM, SHOW_LABEL, PERF_LABEL) PMD_STAT_##ENUM,
    PMD_STATS
#undef PMD_STAT
    PMD_N_STATS
};

/* Intervals of rx queue load history kept (of DP_RXQ_INTERVAL_MS each). */
#define DP_N_RXQ_INTERVALS 12
#define DP_RXQ_INTERVAL_MS 5000

/* A port's receive queue. */
struct dp_netdev_rxq {
    struct dp_netdev_port *port;
    struct netdev_rxq *rx;
    int queue_id;
    int affinity_core;                  /* Pinned core, or -1. */
    struct dp_netdev_pmd *pmd;          /* Polling thread, or NULL. */
    uint64_t proc_cycles;               /* PMD writes: busy cycles. */
    uint64_t proc_cycles_prev;          /* At the last interval end. */
    uint64_t intervals[DP_N_RXQ_INTERVALS];     /* Cycles per interval. */
    unsigned int interval_idx;
};

/* A datapath port. */
struct dp_netdev_port {
    uint32_t port_no;
    struct netdev *netdev;
    bool is_pmd;
    bool emc_enabled;                   /* Interface:other_config. */
    bool need_reopen;                   /* Rx queues must be reopened. */
    bool detached;                      /* No thread polls it or sends to
                                         * it (being reconfigured). */
    int requested_txq;                  /* Last netdev_set_tx_multiq(). */
    char *rxq_affinity;                 /* Interface:other_config, or NULL. */
    const struct netdev_flow_api *flow_api;     /* Assigned with hw-offload,
                                                 * or NULL.  Atomic. */
    struct dp_netdev_rxq *rxqs;
    int n_rxq;
};

/* An output port as one polling thread sees it, with its output batch. */
struct dp_netdev_tx_port {
    uint32_t port_no;
    struct netdev *netdev;
    int qid;
    bool concurrent_txq;
    bool has_flush;
    bool flush_pending;                 /* Sent since the last flush, or
                                         * the port still holds packets. */
    bool dirty;                         /* In the thread's 'dirty_tx'. */
    long long int flush_deadline;       /* Microseconds, when held. */
    struct dp_packet_batch batch;
};

/* A poll list and tx ports, as the main thread builds them for a thread
 * to adopt (and, once adopted, the ones it gave up, for the main thread to
 * free). */
struct dp_netdev_sched {
    struct dp_netdev_rxq **polls;
    size_t n_polls;
    struct dp_netdev_tx_port *tx_ports;
    size_t n_tx_ports;
    uint16_t *tx_index;
    size_t tx_index_size;
    uint16_t *dirty_tx;
};

/* A polling thread: a PMD thread, or the main thread for non-PMD ports. */
struct dp_netdev_pmd {
    struct dp_netdev *dp;
    int core_id;                        /* OVS_CORE_UNSPEC: main thread. */
    int numa_id;
    unsigned int rcu_id;
    int static_tx_qid;
    bool isolated;
    pthread_t thread;
    bool thread_started;

    /* Pause/exit handshake with the main thread. */
    pthread_mutex_t cond_mutex;
    pthread_cond_t cond;                /* Wakes the PMD. */
    pthread_cond_t ack_cond;            /* Wakes the main thread. */
    bool pause_req;
    bool paused;
    bool exit_req;

    /* What it polls and where it sends.  The PMD changes them itself when
     * it finds 'sched_req' set (atomic; cleared, under 'cond_mutex' with
     * 'ack_cond' signalled, once adopted); the main thread while it is
     * paused. */
    struct dp_netdev_sched *sched_req;
    struct dp_netdev_rxq **polls;
    size_t n_polls;
    struct dp_netdev_tx_port *tx_ports;
    size_t n_tx_ports;
    uint16_t *tx_index;                 /* port_no -> 1 + tx_ports index. */
    size_t tx_index_size;
    uint16_t *dirty_tx;                 /* tx_ports with packets or a flush
                                         * pending: what to look at after a
                                         * burst, not every port. */
    size_t n_dirty_tx;

    /* Caches and flows. */
    struct dp_emc *emc;
    struct dp_smc *smc;                 /* Signature-match cache and the
                                         * flow index its entries name. */
    struct dpcls cls;
    struct dp_simple *simple;           /* Simple-match flows, per port. */
    pthread_mutex_t flow_mutex;         /* Classifier and 'simple' writes,
                                         * 'flows'. */
    struct dp_netdev_flow_node *flows;  /* Doubly linked list. */
    size_t n_flows;
    struct dp_actions upcall_actions;   /* Scratch for upcalls. */
    long long int next_sort;            /* Msec: dpcls_sort_subtables(). */

    /* Statistics (PMD writes) and the baseline pmd-stats-clear took. */
    uint64_t stats[PMD_N_STATS];
    uint64_t stats_zero[PMD_N_STATS];
    long long int stats_zero_msec;      /* Wall clock of the last clear. */
    uint64_t stats_zero_tsc;
    uint64_t intervals_busy[DP_N_RXQ_INTERVALS];    /* Busy cycles and all */
    uint64_t intervals_total[DP_N_RXQ_INTERVALS];   /* cycles per interval. */
    uint64_t busy_prev, total_prev;
    unsigned int interval_idx;
};

/* A megaflow as a thread's flow table holds it ('aux' of its dp_flow). */
struct dp_netdev_flow_node {
    struct dp_netdev_pmd *pmd;
    struct dp_flow *flow;
    struct dp_netdev_flow_node *prev, *next;
    long long int created;              /* Msec, for aging unused flows. */
    struct flow_key first_key;          /* Unmasked key of its first packet,
                                         * for "dpctl/dump-flows -m". */
    uint32_t smc_index;                 /* In the thread's dp_smc. */
    bool offload_queued;                /* Handed to the offload threads. */
    uint64_t pushed_packets;            /* Counts already handed to the */
    uint64_t pushed_bytes;              /* slow path (push_stats). */
    uint32_t upcall_packets;            /* The packet whose upcall made the */
    uint32_t upcall_bytes;              /* flow, not in its stats: pushed
                                         * with the first push. */
    bool by_hand;                       /* Put by dp_netdev_flow_put():
                                         * 'first_key' is the key as given,
                                         * printed unmasked. */
};

enum dp_rxq_assign {
    DP_RXQ_ASSIGN_CYCLES,
    DP_RXQ_ASSIGN_ROUNDROBIN,
    DP_RXQ_ASSIGN_GROUP,
};

/* The mark-to-flow array, indexed by 32-bit mark: a directory of
 * DP_MARK_N_PAGES pages of DP_MARK_PAGE_SIZE entries, each allocated when
 * its first mark is published and kept until the datapath goes, so that a
 * PMD reads an entry with two loads and no lock.  An entry is the head of
 * the list (dp_flow.mark_next) of the megaflow's copies, one per PMD. */
#define DP_MARK_PAGE_SHIFT 16
#define DP_MARK_PAGE_SIZE (1u << DP_MARK_PAGE_SHIFT)
#define DP_MARK_N_PAGES (1u << (32 - DP_MARK_PAGE_SHIFT))

/* Hooks for partial offload.  With other_config:hw-offload=true,
 * 'installed' is called after a megaflow is installed, on the polling
 * thread that installed it ('in_port' is the port its packets come from):
 * it must not block (queue a request for an offload thread).  'deleted' is
 * called when a megaflow is deleted, from the main thread, under the owning
 * thread's flow mutex, before the flow is marked dead; the datapath has
 * already cleared the flow's mark-to-flow entry, and the hook gives the
 * mark back after an RCU grace period (dp_rcu_postpone()).  Either may be
 * NULL. */
struct dp_netdev_flow_hooks {
    void (*installed)(void *aux, struct dp_flow *, uint32_t in_port);
    void (*deleted)(void *aux, struct dp_flow *);
    void *aux;
};
struct dp_netdev {
    struct dp_rcu *rcu;
    uint64_t rcu_ids_used[2];           /* Bitmap of dp_rcu thread ids. */

    /* Ports, sorted by number. */
    struct dp_netdev_port **ports;
    size_t n_ports;

    /* PMD threads, sorted by NUMA node and core; and the main thread. */
    struct dp_netdev_pmd **pmds;
    size_t n_pmds;
    struct dp_netdev_pmd *main_pmd;

    /* Configuration. */
    char *pmd_cpu_mask;                 /* NULL: the default. */
    enum dp_rxq_assign rxq_assign;
    bool rxq_isolate;
    unsigned int emc_insert_inv_prob;
    bool smc_enable;                    /* Atomic: read per burst. */
    unsigned int tx_flush_interval;     /* Microseconds. */
    unsigned int pmd_sleep_max;         /* Microseconds. */
    long long int max_idle;             /* Milliseconds. */
    unsigned int flow_limit;
    bool hw_offload;
    bool need_reconfigure;
    bool need_rebalance;

    /* Upcalls. */
    dp_upcall_cb *upcall_cb;
    void *upcall_aux;

    /* Flows: total over all threads, and the mark-to-flow array (entries
     * published with release stores, read lock-free by the PMDs). */
    unsigned int n_flows;
    struct dp_flow ***mark_to_flow;     /* DP_MARK_N_PAGES pages. */
    pthread_mutex_t mark_mutex;         /* Allocates pages. */
    struct dp_offload *offload;         /* With hw-offload: the offload
                                         * threads.  Set once. */
    struct dp_netdev_flow_hooks hooks;  /* Changed with the PMDs paused. */

    /* Main loop timers, in msec. */
    long long int next_aging;
    long long int next_interval;
    uint64_t last_reconf_seq;
};

/* Threads. */
void dp_netdev_pmd_pause(struct dp_netdev_pmd *);
void dp_netdev_pmd_resume(struct dp_netdev_pmd *);
void dp_netdev_pmd_get_stats(const struct dp_netdev_pmd *,
                             uint64_t stats[PMD_N_STATS]);
void dp_netdev_pmd_clear_stats(struct dp_netdev_pmd *);

/* Ports. */
struct dp_netdev_port *dp_netdev_lookup_port(const struct dp_netdev *,
                                             uint32_t port_no);
void dp_netdev_request_rebalance(struct dp_netdev *);

/* Flow marks (partial offload): makes packets that carry 'mark' go straight
 * to 'flow' (NULL to clear), the head of the list of copies of one megaflow
 * linked through 'mark_next'.  A PMD uses the copy that is its own, if it
 * is alive; others take the usual path.  Only one thread at a time writes
 * a given mark's entry (the offload thread that owns the megaflow). */
void dp_netdev_set_mark_to_flow(struct dp_netdev *, uint32_t mark,
                                struct dp_flow *);

/* Returns the head of the list of flows published for 'mark', or NULL.
 * Any thread, lock-free; valid until the caller's next quiescent state. */
static inline struct dp_flow *
dp_netdev_get_mark_to_flow(const struct dp_netdev *dp, uint32_t mark)
{
    struct dp_flow **page
        = __atomic_load_n(&dp->mark_to_flow[mark >> DP_MARK_PAGE_SHIFT],
                          __ATOMIC_ACQUIRE);

    return (page
            ? __atomic_load_n(&page[mark & (DP_MARK_PAGE_SIZE - 1)],
                              __ATOMIC_ACQUIRE)
            : NULL);
}

/* Offload hooks: see struct dp_netdev_flow_hooks above. */
void dp_netdev_set_flow_hooks(struct dp_netdev *,
                              const struct dp_netdev_flow_hooks *);

/* Flows put by hand ("ovs-appctl dpctl/add-flow" and the like), with Open
 * vSwitch's userspace datapath's semantics.  Main thread.
 *
 * dp_netdev_flow_put() works on every thread's table (as Open vSwitch
 * puts a flow on every polling thread): in each, the flow that matches
 * 'key' (under 'mask', as if it were a packet's) is modified with
 * DP_NETDEV_PUT_MODIFY (its counters added to 'stats' first, then
 * EOPNOTSUPP with DP_NETDEV_PUT_ZERO_STATS: counters cannot be cleared
 * from here), or without that flag makes the put fail with EEXIST; with
 * none, DP_NETDEV_PUT_CREATE installs a new flow named 'ufid' (NULL: from
 * the masked key) and ENOENT is the answer without it.  The input port and
 * recirculation id are always matched exactly.  Returns 0 or the last
 * thread's error.
 *
 * dp_netdev_flow_del() deletes the flow named 'ufid' from every thread
 * that has it, summing their counters into 'stats'; returns ENOENT if some
 * thread had none. */
enum dp_netdev_put_flags {
    DP_NETDEV_PUT_CREATE = 1 << 0,
    DP_NETDEV_PUT_MODIFY = 1 << 1,
    DP_NETDEV_PUT_ZERO_STATS = 1 << 2,
};
struct dp_flow_stats;
struct dp_ufid;
int dp_netdev_flow_put(struct dp_netdev *, const struct flow *key,
                       const struct flow *mask, const struct dp_actions *,
                       const struct dp_ufid *, unsigned int flags,
                       struct dp_flow_stats *);
void dp_netdev_flow_ufid(const struct flow *key, const struct flow *mask,
                         struct dp_ufid *);
int dp_netdev_flow_del(struct dp_netdev *, const struct dp_ufid *,
                       struct dp_flow_stats *);
struct dp_netdev_flow_node *dp_netdev_pmd_find_ufid(
    struct dp_netdev_pmd *, const struct dp_ufid *);

/* Commands (lib/dpif-netdev-unixctl.c). */
void dp_netdev_unixctl_register(struct dp_netdev *);

#endif /* dpif-netdev-private.h */
