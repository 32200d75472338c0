/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb.h"

#include <stdlib.h>
#include <string.h>
#include "file.h"
#include "ovsdb-error.h"
#include "transaction.h"
#include "util.h"

/* Returns a new, empty database with 'schema', which it takes over. */
struct ovsdb *
ovsdb_create(struct ovsdb_schema *schema)
{
    struct ovsdb *db = xzalloc(sizeof *db);
    size_t i;

    db->schema = schema;
    db->tables = xcalloc(schema->n_tables + 1, sizeof *db->tables);
    for (i = 0; i < schema->n_tables; i++) {
        struct ovsdb_table *table = &db->tables[i];
        size_t j;

        table->schema = schema->tables[i];
        ohmap_init(&table->rows);
        table->indexes = xcalloc(table->schema->n_indexes + 1,
                                 sizeof *table->indexes);
        for (j = 0; j < table->schema->n_indexes; j++) {
            ohmap_init(&table->indexes[j]);
        }
    }
    return db;
}

/* Frees 'db', its rows and its schema. */
void
ovsdb_destroy(struct ovsdb *db)
{
    size_t i;

    if (!db) {
        return;
    }
    ovsdb_file_close(db->file);
    ovsdb_txn_history_destroy(db);
    for (i = 0; i < db->schema->n_tables; i++) {
        struct ovsdb_table *table = &db->tables[i];
        struct ovsdb_row *row;

        size_t j;

        OHMAP_FOR_EACH_SAFE (row, node, &table->rows) {
            ovsdb_row_destroy(row);
        }
        ohmap_destroy(&table->rows);
        for (j = 0; j < table->schema->n_indexes; j++) {
            struct ovsdb_index_entry *e;

            OHMAP_FOR_EACH_SAFE (e, node, &table->indexes[j]) {
                free(e);
            }
            ohmap_destroy(&table->indexes[j]);
        }
        free(table->indexes);
    }
    free(db->tables);
    ovsdb_schema_destroy(db->schema);
    free(db);
}

/* Returns the table of 'db' called 'name', or NULL. */
struct ovsdb_table *
ovsdb_get_table(const struct ovsdb *db, const char *name)
{
    const struct ovsdb_table_schema *ts = ovsdb_schema_find_table(db->schema,
                                                                  name);
    return ts ? &db->tables[ts->index] : NULL;
}

/* Returns the number of rows in all tables of 'db'. */
size_t
ovsdb_count_rows(const struct ovsdb *db)
{
    size_t i, n = 0;

    for (i = 0; i < db->schema->n_tables; i++) {
        n += ohmap_count(&db->tables[i].rows);
    }
    return n;
}

/* Returns the row of 'table' with 'uuid', or NULL. */
struct ovsdb_row *
ovsdb_table_get_row(const struct ovsdb_table *table, const struct uuid *uuid)
{
    struct ovsdb_row *row;

    OHMAP_FOR_EACH_WITH_HASH (row, node, uuid_hash(uuid), &table->rows) {
        if (uuid_equals(ovsdb_row_get_uuid(row), uuid)) {
            return row;
        }
    }
    return NULL;
}

/* Returns the hash of the values that 'row' has in the columns of index
 * 'ix'. */
uint32_t
ovsdb_row_index_hash(const struct ovsdb_row *row,
                     const struct ovsdb_index_schema *ix)
{
    uint32_t hash = 0;
    size_t i;

    for (i = 0; i < ix->n_columns; i++) {
        const struct ovsdb_column *column = ix->columns[i];

        hash = ovsdb_datum_hash(&row->fields[column->index], &column->type,
                                hash);
    }
    return hash;
}

/* Adds 'row', as it is now, to every index of 'table'. */
void
ovsdb_table_index_add(struct ovsdb_table *table, const struct ovsdb_row *row)
{
    size_t i;

    for (i = 0; i < table->schema->n_indexes; i++) {
        struct ovsdb_index_entry *e = xmalloc(sizeof *e);

        e->uuid = *ovsdb_row_get_uuid(row);
        ohmap_insert(&table->indexes[i], &e->node,
                     ovsdb_row_index_hash(row, &table->schema->indexes[i]));
    }
}

/* Removes the row with the UUID and values of 'row' (possibly a copy of a
 * row as it was) from every index of 'table'. */
void
ovsdb_table_index_remove(struct ovsdb_table *table,
                         const struct ovsdb_row *row)
{
    const struct uuid *uuid = ovsdb_row_get_uuid(row);
    size_t i;

    for (i = 0; i < table->schema->n_indexes; i++) {
        uint32_t hash = ovsdb_row_index_hash(row,
                                             &table->schema->indexes[i]);
        struct ovsdb_index_entry *e;

        OHMAP_FOR_EACH_WITH_HASH (e, node, hash, &table->indexes[i]) {
            if (uuid_equals(&e->uuid, uuid)) {
                ohmap_remove(&table->indexes[i], &e->node);
                free(e);
                break;
            }
        }
    }
}

