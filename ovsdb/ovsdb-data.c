/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-data.h"

#include <ctype.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "util.h"

struct sort_context {
    const struct ovsdb_datum *datum;
    enum ovsdb_atomic_type key_type;
};

static struct ovsdb_error *parse_uuid_atom(union ovsdb_atom *,
                                           const json_t *,
                                           struct ovsdb_symbol_table *);
static struct ovsdb_error *datum_from_array(struct ovsdb_datum *,
                                            const struct ovsdb_type *,
                                            const json_t *elements,
                                            const json_t *json,
                                            struct ovsdb_symbol_table *);
static void datum_reserve(struct ovsdb_datum *, unsigned int n,
                          const struct ovsdb_type *);
static bool string_needs_quotes(const char *);
static size_t utf8_length(const char *);
static void atom_to_bare(const union ovsdb_atom *, enum ovsdb_atomic_type,
                         struct ds *);

static int compare_indexes(const void *a_, const void *b_, void *ctx_);
static unsigned int
find_element(const struct ovsdb_datum *datum,
             const struct ovsdb_datum *other, unsigned int i,
             const struct ovsdb_type *type);

/* ------------------------------------------------------------------------
 * Atoms.
 * ------------------------------------------------------------------------ */

/* Initializes 'atom' as the default of 'type': 0, 0.0, false, "", or the
 * all-zero UUID. */
void
ovsdb_atom_init_default(union ovsdb_atom *atom, enum ovsdb_atomic_type type)
{
    memset(atom, 0, sizeof *atom);
    if (type == OVSDB_TYPE_STRING) {
        atom->string = xstrdup("");
    }
}

/* Returns true if 'atom' is the default value of 'type'. */
bool
ovsdb_atom_is_default(const union ovsdb_atom *atom,
                      enum ovsdb_atomic_type type)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return atom->integer == 0;
    case OVSDB_TYPE_REAL:
        return atom->real == 0.0;
    case OVSDB_TYPE_BOOLEAN:
        return !atom->boolean;
    case OVSDB_TYPE_STRING:
        return atom->string[0] == '\0';
    case OVSDB_TYPE_UUID:
        return uuid_is_zero(&atom->uuid);
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
        break;
    }
    return true;
}

/* Initializes 'dst' as a copy of 'src'. */
void
ovsdb_atom_clone(union ovsdb_atom *dst, const union ovsdb_atom *src,
                 enum ovsdb_atomic_type type)
{
    *dst = *src;
    if (type == OVSDB_TYPE_STRING) {
        dst->string = xstrdup(src->string);
    }
}

/* Frees what 'atom' owns. */
void
ovsdb_atom_destroy(union ovsdb_atom *atom, enum ovsdb_atomic_type type)
{
    if (type == OVSDB_TYPE_STRING) {
        free(atom->string);
        atom->string = NULL;
    }
}

/* Returns a hash of 'atom' mixed with 'basis'. */
uint32_t
ovsdb_atom_hash(const union ovsdb_atom *atom, enum ovsdb_atomic_type type,
                uint32_t basis)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return ovsdb_hash_bytes(&atom->integer, sizeof atom->integer, basis);
    case OVSDB_TYPE_REAL: {
        double d = atom->real == 0.0 ? 0.0 : atom->real; /* -0.0 == 0.0 */

        return ovsdb_hash_bytes(&d, sizeof d, basis);
    }
    case OVSDB_TYPE_BOOLEAN:
        return ovsdb_hash_bytes(&atom->boolean, sizeof atom->boolean, basis);
    case OVSDB_TYPE_STRING:
        return ovsdb_hash_string(atom->string, basis);
    case OVSDB_TYPE_UUID:
        return ovsdb_hash_bytes(&atom->uuid, sizeof atom->uuid, basis);
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
        break;
    }
    return basis;
}

/* Compares 'a' and 'b': integers and reals numerically, false before true,
 * strings bytewise, UUIDs in text order. */
int
ovsdb_atom_compare_3way(const union ovsdb_atom *a, const union ovsdb_atom *b,
                        enum ovsdb_atomic_type type)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return a->integer < b->integer ? -1 : a->integer > b->integer;
    case OVSDB_TYPE_REAL:
        return a->real < b->real ? -1 : a->real > b->real;
    case OVSDB_TYPE_BOOLEAN:
        return (int) a->boolean - (int) b->boolean;
    case OVSDB_TYPE_STRING: {
        int cmp = strcmp(a->string, b->string);

        return cmp < 0 ? -1 : cmp > 0;
    }
    case OVSDB_TYPE_UUID:
        return uuid_compare_3way(&a->uuid, &b->uuid);
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
        break;
    }
    return 0;
}

/* Returns true if 'a' equals 'b'. */
bool
ovsdb_atom_equals(const union ovsdb_atom *a, const union ovsdb_atom *b,
                  enum ovsdb_atomic_type type)
{
    return !ovsdb_atom_compare_3way(a, b, type);
}

