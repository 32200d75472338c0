/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "condition.h"

#include <stdlib.h>
#include <string.h>
#include "ovsdb-error.h"
#include "ovsdb.h"
#include "schema.h"
#include "util.h"

static const char *const function_names[] = {
    [OVSDB_F_FALSE] = "false",
    [OVSDB_F_TRUE] = "true",
    [OVSDB_F_EQ] = "==",
    [OVSDB_F_NE] = "!=",
    [OVSDB_F_LT] = "<",
    [OVSDB_F_LE] = "<=",
    [OVSDB_F_GT] = ">",
    [OVSDB_F_GE] = ">=",
    [OVSDB_F_INCLUDES] = "includes",
    [OVSDB_F_EXCLUDES] = "excludes",
};

static struct ovsdb_error *clause_from_json(const struct ovsdb_table_schema *,
                                            const json_t *,
                                            struct ovsdb_symbol_table *,
                                            struct ovsdb_clause *);
static bool clause_evaluate(const struct ovsdb_clause *,
                            const struct ovsdb_row *);

/* Parses the "where" array 'json' for a table with schema 'ts' into
 * 'cond'. */
struct ovsdb_error *
ovsdb_condition_from_json(const struct ovsdb_table_schema *ts,
                          const json_t *json,
                          struct ovsdb_symbol_table *symtab,
                          struct ovsdb_condition *cond)
{
    size_t i, n;

    cond->clauses = NULL;
    cond->n_clauses = 0;
    if (!json_is_array(json)) {
        return ovsdb_syntax_error(json, NULL, "array expected");
    }
    n = json_array_size(json);
    cond->clauses = xcalloc(n ? n : 1, sizeof *cond->clauses);
    for (i = 0; i < n; i++) {
        struct ovsdb_error *error;

        error = clause_from_json(ts, json_array_get(json, i), symtab,
                                 &cond->clauses[i]);
        if (error) {
            ovsdb_condition_destroy(cond);
            return error;
        }
        cond->n_clauses++;
    }
    return NULL;
}

/* Frees what 'cond' owns. */
void
ovsdb_condition_destroy(struct ovsdb_condition *cond)
{
    size_t i;

    for (i = 0; i < cond->n_clauses; i++) {
        struct ovsdb_clause *clause = &cond->clauses[i];

        if (clause->column) {
            ovsdb_datum_destroy(&clause->arg, &clause->column->type);
        }
    }
    free(cond->clauses);
    cond->clauses = NULL;
    cond->n_clauses = 0;
}

/* Returns true if 'row' satisfies every clause of 'cond'. */
bool
ovsdb_condition_evaluate(const struct ovsdb_condition *cond,
                         const struct ovsdb_row *row)
{
    size_t i;

    for (i = 0; i < cond->n_clauses; i++) {
        if (!clause_evaluate(&cond->clauses[i], row)) {
            return false;
        }
    }
    return true;
}

/* Returns true if 'row' satisfies at least one clause of 'cond', or if 'cond'
 * has no clause at all.  This is how the "where" of a monitor_cond request
 * selects rows (unlike a transaction's "where", whose clauses must all
 * hold). */
bool
ovsdb_condition_evaluate_any(const struct ovsdb_condition *cond,
                             const struct ovsdb_row *row)
{
    size_t i;

    if (!cond->n_clauses) {
        return true;
    }
    for (i = 0; i < cond->n_clauses; i++) {
        if (clause_evaluate(&cond->clauses[i], row)) {
            return true;
        }
    }
    return false;
}

/* If 'cond' includes a clause "_uuid == <uuid>", returns that UUID, which
 * lets a caller look the row up instead of scanning; otherwise NULL. */
const struct uuid *
ovsdb_condition_get_uuid(const struct ovsdb_condition *cond)
{
    size_t i;

    for (i = 0; i < cond->n_clauses; i++) {
        const struct ovsdb_clause *clause = &cond->clauses[i];

        if (clause->function == OVSDB_F_EQ && clause->column
            && clause->column->index == OVSDB_COL_UUID
            && clause->arg.n == 1) {
            return &clause->arg.keys[0].uuid;
        }
    }
    return NULL;
}

