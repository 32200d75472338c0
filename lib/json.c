/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "json.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "util.h"

/* What kind of top-level value the parser is in the middle of. */
enum jsonx_kind {
    JSONX_NONE,                 /* Between values. */
    JSONX_CONTAINER,            /* An object or an array. */
    JSONX_STRING,               /* A string. */
    JSONX_BARE                  /* A number, true, false or null. */
};

/* An incremental parser.  'buf' holds the bytes fed and not yet returned as
 * values: bytes [start, scan) belong to the value being scanned and have
 * been looked at, bytes [scan, size) have not. */
struct jsonx_parser {
    char *buf;
    size_t start;               /* Offset of the current value's start. */
    size_t scan;                /* Offset of the next byte to look at. */
    size_t size;                /* Bytes in 'buf'. */
    size_t allocated;           /* Bytes allocated for 'buf'. */

    /* Scanner state for the current value. */
    enum jsonx_kind kind;
    int depth;                  /* Open brackets and braces. */
    bool in_string;             /* Inside a string? */
    bool escaped;               /* Just after a backslash in a string? */

    bool finished;              /* jsonx_parser_finish() called? */
    int error;                  /* 0, EPROTO or EMSGSIZE. */
    char *error_string;         /* Explains 'error'; NULL if 0. */

    size_t max_size;            /* Largest value accepted, in bytes. */
    int max_depth;              /* Deepest nesting accepted. */
};

static void put_value(struct ds *, const json_t *, int flags, int level);
static void put_string(struct ds *, const char *, size_t length);
static void put_integer(struct ds *, json_int_t);
static void put_real(struct ds *, double, int flags);
static void put_newline(struct ds *, int flags, int level);
static void put_closing_newline(struct ds *, int flags, int level);
static bool utf8_sequence_length(const unsigned char *, size_t n,
                                 size_t *lengthp);
static bool is_json_space(unsigned char);
static bool scan_value(struct jsonx_parser *, size_t *endp);
static int parse_slice(struct jsonx_parser *, size_t end, json_t **valuep);
static int parser_fail(struct jsonx_parser *, int error,
                       const char *format, ...) DPS_PRINTF_FORMAT(3, 4);

/* ------------------------------------------------------------------------
 * Serialization.
 * ------------------------------------------------------------------------ */

/* Returns 'json' serialized as text, in the compact form, or as 'flags'
 * (JSONX_PRETTY, JSONX_SORT_KEYS) ask.  The caller must free() the result.
 * A NULL 'json' is written as "null". */
char *
jsonx_to_string(const json_t *json, int flags)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    jsonx_to_ds(json, flags, &ds);
    return ds_steal_cstr(&ds);
}

/* Appends 'json' serialized as text to 'ds', as jsonx_to_string() would
 * return it. */
void
jsonx_to_ds(const json_t *json, int flags, struct ds *ds)
{
    put_value(ds, json, flags, 0);
}

/* ------------------------------------------------------------------------
 * Builders and queries.
 * ------------------------------------------------------------------------ */

/* Returns a new array of the 'n' json_t values that follow, in order.  Takes
 * ownership of each of them; none may be NULL. */
json_t *
jsonx_array(size_t n, ...)
{
    json_t *array = json_array();
    va_list args;

    util_assert(array);
    va_start(args, n);
    for (size_t i = 0; i < n; i++) {
        json_t *element = va_arg(args, json_t *);

        util_assert(element);
        util_assert(!json_array_append_new(array, element));
    }
    va_end(args);
    return array;
}

/* Returns a new JSON string holding the null-terminated 's'.  Unlike
 * json_string() it never fails: each byte of 's' that is not part of valid
 * UTF-8 becomes U+FFFD, the replacement character, so that text of unknown
 * origin (a command's output, a file name) can always be sent. */
