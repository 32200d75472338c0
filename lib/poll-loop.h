/* The poll loop: each thread's main loop waits in poll_block() for the
 * events its modules asked for.
 *
 * The usual shape of a thread's main loop is:
 *
 *     for (;;) {
 *         module_run();      does whatever work is ready, never blocks
 *         module_wait();     registers what would make more work ready:
 *                              poll_fd_wait(), poll_timer_wait(), ...
 *         poll_block();      sleeps until one of those happens
 *     }
 *
 * The registrations are per thread and forgotten by poll_block(), so every
 * *_wait() function registers afresh on each iteration.  To wake a thread
 * from another thread, use a latch (latch.h): the sleeping thread
 * latch_wait()s, another thread latch_set()s.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef POLL_LOOP_H
#define POLL_LOOP_H 1

#include <poll.h>
#include <stdbool.h>

void poll_fd_wait(int fd, short int events);
void poll_timer_wait(long long int msec);
void poll_timer_wait_until(long long int when);
void poll_immediate_wake(void);
bool poll_immediate_pending(void);
void poll_block(void);

#endif /* poll-loop.h */