static struct ovsdb_error *
clause_from_json(const struct ovsdb_table_schema *ts, const json_t *json,
                 struct ovsdb_symbol_table *symtab,
                 struct ovsdb_clause *clause)
{
    const struct ovsdb_column *column;
    const char *column_name, *function_name;
    struct ovsdb_type arg_type;
    struct ovsdb_error *error;
    size_t f;

    memset(clause, 0, sizeof *clause);
    if (json_is_boolean(json)) {
        clause->function = json_is_true(json) ? OVSDB_F_TRUE : OVSDB_F_FALSE;
        return NULL;
    }
    if (!json_is_array(json) || json_array_size(json) != 3
        || !json_is_string(json_array_get(json, 0))
        || !json_is_string(json_array_get(json, 1))) {
        return ovsdb_syntax_error(json, NULL, "Parse error in condition.");
    }
    column_name = json_string_value(json_array_get(json, 0));
    function_name = json_string_value(json_array_get(json, 1));

    column = ovsdb_table_schema_find_column(ts, column_name);
    if (!column) {
        return ovsdb_syntax_error(json, "unknown column", "No column %s in "
                                  "table %s.", column_name, ts->name);
    }
    for (f = OVSDB_F_EQ; f < ARRAY_SIZE(function_names); f++) {
        if (!strcmp(function_name, function_names[f])) {
            break;
        }
    }
    if (f == ARRAY_SIZE(function_names)) {
        return ovsdb_error("unknown function", "No function named %s.",
                           function_name);
    }

    /* Ordering functions apply only to numbers, alone or optional. */
    arg_type = column->type;
    if (f >= OVSDB_F_LT && f <= OVSDB_F_GE) {
        if (column->type.n_max != 1
            || column->type.value.type != OVSDB_TYPE_VOID
            || (column->type.key.type != OVSDB_TYPE_INTEGER
                && column->type.key.type != OVSDB_TYPE_REAL)) {
            char *english = ovsdb_type_to_english(&column->type);

            error = ovsdb_syntax_error(json, NULL, "Type mismatch: \"%s\" "
                                       "operator may not be applied to "
                                       "column %s of type %s.",
                                       function_names[f], column->name,
                                       english);
            free(english);
            return error;
        }
        arg_type.n_min = 1;
    } else if (f == OVSDB_F_INCLUDES || f == OVSDB_F_EXCLUDES) {
        arg_type.n_min = 0;
    }

    error = ovsdb_datum_from_json(&clause->arg, &arg_type,
                                  json_array_get(json, 2), symtab);
    if (error) {
        return error;
    }
    clause->function = f;
    clause->column = column;
    return NULL;
}

static bool
clause_evaluate(const struct ovsdb_clause *clause, const struct ovsdb_row *row)
{
    const struct ovsdb_type *type;
    const struct ovsdb_datum *field;
    int cmp;

    switch (clause->function) {
    case OVSDB_F_FALSE:
        return false;
    case OVSDB_F_TRUE:
        return true;
    default:
        break;
    }

    type = &clause->column->type;
    field = &row->fields[clause->column->index];
    switch (clause->function) {
    case OVSDB_F_EQ:
        return ovsdb_datum_equals(field, &clause->arg, type);
    case OVSDB_F_NE:
        return !ovsdb_datum_equals(field, &clause->arg, type);
    case OVSDB_F_INCLUDES:
        return ovsdb_datum_includes_all(field, &clause->arg, type);
    case OVSDB_F_EXCLUDES:
        return ovsdb_datum_excludes_all(field, &clause->arg, type);
    case OVSDB_F_LT:
    case OVSDB_F_LE:
    case OVSDB_F_GT:
    case OVSDB_F_GE:
        /* An empty optional column satisfies no ordering. */
        if (!field->n) {
            return false;
        }
        cmp = ovsdb_atom_compare_3way(&field->keys[0], &clause->arg.keys[0],
                                      type->key.type);
        return (clause->function == OVSDB_F_LT ? cmp < 0
                : clause->function == OVSDB_F_LE ? cmp <= 0
                : clause->function == OVSDB_F_GT ? cmp > 0
                : cmp >= 0);
    case OVSDB_F_FALSE:
    case OVSDB_F_TRUE:
        break;
    }
    return false;
}
