/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "timeval.h"

#include <limits.h>
#include <stdlib.h>
#include "util.h"

static long long int timespec_to_msec(const struct timespec *ts);
static void read_clock(clockid_t id, struct timespec *ts);
static long long int real_msec(void);

/* What time_stop() and time_warp() did to the clocks: the milliseconds
 * added to every clock, and while the monotonic clock is stopped, the time
 * at which it stopped (before the offset), else LLONG_MIN.  Written by the
 * main thread, read (relaxed) by every thread. */
static long long int warp_msec;
static long long int stopped_msec = LLONG_MIN;

/* Returns the monotonic time in milliseconds. */
long long int
time_msec(void)
{
    long long int stopped = __atomic_load_n(&stopped_msec, __ATOMIC_RELAXED);
    long long int base = stopped != LLONG_MIN ? stopped : real_msec();

    return base + __atomic_load_n(&warp_msec, __ATOMIC_RELAXED);
}

/* Returns the monotonic time in microseconds. */
long long int
time_usec(void)
{
    long long int stopped = __atomic_load_n(&stopped_msec, __ATOMIC_RELAXED);
    long long int warp = __atomic_load_n(&warp_msec, __ATOMIC_RELAXED);

    if (stopped != LLONG_MIN) {
        return (stopped + warp) * 1000;
    }

    struct timespec ts;
    read_clock(CLOCK_MONOTONIC, &ts);
    return (long long int) ts.tv_sec * 1000000 + ts.tv_nsec / 1000
           + warp * 1000;
}

/* Returns the wall-clock time in milliseconds since the epoch. */
long long int
time_wall_msec(void)
{
    struct timespec ts;

    read_clock(CLOCK_REALTIME, &ts);
    return timespec_to_msec(&ts) + __atomic_load_n(&warp_msec,
                                                   __ATOMIC_RELAXED);
}

/* Returns the monotonic time in seconds. */
time_t
time_now(void)
{
    return time_msec() / 1000;
}

/* Stores 'msec' milliseconds into '*ts'. */
void
time_msec_to_timespec(long long int msec, struct timespec *ts)
{
    ts->tv_sec = msec / 1000;
    ts->tv_nsec = (msec % 1000) * 1000000;
}

/* Stops the monotonic clock where it is (ovs-appctl time/stop): from now
 * on only time_warp() moves it.  Stopping it again changes nothing.  Main
 * thread only. */
void
time_stop(void)
{
    if (!time_is_stopped()) {
        __atomic_store_n(&stopped_msec, real_msec(), __ATOMIC_RELAXED);
    }
}

/* Returns true if time_stop() stopped the monotonic clock. */
bool
time_is_stopped(void)
{
    return __atomic_load_n(&stopped_msec, __ATOMIC_RELAXED) != LLONG_MIN;
}

/* Moves every clock 'msecs' milliseconds ahead (ovs-appctl time/warp).
 * Main thread only. */
void
time_warp(long long int msecs)
{
    __atomic_store_n(&warp_msec,
                     __atomic_load_n(&warp_msec, __ATOMIC_RELAXED) + msecs,
                     __ATOMIC_RELAXED);
}

static long long int
timespec_to_msec(const struct timespec *ts)
{
    return (long long int) ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
}

static void
read_clock(clockid_t id, struct timespec *ts)
{
    if (clock_gettime(id, ts)) {
        util_fatal(0, "clock_gettime failed");
    }
}

static long long int
real_msec(void)
{
    struct timespec ts;

    read_clock(CLOCK_MONOTONIC, &ts);
    return timespec_to_msec(&ts);
}
