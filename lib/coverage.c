/* Licensed under the Apache License, Version 2.0 (see LICENSE).
 *
 * 'coverage_mutex' guards the lists of counters and threads, the counts of
 * exited threads and the rate samples.  The per-thread counts themselves
 * are written without a lock by their own thread only, and read here with
 * relaxed atomic loads. */

#include <config.h>
#include "coverage.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

/* Sampling: one sample a second, a minute of them, an hour of minutes. */
#define COVERAGE_SAMPLE_MSEC 1000
#define COVERAGE_N_SECONDS 60
#define COVERAGE_N_MINUTES 60

/* The rate history of one counter. */
struct coverage_history {
    unsigned long long int last_total;  /* Total at the last sample. */
    unsigned long long int seconds[COVERAGE_N_SECONDS];  /* Deltas. */
    unsigned long long int minutes[COVERAGE_N_MINUTES];  /* Deltas. */
};

__thread struct coverage_thread *coverage_thread_self;

static pthread_mutex_t coverage_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Guarded by 'coverage_mutex'. */
static struct coverage_counter *coverage_counters;
static struct coverage_counter **coverage_counters_tail = &coverage_counters;
static unsigned int coverage_n_counters;
static struct coverage_thread *coverage_threads;
static unsigned long long int coverage_exited[COVERAGE_MAX_COUNTERS];
static struct coverage_history *coverage_histories;
static long long int coverage_next_sample;     /* 0: not started. */
static unsigned int coverage_second_pos;       /* Next slot in 'seconds'. */
static unsigned int coverage_minute_pos;       /* Next slot in 'minutes'. */
static unsigned long long int coverage_n_samples;

static pthread_key_t coverage_key;
static pthread_once_t coverage_key_once = PTHREAD_ONCE_INIT;

static unsigned long long int coverage_total__(unsigned int index);
static void coverage_sample__(unsigned int n_seconds);
static double coverage_window_rate(const unsigned long long int *deltas,
                                   unsigned int n, unsigned int pos,
                                   unsigned int span, double seconds);
static int coverage_compare_names(const void *, const void *);
static void coverage_create_key(void);
static void coverage_thread_exit(void *);
static void coverage_unixctl_show(struct unixctl_conn *, int argc,
                                  const char *argv[], void *aux);
static void coverage_unixctl_read_counter(struct unixctl_conn *, int argc,
                                          const char *argv[], void *aux);

/* Adds 'counter' to the list of counters, giving it a slot.  Called by the
 * constructor that COVERAGE_DEFINE defines; aborts if there are more than
 * COVERAGE_MAX_COUNTERS. */
void
coverage_counter_register(struct coverage_counter *counter)
{
    pthread_mutex_lock(&coverage_mutex);
    util_assert(coverage_n_counters < COVERAGE_MAX_COUNTERS);
    counter->index = coverage_n_counters++;
    counter->next = NULL;
    *coverage_counters_tail = counter;
    coverage_counters_tail = &counter->next;
    pthread_mutex_unlock(&coverage_mutex);
}

/* Creates the calling thread's counts, on its first count.  Called by
 * COVERAGE_ADD; returns the new counts, also stored in
 * 'coverage_thread_self'.  When the thread exits, its counts are folded into
 * those of exited threads. */
struct coverage_thread *
coverage_thread_init(void)
{
    struct coverage_thread *thread = xzalloc(sizeof *thread);

    pthread_once(&coverage_key_once, coverage_create_key);
    pthread_mutex_lock(&coverage_mutex);
    thread->next = coverage_threads;
    coverage_threads = thread;
    pthread_mutex_unlock(&coverage_mutex);

    pthread_setspecific(coverage_key, thread);
    coverage_thread_self = thread;
    return thread;
}

/* Looks up the counter named 'name'.  If it exists, stores its total over
 * all threads in '*total' and returns true; otherwise returns false. */
