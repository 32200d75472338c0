/* Coverage counters: named event counters any module bumps cheaply.
 *
 * Define a counter once, at file scope, in the file that counts it:
 *
 *     COVERAGE_DEFINE(unixctl_received);
 *
 * and count with COVERAGE_INC(unixctl_received) or COVERAGE_ADD(name, n).
 * Another file may count it too after COVERAGE_DECLARE(name).  Names are
 * global: two definitions of one name fail to link.
 *
 * Counting is per thread: the fast path is one load of a thread-local
 * pointer, a never-taken branch and a plain add to the thread's own slot, no
 * lock and no atomic read-modify-write.  Readers sum the slots of all
 * threads (and of threads that have exited).
 *
 * Rates.  The main loop of a daemon calls coverage_run() on every iteration;
 * once a second it takes a sample of every counter's total, keeping the last
 * minute of per-second samples and the last hour of per-minute ones, from
 * which "coverage/show" computes the average rate over the last 5 seconds,
 * minute and hour (each averaged over the whole window, so rates ramp up
 * after start-up).  A loop that sleeps for several seconds records the
 * events of the sleep in the second it wakes up.
 *
 * unixctl commands (coverage_register_unixctl_commands()):
 *   coverage/show                  one line per counter that was hit
 *   coverage/read-counter COUNTER  the total of one counter
 *
 * Thread safety: COVERAGE_INC/ADD from any thread; the other functions from
 * any thread too (they take an internal lock).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef COVERAGE_H
#define COVERAGE_H 1

#include <stdbool.h>
#include "compiler.h"

/* Most counters a program may define. */
#define COVERAGE_MAX_COUNTERS 1024

/* A counter.  Only coverage.c looks inside. */
struct coverage_counter {
    const char *name;              /* As given to COVERAGE_DEFINE. */
    unsigned int index;            /* Slot in every thread's array. */
    struct coverage_counter *next; /* All counters, in registration order. */
};

/* One thread's counts, indexed by 'struct coverage_counter''s 'index'. */
struct coverage_thread {
    unsigned long long int counts[COVERAGE_MAX_COUNTERS];
    struct coverage_thread *next;  /* All live threads. */
};

extern __thread struct coverage_thread *coverage_thread_self;

void coverage_counter_register(struct coverage_counter *);
struct coverage_thread *coverage_thread_init(void);

#define COVERAGE_DEFINE(NAME)                                       \
    struct coverage_counter coverage_counter_##NAME = { #NAME, 0, NULL }; \
    DPS_CONSTRUCTOR(coverage_register_##NAME)                       \
    {                                                               \
        coverage_counter_register(&coverage_counter_##NAME);        \
    }                                                               \
    struct coverage_dummy_##NAME  /* Requires a semicolon. */

#define COVERAGE_DECLARE(NAME) \
    extern struct coverage_counter coverage_counter_##NAME

#define COVERAGE_INC(NAME) COVERAGE_ADD(NAME, 1)
#define COVERAGE_ADD(NAME, N) coverage_add__(&coverage_counter_##NAME, (N))

/* Adds 'n' to the calling thread's count of 'counter'.  Relaxed atomic
 * loads and stores compile to plain moves; they make the concurrent reads
 * by coverage_read() well defined. */
static inline void
coverage_add__(const struct coverage_counter *counter,
               unsigned long long int n)
{
    struct coverage_thread *thread = coverage_thread_self;
    unsigned long long int *slot;

    if (unlikely(!thread)) {
        thread = coverage_thread_init();
    }
    slot = &thread->counts[counter->index];
    __atomic_store_n(slot, __atomic_load_n(slot, __ATOMIC_RELAXED) + n,
                     __ATOMIC_RELAXED);
}

bool coverage_read(const char *name, unsigned long long int *total);
void coverage_run(void);
char *coverage_show(void);
void coverage_register_unixctl_commands(void);

#endif /* coverage.h */
