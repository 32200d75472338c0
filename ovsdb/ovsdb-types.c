/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-types.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-parser.h"
#include "util.h"

static const char *const atomic_type_names[OVSDB_N_TYPES] = {
    [OVSDB_TYPE_VOID] = "void",
    [OVSDB_TYPE_INTEGER] = "integer",
    [OVSDB_TYPE_REAL] = "real",
    [OVSDB_TYPE_BOOLEAN] = "boolean",
    [OVSDB_TYPE_STRING] = "string",
    [OVSDB_TYPE_UUID] = "uuid",
};

static struct ovsdb_error *parse_atomic_type(const json_t *,
                                             enum ovsdb_atomic_type *);
static struct ovsdb_error *parse_constraints(struct ovsdb_base_type *,
                                             struct ovsdb_parser *);
static struct ovsdb_error *parse_count(const json_t *, const char *name,
                                       unsigned int dflt,
                                       unsigned int *count);
static void put_english_base(const struct ovsdb_base_type *, bool plural,
                             struct ds *);

/* Returns the schema name of 'type' ("integer", "string", ...). */
const char *
ovsdb_atomic_type_to_string(enum ovsdb_atomic_type type)
{
    return type < OVSDB_N_TYPES ? atomic_type_names[type] : "<invalid>";
}

/* Parses the schema name 's' into '*type'.  "void" is not accepted. */
bool
ovsdb_atomic_type_from_string(const char *s, enum ovsdb_atomic_type *type)
{
    int i;

    for (i = OVSDB_TYPE_INTEGER; i < OVSDB_N_TYPES; i++) {
        if (!strcmp(s, atomic_type_names[i])) {
            *type = i;
            return true;
        }
    }
    return false;
}

/* Initializes 'base' as 'type' without constraints. */
void
ovsdb_base_type_init(struct ovsdb_base_type *base,
                     enum ovsdb_atomic_type type)
{
    memset(base, 0, sizeof *base);
    base->type = type;
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        base->integer.min = INT64_MIN;
        base->integer.max = INT64_MAX;
        break;
    case OVSDB_TYPE_REAL:
        base->real.min = -DBL_MAX;
        base->real.max = DBL_MAX;
        break;
    case OVSDB_TYPE_STRING:
        base->string.min_len = 0;
        base->string.max_len = UINT_MAX;
        break;
    case OVSDB_TYPE_UUID:
        base->uuid.ref_type = OVSDB_REF_STRONG;
        break;
    case OVSDB_TYPE_VOID:
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_N_TYPES:
        break;
    }
}

/* Initializes 'dst' as a deep copy of 'src'.  A resolved 'ref_table' is
 * copied as is. */
void
ovsdb_base_type_clone(struct ovsdb_base_type *dst,
                      const struct ovsdb_base_type *src)
{
    *dst = *src;
    if (src->enum_) {
        struct ovsdb_type set_type;

        ovsdb_type_init_scalar(&set_type, src->type);
        set_type.n_min = 0;
        set_type.n_max = OVSDB_UNLIMITED;
        dst->enum_ = xmalloc(sizeof *dst->enum_);
        ovsdb_datum_clone(dst->enum_, src->enum_, &set_type);
    }
    if (src->type == OVSDB_TYPE_UUID && src->uuid.ref_table_name) {
        dst->uuid.ref_table_name = xstrdup(src->uuid.ref_table_name);
    }
}

/* Frees what 'base' owns. */
void
ovsdb_base_type_destroy(struct ovsdb_base_type *base)
{
    if (base->enum_) {
        struct ovsdb_type set_type;

        ovsdb_type_init_scalar(&set_type, base->type);
        ovsdb_datum_destroy(base->enum_, &set_type);
        free(base->enum_);
        base->enum_ = NULL;
    }
    if (base->type == OVSDB_TYPE_UUID) {
        free(base->uuid.ref_table_name);
        base->uuid.ref_table_name = NULL;
    }
}

/* Returns true if 'base' restricts the values of its atomic type. */
bool
ovsdb_base_type_has_constraints(const struct ovsdb_base_type *base)
{
    if (base->enum_) {
        return true;
    }
    switch (base->type) {
    case OVSDB_TYPE_INTEGER:
        return base->integer.min != INT64_MIN
               || base->integer.max != INT64_MAX;
    case OVSDB_TYPE_REAL:
        return base->real.min != -DBL_MAX || base->real.max != DBL_MAX;
    case OVSDB_TYPE_STRING:
        return base->string.min_len != 0 || base->string.max_len != UINT_MAX;
    case OVSDB_TYPE_UUID:
        return base->uuid.ref_table_name != NULL;
    case OVSDB_TYPE_VOID:
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_N_TYPES:
        break;
    }
    return false;
}

