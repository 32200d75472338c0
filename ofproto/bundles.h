/* bundles: the OpenFlow bundles a connection has open, and what they hold,
 * with Open vSwitch 3.1's rules for opening, closing, adding to and
 * discarding them.  Committing is the connection manager's (connmgr.c):
 * it takes the bundle with bundles_take() and carries out its messages.
 *
 * A bundle that an operation fails on (an open of an id in use, a close
 * of a closed bundle, flags that disagree) is discarded, as Open vSwitch
 * does; so is every bundle of a connection that ends.  Bundles do not time
 * out here (Open vSwitch discards one idle for 10 seconds).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef BUNDLES_H
#define BUNDLES_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-msgs.h"

/* One message of a bundle: the bundle add message as it came ('add',
 * which errors quote) and its type. */
struct bundle_msg {
    enum ofptype type;
    struct ofp_header *add;     /* Owned. */
};

struct bundle {
    uint32_t id;
    uint16_t flags;             /* OFPBF_*, as opened. */
    bool closed;
    struct bundle_msg *msgs;
    size_t n_msgs;
};

/* A connection's bundles. */
struct bundles {
    struct bundle **bundles;
    size_t n;
};

void bundles_init(struct bundles *);
void bundles_destroy(struct bundles *);

/* OFPBCT_OPEN_REQUEST: OFPBFC_BAD_ID if 'id' is open (which discards
 * it). */
enum ofperr bundles_open(struct bundles *, uint32_t id, uint16_t flags);
/* OFPBCT_CLOSE_REQUEST: OFPBFC_BAD_ID, OFPBFC_BUNDLE_CLOSED, or
 * OFPBFC_BAD_FLAGS if 'flags' are not the bundle's. */
enum ofperr bundles_close(struct bundles *, uint32_t id, uint16_t flags);
/* OFPBCT_DISCARD_REQUEST: OFPBFC_BAD_ID if there is no such bundle. */
enum ofperr bundles_discard(struct bundles *, uint32_t id);
/* Adds 'add' (a bundle add message of 'type', copied) to bundle 'id',
 * opening it with 'flags' if it is not open: OFPBFC_BUNDLE_CLOSED or
 * OFPBFC_BAD_FLAGS. */
enum ofperr bundles_add(struct bundles *, uint32_t id, uint16_t flags,
                        enum ofptype type, const struct ofp_header *add);
/* Removes bundle 'id' and returns it (NULL if there is none), for the
 * caller to commit and free with bundle_free(). */
struct bundle *bundles_take(struct bundles *, uint32_t id);
void bundle_free(struct bundle *);

/* The message 'add' carries. */
const struct ofp_header *bundle_msg_inner(const struct bundle_msg *);

#endif /* bundles.h */
