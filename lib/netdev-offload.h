/* netdev-offload: the interface of flow offload providers.
 *
 * A port whose device can classify packets itself has a flow API: the
 * 'flow_api' slot of its netdev_class points to a 'struct netdev_flow_api'.
 * With Open_vSwitch:other_config:hw-offload=true, the datapath's offload
 * threads (lib/dpif-netdev-offload.c) hand it the megaflows installed for
 * packets received on the port; the device then puts the flow's mark on the
 * packets that match (partial offload: the device finds the flow, the PMD
 * thread still executes its actions).  One file per provider:
 *
 *   lib/netdev-offload-dpdk.c    "dpdk_flow_api": rte_flow rules with
 *                                actions MARK + RSS (or MARK + QUEUE).
 *   lib/netdev-offload-dummy.c   "dummy": dummy and dummy-pmd ports stamp
 *                                the mark on received packets themselves.
 *
 * Threads.  'init_flow_api' and 'uninit_flow_api' are called from the main
 * thread, with no offload thread working on the netdev (the datapath
 * flushes the netdev's flows through its offload threads and waits for
 * them first).  'flow_put', 'flow_del', 'flow_get' and 'flow_flush' are
 * called from one offload thread at a time for a given UFID (requests are
 * sharded by UFID), but several offload threads may call them for one
 * netdev at once: a provider locks what its flows share.  No slot is ever
 * called from a PMD thread, and none may block on one.
 *
 * Errors are positive errno values.  EOPNOTSUPP from 'flow_put' means the
 * device cannot express the flow (a masked bit it cannot match, a field it
 * does not know): the flow stays in software; the provider says why at
 * debug level.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_OFFLOAD_H
#define NETDEV_OFFLOAD_H 1

#include <stdbool.h>
#include <stdint.h>
#include "dp-flow.h"
#include "flow.h"

struct ds;
struct netdev;
struct smap;

/* A megaflow to offload: packets whose key equals 'key' in the bits set in
 * 'mask'.  'key' is already masked.  'in_port' and 'recirc_id' are always
 * matched exactly: the rule is installed on the device of 'in_port'; a
 * provider refuses a nonzero 'recirc_id'. */
struct netdev_offload_match {
    struct flow key;
    struct flow mask;
};

/* What the datapath wants the rule to do besides matching. */
struct netdev_offload_info {
    uint32_t mark;              /* Put this mark on matching packets. */
    int rxq_id;                 /* Rx queue that received the packet that
                                 * caused the upcall (for a QUEUE action). */
};

/* State of an offloaded flow (flow_get). */
struct netdev_offload_flow_state {
    bool offloaded;             /* The device holds a rule for it. */
    uint64_t n_packets;         /* Packets the device matched, if it */
    uint64_t n_bytes;           /* counts (UINT64_MAX otherwise). */
};

struct netdev_flow_api {
    /* Name, as in "Assigned flow API 'dpdk_flow_api'". */
    const char *type;

    /* Prepares 'netdev' for offloads.  Returns 0 if this API can serve the
     * port, EOPNOTSUPP if it cannot (the port then has no flow API), another
     * errno on failure.  Removes rules an earlier user of the device may
     * have left.  Main thread. */
    int (*init_flow_api)(struct netdev *);

    /* Optional.  Undoes 'init_flow_api', after every rule was removed.
     * Main thread. */
    void (*uninit_flow_api)(struct netdev *);

    /* Creates the rule of the megaflow named 'ufid', or, if the netdev
     * already has one for 'ufid', replaces it (modify: the mark in 'info'
     * is then the same as before).  The provider copies what it keeps of
     * 'match' and 'info'.  Returns 0; EOPNOTSUPP if the flow cannot be
     * expressed; another errno if the device refused it.  On failure the
     * rule 'ufid' had before, if any, is gone.  Offload thread. */
    int (*flow_put)(struct netdev *, const struct netdev_offload_match *,
                    const struct dp_ufid *,
                    const struct netdev_offload_info *);

