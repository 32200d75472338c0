/* OVSDB schemas (RFC 7047 section 3.2, with Open vSwitch's extensions):
 * a database schema names its tables, a table schema its columns, and a
 * column has a type.
 *
 * Every table has two extra columns that schemas do not list: "_uuid" (the
 * row's identity, index 0) and "_version" (a UUID that changes whenever the
 * row changes, index 1).  The schema's own columns follow, in name order.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_SCHEMA_H
#define OVSDB_SCHEMA_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "compiler.h"
#include "ovsdb-types.h"

struct ovsdb_datum;

enum {
    OVSDB_COL_UUID = 0,         /* Index of column "_uuid". */
    OVSDB_COL_VERSION = 1,      /* Index of column "_version". */
    OVSDB_N_HIDDEN_COLUMNS = 2
};

struct ovsdb_column {
    char *name;
    unsigned int index;         /* In the table's 'columns'. */
    struct ovsdb_type type;
    bool mutable_;              /* Updates allowed after insertion? */
    bool persistent;            /* False for "ephemeral" columns. */
};

struct ovsdb_index_schema {
    struct ovsdb_column **columns;
    size_t n_columns;
};

struct ovsdb_table_schema {
    char *name;
    unsigned int index;         /* In the database schema's 'tables'. */
    struct ovsdb_column **columns; /* "_uuid", "_version", then by name. */
    size_t n_columns;
    bool is_root;               /* False: rows without strong refs go. */
    unsigned int max_rows;      /* UINT_MAX if unlimited. */
    struct ovsdb_index_schema *indexes;
    size_t n_indexes;
    unsigned int *ovs_order;    /* Column indexes, in Open vSwitch's order. */
};

struct ovsdb_schema {
    char *name;
    char *version;              /* "x.y.z", or "" if the schema has none. */
    char *cksum;                /* "" if the schema has none. */
    struct ovsdb_table_schema **tables; /* In name order. */
    size_t n_tables;
    unsigned int *ovs_order;    /* Table indexes, in Open vSwitch's order. */
};

struct ovsdb_error *ovsdb_schema_from_json(const json_t *,
                                           struct ovsdb_schema **)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_schema_from_file(const char *file_name,
                                           struct ovsdb_schema **)
    DPS_WARN_UNUSED_RESULT;
json_t *ovsdb_schema_to_json(const struct ovsdb_schema *);
struct ovsdb_schema *ovsdb_schema_clone(const struct ovsdb_schema *);
void ovsdb_schema_persist_ephemeral_columns(struct ovsdb_schema *,
                                            const char *file_name);
void ovsdb_schema_destroy(struct ovsdb_schema *);
bool ovsdb_schema_equal(const struct ovsdb_schema *,
                        const struct ovsdb_schema *);
struct ovsdb_table_schema *ovsdb_schema_find_table(
    const struct ovsdb_schema *, const char *name);

int ovsdb_table_schema_compare_rows(const struct ovsdb_table_schema *,
                                    const struct ovsdb_datum *a_fields,
                                    const struct ovsdb_datum *b_fields);
struct ovsdb_column *ovsdb_table_schema_find_column(
    const struct ovsdb_table_schema *, const char *name);

#endif /* schema.h */