/* Returns a new row for 'table' (not inserted into it) with every column
 * at its default and the all-zero UUID. */
struct ovsdb_row *
ovsdb_row_create(struct ovsdb_table *table)
{
    const struct ovsdb_table_schema *ts = table->schema;
    struct ovsdb_row *row;
    size_t i;

    row = xzalloc(sizeof *row + ts->n_columns * sizeof *row->fields);
    row->table = table;
    for (i = 0; i < ts->n_columns; i++) {
        ovsdb_datum_init_default(&row->fields[i], &ts->columns[i]->type);
    }
    return row;
}

/* Returns a detached copy of 'row', with the same UUID and 'n_refs'. */
struct ovsdb_row *
ovsdb_row_clone(const struct ovsdb_row *row)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    struct ovsdb_row *copy;
    size_t i;

    copy = xzalloc(sizeof *copy + ts->n_columns * sizeof *copy->fields);
    copy->table = row->table;
    copy->n_refs = row->n_refs;
    for (i = 0; i < ts->n_columns; i++) {
        ovsdb_datum_clone(&copy->fields[i], &row->fields[i],
                          &ts->columns[i]->type);
    }
    return copy;
}

/* Frees 'row', which must not be in a table. */
void
ovsdb_row_destroy(struct ovsdb_row *row)
{
    if (row) {
        const struct ovsdb_table_schema *ts = row->table->schema;
        size_t i;

        for (i = 0; i < ts->n_columns; i++) {
            ovsdb_datum_destroy(&row->fields[i], &ts->columns[i]->type);
        }
        free(row);
    }
}

/* Returns the UUID of 'row'. */
const struct uuid *
ovsdb_row_get_uuid(const struct ovsdb_row *row)
{
    return &row->fields[OVSDB_COL_UUID].keys[0].uuid;
}

/* Sets the UUID of 'row', which must not be in a table. */
void
ovsdb_row_set_uuid(struct ovsdb_row *row, const struct uuid *uuid)
{
    row->fields[OVSDB_COL_UUID].keys[0].uuid = *uuid;
}

/* Returns a JSON object with the 'n_columns' 'columns' of 'row'. */
json_t *
ovsdb_row_to_json(const struct ovsdb_row *row,
                  const struct ovsdb_column *const *columns, size_t n_columns)
{
    json_t *json = json_object();
    size_t i;

    for (i = 0; i < n_columns; i++) {
        const struct ovsdb_column *column = columns[i];

        json_object_set_new(json, column->name,
                            ovsdb_datum_to_json(&row->fields[column->index],
                                                &column->type));
    }
    return json;
}

/* Parses the RFC 7047 <row> object 'json' into the columns of 'row' it
 * names.  If 'columns_set' is nonnull, marks there (by column index) the
 * columns found.  "_uuid" and "_version" are not accepted. */
struct ovsdb_error *
ovsdb_row_from_json(struct ovsdb_row *row, const json_t *json,
                    struct ovsdb_symbol_table *symtab, bool *columns_set)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    const char *name;
    json_t *value;

    if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "row must be JSON object");
    }
    json_object_foreach ((json_t *) json, name, value) {
        const struct ovsdb_column *column;
        struct ovsdb_datum datum;
        struct ovsdb_error *error;

        column = ovsdb_table_schema_find_column(ts, name);
        if (!column || column->index < OVSDB_N_HIDDEN_COLUMNS) {
            return ovsdb_syntax_error(json, "unknown column", "No column %s "
                                      "in table %s.", name, ts->name);
        }
        error = ovsdb_datum_from_json(&datum, &column->type, value, symtab);
        if (error) {
            return error;
        }
        ovsdb_datum_swap(&row->fields[column->index], &datum);
        ovsdb_datum_destroy(&datum, &column->type);
        if (columns_set) {
            columns_set[column->index] = true;
        }
    }
    return NULL;
}

/* Returns true if 'a' and 'b' agree on every one of 'columns'. */
bool
ovsdb_row_equal_columns(const struct ovsdb_row *a, const struct ovsdb_row *b,
                        const struct ovsdb_column *const *columns,
                        size_t n_columns)
{
    size_t i;

    for (i = 0; i < n_columns; i++) {
        const struct ovsdb_column *column = columns[i];

        if (!ovsdb_datum_equals(&a->fields[column->index],
                                &b->fields[column->index], &column->type)) {
            return false;
        }
    }
    return true;
}
