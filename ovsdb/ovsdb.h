/* An in-memory OVSDB database: a schema and, per table, its rows.
 *
 * Rows live in their table's hash map, keyed by UUID.  Changes go through
 * transactions (transaction.h), which apply them in place and keep enough
 * to undo them; 'n_refs' counts the strong references to a row and is kept
 * exact by every committed transaction.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_OVSDB_H
#define OVSDB_OVSDB_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "compiler.h"
#include "ohmap.h"
#include "ovsdb-data.h"
#include "schema.h"

struct ovsdb_file;
struct ovsdb_txn_row;

struct ovsdb_row {
    struct ohmap_node node;     /* In 'table->rows', hashed by UUID. */
    struct ovsdb_table *table;
    size_t n_refs;              /* Strong references to this row. */
    struct ovsdb_txn_row *txn_row; /* Set while a transaction holds it. */
    struct ovsdb_datum fields[]; /* One per column of the table schema. */
};

struct ovsdb_table {
    const struct ovsdb_table_schema *schema;
    struct ohmap rows;

    /* One map per index of the schema: the committed rows, as
     * 'struct ovsdb_index_entry's hashed by ovsdb_row_index_hash().
     * Transactions keep them up to date when they commit. */
    struct ohmap *indexes;

    /* "ovsdb-server/tlog-set": log the changes each transaction makes to
     * the table's rows (txn-log.h). */
    bool log;
};

struct ovsdb_index_entry {
    struct ohmap_node node;
    struct uuid uuid;           /* Of the row. */
};

struct ovsdb_txn;
struct ovsdb_txn_history_entry;

struct ovsdb {
    struct ovsdb_schema *schema;
    struct ovsdb_table *tables; /* Parallel to 'schema->tables'. */
    struct ovsdb_file *file;    /* Where commits go, or NULL. */

    /* Called for each transaction that commits, after it is stored and
     * while its rows still show what changed (ovsdb_txn_first_row()), or
     * NULL. */
    void (*commit_cb)(const struct ovsdb_txn *, void *aux);
    void *commit_aux;

    /* Transaction history (see transaction.h), oldest first. */
    bool need_txn_history;
    struct ovsdb_txn_history_entry **txn_history;
    size_t n_txn_history;
    size_t n_txn_history_atoms;
    size_t n_atoms;             /* In all rows, kept while there is a
                                 * history. */
};

struct ovsdb *ovsdb_create(struct ovsdb_schema *);
void ovsdb_destroy(struct ovsdb *);
struct ovsdb_table *ovsdb_get_table(const struct ovsdb *, const char *name);
size_t ovsdb_count_rows(const struct ovsdb *);

struct ovsdb_row *ovsdb_table_get_row(const struct ovsdb_table *,
                                      const struct uuid *);

uint32_t ovsdb_row_index_hash(const struct ovsdb_row *,
                              const struct ovsdb_index_schema *);
void ovsdb_table_index_add(struct ovsdb_table *, const struct ovsdb_row *);
void ovsdb_table_index_remove(struct ovsdb_table *,
                              const struct ovsdb_row *);

struct ovsdb_row *ovsdb_row_create(struct ovsdb_table *);
struct ovsdb_row *ovsdb_row_clone(const struct ovsdb_row *);
void ovsdb_row_destroy(struct ovsdb_row *);
const struct uuid *ovsdb_row_get_uuid(const struct ovsdb_row *);
void ovsdb_row_set_uuid(struct ovsdb_row *, const struct uuid *);
json_t *ovsdb_row_to_json(const struct ovsdb_row *,
                          const struct ovsdb_column *const *columns,
                          size_t n_columns);
struct ovsdb_error *ovsdb_row_from_json(struct ovsdb_row *, const json_t *,
                                        struct ovsdb_symbol_table *,
                                        bool *columns_set)
    DPS_WARN_UNUSED_RESULT;
bool ovsdb_row_equal_columns(const struct ovsdb_row *,
                             const struct ovsdb_row *,
                             const struct ovsdb_column *const *columns,
                             size_t n_columns);

#endif /* ovsdb.h */
