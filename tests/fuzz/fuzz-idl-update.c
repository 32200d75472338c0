/* Fuzz target: the client IDL's handling of the updates a server sends
 * (idl_apply_updates() in lib/ovsdb-idl.c): "update" (version 1, old/new
 * rows) and "update2"/"update3" (version 2: initial, insert, modify with
 * diffs, delete), for a schema with sets, maps, references and bounded
 * types.
 *
 * Input: one byte, whose low bit chooses version 1 or 2, then a JSON array
 * of <table-updates> objects, applied in turn to one replica.  Whatever the
 * server says, the replica must stay consistent: every row is found by its
 * UUID in its table, the row counts match, and every value is sorted and
 * free of duplicate keys (what lookups and transactions rely on).
 *
 * lib/ovsdb-idl.c is built into this program so that the target reaches
 * the static functions a connection drives.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "lib/ovsdb-idl.c"
#include "fuzz.h"

static const char schema_json[] =
    "{\"name\":\"T\",\"tables\":{"
    "\"R\":{\"isRoot\":true,\"columns\":{"
    "  \"name\":{\"type\":\"string\"},"
    "  \"n\":{\"type\":{\"key\":{\"type\":\"integer\",\"minInteger\":0,"
    "                            \"maxInteger\":10}}},"
    "  \"opt\":{\"type\":{\"key\":\"real\",\"min\":0,\"max\":1}},"
    "  \"tags\":{\"type\":{\"key\":\"string\",\"value\":\"integer\","
    "                      \"min\":0,\"max\":\"unlimited\"}},"
    "  \"ids\":{\"type\":{\"key\":\"integer\",\"min\":0,\"max\":3}},"
    "  \"kids\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"K\"},"
    "                      \"min\":0,\"max\":\"unlimited\"}}}},"
    "\"K\":{\"columns\":{"
    "  \"e\":{\"type\":{\"key\":{\"type\":\"string\","
    "                            \"enum\":[\"set\",[\"a\",\"b\"]]}}},"
    "  \"b\":{\"type\":\"boolean\"},"
    "  \"m\":{\"type\":{\"key\":\"uuid\",\"value\":\"string\","
    "                   \"min\":1,\"max\":2}}}}}}";

static struct ovsdb_schema *schema;

int
LLVMFuzzerInitialize(int *argc DPS_UNUSED, char ***argv DPS_UNUSED)
{
    json_t *json = json_loads(schema_json, 0, NULL);

    FUZZ_CHECK(json && !ovsdb_schema_from_json(json, &schema), "bad schema");
    json_decref(json);
    /* A hostile server makes the IDL warn; the warnings are not the test. */
    vlog_set_levels_from_string_assert("off");
    return 0;
}

static void
check_replica(const struct ovsdb_idl *idl)
{
    for (size_t i = 0; i < idl->schema->n_tables; i++) {
        const struct ovsdb_table_schema *ts = idl->schema->tables[i];
        const struct ovsdb_idl_row *row;
        size_t n = 0;

        for (row = ovsdb_idl_first_row(idl, ts); row;
             row = ovsdb_idl_next_row(row)) {
            n++;
            FUZZ_CHECK(ovsdb_idl_get_row(idl, ts, &row->uuid) == row,
                       "a row is not found by its UUID");
            FUZZ_CHECK(ovsdb_idl_row_get_table(row) == ts,
                       "a row is in another table");
            for (size_t j = OVSDB_N_HIDDEN_COLUMNS; j < ts->n_columns; j++) {
                const struct ovsdb_column *c = ts->columns[j];
                const struct ovsdb_datum *d = ovsdb_idl_row_get(row, c);
                struct ovsdb_datum copy;
                struct ovsdb_type loose = c->type;
                struct ovsdb_error *error;

                loose.n_min = 0;
                loose.n_max = UINT_MAX;
                ovsdb_datum_clone(&copy, d, &loose);
                error = ovsdb_datum_sort(&copy, &loose);
                FUZZ_CHECK(!error, "a value holds duplicate keys");
                FUZZ_CHECK(ovsdb_datum_equals(&copy, d, &loose),
                           "a value is not sorted");
                ovsdb_datum_destroy(&copy, &loose);
            }
        }
        FUZZ_CHECK(n == ovsdb_idl_count_rows(idl, ts),
                   "the row count is wrong");
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ovsdb_idl *idl;
    json_t *updates;
    bool version2;

    if (!size) {
        return 0;
    }
    version2 = data[0] & 1;
    updates = json_loadb((const char *) data + 1, size - 1, 0, NULL);
    if (!updates) {
        return 0;
    }

    idl = ovsdb_idl_create("unix:/nonexistent/dps-fuzz.sock", "T", false);
    idl_set_schema(idl, ovsdb_schema_clone(schema));
    if (json_is_array(updates)) {
        size_t i;
        json_t *u;

        json_array_foreach (updates, i, u) {
            idl_apply_updates(idl, u, version2);
            check_replica(idl);
        }
    } else {
        idl_apply_updates(idl, updates, version2);
        check_replica(idl);
    }
    ovsdb_idl_destroy(idl);
    json_decref(updates);
    return 0;
}
