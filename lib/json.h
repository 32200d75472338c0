/* JSON helpers over jansson: serialization the way Open vSwitch writes JSON,
 * small builders, and an incremental parser for a stream of JSON values.
 *
 * Values are jansson's json_t (see <jansson.h>); this module never parses
 * JSON text itself, it only finds where one value ends and hands that slice
 * to json_loadb().  Because jansson owns the json_ prefix, every name here
 * starts with "jsonx_" ("JSON extras").
 *
 * Serialization (jsonx_to_string(), jsonx_to_ds()) writes:
 *   - no spaces at all in the compact form;
 *   - object members in insertion order (jansson keeps it), or sorted by
 *     key with JSONX_SORT_KEYS;
 *   - strings as UTF-8, escaping only '"', '\\' and control characters
 *     (\b \f \n \r \t, the rest as \u00XX), so non-ASCII text stays
 *     readable;
 *   - integers as integers, and reals in the shortest form that reads back
 *     as the same double, always with a '.' or an exponent so that a real
 *     stays a real when parsed again (1.0 is written "1.0", not "1").
 * With JSONX_PRETTY, arrays and objects are spread over lines indented by
 * two spaces per level, with ": " after keys.
 *
 * The incremental parser ('struct jsonx_parser') accepts a byte stream that
 * carries JSON values back to back, optionally separated by whitespace, in
 * chunks cut anywhere, and yields the complete values in order.  It rejects
 * garbage, invalid UTF-8, nesting deeper than its depth limit, a value
 * longer than its size limit, and (once told the input has ended) a
 * truncated value; after an error it stays failed.
 *
 * Thread safety: a parser belongs to one thread at a time; the other
 * functions are reentrant.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef JSON_H
#define JSON_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct ds;

/* ------------------------------------------------------------------------
 * Serialization.
 * ------------------------------------------------------------------------ */

/* Flags for jsonx_to_string() and jsonx_to_ds(); 0 is the compact form. */
enum {
    JSONX_PRETTY = 1 << 0,      /* Multi-line, indented. */
    JSONX_SORT_KEYS = 1 << 1,   /* Object members sorted by key. */
    JSONX_SHORT_REALS = 1 << 2, /* Reals as "%.15g", as Open vSwitch writes
                                 * them in OVSDB files: 1.0 is "1". */
    JSONX_PRETTY_OVS = 1 << 3   /* With JSONX_PRETTY, closing brackets right
                                 * after the last element, as Open vSwitch's
                                 * --pretty output has them. */
};

/* jsonx_to_string() returns a string the caller must free();
 * jsonx_to_ds() appends to a dynamic string.  A NULL json_t is "null". */
char *jsonx_to_string(const json_t *, int flags);
void jsonx_to_ds(const json_t *, int flags, struct ds *);

/* ------------------------------------------------------------------------
 * Builders and queries.
 * ------------------------------------------------------------------------ */

/* jsonx_array() makes an array of its 'n' arguments, each a json_t *
 * whose reference it takes.  jsonx_string() and jsonx_string_array() never
 * fail: invalid UTF-8 becomes U+FFFD.  jsonx_type_name() names a value's
 * type for error messages ("object", "integer", ...). */
json_t *jsonx_array(size_t n, ...);
json_t *jsonx_string(const char *);
json_t *jsonx_string_array(const char *const *strings, size_t n);
bool jsonx_is_string_array(const json_t *);
const char *jsonx_type_name(const json_t *);

/* ------------------------------------------------------------------------
 * Incremental parser.
 * ------------------------------------------------------------------------ */

/* Default limits for jsonx_parser_create(). */
#define JSONX_DEFAULT_MAX_SIZE (64u * 1024 * 1024)   /* Bytes per value. */
#define JSONX_DEFAULT_MAX_DEPTH 1000                 /* Nesting levels. */

/* Use: jsonx_parser_create() (0 for either limit means the default), then
 * any number of jsonx_parser_feed() calls, each followed by
 * jsonx_parser_next() until it stops returning 0; jsonx_parser_finish()
 * when the input ends.  jsonx_parser_next() returns 0 with a new reference
 * in '*valuep', EAGAIN (more input needed), EOF (finished and empty),
 * EPROTO (bad input) or EMSGSIZE (value too large); the last two come with
 * an explanation from jsonx_parser_get_error().  jsonx_parser_is_idle()
 * says whether the input so far ended between values.
 *
 * jsonx_from_string() parses a whole string holding exactly one value;
 * on failure it returns NULL and, if 'errorp' is nonnull, an error message
 * in '*errorp' that the caller must free(). */
struct jsonx_parser *jsonx_parser_create(size_t max_size, int max_depth);
void jsonx_parser_destroy(struct jsonx_parser *);
void jsonx_parser_set_max_size(struct jsonx_parser *, size_t max_size);

void jsonx_parser_feed(struct jsonx_parser *, const void *data, size_t size);
void jsonx_parser_finish(struct jsonx_parser *);
int jsonx_parser_next(struct jsonx_parser *, json_t **valuep);

const char *jsonx_parser_get_error(const struct jsonx_parser *);
bool jsonx_parser_is_idle(const struct jsonx_parser *);
size_t jsonx_parser_get_buffered(const struct jsonx_parser *);

json_t *jsonx_from_string(const char *string, char **errorp);

#endif /* json.h */
