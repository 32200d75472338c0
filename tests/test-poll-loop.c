/* Unit tests for lib/poll-loop.c and lib/latch.c.
 *
 * Timing checks allow for the millisecond rounding of time_msec() on the
 * low side and for a loaded machine on the high side: a wait that should
 * return at once must return well under a second, never "within 1 ms".
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include "latch.h"
#include "poll-loop.h"
#include "timeval.h"
#include "util.h"

/* Longest a wait that should end at once may take. */
#define PROMPT_MSEC 500

/* A timer much longer than any test, to show that something else woke the
 * loop. */
#define LONG_MSEC 30000

/* Runs poll_block() and returns how long it slept, in milliseconds. */
static long long int
timed_poll_block(void)
{
    long long int start = time_msec();

    poll_block();
    return time_msec() - start;
}

static void
make_pipe(int fds[2])
{
    assert_int_equal(pipe(fds), 0);
}

static void
close_pipe(int fds[2])
{
    close(fds[0]);
    close(fds[1]);
}

static void
test_timer(void **state DPS_UNUSED)
{
    long long int elapsed;

    poll_timer_wait(60);
    elapsed = timed_poll_block();
    assert_true(elapsed >= 58);
    assert_true(elapsed < 60 + PROMPT_MSEC);
}

static void
test_earliest_timer_wins(void **state DPS_UNUSED)
{
    long long int elapsed;

    poll_timer_wait(LONG_MSEC);
    poll_timer_wait(40);
    poll_timer_wait(LONG_MSEC / 2);
    poll_timer_wait_until(time_msec() + LONG_MSEC);
    elapsed = timed_poll_block();
    assert_true(elapsed >= 38);
    assert_true(elapsed < 40 + PROMPT_MSEC);

    poll_timer_wait_until(time_msec() + 30);
    poll_timer_wait(LONG_MSEC);
    elapsed = timed_poll_block();
    assert_true(elapsed >= 28);
    assert_true(elapsed < 30 + PROMPT_MSEC);
}

static void
test_expired_timers(void **state DPS_UNUSED)
{
    /* Zero, negative and past deadlines mean "now". */
    poll_timer_wait(0);
    assert_true(poll_immediate_pending());
    assert_true(timed_poll_block() < PROMPT_MSEC);

    poll_timer_wait(-100);
    assert_true(timed_poll_block() < PROMPT_MSEC);

    poll_timer_wait_until(time_msec() - 1000);
    assert_true(timed_poll_block() < PROMPT_MSEC);

    /* Huge ones do not overflow into the past. */
    poll_timer_wait(LLONG_MAX);
    poll_timer_wait(LLONG_MAX - 1);
    assert_false(poll_immediate_pending());
    poll_immediate_wake();
    assert_true(timed_poll_block() < PROMPT_MSEC);
}

static void
test_immediate_wake(void **state DPS_UNUSED)
{
    assert_false(poll_immediate_pending());
    poll_timer_wait(LONG_MSEC);
    assert_false(poll_immediate_pending());
    poll_immediate_wake();
    assert_true(poll_immediate_pending());

    /* A later timer does not undo it. */
    poll_timer_wait(LONG_MSEC);
    assert_true(poll_immediate_pending());
    assert_true(timed_poll_block() < PROMPT_MSEC);

    /* poll_block() forgets it. */
    assert_false(poll_immediate_pending());
}

static void
test_fd_ready(void **state DPS_UNUSED)
{
    int fds[2];

    make_pipe(fds);

    /* A pipe's write end is writable at once. */
    poll_fd_wait(fds[1], POLLOUT);
    poll_timer_wait(LONG_MSEC);
    assert_true(timed_poll_block() < PROMPT_MSEC);

    /* The read end becomes readable once there is data. */
    assert_int_equal(write(fds[1], "x", 1), 1);
    poll_fd_wait(fds[0], POLLIN);
    poll_timer_wait(LONG_MSEC);
    assert_true(timed_poll_block() < PROMPT_MSEC);

    close_pipe(fds);
}

