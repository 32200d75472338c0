/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "convert.h"

#include "file.h"
#include "ovsdb-error.h"
#include "ovsdb.h"
#include "schema.h"
#include "util.h"

static struct ovsdb_error *copy_rows(const struct ovsdb *src,
                                     struct ovsdb *dst);

/* Converts the rows of 'src' to 'new_schema' (which the caller keeps) and
 * stores the result, a new database without a file, in '*dstp'.
 *
 * As in Open vSwitch: a table or column that 'new_schema' lacks is dropped,
 * a new column takes its default value, a row keeps its UUID, and each
 * value is converted to its column's new type through its JSON form, so
 * that a value the new type cannot hold (an integer below a new minimum, a
 * set grown beyond a new maximum, a string outside a new enumeration) fails
 * the conversion with the error that inserting it would give.  The result
 * must also keep referential integrity.  Unreferenced rows of non-root
 * tables are collected as a commit would.
 *
 * Returns NULL, or the error, with '*dstp' set to NULL. */
struct ovsdb_error *
ovsdb_convert(const struct ovsdb *src, const struct ovsdb_schema *new_schema,
              struct ovsdb **dstp)
{
    struct ovsdb *copy = ovsdb_create(ovsdb_schema_clone(new_schema));
    struct ovsdb_error *error = copy_rows(src, copy);
    struct ovsdb *dst = NULL;

    if (!error) {
        /* The copy has its rows but neither reference counts nor indexes:
         * replaying it as one snapshot through the transaction engine
         * builds both, and checks every constraint a commit checks. */
        json_t *snapshot = ovsdb_file_snapshot_to_json(copy, NULL);

        dst = ovsdb_create(ovsdb_schema_clone(new_schema));
        if (snapshot) {
            error = ovsdb_file_replay(dst, snapshot);
            json_decref(snapshot);
        }
        if (error) {
            ovsdb_destroy(dst);
            dst = NULL;
        }
    }
    ovsdb_destroy(copy);
    *dstp = dst;
    return error;
}

/* Copies the rows of 'src' into the empty 'dst', converting each value to
 * its column's type in 'dst'. */
static struct ovsdb_error *
copy_rows(const struct ovsdb *src, struct ovsdb *dst)
{
    size_t t;

    for (t = 0; t < dst->schema->n_tables; t++) {
        struct ovsdb_table *dst_table = &dst->tables[t];
        const struct ovsdb_table *src_table;
        struct ovsdb_row *src_row;

        src_table = ovsdb_get_table(src, dst_table->schema->name);
        if (!src_table) {
            continue;
        }
        OHMAP_FOR_EACH (src_row, node, &src_table->rows) {
            struct ovsdb_row *row = ovsdb_row_create(dst_table);
            size_t c;

            ovsdb_row_set_uuid(row, ovsdb_row_get_uuid(src_row));
            for (c = OVSDB_N_HIDDEN_COLUMNS; c < src_table->schema->n_columns;
                 c++) {
                const struct ovsdb_column *src_col
                    = src_table->schema->columns[c];
                const struct ovsdb_column *dst_col;
                struct ovsdb_error *error;
                struct ovsdb_datum datum;
                json_t *json;

                dst_col = ovsdb_table_schema_find_column(dst_table->schema,
                                                         src_col->name);
                if (!dst_col) {
                    continue;
                }
                json = ovsdb_datum_to_json(&src_row->fields[c],
                                           &src_col->type);
                error = ovsdb_datum_from_json(&datum, &dst_col->type, json,
                                              NULL);
                json_decref(json);
                if (error) {
                    /* Open vSwitch reports the value's error as it is,
                     * e.g. "constraint violation: 1 is less than minimum
                     * allowed value 5". */
                    ovsdb_row_destroy(row);
                    return error;
                }
                ovsdb_datum_swap(&row->fields[dst_col->index], &datum);
                ovsdb_datum_destroy(&datum, &dst_col->type);
            }
            ohmap_insert(&dst_table->rows, &row->node,
                         uuid_hash(ovsdb_row_get_uuid(row)));
        }
    }
    return NULL;
}
