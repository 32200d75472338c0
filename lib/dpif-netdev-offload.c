/* dpif-netdev-offload: offload threads and flow marks.  See
 * dpif-netdev-offload.h.
 *
 * Ownership.  Each offload thread owns the megaflows whose UFID hashes to
 * it: their entries (mark, rule, list of copies) are its own, and it alone
 * writes their mark-to-flow entries and their copies' 'mark' and
 * 'mark_next', so none of that needs a lock.  The mark allocator is shared
 * (a mutex); marks come back through dp_rcu_postpone().  A request holds a
 * reference to its flow; a copy in a mark's list holds one too.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dpif-netdev-offload.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "coverage.h"
#include "dp-flow.h"
#include "dp-rcu.h"
#include "dpif-netdev-private.h"
#include "netdev-offload.h"
#include "netdev.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dpif_netdev_offload);

COVERAGE_DEFINE(dpif_offload_put);
COVERAGE_DEFINE(dpif_offload_put_fail);
COVERAGE_DEFINE(dpif_offload_mod_fail);
COVERAGE_DEFINE(dpif_offload_no_mark);

/* Weight of the exponential moving average of latencies: 2 / (N + 1). */
#define EMA_N 10

/* A released mark is handed out again only this long (ms) after its grace
 * period ended, and oldest first: a packet a NIC marked just before its
 * rule went may still wait in a receive ring, where RCU does not see it.
 * Atomic; tests set it to 0 (dp_offload_set_mark_reuse_ms()). */
static long long int mark_reuse_ms = 100;

/* Longest an idle offload thread sleeps between looks at its queue, ms
 * (a request wakes it at once). */
#define IDLE_POLL_MS 1000

enum req_type {
    REQ_PUT,
    REQ_MOD,
    REQ_DEL,
    REQ_FLUSH,
};

/* Completion of a flush, shared by the threads it went to. */
struct flush_done {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned int remaining;
};

struct req {
    struct req *next;                   /* In a queue. */
    enum req_type type;
    struct dp_flow *flow;               /* PUT, MOD, DEL: a reference. */
    struct netdev *netdev;              /* PUT, FLUSH. */
    const struct netdev_flow_api *api;  /* PUT. */
    int rxq_id;                         /* PUT. */
    long long int enqueued_us;
    struct flush_done *done;            /* FLUSH. */
};

/* An offloaded megaflow. */
struct entry {
    struct entry *hnext;                /* In its thread's table. */
    struct dp_ufid ufid;
    uint32_t mark;
    struct netdev *netdev;
    const struct netdev_flow_api *api;
    int rxq_id;
    struct dp_flow *copies;             /* Head: the mark-to-flow entry. */
    size_t n_copies;
};

struct offload_thread {
    struct dp_offload *ofl;
    unsigned int id;
    pthread_t thread;

    /* The queue (Vyukov's intrusive MPSC queue): producers swap 'head',
     * the thread consumes from 'tail'; 'stub' keeps it never empty. */
    struct req *head;                   /* Atomic. */
    struct req *tail;
    struct req stub;
    bool sleeping;                      /* Atomic: wake it through 'fd'. */
    int fd;                             /* eventfd. */
    bool exit;                          /* Atomic. */
    uint64_t n_queued;                  /* Atomic: requests not yet done. */

    /* The megaflows it owns, by UFID. */
    struct entry **buckets;
    size_t n_buckets;
    size_t n_entries;

    /* Statistics, read by the main thread. */
    pthread_mutex_t stats_mutex;
    uint64_t n_latencies;
    double cma_mean, cma_m2;            /* Welford's running variance. */
    double ema_mean, ema_var;
};

struct dp_offload {
    struct dp_netdev *dp;
    unsigned int n_threads;
    struct offload_thread threads[NETDEV_OFFLOAD_MAX_THREADS];