json_t *
jsonx_string(const char *s)
{
    const unsigned char *p = (const unsigned char *) s;
    size_t n = strlen(s);
    struct ds fixed = DS_EMPTY_INITIALIZER;
    json_t *json;

    json = json_stringn(s, n);
    if (json) {
        return json;
    }

    while (n > 0) {
        size_t length;

        if (utf8_sequence_length(p, n, &length)) {
            ds_put_buffer(&fixed, (const char *) p, length);
        } else {
            length = 1;
            ds_put_cstr(&fixed, "\xef\xbf\xbd");
        }
        p += length;
        n -= length;
    }
    json = json_stringn(ds_cstr(&fixed), fixed.length);
    util_assert(json);
    ds_destroy(&fixed);
    return json;
}

/* Returns a new array of JSON strings made from the 'n' strings in
 * 'strings', each as by jsonx_string(). */
json_t *
jsonx_string_array(const char *const *strings, size_t n)
{
    json_t *array = json_array();

    util_assert(array);
    for (size_t i = 0; i < n; i++) {
        util_assert(!json_array_append_new(array, jsonx_string(strings[i])));
    }
    return array;
}

/* Returns true if 'json' is an array whose elements are all strings (an
 * empty array counts). */
bool
jsonx_is_string_array(const json_t *json)
{
    size_t i;
    json_t *element;

    if (!json_is_array(json)) {
        return false;
    }
    json_array_foreach (json, i, element) {
        if (!json_is_string(element)) {
            return false;
        }
    }
    return true;
}

/* Returns the name of the type of 'json', for messages: "object", "array",
 * "string", "integer", "real", "boolean" or "null" (also for a NULL
 * 'json'). */
const char *
jsonx_type_name(const json_t *json)
{
    switch (json ? json_typeof(json) : JSON_NULL) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
        return "integer";
    case JSON_REAL:
        return "real";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    case JSON_NULL:
    default:
        return "null";
    }
}

/* ------------------------------------------------------------------------
 * Incremental parser.
 * ------------------------------------------------------------------------ */

/* Creates a parser that accepts values of at most 'max_size' bytes of text
 * (leading whitespace not counted) nested at most 'max_depth' levels deep
 * (a top-level array or object is one level).  0 for either means the
 * JSONX_DEFAULT_* limit. */
struct jsonx_parser *
jsonx_parser_create(size_t max_size, int max_depth)
{
    struct jsonx_parser *p = xzalloc(sizeof *p);

    p->max_size = max_size ? max_size : JSONX_DEFAULT_MAX_SIZE;
    p->max_depth = max_depth > 0 ? max_depth : JSONX_DEFAULT_MAX_DEPTH;
    return p;
}

/* Frees 'p' and any input it still holds.  Does nothing if 'p' is NULL. */
void
jsonx_parser_destroy(struct jsonx_parser *p)
{
    if (p) {
        free(p->buf);
        free(p->error_string);
        free(p);
    }
}

/* Changes the size limit of 'p' to 'max_size' bytes (0 for the default).
 * The new limit applies to the value being scanned, too. */
void
jsonx_parser_set_max_size(struct jsonx_parser *p, size_t max_size)
{
    p->max_size = max_size ? max_size : JSONX_DEFAULT_MAX_SIZE;
}

/* Hands the 'size' bytes at 'data' to 'p', after those fed before.  The
 * values they complete come out of jsonx_parser_next().  Input fed after an
 * error or after jsonx_parser_finish() is ignored. */
void
jsonx_parser_feed(struct jsonx_parser *p, const void *data, size_t size)
{
    if (p->error || p->finished || !size) {
        return;
    }

    /* Drop the bytes of values already returned, so that the buffer holds
     * at most one partial value plus the latest input. */
    if (p->start > 0) {
        memmove(p->buf, p->buf + p->start, p->size - p->start);
        p->scan -= p->start;
        p->size -= p->start;
        p->start = 0;
    }

    if (size > p->allocated - p->size) {
        size_t needed = p->size + size;

        p->allocated = MAX(needed, 2 * p->allocated);
        p->buf = xrealloc(p->buf, p->allocated);
    }
    memcpy(p->buf + p->size, data, size);
    p->size += size;
}

