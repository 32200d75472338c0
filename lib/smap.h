/* smap: a small map from strings to strings, such as a database column of
 * type {"key": "string", "value": "string", "max": "unlimited"}
 * (other_config, options, status, external_ids).
 *
 * Kept sorted by key, in one array: lookups are binary searches, and
 * iteration is in key order, which is the order OVSDB prints maps in.
 * Meant for maps of tens of entries, not thousands.
 *
 * Threads: an smap belongs to one thread at a time.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef SMAP_H
#define SMAP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"

struct ds;

struct smap_node {
    char *key;
    char *value;
};

struct smap {
    struct smap_node *nodes;    /* Sorted by key, no duplicates. */
    size_t n;
    size_t allocated;
};

#define SMAP_INITIALIZER { NULL, 0, 0 }

/* Iterates over the nodes of 'SMAP' in key order, 'NODE' pointing at each.
 * The map must not change during the iteration.  (An empty map may have no
 * array at all: no arithmetic on its null pointer.) */
#define SMAP_FOR_EACH(NODE, SMAP)                                       \
    for ((NODE) = (SMAP)->nodes;                                        \
         (NODE) && (NODE) < (SMAP)->nodes + (SMAP)->n;                  \
         (NODE)++)

void smap_init(struct smap *);
void smap_destroy(struct smap *);
void smap_clear(struct smap *);
void smap_clone(struct smap *dst, const struct smap *src);
void smap_swap(struct smap *, struct smap *);

/* Adding replaces the value of a key that is present. */
void smap_add(struct smap *, const char *key, const char *value);
void smap_add_format(struct smap *, const char *key, const char *format, ...)
    DPS_PRINTF_FORMAT(3, 4);
bool smap_remove(struct smap *, const char *key);

const char *smap_get(const struct smap *, const char *key);
const char *smap_get_def(const struct smap *, const char *key,
                         const char *def);
bool smap_get_bool(const struct smap *, const char *key, bool def);
int smap_get_int(const struct smap *, const char *key, int def);
unsigned long long int smap_get_ullong(const struct smap *, const char *key,
                                       unsigned long long int def);
bool smap_contains(const struct smap *, const char *key);
size_t smap_count(const struct smap *);
bool smap_is_empty(const struct smap *);
bool smap_equal(const struct smap *, const struct smap *);

/* Strict parsers for configuration values: each returns NULL and stores the
 * value, or returns an error message (free() it) that names 'key' and says
 * what is wrong, and leaves '*value' alone.  An absent key is not an error:
 * '*value' is left alone then too. */
char *smap_parse_bool(const struct smap *, const char *key, bool *value)
    DPS_WARN_UNUSED_RESULT;
char *smap_parse_int(const struct smap *, const char *key,
                     long long int min, long long int max,
                     long long int *value) DPS_WARN_UNUSED_RESULT;

/* Appends "key=value, key=value" to 'ds'. */
void smap_format(const struct smap *, struct ds *);

#endif /* smap.h */