/* Parses 'json' as an atom of 'base' (checking its constraints) into
 * 'atom'.  ["named-uuid", NAME] is accepted only with a 'symtab', where an
 * unknown NAME gets a fresh UUID (an insert later in the transaction may
 * define it).  On error 'atom' is not initialized. */
struct ovsdb_error *
ovsdb_atom_from_json(union ovsdb_atom *atom,
                     const struct ovsdb_base_type *base, const json_t *json,
                     struct ovsdb_symbol_table *symtab)
{
    struct ovsdb_error *error;

    switch (base->type) {
    case OVSDB_TYPE_INTEGER:
        if (!json_is_integer(json)) {
            return ovsdb_syntax_error(json, NULL, "expected integer");
        }
        atom->integer = json_integer_value(json);
        break;
    case OVSDB_TYPE_REAL:
        if (!json_is_number(json)) {
            return ovsdb_syntax_error(json, NULL, "expected real");
        }
        atom->real = json_number_value(json);
        break;
    case OVSDB_TYPE_BOOLEAN:
        if (!json_is_boolean(json)) {
            return ovsdb_syntax_error(json, NULL, "expected boolean");
        }
        atom->boolean = json_is_true(json);
        break;
    case OVSDB_TYPE_STRING:
        if (!json_is_string(json)) {
            return ovsdb_syntax_error(json, NULL, "expected string");
        }
        if (strlen(json_string_value(json)) != json_string_length(json)) {
            return ovsdb_syntax_error(json, NULL,
                                      "string contains a null character");
        }
        atom->string = xstrdup(json_string_value(json));
        break;
    case OVSDB_TYPE_UUID:
        error = parse_uuid_atom(atom, json, symtab);
        if (error) {
            return error;
        }
        break;
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return ovsdb_syntax_error(json, NULL, "void type has no atoms");
    }

    error = ovsdb_atom_check_constraints(atom, base);
    if (error) {
        ovsdb_atom_destroy(atom, base->type);
    }
    return error;
}

/* Returns the JSON form of 'atom'. */
json_t *
ovsdb_atom_to_json(const union ovsdb_atom *atom, enum ovsdb_atomic_type type)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return json_integer(atom->integer);
    case OVSDB_TYPE_REAL:
        return json_real(atom->real);
    case OVSDB_TYPE_BOOLEAN:
        return json_boolean(atom->boolean);
    case OVSDB_TYPE_STRING:
        return json_string(atom->string);
    case OVSDB_TYPE_UUID: {
        char s[UUID_LEN + 1];

        uuid_to_string(&atom->uuid, s);
        return ovsdb_json_pair(json_string("uuid"), json_string(s));
    }
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
        break;
    }
    return json_null();
}

/* Appends 'atom' to 'ds' the way ovs-vsctl shows it: strings bare when
 * they look like identifiers, otherwise as JSON strings. */
void
ovsdb_atom_to_string(const union ovsdb_atom *atom,
                     enum ovsdb_atomic_type type, struct ds *ds)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        ds_put_format(ds, "%"PRId64, atom->integer);
        break;
    case OVSDB_TYPE_REAL:
        ds_put_format(ds, "%.*g", DBL_DIG, atom->real);
        break;
    case OVSDB_TYPE_BOOLEAN:
        ds_put_cstr(ds, atom->boolean ? "true" : "false");
        break;
    case OVSDB_TYPE_STRING:
        if (string_needs_quotes(atom->string)) {
            json_t *json = json_string(atom->string);

            ovsdb_json_to_ds(json, 0, ds);
            json_decref(json);
        } else {
            ds_put_cstr(ds, atom->string);
        }
        break;
    case OVSDB_TYPE_UUID: {
        char s[UUID_LEN + 1];

        uuid_to_string(&atom->uuid, s);
        ds_put_cstr(ds, s);
        break;
    }
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
        break;
    }
}

/* Checks 'atom' against the enumeration, range and length constraints of
 * 'base'.  Returns a "constraint violation" error if it fails one. */