/* Tells 'p' that its input has ended: a value still incomplete is then an
 * error ("truncated"), and once the values before it have been returned,
 * jsonx_parser_next() returns EOF. */
void
jsonx_parser_finish(struct jsonx_parser *p)
{
    p->finished = true;
}

/* Tries to take the next complete value out of 'p'.  Returns:
 *
 *   0         a value: '*valuep' holds it (one reference, the caller's);
 *   EAGAIN    more input is needed;
 *   EOF       jsonx_parser_finish() was called and every value is out;
 *   EPROTO    bad input (see jsonx_parser_get_error());
 *   EMSGSIZE  a value is longer than the parser's size limit.
 *
 * '*valuep' is NULL except when 0 is returned.  Errors are sticky. */
int
jsonx_parser_next(struct jsonx_parser *p, json_t **valuep)
{
    size_t end;

    *valuep = NULL;
    if (p->error) {
        return p->error;
    }

    if (scan_value(p, &end)) {
        return parse_slice(p, end, valuep);
    } else if (p->error) {
        return p->error;
    } else if (p->size - p->start > p->max_size) {
        return parser_fail(p, EMSGSIZE,
                           "JSON value is longer than %zu bytes "
                           "(oversized message)", p->max_size);
    } else if (!p->finished) {
        return EAGAIN;
    } else if (p->kind == JSONX_NONE) {
        return EOF;
    } else if (p->kind == JSONX_BARE) {
        /* A number or literal at the very end of the input ends there. */
        return parse_slice(p, p->size, valuep);
    } else {
        return parser_fail(p, EPROTO, "unexpected end of input in the "
                           "middle of a JSON value (truncated)");
    }
}

/* Returns a string explaining why 'p' failed, or NULL if it has not. */
const char *
jsonx_parser_get_error(const struct jsonx_parser *p)
{
    return p->error_string;
}

/* Returns true if 'p' holds no part of a value: all it was fed has come out
 * as values or was whitespace (or it failed). */
bool
jsonx_parser_is_idle(const struct jsonx_parser *p)
{
    if (p->kind != JSONX_NONE) {
        return false;
    }
    for (size_t i = p->scan; i < p->size; i++) {
        if (!is_json_space(p->buf[i])) {
            return false;
        }
    }
    return true;
}

/* Returns the number of bytes 'p' holds that have not come out as values,
 * not counting whitespace already skipped. */
size_t
jsonx_parser_get_buffered(const struct jsonx_parser *p)
{
    return p->size - p->start;
}

/* Parses 'string' as one JSON value of any type (surrounding whitespace
 * allowed).  Returns the value, or NULL and, if 'errorp' is nonnull, stores
 * in '*errorp' an error message the caller must free(). */
json_t *
jsonx_from_string(const char *string, char **errorp)
{
    struct jsonx_parser *p = jsonx_parser_create(SIZE_MAX, 0);
    json_t *value, *extra;
    int error;

    jsonx_parser_feed(p, string, strlen(string));
    jsonx_parser_finish(p);
    error = jsonx_parser_next(p, &value);
    if (!error) {
        error = jsonx_parser_next(p, &extra);
        if (error == EOF) {
            error = 0;
        } else if (!error) {
            json_decref(extra);
            parser_fail(p, EPROTO, "unexpected text after the JSON value");
        }
    } else if (error == EOF) {
        parser_fail(p, EPROTO, "empty input where a JSON value was "
                    "expected");
    }

    if (errorp) {
        *errorp = p->error ? xstrdup(p->error_string) : NULL;
    }
    if (p->error) {
        json_decref(value);
        value = NULL;
    }
    jsonx_parser_destroy(p);
    return value;
}

/* ------------------------------------------------------------------------
 * Serialization helpers.
 * ------------------------------------------------------------------------ */