/* Returns true if 'base' is a reference to rows of a table. */
bool
ovsdb_base_type_is_ref(const struct ovsdb_base_type *base)
{
    return base->type == OVSDB_TYPE_UUID && base->uuid.ref_table_name;
}

/* Returns true if 'base' is a strong reference. */
bool
ovsdb_base_type_is_strong_ref(const struct ovsdb_base_type *base)
{
    return (ovsdb_base_type_is_ref(base)
            && base->uuid.ref_type == OVSDB_REF_STRONG);
}

/* Returns true if 'base' is a weak reference. */
bool
ovsdb_base_type_is_weak_ref(const struct ovsdb_base_type *base)
{
    return (ovsdb_base_type_is_ref(base)
            && base->uuid.ref_type == OVSDB_REF_WEAK);
}

/* Parses RFC 7047 <base-type> 'json' into 'base'.  On error 'base' is left
 * initialized as void (safe to destroy). */
struct ovsdb_error *
ovsdb_base_type_from_json(struct ovsdb_base_type *base, const json_t *json)
{
    enum ovsdb_atomic_type type;
    struct ovsdb_error *error, *parser_error;
    struct ovsdb_parser parser;
    const json_t *type_json, *enum_json;

    ovsdb_base_type_init(base, OVSDB_TYPE_VOID);
    if (json_is_string(json)) {
        error = parse_atomic_type(json, &type);
        if (!error) {
            ovsdb_base_type_init(base, type);
        }
        return error;
    } else if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL,
                                  "base type expected");
    }

    ovsdb_parser_init(&parser, json, "ovsdb type");
    type_json = ovsdb_parser_member(&parser, "type", OP_STRING);
    if (ovsdb_parser_has_error(&parser)) {
        return ovsdb_parser_finish(&parser);
    }
    error = parse_atomic_type(type_json, &type);
    if (error) {
        ovsdb_error_destroy(ovsdb_parser_finish(&parser));
        return error;
    }
    ovsdb_base_type_init(base, type);

    enum_json = ovsdb_parser_member(&parser, "enum", OP_ANY | OP_OPTIONAL);
    if (enum_json) {
        struct ovsdb_type set_type;

        ovsdb_type_init_scalar(&set_type, type);
        set_type.n_min = 1;
        set_type.n_max = OVSDB_UNLIMITED;
        base->enum_ = xmalloc(sizeof *base->enum_);
        error = ovsdb_datum_from_json(base->enum_, &set_type, enum_json,
                                      NULL);
        if (error) {
            free(base->enum_);
            base->enum_ = NULL;
        }
    }
    if (!error) {
        error = parse_constraints(base, &parser);
    }
    parser_error = ovsdb_parser_finish(&parser);
    if (error) {
        ovsdb_error_destroy(parser_error);
    } else {
        error = parser_error;
    }
    if (error) {
        ovsdb_base_type_destroy(base);
        ovsdb_base_type_init(base, OVSDB_TYPE_VOID);
    }
    return error;
}

/* Returns 'base' as RFC 7047 <base-type> JSON: a plain type name when there
 * are no constraints. */
