/* Clocks.
 *
 * time_msec() is monotonic and is what timers and timeouts use;
 * time_wall_msec() is wall-clock time, for log lines and records shown to
 * users.  ovs-appctl time/stop and time/warp (time_stop(), time_warp())
 * stop the monotonic clock and move every clock ahead, as in Open vSwitch,
 * so that tests can run timers without waiting for them.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef TIMEVAL_H
#define TIMEVAL_H 1

#include <stdbool.h>
#include <time.h>

long long int time_msec(void);
long long int time_usec(void);
long long int time_wall_msec(void);
time_t time_now(void);
void time_msec_to_timespec(long long int msec, struct timespec *);

void time_stop(void);
bool time_is_stopped(void);
void time_warp(long long int msecs);

#endif /* timeval.h */