/* An object member, for sorting. */
struct member {
    const char *key;
    size_t key_len;
    const json_t *value;
};

static int
compare_members(const void *a_, const void *b_)
{
    const struct member *a = a_;
    const struct member *b = b_;
    int cmp = memcmp(a->key, b->key, MIN(a->key_len, b->key_len));

    return (cmp ? cmp
            : a->key_len < b->key_len ? -1
            : a->key_len > b->key_len);
}

/* Writes one object member, preceded by a comma unless it is the
 * object's first. */
static void
put_member(struct ds *ds, bool first, const char *key, size_t key_len,
           const json_t *value, int flags, int level)
{
    if (!first) {
        ds_put_char(ds, ',');
    }
    put_newline(ds, flags, level + 1);
    put_string(ds, key, key_len);
    ds_put_cstr(ds, flags & JSONX_PRETTY ? ": " : ":");
    put_value(ds, value, flags, level + 1);
}

static void
put_object(struct ds *ds, const json_t *json, int flags, int level)
{
    size_t n = json_object_size(json);
    const char *key;
    size_t key_len;
    json_t *value;

    if (!n) {
        ds_put_cstr(ds, "{}");
        return;
    }

    ds_put_char(ds, '{');
    if (flags & JSONX_SORT_KEYS) {
        struct member *members = xmalloc(n * sizeof *members);
        size_t i = 0;

        json_object_keylen_foreach ((json_t *) json, key, key_len, value) {
            members[i].key = key;
            members[i].key_len = key_len;
            members[i].value = value;
            i++;
        }
        qsort(members, n, sizeof *members, compare_members);
        for (i = 0; i < n; i++) {
            put_member(ds, !i, members[i].key, members[i].key_len,
                       members[i].value, flags, level);
        }
        free(members);
    } else {
        /* In insertion order: no copy of the members, which matters for
         * OVSDB, whose every log record passes through here. */
        bool first = true;

        json_object_keylen_foreach ((json_t *) json, key, key_len, value) {
            put_member(ds, first, key, key_len, value, flags, level);
            first = false;
        }
    }
    put_closing_newline(ds, flags, level);
    ds_put_char(ds, '}');
}

static void
put_array(struct ds *ds, const json_t *json, int flags, int level)
{
    size_t n = json_array_size(json);

    if (!n) {
        ds_put_cstr(ds, "[]");
        return;
    }

    ds_put_char(ds, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) {
            ds_put_char(ds, ',');
        }
        put_newline(ds, flags, level + 1);
        put_value(ds, json_array_get(json, i), flags, level + 1);
    }
    put_closing_newline(ds, flags, level);
    ds_put_char(ds, ']');
}

static void
put_value(struct ds *ds, const json_t *json, int flags, int level)
{
    switch (json ? json_typeof(json) : JSON_NULL) {
    case JSON_OBJECT:
        put_object(ds, json, flags, level);
        break;
    case JSON_ARRAY:
        put_array(ds, json, flags, level);
        break;
    case JSON_STRING:
        put_string(ds, json_string_value(json), json_string_length(json));
        break;
    case JSON_INTEGER:
        put_integer(ds, json_integer_value(json));
        break;
    case JSON_REAL:
        put_real(ds, json_real_value(json), flags);
        break;
    case JSON_TRUE:
        ds_put_cstr(ds, "true");
        break;
    case JSON_FALSE:
        ds_put_cstr(ds, "false");
        break;
    case JSON_NULL:
    default:
        ds_put_cstr(ds, "null");
        break;
    }
}

static void
put_newline(struct ds *ds, int flags, int level)
{
    if (flags & JSONX_PRETTY) {
        ds_put_char(ds, '\n');
        ds_put_char_multiple(ds, ' ', 2 * (size_t) level);
    }
}

