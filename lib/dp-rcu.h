/* Read-copy-update for the datapath, on DPDK's quiescent-state based RCU.
 *
 * Readers (PMD threads) register a thread id, go online, read shared
 * structures without locks, and report a quiescent state (dp_rcu_quiescent())
 * at points where they hold no pointer into those structures: once per
 * polling iteration.  A thread that blocks or sleeps goes offline first.
 *
 * Writers unpublish an object (so no new reader can find it), then hand it to
 * dp_rcu_postpone().  Its destructor runs once every reader that was online
 * at that moment has reported a quiescent state: from dp_rcu_reclaim()
 * (non-blocking, typically called by the main thread once per loop) or
 * dp_rcu_barrier() (waits).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_RCU_H
#define DP_RCU_H 1

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <rte_rcu_qsbr.h>

struct dp_rcu;

/* Creation and threads.  Thread ids are 0 .. 'max_threads' - 1. */
struct dp_rcu *dp_rcu_create(unsigned int max_threads);
void dp_rcu_destroy(struct dp_rcu *);
int dp_rcu_register(struct dp_rcu *, unsigned int thread_id);
void dp_rcu_unregister(struct dp_rcu *, unsigned int thread_id);
static inline void dp_rcu_online(struct dp_rcu *, unsigned int thread_id);
static inline void dp_rcu_offline(struct dp_rcu *, unsigned int thread_id);
static inline void dp_rcu_quiescent(struct dp_rcu *, unsigned int thread_id);

/* Deferred destruction. */
void dp_rcu_postpone(struct dp_rcu *, void (*function)(void *), void *arg);
size_t dp_rcu_reclaim(struct dp_rcu *);
void dp_rcu_barrier(struct dp_rcu *);
size_t dp_rcu_n_pending(const struct dp_rcu *);

/* Not part of the interface: what the inline functions need. */
struct dp_rcu_callback;
struct dp_rcu {
    struct rte_rcu_qsbr *qsbr;
    unsigned int max_threads;
    pthread_mutex_t mutex;              /* Protects the list below. */
    struct dp_rcu_callback *head, *tail;
    size_t n_pending;
};

/* Marks 'thread_id' (registered) as reading: writers now wait for it. */
static inline void
dp_rcu_online(struct dp_rcu *rcu, unsigned int thread_id)
{
    rte_rcu_qsbr_thread_online(rcu->qsbr, thread_id);
}

/* Marks 'thread_id' as not reading (about to block or sleep): writers stop
 * waiting for it.  It must hold no pointer into RCU-protected data. */
static inline void
dp_rcu_offline(struct dp_rcu *rcu, unsigned int thread_id)
{
    rte_rcu_qsbr_thread_offline(rcu->qsbr, thread_id);
}

/* Reports that online thread 'thread_id' holds no pointer into
 * RCU-protected data at this moment.  Cheap (a store and a fence): call it
 * once per polling iteration. */
static inline void
dp_rcu_quiescent(struct dp_rcu *rcu, unsigned int thread_id)
{
    rte_rcu_qsbr_quiescent(rcu->qsbr, thread_id);
}

#endif /* dp-rcu.h */