struct ovsdb_error *
ovsdb_atom_check_constraints(const union ovsdb_atom *atom,
                             const struct ovsdb_base_type *base)
{
    if (base->enum_
        && ovsdb_datum_find_key(base->enum_, atom, base->type) == UINT_MAX) {
        struct ovsdb_type set_type;
        struct ovsdb_error *error;
        struct ds value = DS_EMPTY_INITIALIZER;
        struct ds allowed = DS_EMPTY_INITIALIZER;

        ovsdb_type_init_scalar(&set_type, base->type);
        set_type.n_max = OVSDB_UNLIMITED;
        ovsdb_atom_to_string(atom, base->type, &value);
        ovsdb_datum_to_string(base->enum_, &set_type, &allowed);
        error = ovsdb_error("constraint violation",
                            "%s is not one of the allowed values (%s)",
                            ds_cstr(&value), ds_cstr(&allowed));
        ds_destroy(&value);
        ds_destroy(&allowed);
        return error;
    }

    switch (base->type) {
    case OVSDB_TYPE_INTEGER: {
        int64_t v = atom->integer, min = base->integer.min;
        int64_t max = base->integer.max;

        if (v >= min && v <= max) {
            return NULL;
        } else if (min != INT64_MIN && max != INT64_MAX) {
            return ovsdb_error("constraint violation",
                               "%"PRId64" is not in the valid range "
                               "%"PRId64" to %"PRId64" (inclusive)",
                               v, min, max);
        } else if (min != INT64_MIN) {
            return ovsdb_error("constraint violation",
                               "%"PRId64" is less than minimum allowed "
                               "value %"PRId64, v, min);
        } else {
            return ovsdb_error("constraint violation",
                               "%"PRId64" is greater than maximum allowed "
                               "value %"PRId64, v, max);
        }
    }
    case OVSDB_TYPE_REAL: {
        double v = atom->real, min = base->real.min, max = base->real.max;

        if (v >= min && v <= max) {
            return NULL;
        } else if (min != -DBL_MAX && max != DBL_MAX) {
            return ovsdb_error("constraint violation",
                               "%.*g is not in the valid range %.*g to %.*g "
                               "(inclusive)", DBL_DIG, v, DBL_DIG, min,
                               DBL_DIG, max);
        } else if (min != -DBL_MAX) {
            return ovsdb_error("constraint violation",
                               "%.*g is less than minimum allowed value "
                               "%.*g", DBL_DIG, v, DBL_DIG, min);
        } else {
            return ovsdb_error("constraint violation",
                               "%.*g is greater than maximum allowed value "
                               "%.*g", DBL_DIG, v, DBL_DIG, max);
        }
    }
    case OVSDB_TYPE_STRING: {
        size_t len;

        if (!base->string.min_len && base->string.max_len == UINT_MAX) {
            return NULL;
        }
        len = utf8_length(atom->string);
        if (len < base->string.min_len) {
            return ovsdb_error("constraint violation",
                               "\"%s\" length %zu is less than minimum "
                               "allowed length %u", atom->string, len,
                               base->string.min_len);
        } else if (len > base->string.max_len) {
            return ovsdb_error("constraint violation",
                               "\"%s\" length %zu is greater than maximum "
                               "allowed length %u", atom->string, len,
                               base->string.max_len);
        }
        return NULL;
    }
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_TYPE_UUID:
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
        break;
    }
    return NULL;
}

/* ------------------------------------------------------------------------
 * Datums.
 * ------------------------------------------------------------------------ */

/* Initializes 'datum' as the empty set. */
void
ovsdb_datum_init_empty(struct ovsdb_datum *datum)
{
    datum->n = 0;
    datum->keys = NULL;
    datum->values = NULL;
}

/* Initializes 'datum' as the default value of 'type': empty if 'type'
 * allows no elements, otherwise one default atom (or pair). */
void
ovsdb_datum_init_default(struct ovsdb_datum *datum,
                         const struct ovsdb_type *type)
{
    if (type->n_min == 0) {
        ovsdb_datum_init_empty(datum);
        return;
    }
    datum->n = 1;
    datum->keys = xmalloc(sizeof *datum->keys);
    ovsdb_atom_init_default(&datum->keys[0], type->key.type);
    if (type->value.type != OVSDB_TYPE_VOID) {
        datum->values = xmalloc(sizeof *datum->values);
        ovsdb_atom_init_default(&datum->values[0], type->value.type);
    } else {
        datum->values = NULL;
    }
}

/* Returns true if 'datum' is the default value of 'type'. */
bool
ovsdb_datum_is_default(const struct ovsdb_datum *datum,
                       const struct ovsdb_type *type)
{
    if (type->n_min == 0) {
        return datum->n == 0;
    }
    return (datum->n == 1
            && ovsdb_atom_is_default(&datum->keys[0], type->key.type)
            && (type->value.type == OVSDB_TYPE_VOID
                || ovsdb_atom_is_default(&datum->values[0],
                                         type->value.type)));
}

/* Initializes 'dst' as a deep copy of 'src'. */
void
ovsdb_datum_clone(struct ovsdb_datum *dst, const struct ovsdb_datum *src,
                  const struct ovsdb_type *type)
{
    unsigned int i;

    dst->n = src->n;
    dst->keys = src->n ? xmalloc(src->n * sizeof *dst->keys) : NULL;
    dst->values = (src->values && src->n
                   ? xmalloc(src->n * sizeof *dst->values) : NULL);
    for (i = 0; i < src->n; i++) {
        ovsdb_atom_clone(&dst->keys[i], &src->keys[i], type->key.type);
        if (dst->values) {
            ovsdb_atom_clone(&dst->values[i], &src->values[i],
                             type->value.type);
        }
    }
}

/* Frees what 'datum' owns and leaves it empty. */
void
ovsdb_datum_destroy(struct ovsdb_datum *datum, const struct ovsdb_type *type)
{
    unsigned int i;

    for (i = 0; i < datum->n; i++) {
        ovsdb_atom_destroy(&datum->keys[i], type->key.type);
        if (datum->values) {
            ovsdb_atom_destroy(&datum->values[i], type->value.type);
        }
    }
    free(datum->keys);
    free(datum->values);
    ovsdb_datum_init_empty(datum);
}