    /* Removes the rule of 'ufid'.  Returns 0, or ENOENT if there is none.
     * Once it returns, the device marks no further packet with the rule's
     * mark.  Offload thread. */
    int (*flow_del)(struct netdev *, const struct dp_ufid *);

    /* Optional.  Fills '*state' for the rule of 'ufid'.  Returns 0, or
     * ENOENT if there is none.  Offload thread. */
    int (*flow_get)(struct netdev *, const struct dp_ufid *,
                    struct netdev_offload_flow_state *state);

    /* Removes every rule of 'netdev'.  Offload thread. */
    int (*flow_flush)(struct netdev *);
};

/* Most offload threads (other_config:n-offload-threads). */
#define NETDEV_OFFLOAD_MAX_THREADS 10
#define NETDEV_OFFLOAD_DEFAULT_THREADS 1

/* Global switch: other_config:hw-offload and n-offload-threads.  Enabling
 * takes effect at once and logs "netdev: Flow API Enabled"; disabling, or a
 * different number of threads once enabled, needs a restart of
 * ovs-vswitchd, which is logged and appended to 'errors' (if nonnull).
 * Returns true if offload is enabled and stores the thread count in
 * '*n_threads'.  Main thread. */
bool netdev_offload_set_config(const struct smap *other_config,
                               unsigned int *n_threads, struct ds *errors);
bool netdev_offload_is_enabled(void);

/* Forgets the above, when the datapath that enabled offload is destroyed
 * (for tests that create several in one process). */
void netdev_offload_reset(void);

/* Assigns a flow API to 'netdev': its class's, if that API's init accepts
 * the port.  Logs "<port>: Assigned flow API '<type>'." or "<port>: No
 * suitable flow API found.".  Returns the API or NULL.  Main thread. */
const struct netdev_flow_api *netdev_offload_assign(struct netdev *);

/* Calls 'uninit_flow_api' of 'api' for 'netdev'.  Main thread. */
void netdev_offload_release(struct netdev *, const struct netdev_flow_api *);

/* Calls into 'api', counting failures in coverage counters
 * (netdev_offload_put_fail, netdev_offload_unsupported,
 * netdev_offload_del_fail). */
int netdev_offload_flow_put(const struct netdev_flow_api *, struct netdev *,
                            const struct netdev_offload_match *,
                            const struct dp_ufid *,
                            const struct netdev_offload_info *);
int netdev_offload_flow_del(const struct netdev_flow_api *, struct netdev *,
                            const struct dp_ufid *);
int netdev_offload_flow_get(const struct netdev_flow_api *, struct netdev *,
                            const struct dp_ufid *,
                            struct netdev_offload_flow_state *);
int netdev_offload_flow_flush(const struct netdev_flow_api *,
                              struct netdev *);

/* Fills 'match' from a datapath flow's masked key and mask. */
void netdev_offload_match_from_flow(struct netdev_offload_match *,
                                    const struct dp_flow *);

/* The rte_flow provider (lib/netdev-offload-dpdk.c), for netdev-dpdk.c. */
extern const struct netdev_flow_api netdev_offload_dpdk;

/* The dummy provider (lib/netdev-offload-dummy.c), for netdev-dummy.c. */
extern const struct netdev_flow_api netdev_offload_dummy;
struct dp_packet_batch;
struct netdev_offload_dummy_port;
void netdev_offload_dummy_mark(struct netdev_offload_dummy_port *,
                               struct dp_packet_batch *);
/* For tests: after stamping a mark on a burst, the receiving thread waits
 * 'usec' microseconds (default 0) before the datapath looks the marks up,
 * which widens the window that the RCU grace period before a mark's reuse
 * must cover (tests/test-offload.c's stress test). */
void netdev_offload_dummy_set_mark_delay(unsigned int usec);
/* For tests: each flow put (create or modify) first waits 'usec'
 * microseconds (default 0), as a slow device does. */
void netdev_offload_dummy_set_put_delay(unsigned int usec);

#endif /* netdev-offload.h */