    /* Marks: 1 .. UINT32_MAX - 1 (0 is left unused, UINT32_MAX is
     * DP_FLOW_MARK_NONE).  Those given back wait in a FIFO ring; the oldest
     * is reused once mark_reuse_ms old, otherwise a fresh one comes from
     * 'next_mark'. */
    pthread_mutex_t mark_mutex;
    uint32_t next_mark;
    struct free_mark *free_marks;       /* Ring of 'allocated_free'. */
    size_t free_head, n_free, allocated_free;
};

struct free_mark {
    uint32_t mark;
    long long int released;             /* Msec. */
};

static void *offload_thread_main(void *);
static void enqueue(struct offload_thread *, struct req *);
static struct req *dequeue(struct offload_thread *);
static void entry_teardown(struct offload_thread *, struct entry *,
                           bool remove_rule);
static struct offload_thread *thread_for(struct dp_offload *,
                                         const struct dp_ufid *);
static struct req *req_create(enum req_type, struct dp_flow *);
static double square_root(double);

/* See dpif-netdev-offload.h. */
struct dp_offload *
dp_offload_create(struct dp_netdev *dp, unsigned int n_threads)
{
    struct dp_offload *ofl = xzalloc(sizeof *ofl);

    ofl->dp = dp;
    ofl->n_threads = MAX(1, MIN(n_threads, NETDEV_OFFLOAD_MAX_THREADS));
    ofl->next_mark = 1;
    pthread_mutex_init(&ofl->mark_mutex, NULL);
    for (unsigned int i = 0; i < ofl->n_threads; i++) {
        struct offload_thread *t = &ofl->threads[i];

        t->ofl = ofl;
        t->id = i;
        t->head = t->tail = &t->stub;
        t->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (t->fd < 0) {
            VLOG_FATAL("eventfd failed (%s)", util_strerror(errno));
        }
        t->n_buckets = 64;
        t->buckets = xcalloc(t->n_buckets, sizeof *t->buckets);
        pthread_mutex_init(&t->stats_mutex, NULL);
        int error = pthread_create(&t->thread, NULL, offload_thread_main, t);
        if (error) {
            VLOG_FATAL("cannot start an offload thread (%s)",
                       util_strerror(error));
        }
    }
    return ofl;
}

/* See dpif-netdev-offload.h. */
void
dp_offload_destroy(struct dp_offload *ofl)
{
    if (!ofl) {
        return;
    }
    for (unsigned int i = 0; i < ofl->n_threads; i++) {
        struct offload_thread *t = &ofl->threads[i];
        uint64_t one = 1;

        __atomic_store_n(&t->exit, true, __ATOMIC_RELEASE);
        if (write(t->fd, &one, sizeof one) < 0) {
            /* The counter is saturated: the thread is awake anyway. */
        }
        pthread_join(t->thread, NULL);
    }
    for (unsigned int i = 0; i < ofl->n_threads; i++) {
        struct offload_thread *t = &ofl->threads[i];

        for (size_t b = 0; b < t->n_buckets; b++) {
            while (t->buckets[b]) {
                entry_teardown(t, t->buckets[b], true);
            }
        }
        free(t->buckets);
        close(t->fd);
        pthread_mutex_destroy(&t->stats_mutex);
    }
    /* The marks given back above come home through RCU callbacks that
     * use 'ofl'. */
    dp_rcu_barrier(ofl->dp->rcu);
    pthread_mutex_destroy(&ofl->mark_mutex);
    free(ofl->free_marks);
    free(ofl);
}

/* See dpif-netdev-offload.h. */
void
dp_offload_flow_put(struct dp_offload *ofl, struct dp_flow *flow,
                    struct netdev *netdev, const struct netdev_flow_api *api,
                    int rxq_id)
{
    struct req *r = req_create(REQ_PUT, flow);

    r->netdev = netdev;
    r->api = api;
    r->rxq_id = rxq_id;
    enqueue(thread_for(ofl, &flow->ufid), r);
}