bool
coverage_read(const char *name, unsigned long long int *total)
{
    bool found = false;

    pthread_mutex_lock(&coverage_mutex);
    for (struct coverage_counter *c = coverage_counters; c; c = c->next) {
        if (!strcmp(c->name, name)) {
            *total = coverage_total__(c->index);
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&coverage_mutex);
    return found;
}

/* Takes the rate samples that are due.  Call it from the main loop of the
 * program on every iteration: it costs one clock read unless a second has
 * passed since the last sample. */
void
coverage_run(void)
{
    long long int now = time_msec();

    pthread_mutex_lock(&coverage_mutex);
    if (!coverage_next_sample) {
        coverage_histories = xcalloc(COVERAGE_MAX_COUNTERS,
                                     sizeof *coverage_histories);
        for (unsigned int i = 0; i < coverage_n_counters; i++) {
            coverage_histories[i].last_total = coverage_total__(i);
        }
        coverage_next_sample = now + COVERAGE_SAMPLE_MSEC;
    } else if (now >= coverage_next_sample) {
        long long int n = 1 + (now - coverage_next_sample)
                              / COVERAGE_SAMPLE_MSEC;

        /* Beyond a minute and an hour of silence, all windows are empty
         * anyway. */
        coverage_sample__(MIN(n, (COVERAGE_N_MINUTES + 1)
                                 * COVERAGE_N_SECONDS));
        coverage_next_sample += n * COVERAGE_SAMPLE_MSEC;
    }
    pthread_mutex_unlock(&coverage_mutex);
}

/* Returns the "coverage/show" report, which the caller must free: a header
 * with a hash of the names of the counters that were hit, one line per such
 * counter (by name) with its average rates and total, and the number of
 * counters never hit. */
char *
coverage_show(void)
{
    struct coverage_counter **hit;
    struct ds s = DS_EMPTY_INITIALIZER;
    unsigned int n_hit = 0, n_never = 0;
    uint32_t hash = 2166136261u;      /* FNV-1a offset basis. */

    coverage_run();
    pthread_mutex_lock(&coverage_mutex);
    hit = xcalloc(coverage_n_counters, sizeof *hit);
    for (struct coverage_counter *c = coverage_counters; c; c = c->next) {
        if (coverage_total__(c->index)) {
            hit[n_hit++] = c;
        } else {
            n_never++;
        }
    }
    qsort(hit, n_hit, sizeof *hit, coverage_compare_names);
    for (unsigned int i = 0; i < n_hit; i++) {
        for (const char *p = hit[i]->name; ; p++) {
            hash = (hash ^ (unsigned char) *p) * 16777619u;
            if (!*p) {
                break;
            }
        }
    }

    ds_put_format(&s, "Event coverage, avg rate over last: 5 seconds, "
                  "last minute, last hour,  hash=%08x:\n", hash);
    for (unsigned int i = 0; i < n_hit; i++) {
        unsigned int index = hit[i]->index;
        double sec5 = 0, minute = 0, hour = 0;

        if (coverage_histories) {
            const struct coverage_history *h = &coverage_histories[index];

            sec5 = coverage_window_rate(h->seconds, COVERAGE_N_SECONDS,
                                        coverage_second_pos, 5, 5.0);
            minute = coverage_window_rate(h->seconds, COVERAGE_N_SECONDS,
                                          coverage_second_pos,
                                          COVERAGE_N_SECONDS, 60.0);
            hour = coverage_window_rate(h->minutes, COVERAGE_N_MINUTES,
                                        coverage_minute_pos,
                                        COVERAGE_N_MINUTES, 3600.0);
        }
        ds_put_format(&s, "%-24s %5.1f/sec %9.3f/sec %13.4f/sec   "
                      "total: %llu\n", hit[i]->name, sec5, minute, hour,
                      coverage_total__(index));
    }
    ds_put_format(&s, "%u events never hit\n", n_never);
    pthread_mutex_unlock(&coverage_mutex);

    free(hit);
    return ds_steal_cstr(&s);
}

/* Registers the unixctl commands "coverage/show" and
 * "coverage/read-counter COUNTER".  Idempotent. */
void
coverage_register_unixctl_commands(void)
{
    static int registered;

    if (__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL)) {
        return;
    }
    unixctl_command_register("coverage/show", "", 0, 0,
                             coverage_unixctl_show, NULL);
    unixctl_command_register("coverage/read-counter", "COUNTER", 1, 1,
                             coverage_unixctl_read_counter, NULL);
}

/* Returns the total of the counter in slot 'index' over all threads, live
 * and exited.  Caller holds 'coverage_mutex'. */
