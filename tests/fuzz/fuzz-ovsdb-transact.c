/* Fuzz target: the OVSDB transaction engine, as ovsdb-server runs it for a
 * "transact" request.
 *
 * Input: the request's params as JSON text ("[\"T\", {operation}...]").
 * Each input runs on a fresh database with a few rows, whose schema has
 * strong and weak references, garbage-collected rows, an index and
 * maxRows.  Whatever the input does, the database must still satisfy the
 * rules a commit enforces: every strong reference points to a row that
 * exists, reference counts are exact, index values are unique and no table
 * exceeds maxRows.  Its file form must also replay to the same contents.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "ovsdb/execution.h"
#include "ovsdb/file.h"
#include "ovsdb/ovsdb-json.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/schema.h"
#include "util.h"

static const char schema_json[] =
    "{\"name\":\"T\",\"tables\":{"
    "\"R\":{\"isRoot\":true,\"indexes\":[[\"name\"]],\"columns\":{"
    "  \"name\":{\"type\":\"string\"},"
    "  \"n\":{\"type\":{\"key\":{\"type\":\"integer\",\"minInteger\":0,"
    "                            \"maxInteger\":1000}}},"
    "  \"tags\":{\"type\":{\"key\":\"string\",\"value\":\"integer\","
    "                      \"min\":0,\"max\":\"unlimited\"}},"
    "  \"kids\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"K\"},"
    "                      \"min\":0,\"max\":\"unlimited\"}},"
    "  \"weak\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"K\","
    "                      \"refType\":\"weak\"},\"min\":0,\"max\":3}}}},"
    "\"K\":{\"maxRows\":5,\"columns\":{"
    "  \"x\":{\"type\":{\"key\":\"real\",\"min\":0,\"max\":1}},"
    "  \"e\":{\"type\":{\"key\":{\"type\":\"string\","
    "                            \"enum\":[\"set\",[\"a\",\"b\"]]}}},"
    "  \"next\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"K\"},"
    "                      \"min\":0,\"max\":1}}}}}}";

static const char seed_json[] =
    "[\"T\",{\"op\":\"insert\",\"table\":\"R\",\"row\":{\"name\":\"r1\","
    "\"kids\":[\"set\",[[\"named-uuid\",\"k1\"],[\"named-uuid\",\"k2\"]]],"
    "\"weak\":[\"named-uuid\",\"k2\"],\"tags\":[\"map\",[[\"a\",1]]]}},"
    "{\"op\":\"insert\",\"table\":\"K\",\"row\":{\"e\":\"a\","
    "\"next\":[\"named-uuid\",\"k2\"]},\"uuid-name\":\"k1\"},"
    "{\"op\":\"insert\",\"table\":\"K\",\"row\":{\"e\":\"b\"},"
    "\"uuid-name\":\"k2\"},"
    "{\"op\":\"insert\",\"table\":\"R\",\"row\":{\"name\":\"r2\"},"
    "\"uuid\":\"11111111-2222-3333-4444-555555555555\"}]";

static struct ovsdb *
create_db(void)
{
    struct ovsdb_schema *schema;
    json_t *json = json_loads(schema_json, 0, NULL);

    FUZZ_CHECK(json && !ovsdb_schema_from_json(json, &schema),
               "bad schema");
    json_decref(json);
    return ovsdb_create(schema);
}

static void
execute(struct ovsdb *db, const json_t *params)
{
    long long int timeout;
    json_t *result = ovsdb_execute(db, params, NULL, &timeout);

    if (result) {
        json_decref(result);
    }
}

/* Checks the rules every committed state satisfies. */
static void
check_invariants(const struct ovsdb *db)
{
    size_t t;

    for (t = 0; t < db->schema->n_tables; t++) {
        const struct ovsdb_table *table = &db->tables[t];
        const struct ovsdb_table_schema *ts = table->schema;
        struct ovsdb_row *row;

        FUZZ_CHECK(ohmap_count(&table->rows) <= ts->max_rows,
                   "maxRows exceeded");
        OHMAP_FOR_EACH (row, node, &table->rows) {
            size_t n_refs = 0, t2;
            struct ovsdb_row *other;

            FUZZ_CHECK(!row->txn_row, "row left in a transaction");
            FUZZ_CHECK(ts->is_root || row->n_refs,
                       "unreferenced non-root row survived");
            /* Count the strong references to 'row' from scratch. */
            for (t2 = 0; t2 < db->schema->n_tables; t2++) {
                const struct ovsdb_table *from = &db->tables[t2];

                OHMAP_FOR_EACH (other, node, &from->rows) {
                    size_t c;

                    for (c = 0; c < from->schema->n_columns; c++) {
                        const struct ovsdb_column *col
                            = from->schema->columns[c];
                        const struct ovsdb_datum *d = &other->fields[c];
                        unsigned int i;

                        if (!ovsdb_base_type_is_ref(&col->type.key)
                            || col->type.key.uuid.ref_table != ts) {
                            continue;
                        }
                        for (i = 0; i < d->n; i++) {
                            if (!uuid_equals(&d->keys[i].uuid,
                                             ovsdb_row_get_uuid(row))) {
                                continue;
                            }
                            if (ovsdb_base_type_is_strong_ref(
                                    &col->type.key)) {
                                n_refs++;
                            }
                        }
                    }
                }
            }
            FUZZ_CHECK(n_refs == row->n_refs, "reference count is wrong");

            /* References from 'row' point to rows that exist. */
            for (size_t c = 0; c < ts->n_columns; c++) {
                const struct ovsdb_column *col = ts->columns[c];
                const struct ovsdb_datum *d = &row->fields[c];

                if (ovsdb_base_type_is_ref(&col->type.key)) {
                    const struct ovsdb_table *target = &db->tables[
                        col->type.key.uuid.ref_table->index];
                    unsigned int i;

                    for (i = 0; i < d->n; i++) {
                        FUZZ_CHECK(ovsdb_table_get_row(target,
                                                       &d->keys[i].uuid),
                                   "dangling reference");
                    }
                }
                FUZZ_CHECK(d->n >= col->type.n_min
                           && d->n <= col->type.n_max,
                           "column size out of bounds");
            }

            /* Index values are unique. */
            for (size_t i = 0; i < ts->n_indexes; i++) {
                OHMAP_FOR_EACH (other, node, &table->rows) {
                    FUZZ_CHECK(other == row
                               || !ovsdb_row_equal_columns(
                                   row, other,
                                   (const struct ovsdb_column *const *)
                                   ts->indexes[i].columns,
                                   ts->indexes[i].n_columns),
                               "duplicate index values");
                }
            }
        }
    }
}