/* See dpif-netdev-offload.h. */
void
dp_offload_flow_mod(struct dp_offload *ofl, struct dp_flow *flow)
{
    enqueue(thread_for(ofl, &flow->ufid), req_create(REQ_MOD, flow));
}

/* See dpif-netdev-offload.h. */
void
dp_offload_flow_del(struct dp_offload *ofl, struct dp_flow *flow)
{
    enqueue(thread_for(ofl, &flow->ufid), req_create(REQ_DEL, flow));
}

/* See dpif-netdev-offload.h. */
void
dp_offload_port_flush(struct dp_offload *ofl, struct netdev *netdev)
{
    struct flush_done done;

    pthread_mutex_init(&done.mutex, NULL);
    pthread_cond_init(&done.cond, NULL);
    done.remaining = ofl->n_threads;
    for (unsigned int i = 0; i < ofl->n_threads; i++) {
        struct req *r = req_create(REQ_FLUSH, NULL);

        r->netdev = netdev;
        r->done = &done;
        enqueue(&ofl->threads[i], r);
    }
    pthread_mutex_lock(&done.mutex);
    while (done.remaining) {
        pthread_cond_wait(&done.cond, &done.mutex);
    }
    pthread_mutex_unlock(&done.mutex);
    pthread_mutex_destroy(&done.mutex);
    pthread_cond_destroy(&done.cond);
}

/* See dpif-netdev-offload.h. */
unsigned int
dp_offload_n_threads(const struct dp_offload *ofl)
{
    return ofl ? ofl->n_threads : 0;
}

/* See dpif-netdev-offload.h. */
void
dp_offload_get_stats(struct dp_offload *ofl, unsigned int id,
                     struct dp_offload_stats *s)
{
    struct offload_thread *t = &ofl->threads[id];

    memset(s, 0, sizeof *s);
    s->enqueued = __atomic_load_n(&t->n_queued, __ATOMIC_RELAXED);
    pthread_mutex_lock(&t->stats_mutex);
    s->inserted = t->n_entries;
    s->n_latencies = t->n_latencies;
    s->cma_mean = t->cma_mean;
    s->cma_stddev = (t->n_latencies > 1
                     ? square_root(t->cma_m2 / (t->n_latencies - 1)) : 0);
    s->ema_mean = t->ema_mean;
    s->ema_stddev = square_root(t->ema_var);
    pthread_mutex_unlock(&t->stats_mutex);
}

void
dp_offload_set_mark_reuse_ms(long long int ms)
{
    __atomic_store_n(&mark_reuse_ms, ms, __ATOMIC_RELAXED);
}

static struct offload_thread *
thread_for(struct dp_offload *ofl, const struct dp_ufid *ufid)
{
    return &ofl->threads[ufid->u32[0] % ofl->n_threads];
}

static struct req *
req_create(enum req_type type, struct dp_flow *flow)
{
    struct req *r = xzalloc(sizeof *r);

    r->type = type;
    if (flow) {
        dp_flow_ref(flow);
        r->flow = flow;
    }
    r->enqueued_us = time_usec();
    return r;
}

/* Square root by Newton's method (no libm for one statistic). */
static double
square_root(double x)
{
    if (x <= 0) {
        return 0;
    }
    double r = x >= 1 ? x : 1;
    for (int i = 0; i < 64; i++) {
        double next = (r + x / r) / 2;
        if (next >= r) {
            break;
        }
        r = next;
    }
    return r;
}

/* The queue. */

static void
push(struct offload_thread *t, struct req *r)
{
    __atomic_store_n(&r->next, NULL, __ATOMIC_RELAXED);
    struct req *prev = __atomic_exchange_n(&t->head, r, __ATOMIC_ACQ_REL);
    __atomic_store_n(&prev->next, r, __ATOMIC_RELEASE);
}

