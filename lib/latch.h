/* A latch: a flag that one thread sets and another waits for in its poll
 * loop.  latch_set() is async-signal-safe, so a signal handler may use it
 * too.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef LATCH_H
#define LATCH_H 1

#include <stdbool.h>

struct latch {
    int fd;     /* An eventfd. */
};

void latch_init(struct latch *);
void latch_destroy(struct latch *);
void latch_set(struct latch *);
bool latch_poll(struct latch *);
bool latch_is_set(const struct latch *);
void latch_wait(const struct latch *);

#endif /* latch.h */
