/* A small intrusive hash map with chaining, for the OVSDB engine's rows,
 * tables and symbol tables.  The caller embeds a 'struct ohmap_node' in
 * each element, computes the hash, and compares keys itself while walking
 * the nodes that share a hash.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_OHMAP_H
#define OVSDB_OHMAP_H 1

#include <stddef.h>
#include <stdint.h>

struct ohmap_node {
    struct ohmap_node *next;    /* Next node in the same bucket. */
    uint32_t hash;
};

struct ohmap {
    struct ohmap_node **buckets;
    size_t mask;                /* Number of buckets minus one. */
    size_t n;                   /* Number of nodes. */
};

void ohmap_init(struct ohmap *);
void ohmap_destroy(struct ohmap *);
void ohmap_insert(struct ohmap *, struct ohmap_node *, uint32_t hash);
void ohmap_remove(struct ohmap *, struct ohmap_node *);
struct ohmap_node *ohmap_first_with_hash(const struct ohmap *, uint32_t);
struct ohmap_node *ohmap_next_with_hash(const struct ohmap_node *);
struct ohmap_node *ohmap_first(const struct ohmap *);
struct ohmap_node *ohmap_next(const struct ohmap *,
                              const struct ohmap_node *);

static inline size_t
ohmap_count(const struct ohmap *map)
{
    return map->n;
}

/* Iterates NODE (a pointer to the element type, whose 'struct ohmap_node'
 * member is MEMBER) over every element of MAP.  The body must not remove
 * elements; use OHMAP_FOR_EACH_SAFE for that. */
#define OHMAP_FOR_EACH(NODE, MEMBER, MAP)                               \
    for (struct ohmap_node *ohmap_n_ = ohmap_first(MAP);                \
         ohmap_n_ != NULL                                               \
         && ((NODE) = (void *) ((char *) ohmap_n_                       \
                                - offsetof(__typeof__(*(NODE)), MEMBER)), 1); \
         ohmap_n_ = ohmap_next(MAP, ohmap_n_))

#define OHMAP_FOR_EACH_SAFE(NODE, MEMBER, MAP)                          \
    for (struct ohmap_node *ohmap_n_ = ohmap_first(MAP), *ohmap_next_ = \
             ohmap_n_ ? ohmap_next(MAP, ohmap_n_) : NULL;               \
         ohmap_n_ != NULL                                               \
         && ((NODE) = (void *) ((char *) ohmap_n_                       \
                                - offsetof(__typeof__(*(NODE)), MEMBER)), 1); \
         ohmap_n_ = ohmap_next_,                                        \
         ohmap_next_ = ohmap_n_ ? ohmap_next(MAP, ohmap_n_) : NULL)

#define OHMAP_FOR_EACH_WITH_HASH(NODE, MEMBER, HASH, MAP)               \
    for (struct ohmap_node *ohmap_n_ = ohmap_first_with_hash(MAP, HASH); \
         ohmap_n_ != NULL                                               \
         && ((NODE) = (void *) ((char *) ohmap_n_                       \
                                - offsetof(__typeof__(*(NODE)), MEMBER)), 1); \
         ohmap_n_ = ohmap_next_with_hash(ohmap_n_))

#endif /* ohmap.h */
