/* Read-copy-update for the datapath: see dp-rcu.h.
 *
 * Pending callbacks sit in one FIFO list, each stamped with the token that
 * rte_rcu_qsbr_start() returned when it was postponed.  Tokens grow, so
 * reclaiming pops from the head while the head's token has been passed.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-rcu.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <rte_common.h>
#include "util.h"

struct dp_rcu_callback {
    struct dp_rcu_callback *next;
    uint64_t token;
    void (*function)(void *);
    void *arg;
};

static size_t dp_rcu_run(struct dp_rcu *, bool wait);

/* Returns a new RCU domain for up to 'max_threads' reader threads. */
struct dp_rcu *
dp_rcu_create(unsigned int max_threads)
{
    struct dp_rcu *rcu = xzalloc(sizeof *rcu);
    size_t size = rte_rcu_qsbr_get_memsize(max_threads);

    /* aligned_alloc() wants a multiple of the alignment. */
    size = RTE_ALIGN_CEIL(size, RTE_CACHE_LINE_SIZE);
    rcu->qsbr = aligned_alloc(RTE_CACHE_LINE_SIZE, size);
    util_assert(rcu->qsbr);
    util_assert(!rte_rcu_qsbr_init(rcu->qsbr, max_threads));
    rcu->max_threads = max_threads;
    pthread_mutex_init(&rcu->mutex, NULL);
    return rcu;
}

/* Waits for every pending callback, runs it, and frees 'rcu'.  Every reader
 * must have unregistered (or at least gone offline). */
void
dp_rcu_destroy(struct dp_rcu *rcu)
{
    if (rcu) {
        dp_rcu_barrier(rcu);
        pthread_mutex_destroy(&rcu->mutex);
        free(rcu->qsbr);
        free(rcu);
    }
}

/* Registers reader 'thread_id' and puts it online.  The reader thread
 * itself calls it, before its first read.  Returns 0, or EINVAL for an id
 * out of range. */
int
dp_rcu_register(struct dp_rcu *rcu, unsigned int thread_id)
{
    if (thread_id >= rcu->max_threads
        || rte_rcu_qsbr_thread_register(rcu->qsbr, thread_id)) {
        return EINVAL;
    }
    rte_rcu_qsbr_thread_online(rcu->qsbr, thread_id);
    return 0;
}

/* Takes reader 'thread_id' offline and unregisters it. */
void
dp_rcu_unregister(struct dp_rcu *rcu, unsigned int thread_id)
{
    rte_rcu_qsbr_thread_offline(rcu->qsbr, thread_id);
    rte_rcu_qsbr_thread_unregister(rcu->qsbr, thread_id);
}

/* Arranges for 'function'('arg') to run after every reader online now has
 * passed a quiescent state.  Any thread may call it; it takes a mutex and
 * allocates, so it is for flow installation and removal, not per packet. */
void
dp_rcu_postpone(struct dp_rcu *rcu, void (*function)(void *), void *arg)
{
    struct dp_rcu_callback *cb = xmalloc(sizeof *cb);

    cb->next = NULL;
    cb->function = function;
    cb->arg = arg;
    pthread_mutex_lock(&rcu->mutex);
    /* The token is taken under the mutex so that tokens grow along the
     * list. */
    cb->token = rte_rcu_qsbr_start(rcu->qsbr);
    if (rcu->tail) {
        rcu->tail->next = cb;
    } else {
        rcu->head = cb;
    }
    rcu->tail = cb;
    __atomic_fetch_add(&rcu->n_pending, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&rcu->mutex);
}

/* Runs the postponed callbacks whose grace period has ended, without
 * waiting.  Returns how many ran.  One thread at a time may reclaim (or
 * wait in dp_rcu_barrier()): the main thread.  An online reader must not
 * call it between quiescent states: a callback could free what it holds. */
size_t
dp_rcu_reclaim(struct dp_rcu *rcu)
{
    return dp_rcu_run(rcu, false);
}

/* Waits until every callback postponed so far has run.  The caller must not
 * be an online reader: it would wait for itself forever. */
void
dp_rcu_barrier(struct dp_rcu *rcu)
{
    while (dp_rcu_n_pending(rcu)) {
        dp_rcu_run(rcu, true);
    }
}

/* Returns the number of callbacks not yet run. */
size_t
dp_rcu_n_pending(const struct dp_rcu *rcu)
{
    return __atomic_load_n(&rcu->n_pending, __ATOMIC_RELAXED);
}

/* Pops and runs callbacks from the head of the list while their grace
 * period has ended, waiting for it if 'wait'.  Callbacks run without the
 * mutex held, so they may postpone more. */
static size_t
dp_rcu_run(struct dp_rcu *rcu, bool wait)
{
    size_t n = 0;

    for (;;) {
        pthread_mutex_lock(&rcu->mutex);
        struct dp_rcu_callback *cb = rcu->head;
        uint64_t token = cb ? cb->token : 0;
        pthread_mutex_unlock(&rcu->mutex);

        if (!cb || !rte_rcu_qsbr_check(rcu->qsbr, token, wait)) {
            return n;
        }

        /* Only this function removes from the head, and only one thread
         * runs it at a time by contract, so 'cb' is still the head. */
        pthread_mutex_lock(&rcu->mutex);
        rcu->head = cb->next;
        if (!rcu->head) {
            rcu->tail = NULL;
        }
        pthread_mutex_unlock(&rcu->mutex);

        cb->function(cb->arg);
        free(cb);
        n++;
        __atomic_fetch_sub(&rcu->n_pending, 1, __ATOMIC_RELAXED);
    }
}
