/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "latch.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "poll-loop.h"
#include "util.h"

/* Initialises 'latch' as unset. */
void
latch_init(struct latch *latch)
{
    latch->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (latch->fd < 0) {
        util_fatal(errno, "eventfd failed");
    }
}

/* Frees the resources of 'latch'. */
void
latch_destroy(struct latch *latch)
{
    close(latch->fd);
    latch->fd = -1;
}

/* Sets 'latch', waking any thread that waits for it. */
void
latch_set(struct latch *latch)
{
    uint64_t one = 1;
    ssize_t retval;

    do {
        retval = write(latch->fd, &one, sizeof one);
    } while (retval < 0 && errno == EINTR);
}

/* Clears 'latch'.  Returns true if it was set. */
bool
latch_poll(struct latch *latch)
{
    uint64_t value;
    ssize_t retval;

    do {
        retval = read(latch->fd, &value, sizeof value);
    } while (retval < 0 && errno == EINTR);
    return retval == sizeof value && value;
}

/* Returns true if 'latch' is set, without clearing it. */
bool
latch_is_set(const struct latch *latch)
{
    struct pollfd pfd = { .fd = latch->fd, .events = POLLIN };
    int retval;

    do {
        retval = poll(&pfd, 1, 0);
    } while (retval < 0 && errno == EINTR);
    return retval == 1;
}

/* Makes the current thread's next poll_block() return when 'latch' is
 * set. */
void
latch_wait(const struct latch *latch)
{
    poll_fd_wait(latch->fd, POLLIN);
}