json_t *
ovsdb_base_type_to_json(const struct ovsdb_base_type *base)
{
    const char *name = ovsdb_atomic_type_to_string(base->type);
    json_t *obj;

    if (!ovsdb_base_type_has_constraints(base)) {
        return json_string(name);
    }

    obj = json_object();
    json_object_set_new(obj, "type", json_string(name));
    if (base->enum_) {
        struct ovsdb_type set_type;

        ovsdb_type_init_scalar(&set_type, base->type);
        set_type.n_min = 1;
        set_type.n_max = OVSDB_UNLIMITED;
        json_object_set_new(obj, "enum",
                            ovsdb_datum_to_json(base->enum_, &set_type));
    }
    switch (base->type) {
    case OVSDB_TYPE_INTEGER:
        if (base->integer.min != INT64_MIN) {
            json_object_set_new(obj, "minInteger",
                                json_integer(base->integer.min));
        }
        if (base->integer.max != INT64_MAX) {
            json_object_set_new(obj, "maxInteger",
                                json_integer(base->integer.max));
        }
        break;
    case OVSDB_TYPE_REAL:
        if (base->real.min != -DBL_MAX) {
            json_object_set_new(obj, "minReal", json_real(base->real.min));
        }
        if (base->real.max != DBL_MAX) {
            json_object_set_new(obj, "maxReal", json_real(base->real.max));
        }
        break;
    case OVSDB_TYPE_STRING:
        if (base->string.min_len != 0) {
            json_object_set_new(obj, "minLength",
                                json_integer(base->string.min_len));
        }
        if (base->string.max_len != UINT_MAX) {
            json_object_set_new(obj, "maxLength",
                                json_integer(base->string.max_len));
        }
        break;
    case OVSDB_TYPE_UUID:
        if (base->uuid.ref_table_name) {
            json_object_set_new(obj, "refTable",
                                json_string(base->uuid.ref_table_name));
            if (base->uuid.ref_type == OVSDB_REF_WEAK) {
                json_object_set_new(obj, "refType", json_string("weak"));
            }
        }
        break;
    case OVSDB_TYPE_VOID:
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_N_TYPES:
        break;
    }
    return obj;
}

/* Initializes 'type' as exactly one unconstrained 'atomic'. */
void
ovsdb_type_init_scalar(struct ovsdb_type *type,
                       enum ovsdb_atomic_type atomic)
{
    ovsdb_base_type_init(&type->key, atomic);
    ovsdb_base_type_init(&type->value, OVSDB_TYPE_VOID);
    type->n_min = 1;
    type->n_max = 1;
}

/* Initializes 'dst' as a deep copy of 'src'. */
void
ovsdb_type_clone(struct ovsdb_type *dst, const struct ovsdb_type *src)
{
    ovsdb_base_type_clone(&dst->key, &src->key);
    ovsdb_base_type_clone(&dst->value, &src->value);
    dst->n_min = src->n_min;
    dst->n_max = src->n_max;
}

/* Frees what 'type' owns. */
void
ovsdb_type_destroy(struct ovsdb_type *type)
{
    ovsdb_base_type_destroy(&type->key);
    ovsdb_base_type_destroy(&type->value);
}

/* Returns true if 'type' satisfies RFC 7047's rules: a non-void key,
 * 0 <= min <= 1, max >= 1, min <= max. */
bool
ovsdb_type_is_valid(const struct ovsdb_type *type)
{
    return (type->key.type != OVSDB_TYPE_VOID
            && type->key.type < OVSDB_N_TYPES
            && type->value.type < OVSDB_N_TYPES
            && type->n_min <= 1
            && type->n_max >= 1
            && type->n_min <= type->n_max);
}

/* Returns true if a value of 'type' is exactly one atom. */
bool
ovsdb_type_is_scalar(const struct ovsdb_type *type)
{
    return (type->value.type == OVSDB_TYPE_VOID
            && type->n_min == 1 && type->n_max == 1);
}

/* Returns true if 'type' holds zero or one atom or pair. */
bool
ovsdb_type_is_optional(const struct ovsdb_type *type)
{
    return type->n_min == 0 && type->n_max == 1;
}

/* Returns true if 'type' is a set (not a map, not a scalar). */
bool
ovsdb_type_is_set(const struct ovsdb_type *type)
{
    return (type->value.type == OVSDB_TYPE_VOID
            && (type->n_min != 1 || type->n_max != 1));
}

/* Returns true if 'type' is a map. */
bool
ovsdb_type_is_map(const struct ovsdb_type *type)
{
    return type->value.type != OVSDB_TYPE_VOID;
}

