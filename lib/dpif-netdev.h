/* dpif-netdev: the userspace datapath.
 *
 * One datapath, "ovs-netdev", serves every bridge with datapath_type
 * "netdev" (as in Open vSwitch).  It owns the ports' rx queues and polls
 * them: PMD threads (one per core of other_config:pmd-cpu-mask) poll the
 * queues of PMD netdevs, the main thread (dp_netdev_run()) those of the
 * others.  Per packet: mark-to-flow lookup when the packet carries a valid
 * flow mark, else flow key extraction, the thread's exact-match cache, the
 * thread's megaflow classifier, and on a miss an upcall (dp_upcall_cb) that
 * returns actions and a megaflow mask; the megaflow is installed in the
 * thread's classifier and the packet executed.  Output goes through
 * per-thread, per-port batches flushed after each receive burst or when
 * other_config:tx-flush-interval expires.  Flow tables are published with
 * RCU (lib/dp-rcu.h); nothing on the fast path takes a lock.
 *
 * Port numbers: port 0 is the datapath's own internal port, "ovs-netdev";
 * bridges' ports get the lowest free number unless one is requested.
 *
 * Actions are struct dp_actions (lib/dp-actions.h): output, push_vlan,
 * pop_vlan, set fields.  Drop is the empty list.
 *
 * unixctl commands it registers (dp_netdev_register_commands()), with
 * Open vSwitch's names and output layouts: dpctl/show [-s],
 * dpctl/dump-flows [-m], dpctl/del-flows, dpctl/add-flow, dpctl/mod-flow,
 * dpctl/del-flow, dpctl/get-flow, dpif-netdev/pmd-stats-show,
 * dpif-netdev/pmd-stats-clear, dpif-netdev/pmd-rxq-show,
 * dpif-netdev/pmd-perf-show, dpif-netdev/pmd-rxq-rebalance.
 *
 * Threads: every function here belongs to the main thread, except the
 * callbacks, which run on whichever thread handles the packet.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DPIF_NETDEV_H
#define DPIF_NETDEV_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "dp-actions.h"
#include "flow.h"

struct dp_netdev;
struct dp_packet;
struct ds;
struct netdev;
struct smap;

#define DP_PORT_NONE UINT32_MAX
#define DP_NETDEV_NAME "ovs-netdev"

/* The slow path's decision for 'packet', whose extracted key is 'flow'
 * (in_port set).  Fills 'actions' (empty: drop) and 'mask' (bits the
 * decision depended on; in_port and dl_type at least).  Returns 0, or an
 * errno to drop the packet without installing a flow.  Runs on the thread
 * that received the packet, concurrently with other calls: the callee
 * locks what it shares.  Must not call back into the datapath. */
typedef int dp_upcall_cb(void *aux, const struct flow *flow,
                         const struct dp_packet *packet,
                         struct dp_actions *actions, struct flow *mask);

/* Revalidation: asks whether the megaflow 'key'/'mask' with 'actions' is
 * still right.  'key' has the bits outside 'mask' zero.  Returns true to
 * keep it, with 'new_actions' filled (the datapath replaces the actions
 * if they differ), false to delete it.  Runs on the main thread. */
typedef bool dp_revalidate_cb(void *aux, const struct flow *key,
                              const struct flow *mask,
                              const struct dp_actions *actions,
                              struct dp_actions *new_actions);

/* Creation.  There is at most one datapath per process; dp_netdev_create()
 * creates its internal port 0 (type "internal"). */
int dp_netdev_create(struct dp_netdev **) DPS_WARN_UNUSED_RESULT;
void dp_netdev_destroy(struct dp_netdev *);
/* A NULL 'cb' turns upcalls off: packets that miss every cache are dropped
 * and counted (lookups "lost", coverage datapath_drop_lock_error). */
void dp_netdev_set_upcall_cb(struct dp_netdev *, dp_upcall_cb *, void *aux);

/* Datapath-wide configuration from Open_vSwitch:other_config:
 * pmd-cpu-mask, pmd-rxq-assign, pmd-rxq-isolate, emc-insert-inv-prob,
 * tx-flush-interval, max-idle, flow-limit, hw-offload...  Invalid values
 * are logged as warnings and the previous (or default) value kept; their
 * messages are appended to 'errors' (one per line) if nonnull. */
