/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-json.h"

#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json.h"
#include "murmur.h"
#include "ovsdb-error.h"
#include "util.h"

static size_t ovs_hmap_mask(size_t capacity);

/* Appends the compact serialization of 'json' to 'ds', with reals as Open
 * vSwitch writes them.  With OVSDB_JSON_SORT in 'flags', object members are
 * written in order of their names; otherwise in insertion order.  With
 * OVSDB_JSON_PRETTY, one member or element per line, indented as Open
 * vSwitch indents. */
void
ovsdb_json_to_ds(const json_t *json, int flags, struct ds *ds)
{
    jsonx_to_ds(json, (JSONX_SHORT_REALS
                       | (flags & OVSDB_JSON_SORT ? JSONX_SORT_KEYS : 0)
                       | (flags & OVSDB_JSON_PRETTY
                          ? JSONX_PRETTY | JSONX_PRETTY_OVS : 0)),
                ds);
}

/* Returns the compact serialization of 'json' as a new string. */
char *
ovsdb_json_to_string(const json_t *json, int flags)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    ovsdb_json_to_ds(json, flags, &ds);
    return ds_steal_cstr(&ds);
}

/* Returns the two-element array [a, b], taking ownership of both. */
json_t *
ovsdb_json_pair(json_t *a, json_t *b)
{
    json_t *array = json_array();

    json_array_append_new(array, a);
    json_array_append_new(array, b);
    return array;
}

/* Reads the JSON value in 'file_name' into '*jsonp'.  On failure stores NULL
 * and returns an error that says why, as "ovsdb-tool" reports it. */
struct ovsdb_error *
ovsdb_json_from_file(const char *file_name, json_t **jsonp)
{
    json_error_t jerror;
    FILE *stream;

    *jsonp = NULL;
    stream = fopen(file_name, "r");
    if (!stream) {
        return ovsdb_error("ovsdb error",
                           "\"%s\" could not be read as JSON (error "
                           "opening \"%s\": %s)", file_name, file_name,
                           util_strerror(errno));
    }
    *jsonp = json_loadf(stream, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerror);
    fclose(stream);
    if (!*jsonp) {
        return ovsdb_error("ovsdb error",
                           "\"%s\" could not be read as JSON (line %d, "
                           "column %d: %s)", file_name, jerror.line,
                           jerror.column, jerror.text);
    }
    return NULL;
}

/* Parses 'string' as one JSON value into '*jsonp'. */
struct ovsdb_error *
ovsdb_json_from_string(const char *string, json_t **jsonp)
{
    json_error_t jerror;

    *jsonp = json_loads(string, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerror);
    if (!*jsonp) {
        return ovsdb_error("syntax error", "line %d, column %d, byte %d: %s",
                           jerror.line - 1, jerror.column, jerror.position,
                           jerror.text);
    }
    return NULL;
}

/* Open vSwitch's string hash (32-bit Murmur3 over 4-byte little-endian
 * words, basis 0), which its hash maps of names use. */
uint32_t
ovsdb_json_ovs_hash(const char *name)
{
    size_t n = strlen(name), i;
    uint32_t hash = 0;

    for (i = 0; i < n; i += 4) {
        uint32_t word = 0;

        memcpy(&word, name + i, n - i < 4 ? n - i : 4);
        hash = murmur_add(hash, le32toh(word));
    }
    return murmur_finish(hash, n);
}

/* Replays inserting 'n' names with 'hashes', in that order, into an Open
 * vSwitch hash map (each node pushed on the front of its bucket, the map
 * rebuilt bucket by bucket when it grows) and stores in 'order' the
 * positions of the names in the map's iteration order. */
void
ovsdb_json_ovs_hmap_order(const uint32_t *hashes, size_t n, size_t *order)
{
    size_t *heads = xmalloc(sizeof *heads), *next = xmalloc(n * sizeof *next);
    size_t mask = 0, i, b, k;
    const size_t none = SIZE_MAX;

    heads[0] = none;
    for (i = 0; i < n; i++) {
        size_t new_mask;

        next[i] = heads[hashes[i] & mask];
        heads[hashes[i] & mask] = i;
        new_mask = ovs_hmap_mask(i + 1);
        if ((i + 1) / 2 > mask && new_mask > mask) {
            size_t *new_heads = xmalloc((new_mask + 1) * sizeof *new_heads);

            for (b = 0; b <= new_mask; b++) {
                new_heads[b] = none;
            }
            for (b = 0; b <= mask; b++) {
                size_t node, after;

                for (node = heads[b]; node != none; node = after) {
                    after = next[node];
                    next[node] = new_heads[hashes[node] & new_mask];
                    new_heads[hashes[node] & new_mask] = node;
                }
            }
            free(heads);
            heads = new_heads;
            mask = new_mask;
        }
    }
    for (b = k = 0; b <= mask; b++) {
        size_t node;

        for (node = heads[b]; node != none; node = next[node]) {
            order[k++] = node;
        }
    }
    free(heads);
    free(next);
}

/* Returns the positions in 'names' of its 'n' names in the order Open
 * vSwitch writes the members of a JSON object into which it put members
 * with these names in this order. */
size_t *
ovsdb_json_ovs_order(const char *const *names, size_t n)
{
    uint32_t *hashes = xmalloc((n + 1) * sizeof *hashes);
    size_t *order = xmalloc((n + 1) * sizeof *order);
    size_t i;

    for (i = 0; i < n; i++) {
        hashes[i] = ovsdb_json_ovs_hash(names[i]);
    }
    ovsdb_json_ovs_hmap_order(hashes, n, order);
    free(hashes);
    return order;
}

/* The bucket mask Open vSwitch's hash map picks for 'capacity' nodes. */
static size_t
ovs_hmap_mask(size_t capacity)
{
    size_t mask = capacity / 2;
    int shift;

    for (shift = 1; shift < 64; shift <<= 1) {
        mask |= mask >> shift;
    }
    return mask | (mask & 1) << 1;
}