/* Before the closing bracket of an array or object at 'level'. */
static void
put_closing_newline(struct ds *ds, int flags, int level)
{
    if (!(flags & JSONX_PRETTY_OVS)) {
        put_newline(ds, flags, level);
    }
}

/* Writes the 'length' bytes at 's' as a JSON string.  Bytes from 0x80 up
 * are copied: jansson guarantees its strings are valid UTF-8. */
static void
put_string(struct ds *ds, const char *s, size_t length)
{
    size_t i;

    /* Most strings (every column name, most values) need no escape: copy
     * them whole. */
    for (i = 0; i < length; i++) {
        unsigned char c = s[i];

        if (c < 0x20 || c == '"' || c == '\\') {
            break;
        }
    }
    ds_put_char(ds, '"');
    ds_put_buffer(ds, s, i);
    for (; i < length; i++) {
        unsigned char c = s[i];

        switch (c) {
        case '"':
            ds_put_cstr(ds, "\\\"");
            break;
        case '\\':
            ds_put_cstr(ds, "\\\\");
            break;
        case '\b':
            ds_put_cstr(ds, "\\b");
            break;
        case '\f':
            ds_put_cstr(ds, "\\f");
            break;
        case '\n':
            ds_put_cstr(ds, "\\n");
            break;
        case '\r':
            ds_put_cstr(ds, "\\r");
            break;
        case '\t':
            ds_put_cstr(ds, "\\t");
            break;
        default:
            if (c < 0x20) {
                ds_put_format(ds, "\\u%04x", c);
            } else {
                ds_put_char(ds, c);
            }
            break;
        }
    }
    ds_put_char(ds, '"');
}

/* Writes 'value' in decimal, as "%lld" would, without the cost of
 * printf(): database files are mostly integers and UUIDs. */
static void
put_integer(struct ds *ds, json_int_t value)
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

/* Writes 'd' with as few digits as read back as exactly 'd', and always in
 * a form that parses as a real rather than an integer; with
 * JSONX_SHORT_REALS in 'flags', as "%.15g" instead, and a non-finite 'd' as
 * null, as Open vSwitch writes OVSDB files. */
static void
put_real(struct ds *ds, double d, int flags)
{
    char buf[64];

    if (flags & JSONX_SHORT_REALS) {
        if (isfinite(d)) {
            ds_put_format(ds, "%.*g", DBL_DIG, d);
        } else {
            ds_put_cstr(ds, "null");
        }
        return;
    }

    for (int precision = 15; ; precision++) {
        snprintf(buf, sizeof buf, "%.*g", precision, d);
        if (precision >= 17 || strtod(buf, NULL) == d) {
            break;
        }
    }
    ds_put_cstr(ds, buf);
    if (!strpbrk(buf, ".eEin")) {
        ds_put_cstr(ds, ".0");
    }
}

/* If the 'n' bytes at 'p' begin with a well-formed UTF-8 sequence (no
 * overlong forms, no surrogates, nothing above U+10FFFF), stores its length
 * in '*lengthp' and returns true; otherwise returns false. */
static bool
utf8_sequence_length(const unsigned char *p, size_t n, size_t *lengthp)
{
    unsigned int c = p[0];
    unsigned int code, min;
    size_t length;

    if (c < 0x80) {
        *lengthp = 1;
        return true;
    } else if (c >= 0xc2 && c <= 0xdf) {
        length = 2;
        code = c & 0x1f;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        length = 3;
        code = c & 0x0f;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        length = 4;
        code = c & 0x07;
        min = 0x10000;
    } else {
        return false;
    }

    if (n < length) {
        return false;
    }
    for (size_t i = 1; i < length; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            return false;
        }
        code = (code << 6) | (p[i] & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return false;
    }
    *lengthp = length;
    return true;
}

/* ------------------------------------------------------------------------
 * Parser helpers.
 * ------------------------------------------------------------------------ */

/* JSON's whitespace: narrower than isspace(). */
static bool
is_json_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool
is_bare_delimiter(unsigned char c)
{
    return is_json_space(c) || (c && strchr("{}[]\",:", c));
}

