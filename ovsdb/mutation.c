/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "mutation.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ovsdb-error.h"
#include "ovsdb.h"
#include "schema.h"
#include "util.h"

static const char *const mutator_names[] = {
    [OVSDB_M_ADD] = "+=",
    [OVSDB_M_SUB] = "-=",
    [OVSDB_M_MUL] = "*=",
    [OVSDB_M_DIV] = "/=",
    [OVSDB_M_MOD] = "%=",
    [OVSDB_M_INSERT] = "insert",
    [OVSDB_M_DELETE] = "delete",
};

static struct ovsdb_error *mutation_from_json(
    const struct ovsdb_table_schema *, const json_t *,
    struct ovsdb_symbol_table *, struct ovsdb_mutation *);
static struct ovsdb_error *mutate_arithmetic(struct ovsdb_datum *,
                                             const struct ovsdb_mutation *);
static struct ovsdb_error *check_size(const struct ovsdb_datum *,
                                      const struct ovsdb_mutation *);

/* Parses the "mutations" array 'json' for a table with schema 'ts'. */
struct ovsdb_error *
ovsdb_mutation_set_from_json(const struct ovsdb_table_schema *ts,
                             const json_t *json,
                             struct ovsdb_symbol_table *symtab,
                             struct ovsdb_mutation_set *set)
{
    size_t i, n;

    set->mutations = NULL;
    set->n_mutations = 0;
    if (!json_is_array(json)) {
        return ovsdb_syntax_error(json, NULL, "array expected");
    }
    n = json_array_size(json);
    set->mutations = xcalloc(n ? n : 1, sizeof *set->mutations);
    for (i = 0; i < n; i++) {
        struct ovsdb_error *error;

        error = mutation_from_json(ts, json_array_get(json, i), symtab,
                                   &set->mutations[i]);
        /* A mutation that failed half-way may own a copy of its column's
         * type: the set frees it with the others. */
        set->n_mutations++;
        if (error) {
            ovsdb_mutation_set_destroy(set);
            return error;
        }
    }
    return NULL;
}

/* Frees what 'set' owns. */
void
ovsdb_mutation_set_destroy(struct ovsdb_mutation_set *set)
{
    size_t i;

    for (i = 0; i < set->n_mutations; i++) {
        struct ovsdb_mutation *m = &set->mutations[i];

        ovsdb_datum_destroy(&m->arg, &m->arg_type);
        ovsdb_type_destroy(&m->arg_type);
    }
    free(set->mutations);
    set->mutations = NULL;
    set->n_mutations = 0;
}

/* Applies each mutation of 'set' to 'row', in order.  On error 'row' may be
 * partly mutated; the caller's transaction rolls it back. */
struct ovsdb_error *
ovsdb_mutation_set_execute(struct ovsdb_row *row,
                           const struct ovsdb_mutation_set *set)
{
    size_t i;

    for (i = 0; i < set->n_mutations; i++) {
        const struct ovsdb_mutation *m = &set->mutations[i];
        const struct ovsdb_type *type = &m->column->type;
        struct ovsdb_datum *field = &row->fields[m->column->index];
        struct ovsdb_error *error;

        switch (m->mutator) {
        case OVSDB_M_ADD:
        case OVSDB_M_SUB:
        case OVSDB_M_MUL:
        case OVSDB_M_DIV:
        case OVSDB_M_MOD:
            error = mutate_arithmetic(field, m);
            break;
        case OVSDB_M_INSERT:
            ovsdb_datum_union(field, &m->arg, type);
            error = check_size(field, m);
            break;
        case OVSDB_M_DELETE:
            ovsdb_datum_subtract(field, type, &m->arg, &m->arg_type);
            error = check_size(field, m);
            break;
        default:
            error = NULL;
            break;
        }
        if (error) {
            return error;
        }
    }
    return NULL;
}