/* Queues 'r' for 't' and wakes it if it sleeps.  Never blocks. */
static void
enqueue(struct offload_thread *t, struct req *r)
{
    __atomic_add_fetch(&t->n_queued, 1, __ATOMIC_RELAXED);
    push(t, r);
    if (__atomic_exchange_n(&t->sleeping, false, __ATOMIC_SEQ_CST)) {
        uint64_t one = 1;

        if (write(t->fd, &one, sizeof one) < 0) {
            /* Saturated counter: the thread will wake anyway. */
        }
    }
}

/* Returns the oldest request of 't', or NULL if there is none (or a
 * producer is half way through a push: the thread looks again later). */
static struct req *
dequeue(struct offload_thread *t)
{
    struct req *tail = t->tail;
    struct req *next = __atomic_load_n(&tail->next, __ATOMIC_ACQUIRE);

    if (tail == &t->stub) {
        if (!next) {
            return NULL;
        }
        t->tail = tail = next;
        next = __atomic_load_n(&next->next, __ATOMIC_ACQUIRE);
    }
    if (next) {
        t->tail = next;
        return tail;
    }
    if (tail != __atomic_load_n(&t->head, __ATOMIC_ACQUIRE)) {
        return NULL;
    }
    push(t, &t->stub);
    next = __atomic_load_n(&tail->next, __ATOMIC_ACQUIRE);
    if (next) {
        t->tail = next;
        return tail;
    }
    return NULL;
}

/* Marks. */

static uint32_t
mark_alloc(struct dp_offload *ofl)
{
    uint32_t mark = DP_FLOW_MARK_NONE;

    pthread_mutex_lock(&ofl->mark_mutex);
    const struct free_mark *oldest = (ofl->n_free
                                      ? &ofl->free_marks[ofl->free_head]
                                      : NULL);
    if (oldest && (time_msec() - oldest->released
                   >= __atomic_load_n(&mark_reuse_ms, __ATOMIC_RELAXED)
                   || ofl->next_mark >= DP_FLOW_MARK_NONE)) {
        mark = oldest->mark;
        ofl->free_head = (ofl->free_head + 1) % ofl->allocated_free;
        ofl->n_free--;
    } else if (ofl->next_mark < DP_FLOW_MARK_NONE) {
        mark = ofl->next_mark++;
    }
    pthread_mutex_unlock(&ofl->mark_mutex);
    return mark;
}

static void
mark_free(struct dp_offload *ofl, uint32_t mark)
{
    pthread_mutex_lock(&ofl->mark_mutex);
    if (ofl->n_free >= ofl->allocated_free) {
        /* Grow the ring, unwrapped. */
        size_t n = ofl->allocated_free ? 2 * ofl->allocated_free : 64;
        struct free_mark *ring = xmalloc(n * sizeof *ring);

        for (size_t i = 0; i < ofl->n_free; i++) {
            ring[i] = ofl->free_marks[(ofl->free_head + i)
                                      % ofl->allocated_free];
        }
        free(ofl->free_marks);
        ofl->free_marks = ring;
        ofl->free_head = 0;
        ofl->allocated_free = n;
    }
    struct free_mark *fm = &ofl->free_marks[(ofl->free_head + ofl->n_free)
                                            % ofl->allocated_free];
    fm->mark = mark;
    fm->released = time_msec();
    ofl->n_free++;
    pthread_mutex_unlock(&ofl->mark_mutex);
}

struct mark_release {
    struct dp_offload *ofl;
    uint32_t mark;
};

static void
mark_release_cb(void *arg)
{
    struct mark_release *mr = arg;

    mark_free(mr->ofl, mr->mark);
    free(mr);
}

/* Gives 'mark', no longer published, back once every polling thread has
 * been through a quiescent state: a packet some thread read with the mark
 * before can no longer be on its way. */
static void
mark_release(struct dp_offload *ofl, uint32_t mark)
{
    struct mark_release *mr = xmalloc(sizeof *mr);

    mr->ofl = ofl;
    mr->mark = mark;
    dp_rcu_postpone(ofl->dp->rcu, mark_release_cb, mr);
}

