/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ohmap.h"

#include <stdlib.h>
#include "util.h"

static void resize(struct ohmap *, size_t n_buckets);

/* Initializes 'map' as empty. */
void
ohmap_init(struct ohmap *map)
{
    map->mask = 7;
    map->buckets = xcalloc(map->mask + 1, sizeof *map->buckets);
    map->n = 0;
}

/* Frees the buckets of 'map' (not the elements). */
void
ohmap_destroy(struct ohmap *map)
{
    free(map->buckets);
    map->buckets = NULL;
    map->n = 0;
}

/* Inserts 'node' with 'hash' into 'map'.  Duplicates are allowed. */
void
ohmap_insert(struct ohmap *map, struct ohmap_node *node, uint32_t hash)
{
    struct ohmap_node **bucket;

    if (map->n >= (map->mask + 1) * 2) {
        resize(map, (map->mask + 1) * 4);
    }
    bucket = &map->buckets[hash & map->mask];
    node->hash = hash;
    node->next = *bucket;
    *bucket = node;
    map->n++;
}

/* Removes 'node', which must be in 'map'. */
void
ohmap_remove(struct ohmap *map, struct ohmap_node *node)
{
    struct ohmap_node **p = &map->buckets[node->hash & map->mask];

    while (*p != node) {
        p = &(*p)->next;
    }
    *p = node->next;
    map->n--;
}

/* Returns the first node in 'map' with 'hash', or NULL. */
struct ohmap_node *
ohmap_first_with_hash(const struct ohmap *map, uint32_t hash)
{
    struct ohmap_node *node = map->buckets[hash & map->mask];

    while (node && node->hash != hash) {
        node = node->next;
    }
    return node;
}

/* Returns the next node after 'node' with the same hash, or NULL. */
struct ohmap_node *
ohmap_next_with_hash(const struct ohmap_node *node)
{
    uint32_t hash = node->hash;

    for (node = node->next; node && node->hash != hash; node = node->next) {
        continue;
    }
    return (struct ohmap_node *) node;
}

/* Returns some node of 'map', or NULL if it is empty. */
struct ohmap_node *
ohmap_first(const struct ohmap *map)
{
    size_t i;

    for (i = 0; i <= map->mask; i++) {
        if (map->buckets[i]) {
            return map->buckets[i];
        }
    }
    return NULL;
}

/* Returns the node that follows 'node' in iteration order, or NULL. */
struct ohmap_node *
ohmap_next(const struct ohmap *map, const struct ohmap_node *node)
{
    size_t i;

    if (node->next) {
        return node->next;
    }
    for (i = (node->hash & map->mask) + 1; i <= map->mask; i++) {
        if (map->buckets[i]) {
            return map->buckets[i];
        }
    }
    return NULL;
}

static void
resize(struct ohmap *map, size_t n_buckets)
{
    struct ohmap_node **buckets = xcalloc(n_buckets, sizeof *buckets);
    size_t i;

    for (i = 0; i <= map->mask; i++) {
        struct ohmap_node *node, *next;

        for (node = map->buckets[i]; node; node = next) {
            struct ohmap_node **bucket = &buckets[node->hash
                                                  & (n_buckets - 1)];
            next = node->next;
            node->next = *bucket;
            *bucket = node;
        }
    }
    free(map->buckets);
    map->buckets = buckets;
    map->mask = n_buckets - 1;
}
