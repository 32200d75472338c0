/* "mutations" of RFC 7047's "mutate" operation: a list of
 * [<column>, <mutator>, <value>] applied in order to each selected row.
 *
 * Mutators: "+=", "-=", "*=", "/=", "%=" on integer and real columns (each
 * element of a set), "insert" and "delete" on sets and maps.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_MUTATION_H
#define OVSDB_MUTATION_H 1

#include <jansson.h>
#include <stddef.h>
#include "compiler.h"
#include "ovsdb-data.h"

struct ovsdb_column;
struct ovsdb_row;
struct ovsdb_table_schema;

enum ovsdb_mutator {
    OVSDB_M_ADD,
    OVSDB_M_SUB,
    OVSDB_M_MUL,
    OVSDB_M_DIV,
    OVSDB_M_MOD,
    OVSDB_M_INSERT,
    OVSDB_M_DELETE
};

struct ovsdb_mutation {
    enum ovsdb_mutator mutator;
    const struct ovsdb_column *column;
    struct ovsdb_datum arg;
    struct ovsdb_type arg_type; /* How 'arg' was parsed. */
};

struct ovsdb_mutation_set {
    struct ovsdb_mutation *mutations;
    size_t n_mutations;
};

struct ovsdb_error *ovsdb_mutation_set_from_json(
    const struct ovsdb_table_schema *, const json_t *,
    struct ovsdb_symbol_table *, struct ovsdb_mutation_set *)
    DPS_WARN_UNUSED_RESULT;
void ovsdb_mutation_set_destroy(struct ovsdb_mutation_set *);
struct ovsdb_error *ovsdb_mutation_set_execute(
    struct ovsdb_row *, const struct ovsdb_mutation_set *)
    DPS_WARN_UNUSED_RESULT;

#endif /* mutation.h */