/* Entries. */

static size_t
ufid_bucket(const struct offload_thread *t, const struct dp_ufid *ufid)
{
    return (ufid->u32[1] ^ ufid->u32[2]) & (t->n_buckets - 1);
}

static struct entry *
entry_find(const struct offload_thread *t, const struct dp_ufid *ufid)
{
    for (struct entry *e = t->buckets[ufid_bucket(t, ufid)]; e;
         e = e->hnext) {
        if (dp_flow_ufid_equal(&e->ufid, ufid)) {
            return e;
        }
    }
    return NULL;
}

static void
entry_insert(struct offload_thread *t, struct entry *e)
{
    if (t->n_entries >= t->n_buckets) {
        size_t n = t->n_buckets * 2;
        struct entry **buckets = xcalloc(n, sizeof *buckets);
        size_t old_n = t->n_buckets;
        struct entry **old = t->buckets;

        t->buckets = buckets;
        t->n_buckets = n;
        for (size_t b = 0; b < old_n; b++) {
            for (struct entry *x = old[b], *next; x; x = next) {
                size_t nb = ufid_bucket(t, &x->ufid);

                next = x->hnext;
                x->hnext = buckets[nb];
                buckets[nb] = x;
            }
        }
        free(old);
    }
    size_t b = ufid_bucket(t, &e->ufid);
    e->hnext = t->buckets[b];
    t->buckets[b] = e;
    pthread_mutex_lock(&t->stats_mutex);
    t->n_entries++;
    pthread_mutex_unlock(&t->stats_mutex);
}

static void
entry_remove(struct offload_thread *t, struct entry *e)
{
    for (struct entry **p = &t->buckets[ufid_bucket(t, &e->ufid)]; *p;
         p = &(*p)->hnext) {
        if (*p == e) {
            *p = e->hnext;
            break;
        }
    }
    pthread_mutex_lock(&t->stats_mutex);
    t->n_entries--;
    pthread_mutex_unlock(&t->stats_mutex);
}

/* Adds 'flow', whose reference the list takes over, to the copies of 'e'
 * and publishes it. */
static void
entry_link(struct offload_thread *t, struct entry *e, struct dp_flow *flow)
{
    __atomic_store_n(&flow->mark_next, e->copies, __ATOMIC_RELAXED);
    e->copies = flow;
    e->n_copies++;
    dp_netdev_set_mark_to_flow(t->ofl->dp, e->mark, flow);
    /* Last, so that whoever sees the flow's mark (dpctl/dump-flows'
     * "offloaded:partial", a test) finds the flow by it. */
    dp_flow_set_mark(flow, e->mark);
}

/* Removes 'flow' from the copies of 'e', if it is there, and drops the
 * list's reference.  Returns true if it was there.  A PMD walking the list
 * may still be on 'flow': its 'mark_next' stays as it was, and RCU keeps
 * its memory. */
static bool
entry_unlink(struct offload_thread *t, struct entry *e, struct dp_flow *flow)
{
    struct dp_flow *prev = NULL;

    for (struct dp_flow *f = e->copies; f; prev = f, f = f->mark_next) {
        if (f == flow) {
            struct dp_flow *next = f->mark_next;

            if (prev) {
                __atomic_store_n(&prev->mark_next, next, __ATOMIC_RELEASE);
            } else {
                e->copies = next;
                dp_netdev_set_mark_to_flow(t->ofl->dp, e->mark, next);
            }
            e->n_copies--;
            dp_flow_set_mark(flow, DP_FLOW_MARK_NONE);
            dp_flow_unref(flow);
            return true;
        }
    }
    return false;
}

/* Unlinks every copy of 'e', removes its rule (if 'remove_rule'), releases
 * its mark and frees it. */