/* Exchanges the contents of 'a' and 'b'. */
void
ovsdb_datum_swap(struct ovsdb_datum *a, struct ovsdb_datum *b)
{
    struct ovsdb_datum tmp = *a;

    *a = *b;
    *b = tmp;
}

/* Parses 'json' as a value of 'type' into 'datum': checks each atom's
 * constraints, the number of elements, and that keys are unique.  On error
 * 'datum' is left empty. */
struct ovsdb_error *
ovsdb_datum_from_json(struct ovsdb_datum *datum,
                      const struct ovsdb_type *type, const json_t *json,
                      struct ovsdb_symbol_table *symtab)
{
    bool is_map = ovsdb_type_is_map(type);
    const char *tag = NULL;

    ovsdb_datum_init_empty(datum);
    if (json_is_array(json) && json_array_size(json) >= 1
        && json_is_string(json_array_get(json, 0))) {
        tag = json_string_value(json_array_get(json, 0));
    }

    if (is_map || (tag && !strcmp(tag, "set"))) {
        const char *expected = is_map ? "map" : "set";

        if (!tag || strcmp(tag, expected) || json_array_size(json) != 2
            || !json_is_array(json_array_get(json, 1))) {
            return ovsdb_syntax_error(json, NULL, "expected %s", expected);
        }
        return datum_from_array(datum, type, json_array_get(json, 1), json,
                                symtab);
    } else {
        struct ovsdb_error *error;
        union ovsdb_atom atom;

        if (type->n_max < 1) {
            return ovsdb_syntax_error(json, NULL, "set expected");
        }
        error = ovsdb_atom_from_json(&atom, &type->key, json, symtab);
        if (error) {
            return error;
        }
        datum->n = 1;
        datum->keys = xmemdup(&atom, sizeof atom);
        return NULL;
    }
}

/* Returns the JSON form of 'datum': ["map", ...] for a map, the bare atom
 * for exactly one element of a set, ["set", ...] otherwise. */
json_t *
ovsdb_datum_to_json(const struct ovsdb_datum *datum,
                    const struct ovsdb_type *type)
{
    json_t *elements;
    unsigned int i;

    if (ovsdb_type_is_map(type)) {
        elements = json_array();
        for (i = 0; i < datum->n; i++) {
            json_array_append_new(
                elements,
                ovsdb_json_pair(ovsdb_atom_to_json(&datum->keys[i],
                                                  type->key.type),
                               ovsdb_atom_to_json(&datum->values[i],
                                                  type->value.type)));
        }
        return ovsdb_json_pair(json_string("map"), elements);
    } else if (datum->n == 1) {
        return ovsdb_atom_to_json(&datum->keys[0], type->key.type);
    }

    elements = json_array();
    for (i = 0; i < datum->n; i++) {
        json_array_append_new(elements,
                              ovsdb_atom_to_json(&datum->keys[i],
                                                 type->key.type));
    }
    return ovsdb_json_pair(json_string("set"), elements);
}

/* Appends 'datum' to 'ds' the way ovs-vsctl shows it: "[a, b]" for sets,
 * "{k=v, ...}" for maps, a bare atom for a value that holds at most one
 * element and has one. */
void
ovsdb_datum_to_string(const struct ovsdb_datum *datum,
                      const struct ovsdb_type *type, struct ds *ds)
{
    bool is_map = ovsdb_type_is_map(type);
    bool brackets = type->n_max > 1 || !datum->n;
    unsigned int i;

    if (brackets) {
        ds_put_char(ds, is_map ? '{' : '[');
    }
    for (i = 0; i < datum->n; i++) {
        if (i) {
            ds_put_cstr(ds, ", ");
        }
        ovsdb_atom_to_string(&datum->keys[i], type->key.type, ds);
        if (is_map) {
            ds_put_char(ds, '=');
            ovsdb_atom_to_string(&datum->values[i], type->value.type, ds);
        }
    }
    if (brackets) {
        ds_put_char(ds, is_map ? '}' : ']');
    }
}

/* Checks every atom of 'datum' against the constraints of 'type'. */
struct ovsdb_error *
ovsdb_datum_check_constraints(const struct ovsdb_datum *datum,
                              const struct ovsdb_type *type)
{
    unsigned int i;

    for (i = 0; i < datum->n; i++) {
        struct ovsdb_error *error;

        error = ovsdb_atom_check_constraints(&datum->keys[i], &type->key);
        if (!error && datum->values) {
            error = ovsdb_atom_check_constraints(&datum->values[i],
                                                 &type->value);
        }
        if (error) {
            return error;
        }
    }
    return NULL;
}

/* Sorts the elements of 'datum' by key.  Returns an "ovsdb error" if two
 * keys are equal ("set contains duplicate", "map contains duplicate
 * key"). */