static unsigned long long int
coverage_total__(unsigned int index)
{
    unsigned long long int total = coverage_exited[index];

    for (struct coverage_thread *t = coverage_threads; t; t = t->next) {
        total += __atomic_load_n(&t->counts[index], __ATOMIC_RELAXED);
    }
    return total;
}

/* Records 'n_seconds' samples: each counter's increase since the last
 * sample goes into the newest second, zeros into the ones before it.  Every
 * sixtieth second, the minute that ends is added to the hour.  Caller holds
 * 'coverage_mutex'. */
static void
coverage_sample__(unsigned int n_seconds)
{
    for (unsigned int k = 0; k < n_seconds; k++) {
        bool last = k == n_seconds - 1;

        for (unsigned int i = 0; i < coverage_n_counters; i++) {
            struct coverage_history *h = &coverage_histories[i];
            unsigned long long int delta = 0;

            if (last) {
                unsigned long long int total = coverage_total__(i);

                delta = total - h->last_total;
                h->last_total = total;
            }
            h->seconds[coverage_second_pos] = delta;
        }
        coverage_second_pos = (coverage_second_pos + 1) % COVERAGE_N_SECONDS;
        coverage_n_samples++;

        if (coverage_n_samples % COVERAGE_N_SECONDS == 0) {
            for (unsigned int i = 0; i < coverage_n_counters; i++) {
                struct coverage_history *h = &coverage_histories[i];
                unsigned long long int sum = 0;

                for (unsigned int j = 0; j < COVERAGE_N_SECONDS; j++) {
                    sum += h->seconds[j];
                }
                h->minutes[coverage_minute_pos] = sum;
            }
            coverage_minute_pos = ((coverage_minute_pos + 1)
                                   % COVERAGE_N_MINUTES);
        }
    }
}

/* Returns the sum of the 'span' newest of the 'n' entries of ring 'deltas'
 * (whose next slot is 'pos'), divided by 'seconds'. */
static double
coverage_window_rate(const unsigned long long int *deltas, unsigned int n,
                     unsigned int pos, unsigned int span, double seconds)
{
    unsigned long long int sum = 0;

    for (unsigned int i = 1; i <= span; i++) {
        sum += deltas[(pos + n - i) % n];
    }
    return sum / seconds;
}

static int
coverage_compare_names(const void *a_, const void *b_)
{
    const struct coverage_counter *const *a = a_;
    const struct coverage_counter *const *b = b_;

    return strcmp((*a)->name, (*b)->name);
}

static void
coverage_create_key(void)
{
    if (pthread_key_create(&coverage_key, coverage_thread_exit)) {
        util_fatal(0, "pthread_key_create failed");
    }
}

/* Thread-exit destructor: folds the exiting thread's counts into
 * 'coverage_exited' and frees them. */
static void
coverage_thread_exit(void *thread_)
{
    struct coverage_thread *thread = thread_;

    pthread_mutex_lock(&coverage_mutex);
    for (struct coverage_thread **p = &coverage_threads; *p;
         p = &(*p)->next) {
        if (*p == thread) {
            *p = thread->next;
            break;
        }
    }
    for (unsigned int i = 0; i < coverage_n_counters; i++) {
        coverage_exited[i] += thread->counts[i];
    }
    pthread_mutex_unlock(&coverage_mutex);

    /* A destructor that runs later may count again: it gets fresh counts. */
    coverage_thread_self = NULL;
    free(thread);
}

/* "coverage/show". */
static void
coverage_unixctl_show(struct unixctl_conn *conn, int argc DPS_UNUSED,
                      const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    char *report = coverage_show();

    unixctl_command_reply(conn, report);
    free(report);
}

/* "coverage/read-counter COUNTER". */
static void
coverage_unixctl_read_counter(struct unixctl_conn *conn,
                              int argc DPS_UNUSED, const char *argv[],
                              void *aux DPS_UNUSED)
{
    unsigned long long int total;

    if (coverage_read(argv[1], &total)) {
        char *text = xasprintf("%llu\n", total);

        unixctl_command_reply(conn, text);
        free(text);
    } else {
        unixctl_command_reply_error(conn, "No such counter");
    }
}
