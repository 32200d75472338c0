/* bundles: a connection's OpenFlow bundles (see bundles.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "bundles.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

static struct bundle *find(const struct bundles *, uint32_t id,
                           size_t *index);
static void discard(struct bundles *, size_t index);

void
bundles_init(struct bundles *bundles)
{
    bundles->bundles = NULL;
    bundles->n = 0;
}

/* Discards every bundle. */
void
bundles_destroy(struct bundles *bundles)
{
    while (bundles->n) {
        discard(bundles, bundles->n - 1);
    }
    free(bundles->bundles);
    bundles->bundles = NULL;
}

/* See bundles.h. */
enum ofperr
bundles_open(struct bundles *bundles, uint32_t id, uint16_t flags)
{
    size_t i;

    if (find(bundles, id, &i)) {
        discard(bundles, i);
        return OFPERR_OFPBFC_BAD_ID;
    }
    struct bundle *bundle = xzalloc(sizeof *bundle);
    bundle->id = id;
    bundle->flags = flags;
    bundles->bundles = xrealloc(bundles->bundles, (bundles->n + 1)
                                * sizeof *bundles->bundles);
    bundles->bundles[bundles->n++] = bundle;
    return 0;
}

/* See bundles.h. */
enum ofperr
bundles_close(struct bundles *bundles, uint32_t id, uint16_t flags)
{
    size_t i;
    struct bundle *bundle = find(bundles, id, &i);

    if (!bundle) {
        return OFPERR_OFPBFC_BAD_ID;
    }
    if (bundle->closed) {
        discard(bundles, i);
        return OFPERR_OFPBFC_BUNDLE_CLOSED;
    }
    if (bundle->flags != flags) {
        discard(bundles, i);
        return OFPERR_OFPBFC_BAD_FLAGS;
    }
    bundle->closed = true;
    return 0;
}

/* See bundles.h. */
enum ofperr
bundles_discard(struct bundles *bundles, uint32_t id)
{
    size_t i;

    if (!find(bundles, id, &i)) {
        return OFPERR_OFPBFC_BAD_ID;
    }
    discard(bundles, i);
    return 0;
}

/* See bundles.h. */
enum ofperr
bundles_add(struct bundles *bundles, uint32_t id, uint16_t flags,
            enum ofptype type, const struct ofp_header *add)
{
    size_t i;
    struct bundle *bundle = find(bundles, id, &i);

    if (!bundle) {
        bundles_open(bundles, id, flags);
        bundle = bundles->bundles[bundles->n - 1];
    } else if (bundle->closed) {
        discard(bundles, i);
        return OFPERR_OFPBFC_BUNDLE_CLOSED;
    } else if (bundle->flags != flags) {
        discard(bundles, i);
        return OFPERR_OFPBFC_BAD_FLAGS;
    }
    bundle->msgs = xrealloc(bundle->msgs, (bundle->n_msgs + 1)
                            * sizeof *bundle->msgs);
    bundle->msgs[bundle->n_msgs++] = (struct bundle_msg) {
        .type = type,
        .add = xmemdup(add, ntohs(add->length)),
    };
    return 0;
}

/* See bundles.h. */
struct bundle *
bundles_take(struct bundles *bundles, uint32_t id)
{
    size_t i;
    struct bundle *bundle = find(bundles, id, &i);

    if (bundle) {
        memmove(&bundles->bundles[i], &bundles->bundles[i + 1],
                (bundles->n - i - 1) * sizeof *bundles->bundles);
        bundles->n--;
    }
    return bundle;
}

void
bundle_free(struct bundle *bundle)
{
    if (bundle) {
        for (size_t i = 0; i < bundle->n_msgs; i++) {
            free(bundle->msgs[i].add);
        }
        free(bundle->msgs);
        free(bundle);
    }
}

/* See bundles.h. */
const struct ofp_header *
bundle_msg_inner(const struct bundle_msg *msg)
{
    enum ofpraw raw;

    ofpraw_decode(&raw, msg->add);
    return (const struct ofp_header *) ((const uint8_t *) msg->add
                                        + ofpraw_get_hdr_size(raw) + 8);
}

static struct bundle *
find(const struct bundles *bundles, uint32_t id, size_t *index)
{
    for (size_t i = 0; i < bundles->n; i++) {
        if (bundles->bundles[i]->id == id) {
            *index = i;
            return bundles->bundles[i];
        }
    }
    return NULL;
}

static void
discard(struct bundles *bundles, size_t index)
{
    bundle_free(bundles_take(bundles, bundles->bundles[index]->id));
}