struct ovsdb_error *
ovsdb_datum_sort(struct ovsdb_datum *datum, const struct ovsdb_type *type)
{
    union ovsdb_atom *keys, *values = NULL;
    struct sort_context ctx;
    unsigned int *order, i;

    if (datum->n < 2) {
        return NULL;
    }
    order = xmalloc(datum->n * sizeof *order);
    for (i = 0; i < datum->n; i++) {
        order[i] = i;
    }
    ctx.datum = datum;
    ctx.key_type = type->key.type;
    qsort_r(order, datum->n, sizeof *order, compare_indexes, &ctx);

    keys = xmalloc(datum->n * sizeof *keys);
    if (datum->values) {
        values = xmalloc(datum->n * sizeof *values);
    }
    for (i = 0; i < datum->n; i++) {
        keys[i] = datum->keys[order[i]];
        if (values) {
            values[i] = datum->values[order[i]];
        }
    }
    free(order);
    free(datum->keys);
    free(datum->values);
    datum->keys = keys;
    datum->values = values;

    for (i = 1; i < datum->n; i++) {
        if (ovsdb_atom_equals(&keys[i - 1], &keys[i], type->key.type)) {
            return ovsdb_error("ovsdb error", "%s",
                               ovsdb_type_is_map(type)
                               ? "map contains duplicate key"
                               : "set contains duplicate");
        }
    }
    return NULL;
}

/* Returns a hash of 'datum'. */
uint32_t
ovsdb_datum_hash(const struct ovsdb_datum *datum,
                 const struct ovsdb_type *type, uint32_t basis)
{
    unsigned int i;

    for (i = 0; i < datum->n; i++) {
        basis = ovsdb_atom_hash(&datum->keys[i], type->key.type, basis);
        if (datum->values) {
            basis = ovsdb_atom_hash(&datum->values[i], type->value.type,
                                    basis);
        }
    }
    return ovsdb_hash_bytes(&datum->n, sizeof datum->n, basis);
}

/* Compares 'a' and 'b' element by element; a datum that is a prefix of the
 * other sorts first. */
int
ovsdb_datum_compare_3way(const struct ovsdb_datum *a,
                         const struct ovsdb_datum *b,
                         const struct ovsdb_type *type)
{
    unsigned int i;

    for (i = 0; i < a->n && i < b->n; i++) {
        int cmp = ovsdb_atom_compare_3way(&a->keys[i], &b->keys[i],
                                          type->key.type);
        if (!cmp && a->values && b->values) {
            cmp = ovsdb_atom_compare_3way(&a->values[i], &b->values[i],
                                          type->value.type);
        }
        if (cmp) {
            return cmp;
        }
    }
    return a->n < b->n ? -1 : a->n > b->n;
}

/* Appends 'datum' to 'ds' in the "bare" form of Open vSwitch's tools: the
 * elements separated by spaces, a map's as KEY=VALUE, strings without
 * quotes. */
void
ovsdb_datum_to_bare(const struct ovsdb_datum *datum,
                    const struct ovsdb_type *type, struct ds *ds)
{
    unsigned int i;

    for (i = 0; i < datum->n; i++) {
        if (i) {
            ds_put_char(ds, ' ');
        }
        atom_to_bare(&datum->keys[i], type->key.type, ds);
        if (datum->values) {
            ds_put_char(ds, '=');
            atom_to_bare(&datum->values[i], type->value.type, ds);
        }
    }
}

/* Compares 'a' and 'b' as Open vSwitch orders datums: by their number of
 * elements, then by their keys, then by their values.  Its "sort" and its
 * choice of which row to name first in an index error follow this order. */
int
ovsdb_datum_compare_ovs(const struct ovsdb_datum *a,
                        const struct ovsdb_datum *b,
                        const struct ovsdb_type *type)
{
    unsigned int i;
    int cmp;

    if (a->n != b->n) {
        return a->n < b->n ? -1 : 1;
    }
    for (i = 0; i < a->n; i++) {
        cmp = ovsdb_atom_compare_3way(&a->keys[i], &b->keys[i],
                                      type->key.type);
        if (cmp) {
            return cmp;
        }
    }
    for (i = 0; a->values && b->values && i < a->n; i++) {
        cmp = ovsdb_atom_compare_3way(&a->values[i], &b->values[i],
                                      type->value.type);
        if (cmp) {
            return cmp;
        }
    }
    return 0;
}

/* Returns true if 'a' and 'b' hold the same elements. */
bool
ovsdb_datum_equals(const struct ovsdb_datum *a, const struct ovsdb_datum *b,
                   const struct ovsdb_type *type)
{
    return !ovsdb_datum_compare_3way(a, b, type);
}

/* Returns the index of 'key' in 'datum', or UINT_MAX if absent. */
unsigned int
ovsdb_datum_find_key(const struct ovsdb_datum *datum,
                     const union ovsdb_atom *key,
                     enum ovsdb_atomic_type key_type)
{
    unsigned int low = 0, high = datum->n;

    while (low < high) {
        unsigned int mid = low + (high - low) / 2;
        int cmp = ovsdb_atom_compare_3way(key, &datum->keys[mid], key_type);

        if (cmp < 0) {
            high = mid;
        } else if (cmp > 0) {
            low = mid + 1;
        } else {
            return mid;
        }
    }
    return UINT_MAX;
}