/* Checks that the database's snapshot record replays to the same rows. */
static void
check_replay(const struct ovsdb *db)
{
    json_t *snapshot = ovsdb_file_snapshot_to_json(db, NULL);
    struct ovsdb *copy = create_db();
    char *a, *b;
    json_t *again;

    if (snapshot) {
        FUZZ_CHECK(!ovsdb_file_replay(copy, snapshot),
                   "snapshot does not replay");
        json_object_del(snapshot, "_date");
    }
    again = ovsdb_file_snapshot_to_json(copy, NULL);
    if (again) {
        json_object_del(again, "_date");
    }
    a = snapshot ? ovsdb_json_to_string(snapshot, OVSDB_JSON_SORT) : NULL;
    b = again ? ovsdb_json_to_string(again, OVSDB_JSON_SORT) : NULL;
    FUZZ_CHECK((!a && !b) || (a && b && !strcmp(a, b)),
               "replayed snapshot differs");
    free(a);
    free(b);
    if (snapshot) {
        json_decref(snapshot);
    }
    if (again) {
        json_decref(again);
    }
    check_invariants(copy);
    ovsdb_destroy(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ovsdb *db = create_db();
    json_t *seed = json_loads(seed_json, 0, NULL);
    json_t *params = json_loadb((const char *) data, size,
                                JSON_DECODE_ANY, NULL);

    FUZZ_CHECK(seed != NULL, "bad seed");
    execute(db, seed);
    json_decref(seed);
    check_invariants(db);
    if (params) {
        execute(db, params);
        /* Twice: the second run meets the first one's rows. */
        execute(db, params);
        json_decref(params);
        check_invariants(db);
        check_replay(db);
    }
    ovsdb_destroy(db);
    return 0;
}