static void
entry_teardown(struct offload_thread *t, struct entry *e, bool remove_rule)
{
    entry_remove(t, e);
    dp_netdev_set_mark_to_flow(t->ofl->dp, e->mark, NULL);
    while (e->copies) {
        struct dp_flow *f = e->copies;

        e->copies = f->mark_next;
        dp_flow_set_mark(f, DP_FLOW_MARK_NONE);
        dp_flow_unref(f);
    }
    if (remove_rule) {
        netdev_offload_flow_del(e->api, e->netdev, &e->ufid);
    }
    mark_release(t->ofl, e->mark);
    free(e);
}

/* Requests. */

/* Asks 'api' to create, or modify, the rule of 'netdev' that stamps 'mark'
 * on the packets of 'flow' and steers them to rx queue 'rxq_id'.  Returns 0
 * or an errno value. */
static int
rule_put(const struct netdev_flow_api *api, struct netdev *netdev,
         const struct dp_flow *flow, uint32_t mark, int rxq_id)
{
    struct netdev_offload_match match;
    struct netdev_offload_info info = { .mark = mark, .rxq_id = rxq_id };

    netdev_offload_match_from_flow(&match, flow);
    return netdev_offload_flow_put(api, netdev, &match, &flow->ufid, &info);
}

static void
do_put(struct offload_thread *t, struct req *r)
{
    struct dp_flow *flow = r->flow;

    if (dp_flow_is_dead(flow) || dp_flow_get_mark(flow) != DP_FLOW_MARK_NONE) {
        return;
    }

    struct entry *e = entry_find(t, &flow->ufid);
    if (e) {
        /* Another PMD's copy of an offloaded megaflow: same mark. */
        dp_flow_ref(flow);
        entry_link(t, e, flow);
        return;
    }

    uint32_t mark = mark_alloc(t->ofl);
    if (mark == DP_FLOW_MARK_NONE) {
        COVERAGE_INC(dpif_offload_no_mark);
        return;
    }

    int error = rule_put(r->api, r->netdev, flow, mark, r->rxq_id);
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
        char ufid[DP_UFID_STRLEN];

        COVERAGE_INC(dpif_offload_put_fail);
        dp_flow_ufid_format(&flow->ufid, ufid);
        if (error == EOPNOTSUPP) {
            VLOG_DBG_RL(&rl, "%s: %s not offloaded: the device cannot "
                        "express it", netdev_get_name(r->netdev), ufid);
        } else {
            VLOG_WARN_RL(&rl, "%s: %s not offloaded: %s",
                         netdev_get_name(r->netdev), ufid,
                         util_strerror(error));
        }
        /* Never published: no grace period needed. */
        mark_free(t->ofl, mark);
        return;
    }
    COVERAGE_INC(dpif_offload_put);

    e = xzalloc(sizeof *e);
    e->ufid = flow->ufid;
    e->mark = mark;
    e->netdev = r->netdev;
    e->api = r->api;
    e->rxq_id = r->rxq_id;
    entry_insert(t, e);
    dp_flow_ref(flow);
    entry_link(t, e, flow);
}

static void
do_mod(struct offload_thread *t, struct req *r)
{
    struct dp_flow *flow = r->flow;
    struct entry *e = entry_find(t, &flow->ufid);

    if (!e || dp_flow_get_mark(flow) != e->mark || dp_flow_is_dead(flow)) {
        return;
    }

    if (rule_put(e->api, e->netdev, flow, e->mark, e->rxq_id)) {
        /* The rule is gone: the megaflow stays in software. */
        COVERAGE_INC(dpif_offload_mod_fail);
        entry_teardown(t, e, false);
    }
}

static void
do_del(struct offload_thread *t, struct req *r)
{
    struct dp_flow *flow = r->flow;
    struct entry *e = entry_find(t, &flow->ufid);

    if (e && entry_unlink(t, e, flow) && !e->n_copies) {
        entry_teardown(t, e, true);
    }
}

