/* "where" clauses of RFC 7047 operations: a list of conditions
 * [<column>, <function>, <value>] that a row must all satisfy.  Open
 * vSwitch also accepts the constants true and false as conditions.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_CONDITION_H
#define OVSDB_CONDITION_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "compiler.h"
#include "ovsdb-data.h"

struct ovsdb_column;
struct ovsdb_row;
struct ovsdb_table_schema;

enum ovsdb_function {
    OVSDB_F_FALSE,              /* The constant false. */
    OVSDB_F_TRUE,               /* The constant true. */
    OVSDB_F_EQ,
    OVSDB_F_NE,
    OVSDB_F_LT,
    OVSDB_F_LE,
    OVSDB_F_GT,
    OVSDB_F_GE,
    OVSDB_F_INCLUDES,
    OVSDB_F_EXCLUDES
};

struct ovsdb_clause {
    enum ovsdb_function function;
    const struct ovsdb_column *column; /* NULL for the constants. */
    struct ovsdb_datum arg;
};

struct ovsdb_condition {
    struct ovsdb_clause *clauses;
    size_t n_clauses;
};

struct ovsdb_error *ovsdb_condition_from_json(
    const struct ovsdb_table_schema *, const json_t *,
    struct ovsdb_symbol_table *, struct ovsdb_condition *)
    DPS_WARN_UNUSED_RESULT;
void ovsdb_condition_destroy(struct ovsdb_condition *);
bool ovsdb_condition_evaluate(const struct ovsdb_condition *,
                              const struct ovsdb_row *);
bool ovsdb_condition_evaluate_any(const struct ovsdb_condition *,
                                  const struct ovsdb_row *);
const struct uuid *ovsdb_condition_get_uuid(const struct ovsdb_condition *);

#endif /* condition.h */
