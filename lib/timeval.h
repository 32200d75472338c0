/* Clocks.
 *
 * time_msec() is monotonic and is what timers and timeouts use;
 * time_wall_msec() is wall-clock time, for log lines and records shown to
 * users.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef TIMEVAL_H
#define TIMEVAL_H 1

#include <time.h>

long long int time_msec(void);
long long int time_usec(void);
long long int time_wall_msec(void);
time_t time_now(void);
void time_msec_to_timespec(long long int msec, struct timespec *);

#endif /* timeval.h */