/* Returns true if every element of 'b' is in 'a' ('a' "includes" 'b'). */
bool
ovsdb_datum_includes_all(const struct ovsdb_datum *a,
                         const struct ovsdb_datum *b,
                         const struct ovsdb_type *type)
{
    unsigned int i;

    for (i = 0; i < b->n; i++) {
        if (find_element(a, b, i, type) == UINT_MAX) {
            return false;
        }
    }
    return true;
}

/* Returns true if no element of 'b' is in 'a'. */
bool
ovsdb_datum_excludes_all(const struct ovsdb_datum *a,
                         const struct ovsdb_datum *b,
                         const struct ovsdb_type *type)
{
    unsigned int i;

    for (i = 0; i < b->n; i++) {
        if (find_element(a, b, i, type) != UINT_MAX) {
            return false;
        }
    }
    return true;
}

/* Adds to 'a' every element of 'b' whose key 'a' lacks.  (For maps, a key
 * already in 'a' keeps its value, as RFC 7047's "insert" mutator says.) */
void
ovsdb_datum_union(struct ovsdb_datum *a, const struct ovsdb_datum *b,
                  const struct ovsdb_type *type)
{
    unsigned int i;

    for (i = 0; i < b->n; i++) {
        if (ovsdb_datum_find_key(a, &b->keys[i], type->key.type)
            == UINT_MAX) {
            ovsdb_datum_add(a, &b->keys[i], b->values ? &b->values[i] : NULL,
                            type);
        }
    }
}

/* Removes from 'a' the elements of 'b'.  If 'a' is a map and 'b' a set of
 * keys ('b_type' has no value), removes the pairs with those keys;
 * otherwise removes the pairs equal in key and value. */
void
ovsdb_datum_subtract(struct ovsdb_datum *a, const struct ovsdb_type *a_type,
                     const struct ovsdb_datum *b,
                     const struct ovsdb_type *b_type)
{
    unsigned int i;

    for (i = 0; i < b->n; i++) {
        unsigned int idx;

        if (b_type->value.type == OVSDB_TYPE_VOID) {
            idx = ovsdb_datum_find_key(a, &b->keys[i], a_type->key.type);
        } else {
            idx = find_element(a, b, i, a_type);
        }
        if (idx != UINT_MAX) {
            ovsdb_datum_remove(a, idx, a_type);
        }
    }
}

/* Inserts a copy of 'key' (and, for a map, 'value') into 'datum' at its
 * sorted place.  'key' must not be present already. */
void
ovsdb_datum_add(struct ovsdb_datum *datum, const union ovsdb_atom *key,
                const union ovsdb_atom *value, const struct ovsdb_type *type)
{
    unsigned int pos = 0;

    while (pos < datum->n
           && ovsdb_atom_compare_3way(&datum->keys[pos], key,
                                      type->key.type) < 0) {
        pos++;
    }
    datum_reserve(datum, datum->n + 1, type);
    memmove(&datum->keys[pos + 1], &datum->keys[pos],
            (datum->n - pos) * sizeof *datum->keys);
    ovsdb_atom_clone(&datum->keys[pos], key, type->key.type);
    if (datum->values) {
        memmove(&datum->values[pos + 1], &datum->values[pos],
                (datum->n - pos) * sizeof *datum->values);
        ovsdb_atom_clone(&datum->values[pos], value, type->value.type);
    }
    datum->n++;
}

/* Removes element 'idx' from 'datum'. */
void
ovsdb_datum_remove(struct ovsdb_datum *datum, unsigned int idx,
                   const struct ovsdb_type *type)
{
    ovsdb_atom_destroy(&datum->keys[idx], type->key.type);
    memmove(&datum->keys[idx], &datum->keys[idx + 1],
            (datum->n - idx - 1) * sizeof *datum->keys);
    if (datum->values) {
        ovsdb_atom_destroy(&datum->values[idx], type->value.type);
        memmove(&datum->values[idx], &datum->values[idx + 1],
                (datum->n - idx - 1) * sizeof *datum->values);
    }
    datum->n--;
}

/* Initializes 'diff' as what turns 'old' into 'new' under
 * ovsdb_datum_apply_diff(): for sets the symmetric difference; for maps
 * the pairs of 'old' whose key 'new' lacks, and the pairs of 'new' that
 * are not in 'old'. */
void
ovsdb_datum_diff(struct ovsdb_datum *diff, const struct ovsdb_datum *old,
                 const struct ovsdb_datum *new,
                 const struct ovsdb_type *type)
{
    unsigned int i;

    ovsdb_datum_init_empty(diff);
    if (type->value.type != OVSDB_TYPE_VOID) {
        diff->values = NULL;
    }
    for (i = 0; i < old->n; i++) {
        if (ovsdb_datum_find_key(new, &old->keys[i], type->key.type)
            == UINT_MAX) {
            ovsdb_datum_add(diff, &old->keys[i],
                            old->values ? &old->values[i] : NULL, type);
        }
    }
    for (i = 0; i < new->n; i++) {
        if (find_element(old, new, i, type) == UINT_MAX) {
            ovsdb_datum_add(diff, &new->keys[i],
                            new->values ? &new->values[i] : NULL, type);
        }
    }
}