void dp_netdev_set_config(struct dp_netdev *, const struct smap *other_config,
                          struct ds *errors);

/* Ports.  dp_netdev_port_add() takes a reference to 'netdev'.  '*port_no'
 * is the number wanted on entry (DP_PORT_NONE for any), the number given
 * on return. */
int dp_netdev_port_add(struct dp_netdev *, struct netdev *,
                       uint32_t *port_no, char **errp)
    DPS_WARN_UNUSED_RESULT;
int dp_netdev_port_del(struct dp_netdev *, uint32_t port_no);
struct netdev *dp_netdev_port_get_netdev(const struct dp_netdev *,
                                         uint32_t port_no);

/* Interface:other_config of a port: pmd-rxq-affinity, emc-enable.  Same
 * error handling as dp_netdev_set_config(); returns EINVAL if anything
 * was wrong. */
int dp_netdev_port_set_config(struct dp_netdev *, uint32_t port_no,
                              const struct smap *iface_other_config,
                              char **errp);

/* Main loop.  dp_netdev_run() polls the non-PMD ports, applies netdev
 * reconfiguration requests (pausing the PMD threads concerned), ages idle
 * flows (max-idle) and keeps the PMD threads in line with the
 * configuration. */
void dp_netdev_run(struct dp_netdev *);
void dp_netdev_wait(struct dp_netdev *);

/* Re-examines every installed megaflow with 'cb' (after a slow-path change:
 * a MAC moved, a port went away, VLAN configuration changed). */
void dp_netdev_revalidate(struct dp_netdev *, dp_revalidate_cb *, void *aux);

/* Statistics pushback: 'n_packets' packets of 'n_bytes' bytes in all hit
 * the megaflow 'key'/'mask' ('key' masked, as for revalidation) since the
 * last push, the last at 'used' (msec).  Runs on the main thread. */
typedef void dp_flow_stats_cb(void *aux, const struct flow *key,
                              const struct flow *mask, uint64_t n_packets,
                              uint64_t n_bytes, long long int used);

/* Calls 'cb' for every installed megaflow that counted packets since the
 * last call, with what it counted since. */
void dp_netdev_push_stats(struct dp_netdev *, dp_flow_stats_cb *, void *aux);
void dp_netdev_flush_flows(struct dp_netdev *);

/* Statistics for dpif/show. */
struct dp_netdev_stats {
    uint64_t n_hit;             /* Packets that hit a cache. */
    uint64_t n_missed;          /* Packets that needed an upcall. */
    uint64_t n_lost;            /* Upcalls that failed. */
    uint64_t n_flows;
};
void dp_netdev_get_stats(const struct dp_netdev *, struct dp_netdev_stats *);

void dp_netdev_register_commands(struct dp_netdev *);
unsigned int dp_netdev_get_flow_limit(const struct dp_netdev *);
void dp_netdev_set_flow_limit(struct dp_netdev *, unsigned int limit);
struct ds;
bool dp_netdev_parse_dump_option(const char *arg, bool *verbose, int *names);
void dp_netdev_dump_flows_of(struct dp_netdev *, struct ds *, bool verbose,
                             bool names,
                             bool (*keep_port)(uint32_t in_port, void *aux),
                             void *aux);

/* Executes 'actions' on 'packet' (which it consumes) as if it had been
 * received on its md.in_port, from the main thread: for packets the slow
 * path sends itself.  */
void dp_netdev_execute(struct dp_netdev *, struct dp_packet *,
                       const struct dp_actions *);

/* For benchmarks only (tests/perf/perf-dpif merge): while true, the PMDs
 * run each flow's packets of a burst through its actions on their own,
 * even when other flows of the burst have the same actions, so that what
 * running those together saves can be measured.  Read (relaxed atomic)
 * once a burst, so a benchmark may flip it while the PMDs run. */
extern bool dp_netdev_no_action_merge;

/* For benchmarks only (tests/perf/perf-dpif simple): while true, no packet
 * takes the simple-match path (lib/dp-simple.h), so that what it saves can
 * be measured.  Read (relaxed atomic) once a burst. */
extern bool dp_netdev_no_simple_match;

#endif /* dpif-netdev.h */
