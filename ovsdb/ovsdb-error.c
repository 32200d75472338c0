/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb-json.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_error);

static const char *errno_text(int);

static struct ovsdb_error *
error_create_valist(const json_t *syntax, const char *tag,
                    const char *details, va_list args)
    DPS_PRINTF_FORMAT(3, 0);

/* Returns a new error with 'tag' and, if 'details' is nonnull, the
 * printf-formatted detail text. */
struct ovsdb_error *
ovsdb_error(const char *tag, const char *details, ...)
{
    struct ovsdb_error *error;
    va_list args;

    va_start(args, details);
    error = error_create_valist(NULL, tag, details, args);
    va_end(args);
    return error;
}

/* Like ovsdb_error(), also recording a copy of 'syntax', the JSON that was
 * found wrong. */
struct ovsdb_error *
ovsdb_syntax_error(const json_t *syntax, const char *tag,
                   const char *details, ...)
{
    struct ovsdb_error *error;
    va_list args;

    va_start(args, details);
    error = error_create_valist(syntax, tag ? tag : "syntax error",
                                details, args);
    va_end(args);
    return error;
}

/* Returns an "I/O error" for the positive errno 'error', or for EOF to
 * report an unexpected end of file. */
struct ovsdb_error *
ovsdb_io_error(int error, const char *details, ...)
{
    struct ovsdb_error *e;
    va_list args;

    va_start(args, details);
    e = error_create_valist(NULL, "I/O error", details, args);
    va_end(args);
    e->errno_ = error;
    return e;
}

/* Prefixes the details of 'error' with a printf-formatted 'prefix' and
 * ": ", and returns 'error'. */
struct ovsdb_error *
ovsdb_wrap_error(struct ovsdb_error *error, const char *prefix, ...)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    va_list args;

    va_start(args, prefix);
    ds_put_format_valist(&ds, prefix, args);
    va_end(args);
    if (error->details) {
        ds_put_format(&ds, ": %s", error->details);
        free(error->details);
    }
    error->details = ds_steal_cstr(&ds);
    return error;
}

/* Frees 'error' (which may be NULL). */
void
ovsdb_error_destroy(struct ovsdb_error *error)
{
    if (error) {
        free(error->tag);
        free(error->details);
        if (error->syntax) {
            json_decref(error->syntax);
        }
        free(error);
    }
}

/* Returns a copy of 'error'. */
struct ovsdb_error *
ovsdb_error_clone(const struct ovsdb_error *error)
{
    struct ovsdb_error *copy = xzalloc(sizeof *copy);

    copy->tag = xstrdup(error->tag);
    copy->details = error->details ? xstrdup(error->details) : NULL;
    copy->syntax = error->syntax ? json_deep_copy(error->syntax) : NULL;
    copy->errno_ = error->errno_;
    return copy;
}

/* Returns 'error' as an RFC 7047 error object: {"error": tag, "details":
 * ..., "syntax": ..., "io-error": ...}. */
json_t *
ovsdb_error_to_json(const struct ovsdb_error *error)
{
    json_t *obj = json_object();

    json_object_set_new(obj, "error", json_string(error->tag));
    if (error->details) {
        json_object_set_new(obj, "details", json_string(error->details));
    }
    if (error->syntax) {
        char *s = ovsdb_json_to_string(error->syntax, OVSDB_JSON_SORT);

        json_object_set_new(obj, "syntax", json_string(s));
        free(s);
    }
    if (error->errno_) {
        json_object_set_new(obj, "io-error",
                            json_string(errno_text(error->errno_)));
    }
    return obj;
}

/* Returns 'error' as one line of text, the way the tools print it:
 * [syntax "JSON": ]tag[: details][ (strerror)]. */
char *
ovsdb_error_to_string(const struct ovsdb_error *error)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (error->syntax) {
        char *s = ovsdb_json_to_string(error->syntax, OVSDB_JSON_SORT);

        ds_put_format(&ds, "syntax \"%s\": ", s);
        free(s);
    }
    ds_put_cstr(&ds, error->tag);
    if (error->details) {
        ds_put_format(&ds, ": %s", error->details);
    }
    if (error->errno_) {
        ds_put_format(&ds, " (%s)", errno_text(error->errno_));
    }
    return ds_steal_cstr(&ds);
}

/* Logs 'error', which should not have happened, as Open vSwitch does
 * ("unexpected ovsdb error: ..." at ERR level in module "ovsdb_error"). */
void
ovsdb_error_log_unexpected(const struct ovsdb_error *error)
{
    char *s = ovsdb_error_to_string(error);

    VLOG_ERR("unexpected ovsdb error: %s", s);
    free(s);
}

/* Returns the tag of 'error'. */
const char *
ovsdb_error_get_tag(const struct ovsdb_error *error)
{
    return error->tag;
}

static struct ovsdb_error *
error_create_valist(const json_t *syntax, const char *tag,
                    const char *details, va_list args)
{
    struct ovsdb_error *error = xzalloc(sizeof *error);

    error->tag = xstrdup(tag);
    error->details = details ? xvasprintf(details, args) : NULL;
    error->syntax = syntax ? json_deep_copy(syntax) : NULL;
    return error;
}

static const char *
errno_text(int error)
{
    return error == EOF ? "End of file" : util_strerror(error);
}
