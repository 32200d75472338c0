/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "perf/perf-counter.h"

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int perf_fd = -1;

/* Opens a counter of this thread's user-space instructions, if the kernel
 * offers one. */
void
perf_counter_open(void)
{
    struct perf_event_attr attr;

    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    perf_fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/* Returns true if perf_counter_open() found a counter. */
bool
perf_counter_available(void)
{
    return perf_fd >= 0;
}

/* Zeroes the counter and starts counting. */
void
perf_counter_start(void)
{
    if (perf_fd >= 0) {
        ioctl(perf_fd, PERF_EVENT_IOC_RESET, 0);
        ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0);
    }
}

/* Stops counting.  Returns the instructions counted since
 * perf_counter_start(), or -1 without a counter. */
double
perf_counter_stop(void)
{
    uint64_t count = 0;

    if (perf_fd < 0) {
        return -1;
    }
    ioctl(perf_fd, PERF_EVENT_IOC_DISABLE, 0);
    if (read(perf_fd, &count, sizeof count) != sizeof count) {
        return -1;
    }
    return count;
}

/* Closes the counter. */
void
perf_counter_close(void)
{
    if (perf_fd >= 0) {
        close(perf_fd);
        perf_fd = -1;
    }
}
