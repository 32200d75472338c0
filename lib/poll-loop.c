/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "poll-loop.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "timeval.h"
#include "util.h"

/* What one thread will wait for in its next poll_block(). */
struct poll_loop {
    struct pollfd *pollfds;     /* fds to wait on. */
    size_t n_pollfds;
    size_t allocated_pollfds;
    long long int deadline;     /* Monotonic msec, or LLONG_MAX for none. */
};

/* Each thread's poll_loop is allocated on first use and freed when the
 * thread exits, through 'loop_key''s destructor. */
static __thread struct poll_loop *loop_;
static pthread_key_t loop_key;
static pthread_once_t loop_key_once = PTHREAD_ONCE_INIT;

static void free_loop(void *loop);
static void create_loop_key(void);
static struct poll_loop *this_loop(void);

/* Makes the current thread's next poll_block() return when 'fd' has any of
 * the poll() 'events' (POLLIN, POLLOUT) pending.  An fd may be registered
 * several times; the event sets are merged. */
void
poll_fd_wait(int fd, short int events)
{
    struct poll_loop *loop = this_loop();

    for (size_t i = 0; i < loop->n_pollfds; i++) {
        if (loop->pollfds[i].fd == fd) {
            loop->pollfds[i].events |= events;
            return;
        }
    }
    if (loop->n_pollfds >= loop->allocated_pollfds) {
        loop->allocated_pollfds = MAX(8, loop->allocated_pollfds * 2);
        loop->pollfds = xrealloc(loop->pollfds, loop->allocated_pollfds
                                                * sizeof *loop->pollfds);
    }
    loop->pollfds[loop->n_pollfds++] = (struct pollfd) {
        .fd = fd, .events = events, .revents = 0
    };
}

/* Makes the current thread's next poll_block() return within 'msec'
 * milliseconds (at once if 'msec' <= 0). */
void
poll_timer_wait(long long int msec)
{
    long long int now = time_msec();
    poll_timer_wait_until(msec <= 0 ? now
                          : msec >= LLONG_MAX - now ? LLONG_MAX
                          : now + msec);
}

/* Makes the current thread's next poll_block() return once the monotonic
 * clock (time_msec()) reaches 'when'. */
void
poll_timer_wait_until(long long int when)
{
    struct poll_loop *loop = this_loop();

    if (when < loop->deadline) {
        loop->deadline = when;
    }
}

/* Makes the current thread's next poll_block() return at once. */
void
poll_immediate_wake(void)
{
    struct poll_loop *loop = this_loop();

    loop->deadline = LLONG_MIN;
}

/* Returns true if poll_immediate_wake() (or an expired timer) will make the
 * next poll_block() return at once. */
bool
poll_immediate_pending(void)
{
    struct poll_loop *loop = this_loop();

    return loop->deadline <= time_msec();
}

/* Sleeps until one of the events registered since the last poll_block()
 * happens, then forgets all registrations.  With nothing registered it
 * sleeps until a signal arrives. */
void
poll_block(void)
{
    struct poll_loop *loop = this_loop();
    int timeout;

    if (loop->deadline == LLONG_MAX) {
        timeout = -1;
    } else {
        long long int now = time_msec();
        timeout = (loop->deadline <= now ? 0
                   : loop->deadline - now > INT_MAX ? INT_MAX
                   : (int) (loop->deadline - now));
    }

    if (poll(loop->pollfds, loop->n_pollfds, timeout) < 0 && errno != EINTR) {
        util_error(errno, "poll failed");
    }

    loop->n_pollfds = 0;
    loop->deadline = LLONG_MAX;
}

static void
free_loop(void *loop)
{
    free(((struct poll_loop *) loop)->pollfds);
    free(loop);
}

static void
create_loop_key(void)
{
    if (pthread_key_create(&loop_key, free_loop)) {
        util_fatal(0, "pthread_key_create failed");
    }
}

/* Returns the current thread's poll_loop-> */
static struct poll_loop *
this_loop(void)
{
    if (!loop_) {
        pthread_once(&loop_key_once, create_loop_key);
        loop_ = xzalloc(sizeof *loop_);
        loop_->deadline = LLONG_MAX;
        pthread_setspecific(loop_key, loop_);
    }
    return loop_;
}
