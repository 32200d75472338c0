/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json.h"
#include "ovsdb-error.h"
#include "util.h"

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