/* Applies 'diff' (see ovsdb_datum_diff()) to 'datum': each key of 'diff'
 * absent from 'datum' is added; a set element present is removed; a map
 * pair present with the same value is removed, with another value
 * replaced.  Fails if the result has too many or too few elements. */
struct ovsdb_error *
ovsdb_datum_apply_diff(struct ovsdb_datum *datum,
                       const struct ovsdb_datum *diff,
                       const struct ovsdb_type *type)
{
    unsigned int i;

    for (i = 0; i < diff->n; i++) {
        unsigned int idx = ovsdb_datum_find_key(datum, &diff->keys[i],
                                                type->key.type);
        if (idx == UINT_MAX) {
            ovsdb_datum_add(datum, &diff->keys[i],
                            diff->values ? &diff->values[i] : NULL, type);
        } else if (!datum->values
                   || ovsdb_atom_equals(&datum->values[idx],
                                        &diff->values[i],
                                        type->value.type)) {
            ovsdb_datum_remove(datum, idx, type);
        } else {
            ovsdb_atom_destroy(&datum->values[idx], type->value.type);
            ovsdb_atom_clone(&datum->values[idx], &diff->values[i],
                             type->value.type);
        }
    }
    if (datum->n < type->n_min || datum->n > type->n_max) {
        return ovsdb_error("ovsdb error", "datum has %u elements after "
                           "applying a diff, outside the allowed range",
                           datum->n);
    }
    return NULL;
}

/* ------------------------------------------------------------------------
 * Named-UUID symbol tables.
 * ------------------------------------------------------------------------ */

/* Returns a new, empty symbol table. */
struct ovsdb_symbol_table *
ovsdb_symbol_table_create(void)
{
    struct ovsdb_symbol_table *symtab = xmalloc(sizeof *symtab);

    ohmap_init(&symtab->symbols);
    return symtab;
}

/* Frees 'symtab' and its symbols. */
void
ovsdb_symbol_table_destroy(struct ovsdb_symbol_table *symtab)
{
    struct ovsdb_symbol *symbol;

    if (!symtab) {
        return;
    }
    OHMAP_FOR_EACH_SAFE (symbol, node, &symtab->symbols) {
        free(symbol->name);
        free(symbol);
    }
    ohmap_destroy(&symtab->symbols);
    free(symtab);
}

/* Returns the symbol called 'name', or NULL. */
struct ovsdb_symbol *
ovsdb_symbol_table_get(const struct ovsdb_symbol_table *symtab,
                       const char *name)
{
    struct ovsdb_symbol *symbol;

    OHMAP_FOR_EACH_WITH_HASH (symbol, node, ovsdb_hash_string(name, 0),
                              &symtab->symbols) {
        if (!strcmp(symbol->name, name)) {
            return symbol;
        }
    }
    return NULL;
}

/* Returns the symbol called 'name', creating it with a fresh random UUID
 * if there is none. */
struct ovsdb_symbol *
ovsdb_symbol_table_insert(struct ovsdb_symbol_table *symtab,
                          const char *name)
{
    struct ovsdb_symbol *symbol = ovsdb_symbol_table_get(symtab, name);

    if (!symbol) {
        symbol = xzalloc(sizeof *symbol);
        symbol->name = xstrdup(name);
        uuid_generate(&symbol->uuid);
        ohmap_insert(&symtab->symbols, &symbol->node,
                     ovsdb_hash_string(name, 0));
    }
    return symbol;
}

/* ------------------------------------------------------------------------
 * Hashing.
 * ------------------------------------------------------------------------ */

/* Returns a hash of the 'size' bytes at 'p', mixed with 'basis' (FNV-1a
 * with a final avalanche). */
uint32_t
ovsdb_hash_bytes(const void *p, size_t size, uint32_t basis)
{
    const uint8_t *bytes = p;
    uint32_t hash = 2166136261u ^ basis;
    size_t i;

    for (i = 0; i < size; i++) {
        hash = (hash ^ bytes[i]) * 16777619u;
    }
    hash ^= hash >> 16;
    hash *= 0x85ebca6bu;
    hash ^= hash >> 13;
    return hash;
}

/* Returns a hash of the string 's' mixed with 'basis'. */
uint32_t
ovsdb_hash_string(const char *s, uint32_t basis)
{
    return ovsdb_hash_bytes(s, strlen(s), basis);
}

static int
compare_indexes(const void *a_, const void *b_, void *ctx_)
{
    const unsigned int *a = a_, *b = b_;
    const struct sort_context *ctx = ctx_;

    return ovsdb_atom_compare_3way(&ctx->datum->keys[*a],
                                   &ctx->datum->keys[*b], ctx->key_type);
}

/* Returns the index of the element of 'datum' equal to element 'i' of
 * 'other' (key and, for maps, value), or UINT_MAX. */