/* Parses RFC 7047 <type> 'json' into 'type'. */
struct ovsdb_error *
ovsdb_type_from_json(struct ovsdb_type *type, const json_t *json)
{
    const json_t *key_json, *value_json, *min_json, *max_json;
    struct ovsdb_parser parser;
    struct ovsdb_error *error;

    ovsdb_type_init_scalar(type, OVSDB_TYPE_VOID);
    if (json_is_string(json)) {
        return ovsdb_base_type_from_json(&type->key, json);
    } else if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "ovsdb type expected");
    }

    ovsdb_parser_init(&parser, json, "ovsdb type");
    key_json = ovsdb_parser_member(&parser, "key", OP_STRING | OP_OBJECT);
    value_json = ovsdb_parser_member(&parser, "value",
                                     OP_STRING | OP_OBJECT | OP_OPTIONAL);
    min_json = ovsdb_parser_member(&parser, "min", OP_INTEGER | OP_OPTIONAL);
    max_json = ovsdb_parser_member(&parser, "max",
                                   OP_INTEGER | OP_STRING | OP_OPTIONAL);
    error = ovsdb_parser_finish(&parser);
    if (!error) {
        error = ovsdb_base_type_from_json(&type->key, key_json);
    }
    if (!error && value_json) {
        error = ovsdb_base_type_from_json(&type->value, value_json);
    }
    if (!error) {
        error = parse_count(min_json, "min", 1, &type->n_min);
    }
    if (!error) {
        error = parse_count(max_json, "max", 1, &type->n_max);
    }
    if (!error && !ovsdb_type_is_valid(type)) {
        error = ovsdb_syntax_error(json, NULL,
                                   "ovsdb type fails constraint checks");
    }
    if (error) {
        ovsdb_type_destroy(type);
        ovsdb_type_init_scalar(type, OVSDB_TYPE_VOID);
    }
    return error;
}

/* Returns 'type' as RFC 7047 <type> JSON, in the shortest form. */
json_t *
ovsdb_type_to_json(const struct ovsdb_type *type)
{
    json_t *obj;

    if (ovsdb_type_is_scalar(type)
        && !ovsdb_base_type_has_constraints(&type->key)) {
        return ovsdb_base_type_to_json(&type->key);
    }

    obj = json_object();
    json_object_set_new(obj, "key", ovsdb_base_type_to_json(&type->key));
    if (type->value.type != OVSDB_TYPE_VOID) {
        json_object_set_new(obj, "value",
                            ovsdb_base_type_to_json(&type->value));
    }
    if (type->n_min != 1) {
        json_object_set_new(obj, "min", json_integer(type->n_min));
    }
    if (type->n_max == OVSDB_UNLIMITED) {
        json_object_set_new(obj, "max", json_string("unlimited"));
    } else if (type->n_max != 1) {
        json_object_set_new(obj, "max", json_integer(type->n_max));
    }
    return obj;
}

/* Returns a malloc'd English description of 'type', e.g. "string",
 * "set of up to 2 integers", "map of (string, string) pairs". */
char *
ovsdb_type_to_english(const struct ovsdb_type *type)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (ovsdb_type_is_scalar(type)) {
        put_english_base(&type->key, false, &ds);
        return ds_steal_cstr(&ds);
    }

    ds_put_cstr(&ds, type->value.type == OVSDB_TYPE_VOID ? "set of "
                                                         : "map of ");
    if (type->n_max == OVSDB_UNLIMITED) {
        if (type->n_min) {
            ds_put_format(&ds, "%u or more ", type->n_min);
        }
    } else if (type->n_min) {
        if (type->n_min == type->n_max) {
            ds_put_format(&ds, "exactly %u ", type->n_min);
        } else {
            ds_put_format(&ds, "%u to %u ", type->n_min, type->n_max);
        }
    } else {
        ds_put_format(&ds, "up to %u ", type->n_max);
    }
    if (type->value.type == OVSDB_TYPE_VOID) {
        put_english_base(&type->key, true, &ds);
    } else {
        ds_put_char(&ds, '(');
        put_english_base(&type->key, false, &ds);
        ds_put_cstr(&ds, ", ");
        put_english_base(&type->value, false, &ds);
        ds_put_cstr(&ds, ") pairs");
    }
    return ds_steal_cstr(&ds);
}

static void
put_english_base(const struct ovsdb_base_type *base, bool plural,
                 struct ds *ds)
{
    if (ovsdb_base_type_is_ref(base)) {
        ds_put_format(ds, "%s%s", base->uuid.ref_table_name,
                      plural ? "s" : "");
    } else {
        ds_put_format(ds, "%s%s", ovsdb_atomic_type_to_string(base->type),
                      plural ? "s" : "");
    }
}

static struct ovsdb_error *
parse_atomic_type(const json_t *json, enum ovsdb_atomic_type *type)
{
    if (!json_is_string(json)
        || !ovsdb_atomic_type_from_string(json_string_value(json), type)) {
        char *s = json_is_string(json) ? xstrdup(json_string_value(json))
                                       : xstrdup("?");
        struct ovsdb_error *error
            = ovsdb_syntax_error(json, NULL, "\"%s\" is not an atomic-type",
                                 s);
        free(s);
        return error;
    }
    return NULL;
}