static struct ovsdb_error *
type_mismatch(const json_t *json, const struct ovsdb_column *column,
              const char *mutator)
{
    char *english = ovsdb_type_to_english(&column->type);
    struct ovsdb_error *error;

    error = ovsdb_syntax_error(json, NULL, "Type mismatch: \"%s\" operator "
                               "may not be applied to column %s of type %s.",
                               mutator, column->name, english);
    free(english);
    return error;
}

static struct ovsdb_error *
mutation_from_json(const struct ovsdb_table_schema *ts, const json_t *json,
                   struct ovsdb_symbol_table *symtab,
                   struct ovsdb_mutation *m)
{
    const char *column_name, *mutator_name;
    const struct ovsdb_column *column;
    const struct ovsdb_type *type;
    struct ovsdb_error *error;
    size_t i;

    memset(m, 0, sizeof *m);
    ovsdb_type_init_scalar(&m->arg_type, OVSDB_TYPE_INTEGER);
    if (!json_is_array(json) || json_array_size(json) != 3
        || !json_is_string(json_array_get(json, 0))
        || !json_is_string(json_array_get(json, 1))) {
        return ovsdb_syntax_error(json, NULL, "Parse error in mutation.");
    }
    column_name = json_string_value(json_array_get(json, 0));
    mutator_name = json_string_value(json_array_get(json, 1));

    column = ovsdb_table_schema_find_column(ts, column_name);
    if (!column) {
        return ovsdb_syntax_error(json, "unknown column", "No column %s in "
                                  "table %s.", column_name, ts->name);
    }
    if (!column->mutable_ || column->index < OVSDB_N_HIDDEN_COLUMNS) {
        return ovsdb_syntax_error(json, "constraint violation", "Cannot "
                                  "mutate immutable column %s in table %s.",
                                  column->name, ts->name);
    }
    for (i = 0; i < ARRAY_SIZE(mutator_names); i++) {
        if (!strcmp(mutator_name, mutator_names[i])) {
            break;
        }
    }
    if (i == ARRAY_SIZE(mutator_names)) {
        return ovsdb_error("unknown mutator", "No mutator named %s.",
                           mutator_name);
    }
    m->mutator = i;
    m->column = column;
    type = &column->type;

    ovsdb_type_destroy(&m->arg_type);
    switch (m->mutator) {
    case OVSDB_M_ADD:
    case OVSDB_M_SUB:
    case OVSDB_M_MUL:
    case OVSDB_M_DIV:
    case OVSDB_M_MOD:
        if (ovsdb_type_is_map(type)
            || (type->key.type != OVSDB_TYPE_INTEGER
                && (type->key.type != OVSDB_TYPE_REAL
                    || m->mutator == OVSDB_M_MOD))) {
            ovsdb_type_init_scalar(&m->arg_type, OVSDB_TYPE_INTEGER);
            return type_mismatch(json, column, mutator_name);
        }
        /* The operand is a plain number: the column's constraints apply to
         * the result, not to it. */
        ovsdb_type_init_scalar(&m->arg_type, type->key.type);
        break;
    case OVSDB_M_INSERT:
    case OVSDB_M_DELETE:
        if (ovsdb_type_is_scalar(type)) {
            ovsdb_type_init_scalar(&m->arg_type, OVSDB_TYPE_INTEGER);
            return type_mismatch(json, column, mutator_name);
        }
        ovsdb_type_clone(&m->arg_type, type);
        m->arg_type.n_min = 0;
        if (m->mutator == OVSDB_M_DELETE) {
            m->arg_type.n_max = OVSDB_UNLIMITED;
            if (ovsdb_type_is_map(type)) {
                const json_t *arg = json_array_get(json, 2);
                const json_t *tag = (json_is_array(arg)
                                     ? json_array_get(arg, 0) : NULL);

                /* "delete" takes a map of pairs or a set of keys. */
                if (!tag || !json_is_string(tag)
                    || strcmp(json_string_value(tag), "map")) {
                    ovsdb_base_type_destroy(&m->arg_type.value);
                    ovsdb_base_type_init(&m->arg_type.value,
                                         OVSDB_TYPE_VOID);
                }
            }
        }
        break;
    }