static void
do_flush(struct offload_thread *t, struct req *r)
{
    /* The device forgets the rules first, so that the marks released below
     * are no longer put on any packet when their grace period starts. */
    for (size_t b = 0; b < t->n_buckets; b++) {
        for (struct entry *e = t->buckets[b]; e; e = e->hnext) {
            if (e->netdev == r->netdev) {
                netdev_offload_flow_flush(e->api, r->netdev);
                goto flushed;
            }
        }
    }
flushed:
    for (size_t b = 0; b < t->n_buckets; b++) {
        for (struct entry *e = t->buckets[b], *next; e; e = next) {
            next = e->hnext;
            if (e->netdev == r->netdev) {
                entry_teardown(t, e, false);
            }
        }
    }

    struct flush_done *done = r->done;
    pthread_mutex_lock(&done->mutex);
    if (!--done->remaining) {
        pthread_cond_signal(&done->cond);
    }
    pthread_mutex_unlock(&done->mutex);
}

static void
account_latency(struct offload_thread *t, long long int enqueued_us)
{
    double x = time_usec() - enqueued_us;
    const double alpha = 2.0 / (EMA_N + 1);

    pthread_mutex_lock(&t->stats_mutex);
    t->n_latencies++;
    double delta = x - t->cma_mean;
    t->cma_mean += delta / t->n_latencies;
    t->cma_m2 += delta * (x - t->cma_mean);
    if (t->n_latencies == 1) {
        t->ema_mean = x;
        t->ema_var = 0;
    } else {
        double d = x - t->ema_mean;
        t->ema_mean += alpha * d;
        t->ema_var = (1 - alpha) * (t->ema_var + alpha * d * d);
    }
    pthread_mutex_unlock(&t->stats_mutex);
}

static void
process(struct offload_thread *t, struct req *r)
{
    switch (r->type) {
    case REQ_PUT:
        do_put(t, r);
        break;
    case REQ_MOD:
        do_mod(t, r);
        break;
    case REQ_DEL:
        do_del(t, r);
        break;
    case REQ_FLUSH:
        do_flush(t, r);
        break;
    }
    if (r->type != REQ_FLUSH) {
        account_latency(t, r->enqueued_us);
    }
    if (r->flow) {
        dp_flow_unref(r->flow);
    }
    __atomic_sub_fetch(&t->n_queued, 1, __ATOMIC_RELAXED);
    free(r);
}

static void *
offload_thread_main(void *t_)
{
    struct offload_thread *t = t_;
    char name[16];

    snprintf(name, sizeof name, "hw_offload%u", t->id);
    pthread_setname_np(pthread_self(), name);
    vlog_set_thread_name(name);

    for (;;) {
        struct req *r = dequeue(t);

        if (r) {
            process(t, r);
            continue;
        }
        if (__atomic_load_n(&t->exit, __ATOMIC_ACQUIRE)
            && !__atomic_load_n(&t->n_queued, __ATOMIC_RELAXED)) {
            break;
        }

        /* Sleep until a producer sees 'sleeping' and writes the eventfd;
         * look at the queue once more after saying so, in case a request
         * came in between. */
        __atomic_store_n(&t->sleeping, true, __ATOMIC_SEQ_CST);
        r = dequeue(t);
        if (r) {
            __atomic_store_n(&t->sleeping, false, __ATOMIC_RELAXED);
            process(t, r);
            continue;
        }
        struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
        int timeout = (__atomic_load_n(&t->n_queued, __ATOMIC_RELAXED)
                       ? 1 : IDLE_POLL_MS);
        if (poll(&pfd, 1, timeout) > 0) {
            uint64_t n;
            if (read(t->fd, &n, sizeof n) < 0) {
                /* Nothing to read after all. */
            }
        }
        __atomic_store_n(&t->sleeping, false, __ATOMIC_RELAXED);
    }
    return NULL;
}