static void
test_fd_not_ready(void **state DPS_UNUSED)
{
    long long int elapsed;
    int fds[2];

    make_pipe(fds);

    /* Nothing to read: only the timer ends the wait. */
    poll_fd_wait(fds[0], POLLIN);
    poll_timer_wait(50);
    elapsed = timed_poll_block();
    assert_true(elapsed >= 48);
    assert_true(elapsed < 50 + PROMPT_MSEC);

    close_pipe(fds);
}

static void
test_registrations_forgotten(void **state DPS_UNUSED)
{
    long long int elapsed;
    int fds[2];

    make_pipe(fds);
    assert_int_equal(write(fds[1], "x", 1), 1);

    poll_fd_wait(fds[0], POLLIN);
    assert_true(timed_poll_block() < PROMPT_MSEC);

    /* The fd is still readable, but nobody asked again. */
    poll_timer_wait(50);
    elapsed = timed_poll_block();
    assert_true(elapsed >= 48);

    close_pipe(fds);
}

static void
test_same_fd_twice(void **state DPS_UNUSED)
{
    int fds[2];

    make_pipe(fds);

    /* Registering the read end for POLLIN and then POLLOUT (which a pipe's
     * read end never is) must keep POLLIN. */
    assert_int_equal(write(fds[1], "x", 1), 1);
    poll_fd_wait(fds[0], POLLIN);
    poll_fd_wait(fds[0], POLLOUT);
    poll_timer_wait(LONG_MSEC);
    assert_true(timed_poll_block() < PROMPT_MSEC);

    close_pipe(fds);
}

static void
test_many_fds(void **state DPS_UNUSED)
{
    enum { N_PIPES = 40 };
    int pipes[N_PIPES][2];
    long long int elapsed;

    for (int i = 0; i < N_PIPES; i++) {
        make_pipe(pipes[i]);
    }

    /* Only the last registered fd, well past the first allocation, is
     * ready. */
    assert_int_equal(write(pipes[N_PIPES - 1][1], "x", 1), 1);
    for (int i = 0; i < N_PIPES; i++) {
        poll_fd_wait(pipes[i][0], POLLIN);
    }
    poll_timer_wait(LONG_MSEC);
    assert_true(timed_poll_block() < PROMPT_MSEC);

    /* None ready. */
    for (int i = 0; i < N_PIPES - 1; i++) {
        poll_fd_wait(pipes[i][0], POLLIN);
    }
    poll_timer_wait(30);
    elapsed = timed_poll_block();
    assert_true(elapsed >= 28);

    for (int i = 0; i < N_PIPES; i++) {
        close_pipe(pipes[i]);
    }
}

/* Sets the latch passed to it after a short delay. */
static void *
set_latch_later(void *latch_)
{
    struct latch *latch = latch_;

    usleep(50 * 1000);
    latch_set(latch);
    return NULL;
}

static void
test_latch_other_thread(void **state DPS_UNUSED)
{
    struct latch latch;
    pthread_t thread;
    long long int elapsed;

    latch_init(&latch);
    assert_false(latch_is_set(&latch));
    assert_false(latch_poll(&latch));

    assert_int_equal(pthread_create(&thread, NULL, set_latch_later, &latch),
                     0);
    latch_wait(&latch);
    poll_timer_wait(LONG_MSEC);
    elapsed = timed_poll_block();
    assert_true(elapsed < 50 + PROMPT_MSEC * 4);
    assert_int_equal(pthread_join(thread, NULL), 0);

    /* Set until polled, then clear. */
    assert_true(latch_is_set(&latch));
    assert_true(latch_is_set(&latch));
    assert_true(latch_poll(&latch));
    assert_false(latch_is_set(&latch));
    assert_false(latch_poll(&latch));

    /* Setting twice is still one wakeup, cleared by one poll. */
    latch_set(&latch);
    latch_set(&latch);
    latch_wait(&latch);
    assert_true(timed_poll_block() < PROMPT_MSEC);
    assert_true(latch_poll(&latch));
    assert_false(latch_poll(&latch));

    latch_destroy(&latch);
}