/* Looks at the unscanned input of 'p' for the end of the current top-level
 * value.  Returns true and stores in '*endp' the offset just past it if it
 * is there; otherwise returns false, having remembered how far it got, or
 * having failed 'p' for bad input. */
static bool
scan_value(struct jsonx_parser *p, size_t *endp)
{
    while (p->scan < p->size) {
        unsigned char c = p->buf[p->scan];

        if (p->kind == JSONX_NONE) {
            if (is_json_space(c)) {
                p->start = ++p->scan;
                continue;
            }
            if (c == '{' || c == '[') {
                p->kind = JSONX_CONTAINER;
                p->depth = 1;
            } else if (c == '"') {
                p->kind = JSONX_STRING;
                p->in_string = true;
            } else if (c == '-' || isdigit(c) || (c && strchr("tfn", c))) {
                p->kind = JSONX_BARE;
            } else {
                parser_fail(p, EPROTO, "JSON syntax error: unexpected %s%c%s"
                            "(0x%02x) where a value should start",
                            isprint(c) ? "'" : "", isprint(c) ? c : ' ',
                            isprint(c) ? "' " : "", c);
                return false;
            }
            p->scan++;
            continue;
        }

        if (p->kind == JSONX_BARE) {
            if (is_bare_delimiter(c)) {
                *endp = p->scan;
                return true;
            }
            p->scan++;
            continue;
        }

        p->scan++;
        if (p->in_string) {
            if (p->escaped) {
                p->escaped = false;
            } else if (c == '\\') {
                p->escaped = true;
            } else if (c == '"') {
                p->in_string = false;
                if (p->kind == JSONX_STRING) {
                    *endp = p->scan;
                    return true;
                }
            }
        } else if (c == '"') {
            p->in_string = true;
        } else if (c == '{' || c == '[') {
            if (++p->depth > p->max_depth) {
                parser_fail(p, EPROTO, "JSON nesting is deeper than %d levels",
                            p->max_depth);
                return false;
            }
        } else if (c == '}' || c == ']') {
            if (!--p->depth) {
                *endp = p->scan;
                return true;
            }
        }
    }
    return false;
}

/* Parses bytes [start, end) of 'p', which scan_value() found to hold one
 * value, and moves 'p' past them.  Returns 0 with the value in '*valuep',
 * or an error. */
static int
parse_slice(struct jsonx_parser *p, size_t end, json_t **valuep)
{
    size_t size = end - p->start;
    json_error_t error;
    json_t *value;

    if (size > p->max_size) {
        return parser_fail(p, EMSGSIZE, "JSON value is longer than %zu bytes "
                           "(oversized message)", p->max_size);
    }

    value = json_loadb(p->buf + p->start, size,
                       JSON_DECODE_ANY | JSON_ALLOW_NUL, &error);
    if (!value) {
        if (json_error_code(&error) == json_error_invalid_utf8) {
            return parser_fail(p, EPROTO, "invalid UTF-8 in JSON input");
        }
        return parser_fail(p, EPROTO, "JSON syntax error: %s", error.text);
    }

    p->start = p->scan = end;
    p->kind = JSONX_NONE;
    p->depth = 0;
    p->in_string = p->escaped = false;
    *valuep = value;
    return 0;
}

/* Puts 'p' into the failed state with 'error' explained by 'format', and
 * returns 'error'.  Frees the buffered input, which will never be used. */
static int
parser_fail(struct jsonx_parser *p, int error, const char *format, ...)
{
    va_list args;

    if (!p->error) {
        va_start(args, format);
        p->error_string = xvasprintf(format, args);
        va_end(args);
        p->error = error;
    }
    free(p->buf);
    p->buf = NULL;
    p->start = p->scan = p->size = p->allocated = 0;
    p->kind = JSONX_NONE;
    return p->error;
}