    error = ovsdb_datum_from_json(&m->arg, &m->arg_type,
                                  json_array_get(json, 2), symtab);
    if (error) {
        ovsdb_datum_init_empty(&m->arg);
    }
    return error;
}

static struct ovsdb_error *
range_error(const struct ovsdb_mutation *m)
{
    return ovsdb_error("range error", "Result of \"%s\" operation is out of "
                       "range.", mutator_names[m->mutator]);
}

static struct ovsdb_error *
mutate_integer(int64_t *x, int64_t y, const struct ovsdb_mutation *m)
{
    int64_t result;

    switch (m->mutator) {
    case OVSDB_M_ADD:
        if (__builtin_add_overflow(*x, y, &result)) {
            return range_error(m);
        }
        break;
    case OVSDB_M_SUB:
        if (__builtin_sub_overflow(*x, y, &result)) {
            return range_error(m);
        }
        break;
    case OVSDB_M_MUL:
        if (__builtin_mul_overflow(*x, y, &result)) {
            return range_error(m);
        }
        break;
    case OVSDB_M_DIV:
    case OVSDB_M_MOD:
        if (!y) {
            return ovsdb_error("domain error", "Division by zero.");
        }
        if (*x == INT64_MIN && y == -1) {
            if (m->mutator == OVSDB_M_DIV) {
                return range_error(m);
            }
            result = 0;
        } else {
            result = m->mutator == OVSDB_M_DIV ? *x / y : *x % y;
        }
        break;
    case OVSDB_M_INSERT:
    case OVSDB_M_DELETE:
    default:
        return NULL;
    }
    *x = result;
    return NULL;
}

static struct ovsdb_error *
mutate_real(double *x, double y, const struct ovsdb_mutation *m)
{
    double result;

    switch (m->mutator) {
    case OVSDB_M_ADD:
        result = *x + y;
        break;
    case OVSDB_M_SUB:
        result = *x - y;
        break;
    case OVSDB_M_MUL:
        result = *x * y;
        break;
    case OVSDB_M_DIV:
        if (y == 0.0) {
            return ovsdb_error("domain error", "Division by zero.");
        }
        result = *x / y;
        break;
    case OVSDB_M_MOD:
    case OVSDB_M_INSERT:
    case OVSDB_M_DELETE:
    default:
        return NULL;
    }
    if (!isfinite(result)) {
        return range_error(m);
    }
    *x = result;
    return NULL;
}

/* Applies an arithmetic mutator to every element of 'field'. */
static struct ovsdb_error *
mutate_arithmetic(struct ovsdb_datum *field, const struct ovsdb_mutation *m)
{
    const struct ovsdb_type *type = &m->column->type;
    const union ovsdb_atom *arg = &m->arg.keys[0];
    struct ovsdb_error *error;
    unsigned int i;

    for (i = 0; i < field->n; i++) {
        union ovsdb_atom *atom = &field->keys[i];

        error = (type->key.type == OVSDB_TYPE_INTEGER
                 ? mutate_integer(&atom->integer, arg->integer, m)
                 : mutate_real(&atom->real, arg->real, m));
        if (!error) {
            error = ovsdb_atom_check_constraints(atom, &type->key);
        }
        if (error) {
            return error;
        }
    }

    /* Multiplying or dividing can make elements of a set collide, and any
     * mutator can change their order. */
    error = ovsdb_datum_sort(field, type);
    if (error) {
        ovsdb_error_destroy(error);
        return ovsdb_error("constraint violation", "Result of \"%s\" "
                           "operation contains duplicates.",
                           mutator_names[m->mutator]);
    }
    return NULL;
}

static struct ovsdb_error *
check_size(const struct ovsdb_datum *field, const struct ovsdb_mutation *m)
{
    const struct ovsdb_type *type = &m->column->type;

    if (field->n < type->n_min || field->n > type->n_max) {
        char *english = ovsdb_type_to_english(type);
        struct ovsdb_error *error;

        error = ovsdb_error("constraint violation", "Attempted to store %u "
                            "elements in %s.", field->n, english);
        free(english);
        return error;
    }
    return NULL;
}