static unsigned int
find_element(const struct ovsdb_datum *datum,
             const struct ovsdb_datum *other, unsigned int i,
             const struct ovsdb_type *type)
{
    unsigned int idx = ovsdb_datum_find_key(datum, &other->keys[i],
                                            type->key.type);
    if (idx != UINT_MAX && datum->values && other->values
        && !ovsdb_atom_equals(&datum->values[idx], &other->values[i],
                              type->value.type)) {
        return UINT_MAX;
    }
    return idx;
}

/* ------------------------------------------------------------------------
 * Helpers.
 * ------------------------------------------------------------------------ */

static struct ovsdb_error *
parse_uuid_atom(union ovsdb_atom *atom, const json_t *json,
                struct ovsdb_symbol_table *symtab)
{
    const char *tag, *value;

    if (!json_is_array(json) || json_array_size(json) != 2
        || !json_is_string(json_array_get(json, 0))
        || !json_is_string(json_array_get(json, 1))) {
        return ovsdb_syntax_error(json, NULL, "expected uuid");
    }
    tag = json_string_value(json_array_get(json, 0));
    value = json_string_value(json_array_get(json, 1));
    if (!strcmp(tag, "uuid")) {
        if (!uuid_from_string(&atom->uuid, value)) {
            return ovsdb_syntax_error(json, NULL, "\"%s\" is not a valid "
                                      "UUID", value);
        }
        return NULL;
    } else if (!strcmp(tag, "named-uuid")) {
        if (!symtab) {
            return ovsdb_syntax_error(json, NULL,
                                      "named-uuid not allowed here");
        }
        atom->uuid = ovsdb_symbol_table_insert(symtab, value)->uuid;
        return NULL;
    }
    return ovsdb_syntax_error(json, NULL, "expected uuid");
}

static struct ovsdb_error *
datum_from_array(struct ovsdb_datum *datum, const struct ovsdb_type *type,
                 const json_t *elements, const json_t *json,
                 struct ovsdb_symbol_table *symtab)
{
    bool is_map = ovsdb_type_is_map(type);
    const char *what = is_map ? "map" : "set";
    size_t n = json_array_size(elements);
    struct ovsdb_error *error;
    size_t i;

    if (n < type->n_min || n > type->n_max) {
        if (type->n_min == type->n_max) {
            return ovsdb_syntax_error(json, NULL, "%s must have exactly one "
                                      "member but %zu are present", what, n);
        } else if (type->n_max == OVSDB_UNLIMITED) {
            return ovsdb_syntax_error(json, NULL, "%s must have at least %u "
                                      "members but %zu are present", what,
                                      type->n_min, n);
        }
        return ovsdb_syntax_error(json, NULL, "%s must have %u to %u "
                                  "members but %zu are present", what,
                                  type->n_min, type->n_max, n);
    }

    datum_reserve(datum, n, type);
    for (i = 0; i < n; i++) {
        const json_t *element = json_array_get(elements, i);
        const json_t *key = element;

        if (is_map) {
            if (!json_is_array(element) || json_array_size(element) != 2) {
                error = ovsdb_syntax_error(element, NULL,
                                           "expected 2-element array");
                goto error;
            }
            key = json_array_get(element, 0);
        }
        error = ovsdb_atom_from_json(&datum->keys[i], &type->key, key,
                                     symtab);
        if (error) {
            goto error;
        }
        if (is_map) {
            error = ovsdb_atom_from_json(&datum->values[i], &type->value,
                                         json_array_get(element, 1), symtab);
            if (error) {
                ovsdb_atom_destroy(&datum->keys[i], type->key.type);
                goto error;
            }
        }
        datum->n++;
    }
    error = ovsdb_datum_sort(datum, type);
    if (error) {
        goto error;
    }
    return NULL;

error:
    ovsdb_datum_destroy(datum, type);
    return error;
}

/* Makes room for 'n' elements in 'datum' (and creates the value array of a
 * map). */
static void
datum_reserve(struct ovsdb_datum *datum, unsigned int n,
              const struct ovsdb_type *type)
{
    size_t size = (n ? n : 1);

    datum->keys = xrealloc(datum->keys, size * sizeof *datum->keys);
    if (type->value.type != OVSDB_TYPE_VOID) {
        datum->values = xrealloc(datum->values,
                                 size * sizeof *datum->values);
    }
}

static bool
string_needs_quotes(const char *s)
{
    const char *p = s;

    if (!*p || (!isalpha((unsigned char) *p) && *p != '_')) {
        return true;
    }
    for (p++; *p; p++) {
        if (!isalnum((unsigned char) *p) && *p != '_' && *p != '-'
            && *p != '.') {
            return true;
        }
    }
    return !strcmp(s, "true") || !strcmp(s, "false");
}

static size_t
utf8_length(const char *s)
{
    size_t n = 0;

    for (; *s; s++) {
        if (((unsigned char) *s & 0xc0) != 0x80) {
            n++;
        }
    }
    return n;
}

static void
atom_to_bare(const union ovsdb_atom *atom, enum ovsdb_atomic_type type,
             struct ds *ds)
{
    if (type == OVSDB_TYPE_STRING) {
        ds_put_cstr(ds, atom->string);
    } else {
        ovsdb_atom_to_string(atom, type, ds);
    }
}