/* What a helper thread saw of its own poll loop. */
struct thread_result {
    bool pending_at_start;      /* poll_immediate_pending() on entry. */
    long long int elapsed;      /* How long its 60 ms timer took. */
};

static void *
poll_in_thread(void *result_)
{
    struct thread_result *result = result_;

    result->pending_at_start = poll_immediate_pending();
    poll_timer_wait(60);
    result->elapsed = timed_poll_block();
    return NULL;
}

static void
test_per_thread(void **state DPS_UNUSED)
{
    struct thread_result result;
    pthread_t thread;

    /* The main thread's pending wakeup and fd belong to it alone. */
    int fds[2];
    make_pipe(fds);
    assert_int_equal(write(fds[1], "x", 1), 1);
    poll_fd_wait(fds[0], POLLIN);
    poll_immediate_wake();

    assert_int_equal(pthread_create(&thread, NULL, poll_in_thread, &result),
                     0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_false(result.pending_at_start);
    assert_true(result.elapsed >= 58);

    /* And they are still there for the main thread. */
    assert_true(poll_immediate_pending());
    assert_true(timed_poll_block() < PROMPT_MSEC);
    close_pipe(fds);
}

/* Two threads, each blocked on its own latch, woken one at a time. */
struct waiter {
    struct latch wake;          /* Set by the main thread. */
    struct latch done;          /* Set by the waiter once woken. */
};

static void *
wait_for_latch(void *waiter_)
{
    struct waiter *waiter = waiter_;

    while (!latch_poll(&waiter->wake)) {
        latch_wait(&waiter->wake);
        poll_block();
    }
    latch_set(&waiter->done);
    return NULL;
}

static void
test_threads_wake_independently(void **state DPS_UNUSED)
{
    struct waiter waiters[2];
    pthread_t threads[2];

    for (int i = 0; i < 2; i++) {
        latch_init(&waiters[i].wake);
        latch_init(&waiters[i].done);
        assert_int_equal(pthread_create(&threads[i], NULL, wait_for_latch,
                                        &waiters[i]), 0);
    }

    /* Waking the second leaves the first asleep. */
    latch_set(&waiters[1].wake);
    latch_wait(&waiters[1].done);
    poll_timer_wait(LONG_MSEC);
    assert_true(timed_poll_block() < PROMPT_MSEC * 4);
    assert_true(latch_poll(&waiters[1].done));
    assert_int_equal(pthread_join(threads[1], NULL), 0);

    latch_wait(&waiters[0].done);
    poll_timer_wait(50);
    poll_block();
    assert_false(latch_is_set(&waiters[0].done));

    latch_set(&waiters[0].wake);
    assert_int_equal(pthread_join(threads[0], NULL), 0);
    assert_true(latch_poll(&waiters[0].done));

    for (int i = 0; i < 2; i++) {
        latch_destroy(&waiters[i].wake);
        latch_destroy(&waiters[i].done);
    }
}

int
main(int argc DPS_UNUSED, char *argv[])
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timer),
        cmocka_unit_test(test_earliest_timer_wins),
        cmocka_unit_test(test_expired_timers),
        cmocka_unit_test(test_immediate_wake),
        cmocka_unit_test(test_fd_ready),
        cmocka_unit_test(test_fd_not_ready),
        cmocka_unit_test(test_registrations_forgotten),
        cmocka_unit_test(test_same_fd_twice),
        cmocka_unit_test(test_many_fds),
        cmocka_unit_test(test_latch_other_thread),
        cmocka_unit_test(test_per_thread),
        cmocka_unit_test(test_threads_wake_independently),
    };

    util_set_program_name(argv[0]);
    return cmocka_run_group_tests_name("poll-loop", tests, NULL, NULL);
}