static bool
get_integer(const json_t *json, int64_t *value)
{
    if (json_is_integer(json)) {
        *value = json_integer_value(json);
        return true;
    }
    return false;
}

static bool
get_number(const json_t *json, double *value)
{
    if (json_is_number(json)) {
        *value = json_number_value(json);
        return true;
    }
    return false;
}

static struct ovsdb_error *
parse_constraints(struct ovsdb_base_type *base, struct ovsdb_parser *parser)
{
    const json_t *min, *max;

    switch (base->type) {
    case OVSDB_TYPE_INTEGER:
        min = ovsdb_parser_member(parser, "minInteger",
                                  OP_INTEGER | OP_OPTIONAL);
        max = ovsdb_parser_member(parser, "maxInteger",
                                  OP_INTEGER | OP_OPTIONAL);
        if (min) {
            get_integer(min, &base->integer.min);
        }
        if (max) {
            get_integer(max, &base->integer.max);
        }
        if (base->integer.min > base->integer.max) {
            return ovsdb_syntax_error(parser->json, NULL,
                                      "minInteger exceeds maxInteger");
        }
        break;
    case OVSDB_TYPE_REAL:
        min = ovsdb_parser_member(parser, "minReal", OP_NUMBER | OP_OPTIONAL);
        max = ovsdb_parser_member(parser, "maxReal", OP_NUMBER | OP_OPTIONAL);
        if (min) {
            get_number(min, &base->real.min);
        }
        if (max) {
            get_number(max, &base->real.max);
        }
        if (base->real.min > base->real.max) {
            return ovsdb_syntax_error(parser->json, NULL,
                                      "minReal exceeds maxReal");
        }
        break;
    case OVSDB_TYPE_STRING: {
        int64_t v;

        min = ovsdb_parser_member(parser, "minLength",
                                  OP_INTEGER | OP_OPTIONAL);
        max = ovsdb_parser_member(parser, "maxLength",
                                  OP_INTEGER | OP_OPTIONAL);
        if (min && get_integer(min, &v)) {
            if (v < 0 || v > UINT_MAX) {
                return ovsdb_syntax_error(min, NULL,
                                          "minLength out of valid range "
                                          "0 to %u", UINT_MAX);
            }
            base->string.min_len = v;
        }
        if (max && get_integer(max, &v)) {
            if (v < 0 || v > UINT_MAX) {
                return ovsdb_syntax_error(max, NULL,
                                          "maxLength out of valid range "
                                          "0 to %u", UINT_MAX);
            }
            base->string.max_len = v;
        }
        if (base->string.min_len > base->string.max_len) {
            return ovsdb_syntax_error(parser->json, NULL,
                                      "minLength exceeds maxLength");
        }
        break;
    }
    case OVSDB_TYPE_UUID: {
        const json_t *ref_table, *ref_type;

        ref_table = ovsdb_parser_member(parser, "refTable",
                                        OP_ID | OP_OPTIONAL);
        if (ref_table) {
            base->uuid.ref_table_name = xstrdup(json_string_value(ref_table));
            ref_type = ovsdb_parser_member(parser, "refType",
                                           OP_STRING | OP_OPTIONAL);
            if (ref_type) {
                const char *s = json_string_value(ref_type);

                if (!strcmp(s, "strong")) {
                    base->uuid.ref_type = OVSDB_REF_STRONG;
                } else if (!strcmp(s, "weak")) {
                    base->uuid.ref_type = OVSDB_REF_WEAK;
                } else {
                    return ovsdb_syntax_error(ref_type, NULL,
                                              "refType must be \"strong\" or "
                                              "\"weak\" (not \"%s\")", s);
                }
            }
        }
        break;
    }
    case OVSDB_TYPE_VOID:
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_N_TYPES:
        break;
    }
    return NULL;
}

static struct ovsdb_error *
parse_count(const json_t *json, const char *name, unsigned int dflt,
            unsigned int *count)
{
    if (!json) {
        *count = dflt;
    } else if (json_is_integer(json)) {
        json_int_t v = json_integer_value(json);

        if (v < 0 || v >= UINT_MAX) {
            return ovsdb_syntax_error(json, NULL, "bad %s", name);
        }
        *count = v;
    } else if (json_is_string(json)
               && !strcmp(json_string_value(json), "unlimited")
               && !strcmp(name, "max")) {
        *count = OVSDB_UNLIMITED;
    } else {
        return ovsdb_syntax_error(json, NULL, "bad %s", name);
    }
    return NULL;
}
