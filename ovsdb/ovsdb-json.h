/* JSON text the way OVSDB writes it in database files and tool output.
 *
 * Open vSwitch writes compact JSON with reals in "%.15g" form (so 1.0 is
 * written "1" and 0.30000000000000004 "0.3"), escapes only '"', '\\' and
 * control characters, and prints results with object members sorted by
 * name.  Database files and "ovsdb-tool"/"ovsdb-client" output depend on
 * these details, so OVSDB serializes through this module, which is
 * lib/json.h's serializer with JSONX_SHORT_REALS, rather than through
 * jansson's dumper.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_JSON_H
#define OVSDB_JSON_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"

struct ds;
struct ovsdb_error;

enum {
    OVSDB_JSON_SORT = 1 << 0,   /* Object members sorted by name. */
    OVSDB_JSON_PRETTY = 1 << 1, /* Indented as Open vSwitch's --pretty. */
};

void ovsdb_json_to_ds(const json_t *, int flags, struct ds *);
char *ovsdb_json_to_string(const json_t *, int flags);
json_t *ovsdb_json_pair(json_t *a, json_t *b);

struct ovsdb_error *ovsdb_json_from_file(const char *file_name,
                                         json_t **jsonp)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_json_from_string(const char *string,
                                           json_t **jsonp)
    DPS_WARN_UNUSED_RESULT;

/* Open vSwitch keeps JSON objects, and many of its tables, in hash maps and
 * prints them in the maps' iteration order.  These replay that order, so
 * that output built from such maps comes out as Open vSwitch's does. */
uint32_t ovsdb_json_ovs_hash(const char *name);
void ovsdb_json_ovs_hmap_order(const uint32_t *hashes, size_t n,
                               size_t *order);
size_t *ovsdb_json_ovs_order(const char *const *names, size_t n);

#endif /* ovsdb-json.h */
