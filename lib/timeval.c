/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "timeval.h"

#include <stdlib.h>
#include "util.h"

static long long int timespec_to_msec(const struct timespec *ts);
static void read_clock(clockid_t id, struct timespec *ts);

/* Returns the monotonic time in milliseconds. */
long long int
time_msec(void)
{
    struct timespec ts;

    read_clock(CLOCK_MONOTONIC, &ts);
    return timespec_to_msec(&ts);
}

/* Returns the monotonic time in microseconds. */
long long int
time_usec(void)
{
    struct timespec ts;

    read_clock(CLOCK_MONOTONIC, &ts);
    return (long long int) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Returns the wall-clock time in milliseconds since the epoch. */
long long int
time_wall_msec(void)
{
    struct timespec ts;

    read_clock(CLOCK_REALTIME, &ts);
    return timespec_to_msec(&ts);
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
