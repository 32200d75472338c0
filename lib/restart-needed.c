/* restart-needed: see restart-needed.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "restart-needed.h"

#include <pthread.h>
#include "dynamic-string.h"
#include "smap.h"

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static struct smap waiting_keys = SMAP_INITIALIZER;    /* Under 'mutex'. */

/* See restart-needed.h. */
void
restart_needed_note(const char *key, bool waiting)
{
    pthread_mutex_lock(&mutex);
    if (waiting) {
        smap_add(&waiting_keys, key, "");
    } else {
        smap_remove(&waiting_keys, key);
    }
    pthread_mutex_unlock(&mutex);
}

/* See restart-needed.h. */
char *
restart_needed_keys(void)
{
    struct ds keys = DS_EMPTY_INITIALIZER;
    const struct smap_node *node;

    pthread_mutex_lock(&mutex);
    SMAP_FOR_EACH (node, &waiting_keys) {
        ds_put_format(&keys, "%s%s", keys.length ? "," : "", node->key);
    }
    pthread_mutex_unlock(&mutex);
    return keys.length ? ds_steal_cstr(&keys) : NULL;
}
