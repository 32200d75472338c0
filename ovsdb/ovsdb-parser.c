/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-parser.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ovsdb-error.h"
#include "util.h"

static bool json_matches(const json_t *, int types);

/* Starts parsing the JSON object 'json', described by the printf-formatted
 * 'name'.  If 'json' is not an object the parser starts in error. */
void
ovsdb_parser_init(struct ovsdb_parser *parser, const json_t *json,
                  const char *name, ...)
{
    va_list args;

    va_start(args, name);
    parser->name = xvasprintf(name, args);
    va_end(args);
    parser->json = json_is_object(json) ? json : NULL;
    parser->error = NULL;
    parser->used = NULL;
    parser->n_used = parser->allocated = 0;
    if (!parser->json) {
        parser->error = ovsdb_error("syntax error",
                                    "Parsing %s failed: Object expected.",
                                    parser->name);
    }
}

/* Returns member 'name' of the object if it has one of the JSON 'types',
 * otherwise NULL (recording an error unless the member is absent and
 * OP_OPTIONAL). */
const json_t *
ovsdb_parser_member(struct ovsdb_parser *parser, const char *name, int types)
{
    const json_t *value;

    if (parser->error) {
        return NULL;
    }
    if (parser->n_used >= parser->allocated) {
        parser->allocated = parser->allocated ? parser->allocated * 2 : 8;
        parser->used = xrealloc(parser->used,
                                parser->allocated * sizeof *parser->used);
    }
    parser->used[parser->n_used++] = name;

    value = json_object_get(parser->json, name);
    if (!value) {
        if (!(types & OP_OPTIONAL)) {
            ovsdb_parser_raise_error(parser, "Required '%s' member is "
                                     "missing.", name);
        }
        return NULL;
    }
    if (!json_matches(value, types)
        || ((types & OP_ID)
            && (!json_is_string(value)
                || !ovsdb_parser_is_id(json_string_value(value))))) {
        ovsdb_parser_raise_error(parser, "Type mismatch for member '%s'.",
                                 name);
        return NULL;
    }
    return value;
}

/* Records an error "Parsing <name> failed: <format...>", unless one is
 * already recorded. */
void
ovsdb_parser_raise_error(struct ovsdb_parser *parser, const char *format, ...)
{
    if (!parser->error) {
        va_list args;
        char *message;

        va_start(args, format);
        message = xvasprintf(format, args);
        va_end(args);
        parser->error = ovsdb_syntax_error(parser->json, NULL,
                                           "Parsing %s failed: %s",
                                           parser->name, message);
        free(message);
    }
}

/* Returns true if an error has been recorded. */
bool
ovsdb_parser_has_error(const struct ovsdb_parser *parser)
{
    return parser->error != NULL;
}

/* Returns a copy of the recorded error, or NULL. */
struct ovsdb_error *
ovsdb_parser_get_error(const struct ovsdb_parser *parser)
{
    return parser->error ? ovsdb_error_clone(parser->error) : NULL;
}

/* Checks that every member of the object was asked for, frees the parser,
 * and returns the first error, which the caller now owns. */
struct ovsdb_error *
ovsdb_parser_finish(struct ovsdb_parser *parser)
{
    struct ovsdb_error *error;

    if (!parser->error) {
        const char *key;
        json_t *value;

        json_object_foreach ((json_t *) parser->json, key, value) {
            size_t i;

            for (i = 0; i < parser->n_used; i++) {
                if (!strcmp(parser->used[i], key)) {
                    break;
                }
            }
            if (i == parser->n_used) {
                ovsdb_parser_raise_error(parser, "Member '%s' is present "
                                         "but not allowed here.", key);
                break;
            }
        }
    }
    error = parser->error;
    free(parser->name);
    free(parser->used);
    memset(parser, 0, sizeof *parser);
    return error;
}

/* Returns true if 's' is an RFC 7047 <id>: a letter or '_' followed by
 * letters, digits and '_'. */
bool
ovsdb_parser_is_id(const char *s)
{
    if (!isalpha((unsigned char) *s) && *s != '_') {
        return false;
    }
    for (s++; *s; s++) {
        if (!isalnum((unsigned char) *s) && *s != '_') {
            return false;
        }
    }
    return true;
}

static bool
json_matches(const json_t *json, int types)
{
    switch (json_typeof(json)) {
    case JSON_NULL:
        return types & OP_NULL;
    case JSON_FALSE:
        return types & OP_FALSE;
    case JSON_TRUE:
        return types & OP_TRUE;
    case JSON_INTEGER:
        return types & OP_INTEGER;
    case JSON_REAL:
        return types & OP_NONINTEGER;
    case JSON_STRING:
        return types & (OP_STRING | OP_ID);
    case JSON_ARRAY:
        return types & OP_ARRAY;
    case JSON_OBJECT:
        return types & OP_OBJECT;
    }
    return false;
}
