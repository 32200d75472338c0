/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-json.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json.h"
#include "ovsdb-error.h"
#include "util.h"

static void put_string(const char *, size_t length, struct ds *);
static void put_integer(json_int_t, struct ds *);
static int compare_keys(const void *, const void *);

/* Appends the compact serialization of 'json' to 'ds'.  With
 * OVSDB_JSON_SORT in 'flags', object members are written in order of their
 * names; otherwise in insertion order. */
void
ovsdb_json_to_ds(const json_t *json, int flags, struct ds *ds)
{
    switch (json_typeof(json)) {
    case JSON_NULL:
        ds_put_cstr(ds, "null");
        break;
    case JSON_TRUE:
        ds_put_cstr(ds, "true");
        break;
    case JSON_FALSE:
        ds_put_cstr(ds, "false");
        break;
    case JSON_INTEGER:
        put_integer(json_integer_value(json), ds);
        break;
    case JSON_REAL: {
        double d = json_real_value(json);

        if (isfinite(d)) {
            ds_put_format(ds, "%.*g", DBL_DIG, d);
        } else {
            ds_put_cstr(ds, "null");
        }
        break;
    }
    case JSON_STRING:
        put_string(json_string_value(json), json_string_length(json), ds);
        break;
    case JSON_ARRAY: {
        size_t i;

        ds_put_char(ds, '[');
        for (i = 0; i < json_array_size(json); i++) {
            if (i) {
                ds_put_char(ds, ',');
            }
            ovsdb_json_to_ds(json_array_get(json, i), flags, ds);
        }
        ds_put_char(ds, ']');
        break;
    }
    case JSON_OBJECT: {
        size_t n = json_object_size(json);

        if (!(flags & OVSDB_JSON_SORT)) {
            /* In the object's own order: no copy of the keys, no lookups
             * (this writes every record of the log). */
            const char *key;
            json_t *value;
            bool first = true;

            ds_put_char(ds, '{');
            json_object_foreach ((json_t *) json, key, value) {
                if (!first) {
                    ds_put_char(ds, ',');
                }
                first = false;
                put_string(key, strlen(key), ds);
                ds_put_char(ds, ':');
                ovsdb_json_to_ds(value, flags, ds);
            }
            ds_put_char(ds, '}');
            break;
        }
        const char **keys = xmalloc((n ? n : 1) * sizeof *keys);
        const char *key;
        json_t *value;
        size_t i = 0;

        json_object_foreach ((json_t *) json, key, value) {
            keys[i++] = key;
        }
        if (flags & OVSDB_JSON_SORT) {
            qsort(keys, n, sizeof *keys, compare_keys);
        }
        ds_put_char(ds, '{');
        for (i = 0; i < n; i++) {
            if (i) {
                ds_put_char(ds, ',');
            }
            put_string(keys[i], strlen(keys[i]), ds);
            ds_put_char(ds, ':');
            ovsdb_json_to_ds(json_object_get(json, keys[i]), flags, ds);
        }
        ds_put_char(ds, '}');
        free(keys);
        break;
    }
    }
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

/* Strings are escaped as lib/json.c does it, which is Open vSwitch's way
 * too. */
static void
put_string(const char *s, size_t length, struct ds *ds)
{
    json_t *string;
    size_t i;

    /* Most strings (every column name) need no escape: copy them. */
    for (i = 0; i < length; i++) {
        unsigned char c = s[i];

        if (c < 0x20 || c == '"' || c == '\\') {
            break;
        }
    }
    if (i == length) {
        ds_put_char(ds, '"');
        ds_put_buffer(ds, s, length);
        ds_put_char(ds, '"');
        return;
    }

    string = json_stringn_nocheck(s, length);

    jsonx_to_ds(string, 0, ds);
    json_decref(string);
}

static int
compare_keys(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;

    return strcmp(*a, *b);
}

/* Appends the decimal form of 'value' to 'ds', as "%lld" would. */
static void
put_integer(json_int_t value, struct ds *ds)
{
    char buf[24];
    char *p = buf + sizeof buf;
    unsigned long long int u = (value < 0
                                ? -(unsigned long long int) value
                                : (unsigned long long int) value);

    do {
        *--p = '0' + u % 10;
        u /= 10;
    } while (u);
    if (value < 0) {
        *--p = '-';
    }
    ds_put_buffer(ds, p, buf + sizeof buf - p);
}
