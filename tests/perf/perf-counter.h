/* The hardware instruction counter, for the benchmarks in tests/perf/.
 *
 * perf_counter_open() once, then perf_counter_start() and
 * perf_counter_stop() around each measured section; perf_counter_close() at
 * the end.  Where the kernel offers no counter (as in many VMs), every call
 * still works: perf_counter_available() is false and perf_counter_stop()
 * returns -1.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef PERF_COUNTER_H
#define PERF_COUNTER_H 1

#include <stdbool.h>

void perf_counter_open(void);
bool perf_counter_available(void);
void perf_counter_start(void);
double perf_counter_stop(void);
void perf_counter_close(void);

#endif /* perf-counter.h */
