/* dpif-netdev-offload: the datapath's offload threads, flow marks and the
 * bookkeeping of partially offloaded megaflows.
 *
 * With other_config:hw-offload=true, every megaflow a polling thread
 * installs for a packet from a port with a flow API is handed to an offload
 * thread (dp_offload_flow_put()): one of 'n-offload-threads', chosen by the
 * megaflow's UFID, so that all requests for one megaflow (put, modify,
 * delete, from any thread) are carried out in the order they were made.
 * The queues are lock-free (multi-producer, single-consumer): a PMD never
 * blocks on them and never calls a provider.
 *
 * The offload thread gives the megaflow a 32-bit mark, asks the port's
 * provider for a rule that puts the mark on the megaflow's packets and
 * publishes the flow under the mark in the mark-to-flow array.  The other
 * PMDs' copies of the same megaflow (same UFID) join the same mark: the
 * array entry is the head of an RCU list of copies and each PMD takes its
 * own.  When the last copy is deleted the rule is removed, the entry
 * cleared, and the mark is given back only after an RCU grace period of
 * every polling thread, so a packet that still carries it can never be
 * taken for another flow.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DPIF_NETDEV_OFFLOAD_H
#define DPIF_NETDEV_OFFLOAD_H 1

#include <stdbool.h>
#include <stdint.h>

struct dp_flow;
struct dp_netdev;
struct dp_offload;
struct netdev;
struct netdev_flow_api;

/* Starts 'n_threads' offload threads for 'dp'.  Main thread. */
struct dp_offload *dp_offload_create(struct dp_netdev *,
                                     unsigned int n_threads);

/* Finishes the queued requests, stops the threads, removes every rule and
 * frees 'ofl'.  Main thread, after the PMDs stopped. */
void dp_offload_destroy(struct dp_offload *);

/* Requests.  Non-blocking, any thread.  Each takes its own reference to
 * the flow.  The caller holds the flow mutex of the thread that owns
 * 'flow', which orders the requests of one flow.
 *
 * put: 'flow' was installed for packets received on rx queue 'rxq_id' of
 * 'netdev', whose flow API is 'api'.  mod: its actions changed.  del: it
 * is being deleted. */
void dp_offload_flow_put(struct dp_offload *, struct dp_flow *,
                         struct netdev *, const struct netdev_flow_api *,
                         int rxq_id);
void dp_offload_flow_mod(struct dp_offload *, struct dp_flow *);
void dp_offload_flow_del(struct dp_offload *, struct dp_flow *);

/* Removes every rule of 'netdev' (through every offload thread, after the
 * requests queued before) and waits until done: the flows stay in
 * software, without a mark.  Main thread, before the port goes. */
void dp_offload_port_flush(struct dp_offload *, struct netdev *);

/* Statistics of one offload thread, for dpctl/offload-stats-show. */
struct dp_offload_stats {
    uint64_t enqueued;          /* Requests waiting. */
    uint64_t inserted;          /* Megaflows offloaded now. */
    uint64_t n_latencies;       /* Requests done. */
    double cma_mean, cma_stddev;        /* Microseconds, from enqueue to */
    double ema_mean, ema_stddev;        /* done: cumulative, exponential. */
};
unsigned int dp_offload_n_threads(const struct dp_offload *);
void dp_offload_get_stats(struct dp_offload *, unsigned int thread,
                          struct dp_offload_stats *);

/* For tests: how long (ms, default 100) a mark waits, after its RCU grace
 * period, before it is handed out again.  With 0, only the grace period
 * keeps a packet marked for a deleted flow from finding the mark's next
 * flow, which is what tests/test-offload.c's stress test checks. */
void dp_offload_set_mark_reuse_ms(long long int ms);

#endif /* dpif-netdev-offload.h */
